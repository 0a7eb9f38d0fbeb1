"""Options read from a Gemini request, written as OpenAI and Anthropic requests, and back.

A Gemini request's options are built here as `ChatOptions` the way its reader keeps them:
``tools`` as given (``function_declarations`` and Gemini's own tools, either spelling), and
every field without an option in ``extra`` under its snake_case name. The other writers turn
function declarations into their function tools and report Gemini's own tools and fields;
`write_gemini_tools` turns OpenAI and Anthropic function tools into declarations.
"""

from __future__ import annotations

import warnings
from typing import Any

import pytest
from google.genai import types

from semantic_chat import ChatHistory, ChatOptions
from semantic_chat.errors import FormatError, UnsupportedContentError
from semantic_chat.formats import anthropic, openai_chat, openai_responses
from semantic_chat.formats.request_fields import (
    GEMINI_KEYS,
    foreign_value,
    is_gemini_only,
    is_gemini_tool,
    write_gemini_tools,
    write_tools,
)
from semantic_chat.formats.wire import ConversionWarning, collect_losses

# A weather tool as the Gemini docs write function declarations: an OpenAPI-subset schema
# with upper-case types (the SDK's snake_case keys), one with a JSON Schema, one without
# parameters; then Gemini's own tools, one in the REST spelling.
GEMINI_TOOLS: list[dict[str, Any]] = [
    {
        "function_declarations": [
            {
                "name": "get_weather",
                "description": "Current weather for a city.",
                "parameters": {
                    "type": "OBJECT",
                    "properties": {
                        "city": {"type": "STRING", "description": "City name"},
                        "unit": {"type": "STRING", "enum": ["celsius", "fahrenheit"], "nullable": True},
                        "days": {"type": "ARRAY", "items": {"type": "INTEGER"}, "max_items": 7},
                    },
                    "required": ["city"],
                    "property_ordering": ["unit", "city", "days"],
                },
            },
            {
                "name": "get_time",
                "parameters_json_schema": {
                    "type": "object",
                    "properties": {"zone": {"type": "string"}},
                    "required": ["zone"],
                },
                "behavior": "NON_BLOCKING",
            },
            {"name": "ping"},
        ]
    },
    {"google_search": {}},
    {"code_execution": {}},
    {"urlContext": {}},
]

GEMINI_EXTRA: dict[str, Any] = {
    "top_k": 40,
    "candidate_count": 2,
    "safety_settings": [
        {"category": "HARM_CATEGORY_HATE_SPEECH", "threshold": "BLOCK_LOW_AND_ABOVE"}
    ],
    "response_mime_type": "application/json",
    "thinking_config": {"include_thoughts": True, "thinking_budget": 1024},
    "cached_content": "cachedContents/abc123",
    "labels": {"team": "search"},
    "logprobs": 3,
    "service_tier": "standard",
}

WEATHER_SCHEMA = {
    "type": "object",
    "properties": {
        "unit": {"type": ["string", "null"], "enum": ["celsius", "fahrenheit", None]},
        "city": {"type": "string", "description": "City name"},
        "days": {"type": "array", "items": {"type": "integer"}, "maxItems": 7},
    },
    "required": ["city"],
}
TIME_SCHEMA = {"type": "object", "properties": {"zone": {"type": "string"}}, "required": ["zone"]}
EMPTY_SCHEMA: dict[str, Any] = {"type": "object", "properties": {}}
QUESTION = [{"role": "user", "content": "What's the weather in Paris?"}]


def _history() -> ChatHistory:
    history = ChatHistory()
    history.add_user_message("What's the weather in Paris?")
    history.options = ChatOptions(
        model="gemini-2.5-flash",
        tools=GEMINI_TOOLS,
        tool_choice="auto",
        temperature=0.7,
        max_tokens=1024,
        stop=["END"],
        reasoning_effort="low",
        extra=GEMINI_EXTRA,
        metadata={"gemini": {"layout": "sdk"}},
    )
    return history


