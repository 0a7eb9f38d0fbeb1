"""Writing a history as Semantic Kernel's Python JSON, which ``restore_chat_history`` reads.

What the hints of `reading` kept is written back where it was. What Semantic Kernel cannot
hold follows ``on_unsupported``: an image's ``detail``, a file's name, the media type of an
item by URI, a refusal's mark, a reasoning signature or encrypted content, a Gemini thought
signature on a text or call (in its hints), an error flag, a citation's source span, a
message subclass's own fields and a request's options are left out with a warning;
a result of content items, an image, audio or binary item by file id, a media type
Semantic Kernel cannot read back, and item kinds it does not have are refused.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs

from ...contents import (
    AudioContent,
    BinaryContent,
    Citation,
    FileContent,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    KernelContent,
    ReasoningContent,
    RefusalContent,
    TextContent,
    UnknownContent,
)
from ...contents.metadata import peek_metadata
from ...errors import FormatError, SerializationError
from ...history import ChatHistory
from ...jsoncodec import json_value
from ...labels import PLAIN_TEXT
from ...message import ChatMessageContent
from ...usage import Usage, UsageWithUnknownKeys
from ..wire import (
    OnUnsupported,
    get_hints,
    lost_hint_fields,
    lost_history_keys,
    lost_message_fields,
    lost_signatures,
    policy,
    report_citation_losses,
    stored_items,
    unsupported,
    unsupported_field,
)
from .shared import (
    FINISH_REASONS,
    FORMAT,
    HINTS,
    OWN_HINTS,
    ROLES,
    data_uri_parameters,
    given_name,
    names_from_dotnet,
    names_of,
    reasoning_losses,
    report_options,
    sk_mime_type,
    usage_metadata,
)

__all__ = ["to_payload"]

_DOTNET = "sk_dotnet"
"""The hints key of .NET Semantic Kernel's JSON, whose plugin split and ``Uri`` are carried."""

_BINARY_TYPES: dict[type[BinaryContent], str] = {
    ImageContent: "image",
    AudioContent: "audio",
    BinaryContent: "binary",
    FileContent: "binary",
}
_WRITTEN = frozenset((
    TextContent, RefusalContent, *_BINARY_TYPES, FunctionCallContent, FunctionResultContent,
    ReasoningContent,
))
"""The classes written as Semantic Kernel items (subclasses are plugins': refused)."""
_ANNOTATION_CARRIES = frozenset((
    "cited_text", "title", "url", "file_id", "filename", "text_start", "text_end"
))


def to_payload(
    history: Iterable[ChatMessageContent] | ChatMessageContent,
    *,
    on_unsupported: OnUnsupported | None = None,
) -> dict[str, Any]:
    """Write ``history`` as the dict ``ChatHistory.serialize()`` gives, parsed.

    ``json.dumps`` of it is what ``ChatHistory.restore_chat_history`` reads. A message's
    ``usage`` goes to ``metadata["usage"]``, where SK's connectors keep it; its ``id`` is not
    written and not reported (as in the other formats). A history's request options
    (``options.model``, ``options.tools`` ...) have no place in SK's JSON: each is reported.

    Raises:
        FormatError: a role Semantic Kernel does not have (``messages[2].role``), or a value
            put into a dict after it was given is not JSON.
        UnsupportedContentError: an item Semantic Kernel cannot carry (by default), or any
            loss when ``on_unsupported="error"``.
    """
    checked = policy(on_unsupported)
    if isinstance(history, ChatHistory):  # a request body's options: SK has no place for them
        report_options(history.options, HINTS, FORMAT, checked)
        lost_history_keys(history, FORMAT, checked)
    messages = [history] if isinstance(history, ChatMessageContent) else list(history)
    return {
        "messages": [
            _write_message(message, f"messages[{index}]", checked)
            for index, message in enumerate(messages)
        ]
    }


