"""Plugin encoders and decoders registered through `semantic_chat.formats` for a named format:
used in every role and inside tool results, refused for built-ins, undone by unregistering,
and located when they return something that is not a part (or not an item)."""

from __future__ import annotations

import re
from typing import ClassVar

import attrs
import pytest

from semantic_chat import (
    ChatHistory,
    ChatMessageContent,
    FunctionResultContent,
    ImageContent,
    KernelContent,
    TextContent,
    formats,
)
from semantic_chat.contents.base import CONTENT_TYPES
from semantic_chat.errors import (
    FormatError,
    InvalidTypeError,
    InvalidValueError,
    UnsupportedContentError,
)
from semantic_chat.formats import openai_chat, openai_responses
from semantic_chat.labels import ContentType

CHAT = "openai-chat"
RESPONSES = "openai-responses"


def _m(role: str, *items: KernelContent) -> ChatMessageContent:
    return ChatMessageContent(role, items=list(items))


@attrs.define
class VideoContent(KernelContent):
    content_type: ClassVar[ContentType] = ContentType("test_plugin_video")
    url: str


@attrs.define
class ClipContent(VideoContent):
    content_type: ClassVar[ContentType] = ContentType("test_plugin_clip")


@attrs.define
class GifContent(ImageContent):
    content_type: ClassVar[ContentType] = ContentType("test_plugin_gif")


def _chat_part(item: VideoContent) -> dict:
    return {"type": "video_url", "video_url": {"url": item.url}}


def _responses_part(item: VideoContent) -> dict:
    return {"type": "input_video", "video_url": item.url}


@pytest.fixture(autouse=True)
def _forget_codecs():
    yield
    for name in (CHAT, RESPONSES):
        for cls in (VideoContent, ClipContent, GifContent):
            formats.unregister_encoder(name, cls)
        for part_type in ("video_url", "input_video"):
            formats.unregister_decoder(name, part_type)


@pytest.fixture
def registered():
    formats.register_encoder(CHAT, VideoContent, _chat_part)
    formats.register_decoder(CHAT, "video_url", lambda part: VideoContent(part["video_url"]["url"]))
    formats.register_encoder(RESPONSES, VideoContent, _responses_part)
    formats.register_decoder(RESPONSES, "input_video", lambda part: VideoContent(part["video_url"]))


# --- every role -----------------------------------------------------------------------------


@pytest.mark.parametrize("role", ["system", "developer", "user", "assistant"])
def test_chat_encoder_serves_every_role_and_reads_back(registered, role):
    history = [_m(role, TextContent("see"), VideoContent("v.mp4"))]
    payload = openai_chat.to_payload(history)
    assert payload == [{"role": role, "content": [
        {"type": "text", "text": "see"},
        {"type": "video_url", "video_url": {"url": "v.mp4"}},
    ]}]
    (read,) = openai_chat.from_payload(payload)  # an assistant's parts keep a hint
    assert (read.role, read.items) == (role, history[0].items)
    assert openai_chat.to_payload([read]) == payload


def test_chat_encoder_serves_tool_results(registered):
    result = FunctionResultContent(call_id="c1", result=[TextContent("here"), VideoContent("v")])
    history = [_m("tool", result)]
    payload = openai_chat.to_payload(history)
    assert payload == [{"role": "tool", "tool_call_id": "c1", "content": [
        {"type": "text", "text": "here"},
        {"type": "video_url", "video_url": {"url": "v"}},
    ]}]
    assert openai_chat.from_payload(payload) == history


@pytest.mark.parametrize("role", ["system", "developer", "user", "assistant"])
def test_responses_encoder_serves_every_role_and_reads_back(registered, role):
    history = [_m(role, TextContent("see"), VideoContent("v.mp4"))]
    payload = openai_responses.to_payload(history)
    assert payload == [{"role": role, "content": [
        {"type": "input_text", "text": "see"},
        {"type": "input_video", "video_url": "v.mp4"},
    ]}]
    assert openai_responses.from_payload(payload) == history


def test_responses_encoder_serves_tool_results(registered):
    result = FunctionResultContent(call_id="c1", result=[VideoContent("v")])
    payload = openai_responses.to_payload([_m("tool", result)])
    assert payload == [{"type": "function_call_output", "call_id": "c1",
                        "output": [{"type": "input_video", "video_url": "v"}]}]
    assert openai_responses.from_payload(payload) == [_m("tool", result)]


