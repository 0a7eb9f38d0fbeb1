"""The result of a function call, sent back to the model."""

from __future__ import annotations

import json
from typing import Any, ClassVar

import attrs

from ..errors import InvalidTypeError, SemanticChatError, describe_type
from ..labels import ContentType
from ..validation import check_flag, check_json, check_optional_text, check_text
from .base import KernelContent, _store

__all__ = ["FunctionResultContent", "check_items_only", "check_result", "holds_items"]


@attrs.define(slots=True, weakref_slot=False)
class FunctionResultContent(KernelContent):
    """What a function returned, quoting the id of the call it answers.

    ``result`` is a string, any JSON value (dicts and lists stay dicts and lists, never their
    Python ``repr``), or a list of items for multimodal tool output. A JSON value is copied and
    checked when given (numpy scalars and arrays become the numbers and lists they hold); a lone
    item is taken as a list of one. ``str()`` gives the result as text.

    Raises:
        InvalidTypeError: a field of the wrong type, or a result that is neither JSON nor a list
            of items; the message names the field (``result["when"]``).
        InvalidValueError: a number in the result that JSON cannot hold (NaN, infinities).
    """

    content_type: ClassVar[ContentType] = ContentType.FUNCTION_RESULT

    _call_id: str | None = attrs.field(alias="call_id")
    _result: Any = attrs.field(default=None, alias="result")
    _name: str | None = attrs.field(default=None, alias="name")
    _is_error: bool = attrs.field(default=False, alias="is_error")

    def __attrs_post_init__(self) -> None:
        call_id, result, name = self._call_id, self._result, self._name
        is_error: Any = self._is_error  # a constructor's argument, not yet checked
        if call_id is not None and not (type(call_id) is str and call_id.isascii()):
            _store(self, "_call_id", check_optional_text(call_id, "call_id"))
        if result is not None and not (type(result) is str and result.isascii()):
            _store(self, "_result", check_result(result))
        if name is not None and not (type(name) is str and name.isascii()):
            _store(self, "_name", check_optional_text(name, "name"))
        if type(is_error) is not bool:
            _store(self, "_is_error", check_flag(is_error, "is_error"))
        if self._metadata is not None:
            super().__attrs_post_init__()

    @property
    def call_id(self) -> str | None:
        """The id of the call this answers; ``None`` for providers without ids (Gemini)."""
        return self._call_id

    @call_id.setter
    def call_id(self, value: str | None) -> None:
        self._call_id = check_optional_text(value, "call_id")

    @property
    def result(self) -> Any:
        """The function's output: a string, a JSON value, or a list of items."""
        return self._result

    @result.setter
    def result(self, value: Any) -> None:
        self._result = check_result(value)

    @property
    def name(self) -> str | None:
        """The function's name, for providers that match results by name."""
        return self._name

    @name.setter
    def name(self, value: str | None) -> None:
        self._name = check_optional_text(value, "name")

    @property
    def is_error(self) -> bool:
        """Whether the function failed and ``result`` describes the failure."""
        return self._is_error

    @is_error.setter
    def is_error(self, value: bool) -> None:
        self._is_error = check_flag(value, "is_error")

    def __str__(self) -> str:
        """The result as text: a string as it is, items joined by lines, JSON as JSON text."""
        result = self._result
        if result is None:
            return ""
        if isinstance(result, str):
            return result
        if type(result) is list and result and isinstance(result[0], KernelContent):
            return "\n".join(str(item) for item in result)
        # default=repr: a value put into the result after it was given is still shown
        return json.dumps(result, ensure_ascii=False, default=repr)


def check_result(value: Any) -> Any:
    """Return a result as stored: text as it is, items as a new list, JSON as a checked copy.

    Raises:
        InvalidTypeError: ``value`` is neither text, JSON nor a list of items only.
        InvalidValueError: a number JSON cannot hold.
    """
    if value is None:
        return value
    if isinstance(value, str):
        return check_text(value, "result")
    if isinstance(value, KernelContent):
        return [value]
    if holds_items(value):
        check_items_only(value, InvalidTypeError)
        return list(value)
    return check_json(value, "result")


def holds_items(result: Any) -> bool:
    """Whether ``result`` is a list of items (multimodal output) rather than JSON."""
    return type(result) is list and any(isinstance(element, KernelContent) for element in result)


def check_items_only(result: list[Any], error: type[SemanticChatError]) -> None:
    """Refuse a result list that mixes items with JSON, naming the first element not an item.

    Raises:
        error: at ``result[i]``, the first element that is not an item.
    """
    for index, element in enumerate(result):
        if not isinstance(element, KernelContent):
            raise error.mismatch(
                f"result[{index}]",
                "an item (a result is JSON or a list of items, not both)",
                describe_type(element),
            )
