"""Shared helpers for the wire-format tests: fixture cases and validation against the SDKs.

Two traps of validating a payload with the SDK's ``TypedDict`` request types through pydantic:

1. fields typed ``Iterable[X]`` get a lazy ``ValidatorIterator``; nothing inside them is checked
   until they are iterated, so `validate_chat_message` / `validate_responses_item` walk the
   validated value and ``list()`` every such iterable;
2. ``TypedDict`` validation ignores keys it does not declare, so `assert_keys_known` walks the
   payload beside the type, picks the union member each object matches (by its ``type`` /
   ``role``) and reports every key that member does not declare.
"""

from __future__ import annotations

import collections.abc
import enum
import json
import re
import types
import typing
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin

import typing_extensions
from anthropic.types import (
    ContentBlockParam,
    MessageParam,
    WebSearchToolRequestErrorObjectParam,
)
from anthropic.types.message_create_params import (
    MessageCreateParamsBase,
    MessageCreateParamsNonStreaming,
    MessageCreateParamsStreaming,
)
from google.genai import types as genai_types
from openai.types.chat import ChatCompletionMessageParam
from openai.types.responses import ResponseInputItemParam
from pydantic import BaseModel, TypeAdapter, ValidationError

FIXTURES = Path(__file__).parent / "fixtures"

CHAT_MESSAGE_ADAPTER: TypeAdapter[Any] = TypeAdapter(ChatCompletionMessageParam)
RESPONSES_ITEM_ADAPTER: TypeAdapter[Any] = TypeAdapter(ResponseInputItemParam)

# The base64 payloads of the fixtures: a 4x4 PNG, a 4-sample WAV, an MP3 frame, a tiny PDF.
PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAEElEQVR42mO4o6EBRwzEcQDzAxLBy9ItygAAAABJ"
    "RU5ErkJggg=="
)
WAV = "UklGRiwAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQgAAAAAAOgDGPwAAA=="
MP3 = "SUQzBAAAAAAAAP/7kGQAAAAAAAAAAAAAAAAAAAAA"
PDF = "JVBERi0xLjQKMSAwIG9iaiA8PD4+IGVuZG9iagp0cmFpbGVyIDw8Pj4KJSVFT0YK"


# --- fixture cases -----------------------------------------------------------------------


@cache
def _load(filename: str) -> tuple[dict[str, Any], ...]:
    with (FIXTURES / filename).open(encoding="utf-8") as stream:
        return tuple(json.load(stream))


def cases(filename: str, kind: str | None = None) -> list[dict[str, Any]]:
    """The fixture cases of one file (deep copies, so a test may change them), by kind."""
    return [
        json.loads(json.dumps(case))
        for case in _load(filename)
        if kind is None or case["kind"] == kind
    ]


def case(filename: str, name: str) -> dict[str, Any]:
    """One fixture case by name (a deep copy)."""
    for found in cases(filename):
        if found["name"] == name:
            return found
    raise KeyError(name)


def case_ids(found: list[dict[str, Any]]) -> list[str]:
    return [c["name"] for c in found]


