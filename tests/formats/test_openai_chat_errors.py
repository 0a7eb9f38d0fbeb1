"""OpenAI Chat Completions: bad payloads, content the format cannot carry, plugin codecs."""

from __future__ import annotations

import base64
import warnings
from typing import ClassVar

import attrs
import pytest
from format_helpers import PNG, validate_chat_payload

from semantic_chat import (
    AudioContent,
    ChatMessageContent,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    KernelContent,
    ReasoningContent,
    TextContent,
)
from semantic_chat.contents.base import CONTENT_TYPES
from semantic_chat.errors import FormatError, UnsupportedContentError
from semantic_chat.formats import openai_chat
from semantic_chat.labels import ContentType

# --- reading bad payloads ----------------------------------------------------------------

_CALL = {
    "role": "assistant",
    "tool_calls": [{"id": "c1", "type": "function",
                    "function": {"name": "f", "arguments": "{}"}}],
}


def _conversation(*tail: object) -> list[object]:
    return [{"role": "system", "content": "s"}, {"role": "user", "content": "u"}, _CALL, *tail]


BAD_PAYLOADS = [
    pytest.param(
        _conversation({"role": "tool", "content": "x"}),
        "messages[3]", "messages[3]: tool message without tool_call_id",
        id="tool-without-tool_call_id",
    ),
    pytest.param(
        _conversation({"role": "user", "content": [
            {"type": "text", "text": "a"}, {"type": "video_url", "video_url": {"url": "u"}}]}),
        "messages[3].content[1].type",
        "messages[3].content[1].type: unknown content part type 'video_url'",
        id="unknown-part-type",
    ),
    pytest.param(
        _conversation(None), "messages[3]", "messages[3]: expected a message object, got NoneType",
        id="null-message",
    ),
    pytest.param(
        _conversation([{"role": "user", "content": "x"}]), "messages[3]",
        "messages[3]: expected a message object, got list", id="list-message",
    ),
    pytest.param(
        [{"content": "hi"}], "messages[0]", "messages[0]: missing 'role'", id="missing-role",
    ),
    pytest.param(
        [{"role": 1, "content": "hi"}], "messages[0].role",
        "messages[0].role: expected str, got int", id="role-not-str",
    ),
    pytest.param(
        [{"role": "user"}], "messages[0]", "messages[0]: missing 'content'",
        id="user-without-content",
    ),
    pytest.param(
        [{"role": "user", "content": "x", "name": 7}], "messages[0].name",
        "messages[0].name: expected str, got int", id="name-not-str",
    ),
    pytest.param(
        [{"role": "user", "content": ["hi"]}], "messages[0].content[0]",
        "messages[0].content[0]: expected a content part object, got str", id="part-not-object",
    ),
    pytest.param(
        [{"role": "user", "content": [{"type": "text"}]}], "messages[0].content[0]",
        "messages[0].content[0]: missing 'text'", id="text-part-without-text",
    ),
    pytest.param(
        [{"role": "user", "content": [{"text": "hi"}]}], "messages[0].content[0]",
        "messages[0].content[0]: missing 'type'", id="part-without-type",
    ),
    pytest.param(
        # The Responses shape (image_url a string) sent to Chat Completions.
        [{"role": "user", "content": [{"type": "image_url", "image_url": "https://x.test/a"}]}],
        "messages[0].content[0].image_url",
        "messages[0].content[0].image_url: expected dict, got str", id="image_url-not-object",
    ),
    pytest.param(
        [{"role": "user", "content": [{"type": "input_audio", "input_audio": {"data": "AAAA"}}]}],
        "messages[0].content[0].input_audio",
        "messages[0].content[0].input_audio: missing 'format'", id="audio-without-format",
    ),
    pytest.param(
        [{"role": "assistant", "tool_calls": [
            {"id": "c", "type": "function", "function": {"name": "f", "arguments": {}}}]}],
        "messages[0].tool_calls[0].function.arguments",
        "messages[0].tool_calls[0].function.arguments: expected str, got dict",
        id="arguments-not-text",
    ),
    pytest.param(
        [{"role": "assistant", "tool_calls": [{"type": "function",
                                              "function": {"name": "f", "arguments": "{}"}}]}],
        "messages[0].tool_calls[0]", "messages[0].tool_calls[0]: missing 'id'",
        id="tool-call-without-id",
    ),
    pytest.param(
        [{"role": "assistant", "tool_calls": [{"id": "c", "type": "web", "web": {}}]}],
        "messages[0].tool_calls[0].type",
        "messages[0].tool_calls[0].type: unknown tool call type 'web'",
        id="unknown-tool-call-type",
    ),
    pytest.param(
        [{"role": "assistant", "audio": {"format": "wav"}}], "messages[0].audio",
        "messages[0].audio: missing 'id'", id="audio-without-id",
    ),
    pytest.param(
        {"role": "user", "content": "hi"}, "messages",
        "messages: expected a list of messages, got dict", id="one-message-not-a-list",
    ),
]


