"""`Tool` and `ToolSet`: the user's functions, their definitions, and the answers to calls.

A `ToolSet` maps names to `Tool`s. It writes their definitions as the ``tools`` parameter of a
request (`ToolSet.definitions`, in the shapes `semantic_chat.tools.definitions` gives), reads
such definitions back (`ToolSet.from_definitions`), and answers a model's `FunctionCallContent`
with a `FunctionResultContent` (`ToolSet.invoke`, `ToolSet.ainvoke`). Invoking never raises
into the caller's loop: a bad call or a failing function becomes an error result
(``is_error=True``) whose text says what went wrong and where, so the model can correct itself.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime
import enum
import inspect
import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar, overload

import attrs
import numpy as np

from ..contents import FunctionCallContent, FunctionResultContent, KernelContent
from ..errors import (
    FunctionArgumentsError,
    InvalidTypeError,
    InvalidValueError,
    SemanticChatError,
    describe_type,
)
from ..formats.wire import OnUnsupported
from ..message import ChatMessageContent
from ..validation import check_json, check_optional_text
from .definitions import read_definitions, relocate, write_definitions
from .schema import FunctionSchema, convert_arguments, function_schema, strict_schema

__all__ = ["Tool", "ToolSet"]

_F = TypeVar("_F", bound=Callable[..., Any])


# --- Tool ----------------------------------------------------------------------------------


def _check_function(value: Any) -> Callable[..., Any] | None:
    if value is not None and not callable(value):
        raise InvalidTypeError.mismatch("function", "a callable or None", describe_type(value))
    return value  # type: ignore[no-any-return]


def _check_schema(value: Any) -> FunctionSchema:
    if not isinstance(value, FunctionSchema):
        raise InvalidTypeError.mismatch("schema", "a FunctionSchema", describe_type(value))
    return value


def _is_async(function: Callable[..., Any] | None) -> bool:
    """Whether calling ``function`` gives a coroutine (an ``async def``, or an object with one)."""
    if function is None:
        return False
    if inspect.iscoroutinefunction(function):
        return True
    call = getattr(type(function), "__call__", None)  # noqa: B004 (an instance's async method)
    return call is not None and inspect.iscoroutinefunction(call)


@attrs.frozen(slots=True, weakref_slot=False)
class Tool:
    """A function a model may call, with the schema the model sees.

    A tool read from definitions (`ToolSet.from_definitions`) has a schema and no function:
    invoking it gives an error result.

    Raises:
        InvalidTypeError: ``function`` is not callable, or ``schema`` not a `FunctionSchema`.
    """

    function: Callable[..., Any] | None = attrs.field(converter=_check_function)
    """The Python function that answers the calls, sync or async; ``None`` for none."""

    schema: FunctionSchema = attrs.field(converter=_check_schema)
    """The name, description and JSON Schema of the parameters the model is told of."""

    @property
    def name(self) -> str:
        """The name the model calls the tool by."""
        return self.schema.name

    @property
    def description(self) -> str | None:
        """What the tool does, as the model is told."""
        return self.schema.description

    @property
    def is_async(self) -> bool:
        """Whether the function is a coroutine function (awaited, not run in a thread)."""
        return _is_async(self.function)

    @classmethod
    def from_function(
        cls,
        function: Callable[..., Any],
        *,
        name: str | None = None,
        description: str | None = None,
        schema: Mapping[str, Any] | None = None,
        strict: bool = False,
    ) -> Tool:
        """Make a tool of ``function``, its schema derived from its signature and docstring.

        ``name`` defaults to the function's ``__name__``, ``description`` to its docstring's
        summary. ``schema``, a JSON Schema of the parameters, replaces the derived one (with
        ``strict``, made strict by `strict_schema`); calls are still bound to the function's
        signature and, where its hints allow, converted to them.

        Raises:
            InvalidTypeError: ``function`` is not callable, a keyword has the wrong type, or
                (without ``schema``) a parameter's hint cannot be a schema; the message
                names it.
        """
        if not callable(function):
            raise InvalidTypeError.mismatch("function", "a callable", describe_type(function))
        name = check_optional_text(name, "name")
        description = check_optional_text(description, "description")
        if type(strict) is not bool:
            raise InvalidTypeError.mismatch("strict", "a bool", describe_type(strict))
        if schema is None:
            derived = function_schema(
                function, name=name, description=description, strict=strict
            )
            return cls(function, derived)
        if not isinstance(schema, Mapping):
            raise InvalidTypeError.mismatch(
                "schema", "a JSON Schema object (a dict) or None", describe_type(schema)
            )
        summary = description if description is not None else _summary(function)
        try:
            parameters: dict[str, Any] = check_json(dict(schema), "parameters")
            given = FunctionSchema(
                name=name if name is not None else _function_name(function),
                description=summary,
                parameters=strict_schema(parameters) if strict else parameters,
                strict=strict,
            )
        except SemanticChatError as error:
            raise relocate(error, "parameters", "schema") from None
        return cls(function, given)


def _function_name(function: Callable[..., Any]) -> str:
    name = getattr(function, "__name__", None)
    if not isinstance(name, str):
        raise InvalidValueError(
            f"{type(function).__name__} has no __name__: pass name=", path="name"
        )
    return name


def _summary(function: Callable[..., Any]) -> str | None:
    """The docstring's first paragraph on one line, or ``None`` without a docstring."""
    doc = inspect.getdoc(function)
    if not doc:
        return None
    paragraph = doc.strip().split("\n\n", 1)[0]
    return " ".join(line.strip() for line in paragraph.splitlines())


