"""OpenAI request and stream fixes: custom tool grammars, allowed tools, logprobs, stream
audio and custom calls, cache writes in usage."""

from __future__ import annotations

import warnings
from itertools import pairwise
from typing import Any

import pytest
from format_helpers import assert_keys_known
from hypothesis import given
from hypothesis import strategies as st
from openai.types.chat import ChatCompletionCustomToolParam, completion_create_params
from openai.types.responses import CustomToolParam, response_create_params
from pydantic import TypeAdapter

from semantic_chat import FunctionCallContent, Usage
from semantic_chat.contents import AudioContent
from semantic_chat.errors import FormatError, InvalidTypeError, UnsupportedContentError
from semantic_chat.formats import openai_chat, openai_responses
from semantic_chat.streaming import StreamingChatMessageContent

CHAT_BODY = completion_create_params.CompletionCreateParamsNonStreaming
RESPONSES_BODY = response_create_params.ResponseCreateParamsNonStreaming


def _chat_request(body: dict[str, Any]) -> dict[str, Any]:
    """A Responses request written for Chat Completions, checked against the SDK's type."""
    written = openai_chat.to_request(openai_responses.from_request(body))
    assert_keys_known(written, CHAT_BODY, "body")
    TypeAdapter(CHAT_BODY).validate_python(written)
    return written


def _responses_request(body: dict[str, Any]) -> dict[str, Any]:
    """A Chat Completions request written for Responses, checked against the SDK's type."""
    written = openai_responses.to_request(openai_chat.from_request(body))
    assert_keys_known(written, RESPONSES_BODY, "body")
    TypeAdapter(RESPONSES_BODY).validate_python(written)
    return written


