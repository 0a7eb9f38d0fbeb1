"""Read .NET Semantic Kernel's ``ChatHistory`` JSON into a `ChatHistory`.

Each message object becomes a `ChatMessageContent` and each item of its ``Items`` the item of
its ``$type``. What our model has no field for (an item's ``ModelId``, a ``MimeType`` on a
text, a ``PluginName``, ``Tools``, a ``Role`` label's spelling, keys .NET does not declare) is
kept in ``metadata["sk_dotnet"]`` so that the writer gives the same JSON back.
"""

from __future__ import annotations

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
from ...errors import FormatError, InvalidValueError, SemanticChatError, describe_type
from ...history import ChatHistory
from ...media import check_base64
from ...message import ChatMessageContent
from .. import documents
from ..wire import require, set_hints
from .shared import DISCRIMINATORS, HINTS, NOT_METADATA, TYPE, codecs, mime_hint

__all__ = ["from_payload", "read_item", "read_items", "read_message"]

_BASE = ("MimeType", "ModelId", "Metadata")
_MESSAGE_KEYS = frozenset((TYPE, "AuthorName", "Role", "Items", *_BASE))
_KEYS = {
    "TextContent": frozenset((TYPE, "Text", *_BASE)),
    "ReasoningContent": frozenset((TYPE, "Text", *_BASE)),
    "BinaryContent": frozenset((TYPE, "Uri", "Data", *_BASE)),
    "FileReferenceContent": frozenset((TYPE, "FileId", "Tools", *_BASE)),
    "FunctionCallContent": frozenset(
        (TYPE, "Id", "PluginName", "FunctionName", "Arguments", "Exception", *_BASE)
    ),
    "FunctionResultContent": frozenset(
        (TYPE, "CallId", "PluginName", "FunctionName", "Result", *_BASE)
    ),
}
_KEYS["ImageContent"] = _KEYS["AudioContent"] = _KEYS["BinaryContent"]
_ANNOTATION_KEYS = frozenset(
    (TYPE, "Kind", "Label", "ReferenceId", "Title", "StartIndex", "EndIndex", *_BASE)
)
_BINARY: dict[str, type[BinaryContent]] = {
    "ImageContent": ImageContent,
    "AudioContent": AudioContent,
    "BinaryContent": BinaryContent,
}
_OCTET = "application/octet-stream"


def from_payload(payload: Any) -> ChatHistory:
    """Read what .NET's ``JsonSerializer.Serialize(chatHistory)`` writes: an array of messages.

    Raises:
        FormatError: the payload is not an array of message objects, or a message or item
            breaks .NET's shape; the message names the place (``[2].Items[0].$type``).
    """
    if type(payload) is not list:
        expected = "a JSON array of ChatMessageContent objects"
        documents.refuse_own_document(payload, "", expected)
        raise FormatError.mismatch("", expected, describe_type(payload))
    return ChatHistory(
        [read_message(message, f"[{index}]") for index, message in enumerate(payload)]
    )


def read_message(message: Any, path: str) -> ChatMessageContent:
    """Read one ``ChatMessageContent`` object.

    Raises:
        FormatError: it is not an object, its ``Role`` is not ``{"Label": "<text>"}``, or a
            field or item holds something else; located under ``path``.
    """
    if type(message) is not dict:
        raise FormatError.mismatch(path, "a ChatMessageContent object", describe_type(message))
    hints: dict[str, Any] = {}
    kind = _optional(message, TYPE, str, path)
    if kind is not None:
        if kind != "ChatMessageContent":
            raise FormatError(f"expected 'ChatMessageContent', got {kind!r}", path=f"{path}.$type")
        hints[TYPE] = kind
    role = _read_role(message, path, hints)
    items_value = message.get("Items")
    items: list[KernelContent] = []
    if "Items" not in message:
        hints["Items"] = False
    elif type(items_value) is not list:
        raise FormatError.mismatch(f"{path}.Items", "an array", describe_type(items_value))
    else:
        items = read_items(items_value, f"{path}.Items")
    name = _optional(message, "AuthorName", str, path)
    model_id = _optional(message, "ModelId", str, path)
    mime_type = _optional(message, "MimeType", str, path)
    if mime_type is not None:
        hints["MimeType"] = mime_type
    metadata = _read_metadata(message, path, hints)
    _keep_extra(message, _MESSAGE_KEYS, hints)
    try:
        read = ChatMessageContent(role, items=items, name=name, model_id=model_id)
    except SemanticChatError as error:  # a value our model refuses
        field = _MESSAGE_FIELDS.get(error.path, error.path)
        raise FormatError(error.detail, path=f"{path}.{field}") from None
    if metadata:
        read.metadata.update(metadata)
    set_hints(read, HINTS, hints)
    return read


