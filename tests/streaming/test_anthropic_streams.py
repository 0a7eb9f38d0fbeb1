"""Anthropic Messages streams accumulate to the message each stream describes.

Fixture ``anthropic_streams.json``: the two recorded streams and three recorded responses of
the shared conformance file (each recorded stream with the final ``Message`` it describes,
written out), and streams written from the API documentation, each with its final message:
thinking with a signature, redacted thinking and a tool call, citations over separate text
blocks, a web search (server tool) with a cited answer, and prompt-cache usage with a stop
sequence. Every final message there is what the SDK's own stream accumulator makes of the
events. A recorded response is also streamed, as the API streams a message, by `stream_of`.
"""

from __future__ import annotations

import json
from itertools import islice
from pathlib import Path
from typing import Any

import pytest
from anthropic.types import RawMessageStreamEvent
from pydantic import TypeAdapter

from semantic_chat import (
    Citation,
    FinishReason,
    FunctionCallContent,
    ReasoningContent,
    TextContent,
    Usage,
)
from semantic_chat.contents import UnknownContent
from semantic_chat.errors import FormatError, ProviderError
from semantic_chat.formats import anthropic
from semantic_chat.streaming import (
    StreamingChatMessageContent,
    StreamingFunctionCallContent,
    StreamingReasoningContent,
    StreamingTextContent,
)

CASES = json.loads((Path(__file__).parent / "anthropic_streams.json").read_text("utf-8"))
STREAMS = {case["name"]: case for case in CASES if case["kind"] == "stream"}
RESPONSES = {case["name"]: case["payload"] for case in CASES if case["kind"] == "response"}
EVENT_ADAPTER: TypeAdapter[Any] = TypeAdapter(RawMessageStreamEvent)


def accumulate(events):
    return StreamingChatMessageContent.accumulate(anthropic.from_stream(events))


class _MoreToCome(Exception):
    """Raised by a stream that has not ended, where its next event would come."""


def _then_more(events):
    yield from events
    raise _MoreToCome


def accumulated(name):
    return accumulate(STREAMS[name]["payload"]).to_message()


def stream_of(response: dict[str, Any], piece: int = 7) -> list[dict[str, Any]]:
    """The events the API streams for ``response``: text and tool input in small pieces."""
    usage = response["usage"]
    events: list[dict[str, Any]] = [{"type": "message_start", "message": {
        **response, "content": [], "stop_reason": None, "stop_sequence": None,
        "usage": {**usage, "output_tokens": 1},
    }}]
    for index, block in enumerate(response["content"]):
        if block["type"] == "text":
            events.append({"type": "content_block_start", "index": index,
                           "content_block": {"type": "text", "text": ""}})
            deltas = [{"type": "text_delta", "text": block["text"][at:at + piece]}
                      for at in range(0, len(block["text"]), piece)]
        else:
            assert block["type"] == "tool_use"
            events.append({"type": "content_block_start", "index": index,
                           "content_block": {**block, "input": {}}})
            text = json.dumps(block["input"])
            deltas = [{"type": "input_json_delta", "partial_json": text[at:at + piece]}
                      for at in range(0, len(text), piece)]
        events.append({"type": "ping"})
        events += [{"type": "content_block_delta", "index": index, "delta": d} for d in deltas]
        events.append({"type": "content_block_stop", "index": index})
    events.append({"type": "message_delta", "delta": {
        "stop_reason": response["stop_reason"], "stop_sequence": response["stop_sequence"],
    }, "usage": {"output_tokens": usage["output_tokens"]}})
    events.append({"type": "message_stop"})
    return events


# --- every stream, and every recorded response streamed ------------------------------------


def _assert_like_response(reply, response):
    expected = anthropic.from_response(response)
    assert anthropic.to_payload(reply) == anthropic.to_payload(expected)
    assert anthropic.to_payload(reply) == {
        "messages": [{"role": "assistant", "content": response["content"]}]
    }
    assert (reply.id, reply.model_id, reply.finish_reason, reply.usage) == (
        expected.id, expected.model_id, expected.finish_reason, expected.usage
    )
    assert reply.metadata == expected.metadata


@pytest.mark.parametrize("name", sorted(STREAMS))
def test_a_stream_accumulates_to_the_message_it_describes(name):
    _assert_like_response(accumulated(name), STREAMS[name]["message"])


