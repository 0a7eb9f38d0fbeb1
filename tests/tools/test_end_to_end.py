"""End to end: a recorded model turn's calls read, invoked, and their results written back.

For OpenAI Chat Completions, Responses, Anthropic and Gemini, a turn recorded from the real API
(``/work/shared/conformance``, copied here so that the tests run from a clone alone) is read
with the format's reader, its calls answered by a `ToolSet`, and the history written with the
format's writer. The payload validates against the provider SDK's types, reads back with each
result paired with its call (`history_ops.validate` finds nothing), and where the recording
holds the result too, what is written equals what was recorded.
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path
from typing import Annotated, Any, Literal

import pytest
from anthropic.types import ToolParam
from openai.types.responses import FunctionToolParam
from pydantic import TypeAdapter

from semantic_chat import (
    ChatHistory,
    ChatMessageContent,
    FunctionResultContent,
    KernelContent,
    StreamingChatMessageContent,
)
from semantic_chat.formats import anthropic, gemini, openai_chat, openai_responses
from semantic_chat.history_ops import validate
from semantic_chat.tools.toolset import Tool, ToolSet

sys.path.insert(0, str(Path(__file__).parent.parent / "formats"))
from format_helpers import (
    validate_anthropic_payload,
    validate_anthropic_request,
    validate_chat_payload,
    validate_gemini_request,
    validate_responses_payload,
)

# --- the recorded turns (from /work/shared/conformance/*.json, cases named alike) ----------

# openai_chat.json: completion_single_tool_call_strict (openai-python's tests)
CHAT_STRICT_CALL = {
    "id": "chatcmpl-ABfvzdvCI6RaIkiEFNjqGXCSYnlzf",
    "object": "chat.completion",
    "created": 1727346167,
    "model": "gpt-4o-2024-08-06",
    "choices": [{
        "index": 0,
        "message": {
            "role": "assistant",
            "content": None,
            "tool_calls": [{
                "id": "call_CUdUoJpsWWVdxXntucvnol1M",
                "type": "function",
                "function": {
                    "name": "get_weather",
                    "arguments": '{"city":"San Francisco","state":"CA"}',
                },
            }],
            "refusal": None,
        },
        "logprobs": None,
        "finish_reason": "tool_calls",
    }],
    "usage": {"prompt_tokens": 48, "completion_tokens": 19, "total_tokens": 67,
              "completion_tokens_details": {"reasoning_tokens": 0}},
    "system_fingerprint": "fp_5050236cbd",
}

# openai_chat.json: completion_parallel_tool_calls
CHAT_PARALLEL_CALLS = {
    "id": "chatcmpl-ABfvyvfNWKcl7Ohqos4UFrmMs1v4C",
    "object": "chat.completion",
    "created": 1727346166,
    "model": "gpt-4o-2024-08-06",
    "choices": [{
        "index": 0,
        "message": {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "call_fdNz3vOBKYgOIpMdWotB9MjY", "type": "function", "function": {
                    "name": "GetWeatherArgs",
                    "arguments": '{"city": "Edinburgh", "country": "GB", "units": "c"}'}},
                {"id": "call_h1DWI1POMJLb0KwIyQHWXD4p", "type": "function", "function": {
                    "name": "get_stock_price",
                    "arguments": '{"ticker": "AAPL", "exchange": "NASDAQ"}'}},
            ],
            "refusal": None,
        },
        "logprobs": None,
        "finish_reason": "tool_calls",
    }],
    "usage": {"prompt_tokens": 149, "completion_tokens": 60, "total_tokens": 209,
              "completion_tokens_details": {"reasoning_tokens": 0}},
    "system_fingerprint": "fp_b40fb1c6fb",
}


def _chunk(delta: dict[str, Any] | None, finish_reason: str | None = None) -> dict[str, Any]:
    """One chunk of the recorded stream below (every chunk shares these fields)."""
    chunk: dict[str, Any] = {
        "id": "chatcmpl-ABfwERreu9s99xXsVuOWtIB2UOx62", "object": "chat.completion.chunk",
        "created": 1727346182, "model": "gpt-4o-2024-08-06",
        "system_fingerprint": "fp_143bb8492c",
        "choices": [] if delta is None else [
            {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish_reason}
        ],
    }
    if delta is None:
        chunk["usage"] = {"prompt_tokens": 44, "completion_tokens": 16, "total_tokens": 60,
                          "completion_tokens_details": {"reasoning_tokens": 0}}
    return chunk


# openai_chat.json: stream_single_tool_call_fragments (openai-python's recorded SSE)
CHAT_STREAM = [
    _chunk({"role": "assistant", "content": None, "refusal": None, "tool_calls": [{
        "index": 0, "id": "call_4XzlGBLtUe9dy3GVNV4jhq7h", "type": "function",
        "function": {"name": "get_weather", "arguments": ""}}]}),
    *[
        _chunk({"tool_calls": [{"index": 0, "function": {"arguments": piece}}]})
        for piece in ('{"', "city", '":"', "New", " York", " City", '"}')
    ],
    _chunk({}, "tool_calls"),
    _chunk(None),
]

PNG_DATA_URI = (
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAEElEQVR42mO4o6EBRwzE"
    "cQDzAxLBy9ItygAAAABJRU5ErkJggg=="
)

# openai_responses.json: function_call_output_as_content_list
RESPONSES_SCREENSHOT = {
    "model": "gpt-5",
    "tools": [{
        "type": "function",
        "name": "take_screenshot",
        "description": "Capture the current screen.",
        "parameters": {"type": "object", "properties": {}, "additionalProperties": False},
        "strict": True,
    }],
    "input": [
        {"role": "user", "content": "What colour is the button on screen?"},
        {"type": "function_call", "call_id": "call_ss_0001", "name": "take_screenshot",
         "arguments": "{}"},
        {"type": "function_call_output", "call_id": "call_ss_0001", "output": [
            {"type": "input_text", "text": "Screenshot captured."},
            {"type": "input_image", "image_url": PNG_DATA_URI, "detail": "auto"},
        ]},
    ],
}

# anthropic.json: recorded_response_tool_use_only (a Message from claude-haiku-4-5)
ANTHROPIC_TOOL_USE = {
    "model": "claude-haiku-4-5-20251001",
    "id": "msg_01RMQBcKf2dxTq6qfi31BBTz",
    "type": "message",
    "role": "assistant",
    "content": [{
        "type": "tool_use",
        "id": "toolu_01A9HHF5Ezy3oBrKmSgfASm9",
        "name": "get_weather",
        "input": {"location": "San Francisco, CA", "units": "f"},
        "caller": {"type": "direct"},
    }],
    "stop_reason": "tool_use",
    "stop_sequence": None,
    "usage": {
        "input_tokens": 656, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0,
        "cache_creation": {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 0},
        "output_tokens": 74, "service_tier": "standard", "inference_geo": "not_available",
    },
}

# anthropic.json: stream_text_then_tool_use_input_json (anthropic-sdk-python's recorded SSE)
ANTHROPIC_STREAM = [
    {"type": "message_start", "message": {
        "id": "msg_019Q1hrJbZG26Fb9BQhrkHEr", "type": "message", "role": "assistant",
        "model": "claude-sonnet-4-20250514", "content": [], "stop_reason": None,
        "stop_sequence": None, "usage": {
            "input_tokens": 377, "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 0, "output_tokens": 1, "service_tier": "standard"}}},
    {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
    {"type": "ping"},
    {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "I"}},
    {"type": "content_block_delta", "index": 0, "delta": {
        "type": "text_delta", "text": "'ll check the current weather in Paris for you."}},
    {"type": "content_block_stop", "index": 0},
    {"type": "content_block_start", "index": 1, "content_block": {
        "type": "tool_use", "id": "toolu_01NRLabsLyVHZPKxbKvkfSMn", "name": "get_weather",
        "caller": {"type": "direct"}, "input": {}}},
    *[
        {"type": "content_block_delta", "index": 1,
         "delta": {"type": "input_json_delta", "partial_json": piece}}
        for piece in ("", '{"locati', 'on": "P', "ar", 'is"}')
    ],
    {"type": "content_block_stop", "index": 1},
    {"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": None},
     "usage": {"output_tokens": 65}},
    {"type": "message_stop"},
]

# gemini.json: manual_function_calling_role_tool (python-genai's tests)
GEMINI_MANUAL_CALLING = {
    "model": "gemini-3.5-flash",
    "contents": [
        {"role": "user", "parts": [{"text": "What is the weather like in Boston?"}]},
        {"role": "model", "parts": [
            {"function_call": {"name": "get_current_weather", "args": {"location": "Boston"}}}
        ]},
        {"role": "tool", "parts": [{"function_response": {
            "name": "get_current_weather", "response": {"result": "sunny, 72F"}}}]},
    ],
    "config": {"tools": [{"function_declarations": [{
        "name": "get_current_weather",
        "description": "Get the current weather in a given location",
        "parameters_json_schema": {
            "type": "object",
            "properties": {"location": {
                "type": "string", "description": "The city and state, e.g. San Francisco, CA"}},
            "required": ["location"],
        },
    }]}]},
}

# gemini.json: function_call_and_response_with_ids
GEMINI_CALL_WITH_ID = {
    "model": "gemini-2.5-flash",
    "contents": [
        {"role": "user", "parts": [{"text": "Turn on the lights in the kitchen."}]},
        {"role": "model", "parts": [{"function_call": {
            "id": "function-call-2831741891384417458", "name": "turn_on_the_lights",
            "args": {"room": "kitchen"}}}]},
        {"role": "user", "parts": [{"function_response": {
            "id": "function-call-2831741891384417458", "name": "turn_on_the_lights",
            "response": {"result": "ok"}}}]},
    ],
}


# --- the user's tools ----------------------------------------------------------------------


def get_weather(city: str, state: str) -> dict[str, Any]:
    """Get the current weather in a US city.

    Args:
        city: The city, e.g. San Francisco.
        state: The two-letter state code, e.g. CA.
    """
    return {"city": city, "state": state, "temperature": 64, "unit": "F"}


def GetWeatherArgs(
    city: str, country: str, units: Literal["c", "f"] = "c"
) -> str:
    """Get the weather in a city."""
    return f"{city}, {country}: 9 °{units.upper()}, rain"


def get_stock_price(ticker: str, exchange: str) -> float:
    """Get a stock's last price."""
    raise ConnectionError(f"{exchange} is closed")


