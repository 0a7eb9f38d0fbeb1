"""Function tools converted to OpenAI Responses keep the strictness their source meant.

Chat Completions, Anthropic and Gemini take a tool without ``strict`` as best effort; the
Responses API makes such a tool's schema strict (its optional arguments become required),
and its SDK requires ``strict`` and ``parameters``. So a tool converted to Responses says
``"strict": false`` unless its source said ``true``, and the ``false`` goes unsaid again on
the way back, where it is the default.
"""

from __future__ import annotations

import copy
import typing
import warnings
from typing import Any

import pytest
from anthropic.types import ToolParam
from openai.types.chat import ChatCompletionFunctionToolParam
from openai.types.responses import FunctionToolParam
from pydantic import TypeAdapter

from semantic_chat import formats

RESPONSES_TOOL: TypeAdapter[Any] = TypeAdapter(FunctionToolParam)
CHAT_TOOL: TypeAdapter[Any] = TypeAdapter(ChatCompletionFunctionToolParam)
ANTHROPIC_TOOL: TypeAdapter[Any] = TypeAdapter(ToolParam)

SCHEMA = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "unit": {"type": "string"}},
    "required": ["city"],
}
QUESTION = [{"role": "user", "content": "Weather in Oslo?"}]


def _convert(body: dict[str, Any], target: str) -> dict[str, Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # none of these conversions loses anything
        converted: dict[str, Any] = formats.convert(copy.deepcopy(body), target=target)
    return converted


def _responses_tools(body: dict[str, Any]) -> list[dict[str, Any]]:
    tools: list[dict[str, Any]] = _convert(body, "openai-responses")["tools"]
    for tool in tools:
        RESPONSES_TOOL.validate_python(tool)  # strict and parameters are Required there
        assert set(tool) <= set(typing.get_type_hints(FunctionToolParam))  # none ignored
    return tools


def _chat_body(function: dict[str, Any]) -> dict[str, Any]:
    return {"model": "gpt-4o", "messages": QUESTION,
            "tools": [{"type": "function", "function": function}]}


def test_a_chat_tool_without_strict_is_not_strict_in_responses() -> None:
    # What was seen: {"type": "function", "name": "get_weather", ...} with no strict, which
    # Responses reads as strict and its SDK refuses.
    body = _chat_body({"name": "get_weather", "description": "Weather", "parameters": SCHEMA})
    assert _responses_tools(body) == [{
        "type": "function", "name": "get_weather", "description": "Weather",
        "parameters": SCHEMA, "strict": False,
    }]


@pytest.mark.parametrize("strict", [True, False])
def test_a_chat_tool_keeps_the_strict_it_says(strict: bool) -> None:
    body = _chat_body({"name": "get_weather", "parameters": SCHEMA, "strict": strict})
    assert _responses_tools(body) == [
        {"type": "function", "name": "get_weather", "parameters": SCHEMA, "strict": strict}
    ]


def test_a_chat_tool_with_a_null_strict_is_not_strict_in_responses() -> None:
    body = _chat_body({"name": "get_weather", "parameters": SCHEMA, "strict": None})
    assert _responses_tools(body)[0]["strict"] is False


def test_a_chat_tool_without_parameters_takes_none_in_responses() -> None:
    body = _chat_body({"name": "ping"})
    assert _responses_tools(body) == [{
        "type": "function", "name": "ping",
        "parameters": {"type": "object", "properties": {}}, "strict": False,
    }]


def test_an_anthropic_tool_is_not_strict_in_responses() -> None:
    body = {"model": "claude-sonnet-4-5", "max_tokens": 64, "messages": QUESTION,
            "tools": [{"name": "get_weather", "input_schema": SCHEMA}]}
    assert _responses_tools(body) == [
        {"type": "function", "name": "get_weather", "parameters": SCHEMA, "strict": False}
    ]


def test_a_strict_anthropic_tool_stays_strict_in_responses() -> None:
    body = {"model": "claude-sonnet-4-5", "max_tokens": 64, "messages": QUESTION,
            "tools": [{"name": "get_weather", "input_schema": SCHEMA, "strict": True}]}
    assert _responses_tools(body)[0]["strict"] is True


def test_a_gemini_function_is_not_strict_in_responses() -> None:
    body = {"contents": [{"role": "user", "parts": [{"text": "Weather in Oslo?"}]}],
            "tools": [{"function_declarations": [
                {"name": "get_weather", "parameters_json_schema": SCHEMA},
                {"name": "ping"},
            ]}]}
    assert _responses_tools(body) == [
        {"type": "function", "name": "get_weather", "parameters": SCHEMA, "strict": False},
        {"type": "function", "name": "ping",
         "parameters": {"type": "object", "properties": {}}, "strict": False},
    ]


def test_a_responses_tool_keeps_what_it_says_in_responses() -> None:
    tools = [{"type": "function", "name": "loose", "parameters": SCHEMA, "strict": False},
             {"type": "function", "name": "tight", "parameters": SCHEMA, "strict": True}]
    body = {"model": "gpt-4o", "input": QUESTION, "tools": tools}
    assert _convert(body, "openai-responses")["tools"] == tools


def test_the_false_strict_goes_unsaid_in_chat_and_anthropic() -> None:
    body = {"model": "gpt-4o", "input": QUESTION, "tools": [
        {"type": "function", "name": "loose", "parameters": SCHEMA, "strict": False},
        {"type": "function", "name": "tight", "parameters": SCHEMA, "strict": True},
    ]}
    chat = _convert(body, "openai-chat")["tools"]
    assert chat == [
        {"type": "function", "function": {"name": "loose", "parameters": SCHEMA}},
        {"type": "function", "function": {"name": "tight", "parameters": SCHEMA,
                                          "strict": True}},
    ]
    for tool in chat:
        CHAT_TOOL.validate_python(tool)
    anthropic = _convert({**body, "max_output_tokens": 64}, "anthropic")["tools"]
    assert anthropic == [
        {"name": "loose", "input_schema": SCHEMA},
        {"name": "tight", "input_schema": SCHEMA, "strict": True},
    ]
    for tool in anthropic:
        ANTHROPIC_TOOL.validate_python(tool)


def test_a_chat_request_goes_to_responses_and_back_exactly() -> None:
    body = _chat_body({"name": "get_weather", "description": "Weather", "parameters": SCHEMA})
    there = _convert(body, "openai-responses")
    assert _convert(there, "openai-chat") == body


def test_an_anthropic_request_goes_to_responses_and_back_exactly() -> None:
    body = {"model": "claude-sonnet-4-5", "max_tokens": 64, "messages": QUESTION,
            "tools": [{"name": "get_weather", "description": "Weather", "input_schema": SCHEMA}]}
    there = _convert(body, "openai-responses")
    assert _convert(there, "anthropic") == body
