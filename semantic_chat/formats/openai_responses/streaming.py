"""Reading OpenAI Responses streams as streaming chunks."""

from __future__ import annotations

import warnings
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
    ConversionWarning,
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
    fragment carrying the annotation as a `Citation`; a function or custom tool call starts
    with its ``output_item.added`` event (call id and name) and grows by its argument (input)
    deltas, keyed by ``output_index``. Each ``output_item.done`` event gives the whole item:
    an item no delta streamed (``web_search_call`` ...) is given as `from_response` reads it,
    and a streamed one is completed with what the deltas do not carry (the message item's id
    and status, reasoning ids, text they missed). ``response.completed`` (or ``incomplete``)
    gives id, model, usage and finish reason, and its ``output`` is authoritative: an item no
    ``output_item.done`` gave is given then. The accumulated chunks' ``to_message()`` is what
    `from_response` reads from the final response. Events that carry nothing for the message
    (``in_progress``, ``*.done`` of text ...) are skipped.

    Raises:
        ProviderError: an ``error`` or ``response.failed`` event (``rate_limit_exceeded:
            Rate limit reached``), located at the event.
        FormatError: an event is malformed.
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


class _Stream:
    """What one stream has said so far, by output index: to complete each item at its end."""

    def __init__(self) -> None:
        self.texts: dict[int, list[str]] = {}  # the text (arguments) deltas of each item
        self.citations: dict[int, int] = {}  # how many annotations each item's events gave
        self.finished: set[int] = set()  # the items an output_item.done gave whole
        self.named: set[int] = set()  # the calls whose output_item.added gave their name
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
        block = index if type(index) is int else None
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
        elif kind == "response.reasoning_summary_text.delta":
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
        streamed = self.texts.pop(index, None)
        if streamed is None:
            return expected  # nothing streamed: the item whole
        if len(expected) != 1:
            warnings.warn(ConversionWarning(
                f"{path}: the fields of its parts but the last are left out of the streamed "
                "message (from_response of the final response keeps them)"
            ), stacklevel=4)
        named = index in self.named
        cited = self.citations.get(index, 0)
        return [_completion(expected[-1], "".join(streamed), cited, index, named)]

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
