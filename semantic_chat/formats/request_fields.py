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
``extra``: structured output  ``response_format``          ``text.format`` (``json_schema``
                              (``json_schema`` nested)     flat)
``extra``: verbosity          ``verbosity``                ``text.verbosity``
``extra``: stream options     ``stream_options``           ``stream_options`` without
                                                           ``include_usage``
``extra``                     its own fields               its own fields
============================  ===========================  ================================

``response_format`` and ``text`` are converted exactly both ways (`write_extra`); a value
neither shape fits is reported as a field only the other format has. ``include_usage`` is
left out of a Responses request without a word: it asks a Chat Completions stream for a
usage chunk, and a Responses stream always reports usage (in ``response.completed``).

A field of ``extra`` that only the other format has (``include`` in a Chat Completions
request, ``response_format`` in a Responses one), a hosted tool (``web_search``) in a Chat
Completions request, or an option the target has no field for, is reported through
`semantic_chat.formats.wire.unsupported_field`: left out with a warning by default, refused
with ``on_unsupported="error"``, left out silently with ``"drop"``. A field neither format
names (a vendor extension such as ``top_k``) is written as it is.

Options read from an Anthropic Messages request reach these writers too: its tools
(``{"name", "description", "input_schema"}``) become function tools, its own tools (of a
dated type such as ``web_search_20250305``, or ``mcp_toolset``) and the fields only Anthropic
has (``thinking``, ``container`` ... but not ``top_k``, which OpenAI-compatible servers take)
are reported.

So do options read from a Gemini request: each of its ``function_declarations`` becomes a
function tool (`gemini_functions`: ``parameters_json_schema`` as it is, an OpenAPI-subset
``parameters`` schema as JSON Schema), its own tools (``google_search``, ``code_execution``,
``url_context`` ...) and the fields only Gemini has (``safety_settings``,
``response_mime_type``, ``thinking_config``, ``cached_content`` ... but not ``top_k``) are
reported, and so are its values of fields OpenAI names too (a ``logprobs`` count, a
``service_tier`` of ``"standard"``, a list ``response_format``). The other way,
`write_gemini_tools` turns OpenAI and Anthropic function tools into Gemini's
``function_declarations``.

