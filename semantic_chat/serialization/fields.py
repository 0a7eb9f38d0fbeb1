"""The hooks for single fields: primitives checked strictly, labels, JSON values, payloads."""

from __future__ import annotations

import builtins
import math
import types
import typing
from collections.abc import Callable, Collection
from typing import Any, Literal, TypeVar

import attrs
from cattrs.gen import override
from cattrs.gen._consts import AttributeOverride

from .. import jsoncodec
from ..contents import CONTENT_TYPES, KernelContent, UnknownContent
from ..contents.binary import Base64Payload
from ..errors import (
    InvalidValueError,
    SemanticChatError,
    SerializationError,
    describe_type,
)
from ..labels import AuthorRole, FinishReason, Label
from ..media import check_base64, encode_base64
from ..message import ChatMessageContent
from ..validation import SCALAR_TYPES, annotation_text

__all__ = [
    "ACCEPTED_PRIMITIVES",
    "Hook",
    "checked",
    "checked_writer",
    "drop_empty_metadata",
    "finite_float_writer",
    "holds_float",
    "holds_json",
    "hook_override",
    "is_content_class",
    "is_message_class",
    "json_hook",
    "json_object",
    "literal_values",
    "literal_writer",
    "primitive_reader",
    "read_json_list",
    "read_json_object",
    "read_keeping_newer",
    "read_label",
    "read_label_fast",
    "read_newer_item",
    "read_payload",
    "read_text_or_object",
    "read_unknown",
    "refuse_newer_item",
    "required_nullable_fields",
    "scalar_union_members",
    "scalar_union_reader",
    "scalar_union_writer",
    "split_newer_keys",
    "write_bytes",
    "write_json_object",
    "write_payload",
    "write_text_or_object",
    "write_unknown",
    "write_unknown_keys",
]

_T = TypeVar("_T")
Hook = Callable[[Any], Any]

# JSON types each primitive field accepts; bool is refused where int or float is expected.
ACCEPTED_PRIMITIVES: dict[type, tuple[type, ...]] = {
    str: (str,),
    int: (int,),
    float: (float, int),
    bool: (bool,),
}


def write_bytes(value: bytes) -> str:
    """Write bytes as standard base64 text."""
    return encode_base64(value)


def hook_override(writing: bool, hook: Callable[..., Any]) -> AttributeOverride:
    """An attrs field override that sets the hook for the direction being generated."""
    return override(unstruct_hook=hook) if writing else override(struct_hook=hook)


_BARE_JSON: dict[Any, str] = {dict: "dict", list: "list", "dict": "dict", "list": "list"}
"""Bare ``dict`` and ``list`` annotations, which hold free JSON values as ``Any`` does."""


def _json_text(annotation: Any) -> str:
    """An annotation's text, ``dict`` or ``list`` for the bare types (their repr is a class)."""
    try:
        bare = _BARE_JSON.get(annotation)
    except TypeError:  # an unhashable annotation
        bare = None
    if bare is not None:
        return bare
    return annotation if isinstance(annotation, str) else repr(annotation)


def holds_json(annotation: Any) -> bool:
    """Whether a field is typed ``Any`` or bare ``dict``/``list``: it holds free JSON values.

    A bare container's values are checked as an ``Any`` field's are, so a tuple or a date in
    it is refused at the field instead of being written as something that reads back unequal.
    """
    text = _json_text(annotation)
    return "Any" in text or text in ("dict", "list")


def holds_float(annotation: Any) -> bool:
    """Whether a field holds floats, which must be finite to be written."""
    return "float" in (annotation if isinstance(annotation, str) else repr(annotation))


def finite_float_writer(field: str, annotation: Any = "") -> Callable[[Any], Any]:
    """A writer for a float field that refuses NaN and infinities, naming the field."""
    # orjson writes NaN as null and json as NaN; neither reads back, so refuse both.
    text = annotation_text(annotation)
    checked = text in ("float", "float | None")  # not list[float] and the like

    def write(value: Any) -> Any:
        kind = type(value)
        if kind is float:
            if not math.isfinite(value):
                raise SerializationError(f"{value} is not a JSON value", path=field)
        elif checked and value is not None and (kind is bool or kind not in (int, float)):
            raise SerializationError.mismatch(field, "a float", describe_type(value))
        return value

    return write


