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
from .reading import read_audio, read_usage
from .shared import HINTS

__all__ = [
    "from_stream",
]

# The chunk's fields read elsewhere (or, as ``object``, not kept by `from_response` either).
_READ_FIELDS = frozenset(("id", "model", "choices", "usage", "object"))


def from_stream(chunks: Iterable[Any]) -> Iterator[StreamingChatMessageContent]:
    """Read ``chat.completion.chunk`` payloads (dicts or SDK objects) as streaming chunks.

    Each choice of each chunk gives one `StreamingChatMessageContent` (its ``choice_index`` is
    the choice's index). Text and refusal deltas become text and refusal fragments,
    function and custom tool-call deltas call fragments (a custom call with the hint
    `from_response` gives it; another type is refused); audio deltas (``data`` and
    ``transcript`` in pieces) are gathered into the one `AudioContent` `from_response`
    reads, given in the chunk that finishes the choice; a delta's ``annotations`` (web search sends
    them, after the text) an empty text fragment carrying them as citations, with the
    message hint that writes them back, as `from_response` reads them; the final usage-only
    chunk (``choices: []``)
    gives a chunk with the usage for choice 0. Each chunk keeps ``created``,
    ``system_fingerprint`` and its choice's ``logprobs`` in its metadata, where `from_response`
    keeps them; accumulated, the logprobs token lists join in order. The chunk that finishes a
    choice that sent no refusal has the hint ``refusal: null`` (`from_response` keeps the
    API's ``"refusal": null``), so the accumulated message writes back the same. Merge them with
    `StreamingChatMessageContent.accumulate` (or `accumulate_choices` for several choices).

    Raises:
        FormatError: a chunk is malformed.
    """
    audio: dict[int, _Audio] = {}  # each choice's audio deltas so far, given at its finish
    refused: set[int] = set()  # the choices that sent a refusal delta
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
            _gather_audio(audio, chunk, choice, where)
            _note_refusal(refused, chunk, choice)
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
    for index, gathered in audio.items():  # a stream cut before its finish: the audio still
        yield StreamingChatMessageContent(None, items=[gathered.item()], choice_index=index)


class _Audio:
    """One choice's audio deltas: ``data`` and ``transcript`` join, other fields the last wins.

    Built into the one `AudioContent` `from_response` reads from the whole ``message.audio``
    (its id as ``file_id``, every other field in the hints), so that the accumulated stream
    is `from_response`'s message.
    """

    __slots__ = ("fields", "parts", "path")

    def __init__(self, path: str) -> None:
        self.path = path  # the first audio delta's, where a missing id is reported
        self.fields: dict[str, Any] = {}
        self.parts: dict[str, list[str]] = {}

    def add(self, delta: dict[str, Any]) -> None:
        """Add one ``delta.audio`` object."""
        for key, value in delta.items():
            if key in _JOINED_AUDIO and type(value) is str:
                self.parts.setdefault(key, []).append(value)
                self.fields[key] = None  # its place; the joined text replaces it
            elif key not in _JOINED_AUDIO or key not in self.fields:
                self.fields[key] = value

    def item(self) -> AudioContent:
        """The audio item, as `from_response` reads it.

        Raises:
            FormatError: no delta gave a ``str`` id (`from_response` requires one too).
        """
        fields = {**self.fields, **{key: "".join(parts) for key, parts in self.parts.items()}}
        return read_audio(fields, self.path)


_JOINED_AUDIO = ("data", "transcript")
"""The ``delta.audio`` fields a stream sends in pieces (base64 audio, its transcript)."""


def _gather_audio(
    audio: dict[int, _Audio],
    chunk: StreamingChatMessageContent,
    choice: dict[str, Any],
    where: str,
) -> None:
    """Gather a choice's ``delta.audio``; give the audio item in the chunk that finishes it.

    Audio arrives in pieces no item can hold (an `AudioContent` is whole), so it is one item
    at the end, where `from_response` has it: a live transcript is in ``inner_content``.
    """
    delta = choice.get("delta")
    found = delta.get("audio") if type(delta) is dict else None
    index = chunk.choice_index
    if type(found) is dict:
        gathered = audio.get(index)
        if gathered is None:
            gathered = audio[index] = _Audio(f"{where}.delta.audio")
        gathered.add(found)
    if chunk.finish_reason is not None and index in audio:
        chunk.items.append(audio.pop(index).item())


def _note_refusal(
    refused: set[int], chunk: StreamingChatMessageContent, choice: dict[str, Any]
) -> None:
    """Give a choice that sent no refusal the hint ``refusal: null`` in its finishing chunk.

    The whole message always has ``"refusal": null`` then, which `from_response` keeps as a
    hint (written back), while the deltas send it at most once, or never (tool calls).
    """
    delta = choice.get("delta")
    index = chunk.choice_index
    if type(delta) is dict and isinstance(delta.get("refusal"), str):
        refused.add(index)
    if chunk.finish_reason is not None and index not in refused:
        hints = chunk.metadata.setdefault(HINTS, {})
        hints["fields"] = {**hints.get("fields", {}), "refusal": None}


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
    for index, call in enumerate(delta.get("tool_calls") or []):
        items.append(_read_call_delta(call, f"{path}.delta.tool_calls[{index}]"))
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


def _read_call_delta(call: Any, where: str) -> StreamingFunctionCallContent:
    """A tool call delta as a call fragment: a ``function`` call's, or a ``custom`` one's.

    A custom call's ``input`` is its arguments and the fragment has the ``custom`` hint, as
    `from_response` reads the whole call. A delta without ``type`` (those after the first)
    is custom when it has a ``custom`` object and no ``function`` one.

    Raises:
        FormatError: the delta is not an object, or its ``type`` is neither (as
            `from_response` refuses it), at ``<where>.type``.
    """
    if type(call) is not dict:
        raise FormatError.mismatch(where, "a tool call delta", describe_type(call))
    kind = call.get("type")
    if kind is None:
        kind = "custom" if "custom" in call and "function" not in call else "function"
    elif kind not in ("function", "custom"):
        raise FormatError(f"unknown tool call type {kind!r}", path=f"{where}.type")
    body = call.get(kind) or {}
    if type(body) is not dict:
        raise FormatError.mismatch(f"{where}.{kind}", "an object", describe_type(body))
    fragment = StreamingFunctionCallContent(
        id=call.get("id"),
        name=body.get("name") or "",
        arguments=body.get("arguments" if kind == "function" else "input") or "",
        index=call.get("index"),
    )
    if kind == "custom":
        fragment.metadata[HINTS] = {"custom": True}
    return fragment

