"""Items of a type nobody registered, kept so they can be written back unchanged."""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

from ..labels import ContentType
from .base import KernelContent

__all__ = ["UnknownContent"]


@attrs.define(slots=True, weakref_slot=False)
class UnknownContent(KernelContent):
    """An item whose type label no class is registered under, as read from newer data.

    ``type`` is the label that was read and ``fields`` every other key exactly as it was read,
    so writing the item gives back the same JSON. It is registered under ``"unknown"`` so that
    an item written with that label also reads back as itself.
    """

    content_type: ClassVar[ContentType] = ContentType.UNKNOWN

    type: str
    """The type label as it was read."""

    fields: dict[str, Any] = attrs.field(factory=dict)
    """Every other key of the item, as read."""