def dumps_sorted(value: Any) -> str:
    """JSON text with sorted keys: equal only when every list (parts, items) has the same order."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


# --- SDK validation ----------------------------------------------------------------------


def force_lazy(value: Any) -> None:
    """Iterate every lazily validated ``Iterable`` inside a validated value (nested too)."""
    if isinstance(value, (str, bytes, bytearray)):
        return
    if isinstance(value, dict):
        for element in value.values():
            force_lazy(element)
    elif isinstance(value, collections.abc.Iterable):
        for element in list(value):
            force_lazy(element)


def _short(error: ValidationError) -> str:
    text = str(error)
    return text if len(text) < 3000 else text[:3000] + "\n..."


def validate_chat_message(message: Any, where: str = "message") -> None:
    """Fail unless ``message`` is a valid ``ChatCompletionMessageParam`` with no unknown keys."""
    try:
        force_lazy(CHAT_MESSAGE_ADAPTER.validate_python(message))
    except ValidationError as error:
        raise AssertionError(
            f"{where} is not a ChatCompletionMessageParam: {_short(error)}"
        ) from None
    assert_keys_known(message, ChatCompletionMessageParam, where)


def validate_responses_item(item: Any, where: str = "item") -> None:
    """Fail unless ``item`` is a valid ``ResponseInputItemParam`` with no unknown keys."""
    try:
        force_lazy(RESPONSES_ITEM_ADAPTER.validate_python(item))
    except ValidationError as error:
        raise AssertionError(
            f"{where} is not a ResponseInputItemParam: {_short(error)}"
        ) from None
    assert_keys_known(item, ResponseInputItemParam, where)


def validate_chat_payload(messages: list[Any]) -> None:
    for index, message in enumerate(messages):
        validate_chat_message(message, f"messages[{index}]")


def validate_responses_payload(items: Any) -> None:
    if isinstance(items, str):
        return
    for index, item in enumerate(items):
        validate_responses_item(item, f"input[{index}]")


# --- every key declared ------------------------------------------------------------------

_KEY_WRAPPERS = {
    typing_extensions.Required,
    typing_extensions.NotRequired,
    typing_extensions.ReadOnly,
    getattr(typing, "Required", None),
    getattr(typing, "NotRequired", None),
} - {None}
_UNIONS = (Union, types.UnionType)
_DISCRIMINATORS = ("type", "role")


def assert_keys_known(value: Any, typed_dict_type: Any, where: str = "value") -> None:
    """Fail when some object in ``value`` has a key its matching ``TypedDict`` does not declare.

    Unions are resolved member by member: an object must fit (every key declared, every
    required key present, recursively) at least one member whose ``type`` / ``role`` literal
    admits the object's value; the error lists the problems of the closest member.
    """
    problems = key_problems(value, typed_dict_type, where)
    assert not problems, "\n".join(problems)


def key_problems(value: Any, annotation: Any, where: str) -> list[str]:
    """The undeclared and missing keys in ``value`` against ``annotation`` (empty when none)."""
    annotation = _strip(annotation)
    origin = get_origin(annotation)
    if origin in _UNIONS:
        return _union_problems(value, get_args(annotation), where)
    if typing_extensions.is_typeddict(annotation):
        return _typed_dict_problems(value, annotation, where)
    if isinstance(value, list) and _is_sequence(origin):
        (element_type,) = get_args(annotation)[:1]
        problems: list[str] = []
        for index, element in enumerate(value):
            problems += key_problems(element, element_type, f"{where}[{index}]")
        return problems
    # Scalars, literals, ``object`` and ``Dict[str, X]`` have no keys of their own to check
    # (their types are pydantic's job).
    return []


def _strip(annotation: Any) -> Any:
    while True:
        origin = get_origin(annotation)
        if origin is typing_extensions.Annotated or origin in _KEY_WRAPPERS:
            annotation = get_args(annotation)[0]
        else:
            return annotation


def _is_sequence(origin: Any) -> bool:
    if origin in (list, tuple, collections.abc.Iterable, collections.abc.Sequence):
        return True
    # openai._types.SequenceNotStr[X]
    return getattr(origin, "__name__", "") == "SequenceNotStr"


@cache
def _fields(typed_dict: Any) -> tuple[dict[str, Any], frozenset[str]]:
    """The declared keys with their types, and the required keys.

    The SDK modules use ``from __future__ import annotations``, so ``__required_keys__`` is
    empty for their ``total=False`` classes (the ``Required[...]`` marker is in a string when
    the class is built); the markers are read back from the resolved hints instead.
    """
    hints = typing.get_type_hints(typed_dict, include_extras=True)
    required = set(typed_dict.__required_keys__)
    for key, hint in hints.items():
        origin = get_origin(hint)
        if origin is None:  # a plain hint: keep what the class says
            continue
        # typing has no Required before Python 3.11; typing_extensions' is used there.
        if origin in (typing_extensions.Required, getattr(typing, "Required", typing_extensions.Required)):
            required.add(key)
        elif origin in (
            typing_extensions.NotRequired,
            getattr(typing, "NotRequired", typing_extensions.NotRequired),
        ):
            required.discard(key)
    assert set(hints) == set(typed_dict.__required_keys__) | set(typed_dict.__optional_keys__)
    return hints, frozenset(required)


def _literal_values(annotation: Any) -> set[Any] | None:
    """The values a ``Literal`` (possibly inside Optional / Required) admits; None if no literal."""
    annotation = _strip(annotation)
    origin = get_origin(annotation)
    if origin is Literal:
        return set(get_args(annotation))
    if origin in _UNIONS:
        found: set[Any] = set()
        literal = False
        for member in get_args(annotation):
            values = _literal_values(member)
            if values is not None:
                literal = True
                found |= values
            elif member is type(None):
                found.add(None)
        return found if literal else None
    return None


def _discriminates(typed_dict: Any, value: dict[str, Any]) -> bool:
    hints, required = _fields(typed_dict)
    for key in _DISCRIMINATORS:
        if key not in hints:
            if key in value:
                return False
            continue
        allowed = _literal_values(hints[key])
        if allowed is None:
            continue
        if key in value:
            if value[key] not in allowed:
                return False
        elif key in required:
            return False
    return True


def _union_problems(value: Any, members: tuple[Any, ...], where: str) -> list[str]:
    if value is None and type(None) in members:
        return []
    if isinstance(value, dict):
        candidates = [
            m for m in members
            if typing_extensions.is_typeddict(_strip(m)) and _discriminates(_strip(m), value)
        ]
        if not candidates:
            shown = {key: value[key] for key in _DISCRIMINATORS if key in value}
            return [f"{where}: no member of the union has the discriminators {shown}"]
    elif isinstance(value, list):
        candidates = [m for m in members if _is_sequence(get_origin(_strip(m)))]
        if not candidates:
            return [f"{where}: no member of the union is a list"]
    else:
        return []  # a scalar: its type is pydantic's job
    best: list[str] | None = None
    for member in candidates:
        problems = key_problems(value, member, where)
        if not problems:
            return []
        if best is None or len(problems) < len(best):
            best = problems
    return best or []


def _typed_dict_problems(value: Any, typed_dict: Any, where: str) -> list[str]:
    if not isinstance(value, dict):
        return [f"{where}: expected an object for {typed_dict.__name__}, got {type(value)}"]
    hints, required = _fields(typed_dict)
    name = typed_dict.__name__
    problems = [f"{where}.{key}: key not declared by {name}" for key in value if key not in hints]
    problems += [f"{where}: missing key {key!r} required by {name}" for key in sorted(required)
                 if key not in value]
    for key, element in value.items():
        if key in hints:
            problems += key_problems(element, hints[key], f"{where}.{key}")
    return problems


# --- Anthropic Messages ------------------------------------------------------------------
#
# The same two traps as above, and a third one of the anthropic SDK: ``MessageParam``'s
# content union also admits the SDK's *response* models (``ContentBlock``: ``TextBlock``,
# ``ToolUseBlock`` ...), pydantic models that accept any extra key and do not check what the
# ``...Param`` types check (a ``cache_control`` of ``{"type": "bogus"}`` passes as a
# ``TextBlock``). So every content block is validated once more against ``ContentBlockParam``,
# a union of request types only (``assert_keys_known`` ignores the models: it follows
# ``TypedDict`` members only).

ANTHROPIC_MESSAGE_ADAPTER: TypeAdapter[Any] = TypeAdapter(MessageParam)
ANTHROPIC_BLOCK_ADAPTER: TypeAdapter[Any] = TypeAdapter(ContentBlockParam)
ANTHROPIC_WEB_SEARCH_ERROR_ADAPTER: TypeAdapter[Any] = TypeAdapter(
    WebSearchToolRequestErrorObjectParam
)
ANTHROPIC_SYSTEM_TYPE: Any = typing.get_type_hints(MessageCreateParamsBase)["system"]
ANTHROPIC_SYSTEM_ADAPTER: TypeAdapter[Any] = TypeAdapter(ANTHROPIC_SYSTEM_TYPE)
ANTHROPIC_REQUEST_ADAPTER: TypeAdapter[Any] = TypeAdapter(MessageCreateParamsNonStreaming)
ANTHROPIC_STREAMING_REQUEST_ADAPTER: TypeAdapter[Any] = TypeAdapter(MessageCreateParamsStreaming)


def _validated(adapter: TypeAdapter[Any], value: Any, what: str, where: str) -> None:
    """Validate strictly (``"16"`` is no int: the API's JSON would not take it), then force."""
    try:
        force_lazy(adapter.validate_python(value, strict=True))
    except ValidationError as error:
        raise AssertionError(f"{where} is not {what}: {_short(error)}") from None


def _assert_json(value: Any, where: str) -> None:
    """Fail unless ``value`` is plain JSON (what the SDK sends as the request body)."""
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError) as error:
        raise AssertionError(f"{where} is not JSON: {error}") from None


