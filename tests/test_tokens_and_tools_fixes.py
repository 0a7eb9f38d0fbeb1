"""Fixes: token counts of server-tool items and redacted thinking; tool fields reported;
a result paired by name shown with its call's id."""

from __future__ import annotations

import json
import math
import warnings
from typing import Any

import pytest
import tiktoken
from hypothesis import given
from hypothesis import strategies as st

from semantic_chat import (
    ChatHistory,
    ChatMessageContent,
    FunctionResultContent,
    ReasoningContent,
    TextContent,
    UnknownContent,
    UnsupportedContentError,
)
from semantic_chat.formats import ConversionWarning, anthropic, gemini
from semantic_chat.history_ops import (
    count_tokens,
    count_tokens_approximately,
    tiktoken_counter,
    trim,
)
from semantic_chat.tools import ChatResponse, FunctionSchema, Run, ToolSet
from semantic_chat.tools.definitions import write_definitions

# A byte-level encoding: every UTF-8 byte is one token, so tiktoken counts are exact.
BYTES = tiktoken.Encoding(
    name="bytes",
    pat_str=r"\S+|\s+",
    mergeable_ranks={bytes([value]): value for value in range(256)},
    special_tokens={},
)

PAGE = "lorem ipsum " * 4000  # 48,000 characters of search results


def _claude_reply() -> ChatMessageContent:
    """An Anthropic reply with a web search's call and result, redacted thinking and text."""
    return anthropic.from_response({
        "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
        "stop_reason": "end_turn", "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
        "content": [
            {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search",
             "input": {"query": "q"}},
            {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": [
                {"type": "web_search_result", "url": "https://e.com", "title": "t",
                 "encrypted_content": PAGE, "page_age": None}]},
            {"type": "redacted_thinking", "data": "E" * 8000},
            {"type": "text", "text": "ok"}]})


def _gemini_reply() -> ChatMessageContent:
    """A Gemini reply with code execution's code and output, then text."""
    return gemini.from_response({"candidates": [{"finish_reason": "STOP", "content": {
        "role": "model", "parts": [
            {"executable_code": {"language": "PYTHON", "code": "print(1)\n" * 5000}},
            {"code_execution_result": {"outcome": "OUTCOME_OK", "output": "1\n" * 5000}},
            {"text": "done"}]}}]})


# --- 1. token counts of unknown items and redacted thinking ----------------------------------


def test_an_unknown_item_counts_its_label_and_compact_fields() -> None:
    item = UnknownContent("server_tool_use", {"id": "s1", "input": {"query": "q"}})
    # 'assistant' 9 + 'server_tool_use' 15 + '{"id":"s1","input":{"query":"q"}}' 33 = 57
    message = ChatMessageContent("assistant", items=[item])
    assert count_tokens_approximately(message) == math.ceil(57 / 4) + 3 == 18


def test_redacted_thinking_counts_its_data() -> None:
    message = ChatMessageContent("assistant", items=[ReasoningContent("", encrypted="E" * 8000)])
    assert count_tokens_approximately(message) == math.ceil((9 + 8000) / 4) + 3 == 2006
    both = ChatMessageContent("assistant", items=[ReasoningContent("abc", encrypted="EEEE")])
    assert count_tokens_approximately(both) == math.ceil((9 + 3 + 4) / 4) + 3 == 7


def test_an_unknown_item_inside_a_result_counts_its_fields() -> None:
    result = FunctionResultContent("c1", [UnknownContent("x", {"a": "bc"})])
    # 'tool' 4 + 'c1' 2 + 'x' 1 + '{"a":"bc"}' 10 = 17
    assert count_tokens_approximately(ChatMessageContent("tool", items=[result])) == 5 + 3


def test_fields_changed_in_place_to_no_json_still_count() -> None:
    item = UnknownContent("x", {"a": 1})
    item.fields["a"] = b"ab"  # the dict is the item's own: counted through repr, not refused
    # 'user' 4 + 'x' 1 + '{"a":"b\'ab\'"}' 13 = 18
    assert count_tokens_approximately(ChatMessageContent("user", items=[item])) == 5 + 3


def test_tiktoken_counts_unknown_items_and_encrypted_reasoning() -> None:
    counter = tiktoken_counter(BYTES)
    unknown = ChatMessageContent("user", items=[UnknownContent("x", {"a": "bc"})])
    assert counter(unknown) == 3 + 4 + 11
    reasoning = ChatMessageContent("assistant", items=[ReasoningContent("ab", encrypted="EEEE")])
    assert counter(reasoning) == 3 + 9 + 6


@pytest.mark.parametrize(("reply", "tokens"), [(_claude_reply, 14071), (_gemini_reply, 16287)])
def test_server_tool_pages_count_and_trim_drops_them(reply: Any, tokens: int) -> None:
    # What was seen: 21 and 22 tokens, and trim(max_tokens=50) kept both messages.
    history = ChatHistory()
    history.add_user_message("go")
    history.append(reply())
    assert count_tokens(history) == tokens
    assert count_tokens_approximately(history[0]) == 5  # the rest is the reply's
    assert len(trim(history, max_tokens=50, start_on=None)) == 0


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
_LABELS = st.sampled_from(["server_tool_use", "web_search_tool_result", "executable_code"])


# An item's own fields never include "type", its label's key (UnknownContent refuses it).
_FIELD_NAMES = st.text(min_size=1, max_size=8).filter(lambda name: name != "type")