def test_the_nearest_registered_class_wins(registered):
    formats.register_encoder(CHAT, ClipContent, lambda item: {"type": "clip", "url": item.url})
    assert openai_chat.to_payload([_m("user", ClipContent("c"), VideoContent("v"))]) == [
        {"role": "user", "content": [
            {"type": "clip", "url": "c"},
            {"type": "video_url", "video_url": {"url": "v"}},
        ]}
    ]


def test_a_plugin_subclass_of_a_builtin_class_may_have_an_encoder():
    formats.register_encoder(CHAT, GifContent, lambda item: {"type": "gif", "url": item.uri})
    assert openai_chat.to_payload([_m("user", GifContent(uri="https://x.test/a.gif"))]) == [
        {"role": "user", "content": [{"type": "gif", "url": "https://x.test/a.gif"}]}
    ]


def test_the_format_modules_names_are_the_same_registry(registered):
    openai_chat.register_encoder(ClipContent, lambda item: {"type": "clip", "url": item.url})
    assert openai_chat.to_payload([_m("user", ClipContent("c"))]) == [
        {"role": "user", "content": [{"type": "clip", "url": "c"}]}
    ]
    formats.unregister_encoder(CHAT, ClipContent)
    assert openai_chat.shared.codecs.encoders == {VideoContent: _chat_part}
    with pytest.raises(InvalidTypeError, match=re.escape("cls: TextContent is built in")):
        openai_responses.register_encoder(TextContent, _responses_part)


# --- unregistering --------------------------------------------------------------------------


def test_unregistered_encoder_and_decoder_are_gone(registered):
    formats.unregister_encoder(CHAT, VideoContent)
    formats.unregister_decoder(CHAT, "video_url")
    with pytest.raises(UnsupportedContentError) as raised:
        openai_chat.to_payload([_m("user", VideoContent("v"))])
    assert str(raised.value) == (
        "messages[0].items[0]: OpenAI Chat Completions cannot carry test_plugin_video content in "
        "a user message (pass on_unsupported='warn' to leave it out)"
    )
    payload = [{"role": "user", "content": [{"type": "video_url", "video_url": {"url": "v"}}]}]
    with pytest.raises(FormatError) as raised:
        openai_chat.from_payload(payload)
    assert str(raised.value) == "messages[0].content[0].type: unknown content part type 'video_url'"
    # The other format keeps its own codecs.
    assert openai_responses.to_payload([_m("user", VideoContent("v"))]) == [
        {"role": "user", "content": [{"type": "input_video", "video_url": "v"}]}
    ]


def test_unregistering_what_was_never_registered_does_nothing():
    formats.unregister_encoder(CHAT, VideoContent)
    formats.unregister_decoder(RESPONSES, "input_video")
    assert openai_chat.shared.codecs.encoders == {}


# --- refused registrations ------------------------------------------------------------------


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda: formats.register_encoder(CHAT, TextContent, _chat_part), InvalidTypeError,
     "cls: TextContent is built in: OpenAI Chat Completions writes it itself (register an "
     "encoder for a class of your own)"),
    (lambda: formats.register_encoder(RESPONSES, ImageContent, _chat_part), InvalidTypeError,
     "cls: ImageContent is built in: OpenAI Responses writes it itself (register an encoder "
     "for a class of your own)"),
    (lambda: formats.register_encoder(CHAT, KernelContent, _chat_part), InvalidTypeError,
     "cls: KernelContent is built in: OpenAI Chat Completions writes it itself (register an "
     "encoder for a class of your own)"),
    (lambda: formats.register_encoder(CHAT, int, _chat_part), InvalidTypeError,
     "cls: expected a content class (a KernelContent subclass), got int"),
    (lambda: formats.register_encoder(CHAT, VideoContent("v"), _chat_part), InvalidTypeError,
     "cls: expected a content class (a KernelContent subclass), got VideoContent"),
    (lambda: formats.register_encoder(CHAT, VideoContent, "video_url"), InvalidTypeError,
     "encoder: expected a function, got str"),
    (lambda: formats.register_decoder(CHAT, "text", VideoContent), InvalidValueError,
     "part_type: 'text' is built in: OpenAI Chat Completions reads it itself (register a "
     "decoder for a part type of your own)"),
    (lambda: formats.register_decoder(RESPONSES, "input_image", VideoContent), InvalidValueError,
     "part_type: 'input_image' is built in: OpenAI Responses reads it itself (register a "
     "decoder for a part type of your own)"),
    (lambda: formats.register_decoder(CHAT, 5, VideoContent), InvalidTypeError,
     "part_type: expected a str, got int"),
    (lambda: formats.register_decoder(CHAT, " ", VideoContent), InvalidValueError,
     "part_type: a part type cannot be blank"),
    (lambda: formats.register_decoder(CHAT, "video_url", None), InvalidTypeError,
     "decoder: expected a function, got NoneType"),
    (lambda: formats.register_encoder("semantic-chat", VideoContent, _chat_part),
     InvalidValueError,
     "format_name: expected a format that takes plugin codecs (anthropic, gemini, "
     "openai-chat, openai-responses, sk-dotnet), got 'semantic-chat'"),
    (lambda: formats.unregister_decoder("xml", "video_url"), InvalidValueError,
     "format_name: expected a format that takes plugin codecs (anthropic, gemini, "
     "openai-chat, openai-responses, sk-dotnet), got 'xml'"),
])
def test_refused_registrations(call, error, message):
    with pytest.raises(error) as raised:
        call()
    assert type(raised.value) is error
    assert str(raised.value) == message
    assert openai_chat.shared.codecs.encoders == {}
    assert openai_chat.shared.codecs.decoders == {}


