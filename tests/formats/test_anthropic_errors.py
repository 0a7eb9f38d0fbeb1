"""Anthropic Messages: malformed payloads and broken histories, each refused at its location."""

from __future__ import annotations

import datetime

import pytest
from format_helpers import PNG

from semantic_chat import (
    ChatMessageContent,
    FunctionCallContent,
    ImageContent,
    ReasoningContent,
    TextContent,
)
from semantic_chat.contents import UnknownContent
from semantic_chat.errors import FormatError, InvalidTypeError, InvalidValueError
from semantic_chat.formats import anthropic as anthropic_format
from semantic_chat.formats.anthropic import reading, writing
from semantic_chat.formats.wire import ConversionWarning

_CALL = {"role": "assistant", "content": [
    {"type": "tool_use", "id": "t1", "name": "f", "input": {}}]}


def _user(*blocks: object) -> list[object]:
    return [{"role": "user", "content": "hi"}, _CALL, {"role": "user", "content": list(blocks)}]


BAD_MESSAGES = [
    pytest.param({"role": "user", "content": "hi"}, "messages",
                 "messages: expected a list of messages, got dict", id="not-a-list"),
    pytest.param([{"role": "user", "content": "hi"}, None], "messages[1]",
                 "messages[1]: expected a message object, got NoneType", id="null-message"),
    pytest.param([{"content": "hi"}], "messages[0]", "messages[0]: missing 'role'",
                 id="no-role"),
    pytest.param([{"role": "system", "content": "hi"}], "messages[0].role",
                 "messages[0].role: Anthropic Messages has no role 'system'", id="system-role"),
    pytest.param([{"role": "user"}], "messages[0]", "messages[0]: missing 'content'",
                 id="no-content"),
    pytest.param([{"role": "user", "content": 5}], "messages[0].content",
                 "messages[0].content: expected str or list, got int", id="content-int"),
    pytest.param(_user("hi"), "messages[2].content[0]",
                 "messages[2].content[0]: expected a content part object, got str",
                 id="block-string"),
    pytest.param(_user({"text": "hi"}), "messages[2].content[0]",
                 "messages[2].content[0]: missing 'type'", id="block-no-type"),
    pytest.param(_user({"type": "text"}), "messages[2].content[0]",
                 "messages[2].content[0]: missing 'text'", id="text-no-text"),
    pytest.param(_user({"type": "text", "text": 5}), "messages[2].content[0].text",
                 "messages[2].content[0].text: expected str, got int", id="text-int"),
    pytest.param(_user({"type": "text", "text": "a", "citations": {"type": "char_location"}}),
                 "messages[2].content[0].citations",
                 "messages[2].content[0].citations: expected a list, got dict",
                 id="citations-object"),
    pytest.param(_user({"type": "text", "text": "a", "citations": [{"cited_text": "a"}]}),
                 "messages[2].content[0].citations[0]",
                 "messages[2].content[0].citations[0]: missing 'type'", id="citation-no-type"),
    pytest.param(_user({"type": "text", "text": "a", "citations": ["a"]}),
                 "messages[2].content[0].citations[0]",
                 "messages[2].content[0].citations[0]: expected a citation object, got str",
                 id="citation-string"),
    pytest.param(_user({"type": "text", "text": "a", "citations": [
        {"type": "char_location", "cited_text": "a", "document_index": "0"}]}),
                 "messages[2].content[0].citations[0].document_index",
                 "messages[2].content[0].citations[0].document_index: expected int, got str",
                 id="citation-index-str"),
    pytest.param(_user({"type": "text", "text": "a", "citations": [
        {"type": "page_location", "start_page_number": 2**70}]}),
                 "messages[2].content[0].citations[0].start_page_number",
                 None, id="citation-number-too-big"),
    pytest.param(_user({"type": "image"}), "messages[2].content[0]",
                 "messages[2].content[0]: missing 'source'", id="image-no-source"),
    pytest.param(_user({"type": "image", "source": {"type": "blob"}}),
                 "messages[2].content[0].source.type",
                 "messages[2].content[0].source.type: unknown image source type 'blob'",
                 id="image-source-type"),
    pytest.param(_user({"type": "image", "source": {"type": "base64", "data": PNG}}),
                 "messages[2].content[0].source",
                 "messages[2].content[0].source: missing 'media_type'", id="image-no-media"),
    pytest.param(_user({"type": "image", "source": {"type": "base64", "media_type": "image/png",
                                                     "data": "not base64!"}}),
                 "messages[2].content[0].source.data", None, id="image-bad-base64"),
    pytest.param(_user({"type": "image", "source": {"type": "base64", "media_type": "png",
                                                     "data": PNG}}),
                 "messages[2].content[0].source.media_type", None, id="image-bad-media"),
    pytest.param(_user({"type": "image", "source": {"type": "url", "url": 5}}),
                 "messages[2].content[0].source.url",
                 "messages[2].content[0].source.url: expected str, got int", id="image-url-int"),
    pytest.param(_user({"type": "document", "source": {"type": "zip", "data": ""}}),
                 "messages[2].content[0].source.type",
                 "messages[2].content[0].source.type: unknown document source type 'zip'",
                 id="document-source-type"),
    pytest.param(_user({"type": "document", "source": {"type": "text", "data": "x"}}),
                 "messages[2].content[0].source",
                 "messages[2].content[0].source: missing 'media_type'", id="document-text"),
    pytest.param(_user({"type": "document", "source": {"type": "content"}}),
                 "messages[2].content[0].source",
                 "messages[2].content[0].source: missing 'content'", id="document-content"),
    pytest.param(_user({"type": "document", "title": 5,
                        "source": {"type": "url", "url": "https://x.test/a.pdf"}}),
                 "messages[2].content[0].title",
                 "messages[2].content[0].title: expected str, got int", id="document-title"),
    pytest.param([{"role": "assistant", "content": [
        {"type": "tool_use", "name": "f", "input": {}}]}], "messages[0].content[0]",
                 "messages[0].content[0]: missing 'id'", id="tool_use-no-id"),
    pytest.param([{"role": "assistant", "content": [
        {"type": "tool_use", "id": "t1", "name": "f", "input": "{}"}]}],
                 "messages[0].content[0].input",
                 "messages[0].content[0].input: expected dict, got str", id="tool_use-input"),
    pytest.param(_user({"type": "tool_result", "content": "x"}), "messages[2].content[0]",
                 "messages[2].content[0]: missing 'tool_use_id'", id="result-no-id"),
    pytest.param(_user({"type": "tool_result", "tool_use_id": "t1", "content": 5}),
                 "messages[2].content[0].content",
                 "messages[2].content[0].content: expected a string or a list of blocks, "
                 "got int", id="result-content-int"),
    pytest.param(_user({"type": "tool_result", "tool_use_id": "t1", "content": [{"text": "x"}]}),
                 "messages[2].content[0].content[0]",
                 "messages[2].content[0].content[0]: missing 'type'", id="result-block"),
    pytest.param(_user({"type": "tool_result", "tool_use_id": "t1", "is_error": "yes"}),
                 "messages[2].content[0].is_error",
                 "messages[2].content[0].is_error: expected bool, got str", id="result-is_error"),
    pytest.param([{"role": "assistant", "content": [{"type": "thinking", "signature": "s"}]}],
                 "messages[0].content[0]", "messages[0].content[0]: missing 'thinking'",
                 id="thinking-no-text"),
    pytest.param([{"role": "assistant", "content": [
        {"type": "thinking", "thinking": "t", "signature": 5}]}],
                 "messages[0].content[0].signature",
                 "messages[0].content[0].signature: expected str, got int",
                 id="thinking-signature-int"),
    pytest.param([{"role": "assistant", "content": [{"type": "redacted_thinking"}]}],
                 "messages[0].content[0]", "messages[0].content[0]: missing 'data'",
                 id="redacted-no-data"),
    pytest.param([{"role": "assistant", "content": [{"type": "function_call", "id": "x"}]}],
                 "messages[0].content[0].type",
                 "messages[0].content[0].type: 'function_call' is the label of "
                 "FunctionCallContent: build a FunctionCallContent instead",
                 id="unknown-block-named-like-an-item"),
]