@pytest.mark.parametrize(("payload", "path", "message"), BAD_PAYLOADS)
def test_bad_payload_raises_format_error_naming_the_location(payload, path, message):
    with pytest.raises(FormatError) as raised:
        openai_chat.from_payload(payload)
    assert str(raised.value) == message
    assert raised.value.path == path
    assert isinstance(raised.value, ValueError)
    assert not isinstance(raised.value, UnsupportedContentError)


@pytest.mark.parametrize(("message", "got"), [(3, "int"), ("hello", "str")])
def test_scalar_message_error_names_its_location(message, got):
    with pytest.raises(FormatError) as raised:
        openai_chat.from_payload([{"role": "user", "content": "hi"}, message])
    assert str(raised.value) == (
        f"messages[1]: expected an object or a provider SDK model, got {got}"
    )
    assert raised.value.path == "messages[1]"


def test_scalar_completion_error_names_its_location():
    with pytest.raises(FormatError) as raised:
        openai_chat.from_response(3)
    assert str(raised.value) == "completion: expected an object or a provider SDK model, got int"


def test_function_message_with_null_content_is_read():
    payload = [{"role": "function", "name": "f", "content": None}]
    validate_chat_payload(payload)
    assert openai_chat.to_payload(openai_chat.from_payload(payload)) == payload


@pytest.mark.parametrize(
    ("completion", "message"),
    [
        ({}, "completion: missing 'choices'"),
        ({"choices": "x"}, "completion.choices: expected list, got str"),
        ({"choices": []}, "completion.choices: no choice 0 among 0"),
        ({"choices": [{}]}, "completion.choices[0]: missing 'message'"),
    ],
)
def test_bad_completion(completion, message):
    with pytest.raises(FormatError) as raised:
        openai_chat.from_response(completion)
    assert str(raised.value) == message


# --- writing what the format cannot carry ------------------------------------------------

PNG_BYTES = base64.b64decode(PNG)
_IMAGE = ImageContent(uri="https://x.test/y.png")


def _m(role: str, *items: KernelContent) -> ChatMessageContent:
    return ChatMessageContent(role, items=list(items))