def anthropic_weather(location: str, units: Literal["c", "f"] = "c") -> str:
    """Get the weather at a location."""
    return f"{location}: 64 °{units.upper()}, fog"


def get_current_weather(
    location: Annotated[str, "The city and state, e.g. San Francisco, CA"],
) -> str:
    """Get the current weather in a given location"""
    return "sunny, 72F"


def turn_on_the_lights(room: str) -> str:
    """Turn the lights on in a room."""
    return "ok"


def answer(history: ChatHistory, tools: ToolSet) -> list[FunctionResultContent]:
    """Invoke every call of the history's last message and append one tool message of results."""
    results = [tools.invoke(call) for call in history[-1].function_calls]
    history.add_tool_message(results)
    return results


def assert_paired(history: ChatHistory, format_name: str) -> None:
    """Each call of the read history is answered by one result in the next message."""
    assert validate(history, format_name) == []
    calls = [call.id for message in history for call in message.function_calls]
    results = [result.call_id for message in history for result in message.function_results]
    assert calls == results


# --- OpenAI Chat Completions ---------------------------------------------------------------


def test_openai_chat_a_strict_call_answered():
    tools = ToolSet()
    tools.add(get_weather, strict=True)
    (definition,) = tools.definitions("openai-chat")
    assert definition["function"]["strict"] is True
    assert definition["function"]["parameters"]["additionalProperties"] is False
    history = ChatHistory([ChatMessageContent("user", "What's the weather in SF?")])
    history.append(openai_chat.from_response(CHAT_STRICT_CALL))
    (result,) = answer(history, tools)
    assert result == FunctionResultContent(
        "call_CUdUoJpsWWVdxXntucvnol1M",
        {"city": "San Francisco", "state": "CA", "temperature": 64, "unit": "F"},
        name="get_weather",
    )
    messages = openai_chat.to_payload(history)
    validate_chat_payload(messages)
    assert messages[1]["tool_calls"][0]["id"] == "call_CUdUoJpsWWVdxXntucvnol1M"
    assert messages[2] == {
        "role": "tool",
        "tool_call_id": "call_CUdUoJpsWWVdxXntucvnol1M",
        "content": '{"city":"San Francisco","state":"CA","temperature":64,"unit":"F"}',
    }
    assert_paired(openai_chat.from_payload(messages), "openai-chat")


