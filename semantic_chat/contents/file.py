"""Documents and other files sent whole to a model (PDF, spreadsheets, text)."""

from __future__ import annotations

from typing import ClassVar

import attrs

from ..labels import ContentType
from ..validation import check_optional_text
from .base import _store
from .binary import BinaryContent

__all__ = ["FileContent"]


@attrs.define(slots=True, weakref_slot=False, on_setattr=attrs.setters.NO_OP)
class FileContent(BinaryContent):
    """A file: bytes with a media type, a URI, or a provider's file id, and its name."""

    content_type: ClassVar[ContentType] = ContentType.FILE

    _filename: str | None = attrs.field(default=None, alias="filename")

    def __attrs_post_init__(self) -> None:
        filename = self._filename
        if filename is not None and not (type(filename) is str and filename.isascii()):
            _store(self, "_filename", check_optional_text(filename, "filename"))
        super().__attrs_post_init__()

    @property
    def filename(self) -> str | None:
        """The file's name as shown to the model."""
        return self._filename

    @filename.setter
    def filename(self, value: str | None) -> None:
        self._filename = check_optional_text(value, "filename")

    def _details(self) -> list[str]:
        return [] if self._filename is None else [self._filename]