def read_items(items: list[Any], path: str) -> list[KernelContent]:
    """Read an ``Items`` array; ``AnnotationContent`` right after a text is that text's citation.

    An annotation that follows anything else, or that .NET itself could not read back (a
    blank ``Label`` or ``ReferenceId``), is kept whole as `UnknownContent`, as is every
    annotation when a plugin decoder is registered for ``AnnotationContent``.

    Raises:
        FormatError: an item breaks .NET's shape; located under ``path`` (``[0].Items[2]``).
    """
    read: list[KernelContent] = []
    text: TextContent | None = None  # the text the annotations that follow belong to
    annotations = "AnnotationContent" not in codecs.decoders
    for index, item in enumerate(items):
        where = f"{path}[{index}]"
        if text is not None and annotations and _is_annotation(item):
            text.citations = [*text.citations, _read_annotation(item, where)]
            continue
        one = read_item(item, where)
        read.append(one)
        text = one if type(one) is TextContent else None
    return read


def _is_annotation(item: Any) -> bool:
    """Whether ``item`` is an ``AnnotationContent`` .NET reads back (a citation of ours)."""
    if type(item) is not dict or item.get(TYPE) != "AnnotationContent":
        return False
    kind, label, reference = item.get("Kind"), item.get("Label"), item.get("ReferenceId")
    return (
        type(kind) is dict
        and type(kind.get("Label")) is str
        and bool(kind["Label"].strip())
        and type(label) is str
        and bool(label.strip())
        and type(reference) is str
        and bool(reference.strip())
        and all(type(item.get(key)) in (int, type(None)) for key in ("StartIndex", "EndIndex"))
        and all(type(item.get(key)) in (str, type(None)) for key in ("Title", "ModelId"))
        and type(item.get("MimeType")) in (str, type(None))
        and type(item.get("Metadata")) in (dict, type(None))
    )


def _read_annotation(item: dict[str, Any], path: str) -> Citation:
    """An ``AnnotationContent`` as a `Citation` of the text before it.

    ``Label`` is the cited text, ``ReferenceId`` the url (a ``urlcitation``) or the file id
    (the other kinds), ``StartIndex`` and ``EndIndex`` its span of the text.
    """
    hints: dict[str, Any] = {}
    kind = item["Kind"]
    url = kind["Label"].lower() == "urlcitation"
    if kind != {"Label": "urlcitation" if url else "filecitation"}:
        hints["Kind"] = dict(kind)
    for key in ("ModelId", "MimeType"):
        if item.get(key) is not None:
            hints[key] = item[key]
    metadata = _read_metadata(item, path, hints)
    _keep_extra(item, _ANNOTATION_KEYS, hints)
    if hints:
        metadata[HINTS] = hints
    reference = item["ReferenceId"]
    return Citation(
        cited_text=item["Label"],
        title=item.get("Title"),
        url=reference if url else None,
        file_id=None if url else reference,
        text_start=item.get("StartIndex"),
        text_end=item.get("EndIndex"),
        metadata=metadata,
    )


def read_item(item: Any, path: str) -> KernelContent:
    """Read one item of ``Items`` (or of a function result's ``Result`` array) by its ``$type``.

    A ``$type`` this format does not read itself (``ActionContent``, ``AnnotationContent``,
    ``ChatMessageContent``, newer ones) is read by a plugin decoder registered for it, or kept
    whole as `UnknownContent`.

    Raises:
        FormatError: it is not an object, has no ``$type``, or a field holds something else.
    """
    if type(item) is not dict:
        raise FormatError.mismatch(path, "a KernelContent object", describe_type(item))
    if TYPE not in item:
        raise FormatError("missing '$type' (the item's content type)", path=f"{path}.$type")
    kind = item[TYPE]
    if type(kind) is not str:
        raise FormatError.mismatch(f"{path}.$type", "a str", describe_type(kind))
    decoded = codecs.decode(item, path)
    if decoded is not None:
        return decoded
    reader = _READERS.get(kind)
    if reader is None or (
        kind in _BINARY and item.get("Uri") is None and item.get("Data") is None
    ):
        # A newer kind, or bytes with no source (.NET allows it; ours does not): kept whole.
        return _unknown(item, kind, path)
    hints: dict[str, Any] = {}
    try:
        read = reader(item, path, hints)
    except FormatError:
        raise
    except SemanticChatError as error:  # a value our model refuses (a blank name ...)
        raise FormatError(error.detail, path=f"{path}.{_dotnet_field(error.path)}") from None
    model_id = _optional(item, "ModelId", str, path)
    if model_id is not None:
        hints["ModelId"] = model_id
    metadata = _read_metadata(item, path, hints)
    _keep_extra(item, _KEYS[kind], hints)
    if metadata:
        read.metadata.update(metadata)
    set_hints(read, HINTS, hints)
    return read


