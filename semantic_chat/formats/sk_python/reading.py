"""Reading Semantic Kernel's Python JSON (``ChatHistory.serialize()``) into a history.

Every field the model has no place for is kept under ``metadata["sk_python"]`` of its
message, item or citation, so that `semantic_chat.formats.sk_python.to_payload` writes the
input back. A result Semantic Kernel wrote as the Python repr of a dict or list is read back
as that dict or list (`shared.literal_result`).
"""

from __future__ import annotations

import json
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
from ...errors import FormatError, SemanticChatError, describe_type
from ...history import ChatHistory
from ...labels import FinishReason
from ...message import ChatMessageContent
from .. import documents
from .shared import (
    CONTENT_TYPES,
    HINTS,
    OWN_HINTS,
    ROLES,
    data_uri_parameters,
    literal_result,
    names_of,
    usage_from_metadata,
)

__all__ = ["from_payload"]

_MESSAGE_KEYS = frozenset((
    "ai_model_id", "metadata", "content_type", "role", "name", "items", "encoding",
    "finish_reason", "status",
))
_CONTENT_KEYS = _MESSAGE_KEYS | {"content"}
"""A message's keys when its ``content`` was read as a text item (`_read_content`)."""
_BINARY_CLASSES: dict[str, type[BinaryContent]] = {
    "image": ImageContent,
    "audio": AudioContent,
    "binary": BinaryContent,
}
_ITEM_KEYS: dict[str, frozenset[str]] = {
    "text": frozenset(("text", "encoding")),
    "image": frozenset(("uri", "data_uri")),
    "audio": frozenset(("uri", "data_uri")),
    "binary": frozenset(("uri", "data_uri")),
    "file_reference": frozenset(("file_id", "tools", "data_source")),
    "function_call": frozenset((
        "id", "call_id", "index", "name", "function_name", "plugin_name", "arguments"
    )),
    "function_result": frozenset((
        "id", "call_id", "result", "name", "function_name", "plugin_name", "encoding"
    )),
    "reasoning": frozenset(("text",)),
    "annotation": frozenset((
        "file_id", "quote", "start_index", "end_index", "url", "title", "citation_type",
        "container_id", "filename",
    )),
}
_COMMON_KEYS = frozenset(("ai_model_id", "metadata", "content_type"))


def from_payload(payload: Any) -> ChatHistory:
    """Read what Semantic Kernel's ``ChatHistory.serialize()`` writes, parsed: ``{"messages"}``.

    Also a Semantic Kernel ``ChatHistory`` itself (anything with ``serialize()`` or a pydantic
    ``model_dump``), read as the JSON it serializes to. Every content kind is read: text,
    image, audio and binary (a data URI, a ``uri``, or both), file references as files by id,
    function calls and results, reasoning, annotations as the citations of the text before
    them; streaming kinds as the plain kind with a hint; a message's ``content`` text as the
    text item Semantic Kernel appends after its items. A ``system_message`` (which Semantic
    Kernel's constructor takes) is a leading system message, as Semantic Kernel reads it.

    Raises:
        FormatError: the payload is not such a document; the message names the place
            (``messages[3].items[0].data_uri``).
    """
    payload = _plain(payload)
    if type(payload) is not dict:
        raise FormatError.mismatch(
            "", "a Semantic Kernel history ({'messages': [...]})", describe_type(payload)
        )
    documents.refuse_own_document(
        payload, "", "a Semantic Kernel history ({'messages': [...]})"
    )
    messages = payload.get("messages", [])
    if type(messages) is not list:
        raise FormatError.mismatch("messages", "a list", describe_type(messages))
    history = ChatHistory()
    system = payload.get("system_message")
    if system is not None:  # Semantic Kernel reads it as a leading system message
        if type(system) is not str:
            raise FormatError.mismatch("system_message", "a str", describe_type(system))
        history.append(ChatMessageContent("system", system))
    for index, message in enumerate(messages):
        history.append(_read_message(message, f"messages[{index}]"))
    return history


def _plain(payload: Any) -> Any:
    """A Semantic Kernel object as the JSON it serializes to; JSON values pass through."""
    if isinstance(payload, (dict, list, str)) or payload is None:
        return payload
    serialize = getattr(payload, "serialize", None)
    if callable(serialize):
        text = serialize()
        if isinstance(text, str):
            return json.loads(text)
    dump = getattr(payload, "model_dump", None)
    if callable(dump):
        return dump(mode="json", exclude_none=True)
    return payload


