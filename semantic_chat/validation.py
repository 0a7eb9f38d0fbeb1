"""Checks of the values given to the model's constructors and assigned to its fields.

Every public constructor and every field setter of items, messages and `Usage` passes what it
was given through one of these functions, so that an object that exists can always be written
and read back. Each returns the value to store (a ``str`` subclass becomes a plain ``str``, a
numpy integer a plain ``int``, JSON values a checked copy) or raises naming the field.

Readers of JSON and of provider payloads do not come through here: they check as they read and
build objects with `semantic_chat.trusted`.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from typing import Any

import attrs
import numpy as np

from .errors import (
    InvalidTypeError,
    InvalidValueError,
    SemanticChatError,
    describe_lone_surrogate,
    describe_type,
)
from .jsoncodec import JSON_INT_MAX, JSON_INT_MIN, model_json_value

__all__ = [
    "JSON_INT_MAX",
    "JSON_INT_MIN",
    "SCALAR_TYPES",
    "annotation_text",
    "check_encodable",
    "check_flag",
    "check_int",
    "check_int_range",
    "check_json",
    "check_metadata",
    "check_optional_int",
    "check_optional_text",
    "check_stored",
    "check_text",
]


def check_text(value: Any, field: str) -> str:
    """Return ``value`` as a ``str`` that can be written as UTF-8.

    Raises:
        InvalidTypeError: ``value`` is not a string; the message names ``field``.
        InvalidValueError: it holds a lone surrogate (text decoded wrongly), which no JSON
            writer can write.
    """
    if not isinstance(value, str):
        raise InvalidTypeError.mismatch(field, "a str", describe_type(value))
    text = value if type(value) is str else str.__str__(value)  # a label, numpy's str_
    if not text.isascii():
        check_encodable(text, field)
    return text


def check_optional_text(value: Any, field: str) -> str | None:
    """Return ``value`` as a ``str`` that can be written as UTF-8, or ``None``.

    Raises:
        InvalidTypeError: ``value`` is neither a string nor ``None``.
        InvalidValueError: it holds a lone surrogate.
    """
    if value is None:
        return None
    if not isinstance(value, str):
        raise InvalidTypeError.mismatch(field, "a str or None", describe_type(value))
    return check_text(value, field)


def check_encodable(text: str, field: str) -> None:
    """Refuse text with a lone surrogate, naming the character.

    Raises:
        InvalidValueError: the text cannot be written as UTF-8.
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise InvalidValueError(describe_lone_surrogate(text, error), path=field) from None


def check_optional_int(value: Any, field: str) -> int | None:
    """Return ``value`` as an ``int`` (numpy integers included), or ``None``.

    Raises:
        InvalidTypeError: ``value`` is not an integer (a ``bool`` is not one here).
        InvalidValueError: it is outside the 64-bit range JSON readers accept.
    """
    if value is None:
        return None
    return check_int(value, field, "an int or None")


def check_int(value: Any, field: str, expected: str = "an int") -> int:
    """Return ``value`` as an ``int`` (numpy integers included).

    Raises:
        InvalidTypeError: ``value`` is not an integer (a ``bool`` is not one here).
        InvalidValueError: it is outside the 64-bit range JSON readers accept.
    """
    if not isinstance(value, (int, np.integer)) or isinstance(value, (bool, np.bool_)):
        raise InvalidTypeError.mismatch(field, expected, describe_type(value))
    number = int(value)
    check_int_range(number, field)
    return number


def check_int_range(value: int, field: str) -> None:
    """Refuse an integer JSON readers would not take back (beyond 64 bits).

    Raises:
        InvalidValueError: ``value`` is outside ``-2**63 .. 2**64 - 1``.
    """
    if not JSON_INT_MIN <= value <= JSON_INT_MAX:
        raise InvalidValueError(
            "integer outside the 64-bit range JSON readers accept", path=field
        )


def check_flag(value: Any, field: str) -> bool:
    """Return ``value`` as a ``bool`` (numpy's ``bool_`` included).

    Raises:
        InvalidTypeError: ``value`` is not a boolean (``0`` and ``1`` are not).
    """
    if value is True or value is False:
        return value
    if isinstance(value, np.bool_):
        return bool(value)
    raise InvalidTypeError.mismatch(field, "a bool", describe_type(value))


def check_unknown_keys(
    value: Any, known: frozenset[str], *, empty: str, own: str
) -> dict[str, Any]:
    """Return a checked copy of keys of a newer version: a non-empty dict of JSON values.

    ``known`` are the keys the class itself is written with: one of them would be read back
    as that field (``own`` names it, ``"the usage's own count"``); ``empty`` is what to say
    of an empty dict (build the class itself instead).

    Raises:
        InvalidTypeError: not a dict, or a value JSON cannot hold (``unknown_keys["when"]``).
        InvalidValueError: no key, or one of ``known``.
    """
    name = "unknown_keys"
    if not isinstance(value, dict):
        raise InvalidTypeError.mismatch(name, "a dict", describe_type(value))
    if not value:
        raise InvalidValueError(empty, path=name)
    for key in value:
        if key in known:
            raise InvalidValueError(
                f"{key!r} would be read back as {own}, not as an unknown key",
                path=f'{name}["{key}"]',
            )
    checked: dict[str, Any] = check_json(value, name)
    return checked