def validate_anthropic_message(message: Any, where: str = "message") -> None:
    """Fail unless ``message`` is a valid ``anthropic.types.MessageParam`` with no unknown keys.

    Each content block is also checked against ``ContentBlockParam`` alone (the third trap).
    """
    _assert_json(message, where)
    _validated(ANTHROPIC_MESSAGE_ADAPTER, message, "a MessageParam", where)
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, list):
        for index, block in enumerate(content):
            _validate_anthropic_block(block, f"{where}.content[{index}]")
    assert_anthropic_keys_known(message, MessageParam, where)


def _validate_anthropic_block(block: Any, where: str) -> None:
    """Validate one content block as a ``ContentBlockParam`` (request types only).

    One more pydantic pitfall: in ``Union[Iterable[X], SomeTypedDict]`` a dict is taken as
    the ``Iterable`` (of its keys) and fails once forced, so a ``web_search_tool_result``
    whose ``content`` is the error object (the only such union in the SDK's request types,
    see test_anthropic_sdk_helpers.py) has that object validated on its own.
    """
    if (isinstance(block, dict) and block.get("type") == "web_search_tool_result"
            and isinstance(block.get("content"), dict)):
        _validated(ANTHROPIC_WEB_SEARCH_ERROR_ADAPTER, block["content"],
                   "a WebSearchToolRequestErrorObjectParam", f"{where}.content")
        block = {**block, "content": []}
    _validated(ANTHROPIC_BLOCK_ADAPTER, block, "a ContentBlockParam", where)


