"""`Tool` and `ToolSet`: made from functions, definitions in each format and read back, invoking.

Invoking never raises for what the model got wrong or the tool did: each such call gives an
error result whose text is asserted exactly, since it is what the model reads to correct itself.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime
import enum
import json
import re
import threading
import warnings
from typing import Any

import attrs
import pytest
from anthropic.types import ToolParam
from google.genai import types as genai_types
from hypothesis import given
from hypothesis import strategies as st
from openai.types.chat import ChatCompletionFunctionToolParam
from openai.types.responses import FunctionToolParam
from pydantic import TypeAdapter
from strategies import json_values

from semantic_chat import (
    FormatError,
    FunctionArgumentsError,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    InvalidTypeError,
    InvalidValueError,
    TextContent,
    UnsupportedContentError,
)
from semantic_chat.formats import ConversionWarning
from semantic_chat.serialization import from_json, to_json
from semantic_chat.tools.definitions import (
    TOOL_FORMATS,
    ToolFormat,
    read_definitions,
    register_tool_format,
    write_definitions,
)
from semantic_chat.tools.schema import FunctionSchema, function_schema, strict_schema
from semantic_chat.tools.toolset import Tool, ToolSet

WEATHER_SCHEMA = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "description": "The city, e.g. Paris"},
        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
    },
    "required": ["city"],
}


def get_weather(city: str, unit: str = "celsius") -> dict[str, Any]:
    """Get the current weather in a city.

    Args:
        city: The city, e.g. Paris.
        unit: The temperature unit.
    """
    return {"city": city, "temperature": 18.5, "unit": unit}


async def get_time(city: str) -> str:
    """Tell the local time in a city."""
    await asyncio.sleep(0)
    return f"12:00 in {city}"


def weather_tools() -> ToolSet:
    tools = ToolSet()
    tools.add(get_weather, schema=WEATHER_SCHEMA)
    tools.add(get_time, schema={"type": "object", "properties": {"city": {"type": "string"}},
                                "required": ["city"]}, strict=True)
    return tools


def call(name: str, arguments: Any, call_id: str | None = "call_1") -> FunctionCallContent:
    return FunctionCallContent(call_id, name, arguments)


# --- Tool ----------------------------------------------------------------------------------


def test_a_tool_from_a_function_has_the_derived_schema():
    tool = Tool.from_function(get_weather)
    assert tool.function is get_weather
    assert tool.schema == function_schema(get_weather)
    assert tool.name == "get_weather"
    assert tool.description == "Get the current weather in a city."
    assert tool.is_async is False


def test_name_description_and_strict_go_to_the_derived_schema():
    tool = Tool.from_function(get_weather, name="weather", description="Weather.", strict=True)
    assert tool.schema == function_schema(
        get_weather, name="weather", description="Weather.", strict=True
    )
    assert tool.name == "weather"
    assert tool.schema.strict is True


def test_an_explicit_schema_replaces_the_derived_one():
    tool = Tool.from_function(get_weather, schema=WEATHER_SCHEMA)
    assert tool.schema == FunctionSchema(
        name="get_weather",
        description="Get the current weather in a city.",
        parameters=WEATHER_SCHEMA,
        strict=False,
    )
    assert tool.schema.parameters is not WEATHER_SCHEMA  # a copy: the caller's dict stays theirs


def test_an_explicit_schema_made_strict():
    tool = Tool.from_function(get_weather, schema=WEATHER_SCHEMA, strict=True)
    assert tool.schema.strict is True
    assert tool.schema.parameters == strict_schema(WEATHER_SCHEMA)
    assert tool.schema.parameters["additionalProperties"] is False
    assert tool.schema.parameters["required"] == ["city", "unit"]


def test_an_explicit_schema_serves_a_function_whose_hints_give_none():
    def lookup(**fields: Any) -> dict[str, Any]:
        """Look records up by any of their fields."""
        return fields

    with pytest.raises(InvalidTypeError):
        Tool.from_function(lookup)
    tools = ToolSet()
    tools.add(lookup, schema={"type": "object", "properties": {"id": {"type": "integer"}}})
    assert tools["lookup"].description == "Look records up by any of their fields."
    assert tools.invoke(call("lookup", '{"id": 7}')).result == {"id": 7}


def test_an_async_function_and_an_object_with_an_async_call_are_async():
    class Clock:
        async def __call__(self, city: str) -> str:
            return city

    assert Tool.from_function(get_time).is_async is True
    assert Tool.from_function(Clock(), name="clock").is_async is True
    assert Tool(None, function_schema(get_time)).is_async is False


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"function": 5}, InvalidTypeError, "function: expected a callable, got int"),
        ({"name": 5}, InvalidTypeError, "name: expected a str or None, got int"),
        ({"description": b"x"}, InvalidTypeError, "description: expected a str or None, got bytes"),
        ({"strict": "yes"}, InvalidTypeError, "strict: expected a bool, got str"),
        ({"schema": "{}"}, InvalidTypeError,
         "schema: expected a JSON Schema object (a dict) or None, got str"),
        ({"schema": {"type": "object", "default": {1, 2}}}, InvalidTypeError,
         'schema["default"]: set is not a JSON value'),
    ],
)
def test_bad_input_to_from_function_is_located(kwargs, error, message):
    arguments = {"function": get_weather, **kwargs}
    function = arguments.pop("function")
    with pytest.raises(error) as raised:
        Tool.from_function(function, **arguments)
    assert str(raised.value) == message


def test_a_bad_explicit_schema_is_located_under_schema():
    with pytest.raises(InvalidValueError) as raised:
        Tool.from_function(get_weather, schema={"type": "string"})
    assert str(raised.value) == (
        'schema.type: a tool\'s parameters schema must have "type": "object"'
    )
    with pytest.raises(InvalidValueError) as raised:
        Tool.from_function(get_weather, schema={"type": "string"}, strict=True)
    assert str(raised.value) == (
        'schema: the root of a strict schema must be an object ("type": "object")'
    )
    free = {"type": "object", "properties": {"tags": {"type": "object"}}}
    with pytest.raises(InvalidValueError) as raised:
        Tool.from_function(get_weather, schema=free, strict=True)
    assert str(raised.value) == (
        "schema.properties.tags: an object with keys of the caller's choosing (a dict) cannot "
        "be strict; strict mode needs every property listed"
    )


def test_a_lambda_needs_a_name():
    with pytest.raises(InvalidValueError) as raised:
        Tool.from_function(lambda city: city)
    assert str(raised.value) == (
        "name: '<lambda>' is not a tool name any provider accepts (1 to 128 letters, digits, "
        "'_', '-', '.' or ':')"
    )
    assert Tool.from_function(lambda city: city, name="echo").name == "echo"


def test_a_function_without_a_name_needs_one():
    class Callable:
        def __call__(self, city: str) -> str:
            return city

    with pytest.raises(InvalidValueError) as raised:
        Tool.from_function(Callable(), schema={"type": "object"})
    assert str(raised.value) == "name: Callable has no __name__: pass name="


def test_bad_fields_of_a_tool_are_located():
    with pytest.raises(InvalidTypeError) as raised:
        Tool(5, function_schema(get_weather))  # type: ignore[arg-type]
    assert str(raised.value) == "function: expected a callable or None, got int"
    with pytest.raises(InvalidTypeError) as raised:
        Tool(get_weather, {"name": "get_weather"})  # type: ignore[arg-type]
    assert str(raised.value) == "schema: expected a FunctionSchema, got dict"


# --- ToolSet -------------------------------------------------------------------------------


def test_a_toolset_is_a_mapping_of_names_to_tools():
    time_tool = Tool.from_function(get_time)
    tools = ToolSet([get_weather, time_tool])
    assert list(tools) == ["get_weather", "get_time"]
    assert len(tools) == 2
    assert tools["get_time"] is time_tool
    assert tools["get_weather"] == Tool.from_function(get_weather)
    assert "get_weather" in tools
    assert "nope" not in tools
    assert tools.get("nope") is None
    assert repr(tools) == "ToolSet(['get_weather', 'get_time'])"
    assert tools == ToolSet([get_weather, get_time])
    assert ToolSet() == ToolSet(None)
    assert len(ToolSet()) == 0
    with pytest.raises(KeyError):
        tools["nope"]


def test_add_returns_the_tool_and_the_decorator_the_function():
    tools = ToolSet()
    added = tools.add(get_weather, name="weather")
    assert added is tools["weather"]

    @tools.tool
    def ping() -> str:
        """Answer pong."""
        return "pong"

    @tools.tool(name="echo_text", strict=True)
    def echo(text: str) -> str:
        """Say the text back."""
        return text

    assert ping() == "pong"
    assert echo("x") == "x"
    assert list(tools) == ["weather", "ping", "echo_text"]
    assert tools["echo_text"].function is echo
    assert tools["echo_text"].schema.strict is True


def test_two_tools_of_one_name_are_refused():
    tools = ToolSet([get_weather])
    with pytest.raises(InvalidValueError) as raised:
        tools.add(get_weather)
    assert str(raised.value) == "name: the set already has a tool named 'get_weather'"
    with pytest.raises(InvalidValueError) as raised:
        ToolSet([get_weather, get_time, get_weather])
    assert str(raised.value) == "tools[2].name: the set already has a tool named 'get_weather'"
    assert list(tools) == ["get_weather"]


def test_bad_input_to_a_toolset_is_located():
    with pytest.raises(InvalidTypeError) as raised:
        ToolSet(get_weather)  # type: ignore[arg-type]
    assert str(raised.value) == "tools: expected an iterable of functions and tools, got function"
    with pytest.raises(InvalidTypeError) as raised:
        ToolSet("get_weather")  # type: ignore[arg-type]
    assert str(raised.value) == "tools: expected an iterable of functions and tools, got str"
    with pytest.raises(InvalidTypeError) as raised:
        ToolSet([get_weather, "get_time"])  # type: ignore[list-item]
    assert str(raised.value) == "tools[1]: expected a function or a Tool, got str"
    with pytest.raises(InvalidTypeError) as raised:
        ToolSet().add(Tool.from_function(get_weather), name="weather", strict=True)
    assert str(raised.value) == "name: name, strict apply to a function; a Tool is added as it is"


# --- definitions ---------------------------------------------------------------------------

TIME_PARAMETERS = {
    "type": "object",
    "properties": {"city": {"type": "string"}},
    "required": ["city"],
    "additionalProperties": False,
}


def test_openai_chat_definitions():
    assert weather_tools().definitions("openai-chat") == [
        {"type": "function", "function": {
            "name": "get_weather", "description": "Get the current weather in a city.",
            "parameters": WEATHER_SCHEMA,
        }},
        {"type": "function", "function": {
            "name": "get_time", "description": "Tell the local time in a city.",
            "parameters": TIME_PARAMETERS, "strict": True,
        }},
    ]


def test_openai_responses_definitions_always_say_strict():
    assert weather_tools().definitions("openai-responses") == [
        {"type": "function", "name": "get_weather",
         "description": "Get the current weather in a city.", "parameters": WEATHER_SCHEMA,
         "strict": False},
        {"type": "function", "name": "get_time", "description": "Tell the local time in a city.",
         "parameters": TIME_PARAMETERS, "strict": True},
    ]


def test_anthropic_definitions():
    assert weather_tools().definitions("anthropic") == [
        {"name": "get_weather", "description": "Get the current weather in a city.",
         "input_schema": WEATHER_SCHEMA},
        {"name": "get_time", "description": "Tell the local time in a city.",
         "input_schema": TIME_PARAMETERS, "strict": True},
    ]


def test_gemini_definitions_are_one_tool_and_report_strict():
    with pytest.warns(ConversionWarning) as caught:
        definitions = weather_tools().definitions("gemini")
    assert [str(warning.message) for warning in caught] == [
        'tools["get_time"].strict: dropped: Gemini cannot carry a strict schema'
    ]
    assert definitions == [{"function_declarations": [
        {"name": "get_weather", "description": "Get the current weather in a city.",
         "parameters_json_schema": WEATHER_SCHEMA},
        {"name": "get_time", "description": "Tell the local time in a city.",
         "parameters_json_schema": TIME_PARAMETERS},
    ]}]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert weather_tools().definitions("gemini", on_unsupported="drop") == definitions
        assert ToolSet().definitions("gemini") == []
    with pytest.raises(UnsupportedContentError) as raised:
        weather_tools().definitions("gemini", on_unsupported="error")
    assert str(raised.value) == (
        'tools["get_time"].strict: Gemini cannot carry a strict schema '
        "(pass on_unsupported='warn' to leave it out)"
    )


def test_a_description_left_out_when_there_is_none():
    tools = ToolSet([Tool(None, FunctionSchema("ping", None, {"type": "object"}, False))])
    assert tools.definitions("openai-chat") == [
        {"type": "function", "function": {"name": "ping", "parameters": {"type": "object"}}}
    ]
    assert tools.definitions("anthropic") == [{"name": "ping", "input_schema": {"type": "object"}}]


CHAT_TOOL = TypeAdapter(ChatCompletionFunctionToolParam)
RESPONSES_TOOL = TypeAdapter(FunctionToolParam)
ANTHROPIC_TOOL = TypeAdapter(ToolParam)


def test_definitions_validate_against_the_sdk_types():
    tools = weather_tools()
    tools.add(get_weather, name="derived_weather")
    for definition in tools.definitions("openai-chat"):
        CHAT_TOOL.validate_python(definition, strict=True)
    for definition in tools.definitions("openai-responses"):
        RESPONSES_TOOL.validate_python(definition, strict=True)
    for definition in tools.definitions("anthropic"):
        ANTHROPIC_TOOL.validate_python(definition, strict=True)
    for definition in tools.definitions("gemini", on_unsupported="drop"):
        validated = genai_types.Tool.model_validate(definition)
        names = [declaration.name for declaration in validated.function_declarations or []]
        assert names == ["get_weather", "get_time", "derived_weather"]


def test_a_format_without_tool_definitions_is_refused():
    with pytest.raises(FormatError) as raised:
        weather_tools().definitions("sk-python")
    assert str(raised.value) == (
        "format: no tool definitions for format 'sk-python': expected one of anthropic, "
        "gemini, openai-chat, openai-responses"
    )
    with pytest.raises(InvalidTypeError) as raised:
        weather_tools().definitions(None)  # type: ignore[arg-type]
    assert str(raised.value) == "format: expected a format name (str), got NoneType"


GEMINI_NAMED = {"function_declarations": [
    {"name": "maps.search", "parameters_json_schema": {"type": "object"}},
    {"name": "crm:lookup-v2", "parameters_json_schema": {"type": "object"}},
]}


def test_gemini_names_with_dots_and_colons_are_read_and_written_back():
    # What was seen: ToolSet.from_definitions refused a Gemini tool named "maps.search".
    tools = ToolSet.from_definitions([GEMINI_NAMED], "gemini")
    assert list(tools) == ["maps.search", "crm:lookup-v2"]
    assert tools.definitions("gemini") == [GEMINI_NAMED]
    genai_types.Tool.model_validate(tools.definitions("gemini")[0])


@pytest.mark.parametrize(("format_name", "label"), [
    ("openai-chat", "OpenAI Chat Completions"),
    ("openai-responses", "OpenAI Responses"),
    ("anthropic", "Anthropic"),
])
def test_a_name_the_format_refuses_is_an_error_naming_the_tool(format_name, label):
    tools = ToolSet.from_definitions([GEMINI_NAMED], "gemini")
    with pytest.raises(FormatError) as raised:
        tools.definitions(format_name)
    assert str(raised.value) == (
        f'tools["maps.search"].name: {label} takes no tool named "maps.search": its tool '
        "names are 1 to 64 letters, digits, '_' or '-'"
    )


def test_openai_names_gemini_refuses_are_errors_too():
    long_name = "a" * 64
    tools = ToolSet([Tool(None, FunctionSchema("2fa_check", None, {"type": "object"}, False))])
    with pytest.raises(FormatError) as raised:
        tools.definitions("gemini")
    assert str(raised.value) == (
        'tools["2fa_check"].name: Gemini takes no tool named "2fa_check": its tool names are '
        "1 to 128 letters, digits, '_', '.', ':' or '-', starting with a letter or '_'"
    )
    assert tools.definitions("openai-chat")[0]["function"]["name"] == "2fa_check"
    longest = ToolSet([Tool(None, FunctionSchema(long_name, None, {"type": "object"}, False))])
    assert longest.definitions("anthropic")[0]["name"] == long_name
    longer = ToolSet([Tool(None, FunctionSchema("g" * 128, None, {"type": "object"}, False))])
    assert longer.definitions("gemini")[0]["function_declarations"][0]["name"] == "g" * 128
    with pytest.raises(FormatError):
        longer.definitions("openai-responses")


def test_a_name_no_provider_takes_is_refused_when_read():
    with pytest.raises(FormatError) as raised:
        ToolSet.from_definitions([{"function_declarations": [{"name": "g" * 129}]}])
    assert str(raised.value).startswith("tools[0].name: " + repr("g" * 129))
    assert str(raised.value).endswith(
        "is not a tool name any provider accepts (1 to 128 letters, digits, '_', '-', '.' "
        "or ':')"
    )


def test_another_format_registers_its_definitions():
    def write(schemas, _on_unsupported):
        return [{"tool": schema.name} for schema in schemas]

    def read(tool, where, _on_unsupported):
        return [FunctionSchema(tool["tool"], None, {"type": "object"}, False)]

    register_tool_format("plain", ToolFormat("Plain", write, read))
    try:
        assert weather_tools().definitions("plain") == [{"tool": "get_weather"},
                                                         {"tool": "get_time"}]
        assert list(ToolSet.from_definitions([{"tool": "ping"}], "plain")) == ["ping"]
        with pytest.raises(InvalidValueError) as raised:
            register_tool_format("plain", ToolFormat("Plain", write, read))
        assert str(raised.value) == "name: 'plain' already has tool definitions"
    finally:
        del TOOL_FORMATS["plain"]
    with pytest.raises(InvalidTypeError) as raised:
        register_tool_format("plain", write)  # type: ignore[arg-type]
    assert str(raised.value) == "tool_format: expected a ToolFormat, got function"


# --- from_definitions ----------------------------------------------------------------------


@pytest.mark.parametrize("format_name", ["openai-chat", "openai-responses", "anthropic", "gemini"])
@pytest.mark.parametrize("given", [True, False])
def test_definitions_read_back_into_the_same_schemas(format_name, given):
    tools = weather_tools()
    definitions = tools.definitions(format_name, on_unsupported="drop")
    back = ToolSet.from_definitions(definitions, format_name if given else None)
    schemas = [tool.schema for tool in tools.values()]
    if format_name == "gemini":  # no strict mode: the schema stays, the flag does not
        schemas[1] = attrs.evolve(schemas[1], strict=False)
    assert [tool.schema for tool in back.values()] == schemas
    assert all(tool.function is None for tool in back.values())


def test_the_functions_under_the_toolset_say_where_each_schema_was_read():
    schemas = [tool.schema for tool in weather_tools().values()]
    written = write_definitions(schemas, "anthropic")
    assert written == weather_tools().definitions("anthropic")
    with pytest.warns(ConversionWarning):
        read = read_definitions([{"type": "web_search"}, *written])
    assert read == [("tools[1]", schemas[0]), ("tools[2]", schemas[1])]


def test_a_request_body_and_sdk_objects_are_read():
    body = {"model": "gpt-4o", "messages": [], "tools": weather_tools().definitions("openai-chat")}
    assert list(ToolSet.from_definitions(body)) == ["get_weather", "get_time"]
    sdk_request = {"model": "gemini-2.5-flash", "contents": [], "config": {
        "tools": [genai_types.Tool(function_declarations=[genai_types.FunctionDeclaration(
            name="get_weather", description="Get the weather.",
            parameters_json_schema=WEATHER_SCHEMA,
        )])]
    }}
    read = ToolSet.from_definitions(sdk_request, "gemini")
    assert read["get_weather"].schema == FunctionSchema(
        "get_weather", "Get the weather.", WEATHER_SCHEMA, False
    )


def test_a_mixed_list_is_read_by_each_definitions_shape():
    definitions = [
        weather_tools().definitions("openai-chat")[0],
        {"type": "function", "name": "b", "parameters": {"type": "object"}, "strict": True},
        {"name": "c", "input_schema": {"type": "object"}},
        {"function_declarations": [{"name": "d"}]},
    ]
    read = ToolSet.from_definitions(definitions)
    assert list(read) == ["get_weather", "b", "c", "d"]
    assert read["b"].schema.strict is True
    assert read["d"].schema.parameters == {"type": "object", "properties": {}}


def test_a_gemini_openapi_schema_is_read_as_json_schema():
    read = ToolSet.from_definitions([{"functionDeclarations": [{
        "name": "get_weather",
        "parameters": {"type": "OBJECT", "properties": {
            "city": {"type": "STRING"}, "days": {"type": "INTEGER", "nullable": True}},
            "required": ["city"]},
    }]}], "gemini")
    assert read["get_weather"].schema.parameters == {
        "type": "object",
        "properties": {"city": {"type": "string"}, "days": {"type": ["integer", "null"]}},
        "required": ["city"],
    }


def test_a_providers_own_tools_are_reported_and_left_out():
    definitions = [
        {"type": "web_search"},
        {"type": "web_search_20250305", "name": "web_search"},
        {"google_search": {}, "function_declarations": [{"name": "f"}]},
    ]
    with pytest.warns(ConversionWarning) as caught:
        read = ToolSet.from_definitions(definitions)
    assert list(read) == ["f"]
    assert [str(warning.message) for warning in caught] == [
        'tools[0]: dropped: ToolSet cannot carry the OpenAI Responses tool of type '
        '"web_search" (it has no function)',
        'tools[1]: dropped: ToolSet cannot carry the Anthropic tool of type '
        '"web_search_20250305" (it has no function)',
        "tools[2].google_search: dropped: ToolSet cannot carry a Gemini 'google_search' tool",
    ]
    with pytest.raises(UnsupportedContentError):
        ToolSet.from_definitions(definitions, on_unsupported="error")


@pytest.mark.parametrize(
    ("payload", "format_name", "error", "message"),
    [
        ("tools", None, FormatError,
         "payload: expected an object or a provider SDK model, got str"),
        ({"model": "x"}, None, FormatError, "payload: no 'tools' in the request body"),
        ({"tools": {}}, None, FormatError,
         "payload.tools: expected a list of tool definitions, got dict"),
        ([5], None, FormatError, "tools[0]: expected an object or a provider SDK model, got int"),
        ([["x"]], None, FormatError, "tools[0]: expected a tool definition object, got list"),
        ([{"type": "function", "function": {"name": 5}}], None, FormatError,
         "tools[0].function.name: expected a str, got int"),
        ([{"type": "function", "function": {"description": "x"}}], None, FormatError,
         "tools[0].function: missing 'name'"),
        ([{"type": "function", "function": "get_weather"}], "openai-chat", FormatError,
         "tools[0].function: expected a function object, got str"),
        ([{"type": "function", "name": "f", "parameters": []}], None, FormatError,
         "tools[0].parameters: expected a JSON Schema object, got list"),
        ([{"type": "function", "name": "f", "description": 1}], None, FormatError,
         "tools[0].description: expected a str or null, got int"),
        ([{"type": "function", "name": "f", "strict": "yes"}], None, FormatError,
         "tools[0].strict: expected a bool or null, got str"),
        ([{"name": "f", "input_schema": {}}], "openai-chat", FormatError,
         'tools[0]: expected a OpenAI Chat Completions tool definition '
         '({"type": "function", "function": {...}})'),
        ([{"type": "function", "function": {"name": "f"}}], "openai-responses", FormatError,
         "tools[0].function: a Chat Completions definition (nested 'function'), expected the "
         "flat Responses shape"),
        ([{"type": "function", "name": "f"}], "anthropic", FormatError,
         'tools[0]: expected an Anthropic tool definition ({"name", "description", '
         '"input_schema"})'),
        ([{"name": "f", "input_schema": {}}], "gemini", FormatError,
         'tools[0]: expected a Gemini tool ({"function_declarations": [...]})'),
        ([{"function_declarations": [{"name": 1}]}], None, FormatError,
         "tools[0].function_declarations[0].name: expected str, got int"),
        ([{"name": "f", "input_schema": {"type": "object"}},
          {"name": "f", "input_schema": {"type": "object"}}], None,
         InvalidValueError, "tools[1].name: the set already has a tool named 'f'"),
        ([{"name": "f", "input_schema": {"type": "string"}}], None, FormatError,
         'tools[0].input_schema.type: a tool\'s parameters schema must have "type": "object"'),
        ([{"type": "function", "function": {"name": "get weather"}}], None, FormatError,
         "tools[0].function.name: 'get weather' is not a tool name any provider accepts (1 to "
         "128 letters, digits, '_', '-', '.' or ':')"),
        ([], "sk-dotnet", FormatError,
         "format: no tool definitions for format 'sk-dotnet': expected one of anthropic, "
         "gemini, openai-chat, openai-responses"),
    ],
)
def test_bad_definitions_are_located(payload, format_name, error, message):
    with pytest.raises(error) as raised:
        ToolSet.from_definitions(payload, format_name)
    assert type(raised.value) is error
    assert str(raised.value) == message


def test_a_tool_read_from_a_definition_answers_with_an_error():
    read = ToolSet.from_definitions(weather_tools().definitions("anthropic"))
    result = read.invoke(call("get_weather", '{"city": "Paris"}'))
    assert result == FunctionResultContent(
        "call_1", "get_weather (call call_1): this tool was read from a definition and has no "
        "function", name="get_weather", is_error=True,
    )


# --- invoke --------------------------------------------------------------------------------


def test_invoke_answers_a_call_with_its_id_and_name():
    tools = ToolSet([get_weather])
    result = tools.invoke(call("get_weather", '{"city": "Paris"}'))
    assert result == FunctionResultContent(
        "call_1", {"city": "Paris", "temperature": 18.5, "unit": "celsius"}, name="get_weather"
    )
    assert result.is_error is False
    by_mapping = tools.invoke(call("get_weather", {"city": "Oslo", "unit": "fahrenheit"}, None))
    assert by_mapping == FunctionResultContent(
        None, {"city": "Oslo", "temperature": 18.5, "unit": "fahrenheit"}, name="get_weather"
    )


def test_no_arguments_or_blank_ones_are_none():
    def ping() -> str:
        return "pong"

    tools = ToolSet([ping])
    for arguments in (None, "", "  ", {}):
        assert tools.invoke(call("ping", arguments)).result == "pong"


class Unit(enum.Enum):
    CELSIUS = "celsius"


@attrs.define
class Reading:
    city: str
    unit: Unit
    when: datetime.date


@dataclasses.dataclass
class Point:
    lat: float
    lon: float
    tags: tuple[str, ...]


PNG = ImageContent(uri="https://example.com/a.png", mime_type="image/png")


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("sunny", "sunny"),
        (18.5, 18.5),
        (True, True),
        (None, None),
        ([1, "a", None], [1, "a", None]),
        ({"a": [1, {"b": 2}]}, {"a": [1, {"b": 2}]}),
        ((1, 2), [1, 2]),
        ({"b", "a"}, ["a", "b"]),
        (Unit.CELSIUS, "celsius"),
        (Reading("Paris", Unit.CELSIUS, datetime.date(2026, 11, 25)),
         {"city": "Paris", "unit": "celsius", "when": "2026-11-25"}),
        (Point(48.85, 2.35, ("a", "b")), {"lat": 48.85, "lon": 2.35, "tags": ["a", "b"]}),
        ({"points": [Point(1.0, 2.0, ())]}, {"points": [{"lat": 1.0, "lon": 2.0, "tags": []}]}),
        (datetime.datetime(2026, 11, 25, 12, 30), "2026-11-25T12:30:00"),
        (PNG, [PNG]),
        ([TextContent("a chart"), PNG], [TextContent("a chart"), PNG]),
        ((TextContent("a chart"), PNG), [TextContent("a chart"), PNG]),
    ],
)
def test_results_are_text_json_values_or_items(value, expected):
    tools = ToolSet()
    tools.add(lambda: value, name="answer", schema={"type": "object"})
    result = tools.invoke(call("answer", "{}"))
    assert result.is_error is False
    assert result.result == expected
    assert type(result.result) is type(expected)


def test_a_pydantic_model_result_is_its_json_dump():
    from pydantic import BaseModel

    class Forecast(BaseModel):
        city: str
        day: datetime.date

    tools = ToolSet()
    tools.add(lambda: Forecast(city="Paris", day=datetime.date(2026, 1, 2)), name="forecast",
              schema={"type": "object"})
    assert tools.invoke(call("forecast", "{}")).result == {"city": "Paris", "day": "2026-01-02"}


def test_a_result_that_is_not_json_is_an_error_result():
    tools = ToolSet()
    tools.add(lambda: {"when": object()}, name="answer", schema={"type": "object"})
    result = tools.invoke(call("answer", "{}"))
    assert result.is_error is True
    assert result.result == (
        'answer (call call_1) returned what a result cannot hold: result["when"]: object is '
        "not a JSON value"
    )
    assert isinstance(result.inner_content, InvalidTypeError)


def test_an_unknown_tool_is_an_error_result_naming_the_tools():
    result = weather_tools().invoke(call("get_wether", '{"city": "Paris"}'))
    assert result == FunctionResultContent(
        "call_1",
        "get_wether (call call_1): unknown tool; the tools are 'get_weather', 'get_time'",
        name="get_wether", is_error=True,
    )
    empty = ToolSet().invoke(call("f", "{}", None))
    assert empty.result == "f: unknown tool; the tools are none"


@pytest.mark.parametrize(
    ("arguments", "text"),
    [
        ('{"city": "Par', "get_weather (call call_1): arguments: not valid JSON "
                         "(Unterminated string starting at: line 1 column 10 (char 9))"),
        ("[1, 2]", "get_weather (call call_1): arguments: expected a JSON object, got a JSON "
                   "array"),
        ("null", "get_weather (call call_1): arguments: expected a JSON object, got a JSON null"),
        ('"Paris"', "get_weather (call call_1): arguments: expected a JSON object, got a JSON "
                    "string"),
        ("18.5", "get_weather (call call_1): arguments: expected a JSON object, got a JSON "
                 "number"),
        ("7", "get_weather (call call_1): arguments: expected a JSON object, got a JSON integer"),
        ("true", "get_weather (call call_1): arguments: expected a JSON object, got a JSON "
                 "boolean"),
    ],
)
def test_arguments_that_are_no_json_object_are_an_error_result(arguments, text):
    result = weather_tools().invoke(call("get_weather", arguments))
    assert result.is_error is True
    assert result.result == text
    assert result.call_id == "call_1"
    assert result.name == "get_weather"


@attrs.frozen
class Stop:
    lat: float
    lon: float


def route(stops: list[Stop], unit: Unit = Unit.CELSIUS) -> dict[str, Any]:
    """Plan a route through the stops."""
    return {"stops": len(stops), "first": stops[0], "unit": unit}


def test_arguments_are_converted_to_the_functions_hints():
    result = ToolSet([route]).invoke(
        call("route", '{"stops": [{"lat": 1, "lon": 2.5}], "unit": "celsius"}')
    )
    assert result == FunctionResultContent(
        "call_1", {"stops": 1, "first": {"lat": 1.0, "lon": 2.5}, "unit": "celsius"},
        name="route",
    )


@pytest.mark.parametrize(
    ("arguments", "text"),
    [
        ('{"stops": [{"lat": 1, "lon": 2}, {"lat": "north", "lon": 2}]}',
         "route (call call_1): arguments.stops[1].lat: expected a number, got string"),
        ("{}", "route (call call_1): arguments.stops: a required argument is missing"),
        ('{"stops": [], "speed": 3}',
         "route (call call_1): arguments.speed: unknown argument; route takes stops, unit"),
    ],
)
def test_arguments_that_fail_a_check_are_an_error_result_saying_where(arguments, text):
    result = ToolSet([route]).invoke(call("route", arguments))
    assert result.is_error is True
    assert result.result == text
    assert isinstance(result.inner_content, FunctionArgumentsError)


def test_arguments_bound_to_a_signature_without_hints_are_checked():
    def pair(a: Any, *rest: Any) -> list[Any]:
        return [a, *rest]

    tools = ToolSet()
    tools.add(pair, schema={"type": "object", "properties": {"a": {}}})
    result = tools.invoke(call("pair", "{}"))
    assert result.is_error is True
    assert result.result == "pair (call call_1): arguments: missing a required argument: 'a'"
    assert isinstance(result.inner_content, FunctionArgumentsError)
    assert tools.invoke(call("pair", '{"a": 1}')).result == [1]
    assert tools.invoke(call("pair", '{"a": 1, "b": 1}')).result == (
        "pair (call call_1): arguments: got an unexpected keyword argument 'b'"
    )


def test_an_exception_in_the_tool_is_an_error_result_holding_it():
    error = ValueError("no such city: Atlantis")

    def fail(city: str) -> str:
        raise error

    def fail_quietly() -> str:
        raise RuntimeError

    tools = ToolSet([fail, fail_quietly])
    result = tools.invoke(call("fail", '{"city": "Atlantis"}'))
    assert result == FunctionResultContent(
        "call_1", "fail (call call_1) raised ValueError: no such city: Atlantis", name="fail",
        is_error=True,
    )
    assert result.inner_content is error
    quiet = tools.invoke(call("fail_quietly", "{}"))
    assert quiet.result == "fail_quietly (call call_1) raised RuntimeError"


def test_invoke_refuses_what_is_not_a_call():
    with pytest.raises(InvalidTypeError) as raised:
        ToolSet().invoke({"name": "f"})  # type: ignore[arg-type]
    assert str(raised.value) == "call: expected a FunctionCallContent, got dict"


# --- async ---------------------------------------------------------------------------------


def test_invoke_runs_an_async_tool_to_its_end():
    result = weather_tools().invoke(call("get_time", '{"city": "Paris"}'))
    assert result == FunctionResultContent("call_1", "12:00 in Paris", name="get_time")


def test_invoke_runs_an_async_tool_from_inside_a_running_loop():
    async def main() -> FunctionResultContent:
        return weather_tools().invoke(call("get_time", '{"city": "Oslo"}'))

    assert asyncio.run(main()).result == "12:00 in Oslo"


def test_ainvoke_awaits_an_async_tool_and_runs_a_sync_one_in_a_thread():
    threads: list[int] = []

    def where(city: str) -> str:
        threads.append(threading.get_ident())
        return city

    tools = weather_tools()
    tools.add(where)

    async def main() -> list[FunctionResultContent]:
        return [
            await tools.ainvoke(call("get_time", '{"city": "Paris"}')),
            await tools.ainvoke(call("where", {"city": "Rome"}, "call_2")),
            await tools.ainvoke(call("nope", "{}", "call_3")),
        ]

    assert asyncio.run(main()) == [
        FunctionResultContent("call_1", "12:00 in Paris", name="get_time"),
        FunctionResultContent("call_2", "Rome", name="where"),
        FunctionResultContent(
            "call_3", "nope (call call_3): unknown tool; the tools are 'get_weather', "
            "'get_time', 'where'", name="nope", is_error=True,
        ),
    ]
    assert threads
    assert threads[0] != threading.get_ident()


def test_ainvoke_gives_an_async_tools_exception_as_an_error_result():
    async def fail(city: str) -> str:
        raise LookupError(city)

    result = asyncio.run(ToolSet([fail]).ainvoke(call("fail", '{"city": "Atlantis"}')))
    assert result.result == "fail (call call_1) raised LookupError: Atlantis"
    assert isinstance(result.inner_content, LookupError)


def test_cancelling_ainvoke_is_not_an_error_result():
    async def hang() -> str:
        await asyncio.sleep(10)
        return "late"

    async def main() -> None:
        await asyncio.wait_for(ToolSet([hang]).ainvoke(call("hang", "{}")), timeout=0.01)

    with pytest.raises(TimeoutError):
        asyncio.run(main())


# --- properties ----------------------------------------------------------------------------

_NAMES = st.from_regex(r"[A-Za-z0-9_-]{1,64}", fullmatch=True) | st.from_regex(
    r"[A-Za-z0-9_.:-]{1,128}", fullmatch=True
)
_FORMAT_NAMES = {  # the names each format takes, as its documentation says
    "openai-chat": r"[A-Za-z0-9_-]{1,64}",
    "openai-responses": r"[A-Za-z0-9_-]{1,64}",
    "anthropic": r"[A-Za-z0-9_-]{1,64}",
    "gemini": r"[A-Za-z_][A-Za-z0-9_.:-]{0,127}",
}
_SCHEMAS = st.builds(
    FunctionSchema,
    name=_NAMES,
    description=st.none() | st.text(max_size=20),
    parameters=st.builds(
        lambda properties, required: {
            "type": "object",
            "properties": {name: {"type": "string"} for name in properties},
            **({"required": sorted(properties)} if required else {}),
        },
        st.lists(st.from_regex(r"[a-z_]{1,8}", fullmatch=True), max_size=3, unique=True),
        st.booleans(),
    ),
    strict=st.booleans(),
)


@given(st.lists(_SCHEMAS, max_size=4, unique_by=lambda schema: schema.name),
       st.sampled_from(["openai-chat", "openai-responses", "anthropic", "gemini"]),
       st.booleans())
def test_any_definitions_read_back_into_their_schemas(schemas, format_name, given_format):
    tools = ToolSet([Tool(None, schema) for schema in schemas])
    refused = [schema.name for schema in schemas
               if not re.fullmatch(_FORMAT_NAMES[format_name], schema.name)]
    if refused:
        with pytest.raises(FormatError) as raised:
            tools.definitions(format_name, on_unsupported="drop")
        assert str(raised.value).startswith(f"tools[{json.dumps(refused[0])}].name: ")
        return
    definitions = tools.definitions(format_name, on_unsupported="drop")
    back = ToolSet.from_definitions(definitions, format_name if given_format else None)
    if format_name == "gemini":
        schemas = [attrs.evolve(schema, strict=False) for schema in schemas]
    assert [tool.schema for tool in back.values()] == schemas


@given(json_values())
def test_any_json_value_a_tool_returns_is_the_result(value):
    tools = ToolSet()
    tools.add(lambda: value, name="answer", schema={"type": "object"})
    result = tools.invoke(call("answer", "{}"))
    assert result == FunctionResultContent("call_1", value, name="answer")
    assert from_json(to_json(result)) == result


@given(st.dictionaries(st.from_regex(r"[a-z_]{1,8}", fullmatch=True), json_values(), max_size=4),
       st.booleans())
def test_any_arguments_reach_a_free_form_tool_as_sent(arguments, as_text):
    def record(**fields: Any) -> dict[str, Any]:
        return fields

    tools = ToolSet()
    tools.add(record, schema={"type": "object"})
    sent = json.dumps(arguments) if as_text else arguments
    result = tools.invoke(call("record", sent))
    assert result == FunctionResultContent("call_1", arguments, name="record")


class _Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


class _Mode(enum.StrEnum):
    FAST = "fast"


class _Perm(enum.IntFlag):
    R = 4
    W = 2


@pytest.mark.parametrize(("returned", "expected"), [
    (_Level.HIGH, 2), (_Perm.R | _Perm.W, 6), (_Mode.FAST, "fast"),
    ({"level": _Level.LOW, "modes": [_Mode.FAST]}, {"level": 1, "modes": ["fast"]}),
])
def test_an_int_or_str_enum_a_tool_returns_is_its_value(returned: Any, expected: Any) -> None:
    # What was seen: an IntEnum or IntFlag member became an error result, "level (call c1)
    # returned what a result cannot hold: result: Level is not a JSON value".
    def level() -> Any:
        """The level."""
        return returned

    result = ToolSet([level]).invoke(FunctionCallContent("c1", "level", "{}"))
    assert (result.is_error, result.result) == (False, expected)
    assert type(result.result) is type(expected)
