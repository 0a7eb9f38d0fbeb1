"""Writing and reading a text item's citations: a list of objects of their set fields."""

from __future__ import annotations

from typing import Any

import attrs

from .. import jsoncodec
from ..contents.citation import Citation, CitationWithUnknownKeys
from ..errors import SemanticChatError, SerializationError, describe_type
from .fields import Hook

__all__ = ["citations_reader", "read_citations", "write_citations"]

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
        if type(citation) is CitationWithUnknownKeys:  # fields of a newer version, as read
            _write_unknown_keys(citation, fields, f"citations[{index}]")
        written.append(fields)
    return written


def _write_unknown_keys(
    citation: CitationWithUnknownKeys, fields: dict[str, Any], where: str
) -> None:
    """Add a citation's keys of a newer version after its own, refusing one set by hand badly.

    Raises:
        SerializationError: a kept key is one of a citation's own fields, or its value is not
            JSON (``citations[0].unknown_keys["when"]``).
    """
    unknown = jsoncodec.json_value(citation._unknown_keys, f"{where}.unknown_keys")
    if type(unknown) is not dict:
        raise SerializationError.mismatch(f"{where}.unknown_keys", "a dict", describe_type(unknown))
    for key in unknown:
        if key in _KNOWN:
            raise SerializationError(
                f"{key!r} would be read back as the citation's own field, not as an unknown key",
                path=f'{where}.unknown_keys["{key}"]',
            )
    fields.update(unknown)


def citations_reader(strict: bool) -> Hook:
    """The reader of a text item's ``citations``: keys of a newer version kept, or refused.

    Not strict, a citation with keys this version does not know is a `CitationWithUnknownKeys`
    keeping them, written back after its own; strict, the first such key is refused at its
    path (``citations[0].future_key``).
    """

    def read(data: Any, _: Any = None) -> tuple[Citation, ...]:
        return read_citations(data, strict=strict)

    return read


def read_citations(data: Any, _: Any = None, *, strict: bool = True) -> tuple[Citation, ...]:
    """Read citations written by `write_citations` (as a text item's field: paths are relative).

    A key this version does not know is refused (``strict``) or kept in a
    `CitationWithUnknownKeys`.

    Raises:
        SerializationError: not a list of objects, an unknown key (strict), or a value of the
            wrong type; the message names it (``citations[0].source_start``).
    """
    if type(data) is not list:
        raise SerializationError.mismatch("", "a list of citations", describe_type(data))
    read = []
    for index, element in enumerate(data):
        where = f"[{index}]"  # the item reader puts the field's name before it
        if type(element) is not dict:
            raise SerializationError.mismatch(where, "a citation object", describe_type(element))
        newer = not _KNOWN.issuperset(element)
        if newer and strict:
            raise _refused_newer_key(element, where)
        try:
            read.append(_newer_citation(element) if newer else Citation(**element))
        except SemanticChatError as error:
            raise SerializationError(error.detail, path=f"{where}.{error.path}") from None
    return tuple(read)


def _refused_newer_key(element: dict[str, Any], where: str) -> SerializationError:
    """The error for a citation's first key this version does not know, located at it."""
    key = next(key for key in element if key not in _KNOWN)
    return SerializationError(
        f"no citation field {key!r} in this version (data of a newer version): read it "
        "without strict=True to keep it",
        path=f"{where}.{key}",
    )


def _newer_citation(element: dict[str, Any]) -> CitationWithUnknownKeys:
    """A citation with keys this version does not know, keeping them to be written back."""
    known = {key: value for key, value in element.items() if key in _KNOWN}
    unknown = {key: value for key, value in element.items() if key not in _KNOWN}
    return CitationWithUnknownKeys(**known, unknown_keys=unknown)