@pytest.mark.parametrize(("messages", "path", "message"), BAD_MESSAGES)
def test_a_malformed_payload_is_refused_at_its_location(messages, path, message):
    with pytest.raises(FormatError) as raised:
        reading.from_payload(messages)
    assert type(raised.value) is FormatError
    assert raised.value.path == path
    if message is not None:
        assert str(raised.value) == message
    assert str(raised.value).startswith(f"{path}: ")


@pytest.mark.parametrize(("system", "path", "message"), [
    (5, "system", "system: expected a string or a list of text blocks, got int"),
    ([{"type": "image", "source": {"type": "url", "url": "https://x.test/a.png"}}],
     "system[0].type", "system[0].type: the system prompt holds text blocks only, got 'image'"),
    ([{"type": "text"}], "system[0]", "system[0]: missing 'text'"),
    (["Be brief."], "system[0]", "system[0]: expected a text block object, got str"),
])
def test_a_malformed_system_is_refused_at_its_location(system, path, message):
    with pytest.raises(FormatError) as raised:
        reading.from_payload([], system)
    assert type(raised.value) is FormatError
    assert (raised.value.path, str(raised.value)) == (path, message)


@pytest.mark.parametrize(("response", "path", "message"), [
    ([], "message", "message: expected a Message object, got list"),
    ({"role": "user", "content": []}, "message.role",
     "message.role: a response is the assistant's, got role 'user'"),
    ({"role": "assistant"}, "message", "message: missing 'content'"),
    ({"content": [{"type": "text"}]}, "message.content[0]",
     "message.content[0]: missing 'text'"),
    ({"content": [], "usage": 5}, "message.usage",
     "message.usage: expected a usage object, got int"),
    ({"content": [], "id": 5}, "message.id", "message.id: expected str, got int"),
    ({"content": [], "stop_reason": 1}, "message.stop_reason",
     "message.stop_reason: expected str, got int"),
])
def test_a_malformed_response_is_refused_at_its_location(response, path, message):
    with pytest.raises(FormatError) as raised:
        reading.from_response(response)
    assert type(raised.value) is FormatError
    assert (raised.value.path, str(raised.value)) == (path, message)