# --- what codecs return ---------------------------------------------------------------------


@pytest.mark.parametrize(("returned", "got"), [
    ("video_url", "str"),
    (None, "NoneType"),
    ([{"type": "video_url"}], "list"),
    ({"video_url": {"url": "v"}}, "a dict without a str 'type'"),
    ({"type": 3}, "a dict without a str 'type'"),
])
def test_an_encoders_bad_return_value_is_located(returned, got):
    formats.register_encoder(CHAT, VideoContent, lambda item: returned)
    formats.register_encoder(RESPONSES, VideoContent, lambda item: returned)
    history = [_m("user", TextContent("hi")), _m("user", VideoContent("v"))]
    message = f"messages[1].items[0]: the encoder for VideoContent returned {got}, expected a part dict"
    for write in (openai_chat.to_payload, openai_responses.to_payload):
        with pytest.raises(FormatError) as raised:
            write(history)
        assert str(raised.value) == message


def test_an_encoders_bad_return_value_in_a_tool_result_is_located():
    formats.register_encoder(CHAT, VideoContent, lambda item: item.url)
    result = FunctionResultContent(call_id="c1", result=[TextContent("a"), VideoContent("v")])
    with pytest.raises(FormatError) as raised:
        openai_chat.to_payload([_m("user", TextContent("hi")), _m("tool", result)])
    assert str(raised.value) == (
        "messages[1].items[0].result[1]: the encoder for VideoContent returned str, "
        "expected a part dict"
    )


def test_a_decoders_bad_return_value_is_located():
    formats.register_decoder(CHAT, "video_url", lambda part: part["video_url"]["url"])
    payload = [{"role": "user", "content": [
        {"type": "text", "text": "see"}, {"type": "video_url", "video_url": {"url": "v"}},
    ]}]
    with pytest.raises(FormatError) as raised:
        openai_chat.from_payload(payload)
    assert str(raised.value) == (
        "messages[0].content[1]: the decoder for part type 'video_url' returned str, "
        "expected an item"
    )


def test_a_decoders_own_error_is_located():
    def decode(part: dict) -> VideoContent:
        if "video_url" not in part:
            raise FormatError("missing 'video_url'")
        return VideoContent(part["video_url"])

    formats.register_decoder(RESPONSES, "input_video", decode)
    payload = [{"role": "user", "content": [{"type": "input_video"}]}]
    with pytest.raises(FormatError) as raised:
        openai_responses.from_payload(payload)
    assert str(raised.value) == "input[0].content[0]: missing 'video_url'"


def test_plugin_classes_are_unregistered_at_the_end():
    # The classes above stay registered for the whole session under labels of their own.
    assert CONTENT_TYPES.get_class("test_plugin_video") is VideoContent


def test_the_format_modules_functions_take_the_same_keywords_as_formats():
    @attrs.define
    class KeywordClip(KernelContent):
        content_type = ContentType("keyword_clip")
        url: str

    try:
        openai_chat.register_encoder(
            KeywordClip, encoder=lambda item: {"type": "video_url", "video_url": {"url": item.url}}
        )
        openai_chat.register_decoder(
            "keyword_clip_part", decoder=lambda part: KeywordClip(part["url"])
        )
        payload = openai_chat.to_payload(
            ChatHistory([ChatMessageContent("user", items=[KeywordClip("u")])])
        )
        assert payload == [
            {"role": "user", "content": [{"type": "video_url", "video_url": {"url": "u"}}]}
        ]
    finally:
        formats.unregister_encoder("openai-chat", KeywordClip)
        formats.unregister_decoder("openai-chat", "keyword_clip_part")
        CONTENT_TYPES.unregister("keyword_clip")