def _tool_losses(format_name: str) -> list[tuple[str, str, str]]:
    return [
        (
            "options.tools[0].function_declarations[1].behavior",
            f"{format_name} cannot carry the function declaration field 'behavior'",
            "warn",
        ),
        ("options.tools[1].google_search", f"{format_name} cannot carry a Gemini 'google_search' tool", "warn"),
        ("options.tools[2].code_execution", f"{format_name} cannot carry a Gemini 'code_execution' tool", "warn"),
        ("options.tools[3].urlContext", f"{format_name} cannot carry a Gemini 'url_context' tool", "warn"),
    ]


def _extra_losses(format_name: str, *fields: str) -> list[tuple[str, str, str]]:
    return [
        (f'options.extra["{field}"]', f"{format_name} cannot carry the request field '{field}'", "warn")
        for field in fields
    ]


GEMINI_ONLY_FIELDS = (
    "candidate_count", "safety_settings", "response_mime_type", "thinking_config",
    "cached_content", "labels",
)


def test_gemini_options_as_a_chat_completions_request() -> None:
    with collect_losses() as losses:
        body = openai_chat.to_request(_history())
    assert body == {
        "model": "gemini-2.5-flash",
        "messages": QUESTION,
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": "get_weather",
                    "description": "Current weather for a city.",
                    "parameters": WEATHER_SCHEMA,
                },
            },
            {"type": "function", "function": {"name": "get_time", "parameters": TIME_SCHEMA}},
            {"type": "function", "function": {"name": "ping", "parameters": EMPTY_SCHEMA}},
        ],
        "tool_choice": "auto",
        "temperature": 0.7,
        "max_completion_tokens": 1024,
        "reasoning_effort": "low",
        "stop": ["END"],
        "top_k": 40,
    }
    # property_ordering is the order of the properties.
    assert list(body["tools"][0]["function"]["parameters"]["properties"]) == ["unit", "city", "days"]
    name = "OpenAI Chat Completions"
    assert losses == [
        *_tool_losses(name),
        *_extra_losses(name, *GEMINI_ONLY_FIELDS),
        (
            'options.extra["logprobs"]',
            f"{name} cannot carry the request field 'logprobs' with Gemini's value 3",
            "warn",
        ),
        (
            'options.extra["service_tier"]',
            f"{name} cannot carry the request field 'service_tier' with Gemini's value 'standard'",
            "warn",
        ),
    ]


def test_gemini_options_as_a_responses_request() -> None:
    with collect_losses() as losses:
        body = openai_responses.to_request(_history())
    assert body == {
        "model": "gemini-2.5-flash",
        "input": QUESTION,
        "tools": [
            {
                "type": "function",
                "name": "get_weather",
                "description": "Current weather for a city.",
                "parameters": WEATHER_SCHEMA,
                "strict": False,
            },
            {"type": "function", "name": "get_time", "parameters": TIME_SCHEMA, "strict": False},
            {"type": "function", "name": "ping", "parameters": EMPTY_SCHEMA, "strict": False},
        ],
        "tool_choice": "auto",
        "temperature": 0.7,
        "max_output_tokens": 1024,
        "reasoning": {"effort": "low"},
        "top_k": 40,
    }
    name = "OpenAI Responses"
    assert losses == [
        *_tool_losses(name),
        ("options.stop", f"{name} cannot carry the option 'stop'", "warn"),
        *_extra_losses(name, *GEMINI_ONLY_FIELDS, "logprobs"),
        (
            'options.extra["service_tier"]',
            f"{name} cannot carry the request field 'service_tier' with Gemini's value 'standard'",
            "warn",
        ),
    ]