def _write_message(
    message: ChatMessageContent, path: str, on_unsupported: OnUnsupported | None
) -> dict[str, Any]:
    items = stored_items(message, path)
    hints = get_hints(message, HINTS)
    lost_message_fields(message, path, FORMAT, on_unsupported)  # SK has no place for them
    lost_hint_fields(message, path, FORMAT, on_unsupported)  # weight: the others' hints go
    lost_signatures(message, path, FORMAT, on_unsupported)
    role = PLAIN_TEXT[message.role]
    if role not in ROLES:
        raise FormatError(
            f"{FORMAT} has no role {role!r} (expected one of {', '.join(sorted(ROLES))})",
            path=f"{path}.role",
        )
    written: dict[str, Any] = {}
    if message.model_id is not None:
        written["ai_model_id"] = message.model_id
    if not hints.get("no_metadata"):
        written["metadata"] = _metadata(message, hints, path)
    if message.usage is not None:
        _write_usage(message.usage, written, f"{path}.usage", on_unsupported)
    written["content_type"] = "message"
    written["role"] = role
    if message.name is not None:
        written["name"] = message.name
    parts = _write_items(items, f"{path}.items", on_unsupported)
    if "encoding" in hints:
        written["encoding"] = hints["encoding"]
    content = _content(items, parts, written)
    if parts or not hints.get("no_items"):
        written["items"] = parts
    if content is not None:
        written["content"] = content
    if message.finish_reason is not None:
        reason = PLAIN_TEXT[message.finish_reason]
        if reason in FINISH_REASONS:
            written["finish_reason"] = reason
        else:
            unsupported_field(
                on_unsupported, FORMAT, f"{path}.finish_reason", f"the finish reason {reason!r}"
            )
    if "status" in hints:
        written["status"] = hints["status"]
    written.update(hints.get("extra", {}))
    return written


def _content(
    items: list[tuple[int, KernelContent]], parts: list[dict[str, Any]], written: dict[str, Any]
) -> str | None:
    """The ``content`` a message was read with, taken off ``parts``, or ``None``.

    That is while its last item is the text read from it and writes exactly the item Semantic
    Kernel makes of ``content`` (the message's ``ai_model_id``, ``metadata`` and ``encoding``).
    """
    if not items or not parts or not get_hints(items[-1][1], HINTS).get("content"):
        return None
    part = parts[-1]
    text = part.get("text")
    if part.get("content_type") != "text" or type(text) is not str or not text:
        return None
    expected = {"metadata": written.get("metadata", {}), "content_type": "text", "text": text}
    for key in ("ai_model_id", "encoding"):
        if key in written:
            expected[key] = written[key]
    if part != expected:
        return None
    parts.pop()
    return text


def _write_usage(
    usage: Usage, written: dict[str, Any], path: str, on_unsupported: OnUnsupported | None
) -> None:
    """Token usage into ``metadata["usage"]``, as Semantic Kernel's connectors keep it."""
    metadata = written.setdefault("metadata", {})
    if "usage" in metadata:
        what = "token usage beside a metadata key 'usage'"
        unsupported_field(on_unsupported, FORMAT, path, what)
        return
    metadata["usage"] = usage_metadata(usage)
    if usage.total_tokens != usage.prompt_tokens + usage.completion_tokens:
        what = "a total other than prompt and completion tokens together"
        unsupported_field(on_unsupported, FORMAT, f"{path}.total_tokens", what)
    if usage.cache_creation_tokens is not None:
        what = "cache creation tokens"
        unsupported_field(on_unsupported, FORMAT, f"{path}.cache_creation_tokens", what)
    if isinstance(usage, UsageWithUnknownKeys):  # counts of a newer version, kept in our JSON
        for key in usage.unknown_keys:
            what = f"the token count {key!r} (unknown to this version)"
            unsupported_field(on_unsupported, FORMAT, f"{path}.{key}", what)


def _write_items(
    items: list[tuple[int, KernelContent]], path: str, on_unsupported: OnUnsupported | None
) -> list[dict[str, Any]]:
    """Write the items; a text's citations as annotations where they were read, else after it."""
    written: list[dict[str, Any]] = []
    placed: list[tuple[int, dict[str, Any]]] = []
    for index, item in items:
        where = f"{path}[{index}]"
        part = _write_item(item, where, on_unsupported)
        if part is None:
            continue
        written.append(part)
        if type(item) is not TextContent:
            continue
        for number, citation in enumerate(item.citations):
            annotation, position = _write_annotation(
                citation, f"{where}.citations[{number}]", on_unsupported
            )
            if position is None:
                written.append(annotation)
            else:
                placed.append((position, annotation))
    for position, annotation in sorted(placed, key=lambda pair: pair[0]):
        written.insert(min(position, len(written)), annotation)
    return written


