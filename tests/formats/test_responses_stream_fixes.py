"""OpenAI Responses: errors raise, streams keep every output item, custom tool calls stay custom."""

from __future__ import annotations

import json
import warnings
from typing import Any

import pytest
from format_helpers import validate_responses_payload
from hypothesis import given
from hypothesis import strategies as st
from openai.types.responses import Response

from semantic_chat import FinishReason, FunctionCallContent, ProviderError, Usage
from semantic_chat.errors import FormatError
from semantic_chat.formats import openai_chat, openai_responses
from semantic_chat.streaming import StreamingChatMessageContent

BASE = {"id": "resp_1", "object": "response", "created_at": 1, "model": "gpt-4.1",
        "parallel_tool_calls": True, "tool_choice": "auto", "tools": [], "error": None,
        "incomplete_details": None, "instructions": None, "metadata": {},
        "temperature": 1.0, "top_p": 1.0}
USAGE = {"input_tokens": 5, "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
         "output_tokens": 3,
         "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 8}
WEB_SEARCH = {"type": "web_search_call", "id": "ws_1", "status": "completed",
              "action": {"type": "search", "query": "paris weather"}}
CITED = {"type": "output_text", "text": "Sunny (w.com)", "logprobs": [], "annotations": [
    {"type": "url_citation", "url": "https://w.com", "title": "W", "start_index": 7,
     "end_index": 12}]}


def accumulate(events: list[dict[str, Any]]):
    return StreamingChatMessageContent.accumulate(openai_responses.from_stream(events)).to_message()


def events_of(response: dict[str, Any], piece: int = 5) -> list[dict[str, Any]]:
    """The events the API streams for ``response``: text, refusals, summaries and arguments
    in small pieces, each output item added (in progress) and done (whole)."""
    events: list[dict[str, Any]] = [
        {"type": "response.created", "response": {**response, "status": "in_progress",
                                                   "output": [], "usage": None}}]
    for index, item in enumerate(response["output"]):
        events.append({"type": "response.output_item.added", "output_index": index,
                       "item": _started(item)})
        events += _deltas(item, index, piece)
        events.append({"type": "response.output_item.done", "output_index": index, "item": item})
    events.append({"type": f"response.{response['status']}", "response": response})
    return [{**event, "sequence_number": number} for number, event in enumerate(events)]


def _started(item: dict[str, Any]) -> dict[str, Any]:
    started = {**item, "status": "in_progress"}
    if item["type"] == "message":
        started["content"] = []
    elif item["type"] == "function_call":
        started["arguments"] = ""
    elif item["type"] == "custom_tool_call":
        started["input"] = ""
    elif item["type"] == "reasoning":
        started["summary"] = []
    return started


def _pieces(text: str, piece: int) -> list[str]:
    return [text[at:at + piece] for at in range(0, len(text), piece)]


def _deltas(item: dict[str, Any], index: int, piece: int) -> list[dict[str, Any]]:
    where = {"item_id": item.get("id", ""), "output_index": index}
    kind = item["type"]
    if kind in ("function_call", "custom_tool_call"):
        name = "function_call_arguments" if kind == "function_call" else "custom_tool_call_input"
        text = item["arguments" if kind == "function_call" else "input"]
        return [{"type": f"response.{name}.delta", **where, "delta": d}
                for d in _pieces(text, piece)]
    if kind == "reasoning":
        events: list[dict[str, Any]] = []
        for number, part in enumerate(item["summary"]):
            events.append({"type": "response.reasoning_summary_part.added", **where,
                           "summary_index": number, "part": {**part, "text": ""}})
            events += [{"type": "response.reasoning_summary_text.delta", **where,
                        "summary_index": number, "delta": d} for d in _pieces(part["text"], piece)]
        return events
    if kind != "message":
        return []
    events = []
    for number, part in enumerate(item["content"]):
        at = {**where, "content_index": number}
        key = "text" if part["type"] == "output_text" else "refusal"
        name = "output_text" if key == "text" else "refusal"
        events += [{"type": f"response.{name}.delta", **at, "delta": d}
                   for d in _pieces(part[key], piece)]
        events += [{"type": "response.output_text.annotation.added", **at,
                    "annotation_index": n, "annotation": a}
                   for n, a in enumerate(part.get("annotations", []))]
        events.append({"type": "response.content_part.done", **at, "part": part})
    return events


def assert_like_response(streamed, response: dict[str, Any]) -> None:
    whole = openai_responses.from_response(response)
    assert streamed.items == whole.items
    assert (streamed.id, streamed.model_id, streamed.finish_reason, streamed.usage) == (
        whole.id, whole.model_id, whole.finish_reason, whole.usage)
    assert openai_responses.to_payload([streamed]) == openai_responses.to_payload([whole])


# --- 1. errors raise ---------------------------------------------------------------------

FAILED = {**BASE, "status": "failed", "output": [],
          "error": {"code": "server_error", "message": "The server had an error"}}


def test_an_error_event_raises_the_apis_code_and_message():
    events = [{"type": "response.created", "response": {**BASE, "status": "in_progress"}},
              {"type": "error", "code": "rate_limit_exceeded", "message": "Rate limit reached",
               "param": None}]
    with pytest.raises(ProviderError) as raised:
        accumulate(events)
    assert str(raised.value) == "events[1]: rate_limit_exceeded: Rate limit reached"
    assert raised.value.error_type == "rate_limit_exceeded"


def test_a_failed_event_raises_the_responses_error():
    events = [{"type": "response.created", "response": {**BASE, "status": "in_progress"}},
              {"type": "response.failed", "response": FAILED}]
    with pytest.raises(ProviderError) as raised:
        accumulate(events)
    assert str(raised.value) == "events[1].response.error: server_error: The server had an error"
    assert raised.value.error_type == "server_error"


def test_a_failed_response_raises_as_the_stream_does():
    Response.model_validate(FAILED)
    with pytest.raises(ProviderError) as raised:
        openai_responses.from_response(FAILED)
    assert str(raised.value) == "response.error: server_error: The server had an error"
    assert raised.value.error_type == "server_error"


def test_an_error_without_a_message_still_raises_located():
    with pytest.raises(ProviderError) as raised:
        accumulate([{"type": "error"}])
    assert str(raised.value) == "events[0]: error: the stream reported an error"
    with pytest.raises(ProviderError, match=r"^response\.error: error: the response failed$"):
        openai_responses.from_response({**FAILED, "error": None})


@pytest.mark.parametrize(("reason", "finish"), [
    ("max_output_tokens", FinishReason.LENGTH), ("content_filter", FinishReason.CONTENT_FILTER)])
def test_an_incomplete_response_finishes_for_its_reason(reason, finish):
    response = {**BASE, "status": "incomplete", "incomplete_details": {"reason": reason},
                "output": [{"type": "message", "id": "msg_1", "role": "assistant",
                            "status": "incomplete", "content": [{**CITED, "annotations": []}]}]}
    assert openai_responses.from_response(response).finish_reason == finish
    assert accumulate(events_of(response)).finish_reason == finish


# --- 2. a stream keeps every output item ------------------------------------------------

MESSAGE = {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
           "content": [CITED]}
FINAL = {**BASE, "status": "completed", "output": [WEB_SEARCH, MESSAGE], "usage": USAGE}


def test_a_stream_keeps_hosted_tool_items_the_message_id_and_citations():
    Response.model_validate(FINAL)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        streamed = accumulate(events_of(FINAL))
        assert openai_responses.to_payload([streamed]) == [
            WEB_SEARCH, {"role": "assistant", "content": [CITED], "type": "message",
                         "id": "msg_1", "status": "completed"}]
    assert [type(item).__name__ for item in streamed.items] == ["UnknownContent", "TextContent"]
    assert streamed.usage == Usage(5, 3, 8, cached_tokens=0, reasoning_tokens=0, cache_creation_tokens=0)
    assert_like_response(streamed, FINAL)


def test_a_streamed_refusal_is_written_back_in_its_output_message():
    refusal = {"type": "refusal", "refusal": "I can't help with that."}
    response = {**BASE, "status": "completed", "usage": USAGE, "output": [
        {**MESSAGE, "content": [refusal]}]}
    streamed = accumulate(events_of(response))
    assert openai_responses.to_payload([streamed]) == [
        {"role": "assistant", "content": [refusal], "type": "message", "id": "msg_1",
         "status": "completed"}]
    assert_like_response(streamed, response)


def test_items_only_the_completed_response_holds_are_given_at_its_end():
    created = {"type": "response.created", "response": {**BASE, "status": "in_progress"}}
    assert_like_response(accumulate([created, {"type": "response.completed",
                                               "response": FINAL}]), FINAL)
    only_message = {**FINAL, "output": [MESSAGE]}
    events = [created,
              {"type": "response.output_text.delta", "output_index": 0, "delta": "Sunny"},
              {"type": "response.completed", "response": only_message}]
    streamed = accumulate(events)
    assert streamed.text == "Sunny (w.com)"  # what the deltas missed, from the response
    assert_like_response(streamed, only_message)


def test_a_message_of_several_parts_streams_each_part_as_from_response_reads_it():
    refusal = {"type": "refusal", "refusal": "No."}
    response = {**BASE, "status": "completed", "output": [
        {**MESSAGE, "content": [{**CITED, "annotations": []}, refusal]}]}
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing is left out any more
        streamed = accumulate(events_of(response))
    assert [item.text for item in streamed.items] == ["Sunny (w.com)", "No."]
    assert_like_response(streamed, response)


def test_a_malformed_item_event_is_located():
    with pytest.raises(FormatError, match=r"^events\[0\]\.output_index: expected int, got str"):
        accumulate([{"type": "response.output_item.done", "output_index": "0", "item": MESSAGE}])
    with pytest.raises(FormatError, match=r"^events\[0\]\.item: missing 'call_id'$"):
        accumulate([{"type": "response.output_item.done", "output_index": 0,
                     "item": {"type": "function_call", "name": "f", "arguments": "{}"}}])


_texts = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=30)