# --- invoking ------------------------------------------------------------------------------


def _call_label(call: FunctionCallContent) -> str:
    """How an error result names the call: ``get_weather (call call_1)``."""
    return f"{call.name} (call {call.id})" if call.id is not None else call.name


def _error(call: FunctionCallContent, text: str, inner: Any = None) -> FunctionResultContent:
    result = FunctionResultContent(call_id=call.id, result=text, name=call.name, is_error=True)
    result.inner_content = inner
    return result


_JSON_KINDS = {list: "array", str: "string", int: "integer", float: "number", bool: "boolean"}
"""JSON's names for the values ``json.loads`` gives (``None``: null)."""


def _arguments(call: FunctionCallContent) -> dict[str, Any] | FunctionResultContent:
    """The call's arguments as a dict, or the error result saying why they are not one."""
    arguments = call.arguments
    if arguments is None:
        return {}
    if isinstance(arguments, Mapping):
        return dict(arguments)
    if not arguments.strip():
        return {}
    try:
        parsed = json.loads(arguments)
    except json.JSONDecodeError as error:
        return _error(
            call, f"{_call_label(call)}: arguments: not valid JSON ({error})", error
        )
    if not isinstance(parsed, dict):
        kind = _JSON_KINDS.get(type(parsed), "null")
        return _error(
            call, f"{_call_label(call)}: arguments: expected a JSON object, got a JSON {kind}"
        )
    return parsed


def _bind(function: Callable[..., Any], arguments: dict[str, Any]) -> dict[str, Any]:
    """Check ``arguments`` against the signature alone (a tool whose hints give no schema).

    Raises:
        FunctionArgumentsError: an argument is missing or unknown, at ``arguments``.
    """
    try:
        inspect.signature(function).bind(**arguments)
    except TypeError as error:
        raise FunctionArgumentsError(str(error), path="arguments") from None
    return arguments