def test_openai_chat_parallel_calls_one_failing():
    tools = ToolSet([GetWeatherArgs, get_stock_price])
    history = ChatHistory([ChatMessageContent("user", "Weather in Edinburgh, and AAPL?")])
    history.append(openai_chat.from_response(CHAT_PARALLEL_CALLS))
    weather, stock = answer(history, tools)
    assert weather == FunctionResultContent(
        "call_fdNz3vOBKYgOIpMdWotB9MjY", "Edinburgh, GB: 9 °C, rain", name="GetWeatherArgs"
    )
    assert stock.is_error is True
    assert isinstance(stock.inner_content, ConnectionError)
    messages = openai_chat.to_payload(history)
    validate_chat_payload(messages)
    assert messages[2:] == [
        {"role": "tool", "tool_call_id": "call_fdNz3vOBKYgOIpMdWotB9MjY",
         "content": "Edinburgh, GB: 9 °C, rain"},
        {"role": "tool", "tool_call_id": "call_h1DWI1POMJLb0KwIyQHWXD4p",
         "content": "Error: get_stock_price (call call_h1DWI1POMJLb0KwIyQHWXD4p) raised "
                    "ConnectionError: NASDAQ is closed"},
    ]
    read = openai_chat.from_payload(messages)
    assert read[-1].function_results[0].is_error is True  # one tool message per result
    assert_paired(read, "openai-chat")