def _write_item(
    item: KernelContent, path: str, on_unsupported: OnUnsupported | None
) -> dict[str, Any] | None:
    hints = get_hints(item, HINTS)
    lost_signatures(item, path, FORMAT, on_unsupported)  # the others' hints are not written
    kind = type(item)
    if kind not in _WRITTEN and not (kind is UnknownContent and hints.get("unknown")):
        # Another format's unknown item, or a plugin's class: SK has no kind for it.
        unsupported(on_unsupported, FORMAT, path, item, "(it has no such content type)")
        return None
    if isinstance(item, (TextContent, RefusalContent)):
        if isinstance(item, RefusalContent):
            unsupported_field(on_unsupported, FORMAT, path, "a refusal as such (written as text)")
        part = _common(item, "text", hints, path)
        part["text"] = item.text
        if "encoding" in hints:
            part["encoding"] = hints["encoding"]
        return part
    if isinstance(item, BinaryContent):
        return _write_binary(item, path, hints, on_unsupported)
    if isinstance(item, FunctionCallContent):
        return _write_call(item, path, hints)
    if isinstance(item, FunctionResultContent):
        return _write_result(item, path, hints, on_unsupported)
    if isinstance(item, ReasoningContent):
        return _write_reasoning(item, path, hints, on_unsupported)
    assert isinstance(item, UnknownContent)  # the only kind left: one SK wrote
    part = _common(item, item.type, hints, path)
    part.update(_json(item.fields, f"{path}.fields"))
    return part


def _common(
    item: KernelContent, content_type: str, hints: dict[str, Any], path: str
) -> dict[str, Any]:
    """The keys every Semantic Kernel item starts with: model id, metadata, content type."""
    part: dict[str, Any] = {}
    if "ai_model_id" in hints:
        part["ai_model_id"] = hints["ai_model_id"]
    if not hints.get("no_metadata"):
        part["metadata"] = _metadata(item, hints, path)
    if hints.get("streaming"):
        content_type = f"streaming_{content_type}"
    part["content_type"] = content_type
    part.update(hints.get("extra", {}))
    return part


def _write_binary(
    item: BinaryContent, path: str, hints: dict[str, Any], on_unsupported: OnUnsupported | None
) -> dict[str, Any] | None:
    if isinstance(item, ImageContent) and item.detail is not None:
        unsupported_field(on_unsupported, FORMAT, f"{path}.detail", "an image's detail")
    if isinstance(item, FileContent) and item.filename is not None:
        unsupported_field(on_unsupported, FORMAT, f"{path}.filename", "a file's name")
    if item.file_id is not None:
        if not isinstance(item, FileContent):
            unsupported(on_unsupported, FORMAT, path, item, "by file id")
            return None
        if item.mime_type is not None:
            what = "the media type of a file by id"
            unsupported_field(on_unsupported, FORMAT, f"{path}.mime_type", what)
        part = _common(item, "file_reference", hints, path)
        part["file_id"] = item.file_id
        if not hints.get("no_tools"):
            part["tools"] = hints.get("tools", [])
        if "data_source" in hints:
            part["data_source"] = hints["data_source"]
        return part
    part = _common(item, _BINARY_TYPES[type(item)], hints, path)
    if item.uri is not None:
        if item.mime_type is not None:  # SK restores an item by uri as text/plain
            what = "the media type of an item by URI"
            unsupported_field(on_unsupported, FORMAT, f"{path}.mime_type", what)
        part["uri"] = item.uri
        if not hints.get("no_data_uri"):
            part["data_uri"] = ""
        return part
    mime_type = item.mime_type or "text/plain"
    if not sk_mime_type(mime_type):
        unsupported(
            on_unsupported, FORMAT, path, item,
            f"of media type {mime_type!r} (it cannot read such a data URI back)",
        )
        return None
    uri = hints.get("uri", _dotnet_uri(item))
    if uri is not None:
        part["uri"] = uri
    data_format = hints.get("data_format", "base64")
    payload = None
    if data_format.lower() != "base64":
        try:
            payload = (item.data or b"").decode("utf-8")
        except UnicodeDecodeError:
            data_format = "base64"
    if payload is None:
        payload = item.base64 or ""
    header = hints.get("header")
    if not isinstance(header, str) or header[5:].split(";")[0] not in (mime_type, ""):
        parameters = data_uri_parameters(part.get("metadata", {}))
        header = f"data:{mime_type}{parameters};{data_format}"
    part["data_uri"] = f"{header},{payload}"
    return part


def _dotnet_uri(item: BinaryContent) -> str | None:
    """The ``Uri`` a .NET item of data held beside its ``Data`` (Python's ``uri`` holds it too)."""
    uri = get_hints(item, _DOTNET).get("Uri")
    return uri if isinstance(uri, str) else None


def _write_call(item: FunctionCallContent, path: str, hints: dict[str, Any]) -> dict[str, Any]:
    part = _common(item, "function_call", hints, path)
    if item.id is not None:
        part["id"] = item.id
    if "call_id" in hints:
        part["call_id"] = hints["call_id"]
    if item.index is not None:
        part["index"] = item.index
    part.update(_names(item, hints, result=False))
    arguments = item.arguments
    if isinstance(arguments, str):
        part["arguments"] = arguments
    elif arguments is not None:
        part["arguments"] = _json(dict(arguments), f"{path}.arguments")
    return part


