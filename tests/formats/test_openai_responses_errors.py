"""OpenAI Responses: bad inputs, content the format cannot carry, plugin codecs, known bugs."""

from __future__ import annotations

from typing import ClassVar

import attrs
import pytest
from format_helpers import validate_responses_payload

from semantic_chat import (
    AudioContent,
    ChatMessageContent,
    FunctionCallContent,
    FunctionResultContent,
    KernelContent,
    ReasoningContent,
    RefusalContent,
    TextContent,
)
from semantic_chat.contents import UnknownContent
from semantic_chat.contents.base import CONTENT_TYPES
from semantic_chat.errors import FormatError, UnsupportedContentError
from semantic_chat.formats import openai_responses
from semantic_chat.labels import ContentType


def _m(role: str, *items: KernelContent) -> ChatMessageContent:
    return ChatMessageContent(role, items=list(items))


# --- reading bad inputs ------------------------------------------------------------------

_HEAD = [{"role": "user", "content": "u"}, {"role": "assistant", "content": "a"}]

BAD_INPUTS = [
    pytest.param(
        [*_HEAD, {"role": "user", "content": [
            {"type": "input_text", "text": "a"}, {"type": "input_video", "video_url": "u"}]}],
        "input[2].content[1].type", "input[2].content[1].type: unknown content part type "
        "'input_video'",
        id="unknown-part-type",
    ),
    pytest.param(
        [*_HEAD, None], "input[2]", "input[2]: expected an input item object, got NoneType",
        id="null-item",
    ),
    pytest.param(
        [*_HEAD, 7], "input[2]", "input[2]: expected an object or a provider SDK model, got int",
        id="int-item",
    ),
    pytest.param(
        [{"content": "x"}], "input[0]", "input[0]: missing 'role'", id="message-without-role",
    ),
    pytest.param(
        [{"type": "message", "role": "user"}], "input[0]", "input[0]: missing 'content'",
        id="message-without-content",
    ),
    pytest.param(
        [{"type": 5}], "input[0].type", "input[0].type: expected str, got int",
        id="type-not-str",
    ),
    pytest.param(
        [{"type": "function_call", "name": "f", "arguments": "{}"}], "input[0]",
        "input[0]: missing 'call_id'", id="call-without-call_id",
    ),
    pytest.param(
        [{"type": "function_call", "call_id": "c", "name": "f", "arguments": {}}],
        "input[0].arguments", "input[0].arguments: expected str, got dict",
        id="arguments-not-text",
    ),
    pytest.param(
        [{"type": "function_call_output", "output": "x"}], "input[0]",
        "input[0]: missing 'call_id'", id="output-without-call_id",
    ),
    pytest.param(
        [{"type": "function_call_output", "call_id": "c", "output": 5}], "input[0].output",
        "input[0].output: expected str or list, got int", id="output-not-str-or-list",
    ),
    pytest.param(
        [{"type": "reasoning", "id": "rs", "summary": [{"type": "summary_text"}]}],
        "input[0].summary[0]", "input[0].summary[0]: expected a summary_text part, got dict",
        id="summary-without-text",
    ),
    pytest.param(
        [{"role": "user", "content": [{"type": "input_image", "detail": "auto"}]}],
        "input[0].content[0]", "input[0].content[0]: missing 'image_url'",
        id="image-without-source",
    ),
    pytest.param(
        [{"role": "user", "content": [{"type": "input_file"}]}],
        "input[0].content[0]", "input[0].content[0]: missing 'file_data'",
        id="file-without-source",
    ),
    pytest.param(
        [{"role": "user", "content": [{"type": "input_image", "image_url": "data:image/png;base64",
                                       "detail": "auto"}]}],
        "input[0].content[0].image_url",
        "input[0].content[0].image_url: data URI: missing ',' separating the header from the data",
        id="bad-data-url",
    ),
    pytest.param(
        {"role": "user", "content": "x"}, "input",
        "input: expected a string or a list of items, got dict", id="one-item-not-a-list",
    ),
]


@pytest.mark.parametrize(("items", "path", "message"), BAD_INPUTS)
def test_bad_input_raises_format_error_naming_the_location(items, path, message):
    with pytest.raises(FormatError) as raised:
        openai_responses.from_payload(items)
    assert str(raised.value) == message
    assert raised.value.path == path
    assert isinstance(raised.value, ValueError)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (5, "request: expected an object or a provider SDK model, got int"),
        ({"input": 5}, "request.input: expected str or list, got int"),
        ({"input": "x", "instructions": 3}, "request.instructions: expected str, got int"),
        ({"input": [{"type": 5}]}, "input[0].type: expected str, got int"),
    ],
)
def test_bad_request(body, message):
    with pytest.raises(FormatError) as raised:
        openai_responses.from_request(body)
    assert str(raised.value) == message


