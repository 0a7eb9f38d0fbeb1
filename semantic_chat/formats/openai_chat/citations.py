"""OpenAI Chat Completions ``message.annotations`` read as `Citation` values and written back.

A ``ChatCompletion`` message has one string of content and, with web search, ``annotations``
of one type: ``{"type": "url_citation", "url_citation": {"start_index", "end_index", "title",
"url"}}``, whose offsets index that string. They become the citations of the message's text
item (``text_start``, ``text_end``, ``title``, ``url``); keys beside them are kept in
``metadata["openai_chat"]`` (``fields`` outside the ``url_citation`` body, ``body_fields``
inside it). A list holding any other type is not read as citations: it stays in the message's
hints, written back as it was.

A message whose content is a list of text parts has one text too, its parts joined: each
text's spans are written shifted by the length of the texts before it, and read back split
among the texts. A list in which one spans two texts, or lies outside them, is not read as
citations either.

The request types have no ``annotations``: the writer puts them back only on a message read
with them (the hint ``"annotations"``); anywhere else citations are a field loss.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable
from typing import Any

import attrs

from ...contents import Citation
from ...errors import SemanticChatError
from ..wire import OnUnsupported, report_citation_losses, require, unsupported_field
from .shared import FORMAT, HINTS

__all__ = ["read_annotations", "split_annotations", "write_annotations"]

_KEYS = {"type", "url_citation"}
_BODY_KEYS = {"start_index", "end_index", "title", "url"}
_CARRIED = frozenset(("url", "title", "text_start", "text_end"))


def read_annotations(annotations: list[Any], path: str) -> list[Citation] | None:
    """Read a message's ``annotations`` as citations; ``None`` when one is not a url citation.

    Raises:
        FormatError: a ``url_citation`` without one of its keys or with a key of the wrong
            type, named (``completion.choices[0].message.annotations[1].url_citation.url``).
    """
    if not all(type(data) is dict and data.get("type") == "url_citation" for data in annotations):
        return None
    return [_read(data, f"{path}[{index}]") for index, data in enumerate(annotations)]


def _read(data: dict[str, Any], path: str) -> Citation:
    body = require(data, "url_citation", dict, path)
    where = f"{path}.url_citation"
    start = require(body, "start_index", int, where)
    end = require(body, "end_index", int, where)
    title = require(body, "title", str, where)
    url = require(body, "url", str, where)
    hints: dict[str, Any] = {}
    fields = {key: value for key, value in data.items() if key not in _KEYS}
    if fields:
        hints["fields"] = fields
    body_fields = {key: value for key, value in body.items() if key not in _BODY_KEYS}
    if body_fields:
        hints["body_fields"] = body_fields
    try:
        return Citation(
            url=url, title=title, text_start=start, text_end=end,
            metadata={HINTS: hints} if hints else {},
        )
    except SemanticChatError as error:  # a lone surrogate, a number beyond 64 bits
        raise error.at(where) from None


def split_annotations(
    citations: list[Citation], lengths: list[int]
) -> list[list[Citation]] | None:
    """Share citations spanning texts joined out among those texts, each span made its own.

    ``lengths`` are the texts' lengths, in order. A citation goes to the text holding its
    first character (an empty span at a boundary: the text after it). ``None`` when one spans
    two texts or lies outside them: the caller keeps the annotations whole rather than bend it.
    """
    starts = []
    total = 0
    for length in lengths:
        starts.append(total)
        total += length
    shared: list[list[Citation]] = [[] for _ in lengths]
    for citation in citations:
        start, end = citation.text_start, citation.text_end
        if start is None or end is None or not 0 <= start <= end <= total or not lengths:
            return None
        index = bisect_right(starts, start) - 1
        base = starts[index]
        if end > base + lengths[index]:
            return None  # it spans two texts
        shared[index].append(attrs.evolve(citation, text_start=start - base, text_end=end - base))
    return shared


def write_annotations(
    citations: Iterable[Citation],
    text: str,
    path: str,
    on_unsupported: OnUnsupported | None,
    offset: int = 0,
    *,
    bounded: bool = False,
) -> list[dict[str, Any]]:
    """Write a text's citations as ``url_citation`` annotations, reporting what they lose.

    Spans are shifted by ``offset``, the length of the texts before this one in its message
    (annotations index the message's texts joined). A citation without a span covers the
    whole text, one without a title gets ``""`` (the API's type requires one); one without a
    url has no Chat Completions shape and is left out, reported at ``path.citations[k]``, and
    so, when ``bounded`` (the message has several texts), is a span reaching outside its text:
    it would point at another text.

    Raises:
        UnsupportedContentError: something is left out and ``on_unsupported`` is ``"error"``.
    """
    written = []
    for index, citation in enumerate(citations):
        where = f"{path}.citations[{index}]"
        if citation.url is None:
            what = "a citation without a url (its annotations are url citations only)"
            unsupported_field(on_unsupported, FORMAT, where, what)
            continue
        start = 0 if citation.text_start is None else citation.text_start
        end = len(text) if citation.text_end is None else citation.text_end
        if bounded and not 0 <= start <= end <= len(text):
            what = (
                f"a span outside its text ({start} to {end} in {len(text)} characters: a "
                "message's annotations index its texts joined)"
            )
            unsupported_field(on_unsupported, FORMAT, f"{where}.text_start", what)
            continue
        report_citation_losses(citation, _CARRIED, "url_citation", where, FORMAT, on_unsupported)
        found = citation.metadata.get(HINTS)
        hints: dict[str, Any] = found if isinstance(found, dict) else {}
        body: dict[str, Any] = {
            "start_index": start + offset,
            "end_index": end + offset,
            "title": "" if citation.title is None else citation.title,
            "url": citation.url,
        }
        body.update(_mapping(hints.get("body_fields")))
        annotation: dict[str, Any] = {"type": "url_citation", "url_citation": body}
        annotation.update(_mapping(hints.get("fields")))
        written.append(annotation)
    return written


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}

