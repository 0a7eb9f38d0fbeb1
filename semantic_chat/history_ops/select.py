"""Choose messages and items of a history (`filter`), and join runs of one role (`merge_runs`).

`filter` follows LangChain's ``filter_messages`` for messages (roles, names, ids) and goes
down to items (types), and never parts a call from its result. `merge_runs` is LangChain's
``merge_message_runs``, keeping each message's items rather than concatenating their text.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..contents import KernelContent, TextContent
from ..contents.metadata import peek_metadata
from ..errors import InvalidTypeError, SemanticChatError, describe_type
from ..history import ChatHistory
from ..labels import AuthorRole, ContentType
from ..message import ChatMessageContent
from ..trusted import new_history
from .repair import _messages, _Pairing, _with_items

__all__ = ["filter", "merge_runs"]

ItemType = type[KernelContent] | str
"""An item class (`ImageContent`, matching its subclasses too) or a content-type label
(``"image"``, matching items of exactly that label)."""


def filter(
    history: ChatHistory,
    *,
    roles: str | Iterable[str] | None = None,
    types: ItemType | Iterable[ItemType] | None = None,
    names: str | Iterable[str] | None = None,
    ids: str | Iterable[str] | None = None,
    exclude_roles: str | Iterable[str] | None = None,
    exclude_types: ItemType | Iterable[ItemType] | None = None,
    exclude_names: str | Iterable[str] | None = None,
    exclude_ids: str | Iterable[str] | None = None,
) -> ChatHistory:
    """Return the messages of ``history`` chosen by role, name and id, holding the items chosen.

    Messages, by LangChain's ``filter_messages`` rule: with ``roles``, ``names`` or ``ids``
    given, a message is kept when it matches any one of them (its role, its name, its id);
    with none, every message is; then a message matching any of ``exclude_roles``,
    ``exclude_names`` or ``exclude_ids`` is left out. Items: with ``types`` only the items of
    those types are kept, and the items of ``exclude_types`` are left out; a message left
    without items is left out (one that had none stays, if chosen). Each argument takes one
    value or several; ``None`` or an empty collection sets no condition.

    Never orphans: when a call is left out (its message, or the call itself), the result
    answering it is left out too, and the other way round; the results and calls that pair
    are those `repair` pairs. Pairing problems already there stay (`repair` fixes them).
    Messages kept whole are the same objects; one that loses items is a copy sharing the
    items it keeps. The history returned has ``history``'s ``options``.

    Raises:
        InvalidTypeError: ``history`` is not a `ChatHistory`; a role, name or id that is not
            a ``str``, or a type that is neither an item class nor a label, named by its
            argument and place (``types[1]``).
        InvalidValueError: a role or a type label that is blank, likewise named.
    """
    messages = _messages(history)
    include = (_labels(roles, "roles"), _texts(names, "names"), _texts(ids, "ids"))
    exclude = (
        _labels(exclude_roles, "exclude_roles"),
        _texts(exclude_names, "exclude_names"),
        _texts(exclude_ids, "exclude_ids"),
    )
    wanted, unwanted = _types(types, "types"), _types(exclude_types, "exclude_types")
    anything = not any(include)
    # kept[i]: None when message i is left out, else the indexes of its items kept
    kept: list[list[int] | None] = []
    for message in messages:
        keys = (message.role, message.name, message.id)
        chosen = anything or any(key in among for key, among in zip(keys, include, strict=True))
        if not chosen or any(key in among for key, among in zip(keys, exclude, strict=True)):
            kept.append(None)
            continue
        items = message.items
        if wanted is None and unwanted is None:
            kept.append(list(range(len(items))))
            continue
        kept.append(
            [
                index
                for index, item in enumerate(items)
                if (wanted is None or _is_of(item, wanted))
                and (unwanted is None or not _is_of(item, unwanted))
            ]
        )
    _unpair(messages, kept)
    chosen_messages: list[ChatMessageContent] = []
    for message, indexes in zip(messages, kept, strict=True):
        if indexes is None:
            continue
        items = message.items
        if len(indexes) == len(items):
            chosen_messages.append(message)
        elif indexes:
            chosen_messages.append(_with_items(message, [items[index] for index in indexes]))
    return new_history(chosen_messages, history.options)


def merge_runs(history: ChatHistory, *, join_text: str | None = None) -> ChatHistory:
    """Return ``history`` with each run of messages of one role and name made one message.

    The merged message holds the run's items in order (a tool message's results keep their
    call ids, so tool messages merge too) and the first message's other fields (id, name,
    usage, metadata). With ``join_text`` (LangChain's ``merge_message_runs`` joins by a newline),
    adjacent text items of a merged message become one text item, joined by it; a text item
    with citations or metadata is never joined (its spans and hints belong to its own text).
    A message that is a run of its own is the same object in the result; a merged one is a
    new message sharing the items. The history returned has ``history``'s ``options``.

    Raises:
        InvalidTypeError: ``history`` is not a `ChatHistory`, or ``join_text`` is not a
            ``str`` or ``None``.
    """
    messages = _messages(history)
    if join_text is not None and not isinstance(join_text, str):
        raise InvalidTypeError.mismatch("join_text", "a str or None", describe_type(join_text))
    merged: list[ChatMessageContent] = []
    run: list[ChatMessageContent] = []
    for message in messages:
        if run and (message.role != run[0].role or message.name != run[0].name):
            merged.append(_merged(run, join_text))
            run = []
        run.append(message)
    if run:
        merged.append(_merged(run, join_text))
    return new_history(merged, history.options)


# --- helpers ------------------------------------------------------------------------------


def _merged(run: list[ChatMessageContent], join_text: str | None) -> ChatMessageContent:
    """One message for a run: the first itself when alone, else a copy holding every item."""
    if len(run) == 1:
        return run[0]
    items = [item for message in run for item in message.items]
    if join_text is not None:
        items = _joined(items, join_text)
    return _with_items(run[0], items)


def _joined(items: list[KernelContent], separator: str) -> list[KernelContent]:
    """``items``, each stretch of adjacent plain text items made one, joined by ``separator``."""
    joined: list[KernelContent] = []
    stretch: list[TextContent] = []  # the plain text items just seen

    def close() -> None:
        if len(stretch) == 1:
            joined.append(stretch[0])
        elif stretch:
            joined.append(TextContent(separator.join(item.text for item in stretch)))
        stretch.clear()

    for item in items:
        if type(item) is TextContent and not item.citations and not peek_metadata(item):
            stretch.append(item)
        else:
            close()
            joined.append(item)
    close()
    return joined


def _unpair(messages: list[ChatMessageContent], kept: list[list[int] | None]) -> None:
    """Leave out the call of each result left out, and the result of each call left out."""
    pairing = _Pairing(messages)
    chosen = [None if indexes is None else set(indexes) for indexes in kept]
    for group in pairing.groups:
        for call in group.calls:
            if call.answer is None:
                continue
            result_at, result_item = call.answer
            call_items, result_items = chosen[call.position], chosen[result_at]
            call_kept = call_items is not None and call.item in call_items
            result_kept = result_items is not None and result_item in result_items
            if call_kept != result_kept:
                if call_items is not None:
                    call_items.discard(call.item)
                if result_items is not None:
                    result_items.discard(result_item)
    for index, indexes in enumerate(chosen):
        if indexes is not None and len(indexes) != len(kept[index] or ()):
            kept[index] = sorted(indexes)


def _values(value: Any) -> tuple[list[Any], bool]:
    """One value or an iterable of them, as a list, and whether it was one value.

    A ``str`` or a class is one value; so is anything not iterable (to be refused as one).
    """
    if value is None:
        return [], False
    if isinstance(value, (str, type)):
        return [value], True
    try:
        return list(value), False
    except TypeError:
        return [value], True


def _texts(value: str | Iterable[str] | None, field: str) -> frozenset[str]:
    """A set of names or ids.

    Raises:
        InvalidTypeError: one is not a ``str``; the message names ``field`` and its place.
    """
    values, one = _values(value)
    for index, each in enumerate(values):
        if not isinstance(each, str):
            where = field if one else f"{field}[{index}]"
            raise InvalidTypeError.mismatch(where, "a str", describe_type(each))
    return frozenset(values)


def _labels(value: str | Iterable[str] | None, field: str) -> frozenset[AuthorRole]:
    """A set of roles (case-insensitive labels).

    Raises:
        InvalidTypeError: one is not a ``str``; the message names ``field`` and its place.
        InvalidValueError: one is no label (blank); likewise named.
    """
    _texts(value, field)
    roles = set()
    values, one = _values(value)
    for index, text in enumerate(values):
        try:
            roles.add(AuthorRole(text))
        except SemanticChatError as error:
            raise error.with_path(field if one else f"{field}[{index}]") from None
    return frozenset(roles)


def _types(value: ItemType | Iterable[ItemType] | None, field: str) -> _Types | None:
    """The item classes and labels of a ``types`` argument; ``None`` when none is given.

    Raises:
        InvalidTypeError: one is neither an item class nor a ``str``; the message names
            ``field`` and its place.
        InvalidValueError: a label that is blank; likewise named.
    """
    values, one = _values(value)
    if not values:
        return None
    classes: list[type[KernelContent]] = []
    labels: set[ContentType] = set()
    for index, each in enumerate(values):
        where = field if one else f"{field}[{index}]"
        if isinstance(each, str):
            try:
                labels.add(ContentType(each))
            except SemanticChatError as error:
                raise error.with_path(where) from None
        elif isinstance(each, type) and issubclass(each, KernelContent):
            classes.append(each)
        else:
            expected = "an item class or a content-type label"
            raise InvalidTypeError.mismatch(where, expected, describe_type(each))
    return tuple(classes), frozenset(labels)


_Types = tuple[tuple[type[KernelContent], ...], frozenset[ContentType]]


def _is_of(item: KernelContent, types: _Types) -> bool:
    classes, labels = types
    return isinstance(item, classes) or item.content_type in labels
