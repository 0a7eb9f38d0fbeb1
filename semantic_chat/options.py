"""`ChatOptions`: the settings of a request that are not messages (model, tools, sampling).

A request body holds a conversation and the settings to run it with. The conversation goes
into the history's messages; the settings go here, on ``ChatHistory.options``, under names
that do not depend on the API: ``max_tokens`` is Chat Completions' ``max_completion_tokens``
(or its older ``max_tokens``) and Responses' ``max_output_tokens``; ``reasoning_effort`` is
Chat Completions' ``reasoning_effort`` and Responses' ``reasoning.effort``. A request's
``instructions`` are not an option: they are the history's leading system message.

Fields a format has and this class does not name (``store``, ``include``, ``metadata``,
``response_format`` ...) are kept in ``extra`` under their wire names, so that a request read
and written in one format comes back as it was. Tool definitions are kept as given (JSON), in
the shape of the format they were read from; a writer converts them to its own shape.
"""

from __future__ import annotations

import math
from typing import Any

import attrs

from .errors import InvalidTypeError, InvalidValueError, describe_type
from .validation import check_json, check_optional_int, check_optional_text, check_unknown_keys

__all__ = ["ChatOptions", "ChatOptionsWithUnknownKeys"]


def _number(value: Any, field: str) -> float | None:
    """Return a finite ``int`` or ``float`` as given (numpy numbers as Python ones), or None.

    Raises:
        InvalidTypeError: not a number (``True`` is not one here).
        InvalidValueError: NaN or an infinity.
    """
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        checked = check_json(value, field) if hasattr(value, "dtype") else value
        if isinstance(checked, bool) or not isinstance(checked, (int, float)):
            raise InvalidTypeError.mismatch(field, "a number or None", describe_type(value))
        value = checked
    if isinstance(value, float) and not math.isfinite(value):
        raise InvalidValueError(f"{value!r} is not a finite number", path=field)
    number: float = value
    return number


def _model(value: Any) -> str | None:
    return check_optional_text(value, "model")


def _tools(value: Any) -> list[dict[str, Any]] | None:
    if value is None:
        return None
    if not isinstance(value, list):
        raise InvalidTypeError.mismatch(
            "tools", "a list of tool objects or None", describe_type(value)
        )
    tools: list[dict[str, Any]] = check_json(value, "tools")
    for index, tool in enumerate(tools):
        if not isinstance(tool, dict):
            raise InvalidTypeError.mismatch(f"tools[{index}]", "a tool object", describe_type(tool))
    return tools


def _tool_choice(value: Any) -> str | dict[str, Any] | None:
    if value is None or isinstance(value, str):
        return check_optional_text(value, "tool_choice")
    if isinstance(value, dict):
        choice: dict[str, Any] = check_json(value, "tool_choice")
        return choice
    raise InvalidTypeError.mismatch("tool_choice", "a str, a dict or None", describe_type(value))


def _parallel_tool_calls(value: Any) -> bool | None:
    if value is None or value is True or value is False:
        return value
    raise InvalidTypeError.mismatch("parallel_tool_calls", "a bool or None", describe_type(value))


def _temperature(value: Any) -> float | None:
    return _number(value, "temperature")


def _top_p(value: Any) -> float | None:
    return _number(value, "top_p")


def _frequency_penalty(value: Any) -> float | None:
    return _number(value, "frequency_penalty")


def _presence_penalty(value: Any) -> float | None:
    return _number(value, "presence_penalty")


def _max_tokens(value: Any) -> int | None:
    return check_optional_int(value, "max_tokens")


def _seed(value: Any) -> int | None:
    return check_optional_int(value, "seed")


def _reasoning_effort(value: Any) -> str | None:
    return check_optional_text(value, "reasoning_effort")


def _stop(value: Any) -> str | list[str] | None:
    if value is None or isinstance(value, str):
        return check_optional_text(value, "stop")
    if isinstance(value, list):
        for index, element in enumerate(value):
            if not isinstance(element, str):
                raise InvalidTypeError.mismatch(f"stop[{index}]", "a str", describe_type(element))
        return [str.__str__(element) for element in value]
    raise InvalidTypeError.mismatch("stop", "a str, a list of str or None", describe_type(value))


def _extra(value: Any) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise InvalidTypeError.mismatch("extra", "a dict", describe_type(value))
    extra: dict[str, Any] = check_json(value, "extra")
    return extra


def _metadata(value: Any) -> dict[str, Any] | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise InvalidTypeError.mismatch("metadata", "a dict or None", describe_type(value))
    metadata: dict[str, Any] = check_json(value, "metadata")
    return metadata or None


