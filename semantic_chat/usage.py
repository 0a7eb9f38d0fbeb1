"""`Usage`: token counts reported with a model's answer."""

from __future__ import annotations

import attrs

__all__ = ["Usage"]


def _add_optional(left: int | None, right: int | None) -> int | None:
    if left is None:
        return right
    if right is None:
        return left
    return left + right


@attrs.define(slots=True, weakref_slot=False)
class Usage:
    """Tokens a request used; adds with ``+`` (and ``sum``) to total several requests.

    ``cached_tokens`` and ``reasoning_tokens`` are ``None`` when the provider did not report
    them, which is not the same as reporting zero; adding keeps that difference.
    """

    prompt_tokens: int = 0
    """Tokens in the input."""

    completion_tokens: int = 0
    """Tokens in the output, reasoning included."""

    total_tokens: int = 0
    """Input and output tokens together, as the provider counts them."""

    cached_tokens: int | None = None
    """Input tokens served from the provider's prompt cache."""

    reasoning_tokens: int | None = None
    """Output tokens spent on reasoning."""

    def __add__(self, other: Usage) -> Usage:
        if not isinstance(other, Usage):
            return NotImplemented
        return Usage(
            self.prompt_tokens + other.prompt_tokens,
            self.completion_tokens + other.completion_tokens,
            self.total_tokens + other.total_tokens,
            _add_optional(self.cached_tokens, other.cached_tokens),
            _add_optional(self.reasoning_tokens, other.reasoning_tokens),
        )

    def __radd__(self, other: object) -> Usage:
        if other == 0:  # sum() starts from 0
            return self
        return NotImplemented
