"""The request fields of the two OpenAI formats, and `ChatOptions` read from and written to them.

Both formats name most settings alike; where they differ this module maps them:

============================  ===========================  ================================
`ChatOptions`                 Chat Completions             Responses
============================  ===========================  ================================
``model``                     ``model``                    ``model``
``tools``                     ``{"type": "function",       ``{"type": "function", "name",
                              "function": {"name" ...}}``  ...}`` (flat)
``tool_choice``               ``{"type": "function",       ``{"type": "function",
                              "function": {"name"}}``      "name"}``
``max_tokens``                ``max_completion_tokens``    ``max_output_tokens``
                              (or the older ``max_tokens``)
``reasoning_effort``          ``reasoning_effort``         ``reasoning.effort``
``stop``, ``seed``,           the same names               none: reported
``*_penalty``
``extra``                     its own fields               its own fields
============================  ===========================  ================================

A field of ``extra`` that only the other format has (``include`` in a Chat Completions
request, ``response_format`` in a Responses one), a hosted tool (``web_search``) in a Chat
Completions request, or an option the target has no field for, is reported through
`semantic_chat.formats.wire.unsupported_field`: left out with a warning by default, refused
with ``on_unsupported="error"``, left out silently with ``"drop"``. A field neither format
names (a vendor extension such as ``top_k``) is written as it is.

Options read from an Anthropic Messages request reach these writers too: its tools
(``{"name", "description", "input_schema"}``) become function tools, its own tools with a
dated type (``web_search_20250305``, ``bash_20250124``) and the fields only Anthropic has
(``thinking``, ``container`` ... but not ``top_k``, which OpenAI-compatible servers take) are
reported.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from ..errors import FormatError, SemanticChatError, describe_type
from ..options import ChatOptions
from .wire import HINT_KEYS, OnUnsupported, as_plain, unsupported_field

__all__ = [
    "ANTHROPIC_KEYS",
    "CHAT_KEYS",
    "RESPONSES_KEYS",
    "is_anthropic_tool",
    "options_from",
    "report_options_metadata",
    "request_messages",
    "write_extra",
    "write_tool_choice",
    "write_tools",
]

_SHARED = frozenset((
    "metadata", "model", "parallel_tool_calls", "prompt_cache_key", "prompt_cache_retention",
    "safety_identifier", "service_tier", "store", "stream", "stream_options", "temperature",
    "tool_choice", "tools", "top_logprobs", "top_p", "user",
))
CHAT_KEYS = _SHARED | {
    "audio", "frequency_penalty", "function_call", "functions", "logit_bias", "logprobs",
    "max_completion_tokens", "max_tokens", "messages", "modalities", "n", "prediction",
    "presence_penalty", "reasoning_effort", "response_format", "seed", "stop", "verbosity",
    "web_search_options",
}
"""The fields of a Chat Completions request body."""

RESPONSES_KEYS = _SHARED | {
    "background", "conversation", "include", "input", "instructions", "max_output_tokens",
    "max_tool_calls", "previous_response_id", "prompt", "reasoning", "text", "truncation",
}
"""The fields of a Responses request body."""

ANTHROPIC_KEYS = frozenset((
    "anthropic_version", "cache_control", "container", "context_management", "diagnostics",
    "inference_geo", "max_tokens", "mcp_servers", "messages", "metadata", "model",
    "output_config", "output_format", "service_tier", "speed", "stop_sequences", "stream",
    "system", "temperature", "thinking", "tool_choice", "tools", "top_k", "top_p",
))
"""The fields of an Anthropic Messages request body (with Bedrock's and Vertex's
``anthropic_version`` and the beta fields)."""

# Reported when writing an OpenAI request; ``top_k`` stays a vendor extension (written as it is).
_ANTHROPIC_ONLY = ANTHROPIC_KEYS - CHAT_KEYS - RESPONSES_KEYS - {"top_k"}

# Values of a field both APIs name that only Anthropic takes: reported in an OpenAI request.
_ANTHROPIC_VALUES = {"service_tier": frozenset(("standard_only",))}

_DATED_TOOL = re.compile(r"_\d{8}$")
"""Anthropic's own tools have a dated type (``web_search_20250305``); OpenAI's do not."""

_ANTHROPIC_FUNCTION_KEYS = ("name", "description", "input_schema", "strict")

# What each format's request writes itself from the options (never copied from ``extra``).
_OWN_FIELDS = {
    "chat": frozenset((
        "model", "messages", "tools", "tool_choice", "parallel_tool_calls", "temperature",
        "top_p", "max_completion_tokens", "max_tokens", "reasoning_effort", "stop", "seed",
        "frequency_penalty", "presence_penalty",
    )),
    "responses": frozenset((
        "model", "input", "instructions", "tools", "tool_choice", "parallel_tool_calls",
        "temperature", "top_p", "max_output_tokens", "reasoning",
    )),
}


def request_messages(body: Any) -> tuple[dict[str, Any], list[Any]]:
    """A request body of a format with a ``messages`` list, as a dict, and that list.

    Raises:
        FormatError: the body is not an object or has no ``messages`` list; the message
            names ``request`` or ``messages``.
    """
    plain = as_plain(body, "request")
    if type(plain) is not dict:
        raise FormatError.mismatch("request", "a request object", describe_type(plain))
    messages = plain.get("messages")
    if type(messages) is not list:
        if "messages" not in plain:
            raise FormatError("missing 'messages'", path="request")
        raise FormatError.mismatch("messages", "a list of messages", describe_type(messages))
    return plain, messages


def options_from(fields: dict[str, Any], renamed: dict[str, str]) -> ChatOptions | None:
    """Build the options of a request from its fields (the conversation's taken out).

    ``renamed`` maps a wire name to the option it fills (``max_output_tokens`` ->
    ``max_tokens``); other fields named like an option fill it, the rest go to ``extra``.
    Returns ``None`` when there is nothing to keep.

    Raises:
        FormatError: a field holds a value of the wrong type; the message names the field.
    """
    if not fields:
        return None
    named: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    for key, value in fields.items():
        option = renamed.get(key, key)
        if option in _OPTION_NAMES and option not in named:
            named[option] = value
        else:
            extra[key] = value
    try:
        return ChatOptions(**named, extra=extra)
    except SemanticChatError as error:
        wire = _wire_name(error.path, renamed)
        raise FormatError(error.detail, path=wire) from None


_OPTION_NAMES = frozenset(
    ("model", "tools", "tool_choice", "parallel_tool_calls", "temperature", "top_p",
     "max_tokens", "reasoning_effort", "stop", "seed", "frequency_penalty", "presence_penalty")
)


def _wire_name(path: str, renamed: dict[str, str]) -> str:
    head, dot, rest = path.partition(".")
    bracket = head.find("[")
    name, tail = (head, "") if bracket < 0 else (head[:bracket], head[bracket:])
    for wire, option in renamed.items():
        if option == name:
            name = wire
    return f"{name}{tail}{dot}{rest}"


def write_tools(
    tools: list[dict[str, Any]],
    nested: bool,
    format_name: str,
    on_unsupported: OnUnsupported | None,
) -> list[dict[str, Any]]:
    """Tool definitions in one format's shape: ``nested`` for Chat Completions, else flat.

    A function or custom tool is converted; a hosted tool (``web_search`` ...) goes to a
    Responses request as it is and is reported for a Chat Completions one.

    Raises:
        UnsupportedContentError: a tool is left out and ``on_unsupported`` is ``"error"``.
    """
    written = []
    for index, tool in enumerate(tools):
        where = f"options.tools[{index}]"
        if is_anthropic_tool(tool):
            converted = _from_anthropic_tool(tool, nested, format_name, on_unsupported, where)
        else:
            converted = _convert_tool(tool, nested)
        if converted is None:
            kind = json.dumps(tool.get("type"), ensure_ascii=False)
            unsupported_field(on_unsupported, format_name, where, f"a {kind} tool")
            continue
        written.append(converted)
    return written


def is_anthropic_tool(tool: dict[str, Any]) -> bool:
    """Whether a tool definition is in Anthropic's shape.

    A client tool (``{"name", "input_schema"}``, typed ``custom`` or not) or one of
    Anthropic's own tools, whose type is dated (``web_search_20250305``).
    """
    kind = tool.get("type")
    if kind is None or kind == "custom":
        return "input_schema" in tool
    return isinstance(kind, str) and _DATED_TOOL.search(kind) is not None


def _from_anthropic_tool(
    tool: dict[str, Any],
    nested: bool,
    format_name: str,
    on_unsupported: OnUnsupported | None,
    where: str,
) -> dict[str, Any] | None:
    """An Anthropic client tool as an OpenAI function tool; ``None`` for Anthropic's own tools.

    Its fields OpenAI has no place for (``cache_control``, ``defer_loading`` ...) are reported.
    """
    if "input_schema" not in tool or tool.get("type") not in (None, "custom"):
        return None
    function = {"name": tool.get("name")}
    if "description" in tool:
        function["description"] = tool["description"]
    function["parameters"] = tool["input_schema"]
    if "strict" in tool:
        function["strict"] = tool["strict"]
    for key in tool:
        if key not in _ANTHROPIC_FUNCTION_KEYS and key != "type":
            unsupported_field(
                on_unsupported, format_name, f"{where}.{key}", f"the tool field {key!r}"
            )
    if nested:
        return {"type": "function", "function": function}
    return {"type": "function", **function}


def _convert_tool(tool: dict[str, Any], nested: bool) -> dict[str, Any] | None:
    kind = tool.get("type")
    if kind not in ("function", "custom"):
        return None if nested else dict(tool)
    body = tool.get(kind)
    if isinstance(body, dict):  # the nested (Chat Completions) shape
        extra = {key: value for key, value in tool.items() if key not in ("type", kind)}
        if nested:
            return dict(tool)
        return {"type": kind, **body, **extra}
    if not nested:
        return dict(tool)
    return {"type": kind, kind: {key: value for key, value in tool.items() if key != "type"}}


def write_tool_choice(
    choice: str | dict[str, Any], nested: bool, format_name: str,
    on_unsupported: OnUnsupported | None,
) -> str | dict[str, Any] | None:
    """A ``tool_choice`` in one format's shape, or ``None`` when it is left out (reported).

    Raises:
        UnsupportedContentError: it is left out and ``on_unsupported`` is ``"error"``.
    """
    if isinstance(choice, str):
        return choice
    kind = choice.get("type")
    if kind in ("function", "custom"):
        body = choice.get(kind)
        if isinstance(body, dict):
            return dict(choice) if nested else {"type": kind, **body}
        if not nested:
            return dict(choice)
        name = {key: value for key, value in choice.items() if key != "type"}
        return {"type": kind, kind: name}
    if kind == "allowed_tools":
        body = choice.get("allowed_tools")
        if isinstance(body, dict):  # Chat Completions nests mode and tools
            if nested:
                return dict(choice)
            tools = [_choice_tool(tool, nested=False) for tool in body.get("tools", [])]
            return {"type": kind, **body, "tools": tools}
        if not nested:
            return dict(choice)
        tools = [_choice_tool(tool, nested=True) for tool in choice.get("tools", [])]
        inner = {key: value for key, value in choice.items() if key != "type"}
        return {"type": kind, kind: {**inner, "tools": tools}}
    if not nested:
        return dict(choice)
    shown = json.dumps(kind, ensure_ascii=False)
    unsupported_field(on_unsupported, format_name, "options.tool_choice", f"a {shown} tool choice")
    return None


def _choice_tool(tool: Any, nested: bool) -> Any:
    if not isinstance(tool, dict):
        return tool
    converted = write_tool_choice(tool, nested, "", "drop")
    return tool if converted is None else converted


def write_extra(  # noqa: PLR0917 - one call per request writer
    body: dict[str, Any],
    options: ChatOptions,
    own: str,
    format_name: str,
    on_unsupported: OnUnsupported | None,
    skip: Callable[[str], bool] = lambda _: False,
) -> None:
    """Copy the fields of ``options.extra`` a request of format ``own`` can carry into ``body``.

    ``own`` is ``"chat"`` or ``"responses"``. A field only the other format (or Anthropic
    Messages) has is reported, and so is a shared field holding a value only Anthropic takes
    (``service_tier: "standard_only"``); a field none names is copied; a field the writer sets
    itself, or one ``skip`` says the writer used, is not copied.

    Raises:
        UnsupportedContentError: a field is left out and ``on_unsupported`` is ``"error"``.
    """
    keys, other = (CHAT_KEYS, RESPONSES_KEYS) if own == "chat" else (RESPONSES_KEYS, CHAT_KEYS)
    for key, value in options.extra.items():
        if skip(key):
            continue
        where = f"options.extra[{json.dumps(key, ensure_ascii=False)}]"
        foreign = key in other or key in _ANTHROPIC_ONLY
        if key in _OWN_FIELDS[own] or (key not in keys and foreign):
            unsupported_field(on_unsupported, format_name, where, f"the request field {key!r}")
            continue
        if value in _ANTHROPIC_VALUES.get(key, ()):
            what = f"the request field {key!r} with Anthropic's value {value!r}"
            unsupported_field(on_unsupported, format_name, where, what)
            continue
        body[key] = value


def report_options_metadata(
    options: ChatOptions, hints: str, format_name: str, on_unsupported: OnUnsupported | None
) -> dict[str, Any]:
    """Return this format's hints in the options' metadata; report every other key as lost.

    Raises:
        UnsupportedContentError: such a key and ``on_unsupported`` is ``"error"``.
    """
    metadata = options.metadata or {}
    for key in metadata:
        if key not in HINT_KEYS:
            where = f"options.metadata[{json.dumps(key, ensure_ascii=False)}]"
            unsupported_field(on_unsupported, format_name, where, "metadata")
    found = metadata.get(hints)
    return found if isinstance(found, dict) else {}

