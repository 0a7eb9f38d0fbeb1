"""`Citation`: a source that supports a piece of text, hung on the text it supports."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs

from ..errors import InvalidTypeError, describe_type
from ..validation import (
    check_metadata,
    check_optional_int,
    check_optional_text,
    check_unknown_keys,
)

__all__ = ["Citation", "CitationWithUnknownKeys", "check_citations"]


@attrs.frozen(slots=True, weakref_slot=False)
class Citation:
    """Where a piece of text comes from: a document, a page, a web result, a file.

    One shape for every provider's citations: Anthropic's ``char_location``,
    ``page_location``, ``content_block_location``, ``search_result_location`` and
    ``web_search_result_location``; OpenAI's ``url_citation`` and ``file_citation``
    annotations; Gemini's grounding. A citation belongs to the `TextContent` it supports
    (``text.citations``); ``text_start`` / ``text_end`` narrow it to a span of that text.
    Every field is optional, and a format keeps what it needs to write a citation back
    exactly under its own key in ``metadata`` (``metadata["anthropic"]``), as items do.

    Raises:
        InvalidTypeError: a field of the wrong type (a text field that is not a ``str``, a
            position that is not an ``int``), naming the field.
        InvalidValueError: a lone surrogate in a text, a number beyond 64 bits.
    """

    cited_text: str | None = attrs.field(default=None, kw_only=True)
    """The words quoted from the source."""

    title: str | None = attrs.field(default=None, kw_only=True)
    """The source's title: a document's, a web page's."""

    url: str | None = attrs.field(default=None, kw_only=True)
    """The source's address on the web."""

    file_id: str | None = attrs.field(default=None, kw_only=True)
    """The provider's id of an uploaded file that is the source."""

    filename: str | None = attrs.field(default=None, kw_only=True)
    """The name of the file that is the source."""

    source_index: int | None = attrs.field(default=None, kw_only=True)
    """Which source among those the request gave (a document's index, a search result's)."""

    source_start: int | None = attrs.field(default=None, kw_only=True)
    """Where the cited part starts in the source, counted in ``source_unit``."""

    source_end: int | None = attrs.field(default=None, kw_only=True)
    """Where the cited part ends in the source (exclusive, as the provider gives it)."""

    source_unit: str | None = attrs.field(default=None, kw_only=True)
    """What ``source_start`` and ``source_end`` count: ``"char"``, ``"page"`` or ``"block"``."""

    text_start: int | None = attrs.field(default=None, kw_only=True)
    """Where the supported span starts in the text item; ``None``: the whole item."""

    text_end: int | None = attrs.field(default=None, kw_only=True)
    """Where the supported span ends in the text item (exclusive)."""

    metadata: dict[str, Any] = attrs.field(factory=dict, kw_only=True, hash=False)
    """JSON values; a wire format keeps its own fields under its name, as items do."""

    def __attrs_post_init__(self) -> None:
        for name in _TEXT_FIELDS:
            value = getattr(self, name)
            if value is not None and not (type(value) is str and value.isascii()):
                object.__setattr__(self, name, check_optional_text(value, name))
        for name in _NUMBER_FIELDS:
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, check_optional_int(value, name))
        object.__setattr__(self, "metadata", check_metadata(self.metadata) or {})

    def __repr__(self) -> str:
        shown = [
            f"{field.name}={getattr(self, field.name)!r}"
            for field in attrs.fields(Citation)
            if getattr(self, field.name) not in (None, {})
        ]
        return f"Citation({', '.join(shown)})"


_TEXT_FIELDS = ("cited_text", "title", "url", "file_id", "filename", "source_unit")
_NUMBER_FIELDS = ("source_index", "source_start", "source_end", "text_start", "text_end")

CITATION_KEYS_IN_ORDER: tuple[str, ...] = tuple(field.name for field in attrs.fields(Citation))
"""The keys a `Citation` is written with, in the order of its fields (``metadata`` last)."""

CITATION_KEYS = frozenset(CITATION_KEYS_IN_ORDER)
"""The keys a `Citation` is written with."""


def _check_unknown_keys(value: Any) -> dict[str, Any]:
    """Return a checked copy of the kept keys: a non-empty dict of JSON values, none a field.

    Raises:
        InvalidTypeError: not a dict, or a value JSON cannot hold (``unknown_keys["when"]``).
        InvalidValueError: no key, or a key that would be read back as a citation's field.
    """
    return check_unknown_keys(
        value,
        CITATION_KEYS,
        empty="a citation with unknown keys needs at least one: build a Citation",
        own="the citation's own field",
    )


@attrs.frozen(slots=True, weakref_slot=False)
class CitationWithUnknownKeys(Citation):
    """A `Citation` read with keys this version does not know (fields of a newer version).

    They are kept as read in ``unknown_keys`` and written back after the known fields, so
    saving again loses nothing; they count in ``==`` (not in the hash).
    """

    _unknown_keys: dict[str, Any] = attrs.field(kw_only=True, alias="unknown_keys", hash=False)

    def __attrs_post_init__(self) -> None:
        Citation.__attrs_post_init__(self)
        object.__setattr__(self, "_unknown_keys", _check_unknown_keys(self._unknown_keys))

    @property
    def unknown_keys(self) -> dict[str, Any]:
        """The keys this version does not know, with their values as read."""
        return self._unknown_keys

    def __repr__(self) -> str:
        shown = Citation.__repr__(self).removeprefix("Citation(").removesuffix(")")
        kept = f"unknown_keys={self._unknown_keys!r}"
        return f"CitationWithUnknownKeys({', '.join(filter(None, (shown, kept)))})"


def check_citations(value: Any, field: str = "citations") -> tuple[Citation, ...]:
    """Return ``value`` (an iterable of `Citation`) as a tuple, checking each element.

    Raises:
        InvalidTypeError: ``value`` is not an iterable of citations; the message names the
            element (``citations[1]``).
    """
    if type(value) is tuple and all(type(element) is Citation for element in value):
        return value
    if isinstance(value, (str, bytes, dict, Citation)) or not isinstance(value, Iterable):
        raise InvalidTypeError.mismatch(field, "a list of Citation", describe_type(value))
    checked = tuple(value)
    for index, element in enumerate(checked):
        if not isinstance(element, Citation):
            raise InvalidTypeError.mismatch(
                f"{field}[{index}]", "a Citation", describe_type(element)
            )
    return checked
