"""`ChatHistory`: a conversation, as an ordered, checked list of messages."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, MutableSequence
from typing import Any, overload

from .contents import FunctionResultContent
from .errors import InvalidTypeError, InvalidValueError, describe_type
from .labels import AuthorRole
from .message import ChatMessageContent

__all__ = ["ChatHistory"]

_REPR_ROLES = 6


def _checked(value: object, index: int) -> ChatMessageContent:
    if isinstance(value, ChatMessageContent):
        return value
    raise InvalidTypeError.mismatch(
        f"messages[{index}]", "a ChatMessageContent", describe_type(value)
    )


class ChatHistory(MutableSequence[ChatMessageContent]):
    """The messages of one conversation, oldest first; slices are histories too.

    The ``add_*`` methods build a message from what ``ChatMessageContent(content=...)`` accepts
    plus keyword fields, append it, and return it so it can be adjusted further.
    """

    __slots__ = ("messages",)

    messages: list[ChatMessageContent]

    def __init__(
        self,
        messages: Iterable[ChatMessageContent] | None = None,
        *,
        system_message: str | None = None,
    ) -> None:
        self.messages = []
        if system_message is not None:
            self.messages.append(ChatMessageContent(AuthorRole.SYSTEM, system_message))
        if messages is not None:
            start = len(self.messages)
            self.messages.extend(
                _checked(message, start + index) for index, message in enumerate(messages)
            )

    @overload
    def __getitem__(self, index: int) -> ChatMessageContent: ...
    @overload
    def __getitem__(self, index: slice) -> ChatHistory: ...
    def __getitem__(self, index: int | slice) -> ChatMessageContent | ChatHistory:
        if isinstance(index, slice):
            history = ChatHistory()
            history.messages = self.messages[index]
            return history
        return self.messages[index]

    @overload
    def __setitem__(self, index: int, value: ChatMessageContent) -> None: ...
    @overload
    def __setitem__(self, index: slice, value: Iterable[ChatMessageContent]) -> None: ...
    def __setitem__(self, index: int | slice, value: Any) -> None:
        if isinstance(index, slice):
            start = index.indices(len(self.messages))[0]
            self.messages[index] = [
                _checked(message, start + offset) for offset, message in enumerate(value)
            ]
        else:
            self.messages[index] = _checked(value, index if index >= 0 else index + len(self))

    def __delitem__(self, index: int | slice) -> None:
        del self.messages[index]

    def __len__(self) -> int:
        return len(self.messages)

    def __iter__(self) -> Iterator[ChatMessageContent]:
        return iter(self.messages)

    def __reversed__(self) -> Iterator[ChatMessageContent]:
        return reversed(self.messages)

    def insert(self, index: int, value: ChatMessageContent) -> None:
        """Insert a message before ``index``."""
        size = len(self.messages)
        position = min(max(index if index >= 0 else index + size, 0), size)
        self.messages.insert(index, _checked(value, position))

    def add_message(self, message: ChatMessageContent) -> ChatMessageContent:
        """Append a message and return it.

        Raises:
            InvalidTypeError: ``message`` is not a `ChatMessageContent`.
        """
        self.messages.append(_checked(message, len(self.messages)))
        return message

    def add_system_message(self, content: Any = None, **fields: Any) -> ChatMessageContent:
        """Append a system message (instructions for the model) and return it."""
        return self.add_message(ChatMessageContent(AuthorRole.SYSTEM, content, **fields))

    def add_developer_message(self, content: Any = None, **fields: Any) -> ChatMessageContent:
        """Append a developer message (instructions, for models that tell them from system)."""
        return self.add_message(ChatMessageContent(AuthorRole.DEVELOPER, content, **fields))

    def add_user_message(self, content: Any = None, **fields: Any) -> ChatMessageContent:
        """Append a user message and return it."""
        return self.add_message(ChatMessageContent(AuthorRole.USER, content, **fields))

    def add_assistant_message(self, content: Any = None, **fields: Any) -> ChatMessageContent:
        """Append an assistant (model) message and return it."""
        return self.add_message(ChatMessageContent(AuthorRole.ASSISTANT, content, **fields))

    def add_tool_message(
        self,
        result: Any,
        call_id: str | None = None,
        name: str | None = None,
        is_error: bool = False,
        **fields: Any,
    ) -> ChatMessageContent:
        """Append a tool message carrying a function's result for the call ``call_id``.

        Raises:
            InvalidValueError: ``call_id`` is missing; a tool result must name its call.
        """
        if call_id is None:
            raise InvalidValueError(
                "a tool message needs the call_id of the call it answers", path="call_id"
            )
        item = FunctionResultContent(call_id, result, name=name, is_error=is_error)
        return self.add_message(ChatMessageContent(AuthorRole.TOOL, items=[item], **fields))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ChatHistory):
            return self.messages == other.messages
        if isinstance(other, list):
            return self.messages == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        roles = [str(message.role) for message in self.messages]
        if len(roles) > _REPR_ROLES:
            roles = [*roles[: _REPR_ROLES // 2], "...", *roles[-_REPR_ROLES // 2 + 1 :]]
        count = len(self.messages)
        noun = "message" if count == 1 else "messages"
        return f"ChatHistory({count} {noun}: {', '.join(roles)})" if count else "ChatHistory()"