@pytest.mark.parametrize("name", sorted(RESPONSES))
def test_a_recorded_response_streamed_accumulates_back_to_it(name):
    response = RESPONSES[name]
    _assert_like_response(accumulate(stream_of(response)).to_message(), response)


@pytest.mark.parametrize("name", sorted(STREAMS))
def test_sdk_event_objects_read_as_their_dicts(name):
    dicts = [event for event in STREAMS[name]["payload"] if event["type"] != "ping"]
    events = [EVENT_ADAPTER.validate_python(event) for event in dicts]
    assert accumulate(events).to_message() == accumulate(dicts).to_message()


# --- what each stream gives ----------------------------------------------------------------


def test_recorded_text_stream():
    reply = accumulated("stream_text_with_ping")
    assert reply.items == [TextContent("Hello there!")]
    assert reply.finish_reason == FinishReason.STOP
    assert reply.usage == Usage(11, 6, 17)
    # A response's content is a list: one text block is written back as a list of one.
    assert reply.metadata == {"anthropic": {"parts": True, "stop_reason": "end_turn"}}


def test_recorded_tool_stream_keeps_the_call_and_its_caller():
    reply = accumulated("stream_text_then_tool_use_input_json")
    assert reply.items == [
        TextContent("I'll check the current weather in Paris for you."),
        FunctionCallContent("toolu_01NRLabsLyVHZPKxbKvkfSMn", "get_weather",
                            {"location": "Paris"},
                            metadata={"anthropic": {"fields": {"caller": {"type": "direct"}}}}),
    ]
    assert reply.finish_reason == FinishReason.TOOL_CALLS
    assert reply.usage == Usage(377, 65, 442, cached_tokens=0, cache_creation_tokens=0)


def test_thinking_deltas_and_the_signature_make_one_reasoning_item():
    reply = accumulated("stream_thinking_with_signature")
    assert reply.items == [
        ReasoningContent(
            "Let me solve this step by step:\n\n1. 27 * 453 = 27 * 400 + 27 * 53",
            signature="EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYdsZ2Xw8pyquSH",
            provider="anthropic",
        ),
        TextContent("27 * 453 = 12,231"),
    ]
    assert reply.usage == Usage(30, 260, 290)


def test_redacted_thinking_stays_apart_from_the_thinking_after_it():
    reply = accumulated("stream_redacted_thinking_and_tool_use")
    assert reply.items == [
        ReasoningContent("", encrypted="EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP",
                         provider="anthropic"),
        ReasoningContent("I need the weather tool for Paris.",
                         signature="ErUBCkYIBRgCIkDt0Yw8CjaF3Rw5B6iQ", provider="anthropic"),
        FunctionCallContent("toolu_01Wx7", "get_weather", {"city": "Paris", "unit": "celsius"}),
    ]
    assert reply.finish_reason == FinishReason.TOOL_CALLS


def test_citations_deltas_attach_to_their_own_text_block_and_blocks_stay_apart():
    reply = accumulated("stream_citations_in_separate_text_blocks")
    assert [item.text for item in reply.items] == [
        "According to the document, ", "the grass is green", " and ", "the sky is blue", ".",
    ]
    assert [item.citations for item in reply.items] == [
        (),
        (Citation(cited_text="The grass is green. ", title="Example Document", source_index=0,
                  source_start=0, source_end=20, source_unit="char",
                  metadata={"anthropic": {"type": "char_location"}}),),
        (),
        (Citation(cited_text="The sky is blue.", title="Example Document", source_index=0,
                  source_start=20, source_end=36, source_unit="char",
                  metadata={"anthropic": {"type": "char_location"}}),),
        (),
    ]