def check_json(value: Any, field: str) -> Any:
    """Return a copy of ``value`` checked to be a JSON value (numpy values converted).

    Raises:
        InvalidTypeError: a part of it is of a type JSON cannot hold; the message names
            its path under ``field`` (``result["when"]``).
        InvalidValueError: a number JSON cannot hold (NaN, infinities, a huge integer).
    """
    return model_json_value(value, field)


def check_metadata(value: Any, field: str = "metadata") -> dict[str, Any] | None:
    """Return a checked copy of a metadata mapping, or ``None`` for none or an empty one.

    Raises:
        InvalidTypeError: ``value`` is not a mapping with string keys and JSON values.
        InvalidValueError: a number in it that JSON cannot hold.
    """
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise InvalidTypeError.mismatch(field, "a dict or None", describe_type(value))
    if not value:
        return None
    copied: dict[str, Any] = model_json_value(dict(value), field)
    return copied


SCALAR_TYPES: dict[str, tuple[tuple[type, ...], str]] = {
    "str": ((str,), "a str"),
    "str | None": ((str, type(None)), "a str or None"),
    "int": ((int,), "an int"),
    "int | None": ((int, type(None)), "an int or None"),
    "bool": ((bool,), "a bool"),
}
"""For a declared text, number or flag field (by `annotation_text`): the exact types its value
may have (a ``bool`` is no ``int`` here), and the words for an error."""

# The library's own container slots, for `check_stored` (a plugin's fields of the same types
# are the plugin's): the accepted types, the words for an error, whether subclasses count.
_STORED_SLOTS: dict[str, tuple[tuple[type, ...], str, bool]] = {
    "_metadata": ((dict, type(None)), "a dict or None", False),
    "_items": ((list,), "a list of items", True),
    "_data": ((bytes, str, type(None)), "bytes or None", False),
    "_arguments": ((str, dict, type(None)), "a str, a dict or None", False),
    "_fields": ((dict,), "a dict", False),
}
_STORED_CHECKS: dict[type, tuple[tuple[str, str, tuple[type, ...], str, bool], ...]] = {}


def check_stored(obj: Any, path: str, error: type[SemanticChatError]) -> None:
    """Check that the text, number and flag fields of an item or message hold their types.

    The constructors and setters check every value; this catches an object broken by hand
    (through ``object.__setattr__`` or a private slot) before a writer copies its fields.

    Raises:
        error: the first field that holds something else, located under ``path``.
    """
    checks = _STORED_CHECKS.get(type(obj))
    if checks is None:
        checks = _STORED_CHECKS[type(obj)] = _stored_checks(type(obj))
    for slot, alias, accepted, expected, subclasses in checks:
        value = getattr(obj, slot)
        if type(value) in accepted or (subclasses and isinstance(value, accepted)):
            continue
        where = f"{path}.{alias}" if path else alias
        raise error.mismatch(where, expected, describe_type(value))


def _stored_checks(cls: type) -> tuple[tuple[str, str, tuple[type, ...], str, bool], ...]:
    found = []
    for field in attrs.fields(cls):
        scalar = SCALAR_TYPES.get(annotation_text(field.type))
        entry = (*scalar, False) if scalar is not None else _STORED_SLOTS.get(field.name)
        if entry is not None:
            accepted, expected, subclasses = entry
            found.append((field.name, field.alias or field.name, accepted, expected, subclasses))
    return tuple(found)


def annotation_text(annotation: Any) -> str:
    """A field's declared type as one text, whether attrs keeps it as text or resolved.

    A union is its members joined by `` | ``; a generic is its container's name
    (``list[KernelContent]`` is ``list``, ``dict[str, Any] | None`` is ``dict | None``).
    """
    if isinstance(annotation, str):
        return " | ".join(member.partition("[")[0].strip() for member in _members(annotation))
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return " | ".join(
            "None" if arg is type(None) else getattr(arg, "__name__", repr(arg))
            for arg in typing.get_args(annotation)
        )
    origin = typing.get_origin(annotation)
    if origin is not None:  # list[KernelContent] is checked as a list, dict[str, Any] a dict
        return getattr(origin, "__name__", repr(annotation))
    return getattr(annotation, "__name__", repr(annotation))


def _members(text: str) -> list[str]:
    """The members of a union written as text, split at ``|`` outside brackets."""
    members, depth, start = [], 0, 0
    for index, character in enumerate(text):
        if character == "[":
            depth += 1
        elif character == "]":
            depth -= 1
        elif character == "|" and depth == 0:
            members.append(text[start:index])
            start = index + 1
    members.append(text[start:])
    return members