_LABEL_TYPES: dict[str, tuple[tuple[type, ...], str]] = {
    "AuthorRole": ((AuthorRole,), "an AuthorRole"),
    "FinishReason | None": ((FinishReason, type(None)), "a FinishReason or None"),
}


def checked_writer(annotation: Any, field: str) -> Callable[[Any], Any] | None:
    """A writer that checks a field's value has its declared type, or ``None`` for other types.

    For text, number and flag fields (`validation.SCALAR_TYPES`) and labels, which are written
    as their plain text. The model's setters check every value, so this only catches an object
    broken by hand (``object.__setattr__``), which must not be written as something no reader
    accepts.
    """
    text = annotation_text(annotation)
    label = _LABEL_TYPES.get(text)
    if label is not None:
        (kind, *_), expected = label

        def write_label(value: Any) -> Any:
            if value is None or type(value) is kind:
                return value if value is None else str.__str__(value)
            raise SerializationError.mismatch(field, expected, describe_type(value))

        return write_label
    found = SCALAR_TYPES.get(text)
    if found is None:
        return None
    accepted, expected = found

    def write(value: Any) -> Any:
        if type(value) in accepted:
            return value
        raise SerializationError.mismatch(field, expected, _describe_value_type(value))

    return write


def _describe_value_type(value: Any) -> str:
    """`describe_type`, with the module for a type named as a builtin is (``numpy.bool_``)."""
    kind = type(value)
    name = kind.__qualname__
    module = kind.__module__
    if module == "builtins" or not hasattr(builtins, name):
        return name
    if module == "numpy" and name == "bool":  # numpy 2 names np.bool_ "bool"
        return "numpy.bool_"
    return f"{module}.{name}"


_JSON_SCALARS: dict[type, str] = {
    str: "a str", int: "an int", float: "a float", bool: "a bool", type(None): "None"
}
"""The types a JSON scalar reads into, with their words for an error."""


def _union_args(annotation: Any) -> tuple[Any, ...] | None:
    """The members of a union annotation (``int | str``, ``Optional[X]``), else ``None``."""
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return typing.get_args(annotation)
    return None


def scalar_union_members(annotation: Any) -> tuple[type, ...] | None:
    """The members of a union of JSON scalar types only (``int | str | None``), else ``None``.

    A JSON value's own type tells these members apart, so such a union reads back without a
    hook of the plugin's; ``X | None`` of one scalar has hooks of its own and is left out.
    """
    members = _union_args(annotation)
    if members is None or len(members) < 2 + (type(None) in members):
        return None
    if all(member in _JSON_SCALARS for member in members):
        return members
    return None


def _expected(members: tuple[type, ...]) -> str:
    words = [_JSON_SCALARS[member] for member in members]
    return ", ".join(words[:-1]) + " or " + words[-1]


def scalar_union_reader(members: tuple[type, ...]) -> Callable[[Any, Any], Any]:
    """A reader of a scalar union: the value's JSON type picks the member (no bool for int)."""
    expected = _expected(members)
    widens_int = float in members and int not in members  # JSON 1 into ``float | str``

    def read(value: Any, _: Any) -> Any:
        kind = type(value)
        if kind in members:
            return value
        if widens_int and kind is int:
            return float(value)
        raise SerializationError.mismatch("", expected, _read_type(value))

    return read


def scalar_union_writer(members: tuple[type, ...], field: str) -> Callable[[Any], Any]:
    """A writer of a scalar union field that refuses, at the field, what would not read back."""
    expected = _expected(members)
    accepted = (*members, int) if float in members else members

    def write(value: Any) -> Any:
        kind = type(value)
        if kind not in accepted:
            raise SerializationError.mismatch(field, expected, describe_type(value))
        if kind is float and not math.isfinite(value):
            raise SerializationError(f"{value} is not a JSON value", path=field)
        return value

    return write