def test_openai_chat_a_streamed_call_answered():
    def get_weather(city: str) -> str:
        """Get the weather in a city."""
        return f"{city}: 12 °C, wind"

    reply = StreamingChatMessageContent.accumulate(openai_chat.from_stream(CHAT_STREAM))
    history = ChatHistory([ChatMessageContent("user", "What's the weather in NYC?")])
    history.append(reply.to_message())
    (result,) = answer(history, ToolSet([get_weather]))
    assert result == FunctionResultContent(
        "call_4XzlGBLtUe9dy3GVNV4jhq7h", "New York City: 12 °C, wind", name="get_weather"
    )
    messages = openai_chat.to_payload(history)
    validate_chat_payload(messages)
    assert messages[1]["tool_calls"][0]["function"] == {
        "name": "get_weather", "arguments": '{"city":"New York City"}'
    }
    assert messages[2] == {"role": "tool", "tool_call_id": "call_4XzlGBLtUe9dy3GVNV4jhq7h",
                           "content": "New York City: 12 °C, wind"}
    assert_paired(openai_chat.from_payload(messages), "openai-chat")


# --- OpenAI Responses ----------------------------------------------------------------------


def test_openai_responses_items_a_tool_returns_are_written_as_recorded():
    recorded = openai_responses.from_request(RESPONSES_SCREENSHOT)
    screenshot = recorded[2].function_results[0].result
    assert all(isinstance(item, KernelContent) for item in screenshot)

    read = ToolSet.from_definitions(RESPONSES_SCREENSHOT["tools"], "openai-responses")
    tools = ToolSet([Tool(lambda: copy.deepcopy(screenshot), read["take_screenshot"].schema)])
    assert tools.definitions("openai-responses") == RESPONSES_SCREENSHOT["tools"]
    TypeAdapter(FunctionToolParam).validate_python(tools.definitions("openai-responses")[0])

    history = recorded[:2]
    (result,) = answer(history, tools)
    assert result.result == screenshot
    history.options = recorded.options
    assert openai_responses.to_request(history) == RESPONSES_SCREENSHOT
    items = openai_responses.to_payload(history)
    validate_responses_payload(items)
    assert_paired(openai_responses.from_payload(items), "openai-responses")