def _validate_anthropic_system(system: Any, where: str) -> None:
    _validated(ANTHROPIC_SYSTEM_ADAPTER, system, "a system prompt (str or text blocks)", where)
    assert_anthropic_keys_known(system, ANTHROPIC_SYSTEM_TYPE, where)


def validate_anthropic_payload(payload: Any) -> None:
    """Fail unless ``payload`` is ``{"system"?, "messages"}`` as `anthropic.to_payload` writes.

    ``messages`` must be a list of valid ``MessageParam``s and ``system`` (left out when there
    is none) a valid request ``system``: a string or a list of text blocks.
    """
    assert isinstance(payload, dict), f"payload: expected a dict, got {type(payload)}"
    assert set(payload) <= {"system", "messages"}, f"payload: unexpected keys {sorted(payload)}"
    assert isinstance(payload.get("messages"), list), "payload.messages: expected a list"
    _assert_json(payload, "payload")
    if "system" in payload:
        _validate_anthropic_system(payload["system"], "system")
    for index, message in enumerate(payload["messages"]):
        validate_anthropic_message(message, f"messages[{index}]")


def validate_anthropic_request(body: Any, extra_body: Iterable[str] = ()) -> None:
    """Fail unless ``body`` is a valid ``messages.create`` body with no unknown keys.

    ``MessageCreateParamsStreaming`` when ``body["stream"]`` is true, else
    ``MessageCreateParamsNonStreaming``; every message is also checked as
    `validate_anthropic_message` checks it. ``extra_body`` names the fields the SDK does not
    declare, which a caller sends with ``messages.create(..., extra_body={...})`` (the
    installed SDK declares no ``temperature``, ``top_p`` or ``top_k``); they must be JSON.
    """
    assert isinstance(body, dict), f"body: expected a dict, got {type(body)}"
    _assert_json(body, "body")
    extra = set(extra_body)
    declared = {key: value for key, value in body.items() if key not in extra}
    streaming = body.get("stream") is True
    typed_dict = MessageCreateParamsStreaming if streaming else MessageCreateParamsNonStreaming
    adapter = ANTHROPIC_STREAMING_REQUEST_ADAPTER if streaming else ANTHROPIC_REQUEST_ADAPTER
    _validated(adapter, declared, typed_dict.__name__, "body")
    for index, message in enumerate(body.get("messages") or []):
        validate_anthropic_message(message, f"body.messages[{index}]")
    assert_anthropic_keys_known(declared, typed_dict, "body")


