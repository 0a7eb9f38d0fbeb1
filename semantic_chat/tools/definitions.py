"""Function tool definitions in each wire format: written from schemas, read back into them.

One table (`TOOL_FORMATS`, keyed by format name) says how each format writes and reads a
function tool, rather than a pair of functions in each format package: a definition is written
from a `FunctionSchema`, which the format packages may not import (they sit below ``tools``),
and the four shapes are short enough to read side by side. The readers use the shape tests of
the formats' request readers (`semantic_chat.formats.request_fields`), so what ``from_request``
keeps in `ChatOptions.tools` is what `ToolSet.from_definitions` reads. `register_tool_format`
adds the definitions of another format.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from ..errors import (
    FormatError,
    InvalidTypeError,
    InvalidValueError,
    SemanticChatError,
    describe_type,
)
from ..formats.request_fields import gemini_functions, is_anthropic_tool, is_gemini_tool
from ..formats.wire import OnUnsupported, as_plain, unsupported_field
from ..validation import check_text
from .schema import FunctionSchema

__all__ = [
    "TOOL_FORMATS",
    "ToolFormat",
    "read_definitions",
    "register_tool_format",
    "relocate",
    "write_definitions",
]

_SOURCE = "ToolSet"
"""Who reports what `ToolSet.from_definitions` cannot read (``ToolSet cannot carry ...``)."""


def relocate(error: SemanticChatError, field: str, path: str) -> SemanticChatError:
    """``error`` at ``path`` in place of ``field`` (``parameters.type`` as ``schema.type``)."""
    if error.path == field or error.path.startswith((f"{field}.", f"{field}[")):
        return error.with_path(path + error.path[len(field):])
    return error


@attrs.frozen(slots=True, weakref_slot=False)
class ToolFormat:
    """How one wire format writes and reads function tool definitions."""

    label: str
    """The format's name in messages (``OpenAI Chat Completions``)."""

    write: Callable[[Sequence[FunctionSchema], OnUnsupported | None], list[dict[str, Any]]]
    """The ``tools`` list of a request for these schemas."""

    read: Callable[[dict[str, Any], str, OnUnsupported | None], list[FunctionSchema]]
    """The schemas of one definition (at the path given); raises `FormatError` when the
    definition is not in this format's shape. A tool of the provider's own (``web_search``)
    is reported as ``on_unsupported`` says and gives none."""

    names: re.Pattern[str] | None = None
    """The tool names the format takes (matched whole); ``None`` for any `FunctionSchema`
    takes."""

    names_rule: str = ""
    """``names`` in words, for the error naming a tool the format refuses."""


_OPENAI_NAMES = re.compile(r"[A-Za-z0-9_-]{1,64}")
_OPENAI_RULE = "1 to 64 letters, digits, '_' or '-'"
_GEMINI_NAMES = re.compile(r"[A-Za-z_][A-Za-z0-9_.:-]{0,127}")
_GEMINI_RULE = (
    "1 to 128 letters, digits, '_', '.', ':' or '-', starting with a letter or '_'"
)


def _write_chat(
    schemas: Sequence[FunctionSchema], _: OnUnsupported | None
) -> list[dict[str, Any]]:
    written = []
    for schema in schemas:
        function: dict[str, Any] = {"name": schema.name}
        if schema.description is not None:
            function["description"] = schema.description
        function["parameters"] = schema.parameters
        if schema.strict:
            function["strict"] = True
        written.append({"type": "function", "function": function})
    return written


def _write_responses(
    schemas: Sequence[FunctionSchema], _: OnUnsupported | None
) -> list[dict[str, Any]]:
    written = []
    for schema in schemas:
        tool: dict[str, Any] = {"type": "function", "name": schema.name}
        if schema.description is not None:
            tool["description"] = schema.description
        # strict is required in Responses, where leaving it out means strict
        tool["parameters"] = schema.parameters
        tool["strict"] = schema.strict
        written.append(tool)
    return written


def _write_anthropic(
    schemas: Sequence[FunctionSchema], _: OnUnsupported | None
) -> list[dict[str, Any]]:
    written = []
    for schema in schemas:
        tool: dict[str, Any] = {"name": schema.name}
        if schema.description is not None:
            tool["description"] = schema.description
        tool["input_schema"] = schema.parameters
        if schema.strict:
            tool["strict"] = True
        written.append(tool)
    return written