def test_openai_responses_a_bad_call_is_answered_with_an_error_output():
    request = copy.deepcopy(RESPONSES_SCREENSHOT)
    request["input"][1]["arguments"] = '{"region": "top"}'
    history = openai_responses.from_request(request)[:2]
    read = ToolSet.from_definitions(request["tools"])

    def take_screenshot() -> str:
        return "unused"

    tools = ToolSet([Tool(take_screenshot, read["take_screenshot"].schema)])
    (result,) = answer(history, tools)
    items = openai_responses.to_payload(history)
    validate_responses_payload(items)
    assert items[2] == {
        "type": "function_call_output",
        "call_id": "call_ss_0001",
        "output": "Error: take_screenshot (call call_ss_0001): arguments.region: unknown "
                  "argument; take_screenshot takes none",
    }
    assert result.is_error is True
    assert_paired(openai_responses.from_payload(items), "openai-responses")


# --- Anthropic -----------------------------------------------------------------------------


def test_anthropic_a_tool_use_answered_with_a_tool_result():
    tools = ToolSet()
    tools.add(anthropic_weather, name="get_weather")
    (definition,) = tools.definitions("anthropic")
    TypeAdapter(ToolParam).validate_python(definition)
    history = ChatHistory([ChatMessageContent("user", "What is the weather in SF?")])
    history.append(anthropic.from_response(ANTHROPIC_TOOL_USE))
    (result,) = answer(history, tools)
    assert result == FunctionResultContent(
        "toolu_01A9HHF5Ezy3oBrKmSgfASm9", "San Francisco, CA: 64 °F, fog", name="get_weather"
    )
    payload = anthropic.to_payload(history)
    validate_anthropic_payload(payload)
    assert payload["messages"][2] == {"role": "user", "content": [{
        "type": "tool_result", "tool_use_id": "toolu_01A9HHF5Ezy3oBrKmSgfASm9",
        "content": "San Francisco, CA: 64 °F, fog",
    }]}
    history.options = None
    body = anthropic.to_request(history, max_tokens=1024)
    body["model"] = ANTHROPIC_TOOL_USE["model"]
    body["tools"] = tools.definitions("anthropic")
    validate_anthropic_request(body)
    assert_paired(anthropic.from_payload(payload), "anthropic")


def test_anthropic_a_failing_tool_is_an_is_error_tool_result():
    def get_weather(location: str, units: str) -> str:
        raise RuntimeError("Unexpected error, try again")

    history = ChatHistory([ChatMessageContent("user", "What is the weather in SF?")])
    history.append(anthropic.from_response(ANTHROPIC_TOOL_USE))
    (result,) = answer(history, ToolSet([get_weather]))
    payload = anthropic.to_payload(history)
    validate_anthropic_payload(payload)
    assert payload["messages"][2] == {"role": "user", "content": [{
        "type": "tool_result", "tool_use_id": "toolu_01A9HHF5Ezy3oBrKmSgfASm9",
        "content": "get_weather (call toolu_01A9HHF5Ezy3oBrKmSgfASm9) raised RuntimeError: "
                   "Unexpected error, try again",
        "is_error": True,
    }]}
    assert isinstance(result.inner_content, RuntimeError)
    assert_paired(anthropic.from_payload(payload), "anthropic")


