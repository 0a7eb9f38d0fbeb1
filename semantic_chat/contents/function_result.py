"""The result of a function call, sent back to the model."""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

from ..labels import ContentType
from .base import KernelContent

__all__ = ["FunctionResultContent"]


@attrs.define(slots=True, weakref_slot=False)
class FunctionResultContent(KernelContent):
    """What a function returned, quoting the id of the call it answers.

    ``result`` is a string, any JSON value (dicts and lists stay dicts and lists, never their
    Python ``repr``), or a list of items for multimodal tool output.
    """

    content_type: ClassVar[ContentType] = ContentType.FUNCTION_RESULT

    call_id: str | None
    """The id of the call this answers; ``None`` for providers without ids (Gemini)."""

    result: Any = None
    """The function's output: a string, a JSON value, or a list of items."""

    name: str | None = None
    """The function's name, for providers that match results by name."""

    is_error: bool = False
    """Whether the function failed and ``result`` describes the failure."""