@st.composite
def output_items(draw: Any, index: int) -> dict[str, Any]:
    kind = draw(st.sampled_from(["text", "refusal", "call", "custom", "reasoning", "search"]))
    if kind in ("text", "refusal"):
        part = ({"type": "output_text", "text": draw(_texts), "annotations": [], "logprobs": []}
                if kind == "text" else {"type": "refusal", "refusal": draw(_texts)})
        return {"type": "message", "id": f"msg_{index}", "role": "assistant",
                "status": "completed", "content": [part]}
    if kind in ("call", "custom"):
        key = "arguments" if kind == "call" else "input"
        text = json.dumps({"q": draw(_texts)}) if kind == "call" else draw(_texts)
        return {"type": "function_call" if kind == "call" else "custom_tool_call",
                "id": f"fc_{index}", "call_id": f"call_{index}", "name": "f", key: text,
                **({"status": "completed"} if kind == "call" else {})}
    if kind == "reasoning":
        summary = [{"type": "summary_text", "text": t}
                   for t in draw(st.lists(_texts, max_size=3))]
        return {"type": "reasoning", "id": f"rs_{index}", "summary": summary,
                "encrypted_content": draw(st.none() | _texts)}
    return {**WEB_SEARCH, "id": f"ws_{index}"}


@st.composite
def responses(draw: Any) -> dict[str, Any]:
    count = draw(st.integers(0, 4))
    output = [draw(output_items(index)) for index in range(count)]
    return {**BASE, "status": "completed", "output": output, "usage": USAGE}