def assert_anthropic_keys_known(value: Any, annotation: Any, where: str = "value") -> None:
    """`assert_keys_known` for the anthropic SDK's types (see `anthropic_key_problems`)."""
    problems = anthropic_key_problems(value, annotation, where)
    assert not problems, "\n".join(problems)


def anthropic_key_problems(value: Any, annotation: Any, where: str) -> list[str]:
    """`key_problems` with two rules the anthropic SDK's types need and OpenAI's never did.

    - a union with a plain ``Dict[str, X]`` member takes any object (a tool's
      ``input_schema`` is ``Union[InputSchemaTyped, Dict[str, object]]``; its
      ``properties`` is ``Optional[Dict[str, object]]``);
    - a ``TypedDict`` whose pydantic config says ``extra="allow"`` (``InputSchemaTyped``:
      any JSON Schema keyword) takes keys it does not declare.
    """
    annotation = _strip(annotation)
    origin = get_origin(annotation)
    if origin in _UNIONS:
        members = get_args(annotation)
        if isinstance(value, dict) and any(_is_plain_dict(member) for member in members):
            return []
        return _anthropic_union_problems(value, members, where)
    if typing_extensions.is_typeddict(annotation):
        return _anthropic_typed_dict_problems(value, annotation, where)
    if isinstance(value, list) and _is_sequence(origin):
        (element_type,) = get_args(annotation)[:1]
        problems: list[str] = []
        for index, element in enumerate(value):
            problems += anthropic_key_problems(element, element_type, f"{where}[{index}]")
        return problems
    return []


def _is_plain_dict(annotation: Any) -> bool:
    annotation = _strip(annotation)
    return annotation is dict or get_origin(annotation) in (dict, collections.abc.Mapping)


def _allows_extra(typed_dict: Any) -> bool:
    config = getattr(typed_dict, "__pydantic_config__", None) or {}
    return config.get("extra") == "allow"


def _anthropic_union_problems(value: Any, members: tuple[Any, ...], where: str) -> list[str]:
    if value is None and type(None) in members:
        return []
    if isinstance(value, dict):
        candidates = [
            m for m in members
            if typing_extensions.is_typeddict(_strip(m)) and _discriminates(_strip(m), value)
        ]
        if not candidates:
            shown = {key: value[key] for key in _DISCRIMINATORS if key in value}
            return [f"{where}: no member of the union has the discriminators {shown}"]
    elif isinstance(value, list):
        candidates = [m for m in members if _is_sequence(get_origin(_strip(m)))]
        if not candidates:
            return [f"{where}: no member of the union is a list"]
    else:
        return []
    best: list[str] | None = None
    for member in candidates:
        problems = anthropic_key_problems(value, member, where)
        if not problems:
            return []
        if best is None or len(problems) < len(best):
            best = problems
    return best or []


def _anthropic_typed_dict_problems(value: Any, typed_dict: Any, where: str) -> list[str]:
    if not isinstance(value, dict):
        return [f"{where}: expected an object for {typed_dict.__name__}, got {type(value)}"]
    hints, required = _fields(typed_dict)
    name = typed_dict.__name__
    problems = [] if _allows_extra(typed_dict) else [
        f"{where}.{key}: key not declared by {name}" for key in value if key not in hints
    ]
    problems += [f"{where}: missing key {key!r} required by {name}" for key in sorted(required)
                 if key not in value]
    for key, element in value.items():
        if key in hints:
            problems += anthropic_key_problems(element, hints[key], f"{where}.{key}")
    return problems


# --- Google Gemini -----------------------------------------------------------------------
#
# The google-genai SDK's types are pydantic models that forbid extra keys and name every field
# twice (snake_case, and its camelCase alias, both accepted), so a dict with an unknown key
# fails by itself, and a ``bytes`` field (``thought_signature``, ``inline_data.data``) must
# hold base64 text. Two traps remain:
#
# 1. ``Part`` has its own ``__init__``, which pydantic calls to validate a part, so a part's
#    fields are validated laxly even when strict validation is asked for (``"thought": "yes"``
#    passes as True);
# 2. the SDK's enums are case-insensitive and take an unknown value with a warning only
#    (``"mode": "SOMETIMES"`` passes).
#
# So a value is validated strictly as the JSON text it is sent as, and then walked beside the
# model: every scalar must have its field's JSON type and every enum a value the enum knows.

