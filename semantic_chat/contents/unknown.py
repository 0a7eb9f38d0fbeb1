"""Items of a type nobody registered, kept so they can be written back unchanged."""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

from ..errors import InvalidTypeError, InvalidValueError, describe_type
from ..labels import ContentType
from ..validation import check_json, check_text
from .base import CONTENT_TYPES, KernelContent, _store, item_keys

__all__ = ["UnknownContent", "labelled_class"]


@attrs.define(slots=True, weakref_slot=False)
class UnknownContent(KernelContent):
    """An item whose type label no class is registered under, as read from newer data.

    ``type`` is the label that was read and ``fields`` every other key exactly as it was read,
    so writing the item gives back the same JSON. It is registered under ``"unknown"`` so that
    an item written with that label also reads back as itself.

    An item of a registered label that carries keys its class does not know (newer data) is
    kept the same way, all its keys in ``fields`` (``metadata`` too, in place), instead of
    being read as that class with the keys dropped.

    Raises:
        InvalidTypeError: ``type`` is not a string or ``fields`` not a dict of JSON values.
        InvalidValueError: ``type`` is blank, or the label of a registered class while
            ``fields`` holds only keys that class knows (build that class instead), or
            ``fields`` has a key the item itself is written with.
    """

    content_type: ClassVar[ContentType] = ContentType.UNKNOWN

    _type: str = attrs.field(alias="type")
    _fields: dict[str, Any] = attrs.field(factory=dict, alias="fields")

    def __attrs_post_init__(self) -> None:
        _store(self, "_fields", _check_fields(self._fields))
        _store(self, "_type", _check_label(self._type, self._fields))
        super().__attrs_post_init__()

    @property
    def type(self) -> str:
        """The type label as it was read."""
        return self._type

    @type.setter
    def type(self, value: str) -> None:
        self._type = _check_label(value, self._fields)

    @property
    def fields(self) -> dict[str, Any]:
        """Every other key of the item, as read."""
        return self._fields

    @fields.setter
    def fields(self, value: dict[str, Any]) -> None:
        fields = _check_fields(value)
        _check_label(self._type, fields)
        self._fields = fields

    def __str__(self) -> str:
        return f"[{self._type}]"


def labelled_class(label: str) -> type[KernelContent] | None:
    """The class registered under ``label`` (any case), the library's or a plugin's.

    ``None`` for a label of no class, or of `UnknownContent` itself: an unknown item under
    such a label is the newer data of that class, not an item of some format.
    """
    found = CONTENT_TYPES.get_class(label)
    return None if found is None or issubclass(found, UnknownContent) else found


def _check_label(value: Any, fields: dict[str, Any]) -> str:
    """A checked label: not blank, and not a registered class's unless ``fields`` are newer."""
    label = check_text(value, "type")
    if not label.strip():
        raise InvalidValueError("an item's type label must not be blank", path="type")
    found = labelled_class(label)
    if found is not None and item_keys(found).issuperset(fields):
        raise InvalidValueError(
            f"{label!r} is the label of {found.__name__}: build a {found.__name__} instead",
            path="type",
        )
    return label


def _check_fields(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InvalidTypeError.mismatch("fields", "a dict", describe_type(value))
    if "type" in value:
        raise InvalidValueError(
            "'type' would be read back as the item's own type label, not as a field",
            path='fields["type"]',
        )
    copied: dict[str, Any] = check_json(value, "fields")
    return copied
