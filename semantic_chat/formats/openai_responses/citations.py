"""OpenAI Responses ``output_text.annotations`` read as `Citation` values and written back.

- ``url_citation``: ``start_index`` / ``end_index`` -> ``text_start`` / ``text_end``,
  ``title``, ``url``;
- ``file_citation``: ``file_id``, ``filename``; ``index``, the place in the text where the
  citation goes (as the SDK documents it), -> ``text_start`` = ``text_end``;
- ``container_file_citation``: ``file_id``, ``filename``, ``start_index`` / ``end_index``;
  ``container_id`` is kept in ``metadata["openai_responses"]``;
- ``file_path``: ``file_id``; ``index``, the file's place among the files, -> ``source_index``;
- another type: those of the keys above it has with the right JSON type (``start_index``,
  ``end_index``, ``url``, ``title``, ``file_id``, ``filename``); the rest in metadata.

Keys no `Citation` field holds are kept in ``metadata["openai_responses"]``, and so is ``type``
when the fields do not imply it (a ``url`` implies ``url_citation``; a ``file_id`` with a
``container_id`` ``container_file_citation``, with a ``filename`` ``file_citation``, alone
``file_path``), so an annotation read is written back exactly. A citation from elsewhere is
written as the type its fields imply: without a span it covers the whole text (a file citation
goes after it), and a url citation without a title gets ``""`` (the API requires one). What the
annotation cannot hold (``cited_text``, a source's span, a title on a file citation ...) and
citations that fit no annotation (no url and no file id) are reported as field losses.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ...contents import Citation
from ...errors import FormatError, SemanticChatError, describe_type
from ..wire import OnUnsupported, report_citation_losses, require, unsupported_field
from .shared import FORMAT, HINTS

__all__ = ["read_annotation", "write_annotations"]

_FIELDS: dict[str, dict[str, tuple[type, str]]] = {
    "url_citation": {
        "start_index": (int, "text_start"),
        "end_index": (int, "text_end"),
        "url": (str, "url"),
        "title": (str, "title"),
    },
    "file_citation": {
        "file_id": (str, "file_id"),
        "filename": (str, "filename"),
        "index": (int, "text_start"),
    },
    "container_file_citation": {
        "container_id": (str, ""),  # required, but kept in the hints: no field holds it
        "file_id": (str, "file_id"),
        "filename": (str, "filename"),
        "start_index": (int, "text_start"),
        "end_index": (int, "text_end"),
    },
    "file_path": {"file_id": (str, "file_id"), "index": (int, "source_index")},
}
"""Each known type's required keys, their JSON types and the `Citation` field each fills."""

_GENERIC: dict[str, tuple[type, str]] = {
    "start_index": (int, "text_start"),
    "end_index": (int, "text_end"),
    "url": (str, "url"),
    "title": (str, "title"),
    "file_id": (str, "file_id"),
    "filename": (str, "filename"),
}
"""The keys read into fields for a type this code does not know, when of the right type."""

_CARRIED: dict[str, frozenset[str]] = {
    "url_citation": frozenset(("url", "title", "text_start", "text_end")),
    "file_citation": frozenset(("file_id", "filename", "text_start", "text_end")),
    "container_file_citation": frozenset(("file_id", "filename", "text_start", "text_end")),
    "file_path": frozenset(("file_id", "source_index")),
}
_CARRIED_GENERIC = frozenset(field for _, field in _GENERIC.values())
def read_annotation(data: Any, path: str) -> Citation:
    """Read one ``output_text`` annotation (a plain dict) as a `Citation`.

    Raises:
        FormatError: not an object, no ``type``, or a known type without one of its keys or
            with a key of the wrong type; the message names it (``...annotations[0].url``).
    """
    if type(data) is not dict:
        raise FormatError.mismatch(path, "an annotation object", describe_type(data))
    kind = require(data, "type", str, path)
    fields: dict[str, Any] = {}
    known = _FIELDS.get(kind)
    if known is not None:
        for key, (expected, field) in known.items():
            value = require(data, key, expected, path)
            if field:
                fields[field] = value
        if kind == "file_citation":
            fields["text_end"] = fields["text_start"]
        used = frozenset(key for key, (_, field) in known.items() if field)
    else:
        used_keys = []
        for key, (expected, field) in _GENERIC.items():
            value = data.get(key)
            if isinstance(value, expected) and not isinstance(value, bool):
                fields[field] = value
                used_keys.append(key)
        used = frozenset(used_keys)
    hints = {key: value for key, value in data.items() if key not in used}
    try:
        citation = Citation(**fields)
        if _shape(citation, hints) == kind:
            del hints["type"]
        return Citation(**fields, metadata={HINTS: hints}) if hints else citation
    except SemanticChatError as error:  # a lone surrogate, a number beyond 64 bits
        raise error.at(path) from None