def test_gemini_options_as_an_anthropic_request() -> None:
    with collect_losses() as losses:
        body = anthropic.to_request(_history())
    assert body == {
        "model": "gemini-2.5-flash",
        "max_tokens": 1024,
        "messages": QUESTION,
        "tools": [
            {
                "name": "get_weather",
                "description": "Current weather for a city.",
                "input_schema": WEATHER_SCHEMA,
            },
            {"name": "get_time", "input_schema": TIME_SCHEMA},
            {"name": "ping", "input_schema": EMPTY_SCHEMA},
        ],
        "tool_choice": {"type": "auto"},
        "temperature": 0.7,
        "stop_sequences": ["END"],
        "top_k": 40,
    }
    name = "Anthropic Messages"
    assert losses == [
        *_tool_losses(name),
        ("options.reasoning_effort", f"{name} cannot carry the option 'reasoning_effort'", "warn"),
        *_extra_losses(name, *GEMINI_ONLY_FIELDS, "logprobs", "service_tier"),
    ]


def test_losses_are_warned_by_default_and_refused_when_asked() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        openai_chat.to_request(_history())
    messages = [str(warning.message) for warning in caught]
    assert all(warning.category is ConversionWarning for warning in caught)
    assert messages[:2] == [
        "options.tools[0].function_declarations[1].behavior: dropped: OpenAI Chat Completions "
        "cannot carry the function declaration field 'behavior'",
        "options.tools[1].google_search: dropped: OpenAI Chat Completions cannot carry a Gemini "
        "'google_search' tool",
    ]
    assert len(messages) == 12
    with pytest.raises(UnsupportedContentError) as raised:
        anthropic.to_request(_history(), on_unsupported="error")
    assert raised.value.path == "options.tools[0].function_declarations[1].behavior"
    with collect_losses() as losses:
        openai_chat.to_request(_history(), on_unsupported="drop")
    assert losses == []


def test_openapi_schema_conversion_in_the_rest_spelling() -> None:
    tool = {
        "functionDeclarations": [
            {
                "name": "find_pets",
                "parameters": {
                    "type": "OBJECT",
                    "properties": {
                        "owner": {"ref": "#/defs/Person"},
                        "kinds": {
                            "type": "ARRAY",
                            "items": {"type": "STRING", "format": "enum", "enum": ["cat", "dog"]},
                            "minItems": 1,
                        },
                        "age": {"anyOf": [{"type": "INTEGER", "minimum": 0}, {"type": "NULL"}]},
                        "extra": {"type": "TYPE_UNSPECIFIED", "nullable": True, "description": "Any value"},
                        "tags": {
                            "type": "OBJECT",
                            "additional_properties": {"type": "STRING", "max_length": 20},
                            "min_properties": 0,
                        },
                    },
                    "defs": {"Person": {"type": "OBJECT", "properties": {"name": {"type": "STRING"}}}},
                    "nullable": False,
                    "title": "Query",
                    "example": {"TYPE": "kept as data"},
                },
                "parametersJsonSchema": None,
                "response": {"type": "STRING"},
            }
        ],
        "googleSearchRetrieval": {"dynamicRetrievalConfig": {"mode": "MODE_DYNAMIC"}},
    }
    with collect_losses() as losses:
        written = write_tools([tool], True, "OpenAI Chat Completions", None)
    assert written == [
        {
            "type": "function",
            "function": {
                "name": "find_pets",
                "parameters": {
                    "type": "object",
                    "properties": {
                        "owner": {"$ref": "#/$defs/Person"},
                        "kinds": {
                            "type": "array",
                            "items": {"type": "string", "format": "enum", "enum": ["cat", "dog"]},
                            "minItems": 1,
                        },
                        "age": {"anyOf": [{"type": "integer", "minimum": 0}, {"type": "null"}]},
                        "extra": {"description": "Any value", "nullable": True},
                        "tags": {
                            "type": "object",
                            "additionalProperties": {"type": "string", "maxLength": 20},
                            "minProperties": 0,
                        },
                    },
                    "$defs": {"Person": {"type": "object", "properties": {"name": {"type": "string"}}}},
                    "title": "Query",
                    "example": {"TYPE": "kept as data"},
                },
            },
        }
    ]
    assert losses == [
        (
            "options.tools[0].functionDeclarations[0].response",
            "OpenAI Chat Completions cannot carry the function declaration field 'response'",
            "warn",
        ),
        (
            "options.tools[0].googleSearchRetrieval",
            "OpenAI Chat Completions cannot carry a Gemini 'google_search_retrieval' tool",
            "warn",
        ),
    ]