def test_a_server_tool_block_is_given_whole_at_its_stop():
    case = STREAMS["stream_web_search_server_tool"]
    events = case["payload"]
    stop = next(i for i, e in enumerate(events) if e == {"type": "content_block_stop", "index": 1})
    # Mid-stream (the events so far, more to come): nothing of the block is given yet. A
    # stream that ends there gives it as it stands (test_provider_stream_fixes).
    given: list[Any] = []
    with pytest.raises(_MoreToCome):
        given.extend(anthropic.from_stream(_then_more(events[:stop])))
    before = StreamingChatMessageContent.accumulate(given)
    assert [type(item) for item in before.items] == [StreamingTextContent]
    reply = accumulate(events).to_message()
    search, result = case["message"]["content"][1:3]
    assert reply.items[1:3] == [
        UnknownContent("server_tool_use", {
            "id": "srvtoolu_014hJH82Qum7Td6UV8gDXThB", "name": "web_search",
            "input": {"query": "weather Paris today"},
        }),
        UnknownContent("web_search_tool_result", {
            key: value for key, value in result.items() if key != "type"
        }),
    ]
    assert search["input"] == {"query": "weather Paris today"}
    assert reply.items[3] == TextContent("It is sunny and 22 °C in Paris.", citations=[
        Citation(cited_text="Sunny, 22 °C in Paris today.", title="Paris weather today",
                 url="https://weather.example/paris",
                 metadata={"anthropic": {"type": "web_search_result_location",
                                         "encrypted_index": "Eo8BCioIAhgBIiQyYjQ0OWJmZi1lNm"}}),
    ])


def test_message_delta_usage_is_cumulative_and_replaces_message_start():
    events = STREAMS["stream_web_search_server_tool"]["payload"]
    assert accumulate(events[:1]).usage == Usage(2679, 3, 2682, cached_tokens=0,
                                                 cache_creation_tokens=0)
    reply = accumulate(events).to_message()
    assert reply.usage == Usage(10682, 510, 11192, cached_tokens=0, cache_creation_tokens=0)
    assert reply.metadata == {"anthropic": {
        "stop_reason": "end_turn",
        "usage": {"server_tool_use": {"web_search_requests": 1, "web_fetch_requests": 0}},
    }}


def test_cache_tokens_count_in_the_prompt_and_the_stop_sequence_is_kept():
    reply = accumulated("stream_cache_usage_and_stop_sequence")
    assert reply.usage == Usage(prompt_tokens=1812, completion_tokens=42, total_tokens=1854,
                                cached_tokens=1500, cache_creation_tokens=300)
    assert reply.finish_reason == FinishReason.STOP
    assert reply.metadata == {"anthropic": {
        "parts": True,
        "stop_reason": "stop_sequence",
        "stop_sequence": "\n\nStep two",
        "usage": {"cache_creation": {"ephemeral_5m_input_tokens": 300,
                                     "ephemeral_1h_input_tokens": 0},
                  "service_tier": "standard"},
    }}


def test_message_delta_may_give_only_the_output_count():
    events = STREAMS["stream_cache_usage_and_stop_sequence"]["payload"]
    events = [*events[:-2], {**events[-2], "usage": {"output_tokens": 42}}, events[-1]]
    assert accumulate(events).usage == Usage(1812, 42, 1854, cached_tokens=1500,
                                             cache_creation_tokens=300)


# --- mid-stream ----------------------------------------------------------------------------


def test_partial_arguments_mid_stream():
    events = STREAMS["stream_redacted_thinking_and_tool_use"]["payload"]
    pieces = [i for i, e in enumerate(events) if e.get("delta", {}).get("type") == "input_json_delta"]
    first, second = pieces[1], pieces[2]  # '{"city": "Par' and 'is", "unit": '
    call = accumulate(events[:first + 1]).items[2]
    assert isinstance(call, StreamingFunctionCallContent)
    assert (call.id, call.name, call.arguments) == ("toolu_01Wx7", "get_weather", '{"city": "Par')
    assert call.partial_arguments() == {"city": "Par"}
    assert accumulate(events[:second + 1]).items[2].partial_arguments() == {"city": "Paris"}


def test_fragments_carry_their_block_index():
    chunks = list(anthropic.from_stream(STREAMS["stream_thinking_with_signature"]["payload"]))
    assert [item for chunk in chunks for item in chunk.items] == [
        StreamingReasoningContent("", signature="", provider="anthropic", index=0),
        StreamingReasoningContent("Let me solve this step by step:\n\n1. ", provider="anthropic",
                                  index=0),
        StreamingReasoningContent("27 * 453 = 27 * 400 + 27 * 53", provider="anthropic",
                                  index=0),
        StreamingReasoningContent(
            "", signature="EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYdsZ2Xw8pyquSH",
            provider="anthropic", index=0,
        ),
        StreamingTextContent("", index=1),
        StreamingTextContent("27 * 453 = ", index=1),
        StreamingTextContent("12,231", index=1),
    ]
    assert [chunk.inner_content["type"] for chunk in chunks] == [
        "message_start", *["content_block_start", "content_block_delta",
                           "content_block_delta", "content_block_delta"],
        "content_block_start", "content_block_delta", "content_block_delta", "message_delta",
    ]


