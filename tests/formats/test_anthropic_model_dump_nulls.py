"""Anthropic: a reply read from the SDK's ``model_dump()`` is the reply read from the object.

What was seen: ``model_dump()`` writes every field of the SDK's response blocks, ``None``
for those the API did not send (``caller``, ``toolset_name``); read with `from_response` (or
`from_stream` of dumped events) they were kept and sent back, and the request types refuse
them (``caller: Input should be a valid dictionary``). A ``null`` the readers read (a text's
``citations``) stays as it came.
"""

from __future__ import annotations

from typing import Any

import anthropic as sdk
import pydantic
import pytest

from semantic_chat import ChatHistory, ChatMessageContent, FunctionResultContent
from semantic_chat.formats import anthropic
from semantic_chat.formats.anthropic.shared import without_unset_nulls
from semantic_chat.streaming import StreamingChatMessageContent

REPLY = {
    "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
    "stop_reason": "tool_use", "stop_sequence": None,
    "usage": {"input_tokens": 10, "output_tokens": 20},
    "content": [
        {"type": "server_tool_use", "id": "srvtoolu_01", "name": "web_search",
         "input": {"query": "Paris"}},
        {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_01", "content": [
            {"type": "web_search_result", "title": "Paris", "url": "https://x.test/paris",
             "encrypted_content": "Eqg", "page_age": None}]},
        {"type": "text", "text": "About 2.1M.", "citations": None},
        {"type": "tool_use", "id": "toolu_01", "name": "sqrt", "input": {"x": 4}},
    ],
}
BLOCK = pydantic.TypeAdapter(sdk.types.ContentBlockParam)


def _sent(reply: ChatMessageContent) -> list[dict[str, Any]]:
    history = ChatHistory([ChatMessageContent("user", "Population of Paris?"), reply,
                           ChatMessageContent("tool", items=[FunctionResultContent("toolu_01",
                                                                                   "2")])])
    content: list[dict[str, Any]] = anthropic.to_payload(history)["messages"][1]["content"]
    return content


def test_a_dumped_reply_reads_as_the_object_and_is_sent_as_the_api_takes_it() -> None:
    message = sdk.types.Message.model_validate(REPLY)
    dumped = message.model_dump()
    assert dumped["content"][3]["caller"] is None  # what the SDK adds
    from_object = anthropic.from_response(message)
    assert anthropic.from_response(dumped) == from_object
    assert anthropic.from_response(message.model_dump(mode="json")) == from_object
    sent = _sent(anthropic.from_response(dumped))
    assert sent == [
        {"type": "server_tool_use", "id": "srvtoolu_01", "input": {"query": "Paris"},
         "name": "web_search"},
        {"type": "web_search_tool_result", "content": [
            {"encrypted_content": "Eqg", "page_age": None, "title": "Paris",
             "type": "web_search_result", "url": "https://x.test/paris"}],
         "tool_use_id": "srvtoolu_01"},
        {"type": "text", "text": "About 2.1M.", "citations": None},
        {"type": "tool_use", "id": "toolu_01", "name": "sqrt", "input": {"x": 4}},
    ]
    for block in sent:
        BLOCK.validate_python(block)


def _events() -> list[dict[str, Any]]:
    return [
        {"type": "message_start", "message": {**REPLY, "content": [], "stop_reason": None}},
        {"type": "content_block_start", "index": 0, "content_block": {
            "type": "tool_use", "id": "toolu_01", "name": "sqrt", "input": {}}},
        {"type": "content_block_delta", "index": 0,
         "delta": {"type": "input_json_delta", "partial_json": '{"x": 4}'}},
        {"type": "content_block_stop", "index": 0},
        {"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": None},
         "usage": {"output_tokens": 20}},
        {"type": "message_stop"},
    ]


def test_a_stream_of_dumped_events_accumulates_to_the_reply_without_the_sdks_nulls() -> None:
    adapter = pydantic.TypeAdapter(sdk.types.RawMessageStreamEvent)
    events = [adapter.validate_python(event) for event in _events()]
    dumped = [event.model_dump() for event in events]
    assert dumped[1]["content_block"]["caller"] is None
    from_objects = StreamingChatMessageContent.accumulate(anthropic.from_stream(events))
    from_dumps = StreamingChatMessageContent.accumulate(anthropic.from_stream(dumped))
    assert from_dumps.to_message() == from_objects.to_message()
    sent = _sent(from_dumps.to_message())
    assert sent == [{"type": "tool_use", "id": "toolu_01", "name": "sqrt", "input": {"x": 4}}]
    BLOCK.validate_python(sent[0])


@pytest.mark.parametrize(("block", "expected"), [
    ({"type": "tool_use", "id": "t", "caller": None, "toolset_name": None},
     {"type": "tool_use", "id": "t"}),
    ({"type": "text", "text": "x", "citations": None}, {"type": "text", "text": "x",
                                                        "citations": None}),
    ({"type": "tool_use", "id": None, "caller": None}, {"type": "tool_use", "id": None}),
    ({"type": "tool_use", "caller": {"type": "direct"}}, {"type": "tool_use",
                                                         "caller": {"type": "direct"}}),
    ("not a block", "not a block"),
])
def test_only_the_nulls_no_reader_reads_are_left_out(block: Any, expected: Any) -> None:
    assert without_unset_nulls(block) == expected