GEMINI_CONTENT = genai_types.Content
GEMINI_CONFIG = genai_types.GenerateContentConfig
GEMINI_RESPONSE = genai_types.GenerateContentResponse

# The fields of a REST ``generateContent`` body that GenerateContentConfig holds as they are;
# ``generation_config``'s fields are flattened into it too.
GEMINI_BODY_CONFIG_FIELDS = (
    "system_instruction", "tools", "tool_config", "safety_settings", "cached_content", "labels",
)
_GEMINI_REST_FIELDS = frozenset(("contents", "model", "generation_config",
                                 *GEMINI_BODY_CONFIG_FIELDS))
_GEMINI_SDK_FIELDS = frozenset(("model", "contents", "config"))
_CAMEL_HUMP = re.compile(r"(?<=[a-z0-9])([A-Z])")


def gemini_snake(key: str) -> str:
    """A camelCase key in snake_case (``functionCall`` -> ``function_call``)."""
    return _CAMEL_HUMP.sub(r"_\1", key).lower()


def _gemini_fields(value: Any, where: str) -> dict[str, Any]:
    """An object's keys in snake_case with their values; a key given in both spellings fails."""
    assert isinstance(value, dict), f"{where}: expected an object, got {type(value)}"
    fields: dict[str, Any] = {}
    for key, element in value.items():
        snake = gemini_snake(key)
        assert snake not in fields, f"{where}: {snake!r} is given in both spellings"
        fields[snake] = element
    return fields


# --- walking a value beside an SDK model -------------------------------------------------


def _model_field(model: type[BaseModel], key: str) -> str | None:
    """The name of the field of ``model`` that ``key`` names (by its name or its alias)."""
    fields = model.model_fields
    if key in fields:
        return key
    for name, field in fields.items():
        if field.alias == key:
            return name
    return None


def _members(annotation: Any) -> list[Any]:
    """What an annotation may hold, Optional, unions and ``Annotated`` opened."""
    annotation = _strip(annotation)
    if get_origin(annotation) in _UNIONS:
        found: list[Any] = []
        for member in get_args(annotation):
            found += _members(member)
        return found
    return [annotation]


def _is_model(member: Any) -> bool:
    return isinstance(member, type) and issubclass(member, BaseModel)


def gemini_walk(
    value: Any, annotation: Any, where: str
) -> Iterable[tuple[str, str, Any, Any]]:
    """Every key of ``value`` a model declares, at any depth: ``(location, key, field, element)``.

    ``field`` is the pydantic ``FieldInfo``. Values typed as plain dicts or ``Any`` (a call's
    ``args``, a ``response``, a JSON schema, ``labels``: the user's data) are not entered; a
    key no model declares is left to validation.
    """
    members = _members(annotation)
    if isinstance(value, list):
        for member in members:
            if get_origin(member) is list or member is list:
                element_type = (get_args(member) or (Any,))[0]
                for index, element in enumerate(value):
                    yield from gemini_walk(element, element_type, f"{where}[{index}]")
                return
        return
    models = [member for member in members if _is_model(member)]
    if not isinstance(value, dict) or not models:
        return
    # The first model member that declares every key (a Content before a Part, say).
    model = next((m for m in models if all(_model_field(m, key) for key in value)), models[0])
    for key, element in value.items():
        name = _model_field(model, key)
        if name is None:
            continue
        field = model.model_fields[name]
        yield f"{where}.{key}", key, field, element
        yield from gemini_walk(element, field.annotation, f"{where}.{key}")


_JSON_SCALARS: dict[Any, tuple[type, ...]] = {
    bool: (bool,), int: (int,), float: (int, float), str: (str,), bytes: (str,),
}


