"""A model's reasoning: thinking blocks and reasoning items."""

from __future__ import annotations

from typing import ClassVar

import attrs

from ..labels import ContentType
from ..validation import check_optional_text, check_text
from .base import KernelContent, _store

__all__ = ["ReasoningContent"]


@attrs.define(slots=True, weakref_slot=False)
class ReasoningContent(KernelContent):
    """What a model thought before answering, with what its provider needs to accept it back.

    Providers that hide reasoning send a ``signature`` (Anthropic) or ``encrypted`` content
    (OpenAI) that must be returned untouched on the next turn; ``provider`` names whose opaque
    data it is, so it is only sent back to the same provider. ``text=None`` means no readable
    text and is stored as ``""``.

    Raises:
        InvalidTypeError: a field is not a string (or ``None`` where that is allowed).
    """

    content_type: ClassVar[ContentType] = ContentType.REASONING

    _text: str = attrs.field(default="", alias="text")
    _signature: str | None = attrs.field(default=None, alias="signature")
    _encrypted: str | None = attrs.field(default=None, alias="encrypted")
    _provider: str | None = attrs.field(default=None, alias="provider")

    def __attrs_post_init__(self) -> None:
        if not (type(self._text) is str and self._text.isascii()):
            text = self._text
            _store(self, "_text", "" if text is None else check_text(text, "text"))
        for name in ("signature", "encrypted", "provider"):
            value = getattr(self, "_" + name)
            if value is not None and not (type(value) is str and value.isascii()):
                _store(self, "_" + name, check_optional_text(value, name))
        if self._metadata is not None:
            super().__attrs_post_init__()

    @property
    def text(self) -> str:
        """The readable reasoning or its summary; empty when the provider sent none."""
        return self._text

    @text.setter
    def text(self, value: str | None) -> None:
        self._text = "" if value is None else check_text(value, "text")

    @property
    def signature(self) -> str | None:
        """A provider's signature over the reasoning text (Anthropic thinking blocks)."""
        return self._signature

    @signature.setter
    def signature(self, value: str | None) -> None:
        self._signature = check_optional_text(value, "signature")

    @property
    def encrypted(self) -> str | None:
        """Opaque encrypted reasoning to send back as is (OpenAI ``encrypted_content``)."""
        return self._encrypted

    @encrypted.setter
    def encrypted(self, value: str | None) -> None:
        self._encrypted = check_optional_text(value, "encrypted")

    @property
    def provider(self) -> str | None:
        """Which provider the opaque fields belong to, e.g. ``"openai"`` or ``"anthropic"``."""
        return self._provider

    @provider.setter
    def provider(self, value: str | None) -> None:
        self._provider = check_optional_text(value, "provider")

    def __str__(self) -> str:
        return self._text
