"""Writers: media-type aliases accepted.

1. A clip labelled ``audio/x-wav`` (what ``mimetypes.guess_type("a.wav")`` says) or an image
   labelled ``image/jpg`` was refused as of a type the API does not take. The OpenAI Chat and
   Anthropic writers now read the well-known aliases as the registered type and write that
   (Chat's ``format``, Anthropic's ``media_type``); the item keeps the type it was given.
"""

from __future__ import annotations

import base64
import itertools
import mimetypes
import warnings
from typing import Any

import pytest
from format_helpers import validate_anthropic_payload
from hypothesis import given
from hypothesis import strategies as st

from semantic_chat import (
    AudioContent,
    ChatHistory,
    ChatMessageContent,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    TextContent,
)
from semantic_chat.errors import UnsupportedContentError
from semantic_chat.formats import anthropic, convert, openai_chat
from semantic_chat.formats.anthropic import writing
from semantic_chat.formats.wire import ConversionWarning
from semantic_chat.media import canonical_mime_type, guess_mime_type, sniff_mime_type

_WAV = base64.b64decode("UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=")
_JPEG_B64 = "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDA=="
_JPEG = base64.b64decode(_JPEG_B64)
_MP3 = b"ID3\x03\x00\x00\x00\x00\x00\x00" + bytes(20)
_WAV_ALIASES = ("audio/x-wav", "audio/wave", "audio/vnd.wave")
_MP3_ALIASES = ("audio/mp3", "audio/x-mp3", "audio/mpeg3")
_BLANK_DETAIL = (
    "Anthropic Messages cannot carry a message of empty or blank text only (the API refuses "
    "it; only the last assistant message may be empty)"
)


def _m(role: str, *items: Any) -> ChatMessageContent:
    return ChatMessageContent(role, items=list(items))


def _user(*items: Any) -> ChatHistory:
    history = ChatHistory()
    history.add_user_message(list(items))
    return history


def _anthropic(messages: list[ChatMessageContent], **options: Any) -> dict[str, Any]:
    """The payload, after checking the quick and the general writer agree and it is valid."""
    on_unsupported = options.get("on_unsupported")
    merge = options.get("merge_consecutive", True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConversionWarning)
        general = writing._to_payload(messages, on_unsupported, merge, False)
    quick = anthropic.to_payload(messages, **options)
    assert quick == general
    validate_anthropic_payload(quick)
    roles = [turn["role"] for turn in quick["messages"]]
    assert all(a != b for a, b in itertools.pairwise(roles))  # the turns alternate
    return quick


# --- 1. media-type aliases ------------------------------------------------------------------


@pytest.mark.parametrize(("given_type", "expected"), [
    ("image/jpg", "image/jpeg"),
    ("IMAGE/JPG", "image/jpeg"),
    ("audio/x-wav", "audio/wav"),
    ("audio/wave", "audio/wav"),
    ("audio/vnd.wave", "audio/wav"),
    ("Audio/X-WAV; rate=8000", "audio/wav"),
    ("audio/mp3", "audio/mpeg"),
    ("audio/x-mp3", "audio/mpeg"),
    ("audio/mpeg3", "audio/mpeg"),
    ("image/jpeg", "image/jpeg"),
    ("image/PNG", "image/png"),
    ("audio/ogg;codecs=opus", "audio/ogg"),
    ("", ""),
])
def test_canonical_mime_type_reads_an_alias_as_the_registered_type(given_type, expected):
    assert canonical_mime_type(given_type) == expected


def test_an_alias_means_what_sniffing_and_file_names_say():
    assert canonical_mime_type(mimetypes.guess_type("a.wav")[0] or "") == sniff_mime_type(_WAV)
    assert canonical_mime_type("image/jpg") == sniff_mime_type(_JPEG) == guess_mime_type("a.jpg")
    assert canonical_mime_type("audio/mp3") == sniff_mime_type(_MP3) == guess_mime_type("a.mp3")


@pytest.mark.parametrize(("mime_type", "data", "audio_format"), [
    *((alias, _WAV, "wav") for alias in (*_WAV_ALIASES, "AUDIO/X-WAV")),
    *((alias, _MP3, "mp3") for alias in _MP3_ALIASES),
])
def test_openai_chat_writes_audio_of_an_alias_type_in_its_format(mime_type, data, audio_format):
    clip = AudioContent(data=data, mime_type=mime_type)
    payload = openai_chat.to_payload(_user("listen", clip), on_unsupported="error")
    assert payload == [{"role": "user", "content": [
        {"type": "text", "text": "listen"},
        {"type": "input_audio",
         "input_audio": {"data": base64.b64encode(data).decode(), "format": audio_format}}]}]
    assert clip.mime_type == mime_type  # the model keeps what it was given


