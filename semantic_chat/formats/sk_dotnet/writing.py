"""Write a `ChatHistory` as .NET Semantic Kernel's ``ChatHistory`` JSON.

Keys are written in the order ``System.Text.Json`` writes them (``$type`` first, then the
item's own properties, then ``MimeType``, ``ModelId``, ``Metadata``, and a binary item's
``Data`` last), with what the reader kept in ``metadata["sk_dotnet"]`` put back. What .NET
cannot hold follows ``on_unsupported``: items are refused, fields left out with a warning
(a Gemini thought signature on a text or call, which only Gemini's hints hold, among them).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

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
    TextContent,
    UnknownContent,
)
from ...contents.function_result import holds_items
from ...contents.metadata import peek_metadata
from ...errors import FormatError, describe_type
from ...history import ChatHistory
from ...message import ChatMessageContent
from ..sk_python.shared import given_name, reasoning_losses, report_options
from ..wire import (
    OnUnsupported,
    get_hints,
    lost_citation_keys,
    lost_hint_fields,
    lost_history_keys,
    lost_message_fields,
    lost_signatures,
    lost_subclass_fields,
    parse_object_arguments,
    policy,
    stored_items,
    unsupported,
    unsupported_field,
)
from .shared import DISCRIMINATORS, FORMAT, HINTS, NOT_METADATA, TYPE, codecs, mime_hint

__all__ = ["to_payload", "write_item", "write_items", "write_message"]


def to_payload(
    history: Iterable[ChatMessageContent] | ChatMessageContent,
    *,
    on_unsupported: OnUnsupported | None = None,
) -> list[dict[str, Any]]:
    """Write what .NET's ``JsonSerializer.Serialize(chatHistory)`` writes: an array of messages.

    A lone message is written as a history of that message (an array of one), as the other
    formats' ``to_payload`` take one.

    Raises:
        FormatError: an element is not a message, or a call's arguments are not a JSON object.
        UnsupportedContentError: a history's request options (``options.model`` ...: .NET's
            ``ChatHistory`` holds messages only) and ``on_unsupported`` is ``"error"``; an
            item .NET has no kind for (a refusal, another format's
            unknown part) and ``on_unsupported`` is ``"error"`` or ``None``; a field it
            cannot hold and ``on_unsupported`` is ``"error"``.
    """
    on_unsupported = policy(on_unsupported)
    if isinstance(history, ChatHistory):  # a request body's options: .NET has no place for them
        report_options(history.options, HINTS, FORMAT, on_unsupported)
        lost_history_keys(history, FORMAT, on_unsupported)
    if isinstance(history, ChatMessageContent):
        history = [history]
    written = []
    for index, message in enumerate(history):
        path = f"messages[{index}]"
        if not isinstance(message, ChatMessageContent):
            raise FormatError.mismatch(path, "a ChatMessageContent", describe_type(message))
        written.append(write_message(message, path, on_unsupported))
    return written


def write_message(
    message: ChatMessageContent, path: str, on_unsupported: OnUnsupported | None = None
) -> dict[str, Any]:
    """Write one message as a ``ChatMessageContent`` object.

    Raises:
        UnsupportedContentError: as `to_payload`.
    """
    items = stored_items(message, path)
    hints = get_hints(message, HINTS)
    lost_message_fields(message, path, FORMAT, on_unsupported)  # .NET has no place for them
    lost_hint_fields(message, path, FORMAT, on_unsupported)  # weight: the others' hints go
    lost_signatures(message, path, FORMAT, on_unsupported)
    out: dict[str, Any] = {}
    if TYPE in hints:
        out[TYPE] = hints[TYPE]
    if message.name is not None:
        out["AuthorName"] = message.name
    role = str(message.role)
    kept_role = hints.get("Role")
    same = isinstance(kept_role, dict) and str(kept_role.get("Label", "")).lower() == role
    out["Role"] = dict(kept_role) if same else {"Label": role}  # type: ignore[arg-type]
    written = write_items(items, f"{path}.items", on_unsupported)
    if written or hints.get("Items") is not False:
        out["Items"] = written
    if "MimeType" in hints:
        out["MimeType"] = hints["MimeType"]
    if message.model_id is not None:
        out["ModelId"] = message.model_id
    _write_metadata(message, hints, out)
    _put_extra(hints, out)
    return out


def write_items(
    items: list[tuple[int, KernelContent]], path: str, on_unsupported: OnUnsupported | None
) -> list[dict[str, Any]]:
    """Write items (with their indexes) as an ``Items`` array, ``path`` being the list's.

    A text's citations follow it as ``AnnotationContent`` items, where .NET keeps them.

    Raises:
        UnsupportedContentError: as `to_payload`.
    """
    written = []
    for index, item in items:
        where = f"{path}[{index}]"
        one = write_item(item, where, on_unsupported)
        if one is None:
            continue
        written.append(one)
        if isinstance(item, TextContent) and item.citations and codecs.encoder_for(item) is None:
            for number, citation in enumerate(item.citations):
                annotation = _write_annotation(
                    citation, f"{where}.citations[{number}]", on_unsupported
                )
                if annotation is not None:
                    written.append(annotation)
    return written


_CITATION_LOSSES = ("filename", "source_index", "source_start", "source_end", "source_unit")


def _write_annotation(
    citation: Citation, path: str, on_unsupported: OnUnsupported | None
) -> dict[str, Any] | None:
    """A citation as an ``AnnotationContent`` (what `reading._read_annotation` reads back).

    .NET needs a ``Label`` (the cited text) and a ``ReferenceId`` (the url or file id): a
    citation without them is left out, as is what an annotation has no field for.
    """
    lost_citation_keys(citation, path, FORMAT, on_unsupported)
    hints = citation.metadata.get(HINTS)
    hints = hints if isinstance(hints, dict) else {}
    kind = hints.get("Kind")
    if not isinstance(kind, dict):
        kind = {"Label": "filecitation" if citation.url is None else "urlcitation"}
    url = str(kind.get("Label", "")).lower() == "urlcitation"
    reference = (citation.url or citation.file_id) if url else (citation.file_id or citation.url)
    if not (citation.cited_text or "").strip() or not (reference or "").strip():
        what = "a citation without both cited text and a url or file id"
        unsupported_field(on_unsupported, FORMAT, path, what)
        return None
    other = "file_id" if reference == citation.url else "url"
    for field in (*_CITATION_LOSSES, other):
        if getattr(citation, field) is not None:
            unsupported_field(on_unsupported, FORMAT, f"{path}.{field}", f"a citation's {field}")
    out: dict[str, Any] = {
        TYPE: "AnnotationContent",
        "Kind": dict(kind),
        "Label": citation.cited_text,
        "ReferenceId": reference,
    }
    for key, value in (("Title", citation.title), ("StartIndex", citation.text_start),
                       ("EndIndex", citation.text_end)):
        if value is not None:
            out[key] = value
    if "MimeType" in hints:
        out["MimeType"] = hints["MimeType"]
    if "ModelId" in hints:
        out["ModelId"] = hints["ModelId"]
    metadata = {key: value for key, value in citation.metadata.items() if key not in NOT_METADATA}
    kept = hints.get("Metadata")
    if isinstance(kept, dict):
        metadata.update(kept)
    if metadata or isinstance(kept, dict):
        out["Metadata"] = metadata
    _put_extra(hints, out)
    return out


def write_item(
    item: KernelContent, path: str, on_unsupported: OnUnsupported | None = None
) -> dict[str, Any] | None:
    """Write one item as the ``KernelContent`` object of its kind, or ``None`` when left out.

    Raises:
        FormatError: a call's arguments are text that is not a JSON object.
        UnsupportedContentError: as `to_payload`.
    """
    lost_signatures(item, path, FORMAT, on_unsupported)  # the others' hints are not written
    encoded = codecs.encode(item, path)
    if encoded is not None:
        return encoded
    lost_subclass_fields(item, path, FORMAT, on_unsupported, None)
    hints = get_hints(item, HINTS)
    out: dict[str, Any]
    if isinstance(item, (TextContent, ReasoningContent)):
        out = _write_text(item, hints, path, on_unsupported)
    elif isinstance(item, BinaryContent):
        return _write_binary(item, hints, path, on_unsupported)
    elif isinstance(item, FunctionCallContent):
        out = _write_call(item, hints, path)
    elif isinstance(item, FunctionResultContent):
        out = _write_result(item, hints, path, on_unsupported)
    elif isinstance(item, UnknownContent) and (item.type in DISCRIMINATORS or hints.get("read")):
        return {TYPE: item.type, **item.fields}
    else:
        unsupported(on_unsupported, FORMAT, path, item, "(.NET has no content type that holds it)")
        return None
    _write_base(item, hints, out)
    return out


def _write_text(
    item: TextContent | ReasoningContent,
    hints: dict[str, Any],
    path: str,
    on_unsupported: OnUnsupported | None,
) -> dict[str, Any]:
    """A text or reasoning item; a reasoning signature has no place in .NET."""
    kind = "TextContent" if isinstance(item, TextContent) else "ReasoningContent"
    text: str | None = item.text
    if text == "" and "Text" in hints:
        text = None
    if not isinstance(item, TextContent):
        for field, what in reasoning_losses(item):
            unsupported_field(on_unsupported, FORMAT, f"{path}.{field}", what)
    return {TYPE: kind, "Text": text}


def _write_binary(
    item: BinaryContent, hints: dict[str, Any], path: str, on_unsupported: OnUnsupported | None
) -> dict[str, Any]:
    """A binary item by ``Uri`` or ``Data``, or a ``FileReferenceContent`` by file id."""
    if isinstance(item, ImageContent) and item.detail is not None:
        unsupported_field(on_unsupported, FORMAT, f"{path}.detail", "an image's detail")
    if isinstance(item, FileContent) and item.filename is not None:
        unsupported_field(on_unsupported, FORMAT, f"{path}.filename", "a file's name")
    mime_type = _binary_mime_type(item, hints)
    if item.file_id is not None:
        out: dict[str, Any] = {TYPE: "FileReferenceContent", "FileId": item.file_id}
        if "Tools" in hints:
            out["Tools"] = hints["Tools"]
        if mime_type is not None:
            out["MimeType"] = mime_type
        _write_base(item, hints, out, mime=False)
        return out
    if isinstance(item, ImageContent):
        kind = "ImageContent"
    elif isinstance(item, AudioContent):
        kind = "AudioContent"
    else:
        kind = "BinaryContent"
    out = {TYPE: kind}
    uri = item.uri if item.uri is not None else hints.get("Uri", _python_uri(item))
    if uri is not None:
        out["Uri"] = uri
    if mime_type is not None:
        out["MimeType"] = mime_type
    _write_base(item, hints, out, mime=False)
    if item.base64 is not None:
        out["Data"] = item.base64
    return out


def _python_uri(item: BinaryContent) -> str | None:
    """The ``uri`` a Python Semantic Kernel item held beside its ``data_uri`` (.NET holds both)."""
    uri = get_hints(item, "sk_python").get("uri")
    return uri if isinstance(uri, str) else None


def _binary_mime_type(item: BinaryContent, hints: dict[str, Any]) -> str | None:
    """The ``MimeType`` to write: the one read when ours still holds what it was read as."""
    if "MimeType" in hints:
        raw = hints["MimeType"]
        read_as = hints["mime_type"] if "mime_type" in hints else mime_hint(raw)
        if item.mime_type == read_as:
            return raw  # type: ignore[no-any-return]
    return item.mime_type


def _write_call(item: FunctionCallContent, hints: dict[str, Any], path: str) -> dict[str, Any]:
    """A call; JSON text arguments are written as the object .NET's dictionary holds."""
    out: dict[str, Any] = {TYPE: "FunctionCallContent"}
    if item.id is not None:
        out["Id"] = item.id
    plugin, function = _split(item.name, item, hints)
    if plugin is not None:
        out["PluginName"] = plugin
    out["FunctionName"] = function
    arguments = item.arguments
    if isinstance(arguments, str):
        out["Arguments"] = parse_object_arguments(arguments, f"{path}.arguments")
    elif arguments is not None:
        out["Arguments"] = dict(arguments)
    if "Exception" in hints:
        out["Exception"] = hints["Exception"]
    return out