@pytest.mark.parametrize(
    ("response", "message"),
    [
        ("x", "response: expected an object or a provider SDK model, got str"),
        ({}, "response: missing 'output'"),
        ({"output": "x"}, "response.output: expected list, got str"),
        ({"output": [{"type": "function_call"}]}, "response.output[0]: missing 'call_id'"),
    ],
)
def test_bad_response(response, message):
    with pytest.raises(FormatError) as raised:
        openai_responses.from_response(response)
    assert str(raised.value) == message


# --- writing what the format cannot carry ------------------------------------------------

_SUFFIX = " (pass on_unsupported='warn' to leave it out)"

UNSUPPORTED = [
    pytest.param(
        [_m("assistant", TextContent("a"), TextContent("b"), ReasoningContent("thinking"))],
        "messages[0].items[2]",
        "OpenAI Responses cannot carry reasoning content without the id of an OpenAI "
        "reasoning item",
        [{"role": "assistant", "content": "a"}, {"role": "assistant", "content": "b"}],
        id="reasoning-without-id",
    ),
    pytest.param(
        [_m("assistant", FunctionCallContent("c", "f", "{}"),
            ReasoningContent("t", signature="sig", provider="anthropic",
                             metadata={"openai_responses": {"fields": {"id": "rs_1"}}}))],
        "messages[0].items[1]",
        "OpenAI Responses cannot carry reasoning content from anthropic (its opaque data is "
        "only valid there)",
        [{"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"}],
        id="reasoning-of-another-provider",
    ),
    pytest.param(
        [_m("user", TextContent("a"), TextContent("b"),
            AudioContent(data=b"fLaC", mime_type="audio/flac"))],
        "messages[0].items[2]",
        "OpenAI Responses cannot carry audio content in a user message",
        [{"role": "user", "content": [{"type": "input_text", "text": "a"},
                                     {"type": "input_text", "text": "b"}]}],
        id="flac-audio",
    ),
    pytest.param(
        [_m("tool", FunctionResultContent(
            "c", [TextContent("a"), AudioContent(data=b"fLaC", mime_type="audio/flac")]))],
        "messages[0].items[0].result[1]",
        "OpenAI Responses cannot carry audio content in a tool message",
        [{"type": "function_call_output", "call_id": "c",
          "output": [{"type": "input_text", "text": "a"}]}],
        id="audio-in-tool-result",
    ),
    pytest.param(
        [_m("user", FunctionCallContent("c", "f", "{}"), UnknownContent("x_widget", {"a": 1}))],
        "messages[0].items[1]",
        "OpenAI Responses cannot carry unknown content in a user message",
        [{"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"}],
        id="unknown-not-read-from-responses",
    ),
]


@pytest.mark.parametrize(("history", "path", "detail", "dropped"), UNSUPPORTED)
def test_unsupported_content_raises_naming_message_item_type_and_format(
    history, path, detail, dropped
):
    with pytest.raises(UnsupportedContentError) as raised:
        openai_responses.to_payload(history)
    assert str(raised.value) == f"{path}: {detail}{_SUFFIX}"
    assert raised.value.path == path


@pytest.mark.parametrize(("history", "path", "detail", "dropped"), UNSUPPORTED)
def test_drop_leaves_the_item_out_with_a_warning(history, path, detail, dropped):
    with pytest.warns(UserWarning, match="dropped") as record:
        written = openai_responses.to_payload(history, on_unsupported="warn")
    assert [str(w.message) for w in record] == [f"{path}: dropped: {detail}"]
    assert written == dropped
    validate_responses_payload(written)


def test_audio_in_an_assistant_message_is_unsupported():
    with pytest.raises(UnsupportedContentError) as raised:
        openai_responses.to_payload([_m("assistant", AudioContent(file_id="audio_1"))])
    assert raised.value.path == "messages[0].items[0]"
    assert "OpenAI Responses cannot carry audio content" in str(raised.value)


# --- known bugs --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "message",
    [
        pytest.param(_m("user", TextContent("hi")), id="one-user-text"),
        pytest.param(_m("system", TextContent("be brief")), id="one-system-text"),
        pytest.param(
            _m("assistant", TextContent("let me look"), FunctionCallContent("c", "f", "{}")),
            id="assistant-text-then-call",
        ),
        pytest.param(_m("user"), id="empty-message"),
    ],
)
def test_default_shapes_read_back_without_hints(message):
    written = openai_responses.to_payload([message])
    assert openai_responses.from_payload(written) == [message]