def _read_text(item: dict[str, Any], path: str, hints: dict[str, Any]) -> KernelContent:
    """A ``TextContent`` or ``ReasoningContent``; ``"Text": null`` reads as ``""``, marked."""
    text = _optional(item, "Text", str, path)
    if text is None:
        hints["Text"] = None
    _keep_mime_type(item, path, hints)
    cls = TextContent if item[TYPE] == "TextContent" else ReasoningContent
    return cls(text=text or "")


def _read_binary(item: dict[str, Any], path: str, hints: dict[str, Any]) -> KernelContent:
    """An image, audio or binary item: its ``Data`` is the source when it has both."""
    cls = _BINARY[item[TYPE]]
    uri = _optional(item, "Uri", str, path)
    data = _optional(item, "Data", str, path)
    raw = _optional(item, "MimeType", str, path)
    mime_type = mime_hint(raw)
    if uri is not None and uri[:5].lower() == "data:":
        detail = "a data URI cannot be a Uri (.NET keeps bytes in Data)"
        raise FormatError(detail, path=f"{path}.Uri")
    if data is None:  # a Uri (read_item keeps an item with neither whole)
        if raw is not None and mime_type != raw:
            hints["MimeType"] = raw
        return cls(uri=uri, mime_type=mime_type)
    if uri is not None:
        hints["Uri"] = uri  # .NET keeps both; ours keeps the bytes, the Uri goes back from here
    try:
        check_base64(data)
    except ValueError as error:
        raise FormatError(str(error), path=f"{path}.Data") from None
    if mime_type is None:
        try:
            read = cls.from_base64(data)
        except InvalidValueError:  # no media type we can sniff: bytes of no known kind
            read = cls.from_base64(data, mime_type=_OCTET)
        hints["MimeType"] = raw
        hints["mime_type"] = read.mime_type
        return read
    if mime_type != raw:
        hints["MimeType"] = raw
    return cls.from_base64(data, mime_type=mime_type)


def _read_file_reference(item: dict[str, Any], path: str, hints: dict[str, Any]) -> KernelContent:
    """A ``FileReferenceContent`` as a `FileContent` by file id."""
    file_id = require(item, "FileId", str, path)
    tools = _optional(item, "Tools", list, path)
    if tools is not None:
        for index, tool in enumerate(tools):
            if type(tool) is not str:
                raise FormatError.mismatch(f"{path}.Tools[{index}]", "a str", describe_type(tool))
        hints["Tools"] = list(tools)
    raw = _optional(item, "MimeType", str, path)
    mime_type = mime_hint(raw)
    if raw is not None and mime_type != raw:
        hints["MimeType"] = raw
    return FileContent(file_id=file_id, mime_type=mime_type)


def _read_call(item: dict[str, Any], path: str, hints: dict[str, Any]) -> KernelContent:
    """A ``FunctionCallContent``: the ``Arguments`` dictionary is our arguments mapping."""
    function = require(item, "FunctionName", str, path)
    call_id = _optional(item, "Id", str, path)
    arguments = _optional(item, "Arguments", dict, path)
    exception = item.get("Exception")
    if exception is not None:
        hints["Exception"] = exception
    _keep_mime_type(item, path, hints)
    name = _qualified(item, function, path, hints)
    return FunctionCallContent(id=call_id, name=name, arguments=arguments)


def _read_result(item: dict[str, Any], path: str, hints: dict[str, Any]) -> KernelContent:
    """A ``FunctionResultContent``; its ``FunctionName`` is optional, unlike a call's."""
    call_id = _optional(item, "CallId", str, path)
    function = _optional(item, "FunctionName", str, path)
    _keep_mime_type(item, path, hints)
    if function is None:
        plugin = _optional(item, "PluginName", str, path)
        if plugin is not None:
            hints["PluginName"] = plugin
        name = None
    else:
        name = _qualified(item, function, path, hints)
    return FunctionResultContent(call_id=call_id, result=_read_result_value(item, path), name=name)


def _read_result_value(item: dict[str, Any], path: str) -> Any:
    """A ``Result``: JSON as it is; an array of ``$type`` objects (a list of items) as items."""
    result = item.get("Result")
    if (
        type(result) is list
        and result
        and all(type(element) is dict and element.get(TYPE) in DISCRIMINATORS for element in result)
    ):
        try:
            return read_items(result, f"{path}.Result")
        except FormatError:
            return result  # JSON that only looks like items: kept as the JSON it is
    return result