def write_annotations(
    citations: Iterable[Citation],
    text: str,
    path: str,
    on_unsupported: OnUnsupported | None,
) -> list[dict[str, Any]]:
    """Write a text's citations as ``output_text`` annotations, reporting what none can hold.

    ``path`` is the text item's (``messages[1].items[0]``); each loss is located under its
    ``citations[k]``.

    Raises:
        UnsupportedContentError: something is left out and ``on_unsupported`` is ``"error"``.
    """
    written = []
    for index, citation in enumerate(citations):
        annotation = _write(citation, text, f"{path}.citations[{index}]", on_unsupported)
        if annotation is not None:
            written.append(annotation)
    return written


def _shape(citation: Citation, hints: dict[str, Any]) -> str | None:
    """The annotation type a citation's fields imply, or ``None`` when none fits."""
    if citation.url is not None:
        return "url_citation"
    if citation.file_id is None:
        return None
    if "container_id" in hints:
        return "container_file_citation"
    return "file_citation" if citation.filename is not None else "file_path"


def _write(
    citation: Citation, text: str, path: str, on_unsupported: OnUnsupported | None
) -> dict[str, Any] | None:
    found = citation.metadata.get(HINTS)
    hints: dict[str, Any] = found if isinstance(found, dict) else {}
    named = hints.get("type")
    kind = named if isinstance(named, str) else _shape(citation, hints)
    if kind is None:
        what = "a citation without a url or a file id (no annotation type fits it)"
        unsupported_field(on_unsupported, FORMAT, path, what)
        return None
    missing = _missing(citation, kind, hints)
    if missing:
        unsupported_field(on_unsupported, FORMAT, path, f"a {kind} annotation without {missing}")
        return None
    carried = _CARRIED.get(kind, _CARRIED_GENERIC)
    report_citation_losses(citation, carried, kind, path, FORMAT, on_unsupported)
    start, end = citation.text_start, citation.text_end
    if kind == "file_citation" and start is not None and end is not None and start != end:
        what = "the start of a span in a file_citation annotation (it marks one position)"
        unsupported_field(on_unsupported, FORMAT, f"{path}.text_start", what)
    whole = (0 if start is None else start, len(text) if end is None else end)
    annotation: dict[str, Any] = {"type": kind}
    if kind == "url_citation":
        annotation["start_index"], annotation["end_index"] = whole
        annotation["url"] = citation.url
        annotation["title"] = "" if citation.title is None else citation.title
    elif kind == "file_citation":
        annotation["file_id"] = citation.file_id
        annotation["filename"] = citation.filename
        # The place the citation goes: after the span it supports, or after the whole text.
        annotation["index"] = end if end is not None else len(text) if start is None else start
    elif kind == "container_file_citation":
        annotation["container_id"] = hints["container_id"]
        annotation["file_id"] = citation.file_id
        annotation["filename"] = citation.filename
        annotation["start_index"], annotation["end_index"] = whole
    elif kind == "file_path":
        annotation["file_id"] = citation.file_id
        annotation["index"] = citation.source_index
    else:
        for key, (_, field) in _GENERIC.items():
            value = getattr(citation, field)
            if value is not None:
                annotation[key] = value
    annotation.update(hints)
    return annotation


def _missing(citation: Citation, kind: str, hints: dict[str, Any]) -> str | None:
    """What a known annotation type needs that the citation lacks, named; ``None`` if nothing."""
    if kind == "container_file_citation" and not isinstance(hints.get("container_id"), str):
        return "a container_id"
    if kind in ("file_citation", "container_file_citation", "file_path") and (
        citation.file_id is None
    ):
        return "a file_id"
    if kind in ("file_citation", "container_file_citation") and citation.filename is None:
        return "a filename"
    if kind == "file_path" and citation.source_index is None:
        return "a source_index (the file's place among the files)"
    if kind == "url_citation" and citation.url is None:
        return "a url"
    return None