def _scalar_problem(where: str, field: Any, element: Any) -> str | None:
    """Why ``element`` is not what a scalar or enum field takes as JSON (None when it is)."""
    if element is None:
        return None
    members = _members(field.annotation)
    enums = [m for m in members if isinstance(m, type) and issubclass(m, enum.Enum)]
    if enums:
        known = {str(item.value).upper() for enum_type in enums for item in enum_type}
        if isinstance(element, str) and element.upper() in known:
            return None
        if not any(m in _JSON_SCALARS for m in members):
            return f"{where}: {element!r} is not a value of {enums[0].__name__}"
    scalars = [m for m in members if m in _JSON_SCALARS]
    if not scalars or len(scalars) != len([m for m in members if m is not type(None)]):
        return None  # not a plain scalar field: pydantic's job
    for scalar in scalars:
        if isinstance(element, _JSON_SCALARS[scalar]) and not (
            scalar is not bool and isinstance(element, bool)
        ):
            return None
    return f"{where}: {element!r} is not a JSON {scalars[0].__name__}"


def gemini_value_problems(value: Any, annotation: Any, where: str) -> list[str]:
    """The scalars of ``value`` that do not have their field's JSON type, and unknown enums."""
    problems = []
    for location, _key, field, element in gemini_walk(value, annotation, where):
        problem = _scalar_problem(location, field, element)
        if problem:
            problems.append(problem)
    return problems


def _validated_gemini(
    model: type[BaseModel], value: Any, where: str, *, strict: bool = True
) -> None:
    """Validate ``value`` as the JSON text the SDK would send (see the traps above)."""
    _assert_json(value, where)
    try:
        model.model_validate_json(json.dumps(value), strict=strict)
    except ValidationError as error:
        raise AssertionError(
            f"{where} is not a google.genai {model.__name__}: {_short(error)}"
        ) from None
    if strict:
        problems = gemini_value_problems(value, model, where)
        assert not problems, "\n".join(problems)


# --- the validators ------------------------------------------------------------------------


def validate_gemini_content(content: Any, where: str = "content") -> None:
    """Fail unless ``content`` is a valid ``google.genai.types.Content`` (no unknown keys)."""
    assert isinstance(content, dict), f"{where}: expected an object, got {type(content)}"
    _validated_gemini(GEMINI_CONTENT, content, where)


def _validate_gemini_contents(contents: Any, where: str) -> None:
    assert isinstance(contents, list), f"{where}: expected a list, got {type(contents)}"
    for index, content in enumerate(contents):
        validate_gemini_content(content, f"{where}[{index}]")


def validate_gemini_payload(payload: Any) -> None:
    """Fail unless ``payload`` is ``{"contents", "system_instruction"?}`` as `to_payload` writes it.

    Either spelling (``systemInstruction``); each element of ``contents`` must be a valid
    ``Content``, and so must ``system_instruction``, which may also be a string (the SDK's
    ``GenerateContentConfig`` takes one).
    """
    fields = _gemini_fields(payload, "payload")
    assert set(fields) <= {"contents", "system_instruction"}, (
        f"payload: unexpected keys {sorted(payload)}")
    assert "contents" in fields, "payload: missing 'contents'"
    _validate_gemini_contents(fields["contents"], "contents")
    system = fields.get("system_instruction")
    if "system_instruction" in fields and not isinstance(system, str):
        validate_gemini_content(system, "system_instruction")


def validate_gemini_request(body: Any) -> None:
    """Fail unless ``body`` is a valid ``generateContent`` request in either layout.

    The SDK layout (``{"model", "contents", "config"}``, the kwargs of ``generate_content``)
    has its ``config`` validated as a ``GenerateContentConfig``. The REST layout (``contents``,
    ``system_instruction``, ``tools``, ``tool_config``, ``safety_settings``,
    ``generation_config``, ``cached_content``, ``labels``, and ``model`` when given) has a
    ``GenerateContentConfig`` built from those fields, ``generation_config``'s flattened into
    it; its ``system_instruction`` must be a ``Content`` (the REST API takes no string). Every
    element of ``contents`` must be a valid ``Content``; either spelling, not both at once.
    """
    fields = _gemini_fields(body, "body")
    if "config" in fields:
        assert set(fields) <= _GEMINI_SDK_FIELDS, f"body: unexpected keys {sorted(body)}"
        config = fields["config"]
        where = "body.config"
        system = _gemini_fields(config, where).get("system_instruction")
        if isinstance(system, dict):
            validate_gemini_content(system, f"{where}.system_instruction")
    else:
        assert set(fields) <= _GEMINI_REST_FIELDS, f"body: unexpected keys {sorted(body)}"
        config = {key: value for key, value in body.items()
                  if gemini_snake(key) in GEMINI_BODY_CONFIG_FIELDS}
        generation = fields.get("generation_config", {})
        where = "body (its config fields)"
        overlap = set(_gemini_fields(generation, "body.generation_config")) & set(
            _gemini_fields(config, where))
        assert not overlap, f"body: {sorted(overlap)} both in generation_config and outside"
        config = {**config, **generation}
        if "system_instruction" in fields:
            validate_gemini_content(fields["system_instruction"], "body.system_instruction")
    assert "contents" in fields, "body: missing 'contents'"
    _validate_gemini_contents(fields["contents"], "body.contents")
    assert isinstance(fields.get("model", ""), str), "body.model: expected a str"
    _validated_gemini(GEMINI_CONFIG, config, where)


