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
    register_metadata_merge,
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

# The chunk's fields read elsewhere (or, as ``object``, not kept by `from_response` either).
_READ_FIELDS = frozenset(("id", "model", "choices", "usage", "object"))


def from_stream(chunks: Iterable[Any]) -> Iterator[StreamingChatMessageContent]:
    """Read ``chat.completion.chunk`` payloads (dicts or SDK objects) as streaming chunks.

    Each choice of each chunk gives one `StreamingChatMessageContent` (its ``choice_index`` is
    the choice's index). Text, refusal and audio-transcript deltas become text and refusal
    fragments, tool-call deltas call fragments; a delta's ``annotations`` (web search sends
    them, after the text) an empty text fragment carrying them as citations, with the
    message hint that writes them back, as `from_response` reads them; the final usage-only
    chunk (``choices: []``)
    gives a chunk with the usage for choice 0. Each chunk keeps ``created``,
    ``system_fingerprint`` and its choice's ``logprobs`` in its metadata, where `from_response`
    keeps them; accumulated, the logprobs token lists join in order. Merge them with
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
        response = _response_fields(data)
        for position, choice in enumerate(choices):
            where = f"{path}.choices[{position}]"
            if type(choice) is not dict:
                raise FormatError.mismatch(where, "a choice object", describe_type(choice))
            chunk = _read_delta(choice, where)
            _keep_response(chunk, response, choice.get("logprobs"))
            chunk.id = data.get("id")
            chunk.model_id = data.get("model")
            if read is not None and position == 0:
                chunk.usage = read
            chunk.inner_content = raw
            yield chunk
        if not choices and read is not None:
            chunk = StreamingChatMessageContent(
                None, id=data.get("id"), model_id=data.get("model"), usage=read,
                inner_content=raw,
            )
            _keep_response(chunk, response, None)
            yield chunk


def _response_fields(data: dict[str, Any]) -> dict[str, Any]:
    """The chunk's fields that `from_response` keeps in metadata (``created`` ...)."""
    return {
        key: value
        for key, value in data.items()
        if key not in _READ_FIELDS and value is not None
    }


def _keep_response(
    chunk: StreamingChatMessageContent, response: dict[str, Any], logprobs: Any
) -> None:
    """Keep the response fields and the choice's logprobs where `from_response` keeps them."""
    if logprobs is not None:
        response = {**response, "logprobs": logprobs}
    if response:
        chunk.metadata.setdefault(HINTS, {})["response"] = response


def _merge_hints(merged: Any, value: Any) -> Any:
    """Add a chunk's hints to the stream's: later keys win, logprobs token lists join in order.

    Registered with the accumulator, so that an accumulated stream keeps every chunk's
    logprobs (as the SDK's ``ChatCompletionStreamState`` does) and the annotations hint of an
    earlier chunk.
    """
    if type(value) is not dict:
        return value
    held: dict[str, Any] = merged if type(merged) is dict else {}
    for key, item in value.items():
        if key == "response" and type(item) is dict:
            held[key] = _merge_response(held.get(key), item)
        elif key == "fields" and type(item) is dict and type(held.get(key)) is dict:
            held[key] = {**held[key], **item}
        else:
            held[key] = item
    return held


def _merge_response(merged: Any, value: dict[str, Any]) -> dict[str, Any]:
    """Add a chunk's response fields to the stream's (``merged`` is ours, built here)."""
    held: dict[str, Any] = merged if type(merged) is dict else {}
    for key, item in value.items():
        if key == "logprobs" and type(item) is dict:
            held[key] = _merge_logprobs(held.get(key), item)
        else:
            held[key] = item
    return held


def _merge_logprobs(merged: Any, value: dict[str, Any]) -> dict[str, Any]:
    """Join a chunk's logprobs token lists (``content``, ``refusal``) to the stream's, in order."""
    held: dict[str, Any] = merged if type(merged) is dict else {}
    for key, tokens in value.items():
        so_far = held.get(key)
        if type(tokens) is list and type(so_far) is list:
            so_far.extend(tokens)
        elif type(tokens) is list:
            held[key] = list(tokens)  # a copy: later chunks extend it
        elif tokens is not None or key not in held:
            held[key] = tokens
    return held


register_metadata_merge(HINTS, _merge_hints)


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