def literal_values(annotation: Any) -> tuple[Any, ...] | None:
    """The values a ``Literal`` field (or ``Literal[...] | None``) of JSON scalars allows."""
    members = _union_args(annotation) or (annotation,)
    values: list[Any] = []
    for member in members:
        if member is type(None):
            values.append(None)
        elif typing.get_origin(member) is Literal:
            values.extend(typing.get_args(member))
        else:
            return None
    if len(values) == members.count(type(None)):  # no Literal at all
        return None
    if not all(type(value) in _JSON_SCALARS for value in values):
        return None
    return tuple(values)


def literal_writer(values: tuple[Any, ...], field: str) -> Callable[[Any], Any]:
    """A writer of a ``Literal`` field that refuses, at the field, a value it does not allow."""
    allowed = {(type(value), value) for value in values}
    expected = "one of " + ", ".join(repr(value) for value in values)

    def write(value: Any) -> Any:
        try:
            known = (type(value), value) in allowed
        except TypeError:  # unhashable: no literal
            known = False
        if not known:
            raise SerializationError(
                f"{value!r} is not {expected}", path=field, expected=expected, got=repr(value)
            )
        return value

    return write


def json_hook(field: str, writing: bool, annotation: Any) -> Callable[..., Any]:
    """The hook for a free JSON field: checked and copied on writing, type-checked on reading."""
    # The annotation may be its text or, once attrs.resolve_types ran, the type itself.
    text = _json_text(annotation)
    if writing:
        if text.startswith("dict"):
            return lambda value: write_json_object(value, field)
        if text.startswith("str |") and "Mapping" in text:
            return lambda value: write_text_or_object(value, field)
        return lambda value: jsoncodec.json_value(value, field)
    if text.startswith("dict"):
        return lambda value, _: read_json_object(value)
    if text.startswith("str |") and "Mapping" in text:  # FunctionCallContent.arguments
        return read_text_or_object
    if text == "list":
        return read_json_list
    return lambda value, _: value


def read_json_list(value: Any, _: Any) -> list[Any]:
    """Read a field typed bare ``list``: a JSON array, into a new list."""
    if type(value) is not list:
        raise SerializationError.mismatch("", "a JSON array", describe_type(value))
    return list(value)


def write_json_object(value: Any, field: str) -> Any:
    """Write a field that holds a JSON object (metadata, an unknown item's fields), checked."""
    if value is not None and type(value) is not dict:
        raise SerializationError.mismatch(field, "a dict", describe_type(value))
    return jsoncodec.json_value(value, field)


def write_unknown_keys(unknown: Any, own: Collection[str | None], owner: str) -> dict[str, Any]:
    """Keys this version does not know, written as JSON; one of ``owner``'s own is refused.

    Such a key can only have been set by hand, past the checks: it would be read back as the
    ``owner``'s own field (a history's, a message's, a citation's).

    Raises:
        SerializationError: such a key, or a value that is not JSON (``unknown_keys["url"]``).
    """
    written: dict[str, Any] = write_json_object(unknown, "unknown_keys")
    for key in written:
        if key in own:
            raise SerializationError(
                f"{key!r} would be read back as the {owner}'s own field, not as an unknown key",
                path=f'unknown_keys["{key}"]',
            )
    return written


