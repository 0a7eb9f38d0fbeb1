"""Reading OpenAI Responses streams as streaming chunks."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from ...contents import (
    FunctionCallContent,
    KernelContent,
    ReasoningContent,
    RefusalContent,
    TextContent,
)
from ...contents.metadata import peek_metadata
from ...errors import FormatError, describe_type
from ...labels import AuthorRole, FinishReason
from ...streaming import (
    StreamingChatMessageContent,
    StreamingFunctionCallContent,
    StreamingReasoningContent,
    StreamingRefusalContent,
    StreamingTextContent,
)
from ..documents import without_none
from ..wire import (
    as_plain,
    require,
)
from .citations import read_annotation
from .reading import provider_error, read_finish_reason, read_output_item, read_usage
from .shared import (
    OPAQUE_PROVIDER,
)

__all__ = [
    "from_stream",
]


def from_stream(events: Iterable[Any]) -> Iterator[StreamingChatMessageContent]:
    """Read Responses stream events (dicts or SDK objects) as streaming chunks.

    Text, refusal and reasoning-summary deltas become fragments carrying their
    ``output_index`` as their ``index`` (summary parts joined by a blank line, as
    `from_response` joins them), and an ``output_text.annotation.added`` event an empty text
    fragment carrying the annotation as a `Citation`. Each ``output_text`` or ``refusal``
    part of a message is its own item, as `from_response` reads it: a part after the first
    (``content_index`` n > 0) has the block index ``output_index + n * 2**32``, and its
    ``content_part.added`` event gives an empty fragment that holds its place. A function or
    custom tool call starts with its ``output_item.added`` event (call id and name) and grows
    by its argument (input) deltas, keyed by ``output_index``. Each ``output_item.done``
    event gives the whole item: an item no delta streamed (``web_search_call`` ...) is given
    as `from_response` reads it, and a streamed one is completed with what the deltas do not
    carry (the message item's id and status on its first part, reasoning ids, text they
    missed). ``response.completed`` (or ``incomplete``) gives id, model, usage and finish
    reason, and its ``output`` is authoritative: an item no ``output_item.done`` gave is
    given then. The accumulated chunks' ``to_message()`` is what
    `from_response` reads from the final response. Events that carry nothing for the message
    (``in_progress``, ``*.done`` of text ...) are skipped.

    Raises:
        ProviderError: an ``error`` or ``response.failed`` event (``rate_limit_exceeded:
            Rate limit reached``), located at the event.
        FormatError: an event is malformed (``events[3].content_index: expected an int from
            0 to 2**32 - 1, got str``).
    """
    stream = _Stream()
    for number, raw in enumerate(events):
        path = f"events[{number}]"
        event = as_plain(raw, path)
        if type(event) is not dict:
            raise FormatError.mismatch(path, "a stream event object", describe_type(event))
        for chunk in stream.read(event, event.get("type"), path):
            chunk.inner_content = raw
            yield chunk


_PART_STRIDE = 1 << 32
"""A message part's block index is ``output_index + content_index * _PART_STRIDE``: its first
part keeps the output index, later parts get numbers no (smaller) output index reaches."""


class _Stream:
    """What one stream has said so far, by block: to complete each item at its end.

    A block is an output index, or a message part's (`_part_block`).
    """

    def __init__(self) -> None:
        self.texts: dict[int, list[str]] = {}  # the text (arguments) deltas of each block
        self.citations: dict[int, int] = {}  # how many annotations each block's events gave
        self.finished: set[int] = set()  # the items an output_item.done gave whole
        self.named: set[int] = set()  # the calls whose output_item.added gave their name
        self.summarised: set[int] = set()  # reasoning whose summary streams: its content not
        self.saw_call = False

    def read(
        self, event: dict[str, Any], kind: Any, path: str
    ) -> list[StreamingChatMessageContent]:
        """The chunks one event gives (none for most)."""
        if kind == "error":
            raise provider_error(event, "the stream reported an error").with_path(path)
        if kind == "response.failed":
            response = require(event, "response", dict, path)
            error = provider_error(response.get("error"), "the response failed")
            raise error.with_path(f"{path}.response.error")
        if kind in ("response.created", "response.completed", "response.incomplete"):
            return self._response(event, kind, path)
        if kind in ("response.output_item.added", "response.output_item.done"):
            item = require(event, "item", dict, path)
            index = _output_index(event, path)
            if kind.endswith("added"):
                items = self._started(item, index)
            else:
                items = self._finished(item, index, f"{path}.item")
        else:
            items = self._delta(event, kind, path)
        return [StreamingChatMessageContent(AuthorRole.ASSISTANT, items=items)] if items else []

    def _delta(self, event: dict[str, Any], kind: Any, path: str) -> list[KernelContent]:
        delta = event.get("delta")
        index = event.get("output_index")
        block = _event_block(event, index, path) if type(index) is int else None
        if kind == "response.content_part.added":
            return self._part_added(event.get("part"), block)
        if kind == "response.output_text.annotation.added":
            annotation = event.get("annotation")
            if annotation is None:  # the SDK allows an event without one
                return []
            citation = read_annotation(annotation, f"{path}.annotation")
            self._count_citation(block)
            return [StreamingTextContent("", citations=(citation,), index=block)]
        if kind == "response.reasoning_summary_part.added" and event.get("summary_index"):
            delta, kind = "\n\n", "response.reasoning_summary_text.delta"
        if not isinstance(delta, str):
            return []
        fragment: KernelContent
        if kind == "response.output_text.delta":
            fragment = StreamingTextContent(delta, index=block)
        elif kind == "response.refusal.delta":
            fragment = StreamingRefusalContent(delta, index=block)
        elif kind == "response.reasoning_summary_text.delta" or (
            kind == "response.reasoning_text.delta" and block not in self.summarised
        ):  # a reasoning item's text: its summary's, else its content's (gpt-oss)
            if kind == "response.reasoning_summary_text.delta" and block is not None:
                self.summarised.add(block)
            fragment = StreamingReasoningContent(delta, provider=OPAQUE_PROVIDER, index=block)
        elif kind in (
            "response.function_call_arguments.delta", "response.custom_tool_call_input.delta"
        ):
            fragment = StreamingFunctionCallContent(id=None, name="", arguments=delta, index=index)
        else:
            return []
        if block is not None:
            self.texts.setdefault(block, []).append(delta)
        return [fragment]

    def _part_added(self, part: Any, block: int | None) -> list[KernelContent]:
        """An empty fragment that holds a text or refusal part's place among the items.

        A part no delta fills (an empty text) then still comes before the parts after it.
        """
        kind = part.get("type") if isinstance(part, dict) else None
        if block is None or kind not in ("output_text", "refusal"):
            return []
        self.texts.setdefault(block, [])  # streamed: completed at its item's end
        if kind == "refusal":
            return [StreamingRefusalContent("", index=block)]
        return [StreamingTextContent("", index=block)]

    def _count_citation(self, block: int | None) -> None:
        if block is not None:
            self.citations[block] = self.citations.get(block, 0) + 1

    def _started(self, item: dict[str, Any], index: int | None) -> list[KernelContent]:
        """A call's first fragment (call id and name), a reasoning item's (its opaque data)."""
        kind = item.get("type")
        if kind in ("function_call", "custom_tool_call", "reasoning") and index is not None:
            self.texts.setdefault(index, [])  # streamed: completed at its end
        if kind in ("function_call", "custom_tool_call"):
            self.saw_call = True
            if index is not None:
                self.named.add(index)
            return [StreamingFunctionCallContent(
                id=item.get("call_id"), name=item.get("name") or "", arguments="", index=index
            )]
        if kind == "reasoning":
            encrypted = item.get("encrypted_content")
            return [StreamingReasoningContent(
                "", encrypted=encrypted if isinstance(encrypted, str) else None,
                provider=OPAQUE_PROVIDER, index=index,
            )]
        return []

    def _finished(self, item: dict[str, Any], index: int | None, path: str) -> list[KernelContent]:
        """The whole item as `from_response` reads it, or what completes its streamed fragments."""
        expected = read_output_item(without_none(item), path)  # as from_response reads it
        self.saw_call = self.saw_call or any(
            isinstance(content, FunctionCallContent) for content in expected
        )
        if index is None:
            return expected
        self.finished.add(index)
        blocks = [_part_block(index, part) for part in range(len(expected))]
        streamed = [self.texts.pop(block, None) for block in blocks]
        if all(texts is None for texts in streamed):
            return expected  # nothing streamed: the item whole
        named = index in self.named
        return [  # one item per part of a message (else one item), as from_response reads it
            _completion(content, "".join(texts or ()), self.citations.get(block, 0), block, named)
            for content, texts, block in zip(expected, streamed, blocks, strict=True)
        ]

    def _response(
        self, event: dict[str, Any], kind: str, path: str
    ) -> list[StreamingChatMessageContent]:
        """The response's fields; at its end, the output items no ``output_item.done`` gave."""
        response = require(event, "response", dict, path)
        chunks = []
        output = response.get("output") if kind != "response.created" else None
        for index, item in enumerate(output if isinstance(output, list) else []):
            if index not in self.finished and type(item) is dict:
                items = self._finished(item, index, f"{path}.response.output[{index}]")
                chunks.append(StreamingChatMessageContent(AuthorRole.ASSISTANT, items=items))
        chunk = StreamingChatMessageContent(
            AuthorRole.ASSISTANT, id=response.get("id"), model_id=response.get("model")
        )
        if kind != "response.created":
            chunk.finish_reason = read_finish_reason(response, [])
            if self.saw_call and chunk.finish_reason == FinishReason.STOP:
                chunk.finish_reason = FinishReason.TOOL_CALLS
            usage = response.get("usage")
            if isinstance(usage, dict):
                chunk.usage = read_usage(usage)
        return [*chunks, chunk]


