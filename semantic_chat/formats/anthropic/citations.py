"""Anthropic citations (a text block's ``citations``) to and from `Citation`.

Each Anthropic location type maps its fields to the neutral ones: ``cited_text``; the
document's or search result's index to ``source_index``; its title to ``title``; the cited
range to ``source_start`` / ``source_end`` in ``source_unit`` (``char_location``: characters,
``page_location``: pages, ``content_block_location`` and ``search_result_location``: blocks);
a web result's ``url`` and a search result's ``source`` to ``url``; ``file_id`` as it is,
but never written: only a response's citation has one (a request's types have no such key).
What no field holds (the type, ``encrypted_index``, keys sent as ``null``, keys of types newer
than this code) is kept in ``metadata["anthropic"]``, so a citation is written back exactly.
"""

from __future__ import annotations

from typing import Any

from ...contents.citation import Citation
from ...errors import FormatError, SemanticChatError, describe_type
from ..wire import OnUnsupported, lost_citation_keys, unsupported_field
from .shared import FORMAT, HINTS

__all__ = ["read_citation", "write_citation"]

_TITLE = ("title", str)
_CITED = ("cited_text", str)
_FILE = ("file_id", str)

# Per type: wire key -> (Citation field, type); the unit its range counts.
_LAYOUTS: dict[str, tuple[dict[str, tuple[str, type]], str | None]] = {
    "char_location": (
        {
            "cited_text": _CITED,
            "document_index": ("source_index", int),
            "document_title": _TITLE,
            "start_char_index": ("source_start", int),
            "end_char_index": ("source_end", int),
            "file_id": _FILE,
        },
        "char",
    ),
    "page_location": (
        {
            "cited_text": _CITED,
            "document_index": ("source_index", int),
            "document_title": _TITLE,
            "start_page_number": ("source_start", int),
            "end_page_number": ("source_end", int),
            "file_id": _FILE,
        },
        "page",
    ),
    "content_block_location": (
        {
            "cited_text": _CITED,
            "document_index": ("source_index", int),
            "document_title": _TITLE,
            "start_block_index": ("source_start", int),
            "end_block_index": ("source_end", int),
            "file_id": _FILE,
        },
        "block",
    ),
    "search_result_location": (
        {
            "cited_text": _CITED,
            "search_result_index": ("source_index", int),
            "title": _TITLE,
            "source": ("url", str),
            "start_block_index": ("source_start", int),
            "end_block_index": ("source_end", int),
        },
        "block",
    ),
    "web_search_result_location": (
        {"cited_text": _CITED, "title": _TITLE, "url": ("url", str)},
        None,
    ),
}

# The keys each type requires (the API refuses a citation without them), beside ``type``.
_REQUIRED: dict[str, tuple[str, ...]] = {
    "char_location": (
        "cited_text", "document_index", "document_title", "start_char_index", "end_char_index"
    ),
    "page_location": (
        "cited_text", "document_index", "document_title", "start_page_number", "end_page_number"
    ),
    "content_block_location": (
        "cited_text", "document_index", "document_title", "start_block_index", "end_block_index"
    ),
    "search_result_location": (
        "cited_text", "search_result_index", "title", "source", "start_block_index",
        "end_block_index",
    ),
    "web_search_result_location": ("cited_text", "title", "url", "encrypted_index"),
}

_NULLABLE = ("document_title", "title")

_UNKNOWN_LAYOUT: tuple[dict[str, tuple[str, type]], str | None] = ({"cited_text": _CITED}, None)


def read_citation(data: Any, path: str) -> Citation:
    """Read one Anthropic citation (a dict) as a `Citation`.

    A type newer than this code keeps ``cited_text`` and every other key in
    ``metadata["anthropic"]``, so it is written back as it came.

    Raises:
        FormatError: ``data`` is not a dict or has no ``str`` ``type``, or a known key holds
            another type (an index that is not an integer ...); the message names it
            (``messages[1].content[0].citations[0].type``).
    """
    if type(data) is not dict:
        raise FormatError.mismatch(path, "a citation object", describe_type(data))
    kind = data.get("type")
    if type(kind) is not str:
        if "type" not in data:
            raise FormatError("missing 'type'", path=path)
        raise FormatError.mismatch(f"{path}.type", "str", describe_type(kind))
    layout, unit = _LAYOUTS.get(kind, _UNKNOWN_LAYOUT)
    fields: dict[str, Any] = {}
    kept: dict[str, Any] = {"type": kind}
    for key, value in data.items():
        if key == "type":
            continue
        mapped = layout.get(key)
        if mapped is None or value is None:
            kept[key] = value  # not modelled, or sent as null: written back as it came
            continue
        field, kind_of_value = mapped
        if type(value) is not kind_of_value:
            raise FormatError.mismatch(
                f"{path}.{key}", kind_of_value.__name__, describe_type(value)
            )
        fields[field] = value
    if unit is not None:
        fields["source_unit"] = unit
    try:
        return Citation(**fields, metadata={HINTS: kept})
    except SemanticChatError as error:  # a number beyond 64 bits, a lone surrogate
        raise FormatError(error.detail, path=f"{path}{_wire_path(error.path, layout)}") from None


