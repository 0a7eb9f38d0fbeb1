"""`Usage`: token counts reported with a model's answer."""

from __future__ import annotations

from typing import Any

import attrs

from .errors import InvalidTypeError, describe_type
from .validation import check_int_range, check_unknown_keys

__all__ = ["Usage", "UsageWithUnknownKeys"]


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


USAGE_KEYS_IN_ORDER: tuple[str, ...] = tuple(field.name for field in attrs.fields(Usage))
"""The keys a `Usage` is written with, in the order of its constructor's arguments."""

USAGE_KEYS = frozenset(USAGE_KEYS_IN_ORDER)
"""The keys a `Usage` is written with."""


def _check_unknown_counts(_: Any, field: attrs.Attribute[Any], value: Any) -> None:
    """Check the kept keys: a non-empty dict of JSON values, none of them a known count."""
    check_unknown_keys(
        value,
        USAGE_KEYS,
        empty="a usage with unknown keys needs at least one: build a Usage",
        own="the usage's own count",
    )


@attrs.define(slots=True, weakref_slot=False, on_setattr=attrs.setters.validate)
class UsageWithUnknownKeys(Usage):
    """A `Usage` read with keys this version does not know (counts a newer version reports).

    They are kept as read in ``unknown_keys`` and written back after the known counts, so
    saving again loses nothing; they count in ``==``. Adding usages keeps the known counts
    only, since an unknown key cannot be added up.
    """

    _unknown_keys: dict[str, Any] = attrs.field(
        kw_only=True, alias="unknown_keys", validator=_check_unknown_counts
    )

    @property
    def unknown_keys(self) -> dict[str, Any]:
        """The keys this version does not know, with their values as read."""
        return self._unknown_keys