# --- writing histories broken by hand ----------------------------------------------------


def test_an_item_broken_by_hand_is_located():
    text = TextContent("hi")
    object.__setattr__(text, "_text", 5)
    with pytest.raises(FormatError) as raised:
        writing.to_payload([ChatMessageContent("user", items=[TextContent("a"), text])])
    assert str(raised.value) == "messages[0].items[1].text: expected a str, got int"


@pytest.mark.parametrize(("broken", "message"), [
    (5, "messages[0].items[0].citations: expected a tuple of Citation, got int"),
    ([1], "messages[0].items[0].citations: expected a tuple of Citation, got list"),
    (("a",), "messages[0].items[0].citations[0]: expected a Citation, got str"),
])
def test_citations_broken_by_hand_are_located(broken, message):
    text = TextContent("hi")
    object.__setattr__(text, "_citations", broken)
    with pytest.raises(FormatError) as raised:
        writing.to_payload([ChatMessageContent("assistant", items=[text])])
    assert str(raised.value) == message


def test_a_value_put_into_mapping_arguments_later_is_located():
    call = FunctionCallContent("c1", "f", {"when": "today"})
    call.arguments["when"] = datetime.date(2025, 1, 1)  # type: ignore[index]
    with pytest.raises(FormatError) as raised:
        writing.to_payload([ChatMessageContent("assistant", items=[call])])
    assert raised.value.path == 'messages[0].items[0].arguments["when"]'
    assert str(raised.value) == (
        'messages[0].items[0].arguments["when"]: date is not a JSON value')


def test_a_value_put_into_an_unknown_block_later_is_located():
    block = UnknownContent("server_tool_use", {"id": "s1", "input": {}})
    block.fields["input"]["at"] = datetime.date(2025, 1, 1)
    with pytest.raises(FormatError) as raised:
        writing.to_payload([ChatMessageContent("assistant", items=[block])])
    assert raised.value.path == 'messages[0].items[0].fields["input"]["at"]'


def test_a_bad_on_unsupported_is_refused():
    with pytest.raises(InvalidValueError) as raised:
        writing.to_payload([], on_unsupported="ignore")  # type: ignore[arg-type]
    assert raised.value.path == "on_unsupported"


@pytest.mark.parametrize(("target", "ttl", "error", "message"), [
    (ChatMessageContent("user", items=None), None, InvalidValueError,
     "items: a message without items has no block to mark"),
    ("text", None, InvalidTypeError, "target: expected an item or a message, got str"),
    (TextContent("a"), 60, InvalidTypeError, "ttl: expected a str or None, got int"),
    (TextContent("a"), "1d", InvalidValueError, "ttl: expected '5m' or '1h', got '1d'"),
    (ReasoningContent("hm", signature="s"), None, InvalidValueError,
     "target: thinking takes no cache_control: the API caches it with its turn"),
    (ChatMessageContent("assistant", items=[TextContent("a"), ReasoningContent("hm")]), None,
     InvalidValueError,
     "items[1]: thinking takes no cache_control: the API caches it with its turn"),
])
def test_cache_control_refuses_what_it_cannot_mark(target, ttl, error, message):
    with pytest.raises(error) as raised:
        anthropic_format.cache_control(target, ttl=ttl)
    assert type(raised.value) is error
    assert str(raised.value) == message


def test_a_cache_mark_read_on_thinking_is_left_out_with_a_warning():
    thinking = ReasoningContent("hm", signature="s", provider="anthropic")
    thinking.metadata["anthropic"] = {"fields": {"cache_control": {"type": "ephemeral"}}}
    history = [ChatMessageContent("assistant", items=[thinking, TextContent("a")])]
    with pytest.warns(ConversionWarning) as caught:
        written = writing.to_payload(history)
    assert written["messages"][0]["content"][0] == {
        "type": "thinking", "thinking": "hm", "signature": "s"}
    assert [str(w.message) for w in caught] == [
        "messages[0].items[0].metadata: dropped: Anthropic Messages cannot carry a "
        "cache_control on thinking (the API caches it with its turn)"]


def test_a_bad_image_written_later_is_refused_not_written():
    image = ImageContent.from_base64(PNG, "image/png")
    image.mime_type = "image/tiff"
    with pytest.raises(FormatError) as raised:
        writing.to_payload([ChatMessageContent("user", items=[image])])
    assert raised.value.path == "messages[0].items[0]"