@given(responses(), st.integers(1, 9))
def test_a_streamed_response_accumulates_to_from_response(response, piece):
    Response.model_validate(response)
    assert_like_response(accumulate(events_of(response, piece)), response)


def test_the_recorded_response_streamed_accumulates_to_from_response():
    recorded = json.loads(
        (__import__("pathlib").Path(__file__).parent / "fixtures" / "openai_responses.json")
        .read_text("utf-8"))
    response = next(case["payload"] for case in recorded
                    if case["name"] == "response_message_output_text")
    assert_like_response(accumulate(events_of(response)), response)


# --- 3. custom tool calls ----------------------------------------------------------------

CHAT_BODY = {"model": "gpt-5", "tools": [{"type": "custom", "custom": {"name": "sql",
                                                                       "description": "Run SQL"}}],
             "messages": [
    {"role": "user", "content": "Count users"},
    {"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_1", "type": "custom",
         "custom": {"name": "sql", "input": "SELECT count(*) FROM users"}}]},
    {"role": "tool", "tool_call_id": "call_1", "content": "42"}]}
RESPONSES_INPUT = [
    {"role": "user", "content": "Count users"},
    {"type": "custom_tool_call", "call_id": "call_1", "name": "sql",
     "input": "SELECT count(*) FROM users"},
    {"type": "custom_tool_call_output", "call_id": "call_1", "output": "42"}]


def test_a_chat_custom_call_becomes_a_responses_custom_tool_call():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        written = openai_responses.to_request(openai_chat.from_request(CHAT_BODY))
    assert written["input"] == RESPONSES_INPUT
    validate_responses_payload(written["input"])


def test_chat_to_responses_to_chat_is_exact():
    history = openai_chat.from_request(CHAT_BODY)
    back = openai_responses.from_payload(openai_responses.to_payload(history))
    assert openai_chat.to_payload(back) == CHAT_BODY["messages"]
    assert back.messages[1].items == history.messages[1].items


def test_custom_tool_items_read_and_write_back_exactly():
    items = [RESPONSES_INPUT[0], {**RESPONSES_INPUT[1], "id": "ctc_1"},
             {"type": "custom_tool_call_output", "call_id": "call_9", "output": "orphan"}]
    read = openai_responses.from_payload(items)
    call = read.messages[1].items[0]
    assert isinstance(call, FunctionCallContent)
    assert (call.id, call.name, call.arguments) == ("call_1", "sql", "SELECT count(*) FROM users")
    assert openai_responses.to_payload(read) == items
    validate_responses_payload(items)


def test_a_custom_tool_call_without_input_is_located():
    with pytest.raises(FormatError, match=r"^input\[0\]: missing 'input'$"):
        openai_responses.from_payload([{"type": "custom_tool_call", "call_id": "c", "name": "f"}])