def _read_message(message: Any, path: str) -> ChatMessageContent:
    """Read one ``ChatMessageContent`` dict."""
    if type(message) is not dict:
        raise FormatError.mismatch(path, "a message object", describe_type(message))
    kind = message.get("content_type", "message")
    if kind != "message":
        raise FormatError.mismatch(f"{path}.content_type", "'message'", repr(kind))
    role = _text(message, "role", path, required=True)
    if role not in ROLES:
        raise FormatError.mismatch(f"{path}.role", f"one of {', '.join(sorted(ROLES))}", repr(role))
    items_value = message.get("items", [])
    if type(items_value) is not list:
        raise FormatError.mismatch(f"{path}.items", "a list", describe_type(items_value))
    hints: dict[str, Any] = {}
    for key in ("encoding", "status"):
        value = _text(message, key, path)
        if value is not None:
            hints[key] = value
    if "items" not in message:
        hints["no_items"] = True
    finish = _text(message, "finish_reason", path)
    name = _text(message, "name", path)  # located here: not again under the message's path
    model_id = _text(message, "ai_model_id", path)
    items = _read_items(items_value, f"{path}.items")
    content = _read_content(message, path)
    if content is not None:
        items.append(content)
    try:
        read = ChatMessageContent(
            role,
            items=items,
            name=name,
            model_id=model_id,
            finish_reason=FinishReason(finish) if finish is not None else None,
        )
    except SemanticChatError as error:
        raise FormatError(error.detail, path=error.at(path).path) from None
    _read_metadata(message, read, hints, path)
    usage = usage_from_metadata(read.metadata.get("usage"))
    if usage is not None:  # as Semantic Kernel's connectors keep it
        del read.metadata["usage"]
        read.usage = usage
    known = _MESSAGE_KEYS if content is None else _CONTENT_KEYS
    extra = {key: value for key, value in message.items() if key not in known}
    if extra:
        hints["extra"] = extra
    if hints:
        read.metadata[HINTS] = hints
    return read


def _read_content(message: dict[str, Any], path: str) -> TextContent | None:
    """A message's ``content`` text as the text item Semantic Kernel makes of it, or ``None``.

    Semantic Kernel's ``ChatMessageContent`` appends it after the ``items``, with the
    message's ``ai_model_id``, ``metadata`` and ``encoding``; an empty one is no item (and
    stays in the message's hints, to be written back). Marked ``{"content": true}``, so that
    the writer gives the key back while the item is still what it gives.
    """
    text = _text(message, "content", path)
    if not text:
        return None
    item = TextContent(text)
    hints: dict[str, Any] = {"content": True}
    _read_metadata(message, item, hints, path)
    hints.pop("no_metadata", None)  # Semantic Kernel gives the item metadata, {} at least
    encoding = message.get("encoding")  # checked to be a str by the message's reader
    if encoding is not None:
        hints["encoding"] = encoding
    item.metadata[HINTS] = hints
    return item


def _read_items(parts: list[Any], path: str) -> list[KernelContent]:
    """Read a message's items; annotations become citations of the text item before them."""
    items: list[KernelContent] = []
    anchor: TextContent | None = None  # the text item the parts just read belong to
    for index, part in enumerate(parts):
        where = f"{path}[{index}]"
        if type(part) is not dict:
            raise FormatError.mismatch(where, "an item object", describe_type(part))
        kind = part.get("content_type")
        if type(kind) is not str:
            raise FormatError.mismatch(f"{where}.content_type", "a str", describe_type(kind))
        base = kind.removeprefix("streaming_")
        if base == "annotation" and kind in CONTENT_TYPES:
            text = next((item for item in reversed(items) if type(item) is TextContent), None)
            if text is not None:
                # Where it stood is kept only when it was not right after its text.
                position = None if text is anchor else index
                citation = _read_annotation(part, where, position, kind != base)
                text.citations = (*text.citations, citation)
                continue
        item = _read_item(part, kind, where)
        items.append(item)
        anchor = item if type(item) is TextContent else None
    return items