def write_citation(
    citation: Citation, path: str, on_unsupported: OnUnsupported | None
) -> dict[str, Any] | None:
    """Write a `Citation` as an Anthropic citation dict, or ``None`` when it cannot be.

    A citation read from this format is written back exactly. Any other is written as the
    location its fields describe: ``source_unit`` ``"char"``, ``"page"`` or ``"block"`` with
    a ``source_index`` gives a document location (a ``"block"`` one with a ``url`` a search
    result location). One that names no such location (an OpenAI ``url_citation``: Anthropic
    web results need the ``encrypted_index`` only Anthropic gives) or lacks a key the type
    requires is left out as a field loss (warned by default), and so is a span of the text
    (``text_start`` / ``text_end``): an Anthropic citation supports its whole block. A
    ``file_id`` is left out the same way, even one read from a response: only responses
    carry one (a ``null`` one is dropped silently).

    Raises:
        UnsupportedContentError: something is left out and ``on_unsupported`` is ``"error"``.
    """
    hints = citation.metadata.get(HINTS)
    kept: dict[str, Any] = {}
    if isinstance(hints, dict) and isinstance(hints.get("type"), str):
        kept = hints
    kind = kept.get("type") or _location_type(citation)
    if kind is None:
        what = "a citation that names no document or search result location"
        unsupported_field(on_unsupported, FORMAT, path, what)
        return None
    layout, _ = _LAYOUTS.get(kind, _UNKNOWN_LAYOUT)
    written: dict[str, Any] = {"type": kind}
    for key, (field, _kind) in layout.items():
        value = getattr(citation, field)
        if value is not None:
            if key == "file_id":
                # the API gives a file id in a response; a request's citation has no such key
                what = "a citation's file_id (a request's citations cannot name a file)"
                unsupported_field(on_unsupported, FORMAT, f"{path}.file_id", what)
                continue
            written[key] = value
    if kept:  # read from this format: written back as it came
        for key, value in kept.items():
            if key not in written and not (key == "file_id" and key in layout):  # a null one
                written[key] = value
    else:  # from elsewhere: an unknown title is the null the API takes; the rest is needed
        for key in _NULLABLE:
            if key in _REQUIRED[kind] and key not in written:
                written[key] = None
        missing = [key for key in _REQUIRED[kind] if key not in written]
        if missing:
            names = ", ".join(repr(key) for key in missing)
            what = f"a {kind} citation without {names}"
            unsupported_field(on_unsupported, FORMAT, path, what)
            return None
    lost_citation_keys(citation, path, FORMAT, on_unsupported)  # of one written only
    if citation.text_start is not None or citation.text_end is not None:
        what = "a citation's span of its text (a citation supports its whole text block)"
        unsupported_field(on_unsupported, FORMAT, f"{path}.text_start", what)
    return written


def _location_type(citation: Citation) -> str | None:
    """The Anthropic type a citation from elsewhere describes, if any."""
    if citation.source_index is None:
        return None
    unit = citation.source_unit
    if unit == "char":
        return "char_location"
    if unit == "page":
        return "page_location"
    if unit == "block":
        return "search_result_location" if citation.url is not None else "content_block_location"
    return None


def _wire_path(field_path: str, layout: dict[str, tuple[str, type]]) -> str:
    """The wire key of a `Citation` field an error names (``source_start`` -> ``.start_...``)."""
    field = field_path.split(".", 1)[0].split("[", 1)[0]
    for key, (name, _kind) in layout.items():
        if name == field:
            return f".{key}"
    return ""