def _prepare(
    tools: Mapping[str, Tool], call: FunctionCallContent
) -> tuple[Tool, dict[str, Any]] | FunctionResultContent:
    """The tool and its converted arguments, or the error result for a call that cannot run."""
    if not isinstance(call, FunctionCallContent):
        raise InvalidTypeError.mismatch("call", "a FunctionCallContent", describe_type(call))
    tool = tools.get(call.name)
    if tool is None:
        known = ", ".join(repr(name) for name in tools) or "none"
        return _error(call, f"{_call_label(call)}: unknown tool; the tools are {known}")
    if tool.function is None:
        return _error(
            call,
            f"{_call_label(call)}: this tool was read from a definition and has no function",
        )
    arguments = _arguments(call)
    if isinstance(arguments, FunctionResultContent):
        return arguments
    try:
        try:
            converted = convert_arguments(tool.function, arguments)
        except InvalidTypeError:
            # hints no schema can stand for (the tool was given one): bind to the signature
            converted = _bind(tool.function, arguments)
    except FunctionArgumentsError as error:
        return _error(call, f"{_call_label(call)}: {error}", error)
    return tool, converted


def _raised(call: FunctionCallContent, error: Exception) -> FunctionResultContent:
    detail = str(error)
    said = f": {detail}" if detail else ""
    return _error(call, f"{_call_label(call)} raised {type(error).__name__}{said}", error)


def _result_value(value: Any) -> Any:
    """A tool's return value as a result: JSON values as they are, objects as their fields.

    Items stay items (a lone item as a list of one); attrs and dataclass instances become
    dicts of their fields, enums their values, tuples and sets lists, dates and times (numpy's
    ``datetime64`` too) their ISO 8601 text, pydantic models their JSON dump. Anything else
    (a `ChatMessageContent` too, whose private fields are no result) is left for
    `FunctionResultContent` to refuse at its path.
    """
    if isinstance(value, enum.Enum):  # first: an IntEnum is an int, a StrEnum a str
        return _result_value(value.value)
    if value is None or isinstance(value, (str, bool, int, float, KernelContent)):
        return value
    if isinstance(value, (list, tuple)):
        if any(isinstance(element, KernelContent) for element in value):
            return list(value)
        return [_result_value(element) for element in value]
    if isinstance(value, Mapping):
        return {key: _result_value(element) for key, element in value.items()}
    if isinstance(value, (set, frozenset)):
        elements = [_result_value(element) for element in value]
        try:
            return sorted(elements)
        except TypeError:
            return elements
    if attrs.has(type(value)) and not isinstance(value, ChatMessageContent):
        fields = attrs.fields(type(value))
        return {field.name: _result_value(getattr(value, field.name)) for field in fields}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            field.name: _result_value(getattr(value, field.name))
            for field in dataclasses.fields(value)
        }
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, np.datetime64):  # numpy's ISO 8601 text, to its unit ("NaT" too)
        return str(np.datetime_as_string(value))
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        return dump(mode="json")
    return value


_RESULT_KINDS = (
    "a tool returns text, JSON values, content items (an ImageContent, a list of items), "
    "or attrs, dataclass, enum, date or pydantic values"
)
"""What a tool may return (README, "Tools": results), said where a tool returned otherwise."""


def _result(call: FunctionCallContent, value: Any) -> FunctionResultContent:
    """The result of ``call`` holding ``value``, or the error result saying why it cannot."""
    if isinstance(value, ChatMessageContent):
        return _error(
            call,
            f"{_call_label(call)} returned a {type(value).__name__}, which is not a result: "
            f"{_RESULT_KINDS}; return its items (message.items) or its text (message.content)",
        )
    try:
        return FunctionResultContent(
            call_id=call.id, result=_result_value(value), name=call.name
        )
    except SemanticChatError as error:
        return _error(
            call, f"{_call_label(call)} returned what a result cannot hold: {error}", error
        )


async def _awaited(awaitable: Any) -> Any:
    return await awaitable


