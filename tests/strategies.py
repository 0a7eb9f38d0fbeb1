"""Hypothesis strategies for the model: labels, items, messages, histories.

Shared by the model tests and the serialization round trips. Sizes are kept small by default
(at most 5 items per message, 6 messages per history) so that suites stay fast. Every value a
strategy builds is valid: it constructs without error and holds only JSON-compatible metadata.
"""

from __future__ import annotations

import base64
import functools
import json
import string
from typing import Any

from hypothesis import strategies as st

from semantic_chat import (
    AudioContent,
    AuthorRole,
    BinaryContent,
    ChatHistory,
    ChatMessageContent,
    Citation,
    FileContent,
    FinishReason,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    KernelContent,
    ReasoningContent,
    RefusalContent,
    TextContent,
    UnknownContent,
    Usage,
)

__all__ = [
    "binary_items",
    "function_calls",
    "function_results",
    "histories",
    "identifiers",
    "items",
    "json_values",
    "labels",
    "messages",
    "metadata",
    "reasoning_items",
    "refusal_items",
    "text_items",
    "unknown_items",
    "usages",
]

_WELL_KNOWN_LABELS = (
    "system",
    "developer",
    "user",
    "assistant",
    "tool",
    "text",
    "image",
    "function_call",
    "stop",
    "tool_calls",
    "critic",
)

# 64-bit signed integers: the range every JSON backend (orjson included) writes exactly.
_INT64 = st.integers(min_value=-(2**63), max_value=2**63 - 1)


@functools.cache
@st.composite
def _mixed_case(draw: st.DrawFn, text: str) -> str:
    flips = draw(st.lists(st.booleans(), min_size=len(text), max_size=len(text)))
    return "".join(c.upper() if flip else c for c, flip in zip(text, flips, strict=True))


@functools.cache
def labels() -> st.SearchStrategy[str]:
    """Non-blank label texts: well-known names in mixed case, and arbitrary unicode text."""
    known = st.sampled_from(_WELL_KNOWN_LABELS).flatmap(_mixed_case)
    anything = st.text(min_size=1, max_size=16).filter(lambda s: s.strip() != "")
    return st.one_of(known, anything)


@functools.cache
def identifiers() -> st.SearchStrategy[str]:
    """Function names and call ids as providers write them, ``-`` and ``.`` included."""
    return st.from_regex(r"[A-Za-z_][A-Za-z0-9_.\-]{0,20}", fullmatch=True)


@functools.cache
def json_values(max_leaves: int = 8) -> st.SearchStrategy[Any]:
    """JSON-compatible values: None, bools, 64-bit ints, finite floats, text, lists, dicts."""
    scalars = st.one_of(
        st.none(),
        st.booleans(),
        _INT64,
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=12),
    )
    return st.recursive(
        scalars,
        lambda children: st.one_of(
            st.lists(children, max_size=3),
            st.dictionaries(st.text(max_size=8), children, max_size=3),
        ),
        max_leaves=max_leaves,
    )


@functools.cache
def metadata() -> st.SearchStrategy[dict[str, Any]]:
    """A ``metadata`` dict: string keys, JSON values; often empty."""
    return st.dictionaries(st.text(max_size=8), json_values(max_leaves=3), max_size=2)


@functools.cache
def citations() -> st.SearchStrategy[Citation]:
    """`Citation` with any subset of its fields set, metadata included."""
    optional_text = st.none() | st.text(max_size=12)
    optional_int = st.none() | st.integers(min_value=0, max_value=10**6)
    return st.builds(
        Citation,
        cited_text=optional_text,
        title=optional_text,
        url=optional_text,
        file_id=optional_text,
        filename=optional_text,
        source_index=optional_int,
        source_start=optional_int,
        source_end=optional_int,
        source_unit=st.none() | st.sampled_from(["char", "page", "block"]),
        text_start=optional_int,
        text_end=optional_int,
        metadata=metadata(),
    )