def _warnings_of(call: Any) -> tuple[Any, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call()
    return result, [str(warning.message) for warning in caught]


# 1. custom tool grammar formats: Chat nests the grammar, Responses is flat

GRAMMAR_CHAT = {"type": "grammar", "grammar": {"syntax": "lark", "definition": "start: /.+/"}}
GRAMMAR_FLAT = {"type": "grammar", "syntax": "lark", "definition": "start: /.+/"}


def _responses_custom(format_: dict[str, Any]) -> dict[str, Any]:
    return {"model": "gpt-5", "input": "hi",
            "tools": [{"type": "custom", "name": "sql", "format": format_}]}


def _chat_custom(format_: dict[str, Any]) -> dict[str, Any]:
    return {"model": "gpt-5", "messages": [{"role": "user", "content": "hi"}],
            "tools": [{"type": "custom", "custom": {"name": "sql", "format": format_}}]}


def test_a_responses_grammar_is_nested_for_chat():
    written = _chat_request(_responses_custom(GRAMMAR_FLAT))
    assert written["tools"] == [{"type": "custom", "custom": {"name": "sql", "format": GRAMMAR_CHAT}}]
    TypeAdapter(ChatCompletionCustomToolParam).validate_python(written["tools"][0])


def test_a_chat_grammar_is_flat_for_responses():
    written = _responses_request(_chat_custom(GRAMMAR_CHAT))
    assert written["tools"] == [{"type": "custom", "name": "sql", "format": GRAMMAR_FLAT}]
    TypeAdapter(CustomToolParam).validate_python(written["tools"][0])


def test_a_text_format_is_the_same_in_both():
    assert _chat_request(_responses_custom({"type": "text"}))["tools"][0]["custom"]["format"] == {"type": "text"}
    assert _responses_request(_chat_custom({"type": "text"}))["tools"][0]["format"] == {"type": "text"}


def test_within_one_api_a_grammar_stays_exact():
    chat = _chat_custom(GRAMMAR_CHAT)
    assert openai_chat.to_request(openai_chat.from_request(chat))["tools"] == chat["tools"]
    responses = _responses_custom(GRAMMAR_FLAT)
    assert openai_responses.to_request(openai_responses.from_request(responses))["tools"] == responses["tools"]


@given(st.sampled_from(["lark", "regex"]), st.text(min_size=1))
def test_a_grammar_survives_both_round_trips_across(syntax, definition):
    nested = {"type": "grammar", "grammar": {"syntax": syntax, "definition": definition}}
    flat = {"type": "grammar", "syntax": syntax, "definition": definition}
    there = openai_responses.to_request(openai_chat.from_request(_chat_custom(nested)))
    assert there["tools"][0]["format"] == flat
    back = openai_chat.to_request(openai_responses.from_request(there))
    assert back["tools"] == _chat_custom(nested)["tools"]


# 2. allowed_tools names only the tools Chat Completions is given

FUNCTION_F = {"type": "function", "name": "f", "parameters": {"type": "object", "properties": {}},
              "strict": False}


def _allowed(entries: list[dict[str, Any]]) -> dict[str, Any]:
    return {"model": "gpt-5", "input": "hi",
            "tools": [FUNCTION_F, {"type": "file_search", "vector_store_ids": ["vs_1"]}],
            "tool_choice": {"type": "allowed_tools", "mode": "required", "tools": entries}}


def test_a_dropped_hosted_tool_leaves_the_allowed_tools_with_a_warning():
    body = _allowed([{"type": "file_search"}, {"type": "function", "name": "f"}])
    written, said = _warnings_of(lambda: _chat_request(body))
    assert written["tool_choice"] == {"type": "allowed_tools", "allowed_tools": {
        "mode": "required", "tools": [{"type": "function", "function": {"name": "f"}}]}}
    assert said == [
        'options.tools[1]: dropped: OpenAI Chat Completions cannot carry a "file_search" tool',
        "options.tool_choice.tools[0]: dropped: OpenAI Chat Completions cannot carry a "
        '"file_search" tool in an allowed_tools choice',
    ]


def test_allowed_tools_naming_no_kept_tool_is_left_out_and_reported():
    written, said = _warnings_of(lambda: _chat_request(_allowed([{"type": "file_search"}])))
    assert "tool_choice" not in written
    assert said[1:] == [
        "options.tool_choice.tools[0]: dropped: OpenAI Chat Completions cannot carry a "
        '"file_search" tool in an allowed_tools choice',
        'options.tool_choice: dropped: OpenAI Chat Completions cannot carry the tool choice '
        '"allowed_tools" with none of its tools kept',
    ]


def test_an_allowed_hosted_tool_is_refused_by_path_on_error():
    history = openai_responses.from_request(_allowed([{"type": "function", "name": "f"}, {"type": "web_search"}]))
    history.options.tools = [FUNCTION_F]
    with pytest.raises(UnsupportedContentError, match=r"^options\.tool_choice\.tools\[1\]: "):
        openai_chat.to_request(history, on_unsupported="error")


def test_responses_keeps_an_allowed_hosted_tool():
    body = _allowed([{"type": "file_search"}, {"type": "function", "name": "f"}])
    written, said = _warnings_of(lambda: openai_responses.to_request(openai_responses.from_request(body)))
    assert written["tool_choice"] == body["tool_choice"]
    assert said == []


# 3. top_logprobs needs logprobs: true in Chat Completions

LOGPROBS_INCLUDE = "message.output_text.logprobs"


def test_top_logprobs_from_responses_come_with_the_logprobs_flag():
    body = {"model": "gpt-4.1", "input": "hi", "top_logprobs": 3, "include": [LOGPROBS_INCLUDE]}
    written, said = _warnings_of(lambda: _chat_request(body))
    assert written == {"model": "gpt-4.1", "messages": [{"role": "user", "content": "hi"}],
                       "top_logprobs": 3, "logprobs": True}
    assert said == []


def test_the_other_include_entries_are_reported_one_by_one():
    body = {"model": "m", "input": "hi", "include": ["reasoning.encrypted_content", LOGPROBS_INCLUDE]}
    written, said = _warnings_of(lambda: _chat_request(body))
    assert written["logprobs"] is True
    assert said == ['options.extra["include"][0]: dropped: OpenAI Chat Completions cannot carry '
                    "the include entry 'reasoning.encrypted_content'"]


def test_the_chat_logprobs_flag_is_the_responses_include_entry():
    body = {"model": "m", "messages": [{"role": "user", "content": "hi"}], "logprobs": True, "top_logprobs": 3}
    there, said = _warnings_of(lambda: _responses_request(body))
    assert there == {"model": "m", "input": [{"role": "user", "content": "hi"}],
                     "include": [LOGPROBS_INCLUDE], "top_logprobs": 3}
    assert said == []
    assert _chat_request(there) == body
    off = {"model": "m", "messages": [{"role": "user", "content": "hi"}], "logprobs": False}
    assert _warnings_of(lambda: _responses_request(off)) == ({"model": "m", "input": [{"role": "user", "content": "hi"}]}, [])


# 4. Chat stream audio accumulates to from_response's item

def _chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4o-audio-preview",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


def _streamed(chunks: list[dict[str, Any]]) -> Any:
    return StreamingChatMessageContent.accumulate(openai_chat.from_stream(chunks)).to_message()


def _completion(message: dict[str, Any], finish: str) -> dict[str, Any]:
    return {"id": "c1", "object": "chat.completion", "created": 1, "model": "gpt-4o-audio-preview",
            "choices": [{"index": 0, "finish_reason": finish, "message": {"role": "assistant", **message}}]}


AUDIO = {"id": "audio_1", "data": "UklGRiQAAABXQVZFZm10IBAAAAABAAEA", "expires_at": 99, "transcript": "Hello"}


def test_stream_audio_is_one_item_with_data_expiry_and_transcript():
    chunks = [_chunk({"role": "assistant", "audio": {"id": "audio_1", "transcript": "Hel"}}),
              _chunk({"audio": {"transcript": "lo"}}), _chunk({"audio": {"data": "UklGRiQAAABXQVZF"}}),
              _chunk({"audio": {"data": "Zm10IBAAAAABAAEA"}}), _chunk({"audio": {"expires_at": 99}}),
              _chunk({}, "stop")]
    message, said = _warnings_of(lambda: _streamed(chunks))
    expected = AudioContent(file_id="audio_1", metadata={"openai_chat": {"fields": {
        "data": "UklGRiQAAABXQVZFZm10IBAAAAABAAEA", "expires_at": 99, "transcript": "Hello"}}})
    assert list(message.items) == [expected]
    assert list(message.items) == list(openai_chat.from_response(_completion({"content": None, "audio": AUDIO}, "stop")).items)
    assert said == []


@given(st.lists(st.integers(0, 40), max_size=6), st.lists(st.integers(0, 5), max_size=4))
def test_audio_split_anyhow_accumulates_to_from_response(data_cuts, transcript_cuts):
    def pieces(text: str, cuts: list[int]) -> list[str]:
        bounds = [0, *sorted({min(cut, len(text)) for cut in cuts}), len(text)]
        return [text[start:end] for start, end in pairwise(bounds) if end > start]

    chunks = [_chunk({"role": "assistant", "audio": {"id": "audio_1"}})]
    chunks += [_chunk({"audio": {"transcript": piece}}) for piece in pieces(AUDIO["transcript"], transcript_cuts)]
    chunks += [_chunk({"audio": {"data": piece}}) for piece in pieces(AUDIO["data"], data_cuts)]
    chunks += [_chunk({"audio": {"expires_at": 99}}), _chunk({}, "stop")]
    whole = openai_chat.from_response(_completion({"content": None, "audio": AUDIO}, "stop"))
    assert list(_streamed(chunks).items) == list(whole.items)


def test_a_stream_cut_before_its_finish_still_gives_its_audio():
    message = _streamed([_chunk({"role": "assistant", "audio": {"id": "audio_1", "transcript": "Hi"}})])
    assert list(message.items) == [AudioContent(file_id="audio_1", metadata={"openai_chat": {"fields": {"transcript": "Hi"}}})]


def test_stream_audio_without_an_id_is_refused_at_its_first_delta():
    chunks = [_chunk({"role": "assistant", "audio": {"transcript": "Hi"}}), _chunk({}, "stop")]
    with pytest.raises(FormatError, match=r"^chunks\[0\]\.choices\[0\]\.delta\.audio: missing 'id'$"):
        _streamed(chunks)


# 5. Chat stream custom tool calls

def test_a_streamed_custom_call_is_read_as_from_response_reads_it():
    chunks = [_chunk({"role": "assistant", "content": None, "tool_calls": [
                  {"index": 0, "id": "call_1", "type": "custom", "custom": {"name": "sql", "input": "SELECT"}}]}),
              _chunk({"tool_calls": [{"index": 0, "custom": {"input": " 1"}}]}), _chunk({}, "tool_calls")]
    message, said = _warnings_of(lambda: _streamed(chunks))
    expected = FunctionCallContent("call_1", "sql", "SELECT 1", metadata={"openai_chat": {"custom": True}})
    assert list(message.items) == [expected]
    whole = _completion({"content": None, "tool_calls": [
        {"id": "call_1", "type": "custom", "custom": {"name": "sql", "input": "SELECT 1"}}]}, "tool_calls")
    assert list(openai_chat.from_response(whole).items) == [expected]
    assert openai_chat.to_payload(message)[0]["tool_calls"] == [
        {"id": "call_1", "type": "custom", "custom": {"name": "sql", "input": "SELECT 1"}}]
    assert said == []


@given(st.text(max_size=20), st.integers(0, 20))
def test_custom_call_input_split_anywhere_joins(text, cut):
    first, rest = text[:cut], text[cut:]
    chunks = [_chunk({"tool_calls": [{"index": 0, "id": "call_1", "type": "custom", "custom": {"name": "sql", "input": first}}]}),
              _chunk({"tool_calls": [{"index": 0, "custom": {"input": rest}}]}), _chunk({}, "tool_calls")]
    assert list(_streamed(chunks).items) == [
        FunctionCallContent("call_1", "sql", text, metadata={"openai_chat": {"custom": True}})]


def test_a_call_delta_of_an_unknown_type_is_refused_by_path():
    chunks = [_chunk({"tool_calls": [{"index": 0, "id": "call_1", "type": "mcp", "mcp": {"name": "x"}}]})]
    with pytest.raises(FormatError, match=r"^chunks\[0\]\.choices\[0\]\.delta\.tool_calls\[0\]\.type: unknown tool call type 'mcp'$"):
        list(openai_chat.from_stream(chunks))


def test_a_call_delta_body_that_is_no_object_is_refused_by_path():
    chunks = [_chunk({"tool_calls": [{"index": 0, "type": "custom", "custom": "sql"}]})]
    with pytest.raises(FormatError, match=r"^chunks\[0\]\.choices\[0\]\.delta\.tool_calls\[0\]\.custom: "):
        list(openai_chat.from_stream(chunks))


# 6. tokens written to the prompt cache

def test_both_readers_keep_cache_write_tokens():
    response = {"id": "resp_1", "object": "response", "created_at": 1, "model": "gpt-5", "status": "completed",
                "output": [], "usage": {"input_tokens": 100, "input_tokens_details": {"cached_tokens": 40, "cache_write_tokens": 60},
                                        "output_tokens": 5, "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 105}}
    assert openai_responses.from_response(response).usage == Usage(
        100, 5, 105, cached_tokens=40, reasoning_tokens=0, cache_creation_tokens=60)
    completion = {**_completion({"content": "x"}, "stop"), "usage": {
        "prompt_tokens": 100, "completion_tokens": 5, "total_tokens": 105,
        "prompt_tokens_details": {"cached_tokens": 40, "cache_write_tokens": 60}}}
    assert openai_chat.from_response(completion).usage == Usage(
        100, 5, 105, cached_tokens=40, cache_creation_tokens=60)


def test_a_cache_write_count_of_another_type_is_refused():
    completion = {**_completion({"content": "x"}, "stop"), "usage": {
        "prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2,
        "prompt_tokens_details": {"cache_write_tokens": "60"}}}
    # as a cached_tokens count of another type is: named by the Usage field it fills
    with pytest.raises(InvalidTypeError, match=r"^cache_creation_tokens: expected an int or None, got str$"):
        openai_chat.from_response(completion)