def _run_awaitable(awaitable: Any) -> Any:
    """Wait for ``awaitable`` from sync code, in a thread of its own when a loop is running."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(_awaited(awaitable))
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, _awaited(awaitable)).result()


# --- ToolSet -------------------------------------------------------------------------------


class ToolSet(Mapping[str, Tool]):
    """Tools by name: their definitions for a request, and the answers to a model's calls.

    ``ToolSet([get_weather, get_time])`` takes functions (made tools with
    `Tool.from_function`) and tools; `add` and the `tool` decorator add more.

    Raises:
        InvalidTypeError: ``tools`` is not an iterable of functions and tools; the message
            names the element (``tools[2]``).
        InvalidValueError: two tools have one name.
    """

    __slots__ = ("_tools",)

    def __init__(self, tools: Iterable[Callable[..., Any] | Tool] | None = None) -> None:
        self._tools: dict[str, Tool] = {}
        if tools is None:
            return
        if isinstance(tools, (str, bytes, Mapping)) or not isinstance(tools, Iterable):
            raise InvalidTypeError.mismatch(
                "tools", "an iterable of functions and tools", describe_type(tools)
            )
        for index, tool in enumerate(tools):
            if not isinstance(tool, Tool) and not callable(tool):
                raise InvalidTypeError.mismatch(
                    f"tools[{index}]", "a function or a Tool", describe_type(tool)
                )
            try:
                self.add(tool)
            except SemanticChatError as error:
                raise error.at(f"tools[{index}]") from None

    def __getitem__(self, name: str) -> Tool:
        return self._tools[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._tools)

    def __len__(self) -> int:
        return len(self._tools)

    def __repr__(self) -> str:
        return f"ToolSet({list(self._tools)!r})"

    def add(
        self,
        tool: Callable[..., Any] | Tool,
        *,
        name: str | None = None,
        description: str | None = None,
        schema: Mapping[str, Any] | None = None,
        strict: bool = False,
    ) -> Tool:
        """Add a function (as `Tool.from_function` makes it, with these keywords) or a tool.

        Returns the tool added.

        Raises:
            InvalidTypeError: a keyword given with a `Tool` (its schema is made), or what
                `Tool.from_function` refuses.
            InvalidValueError: the set has a tool of that name.
        """
        if isinstance(tool, Tool):
            given = [
                key for key, value in
                (("name", name), ("description", description), ("schema", schema))
                if value is not None
            ] + (["strict"] if strict else [])
            if given:
                raise InvalidTypeError(
                    f"{', '.join(given)} apply to a function; a Tool is added as it is",
                    path=given[0],
                )
            made = tool
        else:
            made = Tool.from_function(
                tool, name=name, description=description, schema=schema, strict=strict
            )
        if made.name in self._tools:
            raise InvalidValueError(
                f"the set already has a tool named {made.name!r}", path="name"
            )
        self._tools[made.name] = made
        return made

    @overload
    def tool(self, function: _F) -> _F: ...

    @overload
    def tool(
        self,
        *,
        name: str | None = None,
        description: str | None = None,
        schema: Mapping[str, Any] | None = None,
        strict: bool = False,
    ) -> Callable[[_F], _F]: ...

    def tool(
        self,
        function: Callable[..., Any] | None = None,
        *,
        name: str | None = None,
        description: str | None = None,
        schema: Mapping[str, Any] | None = None,
        strict: bool = False,
    ) -> Any:
        """Decorator: add the function (``@tools.tool`` or ``@tools.tool(strict=True)``).

        The function is returned unchanged, so it can still be called directly.

        Raises:
            InvalidTypeError, InvalidValueError: as `add` raises them.
        """

        def register(decorated: Callable[..., Any]) -> Callable[..., Any]:
            self.add(decorated, name=name, description=description, schema=schema, strict=strict)
            return decorated

        return register if function is None else register(function)

    def definitions(
        self, format: str, *, on_unsupported: OnUnsupported | None = None
    ) -> list[dict[str, Any]]:
        """The tools as the ``tools`` parameter of a request in ``format``.

        The formats and their shapes are in `semantic_chat.tools.definitions.TOOL_FORMATS`.
        The result can also be given to `ChatOptions.tools`, which every format's
        ``to_request`` converts as needed.

        Raises:
            FormatError: ``format`` has no tool definitions; the message lists those that do.
            UnsupportedContentError: something the format cannot carry (a strict schema for
                Gemini) and ``on_unsupported`` is ``"error"`` (else a warning, or nothing
                with ``"drop"``).
        """
        schemas = [tool.schema for tool in self._tools.values()]
        return write_definitions(schemas, format, on_unsupported)

    @classmethod
    def from_definitions(
        cls,
        payload: Any,
        format: str | None = None,
        *,
        on_unsupported: OnUnsupported | None = None,
    ) -> ToolSet:
        """Read tool definitions into tools with schemas and no functions.

        ``payload`` is a ``tools`` list, or a request body holding one (``{"tools": [...]}``;
        a Gemini SDK request's ``{"config": {"tools": [...]}}``); SDK objects are read as
        their dicts. Without ``format`` each definition's shape says its format, so a list
        mixing them (as `ChatOptions.tools` may) is read too. A provider's own tools
        (``web_search``, ``google_search``) have no function: they are reported as
        ``on_unsupported`` says (a warning by default) and left out. So is a field of a
        function tool a `FunctionSchema` has no place for (Anthropic's ``cache_control``,
        located: ``tools[0].cache_control``): `definitions` cannot write it back.

        Raises:
            FormatError: the payload holds no tools list, a definition is not in the
                format's shape, or a field has the wrong type; the message names it
                (``tools[1].function.name``).
            InvalidValueError: two definitions have one name (``tools[2].name``).
            UnsupportedContentError: a tool is left out and ``on_unsupported`` is ``"error"``.
        """
        made = cls()
        for where, schema in read_definitions(payload, format, on_unsupported):
            try:
                made.add(Tool(None, schema))
            except InvalidValueError as error:
                raise error.with_path(f"{where}.name") from None
        return made

    def invoke(self, call: FunctionCallContent) -> FunctionResultContent:
        """Run the function ``call`` names with its arguments, and return its result.

        Arguments (JSON text or a mapping) are checked and converted to the function's
        hints (`convert_arguments`). An async function is run to completion (in a thread of
        its own when this thread runs an event loop). The result quotes the call's id and
        name; what the function returns becomes the result as `_result_value` says.
        Nothing is raised for a bad call: an unknown tool, arguments that are no JSON object
        or fail a check, a tool without a function, or a function that raises give a result
        with ``is_error=True`` whose text says what and where (the exception, when there is
        one, on its ``inner_content``).

        Raises:
            InvalidTypeError: ``call`` is not a `FunctionCallContent`.
        """
        prepared = _prepare(self._tools, call)
        if isinstance(prepared, FunctionResultContent):
            return prepared
        tool, arguments = prepared
        function = tool.function
        assert function is not None  # _prepare answers a tool without one
        try:
            value = function(**arguments)
            if inspect.isawaitable(value):
                value = _run_awaitable(value)
        except Exception as error:  # the tool's failure is the model's to read, not ours
            return _raised(call, error)
        return _result(call, value)

    async def ainvoke(self, call: FunctionCallContent) -> FunctionResultContent:
        """`invoke` for async code: an async function is awaited, a sync one run in a thread.

        Cancelling the task (``asyncio.wait_for``'s timeout) cancels the await; a sync
        function's thread runs on to its end, its result unused.

        Raises:
            InvalidTypeError: ``call`` is not a `FunctionCallContent`.
        """
        prepared = _prepare(self._tools, call)
        if isinstance(prepared, FunctionResultContent):
            return prepared
        tool, arguments = prepared
        function = tool.function
        assert function is not None  # _prepare answers a tool without one
        try:
            if tool.is_async:
                value = await function(**arguments)
            else:
                value = await asyncio.to_thread(function, **arguments)
                if inspect.isawaitable(value):
                    value = await value
        except Exception as error:  # the tool's failure is the model's to read, not ours
            return _raised(call, error)
        return _result(call, value)
