"""Built-in model objects made from values a reader has already checked.

Readers of JSON and of provider payloads make most of the objects a history holds. Going
through the constructors would check and convert every value a second time; these functions
store the fields directly instead. They are for the exact built-in classes only (a subclass
may have fields of its own), and a test checks that each gives what its constructor gives.
"""

from __future__ import annotations

from typing import Any, TypeVar

from .contents import (
    BinaryContent,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    KernelContent,
    TextContent,
)
from .history import ChatHistory
from .labels import AuthorRole, FinishReason
from .message import ChatMessageContent
from .options import ChatOptions

__all__ = [
    "new_binary",
    "new_call",
    "new_history",
    "new_image",
    "new_message",
    "new_result",
    "new_text",
    "new_text_message",
    "new_tool_message",
]

_B = TypeVar("_B", bound=BinaryContent)
_new = object.__new__
_set = object.__setattr__
_TOOL = AuthorRole.TOOL


def new_text(text: str) -> TextContent:
    """A `TextContent` holding ``text`` (a ``str``), without metadata."""
    item: TextContent = _new(TextContent)
    item._text = text
    item._citations = ()
    item._metadata = None
    item.inner_content = None
    return item


def new_call(
    call_id: str | None, name: str, arguments: str | dict[str, Any] | None, index: int | None
) -> FunctionCallContent:
    """A `FunctionCallContent` without metadata; ``arguments`` as the reader found them."""
    item: FunctionCallContent = _new(FunctionCallContent)
    item._id = call_id
    item._name = name
    item._arguments = arguments
    item._index = index
    item._metadata = None
    item.inner_content = None
    return item


def new_result(
    call_id: str | None, result: Any, name: str | None, is_error: bool
) -> FunctionResultContent:
    """A `FunctionResultContent` without metadata; ``result`` is stored as it is."""
    item: FunctionResultContent = _new(FunctionResultContent)
    item._call_id = call_id
    item._result = result
    item._name = name
    item._is_error = is_error
    item._metadata = None
    item.inner_content = None
    return item


def new_image(
    payload: str | None, mime_type: str | None, uri: str | None, detail: str | None
) -> ImageContent:
    """An `ImageContent` without metadata or file id (see `new_binary`), in one call."""
    item: ImageContent = _new(ImageContent)
    item._data = payload
    item._mime_type = mime_type
    item._uri = uri
    item._file_id = None
    item._detail = detail
    item._metadata = None
    item.inner_content = None
    return item


def new_binary(  # noqa: PLR0917 - positional: called per item read
    cls: type[_B],
    payload: str | None,
    mime_type: str | None,
    uri: str | None,
    extra: str | None = None,
    value: str | None = None,
) -> _B:
    """A built-in binary item of ``cls`` without metadata or file id.

    ``payload`` is checked base64 text (kept undecoded until ``data`` is read), ``mime_type``
    is normalized; ``extra`` names the slot of the class's own field (``_detail``,
    ``_filename``), if any.
    """
    item = _new(cls)
    item._data = payload
    item._mime_type = mime_type
    item._uri = uri
    item._file_id = None
    if extra is not None:
        _set(item, extra, value)
    item._metadata = None
    item.inner_content = None
    return item


def new_message(  # noqa: PLR0917 - positional: called per message read
    role: AuthorRole,
    items: list[KernelContent],
    name: str | None = None,
    message_id: str | None = None,
    finish_reason: FinishReason | None = None,
    model_id: str | None = None,
    metadata: dict[str, Any] | None = None,
) -> ChatMessageContent:
    """A `ChatMessageContent` without usage, holding ``items``, a list the caller made.

    The list is kept as it is; the message's ``items`` property turns it into the checked
    `ChatMessageContentItemCollection` when it is first read (most histories that are only
    converted or stored never read it).
    """
    message: ChatMessageContent = _new(ChatMessageContent)
    message._role = role
    message._items = items
    message._name = name
    message._id = message_id
    message._finish_reason = finish_reason
    message._usage = None
    message._model_id = model_id
    message._metadata = metadata
    message.inner_content = None
    return message


def new_text_message(role: AuthorRole, text: str) -> ChatMessageContent:
    """A message of one `TextContent` and nothing else, the commonest message, in one call."""
    item: TextContent = _new(TextContent)
    item._text = text
    item._citations = ()
    item._metadata = None
    item.inner_content = None
    items: list[KernelContent] = [item]
    message: ChatMessageContent = _new(ChatMessageContent)
    message._role = role
    message._items = items
    message._name = None
    message._id = None
    message._finish_reason = None
    message._usage = None
    message._model_id = None
    message._metadata = None
    message.inner_content = None
    return message


def new_history(
    messages: list[ChatMessageContent], options: ChatOptions | None = None
) -> ChatHistory:
    """A `ChatHistory` holding ``messages``, a list the caller made (not copied or checked).

    The list is kept as it is; the history's ``messages`` property turns it into the checked
    `ChatMessageList` when it is first read (its own methods and the JSON writer never do).
    """
    history: ChatHistory = _new(ChatHistory)
    history._messages = messages
    history._options = options
    return history


def new_tool_message(call_id: str, result: Any, name: str | None) -> ChatMessageContent:
    """A tool message of one function result (no error, no metadata), in one call."""
    item: FunctionResultContent = _new(FunctionResultContent)
    item._call_id = call_id
    item._result = result
    item._name = name
    item._is_error = False
    item._metadata = None
    item.inner_content = None
    items: list[KernelContent] = [item]
    message: ChatMessageContent = _new(ChatMessageContent)
    message._role = _TOOL
    message._items = items
    message._name = None
    message._id = None
    message._finish_reason = None
    message._usage = None
    message._model_id = None
    message._metadata = None
    message.inner_content = None
    return message
