"""Gemini grounding and recitation citations read as `Citation` values, per part of a candidate.

``grounding_metadata`` (Grounding with Google Search, Google Maps, URL context, File Search,
Vertex AI Search and RAG): each ``grounding_supports[s]`` names a ``segment`` of one part's text
and the ``grounding_chunks`` that support it; each of its ``grounding_chunk_indices`` gives one
`Citation` on the text of ``segment.part_index`` (0 when left out):

- ``source_index``: the chunk's index in ``grounding_chunks``;
- ``url`` and ``title``: the chunk's ``uri`` and ``title`` (an ``image`` chunk's
  ``source_uri``, the page the image was found on);
- ``cited_text``: a ``retrieved_context`` chunk's ``text`` (the words retrieved);
- ``text_start`` / ``text_end``: the segment's ``start_index`` / ``end_index``;
- ``metadata["gemini"]``: ``{"kind": "grounding", "chunk": <the chunk's kind>}`` with the
  chunk's other fields (``domain``, ``document_name``, ``place_id`` ...) and the support's
  ``confidence_scores[k]`` as ``confidence``.

``citation_metadata.citations`` (sources the answer recites): each gives one `Citation` with
``url`` (``uri``), ``title``, the span, and ``{"kind": "citation_metadata"}`` with ``license``
and ``publication_date`` in ``metadata["gemini"]``. Its offsets count in the text of the
answer, the candidate's text parts that are no thoughts joined (what the SDK's
``response.text`` gives), so a span is cut at the parts it covers: one citation per part.

Gemini counts offsets in UTF-8 bytes; a `Citation` counts characters (as the OpenAI formats
do), so each offset is converted with the text of its part. An offset inside a character takes
in the whole character (a start moves back to it, an end forward past it). A missing start is
0 (JSON of a protocol buffer leaves zeros out); a missing end is the end of the text; a
grounding support without a ``segment`` covers its whole part (``text_start`` / ``text_end``
``None``); a ``null`` is read as a missing key. A candidate without content (blocked) gets no
citations: there is no text to hang them on. Grounding is data of one response only: the
Gemini writer leaves these citations out, and the reader keeps the whole metadata in the
message's hints.

Both readers take plain dicts whose keys are spelled either way (``grounding_supports`` or
``groundingSupports``); kept keys are stored in snake_case, values as they came.
"""

from __future__ import annotations

from typing import Any

from ...contents.citation import Citation
from ...errors import FormatError, SemanticChatError, describe_type
from .shared import HINTS, snake_key

__all__ = ["read_citation_metadata", "read_grounding"]

_CHUNK_FIELDS: dict[str, dict[str, str]] = {
    "web": {"uri": "url", "title": "title"},
    "retrieved_context": {"uri": "url", "title": "title", "text": "cited_text"},
    "maps": {"uri": "url", "title": "title"},
    "image": {"source_uri": "url", "title": "title"},
}
"""Per chunk kind: the key -> `Citation` field it fills (every value a ``str``)."""

_ANY_CHUNK: dict[str, str] = {"uri": "url", "title": "title"}
"""The fields read from a chunk of a kind newer than this code."""

_SOURCE_FIELDS = {"uri": "url", "title": "title"}
"""``citation_metadata.citations[i]`` key -> `Citation` field."""


def read_grounding(
    grounding_metadata: dict[str, Any], parts: list[dict[str, Any]], path: str
) -> dict[int, list[Citation]]:
    """Read a candidate's ``grounding_metadata`` as citations, keyed by the part they support.

    ``parts`` is the candidate's ``content.parts`` (for the text the byte offsets count in);
    ``path`` locates the metadata in errors (``candidates[0].grounding_metadata``). Each
    part's citations come in the order of the supports, then of their chunk indices.

    Raises:
        FormatError: the metadata, a support, its segment or a chunk is not an object; an
            index is not an int, is negative, or names a chunk or a part that is not there;
            a segment's part has no text; a segment ends before it starts or beyond its text;
            a chunk field the citation holds is not a string. The message names it
            (``candidates[0].grounding_metadata.grounding_supports[1].segment.end_index``).
    """
    _object(grounding_metadata, path, "a grounding metadata object")
    chunks = _list(grounding_metadata, "grounding_chunks", path)
    supports = _list(grounding_metadata, "grounding_supports", path)
    read_chunks: dict[int, tuple[dict[str, Any], dict[str, Any]]] = {}
    texts = _Texts(parts)
    found: dict[int, list[Citation]] = {}
    if not parts:  # a candidate without content (blocked): no text to hang citations on
        return {}
    chunks_path = f"{path}.{_key(grounding_metadata, 'grounding_chunks')}"
    for s, support in enumerate(supports):
        where = f"{path}.{_key(grounding_metadata, 'grounding_supports')}[{s}]"
        _object(support, where, "a grounding support object")
        indices = _list(support, "grounding_chunk_indices", where)
        if not indices:
            continue
        scores = _list(support, "confidence_scores", where)
        part, span = _segment(support, texts, where)
        for k, index in enumerate(indices):
            at = f"{where}.{_key(support, 'grounding_chunk_indices')}[{k}]"
            if type(index) is not int:
                raise FormatError.mismatch(at, "int", describe_type(index))
            if not 0 <= index < len(chunks):
                detail = f"no grounding chunk {index} (there are {len(chunks)})"
                raise FormatError(detail, path=at)
            chunk_path = f"{chunks_path}[{index}]"
            if index not in read_chunks:
                read_chunks[index] = _chunk(chunks[index], chunk_path)
            fields, kept = read_chunks[index]
            hints = dict(kept)
            if k < len(scores):
                score = scores[k]
                if type(score) not in (int, float):
                    at = f"{where}.{_key(support, 'confidence_scores')}[{k}]"
                    raise FormatError.mismatch(at, "a number", describe_type(score))
                hints["confidence"] = score
            citation = _citation({**fields, "source_index": index, **span}, hints, chunk_path)
            found.setdefault(part, []).append(citation)
    return found