def test_a_gemini_wav_clip_labelled_audio_x_wav_converts_to_openai_chat():
    payload = {"contents": [{"role": "user", "parts": [
        {"text": "transcribe"},
        {"inline_data": {"mime_type": "audio/x-wav", "data": base64.b64encode(_WAV).decode()}}]}]}
    assert convert(payload, target="openai-chat") == [{"role": "user", "content": [
        {"type": "text", "text": "transcribe"},
        {"type": "input_audio",
         "input_audio": {"data": base64.b64encode(_WAV).decode(), "format": "wav"}}]}]


def test_openai_chat_still_refuses_audio_of_another_type_at_its_place():
    history = _user("listen", AudioContent(data=b"OggS" + bytes(40), mime_type="audio/ogg"))
    with pytest.raises(UnsupportedContentError) as caught:
        openai_chat.to_payload(history)
    assert str(caught.value) == (
        "messages[0].items[1]: OpenAI Chat Completions cannot carry audio content of type "
        "audio/ogg (wav or mp3 only) (pass on_unsupported='warn' to leave it out)")


@pytest.mark.parametrize("mime_type", ["image/jpg", "IMAGE/JPG", "image/jpg;q=1"])
def test_anthropic_writes_an_image_labelled_image_jpg_as_image_jpeg(mime_type):
    image = ImageContent(data=_JPEG, mime_type=mime_type)
    payload = _anthropic([_m("user", TextContent("x"), image)], on_unsupported="error")
    assert payload == {"messages": [{"role": "user", "content": [
        {"type": "text", "text": "x"},
        {"type": "image", "source": {"type": "base64", "media_type": "image/jpeg",
                                     "data": _JPEG_B64}}]}]}
    assert image.mime_type == mime_type


def test_anthropic_writes_an_image_jpg_data_url_read_from_openai_chat():
    chat = [{"role": "user", "content": [{"type": "text", "text": "x"}, {
        "type": "image_url", "image_url": {"url": f"data:image/jpg;base64,{_JPEG_B64}"}}]}]
    assert anthropic.to_payload(openai_chat.from_payload(chat)) == {"messages": [
        {"role": "user", "content": [
            {"type": "text", "text": "x"},
            {"type": "image", "source": {"type": "base64", "media_type": "image/jpeg",
                                         "data": _JPEG_B64}}]}]}


def test_anthropic_writes_an_image_jpg_in_a_tool_result_as_image_jpeg():
    result = FunctionResultContent(
        call_id="c1", result=[ImageContent(data=_JPEG, mime_type="image/jpg")])
    messages = [_m("assistant", FunctionCallContent(id="c1", name="f", arguments="{}")),
                _m("tool", result)]
    payload = _anthropic(messages, on_unsupported="error")
    assert payload["messages"][1] == {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "c1", "content": [
            {"type": "image", "source": {"type": "base64", "media_type": "image/jpeg",
                                         "data": _JPEG_B64}}]}]}


def test_anthropic_still_refuses_an_image_of_another_type_at_its_place():
    image = ImageContent(data=b"BM" + bytes(40), mime_type="image/bmp")
    with pytest.raises(UnsupportedContentError) as caught:
        anthropic.to_payload(_user("x", image))
    assert str(caught.value) == (
        "messages[0].items[1]: Anthropic Messages cannot carry image content of type image/bmp "
        "(JPEG, PNG, GIF or WebP only) (pass on_unsupported='warn' to leave it out)")


@given(st.binary(min_size=1, max_size=64), st.sampled_from(["image/jpg", "Image/JPG"]))
def test_an_aliased_image_round_trips_through_anthropic_as_image_jpeg(data, mime_type):
    payload = anthropic.to_payload(_user(ImageContent(data=data, mime_type=mime_type)))
    (image,) = anthropic.from_payload(payload)[0].items
    assert (image.data, image.mime_type) == (data, "image/jpeg")
    assert anthropic.to_payload(anthropic.from_payload(payload)) == payload


@given(st.binary(min_size=1, max_size=64),
       st.sampled_from([*((a, "audio/wav") for a in _WAV_ALIASES),
                        *((a, "audio/mpeg") for a in _MP3_ALIASES)]))
def test_an_aliased_clip_round_trips_through_openai_chat(data, types):
    alias, registered = types
    payload = openai_chat.to_payload(_user(AudioContent(data=data, mime_type=alias)))
    (clip,) = openai_chat.from_payload(payload)[0].items
    assert (clip.data, clip.mime_type) == (data, registered)
    assert openai_chat.to_payload(openai_chat.from_payload(payload)) == payload