def _write_gemini(
    schemas: Sequence[FunctionSchema], on_unsupported: OnUnsupported | None
) -> list[dict[str, Any]]:
    declarations = []
    for schema in schemas:
        declaration: dict[str, Any] = {"name": schema.name}
        if schema.description is not None:
            declaration["description"] = schema.description
        declaration["parameters_json_schema"] = schema.parameters
        if schema.strict:
            where = f"tools[{json.dumps(schema.name, ensure_ascii=False)}].strict"
            unsupported_field(on_unsupported, "Gemini", where, "a strict schema")
        declarations.append(declaration)
    return [{"function_declarations": declarations}] if declarations else []


def _read_schema(
    function: Mapping[str, Any], where: str, schema_key: str, strict: Any
) -> FunctionSchema:
    """A `FunctionSchema` of ``{"name", "description"?, <schema_key>?}`` read at ``where``."""
    name = function.get("name")
    if type(name) is not str:
        if "name" not in function:
            raise FormatError("missing 'name'", path=where)
        raise FormatError.mismatch(f"{where}.name", "a str", describe_type(name))
    description = function.get("description")
    if description is not None and type(description) is not str:
        raise FormatError.mismatch(
            f"{where}.description", "a str or null", describe_type(description)
        )
    parameters = function.get(schema_key)
    if parameters is None:
        parameters = {"type": "object", "properties": {}}
    elif type(parameters) is not dict:
        raise FormatError.mismatch(
            f"{where}.{schema_key}", "a JSON Schema object", describe_type(parameters)
        )
    if strict is not None and type(strict) is not bool:
        raise FormatError.mismatch(f"{where}.strict", "a bool or null", describe_type(strict))
    try:
        return FunctionSchema(
            name=name, description=description, parameters=parameters, strict=strict is True
        )
    except SemanticChatError as error:  # a name providers refuse, parameters of no object
        moved = relocate(error, "parameters", schema_key)
        located = FormatError(
            moved.detail, path=f"{where}.{moved.path}", expected=moved.expected, got=moved.got
        )
        raise located from None


def _hosted(
    tool: dict[str, Any], where: str, label: str, on_unsupported: OnUnsupported | None
) -> list[FunctionSchema]:
    """Report a provider's own tool (``web_search``), which has no function to call."""
    kind = json.dumps(tool.get("type"), ensure_ascii=False)
    unsupported_field(
        on_unsupported, _SOURCE, where, f"the {label} tool of type {kind} (it has no function)"
    )
    return []


_CHAT_TOOL_FIELDS = frozenset(("type", "function"))
_CHAT_FUNCTION_FIELDS = frozenset(("name", "description", "parameters", "strict"))
_RESPONSES_FIELDS = frozenset(("type", "name", "description", "parameters", "strict"))
_ANTHROPIC_FIELDS = frozenset(("type", "name", "description", "input_schema", "strict"))
"""The keys of a function tool a `FunctionSchema` keeps, per shape; the others are reported."""


def _report_other_fields(
    tool: dict[str, Any],
    where: str,
    kept: frozenset[str],
    label: str,
    on_unsupported: OnUnsupported | None,
) -> None:
    """Report each key of ``tool`` outside ``kept`` (Anthropic's ``cache_control``), as a loss.

    A `FunctionSchema` has no place for them, so `ToolSet.definitions` cannot write them
    back; a null value loses nothing and is passed over.
    """
    for key, value in tool.items():
        if key not in kept and value is not None:
            what = f"the {label} tool field {key!r}"
            unsupported_field(on_unsupported, _SOURCE, f"{where}.{key}", what)


def _read_openai(
    tool: dict[str, Any], where: str, on_unsupported: OnUnsupported | None, nested: bool
) -> list[FunctionSchema]:
    label = "OpenAI Chat Completions" if nested else "OpenAI Responses"
    kind = tool.get("type")
    if type(kind) is not str:
        shape = (
            '{"type": "function", "function": {...}}' if nested
            else '{"type": "function", "name", "parameters"}'
        )
        raise FormatError(f"expected a {label} tool definition ({shape})", path=where)
    if kind != "function":
        return _hosted(tool, where, label, on_unsupported)
    body = tool.get("function")
    if nested:
        if type(body) is not dict:
            raise FormatError.mismatch(
                f"{where}.function", "a function object", describe_type(body)
            )
        schema = _read_schema(body, f"{where}.function", "parameters", body.get("strict"))
        _report_other_fields(tool, where, _CHAT_TOOL_FIELDS, label, on_unsupported)
        _report_other_fields(
            body, f"{where}.function", _CHAT_FUNCTION_FIELDS, label, on_unsupported
        )
        return [schema]
    if body is not None:
        raise FormatError(
            "a Chat Completions definition (nested 'function'), expected the flat Responses "
            "shape", path=f"{where}.function",
        )
    schema = _read_schema(tool, where, "parameters", tool.get("strict"))
    _report_other_fields(tool, where, _RESPONSES_FIELDS, label, on_unsupported)
    return [schema]


