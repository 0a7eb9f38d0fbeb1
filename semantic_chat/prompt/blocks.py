"""The pieces every prompt string is made of, in cleanlab's exact spelling.

Role prefixes, the ``<tool_call>`` / ``<tool_response>`` JSON blocks (``json.dumps(...,
indent=2)`` byte for byte, written without building the dict), the tools system message, and
arguments text read as JSON. Both renderings use them: the readable one over a `ChatHistory`
(`strings`) and the cleanlab-exact one over the dicts cleanlab reads (`exact`).
"""

from __future__ import annotations

import json
import marshal
import warnings
from collections.abc import Iterable, Mapping
from typing import Any

from ..errors import InvalidTypeError, describe_type

__all__ = [
    "ASSISTANT",
    "SYSTEM_ROLES",
    "TOOL",
    "call_block",
    "indented",
    "parse_arguments",
    "prefix",
    "quote",
    "reply_call_block",
    "response_block",
    "tools_texts",
]

SYSTEM_ROLES = frozenset(("system", "developer"))
ASSISTANT = "Assistant: "
TOOL = "Tool: "

_TOOLS_HEAD = (
    "You are an AI Assistant that can call provided tools (a.k.a. functions). "
    "The set of available tools is provided to you as function signatures within "
    "<tools> </tools> XML tags. "
    "You may call one or more of these functions to assist with the user query. "
    "If the provided functions are not helpful/relevant, "
    "then just respond in natural conversational language. "
    "After you choose to call a function, you will be provided with the function's results "
    "within <tool_response> </tool_response> XML tags.\n\n<tools>\n"
)
_TOOLS_TAIL = (
    "\n</tools>\n\n"
    "For each function call return a JSON object, with the following pydantic model json "
    "schema:\n{'name': <function-name>, 'arguments': <args-dict>}\n"
    "Each function call should be enclosed within <tool_call> </tool_call> XML tags.\n"
    "Example:\n<tool_call>\n{'name': <function-name>, 'arguments': <args-dict>}\n</tool_call>\n"
    "Note: Function calls and their results may optionally include a call_id, which should be "
    "ignored."
)
_FILE_SEARCH_TOOL = {
    "type": "function",
    "name": "file_search",
    "description": "Search user-uploaded documents for relevant passages.",
    "parameters": {
        "type": "object",
        "properties": {
            "queries": {
                "type": "array",
                "items": {"type": "string"},
                "description": "Search queries to run against the document index.",
            },
        },
        "required": ["queries"],
    },
}

_dumps_compact = json.JSONEncoder(separators=(",", ":")).encode
_dumps_indented = json.JSONEncoder(indent=2).encode
_decoder = json.JSONDecoder()
_loads = _decoder.decode
_scan: Any = _decoder.scan_once  # type: ignore[attr-defined]  # set by JSONDecoder
quote: Any = getattr(json.encoder, "c_encode_basestring_ascii", None) or (
    json.encoder.py_encode_basestring_ascii
)
_CONSTANTS = {None: "null", True: "true", False: "false"}


def indented(value: Any, newline: str = "\n") -> str:
    """``json.dumps(value, indent=2)`` with every line after the first indented by ``newline``.

    The standard library writes indented JSON with its pure-Python encoder, the slowest part of
    a prompt; this writes the same text for the values JSON reading gives (str, int, float,
    bool, None, list, dict with str keys) and leaves any other value to it.
    """
    kind = type(value)
    if kind is str:
        return str(quote(value))
    if kind is dict:
        if not value:
            return "{}"
        inner = newline + "  "
        parts = []
        for key, item in value.items():
            if type(key) is not str:
                return _dumps_indented(value).replace("\n", newline)
            kind = type(item)
            # f-strings: one string built from the pieces, not one for each ``+``
            if kind is str:
                parts.append(f"{inner}{quote(key)}: {quote(item)}")
            elif kind is int:
                parts.append(f"{inner}{quote(key)}: {int.__repr__(item)}")
            elif kind is float and item - item == 0.0:  # finite
                parts.append(f"{inner}{quote(key)}: {float.__repr__(item)}")
            elif item is None or kind is bool:
                parts.append(f"{inner}{quote(key)}: {_CONSTANTS[item]}")
            else:
                parts.append(f"{inner}{quote(key)}: {indented(item, inner)}")
        return f"{{{','.join(parts)}{newline}}}"
    if kind is list:
        if not value:
            return "[]"
        inner = newline + "  "
        return f"[{','.join([f'{inner}{indented(item, inner)}' for item in value])}{newline}]"
    if kind is int:
        return int.__repr__(value)
    if kind is float and value - value == 0.0:  # finite: NaN and infinities are left to json
        return float.__repr__(value)
    if value is None or kind is bool:
        return _CONSTANTS[value]
    return _dumps_indented(value).replace("\n", newline)


