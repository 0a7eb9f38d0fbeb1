"""A model's request to call a function (a tool call)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, ClassVar

import attrs

from ..errors import FunctionArgumentsError
from ..labels import ContentType
from .base import KernelContent
from .function_result import FunctionResultContent

__all__ = ["FunctionCallContent"]


@attrs.define(slots=True, weakref_slot=False)
class FunctionCallContent(KernelContent):
    """A call a model asks the application to make.

    ``arguments`` is kept exactly as given: the JSON string a model produced stays that string,
    byte for byte, so it can be sent back unchanged; a mapping stays a mapping. The function
    name is never split (``"search-web"`` is one name, not a plugin and a function).
    """

    content_type: ClassVar[ContentType] = ContentType.FUNCTION_CALL

    id: str | None
    """The call id that its result must quote; ``None`` for providers without ids (Gemini)."""

    name: str
    """The function's name, exactly as the model wrote it."""

    arguments: str | Mapping[str, Any] | None = None
    """The arguments: a JSON text as the model wrote it, or a mapping."""

    index: int | None = None
    """The call's position among the message's calls, when the provider numbers them."""

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
        if not isinstance(parsed, dict):
            raise FunctionArgumentsError.mismatch(
                where, "arguments that are a JSON object", f"a JSON {type(parsed).__name__}"
            )
        return parsed

    def to_result(self, value: Any, is_error: bool = False) -> FunctionResultContent:
        """Build the result of this call, quoting its id and name."""
        return FunctionResultContent(
            call_id=self.id, result=value, name=self.name, is_error=is_error
        )
