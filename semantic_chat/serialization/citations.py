"""Writing and reading a text item's citations: a list of objects of their set fields."""

from __future__ import annotations

from typing import Any

from .. import jsoncodec
from ..contents.citation import (
    CITATION_KEYS,
    CITATION_KEYS_IN_ORDER,
    Citation,
    CitationWithUnknownKeys,
)
from ..errors import SemanticChatError, SerializationError, describe_type
from .fields import Hook, read_keeping_newer, write_unknown_keys

__all__ = [
    "citations_reader",
    "read_citation",
    "read_citations",
    "write_citation",
    "write_citations",
]


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
        try:
            written.append(write_citation(citation))
        except SemanticChatError as error:
            raise error.at(f"citations[{index}]") from None
    return written


def write_citation(citation: Any) -> dict[str, Any]:
    """Write one citation: its set fields in field order, then the keys of a newer version.

    Raises:
        SerializationError: not a `Citation`, or a value put into its metadata is not JSON
            (``metadata["when"]``).
    """
    if not isinstance(citation, Citation):
        raise SerializationError.mismatch("", "a Citation", describe_type(citation))
    fields: dict[str, Any] = {}
    for name in CITATION_KEYS_IN_ORDER:
        value = getattr(citation, name)
        if value is not None and value != {}:
            fields[name] = value
    if "metadata" in fields:
        fields["metadata"] = jsoncodec.json_value(fields["metadata"], "metadata")
    if type(citation) is CitationWithUnknownKeys:  # fields of a newer version, as read
        fields.update(write_unknown_keys(citation._unknown_keys, CITATION_KEYS, "citation"))
    return fields


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
        try:
            read.append(read_citation(element, strict=strict))
        except SemanticChatError as error:
            raise error.at(f"[{index}]") from None  # the item reader puts the field's name first
    return tuple(read)


def read_citation(data: Any, _: Any = None, *, strict: bool = True) -> Citation:
    """Read one citation as `write_citation` writes it.

    A key this version does not know is refused (``strict``) or kept in a
    `CitationWithUnknownKeys`.

    Raises:
        SerializationError: not an object, an unknown key (strict), or a value of the wrong
            type; the message names it (``source_start``).
    """
    if type(data) is not dict:
        raise SerializationError.mismatch("", "a citation object", describe_type(data))
    classes = (Citation, CitationWithUnknownKeys)
    return read_keeping_newer(data, CITATION_KEYS, strict, "citation field", classes)
