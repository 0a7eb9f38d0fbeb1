"""Plain text, and a model's refusal to answer."""

from __future__ import annotations

from typing import ClassVar

import attrs

from ..labels import ContentType
from .base import KernelContent

__all__ = ["RefusalContent", "TextContent"]


@attrs.define(slots=True, weakref_slot=False)
class TextContent(KernelContent):
    """A piece of text written by a person or a model."""

    content_type: ClassVar[ContentType] = ContentType.TEXT

    text: str
    """The text itself."""

    def __str__(self) -> str:
        return self.text


@attrs.define(slots=True, weakref_slot=False)
class RefusalContent(KernelContent):
    """A model's stated refusal to answer, kept apart from its ordinary text."""

    content_type: ClassVar[ContentType] = ContentType.REFUSAL

    text: str
    """The refusal as the model worded it."""

    def __str__(self) -> str:
        return self.text