def prefix(label: str, previous: Any) -> str:
    """Cleanlab's prefix for a turn of ``label`` (a role, or the name standing for it).

    Nothing for a system turn after a turn of a system role (``previous``).
    """
    if label in SYSTEM_ROLES:
        return "" if previous in SYSTEM_ROLES else "System: "
    if label == "user":
        return "User: "
    if label == "assistant":
        return ASSISTANT
    return label.capitalize() + ": "


def call_block(name: str, arguments: Any, call_id: Any) -> str:
    """A ``<tool_call>`` block: name, arguments and call id, as cleanlab's JSON writes them."""
    name = quote(name) if type(name) is str else indented(name, "\n  ")
    call_id = quote(call_id) if type(call_id) is str else indented(call_id, "\n  ")
    arguments = indented(arguments, "\n  ")
    return (  # adjacent f-strings: one string, built once
        f'<tool_call>\n{{\n  "name": {name},\n  "arguments": {arguments},'
        f'\n  "call_id": {call_id}\n}}\n</tool_call>'
    )


def response_block(name: str, call_id: Any, output: Any) -> str:
    """A ``<tool_response>`` block: name, call id and output, as cleanlab's JSON writes them."""
    name = quote(name) if type(name) is str else indented(name, "\n  ")
    call_id = quote(call_id) if type(call_id) is str else indented(call_id, "\n  ")
    output = quote(output) if type(output) is str else indented(output, "\n  ")
    return (
        f'<tool_response>\n{{\n  "name": {name},\n  "call_id": {call_id},'
        f'\n  "output": {output}\n}}\n</tool_response>'
    )


def reply_call_block(name: Any, arguments: Any) -> str:
    """A reply's ``<tool_call>`` block (``form_response_string``): name and arguments, no id."""
    name, arguments = indented(name, "\n  "), indented(arguments, "\n  ")
    return f'<tool_call>\n{{\n  "name": {name},\n  "arguments": {arguments}\n}}\n</tool_call>'


def _tool_list(tools: Any) -> list[Mapping[str, Any]]:
    """Flatten the tools argument into OpenAI-like definitions (Gemini groups are opened)."""
    if tools is None:
        return []
    if isinstance(tools, Mapping):
        tools = [tools]
    if isinstance(tools, (str, bytes)) or not isinstance(tools, Iterable):
        raise InvalidTypeError.mismatch("tools", "a list of tool definitions", describe_type(tools))
    flat: list[Mapping[str, Any]] = []
    for index, tool in enumerate(tools):
        if not isinstance(tool, Mapping):
            raise InvalidTypeError.mismatch(
                f"tools[{index}]", "a tool definition (a dict)", describe_type(tool)
            )
        declarations = tool.get("function_declarations", tool.get("functionDeclarations"))
        if declarations is not None:
            for inner, declaration in enumerate(declarations):
                if not isinstance(declaration, Mapping) or "name" not in declaration:
                    raise InvalidTypeError.mismatch(
                        f"tools[{index}].function_declarations[{inner}]",
                        "a function declaration with a name",
                        describe_type(declaration),
                    )
                flat.append(declaration)
            continue
        function = tool.get("function")
        if (isinstance(function, Mapping) and "name" in function) or "name" in tool:
            flat.append(tool)
        elif "type" in tool:
            flat.append(tool)  # an OpenAI built-in tool: file_search is written, others left out
        else:
            raise InvalidTypeError.mismatch(
                f"tools[{index}]", "a tool definition with a name", "a dict without one"
            )
    return flat