@attrs.define(slots=True, weakref_slot=False, kw_only=True, on_setattr=attrs.setters.convert)
class ChatOptions:
    """How to run a conversation: the model, its tools and its sampling settings.

    Every field is optional (``None``: the API's default). Each is checked, and JSON values
    are copied, when the options are built and when a field is assigned.

    Raises:
        InvalidTypeError: a field given a value of the wrong type; the message names it
            (``temperature: expected a number or None, got str``).
        InvalidValueError: a number JSON cannot hold (NaN, an infinity).
    """

    model: str | None = attrs.field(default=None, converter=_model)
    """The model to run (``gpt-4o``)."""

    tools: list[dict[str, Any]] | None = attrs.field(default=None, converter=_tools)
    """Tool definitions, as JSON objects in the shape of the format they were read from."""

    tool_choice: str | dict[str, Any] | None = attrs.field(default=None, converter=_tool_choice)
    """``"auto"``, ``"none"``, ``"required"``, or an object naming one tool."""

    parallel_tool_calls: bool | None = attrs.field(
        default=None, converter=_parallel_tool_calls
    )
    """Whether the model may call several tools in one turn."""

    temperature: float | None = attrs.field(default=None, converter=_temperature)
    """Sampling temperature (an ``int`` stays an ``int``, as it was written)."""

    top_p: float | None = attrs.field(default=None, converter=_top_p)
    """Nucleus sampling: the probability mass to sample from."""

    max_tokens: int | None = attrs.field(default=None, converter=_max_tokens)
    """The most tokens to generate (``max_completion_tokens`` / ``max_output_tokens``)."""

    reasoning_effort: str | None = attrs.field(default=None, converter=_reasoning_effort)
    """How hard a reasoning model thinks (``low``, ``medium``, ``high`` ...)."""

    stop: str | list[str] | None = attrs.field(default=None, converter=_stop)
    """Text at which generation stops (Chat Completions only)."""

    seed: int | None = attrs.field(default=None, converter=_seed)
    """A seed for reproducible sampling (Chat Completions only)."""

    frequency_penalty: float | None = attrs.field(default=None, converter=_frequency_penalty)
    """Penalty on tokens by how often they appeared (Chat Completions only)."""

    presence_penalty: float | None = attrs.field(default=None, converter=_presence_penalty)
    """Penalty on tokens that appeared at all (Chat Completions only)."""

    extra: dict[str, Any] = attrs.field(factory=dict, converter=_extra)
    """Other request fields, under their wire names (``store``, ``include``, ``metadata``)."""

    metadata: dict[str, Any] | None = attrs.field(default=None, converter=_metadata)
    """What a format keeps to write its request back exactly, under the format's key."""

    def is_empty(self) -> bool:
        """Whether no field is set (such options are not worth keeping on a history)."""
        return self == _EMPTY


_EMPTY = ChatOptions()


OPTION_KEYS_IN_ORDER: tuple[str, ...] = tuple(field.name for field in attrs.fields(ChatOptions))
"""The keys `ChatOptions` are written with, in the order of their fields."""

OPTION_KEYS = frozenset(OPTION_KEYS_IN_ORDER)
"""The keys `ChatOptions` are written with."""


def _unknown_options(value: Any) -> dict[str, Any]:
    """Check the kept keys: a non-empty dict of JSON values, none of them an option's own name.

    Raises:
        InvalidTypeError: not a dict, or a value JSON cannot hold (``unknown_keys["when"]``).
        InvalidValueError: no key, or a key that would be read back as an option's own field.
    """
    return check_unknown_keys(
        value,
        OPTION_KEYS,
        empty="options with unknown keys need at least one: build a ChatOptions",
        own="the options' own field",
    )


@attrs.define(slots=True, weakref_slot=False, kw_only=True, on_setattr=attrs.setters.convert)
class ChatOptionsWithUnknownKeys(ChatOptions):
    """`ChatOptions` read with keys this version does not know (options of a newer version).

    They are kept as read in ``unknown_keys`` and written back after the known fields, so
    saving again loses nothing; they count in ``==``. A provider writer does not send them
    (it cannot know what they mean): it reports each as a field it cannot carry.
    """

    _unknown_keys: dict[str, Any] = attrs.field(alias="unknown_keys", converter=_unknown_options)

    @property
    def unknown_keys(self) -> dict[str, Any]:
        """The keys this version does not know, with their values as read."""
        return self._unknown_keys