def _text_stream(start_block, *deltas):
    return [
        {"type": "message_start", "message": {
            "id": "msg_1", "type": "message", "role": "assistant", "content": [],
            "model": "claude-sonnet-4-5", "stop_reason": None, "stop_sequence": None,
            "usage": {"input_tokens": 5, "output_tokens": 1}}},
        {"type": "content_block_start", "index": 0, "content_block": start_block},
        *({"type": "content_block_delta", "index": 0, "delta": d} for d in deltas),
        {"type": "content_block_stop", "index": 0},
        {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None},
         "usage": {"output_tokens": 3}},
        {"type": "message_stop"},
    ]


def _final(text, **block):
    return {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
            "content": [{"type": "text", "text": text, **block}], "stop_reason": "end_turn",
            "stop_sequence": None, "usage": {"input_tokens": 5, "output_tokens": 3}}


def test_a_text_block_started_with_no_citations_and_given_none_keeps_its_empty_list():
    events = _text_stream({"type": "text", "text": "", "citations": []},
                          {"type": "text_delta", "text": "Hi"})
    reply = accumulate(events).to_message()
    expected = anthropic.from_response(_final("Hi", citations=[]))
    assert anthropic.to_payload(reply) == anthropic.to_payload(expected)
    assert anthropic.to_payload(reply)["messages"][0]["content"] == [
        {"type": "text", "text": "Hi", "citations": []}
    ]


def test_a_text_block_started_with_no_citations_and_given_some_has_them():
    citation = {"type": "page_location", "cited_text": "x", "document_index": 1,
                "document_title": "Report", "start_page_number": 2, "end_page_number": 3}
    events = _text_stream({"type": "text", "text": "", "citations": []},
                          {"type": "citations_delta", "citation": citation},
                          {"type": "text_delta", "text": "Hi"})
    reply = accumulate(events).to_message()
    assert anthropic.to_payload(reply)["messages"][0]["content"] == [
        {"type": "text", "text": "Hi", "citations": [citation]}
    ]
    assert anthropic.to_payload(reply) == anthropic.to_payload(
        anthropic.from_response(_final("Hi", citations=[citation])))


def test_a_thinking_block_started_without_a_signature_takes_the_streamed_one():
    events = _text_stream({"type": "thinking", "thinking": ""},
                          {"type": "thinking_delta", "thinking": "hmm"},
                          {"type": "signature_delta", "signature": "sig"})
    assert accumulate(events).to_message().items == [
        ReasoningContent("hmm", signature="sig", provider="anthropic")
    ]


def test_ping_stop_and_newer_event_and_delta_types_give_nothing():
    events = _text_stream({"type": "text", "text": ""},
                          {"type": "text_delta", "text": "Hi"},
                          {"type": "sparkle_delta", "sparkle": "*"})
    events.insert(2, {"type": "ping"})
    events.insert(3, {"type": "content_block_glow", "index": 0})
    chunks = list(anthropic.from_stream(events))
    kinds = [chunk.inner_content["type"] for chunk in chunks]
    assert kinds == ["message_start", "content_block_start", "content_block_delta",
                     "message_delta"]
    assert StreamingChatMessageContent.accumulate(chunks).to_message().items == [
        TextContent("Hi")
    ]


# --- errors --------------------------------------------------------------------------------


def test_an_error_event_raises_the_providers_message_after_what_came_before():
    events = _text_stream({"type": "text", "text": ""}, {"type": "text_delta", "text": "Hel"})
    events.insert(3, {"type": "error", "error": {"type": "overloaded_error",
                                                 "message": "Overloaded"}})
    stream = anthropic.from_stream(events)
    assert [chunk.inner_content["type"] for chunk in islice(stream, 3)] == [
        "message_start", "content_block_start", "content_block_delta"
    ]
    with pytest.raises(ProviderError) as raised:
        next(stream)
    assert str(raised.value) == "overloaded_error: Overloaded"
    assert raised.value.error_type == "overloaded_error"
    assert isinstance(raised.value, RuntimeError)