def _read_item(part: dict[str, Any], kind: str, path: str) -> KernelContent:
    """Read one item of a known kind (or keep an unknown one whole)."""
    hints: dict[str, Any] = {}
    base = kind.removeprefix("streaming_")
    item: KernelContent
    if kind not in CONTENT_TYPES or base == "annotation":
        # A kind Semantic Kernel does not have, or an annotation with no text before it:
        # kept whole, its metadata as the item's.
        fields = {key: value for key, value in part.items() if key not in _COMMON_KEYS}
        try:
            item = UnknownContent(kind, fields)
        except SemanticChatError as error:
            raise FormatError(error.detail, path=error.at(path).path) from None
        hints["unknown"] = True
    else:
        if base != kind:
            hints["streaming"] = True
        try:
            item = _READERS[base](part, path, hints)
        except SemanticChatError as error:
            if isinstance(error, FormatError):
                raise
            raise FormatError(error.detail, path=error.at(path).path) from None
        extra = {
            key: value
            for key, value in part.items()
            if key not in _COMMON_KEYS and key not in _ITEM_KEYS[base]
        }
        if extra:
            hints["extra"] = extra
    _read_metadata(part, item, hints, path)
    if hints:
        item.metadata[HINTS] = hints
    return item


def _read_metadata(
    part: dict[str, Any], owner: KernelContent | ChatMessageContent, hints: dict[str, Any],
    path: str,
) -> None:
    """Copy ``metadata`` and ``ai_model_id`` of an item or message to ours and its hints."""
    metadata = part.get("metadata", {})
    if type(metadata) is not dict:
        raise FormatError.mismatch(f"{path}.metadata", "an object", describe_type(metadata))
    if "metadata" not in part:
        hints["no_metadata"] = True
    clashing = {key: value for key, value in metadata.items() if key in OWN_HINTS}
    if clashing:
        hints["metadata"] = clashing
    for key, value in metadata.items():
        if key not in OWN_HINTS:
            try:
                owner.metadata[key] = value
            except SemanticChatError as error:
                where = f"{path}.metadata[{json.dumps(key, ensure_ascii=False)}]"
                raise FormatError(error.detail, path=where) from None
    if isinstance(owner, KernelContent):
        model = _text(part, "ai_model_id", path)
        if model is not None:
            hints["ai_model_id"] = model


def _read_text(part: dict[str, Any], path: str, hints: dict[str, Any]) -> KernelContent:
    encoding = _text(part, "encoding", path)
    if encoding is not None:
        hints["encoding"] = encoding
    return TextContent(_text(part, "text", path, required=True))


def _read_binary(part: dict[str, Any], path: str, hints: dict[str, Any]) -> KernelContent:
    cls = _BINARY_CLASSES[part["content_type"]]
    uri = _text(part, "uri", path)
    data_uri = _text(part, "data_uri", path)
    if "data_uri" not in part:
        hints["no_data_uri"] = True
    if not data_uri:
        if uri is None:
            raise FormatError("neither a uri nor a data_uri", path=path)
        return cls(uri=uri)
    if uri is not None:
        hints["uri"] = uri
    where = f"{path}.data_uri"
    header, comma, payload = data_uri.rpartition(",")  # as Semantic Kernel splits it
    if not comma or not header.startswith("data:"):
        raise FormatError(f"not a data URI: {data_uri[:40]!r}", path=where)
    parts = header[5:].split(";")
    mime_type = parts[0] or "text/plain"
    data_format = parts[-1] if len(parts) > 1 else ""
    metadata = part.get("metadata")
    rendered = "data:" + mime_type + data_uri_parameters(
        metadata if type(metadata) is dict else {}
    ) + ";" + data_format
    if rendered != header:
        hints["header"] = header
    try:
        if data_format.lower() == "base64":
            return cls.from_base64(payload, mime_type=mime_type)
        hints["data_format"] = data_format
        return cls(data=payload.encode("utf-8"), mime_type=mime_type)
    except SemanticChatError as error:
        raise FormatError(error.detail, path=where) from None


def _read_file_reference(part: dict[str, Any], path: str, hints: dict[str, Any]) -> KernelContent:
    file_id = _text(part, "file_id", path, required=True)
    tools = part.get("tools", [])
    if tools != []:
        hints["tools"] = tools
    if "tools" not in part:
        hints["no_tools"] = True
    if part.get("data_source") is not None:
        hints["data_source"] = part["data_source"]
    return FileContent(file_id=file_id)