@given(_LABELS, st.dictionaries(_FIELD_NAMES, _JSON, max_size=5))
def test_an_unknown_item_counts_as_the_text_it_is_sent_as(label: str, fields: Any) -> None:
    text = label + json.dumps(fields, ensure_ascii=False, separators=(",", ":"))
    unknown = ChatMessageContent("assistant", items=[UnknownContent(label, fields)])
    as_text = ChatMessageContent("assistant", items=[TextContent(text)])
    assert count_tokens_approximately(unknown) == count_tokens_approximately(as_text)


@given(st.text(min_size=1, max_size=300), st.text(min_size=1, max_size=300))
def test_an_anthropic_round_trip_keeps_the_count(page: str, data: str) -> None:
    history = ChatHistory()
    history.add_user_message("go")
    history.append(ChatMessageContent("assistant", items=[
        UnknownContent("server_tool_use", {"id": "s1", "name": "web_search", "input": {}}),
        UnknownContent("web_search_tool_result", {"tool_use_id": "s1", "content": [
            {"type": "web_search_result", "url": "https://e.com", "encrypted_content": page}]}),
        ReasoningContent("", encrypted=data, provider="anthropic"),
        TextContent("ok"),
    ]))
    back = anthropic.from_payload(anthropic.to_payload(history))
    assert count_tokens(back) == count_tokens(history)


# --- 2. tool fields a FunctionSchema has no place for ----------------------------------------

_WEATHER = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}


def test_an_anthropic_cache_control_is_reported_where_it_is() -> None:
    tools = [{"name": "get_weather", "description": "w", "cache_control": {"type": "ephemeral"},
              "input_schema": _WEATHER}]
    with pytest.warns(ConversionWarning) as caught:
        read = ToolSet.from_definitions(tools, format="anthropic")
    assert [str(warning.message) for warning in caught] == [
        "tools[0].cache_control: dropped: ToolSet cannot carry the Anthropic tool field "
        "'cache_control'"
    ]
    assert read.definitions("anthropic") == [
        {"name": "get_weather", "description": "w", "input_schema": _WEATHER}
    ]


def test_a_cache_control_refused_when_asked_names_its_place() -> None:
    tools = [{"name": "f", "input_schema": _WEATHER},
             {"name": "g", "input_schema": _WEATHER, "cache_control": {"type": "ephemeral"}}]
    with pytest.raises(UnsupportedContentError) as raised:
        ToolSet.from_definitions(tools, format="anthropic", on_unsupported="error")
    assert str(raised.value).startswith("tools[1].cache_control: ")


def test_a_null_field_loses_nothing_and_is_not_reported() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        read = ToolSet.from_definitions(
            [{"name": "f", "input_schema": _WEATHER, "cache_control": None}], "anthropic"
        )
    assert list(read) == ["f"]


def test_openai_tool_fields_are_reported_where_they_are() -> None:
    tools = [
        {"type": "function", "function": {"name": "f", "parameters": _WEATHER, "x": 1}, "y": 2},
        {"type": "function", "name": "g", "parameters": _WEATHER, "strict": False,
         "defer_loading": True},
    ]
    with pytest.warns(ConversionWarning) as caught:
        read = ToolSet.from_definitions(tools)
    assert list(read) == ["f", "g"]
    assert [str(warning.message) for warning in caught] == [
        "tools[0].y: dropped: ToolSet cannot carry the OpenAI Chat Completions tool field 'y'",
        "tools[0].function.x: dropped: ToolSet cannot carry the OpenAI Chat Completions tool "
        "field 'x'",
        "tools[1].defer_loading: dropped: ToolSet cannot carry the OpenAI Responses tool field "
        "'defer_loading'",
    ]


_NAMES = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,20}", fullmatch=True)


@given(
    _NAMES,
    st.none() | st.text(max_size=30),
    st.booleans(),
    st.sampled_from(["openai-chat", "openai-responses", "anthropic", "gemini"]),
)
def test_written_definitions_read_back_without_a_report(
    name: str, description: str | None, strict: bool, format_name: str
) -> None:
    schema = FunctionSchema(name, description, _WEATHER, strict and format_name != "gemini")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tools = ToolSet.from_definitions(write_definitions([schema], format_name), format_name)
    assert tools[name].schema == schema


# --- 3. a result paired by name shows its call's id ------------------------------------------


def _gemini_run() -> Run:
    run = Run(gemini.from_response({"candidates": [{"finish_reason": "STOP", "content": {
        "role": "model", "parts": [
            {"function_call": {"name": "get_weather", "args": {"city": "Paris"}}}]}}]}))
    run.add_result(FunctionResultContent(None, {"t": 18}, name="get_weather"))
    return run


def test_a_result_paired_by_name_shows_its_calls_id() -> None:
    run = _gemini_run()
    assert str(run) == (
        "run · finish=tool_calls\n"
        '   [tool call gemini-call-0-0] get_weather({"city": "Paris"})\n'
        '     -> [tool result gemini-call-0-0] {"t": 18}'
    )
    assert str(ChatResponse([run], done=False)).splitlines()[2] == (
        '     -> [tool result gemini-call-0-0] {"t": 18}'
    )
    assert run.tool_calls[0].result is not None
    assert run.tool_calls[0].result.call_id is None  # shown with the id, not changed