def _write_result(
    item: FunctionResultContent,
    hints: dict[str, Any],
    path: str,
    on_unsupported: OnUnsupported | None,
) -> dict[str, Any]:
    """A result: JSON as it is, a list of items as their objects; no error flag."""
    out: dict[str, Any] = {TYPE: "FunctionResultContent"}
    if item.call_id is not None:
        out["CallId"] = item.call_id
    if item.name is not None:
        plugin, function = _split(item.name, item, hints)
        if plugin is not None:
            out["PluginName"] = plugin
        out["FunctionName"] = function
    elif "PluginName" in hints:
        out["PluginName"] = hints["PluginName"]
    result = item.result
    if holds_items(result):
        out["Result"] = write_items(list(enumerate(result)), f"{path}.result", on_unsupported)
    elif result is not None:
        out["Result"] = result
    if item.is_error:
        unsupported_field(on_unsupported, FORMAT, f"{path}.is_error", "a result's error flag")
    return out


def _split(name: str, item: KernelContent, hints: dict[str, Any]) -> tuple[str | None, str]:
    """``PluginName`` and ``FunctionName`` of a name ours holds whole (``Plugin-Function``).

    The split is the one the name was read with, from .NET (``PluginName``; ``None`` marks a
    ``FunctionName`` never to be split) or from Python Semantic Kernel's ``plugin_name`` /
    ``function_name``, while the name is still the one it gives; otherwise the name is split
    at its first ``-``, as Semantic Kernel itself splits a fully qualified name.
    """
    if "PluginName" in hints:
        plugin = hints["PluginName"]
    else:
        python = peek_metadata(item).get("sk_python")
        names = python.get("names") if isinstance(python, dict) else None
        if not isinstance(names, dict) or given_name(names) != name:
            plugin, separator, function = name.partition("-")
            return (plugin, function) if separator and plugin and function else (None, name)
        plugin = names.get("plugin_name")
    if isinstance(plugin, str):
        if not plugin:
            return plugin, name
        if name.startswith(plugin + "-"):
            return plugin, name[len(plugin) + 1 :]
    return None, name


