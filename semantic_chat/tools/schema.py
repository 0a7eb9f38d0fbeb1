"""Tool schemas: a Python function's parameters as JSON Schema, and a model's arguments checked.

`function_schema` reads a function's signature, type hints and docstring and gives the
`FunctionSchema` a provider needs to offer it as a tool: its name, its description and the JSON
Schema (Draft 2020-12) of its parameters. `convert_arguments` goes the other way: it checks the
arguments a model sent against the same hints and converts them to what the function takes
(attrs and dataclass instances, enums, tuples, sets), so that schema and check cannot disagree.
`strict_schema` rewrites a parameters schema for OpenAI's strict mode.

Hints understood: ``str``, ``int``, ``float``, ``bool``, ``None``, ``Any`` (and no hint: any
JSON value), ``X | None`` / ``Optional[X]`` and other unions, ``Literal``, ``Enum`` classes
(of JSON scalar values), ``list``, ``tuple`` (``tuple[X, ...]`` and fixed ``tuple[X, Y]``),
``set`` / ``frozenset`` (arrays of unique items), ``dict[str, X]``, ``Sequence`` and ``Mapping``,
``NewType``, attrs, dataclass and ``TypedDict`` classes (nested, recursive ones through
``$defs``), and ``Annotated[X, "a description"]``. Anything else is an `InvalidTypeError` that
names the parameter or field.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import enum
import functools
import inspect
import json
import math
import re
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from ..errors import (
    FunctionArgumentsError,
    InvalidTypeError,
    InvalidValueError,
    SemanticChatError,
    describe_type,
)
from ..validation import check_flag, check_json, check_optional_text, check_text

__all__ = ["FunctionSchema", "convert_arguments", "function_schema", "strict_schema"]

_NAME = re.compile(r"[A-Za-z0-9_.:-]{1,128}")
"""A name some provider takes (Gemini's allow '.' and ':', and 128 characters): each
format's own rule is checked when definitions are written (`definitions.write_definitions`)."""
_MISSING: Any = object()


# --- FunctionSchema -------------------------------------------------------------------------


def _name(value: Any) -> str:
    name = check_text(value, "name")
    if not _NAME.fullmatch(name):
        raise InvalidValueError(
            f"{name!r} is not a tool name any provider accepts (1 to 128 letters, digits, "
            "'_', '-', '.' or ':')",
            path="name",
        )
    return name


def _description(value: Any) -> str | None:
    return check_optional_text(value, "description")


def _parameters(value: Any) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise InvalidTypeError.mismatch("parameters", "a JSON Schema object", describe_type(value))
    parameters: dict[str, Any] = check_json(dict(value), "parameters")
    if parameters.get("type") != "object":
        raise InvalidValueError(
            'a tool\'s parameters schema must have "type": "object"', path="parameters.type"
        )
    return parameters


def _strict(value: Any) -> bool:
    return check_flag(value, "strict")


def _no_parameters() -> dict[str, Any]:
    return {"type": "object", "properties": {}, "additionalProperties": False}


@attrs.frozen(slots=True, weakref_slot=False, unsafe_hash=False)
class FunctionSchema:
    """What a provider needs to offer a function as a tool: name, description, parameters.

    ``parameters`` is a JSON Schema (Draft 2020-12) of an object whose properties are the
    arguments; it is copied and checked to hold JSON values. ``strict`` is the flag sent with
    the tool (OpenAI's strict mode); `function_schema` makes ``parameters`` strict when asked.

    Raises:
        InvalidTypeError: a field of the wrong type; the message names the field.
        InvalidValueError: a name providers refuse, or parameters that are not an object schema.
    """

    name: str = attrs.field(converter=_name)
    description: str | None = attrs.field(default=None, converter=_description)
    parameters: dict[str, Any] = attrs.field(factory=_no_parameters, converter=_parameters)
    strict: bool = attrs.field(default=False, converter=_strict)


# --- docstrings -----------------------------------------------------------------------------

_GOOGLE_PARAMETERS = {
    "args", "arguments", "parameters", "params", "keyword args", "keyword arguments",
    "kwargs", "other parameters", "attributes",
}
_GOOGLE_SECTIONS = _GOOGLE_PARAMETERS | {
    "returns", "return", "yields", "yield", "raises", "raise", "examples", "example", "notes",
    "note", "see also", "warns", "warnings", "warning", "references", "todo", "methods",
}
_GOOGLE_HEADER = re.compile(r"([A-Za-z][A-Za-z ]*):\s*")
_GOOGLE_ENTRY = re.compile(r"\*{0,2}(\w+)\s*(?:\((?:[^()]|\([^()]*\))*\))?\s*:(.*)")
_NUMPY_RULE = re.compile(r"\s*-{3,}\s*")
_NUMPY_ENTRY = re.compile(r"(\w+(?:\s*,\s*\w+)*)\s*(?::.*)?")
_SPHINX_FIELD = re.compile(r"\s*:(\w+)(?:\s+([^:]*?))?\s*:(.*)")
_SPHINX_PARAMETERS = {"param", "parameter", "arg", "argument", "key", "keyword", "ivar", "var"}


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _join(lines: list[str]) -> str:
    return " ".join(line.strip() for line in lines if line.strip())


def _text(lines: list[str]) -> str | None:
    return "\n".join(lines).strip() or None


def _parse_docstring(doc: str | None) -> tuple[str | None, dict[str, str]]:
    """Split a docstring into its description and per-parameter descriptions.

    The description is the text before the first section (``Args:``, ``Returns:``, a NumPy
    ``Parameters`` header, a Sphinx ``:param:`` field); parameters are read from Google
    (``Args:`` and its kin, ``Attributes:`` for classes), NumPy (``Parameters`` /
    ``Attributes`` over a rule of dashes) and Sphinx (``:param [type] name:``) sections, each
    description's lines joined with spaces.
    """
    if not doc:
        return None, {}
    lines = inspect.cleandoc(doc).splitlines()
    if any(_sphinx_parameter(line) for line in lines):
        return _parse_sphinx(lines)
    if any(
        index + 1 < len(lines) and _NUMPY_RULE.fullmatch(lines[index + 1]) and line.strip()
        for index, line in enumerate(lines)
    ):
        return _parse_numpy(lines)
    return _parse_google(lines)


def _sphinx_parameter(line: str) -> str | None:
    match = _SPHINX_FIELD.fullmatch(line)
    if match is None or match.group(1) not in _SPHINX_PARAMETERS or not match.group(2):
        return None
    return match.group(2).split()[-1]


def _parse_sphinx(lines: list[str]) -> tuple[str | None, dict[str, str]]:
    start = next(index for index, line in enumerate(lines) if _SPHINX_FIELD.fullmatch(line))
    params: dict[str, str] = {}
    name: str | None = None
    body: list[str] = []
    for line in [*lines[start:], ":end:"]:
        if _SPHINX_FIELD.fullmatch(line) or not line.strip():
            if name is not None and _join(body):
                params[name] = _join(body)
            name = _sphinx_parameter(line)
            match = _SPHINX_FIELD.fullmatch(line)
            body = [match.group(3)] if match is not None else []
        else:
            body.append(line)
    return _text(lines[:start]), params


def _parse_numpy(lines: list[str]) -> tuple[str | None, dict[str, str]]:
    headers = [
        index for index in range(len(lines) - 1)
        if lines[index].strip() and _NUMPY_RULE.fullmatch(lines[index + 1])
    ]
    params: dict[str, str] = {}
    for position, header in enumerate(headers):
        if lines[header].strip().lower() not in _GOOGLE_PARAMETERS:
            continue
        end = headers[position + 1] if position + 1 < len(headers) else len(lines)
        base = _indent(lines[header])
        names: list[str] = []
        body: list[str] = []
        for line in [*lines[header + 2 : end], "end"]:
            if line.strip() and _indent(line) <= base:
                for name in names:
                    if _join(body):
                        params[name] = _join(body)
                match = _NUMPY_ENTRY.fullmatch(line.strip())
                names = re.split(r"\s*,\s*", match.group(1)) if match is not None else []
                body = []
            else:
                body.append(line)
    return _text(lines[: headers[0]]), params


def _parse_google(lines: list[str]) -> tuple[str | None, dict[str, str]]:
    params: dict[str, str] = {}
    first: int | None = None
    index = 0
    while index < len(lines):
        header = _GOOGLE_HEADER.fullmatch(lines[index].strip())
        if header is None or header.group(1).lower() not in _GOOGLE_SECTIONS:
            index += 1
            continue
        first = index if first is None else first
        base = _indent(lines[index])
        index += 1
        name: str | None = None
        body: list[str] = []
        entry_indent: int | None = None
        while index < len(lines) and (not lines[index].strip() or _indent(lines[index]) > base):
            line = lines[index]
            index += 1
            if not line.strip():
                continue
            if entry_indent is None:
                entry_indent = _indent(line)
            entry = _GOOGLE_ENTRY.fullmatch(line.strip())
            if _indent(line) == entry_indent and entry is not None:
                if name is not None and _join(body):
                    params[name] = _join(body)
                name, body = entry.group(1), [entry.group(2)]
            else:
                body.append(line)
        if name is not None and _join(body) and header.group(1).lower() in _GOOGLE_PARAMETERS:
            params[name] = _join(body)
    return _text(lines if first is None else lines[:first]), params


def _class_doc(cls: type) -> tuple[str | None, dict[str, str]]:
    """A class's own docstring parsed (not one inherited, nor the one dataclass writes)."""
    doc = cls.__dict__.get("__doc__")
    if not isinstance(doc, str) or (
        dataclasses.is_dataclass(cls) and doc.startswith(f"{cls.__name__}(")
    ):
        return None, {}
    return _parse_docstring(doc)


# --- type nodes: one per hint, each giving its schema and checking its values -----------------


def _json_kind(value: Any) -> str:
    """JSON's name for the kind of ``value``, as error messages show what was sent."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (list, tuple)):
        return "array"
    if isinstance(value, Mapping):
        return "object"
    return describe_type(value)


def _mismatch(path: str, expected: str, value: Any) -> FunctionArgumentsError:
    return FunctionArgumentsError.mismatch(path, expected, _json_kind(value))


def _member(path: str, key: str) -> str:
    return f"{path}.{key}" if key.isidentifier() else f"{path}[{json.dumps(key)}]"


def _same(sent: Any, allowed: Any) -> bool:
    """Whether a sent JSON value equals an allowed one as JSON compares (``1 == 1.0``)."""
    if isinstance(sent, bool) or isinstance(allowed, bool):
        return sent is allowed
    if isinstance(sent, (int, float)) and isinstance(allowed, (int, float)):
        return sent == allowed
    return type(sent) is type(allowed) and sent == allowed


class _Node:
    """A compiled hint: its JSON Schema and the check that converts a value sent for it."""

    __slots__ = ()
    expected = "a JSON value"
    accepts_none = False

    def schema(self, context: _SchemaContext) -> dict[str, Any]:
        return {}

    def convert(self, value: Any, path: str) -> Any:
        return value


class _Any(_Node):
    __slots__ = ()


_SCALAR_EXPECTED = {
    "string": "a string", "integer": "an integer", "number": "a number",
    "boolean": "a boolean", "null": "null",
}


class _Scalar(_Node):
    __slots__ = ("accepts_none", "expected", "kind")

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.expected = _SCALAR_EXPECTED[kind]
        self.accepts_none = kind == "null"

    def schema(self, context: _SchemaContext) -> dict[str, Any]:
        return {"type": self.kind}

    def convert(self, value: Any, path: str) -> Any:
        kind = self.kind
        if kind == "string" and isinstance(value, str):
            return value
        if kind == "boolean" and isinstance(value, bool):
            return value
        if kind == "null" and value is None:
            return None
        if kind in ("integer", "number") and isinstance(value, (int, float)) and not isinstance(
            value, bool
        ):
            if not math.isfinite(value):
                raise FunctionArgumentsError(f"{value!r} is not a JSON number", path=path)
            if kind == "number":
                return float(value)
            if isinstance(value, int) or value.is_integer():
                return int(value)
        raise _mismatch(path, self.expected, value)


class _Choice(_Node):
    """A ``Literal`` or an ``Enum``: one of a few JSON scalars, each standing for a value."""

    __slots__ = ("accepts_none", "choices", "expected")

    def __init__(self, choices: list[tuple[Any, Any]]) -> None:
        self.choices = choices
        self.accepts_none = any(sent is None for sent, _ in choices)
        self.expected = "one of " + ", ".join(
            json.dumps(sent, ensure_ascii=False) for sent, _ in choices
        )

    def schema(self, context: _SchemaContext) -> dict[str, Any]:
        values = [sent for sent, _ in self.choices]
        kinds = {_json_kind(value) for value in values}
        if kinds == {"integer", "number"}:
            kinds = {"number"}
        if len(kinds) == 1:
            return {"type": kinds.pop(), "enum": values}
        return {"enum": values}

    def convert(self, value: Any, path: str) -> Any:
        for sent, python in self.choices:
            if _same(value, sent):
                return python
        raise FunctionArgumentsError(
            f"expected {self.expected}, got {json.dumps(value, ensure_ascii=False, default=repr)}",
            path=path, expected=self.expected, got=_json_kind(value),
        )


class _Described(_Node):
    """``Annotated[X, "description"]``: X with a description in its schema."""

    __slots__ = ("description", "inner")

    def __init__(self, inner: _Node, description: str) -> None:
        self.inner = inner
        self.description = description

    @property
    def expected(self) -> str:  # type: ignore[override]
        return self.inner.expected

    @property
    def accepts_none(self) -> bool:  # type: ignore[override]
        return self.inner.accepts_none

    def schema(self, context: _SchemaContext) -> dict[str, Any]:
        return {**self.inner.schema(context), "description": self.description}

    def convert(self, value: Any, path: str) -> Any:
        return self.inner.convert(value, path)


class _Union(_Node):
    __slots__ = ("accepts_none", "expected", "members")

    def __init__(self, members: list[_Node]) -> None:
        self.members = members
        self.accepts_none = any(member.accepts_none for member in members)
        self.expected = " or ".join(dict.fromkeys(member.expected for member in members))

    def schema(self, context: _SchemaContext) -> dict[str, Any]:
        schemas = [member.schema(context) for member in self.members]
        if all(list(schema) == ["type"] for schema in schemas):
            kinds: list[str] = []
            for schema in schemas:
                for kind in schema["type"] if isinstance(schema["type"], list) else [
                    schema["type"]
                ]:
                    if kind not in kinds:
                        kinds.append(kind)
            return {"type": kinds}
        return {"anyOf": schemas}

    def convert(self, value: Any, path: str) -> Any:
        errors: list[FunctionArgumentsError] = []
        for member in self.members:
            try:
                return member.convert(value, path)
            except FunctionArgumentsError as error:
                errors.append(error)
        deepest = max(errors, key=lambda error: len(error.path))
        if len(deepest.path) > len(path):  # the value has this member's shape; say where
            raise deepest
        raise _mismatch(path, self.expected, value)


class _Array(_Node):
    """``list[X]``, ``tuple[X, ...]``, ``set[X]``, ``frozenset[X]``, ``Sequence[X]``."""

    __slots__ = ("container", "item")
    expected = "an array"

    def __init__(self, item: _Node, container: type) -> None:
        self.item = item
        self.container = container

    def schema(self, context: _SchemaContext) -> dict[str, Any]:
        schema: dict[str, Any] = {"type": "array"}
        if not isinstance(self.item, _Any):
            schema["items"] = self.item.schema(context)
        if self.container in (set, frozenset):
            schema["uniqueItems"] = True
        return schema

    def convert(self, value: Any, path: str) -> Any:
        if not isinstance(value, (list, tuple)):
            raise _mismatch(path, self.expected, value)
        items = [self.item.convert(item, f"{path}[{index}]") for index, item in enumerate(value)]
        if self.container not in (set, frozenset):
            return items if self.container is list else tuple(items)
        seen: dict[Any, int] = {}
        for index, item in enumerate(items):
            try:
                earlier = seen.setdefault(item, index)
            except TypeError:
                raise FunctionArgumentsError(
                    f"a {describe_type(item)} cannot be a member of a set (unhashable)",
                    path=f"{path}[{index}]",
                ) from None
            if earlier != index:
                raise FunctionArgumentsError(
                    f"the items must be unique; this one repeats {path}[{earlier}]",
                    path=f"{path}[{index}]",
                )
        return self.container(items)


class _Tuple(_Node):
    """``tuple[X, Y]``: an array of a fixed length, each position of its own type."""

    __slots__ = ("expected", "items")

    def __init__(self, items: list[_Node]) -> None:
        self.items = items
        self.expected = f"an array of {len(items)} items"

    def schema(self, context: _SchemaContext) -> dict[str, Any]:
        return {
            "type": "array",
            "prefixItems": [item.schema(context) for item in self.items],
            "minItems": len(self.items),
            "maxItems": len(self.items),
        }

    def convert(self, value: Any, path: str) -> Any:
        if not isinstance(value, (list, tuple)) or len(value) != len(self.items):
            got = f"an array of {len(value)}" if isinstance(value, (list, tuple)) else (
                _json_kind(value)
            )
            raise FunctionArgumentsError.mismatch(path, self.expected, got)
        return tuple(
            node.convert(item, f"{path}[{index}]")
            for index, (node, item) in enumerate(zip(self.items, value, strict=True))
        )


class _Dict(_Node):
    """``dict[str, X]`` / ``Mapping[str, X]``: an object with keys of the caller's choosing."""

    __slots__ = ("value",)
    expected = "an object"

    def __init__(self, value: _Node) -> None:
        self.value = value

    def schema(self, context: _SchemaContext) -> dict[str, Any]:
        schema: dict[str, Any] = {"type": "object"}
        if not isinstance(self.value, _Any):
            schema["additionalProperties"] = self.value.schema(context)
        return schema

    def convert(self, value: Any, path: str) -> Any:
        if not isinstance(value, Mapping):
            raise _mismatch(path, self.expected, value)
        converted = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise FunctionArgumentsError.mismatch(
                    f"{path}[{key!r}]", "a str key", describe_type(key)
                )
            converted[key] = self.value.convert(item, f"{path}[{json.dumps(key)}]")
        return converted


@attrs.define(slots=True)
class _Field:
    """A named member of an object: a function's parameter or a class's field."""

    key: str
    node: _Node
    default: Any = _MISSING
    description: str | None = None

    @property
    def required(self) -> bool:
        return self.default is _MISSING

    def schema(self, context: _SchemaContext) -> dict[str, Any]:
        schema = self.node.schema(context)
        if self.description is not None and not isinstance(self.node, _Described):
            schema = {**schema, "description": self.description}
        if not self.required:
            default = _json_default(self.default)
            if default is not _MISSING:
                schema = {**schema, "default": default}
        return schema


def _json_default(value: Any) -> Any:
    """A default as the JSON value it stands for, or ``_MISSING`` when there is none."""
    if isinstance(value, enum.Enum):
        value = value.value
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else _MISSING
    if isinstance(value, (list, tuple)):
        items = [_json_default(item) for item in value]
        return _MISSING if any(item is _MISSING for item in items) else items
    if isinstance(value, dict) and all(isinstance(key, str) for key in value):
        members = {key: _json_default(item) for key, item in value.items()}
        return _MISSING if any(item is _MISSING for item in members.values()) else members
    return _MISSING


def _object_schema(
    fields: list[_Field], context: _SchemaContext, description: str | None
) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object"}
    if description is not None:
        schema["description"] = description
    schema["properties"] = {field.key: field.schema(context) for field in fields}
    required = [field.key for field in fields if field.required]
    if required:
        schema["required"] = required
    schema["additionalProperties"] = False
    return schema


def _convert_fields(
    fields: list[_Field], value: Any, path: str, what: str, owner: str
) -> dict[str, Any]:
    """Check an object's members against ``fields``; given ones converted, in field order.

    ``null`` sent for a member that has a default and does not take ``None`` means the default
    (strict mode makes every member required, and a model says "not given" with ``null``).
    """
    if not isinstance(value, Mapping):
        raise _mismatch(path, "an object", value)
    known = {field.key for field in fields}
    for key in value:
        if not isinstance(key, str):
            raise FunctionArgumentsError.mismatch(
                f"{path}[{key!r}]", "a str key", describe_type(key)
            )
        if key not in known:
            names = ", ".join(field.key for field in fields) or "none"
            raise FunctionArgumentsError(
                f"unknown {what}; {owner} takes {names}", path=_member(path, key)
            )
    converted: dict[str, Any] = {}
    for field in fields:
        if field.key not in value:
            if field.required:
                raise FunctionArgumentsError(f"a required {what} is missing",
                                             path=_member(path, field.key))
            continue
        sent = value[field.key]
        if sent is None and not field.required and not field.node.accepts_none:
            continue
        converted[field.key] = field.node.convert(sent, _member(path, field.key))
    return converted


class _Object(_Node):
    """An attrs, dataclass or ``TypedDict`` class: an object of named, typed members."""

    __slots__ = ("build", "cls", "description", "fields")
    expected = "an object"

    def __init__(self, cls: type, build: Callable[..., Any]) -> None:
        self.cls = cls
        self.build = build
        self.fields: list[_Field] = []
        self.description: str | None = None

    def body(self, context: _SchemaContext) -> dict[str, Any]:
        context.stack.append(self)
        try:
            return _object_schema(self.fields, context, self.description)
        finally:
            context.stack.pop()

    def schema(self, context: _SchemaContext) -> dict[str, Any]:
        if self in context.stack:
            context.recursive.append(self)
        if self in context.stack or self in context.refs:
            return {"$ref": f"#/$defs/{context.name(self)}"}
        return self.body(context)

    def convert(self, value: Any, path: str) -> Any:
        members = _convert_fields(self.fields, value, path, "field", self.cls.__qualname__)
        try:
            return self.build(**members)
        except SemanticChatError as error:
            raise FunctionArgumentsError(error.detail, path=error.at(path).path) from error
        except (TypeError, ValueError) as error:
            raise FunctionArgumentsError(
                f"{self.cls.__qualname__} refused these values: {error}", path=path
            ) from error


class _SchemaContext:
    """What schema generation tracks: the classes on the way down, and those put in $defs."""

    def __init__(self, refs: list[_Object]) -> None:
        self.refs = refs
        self.stack: list[_Object] = []
        self.recursive: list[_Object] = []
        self.names: dict[int, str] = {}

    def name(self, node: _Object) -> str:
        if id(node) not in self.names:
            base = node.cls.__name__
            taken = set(self.names.values())
            name, number = base, 2
            while name in taken:
                name, number = f"{base}{number}", number + 1
            self.names[id(node)] = name
        return self.names[id(node)]


# --- compiling hints ------------------------------------------------------------------------


def _type_text(hint: Any) -> str:
    if isinstance(hint, type):
        return hint.__qualname__
    return repr(hint).replace("typing.", "").replace("collections.abc.", "")


_SEQUENCES: dict[Any, type] = {
    list: list, collections.abc.Sequence: list, collections.abc.MutableSequence: list,
    collections.abc.Iterable: list, collections.abc.Collection: list,
    set: set, collections.abc.Set: frozenset, collections.abc.MutableSet: set,
    frozenset: frozenset,
}
_MAPPINGS = (dict, collections.abc.Mapping, collections.abc.MutableMapping)
_SCALARS = {str: "string", int: "integer", float: "number", bool: "boolean", type(None): "null"}


# Python 3.11's TypedDict marks; the required keys they set are wrong when hints are strings.
_REQUIRED_MARKS: dict[Any, bool] = {
    getattr(typing, name): name == "Required"
    for name in ("Required", "NotRequired")
    if hasattr(typing, name)
}


def _is_typeddict(hint: Any) -> bool:
    return (
        isinstance(hint, type) and issubclass(hint, dict)
        and hasattr(hint, "__required_keys__") and hasattr(hint, "__total__")
    )


class _Compiler:
    """Turns hints into nodes; each class is compiled once, so recursive classes close up."""

    def __init__(self) -> None:
        self.classes: dict[type, _Object] = {}

    def compile(self, hint: Any, where: str) -> _Node:
        if hint is Any or hint is inspect.Parameter.empty:
            return _Any()
        if hint is None or (isinstance(hint, type) and hint in _SCALARS):
            return _Scalar(_SCALARS[type(None) if hint is None else hint])
        origin = typing.get_origin(hint)
        arguments = typing.get_args(hint)
        if origin is typing.Annotated:
            inner = self.compile(arguments[0], where)
            texts = [item for item in hint.__metadata__ if isinstance(item, str)]
            return _Described(inner, texts[0]) if texts else inner
        if origin in (typing.Union, types.UnionType):
            return _Union([self.compile(member, where) for member in arguments])
        if origin is typing.Literal:
            return self._literal(hint, arguments, where)
        if isinstance(hint, type) and issubclass(hint, enum.Enum):
            return self._enum(hint, where)
        if hasattr(hint, "__supertype__"):  # typing.NewType
            return self.compile(hint.__supertype__, where)
        if origin is tuple or hint is tuple:
            if not arguments or (len(arguments) == 2 and arguments[1] is Ellipsis):
                item = self.compile(arguments[0], where) if arguments else _Any()
                return _Array(item, tuple)
            if arguments == ((),):
                return _Tuple([])
            return _Tuple([self.compile(item, f"{where}[{index}]")
                           for index, item in enumerate(arguments)])
        container = _SEQUENCES.get(origin if origin is not None else hint)
        if container is not None:
            item = self.compile(arguments[0], where) if arguments else _Any()
            return _Array(item, container)
        if (origin if origin is not None else hint) in _MAPPINGS:
            if arguments and arguments[0] is not str:
                raise InvalidTypeError(
                    f"unsupported type {_type_text(hint)}: JSON object keys are strings, "
                    "so a mapping's keys must be str",
                    path=where,
                )
            return _Dict(self.compile(arguments[1], where) if arguments else _Any())
        if isinstance(hint, type) and (
            attrs.has(hint) or dataclasses.is_dataclass(hint) or _is_typeddict(hint)
        ):
            return self._class(hint)
        if isinstance(hint, (str, typing.ForwardRef)):
            raise InvalidTypeError(
                f"cannot resolve the type hint {_type_text(hint)}", path=where
            )
        raise InvalidTypeError(
            f"unsupported type {_type_text(hint)}; a tool's parameters take JSON-shaped types "
            "(str, int, float, bool, None, Literal, Enum, list, tuple, set, dict, unions, "
            "attrs, dataclass and TypedDict classes)",
            path=where,
        )

    def _literal(self, hint: Any, values: tuple[Any, ...], where: str) -> _Node:
        choices = []
        for value in values:
            sent = value.value if isinstance(value, enum.Enum) else value
            if sent is not None and not isinstance(sent, (str, int, bool)):
                raise InvalidTypeError(
                    f"unsupported type {_type_text(hint)}: a Literal's values must be str, int, "
                    "bool, None or enum members of those",
                    path=where,
                )
            choices.append((sent, value))
        return _Choice(choices)

    def _enum(self, cls: type[enum.Enum], where: str) -> _Node:
        choices = []
        for member in cls:
            value = member.value
            if value is not None and not isinstance(value, (str, int, float, bool)):
                raise InvalidTypeError(
                    f"unsupported type {cls.__qualname__}: its member {member.name} has a "
                    f"{describe_type(value)} value; an enum's values must be JSON scalars",
                    path=where,
                )
            choices.append((value, member))
        return _Choice(choices)

    def _class(self, cls: type) -> _Object:
        if cls in self.classes:
            return self.classes[cls]
        node = _Object(cls, dict if _is_typeddict(cls) else cls)
        self.classes[cls] = node
        owner = cls.__qualname__
        try:
            hints = typing.get_type_hints(cls, include_extras=True)
        except Exception as error:
            raise InvalidTypeError(f"cannot resolve its type hints: {error}", path=owner) from None
        description, documented = _class_doc(cls)
        node.description = description
        if _is_typeddict(cls):
            required_keys: frozenset[str] = getattr(cls, "__required_keys__", frozenset())
            for key, declared in hints.items():
                required, hint = key in required_keys, declared
                while typing.get_origin(hint) in _REQUIRED_MARKS:  # with `from __future__`
                    required = _REQUIRED_MARKS[typing.get_origin(hint)]
                    hint = typing.get_args(hint)[0]
                field_node = self.compile(hint, f"{owner}.{key}")
                default = _MISSING if required else _OMITTED  # a key not sent stays out
                node.fields.append(_Field(key, field_node, default, documented.get(key)))
        elif attrs.has(cls):
            for field in attrs.fields(cls):
                if not field.init:
                    continue
                key = field.alias or field.name
                field_node = self.compile(hints.get(field.name, Any), f"{owner}.{key}")
                default = field.default
                if default is attrs.NOTHING:
                    default = _MISSING
                elif isinstance(default, attrs.Factory):  # type: ignore[arg-type]
                    default = _OMITTED
                description = documented.get(field.name) or documented.get(key)
                node.fields.append(_Field(key, field_node, default, description))
        else:
            for field in dataclasses.fields(cls):
                if not field.init:
                    continue
                field_node = self.compile(hints.get(field.name, Any), f"{owner}.{field.name}")
                if field.default is not dataclasses.MISSING:
                    default = field.default
                elif field.default_factory is not dataclasses.MISSING:
                    default = _OMITTED
                else:
                    default = _MISSING
                node.fields.append(
                    _Field(field.name, field_node, default, documented.get(field.name))
                )
        return node


_OMITTED: Any = object()  # optional without a JSON default: a TypedDict key, a factory field


@attrs.define(slots=True)
class _Signature:
    """A function compiled: its name, description and parameters."""

    name: str
    description: str | None
    fields: list[_Field]

    def schema(self) -> dict[str, Any]:
        refs: list[_Object] = []
        while True:
            context = _SchemaContext(refs)
            schema = _object_schema(self.fields, context, None)
            new = [node for node in context.recursive if node not in refs]
            if not new:
                break
            refs.extend(new)
        if refs:
            context = _SchemaContext(refs)
            schema = _object_schema(self.fields, context, None)
            definitions = {}
            for node in refs:
                definitions[context.name(node)] = node.body(context)
            schema["$defs"] = definitions
        return schema


def _target(func: Callable[..., Any]) -> Any:
    """The function whose hints and docstring describe ``func`` (a partial's, a callable's)."""
    target: Any = func
    while isinstance(target, functools.partial):
        target = target.func
    target = inspect.unwrap(target)
    if isinstance(target, type):
        return vars(target).get("__init__", target)
    if not (inspect.isfunction(target) or inspect.ismethod(target)) and callable(target):
        call = type(target).__call__
        if inspect.isfunction(call):
            return call
    return target


def _compile(func: Callable[..., Any]) -> _Signature:
    if not callable(func):
        raise InvalidTypeError.mismatch("func", "a callable", describe_type(func))
    target = _target(func)
    base: Any = func
    while isinstance(base, functools.partial):
        base = base.func
    base = inspect.unwrap(base)
    named = isinstance(base, type) or inspect.isroutine(base)
    name = str(getattr(base, "__name__", "")) if named else type(base).__name__
    try:
        signature = inspect.signature(func)
    except (TypeError, ValueError) as error:
        raise InvalidTypeError(f"its signature cannot be read: {error}", path=name) from None
    try:
        hints = typing.get_type_hints(target, include_extras=True)
    except Exception as error:
        raise InvalidTypeError(f"cannot resolve its type hints: {error}", path=name) from None
    description, documented = _parse_docstring(inspect.getdoc(target))
    compiler = _Compiler()
    fields = []
    for parameter in signature.parameters.values():
        where = f"{name}.{parameter.name}"
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            star = "*" if parameter.kind is parameter.VAR_POSITIONAL else "**"
            raise InvalidTypeError(
                f"{star}{parameter.name} cannot be described to a model; a tool takes "
                "named parameters only",
                path=where,
            )
        if parameter.kind is parameter.POSITIONAL_ONLY:
            raise InvalidTypeError(
                "a positional-only parameter cannot be given by name, as a model's "
                "arguments are",
                path=where,
            )
        node = compiler.compile(hints.get(parameter.name, parameter.annotation), where)
        default = _MISSING if parameter.default is parameter.empty else parameter.default
        fields.append(_Field(parameter.name, node, default, documented.get(parameter.name)))
    return _Signature(name, description, fields)


@functools.lru_cache(maxsize=512)
def _compiled_cached(func: Callable[..., Any]) -> _Signature:
    return _compile(func)


def _compiled(func: Callable[..., Any]) -> _Signature:
    try:
        hash(func)
    except TypeError:
        return _compile(func)
    return _compiled_cached(func)


# --- the public functions -------------------------------------------------------------------


def function_schema(
    func: Callable[..., Any],
    *,
    name: str | None = None,
    description: str | None = None,
    strict: bool = False,
) -> FunctionSchema:
    """Describe ``func`` as a tool: its name, docstring description and parameters' schema.

    Each parameter is a property typed by its hint (see the module's list), described by
    ``Annotated[X, "..."]`` or else by its entry in the docstring (Google, NumPy or Sphinx
    style), with its default when that is a JSON value; parameters without a default are
    required. Unknown properties are refused (``additionalProperties: false``). ``name`` and
    ``description`` replace the function's own; ``strict=True`` makes the parameters follow
    OpenAI's strict mode (see `strict_schema`).

    Raises:
        InvalidTypeError: ``*args`` or ``**kwargs``, a positional-only parameter, or a hint
            this cannot describe; the message names the parameter (``get_weather.when``).
        InvalidValueError: a name providers refuse (a lambda's ``<lambda>``: pass ``name=``),
            or, with ``strict=True``, a parameter strict mode cannot express (a free-form dict).
    """
    compiled = _compiled(func)
    parameters = compiled.schema()
    if check_flag(strict, "strict"):
        parameters = strict_schema(parameters)
    return FunctionSchema(
        name=compiled.name if name is None else name,
        description=compiled.description if description is None else description,
        parameters=parameters,
        strict=strict,
    )


def convert_arguments(func: Callable[..., Any], arguments: Mapping[str, Any]) -> dict[str, Any]:
    """Check a model's arguments for ``func`` against its hints, and convert them for a call.

    Returns every parameter, in the signature's order, ready for ``func(**converted)``: the
    values sent, converted to the annotated types (attrs, dataclass and ``TypedDict`` objects
    built, enum members, tuples and sets from arrays, integral numbers as ``int``, any number
    as ``float`` for a ``float``), and each default for a parameter not sent. ``null`` for a
    parameter whose hint does not take ``None`` but which has a default means that default, as
    strict mode sends it.

    Raises:
        FunctionArgumentsError: an unknown or missing argument, or a value of the wrong type;
            the path names it (``arguments.city``, ``arguments.stops[2].lat``).
        InvalidTypeError: ``func`` cannot be described (see `function_schema`).
    """
    compiled = _compiled(func)
    converted = _convert_fields(compiled.fields, arguments, "arguments", "argument", compiled.name)
    result: dict[str, Any] = {}
    for field in compiled.fields:
        if field.key in converted:
            result[field.key] = converted[field.key]
        elif field.default is not _OMITTED:
            result[field.key] = field.default
    return result


# --- strict mode ----------------------------------------------------------------------------

_STRICT_KEPT = frozenset({
    "type", "enum", "const", "$ref", "description", "pattern", "multipleOf", "maximum",
    "exclusiveMaximum", "minimum", "exclusiveMinimum", "minItems", "maxItems",
})
_STRICT_DROPPED = frozenset({
    "title", "default", "examples", "$comment", "deprecated", "readOnly", "writeOnly",
    "$schema", "$id", "minLength", "maxLength", "uniqueItems", "minProperties",
    "maxProperties", "contentEncoding", "contentMediaType",
})
_STRICT_FORMATS = frozenset({
    "date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid",
})


def strict_schema(parameters: Mapping[str, Any]) -> dict[str, Any]:
    """Rewrite a parameters schema for OpenAI's strict mode (structured outputs).

    Every object lists all its properties as ``required`` and has ``additionalProperties:
    false``; a property that was optional takes ``null`` as well (``"type": ["string",
    "null"]``, ``null`` added to an ``enum``, ``{"type": "null"}`` to an ``anyOf``), so a
    model sends ``null`` where it means "not given" (`convert_arguments` reads that as the
    default). Keywords strict mode does not accept are handled by kind: annotations and
    constraints it cannot enforce (``title``, ``default``, ``minLength``, ``uniqueItems``,
    a ``format`` it does not know ...) are dropped, as `convert_arguments` still checks the
    values; ``oneOf`` becomes ``anyOf``; a fixed tuple's ``prefixItems`` become ``items`` of
    their types with its length kept. The input is not changed.

    Raises:
        InvalidValueError: what strict mode cannot express: a root that is not an object,
            an object with free keys (a ``dict``), a schema allowing any value, or ``allOf``,
            ``not``, ``if`` and the other refused keywords; the message names the location
            (``parameters.properties.scores.additionalProperties``).
        InvalidTypeError: a schema that is not a JSON object.
    """
    if not isinstance(parameters, Mapping):
        raise InvalidTypeError.mismatch("parameters", "a JSON Schema object", describe_type(
            parameters))
    schema = check_json(dict(parameters), "parameters")
    if schema.get("type") != "object":
        raise InvalidValueError(
            'the root of a strict schema must be an object ("type": "object")',
            path="parameters",
        )
    return _strict_node(schema, "parameters")


def _strict_node(node: Any, path: str) -> dict[str, Any]:
    if not isinstance(node, dict):
        raise InvalidTypeError.mismatch(path, "a schema object", _json_kind(node))
    out: dict[str, Any] = {}
    for key, value in node.items():
        where = _member(path, key)
        if key in _STRICT_DROPPED or key in ("required", "additionalProperties", "items"):
            continue
        if key == "format":
            if value in _STRICT_FORMATS:
                out[key] = value
        elif key in _STRICT_KEPT:
            out[key] = value
        elif key in ("properties", "$defs"):
            if not isinstance(value, dict):
                raise InvalidTypeError.mismatch(where, "an object", _json_kind(value))
            out[key] = {name: _strict_node(item, _member(where, name))
                        for name, item in value.items()}
        elif key in ("anyOf", "oneOf"):
            if not isinstance(value, list):
                raise InvalidTypeError.mismatch(where, "a list of schemas", _json_kind(value))
            if not value:
                raise InvalidValueError(f"an empty {key} allows no value", path=where)
            out["anyOf"] = [_strict_node(item, f"{where}[{index}]")
                            for index, item in enumerate(value)]
        elif key != "prefixItems":
            raise InvalidValueError(f"strict mode does not accept the keyword {key!r}",
                                    path=where)
    _strict_items(node, out, path)
    kinds = out.get("type")
    kinds = kinds if isinstance(kinds, list) else [kinds]
    if "object" in kinds or "properties" in node or "additionalProperties" in node:
        _strict_object(node, out, path)
    if "array" in kinds and "items" not in out and out.get("maxItems") != 0:
        raise InvalidValueError(
            "an array of any values cannot be strict; give its items a type", path=path
        )
    if not any(key in out for key in ("type", "anyOf", "enum", "const", "$ref")):
        raise InvalidValueError(
            "a schema that allows any value cannot be strict; give it a type", path=path
        )
    return out


def _strict_items(node: dict[str, Any], out: dict[str, Any], path: str) -> None:
    """Arrays: ``items`` made strict; a tuple's ``prefixItems`` as ``items`` of their types."""
    items = node.get("items")
    prefix = node.get("prefixItems")
    if prefix is None:
        if items is not None:
            out["items"] = _strict_node(items, _member(path, "items"))
        return
    if not isinstance(prefix, list):
        raise InvalidTypeError.mismatch(_member(path, "prefixItems"), "a list of schemas",
                                        _json_kind(prefix))
    members: list[dict[str, Any]] = []
    for index, item in enumerate(prefix):
        strict = _strict_node(item, f"{_member(path, 'prefixItems')}[{index}]")
        if strict not in members:
            members.append(strict)
    if isinstance(items, dict):
        strict = _strict_node(items, _member(path, "items"))
        if strict not in members:
            members.append(strict)
    elif items is False:
        out["maxItems"] = min(out.get("maxItems", len(prefix)), len(prefix))
    if members:
        out["items"] = members[0] if len(members) == 1 else {"anyOf": members}


def _strict_object(node: dict[str, Any], out: dict[str, Any], path: str) -> None:
    """Objects: every property required, optional ones nullable, no other properties."""
    extra = node.get("additionalProperties", False if "properties" in node else None)
    if extra is not False:
        where = _member(path, "additionalProperties") if extra is not None else path
        raise InvalidValueError(
            "an object with keys of the caller's choosing (a dict) cannot be strict; "
            "strict mode needs every property listed",
            path=where,
        )
    properties: dict[str, Any] = out.setdefault("properties", {})
    required = node.get("required", [])
    for name, schema in properties.items():
        if name not in required:
            properties[name] = _nullable(schema)
    out["required"] = list(properties)
    out["additionalProperties"] = False


def _takes_null(schema: dict[str, Any]) -> bool:
    kinds = schema.get("type")
    if kinds == "null" or (isinstance(kinds, list) and "null" in kinds):
        return "enum" not in schema or None in schema["enum"]
    if "anyOf" in schema:
        return any(_takes_null(member) for member in schema["anyOf"])
    return False


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """The same schema, accepting ``null`` too."""
    if _takes_null(schema):
        return schema
    result = dict(schema)
    if "$ref" in result:
        described = {"description": result.pop("description")} if "description" in result else {}
        return {"anyOf": [result, {"type": "null"}], **described}
    if "anyOf" in result:
        result["anyOf"] = [*result["anyOf"], {"type": "null"}]
        return result
    if "const" in result:
        result["enum"] = [result.pop("const")]
    if "type" in result:
        kinds = result["type"]
        result["type"] = [*(kinds if isinstance(kinds, list) else [kinds]), "null"]
    if "enum" in result and None not in result["enum"]:
        result["enum"] = [*result["enum"], None]
    return result
