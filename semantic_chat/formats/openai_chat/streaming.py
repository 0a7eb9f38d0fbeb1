"""Reading OpenAI Chat Completions streams as streaming chunks."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from ...contents import (
    AudioContent,
    KernelContent,
)
from ...errors import FormatError, describe_type
from ...streaming import (
    StreamingChatMessageContent,
    StreamingFunctionCallContent,
    StreamingRefusalContent,
    StreamingTextContent,
)
from ..wire import (
    as_plain,
)
from .citations import read_annotations
from .reading import read_usage
from .shared import HINTS

__all__ = [
    "from_stream",
]


def from_stream(chunks: Iterable[Any]) -> Iterator[StreamingChatMessageContent]:
    """Read ``chat.completion.chunk`` payloads (dicts or SDK objects) as streaming chunks.

    Each choice of each chunk gives one `StreamingChatMessageContent` (its ``choice_index`` is
    the choice's index). Text, refusal and audio-transcript deltas become text and refusal
    fragments, tool-call deltas call fragments; a delta's ``annotations`` (web search sends
    them, after the text) an empty text fragment carrying them as citations, with the
    message hint that writes them back, as `from_response` reads them; the final usage-only
    chunk (``choices: []``)
    gives a chunk with the usage for choice 0. Merge them with
    `StreamingChatMessageContent.accumulate` (or `accumulate_choices` for several choices).

    Raises:
        FormatError: a chunk is malformed.
    """
    for number, raw in enumerate(chunks):
        path = f"chunks[{number}]"
        data = as_plain(raw, path)
        if type(data) is not dict:
            raise FormatError.mismatch(path, "a chat.completion.chunk object", describe_type(data))
        choices = data.get("choices") or []
        usage = data.get("usage")
        read = read_usage(usage) if isinstance(usage, dict) else None
        for position, choice in enumerate(choices):
            where = f"{path}.choices[{position}]"
            if type(choice) is not dict:
                raise FormatError.mismatch(where, "a choice object", describe_type(choice))
            chunk = _read_delta(choice, where)
            chunk.id = data.get("id")
            chunk.model_id = data.get("model")
            if read is not None and position == 0:
                chunk.usage = read
            chunk.inner_content = raw
            yield chunk
        if not choices and read is not None:
            yield StreamingChatMessageContent(
                None, id=data.get("id"), model_id=data.get("model"), usage=read,
                inner_content=raw,
            )


def _read_delta(choice: dict[str, Any], path: str) -> StreamingChatMessageContent:
    delta = choice.get("delta") or {}
    items: list[KernelContent] = []
    content = delta.get("content")
    if isinstance(content, str) and content:
        items.append(StreamingTextContent(content))
    metadata: dict[str, Any] = {}
    annotations = delta.get("annotations")  # sent with web search; not in the SDK's delta type
    if isinstance(annotations, list) and annotations:
        citations = read_annotations(annotations, f"{path}.delta.annotations")
        if citations is None:  # a type other than url_citation: kept as from_response keeps it
            metadata[HINTS] = {"fields": {"annotations": annotations}}
        else:
            items.append(StreamingTextContent("", citations=tuple(citations)))
            metadata[HINTS] = {"annotations": True}
    refusal = delta.get("refusal")
    if isinstance(refusal, str) and refusal:
        items.append(StreamingRefusalContent(refusal))
    audio = delta.get("audio")
    if isinstance(audio, dict):
        if isinstance(audio.get("id"), str):
            items.append(AudioContent(file_id=audio["id"]))
        transcript = audio.get("transcript")
        if isinstance(transcript, str) and transcript:
            items.append(StreamingTextContent(transcript))
    for index, call in enumerate(delta.get("tool_calls") or []):
        where = f"{path}.delta.tool_calls[{index}]"
        if type(call) is not dict:
            raise FormatError.mismatch(where, "a tool call delta", describe_type(call))
        function = call.get("function") or {}
        items.append(
            StreamingFunctionCallContent(
                id=call.get("id"),
                name=function.get("name") or "",
                arguments=function.get("arguments") or "",
                index=call.get("index"),
            )
        )
    function_call = delta.get("function_call")
    if isinstance(function_call, dict):
        items.append(
            StreamingFunctionCallContent(
                id=None,
                name=function_call.get("name") or "",
                arguments=function_call.get("arguments") or "",
            )
        )
    reason = choice.get("finish_reason")
    index = choice.get("index", 0)
    return StreamingChatMessageContent(
        delta.get("role"),
        items=items,
        choice_index=index if isinstance(index, int) else 0,
        finish_reason=reason if isinstance(reason, str) else None,
        metadata=metadata,
    )
