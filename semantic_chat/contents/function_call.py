"""A model's request to call a function (a tool call)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, ClassVar

import attrs

from ..errors import FunctionArgumentsError, InvalidTypeError, describe_type
from ..labels import ContentType
from ..validation import (
    JSON_INT_MAX,
    JSON_INT_MIN,
    check_json,
    check_optional_int,
    check_optional_text,
    check_text,
)
from .base import KernelContent, _store
from .function_result import FunctionResultContent

__all__ = ["FunctionCallContent", "check_arguments"]


@attrs.define(slots=True, weakref_slot=False)
class FunctionCallContent(KernelContent):
    """A call a model asks the application to make.

    ``arguments`` is kept exactly as given: the JSON string a model produced stays that string,
    byte for byte, so it can be sent back unchanged; a mapping stays a mapping. The function
    name is never split (``"search-web"`` is one name, not a plugin and a function). A mapping
    is kept as a dict of JSON values, copied and checked when given (numpy values become the
    numbers they hold). ``str()`` gives ``name(arguments)``.

    Raises:
        InvalidTypeError: a field of the wrong type; the message names the field.
        InvalidValueError: a number in mapping arguments that JSON cannot hold.
    """

    content_type: ClassVar[ContentType] = ContentType.FUNCTION_CALL

    _id: str | None = attrs.field(alias="id")
    _name: str = attrs.field(alias="name")
    _arguments: str | Mapping[str, Any] | None = attrs.field(default=None, alias="arguments")
    _index: int | None = attrs.field(default=None, alias="index")

    def __attrs_post_init__(self) -> None:
        call_id, name, arguments, index = self._id, self._name, self._arguments, self._index
        if call_id is not None and not (type(call_id) is str and call_id.isascii()):
            _store(self, "_id", check_optional_text(call_id, "id"))
        if not (type(name) is str and name.isascii()):
            _store(self, "_name", check_text(name, "name"))
        if arguments is not None and not (type(arguments) is str and arguments.isascii()):
            _store(self, "_arguments", check_arguments(arguments))
        if index is not None and not (type(index) is int and JSON_INT_MIN <= index <= JSON_INT_MAX):
            _store(self, "_index", check_optional_int(index, "index"))
        if self._metadata is not None:
            super().__attrs_post_init__()

    @property
    def id(self) -> str | None:
        """The call id that its result must quote; ``None`` for providers without ids (Gemini)."""
        return self._id

    @id.setter
    def id(self, value: str | None) -> None:
        self._id = check_optional_text(value, "id")

    @property
    def name(self) -> str:
        """The function's name, exactly as the model wrote it."""
        return self._name

    @name.setter
    def name(self, value: str) -> None:
        self._name = check_text(value, "name")

    @property
    def arguments(self) -> str | Mapping[str, Any] | None:
        """The arguments: a JSON text as the model wrote it, or a mapping of JSON values."""
        return self._arguments

    @arguments.setter
    def arguments(self, value: str | Mapping[str, Any] | None) -> None:
        self._arguments = check_arguments(value)

    @property
    def index(self) -> int | None:
        """The call's position among the message's calls, when the provider numbers them."""
        return self._index

    @index.setter
    def index(self, value: int | None) -> None:
        self._index = check_optional_int(value, "index")

    def parse_arguments(self) -> dict[str, Any]:
        """Return the call's arguments as a dict.

        A JSON string is decoded; a mapping is copied; no arguments (``None`` or a blank
        string) give an empty dict.

        Raises:
            FunctionArgumentsError: the arguments are not valid JSON or not a JSON object;
                the message names the call id and the function.
        """
        arguments = self.arguments
        if arguments is None:
            return {}
        if isinstance(arguments, Mapping):
            return dict(arguments)
        if not arguments.strip():
            return {}
        where = f"function call {self.id!r} ({self.name})"
        try:
            parsed = json.loads(arguments)
        except json.JSONDecodeError as error:
            raise FunctionArgumentsError(
                f"arguments are not valid JSON: {error}", path=where,
                expected="a JSON object", got="invalid JSON",
            ) from None
        except RecursionError:  # deeper than Python's stack: no located JSONDecodeError
            raise FunctionArgumentsError(
                "arguments are not valid JSON: nested too deeply to read", path=where,
                expected="a JSON object", got="JSON nested too deeply",
            ) from None
        if not isinstance(parsed, dict):
            raise FunctionArgumentsError.mismatch(
                where, "arguments that are a JSON object", f"a JSON {type(parsed).__name__}"
            )
        return parsed

    def __str__(self) -> str:
        """``name(arguments)``, the arguments as they were given (a mapping as JSON)."""
        arguments = self._arguments
        if arguments is None:
            shown = ""
        elif isinstance(arguments, str):
            shown = arguments
        else:
            shown = json.dumps(arguments, ensure_ascii=False, default=repr)
        return f"{self._name}({shown})"

    def to_result(self, value: Any, is_error: bool = False) -> FunctionResultContent:
        """Build the result of this call, quoting its id and name."""
        return FunctionResultContent(
            call_id=self.id, result=value, name=self.name, is_error=is_error
        )


def check_arguments(value: Any) -> str | dict[str, Any] | None:
    """Return call arguments as stored: a string as it is, a mapping as a checked JSON copy.

    Raises:
        InvalidTypeError: ``value`` is neither a string, a mapping nor ``None``, or the
            mapping holds a value JSON cannot (the message names its key).
        InvalidValueError: a number in the mapping that JSON cannot hold.
    """
    if value is None:
        return value
    if isinstance(value, str):
        return check_text(value, "arguments")
    if isinstance(value, Mapping):
        copied: dict[str, Any] = check_json(dict(value), "arguments")
        return copied
    raise InvalidTypeError.mismatch(
        "arguments", "a JSON string, a mapping or None", describe_type(value)
    )
