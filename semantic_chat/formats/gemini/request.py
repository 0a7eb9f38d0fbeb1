"""Gemini documents: ``generateContent`` requests, responses and Batch API lines.

`from_request` reads a request's ``contents`` and ``system_instruction`` into the history
and its settings into ``history.options`` (`semantic_chat.ChatOptions`); `to_request` writes
them back, so that ``to_request(from_request(body)) == body`` (in the body's spelling when
``spelling`` says it). Both layouts are read: the REST body (``contents``,
``system_instruction``, ``tools``, ``tool_config``, ``safety_settings``,
``generation_config``, ``cached_content``, ``labels`` and ``model``) and the SDK's
``generate_content`` keywords (``{"model", "contents", "config"}``, every setting in
``config``); `to_request` writes the layout the body was read in (REST for a history that
was not read from Gemini, or as ``layout`` says). `from_payload` takes a ``contents`` list
or any of these documents, told apart by their keys.

Options in Gemini's names (in a REST body, the settings are ``generation_config``'s unless
said otherwise; in the SDK's, ``config``'s):

=================================  =========================================================
`ChatOptions`                      Gemini
=================================  =========================================================
``model``                          ``model`` (at the top in both layouts)
``temperature``, ``top_p``,        the same names
``seed``, ``presence_penalty``,
``frequency_penalty``
``max_tokens``                     ``max_output_tokens``
``stop``                           ``stop_sequences`` (a string is written as a list of one)
``reasoning_effort``               ``thinking_config.thinking_level``, in lower case
                                   (``"HIGH"`` is ``"high"``); the rest of
                                   ``thinking_config``, and a level
                                   ``THINKING_LEVEL_UNSPECIFIED`` (no effort),
                                   stay in ``extra``
``tools``                          ``tools`` (at the top of a REST body), kept as given;
                                   OpenAI and Anthropic function tools become one tool of
                                   ``function_declarations``
``tool_choice``                    ``tool_config.function_calling_config``: mode ``AUTO`` is
                                   ``"auto"``, ``ANY`` ``"required"``, ``NONE`` ``"none"``;
                                   ``ANY`` with one of ``allowed_function_names`` the
                                   function choice ``{"type": "function", "name"}``; any
                                   other ``tool_config`` stays in ``extra``
``extra``                          every other field under its snake_case name
                                   (``candidate_count``, ``top_k``, ``safety_settings``,
                                   ``response_mime_type``, ``response_json_schema``,
                                   ``cached_content``, ``labels`` ...)
=================================  =========================================================

``parallel_tool_calls``, a tool choice Gemini has no mode for, OpenAI and Anthropic fields
in ``options.extra`` (``response_format`` of a JSON schema, ``thinking``, ``metadata`` ...)
and, in a REST body, the SDK's client settings (``http_options``,
``automatic_function_calling``) are reported as ``on_unsupported`` says.

Keys are read in either spelling (``max_output_tokens`` or ``maxOutputTokens``) and written
in one: ``spelling="snake"`` (the default: the SDK's names, which the REST API takes too) or
``"camel"`` (the REST documentation's). The user's data (``labels``, JSON schemas) is never
respelled.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, Literal

from ...errors import FormatError, InvalidValueError, SemanticChatError, describe_type
from ...history import ChatHistory
from ...message import ChatMessageContent
from ...options import ChatOptions
from ...trusted import new_history
from .. import documents, registry
from ..request_fields import (
    ANTHROPIC_KEYS,
    CHAT_KEYS,
    GEMINI_KEYS,
    RESPONSES_KEYS,
    anthropic_choice,
    check_tool_names,
    report_options_metadata,
    write_gemini_tools,
    write_kept_tools,
)
from ..wire import OnUnsupported, policy, unsupported_field
from . import reading, writing
from .shared import (
    FORMAT,
    HINTS,
    Spelling,
    camel_key,
    check_spelling,
    proto_json,
    respell,
    sdk_plain,
    snake_key,
)

__all__ = ["Layout", "from_payload", "from_request", "to_payload", "to_request"]

Layout = Literal["rest", "sdk"]
"""The two shapes of a request: ``"rest"`` (the ``generateContent`` body, settings in
``generation_config``) and ``"sdk"`` (``generate_content``'s ``{"model", "contents",
"config"}``)."""

# Config fields that become options under another name, or the same.
_OPTIONS = {
    "temperature": "temperature",
    "top_p": "top_p",
    "max_output_tokens": "max_tokens",
    "stop_sequences": "stop",
    "seed": "seed",
    "presence_penalty": "presence_penalty",
    "frequency_penalty": "frequency_penalty",
    "tools": "tools",
}

# Where a field the REST body holds at its top level (not in ``generation_config``) goes.
_BODY_FIELDS = frozenset((
    "tools", "tool_config", "safety_settings", "cached_content", "labels", "service_tier",
    "store", "continuation_token", "model_armor_config", "output_config",
))
# The SDK's config names of the REST body's fields named otherwise.
_SDK_NAMES = {"output_config": "generation_output_config"}
_REST_NAMES = {sdk: rest for rest, sdk in _SDK_NAMES.items()}

# Settings of the SDK's client, not of the API: a REST body cannot carry them.
_SDK_ONLY = frozenset((
    "http_options", "automatic_function_calling", "should_return_http_response",
    "automatic_continuation",
))

# What the writer sets itself: never copied from ``options.extra``.
_OWN_FIELDS = frozenset((
    "model", "contents", "system_instruction", "generation_config", "config", "tools",
    "temperature", "top_p", "max_output_tokens", "stop_sequences", "seed", "presence_penalty",
    "frequency_penalty",
))
_FOREIGN = (CHAT_KEYS | RESPONSES_KEYS | ANTHROPIC_KEYS) - GEMINI_KEYS

_MODES_READ = {"AUTO": "auto", "ANY": "required", "NONE": "none"}
_MODES_WRITTEN = {choice: mode for mode, choice in _MODES_READ.items()}
_ALLOWED_MODES = {"auto": "AUTO", "required": "ANY"}
# google-genai's ``types.ThinkingLevel`` members, lower case: the efforts Gemini can carry.
# ``THINKING_LEVEL_UNSPECIFIED`` says no effort: it is kept in the ``thinking_config``.
_LEVELS = frozenset(("minimal", "low", "medium", "high", "xhigh"))
_NO_LEVEL = "THINKING_LEVEL_UNSPECIFIED"
_TIERS = frozenset(("unspecified", "flex", "standard", "priority"))
_CALLING_KEYS = frozenset(("mode", "allowed_function_names"))

# Batch lines whose body is read here: Gemini's request lines, OpenAI's lines, and an
# Anthropic results line that holds a Gemini reply (as the command line converts one).
_ENVELOPES = frozenset(("gemini_batch", "batch_input", "batch_output", "anthropic_batch_result"))


def from_payload(payload: Any) -> ChatHistory:
    """Read a ``contents`` list, or a whole Gemini document, into a history.

    A document is ``{"contents", "system_instruction"}`` as `to_payload` writes it, a request
    (`from_request`: a REST body or the SDK's ``{"model", "contents", "config"}``), a
    ``GenerateContentResponse`` (dict or SDK object; its first candidate, as `from_response`
    reads it, makes a one-message history), or a Batch line holding one of those: a Batch API
    input line (``{"key", "request"}``), an output line (``{"key", "response"}``), or an
    OpenAI Batch line. The ``key`` is not kept: the command line keeps the envelope. An
    output line converted by the command line holds the reply in the format it was converted
    to: its ``response`` is read in the format it is in (`semantic_chat.formats.detect`).

    Raises:
        FormatError: a malformed content or document; the message names the location, e.g.
            ``request.contents[3].parts[1].function_call.args`` in a Batch line.
    """
    if isinstance(payload, (list, tuple)) or (
        not isinstance(payload, (dict, str, bytes)) and not hasattr(payload, "model_dump")
    ):
        documents.refuse_stream(payload)  # a list of events is no conversation
        return reading.from_payload(payload)
    document = sdk_plain(payload, "") if not isinstance(payload, (str, bytes)) else payload
    kind = documents.kind_of(document)
    if kind in _ENVELOPES:
        history: ChatHistory = documents.read_enveloped(document, from_payload)
        return history
    if kind == "gemini_batch_result":
        replied: ChatHistory = documents.read_enveloped(document, _read_reply)
        return replied
    if kind == "gemini_request":
        return from_request(document)
    if kind == "gemini_response":
        return new_history([reading.from_response(document)])
    expected = "a list of contents or a Gemini document"
    if kind is None:
        documents.refuse_stream(document)  # one event of another API's stream, saved alone
        documents.refuse_own_document(document, "contents", expected)
        return reading.from_payload(document)  # refuses it as it refuses any non-list
    raise FormatError.mismatch("contents", expected, documents.KIND_NAMES[kind])


def _read_reply(body: Any) -> ChatHistory:
    """The reply of a Batch API output line, read in the format it is in.

    Gemini's, as the API writes it, or the one the command line converted it to.

    Raises:
        FormatError: no format recognises it, or it is malformed.
    """
    if documents.kind_of(body) in ("gemini_response", "gemini_request"):
        return from_payload(body)
    return registry.get(registry.detect(body)).from_payload(body)


class _Read:
    """What a request's settings give, gathered while reading them."""

    __slots__ = ("extra", "hints", "named", "origins", "placed")

    def __init__(self) -> None:
        self.named: dict[str, Any] = {}
        self.extra: dict[str, Any] = {}
        self.hints: dict[str, Any] = {}
        self.origins: dict[str, str] = {}  # option or extra name -> where it was read
        self.placed: dict[str, str] = {}  # extra name -> "body" or "generation_config"

    def keep(self, name: str, value: Any, where: str) -> None:
        """Keep a field in ``extra``, refusing one read twice (at the top and in a config).

        Raises:
            FormatError: the field was read before, under another key.
        """
        if name in self.extra:
            raise FormatError(
                f"{name!r} is given twice (also at {self.origins[name]})", path=where
            )
        self.extra[name] = value
        self.origins[name] = where


def from_request(body: Any) -> ChatHistory:
    """Read a ``generateContent`` request (a dict, in either layout and spelling).

    ``contents`` and ``system_instruction`` become the history's messages (the instruction a
    leading system message); ``model``, the settings the module's table names and the tool
    choice become ``history.options``; every other field is kept in ``options.extra`` under
    its snake_case name, its structural keys in snake_case (the user's data, such as
    schemas and ``labels``, as given); ``tools`` are kept as given, and written in the
    spelling asked for. The SDK layout (a ``config``
    beside ``contents``) is remembered in the options' hints, so that `to_request` writes it
    again; a ``config`` given as a ``GenerateContentConfig`` object is read as its fields. A
    body of ``contents`` and ``system_instruction`` alone has no options.

    Raises:
        FormatError: the body is not an object, has no ``contents``, a field holds the wrong
            type, a function declaration has no ``str`` name, or a field is given twice (in
            both spellings, or at the top of a REST body and in its ``generation_config``);
            the message names the field
            (``generation_config.stop_sequences[0]: expected a str, got int``) or the content
            (``contents[2].parts[0]``).
    """
    document = sdk_plain(body, "request")
    if type(document) is not dict:
        raise FormatError.mismatch("request", "a request object", describe_type(document))
    document = _proto_settings(document)
    fields = _snake_fields(document, "")
    if "contents" not in fields:
        raise FormatError("missing 'contents'", path="request")
    read = _Read()
    sdk = "config" in fields
    system = _read_sdk(fields, read) if sdk else _read_rest(fields, read)
    history = reading.from_payload(fields["contents"][1], system)
    if sdk:
        read.hints["layout"] = "sdk"
    if read.placed:
        read.hints["placed"] = read.placed
    if read.named or read.extra or read.hints:
        history.options = _options(read)
    return history


def _proto_settings(document: dict[str, Any]) -> dict[str, Any]:
    """A request with its fields but ``contents`` as proto JSON (`shared.proto_json`).

    The contents are left to the reader, which normalises only a content its quick reader
    does not take, so that a clean request is not walked twice.
    """
    settings = {key: value for key, value in document.items() if not _is_contents(key)}
    clean = proto_json(settings)
    if clean is settings:
        return document
    return {
        key: value if _is_contents(key) else clean[key]
        for key, value in document.items()
        if _is_contents(key) or key in clean
    }


def _is_contents(key: Any) -> bool:
    return type(key) is str and snake_key(key) == "contents"


def _snake_fields(mapping: dict[str, Any], path: str) -> dict[str, tuple[str, Any]]:
    """An object's fields by their snake_case names, each with the key it was given under.

    Raises:
        FormatError: a field is given in both spellings (``generation_config`` and
            ``generationConfig``).
    """
    fields: dict[str, tuple[str, Any]] = {}
    for key, value in mapping.items():
        name = snake_key(key) if type(key) is str else key
        if name in fields:
            where = f"{path}.{key}" if path else key
            raise FormatError(
                f"{name!r} is given twice (also as {fields[name][0]!r})", path=where
            )
        fields[name] = (key, value)
    return fields


def _read_sdk(fields: dict[str, tuple[str, Any]], read: _Read) -> Any:
    """Read ``generate_content``'s keywords; return the system instruction (or ``None``).

    Raises:
        FormatError: a key other than ``model``, ``contents`` and ``config``, or a
            malformed ``config``.
    """
    for name, (key, value) in fields.items():
        if name == "model":
            _read_model(value, key, read)
        elif name not in ("contents", "config"):
            raise FormatError(
                "unexpected beside 'config': generate_content takes model, contents and "
                "config",
                path=key,
            )
    key, config = fields["config"]
    config = sdk_plain(config, key)
    if config is None:
        return None
    if type(config) is not dict:
        raise FormatError.mismatch(key, "a config object", describe_type(config))
    system = None
    for name, (inner, value) in _snake_fields(config, key).items():
        if name == "system_instruction":
            system = value
        else:
            _read_setting(name, value, f"{key}.{inner}", read)
    return system


def _read_rest(fields: dict[str, tuple[str, Any]], read: _Read) -> Any:
    """Read a REST body's fields; return its system instruction (or ``None``).

    Raises:
        FormatError: a malformed field or ``generation_config``.
    """
    generation = fields.get("generation_config")
    for name, (key, value) in fields.items():
        if name in ("contents", "system_instruction", "generation_config"):
            continue
        if name == "model":
            _read_model(value, key, read)
        elif name in ("tools", "tool_config"):
            _read_setting(name, value, key, read)
        else:
            config_name = _SDK_NAMES.get(name, name)
            read.keep(config_name, _respelled(name, value, "snake"), key)
            if name not in _BODY_FIELDS:
                read.placed[config_name] = "body"
    if generation is not None:
        key, config = generation
        if type(config) is not dict:
            raise FormatError.mismatch(key, "a generation config object", describe_type(config))
        for name, (inner, value) in _snake_fields(config, key).items():
            where = f"{key}.{inner}"
            before = len(read.extra)
            _read_setting(name, value, where, read)
            if len(read.extra) > before and (name in _BODY_FIELDS or name in _SDK_NAMES.values()):
                read.placed[name] = "generation_config"
    system = fields.get("system_instruction")
    return None if system is None else system[1]


def _read_model(value: Any, key: str, read: _Read) -> None:
    read.named["model"] = value
    read.origins["model"] = key


def _read_setting(name: str, value: Any, where: str, read: _Read) -> None:
    """Read one config setting (``name`` in snake_case) into options, or ``extra``.

    Raises:
        FormatError: a ``thinking_config`` or ``tool_config`` is malformed, or the setting
            was read before.
    """
    option = _OPTIONS.get(name)
    if option == "tools":
        check_tool_names(value, where)
    if option is not None:
        if option in read.named:
            raise FormatError(
                f"{name!r} is given twice (also at {read.origins[option]})", path=where
            )
        read.named[option] = value
        read.origins[option] = where
    elif name == "thinking_config":
        _read_thinking(value, where, read)
    elif name == "tool_config":
        _read_tool_config(value, where, read)
    else:
        read.keep(name, _respelled(name, value, "snake"), where)


def _respelled(name: str, value: Any, spelling: Spelling) -> Any:
    """The value of the field ``name`` with its structural keys respelled (not the user's)."""
    return next(iter(respell({name: value}, spelling).values()))


def _read_thinking(value: Any, where: str, read: _Read) -> None:
    """``thinking_level`` as ``reasoning_effort`` (lower case); the rest stays in ``extra``.

    Raises:
        FormatError: the config is not an object, or its level is not a string.
    """
    config = _respelled("thinking_config", value, "snake")
    if type(config) is not dict:
        raise FormatError.mismatch(where, "a thinking config object", describe_type(config))
    level = config.get("thinking_level")
    if level is not None and type(level) is not str:
        raise FormatError.mismatch(f"{where}.thinking_level", "str", describe_type(level))
    if level is None or level.upper() == _NO_LEVEL:  # no effort: the config stays whole
        read.keep("thinking_config", config, where)
        return
    del config["thinking_level"]
    read.named["reasoning_effort"] = level.lower()
    read.origins["reasoning_effort"] = f"{where}.thinking_level"
    read.hints["thinking_level"] = level
    if config:
        read.keep("thinking_config", config, where)


def _read_tool_config(value: Any, where: str, read: _Read) -> None:
    """A ``function_calling_config`` of a known mode as ``tool_choice``; the rest in ``extra``.

    A mode this code does not map (``VALIDATED``, several allowed names, a mode in another
    case, more keys) keeps the whole ``tool_config`` in ``extra``.

    Raises:
        FormatError: the config, its ``function_calling_config``, a mode or an allowed name
            holds the wrong type.
    """
    config = _respelled("tool_config", value, "snake")
    if type(config) is not dict:
        raise FormatError.mismatch(where, "a tool config object", describe_type(config))
    calling = config.get("function_calling_config")
    choice = None
    if calling is not None:
        choice = _tool_choice(calling, f"{where}.function_calling_config")
    if choice is None:
        read.keep("tool_config", config, where)
        return
    read.named["tool_choice"] = choice
    read.origins["tool_choice"] = f"{where}.function_calling_config"
    rest = {key: element for key, element in config.items() if key != "function_calling_config"}
    if rest:
        read.keep("tool_config", rest, where)


def _tool_choice(calling: Any, where: str) -> str | dict[str, Any] | None:
    """The tool choice a ``function_calling_config`` says, or ``None`` when none maps.

    Raises:
        FormatError: it is not an object, its mode not a string, or its allowed names not
            a list of strings.
    """
    if type(calling) is not dict:
        raise FormatError.mismatch(where, "a function calling config", describe_type(calling))
    mode = calling.get("mode")
    if mode is not None and type(mode) is not str:
        raise FormatError.mismatch(f"{where}.mode", "str", describe_type(mode))
    names = calling.get("allowed_function_names")
    if names is not None:
        if type(names) is not list:
            raise FormatError.mismatch(
                f"{where}.allowed_function_names", "a list of str", describe_type(names)
            )
        for index, name in enumerate(names):
            if type(name) is not str:
                raise FormatError.mismatch(
                    f"{where}.allowed_function_names[{index}]", "str", describe_type(name)
                )
    if not calling.keys() <= _CALLING_KEYS or mode not in _MODES_READ:
        return None
    if names is None:
        return _MODES_READ[mode]
    if mode == "ANY" and len(names) == 1:
        return {"type": "function", "name": names[0]}
    return None


def _options(read: _Read) -> ChatOptions:
    """Build the options, an error located at the request field it came from.

    Raises:
        FormatError: a field holds a value of the wrong type.
    """
    metadata = {HINTS: read.hints} if read.hints else None
    try:
        return ChatOptions(**read.named, extra=read.extra, metadata=metadata)
    except SemanticChatError as error:
        head, dot, rest = error.path.partition(".")
        bracket = head.find("[")
        name, tail = (head, "") if bracket < 0 else (head[:bracket], head[bracket:])
        if name == "extra" and tail:
            name, tail = json.loads(tail[1:tail.index("]")]), tail[tail.index("]") + 1:]
        wire = read.origins.get(name, name)
        raise FormatError(error.detail, path=f"{wire}{tail}{dot}{rest}") from None


def to_request(
    history: Iterable[ChatMessageContent] | ChatHistory,
    *,
    on_unsupported: OnUnsupported | None = None,
    spelling: Spelling = "snake",
    layout: Layout | None = None,
) -> dict[str, Any]:
    """Write a history as a ``generateContent`` request.

    ``layout`` ``"rest"`` writes the REST body: ``model`` (when there is one), ``contents``,
    ``system_instruction`` (always a ``Content``), ``tools``, ``tool_config`` and the other
    top-level fields, then ``generation_config``; ``"sdk"`` writes ``generate_content``'s
    keywords ``{"model", "contents", "config"}`` with every setting (and the instruction) in
    ``config``. ``None`` writes the layout the options were read in (REST when they were
    not read from Gemini). Options go under Gemini's names (the module's table); OpenAI and
    Anthropic function tools become ``function_declarations``. Keys are spelled as
    ``spelling`` says. What Gemini has no field for (``parallel_tool_calls``, a tool choice
    without a mode, OpenAI and Anthropic fields in ``options.extra``) is reported as
    ``on_unsupported`` says (by default left out with a warning).

    Raises:
        InvalidValueError: ``spelling`` or ``layout`` is not one of its values.
        FormatError: what `to_payload` raises.
        UnsupportedContentError: something is left out and ``on_unsupported`` is
            ``"error"`` (or an item the format cannot carry, as `to_payload` says).
    """
    spelling = check_spelling(spelling)
    if layout not in (None, "rest", "sdk"):
        raise InvalidValueError(f"expected 'rest', 'sdk' or None, got {layout!r}", path="layout")
    options = history.options if isinstance(history, ChatHistory) else None
    hints = (
        report_options_metadata(options, HINTS, FORMAT, on_unsupported)
        if options is not None
        else {}
    )
    if layout is None:
        layout = "sdk" if hints.get("layout") == "sdk" else "rest"
    payload = writing.to_payload(history, on_unsupported=on_unsupported, spelling=spelling)
    contents = payload["contents"]
    system = payload.get("system_instruction", payload.get("systemInstruction"))
    config: dict[str, Any] = {}
    if options is not None:
        config = _settings(options, hints, layout, on_unsupported)
    spell = snake_key if spelling == "snake" else camel_key
    body: dict[str, Any] = {}
    if options is not None and options.model is not None:
        body["model"] = options.model
    body["contents"] = contents
    if layout == "sdk":
        settings = respell(config, spelling)
        if system is not None:
            settings = {spell("system_instruction"): system, **settings}
        if settings:
            body["config"] = settings
        return body
    if system is not None:
        if isinstance(system, str):  # the SDK's config takes a string; the REST API does not
            system = {"parts": [{"text": system}]}
        body[spell("system_instruction")] = system
    placed = hints.get("placed")
    placed = placed if isinstance(placed, dict) else {}
    top: dict[str, Any] = {}
    generation: dict[str, Any] = {}
    for name, value in config.items():
        where = placed.get(name)
        if where is None:
            where = "body" if _REST_NAMES.get(name, name) in _BODY_FIELDS else "generation_config"
        if where == "body":
            top[_REST_NAMES.get(name, name)] = value
        else:
            generation[name] = value
    body.update(respell(top, spelling))
    if generation:
        body[spell("generation_config")] = respell(generation, spelling)
    return body


def _settings(
    options: ChatOptions,
    hints: dict[str, Any],
    layout: Layout,
    on_unsupported: OnUnsupported | None,
) -> dict[str, Any]:
    """The request's settings by their snake_case config names, in the order they are written.

    Raises:
        UnsupportedContentError: something is left out and ``on_unsupported`` is
            ``"error"``.
    """
    config: dict[str, Any] = {}
    for name in ("temperature", "top_p"):
        value = getattr(options, name)
        if value is not None:
            config[name] = value
    if options.max_tokens is not None:
        config["max_output_tokens"] = options.max_tokens
    if options.stop is not None:
        config["stop_sequences"] = [options.stop] if isinstance(options.stop, str) else options.stop
    for name in ("seed", "presence_penalty", "frequency_penalty"):
        value = getattr(options, name)
        if value is not None:
            config[name] = value
    thinking = _thinking(options, hints, on_unsupported)
    if thinking is not None:
        config["thinking_config"] = thinking
    # Gemini's own tools as given; OpenAI and Anthropic function tools as declarations.
    # parallel_tool_calls: reported below whatever the tools (Gemini has no such option).
    no_choice, _ = write_kept_tools(
        config, options.tools, lambda tools: write_gemini_tools(tools, on_unsupported),
        options.tool_choice, None, format_name=FORMAT, on_unsupported=on_unsupported,
    )
    tool_config = _tool_config(options, no_choice, on_unsupported)
    if tool_config is not None:
        config["tool_config"] = tool_config
    if options.parallel_tool_calls is not None:
        unsupported_field(
            on_unsupported, FORMAT, "options.parallel_tool_calls",
            "the option 'parallel_tool_calls'",
        )
    for key, value in options.extra.items():
        if key in ("thinking_config", "tool_config"):
            continue  # merged above
        where = f"options.extra[{json.dumps(key, ensure_ascii=False)}]"
        provider = _foreign_value(key, value)
        if key in _OWN_FIELDS or key in _FOREIGN:
            unsupported_field(on_unsupported, FORMAT, where, f"the request field {key!r}")
        elif provider is not None:
            what = f"the request field {key!r} with {provider}'s value {value!r}"
            unsupported_field(on_unsupported, FORMAT, where, what)
        elif layout == "rest" and key in _SDK_ONLY:
            what = f"the SDK setting {key!r} in a REST request body"
            unsupported_field(on_unsupported, FORMAT, where, what)
        else:
            config[key] = value
    return config


def _foreign_value(key: str, value: Any) -> str | None:
    """The provider whose value a field Gemini names too holds, when Gemini takes no such value.

    A ``service_tier`` other than Gemini's (``"default"``, ``"scale"``: OpenAI's;
    ``"standard_only"``: Anthropic's; ``"auto"``: both theirs), a ``logprobs`` flag and an
    object ``response_format`` (OpenAI's). ``None`` for a value Gemini takes, or may.
    """
    if key == "service_tier" and isinstance(value, str) and value.lower() not in _TIERS:
        if value == "auto":
            return "Anthropic's or OpenAI"  # both take it
        return "Anthropic" if value == "standard_only" else "OpenAI"
    if (key == "logprobs" and type(value) is bool) or (
        key == "response_format" and type(value) is dict
    ):
        return "OpenAI"
    return None


def _thinking(
    options: ChatOptions, hints: dict[str, Any], on_unsupported: OnUnsupported | None
) -> dict[str, Any] | None:
    """``thinking_config``: the kept one, with ``reasoning_effort`` as its level.

    A level read from Gemini is written as it was read (``"low"`` stays lower case); others
    in upper case, as the SDK's enum has them (``"xhigh"`` is ``XHIGH``). An effort Gemini has
    no level for (OpenAI's ``"none"``) is reported.
    """
    kept = options.extra.get("thinking_config")
    effort = options.reasoning_effort
    if effort is None:
        return dict(kept) if isinstance(kept, dict) else kept
    read = hints.get("thinking_level")
    if isinstance(read, str) and read.lower() == effort:
        level = read
    elif effort in _LEVELS:
        level = effort.upper()
    else:
        what = f"the reasoning effort {json.dumps(effort, ensure_ascii=False)}"
        unsupported_field(on_unsupported, FORMAT, "options.reasoning_effort", what)
        return dict(kept) if isinstance(kept, dict) else kept
    if isinstance(kept, dict):  # the effort wins over a kept "no level"
        return {**kept, "thinking_level": level}
    return {"thinking_level": level}


def _tool_config(
    options: ChatOptions, no_choice: bool, on_unsupported: OnUnsupported | None
) -> dict[str, Any] | None:
    """``tool_config``: the kept one, with the tool choice as its ``function_calling_config``.

    ``no_choice``: the choice is left out (it names a dropped tool, or no tool is left).

    Raises:
        UnsupportedContentError: the choice is left out and ``on_unsupported`` is
            ``"error"``.
    """
    kept = options.extra.get("tool_config")
    choice = None if no_choice else options.tool_choice
    calling = None if choice is None else _calling_config(choice, on_unsupported)
    if calling is None:
        return dict(kept) if isinstance(kept, dict) else kept
    if isinstance(kept, dict):
        return {"function_calling_config": calling, **{
            key: value for key, value in kept.items() if key != "function_calling_config"
        }}
    return {"function_calling_config": calling}


def _calling_config(
    choice: str | dict[str, Any], on_unsupported: OnUnsupported | None
) -> dict[str, Any] | None:
    """The ``function_calling_config`` of a tool choice; ``None`` when Gemini has no mode for it.

    ``"auto"``, ``"required"`` and ``"none"`` are modes; a function choice (in any format's
    shape) is ``ANY`` with its name allowed, and OpenAI's ``allowed_tools`` ``AUTO`` or
    ``ANY`` with their names.
    """
    if isinstance(choice, str):
        mode = _MODES_WRITTEN.get(choice)
        if mode is not None:
            return {"mode": mode}
    else:
        kind = choice.get("type")
        if kind in ("auto", "any", "none", "tool"):  # Anthropic's, kept whole when unusual
            converted = anthropic_choice(choice, FORMAT, on_unsupported)
            return None if converted is None else _calling_config(converted, on_unsupported)
        if kind == "function":
            name = _function_name(choice)
            if name is not None:
                return {"mode": "ANY", "allowed_function_names": [name]}
        elif kind == "allowed_tools":
            found = _allowed_tools(choice)
            if found is not None:
                return found
    shown = json.dumps(choice if isinstance(choice, str) else choice.get("type"),
                       ensure_ascii=False)
    what = f"the tool choice {shown}" if isinstance(choice, str) else f"a {shown} tool choice"
    unsupported_field(on_unsupported, FORMAT, "options.tool_choice", what)
    return None


def _function_name(choice: dict[str, Any]) -> str | None:
    """The function a choice names: ``{"type": "function", "name"}`` or Chat's nested one."""
    nested = choice.get("function")
    name = nested.get("name") if isinstance(nested, dict) else choice.get("name")
    return name if isinstance(name, str) else None


def _allowed_tools(choice: dict[str, Any]) -> dict[str, Any] | None:
    """OpenAI's ``allowed_tools`` choice (nested or flat) as a mode with allowed names."""
    body = choice.get("allowed_tools")
    body = body if isinstance(body, dict) else choice
    named = body.get("mode")
    mode = _ALLOWED_MODES.get(named) if isinstance(named, str) else None
    tools = body.get("tools")
    if mode is None or not isinstance(tools, list):
        return None
    names = []
    for tool in tools:
        name = _function_name(tool) if isinstance(tool, dict) else None
        if name is None or tool.get("type") != "function":
            return None
        names.append(name)
    return {"mode": mode, "allowed_function_names": names}


def to_payload(
    history: Iterable[ChatMessageContent] | ChatMessageContent,
    *,
    on_unsupported: OnUnsupported | None = None,
    spelling: Spelling = "snake",
) -> dict[str, Any]:
    """Write a history, or one message, as ``{"contents": [...], "system_instruction": ...}``.

    See `semantic_chat.formats.gemini.writing.to_payload`; ``"system_instruction"`` is there
    only when the history has system or developer messages. The history's options are not
    part of it: `to_request` writes them.

    Raises:
        InvalidValueError: ``spelling`` is neither ``"snake"`` nor ``"camel"``.
        UnsupportedContentError: what `writing.to_payload` raises.
        FormatError: a role the format does not have, or a result whose function name
            cannot be found.
    """
    if on_unsupported is not None:  # None, the default, needs no check
        on_unsupported = policy(on_unsupported)
    keys = writing.spelling_keys(spelling)
    if type(history) is not ChatHistory and isinstance(history, ChatMessageContent):
        history = [history]
    # The writer itself, not `writing.to_payload`: a call less for every history written.
    return writing._to_payload(history, on_unsupported, keys, True)