def validate_gemini_response(response: Any, where: str = "response") -> None:
    """Fail unless ``response`` is a valid ``GenerateContentResponse`` (no unknown keys).

    Not strict (a response is read, never written): strict mode refuses the RFC 3339 text of
    ``create_time`` for a datetime.
    """
    assert isinstance(response, dict), f"{where}: expected an object, got {type(response)}"
    _validated_gemini(GEMINI_RESPONSE, response, where, strict=False)


# --- Gemini key spelling -----------------------------------------------------------------
#
# A writer writes one spelling: the SDK's snake_case field names or the REST API's camelCase
# aliases. Keys are read beside the SDK model (`gemini_walk`), so the user's data is never
# taken for a structural key.


def gemini_key_spellings(value: Any, annotation: Any, where: str) -> list[tuple[str, str]]:
    """Each structural key of ``value`` whose spellings differ: ``(location, "snake"|"camel")``."""
    found = []
    for location, key, field, _element in gemini_walk(value, annotation, where):
        alias = field.alias or key
        if alias != gemini_snake(alias):
            found.append((location, "camel" if key == alias else "snake"))
    return found


def _gemini_config_spellings(value: Any, where: str) -> list[tuple[str, str]]:
    """The spellings of a request body's or a config's keys (``tools`` are not entered)."""
    found: list[tuple[str, str]] = []
    for key, element in value.items():
        snake = gemini_snake(key)
        location = f"{where}.{key}" if where else key
        if snake != key or "_" in key:
            found.append((location, "snake" if snake == key else "camel"))
        if snake == "contents":
            found += gemini_key_spellings(element, list[GEMINI_CONTENT], location)
        elif snake == "config" and isinstance(element, dict):
            found += _gemini_config_spellings(element, location)
        elif snake == "generation_config":
            found += gemini_key_spellings(element, genai_types.GenerationConfig, location)
        elif snake == "system_instruction":
            found += gemini_key_spellings(element, GEMINI_CONTENT, location)
        elif snake in GEMINI_CONFIG.model_fields and snake != "tools":
            found += gemini_key_spellings(element, GEMINI_CONFIG.model_fields[snake].annotation,
                                          location)
    return found


def _gemini_document_spellings(kind: str, value: Any) -> list[tuple[str, str]]:
    if kind == "response":
        return gemini_key_spellings(value, GEMINI_RESPONSE, "response")
    if kind == "content":
        return gemini_key_spellings(value, GEMINI_CONTENT, "content")
    assert kind in ("request", "payload"), kind
    return _gemini_config_spellings(value, "")


def gemini_spelling(kind: str, value: Any) -> str:
    """The one spelling a Gemini document uses: ``"snake"`` (also when no key tells) or ``"camel"``.

    ``kind`` is ``"request"``, ``"payload"``, ``"response"`` or ``"content"``. A document that
    mixes both fails.
    """
    spellings = _gemini_document_spellings(kind, value)
    used = {spelling for _, spelling in spellings}
    assert len(used) <= 1, f"both spellings: {spellings}"
    return used.pop() if used else "snake"


def assert_gemini_spelling(kind: str, value: Any, spelling: str) -> None:
    """Fail unless every structural key of ``value`` is spelled as ``spelling`` says.

    ``tools`` are not checked: a request writer keeps them as given.
    """
    wrong = [where for where, used in _gemini_document_spellings(kind, value) if used != spelling]
    assert not wrong, f"keys not in {spelling} spelling: {wrong}"
