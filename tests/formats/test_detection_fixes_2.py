"""Detection of recorded streams, and results lines converted to semantic-chat reading back.

A recorded stream saved as a JSON list of events (Anthropic's ``message_start`` ...,
Responses' ``response.*``, Chat Completions chunks, Gemini chunks) is no conversation:
`formats.detect` refused only the lists no format scored, so an Anthropic stream was taken for
Responses items. An Anthropic results line (or an OpenAI Batch output line) converted
``--to semantic-chat`` keeps its envelope around this library's JSON, which its reader took
for an Anthropic body (``result.message.messages[0]: missing 'content'``).
"""

from __future__ import annotations

from typing import Any

import pytest
from format_helpers import case
from hypothesis import given
from hypothesis import strategies as st

from semantic_chat import formats
from semantic_chat.errors import FormatError, SemanticChatError
from semantic_chat.formats import documents
from semantic_chat.serialization import to_dict

ACCUMULATE = (
    "events, not a conversation: accumulate it first (its format's from_stream, then "
    "StreamingChatMessageContent.accumulate(...).to_message())"
)


def _conformance_stream(name: str) -> list[dict[str, Any]]:
    """A recorded stream of the conformance file (its copy under fixtures/)."""
    payload: list[dict[str, Any]] = case("anthropic_conformance.json", name)["payload"]
    return payload


RESPONSES_EVENTS = [
    {"type": "response.created", "sequence_number": 0,
     "response": {"id": "resp_1", "object": "response", "output": [], "status": "in_progress"}},
    {"type": "response.output_text.delta", "sequence_number": 1, "item_id": "msg_1",
     "output_index": 0, "content_index": 0, "delta": "Hi"},
]
CHAT_CHUNKS = [{"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4o",
                "choices": [{"index": 0, "delta": {"content": "Hi"}, "finish_reason": None}]}]
GEMINI_CHUNKS = [{"candidates": [{"content": {"role": "model", "parts": [{"text": "Hi"}]}}]}]


# 1. Recorded streams are refused by detection, named.

def test_the_recorded_anthropic_stream_is_refused_as_one():
    # What was seen: "openai-responses", one unknown item per event.
    events = _conformance_stream("stream_text_with_ping")
    with pytest.raises(FormatError) as raised:
        formats.detect(events)
    assert str(raised.value) == f"this is a stream of Anthropic Messages {ACCUMULATE}"


@pytest.mark.parametrize(("events", "api"), [
    (RESPONSES_EVENTS, "OpenAI Responses"),
    (RESPONSES_EVENTS[1:], "OpenAI Responses"),  # saved from the middle of the stream
    (CHAT_CHUNKS, "OpenAI Chat Completions"),
    (GEMINI_CHUNKS, "Gemini"),
    (_conformance_stream("stream_text_then_tool_use_input_json")[2:], "Anthropic Messages"),
])
def test_every_providers_stream_is_refused_by_name(events, api):
    with pytest.raises(FormatError) as raised:
        formats.detect(events)
    assert str(raised.value) == f"this is a stream of {api} {ACCUMULATE}"
    assert documents.stream_of(events) == api


@pytest.mark.parametrize(("payload", "name"), [
    ([{"type": "message", "role": "user", "content": "Hi"}], "openai-responses"),
    ([{"role": "user", "content": "Hi"}], "openai-chat"),
    ([{"role": "user", "parts": [{"text": "Hi"}]}], "gemini"),
])
def test_conversations_are_not_taken_for_streams(payload, name):
    assert documents.stream_of(payload) is None
    assert formats.detect(payload) == name


@pytest.mark.parametrize("payload", [[], ["message_start"], {"type": "message"}, None])
def test_what_is_no_list_of_events_is_no_stream(payload):
    assert documents.stream_of(payload) is None
    assert documents.refuse_stream(payload) is None


