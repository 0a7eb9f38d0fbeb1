"""`Usage`: token counts reported with a model's answer."""

from __future__ import annotations

from typing import Any

import attrs

from .errors import InvalidTypeError, describe_type
from .validation import check_int_range

__all__ = ["Usage"]


def _add_optional(left: int | None, right: int | None) -> int | None:
    if left is None:
        return right
    if right is None:
        return left
    return left + right


def _count(_: Any, field: attrs.Attribute[int], value: Any) -> None:
    if type(value) is not int:
        raise InvalidTypeError.mismatch(field.name, "an int", describe_type(value))
    check_int_range(value, field.name)


def _optional_count(_: Any, field: attrs.Attribute[int | None], value: Any) -> None:
    if value is not None:
        if type(value) is not int:
            raise InvalidTypeError.mismatch(field.name, "an int or None", describe_type(value))
        check_int_range(value, field.name)


@attrs.define(slots=True, weakref_slot=False, on_setattr=attrs.setters.validate)
class Usage:
    """Tokens a request used; adds with ``+`` (and ``sum``) to total several requests.

    ``prompt_tokens`` counts every input token, as OpenAI reports it: tokens read from the
    prompt cache (``cached_tokens``) and written to it (``cache_creation_tokens``) included.
    Anthropic reports the three apart; its reader adds them up. The optional counts are
    ``None`` when the provider did not report them, which is not the same as reporting zero;
    adding keeps that difference.

    Raises:
        InvalidTypeError: a count that is not an ``int`` (a numpy integer too: convert it
            with ``int()``), when built or assigned.
    """

    prompt_tokens: int = attrs.field(default=0, validator=_count)
    """Tokens in the input."""

    completion_tokens: int = attrs.field(default=0, validator=_count)
    """Tokens in the output, reasoning included."""

    total_tokens: int = attrs.field(default=0, validator=_count)
    """Input and output tokens together, as the provider counts them."""

    cached_tokens: int | None = attrs.field(
        default=None, validator=_optional_count
    )
    """Input tokens served from the provider's prompt cache."""

    reasoning_tokens: int | None = attrs.field(
        default=None, validator=_optional_count
    )
    """Output tokens spent on reasoning."""

    cache_creation_tokens: int | None = attrs.field(default=None, validator=_optional_count)
    """Input tokens written to the provider's prompt cache (Anthropic reports them)."""

    def __add__(self, other: Usage) -> Usage:
        if not isinstance(other, Usage):
            return NotImplemented
        return Usage(
            self.prompt_tokens + other.prompt_tokens,
            self.completion_tokens + other.completion_tokens,
            self.total_tokens + other.total_tokens,
            _add_optional(self.cached_tokens, other.cached_tokens),
            _add_optional(self.reasoning_tokens, other.reasoning_tokens),
            _add_optional(self.cache_creation_tokens, other.cache_creation_tokens),
        )

    def __radd__(self, other: object) -> Usage:
        if other == 0:  # sum() starts from 0
            return self
        return NotImplemented