def test_anthropic_a_streamed_tool_use_answered():
    reply = StreamingChatMessageContent.accumulate(anthropic.from_stream(ANTHROPIC_STREAM))
    history = ChatHistory([ChatMessageContent("user", "What's the weather in Paris?")])
    history.append(reply.to_message())
    tools = ToolSet()
    tools.add(anthropic_weather, name="get_weather")
    (result,) = answer(history, tools)
    assert result == FunctionResultContent(
        "toolu_01NRLabsLyVHZPKxbKvkfSMn", "Paris: 64 °C, fog", name="get_weather"
    )
    payload = anthropic.to_payload(history)
    validate_anthropic_payload(payload)
    assert payload["messages"][1]["content"][1]["input"] == {"location": "Paris"}
    assert payload["messages"][2]["content"] == [{
        "type": "tool_result", "tool_use_id": "toolu_01NRLabsLyVHZPKxbKvkfSMn",
        "content": "Paris: 64 °C, fog",
    }]
    assert_paired(anthropic.from_payload(payload), "anthropic")


# --- Gemini --------------------------------------------------------------------------------


def test_gemini_a_call_without_id_answered_as_recorded():
    recorded = gemini.from_request(GEMINI_MANUAL_CALLING)
    tools = ToolSet([get_current_weather])
    declaration = tools.definitions("gemini")[0]["function_declarations"][0]
    recorded_declaration = GEMINI_MANUAL_CALLING["config"]["tools"][0]["function_declarations"][0]
    assert declaration["name"] == recorded_declaration["name"]
    assert declaration["description"] == recorded_declaration["description"]
    assert declaration["parameters_json_schema"]["properties"] == (
        recorded_declaration["parameters_json_schema"]["properties"]
    )
    assert declaration["parameters_json_schema"]["required"] == ["location"]

    history = recorded[:2]
    (result,) = answer(history, tools)
    assert result.result == "sunny, 72F"
    assert result.call_id == history[1].function_calls[0].id  # the id the reader made up
    history.options = recorded.options
    body = gemini.to_request(history)
    validate_gemini_request(body)
    expected = copy.deepcopy(GEMINI_MANUAL_CALLING)
    expected["contents"][2]["role"] = "user"  # the role results have now; "tool" is older
    assert body == expected
    assert_paired(gemini.from_request(body), "gemini")


def test_gemini_a_call_with_an_id_and_the_toolsets_definitions():
    recorded = gemini.from_request(GEMINI_CALL_WITH_ID)
    tools = ToolSet([turn_on_the_lights])
    history = recorded[:2]
    answer(history, tools)
    body = gemini.to_request(history)
    assert body == GEMINI_CALL_WITH_ID
    body["config"] = {"tools": tools.definitions("gemini")}
    validate_gemini_request(body)
    read = gemini.from_request(body)
    assert list(ToolSet.from_definitions(body)) == ["turn_on_the_lights"]
    assert_paired(read, "gemini")


@pytest.mark.parametrize("format_name", ["openai-chat", "openai-responses", "anthropic", "gemini"])
def test_a_bad_call_in_every_format_is_written_and_pairs(format_name):
    """Arguments that fail a check give an error result each format writes and reads paired."""
    history = ChatHistory([ChatMessageContent("user", "What's the weather in SF?")])
    history.append(openai_chat.from_response(CHAT_STRICT_CALL))
    history[1].function_calls[0].arguments = '{"city": 94103, "state": "CA"}'
    (result,) = answer(history, ToolSet([get_weather]))
    assert result.result == (
        "get_weather (call call_CUdUoJpsWWVdxXntucvnol1M): arguments.city: expected a string, "
        "got integer"
    )
    module = {"openai-chat": openai_chat, "openai-responses": openai_responses,
              "anthropic": anthropic, "gemini": gemini}[format_name]
    payload = module.to_payload(history)
    back = module.from_payload(payload)
    assert back[-1].function_results[0].result == result.result
    assert_paired(back, format_name)