_TOOLS_CACHE: dict[bytes, tuple[bool, str | None, str | None]] = {}
_TOOLS_CACHE_SIZE = 64


def tools_texts(tools: Any) -> tuple[bool, str | None, str | None]:
    """Whether the tools are Responses tools, and their system message in either rendering.

    An agent passes the same definitions on every call, and writing them is most of a short
    prompt's cost: the texts are kept, keyed by the definitions' ``marshal`` bytes, which
    tell apart every value (``1``, ``1.0`` and ``True`` too), so a kept text is exact.
    """
    try:
        key: bytes | None = marshal.dumps(tools)
    except ValueError:  # not plain data (a Mapping subclass, an SDK object): not kept
        key = None
    if key is not None:
        kept = _TOOLS_CACHE.get(key)
        if kept is not None:
            return kept
    tool_list = _tool_list(tools)
    if not tool_list:
        return False, None, None
    flat = any(_is_flat_tool(tool) for tool in tool_list)
    texts = (flat, _tools_text(tool_list, False), _tools_text(tool_list, True))
    if key is not None and not any(tool.get("type") == "web_search" for tool in tool_list):
        if len(_TOOLS_CACHE) >= _TOOLS_CACHE_SIZE:
            _TOOLS_CACHE.clear()
        _TOOLS_CACHE[key] = texts
    return texts


def _is_flat_tool(tool: Mapping[str, Any]) -> bool:
    """Say whether ``tool`` is a Responses tool, the shape that makes cleanlab use Responses."""
    return "type" in tool and "name" in tool and "function" not in tool


def _tool_fields(tool: Mapping[str, Any]) -> tuple[str, Any, Any, Any] | None:
    """Return (name, description, parameters, strict) of a function tool, None for built-ins."""
    function = tool.get("function")
    if isinstance(function, Mapping):
        tool = function
    elif "name" not in tool:
        return None
    parameters = tool.get("parameters", _MISSING)
    if parameters is _MISSING:
        parameters = tool.get("input_schema", tool.get("parametersJsonSchema", _MISSING))
        if parameters is _MISSING:
            parameters = tool.get("parameters_json_schema", _MISSING)
    return str(tool["name"]), tool.get("description", _MISSING), parameters, tool.get("strict")


_MISSING: Any = object()


def _tools_text(tools: list[Mapping[str, Any]], responses: bool) -> str:
    """Write the tools system message: one compact JSON line a tool, in the rendering's shape."""
    lines = []
    for tool in tools:
        fields = _tool_fields(tool)
        if fields is None:
            kind = tool.get("type")
            if responses and kind == "file_search":
                lines.append(_dumps_compact(_FILE_SEARCH_TOOL))
            elif responses and kind == "web_search":
                warnings.warn(
                    "a web_search tool is left out of the prompt, as cleanlab does without "
                    "trafilatura installed",
                    UserWarning,
                    stacklevel=3,
                )
            continue
        name, description, parameters, strict = fields
        spec: dict[str, Any] = {"name": name}
        if description is not _MISSING:
            spec["description"] = description
        if parameters is not _MISSING:
            spec["parameters"] = parameters
        if responses:
            spec = {"type": "function", **spec, "strict": True if strict is None else strict}
        else:
            spec = {"type": "function", "function": spec}
        lines.append(_dumps_compact(spec))
    return _TOOLS_HEAD + "\n".join(lines) + _TOOLS_TAIL


def parse_arguments(arguments: Any) -> Any:
    """Arguments as JSON: a text parsed (an empty one is ``{}``, one not JSON stays text)."""
    if type(arguments) is str:
        if not arguments:
            return {}
        if arguments[0] == "{":
            # the C scanner alone, without json.loads's two whitespace matches
            try:
                value, end = _scan(arguments, 0)
            except (StopIteration, ValueError):
                value, end = None, -1
            if end == len(arguments) or (end > 0 and not arguments[end:].strip(" \t\n\r")):
                return value
        try:
            return _loads(arguments)
        except ValueError:
            return arguments
    return {} if arguments is None else arguments