def split_newer_keys(
    data: dict[str, Any], known: Collection[str | None], strict: bool, what: str
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Split an object into the keys this version knows and those of a newer version.

    Raises:
        SerializationError: ``strict`` and a key of a newer version, located at the first
            (``future_knob``): ``no <what> 'future_knob' in this version ...``.
    """
    unknown = {key: value for key, value in data.items() if key not in known}
    if strict and unknown:
        key = next(iter(unknown))
        raise SerializationError(
            f"no {what} {key!r} in this version (data of a newer version): read it without "
            "strict=True to keep it",
            path=str(key),
        )
    return {key: value for key, value in data.items() if key in known}, unknown


def read_keeping_newer(
    data: dict[str, Any],
    known: frozenset[str],
    strict: bool,
    what: str,
    classes: tuple[Callable[..., _T], Callable[..., _T]],
) -> _T:
    """Build ``classes[0](**data)``; with keys of a newer version, ``classes[1]`` keeping them.

    For options and citations, read alone or in a history: a newer key is kept in the
    ``...WithUnknownKeys`` class's ``unknown_keys`` (or, ``strict``, refused).

    Raises:
        SerializationError: a newer key (``strict``) or a field of the wrong type, located
            at it (``temperature``).
    """
    plain, newer = classes
    try:
        if known.issuperset(data):
            return plain(**data)
        fields, unknown = split_newer_keys(data, known, strict, what)
        return newer(**fields, unknown_keys=unknown)
    except SerializationError:
        raise
    except SemanticChatError as error:
        raise SerializationError(error.detail, path=error.path) from None


def write_text_or_object(value: Any, field: str) -> Any:
    """Write call arguments: a string as it is, a JSON object checked, nothing else."""
    if value is None or type(value) is str:
        return value
    if type(value) is not dict:
        raise SerializationError.mismatch(field, "a str, a dict or None", describe_type(value))
    return jsoncodec.json_value(value, field)


def read_text_or_object(value: Any, _: Any) -> Any:
    """Read a value that must be a string, a JSON object or null (call arguments)."""
    if value is None or type(value) in (str, dict):
        return value
    raise SerializationError.mismatch("", "a string or a JSON object", describe_type(value))


def primitive_reader(primitive: type, accepted: tuple[type, ...]) -> Callable[[Any, Any], Any]:
    """A reader that accepts only the JSON types of a primitive (no bool for int)."""
    name = "a string" if primitive is str else f"a JSON {primitive.__name__}"

    def read(value: Any, _: Any) -> Any:
        kind = type(value)
        if kind is primitive or (value is None and kind in accepted):
            return value
        if kind in accepted or (primitive is str and isinstance(value, str)):
            return primitive(value)
        raise SerializationError.mismatch("", name, _read_type(value))

    return read


def _read_type(value: Any) -> str:
    """A JSON value's type as a reading error shows it: ``null`` for None, as written."""
    return "null" if value is None else describe_type(value)


def read_json_object(value: Any) -> dict[str, Any]:
    """Read a JSON object into a new dict."""
    return dict(json_object(value, "a JSON object"))


def json_object(value: Any, what: str) -> dict[str, Any]:
    """Return ``value`` if it is a JSON object, else raise saying what was expected."""
    if type(value) is not dict:
        expected = what if what.startswith("a") else f"a {what} object"
        raise SerializationError.mismatch("", expected, describe_type(value))
    return value


def read_label_fast(value: Any, cls: type[Label]) -> Label:
    """Read a label; well-known ones come straight from the table of interned values."""
    if type(value) is str:
        found = cls._interned.get(value)
        if found is not None:
            return found
    return read_label(value, cls)


def read_label(value: Any, cls: type[Label]) -> Label:
    """Read a label of ``cls`` from a string, refusing blanks at the field."""
    if not isinstance(value, str):
        raise SerializationError.mismatch("", "a string label", describe_type(value))
    try:
        return cls(value)
    except InvalidValueError as error:
        raise SerializationError(error.detail) from None


def write_payload(value: bytes | str | None) -> str | None:
    """Write a binary payload: undecoded base64 as it was read, bytes as base64."""
    if value is None or type(value) is str:  # undecoded base64 is written as it was read
        return value
    if type(value) is not bytes:
        raise SerializationError.mismatch("data", "bytes", describe_type(value))
    return write_bytes(value)


def read_payload(value: Any, _: Any) -> bytes | Base64Payload | None:
    """Read a binary payload, checked as base64 but kept undecoded."""
    if value is None or type(value) is bytes:
        return value
    if type(value) is not str:
        raise SerializationError.mismatch("", "base64 text", describe_type(value))
    try:
        check_base64(value)
    except ValueError as error:
        raise SerializationError(str(error)) from None
    return Base64Payload(value)


def drop_empty_metadata(written: dict[str, Any]) -> None:
    """Leave out ``metadata`` that was made by reading it but never filled.

    The generated writers omit ``None`` (metadata never made); an empty dict means the same
    and must not be written either, or the output would not be canonical.
    """
    if "metadata" in written and not written["metadata"]:
        del written["metadata"]


def required_nullable_fields(cls: type) -> tuple[str, ...]:
    """Fields without a default that may be ``None``: left out when ``None``, like the rest."""
    return tuple(
        field.alias
        for field in attrs.fields(cls)
        if field.default is attrs.NOTHING and "None" in str(field.type)
    )


def write_unknown(item: UnknownContent) -> dict[str, Any]:
    """Write an `UnknownContent` back as the fields it was read with."""
    label, fields = item._type, item._fields
    if type(label) is not str:
        raise SerializationError.mismatch("type", "a str", describe_type(label))
    written: dict[str, Any] = {"type": label}
    # An item of a registered label (kept for keys its class does not know) is read back with
    # every key in ``fields``, metadata too; one of an unregistered label has its own metadata.
    found = CONTENT_TYPES.get_class(label)
    keeps_metadata = found is not None and not issubclass(found, UnknownContent)
    for key, value in write_json_object(fields, "fields").items():
        clashes = key == "type" or (
            key == "metadata"
            and (item._metadata or (type(value) is dict and not keeps_metadata))
        )
        if clashes:
            what = "type label" if key == "type" else key
            raise SerializationError(
                f"{key!r} would be read back as the item's own {what}, not as a field",
                path=f'fields["{key}"]',
            )
        written[key] = value
    if item._metadata:
        written["metadata"] = write_json_object(item._metadata, "metadata")
    return written


def read_newer_item(data: dict[str, Any]) -> UnknownContent:
    """Read an item of a registered label with keys its class does not know, kept whole.

    Every key but ``type`` goes into ``fields`` in the order read (``metadata`` too), so the
    item is written back byte for byte and never taken for the class it only partly is.
    """
    return UnknownContent(
        type=data["type"], fields={key: value for key, value in data.items() if key != "type"}
    )


def refuse_newer_item(data: dict[str, Any], keys: frozenset[str]) -> SerializationError:
    """The strict reader's error for an item with a key its class does not know, at the key."""
    key = next(key for key in data if key not in keys)
    return SerializationError(
        f"a {data['type']!r} item has no field {key!r} in this version (data of a newer "
        "version or plugin): read it without strict=True to keep it as UnknownContent",
        path=str(key),
    )


def read_unknown(data: dict[str, Any]) -> UnknownContent:
    """Read an item of an unregistered type into `UnknownContent`."""
    # A "metadata" object is the item's metadata; anything else by that name is a field.
    metadata = data.get("metadata")
    if type(metadata) is dict:
        fields = {key: value for key, value in data.items() if key not in ("type", "metadata")}
        return UnknownContent(type=data["type"], fields=fields, metadata=dict(metadata))
    fields = {key: value for key, value in data.items() if key != "type"}
    return UnknownContent(type=data["type"], fields=fields)


def is_content_class(cls: Any) -> bool:
    """Whether ``cls`` is a content class."""
    return isinstance(cls, type) and issubclass(cls, KernelContent)


def is_message_class(cls: Any) -> bool:
    """Whether ``cls`` is a message class."""
    return isinstance(cls, type) and issubclass(cls, ChatMessageContent)


def checked(value: Any, cls: type[_T]) -> _T:
    """Return ``value`` if it is a ``cls``, else raise saying what it is."""
    if not isinstance(value, cls):
        raise SerializationError.mismatch(
            "", f"a {cls.__name__}", f"a {type(value).__name__}"
        )
    return value
