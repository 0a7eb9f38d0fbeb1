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
from .fields import Hook, split_newer_keys, write_unknown_keys

__all__ = ["citations_reader", "read_citations", "write_citations"]


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
        for name in CITATION_KEYS_IN_ORDER:
            value = getattr(citation, name)
            if value is not None and value != {}:
                fields[name] = value
        if "metadata" in fields:
            fields["metadata"] = jsoncodec.json_value(
                fields["metadata"], f"citations[{index}].metadata"
            )
        if type(citation) is CitationWithUnknownKeys:  # fields of a newer version, as read
            try:
                fields.update(write_unknown_keys(citation._unknown_keys, CITATION_KEYS, "citation"))
            except SemanticChatError as error:
                raise error.at(f"citations[{index}]") from None
        written.append(fields)
    return written


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
        try:
            if CITATION_KEYS.issuperset(element):
                read.append(Citation(**element))
            else:  # keys of a newer version: kept, or refused (strict)
                known, unknown = split_newer_keys(element, CITATION_KEYS, strict, "citation field")
                read.append(CitationWithUnknownKeys(**known, unknown_keys=unknown))
        except SemanticChatError as error:
            raise SerializationError(error.detail, path=f"{where}.{error.path}") from None
    return tuple(read)
