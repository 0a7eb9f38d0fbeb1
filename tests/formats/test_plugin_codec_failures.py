"""A plugin codec that raises: the failure is a `FormatError` located at the item or part it
was given, naming the codec and the error, with the plugin's own exception chained, in every
format that takes codecs. (A tester's encoder with a typo ended in a bare ``AttributeError``
that named no item.)"""

from __future__ import annotations

from typing import ClassVar

import attrs
import pytest

from semantic_chat import ChatHistory, ChatMessageContent, KernelContent, TextContent, formats
from semantic_chat.errors import FormatError, InvalidValueError
from semantic_chat.formats import codecs
from semantic_chat.labels import ContentType


@attrs.define
class ReelContent(KernelContent):
    content_type: ClassVar[ContentType] = ContentType("test_failing_codec_reel")
    url: str


def _broken_encoder(item: ReelContent) -> dict:
    return {"type": "reel", "url": item.url.nope}  # type: ignore[attr-defined]


def _refusing_encoder(item: ReelContent) -> dict:
    raise InvalidValueError("no reels today", path="url")


@pytest.fixture(autouse=True)
def _forget_codecs():
    yield
    for name in codecs._CODECS:
        formats.unregister_encoder(name, ReelContent)
    formats.unregister_decoder("openai-chat", "reel")
    formats.unregister_decoder("openai-responses", "reel")
    formats.unregister_decoder("gemini", "reel")
    formats.unregister_decoder("sk-dotnet", "ReelContent")


def _history() -> ChatHistory:
    return ChatHistory([
        ChatMessageContent("user", "hi"),
        ChatMessageContent("user", items=[TextContent("see"), ReelContent("r.mp4")]),
    ])


WRITERS = ["openai-chat", "openai-responses", "anthropic", "gemini", "sk-dotnet"]


@pytest.mark.parametrize("name", WRITERS)
def test_an_encoder_that_raises_is_located_and_chained(name):
    formats.register_encoder(name, ReelContent, _broken_encoder)
    with pytest.raises(FormatError) as raised:
        formats.get(name).to_payload(_history())
    assert str(raised.value) == (
        "messages[1].items[1]: the encoder for ReelContent raised AttributeError: "
        "'str' object has no attribute 'nope'")
    assert type(raised.value.__cause__) is AttributeError


@pytest.mark.parametrize("name", WRITERS)
def test_a_library_error_an_encoder_raises_is_located_at_the_item(name):
    formats.register_encoder(name, ReelContent, _refusing_encoder)
    with pytest.raises(InvalidValueError) as raised:
        formats.get(name).to_payload(_history())
    assert str(raised.value) == "messages[1].items[1].url: no reels today"


def test_a_decoder_that_raises_is_located_and_chained():
    formats.register_decoder("openai-chat", "reel", lambda part: ReelContent(part["link"]))
    payload = [{"role": "user", "content": [{"type": "text", "text": "see"},
                                            {"type": "reel", "url": "r.mp4"}]}]
    with pytest.raises(FormatError) as raised:
        formats.get("openai-chat").from_payload(payload)
    assert str(raised.value) == (
        "messages[0].content[1]: the decoder for part type 'reel' raised KeyError: 'link'")
    assert type(raised.value.__cause__) is KeyError


def test_a_gemini_decoder_that_raises_is_located_and_chained():
    formats.register_decoder("gemini", "reel", lambda part: ReelContent(part["reel"]["link"]))
    payload = [{"role": "user", "parts": [{"text": "see"}, {"reel": {"url": "r.mp4"}}]}]
    with pytest.raises(FormatError) as raised:
        formats.get("gemini").from_payload(payload)
    assert str(raised.value) == (
        "contents[0].parts[1]: the decoder for part type 'reel' raised KeyError: 'link'")
    assert type(raised.value.__cause__) is KeyError


def test_a_dotnet_decoder_that_raises_is_located_and_chained():
    formats.register_decoder("sk-dotnet", "ReelContent", lambda part: ReelContent(part["Link"]))
    payload = [{"Role": {"Label": "user"}, "Items": [{"$type": "ReelContent", "Url": "r"}]}]
    with pytest.raises(FormatError) as raised:
        formats.get("sk-dotnet").from_payload(payload)
    assert str(raised.value) == (
        "[0].Items[0]: the decoder for $type 'ReelContent' raised KeyError: 'Link'")
    assert type(raised.value.__cause__) is KeyError


def test_an_encoder_that_works_is_called_once_and_its_part_written():
    calls: list[str] = []

    def encode(item: ReelContent) -> dict:
        calls.append(item.url)
        return {"type": "video_url", "video_url": {"url": item.url}}

    formats.register_encoder("openai-chat", ReelContent, encode)
    assert formats.get("openai-chat").to_payload(_history())[1] == {"role": "user", "content": [
        {"type": "text", "text": "see"}, {"type": "video_url", "video_url": {"url": "r.mp4"}}]}
    assert calls == ["r.mp4"]