def test_an_error_event_without_details_still_raises():
    with pytest.raises(ProviderError) as raised:
        list(anthropic.from_stream([{"type": "error"}]))
    assert str(raised.value) == "error: the stream reported an error"
    assert raised.value.error_type is None


def _broken(at: int, event: Any) -> list[Any]:
    events: list[Any] = _text_stream({"type": "text", "text": ""},
                                     {"type": "text_delta", "text": "Hi"})
    events[at] = event
    return events


START = {"type": "content_block_start", "index": 0}
DELTA = {"type": "content_block_delta", "index": 0}


@pytest.mark.parametrize(("events", "message"), [
    (_broken(1, ["content_block_start"]),
     "events[1]: expected a stream event object, got list"),
    (_broken(0, {"message": {}}), "events[0]: missing 'type'"),
    (_broken(0, {"type": 5}), "events[0].type: expected str, got int"),
    (_broken(0, {"type": "message_start", "message": "msg"}),
     "events[0].message: expected dict, got str"),
    (_broken(0, {"type": "message_start", "message": {"id": "m", "usage": "lots"}}),
     "events[0].message.usage: expected a usage object, got str"),
    (_broken(1, {"type": "content_block_start", "index": 0}),
     "events[1]: missing 'content_block'"),
    (_broken(1, {**START, "index": "0", "content_block": {"type": "text", "text": ""}}),
     "events[1].index: expected int, got str"),
    (_broken(1, {**START, "content_block": {"text": ""}}),
     "events[1].content_block: missing 'type'"),
    (_broken(1, {**START, "content_block": {"type": "text", "text": 5}}),
     "events[1].content_block.text: expected str, got int"),
    (_broken(1, {**START, "content_block": {"type": "tool_use", "name": "f", "input": {}}}),
     "events[1].content_block: missing 'id'"),
    (_broken(2, {**DELTA, "index": 5, "delta": {"type": "text_delta", "text": "x"}}),
     "events[2].index: no content block 5 was started"),
    (_broken(2, {**DELTA, "delta": "Hi"}), "events[2].delta: expected dict, got str"),
    (_broken(2, {**DELTA, "delta": {"type": "text_delta", "text": 5}}),
     "events[2].delta.text: expected str, got int"),
    (_broken(2, {**DELTA, "delta": {"type": "thinking_delta", "thinking": "x"}}),
     "events[2].delta.type: a thinking_delta in a text block"),
    (_broken(2, {**DELTA, "delta": {"type": "citations_delta", "citation": {
        "type": "char_location", "cited_text": "x", "document_index": "0"}}}),
     "events[2].delta.citation.document_index: expected int, got str"),
    (_broken(2, {**START, "content_block": {"type": "text", "text": ""}}),
     "events[2].index: content block 0 was already started"),
    (_broken(3, {"type": "content_block_stop", "index": 1}),
     "events[3].index: no content block 1 was started"),
    (_broken(4, {"type": "message_delta", "delta": {"stop_reason": 5}, "usage": {}}),
     "events[4].delta.stop_reason: expected str, got int"),
    (_broken(4, {"type": "message_delta", "delta": {}, "usage": [1]}),
     "events[4].usage: expected a usage object, got list"),
    (_broken(4, {"type": "message_delta", "usage": {}}), "events[4]: missing 'delta'"),
])
def test_a_malformed_event_is_located(events, message):
    with pytest.raises(FormatError) as raised:
        list(anthropic.from_stream(events))
    assert str(raised.value) == message


def test_a_server_tool_input_that_is_not_json_stays_text():
    # Cut by max_tokens: kept as it stands, as a tool_use block's arguments are (it raised).
    events = _text_stream({"type": "server_tool_use", "id": "s", "name": "web_search",
                           "input": {}},
                          {"type": "input_json_delta", "partial_json": '{"query": '})
    assert accumulate(events).to_message().items == [
        UnknownContent("server_tool_use", {"id": "s", "name": "web_search",
                                           "input": '{"query": '}),
    ]


def test_a_stream_that_is_not_iterable_events_is_refused_per_event():
    with pytest.raises(FormatError) as raised:
        list(anthropic.from_stream([5]))
    assert str(raised.value) == "events[0]: expected an object or a provider SDK model, got int"
