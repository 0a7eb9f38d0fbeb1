"""Writers: media-type aliases accepted, and Anthropic turns of blank text only left out.

1. A clip labelled ``audio/x-wav`` (what ``mimetypes.guess_type("a.wav")`` says) or an image
   labelled ``image/jpg`` was refused as of a type the API does not take. The OpenAI Chat and
   Anthropic writers now read the well-known aliases as the registered type and write that
   (Chat's ``format``, Anthropic's ``media_type``); the item keeps the type it was given.
2. The Anthropic writer wrote an empty or whitespace-only message as it was, which the API
   refuses. A whitespace-only text beside other blocks is now left out like an empty one; a
   message of blank texts only is left out with a warning at the message, unless it is the
   last assistant message of empty texts (the empty prefill the API takes), and the turns
   around it are merged.
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
from semantic_chat.errors import FormatError, UnsupportedContentError
from semantic_chat.formats import anthropic, convert, openai_chat
from semantic_chat.formats.anthropic import writing
from semantic_chat.formats.wire import ConversionWarning, collect_losses
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


# --- 2. Anthropic turns of blank text only ---------------------------------------------------


def test_empty_and_blank_chat_turns_are_left_out_of_anthropic_with_a_warning():
    chat = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": ""},
            {"role": "user", "content": "  "}, {"role": "assistant", "content": "ok"},
            {"role": "user", "content": "bye"}]
    history = openai_chat.from_payload(chat)
    with pytest.warns(ConversionWarning) as caught:
        payload = _anthropic(list(history), on_unsupported="error")  # a warning, not an error
    assert payload == {"messages": [
        {"role": "user", "content": [{"type": "text", "text": "hi"}]},  # merged with "  "
        {"role": "assistant", "content": "ok"},
        {"role": "user", "content": "bye"}]}
    assert [str(each.message) for each in caught] == [
        f"messages[1]: dropped: {_BLANK_DETAIL}"]


@pytest.mark.parametrize(("messages", "expected"), [
    pytest.param([_m("user", TextContent("  "), ImageContent(uri="https://x.test/a.png"))],
                 [{"role": "user", "content": [
                     {"type": "image", "source": {"type": "url", "url": "https://x.test/a.png"}}]}],
                 id="user"),
    pytest.param([_m("user", TextContent("q")),
                  _m("assistant", TextContent("\n\t"), FunctionCallContent(
                      id="c1", name="f", arguments="{}"))],
                 [{"role": "user", "content": "q"}, {"role": "assistant", "content": [
                     {"type": "tool_use", "id": "c1", "name": "f", "input": {}}]}],
                 id="assistant"),
    pytest.param([_m("user", TextContent("a"), TextContent(" "), TextContent("b"))],
                 [{"role": "user", "content": [{"type": "text", "text": "a"},
                                               {"type": "text", "text": "b"}]}],
                 id="between-texts"),
    pytest.param([_m("user", TextContent("a")), _m("user", TextContent("\u3000"))],
                 [{"role": "user", "content": [{"type": "text", "text": "a"}]}],
                 id="a-message-joining-a-turn"),
])
def test_a_blank_text_beside_other_blocks_is_left_out_without_a_word(messages, expected):
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConversionWarning)
        assert _anthropic(messages) == {"messages": expected}


def test_a_last_assistant_message_of_empty_text_is_kept_as_the_empty_prefill():
    messages = [_m("user", TextContent("hi")), _m("assistant", TextContent(""))]
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConversionWarning)
        assert _anthropic(messages, on_unsupported="error") == {"messages": [
            {"role": "user", "content": "hi"}, {"role": "assistant", "content": ""}]}


def test_a_last_assistant_message_of_whitespace_is_left_out():
    # The API refuses a last assistant content ending in whitespace.
    messages = [_m("user", TextContent("hi")), _m("assistant", TextContent(" \n"))]
    with pytest.warns(ConversionWarning, match=r"^messages\[1\]: dropped: Anthropic"):
        assert _anthropic(messages) == {"messages": [{"role": "user", "content": "hi"}]}


def test_results_and_the_next_user_turn_merge_around_an_empty_assistant_message():
    call = FunctionCallContent(id="c1", name="f", arguments="{}")
    messages = [_m("user", TextContent("q")), _m("assistant", call),
                _m("tool", FunctionResultContent(call_id="c1", result="ok")),
                _m("assistant", TextContent("")), _m("user", TextContent("next"))]
    with pytest.warns(ConversionWarning, match=r"^messages\[3\]: dropped: Anthropic"):
        payload = _anthropic(messages)
    assert payload == {"messages": [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "c1", "name": "f",
                                           "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "c1",
                                      "content": "ok"},
                                     {"type": "text", "text": "next"}]}]}


def test_a_blank_message_a_later_message_joins_is_left_out_without_a_word():
    messages = [_m("user", TextContent("q")), _m("assistant", TextContent(" ")),
                _m("assistant", TextContent("a"))]
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConversionWarning)
        assert _anthropic(messages) == {"messages": [
            {"role": "user", "content": "q"},
            {"role": "assistant", "content": [{"type": "text", "text": "a"}]}]}


def test_leaving_out_a_blank_message_is_silent_with_drop_and_recorded_as_a_warning():
    messages = [_m("user", TextContent("a")), _m("assistant", TextContent("")),
                _m("user", TextContent("b"))]
    expected = {"messages": [{"role": "user", "content": [
        {"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}]}
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConversionWarning)
        assert _anthropic(messages, on_unsupported="drop") == expected
        with collect_losses() as losses:
            assert anthropic.to_payload(messages, on_unsupported="error") == expected
    assert losses == [("messages[1]", _BLANK_DETAIL, "warn")]


def test_a_blank_message_between_turns_of_one_role_is_refused_without_merging():
    messages = [_m("user", TextContent("a")), _m("assistant", TextContent("")),
                _m("user", TextContent("b"))]
    with pytest.warns(ConversionWarning), pytest.raises(FormatError) as caught:
        anthropic.to_payload(messages, merge_consecutive=False)
    assert str(caught.value) == (
        "messages[1]: Anthropic Messages needs user and assistant turns to alternate: a user "
        "turn on either side of a message of blank text only, left out (pass "
        "merge_consecutive=True to merge them)")


_texts = st.sampled_from(["", " ", "\n\t", "a", "b c"]).map(TextContent)
_call = st.just(None).map(lambda _: FunctionCallContent(id="c1", name="f", arguments="{}"))
_result = st.just(None).map(lambda _: FunctionResultContent(call_id="c1", result="ok"))
_messages = st.one_of(
    st.builds(lambda items: _m("user", *items), st.lists(_texts, min_size=1, max_size=3)),
    st.builds(lambda items: _m("assistant", *items),
              st.lists(_texts | _call, min_size=1, max_size=3)),
    st.builds(lambda items: _m("tool", *items), st.lists(_result, min_size=1, max_size=2)),
)


def _blank(block: dict[str, Any]) -> bool:
    return block["type"] == "text" and not block["text"].strip()


@given(st.lists(_messages, max_size=7))
def test_no_turn_but_a_last_empty_prefill_holds_a_blank_text(messages):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConversionWarning)
        payload = _anthropic(messages)  # valid, alternating, the two writers agreeing
        turns = payload["messages"]
        for at, turn in enumerate(turns):
            content = turn["content"]
            blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
            if at == len(turns) - 1 and turn["role"] == "assistant" and all(
                    block == {"type": "text", "text": ""} for block in blocks):
                continue  # the empty prefill
            assert blocks
            assert not any(_blank(block) for block in blocks)
        # what was written reads back and is written again as it is, without a word
        with warnings.catch_warnings():
            warnings.simplefilter("error", ConversionWarning)
            assert anthropic.to_payload(anthropic.from_payload(payload)) == payload
