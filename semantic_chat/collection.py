"""`ChatMessageContentItemCollection`: the checked, typed list of a message's items."""

from __future__ import annotations

import operator
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, SupportsIndex, TypeVar, overload

from .coercion import to_item
from .contents import KernelContent
from .errors import InvalidTypeError, describe_type

if TYPE_CHECKING:
    from typing_extensions import Self

__all__ = ["ChatMessageContentItemCollection"]

_C = TypeVar("_C", bound=KernelContent)


class _ReadItems(list[KernelContent]):
    """A new list of items that a reader built and checked, handed to a message as it is.

    A message copies and checks the items it is given, so a caller's list is never shared;
    a reader's own fresh list needs neither, and this type says so.
    """

    __slots__ = ()


class ChatMessageContentItemCollection(list[KernelContent]):
    """The items of a message, in order: a `list` that only ever holds items.

    Plain strings and native objects (bytes, paths, numpy images, PIL images) are converted on
    the way in, and ``None`` or anything else is refused with a `TypeError` naming the index.
    Every method that adds an element checks it; those that only reorder or remove (``sort``,
    ``pop``, ``del``) are the list's own. ``+`` and ``copy()`` give a plain list.
    """

    __slots__ = ()

    def __init__(self, items: Iterable[Any] = ()) -> None:
        list.__init__(
            self,
            [
                item if isinstance(item, KernelContent) else to_item(item, f"items[{index}]")
                for index, item in enumerate(items)
            ],
        )

    @classmethod
    def _trusted(cls, items: Iterable[KernelContent]) -> ChatMessageContentItemCollection:
        """A collection of items already known to be items (used by readers; not checked)."""
        collection = _new_list(cls)
        _extend(collection, items)
        return collection

    @overload
    def __getitem__(self, index: SupportsIndex) -> KernelContent: ...
    @overload
    def __getitem__(self, index: slice) -> ChatMessageContentItemCollection: ...
    def __getitem__(
        self, index: SupportsIndex | slice
    ) -> KernelContent | ChatMessageContentItemCollection:
        if isinstance(index, slice):
            return self._trusted(list.__getitem__(self, index))
        return list.__getitem__(self, index)

    @overload
    def __setitem__(self, index: SupportsIndex, value: KernelContent | str) -> None: ...
    @overload
    def __setitem__(self, index: slice, value: Iterable[KernelContent | str]) -> None: ...
    def __setitem__(self, index: SupportsIndex | slice, value: Any) -> None:
        if isinstance(index, slice):
            value = _iterable(value)
            start, _, step = index.indices(len(self))
            checked = [
                to_item(item, f"items[{start + offset * step}]")
                for offset, item in enumerate(value)
            ]
            list.__setitem__(self, index, checked)
        else:
            position = operator.index(index)
            if position < 0:
                position += len(self)
            list.__setitem__(self, index, to_item(value, f"items[{position}]"))

    def insert(self, index: SupportsIndex, value: KernelContent | str) -> None:
        """Insert an item (or a native object, converted) before ``index``."""
        position = operator.index(index)
        position = min(max(position if position >= 0 else position + len(self), 0), len(self))
        list.insert(self, index, to_item(value, f"items[{position}]"))

    def append(self, value: KernelContent | str) -> None:
        """Append an item (or a native object, converted)."""
        list.append(self, to_item(value, f"items[{len(self)}]"))

    def extend(self, values: Iterable[KernelContent | str]) -> None:
        """Append several items; nothing is added if any of them is refused."""
        start = len(self)
        values = _iterable(values)
        checked = [to_item(item, f"items[{start + offset}]") for offset, item in enumerate(values)]
        list.extend(self, checked)

    def __iadd__(self, values: Iterable[KernelContent | str]) -> Self:  # type: ignore[override,misc]
        self.extend(values)
        return self

    def of_type(self, cls: type[_C]) -> list[_C]:
        """Return the items that are instances of ``cls`` (subclasses included), in order."""
        return [item for item in self if isinstance(item, cls)]

    def first(self, cls: type[_C]) -> _C | None:
        """Return the first item that is an instance of ``cls``, or ``None``."""
        for item in self:
            if isinstance(item, cls):
                return item
        return None

    def __repr__(self) -> str:
        return f"ChatMessageContentItemCollection({list.__repr__(self)})"


def _iterable(values: Any) -> Iterable[Any]:
    """``values`` if it is a list-like of items, else the error naming ``items``."""
    if isinstance(values, (str, bytes, KernelContent)) or not isinstance(values, Iterable):
        raise InvalidTypeError(
            f"expected a list of items, got {describe_type(values)}: "
            "pass [item] for one item, or append it",
            path="items", expected="a list of items", got=describe_type(values),
        )
    return values


_new_list = list.__new__
_extend = list.extend