When every tool given is dropped, ``tools`` is left out rather than written empty, and a tool
choice or ``parallel_tool_calls`` left with nothing to refer to is left out and reported
(`orphaned_tool_settings`), as is a choice naming a dropped tool; ``"auto"`` and ``"none"``
go in silence, meaning then what no choice means. An Anthropic ``tool_choice`` object
(``{"type": "none", "disable_parallel_tool_use": true}``) becomes OpenAI's choice, its other
keys reported by path (`anthropic_choice`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from ..errors import FormatError, SemanticChatError, describe_type
from ..options import ChatOptions, ChatOptionsWithUnknownKeys
from .wire import HINT_KEYS, OnUnsupported, as_plain, unsupported_field

__all__ = [
    "ANTHROPIC_KEYS",
    "CHAT_KEYS",
    "GEMINI_KEYS",
    "RESPONSES_KEYS",
    "anthropic_choice",
    "check_tool_names",
    "foreign_value",
    "gemini_functions",
    "is_anthropic_tool",
    "is_gemini_only",
    "is_gemini_tool",
    "options_from",
    "orphaned_tool_settings",
    "report_options_metadata",
    "request_messages",
    "tool_names",
    "write_extra",
    "write_gemini_tools",
    "write_kept_tools",
    "write_tool_choice",
    "write_tool_settings",
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

GEMINI_KEYS = frozenset((
    # a REST generateContent body (Gemini API and Vertex AI)
    "cached_content", "contents", "generation_config", "labels", "model", "model_armor_config",
    "safety_settings", "system_instruction", "tool_config", "tools",
    # the SDK's GenerateContentConfig and the REST GenerationConfig
    "audio_timestamp", "audio_transcription_config", "automatic_continuation",
    "automatic_function_calling", "candidate_count", "continuation_token",
    "enable_affective_dialog", "enable_enhanced_civic_answers", "frequency_penalty",
    "generation_output_config", "http_options", "image_config", "logprobs",
    "max_output_tokens", "media_resolution", "model_selection_config", "presence_penalty",
    "response_format", "response_json_schema", "response_logprobs", "response_mime_type",
    "response_modalities", "response_schema", "routing_config", "seed", "service_tier",
    "should_return_http_response", "speech_config", "stop_sequences", "store",
    "temperature", "thinking_config", "top_k", "top_p", "translation_config",
))
"""The fields of a Gemini ``generateContent`` request in snake_case: the REST body's and
those of the SDK's ``GenerateContentConfig`` and of ``generation_config``, which a request
read from either layout keeps in ``options.extra`` under these names."""

# Reported when writing an OpenAI request; ``top_k`` stays a vendor extension (written as it is).
_ANTHROPIC_ONLY = ANTHROPIC_KEYS - CHAT_KEYS - RESPONSES_KEYS - {"top_k"}

# Reported when writing an OpenAI or Anthropic request; ``top_k`` as above (Anthropic has it).
_GEMINI_ONLY = GEMINI_KEYS - CHAT_KEYS - RESPONSES_KEYS - ANTHROPIC_KEYS - {"top_k"}

_OPENAI_TIERS = frozenset(("auto", "default", "flex", "scale", "priority"))

_DATED_TOOL = re.compile(r"_\d{8}$")
"""Anthropic's own tools have a dated type (``web_search_20250305``); OpenAI's do not."""

_ANTHROPIC_UNDATED = frozenset(("mcp_toolset", "tool_search_tool_bm25", "tool_search_tool_regex"))
"""Anthropic's own tool types that carry no date."""

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


def is_gemini_only(key: str) -> bool:
    """Whether a request field (in ``options.extra``) is one only Gemini has.

    ``safety_settings``, ``response_mime_type``, ``thinking_config`` ... in either spelling
    (``safetySettings``); not ``top_k``, which Anthropic and OpenAI-compatible servers take.
    """
    return key in _GEMINI_ONLY or _snake_key(key) in _GEMINI_ONLY


def foreign_value(key: str, value: Any) -> str | None:
    """The provider whose value a field OpenAI names too holds, when OpenAI takes no such value.

    A ``service_tier`` of ``"standard_only"`` is Anthropic's; one of ``"standard"`` or
    ``"unspecified"``, or in upper case, Gemini's; a ``logprobs`` count (not a flag) and a
    list ``response_format`` are Gemini's. ``None`` for a value OpenAI takes, or may.
    """
    if key == "service_tier" and isinstance(value, str) and value not in _OPENAI_TIERS:
        if value == "standard_only":
            return "Anthropic"
        if value in ("standard", "unspecified") or value != value.lower():
            return "Gemini"
        return None
    gemini = (key == "logprobs" and type(value) is int) or (
        key == "response_format" and type(value) is list
    )
    return "Gemini" if gemini else None


def write_tools(
    tools: list[dict[str, Any]],
    nested: bool,
    format_name: str,
    on_unsupported: OnUnsupported | None,
) -> list[dict[str, Any]]:
    """Tool definitions in one format's shape: ``nested`` for Chat Completions, else flat.

    A function or custom tool is converted; a hosted tool (``web_search`` ...) goes to a
    Responses request as it is and is reported for a Chat Completions one. An Anthropic
    client tool and each of a Gemini tool's ``function_declarations`` become function tools;
    their own tools are reported. A function tool converted to the flat (Responses) shape
    always has ``parameters`` and ``strict``, which Responses requires: ``strict`` is
    ``False`` unless the source said otherwise, since every other format's default is best
    effort while Responses would make a schema strict when ``strict`` is left out.

    Raises:
        FormatError: a Gemini function declaration is malformed (`gemini_functions`).
        UnsupportedContentError: a tool is left out and ``on_unsupported`` is ``"error"``.
    """
    written = []
    for index, tool in enumerate(tools):
        where = f"options.tools[{index}]"
        if is_gemini_tool(tool):
            for function in gemini_functions(tool, where, format_name, on_unsupported):
                written.append(
                    {"type": "function", "function": function}
                    if nested
                    else {"type": "function", **function, "strict": False}
                )
            continue
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


def write_tool_settings(
    body: dict[str, Any],
    options: ChatOptions,
    nested: bool,
    format_name: str,
    on_unsupported: OnUnsupported | None,
) -> None:
    """Write ``tools``, ``tool_choice`` and ``parallel_tool_calls`` into an OpenAI request.

    ``nested`` for Chat Completions. When every tool given is dropped, ``tools`` is left
    out rather than written empty (the APIs refuse ``[]``; a ``[]`` given stays), and so are
    the settings that would refer to nothing (`orphaned_tool_settings`).

    Raises:
        UnsupportedContentError: something is left out and ``on_unsupported`` is ``"error"``.
    """
    choice, parallel = options.tool_choice, options.parallel_tool_calls
    no_choice, no_parallel = write_kept_tools(
        body, options.tools, lambda tools: write_tools(tools, nested, format_name, on_unsupported),
        choice, parallel, format_name=format_name, on_unsupported=on_unsupported,
    )
    if isinstance(choice, dict) and choice.get("type") == "allowed_tools" and not no_choice:
        dropped = tool_names(options.tools or []) - tool_names(body.get("tools", []))
        choice = _kept_allowed_tools(choice, dropped, nested, format_name, on_unsupported)
        no_choice = choice is None
    if choice is not None and not no_choice:
        converted = write_tool_choice(choice, nested, format_name, on_unsupported)
        if converted is not None:
            body["tool_choice"] = converted
    if parallel is not None and not no_parallel:
        body["parallel_tool_calls"] = parallel


def write_kept_tools(
    target: dict[str, Any],
    tools: list[dict[str, Any]] | None,
    write: Callable[[list[dict[str, Any]]], list[dict[str, Any]]],
    choice: str | dict[str, Any] | None,
    parallel: bool | None,
    *,
    format_name: str,
    on_unsupported: OnUnsupported | None,
) -> tuple[bool, bool]:
    """Write ``tools`` into ``target`` as ``write`` makes them; say which settings must go.

    When every tool given is dropped, ``tools`` is left out rather than written empty (the
    APIs refuse ``[]``; a ``[]`` given stays). Returns `orphaned_tool_settings`' answer.
    """
    written: list[dict[str, Any]] = []
    if tools is not None:
        written = write(tools)
        if written or not tools:
            target["tools"] = written
    return orphaned_tool_settings(
        tools, written, choice, parallel, format_name=format_name, on_unsupported=on_unsupported
    )


def orphaned_tool_settings(
    tools: list[dict[str, Any]] | None,
    written: list[dict[str, Any]],
    choice: str | dict[str, Any] | None,
    parallel: bool | None,
    *,
    format_name: str,
    on_unsupported: OnUnsupported | None,
) -> tuple[bool, bool]:
    """Whether the tool choice and ``parallel_tool_calls`` must be left out, the tools dropped.

    ``written`` is what a writer made of ``tools``. A choice naming a tool that was dropped,
    and, when every tool was dropped, a choice that forces a call and a ``parallel`` setting
    (``None``: none, or the target has no such option) are reported: the APIs refuse a choice
    without its tool. ``"auto"`` and ``"none"`` with no tool left mean what no choice means
    and go in silence. Returns ``(leave_out_choice, leave_out_parallel)``.

    Raises:
        UnsupportedContentError: something is left out and ``on_unsupported`` is ``"error"``.
    """
    if not tools:
        return False, False
    none_left = not written
    leave_choice = False
    if choice is not None:
        name = _choice_name(choice)
        if name is not None and name in tool_names(tools) - tool_names(written):
            what = f"a tool choice naming the dropped tool {name!r}"
            unsupported_field(on_unsupported, format_name, "options.tool_choice", what)
            leave_choice = True
        elif none_left:
            leave_choice = True
            _report_choice_left(choice, format_name, on_unsupported)
    leave_parallel = none_left and parallel is not None
    if leave_parallel:
        what = "the option 'parallel_tool_calls' with every tool dropped"
        unsupported_field(on_unsupported, format_name, "options.parallel_tool_calls", what)
    return leave_choice, leave_parallel


def _kept_allowed_tools(
    choice: dict[str, Any],
    dropped: set[str],
    nested: bool,
    format_name: str,
    on_unsupported: OnUnsupported | None,
) -> dict[str, Any] | None:
    """An ``allowed_tools`` choice without the tools the request does not carry, each reported.

    An entry naming a tool in ``dropped`` goes, and so, for Chat Completions (``nested``),
    does one of a type other than ``function`` or ``custom`` (a hosted tool, which Chat has
    no place for). ``None`` (reported) when no entry is left: the APIs refuse a choice
    naming no tool they were given.

    Raises:
        UnsupportedContentError: an entry is left out and ``on_unsupported`` is ``"error"``.
    """
    body = choice.get("allowed_tools")
    inner = body if isinstance(body, dict) else choice
    entries = inner.get("tools")
    if type(entries) is not list:
        return choice  # not a list: written as it is, as before
    at = "options.tool_choice.allowed_tools.tools" if inner is body else "options.tool_choice.tools"
    kept = []
    for index, entry in enumerate(entries):
        what = _allowed_entry_loss(entry, dropped, nested)
        if what is None:
            kept.append(entry)
        else:
            unsupported_field(on_unsupported, format_name, f"{at}[{index}]", what)
    if len(kept) == len(entries):
        return choice
    if not kept:
        what = 'the tool choice "allowed_tools" with none of its tools kept'
        unsupported_field(on_unsupported, format_name, "options.tool_choice", what)
        return None
    if inner is body:
        return {**choice, "allowed_tools": {**inner, "tools": kept}}
    return {**choice, "tools": kept}


def _allowed_entry_loss(entry: Any, dropped: set[str], nested: bool) -> str | None:
    """What an ``allowed_tools`` entry is, when the request cannot name it; else ``None``."""
    if not isinstance(entry, dict):
        return None
    kind = entry.get("type")
    if nested and kind not in ("function", "custom"):
        shown = json.dumps(kind, ensure_ascii=False)
        return f"a {shown} tool in an allowed_tools choice"
    name = _choice_name(entry)
    if name is not None and name in dropped:
        return f"an allowed_tools entry naming the dropped tool {name!r}"
    return None


def _report_choice_left(
    choice: str | dict[str, Any], format_name: str, on_unsupported: OnUnsupported | None
) -> None:
    """Report a tool choice left out with every tool dropped, unless it says nothing then.

    ``"auto"`` and ``"none"`` mean what no choice means; of an ``auto`` or ``none`` object
    only its other keys (``disable_parallel_tool_use``) are reported, by path.
    """
    kind = choice if isinstance(choice, str) else choice.get("type")
    if kind not in ("auto", "none"):
        shown = json.dumps(kind, ensure_ascii=False)
        what = f"the tool choice {shown} with every tool dropped"
        unsupported_field(on_unsupported, format_name, "options.tool_choice", what)
        return
    for key in choice if isinstance(choice, dict) else ():
        if key != "type":
            what = f"the tool choice field {key!r} with every tool dropped"
            unsupported_field(on_unsupported, format_name, f"options.tool_choice.{key}", what)


def _choice_name(choice: str | dict[str, Any]) -> str | None:
    """The tool a choice names, in any format's shape (``function``, ``custom``, ``tool``)."""
    if isinstance(choice, str):
        return None
    kind = choice.get("type")
    if kind not in ("function", "custom", "tool"):
        return None
    nested = choice.get(kind)
    name = nested.get("name") if isinstance(nested, dict) else choice.get("name")
    return name if isinstance(name, str) else None


def tool_names(tools: list[dict[str, Any]]) -> set[str]:
    """The names of tool definitions in any format's shape, Gemini's declarations included."""
    names: set[str] = set()
    for tool in tools:
        for holder in (tool, tool.get("function"), tool.get("custom")):
            if isinstance(holder, dict) and isinstance(holder.get("name"), str):
                names.add(holder["name"])
        for key in ("function_declarations", "functionDeclarations"):
            declarations = tool.get(key)
            if isinstance(declarations, list):
                names.update(
                    found["name"] for found in declarations
                    if isinstance(found, dict) and isinstance(found.get("name"), str)
                )
    return names


def check_tool_names(tools: Any, where: str = "tools", untyped: bool = False) -> None:
    """Refuse a request's function tool without a ``str`` name, located by path.

    A Chat Completions tool keeps its name in ``function`` (or ``custom``), a Responses one
    at the top, and so does an Anthropic client tool (``custom``, or untyped when
    ``untyped``); a Gemini tool in each of its ``function_declarations``. Hosted tools and
    Anthropic's own are not checked: a writer that cannot carry them reports them.

    Raises:
        FormatError: at ``tools[i]`` (no ``name``) or ``tools[i].name`` (not a ``str``).
    """
    if type(tools) is not list:
        return  # the options refuse it, located
    for index, tool in enumerate(tools):
        if type(tool) is not dict:
            continue
        kind = tool.get("type")
        at = f"{where}[{index}]"
        if kind in ("function", "custom") and type(tool.get(kind)) is dict:
            _check_name(tool[kind], f"{at}.{kind}")
        elif kind in ("function", "custom") or (kind is None and untyped):
            _check_name(tool, at)
        elif kind is None:
            for key in ("function_declarations", "functionDeclarations"):
                declarations = tool.get(key)
                if type(declarations) is list:
                    for inner, declaration in enumerate(declarations):
                        if type(declaration) is dict:
                            _check_name(declaration, f"{at}.{key}[{inner}]")


def _check_name(holder: dict[str, Any], where: str) -> None:
    """Refuse a tool or declaration without a string ``name``, located at ``where``."""
    name = holder.get("name")
    if type(name) is not str:
        if "name" not in holder:
            raise FormatError("missing 'name'", path=where)
        raise FormatError.mismatch(f"{where}.name", "str", describe_type(name))


def is_anthropic_tool(tool: dict[str, Any]) -> bool:
    """Whether a tool definition is in Anthropic's shape.

    A client tool (``{"name", "input_schema"}``, typed ``custom`` or not) or one of
    Anthropic's own tools, whose type is dated (``web_search_20250305``) or one of the few
    undated ones (``mcp_toolset``).
    """
    kind = tool.get("type")
    if kind == "function":  # OpenAI's, the commonest: detection asks of every tool
        return False
    if kind is None or kind == "custom":
        return "input_schema" in tool
    return isinstance(kind, str) and (
        _DATED_TOOL.search(kind) is not None or kind in _ANTHROPIC_UNDATED
    )


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
    return {"type": "function", **function, "strict": function.get("strict", False)}


def _convert_tool(tool: dict[str, Any], nested: bool) -> dict[str, Any] | None:
    kind = tool.get("type")
    if kind not in ("function", "custom"):
        return None if nested else dict(tool)
    body = tool.get(kind)
    if isinstance(body, dict):  # the nested (Chat Completions) shape
        extra = {key: value for key, value in tool.items() if key not in ("type", kind)}
        if nested:
            return dict(tool)
        flat = {"type": kind, **body, **extra}
        if kind == "custom" and "format" in flat:
            flat["format"] = _flat_grammar(flat["format"])
        if kind == "function":
            # Responses requires both: no parameters is Chat's empty list of them, and no
            # strict is Chat's best effort, where Responses would make the schema strict.
            if flat.get("parameters") is None:
                flat["parameters"] = {"type": "object", "properties": {}}
            if flat.get("strict") is None:
                flat["strict"] = False
        return flat
    if not nested:
        return dict(tool)
    body = {key: value for key, value in tool.items() if key != "type"}
    if kind == "function" and body.get("strict") is False:
        del body["strict"]  # Chat's default: what Responses requires said, it goes unsaid
    if kind == "custom" and "format" in body:
        body["format"] = _nested_grammar(body["format"])
    return {"type": kind, kind: body}


def _flat_grammar(format_: Any) -> Any:
    """A custom tool's Chat grammar format in Responses' flat shape; any other as it is.

    Chat nests ``{"type": "grammar", "grammar": {"syntax", "definition"}}``, Responses has
    ``{"type": "grammar", "syntax", "definition"}``; ``{"type": "text"}`` is the same in both.
    """
    if type(format_) is not dict or format_.get("type") != "grammar":
        return format_
    grammar = format_.get("grammar")
    if type(grammar) is not dict:
        return format_
    rest = {key: value for key, value in format_.items() if key != "grammar"}
    return {"type": "grammar", **grammar, **rest}


def _nested_grammar(format_: Any) -> Any:
    """A custom tool's Responses grammar format in Chat's nested shape; any other as it is.

    `_flat_grammar` undone; a format already nested, or of another type, is left alone.
    """
    if type(format_) is not dict or format_.get("type") != "grammar" or "grammar" in format_:
        return format_
    grammar = {key: value for key, value in format_.items() if key != "type"}
    return {"type": "grammar", "grammar": grammar}


def is_gemini_tool(tool: dict[str, Any]) -> bool:
    """Whether a tool definition is in Gemini's shape.

    Gemini's tools are objects keyed by the kind of tool (``{"function_declarations":
    [...]}``, ``{"google_search": {}}``, ``{"codeExecution": {}}``): they have neither the
    ``type`` of OpenAI's (and of Anthropic's own) tools nor the ``name`` of Anthropic's
    client tools.
    """
    return "type" not in tool and "name" not in tool and "input_schema" not in tool


def gemini_functions(
    tool: dict[str, Any],
    where: str,
    format_name: str,
    on_unsupported: OnUnsupported | None,
) -> list[dict[str, Any]]:
    """A Gemini tool's ``function_declarations`` as ``{"name", "description", "parameters"}``.

    ``parameters`` is the declaration's ``parameters_json_schema`` as it is, or its
    OpenAPI-subset ``parameters`` as JSON Schema: ``type`` values in lower case
    (``TYPE_UNSPECIFIED`` left out), ``nullable`` as a ``"null"`` type (and a ``None``
    choice in an ``enum``), snake_case keywords in JSON Schema's names (``max_items`` as
    ``maxItems``, ``any_of`` as ``anyOf``, ``defs`` / ``ref`` as ``$defs`` / ``$ref``), and
    ``property_ordering`` as the order of ``properties``. A function without parameters gets
    an object schema without properties. The tool's other kinds (``google_search``,
    ``code_execution``, ``url_context`` ...) and the declaration fields a function tool has no
    place for (``response``, ``response_json_schema``, ``behavior``) are reported, located
    under ``where`` (``options.tools[0].google_search``).

    Raises:
        FormatError: ``function_declarations`` is not a list, or a declaration is not an
            object, has no ``str`` ``name``, a ``description`` that is no ``str``, or a
            ``parameters`` schema that is malformed; the message names it
            (``options.tools[0].function_declarations[1].name``).
        UnsupportedContentError: something is left out and ``on_unsupported`` is ``"error"``.
    """
    functions: list[dict[str, Any]] = []
    for key, value in tool.items():
        if _snake_key(key) != "function_declarations":
            what = f"a Gemini {_snake_key(key)!r} tool"
            unsupported_field(on_unsupported, format_name, f"{where}.{key}", what)
            continue
        if value is None:
            continue
        if type(value) is not list:
            raise FormatError.mismatch(
                f"{where}.{key}", "a list of function declarations", describe_type(value)
            )
        for index, declaration in enumerate(value):
            at = f"{where}.{key}[{index}]"
            functions.append(_gemini_function(declaration, at, format_name, on_unsupported))
    return functions


_DECLARATION_FIELDS = frozenset(("name", "description", "parameters", "parameters_json_schema"))


def _gemini_function(
    declaration: Any, where: str, format_name: str, on_unsupported: OnUnsupported | None
) -> dict[str, Any]:
    """One function declaration as ``{"name", "description", "parameters"}``."""
    if type(declaration) is not dict:
        what = "a function declaration object"
        raise FormatError.mismatch(where, what, describe_type(declaration))
    fields = {_snake_key(key): key for key in declaration}
    _check_name(declaration, where)
    function: dict[str, Any] = {"name": declaration["name"]}
    description = declaration.get("description")
    if description is not None:
        if type(description) is not str:
            raise FormatError.mismatch(f"{where}.description", "str", describe_type(description))
        function["description"] = description
    json_schema = declaration.get(fields.get("parameters_json_schema", ""))
    schema = declaration.get("parameters")
    if json_schema is not None:
        function["parameters"] = json_schema
    elif schema is not None:
        function["parameters"] = _json_schema(schema, f"{where}.parameters")
    else:
        function["parameters"] = {"type": "object", "properties": {}}
    for snake, key in fields.items():
        if snake not in _DECLARATION_FIELDS:
            what = f"the function declaration field {snake!r}"
            unsupported_field(on_unsupported, format_name, f"{where}.{key}", what)
    return function


# OpenAPI-subset schema keys (either spelling) -> JSON Schema's.
_SCHEMA_NAMES = {
    "any_of": "anyOf", "max_items": "maxItems", "min_items": "minItems",
    "max_length": "maxLength", "min_length": "minLength", "max_properties": "maxProperties",
    "min_properties": "minProperties", "additional_properties": "additionalProperties",
    "defs": "$defs", "ref": "$ref",
}
_OPENAPI_TYPES = frozenset(("STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL"))


def _json_schema(schema: Any, where: str) -> dict[str, Any]:
    """A Gemini ``Schema`` (OpenAPI 3.0 subset) as the JSON Schema it stands for.

    Raises:
        FormatError: the schema, or one nested in it, is not an object.
    """
    if type(schema) is not dict:
        raise FormatError.mismatch(where, "a schema object", describe_type(schema))
    converted: dict[str, Any] = {}
    ordering: Any = None
    nullable: Any = None
    for key, value in schema.items():
        snake = _snake_key(key)
        if snake == "property_ordering":
            ordering = value
        elif snake == "nullable":
            nullable = value
        elif snake == "type":
            kind = _json_type(value)
            if kind is not None:  # None: TYPE_UNSPECIFIED, no type
                converted["type"] = kind
        else:
            name = _SCHEMA_NAMES.get(snake) or key
            converted[name] = _schema_value(snake, value, f"{where}.{key}")
    if nullable is True:
        kind = converted.get("type")
        if isinstance(kind, str):
            converted["type"] = [kind, "null"]
            choices = converted.get("enum")
            if isinstance(choices, list) and None not in choices:
                converted["enum"] = [*choices, None]  # else null would fail the enum
        else:
            converted["nullable"] = True  # no single type to add "null" to: kept as OpenAPI says
    properties = converted.get("properties")
    if isinstance(ordering, list) and isinstance(properties, dict):
        first = [prop for prop in ordering if isinstance(prop, str) and prop in properties]
        rest = [prop for prop in properties if prop not in first]
        converted["properties"] = {prop: properties[prop] for prop in first + rest}
    return converted


def _schema_value(snake: str, value: Any, where: str) -> Any:
    """The value of a schema key (``snake``: its snake_case name) in JSON Schema.

    Raises:
        FormatError: a nested schema is not an object, or a list or map of them is not one.
    """
    if snake == "items" or (snake == "additional_properties" and type(value) is dict):
        return _json_schema(value, where)
    if snake == "any_of":
        if type(value) is not list:
            raise FormatError.mismatch(where, "a list of schemas", describe_type(value))
        return [_json_schema(item, f"{where}[{index}]") for index, item in enumerate(value)]
    if snake in ("properties", "defs"):
        if type(value) is not dict:
            raise FormatError.mismatch(where, "an object of schemas", describe_type(value))
        return {
            name: _json_schema(item, f"{where}[{json.dumps(name, ensure_ascii=False)}]")
            for name, item in value.items()
        }
    if snake == "ref" and isinstance(value, str) and value.startswith("#/defs/"):
        return "#/$defs/" + value[len("#/defs/") :]
    return value


def _json_type(value: Any) -> Any:
    """A schema ``type`` in JSON Schema's lower case; ``None`` for ``TYPE_UNSPECIFIED``."""
    if isinstance(value, list):
        return [_json_type(item) for item in value]
    if not isinstance(value, str):
        return value
    if value.upper() == "TYPE_UNSPECIFIED":
        return None
    return value.lower() if value.upper() in _OPENAPI_TYPES else value


def write_gemini_tools(
    tools: list[dict[str, Any]], on_unsupported: OnUnsupported | None
) -> list[dict[str, Any]]:
    """Tool definitions in Gemini's shape (snake_case, as the Gemini writers spell by default).

    Gemini's own tools are kept as given. OpenAI function tools (Chat Completions' nested
    ``{"type": "function", "function": {...}}`` and Responses' flat shape) and Anthropic
    client tools (``{"name", "description", "input_schema"}``) become the declarations of
    one ``{"function_declarations": [{"name", "description", "parameters_json_schema"}]}``
    tool, placed where the first of them was. A strict schema (``strict: true``), a tool
    field a declaration has no place for (``cache_control`` ...), custom tools and the hosted
    tools of other providers (``web_search``, ``code_interpreter``,
    ``web_search_20250305`` ...) are reported, located at ``options.tools[i]``.

    Raises:
        FormatError: a function tool has no ``str`` name; the message names it
            (``options.tools[2].function.name``).
        UnsupportedContentError: something is left out and ``on_unsupported`` is ``"error"``.
    """
    written: list[dict[str, Any]] = []
    declarations: list[dict[str, Any]] = []
    for index, tool in enumerate(tools):
        where = f"options.tools[{index}]"
        if is_gemini_tool(tool):
            written.append(dict(tool))
            continue
        declaration = _declaration(tool, where, on_unsupported)
        if declaration is None:
            kind = json.dumps(tool.get("type"), ensure_ascii=False)
            unsupported_field(on_unsupported, _GEMINI, where, f"a {kind} tool")
            continue
        if not declarations:
            written.append({"function_declarations": declarations})
        declarations.append(declaration)
    return written


_GEMINI = "Gemini"
"""The Gemini format's name in messages (`semantic_chat.formats.gemini.shared.FORMAT`)."""

_FUNCTION_FIELDS = ("name", "description", "parameters")


def _declaration(
    tool: dict[str, Any], where: str, on_unsupported: OnUnsupported | None
) -> dict[str, Any] | None:
    """An OpenAI or Anthropic function tool as a Gemini function declaration.

    ``None`` for any other tool (a custom tool, a hosted one); the caller reports it.
    """
    kind = tool.get("type")
    if is_anthropic_tool(tool):
        if "input_schema" not in tool or kind not in (None, "custom"):
            return None  # one of Anthropic's own tools (a dated type)
        function, at, schema_key = tool, where, "input_schema"
        extra = [key for key in tool if key not in ("type", "name", "description", "input_schema")]
    elif kind == "function":
        nested = tool.get("function")
        if isinstance(nested, dict):  # Chat Completions
            function, at, schema_key = nested, f"{where}.function", "parameters"
            for key in tool:
                if key not in ("type", "function"):
                    what = f"the tool field {key!r}"
                    unsupported_field(on_unsupported, _GEMINI, f"{where}.{key}", what)
            extra = [key for key in nested if key not in _FUNCTION_FIELDS]
        else:  # Responses
            function, at, schema_key = tool, where, "parameters"
            extra = [key for key in tool if key not in ("type", *_FUNCTION_FIELDS)]
    else:
        return None
    _check_name(function, at)
    declaration: dict[str, Any] = {"name": function["name"]}
    if function.get("description") is not None:
        declaration["description"] = function["description"]
    if function.get(schema_key) is not None:
        declaration["parameters_json_schema"] = function[schema_key]
    for key in extra:
        if key == "strict" and function[key] is not True:
            continue  # not strict: nothing is lost
        what = "a strict schema" if key == "strict" else f"the tool field {key!r}"
        unsupported_field(on_unsupported, _GEMINI, f"{at}.{key}", what)
    return declaration


_CAMEL_KEY = re.compile(r"[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+")


def _snake_key(key: str) -> str:
    """A camelCase key in snake_case (``functionDeclarations``); any other key as it is."""
    if not _CAMEL_KEY.fullmatch(key):
        return key
    return re.sub(r"[A-Z]", lambda match: "_" + match.group().lower(), key)


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
    if kind in _ANTHROPIC_CHOICES:
        converted = anthropic_choice(choice, format_name, on_unsupported)
        if isinstance(converted, dict):
            return write_tool_choice(converted, nested, format_name, on_unsupported)
        return converted
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


_ANTHROPIC_CHOICES = {"auto": "auto", "any": "required", "none": "none", "tool": "tool"}
"""Anthropic's tool choice types and the OpenAI choice each is (``tool``: a function's)."""


def anthropic_choice(
    choice: dict[str, Any], format_name: str, on_unsupported: OnUnsupported | None
) -> str | dict[str, Any] | None:
    """An Anthropic ``tool_choice`` object as OpenAI's choice, its other keys reported by path.

    ``{"type": "any"}`` is ``"required"``, ``{"type": "tool", "name"}`` the function choice
    ``{"type": "function", "name"}``; a key OpenAI's choice has no place for
    (``disable_parallel_tool_use`` beside ``none``, which the reader keeps whole) is reported
    at ``options.tool_choice.<key>``. ``None`` (reported) for a ``tool`` choice without a
    ``str`` name, or a type that is not Anthropic's.

    Raises:
        UnsupportedContentError: something is left out and ``on_unsupported`` is ``"error"``.
    """
    kind = choice.get("type")
    mapped = _ANTHROPIC_CHOICES.get(kind) if isinstance(kind, str) else None
    name = choice.get("name")
    if mapped is None or (mapped == "tool" and type(name) is not str):
        shown = json.dumps(kind, ensure_ascii=False)
        what = f"a {shown} tool choice"
        unsupported_field(on_unsupported, format_name, "options.tool_choice", what)
        return None
    used = ("type", "name") if mapped == "tool" else ("type",)
    for key in choice:
        if key not in used:
            what = f"the tool choice field {key!r}"
            unsupported_field(on_unsupported, format_name, f"options.tool_choice.{key}", what)
    return {"type": "function", "name": name} if mapped == "tool" else mapped


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
    Messages, or Gemini) has is reported, and so is a shared field holding a value only
    another provider takes (`foreign_value`: ``service_tier: "standard_only"``); a field none
    names is copied; a field the writer sets itself, or one ``skip`` says the writer used, is
    not copied. Structured output, verbosity and stream options, which the two formats shape
    differently, are converted (`_CONVERTED`).

    Raises:
        UnsupportedContentError: a field is left out and ``on_unsupported`` is ``"error"``.
    """
    keys, other = (CHAT_KEYS, RESPONSES_KEYS) if own == "chat" else (RESPONSES_KEYS, CHAT_KEYS)
    converted: set[str] = set()
    for key, value in options.extra.items():
        if skip(key):
            continue
        group = _CONVERTED[own].get(key)
        if group is not None:  # written in the target's shape, where its first field was
            sources, convert = group
            if sources[0] not in converted:
                converted.add(sources[0])
                body.update(convert(options.extra, format_name, on_unsupported))
            continue
        where = f"options.extra[{json.dumps(key, ensure_ascii=False)}]"
        foreign = key in other or key in _ANTHROPIC_ONLY or is_gemini_only(key)
        if key in _OWN_FIELDS[own] or (key not in keys and foreign):
            unsupported_field(on_unsupported, format_name, where, f"the request field {key!r}")
            continue
        provider = foreign_value(key, value)
        if provider is not None:
            what = f"the request field {key!r} with {provider}'s value {value!r}"
            unsupported_field(on_unsupported, format_name, where, what)
            continue
        body[key] = value


def _extra_path(key: str) -> str:
    return f"options.extra[{json.dumps(key, ensure_ascii=False)}]"


def _report_request_field(
    key: str, format_name: str, on_unsupported: OnUnsupported | None
) -> None:
    """Report ``options.extra[key]`` as a request field the target cannot carry."""
    what = f"the request field {key!r}"
    unsupported_field(on_unsupported, format_name, _extra_path(key), what)


_JSON_SCHEMA_FIELDS = frozenset(("name", "schema", "description", "strict"))


def _is_json_schema_spec(spec: Any) -> bool:
    """Whether ``spec`` has only the fields both formats' ``json_schema`` outputs take, typed so.

    ``name`` (str) and ``schema`` (an object) are required, as Responses requires them;
    ``description`` is a str, ``strict`` a bool or ``None``.
    """
    if type(spec) is not dict or not spec.keys() <= _JSON_SCHEMA_FIELDS:
        return False
    return (
        type(spec.get("name")) is str
        and type(spec.get("schema")) is dict
        and type(spec.get("description", "")) is str
        and type(spec.get("strict")) in (bool, type(None))
    )


def _text_format(response_format: Any) -> dict[str, Any] | None:
    """A Chat Completions ``response_format`` as a Responses ``text.format``, or ``None``."""
    if type(response_format) is not dict:
        return None
    kind = response_format.get("type")
    if kind in ("text", "json_object") and response_format.keys() == {"type"}:
        return {"type": kind}
    if kind == "json_schema" and response_format.keys() == {"type", "json_schema"}:
        spec = response_format["json_schema"]
        if _is_json_schema_spec(spec):
            return {"type": kind, **spec}
    return None


def _response_format(text_format: Any) -> dict[str, Any] | None:
    """A Responses ``text.format`` as a Chat Completions ``response_format``, or ``None``."""
    if type(text_format) is not dict:
        return None
    kind = text_format.get("type")
    if kind in ("text", "json_object") and text_format.keys() == {"type"}:
        return {"type": kind}
    if kind == "json_schema":
        spec = {key: value for key, value in text_format.items() if key != "type"}
        if _is_json_schema_spec(spec):
            return {"type": kind, "json_schema": spec}
    return None


def _is_verbosity(value: Any) -> bool:
    return value is None or type(value) is str


def _responses_text(
    extra: dict[str, Any], format_name: str, on_unsupported: OnUnsupported | None
) -> dict[str, Any]:
    """Responses' ``text``: its own, plus Chat's ``response_format`` and ``verbosity``.

    Either of those that does not fit, or whose place ``text`` already fills, is reported.
    """
    text = extra.get("text")
    if "text" in extra and type(text) is not dict:
        for key in ("response_format", "verbosity"):
            if key in extra:
                _report_request_field(key, format_name, on_unsupported)
        return {"text": text}  # not an object: copied as any shared field is
    merged = dict(text) if text is not None else None
    for key, field, convert in _TEXT_FIELDS:
        if key not in extra:
            continue
        value = convert(extra[key])
        if value is _MISFIT or (merged is not None and field in merged):
            _report_request_field(key, format_name, on_unsupported)
            continue
        merged = {**(merged or {}), field: value}
    return {} if merged is None else {"text": merged}


_MISFIT = object()
"""What a converter gives back for a value the target's field cannot hold."""


def _as_text_format(value: Any) -> Any:
    found = _text_format(value)
    return _MISFIT if found is None else found


def _as_verbosity(value: Any) -> Any:
    return value if _is_verbosity(value) else _MISFIT


_TEXT_FIELDS = (
    ("response_format", "format", _as_text_format),
    ("verbosity", "verbosity", _as_verbosity),
)
"""Chat Completions request fields and the ``text`` field of Responses each becomes."""


def _chat_text(
    extra: dict[str, Any], format_name: str, on_unsupported: OnUnsupported | None
) -> dict[str, Any]:
    """Chat Completions' ``response_format`` and ``verbosity`` from Responses' ``text``.

    A ``text`` that is no object, a part that does not fit or that ``extra`` sets too, and a
    part Chat Completions has no field for are reported, located in ``text``.
    """
    text = extra["text"]
    if type(text) is not dict:
        _report_request_field("text", format_name, on_unsupported)
        return {}
    written: dict[str, Any] = {}
    for field, value in text.items():
        key, convert = _CHAT_FIELDS.get(field, (field, _as_misfit))
        found = convert(value)
        if found is _MISFIT or key in extra:
            where = f"{_extra_path('text')}.{field}"
            what = f"the request field 'text.{field}'"
            unsupported_field(on_unsupported, format_name, where, what)
            continue
        written[key] = found
    return written


def _as_response_format(value: Any) -> Any:
    found = _response_format(value)
    return _MISFIT if found is None else found


def _as_misfit(_: Any) -> Any:
    return _MISFIT


_CHAT_FIELDS = {
    "format": ("response_format", _as_response_format),
    "verbosity": ("verbosity", _as_verbosity),
}
"""The fields of Responses' ``text`` and the Chat Completions request field each becomes."""


def _responses_stream_options(
    extra: dict[str, Any], format_name: str, on_unsupported: OnUnsupported | None
) -> dict[str, Any]:
    """``stream_options`` without Chat Completions' ``include_usage``, if anything is left.

    Left out in silence: it asks a Chat stream for a usage chunk, and a Responses stream
    always reports usage (``response.completed``).
    """
    options = extra["stream_options"]
    if type(options) is not dict:
        return {"stream_options": options}
    kept = {key: value for key, value in options.items() if key != "include_usage"}
    return {"stream_options": kept} if kept or not options else {}


_LOGPROBS_INCLUDE = "message.output_text.logprobs"
"""The ``include`` entry with which a Responses request asks for logprobs (Chat's flag)."""


def _chat_logprobs(
    extra: dict[str, Any], format_name: str, on_unsupported: OnUnsupported | None
) -> dict[str, Any]:
    """Chat Completions' ``top_logprobs`` and ``logprobs`` from Responses' fields.

    Chat refuses ``top_logprobs`` without ``logprobs: true``, which Responses has no flag
    for (asking for top logprobs, or ``include`` of ``message.output_text.logprobs``, implies
    it): the flag is written unless ``extra`` has its own. The other ``include`` entries are
    reported one by one, an ``include`` without that entry as a whole, as before.
    """
    written: dict[str, Any] = {}
    wanted = False
    if "top_logprobs" in extra:
        written["top_logprobs"] = extra["top_logprobs"]
        wanted = extra["top_logprobs"] is not None
    if "include" in extra:
        include = extra["include"]
        if type(include) is list and _LOGPROBS_INCLUDE in include:
            wanted = True
            for index, entry in enumerate(include):
                if entry != _LOGPROBS_INCLUDE:
                    where = f"{_extra_path('include')}[{index}]"
                    what = f"the include entry {entry!r}"
                    unsupported_field(on_unsupported, format_name, where, what)
        else:
            _report_request_field("include", format_name, on_unsupported)
    if wanted and "logprobs" not in extra:
        written["logprobs"] = True
    return written


def _responses_logprobs(
    extra: dict[str, Any], format_name: str, on_unsupported: OnUnsupported | None
) -> dict[str, Any]:
    """Responses' ``include`` with Chat's ``logprobs: true`` as its logprobs entry.

    ``logprobs`` ``false`` or ``null`` is what no entry means and goes in silence; any
    other value (a Gemini count), or ``true`` beside an ``include`` that is no list, is
    reported as a request field Responses does not have.
    """
    written = {"include": extra["include"]} if "include" in extra else {}
    if "logprobs" not in extra or extra["logprobs"] in (False, None):
        return written
    include = extra.get("include", [])
    if extra["logprobs"] is not True or type(include) is not list:
        _report_request_field("logprobs", format_name, on_unsupported)
        return written
    if _LOGPROBS_INCLUDE not in include:
        written["include"] = [*include, _LOGPROBS_INCLUDE]
    return written


_Convert = Callable[[dict[str, Any], str, "OnUnsupported | None"], dict[str, Any]]

_CONVERTED: dict[str, dict[str, tuple[tuple[str, ...], _Convert]]] = {
    "responses": {
        **dict.fromkeys(
            ("text", "response_format", "verbosity"),
            (("text", "response_format", "verbosity"), _responses_text),
        ),
        "stream_options": (("stream_options",), _responses_stream_options),
        **dict.fromkeys(("include", "logprobs"), (("include", "logprobs"), _responses_logprobs)),
    },
    "chat": {
        "text": (("text",), _chat_text),
        **dict.fromkeys(
            ("top_logprobs", "include"), (("top_logprobs", "include"), _chat_logprobs)
        ),
    },
}
"""Fields of ``options.extra`` each writer (`write_extra`'s ``own``) converts, by field: the
fields converted together and the function giving the body's fields from ``extra``."""


def report_options_metadata(
    options: ChatOptions, hints: str, format_name: str, on_unsupported: OnUnsupported | None
) -> dict[str, Any]:
    """Return this format's hints in the options' metadata; report every other key as lost.

    Options of a newer version (`ChatOptionsWithUnknownKeys`) are never sent: their keys are
    reported too (``options.future_knob``), since no writer knows what they mean.

    Raises:
        UnsupportedContentError: such a key and ``on_unsupported`` is ``"error"``.
    """
    if type(options) is ChatOptionsWithUnknownKeys:
        for key in options.unknown_keys:
            what = f"the option {key!r} (unknown to this version)"
            unsupported_field(on_unsupported, format_name, f"options.{key}", what)
    metadata = options.metadata or {}
    for key in metadata:
        if key not in HINT_KEYS:
            where = f"options.metadata[{json.dumps(key, ensure_ascii=False)}]"
            unsupported_field(on_unsupported, format_name, where, "metadata")
    found = metadata.get(hints)
    return found if isinstance(found, dict) else {}