@pytest.mark.parametrize(
    ("tool", "where", "detail"),
    [
        ({"function_declarations": {"name": "f"}}, "options.tools[0].function_declarations", "expected a list of function declarations, got dict"),
        ({"function_declarations": ["f"]}, "options.tools[0].function_declarations[0]", "expected a function declaration object, got str"),
        ({"function_declarations": [{"description": "no name"}]}, "options.tools[0].function_declarations[0]", "missing 'name'"),
        ({"function_declarations": [{"name": 5}]}, "options.tools[0].function_declarations[0].name", "expected str, got int"),
        ({"function_declarations": [{"name": "f", "description": ["d"]}]}, "options.tools[0].function_declarations[0].description", "expected str, got list"),
        ({"function_declarations": [{"name": "f", "parameters": "OBJECT"}]}, "options.tools[0].function_declarations[0].parameters", "expected a schema object, got str"),
        (
            {"function_declarations": [{"name": "f", "parameters": {"properties": {"a b": "STRING"}}}]},
            'options.tools[0].function_declarations[0].parameters.properties["a b"]',
            "expected a schema object, got str",
        ),
        (
            {"function_declarations": [{"name": "f", "parameters": {"any_of": {"type": "STRING"}}}]},
            "options.tools[0].function_declarations[0].parameters.any_of",
            "expected a list of schemas, got dict",
        ),
    ],
)
def test_malformed_declarations_are_located(tool: dict[str, Any], where: str, detail: str) -> None:
    history = ChatHistory()
    history.add_user_message("hi")
    history.options = ChatOptions(tools=[tool], max_tokens=5)
    for write in (openai_chat.to_request, openai_responses.to_request, anthropic.to_request):
        with pytest.raises(FormatError) as raised:
            write(history)
        assert (raised.value.path, raised.value.detail) == (where, detail)


# --- OpenAI and Anthropic tools as Gemini tools -------------------------------------------

WEATHER_JSON = {
    "type": "object",
    "properties": {"city": {"type": "string"}},
    "required": ["city"],
    "additionalProperties": False,
}

OTHER_TOOLS: list[dict[str, Any]] = [
    {  # Chat Completions
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Current weather for a city.",
            "parameters": WEATHER_JSON,
            "strict": True,
        },
    },
    {  # Responses
        "type": "function",
        "name": "get_time",
        "description": "The time in a zone.",
        "parameters": TIME_SCHEMA,
        "strict": False,
    },
    {  # Anthropic client tool
        "name": "lookup",
        "description": "Look a word up.",
        "input_schema": {"type": "object", "properties": {"word": {"type": "string"}}},
        "cache_control": {"type": "ephemeral"},
    },
    {"type": "web_search"},
    {"type": "web_search_20250305", "name": "web_search", "max_uses": 5},
    {"type": "custom", "name": "sql", "format": {"type": "grammar", "syntax": "lark", "definition": "start: /.+/"}},
    {"google_search": {}},
    {"type": "function", "function": {"name": "noop"}},
    {"type": "custom", "name": "clock", "input_schema": {"type": "object", "properties": {}}},
]


