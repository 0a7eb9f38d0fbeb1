"""`ChatHistory`: a conversation, as an ordered, checked list of messages."""

from __future__ import annotations

import operator
import os
from collections.abc import Iterable, Iterator, MutableSequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, SupportsIndex, overload

from .contents import FunctionResultContent
from .errors import InvalidTypeError, InvalidValueError, describe_type
from .labels import AuthorRole
from .message import ChatMessageContent, MessageFields, ResultMessageFields
from .options import ChatOptions

if TYPE_CHECKING:
    from typing_extensions import Self, Unpack

    from .tools.toolset import ToolSet

__all__ = ["ChatHistory", "ChatMessageList"]

_REPR_ROLES = 6
_BOM = b"\xef\xbb\xbf"
_new = object.__new__


def _checked(value: object, index: int) -> ChatMessageContent:
    if isinstance(value, ChatMessageContent):
        return value
    raise InvalidTypeError.mismatch(
        f"messages[{index}]", "a ChatMessageContent", describe_type(value)
    )


def _position(index: SupportsIndex, size: int) -> int:
    """Where ``list.insert(index, ...)`` puts the new element in a list of ``size``."""
    position = operator.index(index)
    return min(max(position if position >= 0 else position + size, 0), size)


def _iterable(values: Any, field: str) -> Iterable[Any]:
    """``values`` if it can be iterated (and is not text), else the error naming ``field``."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise InvalidTypeError.mismatch(field, "a list of messages", describe_type(values))
    return values


def _set(messages: list[ChatMessageContent], index: SupportsIndex | slice, value: Any) -> None:
    """Assign ``value`` at ``index`` of ``messages``, checked first: a refusal changes nothing."""
    if isinstance(index, slice):
        value = _iterable(value, "messages")
        start, _, step = index.indices(len(messages))
        checked = [
            _checked(message, start + offset * step) for offset, message in enumerate(value)
        ]
        _list_setitem(messages, index, checked)
    else:
        position = operator.index(index)
        if position < 0:
            position += len(messages)
        _list_setitem(messages, index, _checked(value, position))


def _extend(messages: list[ChatMessageContent], values: Iterable[Any]) -> None:
    """Append ``values`` to ``messages`` once all of them are checked."""
    values = _iterable(values, "messages")
    start = len(messages)
    _list_extend(
        messages, [_checked(message, start + offset) for offset, message in enumerate(values)]
    )


class ChatMessageList(list[ChatMessageContent]):
    """The messages of a history, in order: a `list` that only ever holds messages.

    Anything else is refused with an `InvalidTypeError` naming the index it would take
    (``messages[3]: expected a ChatMessageContent, got str``). Every method that adds an
    element checks it, and ``extend``, ``+=`` and slice assignment check all elements first,
    so a refusal changes nothing; those that only reorder or remove (``sort``, ``pop``,
    ``del``) are the list's own. ``+`` and ``copy()`` give a plain list.
    """

    __slots__ = ()

    def __init__(self, messages: Iterable[ChatMessageContent] = ()) -> None:
        messages = _iterable(messages, "messages")
        list.__init__(
            self, [_checked(message, index) for index, message in enumerate(messages)]
        )

    @classmethod
    def _trusted(cls, messages: Iterable[ChatMessageContent]) -> ChatMessageList:
        """A list of values already known to be messages (not checked)."""
        new = _new_list(cls)
        _list_extend(new, messages)
        return new

    @overload
    def __getitem__(self, index: SupportsIndex) -> ChatMessageContent: ...
    @overload
    def __getitem__(self, index: slice) -> ChatMessageList: ...
    def __getitem__(self, index: SupportsIndex | slice) -> ChatMessageContent | ChatMessageList:
        if isinstance(index, slice):
            return self._trusted(_list_getitem(self, index))
        return _list_getitem(self, index)

    @overload
    def __setitem__(self, index: SupportsIndex, value: ChatMessageContent) -> None: ...
    @overload
    def __setitem__(self, index: slice, value: Iterable[ChatMessageContent]) -> None: ...
    def __setitem__(self, index: SupportsIndex | slice, value: Any) -> None:
        _set(self, index, value)

    def insert(self, index: SupportsIndex, value: ChatMessageContent) -> None:
        """Insert a message before ``index``."""
        list.insert(self, index, _checked(value, _position(index, len(self))))

    def append(self, value: ChatMessageContent) -> None:
        """Append a message."""
        _list_append(self, _checked(value, len(self)))

    def extend(self, values: Iterable[ChatMessageContent]) -> None:
        """Append several messages; nothing is added if any of them is refused."""
        _extend(self, values)

    def __iadd__(self, values: Iterable[ChatMessageContent]) -> Self:  # type: ignore[override,misc]
        _extend(self, values)
        return self

    def __repr__(self) -> str:
        return f"ChatMessageList({list.__repr__(self)})"


class ChatHistory(MutableSequence[ChatMessageContent]):
    """The messages of one conversation, oldest first; slices are histories too.

    ``system_message=`` and ``developer_message=`` put an instruction message before
    ``messages``; given both, the system message comes first, then the developer message.
    ``options=`` holds the request's other settings (model, tools, sampling): see
    `ChatOptions`. Slices keep the options; equal histories have equal options too.

    The ``add_*`` methods build a message from what ``ChatMessageContent(content=...)`` accepts
    plus keyword fields, append it, and return it so it can be adjusted further. `save` and
    `load` write and read a file of this library's JSON.

    Raises:
        InvalidTypeError: something in ``messages`` is not a `ChatMessageContent` (the
            message names its index, counting the instruction messages), or ``options`` is
            not a `ChatOptions`.
    """

    # The messages: a `ChatMessageList`, or, in a history a reader made, the reader's plain
    # list of checked messages (see `semantic_chat.trusted.new_history`), which the
    # ``messages`` property turns into a `ChatMessageList` on first use. This class's own
    # methods and the JSON writer use the slot directly, whichever it holds.
    # ``_unknown_keys``: keys of a history document this version does not know, set only by
    # the JSON reader (unset otherwise) and written back by the writer as they were read.
    __slots__ = ("_messages", "_options", "_unknown_keys")

    messages: list[ChatMessageContent]  # the property below; mypy and the diagram read this
    _unknown_keys: dict[str, Any]

    def __init__(
        self,
        messages: Iterable[ChatMessageContent] | None = None,
        *,
        system_message: str | None = None,
        developer_message: str | None = None,
        options: ChatOptions | None = None,
    ) -> None:
        self._options = _checked_options(options)
        held = _new_list(ChatMessageList)
        if system_message is not None:
            _list_append(held, ChatMessageContent(AuthorRole.SYSTEM, system_message))
        if developer_message is not None:
            _list_append(held, ChatMessageContent(AuthorRole.DEVELOPER, developer_message))
        if messages is not None:
            _extend(held, messages)
        self._messages: list[ChatMessageContent] = held

    def _get_messages(self) -> ChatMessageList:
        messages = self._messages
        if type(messages) is ChatMessageList:
            return messages
        checked = self._messages = ChatMessageList._trusted(messages)
        return checked

    def _set_messages(self, value: Iterable[ChatMessageContent] | None) -> None:
        if value is None:  # as ``message.items = None``: no messages
            self._messages = ChatMessageList()
        elif value is not self._messages:  # ``history.messages += [...]`` assigns it back
            self._messages = ChatMessageList(value)

    if not TYPE_CHECKING:
        messages = property(
            _get_messages,
            _set_messages,
            doc="The messages, a `ChatMessageList`; a list assigned to it is checked and copied.",
        )

    @property
    def options(self) -> ChatOptions | None:
        """The request's settings other than messages (model, tools, sampling), or ``None``."""
        return self._options

    @options.setter
    def options(self, value: ChatOptions | None) -> None:
        self._options = _checked_options(value)

    @overload
    def __getitem__(self, index: int) -> ChatMessageContent: ...
    @overload
    def __getitem__(self, index: slice) -> ChatHistory: ...
    def __getitem__(self, index: int | slice) -> ChatMessageContent | ChatHistory:
        if isinstance(index, slice):
            history: ChatHistory = _new(ChatHistory)
            history._messages = _list_getitem(self._messages, index)
            history._options = self._options
            unknown = getattr(self, "_unknown_keys", None)
            if unknown is not None:
                history._unknown_keys = unknown
            return history
        return self._messages[index]

    @overload
    def __setitem__(self, index: int, value: ChatMessageContent) -> None: ...
    @overload
    def __setitem__(self, index: slice, value: Iterable[ChatMessageContent]) -> None: ...
    def __setitem__(self, index: int | slice, value: Any) -> None:
        _set(self._messages, index, value)

    def __delitem__(self, index: int | slice) -> None:
        del self._messages[index]

    def __len__(self) -> int:
        return len(self._messages)

    def __copy__(self) -> ChatHistory:
        """A new history of the same messages, as ``history[:]`` (a list's shallow copy).

        Adding to or removing from the copy leaves this history as it is; the messages
        themselves are shared (``copy.deepcopy`` copies them too).
        """
        return self[:]

    def __iter__(self) -> Iterator[ChatMessageContent]:
        return iter(self._messages)

    def __reversed__(self) -> Iterator[ChatMessageContent]:
        return reversed(self._messages)

    def insert(self, index: int, value: ChatMessageContent) -> None:
        """Insert a message before ``index``."""
        messages = self._messages
        list.insert(messages, index, _checked(value, _position(index, len(messages))))

    def append(self, value: ChatMessageContent) -> None:
        """Append a message."""
        messages = self._messages
        _list_append(messages, _checked(value, len(messages)))

    def extend(self, values: Iterable[ChatMessageContent]) -> None:
        """Append several messages; nothing is added if any of them is refused."""
        _extend(self._messages, values)

    def __iadd__(self, values: Iterable[ChatMessageContent]) -> Self:
        _extend(self._messages, values)
        return self

    def clear(self) -> None:
        """Remove every message."""
        del self._messages[:]

    def reverse(self) -> None:
        """Reverse the order of the messages in place."""
        self._messages.reverse()

    def add_message(self, message: ChatMessageContent) -> ChatMessageContent:
        """Append a message and return it.

        Raises:
            InvalidTypeError: ``message`` is not a `ChatMessageContent`.
        """
        messages = self._messages
        _list_append(messages, _checked(message, len(messages)))
        return message

    def add_system_message(
        self, content: Any = None, **fields: Unpack[MessageFields]
    ) -> ChatMessageContent:
        """Append a system message (instructions for the model) and return it."""
        return self.add_message(ChatMessageContent(AuthorRole.SYSTEM, content, **fields))

    def add_developer_message(
        self, content: Any = None, **fields: Unpack[MessageFields]
    ) -> ChatMessageContent:
        """Append a developer message (instructions, for models that tell them from system)."""
        return self.add_message(ChatMessageContent(AuthorRole.DEVELOPER, content, **fields))

    def add_user_message(
        self, content: Any = None, **fields: Unpack[MessageFields]
    ) -> ChatMessageContent:
        """Append a user message and return it."""
        return self.add_message(ChatMessageContent(AuthorRole.USER, content, **fields))

    def add_assistant_message(
        self, content: Any = None, **fields: Unpack[MessageFields]
    ) -> ChatMessageContent:
        """Append an assistant (model) message and return it."""
        return self.add_message(ChatMessageContent(AuthorRole.ASSISTANT, content, **fields))

    def add_tool_message(
        self,
        result: Any,
        call_id: str | None = None,
        name: str | None = None,
        is_error: bool = False,
        **fields: Unpack[ResultMessageFields],
    ) -> ChatMessageContent:
        """Append a tool message carrying a function's result for the call ``call_id``.

        ``result`` is the function's output (a string, a JSON value or a list of items), put
        in one `FunctionResultContent` with ``call_id``, ``name`` and ``is_error``. Or it is a
        `FunctionResultContent`, or a list of them (several results in one message), kept as
        they are: the call ids are theirs, ``call_id`` is then optional and must agree with
        each, and ``name`` and ``is_error`` belong on the results. A list that holds a
        `FunctionResultContent` must hold nothing else; a list without one is a result value,
        as before.

        Raises:
            InvalidValueError: no call id (neither ``call_id`` nor on a result): a tool result
                must name its call; ``call_id`` disagrees with a result's; ``name`` or
                ``is_error`` given with results.
            InvalidTypeError: a list mixes `FunctionResultContent` with other values.
        """
        results = _results_in(result)
        if results is None:
            if call_id is None:
                raise InvalidValueError(
                    "a tool message needs the call_id of the call it answers", path="call_id"
                )
            items = [FunctionResultContent(call_id, result, name=name, is_error=is_error)]
        else:
            _check_results(results, call_id, name, is_error)
            items = [item for _, item in results]
        return self.add_message(ChatMessageContent(AuthorRole.TOOL, items=items, **fields))

    def call_tools(
        self,
        toolset: ToolSet,
        *,
        parallel: bool = False,
        max_workers: int | None = None,
        timeout: float | None = None,
    ) -> ChatMessageContent:
        """Call the last assistant message's function calls; add and return the results.

        The tool message added holds one `FunctionResultContent` per call, in call order
        (see `semantic_chat.tools.collect.call_tools` for ``parallel``, ``max_workers`` and
        ``timeout``). It goes right after the calls' message: appended, unless messages came
        since (a user's typed while the tool ran), which it then goes before, as every
        provider wants a call's results right after it.

        Raises:
            InvalidValueError: the history has no assistant message, its last one has no
                function calls, or a message after it already answers one of them (the
                message names where).
        """
        from .tools.collect import call_tools  # noqa: PLC0415 - the model does not need tools

        at = self._unanswered_calls()
        results = call_tools(
            self._messages[at], toolset, parallel=parallel, max_workers=max_workers,
            timeout=timeout,
        )
        return self._add_results(at, results)

    async def acall_tools(
        self,
        toolset: ToolSet,
        *,
        parallel: bool = False,
        max_workers: int | None = None,
        timeout: float | None = None,
    ) -> ChatMessageContent:
        """Await the last assistant message's function calls; append and return the results.

        The async `call_tools` (see `semantic_chat.tools.collect.acall_tools`).

        Raises:
            InvalidValueError: as `call_tools`.
        """
        from .tools.collect import acall_tools  # noqa: PLC0415 - see `call_tools`

        at = self._unanswered_calls()
        results = await acall_tools(
            self._messages[at], toolset, parallel=parallel, max_workers=max_workers,
            timeout=timeout,
        )
        return self._add_results(at, results)

    def _add_results(self, at: int, results: ChatMessageContent) -> ChatMessageContent:
        """Put the results of ``messages[at]``'s calls right after it; return them."""
        if at == len(self._messages) - 1:
            return self.add_message(results)
        self.insert(at + 1, results)
        return results

    def _unanswered_calls(self) -> int:
        """The last assistant message's index, checked: it has calls no later message answers."""
        messages = self._messages
        last = next(
            (i for i in range(len(messages) - 1, -1, -1)
             if messages[i].role == AuthorRole.ASSISTANT),
            None,
        )
        if last is None:
            raise InvalidValueError("no assistant message whose calls to make", path="messages")
        calls = messages[last].function_calls
        if not calls:
            raise InvalidValueError(
                "the last assistant message has no function calls", path=f"messages[{last}]"
            )
        ids = {call.id for call in calls if call.id is not None}
        names = {call.name for call in calls if call.id is None}  # Gemini's calls have no id
        for i in range(last + 1, len(messages)):
            for j, item in enumerate(messages[i].items):
                if not isinstance(item, FunctionResultContent):
                    continue
                if item.call_id in ids or (item.call_id is None and item.name in names):
                    answered = item.call_id if item.call_id is not None else item.name
                    raise InvalidValueError(
                        f"already answers call {answered!r} of messages[{last}]",
                        path=f"messages[{i}].items[{j}]",
                    )
        return last

    def to_prompt(self) -> str:
        """Write the history as Semantic Kernel's XML prompt (`semantic_chat.prompt.sk_xml`).

        ``str(history)`` stays a summary; this is the explicit, lossless form, which
        `from_prompt` and Semantic Kernel's ``ChatHistory.from_rendered_prompt`` read.

        Raises:
            UnsupportedContentError: an item the format has no element for, at its place.
        """
        # The model does not depend on prompt (it sits above); imported when called.
        from .prompt import sk_xml  # noqa: PLC0415

        return sk_xml.to_prompt(self)

    @classmethod
    def from_prompt(cls, text: str) -> ChatHistory:
        """Read Semantic Kernel's XML prompt format (see `semantic_chat.prompt.sk_xml`).

        Raises:
            FormatError: not well-formed XML, a refused DTD or entity, a message without a
                role; the message starts with the location (``chat_history.message[2].role``).
        """
        from .prompt import sk_xml  # noqa: PLC0415 - see `to_prompt`

        return sk_xml.from_prompt(text)

    @classmethod
    def from_rendered_prompt(cls, text: str) -> ChatHistory:
        """`from_prompt` under the name Semantic Kernel users know."""
        from .prompt import sk_xml  # noqa: PLC0415 - see `to_prompt`

        return sk_xml.from_rendered_prompt(text)

    def save(self, path: str | os.PathLike[str], *, indent: int | None = None) -> None:
        """Write the history to ``path`` as this library's JSON (read it back with `load`).

        The text (compact, or indented with ``indent=2``, and a final newline) goes to a
        temporary file beside ``path`` that replaces it only once complete, as the command
        line writes: the file is never left half written. A ``path`` that is a symbolic link
        stays one: the file it points to is written (`semantic_chat.atomic`).

        Raises:
            SerializationError: something cannot be written as JSON (the message starts with
                its location); the file is untouched.
            FileNotFoundError: a folder of ``path`` does not exist; the message names ``path``
                and that folder. It is an ``OSError``, as below.
            OSError: the file cannot be written (the message names ``path``); it is untouched.
        """
        # The model does not depend on serialization (it sits above); this convenience for
        # users imports it when it is called.
        from . import atomic, serialization  # noqa: PLC0415

        data = (serialization.to_json(self, indent=indent) + "\n").encode()
        with atomic.atomic_write(Path(path)) as handle:
            handle.write(data)

    @staticmethod
    def load(path: str | os.PathLike[str], *, strict: bool = False) -> ChatHistory:
        """Read a history from a file `save` (or the command line) wrote.

        A UTF-8 byte order mark is skipped. With ``strict``, item and message labels nobody
        registered are refused instead of read into `UnknownContent`.

        Raises:
            FileNotFoundError: there is no file at ``path``.
            OSError: the file cannot be read.
            SerializationError: the file is not JSON or not a history; the message starts
                with the location in the document (``messages[3].items[1].data: ...``).
            UnsupportedVersionError: a history written by a newer version of the format.
        """
        from . import serialization  # noqa: PLC0415 - see `save`

        data = Path(path).read_bytes()
        if data.startswith(_BOM):
            data = data[len(_BOM) :]
        return serialization.from_json(data, ChatHistory, strict=strict)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ChatHistory):
            return (
                self._messages == other._messages
                and self._options == other._options
                and getattr(self, "_unknown_keys", None) == getattr(other, "_unknown_keys", None)
            )
        if isinstance(other, list):
            return self._messages == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def _repr_html_(self) -> str:
        """The conversation as HTML, for Jupyter: a section per message, with scoped CSS.

        Tool calls are shown beside their results, as in `semantic_chat.html.render`.
        """
        from .html import notebook_html  # noqa: PLC0415 - html sits above the model

        return notebook_html(self)

    def __repr__(self) -> str:
        roles = [str(message.role) for message in self._messages]
        count = len(roles)
        if count > _REPR_ROLES:
            roles = [*roles[: _REPR_ROLES // 2], "...", *roles[-_REPR_ROLES // 2 + 1 :]]
        noun = "message" if count == 1 else "messages"
        return f"ChatHistory({count} {noun}: {', '.join(roles)})" if count else "ChatHistory()"


def _checked_options(value: object) -> ChatOptions | None:
    if value is None or isinstance(value, ChatOptions):
        return value
    raise InvalidTypeError.mismatch("options", "a ChatOptions or None", describe_type(value))


def _results_in(result: Any) -> list[tuple[str, FunctionResultContent]] | None:
    """The results ``result`` is made of, each with its location; ``None`` for a value.

    Raises:
        InvalidTypeError: a list holds a `FunctionResultContent` and something else.
    """
    if isinstance(result, FunctionResultContent):
        return [("result", result)]
    if not isinstance(result, (list, tuple)) or not any(
        isinstance(item, FunctionResultContent) for item in result
    ):
        return None
    found = []
    for index, item in enumerate(result):
        if not isinstance(item, FunctionResultContent):
            raise InvalidTypeError.mismatch(
                f"result[{index}]", "a FunctionResultContent", describe_type(item)
            )
        found.append((f"result[{index}]", item))
    return found


def _check_results(
    results: list[tuple[str, FunctionResultContent]],
    call_id: str | None,
    name: str | None,
    is_error: bool,
) -> None:
    """Check what `ChatHistory.add_tool_message` was given along with result items."""
    for argument, given in (("name", name is not None), ("is_error", is_error)):
        if given:
            raise InvalidValueError(
                "given with FunctionResultContent results: set it on each result instead",
                path=argument,
            )
    for path, item in results:
        if call_id is not None and item.call_id != call_id:
            raise InvalidValueError.mismatch(
                "call_id", f"the call id of {path} ({item.call_id!r})", repr(call_id)
            )
        if item.call_id is None:
            raise InvalidValueError(
                "a tool message needs the call_id of the call it answers",
                path=f"{path}.call_id",
            )


_new_list = list.__new__
_list_append = list.append
_list_extend = list.extend
_list_getitem = list.__getitem__
_list_setitem = list.__setitem__
