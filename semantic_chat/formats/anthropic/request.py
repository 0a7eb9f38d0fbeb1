"""Anthropic Messages documents: request bodies, ``message`` responses and Message Batches lines.

`from_request` reads a ``messages.create`` body's ``system`` and ``messages`` into the history
and its other fields into ``history.options`` (`semantic_chat.ChatOptions`); `to_request`
writes them back, so that ``to_request(from_request(body)) == body``. `from_payload` takes a
``messages`` list or any of these documents, told apart by their keys.

Options in Anthropic's names:

=================================  =========================================================
`ChatOptions`                      Anthropic Messages
=================================  =========================================================
``model``, ``max_tokens``,         the same names (``max_tokens`` is required: `to_request`
``temperature``, ``top_p``         refuses a history without it, unless given as a keyword)
``stop``                           ``stop_sequences`` (a string is written as a list of one)
``tools``                          kept as given; OpenAI function tools and Gemini
                                   ``function_declarations`` become
                                   ``{"name", "description", "input_schema"}``
``tool_choice``                    ``{"type": "auto"}`` is ``"auto"``, ``any`` ``"required"``,
                                   ``none`` ``"none"``, ``{"type": "tool", "name"}`` the
                                   function choice ``{"type": "function", "name"}``
``parallel_tool_calls``            ``tool_choice.disable_parallel_tool_use``, negated
``extra``                          every other field (``thinking``, ``top_k``, ``metadata``,
                                   ``service_tier``, ``stream`` ...)
=================================  =========================================================

``reasoning_effort``, ``seed``, the penalties, OpenAI's and Gemini's own tools
(``web_search``, ``google_search`` ...) and their fields in ``options.extra``
(``response_format``, ``store``, ``safety_settings``, ``thinking_config`` ...) are reported as
``on_unsupported`` says.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from ...errors import FormatError, InvalidValueError, SemanticChatError, describe_type
from ...history import ChatHistory
from ...message import ChatMessageContent
from ...options import ChatOptions
from ...trusted import new_history
from ...validation import check_optional_int
from .. import documents
from ..request_fields import (
    ANTHROPIC_KEYS,
    CHAT_KEYS,
    RESPONSES_KEYS,
    check_tool_names,
    gemini_functions,
    is_anthropic_tool,
    is_gemini_only,
    is_gemini_tool,
    report_options_metadata,
    request_messages,
    write_kept_tools,
)
from ..wire import OnUnsupported, as_plain, get_hints, policy, unsupported_field
from . import reading, writing
from .shared import FORMAT, HINTS

__all__ = ["from_payload", "from_request", "to_payload", "to_request"]

# Request fields that become options (``stop_sequences`` as ``stop``); the rest go to extra.
_OPTIONS = {
    "model": "model",
    "max_tokens": "max_tokens",
    "temperature": "temperature",
    "top_p": "top_p",
    "stop_sequences": "stop",
    "tools": "tools",
}
_WIRE_NAMES = {option: wire for wire, option in _OPTIONS.items()}

# What the writer sets itself: never copied from ``options.extra``.
_OWN_FIELDS = frozenset((
    "model", "max_tokens", "system", "messages", "tools", "tool_choice", "temperature",
    "top_p", "stop_sequences",
))
_OPENAI_ONLY = (CHAT_KEYS | RESPONSES_KEYS) - ANTHROPIC_KEYS
_SERVICE_TIERS = frozenset(("auto", "standard_only"))

_CHOICES_READ = {"auto": "auto", "any": "required", "none": "none"}
_CHOICES_WRITTEN = {"auto": "auto", "required": "any", "none": "none"}
_ANTHROPIC_CHOICES = frozenset(("auto", "any", "none", "tool"))

# OpenAI's tool types, which Anthropic does not take; any other type is written as given.
_OPENAI_TOOLS = frozenset((
    "function", "custom", "web_search", "web_search_preview", "web_search_preview_2025_03_11",
    "web_search_2025_08_26", "file_search", "computer_use_preview", "computer",
    "code_interpreter", "image_generation", "mcp", "local_shell", "shell", "apply_patch",
))
_FUNCTION_KEYS = frozenset(("name", "description", "parameters", "strict"))

def from_payload(payload: Any) -> ChatHistory:
    """Read a ``messages`` list, or a whole Anthropic Messages document, into a history.

    A document is ``{"system", "messages"}`` as `to_payload` writes it, a request body
    (`from_request`; an OpenAI fine-tuning line reads as one), a ``message`` response (as
    `from_response` reads it, a one-message history), or a Batch line holding one of those:
    a Message Batches request line (``{"custom_id", "params"}``), a results line (``{"custom_id",
    "result": {"message"}}``), or an OpenAI Batch line. The ``custom_id`` is not kept: the
    command line keeps the envelope.

    Raises:
        FormatError: a malformed message or document; the message names the location, e.g.
            ``params.messages[3].content[1].type`` in a Message Batches line.
    """
    if isinstance(payload, (list, tuple)) or (
        not isinstance(payload, (dict, str, bytes)) and not hasattr(payload, "model_dump")
    ):
        documents.refuse_stream(payload)  # a list of events is no conversation
        return reading.from_payload(payload)
    document = as_plain(payload, "") if not isinstance(payload, (str, bytes)) else payload
    documents.refuse_stream(document)  # one event of a stream, saved alone
    kind = documents.kind_of(document)
    expected = "a list of messages or an Anthropic Messages document"
    documents.refuse_own_document(document, "messages", expected)
    if kind in ("anthropic_batch", "anthropic_batch_result", "batch_input", "batch_output"):
        history: ChatHistory = documents.read_enveloped(document, from_payload)
        return history
    if kind in ("anthropic_request", "chat_request", "fine_tuning") or (
        kind is None and type(document) is dict and type(document.get("messages")) is list
    ):  # the last: {"messages": []}, as to_payload writes an empty history
        return from_request(document)
    if kind == "anthropic_response":
        return new_history([reading.from_response(document)])
    if kind is None:
        return reading.from_payload(document)  # refuses it as it refuses any non-list
    raise FormatError.mismatch("messages", expected, documents.KIND_NAMES[kind])


def from_request(body: Any) -> ChatHistory:
    """Read a ``messages.create`` request body (a dict or an SDK object).

    ``system`` and ``messages`` become the history's messages (the system prompt a leading
    system message); ``model``, ``max_tokens``, ``temperature``, ``top_p``,
    ``stop_sequences`` (as ``stop``), ``tools`` (as given) and ``tool_choice`` (see the table
    above; ``disable_parallel_tool_use`` as ``parallel_tool_calls``) become
    ``history.options``; every other field is kept in ``options.extra``. A body of
    ``system`` and ``messages`` alone has no options.

    Raises:
        FormatError: the body is not an object, has no ``messages`` list, a field holds
            the wrong type, or a client tool has no ``str`` name; the message names the field
            (``stop_sequences[0]: expected a str, got int``, ``tools[1]: missing 'name'``) or
            the message (``messages[2].role``).
    """
    plain, messages = request_messages(body)
    check_tool_names(plain.get("tools"), untyped=True)
    named: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    for key, value in plain.items():
        if key in ("messages", "system"):
            continue
        option = _OPTIONS.get(key)
        if option is not None:
            named[option] = value
        elif key == "tool_choice":
            _read_tool_choice(value, named)
        else:
            extra[key] = value
    history = reading.from_payload(messages, plain.get("system"))
    if named or extra:
        history.options = _options(named, extra)
    return history


def _options(named: dict[str, Any], extra: dict[str, Any]) -> ChatOptions:
    """Build the options, an error located at the request field it came from.

    Raises:
        FormatError: a field holds a value of the wrong type.
    """
    try:
        return ChatOptions(**named, extra=extra)
    except SemanticChatError as error:
        head, dot, rest = error.path.partition(".")
        bracket = head.find("[")
        name, tail = (head, "") if bracket < 0 else (head[:bracket], head[bracket:])
        wire = _WIRE_NAMES.get(name, name)
        raise FormatError(error.detail, path=f"{wire}{tail}{dot}{rest}") from None


def _read_tool_choice(choice: Any, named: dict[str, Any]) -> None:
    """Put an Anthropic ``tool_choice`` into ``named`` as options (see the module's table).

    A choice of a shape this code does not know (a newer type, more keys) is kept as given.

    Raises:
        FormatError: it is not an object, or a known key holds the wrong type.
    """
    if type(choice) is not dict:
        raise FormatError.mismatch("tool_choice", "a tool choice object", describe_type(choice))
    kind = choice.get("type")
    if type(kind) is not str:
        if "type" not in choice:
            raise FormatError("missing 'type'", path="tool_choice")
        raise FormatError.mismatch("tool_choice.type", "str", describe_type(kind))
    disable = choice.get("disable_parallel_tool_use")
    if disable is not None and type(disable) is not bool:
        raise FormatError.mismatch(
            "tool_choice.disable_parallel_tool_use", "bool", describe_type(disable)
        )
    others = choice.keys() - {"type", "disable_parallel_tool_use"}
    if kind in _CHOICES_READ and not others and not (kind == "none" and disable is not None):
        named["tool_choice"] = _CHOICES_READ[kind]
    elif kind == "tool" and others == {"name"}:
        name = choice["name"]
        if type(name) is not str:
            raise FormatError.mismatch("tool_choice.name", "str", describe_type(name))
        named["tool_choice"] = {"type": "function", "name": name}
    else:
        named["tool_choice"] = choice
        return
    if disable is not None:
        named["parallel_tool_calls"] = not disable


def to_request(
    history: Iterable[ChatMessageContent] | ChatHistory,
    *,
    on_unsupported: OnUnsupported | None = None,
    merge_consecutive: bool = True,
    max_tokens: int | None = None,
) -> dict[str, Any]:
    """Write a history as a ``messages.create`` request body.

    ``model`` comes first (left out when none was read), then ``max_tokens``, ``system`` and
    ``messages`` (as `to_payload` writes them), then the options in Anthropic's names (see
    the module's table) and ``options.extra``. ``max_tokens`` given here wins over
    ``options.max_tokens``. What the format has no field for (``reasoning_effort``,
    ``seed``, the penalties, OpenAI's hosted tools, Gemini's own tools, and their fields in
    ``options.extra``) is reported as ``on_unsupported`` says (by default left out with a
    warning).

    Raises:
        FormatError: there is no ``max_tokens`` (the API requires it), or what `to_payload`
            raises.
        InvalidValueError: ``max_tokens`` is below 1.
        UnsupportedContentError: something is left out and ``on_unsupported`` is
            ``"error"`` (or an item the format cannot carry, as `to_payload` says).
    """
    options = history.options if isinstance(history, ChatHistory) else None
    tokens = check_optional_int(max_tokens, "max_tokens")
    if tokens is not None and tokens < 1:  # the API takes 1 or more, as the command line does
        raise InvalidValueError(f"expected a whole number of tokens above 0, got {tokens}",
                                path="max_tokens")
    if tokens is None and options is not None:
        tokens = options.max_tokens
    if tokens is None:
        raise FormatError(
            f"{FORMAT} requires max_tokens: set history.options.max_tokens, or pass "
            "to_request(history, max_tokens=...)",
            path="max_tokens",
        )
    body: dict[str, Any] = {}
    if options is not None and options.model is not None:
        body["model"] = options.model
    body["max_tokens"] = tokens
    payload = writing.to_payload(
        history, on_unsupported=on_unsupported, merge_consecutive=merge_consecutive
    )
    if "system" not in payload and _empty_system(history):
        payload = {"system": [], **payload}
    body.update(payload)
    if options is None:
        return body
    report_options_metadata(options, HINTS, FORMAT, on_unsupported)
    _write_tool_settings(body, options, on_unsupported)
    for name in ("temperature", "top_p"):
        value = getattr(options, name)
        if value is not None and value > 1:  # OpenAI's and Gemini's go to 2; the API refuses it
            what = f"a {name} above 1 ({value!r}: Anthropic takes 0 to 1)"
            unsupported_field(on_unsupported, FORMAT, f"options.{name}", what)
        elif value is not None:
            body[name] = value
    if options.stop is not None:
        body["stop_sequences"] = [options.stop] if isinstance(options.stop, str) else options.stop
    for name in ("reasoning_effort", "seed", "frequency_penalty", "presence_penalty"):
        if getattr(options, name) is not None:
            unsupported_field(on_unsupported, FORMAT, f"options.{name}", f"the option {name!r}")
    _write_extra(body, options, on_unsupported)
    return body


def _empty_system(history: Iterable[ChatMessageContent] | ChatHistory) -> bool:
    """Whether the history starts with the system message read from ``"system": []``.

    The writer leaves out a system prompt of no blocks; this puts back the one read so.
    """
    if not isinstance(history, (ChatHistory, list, tuple)) or not history:
        return False
    first = history[0]
    return (
        isinstance(first, ChatMessageContent)
        and first.role == "system"
        and not first.items
        and get_hints(first, HINTS).get("blocks") is True
    )


def _write_tool_settings(
    body: dict[str, Any], options: ChatOptions, on_unsupported: OnUnsupported | None
) -> None:
    """Write ``tools`` and ``tool_choice``; none of them when every tool given is dropped.

    The API refuses an empty ``tools`` (a ``[]`` given stays) and a choice naming a tool it
    was not given: such a choice, and one forcing a call or setting parallel calls with no
    tool left, are reported (`orphaned_tool_settings`).
    """
    no_choice, no_parallel = write_kept_tools(
        body, options.tools, lambda tools: _write_tools(tools, on_unsupported),
        options.tool_choice, options.parallel_tool_calls,
        format_name=FORMAT, on_unsupported=on_unsupported,
    )
    choice = _write_tool_choice(
        None if no_choice else options.tool_choice,
        None if no_parallel else options.parallel_tool_calls,
        on_unsupported,
    )
    if choice is not None:
        body["tool_choice"] = choice


def _write_tools(
    tools: list[dict[str, Any]], on_unsupported: OnUnsupported | None
) -> list[dict[str, Any]]:
    """Tool definitions in Anthropic's shape: OpenAI and Gemini functions converted, its own kept.

    Raises:
        FormatError: a Gemini function declaration is malformed.
        UnsupportedContentError: a tool or a field of one is left out and ``on_unsupported``
            is ``"error"``.
    """
    written = []
    for index, tool in enumerate(tools):
        where = f"options.tools[{index}]"
        kind = tool.get("type")
        if is_gemini_tool(tool):
            for function in gemini_functions(tool, where, FORMAT, on_unsupported):
                parameters = function.pop("parameters")
                written.append({**function, "input_schema": parameters})
        elif is_anthropic_tool(tool) or kind not in _OPENAI_TOOLS:
            written.append(dict(tool))
        elif kind == "function":
            written.append(_function_tool(tool, where, on_unsupported))
        else:
            shown = json.dumps(kind, ensure_ascii=False)
            unsupported_field(on_unsupported, FORMAT, where, f"a {shown} tool")
    return written


def _function_tool(
    tool: dict[str, Any], where: str, on_unsupported: OnUnsupported | None
) -> dict[str, Any]:
    """An OpenAI function tool (Chat Completions' nested shape or Responses' flat one)."""
    nested = tool.get("function")
    if isinstance(nested, dict):  # Chat Completions: {"type", "function": {"name" ...}}
        function: dict[str, Any] = nested
        extra = [f"{where}.{key}" for key in tool if key not in ("type", "function")]
        extra += [f"{where}.function.{key}" for key in nested if key not in _FUNCTION_KEYS]
    else:  # Responses: {"type", "name" ...}
        function = tool
        extra = [f"{where}.{key}" for key in tool if key != "type" and key not in _FUNCTION_KEYS]
    for path in extra:
        what = f"the tool field {path.rpartition('.')[2]!r}"
        unsupported_field(on_unsupported, FORMAT, path, what)
    converted: dict[str, Any] = {"name": function.get("name")}
    if function.get("description") is not None:  # null: none (an SDK object's dump)
        converted["description"] = function["description"]
    parameters = function.get("parameters")
    converted["input_schema"] = (
        parameters if parameters is not None else {"type": "object", "properties": {}}
    )
    strict = function.get("strict")
    if strict is not None and strict is not False:  # false is Anthropic's default (Responses
        converted["strict"] = strict  # must say it), null none
    return converted


def _write_tool_choice(
    choice: str | dict[str, Any] | None,
    parallel: bool | None,
    on_unsupported: OnUnsupported | None,
) -> dict[str, Any] | None:
    """The ``tool_choice`` object, with ``parallel_tool_calls`` in it; ``None`` for none.

    Raises:
        UnsupportedContentError: the choice is left out and ``on_unsupported`` is
            ``"error"``.
    """
    written: dict[str, Any] | None = None
    if isinstance(choice, str):
        kind = _CHOICES_WRITTEN.get(choice)
        if kind is None:
            what = f"the tool choice {json.dumps(choice, ensure_ascii=False)}"
            unsupported_field(on_unsupported, FORMAT, "options.tool_choice", what)
        else:
            written = {"type": kind}
    elif choice is not None:
        written = _named_choice(choice, on_unsupported)
    if parallel is None:
        return written
    if written is None:
        # No choice (or one left out): the default, "auto", says whether calls may be parallel.
        return None if parallel else {"type": "auto", "disable_parallel_tool_use": True}
    if written["type"] != "none" and "disable_parallel_tool_use" not in written:
        written["disable_parallel_tool_use"] = not parallel
    return written


def _named_choice(
    choice: dict[str, Any], on_unsupported: OnUnsupported | None
) -> dict[str, Any] | None:
    kind = choice.get("type")
    if kind in _ANTHROPIC_CHOICES:
        return dict(choice)  # Anthropic's own shape, kept as it was read
    if kind == "function":
        nested = choice.get("function")
        name = nested.get("name") if isinstance(nested, dict) else choice.get("name")
        if isinstance(name, str):
            return {"type": "tool", "name": name}
    shown = json.dumps(kind, ensure_ascii=False)
    unsupported_field(on_unsupported, FORMAT, "options.tool_choice", f"a {shown} tool choice")
    return None


def _write_extra(
    body: dict[str, Any], options: ChatOptions, on_unsupported: OnUnsupported | None
) -> None:
    """Copy the fields of ``options.extra`` an Anthropic request can carry into ``body``.

    OpenAI and Gemini fields (``store``, ``response_format``, ``safety_settings`` ...),
    fields the writer sets itself, the keys of ``metadata`` other than ``user_id`` (the only
    one Anthropic takes: it is kept, each other key reported by path) and another provider's
    ``service_tier`` are reported; fields no format names are copied
    as vendor extensions. A field's ``null`` (an SDK object's dump of an unset field) is no
    value: it is left out without a word.
    """
    for key, value in options.extra.items():
        if value is None:  # a field's null is its absence (what an SDK dump writes): no loss
            continue
        where = f"options.extra[{json.dumps(key, ensure_ascii=False)}]"
        foreign = key in _OWN_FIELDS or key in _OPENAI_ONLY or is_gemini_only(key)
        if key == "metadata" and isinstance(value, dict):
            kept = _metadata(value, where, on_unsupported)
            if kept is not None:
                body[key] = kept
            continue
        if key == "metadata":
            foreign = True
        elif key == "service_tier":
            foreign = value not in _SERVICE_TIERS
        if foreign:
            unsupported_field(on_unsupported, FORMAT, where, f"the request field {key!r}")
            continue
        body[key] = value


def _metadata(
    metadata: dict[str, Any], where: str, on_unsupported: OnUnsupported | None
) -> dict[str, Any] | None:
    """The ``metadata`` Anthropic takes (``user_id`` only); each other key reported by path.

    ``None`` when nothing is left of a metadata that had keys (OpenAI's, say).
    """
    kept = {key: value for key, value in metadata.items() if key == "user_id"}
    for key in metadata:
        if key != "user_id":
            what = f"the metadata key {key!r} (it takes 'user_id' only)"
            shown = json.dumps(key, ensure_ascii=False)
            unsupported_field(on_unsupported, FORMAT, f"{where}[{shown}]", what)
    return kept if kept or not metadata else None


def to_payload(
    history: Iterable[ChatMessageContent] | ChatMessageContent,
    *,
    on_unsupported: OnUnsupported | None = None,
    merge_consecutive: bool = True,
) -> dict[str, Any]:
    """Write a history, or one message, as ``{"system": ..., "messages": [...]}``.

    See `semantic_chat.formats.anthropic.writing.to_payload`; ``"system"`` is there only when
    the history has system or developer messages. The history's options are not part of it:
    `to_request` writes them.

    Raises:
        UnsupportedContentError: what `writing.to_payload` raises.
        FormatError: a role the format does not have, or consecutive turns of one role with
            ``merge_consecutive=False``.
    """
    if on_unsupported is not None:  # None, the default, needs no check
        on_unsupported = policy(on_unsupported)
    if type(history) is not ChatHistory and isinstance(history, ChatMessageContent):
        history = [history]
    # The writer itself, not `writing.to_payload`: a call less for every history written.
    return writing._to_payload(history, on_unsupported, merge_consecutive, True)