def _read_chat(
    tool: dict[str, Any], where: str, on_unsupported: OnUnsupported | None
) -> list[FunctionSchema]:
    return _read_openai(tool, where, on_unsupported, nested=True)


def _read_responses(
    tool: dict[str, Any], where: str, on_unsupported: OnUnsupported | None
) -> list[FunctionSchema]:
    return _read_openai(tool, where, on_unsupported, nested=False)


def _read_anthropic(
    tool: dict[str, Any], where: str, on_unsupported: OnUnsupported | None
) -> list[FunctionSchema]:
    if not is_anthropic_tool(tool):
        raise FormatError(
            'expected an Anthropic tool definition ({"name", "description", "input_schema"})',
            path=where,
        )
    if "input_schema" not in tool or tool.get("type") not in (None, "custom"):
        return _hosted(tool, where, "Anthropic", on_unsupported)
    schema = _read_schema(tool, where, "input_schema", tool.get("strict"))
    _report_other_fields(tool, where, _ANTHROPIC_FIELDS, "Anthropic", on_unsupported)
    return [schema]


def _read_gemini(
    tool: dict[str, Any], where: str, on_unsupported: OnUnsupported | None
) -> list[FunctionSchema]:
    if not is_gemini_tool(tool):
        raise FormatError(
            'expected a Gemini tool ({"function_declarations": [...]})', path=where
        )
    return [
        _read_schema(function, where, "parameters", None)
        for function in gemini_functions(tool, where, _SOURCE, on_unsupported)
    ]


TOOL_FORMATS: dict[str, ToolFormat] = {
    "openai-chat": ToolFormat(
        "OpenAI Chat Completions", _write_chat, _read_chat, _OPENAI_NAMES, _OPENAI_RULE
    ),
    "openai-responses": ToolFormat(
        "OpenAI Responses", _write_responses, _read_responses, _OPENAI_NAMES, _OPENAI_RULE
    ),
    "anthropic": ToolFormat(
        "Anthropic", _write_anthropic, _read_anthropic, _OPENAI_NAMES, _OPENAI_RULE
    ),
    "gemini": ToolFormat("Gemini", _write_gemini, _read_gemini, _GEMINI_NAMES, _GEMINI_RULE),
}
"""Format name -> how that format writes and reads function tool definitions.

=====================  =============================================================
``openai-chat``        ``{"type": "function", "function": {"name", "description",
                       "parameters", "strict"?}}`` (``strict`` only when true)
``openai-responses``   ``{"type": "function", "name", "description", "parameters",
                       "strict"}`` (``strict`` always: Responses requires it)
``anthropic``          ``{"name", "description", "input_schema", "strict"?}``
``gemini``             one ``{"function_declarations": [{"name", "description",
                       "parameters_json_schema"}]}`` (no strict mode: reported)
=====================  =============================================================

Names: OpenAI's and Anthropic's 1 to 64 letters, digits, ``_`` or ``-``; Gemini's 1 to 128
of those, ``.`` and ``:``, starting with a letter or ``_``. A `FunctionSchema` takes any
name one of them does, so definitions read from one format may be refused by another.
"""


def register_tool_format(name: str, tool_format: ToolFormat) -> None:
    """Teach `ToolSet.definitions` and `ToolSet.from_definitions` another format's tools.

    Raises:
        InvalidTypeError: ``name`` is not a str or ``tool_format`` not a `ToolFormat`.
        InvalidValueError: ``name`` already has definitions.
    """
    name = check_text(name, "name")
    if not isinstance(tool_format, ToolFormat):
        raise InvalidTypeError.mismatch(
            "tool_format", "a ToolFormat", describe_type(tool_format)
        )
    if name in TOOL_FORMATS:
        raise InvalidValueError(f"{name!r} already has tool definitions", path="name")
    TOOL_FORMATS[name] = tool_format


