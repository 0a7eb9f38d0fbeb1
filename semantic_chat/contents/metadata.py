"""Helpers shared by items and messages: metadata made on first use, and their ``repr``.

Items and messages keep ``metadata`` in a private slot that stays ``None`` until the dict is
first asked for, which saves an empty dict per object (most never get metadata). These
functions are what the rest of the library uses to read it without creating it, to compare
it (no dict equals an empty one), and to show an object without private names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

import attrs

__all__ = ["EMPTY_METADATA", "fields_repr", "metadata_key", "peek_metadata", "written_by_attrs"]

EMPTY_METADATA: Mapping[str, Any] = MappingProxyType({})
"""What `peek_metadata` returns for an object whose metadata was never made."""


def metadata_key(value: dict[str, Any] | None) -> dict[str, Any] | None:
    """The value equality compares: ``None`` and an empty dict both mean no metadata."""
    return value or None


def peek_metadata(owner: Any) -> Mapping[str, Any]:
    """Return an item's or a message's metadata without creating an empty dict for it."""
    metadata: dict[str, Any] | None = owner._metadata
    return EMPTY_METADATA if metadata is None else metadata


def fields_repr(obj: Any, fields: Sequence[attrs.Attribute[Any]]) -> str:
    """``Class(name=value, ...)`` over the shown fields, by constructor name.

    ``metadata`` comes last, shown only when it holds something; a field's own ``repr``
    callable (a binary payload's summary) is used when it has one.
    """
    shown = []
    for field in fields:
        if field.repr is not False and field.name != "_metadata":
            value = getattr(obj, field.name)
            if field.metadata.get("shown_when_set") and not value:
                continue  # an optional collection (a text's citations): shown when it has some
            text = field.repr(value) if callable(field.repr) else repr(value)
            shown.append(f"{field.alias}={text}")
    if obj._metadata:
        shown.append(f"metadata={obj._metadata!r}")
    return f"{type(obj).__name__}({', '.join(shown)})"


def written_by_attrs(cls: type, method: str) -> bool:
    """Whether ``cls`` itself has ``method`` and attrs generated it."""
    code = getattr(cls.__dict__.get(method), "__code__", None)
    return code is not None and code.co_filename.startswith("<attrs generated")