UNSUPPORTED = [
    pytest.param(
        [_m("user", TextContent("hi")),
         _m("tool", FunctionResultContent("c1", [TextContent("a"), _IMAGE]))],
        "messages[1].items[0].result[1]",
        "OpenAI Chat Completions cannot carry image content in a tool result",
        [{"role": "user", "content": "hi"},
         {"role": "tool", "tool_call_id": "c1", "content": [{"type": "text", "text": "a"}]}],
        id="image-in-tool-result",
    ),
    pytest.param(
        [_m("assistant", ReasoningContent("think", encrypted="gAAA", provider="openai"),
            TextContent("a"))],
        "messages[0].items[0]",
        "OpenAI Chat Completions cannot carry reasoning content in an assistant message",
        [{"role": "assistant", "content": "a"}],
        id="reasoning",
    ),
    pytest.param(
        [_m("system", TextContent("a"), ImageContent(data=PNG_BYTES, mime_type="image/png"))],
        "messages[0].items[1]",
        "OpenAI Chat Completions cannot carry image content in a system message (text only)",
        [{"role": "system", "content": "a"}],
        id="image-in-system",
    ),
    pytest.param(
        [_m("developer", TextContent("a"), AudioContent(data=b"RIFF", mime_type="audio/wav"))],
        "messages[0].items[1]",
        "OpenAI Chat Completions cannot carry audio content in a developer message (text only)",
        [{"role": "developer", "content": "a"}],
        id="audio-in-developer",
    ),
    pytest.param(
        [_m("user", TextContent("a"), AudioContent(data=b"fLaC", mime_type="audio/flac"))],
        "messages[0].items[1]",
        "OpenAI Chat Completions cannot carry audio content of type audio/flac (wav or mp3 only)",
        [{"role": "user", "content": "a"}],  # one text part left: string content
        id="flac-audio",
    ),
    pytest.param(
        [_m("user", TextContent("a"), ImageContent(file_id="file-1"))],
        "messages[0].items[1]",
        "OpenAI Chat Completions cannot carry image content by a file id",
        [{"role": "user", "content": "a"}],  # one text part left: string content
        id="image-by-file-id",
    ),
    pytest.param(
        [_m("user", TextContent("a"), AudioContent(uri="https://x.test/a.wav"))],
        "messages[0].items[1]",
        "OpenAI Chat Completions cannot carry audio content by a URL",
        [{"role": "user", "content": "a"}],  # one text part left: string content
        id="audio-by-uri",
    ),
    pytest.param(
        [_m("assistant", TextContent("a"), _IMAGE)],
        "messages[0].items[1]",
        "OpenAI Chat Completions cannot carry image content in an assistant message",
        [{"role": "assistant", "content": "a"}],
        id="image-in-assistant",
    ),
    pytest.param(
        [_m("tool", FunctionResultContent("c", "x"), TextContent("extra"))],
        "messages[0].items[1]",
        "OpenAI Chat Completions cannot carry text content in a tool message",
        [{"role": "tool", "tool_call_id": "c", "content": "x"}],
        id="text-beside-a-tool-result",
    ),
    pytest.param(
        [_m("user", TextContent("a"), FunctionCallContent("c", "f", "{}"))],
        "messages[0].items[1]",
        "OpenAI Chat Completions cannot carry function_call content in a user message",
        [{"role": "user", "content": "a"}],  # one text part left: string content
        id="call-in-user",
    ),
]


@pytest.mark.parametrize(("history", "path", "detail", "dropped"), UNSUPPORTED)
def test_unsupported_content_raises_naming_message_item_type_and_format(
    history, path, detail, dropped
):
    with pytest.raises(UnsupportedContentError) as raised:
        openai_chat.to_payload(history)
    assert str(raised.value) == (
        f"{path}: {detail} (pass on_unsupported='warn' to leave it out)"
    )
    assert raised.value.path == path
    assert isinstance(raised.value, FormatError)


@pytest.mark.parametrize(("history", "path", "detail", "dropped"), UNSUPPORTED)
def test_drop_leaves_the_item_out_with_a_warning(history, path, detail, dropped):
    with pytest.warns(UserWarning, match="dropped") as record:
        written = openai_chat.to_payload(history, on_unsupported="warn")
    assert [str(w.message) for w in record] == [f"{path}: dropped: {detail}"]
    assert written == dropped


def test_unknown_role_is_a_format_error():
    with pytest.raises(FormatError) as raised:
        openai_chat.to_payload([ChatMessageContent("critic", "fine")], on_unsupported="warn")
    assert str(raised.value) == "messages[0].role: OpenAI Chat Completions has no role 'critic'"
    assert not isinstance(raised.value, UnsupportedContentError)


def test_nothing_is_dropped_silently_when_everything_fits():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        openai_chat.to_payload([_m("user", TextContent("a"), _IMAGE)], on_unsupported="warn")