def _tool_format(name: Any) -> ToolFormat:
    """The `ToolFormat` of ``name``.

    Raises:
        InvalidTypeError: ``name`` is not a str.
        FormatError: no format of that name has tool definitions; the message lists those
            that do.
    """
    if type(name) is not str:
        raise InvalidTypeError.mismatch("format", "a format name (str)", describe_type(name))
    found = TOOL_FORMATS.get(name)
    if found is None:
        raise FormatError(
            f"no tool definitions for format {name!r}: expected one of "
            f"{', '.join(sorted(TOOL_FORMATS))}",
            path="format",
        )
    return found


def _shape_of(tool: dict[str, Any]) -> str:
    """The format a definition's shape says it is in (Chat Completions' nests ``function``)."""
    if is_gemini_tool(tool):
        return "gemini"
    if is_anthropic_tool(tool):
        return "anthropic"
    return "openai-chat" if isinstance(tool.get("function"), dict) else "openai-responses"


def write_definitions(
    schemas: Sequence[FunctionSchema], format: str, on_unsupported: OnUnsupported | None = None
) -> list[dict[str, Any]]:
    """The ``tools`` parameter of a request in ``format`` offering these schemas.

    Raises:
        InvalidTypeError: ``format`` is not a str.
        FormatError: ``format`` has no tool definitions (the message lists those that do),
            or it takes no tool of one schema's name (``tools["maps.search"].name``: the
            rule is in the message). A tool cannot be sent under another name, as its calls
            would come back under that one, so there is no leaving it out quietly.
        UnsupportedContentError: what the format cannot carry (a strict schema for Gemini),
            when ``on_unsupported`` is ``"error"``.
    """
    tool_format = _tool_format(format)
    names = tool_format.names
    if names is not None:
        for schema in schemas:
            if not names.fullmatch(schema.name):
                shown = json.dumps(schema.name, ensure_ascii=False)
                raise FormatError(
                    f"{tool_format.label} takes no tool named {shown}: its tool names are "
                    f"{tool_format.names_rule}",
                    path=f"tools[{shown}].name",
                )
    return tool_format.write(schemas, on_unsupported)


def read_definitions(
    payload: Any, format: str | None = None, on_unsupported: OnUnsupported | None = None
) -> list[tuple[str, FunctionSchema]]:
    """The schemas of the function tools in ``payload``, each with where it was read.

    ``payload`` is a ``tools`` list or a request body holding one (a Gemini SDK request's in
    ``config``); SDK objects are read as their dicts. Without ``format`` each definition's
    shape says its format. A provider's own tools are reported and left out.

    Raises:
        InvalidTypeError: ``format`` is not a str or ``None``.
        FormatError: no tools list, a definition not in the format's shape, or a field of
            the wrong type; the message names it (``tools[1].function.name``).
        UnsupportedContentError: a tool is left out and ``on_unsupported`` is ``"error"``.
    """
    chosen = None if format is None else _tool_format(format)
    read = []
    for index, definition in enumerate(_definitions_list(payload)):
        where = f"tools[{index}]"
        plain = as_plain(definition, where)
        if type(plain) is not dict:
            raise FormatError.mismatch(where, "a tool definition object", describe_type(plain))
        reader = chosen if chosen is not None else TOOL_FORMATS[_shape_of(plain)]
        read += [(where, schema) for schema in reader.read(plain, where, on_unsupported)]
    return read


def _definitions_list(payload: Any) -> list[Any]:
    """The definitions in ``payload``: a list, or a request body's ``tools``.

    Raises:
        FormatError: no list of definitions is there.
    """
    plain = payload if isinstance(payload, list) else as_plain(payload, "payload")
    if isinstance(plain, list):
        return plain
    if isinstance(plain, dict):
        config = plain.get("config")
        if "tools" not in plain and isinstance(config, dict) and "tools" in config:
            plain, where = config, "payload.config.tools"
        else:
            where = "payload.tools"
        tools = plain.get("tools")
        if isinstance(tools, list):
            return tools
        if "tools" not in plain:
            raise FormatError("no 'tools' in the request body", path="payload")
        raise FormatError.mismatch(where, "a list of tool definitions", describe_type(tools))
    raise FormatError.mismatch(
        "payload", "a list of tool definitions or a request body", describe_type(plain)
    )
