"""Plain text, and a model's refusal to answer."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import attrs

from ..labels import ContentType
from ..validation import check_text
from .base import KernelContent, _store
from .citation import Citation, check_citations

__all__ = ["RefusalContent", "TextContent"]


@attrs.define(slots=True, weakref_slot=False)
class TextContent(KernelContent):
    """A piece of text written by a person or a model, with the sources that support it.

    Raises:
        InvalidTypeError: ``text`` is not a string, or ``citations`` not citations.
    """

    content_type: ClassVar[ContentType] = ContentType.TEXT

    _text: str = attrs.field(alias="text")
    _citations: Sequence[Citation] = attrs.field(  # stored as a tuple
        default=(), alias="citations", kw_only=True, metadata={"shown_when_set": True}
    )

    def __attrs_post_init__(self) -> None:
        if not (type(self._text) is str and self._text.isascii()):
            _store(self, "_text", check_text(self._text, "text"))
        if self._citations != ():
            _store(self, "_citations", check_citations(self._citations))
        if self._metadata is not None:
            super().__attrs_post_init__()

    @property
    def text(self) -> str:
        """The text itself."""
        return self._text

    @text.setter
    def text(self, value: str) -> None:
        self._text = value if type(value) is str and value.isascii() else check_text(value, "text")

    @property
    def citations(self) -> tuple[Citation, ...]:
        """The sources this text cites, in order; assign any sequence of `Citation`."""
        return self._citations  # type: ignore[return-value]  # always stored as a tuple

    @citations.setter
    def citations(self, value: Sequence[Citation]) -> None:
        self._citations = check_citations(value)

    def __str__(self) -> str:
        return self._text


@attrs.define(slots=True, weakref_slot=False)
class RefusalContent(KernelContent):
    """A model's stated refusal to answer, kept apart from its ordinary text.

    Raises:
        InvalidTypeError: ``text`` is not a string.
    """

    content_type: ClassVar[ContentType] = ContentType.REFUSAL

    _text: str = attrs.field(alias="text")

    def __attrs_post_init__(self) -> None:
        if not (type(self._text) is str and self._text.isascii()):
            _store(self, "_text", check_text(self._text, "text"))
        if self._metadata is not None:
            super().__attrs_post_init__()

    @property
    def text(self) -> str:
        """The refusal as the model worded it."""
        return self._text

    @text.setter
    def text(self, value: str) -> None:
        self._text = value if type(value) is str and value.isascii() else check_text(value, "text")

    def __str__(self) -> str:
        return self._text