def _qualified(item: dict[str, Any], function: str, path: str, hints: dict[str, Any]) -> str:
    """The name ours holds: ``Plugin-Function`` (as Semantic Kernel spells it) or the function's.

    A function name with a ``-`` and no plugin is marked, for the writer not to split it.
    """
    plugin = _optional(item, "PluginName", str, path)
    if plugin is None:
        if "-" in function:
            hints["PluginName"] = None
        return function
    hints["PluginName"] = plugin
    return f"{plugin}-{function}" if plugin else function


def _unknown(item: dict[str, Any], kind: str, path: str) -> KernelContent:
    """An item ours has no class for (``ActionContent`` ...), kept whole."""
    fields = {key: value for key, value in item.items() if key != TYPE}
    try:
        read = UnknownContent(type=kind, fields=fields)
    except SemanticChatError as error:
        raise FormatError(error.detail, path=path) from None
    if kind not in DISCRIMINATORS:
        read.metadata[HINTS] = {"read": True}  # a newer .NET kind: written back as it came
    return read


def _keep_mime_type(item: dict[str, Any], path: str, hints: dict[str, Any]) -> None:
    """Keep the ``MimeType`` of an item whose class in ours has none."""
    mime_type = _optional(item, "MimeType", str, path)
    if mime_type is not None:
        hints["MimeType"] = mime_type


def _read_role(message: dict[str, Any], path: str, hints: dict[str, Any]) -> str:
    """The label of ``{"Label": ...}``; another case or other keys are kept in the hints."""
    if "Role" not in message:
        raise FormatError("missing 'Role'", path=path)
    role = message["Role"]
    if type(role) is not dict:
        raise FormatError.mismatch(f"{path}.Role", 'an object {"Label": ...}', describe_type(role))
    label = role.get("Label")
    if type(label) is not str:
        raise FormatError.mismatch(f"{path}.Role.Label", "a str", describe_type(label))
    if not label.strip():
        raise FormatError("a role label must not be blank", path=f"{path}.Role.Label")
    if label != label.lower() or len(role) != 1:
        hints["Role"] = dict(role)
    return label


def _read_metadata(owner: dict[str, Any], path: str, hints: dict[str, Any]) -> dict[str, Any]:
    """``Metadata`` as ours holds it; keys that are a format's hints go to the hints instead."""
    metadata = _optional(owner, "Metadata", dict, path)
    if metadata is None:
        return {}
    kept = {key: value for key, value in metadata.items() if key in NOT_METADATA}
    if kept or not metadata:
        hints["Metadata"] = kept
    return {key: value for key, value in metadata.items() if key not in NOT_METADATA}


def _keep_extra(owner: dict[str, Any], known: frozenset[str], hints: dict[str, Any]) -> None:
    """Keep keys .NET does not declare, and declared ones given as ``null`` (it omits those)."""
    extra = {
        key: value
        for key, value in owner.items()
        if key not in known or (value is None and key not in ("Text", "Result"))
    }
    if "Result" in owner and owner["Result"] is None:
        extra["Result"] = None
    if extra:
        hints["extra"] = extra


def _optional(owner: dict[str, Any], key: str, kind: type, path: str) -> Any:
    """``owner[key]`` checked to be a ``kind``, or ``None`` when it is missing or ``null``."""
    value = owner.get(key)
    if value is not None and type(value) is not kind:
        names: dict[type, str] = {str: "a str", dict: "an object", list: "an array"}
        expected = names.get(kind, kind.__name__)
        raise FormatError.mismatch(f"{path}.{key}", expected, describe_type(value))
    return value


_FIELDS = {
    "mime_type": "MimeType",
    "uri": "Uri",
    "data": "Data",
    "name": "FunctionName",
    "id": "Id",
    "call_id": "CallId",
    "arguments": "Arguments",
    "result": "Result",
    "file_id": "FileId",
    "text": "Text",
}
_MESSAGE_FIELDS = {"name": "AuthorName", "model_id": "ModelId", "role": "Role.Label"}


def _dotnet_field(field: str) -> str:
    """The .NET name of a field ours named in an error (``mime_type`` -> ``MimeType``)."""
    head, dot, rest = field.partition(".")
    return _FIELDS.get(head, head) + dot + rest


_READERS = {
    "TextContent": _read_text,
    "ReasoningContent": _read_text,
    "ImageContent": _read_binary,
    "AudioContent": _read_binary,
    "BinaryContent": _read_binary,
    "FileReferenceContent": _read_file_reference,
    "FunctionCallContent": _read_call,
    "FunctionResultContent": _read_result,
}