@functools.cache
def text_items() -> st.SearchStrategy[TextContent]:
    """`TextContent` with any text (empty included), metadata, and sometimes citations."""
    return st.builds(
        TextContent,
        text=st.text(max_size=30),
        citations=st.lists(citations(), max_size=2) | st.just(()),
        metadata=metadata(),
    )


@functools.cache
def refusal_items() -> st.SearchStrategy[RefusalContent]:
    """`RefusalContent` with any text and metadata."""
    return st.builds(RefusalContent, text=st.text(max_size=30), metadata=metadata())


@functools.cache
def reasoning_items() -> st.SearchStrategy[ReasoningContent]:
    """`ReasoningContent`, sometimes with a signature, encrypted content and a provider."""
    optional_text = st.none() | st.text(max_size=20)
    return st.builds(
        ReasoningContent,
        text=st.text(max_size=30),
        signature=optional_text,
        encrypted=optional_text,
        provider=st.none() | st.sampled_from(["openai", "anthropic", "gemini"]),
        metadata=metadata(),
    )


_MIME_TYPES: dict[type[BinaryContent], tuple[str, ...]] = {
    ImageContent: ("image/png", "image/jpeg", "image/svg+xml", "image/webp"),
    AudioContent: ("audio/wav", "audio/mp3", "audio/mpeg", "audio/l16;rate=16000"),
    FileContent: (
        "application/pdf",
        "text/plain;charset=utf-8",
        "application/vnd.ms-excel",
        "text/csv",
    ),
    BinaryContent: ("application/octet-stream", "video/mp4", "application/x-custom"),
}

_URI_PATHS = st.text(alphabet=string.ascii_letters + string.digits + "-._~/", max_size=12)


def _binary_of(cls: type[BinaryContent]) -> st.SearchStrategy[BinaryContent]:
    fields: dict[str, st.SearchStrategy[Any]] = {"metadata": metadata()}
    if cls is ImageContent:
        fields["detail"] = st.none() | st.sampled_from(["low", "high", "auto"])
    if cls is FileContent:
        fields["filename"] = st.none() | st.text(min_size=1, max_size=12)
    mime_types = st.sampled_from(_MIME_TYPES[cls])
    payloads = st.binary(max_size=32)
    file_ids = st.text(alphabet=string.ascii_letters + string.digits, max_size=10)
    return st.one_of(
        st.builds(cls, data=payloads, mime_type=mime_types, **fields),
        st.builds(
            cls.from_base64,
            payloads.map(lambda data: base64.b64encode(data).decode("ascii")),
            mime_types,
            **fields,
        ),
        st.builds(
            cls,
            uri=_URI_PATHS.map("https://example.com/".__add__),
            mime_type=st.none() | mime_types,
            **fields,
        ),
        st.builds(
            cls, file_id=file_ids.map("file-".__add__), mime_type=st.none() | mime_types, **fields
        ),
    )


@functools.cache
def binary_items() -> st.SearchStrategy[BinaryContent]:
    """An image, audio clip, file or plain binary item with one source.

    ``data`` is random bytes with an explicit ``mime_type`` (sometimes given as base64 that
    stays undecoded until read), ``uri`` is an https address, ``file_id`` a provider's id;
    the references sometimes have a ``mime_type``; images sometimes have a ``detail`` and
    files a ``filename``.
    """
    return st.one_of([_binary_of(cls) for cls in _MIME_TYPES])


@functools.cache
def _arguments() -> st.SearchStrategy[str | dict[str, Any] | None]:
    objects = st.dictionaries(st.text(max_size=8), json_values(max_leaves=4), max_size=3)
    spacing = st.sampled_from([(", ", ": "), (",", ":"), (" ,  ", " :")])
    texts = st.tuples(objects, spacing, st.sampled_from([None, 2])).map(
        lambda t: json.dumps(t[0], separators=t[1], indent=t[2])
    )
    return st.one_of(st.none(), texts, objects)


