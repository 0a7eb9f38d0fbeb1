"""Writing and reading a text item's citations: a list of objects of their set fields."""

from __future__ import annotations

from typing import Any

import attrs

from .. import jsoncodec
from ..contents.citation import Citation
from ..errors import SemanticChatError, SerializationError, describe_type

__all__ = ["read_citations", "write_citations"]

_FIELDS = tuple(field.name for field in attrs.fields(Citation))
_KNOWN = frozenset(_FIELDS)


def write_citations(citations: Any) -> list[dict[str, Any]]:
    """Write citations as objects of their set fields, in field order (``metadata`` last).

    Raises:
        SerializationError: ``citations`` is not a tuple of `Citation` (broken by hand), or
            a value put into a citation's metadata is not JSON; the message names it
            (``citations[1].metadata["when"]``).
    """
    if type(citations) is not tuple:
        raise SerializationError.mismatch(
            "citations", "a tuple of Citation", describe_type(citations)
        )
    written = []
    for index, citation in enumerate(citations):
        if not isinstance(citation, Citation):
            raise SerializationError.mismatch(
                f"citations[{index}]", "a Citation", describe_type(citation)
            )
        fields: dict[str, Any] = {}
        for name in _FIELDS:
            value = getattr(citation, name)
            if value is not None and value != {}:
                fields[name] = value
        if "metadata" in fields:
            fields["metadata"] = jsoncodec.json_value(
                fields["metadata"], f"citations[{index}].metadata"
            )
        written.append(fields)
    return written


def read_citations(data: Any, _: Any = None) -> tuple[Citation, ...]:
    """Read citations written by `write_citations` (as a text item's field: paths are relative).

    Raises:
        SerializationError: not a list of objects, an unknown key, or a value of the wrong
            type; the message names it (``citations[0].source_start``).
    """
    if type(data) is not list:
        raise SerializationError.mismatch("", "a list of citations", describe_type(data))
    read = []
    for index, element in enumerate(data):
        where = f"[{index}]"  # the item reader puts the field's name before it
        if type(element) is not dict:
            raise SerializationError.mismatch(where, "a citation object", describe_type(element))
        for key in element:
            if key not in _KNOWN:
                raise SerializationError(f"unknown citation field {key!r}", path=where)
        try:
            read.append(Citation(**element))
        except SemanticChatError as error:
            raise SerializationError(error.detail, path=f"{where}.{error.path}") from None
    return tuple(read)