def test_openai_and_anthropic_tools_as_gemini_tools() -> None:
    with collect_losses() as losses:
        written = write_gemini_tools(OTHER_TOOLS, None)
    assert written == [
        {
            "function_declarations": [
                {
                    "name": "get_weather",
                    "description": "Current weather for a city.",
                    "parameters_json_schema": WEATHER_JSON,
                },
                {
                    "name": "get_time",
                    "description": "The time in a zone.",
                    "parameters_json_schema": TIME_SCHEMA,
                },
                {
                    "name": "lookup",
                    "description": "Look a word up.",
                    "parameters_json_schema": {"type": "object", "properties": {"word": {"type": "string"}}},
                },
                {"name": "noop"},
                {"name": "clock", "parameters_json_schema": {"type": "object", "properties": {}}},
            ]
        },
        {"google_search": {}},
    ]
    assert losses == [
        ("options.tools[0].function.strict", "Gemini cannot carry a strict schema", "warn"),
        ("options.tools[2].cache_control", "Gemini cannot carry the tool field 'cache_control'", "warn"),
        ("options.tools[3]", 'Gemini cannot carry a "web_search" tool', "warn"),
        ("options.tools[4]", 'Gemini cannot carry a "web_search_20250305" tool', "warn"),
        ("options.tools[5]", 'Gemini cannot carry a "custom" tool', "warn"),
    ]
    for tool in written:  # the SDK's model forbids unknown keys
        types.Tool.model_validate(tool)


def test_gemini_tools_written_back_by_openai_give_the_function_tools() -> None:
    functions = [OTHER_TOOLS[0], OTHER_TOOLS[1]]
    with collect_losses():
        gemini = write_gemini_tools(functions, "drop")
        back = write_tools(gemini, True, "OpenAI Chat Completions", None)
    assert back == [
        {
            "type": "function",
            "function": {
                "name": "get_weather",
                "description": "Current weather for a city.",
                "parameters": WEATHER_JSON,
            },
        },
        {
            "type": "function",
            "function": {
                "name": "get_time",
                "description": "The time in a zone.",
                "parameters": TIME_SCHEMA,
            },
        },
    ]


def test_function_tool_without_a_name_is_located() -> None:
    with pytest.raises(FormatError) as raised:
        write_gemini_tools([{"type": "function", "function": {"description": "x"}}], None)
    assert (raised.value.path, raised.value.detail) == ("options.tools[0].function", "missing 'name'")
    with pytest.raises(FormatError) as raised:
        write_gemini_tools([{"type": "function", "name": 3}], None)
    assert (raised.value.path, raised.value.detail) == ("options.tools[0].name", "expected str, got int")
    with pytest.raises(UnsupportedContentError) as refused:
        write_gemini_tools([{"type": "web_search"}], "error")
    assert refused.value.path == "options.tools[0]"


def test_tool_shapes_and_fields_told_apart() -> None:
    assert is_gemini_tool({"function_declarations": []})
    assert is_gemini_tool({"googleSearch": {}})
    assert not is_gemini_tool({"type": "function", "function": {"name": "f"}})
    assert not is_gemini_tool({"name": "f", "input_schema": {}})
    assert not is_gemini_tool({"type": "web_search_20250305", "name": "web_search"})
    assert is_gemini_only("safety_settings")
    assert is_gemini_only("safetySettings")
    assert is_gemini_only("thinking_config")
    assert not is_gemini_only("top_k")  # Anthropic's and OpenAI-compatible servers' too
    assert not is_gemini_only("temperature")
    assert not is_gemini_only("response_format")  # Chat Completions' too: judged by value
    assert "tool_config" in GEMINI_KEYS
    assert "generation_config" in GEMINI_KEYS
    assert foreign_value("logprobs", 5) == "Gemini"
    assert foreign_value("logprobs", True) is None
    assert foreign_value("response_format", [{"type": "json"}]) == "Gemini"
    assert foreign_value("response_format", {"type": "json_object"}) is None
    assert foreign_value("service_tier", "standard_only") == "Anthropic"
    assert foreign_value("service_tier", "FLEX") == "Gemini"
    assert foreign_value("service_tier", "flex") is None
    assert foreign_value("service_tier", {"tier": "x"}) is None