@functools.cache
def function_calls() -> st.SearchStrategy[FunctionCallContent]:
    """Calls: id or None, names with ``-`` and ``.``, arguments as JSON text, dict or None."""
    return st.builds(
        FunctionCallContent,
        id=st.none() | identifiers(),
        name=identifiers(),
        arguments=_arguments(),
        index=st.none() | st.integers(min_value=0, max_value=10),
        metadata=metadata(),
    )


@functools.cache
def _image_uris() -> st.SearchStrategy[ImageContent]:
    return _URI_PATHS.map(lambda p: ImageContent(uri="https://example.com/" + p))


@functools.cache
def function_results() -> st.SearchStrategy[FunctionResultContent]:
    """Results that are text, any JSON value, or a list of text and image items."""
    multimodal = st.lists(st.one_of(text_items(), _image_uris()), min_size=1, max_size=3)
    return st.builds(
        FunctionResultContent,
        call_id=st.none() | identifiers(),
        result=st.one_of(st.text(max_size=20), json_values(), multimodal),
        name=st.none() | identifiers(),
        is_error=st.booleans(),
        metadata=metadata(),
    )


@functools.cache
def unknown_items() -> st.SearchStrategy[UnknownContent]:
    """`UnknownContent` under labels nobody registers (``x_...``); fields without ``type``.

    Not part of `items`: how an unknown item's fields are written is the serializer's choice.
    """
    keys = st.text(alphabet=string.ascii_lowercase + "_", min_size=1, max_size=8).filter(
        lambda k: k not in ("type", "metadata")
    )
    return st.builds(
        UnknownContent,
        type=st.text(alphabet=string.ascii_lowercase, min_size=1, max_size=8).map("x_".__add__),
        fields=st.dictionaries(keys, json_values(max_leaves=4), max_size=3),
    )


@functools.cache
def items() -> st.SearchStrategy[KernelContent]:
    """Any built-in item kind except `UnknownContent`."""
    return st.one_of(
        text_items(),
        binary_items(),
        function_calls(),
        function_results(),
        reasoning_items(),
        refusal_items(),
    )


@functools.cache
def usages() -> st.SearchStrategy[Usage]:
    """`Usage` with non-negative counts; cached and reasoning tokens sometimes unreported."""
    counts = st.integers(min_value=0, max_value=10**6)
    return st.builds(
        Usage,
        prompt_tokens=counts,
        completion_tokens=counts,
        total_tokens=counts,
        cached_tokens=st.none() | counts,
        reasoning_tokens=st.none() | counts,
        cache_creation_tokens=st.none() | counts,
    )


@functools.cache
def _roles() -> st.SearchStrategy[AuthorRole]:
    well_known = st.sampled_from(
        [AuthorRole.SYSTEM, AuthorRole.DEVELOPER, AuthorRole.USER, AuthorRole.ASSISTANT,
         AuthorRole.TOOL]
    )
    return st.one_of(well_known, labels().map(AuthorRole))


@functools.cache
def _finish_reasons() -> st.SearchStrategy[FinishReason | None]:
    well_known = st.sampled_from(
        [FinishReason.STOP, FinishReason.LENGTH, FinishReason.TOOL_CALLS,
         FinishReason.CONTENT_FILTER]
    )
    return st.one_of(st.none(), well_known, labels().map(FinishReason))


@functools.cache
def messages(max_items: int = 5) -> st.SearchStrategy[ChatMessageContent]:
    """A `ChatMessageContent` with any role (custom ones included) and up to ``max_items`` items."""
    optional_text = st.none() | st.text(max_size=12)
    return st.builds(
        ChatMessageContent,
        _roles(),
        items=st.lists(items(), max_size=max_items),
        name=optional_text,
        id=optional_text,
        finish_reason=_finish_reasons(),
        usage=st.none() | usages(),
        model_id=optional_text,
        metadata=metadata(),
    )


@functools.cache
def histories(max_messages: int = 6, max_items: int = 3) -> st.SearchStrategy[ChatHistory]:
    """A `ChatHistory` of up to ``max_messages`` messages."""
    return st.lists(messages(max_items=max_items), max_size=max_messages).map(ChatHistory)