def read_citation_metadata(
    citation_metadata: dict[str, Any], parts: list[dict[str, Any]], path: str
) -> dict[int, list[Citation]]:
    """Read a candidate's ``citation_metadata`` as citations, keyed by the part they support.

    Offsets count UTF-8 bytes in the text of the answer (the text parts that are no thoughts,
    joined); a span over several parts gives a citation on each. ``path`` locates the
    metadata in errors (``candidates[0].citation_metadata``).

    Raises:
        FormatError: the metadata or a citation is not an object, ``citations`` is not a
            list, an index is not an int, is negative, ends before it starts or beyond the
            text, or ``uri`` / ``title`` is not a string; the message names it
            (``candidates[0].citation_metadata.citations[0].end_index``).
    """
    _object(citation_metadata, path, "a citation metadata object")
    sources = _list(citation_metadata, "citations", path)
    texts = _Texts(parts)
    answer = texts.answer()
    size = answer[-1][2] if answer else None
    found: dict[int, list[Citation]] = {}
    for i, source in enumerate(sources):
        where = f"{path}.{_key(citation_metadata, 'citations')}[{i}]"
        _object(source, where, "a citation object")
        start, end = _bounds(source, size, where)
        fields: dict[str, Any] = {}
        hints: dict[str, Any] = {"kind": "citation_metadata"}
        for key, value in source.items():
            name = snake_key(key)
            if name in ("start_index", "end_index") or value is None:
                continue
            field = _SOURCE_FIELDS.get(name)
            if field is None:
                hints[name] = value
                continue
            if type(value) is not str:
                raise FormatError.mismatch(f"{where}.{key}", "str", describe_type(value))
            fields[field] = value
        for part, first, last in answer:
            empty_here = start == end and first <= start <= last
            if not empty_here and min(end, last) <= max(start, first):
                continue  # the span does not cover this part
            data = texts.data(part)
            low, high = max(start, first) - first, min(end, last) - first
            span = {"text_start": _char(data, low, False), "text_end": _char(data, high, True)}
            found.setdefault(part, []).append(_citation({**fields, **span}, hints, where))
            if empty_here:
                break
    return found


class _Texts:
    """The text of each part of a candidate, and its UTF-8 bytes when it is not ASCII."""

    def __init__(self, parts: list[dict[str, Any]]) -> None:
        self.parts = parts
        self._data: dict[int, str | bytes] = {}

    def data(self, part: int) -> str | bytes:
        """The part's text as it is when ASCII (a byte is a character), else its UTF-8 bytes."""
        found = self._data.get(part)
        if found is None:
            text = self.parts[part]["text"]
            found = text if text.isascii() else text.encode("utf-8", "surrogatepass")
            self._data[part] = found
        return found

    def text(self, part: int, where: str) -> str | bytes:
        """The part's text as `data` gives it, after checking there is such a text part.

        Raises:
            FormatError: no part ``part``, or it has no ``str`` text; names ``where``.
        """
        if part < 0 or part >= len(self.parts):
            detail = f"no part {part} in the candidate (it has {len(self.parts)})"
            raise FormatError(detail, path=where)
        chosen = self.parts[part]
        text = chosen.get("text") if type(chosen) is dict else None
        if type(text) is not str:
            raise FormatError(f"part {part} of the candidate has no text", path=where)
        return self.data(part)

    def answer(self) -> list[tuple[int, int, int]]:
        """The answer's parts (text, no thought) as ``(index, first byte, end byte)``.

        The bytes count in the answer's text: those parts joined.
        """
        spans = []
        offset = 0
        for index, part in enumerate(self.parts):
            if type(part) is not dict or type(part.get("text")) is not str or part.get("thought"):
                continue
            size = len(self.data(index))
            spans.append((index, offset, offset + size))
            offset += size
        return spans


