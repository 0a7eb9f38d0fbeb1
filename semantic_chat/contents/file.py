"""Documents and other files sent whole to a model (PDF, spreadsheets, text)."""

from __future__ import annotations

from typing import ClassVar

import attrs

from ..labels import ContentType
from .binary import BinaryContent

__all__ = ["FileContent"]


@attrs.define(slots=True, weakref_slot=False, on_setattr=attrs.setters.NO_OP)
class FileContent(BinaryContent):
    """A file: bytes with a media type, a URI, or a provider's file id, and its name."""

    content_type: ClassVar[ContentType] = ContentType.FILE

    filename: str | None = None
    """The file's name as shown to the model."""