def _write_base(
    item: KernelContent, hints: dict[str, Any], out: dict[str, Any], *, mime: bool = True
) -> None:
    """Put ``MimeType`` (kept by the reader), ``ModelId``, ``Metadata`` and extra keys."""
    if mime and "MimeType" in hints:
        out["MimeType"] = hints["MimeType"]
    if "ModelId" in hints:
        out["ModelId"] = hints["ModelId"]
    _write_metadata(item, hints, out)
    _put_extra(hints, out)


def _write_metadata(
    owner: KernelContent | ChatMessageContent, hints: dict[str, Any], out: dict[str, Any]
) -> None:
    """``Metadata``: ours without any format's hints, with keys the reader kept in them."""
    metadata = {
        key: value for key, value in peek_metadata(owner).items() if key not in NOT_METADATA
    }
    kept = hints.get("Metadata")
    if isinstance(kept, dict):
        metadata.update(kept)
    if metadata or isinstance(kept, dict):
        out["Metadata"] = metadata


def _put_extra(hints: dict[str, Any], out: dict[str, Any]) -> None:
    """Put back keys .NET does not declare (and ``null`` ones), where no field took their place."""
    extra = hints.get("extra")
    if isinstance(extra, dict):
        for key, value in extra.items():
            out.setdefault(key, value)
