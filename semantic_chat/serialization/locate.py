"""Turning whatever went wrong while reading into one located `SerializationError`."""

from __future__ import annotations

from typing import Any

import attrs
from cattrs.errors import AttributeValidationNote, BaseValidationError, IterableValidationNote

from ..errors import (
    SemanticChatError,
    SerializationError,
)

__all__ = [
    "locate_error",
]


def locate_error(error: BaseException) -> SerializationError:
    """Turn any failure while reading into one `SerializationError` with its location."""
    if isinstance(error, SerializationError):
        return error
    if isinstance(error, SemanticChatError):
        return SerializationError(
            error.detail, path=error.path, expected=error.expected, got=error.got
        )
    if isinstance(error, BaseValidationError):
        first = error.exceptions[0]
        inner = locate_error(first)
        for note in getattr(first, "__notes__", ()):
            if isinstance(note, AttributeValidationNote):
                return inner.at(_alias_of(getattr(error, "cl", None), note.name))
            if isinstance(note, IterableValidationNote):
                return inner.at(f"[{note.index}]")
        return inner
    if isinstance(error, KeyError):
        return SerializationError("missing required field")
    if isinstance(error, (TypeError, ValueError)):
        return SerializationError(str(error))
    return SerializationError(f"{type(error).__name__}: {error}")


def _alias_of(cls: Any, name: str) -> str:
    if attrs.has(cls):
        field = attrs.fields_dict(cls).get(name)
        if field is not None and field.alias is not None:
            return field.alias
    return name