def test_drop_warning_points_at_the_caller():
    with pytest.warns(UserWarning, match="dropped") as record:
        openai_chat.to_payload([_m("user", _IMAGE, ImageContent(file_id="f"))],
                               on_unsupported="warn")
    assert record[0].filename == __file__


def test_function_message_with_list_result_is_valid_or_refused():
    history = [_m("function", FunctionResultContent(None, [TextContent("a")], name="f"))]
    try:
        written = openai_chat.to_payload(history)
    except UnsupportedContentError:
        return
    validate_chat_payload(written)


def test_audio_mp3_alias_is_written_as_mp3():
    item = AudioContent(data=b"ID3\x04", mime_type="audio/mp3")
    written = openai_chat.to_payload([_m("user", item)])
    assert written[0]["content"][0]["input_audio"]["format"] == "mp3"


# --- payload shapes that do not round trip ----------------------------------------------


@pytest.mark.parametrize(
    "message",
    [
        pytest.param({"role": "assistant", "content": []}, id="empty-part-list"),
        pytest.param(
            {"role": "assistant", "content": [{"type": "text", "text": "a"}], "refusal": "r"},
            id="part-list-beside-refusal-string",
        ),
    ],
)
def test_assistant_payload_shape_round_trips(message):
    validate_chat_payload([message])
    assert openai_chat.to_payload(openai_chat.from_payload([message])) == [message]


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
        openai_chat.shared.codecs.encoders.pop(VideoContent, None)
        openai_chat.shared.codecs.decoders.pop("video_url", None)


def test_plugin_type_without_encoder_is_unsupported(video_class):
    history = [_m("user", TextContent("watch"), video_class("https://x.test/v.mp4"))]
    with pytest.raises(UnsupportedContentError) as raised:
        openai_chat.to_payload(history)
    assert str(raised.value) == (
        "messages[0].items[1]: OpenAI Chat Completions cannot carry video content in a user "
        "message (pass on_unsupported='warn' to leave it out)"
    )
    with pytest.warns(UserWarning, match=r"messages\[0\]\.items\[1\]: dropped: .* video"):
        written = openai_chat.to_payload(history, on_unsupported="warn")
    assert written == [{"role": "user", "content": "watch"}]


def test_plugin_part_without_decoder_is_a_format_error(video_class):
    payload = [{"role": "user", "content": [{"type": "video_url", "video_url": {"url": "u"}}]}]
    with pytest.raises(FormatError, match=r"messages\[0\]\.content\[0\]\.type: unknown"):
        openai_chat.from_payload(payload)


def test_registered_encoder_and_decoder_round_trip(video_class):
    openai_chat.register_encoder(
        video_class, lambda item: {"type": "video_url", "video_url": {"url": item.url}}
    )
    openai_chat.register_decoder(
        "video_url", lambda part: video_class(part["video_url"]["url"])
    )
    history = [_m("user", TextContent("watch"), video_class("https://x.test/v.mp4"))]
    payload = openai_chat.to_payload(history)
    assert payload == [
        {"role": "user", "content": [
            {"type": "text", "text": "watch"},
            {"type": "video_url", "video_url": {"url": "https://x.test/v.mp4"}},
        ]}
    ]
    assert openai_chat.from_payload(payload) == history


def test_encoder_serves_subclasses_in_every_role(video_class):
    @attrs.define(slots=True, weakref_slot=False)
    class ClipContent(video_class):
        content_type: ClassVar[ContentType] = ContentType("video_clip")

    try:
        openai_chat.register_encoder(video_class, lambda item: {"type": "video_url",
                                                                "video_url": {"url": item.url}})
        written = openai_chat.to_payload([_m("user", ClipContent("c.mp4"))])
        assert written == [{"role": "user", "content": [
            {"type": "video_url", "video_url": {"url": "c.mp4"}}]}]
        assert openai_chat.to_payload([_m("system", ClipContent("c.mp4"))]) == [
            {"role": "system", "content": [{"type": "video_url", "video_url": {"url": "c.mp4"}}]}
        ]
    finally:
        CONTENT_TYPES.unregister("video_clip")
