"""A model's reasoning: thinking blocks and reasoning items."""

from __future__ import annotations

from typing import ClassVar

import attrs

from ..labels import ContentType
from .base import KernelContent

__all__ = ["ReasoningContent"]


@attrs.define(slots=True, weakref_slot=False)
class ReasoningContent(KernelContent):
    """What a model thought before answering, with what its provider needs to accept it back.

    Providers that hide reasoning send a ``signature`` (Anthropic) or ``encrypted`` content
    (OpenAI) that must be returned untouched on the next turn; ``provider`` names whose opaque
    data it is, so it is only sent back to the same provider.
    """

    content_type: ClassVar[ContentType] = ContentType.REASONING

    text: str = ""
    """The readable reasoning or its summary; empty when the provider sent none."""

    signature: str | None = None
    """A provider's signature over the reasoning text (Anthropic thinking blocks)."""

    encrypted: str | None = None
    """Opaque encrypted reasoning to send back as is (OpenAI ``encrypted_content``)."""

    provider: str | None = None
    """Which provider the opaque fields belong to, e.g. ``"openai"`` or ``"anthropic"``."""

    def __str__(self) -> str:
        return self.text
