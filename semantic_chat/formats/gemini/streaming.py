"""Reading Gemini streams (``generate_content_stream``, ``streamGenerateContent``) as chunks.

Each chunk of a Gemini stream is a whole ``GenerateContentResponse`` whose candidates hold
the parts that arrived since the chunk before: text and thought text in pieces, a function
call whole, other parts whole. The response's fields come with the chunks that have them:
``usage_metadata`` on many (its counts are cumulative: the last one is the answer's),
``finish_reason`` on the last chunk of a candidate, ``grounding_metadata`` near the end.

Consecutive text parts (and consecutive thought parts) are pieces of one part of the answer
given whole. A thought's ``thought_signature`` comes with its last piece and ends it; a text's
may come with any piece (the first, or an empty last one), so a signed text goes on until a
second signature. An empty text piece with nothing else (the API ends streams with one, after
a function call too) is no part of the answer. Each part is one block; fragments carry
their block's ``index``, so that `semantic_chat.StreamingChatMessageContent.accumulate`
builds one item per part of the answer, as `from_response` reads it given whole.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from ...contents import (
    Citation,
    FunctionCallContent,
    KernelContent,
    ReasoningContent,
    TextContent,
)
from ...contents.metadata import peek_metadata
from ...errors import FormatError, SemanticChatError, describe_type
from ...labels import AuthorRole, FinishReason
from ...message import ChatMessageContent
from ...streaming import (
    StreamingChatMessageContent,
    StreamingFunctionCallContent,
    StreamingReasoningContent,
    StreamingTextContent,
)
from .reading import from_response, provider_error
from .shared import HINTS, is_made_id, made_call_id, plain, sdk_plain, snake_key

__all__ = ["from_stream"]

_ASSISTANT = AuthorRole.ASSISTANT
_CITING = ("grounding_metadata", "citation_metadata")
# The items read from text parts, by the kind of block their pieces make (a plugin's
# subclass of them is given whole).
_PIECES: dict[type, str] = {TextContent: "text", ReasoningContent: "thought"}
# The keys of a part that says nothing in a stream: an empty text or thought piece.
_EMPTY_KEYS = frozenset(("text", "thought"))


def from_stream(chunks: Iterable[Any]) -> Iterator[StreamingChatMessageContent]:
    """Read the chunks of a Gemini stream (dicts in either spelling, or SDK objects).

    Each candidate of each chunk gives one `StreamingChatMessageContent` whose
    ``choice_index`` is the candidate's ``index`` (its place when it has none):

    - text parts give `StreamingTextContent` fragments, thought parts
      `StreamingReasoningContent` fragments (the signature with the piece it came with,
      a ``thought_signature`` on a text part in the fragment's hints), each with the index
      of the part of the answer it belongs to; an empty text part with nothing beside gives
      none;
    - a ``function_call`` (the API sends each whole, in one chunk) gives one
      `StreamingFunctionCallContent` whose ``arguments`` are its whole ``args``, the mapping
      `from_response` reads (``{}`` for a call without them); a call without an
      ``id`` gets the id `from_response` would make for it in the whole answer
      (``gemini-call-0-<k>``, ``k`` counting the calls of the candidate so far);
    - any other part (an empty part with a signature, ``executable_code``, an image) is
      given whole, read as `from_response` reads it;
    - the chunk carries the answer's ``id``, model, finish reason, usage and hints as the
      stream has said them so far (each chunk's ``usage_metadata`` replaces the one before);
    - citations from ``grounding_metadata`` and ``citation_metadata`` (offsets into the
      answer's text so far) are given as empty text fragments carrying them, each with the
      index of the text part they cite, whichever chunk brings them (one whose only part is
      a function call, or one without parts, too): accumulated, each joins its part's item.

    A chunk without candidates (a prompt blocked, the usage alone) gives the answer's fields
    for each candidate seen so far, or for candidate 0. The accumulated chunks' ``to_message()``
    writes (``to_payload``) as `from_response` of the answer given whole does, with the same
    id, model, finish reason, usage and hints.

    A chunk that is an API error object (``{"error": {"code": 503, "message": ...,
    "status": "UNAVAILABLE"}}``, what the REST stream sends when it fails mid-way) raises
    `ProviderError`, as `from_response` of an error body does.

    Raises:
        ProviderError: a chunk is an API error (``UNAVAILABLE: The model is overloaded``),
            located at it (``chunks[1].error``).
        FormatError: a chunk is malformed; the message names it
            (``chunks[3].candidates[0].content.parts[1].function_call.name``).
    """
    stream = _Stream()
    for number, raw in enumerate(chunks):
        path = f"chunks[{number}]"
        data = plain(raw, path)
        if type(data) is not dict:
            raise FormatError.mismatch(path, "a GenerateContentResponse", describe_type(data))
        for chunk in stream.read(data, path):
            chunk.inner_content = raw
            yield chunk


class _Block:
    """One part of the answer, as its pieces arrive: what it is, and what it has so far."""

    __slots__ = ("citations", "fields", "hints", "index", "kind", "part", "pieces", "signed")

    def __init__(self, kind: str, index: int, part: dict[str, Any]) -> None:
        self.kind = kind  # "text", "thought", or "whole" (a part given whole)
        self.index = index
        self.part = part  # a whole part; the keys beside "text" of a text or thought part
        self.pieces: list[str] = []
        self.hints: dict[str, Any] = {}  # the union of its fragments' hints
        self.signed = False  # a thought signature came: the part is complete
        self.citations: list[Citation] = []  # given so far

    def whole(self) -> dict[str, Any]:
        """The part as the answer given whole holds it."""
        if self.kind == "whole":
            return self.part
        return {**self.part, "text": "".join(self.pieces)}


class _Candidate:
    """What the stream has said of one candidate."""

    __slots__ = ("blocks", "calls", "content", "fields")

    def __init__(self) -> None:
        self.blocks: list[_Block] = []
        self.calls = 0
        self.fields: dict[str, Any] = {}  # the candidate's keys but content, the last value
        self.content: dict[str, Any] | None = None  # the content's keys but parts


class _Stream:
    """What one stream has said so far: the response's fields and each candidate's."""

    def __init__(self) -> None:
        self.response: dict[str, Any] = {}  # the response's keys but candidates
        self.candidates: dict[int, _Candidate] = {}

    def read(self, data: dict[str, Any], path: str) -> list[StreamingChatMessageContent]:
        """The chunks one response chunk gives: one per candidate it has.

        Raises:
            ProviderError: the chunk is an API error object, located at its ``error``.
            FormatError: the chunk is malformed.
        """
        if data.get("error") is not None:  # the REST stream's error mid-way: no answer
            raise provider_error(data["error"]).with_path(f"{path}.error")
        changed = False
        given: Any = None
        for key, value in data.items():
            name = snake_key(key) if type(key) is str else key
            if name == "candidates":
                given = value
            elif value is not None and self.response.get(name) != value:
                self.response[name] = value
                changed = True
        candidates = [] if given is None else given
        if type(candidates) is not list:
            raise FormatError.mismatch(f"{path}.candidates", "a list", describe_type(candidates))
        out: list[StreamingChatMessageContent] = []
        seen: set[int] = set()
        for position, raw in enumerate(candidates):
            where = f"{path}.candidates[{position}]"
            candidate = sdk_plain(raw, where)
            if type(candidate) is not dict:
                raise FormatError.mismatch(where, "a Candidate object", describe_type(candidate))
            index = _index(candidate, position, where)
            seen.add(index)
            out.append(self._candidate(candidate, index, where, path))
        if changed or not candidates:
            for index in sorted(self.candidates) or [0]:
                if index not in seen:
                    state = self.candidates.setdefault(index, _Candidate())
                    out.append(self._envelope(state, index, [], path, path))
        return out

    def _candidate(
        self, candidate: dict[str, Any], index: int, where: str, path: str
    ) -> StreamingChatMessageContent:
        state = self.candidates.setdefault(index, _Candidate())
        content: Any = None
        for key, value in candidate.items():
            name = snake_key(key) if type(key) is str else key
            if name == "content":
                content = value
            elif value is not None:
                state.fields[name] = value
        items: list[KernelContent] = []
        if content is not None:
            content = sdk_plain(content, f"{where}.content")
            if type(content) is not dict:
                raise FormatError.mismatch(
                    f"{where}.content", "a Content object", describe_type(content)
                )
            parts: Any = None
            kept = state.content if state.content is not None else {}
            for key, value in content.items():
                name = snake_key(key) if type(key) is str else key
                if name == "parts":
                    parts = value
                elif value is not None:
                    kept[name] = value
            state.content = kept
            if parts:
                items = self._parts(state, kept, parts, where)
        return self._envelope(state, index, items, where, path)

    def _parts(
        self, state: _Candidate, content: dict[str, Any], parts: Any, where: str
    ) -> list[KernelContent]:
        """The fragments of a candidate's new parts, each joined to its block or starting one.

        Raises:
            FormatError: a part is malformed, located in the chunk.
        """
        try:
            reply = from_response({"candidates": [{"content": {**content, "parts": parts}}]})
        except SemanticChatError as error:
            raise _relocated(error, where, "") from None
        fragments: list[KernelContent] = []
        calls = state.calls
        for number, item in enumerate(reply.items):
            part = sdk_plain(parts[number], f"{where}.content.parts[{number}]")
            snake = {snake_key(key): value for key, value in part.items()}
            if not _says_nothing(snake):
                fragments.append(self._fragment(state, item, snake))
        state.calls += sum(type(item) is FunctionCallContent for item in reply.items)
        for fragment in fragments:  # ids made up per chunk: numbered over the whole answer
            if isinstance(fragment, StreamingFunctionCallContent) and fragment.id is not None:
                if is_made_id(fragment.id):
                    fragment.id = made_call_id(0, calls)
                calls += 1
        return fragments

    def _fragment(
        self, state: _Candidate, item: KernelContent, part: dict[str, Any]
    ) -> KernelContent:
        """One item read from a part as a fragment of its block (a new block, or the last)."""
        hints = peek_metadata(item).get(HINTS)
        hints = hints if isinstance(hints, dict) else {}
        kind = _PIECES.get(type(item)) if "text" in part else None
        if isinstance(item, (TextContent, ReasoningContent)) and kind is not None:
            signed = "thought_signature" in part
            last = state.blocks[-1] if state.blocks else None
            if last is None or last.kind != kind or _ended(last, signed):
                last = _Block(kind, len(state.blocks), {})
                state.blocks.append(last)
            last.part.update((key, value) for key, value in part.items() if key != "text")
            last.pieces.append(item.text)
            last.signed = last.signed or signed
            last.hints = _union(last.hints, hints)
            metadata = {HINTS: last.hints} if last.hints else None
            if isinstance(item, ReasoningContent):
                return StreamingReasoningContent(
                    item.text, signature=item.signature, encrypted=item.encrypted,
                    provider=item.provider, index=last.index, metadata=metadata,
                )
            assert isinstance(item, TextContent)
            return StreamingTextContent(item.text, index=last.index, metadata=metadata)
        block = _Block("whole", len(state.blocks), part)
        state.blocks.append(block)
        metadata = dict(peek_metadata(item)) or None
        if type(item) is ReasoningContent:  # a part without data, its own item
            return StreamingReasoningContent(
                item.text, signature=item.signature, encrypted=item.encrypted,
                provider=item.provider, index=block.index, metadata=metadata,
            )
        if type(item) is FunctionCallContent:  # whole: its mapping, as the answer's call has
            return StreamingFunctionCallContent(
                id=item.id, name=item.name, arguments=item.arguments, metadata=metadata
            )
        return item

    def _envelope(
        self,
        state: _Candidate,
        index: int,
        items: list[KernelContent],
        where: str,
        path: str,
    ) -> StreamingChatMessageContent:
        """A chunk of a candidate's new fragments and its message's fields so far.

        The fields are read by `from_response` from what the stream has said of the response
        and the candidate; with citations to read, from the answer's parts so far too, and
        the new citations of each text part join the fragments.

        Raises:
            FormatError: a field is malformed, located in the chunk (``where``; ``path`` for
                the response's fields).
        """
        candidate = dict(state.fields)
        citing = any(key in candidate for key in _CITING)
        if state.content is not None:
            parts = [block.whole() for block in state.blocks] if citing else []
            candidate["content"] = {**state.content, "parts": parts}
        try:
            reply = from_response({**self.response, "candidates": [candidate]})
        except SemanticChatError as error:
            raise _relocated(error, where, path) from None
        if citing:
            items = [*items, *_new_citations(state.blocks, reply)]
        finish = reply.finish_reason
        if finish == FinishReason.STOP and state.calls:
            finish = FinishReason.TOOL_CALLS
        return StreamingChatMessageContent(
            _ASSISTANT,
            items=items,
            choice_index=index,
            id=reply.id,
            model_id=reply.model_id,
            finish_reason=finish,
            usage=reply.usage,
            metadata=dict(peek_metadata(reply)) or None,
        )


def _says_nothing(part: dict[str, Any]) -> bool:
    """Whether a part is an empty text (or thought) piece and nothing else.

    The API closes a stream with one (``{"text": ""}`` beside the finish reason, after a
    function call too); the answer given whole has no such part, so it gives no fragment.
    """
    return part.get("text") == "" and part.keys() <= _EMPTY_KEYS


def _ended(block: _Block, signed: bool) -> bool:
    """Whether a piece of the block's kind starts a new part rather than continuing ``block``.

    A thought's signature comes with its last piece: it ends the thought. A text's may come
    with any of its pieces (the first, or an empty last one): a signed text goes on until a
    second signature, which can only be another part's.
    """
    if block.kind == "thought":
        return block.signed
    return block.signed and signed


def _new_citations(blocks: list[_Block], reply: ChatMessageContent) -> list[KernelContent]:
    """An empty fragment per text part with the citations it did not have yet.

    Every text part, not only the last: grounding may come on a chunk after the text (with a
    function call, or alone), and the fragment's block index joins it to its part's item.
    """
    fragments: list[KernelContent] = []
    for block in blocks:
        if block.kind != "text" or block.index >= len(reply.items):
            continue
        item = reply.items[block.index]
        if not isinstance(item, TextContent) or not item.citations:
            continue
        known = len(block.citations)
        if item.citations[:known] == tuple(block.citations):  # the usual case: more came
            new = list(item.citations[known:])
        else:  # the metadata changed: what the part does not have yet
            new = [citation for citation in item.citations if citation not in block.citations]
        if new:
            block.citations.extend(new)
            fragments.append(StreamingTextContent("", citations=tuple(new), index=block.index))
    return fragments


def _index(candidate: dict[str, Any], position: int, where: str) -> int:
    """A candidate's ``index``, or its place in the chunk when it has none.

    Raises:
        FormatError: the index is not a whole number.
    """
    index = candidate.get("index", position)
    if index is None:
        return position
    if type(index) is not int or index < 0:
        raise FormatError.mismatch(f"{where}.index", "a whole number", describe_type(index))
    return index


def _union(before: dict[str, Any], new: Mapping[str, Any]) -> dict[str, Any]:
    """The hints of a part so far, with a new fragment's (its ``fields`` merged too)."""
    if not new:
        return before
    merged = {**before, **new}
    if isinstance(before.get("fields"), dict) and isinstance(new.get("fields"), dict):
        merged["fields"] = {**before["fields"], **new["fields"]}
    return merged


def _relocated(error: SemanticChatError, where: str, path: str) -> SemanticChatError:
    """An error `from_response` located in a one-candidate response, moved into the chunk."""
    found = error.path
    if found.startswith("response.candidates[0]"):
        return error.with_path(where + found.removeprefix("response.candidates[0]"))
    if found == "response.candidates":
        return error.with_path(where)
    if found.startswith("response") and path:
        rest = found.removeprefix("response")
        return error.with_path(path + rest)
    return error.with_path(where + found.removeprefix("response"))
