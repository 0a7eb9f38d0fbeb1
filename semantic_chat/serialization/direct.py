"""Direct readers and writers for the built-in classes in their common shapes.

The cattrs-generated hooks stay the general path: they read every class, plugins included,
and locate every error. These functions read the shapes that make up most histories (a
message with plain fields, a text item, a function call) without going through them, and
hand anything else to the general path, which reads it or reports what is wrong with it;
the writers write exactly what the generated writers would. Objects are made with the
`semantic_chat.trusted` constructors. Property tests check that both paths give equal
objects and identical JSON.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..contents import (
    AudioContent,
    BinaryContent,
    FileContent,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    KernelContent,
    TextContent,
)
from ..jsoncodec import json_value
from ..labels import PLAIN_TEXT, AuthorRole, FinishReason
from ..media import check_base64, encode_base64, normalize_mime_type
from ..message import ChatMessageContent
from ..trusted import (
    new_binary,
    new_call,
    new_message,
    new_result,
    new_text,
    new_text_message,
)
from .fields import write_json_object

__all__ = ["DIRECT_READERS", "DIRECT_WRITERS", "message_reader", "message_writer"]

_MESSAGE_KEYS = frozenset(
    ("role", "items", "name", "id", "finish_reason", "model_id", "metadata")
)
_CALL_KEYS = frozenset(("type", "id", "name", "arguments", "index"))
_RESULT_KEYS = frozenset(("type", "call_id", "result", "name", "is_error"))
_ROLES: dict[str, AuthorRole] = AuthorRole._interned  # type: ignore[assignment]
_FINISH_REASONS: dict[str, FinishReason] = FinishReason._interned  # type: ignore[assignment]


def message_reader(
    readers: dict[str, Callable[[dict[str, Any]], Any]],
    inline_text: bool,
    general: Callable[[Any], ChatMessageContent],
) -> Callable[[Any], ChatMessageContent]:
    """Make a reader of messages that reads plain ones directly and the rest with ``general``.

    With ``inline_text`` (``"text"`` is `TextContent`'s label in the registry), a lone
    ``{"type": "text", "text": ...}`` item is read in place, the commonest case.

    A plain message is a dict with a well-known role, no usage and no ``message_type``, whose
    item labels are all in ``readers`` (the label cache of the hooks, read at each call).
    Anything else, and anything it cannot read (a field of the wrong type), goes to
    ``general``, which reads it or raises the error.
    """

    def read(data: Any) -> ChatMessageContent:
        if type(data) is not dict:
            return general(data)
        try:
            role = _ROLES[data["role"]]
            raw_items = data.get("items")
            # A plain list: the message makes it its checked collection on first use.
            collection: list[KernelContent]
            item: KernelContent
            if type(raw_items) is list:
                if len(raw_items) == 1:  # most messages hold one item: no comprehension
                    element = raw_items[0]
                    kind = element["type"]
                    if inline_text and kind == "text" and len(element) == 2:
                        text = element["text"]
                        if type(text) is not str:
                            return general(data)
                        if len(data) == 2:  # the commonest message: a role and one text
                            return new_text_message(role, text)
                        item = new_text(text)
                    else:
                        item = readers[kind](element)
                    collection = [item]
                else:
                    collection = [readers[item["type"]](item) for item in raw_items]
                if len(data) == 2:
                    return new_message(role, collection)
            elif raw_items is None:
                collection = []
                if len(data) == 1:
                    return new_message(role, collection)
            else:
                return general(data)
            if not _MESSAGE_KEYS.issuperset(data):
                return general(data)
            name, message_id, model_id = data.get("name"), data.get("id"), data.get("model_id")
            if (
                (name is not None and type(name) is not str)
                or (message_id is not None and type(message_id) is not str)
                or (model_id is not None and type(model_id) is not str)
            ):
                return general(data)
            finish = data.get("finish_reason")
            finish_reason = None if finish is None else _FINISH_REASONS[finish]
            metadata = data.get("metadata")
            if metadata is not None:
                if type(metadata) is not dict:
                    return general(data)
                metadata = dict(metadata) if metadata else None
        except Exception:  # the general path reads it again and raises the error
            return general(data)
        return new_message(
            role, collection, name, message_id, finish_reason, model_id, metadata
        )

    return read


def text_reader(general: Callable[[Any], Any]) -> Callable[[dict[str, Any]], Any]:
    """Read ``{"type": "text", "text": ...}`` directly, any other shape with ``general``."""

    def read(data: dict[str, Any]) -> Any:
        text = data.get("text")
        if type(text) is not str or len(data) != 2:
            return general(data)
        return new_text(text)

    return read


def call_reader(general: Callable[[Any], Any]) -> Callable[[dict[str, Any]], Any]:
    """Read a function call without metadata directly, any other shape with ``general``."""

    def read(data: dict[str, Any]) -> Any:
        call_id, name, arguments = data.get("id"), data.get("name"), data.get("arguments")
        if (  # the commonest shape: a type, an id, a name and arguments text, nothing else
            len(data) == 4
            and type(call_id) is str
            and type(name) is str
            and type(arguments) is str
        ):
            return new_call(call_id, name, arguments, None)
        index = data.get("index")
        if (
            not _CALL_KEYS.issuperset(data)
            or type(name) is not str
            or (call_id is not None and type(call_id) is not str)
            or (arguments is not None and type(arguments) not in (str, dict))
            or (index is not None and type(index) is not int)
        ):
            return general(data)
        return new_call(call_id, name, arguments, index)

    return read


def result_reader(general: Callable[[Any], Any]) -> Callable[[dict[str, Any]], Any]:
    """Read a function result whose result is JSON, without metadata, directly."""

    def read(data: dict[str, Any]) -> Any:
        call_id, name = data.get("call_id"), data.get("name")
        if (  # the commonest shape: a type, a call id, a name and a result, nothing else
            len(data) == 4
            and type(call_id) is str
            and type(name) is str
            and "result" in data
        ):
            return new_result(call_id, data["result"], name, False)
        is_error = data.get("is_error")
        if (
            not _RESULT_KEYS.issuperset(data)
            or (call_id is not None and type(call_id) is not str)
            or (name is not None and type(name) is not str)
            or (is_error is not None and type(is_error) is not bool)
        ):
            return general(data)
        return new_result(call_id, data.get("result"), name, is_error is True)

    return read


def binary_reader(
    cls: type[BinaryContent], extra: str | None
) -> Callable[[Callable[[Any], Any]], Callable[[dict[str, Any]], Any]]:
    """Make the factory of a direct reader for ``cls``, whose own field (if any) is ``extra``.

    It reads base64 ``data`` with a ``mime_type``, or a ``uri`` that is not a ``data:`` URI,
    without metadata; every other shape, and every error, goes to the general reader.
    """
    keys = frozenset(("type", "data", "uri", "mime_type", *(() if extra is None else (extra,))))
    slot = None if extra is None else "_" + extra

    def factory(general: Callable[[Any], Any]) -> Callable[[dict[str, Any]], Any]:
        def read(data: dict[str, Any]) -> Any:
            payload, mime_type = data.get("data"), data.get("mime_type")
            if len(data) == 3 and type(payload) is str and type(mime_type) is str:
                try:  # the commonest shape: a type, base64 data and its media type
                    check_base64(payload)
                    mime_type = normalize_mime_type(mime_type)
                except ValueError:
                    return general(data)
                return new_binary(cls, payload, mime_type, None, slot, None)
            uri = data.get("uri")
            value = None if extra is None else data.get(extra)
            if not keys.issuperset(data) or (value is not None and type(value) is not str):
                return general(data)
            try:
                if type(payload) is str and uri is None and type(mime_type) is str:
                    check_base64(payload)
                elif payload is None and type(uri) is str and uri[:5].lower() != "data:":
                    if mime_type is not None and type(mime_type) is not str:
                        return general(data)
                else:
                    return general(data)
                if mime_type is not None:
                    mime_type = normalize_mime_type(mime_type)
            except ValueError:
                return general(data)
            # The built-in binary classes convert ``_data`` in __init__ only, so the base64
            # text is stored as it is (the undecoded form of the payload).
            return new_binary(cls, payload, mime_type, uri, slot, value)

        return read

    return factory


DIRECT_READERS: dict[type, Callable[[Callable[[Any], Any]], Callable[[dict[str, Any]], Any]]] = {
    TextContent: text_reader,
    FunctionCallContent: call_reader,
    FunctionResultContent: result_reader,
    BinaryContent: binary_reader(BinaryContent, None),
    ImageContent: binary_reader(ImageContent, "detail"),
    AudioContent: binary_reader(AudioContent, None),
    FileContent: binary_reader(FileContent, "filename"),
}
"""For each built-in class read directly, the factory wrapping its general reader."""


def text_writer(general: Callable[[Any], Any]) -> Callable[[Any], dict[str, Any]]:
    """Write a `TextContent` directly, as the generated writer would."""

    def write(item: TextContent) -> dict[str, Any]:
        text = item._text
        if type(text) is not str or item._citations:  # broken by hand, or citations to write
            return general(item)  # type: ignore[no-any-return]
        if item._metadata:
            metadata = write_json_object(item._metadata, "metadata")
            return {"type": "text", "text": text, "metadata": metadata}
        return {"type": "text", "text": text}

    return write


def call_writer(general: Callable[[Any], Any]) -> Callable[[Any], dict[str, Any]]:
    """Write a `FunctionCallContent` directly, as the generated writer would."""

    def write(item: FunctionCallContent) -> dict[str, Any]:
        call_id, arguments = item._id, item._arguments
        if (  # the commonest shape, written in one go
            type(call_id) is str
            and type(arguments) is str
            and item._index is None
            and not item._metadata
        ):
            name = item._name
            if type(name) is str:
                return {
                    "type": "function_call", "id": call_id, "name": name, "arguments": arguments
                }
        name, index = item._name, item._index
        if (  # broken by hand: the general path locates it
            (call_id is not None and type(call_id) is not str)
            or type(name) is not str
            or (index is not None and type(index) is not int)
            or (arguments is not None and type(arguments) not in (str, dict))
        ):
            return general(item)  # type: ignore[no-any-return]
        written: dict[str, Any] = {"type": "function_call"}
        if call_id is not None:
            written["id"] = call_id
        written["name"] = name
        if item._metadata:
            written["metadata"] = write_json_object(item._metadata, "metadata")
        if arguments is not None:
            written["arguments"] = (
                arguments if type(arguments) is str else json_value(arguments, "arguments")
            )
        if index is not None:
            written["index"] = index
        return written

    return write


def result_writer(general: Callable[[Any], Any]) -> Callable[[Any], dict[str, Any]]:
    """Write a `FunctionResultContent` with a JSON result directly; others with ``general``."""

    def write(item: FunctionResultContent) -> dict[str, Any]:
        result = item._result
        if type(result) is list and result and isinstance(result[0], KernelContent):
            return general(item)  # type: ignore[no-any-return]  # items: written as result_items
        call_id, name = item._call_id, item._name
        if (  # the commonest shape, written in one go
            type(call_id) is str
            and type(name) is str
            and type(result) is str
            and item._is_error is False
            and not item._metadata
        ):
            return {"type": "function_result", "call_id": call_id, "name": name, "result": result}
        is_error = item._is_error
        if (  # broken by hand: the general path locates it
            (call_id is not None and type(call_id) is not str)
            or (name is not None and type(name) is not str)
            or type(is_error) is not bool
        ):
            return general(item)  # type: ignore[no-any-return]
        written: dict[str, Any] = {"type": "function_result"}
        if call_id is not None:
            written["call_id"] = call_id
        if item._metadata:
            written["metadata"] = write_json_object(item._metadata, "metadata")
        if name is not None:
            written["name"] = name
        if is_error:
            written["is_error"] = True
        if result is not None:
            written["result"] = result if type(result) is str else json_value(result, "result")
        return written

    return write


def binary_writer(
    label: str, extra: str | None
) -> Callable[[Callable[[Any], Any]], Callable[[Any], dict[str, Any]]]:
    """Make the factory of a direct writer for a binary class, whose own field is ``extra``."""
    slot = None if extra is None else "_" + extra

    def factory(general: Callable[[Any], Any]) -> Callable[[Any], dict[str, Any]]:
        def write(item: BinaryContent) -> dict[str, Any]:
            written: dict[str, Any] = {"type": label}
            if item._metadata:
                written["metadata"] = write_json_object(item._metadata, "metadata")
            sources = 0
            payload: Any = item._data
            if payload is not None:
                kind = type(payload)
                if kind is str:
                    written["data"] = payload
                elif kind is bytes:
                    written["data"] = encode_base64(payload)
                else:
                    return general(item)  # type: ignore[no-any-return]  # it locates it
                sources = 1
            mime_type = item._mime_type
            if mime_type is not None:
                if type(mime_type) is not str:
                    return general(item)  # type: ignore[no-any-return]
                written["mime_type"] = mime_type
            uri = item._uri
            if uri is not None:
                if type(uri) is not str:
                    return general(item)  # type: ignore[no-any-return]
                written["uri"] = uri
                sources += 1
            file_id = item._file_id
            if file_id is not None:
                if type(file_id) is not str:
                    return general(item)  # type: ignore[no-any-return]
                written["file_id"] = file_id
                sources += 1
            if sources != 1:  # two sources or none, set by hand: the general path says so
                return general(item)  # type: ignore[no-any-return]
            if slot is not None:
                value = getattr(item, slot)
                if value is not None:
                    if type(value) is not str:
                        return general(item)  # type: ignore[no-any-return]
                    written[extra] = value  # type: ignore[index]
            return written

        return write

    return factory


DIRECT_WRITERS: dict[type, Callable[[Callable[[Any], Any]], Callable[[Any], dict[str, Any]]]] = {
    TextContent: text_writer,
    FunctionCallContent: call_writer,
    FunctionResultContent: result_writer,
    BinaryContent: binary_writer("binary", None),
    ImageContent: binary_writer("image", "detail"),
    AudioContent: binary_writer("audio", None),
    FileContent: binary_writer("file", "filename"),
}
"""For each built-in class written directly, the factory wrapping its general writer."""


def message_writer(
    writers: dict[type, Callable[[Any], dict[str, Any]]],
    general: Callable[[ChatMessageContent], dict[str, Any]],
) -> Callable[[ChatMessageContent], dict[str, Any]]:
    """Make a writer of messages that writes plain ones directly and the rest with ``general``.

    A plain message is a `ChatMessageContent` (not a subclass) without usage, whose item
    classes all have a writer in ``writers`` (the hooks' cache, read at each call). Anything
    else, and an item that cannot be written, goes to ``general``, which writes it or raises
    the error.
    """

    def write(message: ChatMessageContent) -> dict[str, Any]:
        if type(message) is not ChatMessageContent or message._usage is not None:
            return general(message)
        # A field broken by hand (object.__setattr__) makes a step below raise, or fails a
        # type check, and the general path, which checks every field, locates the problem.
        try:
            written: dict[str, Any] = {"role": PLAIN_TEXT[message._role]}
            items = message._items
            if items:
                if len(items) == 1:  # most messages hold one item: no comprehension
                    (item,) = items  # unpacking, not the collection's Python __getitem__
                    if (  # the commonest
                        type(item) is TextContent and not item._metadata and not item._citations
                    ):
                        text = item._text
                        if type(text) is not str:
                            return general(message)
                        written["items"] = [{"type": "text", "text": text}]
                    else:
                        written["items"] = [writers[type(item)](item)]
                else:
                    written["items"] = [writers[type(item)](item) for item in items]
        except Exception:  # an unseen class, or an error the general path locates
            return general(message)
        name = message._name
        if name is not None:
            if type(name) is not str:
                return general(message)
            written["name"] = name
        message_id = message._id
        if message_id is not None:
            if type(message_id) is not str:
                return general(message)
            written["id"] = message_id
        finish_reason = message._finish_reason
        if finish_reason is not None:
            if type(finish_reason) is not FinishReason:
                return general(message)
            written["finish_reason"] = PLAIN_TEXT[finish_reason]
        model_id = message._model_id
        if model_id is not None:
            if type(model_id) is not str:
                return general(message)
            written["model_id"] = model_id
        if message._metadata:
            written["metadata"] = write_json_object(message._metadata, "metadata")
        return written

    return write