@pytest.mark.parametrize("mime_type", ["audio/wav", "audio/mpeg"])
def test_audio_is_refused_or_valid(mime_type):
    history = [_m("user", TextContent("transcribe"), AudioContent(data=b"RIFF", mime_type=mime_type))]
    try:
        written = openai_responses.to_payload(history)
    except UnsupportedContentError:
        return
    validate_responses_payload(written)


def test_hand_built_refusal_is_refused_or_valid():
    history = [_m("user", TextContent("q"), TextContent("?")),
               _m("assistant", TextContent("a"), RefusalContent("no"))]
    try:
        written = openai_responses.to_payload(history)
    except UnsupportedContentError:
        return
    validate_responses_payload(written)


def test_call_without_id_is_refused_or_valid():
    history = [_m("assistant", FunctionCallContent(None, "f", "{}"))]
    try:
        written = openai_responses.to_payload(history)
    except UnsupportedContentError:
        return
    validate_responses_payload(written)


@pytest.mark.parametrize(
    "message",
    [
        pytest.param(ChatMessageContent("critic", "fine"), id="custom-role"),
        pytest.param(_m("tool", TextContent("x"), TextContent("y")), id="text-in-tool-message"),
    ],
)
def test_role_without_a_responses_item_is_refused_or_valid(message):
    try:
        written = openai_responses.to_payload([message])
    except FormatError:
        return
    validate_responses_payload(written)


@pytest.mark.parametrize(
    "items",
    [
        pytest.param([{"role": "user", "content": [{"type": "input_text", "text": "hi"}]}],
                     id="one-input-text-part"),
        pytest.param([{"role": "developer", "content": [{"type": "input_text", "text": "x"}]}],
                     id="one-input-text-part-developer"),
        pytest.param(
            [{"type": "message", "role": "assistant", "content": [
                {"type": "input_text", "text": "a"}, {"type": "input_text", "text": "b"}]}],
            id="typed-assistant-input-text",
        ),
        pytest.param(
            [{"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"},
             {"role": "assistant", "content": []}],
            id="empty-assistant-after-call",
        ),
        pytest.param(
            [{"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text",
                                                              "text": ""}]}],
            id="one-empty-summary-part",
        ),
    ],
)
def test_input_shape_round_trips(items):
    validate_responses_payload(items)
    assert openai_responses.to_payload(openai_responses.from_payload(items)) == items


# --- plugin content types ----------------------------------------------------------------


@pytest.fixture
def video_class():
    @attrs.define(slots=True, weakref_slot=False)
    class VideoContent(KernelContent):
        content_type: ClassVar[ContentType] = ContentType("video")
        url: str

    try:
        yield VideoContent
    finally:
        CONTENT_TYPES.unregister("video")
        openai_responses.shared.codecs.encoders.pop(VideoContent, None)
        openai_responses.shared.codecs.decoders.pop("input_video", None)


def test_plugin_type_without_encoder_is_unsupported(video_class):
    history = [_m("user", TextContent("watch"), video_class("https://x.test/v.mp4"))]
    with pytest.raises(UnsupportedContentError) as raised:
        openai_responses.to_payload(history)
    assert str(raised.value) == (
        f"messages[0].items[1]: OpenAI Responses cannot carry video content in a user message"
        f"{_SUFFIX}"
    )


def test_registered_encoder_and_decoder_round_trip(video_class):
    openai_responses.register_encoder(
        video_class, lambda item: {"type": "input_video", "video_url": item.url}
    )
    openai_responses.register_decoder("input_video", lambda part: video_class(part["video_url"]))
    history = [_m("user", TextContent("watch"), video_class("https://x.test/v.mp4"))]
    payload = openai_responses.to_payload(history)
    assert payload == [{"role": "user", "content": [
        {"type": "input_text", "text": "watch"},
        {"type": "input_video", "video_url": "https://x.test/v.mp4"},
    ]}]
    assert openai_responses.from_payload(payload) == history


@pytest.mark.parametrize("role", ["robot", "tool", "human"])
def test_a_message_role_the_format_lacks_is_refused_as_the_writer_refuses_it(role: str) -> None:
    with pytest.raises(FormatError) as info:
        openai_responses.from_payload(
            [{"role": "user", "content": "hi"}, {"role": role, "content": "x"}]
        )
    assert str(info.value) == f"input[1].role: OpenAI Responses has no role {role!r}"