ONE_EVENT = [
    ({"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4o",
      "choices": [{"index": 0, "delta": {"content": "Hi"}, "finish_reason": None}]},
     "OpenAI Chat Completions"),
    ({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hi"}},
     "Anthropic Messages"),
    ({"type": "response.output_text.delta", "delta": "Hi", "item_id": "m1",
      "output_index": 0, "content_index": 0}, "OpenAI Responses"),
]


@pytest.mark.parametrize(("event", "api"), ONE_EVENT)
@pytest.mark.parametrize("reader", [None, "openai-chat", "openai-responses", "anthropic",
                                    "gemini"])
def test_one_event_of_a_stream_is_refused_by_name(event, api, reader):
    # What was seen: a stream saved a chunk a line gave "cannot tell the format of this dict:
    # pass --from", and with --from openai-chat "messages: expected a list of messages, got
    # dict", a path the input does not have.
    read = formats.detect if reader is None else formats.get(reader).from_payload
    with pytest.raises(FormatError) as raised:
        read(event)
    assert str(raised.value) == (
        f"this is one event of an {api} stream, not a conversation: accumulate the whole "
        "stream (its format's from_stream over every event, then "
        "StreamingChatMessageContent.accumulate(...).to_message())"
    )


def test_a_gemini_chunk_is_a_response_and_still_reads():
    chunk = {"candidates": [{"content": {"role": "model", "parts": [{"text": "Hi"}]}}]}
    assert documents.event_of(chunk) is None
    assert formats.detect(chunk) == "gemini"


def test_a_reader_can_refuse_a_stream_by_name():
    with pytest.raises(FormatError) as raised:
        documents.refuse_stream(CHAT_CHUNKS)
    assert (raised.value.path, raised.value.detail) == (
        "", f"this is a stream of OpenAI Chat Completions {ACCUMULATE}"
    )


def test_a_stream_does_not_convert():
    events = _conformance_stream("stream_text_with_ping")
    with pytest.raises(FormatError) as raised:
        formats.convert(events, target="openai-responses")
    assert str(raised.value) == f"this is a stream of Anthropic Messages {ACCUMULATE}"


# 2. A results line converted --to semantic-chat reads back.

RESULT = {"custom_id": "r1", "result": {"type": "succeeded", "message": {
    "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-haiku-4-5",
    "content": [{"type": "text", "text": "Hi there"}], "stop_reason": "end_turn",
    "stop_sequence": None, "usage": {"input_tokens": 5, "output_tokens": 3},
}}}
OUTPUT = {"id": "b1", "custom_id": "r1", "error": None, "response": {"status_code": 200, "body": {
    "id": "c1", "object": "chat.completion", "created": 1, "model": "gpt-4o",
    "choices": [{"index": 0, "message": {"role": "assistant", "content": "Hi"},
                 "finish_reason": "stop"}],
}}}


def _to_semantic_chat(line: dict[str, Any]) -> Any:
    """The line as ``convert --to semantic-chat`` writes it (and `formats.convert`): its
    envelope kept."""
    return formats.convert(line, target="semantic-chat")


def test_an_anthropic_results_line_in_semantic_chat_reads_back():
    # What was seen: "result.message.messages[0]: missing 'content'" from show and validate.
    converted = _to_semantic_chat(RESULT)
    assert converted["result"]["message"]["messages"][0]["items"] == [
        {"type": "text", "text": "Hi there"}
    ]
    assert formats.detect(converted) == "anthropic"
    history = formats.get("anthropic").from_payload(converted)
    assert to_dict(history) == to_dict(formats.get("anthropic").from_payload(RESULT))
    assert formats.validate(converted) == []


def test_an_openai_output_line_in_semantic_chat_reads_back():
    # What was seen: "cannot tell the format of this dict".
    converted = _to_semantic_chat(OUTPUT)
    assert formats.detect(converted) == "openai-chat"
    history = formats.get("openai-chat").from_payload(converted)
    assert [message.content for message in history] == ["Hi"]
    assert formats.validate(converted) == []


def test_a_malformed_semantic_chat_reply_is_located_in_the_line():
    line = {"custom_id": "r1", "result": {"type": "succeeded", "message": {
        "version": 1, "messages": [{"role": "assistant", "items": "Hi"}],
    }}}
    with pytest.raises(SemanticChatError) as raised:
        formats.get("anthropic").from_payload(line)
    assert raised.value.path == "result.message.messages[0].items"
    assert raised.value.detail == "expected a list of items, got str"


@given(st.lists(st.text(min_size=1, max_size=20), min_size=1, max_size=4))
def test_any_anthropic_reply_reads_back_from_semantic_chat(texts):
    message = {**RESULT["result"]["message"],
               "content": [{"type": "text", "text": text} for text in texts]}
    line = {"custom_id": "r1", "result": {"type": "succeeded", "message": message}}
    converted = _to_semantic_chat(line)
    read = formats.get(formats.detect(converted)).from_payload(converted)
    assert to_dict(read) == to_dict(formats.get("anthropic").from_payload(line))


@pytest.mark.parametrize("reader", ["anthropic", "openai-chat", "openai-responses", "gemini"])
@pytest.mark.parametrize(
    ("events", "api"),
    [
        (_conformance_stream("stream_text_with_ping"), "Anthropic Messages"),
        (RESPONSES_EVENTS, "OpenAI Responses"),
    ],
    ids=["anthropic", "responses"],
)
def test_every_reader_refuses_a_recorded_stream_named(
    reader: str, events: list[dict[str, Any]], api: str
) -> None:
    # --from anthropic used to say "messages[0]: missing 'role'", never that it was a stream.
    with pytest.raises(FormatError) as info:
        formats.get(reader).from_payload(events)
    assert str(info.value) == f"this is a stream of {api} {ACCUMULATE}"


OWN = ("this library's own JSON (read it with from_json, or as format 'semantic-chat')")


@pytest.mark.parametrize(("reader", "where"), [
    ("openai-chat", "messages: expected a list of messages or a Chat Completions document"),
    ("openai-responses", "input: expected a string or a list of items or a Responses document"),
    ("anthropic", "messages: expected a list of messages or an Anthropic Messages document"),
    ("gemini", "contents: expected a list of contents or a Gemini document"),
    ("sk-python", "expected a Semantic Kernel history ({'messages': [...]})"),
    ("sk-dotnet", "expected a JSON array of ChatMessageContent objects"),
])
def test_each_provider_reader_names_this_librarys_own_json(reader, where):
    # What was seen: sk_python.from_payload(json.loads(to_json(history))) said
    # "messages[0].items[0].content_type: expected a str, got NoneType", and openai_chat
    # "messages: expected a list of messages, got dict", naming neither the document.
    document = {"version": 1, "messages": [
        {"role": "user", "items": [{"type": "text", "text": "hi"}]}]}
    with pytest.raises(FormatError) as raised:
        formats.get(reader).from_payload(document)
    assert str(raised.value) == f"{where}, got {OWN}"
