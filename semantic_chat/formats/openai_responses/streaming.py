"""Reading OpenAI Responses streams as streaming chunks."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from ...contents import (
    KernelContent,
)
from ...errors import FormatError, describe_type
from ...labels import AuthorRole, FinishReason
from ...streaming import (
    StreamingChatMessageContent,
    StreamingFunctionCallContent,
    StreamingReasoningContent,
    StreamingRefusalContent,
    StreamingTextContent,
)
from ..wire import (
    as_plain,
    require,
)
from .citations import read_annotation
from .reading import read_finish_reason, read_usage
from .shared import (
    HINTS,
    OPAQUE_PROVIDER,
)

__all__ = [
    "from_stream",
]


def from_stream(events: Iterable[Any]) -> Iterator[StreamingChatMessageContent]:
    """Read Responses stream events (dicts or SDK objects) as streaming chunks.

    Text, refusal and reasoning-summary deltas become fragments (text ones keep their
    ``output_index`` as their ``index``), and an ``output_text.annotation.added`` event an
    empty text fragment carrying the annotation as a `Citation`; a function call starts with
    its ``output_item.added`` event (call id and name) and grows by its argument deltas, keyed
    by ``output_index``; reasoning items keep their id and encrypted content; the final
    ``response.completed`` (or ``incomplete``) event gives id, model, usage and finish reason.
    Events that carry nothing for the message (``in_progress``, ``*.done`` of text ...) are
    skipped.

    Raises:
        FormatError: an event is malformed.
    """
    saw_call = False
    for number, raw in enumerate(events):
        path = f"events[{number}]"
        event = as_plain(raw, path)
        if type(event) is not dict:
            raise FormatError.mismatch(path, "a stream event object", describe_type(event))
        kind = event.get("type")
        chunk = _read_event(event, kind, path)
        if chunk is None:
            continue
        saw_call = saw_call or any(
            isinstance(item, StreamingFunctionCallContent) for item in chunk.items
        )
        finished = kind in ("response.completed", "response.incomplete")
        if finished and saw_call and chunk.finish_reason == FinishReason.STOP:
            chunk.finish_reason = FinishReason.TOOL_CALLS
        chunk.inner_content = raw
        yield chunk


def _read_event(event: dict[str, Any], kind: Any, path: str) -> StreamingChatMessageContent | None:
    delta = event.get("delta")
    index = event.get("output_index")
    items: list[KernelContent] = []
    if kind == "response.output_text.delta" and isinstance(delta, str):
        items.append(StreamingTextContent(delta, index=_block(index)))
    elif kind == "response.output_text.annotation.added":
        annotation = event.get("annotation")
        if annotation is None:  # the SDK allows an event without one
            return None
        citation = read_annotation(annotation, f"{path}.annotation")
        items.append(StreamingTextContent("", citations=(citation,), index=_block(index)))
    elif kind == "response.refusal.delta" and isinstance(delta, str):
        items.append(StreamingRefusalContent(delta))
    elif kind == "response.reasoning_summary_text.delta" and isinstance(delta, str):
        items.append(StreamingReasoningContent(delta, provider=OPAQUE_PROVIDER))
    elif kind == "response.function_call_arguments.delta" and isinstance(delta, str):
        items.append(StreamingFunctionCallContent(id=None, name="", arguments=delta, index=index))
    elif kind in ("response.output_item.added", "response.output_item.done"):
        item = require(event, "item", dict, path)
        fragment = _item_fragment(item, index, added=kind.endswith("added"))
        if fragment is None:
            return None
        items.append(fragment)
    elif kind in ("response.created", "response.completed", "response.incomplete"):
        response = require(event, "response", dict, path)
        chunk = StreamingChatMessageContent(
            AuthorRole.ASSISTANT, id=response.get("id"), model_id=response.get("model")
        )
        if kind != "response.created":
            chunk.finish_reason = read_finish_reason(response, [])
            usage = response.get("usage")
            if isinstance(usage, dict):
                chunk.usage = read_usage(usage)
        return chunk
    else:
        return None
    return StreamingChatMessageContent(AuthorRole.ASSISTANT, items=items)


def _block(index: Any) -> int | None:
    """An event's ``output_index`` as a text fragment's block index (``None`` if it has none).

    Texts of different output messages stay different items, so that each one's citations
    index its own text, as `from_response` reads them.
    """
    return index if type(index) is int else None


def _item_fragment(item: dict[str, Any], index: Any, added: bool) -> KernelContent | None:
    kind = item.get("type")
    if kind == "function_call" and added:
        return StreamingFunctionCallContent(
            id=item.get("call_id"), name=item.get("name") or "", arguments="", index=index
        )
    if kind == "reasoning":
        encrypted = item.get("encrypted_content")
        fragment = StreamingReasoningContent(
            "", encrypted=encrypted if isinstance(encrypted, str) else None,
            provider=OPAQUE_PROVIDER,
        )
        if isinstance(item.get("id"), str):
            fragment.metadata[HINTS] = {"fields": {"id": item["id"]}}
        return fragment
    return None