def _segment(
    support: dict[str, Any], texts: _Texts, where: str
) -> tuple[int, dict[str, int | None]]:
    """The part a support's segment is in, and the segment's span there in characters."""
    key = _key(support, "segment")
    segment = support.get(key)
    if segment is None:  # no segment (or null): the support covers its whole part
        texts.text(0, f"{where}.{key}")
        return 0, {"text_start": None, "text_end": None}
    where = f"{where}.{key}"
    _object(segment, where, "a segment object")
    part_key = _key(segment, "part_index")
    part = segment.get(part_key)
    if part is None:
        part = 0
    if type(part) is not int:
        raise FormatError.mismatch(f"{where}.{part_key}", "int", describe_type(part))
    data = texts.text(part, f"{where}.{part_key}")
    start, end = _bounds(segment, len(data), where)
    return part, {"text_start": _char(data, start, False), "text_end": _char(data, end, True)}


def _bounds(source: dict[str, Any], size: int | None, where: str) -> tuple[int, int]:
    """``start_index`` (default 0) and ``end_index`` (default ``size``), checked.

    ``size`` is the byte length of the text they count in; ``None`` when there is no text
    (a candidate without content), whose offsets are only checked for their types.

    Raises:
        FormatError: an index is not an int, is negative, is beyond ``size``, or the start
            is after the end; the message names the index.
    """
    start_key, end_key = _key(source, "start_index"), _key(source, "end_index")
    start = source.get(start_key)
    if start is None:
        start = 0
    end = source.get(end_key)
    if end is None:
        end = size if size is not None else start
    for key, value in ((start_key, start), (end_key, end)):
        if type(value) is not int:
            raise FormatError.mismatch(f"{where}.{key}", "int", describe_type(value))
        if value < 0:
            detail = f"expected a byte offset of 0 or more, got {value}"
            raise FormatError(detail, path=f"{where}.{key}")
    if size is not None and end > size:
        detail = f"byte offset {end} is beyond the text ({size} bytes)"
        raise FormatError(detail, path=f"{where}.{end_key}")
    if start > end:
        detail = f"starts at byte {start}, after its end ({end})"
        raise FormatError(detail, path=f"{where}.{start_key}")
    return start, end


def _char(data: str | bytes, offset: int, forward: bool) -> int:
    """The character offset of byte ``offset`` in ``data`` (a text, when every byte is one).

    An offset inside a character moves to its start, or past its end when ``forward``.
    """
    if isinstance(data, str):
        return offset
    inside = offset < len(data) and data[offset] & 0xC0 == 0x80
    count = len(data[:offset].decode("utf-8", "ignore"))
    return count + 1 if inside and forward else count


def _chunk(chunk: Any, where: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """A grounding chunk's `Citation` fields and the hints kept beside them."""
    _object(chunk, where, "a grounding chunk object")
    hints: dict[str, Any] = {"kind": "grounding"}
    fields: dict[str, Any] = {}
    if not chunk:
        return fields, hints
    key = next(iter(chunk))
    kind = snake_key(key)
    hints["chunk"] = kind
    for other in list(chunk)[1:]:  # a chunk holds one source; anything beside it is kept
        hints[snake_key(other)] = chunk[other]
    body = chunk[key]
    if type(body) is not dict:
        what = "a grounding source object"
        raise FormatError.mismatch(f"{where}.{key}", what, describe_type(body))
    layout = _CHUNK_FIELDS.get(kind, _ANY_CHUNK)
    for name, value in body.items():
        if value is None:  # a field sent as null: as if left out
            continue
        snake = snake_key(name)
        field = layout.get(snake)
        if field is None:
            hints[snake] = value
            continue
        if type(value) is not str:
            if kind not in _CHUNK_FIELDS:  # a newer kind's field of another type: kept
                hints[snake] = value
                continue
            raise FormatError.mismatch(f"{where}.{key}.{name}", "str", describe_type(value))
        fields[field] = value
    return fields, hints


def _citation(fields: dict[str, Any], hints: dict[str, Any], where: str) -> Citation:
    """A `Citation` of checked fields and hints; a value the model refuses names ``where``."""
    try:
        return Citation(**fields, metadata={HINTS: hints})
    except SemanticChatError as error:  # a lone surrogate in a title, a number beyond 64 bits
        raise FormatError(error.detail, path=where) from None


def _object(value: Any, where: str, what: str) -> None:
    """Check that ``value`` is a dict.

    Raises:
        FormatError: it is not; the message names ``where``.
    """
    if type(value) is not dict:
        raise FormatError.mismatch(where, what, describe_type(value))


def _list(mapping: dict[str, Any], name: str, where: str) -> list[Any]:
    """``mapping[name]`` (in either spelling) as a list: empty when missing or ``null``.

    Raises:
        FormatError: it is something else; the message names it.
    """
    key = _key(mapping, name)
    value = mapping.get(key)
    if value is None:
        return []
    if type(value) is not list:
        raise FormatError.mismatch(f"{where}.{key}", "a list", describe_type(value))
    return value


def _key(mapping: dict[str, Any], name: str) -> str:
    """The key ``mapping`` spells ``name`` with: snake_case, else camelCase if it has that."""
    if name in mapping:
        return name
    head, *rest = name.split("_")
    camel = head + "".join(word.capitalize() for word in rest)
    return camel if camel in mapping else name

