"""Whole request bodies converted between formats: tools and tool choices that refer to nothing,
Anthropic-only tool shapes in a Responses request, nameless tools, ``"system": []`` and loss
messages that named the wrong cause.

Each defect is reproduced here with the fixed behaviour asserted exactly.
"""

from __future__ import annotations

import warnings
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openai.types.chat.completion_create_params import CompletionCreateParamsNonStreaming
from openai.types.responses import ToolParam
from openai.types.responses.response_create_params import ToolChoice
from pydantic import TypeAdapter

from semantic_chat.errors import FormatError, UnsupportedContentError
from semantic_chat.formats import anthropic, gemini, openai_chat, openai_responses
from semantic_chat.formats.wire import collect_losses

HI = [{"role": "user", "content": "hi"}]
BASE = {"model": "claude-x", "max_tokens": 10, "messages": HI}
WEB_SEARCH = {"type": "web_search_20250305", "name": "web_search", "max_uses": 3}
LOOKUP = {"name": "lookup", "description": "Look up", "input_schema": {"type": "object"}}
FORCED = {"type": "tool", "name": "web_search", "disable_parallel_tool_use": True}
CHAT_REQUEST = TypeAdapter(CompletionCreateParamsNonStreaming)
TOOL_KEYS = ("tools", "tool_choice", "parallel_tool_calls", "tool_config")


