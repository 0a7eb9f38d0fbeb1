"""Reading Anthropic Messages streams (``messages.create(stream=True)`` events) as chunks.

A stream is ``message_start``, then for each content block ``content_block_start``, its
``content_block_delta`` events and ``content_block_stop``, then ``message_delta`` (the stop
reason and the usage so far) and ``message_stop``; ``ping`` events come anywhere. Text,
thinking and ``tool_use`` blocks stream as fragments that carry the block's ``index``, so that
`semantic_chat.StreamingChatMessageContent.accumulate` keeps each block its own item. Every
other block (``server_tool_use``, ``web_search_tool_result``, ``compaction`` ...) is gathered
until its stop (or the stream's end) and given whole, read as the reader reads it in a
response; its deltas fold into it where their fields are the block's own.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from ...contents import FunctionCallContent, KernelContent, ReasoningContent, TextContent
from ...contents.metadata import peek_metadata
from ...errors import FormatError, ProviderError, SemanticChatError, describe_type
from ...labels import AuthorRole
from ...streaming import (
    StreamingChatMessageContent,
    StreamingFunctionCallContent,
    StreamingReasoningContent,
    StreamingTextContent,
)
from ..wire import as_plain, lose, require
from .citations import read_citation
from .reading import from_response
from .shared import HINTS, PROVIDER, without_unset_nulls

__all__ = ["from_stream"]

_ASSISTANT = AuthorRole.ASSISTANT
_FRAGMENT_BLOCKS = frozenset(("text", "thinking", "redacted_thinking", "tool_use"))
# The delta types each streamed block takes; other deltas of these blocks are refused.
_DELTAS = {
    "text": frozenset(("text_delta", "citations_delta")),
    "thinking": frozenset(("thinking_delta", "signature_delta")),
    "redacted_thinking": frozenset(),
    "tool_use": frozenset(("input_json_delta",)),
}
_KNOWN_DELTAS = frozenset().union(*_DELTAS.values())


def from_stream(events: Iterable[Any]) -> Iterator[StreamingChatMessageContent]:
    """Read Anthropic stream events (dicts or SDK event objects) as streaming chunks.

    - ``message_start`` gives a chunk with the message's ``id``, ``model`` and usage so far;
    - ``text_delta``, ``citations_delta``, ``thinking_delta`` and ``signature_delta`` give
      text and reasoning fragments with the block's ``index``; a ``redacted_thinking`` block
      one reasoning fragment with its ``data`` as ``encrypted``;
    - a ``tool_use`` block gives a call fragment with its id and name, then one per
      ``input_json_delta`` (joined by index, so `StreamingFunctionCallContent.
      partial_arguments` works mid-stream), then at its ``content_block_stop`` (or the end
      of the stream) one with the pieces parsed: the ``input`` mapping `from_response` reads
      from the final message (``{}`` for no pieces); pieces that are not a JSON object (a
      stream cut by ``max_tokens``) stay the call's arguments as text;
    - any other block (server tools, newer types) is given whole at its
      ``content_block_stop`` (or the end of the stream), as `from_response` reads it (a
      plugin's decoder, else `UnknownContent`): its ``input_json_delta`` pieces parsed into
      ``input`` (pieces that are not a JSON object, a stream cut by ``max_tokens``, stay its
      ``input`` as text), and each other delta folded in as the SDK's ``accumulate_event``
      folds its own, where the delta's fields are the block's (``compaction_delta``: a
      ``null`` field set, a text one joined); a delta that is not warns
      (`ConversionWarning`) and is left out;
    - ``message_delta`` gives the finish reason and the whole usage: its counts are
      cumulative and replace those of ``message_start``, which it may leave out;
    - ``ping``, ``message_stop`` and event types newer than this code give nothing, and so do
      delta types newer than it;
    - an ``error`` event raises `ProviderError`.

    The accumulated chunks' ``to_message()`` writes (``to_payload``) as `from_response` of the
    final message does, with the same id, model, finish reason, usage and hints.

    Raises:
        ProviderError: the stream reported an error (``overloaded_error: Overloaded``).
        FormatError: an event is malformed; the message names it (``events[3].delta.text``).
    """
    stream = _Stream()
    for number, raw in enumerate(events):
        path = f"events[{number}]"
        event = as_plain(raw, path)
        if type(event) is not dict:
            raise FormatError.mismatch(path, "a stream event object", describe_type(event))
        kind = require(event, "type", str, path)
        chunk = stream.read(event, kind, path)
        if chunk is not None:
            chunk.inner_content = raw
            yield chunk
    yield from stream.finish()


class _Block:
    """A content block between its start and stop."""

    __slots__ = ("block", "cited", "held", "hints", "kind", "parts", "path")

    def __init__(self, kind: str, block: dict[str, Any], path: str) -> None:
        self.kind = kind
        self.block = block
        self.path = path
        self.parts: list[str] = []  # input_json_delta pieces of a tool_use or gathered block
        self.cited = False  # a citations_delta came
        self.held: dict[str, Any] = {}  # the start's "citations": [] or null, until its stop
        self.hints: dict[str, Any] = {}


class _Stream:
    """What one stream has said so far: the message's fields and its open blocks."""

    def __init__(self) -> None:
        self.message: dict[str, Any] = {}
        self.blocks: dict[int, _Block] = {}
        # Every block as it started (a gathered one as it ended), by index: what the message
        # holds, in shape, so that its own hints (a list of one text block) are read alike.
        self.content: dict[int, dict[str, Any]] = {}

    def read(
        self, event: dict[str, Any], kind: str, path: str
    ) -> StreamingChatMessageContent | None:
        """The chunk one event gives, or ``None``."""
        if kind == "content_block_delta":
            return self._delta(event, path)
        if kind == "content_block_start":
            return self._start(event, path)
        if kind == "content_block_stop":
            return self._stop(event, path)
        if kind == "message_start":
            message = require(event, "message", dict, path)
            self.message = {key: value for key, value in message.items() if key != "content"}
            content = message.get("content") or []
            if type(content) is list:  # blocks given whole (none, from the API) come first
                first = -len(content)
                self.content = {first + number: block for number, block in enumerate(content)}
            return _envelope({**self.message, "content": content}, f"{path}.message", items=True)
        if kind == "message_delta":
            return self._message_delta(event, path)
        if kind == "error":
            raise _provider_error(event)
        return None  # ping, message_stop, and events newer than this code

    def _start(self, event: dict[str, Any], path: str) -> StreamingChatMessageContent | None:
        index = _index(event, path)
        where = f"{path}.content_block"
        block = require(event, "content_block", dict, path)
        kind = require(block, "type", str, where)
        if index in self.blocks:
            raise FormatError(f"content block {index} was already started", path=f"{path}.index")
        state = self.blocks[index] = _Block(kind, block, where)
        if kind not in _FRAGMENT_BLOCKS:
            return None  # given whole at its stop, its nulls filled in by its deltas
        block = without_unset_nulls(block)  # what model_dump() adds
        self.content[index] = block
        if kind == "text" and "citations" in block and block["citations"] in (None, []):
            state.held = {"citations": block["citations"]}  # written back if none comes
            block = {key: value for key, value in block.items() if key != "citations"}
        item = _read_block(block, where)
        state.hints = dict(peek_metadata(item).get(HINTS) or {})
        metadata = {HINTS: state.hints} if state.hints else None
        fragment: KernelContent
        if isinstance(item, TextContent):
            fragment = StreamingTextContent(
                item.text, citations=item.citations, index=index, metadata=metadata
            )
        elif isinstance(item, ReasoningContent):
            fragment = StreamingReasoningContent(
                item.text, signature=item.signature, encrypted=item.encrypted,
                provider=item.provider, index=index, metadata=metadata,
            )
        else:
            assert isinstance(item, FunctionCallContent)  # a tool_use block
            arguments = item.arguments  # the start's input: {} but for odd streams
            if isinstance(arguments, str):
                text = arguments
            else:
                text = json.dumps(dict(arguments), ensure_ascii=False) if arguments else ""
            state.parts.append(text)
            fragment = StreamingFunctionCallContent(
                id=item.id, name=item.name, arguments=text, index=index, metadata=metadata
            )
        return StreamingChatMessageContent(_ASSISTANT, items=[fragment])

    def _delta(self, event: dict[str, Any], path: str) -> StreamingChatMessageContent | None:
        index, state = self._open(event, path)
        where = f"{path}.delta"
        delta = require(event, "delta", dict, path)
        kind = require(delta, "type", str, where)
        if state.kind not in _FRAGMENT_BLOCKS:
            if kind == "input_json_delta":
                state.parts.append(require(delta, "partial_json", str, where))
            else:
                _fold(state, delta, kind, where)
            return None
        if kind not in _DELTAS[state.kind]:
            if kind in _KNOWN_DELTAS:
                raise FormatError(
                    f"a {kind} in a {state.kind} block", path=f"{where}.type"
                )
            return None  # a delta type newer than this code
        fragment: KernelContent
        if kind == "text_delta":
            fragment = StreamingTextContent(require(delta, "text", str, where), index=index)
        elif kind == "citations_delta":
            citation = require(delta, "citation", dict, where)
            state.cited = True
            fragment = StreamingTextContent(
                "", citations=(read_citation(citation, f"{where}.citation"),), index=index
            )
        elif kind == "thinking_delta":
            thinking = require(delta, "thinking", str, where)
            fragment = StreamingReasoningContent(thinking, provider=PROVIDER, index=index)
        elif kind == "signature_delta":
            signature = require(delta, "signature", str, where)
            fragment = StreamingReasoningContent(
                "", signature=signature, provider=PROVIDER, index=index
            )
        else:  # input_json_delta of a tool_use block
            partial = require(delta, "partial_json", str, where)
            if not partial:
                return None
            state.parts.append(partial)
            fragment = StreamingFunctionCallContent(
                id=None, name="", arguments=partial, index=index
            )
        return StreamingChatMessageContent(_ASSISTANT, items=[fragment])

    def _stop(self, event: dict[str, Any], path: str) -> StreamingChatMessageContent | None:
        index, state = self._open(event, path)
        del self.blocks[index]
        return self._close(index, state)

    def finish(self) -> list[StreamingChatMessageContent]:
        """At the end of the stream, the chunks of the blocks that did not stop, as they stand."""
        chunks = [self._close(index, state) for index, state in sorted(self.blocks.items())]
        self.blocks.clear()
        return [chunk for chunk in chunks if chunk is not None]

    def _close(self, index: int, state: _Block) -> StreamingChatMessageContent | None:
        """The chunk a block gives when it ends: a call's parsed input, a gathered block."""
        if state.kind == "tool_use":
            return _whole_call(index, state.parts)
        if state.kind in _FRAGMENT_BLOCKS:
            if not state.held or state.cited:
                return None
            # No citation came: the block is written back with its [] or null, as it started.
            fields = {**state.hints.get("fields", {}), **state.held}
            hints = {**state.hints, "fields": fields}
            fragment = StreamingTextContent("", index=index, metadata={HINTS: hints})
            return StreamingChatMessageContent(_ASSISTANT, items=[fragment])
        block = without_unset_nulls(state.block)  # what model_dump() adds, and none came
        if "".join(state.parts).strip():
            block = {**block, "input": _gathered_input(state.parts)}
        item = _read_block(block, state.path)
        self.content[index] = block
        return StreamingChatMessageContent(_ASSISTANT, items=[item])

    def _message_delta(self, event: dict[str, Any], path: str) -> StreamingChatMessageContent:
        delta = require(event, "delta", dict, path)
        usage = event.get("usage")
        if usage is not None and type(usage) is not dict:
            raise FormatError.mismatch(f"{path}.usage", "a usage object", describe_type(usage))
        self.message.update(delta)
        if usage:
            # Cumulative counts: each replaces the one before; a count left out (or null)
            # keeps the value message_start gave.
            before = self.message.get("usage")
            merged = dict(before) if type(before) is dict else {}
            merged.update({key: value for key, value in usage.items() if value is not None})
            self.message["usage"] = merged
        content = [self.content[index] for index in sorted(self.content)]
        try:
            return _envelope({**self.message, "content": content}, "message", items=False)
        except SemanticChatError as error:  # message_start's fields were read before
            where = error.path.removeprefix("message")
            if where.startswith(".usage"):
                raise error.with_path(path + where) from None
            raise error.with_path(f"{path}.delta{where}") from None

    def _open(self, event: dict[str, Any], path: str) -> tuple[int, _Block]:
        """The block a delta or stop event names, and its index.

        Raises:
            FormatError: no block of that index is open.
        """
        index = _index(event, path)
        state = self.blocks.get(index)
        if state is None:
            raise FormatError(f"no content block {index} was started", path=f"{path}.index")
        return index, state


def _index(event: dict[str, Any], path: str) -> int:
    index = require(event, "index", int, path)
    assert isinstance(index, int)  # require refuses a bool where an int is asked
    return index


def _whole_call(index: int, parts: list[str]) -> StreamingChatMessageContent | None:
    """The chunk giving a finished ``tool_use`` block's input as `from_response` reads it.

    Its text is parsed (blank: ``{}``, the final message's input of a call without one);
    ``None`` when it is not a JSON object or holds what a mapping cannot (a stream cut by
    ``max_tokens``): the call keeps its text, losing nothing.
    """
    text = "".join(parts)
    try:
        arguments = json.loads(text) if text.strip() else {}
        if type(arguments) is not dict:
            return None
        fragment = StreamingFunctionCallContent(
            id=None, name="", arguments=arguments, index=index
        )
    except (ValueError, RecursionError, SemanticChatError):
        return None
    return StreamingChatMessageContent(_ASSISTANT, items=[fragment])


def _gathered_input(parts: list[str]) -> Any:
    """A gathered block's ``input`` from its pieces: the JSON object, else the text as it is.

    Pieces that are not a JSON object (a ``server_tool_use`` cut by ``max_tokens``) stay
    text, as a ``tool_use`` block's arguments do, losing nothing.
    """
    text = "".join(parts)
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return text
    return value if type(value) is dict else text


def _fold(state: _Block, delta: dict[str, Any], kind: str, where: str) -> None:
    """Fold a delta into a gathered block, as the SDK's ``accumulate_event`` folds its own.

    Well defined when each of the delta's fields is one of the block's and is ``null`` there
    (set, as ``compaction_delta`` does) or both are text (joined, as ``text_delta`` does);
    any other delta is left out with a `ConversionWarning` naming it.
    """
    fields = {key: value for key, value in delta.items() if key != "type"}
    block = state.block
    if fields and all(_foldable(block, key, value) for key, value in fields.items()):
        folded = {
            key: value if block[key] is None else block[key] + value
            for key, value in fields.items()
        }
        state.block = {**block, **folded}
        return
    lose(
        None,
        where,
        f"a {kind} whose fields are not those of its {state.kind} block "
        f"({', '.join(sorted(fields)) or 'none'}): the reader cannot fold it in",
        "warn",
    )


def _foldable(block: dict[str, Any], key: str, value: Any) -> bool:
    """Whether a delta's field folds into the block's: set where null, joined where text."""
    if key not in block:
        return False
    before = block[key]
    return before is None or (type(before) is str and type(value) is str)


def _read_block(block: dict[str, Any], path: str) -> KernelContent:
    """One block, read as `from_response` reads it in a message; errors located at ``path``.

    Raises:
        FormatError: the block is malformed.
    """
    try:
        items = from_response({"content": [block]}).items
    except SemanticChatError as error:
        raise error.with_path(path + error.path.removeprefix("message.content[0]")) from None
    return items[0]


def _envelope(
    message: dict[str, Any], path: str, *, items: bool
) -> StreamingChatMessageContent:
    """A chunk of the message's own fields (id, model, finish reason, usage, hints).

    Read by `from_response` from what the stream has said of the message so far, so that the
    last such chunk carries what the final message's response would; with ``items``, also
    the items of the blocks given whole in ``message_start`` (none, from the API).

    Raises:
        FormatError: a field is malformed, located under ``path``.
    """
    try:
        reply = from_response(message)
    except SemanticChatError as error:
        raise error.with_path(path + error.path.removeprefix("message")) from None
    return StreamingChatMessageContent(
        _ASSISTANT,
        items=list(reply.items) if items else None,
        id=reply.id,
        model_id=reply.model_id,
        finish_reason=reply.finish_reason,
        usage=reply.usage,
        metadata=dict(peek_metadata(reply)) or None,
    )


def _provider_error(event: dict[str, Any]) -> ProviderError:
    """The error an ``error`` event reports: ``"<type>: <message>"``."""
    error = event.get("error")
    kind = error.get("type") if isinstance(error, dict) else None
    message = error.get("message") if isinstance(error, dict) else None
    kind = kind if isinstance(kind, str) else None
    detail = message if isinstance(message, str) else "the stream reported an error"
    return ProviderError(f"{kind or 'error'}: {detail}", error_type=kind)
