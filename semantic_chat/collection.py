"""`ChatMessageContentItemCollection`: the checked, typed list of a message's items."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, MutableSequence
from typing import Any, TypeVar, overload

from .coercion import to_item
from .contents import KernelContent

__all__ = ["ChatMessageContentItemCollection"]

_C = TypeVar("_C", bound=KernelContent)


class _ReadItems(list[KernelContent]):
    """A new list of items that a reader built and checked, handed to a message as it is.

    A message copies and checks the items it is given, so a caller's list is never shared;
    a reader's own fresh list needs neither, and this type says so.
    """

    __slots__ = ()


class ChatMessageContentItemCollection(MutableSequence[KernelContent]):
    """The items of a message, in order.

    It only ever holds items: plain strings and native objects (bytes, paths, numpy images,
    PIL images) are converted on the way in, and ``None`` or anything else is refused with a
    `TypeError` naming the index.
    """

    __slots__ = ("_items",)

    def __init__(self, items: Iterable[Any] = ()) -> None:
        self._items: list[KernelContent] = [
            item if isinstance(item, KernelContent) else to_item(item, f"items[{index}]")
            for index, item in enumerate(items)
        ]

    @classmethod
    def _trusted(cls, items: list[KernelContent]) -> ChatMessageContentItemCollection:
        """Wrap a new list already known to hold only items (used by readers; not copied)."""
        collection = cls.__new__(cls)
        collection._items = items
        return collection

    @overload
    def __getitem__(self, index: int) -> KernelContent: ...
    @overload
    def __getitem__(self, index: slice) -> ChatMessageContentItemCollection: ...
    def __getitem__(
        self, index: int | slice
    ) -> KernelContent | ChatMessageContentItemCollection:
        if isinstance(index, slice):
            return self._trusted(self._items[index])
        return self._items[index]

    @overload
    def __setitem__(self, index: int, value: KernelContent | str) -> None: ...
    @overload
    def __setitem__(self, index: slice, value: Iterable[KernelContent | str]) -> None: ...
    def __setitem__(self, index: int | slice, value: Any) -> None:
        if isinstance(index, slice):
            start, _, step = index.indices(len(self._items))
            self._items[index] = [
                to_item(item, f"items[{start + offset * step}]")
                for offset, item in enumerate(value)
            ]
        else:
            position = index if index >= 0 else index + len(self._items)
            self._items[index] = to_item(value, f"items[{position}]")

    def __delitem__(self, index: int | slice) -> None:
        del self._items[index]

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[KernelContent]:
        return iter(self._items)

    def __reversed__(self) -> Iterator[KernelContent]:
        return reversed(self._items)

    def __contains__(self, value: object) -> bool:
        return value in self._items

    def insert(self, index: int, value: KernelContent | str) -> None:
        """Insert an item (or a native object, converted) before ``index``."""
        position = min(max(index if index >= 0 else index + len(self._items), 0), len(self._items))
        self._items.insert(index, to_item(value, f"items[{position}]"))

    def append(self, value: KernelContent | str) -> None:
        """Append an item (or a native object, converted)."""
        self._items.append(to_item(value, f"items[{len(self._items)}]"))

    def extend(self, values: Iterable[KernelContent | str]) -> None:
        """Append several items; nothing is added if any of them is refused."""
        start = len(self._items)
        self._items.extend(
            [to_item(value, f"items[{start + offset}]") for offset, value in enumerate(values)]
        )

    def of_type(self, cls: type[_C]) -> list[_C]:
        """Return the items that are instances of ``cls`` (subclasses included), in order."""
        return [item for item in self._items if isinstance(item, cls)]

    def first(self, cls: type[_C]) -> _C | None:
        """Return the first item that is an instance of ``cls``, or ``None``."""
        for item in self._items:
            if isinstance(item, cls):
                return item
        return None

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ChatMessageContentItemCollection):
            return self._items == other._items
        if isinstance(other, list):
            return self._items == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"ChatMessageContentItemCollection({self._items!r})"