def quietly(function: Any, *args: Any, **kwargs: Any) -> tuple[Any, list[str]]:
    """Call ``function``, returning its result and the texts of the warnings it gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = function(*args, **kwargs)
    return result, [str(note.message) for note in caught]


def tool_fields(body: dict[str, Any]) -> dict[str, Any]:
    """The fields of a request body that hold tools or say how to use them."""
    return {key: body[key] for key in TOOL_KEYS if key in body}


# 1. Every tool dropped: no empty tools, no tool choice or parallel setting naming nothing.


@pytest.mark.parametrize(
    ("module", "name"),
    [
        (openai_chat, "OpenAI Chat Completions"),
        (openai_responses, "OpenAI Responses"),
    ],
)
def test_server_tool_only_to_openai_leaves_out_tools_choice_and_parallel(
    module: Any, name: str
) -> None:
    history = anthropic.from_request({**BASE, "tools": [WEB_SEARCH], "tool_choice": FORCED})
    body, notes = quietly(module.to_request, history)
    assert tool_fields(body) == {}
    assert notes == [
        f'options.tools[0]: dropped: {name} cannot carry a "web_search_20250305" tool',
        f"options.tool_choice: dropped: {name} cannot carry a tool choice naming the dropped "
        "tool 'web_search'",
        f"options.parallel_tool_calls: dropped: {name} cannot carry the option "
        "'parallel_tool_calls' with every tool dropped",
    ]


def test_server_tool_only_to_gemini_leaves_out_tools_and_calling_config() -> None:
    history = anthropic.from_request({**BASE, "tools": [WEB_SEARCH], "tool_choice": FORCED})
    body, notes = quietly(gemini.to_request, history)
    assert tool_fields(body) == {}
    assert notes == [
        'options.tools[0]: dropped: Gemini cannot carry a "web_search_20250305" tool',
        "options.tool_choice: dropped: Gemini cannot carry a tool choice naming the dropped "
        "tool 'web_search'",
        "options.parallel_tool_calls: dropped: Gemini cannot carry the option "
        "'parallel_tool_calls'",
    ]


def test_gemini_keeps_the_rest_of_tool_config_when_the_choice_goes() -> None:
    history = anthropic.from_request({**BASE, "tools": [WEB_SEARCH], "tool_choice": FORCED})
    assert history.options is not None
    history.options.extra["tool_config"] = {"retrieval_config": {"language_code": "en"}}
    body, _ = quietly(gemini.to_request, history)
    assert tool_fields(body) == {"tool_config": {"retrieval_config": {"language_code": "en"}}}


def test_hosted_tool_only_to_anthropic_leaves_out_tools_and_required_choice() -> None:
    request = {"model": "gpt-4.1", "input": "news?", "tools": [{"type": "web_search"}],
               "tool_choice": "required"}
    body, notes = quietly(
        anthropic.to_request, openai_responses.from_request(request), max_tokens=100
    )
    assert tool_fields(body) == {}
    assert notes == [
        'options.tools[0]: dropped: Anthropic Messages cannot carry a "web_search" tool',
        'options.tool_choice: dropped: Anthropic Messages cannot carry the tool choice '
        '"required" with every tool dropped',
    ]


def test_auto_choice_with_every_tool_dropped_goes_in_silence() -> None:
    request = {"model": "gpt-4.1", "input": "news?", "tools": [{"type": "web_search"}],
               "tool_choice": "auto"}
    body, notes = quietly(
        anthropic.to_request, openai_responses.from_request(request), max_tokens=100
    )
    assert tool_fields(body) == {}
    assert notes == [
        'options.tools[0]: dropped: Anthropic Messages cannot carry a "web_search" tool'
    ]


def test_choice_naming_a_dropped_tool_goes_while_other_tools_stay() -> None:
    history = anthropic.from_request(
        {**BASE, "tools": [LOOKUP, WEB_SEARCH], "tool_choice": FORCED}
    )
    body, notes = quietly(openai_chat.to_request, history)
    assert tool_fields(body) == {
        "tools": [{"type": "function", "function": {
            "name": "lookup", "description": "Look up", "parameters": {"type": "object"},
        }}],
        "parallel_tool_calls": False,
    }
    assert notes[1:] == [
        "options.tool_choice: dropped: OpenAI Chat Completions cannot carry a tool choice "
        "naming the dropped tool 'web_search'"
    ]
    CHAT_REQUEST.validate_python(body)


def test_losses_of_orphaned_settings_are_refused_under_error() -> None:
    history = anthropic.from_request({**BASE, "tools": [WEB_SEARCH], "tool_choice": FORCED})
    with collect_losses() as losses:
        openai_chat.to_request(history, on_unsupported="error")
    assert [(path, action) for path, _, action in losses] == [
        ("options.tools[0]", "error"),
        ("options.tool_choice", "error"),
        ("options.parallel_tool_calls", "error"),
    ]
    with pytest.raises(UnsupportedContentError) as raised:
        openai_chat.to_request(history, on_unsupported="error")
    assert raised.value.path == "options.tools[0]"


def test_empty_tools_given_are_written_back() -> None:
    body = {"model": "gpt-4.1", "messages": HI, "tools": [], "tool_choice": "auto"}
    back, notes = quietly(openai_chat.to_request, openai_chat.from_request(body))
    assert back == body
    assert notes == []


CLIENT_TOOLS = st.sampled_from([LOOKUP, {**LOOKUP, "name": "fetch"}])
SERVER_TOOLS = st.sampled_from([WEB_SEARCH, {"type": "bash_20250124", "name": "bash"}])


@given(
    tools=st.lists(st.one_of(CLIENT_TOOLS, SERVER_TOOLS), min_size=1, max_size=4),
    forced=st.sampled_from(["lookup", "fetch", "web_search", "bash"]),
    parallel=st.booleans(),
)
def test_converted_tool_settings_refer_only_to_written_tools(
    tools: list[dict[str, Any]], forced: str, parallel: bool
) -> None:
    request = {**BASE, "tools": tools,
               "tool_choice": {"type": "tool", "name": forced,
                               "disable_parallel_tool_use": not parallel}}
    history = anthropic.from_request(request)
    assert anthropic.to_request(history) == request  # the round trip stays exact
    body, _ = quietly(openai_chat.to_request, history)
    names = [tool["function"]["name"] for tool in body.get("tools", [])]
    dropped = {tool["name"] for tool in tools} - set(names)
    assert body.get("tools") != []
    if "tool_choice" in body:
        assert body["tool_choice"]["function"]["name"] not in dropped
    else:
        assert forced in dropped or not names
    assert ("parallel_tool_calls" in body) == bool(names)
    reread, _ = quietly(anthropic.to_request, openai_chat.from_request(body))
    assert reread.get("tools", []) == [tool for tool in tools if "input_schema" in tool]


# 3. Anthropic-only tool and tool choice shapes in a Responses request.

MCP = {"type": "mcp_toolset", "mcp_server_name": "docs"}
NONE_CHOICE = {"type": "none", "disable_parallel_tool_use": True}


def test_mcp_toolset_and_anthropic_none_choice_are_reported_for_responses() -> None:
    history = anthropic.from_request({**BASE, "tools": [MCP, LOOKUP], "tool_choice": NONE_CHOICE})
    body, notes = quietly(openai_responses.to_request, history)
    assert tool_fields(body) == {
        "tools": [{"type": "function", "name": "lookup", "description": "Look up",
                   "parameters": {"type": "object"}, "strict": False}],
        "tool_choice": "none",
    }
    assert notes == [
        'options.tools[0]: dropped: OpenAI Responses cannot carry a "mcp_toolset" tool',
        "options.tool_choice.disable_parallel_tool_use: dropped: OpenAI Responses cannot "
        "carry the tool choice field 'disable_parallel_tool_use'",
    ]
    for tool in body["tools"]:
        TypeAdapter(ToolParam).validate_python(tool)
    TypeAdapter(ToolChoice).validate_python(body["tool_choice"])


def test_mcp_toolset_alone_leaves_no_tools_and_reports_the_parallel_key() -> None:
    history = anthropic.from_request({**BASE, "tools": [MCP], "tool_choice": NONE_CHOICE})
    body, notes = quietly(openai_responses.to_request, history)
    assert tool_fields(body) == {}
    assert notes == [
        'options.tools[0]: dropped: OpenAI Responses cannot carry a "mcp_toolset" tool',
        "options.tool_choice.disable_parallel_tool_use: dropped: OpenAI Responses cannot "
        "carry the tool choice field 'disable_parallel_tool_use' with every tool dropped",
    ]


@pytest.mark.parametrize(
    ("module", "name", "written"),
    [
        (openai_chat, "OpenAI Chat Completions", {"tool_choice": "none"}),
        (gemini, "Gemini", {"tool_config": {"function_calling_config": {"mode": "NONE"}}}),
    ],
)
def test_anthropic_none_choice_with_a_key_names_the_key(
    module: Any, name: str, written: dict[str, Any]
) -> None:
    history = anthropic.from_request({**BASE, "tools": [LOOKUP], "tool_choice": NONE_CHOICE})
    body, notes = quietly(module.to_request, history)
    assert {key: body[key] for key in written} == written
    assert notes == [
        f"options.tool_choice.disable_parallel_tool_use: dropped: {name} cannot carry the "
        "tool choice field 'disable_parallel_tool_use'"
    ]


def test_anthropic_tool_choice_object_becomes_a_function_choice() -> None:
    choice = {"type": "tool", "name": "lookup", "cache": 1}  # an unknown key: kept whole
    history = anthropic.from_request({**BASE, "tools": [LOOKUP], "tool_choice": choice})
    body, notes = quietly(openai_responses.to_request, history)
    assert body["tool_choice"] == {"type": "function", "name": "lookup"}
    assert notes == [
        "options.tool_choice.cache: dropped: OpenAI Responses cannot carry the tool choice "
        "field 'cache'"
    ]


# 4. A function tool without a name is refused where it is read, located at it.


@pytest.mark.parametrize(
    ("read", "tools", "path", "message"),
    [
        (lambda tools: anthropic.from_request({**BASE, "tools": tools}),
         [{"description": "no name", "input_schema": {"type": "object"}}],
         "tools[0]", "tools[0]: missing 'name'"),
        (lambda tools: anthropic.from_request({**BASE, "tools": tools}),
         [LOOKUP, {**LOOKUP, "name": 5}],
         "tools[1].name", "tools[1].name: expected str, got int"),
        (lambda tools: openai_chat.from_request({"messages": HI, "tools": tools}),
         [{"type": "function", "function": {"parameters": {}}}],
         "tools[0].function", "tools[0].function: missing 'name'"),
        (lambda tools: openai_responses.from_request({"input": "hi", "tools": tools}),
         [{"type": "function", "name": None, "parameters": {}}],
         "tools[0].name", "tools[0].name: expected str, got NoneType"),
        (lambda tools: gemini.from_request({"contents": [], "tools": tools}),
         [{"function_declarations": [{"description": "x"}]}],
         "tools[0].function_declarations[0]", "tools[0].function_declarations[0]: missing 'name'"),
        (lambda tools: gemini.from_request({"contents": [], "config": {"tools": tools}}),
         [{"functionDeclarations": [{"name": 7}]}],
         "config.tools[0].functionDeclarations[0].name",
         "config.tools[0].functionDeclarations[0].name: expected str, got int"),
    ],
)
def test_nameless_function_tool_is_refused_at_the_request_field(
    read: Any, tools: list[Any], path: str, message: str
) -> None:
    with pytest.raises(FormatError) as raised:
        read(tools)
    assert raised.value.path == path
    assert str(raised.value) == message


def test_hosted_and_server_tools_need_no_name() -> None:
    history = anthropic.from_request({**BASE, "tools": [MCP, WEB_SEARCH]})
    assert history.options is not None
    assert history.options.tools == [MCP, WEB_SEARCH]


# 5. ``"system": []`` written back.


def test_empty_system_list_round_trips() -> None:
    body = {"model": "claude-x", "max_tokens": 10, "system": [], "messages": HI}
    back, notes = quietly(anthropic.to_request, anthropic.from_request(body))
    assert back == body
    assert list(back) == ["model", "max_tokens", "system", "messages"]
    assert notes == []


# Not blank: the writer leaves out a whitespace-only text block and message (the API refuses
# them), covered in test_writer_fixes.py.
TEXTS = st.text(min_size=1, max_size=5).filter(str.strip)
SYSTEMS = st.one_of(
    st.none(), st.just([]), TEXTS,
    st.lists(st.builds(lambda text: {"type": "text", "text": text}, TEXTS),
             min_size=1, max_size=2),
)


@given(system=SYSTEMS, texts=st.lists(TEXTS, min_size=1, max_size=3))
def test_system_round_trips(system: Any, texts: list[str]) -> None:
    messages = [{"role": "user" if index % 2 == 0 else "assistant", "content": text}
                for index, text in enumerate(texts)]
    if messages[-1]["role"] == "assistant":  # the prefill: the API refuses trailing whitespace
        messages[-1]["content"] = messages[-1]["content"].rstrip() or "-"
    body: dict[str, Any] = {"model": "claude-x", "max_tokens": 10}
    if system is not None:
        body["system"] = system
    body["messages"] = messages
    assert anthropic.to_request(anthropic.from_request(body)) == body


# 6. Loss messages that name the cause.


def test_anthropic_metadata_keeps_user_id_and_reports_other_keys() -> None:
    body = {**BASE, "metadata": {"user_id": "u1", "tenant": "t"}}
    back, notes = quietly(anthropic.to_request, anthropic.from_request(body))
    assert back == {**BASE, "metadata": {"user_id": "u1"}}
    assert notes == [
        'options.extra["metadata"]["tenant"]: dropped: Anthropic Messages cannot carry the '
        "metadata key 'tenant' (it takes 'user_id' only)"
    ]


def test_openai_metadata_without_user_id_is_left_out_key_by_key() -> None:
    chat = {"model": "gpt-4.1", "messages": HI, "metadata": {"tenant": "t"}}
    back, notes = quietly(anthropic.to_request, openai_chat.from_request(chat), max_tokens=10)
    assert "metadata" not in back
    assert notes == [
        'options.extra["metadata"]["tenant"]: dropped: Anthropic Messages cannot carry the '
        "metadata key 'tenant' (it takes 'user_id' only)"
    ]


def test_metadata_not_an_object_is_reported_whole() -> None:
    history = anthropic.from_request({**BASE, "metadata": "x"})
    with pytest.raises(UnsupportedContentError) as raised:
        anthropic.to_request(history, on_unsupported="error")
    assert raised.value.path == 'options.extra["metadata"]'


def test_auto_service_tier_to_gemini_names_no_single_provider() -> None:
    history = anthropic.from_request({**BASE, "service_tier": "auto"})
    body, notes = quietly(gemini.to_request, history)
    assert "service_tier" not in body
    assert notes == [
        "options.extra[\"service_tier\"]: dropped: Gemini cannot carry the request field "
        "'service_tier' with Anthropic's or OpenAI's value 'auto'"
    ]