def _write_result(
    item: FunctionResultContent,
    path: str,
    hints: dict[str, Any],
    on_unsupported: OnUnsupported | None,
) -> dict[str, Any] | None:
    result = item.result
    if isinstance(result, list) and any(isinstance(element, KernelContent) for element in result):
        unsupported(on_unsupported, FORMAT, path, item, "holding content items")
        return None
    if item.is_error:
        unsupported_field(on_unsupported, FORMAT, f"{path}.is_error", "a result's error flag")
    part = _common(item, "function_result", hints, path)
    if item.call_id is not None:
        part["id"] = item.call_id
    if "call_id" in hints:
        part["call_id"] = hints["call_id"]
    if result is not None:
        # Semantic Kernel writes str(result): a dict or list as its Python repr.
        part["result"] = result if isinstance(result, str) else str(_json(result, f"{path}.result"))
    part.update(_names(item, hints, result=True))
    if "encoding" in hints:
        part["encoding"] = hints["encoding"]
    return part


def _write_reasoning(
    item: ReasoningContent,
    path: str,
    hints: dict[str, Any],
    on_unsupported: OnUnsupported | None,
) -> dict[str, Any]:
    for field, what in reasoning_losses(item):
        unsupported_field(on_unsupported, FORMAT, f"{path}.{field}", what)
    part = _common(item, "reasoning", hints, path)
    if item.text or not hints.get("no_text"):
        part["text"] = item.text
    return part


def _write_annotation(
    citation: Citation, path: str, on_unsupported: OnUnsupported | None
) -> tuple[dict[str, Any], int | None]:
    """A citation as an annotation item, and where it stood among the items when read."""
    fields_only = attrs.evolve(citation, metadata={})  # its metadata is written, below
    # The loss reads "... cannot carry source_index in a Semantic Kernel annotation".
    report_citation_losses(
        fields_only, _ANNOTATION_CARRIES, "Semantic Kernel", path, FORMAT, on_unsupported
    )
    hints = citation.metadata.get(HINTS)
    hints = hints if isinstance(hints, dict) else {}
    part: dict[str, Any] = {}
    if "ai_model_id" in hints:
        part["ai_model_id"] = hints["ai_model_id"]
    own = {key: value for key, value in citation.metadata.items() if key not in OWN_HINTS}
    if own or not hints.get("no_metadata"):
        metadata = {**hints.get("metadata", {}), **own}  # as read, then what was set since
        part["metadata"] = _json(metadata, f"{path}.metadata")
    part["content_type"] = "streaming_annotation" if hints.get("streaming") else "annotation"
    fields = (
        ("file_id", citation.file_id),
        ("quote", citation.cited_text),
        ("start_index", citation.text_start),
        ("end_index", citation.text_end),
        ("url", citation.url),
        ("title", citation.title),
        ("citation_type", hints.get("citation_type")),
        ("container_id", hints.get("container_id")),
        ("filename", citation.filename),
    )
    part.update((key, value) for key, value in fields if value is not None)
    part.update(hints.get("extra", {}))
    position = hints.get("position")
    return part, position if type(position) is int else None


def _names(
    item: FunctionCallContent | FunctionResultContent, hints: dict[str, Any], *, result: bool
) -> dict[str, Any]:
    """The name fields as read, while the name is still the one they give; else derived.

    A name read from .NET keeps the plugin and function split .NET gave it (a ``FunctionName``
    with ``-`` and no plugin stays unsplit); any other name is split at its first ``-``.
    """
    name = item.name
    kept = hints.get("names")
    if isinstance(kept, dict) and given_name(kept) == name:
        return kept
    if name is not None:
        split = names_from_dotnet(name, get_hints(item, _DOTNET))
        if split is not None:
            return split
    return names_of(name, result=result)


def _metadata(
    owner: KernelContent | ChatMessageContent, hints: dict[str, Any], path: str
) -> dict[str, Any]:
    """An item's or message's metadata for Semantic Kernel: ours without formats' hints."""
    metadata = {
        key: value for key, value in peek_metadata(owner).items() if key not in OWN_HINTS
    }
    metadata.update(hints.get("metadata", {}))
    return _json(metadata, f"{path}.metadata")  # type: ignore[no-any-return]


def _json(value: Any, path: str) -> Any:
    """A copy of ``value`` checked to be JSON (a dict changed after it was given may not be).

    Raises:
        FormatError: it is not; located at the offending value under ``path``.
    """
    try:
        return json_value(value, path)
    except SerializationError as error:
        raise FormatError(error.detail, path=error.path) from None