def _read_call(part: dict[str, Any], path: str, hints: dict[str, Any]) -> KernelContent:
    name = _read_names(part, path, hints)
    if name is None:
        raise FormatError("missing 'name' and 'function_name'", path=path)
    call_id = _text(part, "call_id", path)
    if call_id is not None:
        hints["call_id"] = call_id
    index = part.get("index")
    if index is not None and type(index) is not int:
        raise FormatError.mismatch(f"{path}.index", "an int", describe_type(index))
    arguments = part.get("arguments")
    if arguments is not None and type(arguments) not in (str, dict):
        raise FormatError.mismatch(
            f"{path}.arguments", "a str or an object", describe_type(arguments)
        )
    return FunctionCallContent(_text(part, "id", path), name, arguments, index=index)


def _read_result(part: dict[str, Any], path: str, hints: dict[str, Any]) -> KernelContent:
    name = _read_names(part, path, hints, result=True)
    for key in ("call_id", "encoding"):
        value = _text(part, key, path)
        if value is not None:
            hints[key] = value
    result = part.get("result")
    if type(result) is str:
        repaired = literal_result(result)
        if repaired is not None:
            hints["result"] = "repr"
            result = repaired
    return FunctionResultContent(_text(part, "id", path), result, name=name)


def _read_reasoning(part: dict[str, Any], path: str, hints: dict[str, Any]) -> KernelContent:
    text = _text(part, "text", path)
    if text is None:
        hints["no_text"] = True
    return ReasoningContent(text or "")


def _read_names(
    part: dict[str, Any], path: str, hints: dict[str, Any], *, result: bool = False
) -> str | None:
    """A call's or result's name: ``name``, else ``plugin_name-function_name``.

    The three fields are kept in the hints when they are not what the name gives.
    """
    given = {key: _text(part, key, path) for key in ("name", "function_name", "plugin_name")}
    name: str | None = given["name"]
    function, plugin = given["function_name"], given["plugin_name"]
    if name is None and function:
        name = f"{plugin}-{function}" if plugin else function
    present = {key: value for key, value in given.items() if value is not None}
    if present != names_of(name, result=result):
        hints["names"] = present
    return name


def _read_annotation(
    part: dict[str, Any], path: str, position: int | None, streaming: bool
) -> Citation:
    """An annotation as a citation; what a citation has no field for goes to its hints."""
    hints: dict[str, Any] = {}
    if position is not None:
        hints["position"] = position
    if streaming:
        hints["streaming"] = True
    numbers = {}
    for key in ("start_index", "end_index"):
        value = part.get(key)
        if value is not None and type(value) is not int:
            raise FormatError.mismatch(f"{path}.{key}", "an int", describe_type(value))
        numbers[key] = value
    for key in ("citation_type", "container_id", "ai_model_id"):
        value = _text(part, key, path)
        if value is not None:
            hints[key] = value
    metadata = part.get("metadata", {})
    if type(metadata) is not dict:
        raise FormatError.mismatch(f"{path}.metadata", "an object", describe_type(metadata))
    if metadata:
        hints["metadata"] = metadata
    if "metadata" not in part:
        hints["no_metadata"] = True
    known = _ITEM_KEYS["annotation"] | _COMMON_KEYS
    extra = {key: value for key, value in part.items() if key not in known}
    if extra:
        hints["extra"] = extra
    try:
        return Citation(
            cited_text=_text(part, "quote", path),
            title=_text(part, "title", path),
            url=_text(part, "url", path),
            file_id=_text(part, "file_id", path),
            filename=_text(part, "filename", path),
            text_start=numbers["start_index"],
            text_end=numbers["end_index"],
            metadata={HINTS: hints} if hints else {},
        )
    except SemanticChatError as error:
        raise FormatError(error.detail, path=error.at(path).path) from None


def _text(part: dict[str, Any], key: str, path: str, *, required: bool = False) -> Any:
    """``part[key]`` checked to be a ``str`` (or missing, or ``null``, unless ``required``).

    Raises:
        FormatError: it is something else; the message names ``path.key``.
    """
    value = part.get(key)
    if value is None:
        if required:
            raise FormatError(f"missing {key!r}", path=path)
        return None
    if type(value) is not str:
        raise FormatError.mismatch(f"{path}.{key}", "a str", describe_type(value))
    return value


_READERS = {
    "text": _read_text,
    "image": _read_binary,
    "audio": _read_binary,
    "binary": _read_binary,
    "file_reference": _read_file_reference,
    "function_call": _read_call,
    "function_result": _read_result,
    "reasoning": _read_reasoning,
}