def _output_index(event: dict[str, Any], path: str) -> int | None:
    index = event.get("output_index")
    if index is not None and type(index) is not int:
        raise FormatError.mismatch(f"{path}.output_index", "int", describe_type(index))
    return index


def _part_block(index: int, part: int) -> int:
    """The block index of a message's part ``part`` (its ``content_index``) at ``index``."""
    return index + part * _PART_STRIDE


def _event_block(event: dict[str, Any], index: int, path: str) -> int:
    """The block an event with an ``output_index`` is about: its message part's, if any.

    Raises:
        FormatError: ``content_index`` is not an int from 0 to 2**32 - 1, or is above 0 with
            an ``output_index`` beyond that range (their block indexes would meet).
    """
    part = event.get("content_index")
    if part is None:
        return index
    if type(part) is not int or not 0 <= part < _PART_STRIDE:
        shown = describe_type(part) if type(part) is not int else str(part)
        raise FormatError.mismatch(f"{path}.content_index", "an int from 0 to 2**32 - 1", shown)
    if part and not 0 <= index < _PART_STRIDE:
        raise FormatError.mismatch(
            f"{path}.output_index", "an int from 0 to 2**32 - 1 in a part's event", str(index)
        )
    return _part_block(index, part)


def _completion(
    expected: KernelContent, streamed: str, cited: int, index: int, named: bool
) -> KernelContent:
    """The fragment that makes the streamed item ``expected``: its hints, missed text.

    Text the deltas missed (none, or a prefix of the item's) is added; citations beyond the
    ``cited`` ones the events gave too; a call's name unless its ``output_item.added`` gave
    it (``named``): a stream without those events has it only at the end.
    """
    metadata = dict(peek_metadata(expected)) or None
    if isinstance(expected, FunctionCallContent):
        arguments = expected.arguments if isinstance(expected.arguments, str) else ""
        missed = arguments[len(streamed):] if arguments.startswith(streamed) else ""
        return StreamingFunctionCallContent(
            id=expected.id, name="" if named else expected.name, arguments=missed, index=index,
            metadata=metadata,
        )
    text = getattr(expected, "text", "")
    missed = text[len(streamed):] if text.startswith(streamed) else ""
    if isinstance(expected, ReasoningContent):
        return StreamingReasoningContent(
            missed, encrypted=expected.encrypted, provider=expected.provider,
            index=index, metadata=metadata,
        )
    if isinstance(expected, RefusalContent):
        return StreamingRefusalContent(missed, index=index, metadata=metadata)
    if isinstance(expected, TextContent):
        citations = tuple(expected.citations[cited:])
        return StreamingTextContent(missed, citations=citations, index=index, metadata=metadata)
    return expected
