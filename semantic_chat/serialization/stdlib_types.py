"""Hooks for the standard library types that a plugin's fields commonly hold.

A plugin item class is written and read by functions cattrs generates for it, which take the
hook of each field's type from the converter. Registering these hooks makes plugin fields of
these types work with no call by the plugin's author, with the same located errors as the rest
(``messages[0].items[0].taken_at: 'yesterday' is not an ISO 8601 datetime``). Every value is
read back as an object equal to the one written:

- ``datetime``, ``date`` and ``time``: ISO 8601 text from ``isoformat()``, read back with
  ``fromisoformat()``. A naive value stays naive; an aware one keeps its UTC offset (a named
  zone such as ``ZoneInfo`` comes back as that fixed offset: the same instant, so equal). A
  ``date`` field holding a ``datetime`` is written as the datetime and read back as one.
  Other ISO 8601 spellings are read as far as the running Python's ``fromisoformat`` reads
  them.
- ``bytes``: base64 text (written by the library's own ``bytes`` hook), read back strictly:
  the standard alphabet, with padding, no whitespace.
- ``UUID``: its canonical text (``"12345678-1234-5678-1234-567812345678"``), read from any
  spelling ``UUID()`` accepts.
- ``Decimal``: a string, ``str(value)``, which is exact (``"1.10"`` stays ``"1.10"``; NaN and
  infinities too). A JSON integer is read as well; a JSON float is refused, as it is not exact.
- ``Enum``: by value, the value written with its own hook (an enum of dates is written as
  dates are); read back by comparing with each member's written value, so ``true`` is never
  read as a member whose value is ``1``. `enum.Flag` combinations are read by their integer.
  ``StrEnum``, ``IntEnum`` and ``(str, Enum)`` mixins are read as members too, not as plain
  strings; `to_dict` gives a ``(str, Enum)`` member as it is (a ``str`` equal to its value),
  as the ``str`` writer is the identity.
- ``Path`` and every ``PurePath`` class: ``str(path)``, in the path's own flavour (a
  ``PureWindowsPath`` keeps its backslashes), read back as the declared class.
- ``tuple``, ``set`` and ``frozenset``: JSON lists, read back as the declared type with each
  element's own hook; a set is written sorted (by value, or by the JSON text of its elements
  when they do not compare) so that the output is canonical; ``tuple[X, Y]`` checks its length.
  A string or an object where a list is expected is refused, not split into its characters.
- Nested attrs classes: JSON objects keyed by constructor names (aliases), defaults left out,
  read from an object only, with errors located inside them (``where.lat``).

Any other type needs a hook of its own: ``converter.register_unstructure_hook(Money, ...)`` and
``converter.register_structure_hook(Money, ...)``, with errors raised as `SerializationError`.
"""

from __future__ import annotations

import collections.abc
import datetime
import decimal
import enum
import json
import pathlib
import re
import typing
import uuid
from collections.abc import Callable
from typing import Any, TypeVar

import attrs
import cattrs
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn

from ..contents import KernelContent
from ..errors import SerializationError, describe_type
from ..media import decode_base64
from ..message import ChatMessageContent
from .fields import ACCEPTED_PRIMITIVES, primitive_reader
from .locate import locate_error

__all__ = ["install"]

_MIXIN_ENUMS: tuple[type[enum.Enum], ...] = tuple(
    cls
    for cls in (getattr(enum, "StrEnum", None), enum.IntEnum, enum.IntFlag)
    if cls is not None
)
"""Standard enums that subclass a primitive: registered by class, so the primitive's own hook
(found first by class) does not read them as plain strings or integers."""


def install(converter: cattrs.Converter) -> None:
    """Register the hooks for standard library field types on ``converter``.

    Called by `ConverterHooks.install` after the library's own hooks, which it relies on (the
    primitive readers it extends for ``(str, Enum)`` mixins).
    """
    c = converter
    for kind, reader in _TIME_READERS.items():
        c.register_unstructure_hook(kind, _write_isoformat)
        c.register_structure_hook(kind, reader)
    c.register_structure_hook(bytes, _read_bytes)
    c.register_unstructure_hook(uuid.UUID, _writer_of(uuid.UUID))
    c.register_structure_hook(uuid.UUID, _read_uuid)
    c.register_unstructure_hook(decimal.Decimal, _writer_of(decimal.Decimal))
    c.register_structure_hook(decimal.Decimal, _read_decimal)
    for kind in (pathlib.PurePath, pathlib.Path):  # cattrs registers Path itself: replace it
        c.register_unstructure_hook(kind, _writer_of(pathlib.PurePath))
        c.register_structure_hook(kind, _read_path)
    enums = _EnumHooks(c)
    c.register_unstructure_hook_func(_is_enum, enums.write)
    c.register_structure_hook_func(_is_enum, enums.read)
    for kind in _MIXIN_ENUMS:
        c.register_unstructure_hook(kind, enums.write)
        c.register_structure_hook(kind, enums.read)
    for primitive in (str, int, float):
        plain = primitive_reader(primitive, ACCEPTED_PRIMITIVES[primitive])
        c.register_structure_hook(primitive, _subclass_reader(primitive, plain, enums.read))
    c.register_unstructure_hook_factory(_is_collection, _collection_writer)
    c.register_structure_hook_factory(_is_collection, _collection_reader)
    c.register_unstructure_hook_factory(_is_nested_attrs, _nested_writer)
    c.register_structure_hook_factory(_is_nested_attrs, _nested_reader)


# --- dates and times ----------------------------------------------------------------------


def _write_isoformat(value: datetime.date | datetime.time) -> str:
    if not isinstance(value, (datetime.date, datetime.time)):
        raise SerializationError.mismatch("", "a date, time or datetime", describe_type(value))
    return value.isoformat()


def _writer_of(kind: type) -> Callable[[Any], str]:
    """A writer of ``str(value)`` that refuses a value that is not a ``kind``."""

    def write(value: Any) -> str:
        if not isinstance(value, kind):
            raise SerializationError.mismatch("", f"a {kind.__name__}", describe_type(value))
        return str(value)

    return write


def _read_datetime(value: Any, _: Any) -> datetime.datetime:
    text = _text(value, "ISO 8601 datetime text")
    try:
        return _exact_offset(text, datetime.datetime.fromisoformat(text))
    except ValueError:
        raise SerializationError(f"{text!r} is not an ISO 8601 datetime") from None


def _read_date(value: Any, _: Any) -> datetime.date:
    text = _text(value, "ISO 8601 date text")
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        pass
    try:  # a datetime held by a date field is written as the datetime
        return _exact_offset(text, datetime.datetime.fromisoformat(text))
    except ValueError:
        raise SerializationError(f"{text!r} is not an ISO 8601 date") from None


def _read_time(value: Any, _: Any) -> datetime.time:
    text = _text(value, "ISO 8601 time text")
    try:
        return _exact_offset(text, datetime.time.fromisoformat(text))
    except ValueError:
        raise SerializationError(f"{text!r} is not an ISO 8601 time") from None


_T = TypeVar("_T", datetime.datetime, datetime.time)
_SUBSECOND_OFFSET = re.compile(r"([+-])00:00:00\.(\d{6})\Z")


def _exact_offset(text: str, value: _T) -> _T:
    """Give back a UTC offset under one second that ``fromisoformat`` read as UTC.

    CPython's ``fromisoformat`` reads ``+00:00:00.000001``, which ``isoformat`` writes for
    such an offset, as ``+00:00``; larger offsets with microseconds are read right.
    """
    if text[-7:-6] != "." or value.utcoffset() != datetime.timedelta(0):
        return value
    tail = _SUBSECOND_OFFSET.search(text)
    if tail is None:
        return value
    sign = -1 if tail.group(1) == "-" else 1
    offset = datetime.timedelta(microseconds=sign * int(tail.group(2)))
    return value.replace(tzinfo=datetime.timezone(offset))


_TIME_READERS: dict[type, Callable[[Any, Any], Any]] = {
    datetime.datetime: _read_datetime,
    datetime.date: _read_date,
    datetime.time: _read_time,
}


# --- bytes, UUID, Decimal, paths ----------------------------------------------------------


def _read_bytes(value: Any, _: Any) -> bytes:
    try:
        return decode_base64(_text(value, "base64 text"))
    except ValueError as error:  # names the first offending character
        raise SerializationError(str(error)) from None


def _read_uuid(value: Any, _: Any) -> uuid.UUID:
    text = _text(value, "UUID text")
    try:
        return uuid.UUID(text)
    except ValueError:
        raise SerializationError(f"{text!r} is not a UUID") from None


def _read_decimal(value: Any, _: Any) -> decimal.Decimal:
    if type(value) is int:
        return decimal.Decimal(value)
    text = _text(value, "a decimal number as a string (a JSON float is not exact)")
    try:
        return decimal.Decimal(text)
    except ArithmeticError:  # decimal.InvalidOperation: not a number
        raise SerializationError(f"{text!r} is not a decimal number") from None


def _read_path(value: Any, cls: type[pathlib.PurePath]) -> pathlib.PurePath:
    return cls(_text(value, "a path as a string"))


def _text(value: Any, expected: str) -> str:
    """Return ``value`` if it is a string, else raise saying what was expected."""
    if type(value) is str:
        return value
    if isinstance(value, str):
        return str.__str__(value)
    raise SerializationError.mismatch("", expected, describe_type(value))


# --- enums --------------------------------------------------------------------------------


def _is_enum(cls: Any) -> bool:
    return isinstance(cls, type) and issubclass(cls, enum.Enum)


class _EnumHooks:
    """Enum members written as their values, read back by the values' written form."""

    def __init__(self, converter: cattrs.Converter) -> None:
        self.converter = converter
        # For each enum read, its members by the key of their written values.
        self.tables: dict[type, dict[Any, enum.Enum]] = {}

    def write(self, member: enum.Enum) -> Any:
        """Write a member as its value, with the value's own hook."""
        return self.converter.unstructure(member.value)

    def read(self, value: Any, cls: type[enum.Enum]) -> enum.Enum:
        """Read the member of ``cls`` whose written value is ``value``."""
        table = self.tables.get(cls)
        if table is None:
            table = self.tables[cls] = {
                _value_key(self.write(member)): member for member in cls.__members__.values()
            }
        member = table.get(_value_key(value))
        if member is not None:
            return member
        if issubclass(cls, enum.Flag) and type(value) is int:  # a combination of flags
            try:
                return cls(value)
            except ValueError:
                pass
        members = list(cls)  # without aliases
        shown = [_json_text(self.write(member)) for member in members[:_SHOWN_MEMBERS]]
        more = ", ..." if len(members) > _SHOWN_MEMBERS else ""
        raise SerializationError.mismatch(
            "", f"a member of {cls.__name__}: one of {', '.join(shown)}{more}", _json_text(value)
        )


_SHOWN_MEMBERS = 10
def _value_key(value: Any) -> Any:
    """A hashable key, equal for equal JSON values only (``true`` is not ``1``)."""
    if isinstance(value, str):
        return str.__str__(value)
    if value is None or isinstance(value, bool):
        return (bool, value)
    if isinstance(value, int):
        return (int, int(value))
    if isinstance(value, float):
        return (float, float(value))
    return (list, _json_text(value))


def _json_text(value: Any) -> str:
    """``value`` as JSON text, for keys and messages; its type's name if it is not JSON."""
    try:
        return json.dumps(value, sort_keys=True, ensure_ascii=False)
    except (TypeError, ValueError):
        return describe_type(value)


def _subclass_reader(
    primitive: type, plain: Callable[[Any, Any], Any], read_enum: Callable[[Any, Any], Any]
) -> Callable[[Any, Any], Any]:
    """The reader of a primitive that also reads its subclasses (``(str, Enum)`` mixins).

    The primitive's own hook is found by class, before any hook for enums, so it is the one
    place that sees a mixin enum's field.
    """

    def read(value: Any, cls: Any) -> Any:
        if type(value) is primitive and cls is primitive:  # the common case, as fast as before
            return value
        if cls is primitive or not isinstance(cls, type):
            return plain(value, cls)
        if issubclass(cls, enum.Enum):
            return read_enum(value, cls)
        subclass: Callable[[Any], Any] = cls
        return subclass(plain(value, primitive))

    return read


# --- tuples and sets ----------------------------------------------------------------------

_SET_ORIGINS: dict[Any, type] = {
    set: set,
    collections.abc.MutableSet: set,
    frozenset: frozenset,
    collections.abc.Set: frozenset,
}


def _collection_kind(cls: Any) -> type | None:
    """The class a tuple or set type is read back as, or ``None`` for any other type."""
    origin = typing.get_origin(cls) or cls
    if origin is tuple:
        return tuple
    try:
        return _SET_ORIGINS.get(origin)
    except TypeError:  # an unhashable annotation
        return None


def _is_collection(cls: Any) -> bool:
    return _collection_kind(cls) is not None


def _element_types(cls: Any) -> tuple[Any, ...] | None:
    """The element types of a fixed-length tuple, or ``None`` when every element is alike."""
    args = typing.get_args(cls)
    if typing.get_origin(cls) is tuple and args and args[-1] is not Ellipsis:
        return args
    return None


def _collection_writer(cls: Any, converter: cattrs.BaseConverter) -> Callable[[Any], Any]:
    args = typing.get_args(cls)
    fixed = _element_types(cls)
    element = args[0] if args and fixed is None else None
    sort = _collection_kind(cls) is not tuple

    def write(value: Any) -> list[Any]:
        if fixed is not None and len(fixed) == len(value):
            written = [converter.unstructure(v, t) for v, t in zip(value, fixed, strict=True)]
        else:
            written = [converter.unstructure(v, element) for v in value]
        if sort:
            try:
                written.sort()
            except TypeError:  # elements that do not compare: by their JSON text
                written.sort(key=_json_text)
        return written

    return write


def _collection_reader(cls: Any, converter: cattrs.BaseConverter) -> Callable[[Any, Any], Any]:
    kind = _collection_kind(cls)
    assert kind is not None
    args = typing.get_args(cls)
    fixed = _element_types(cls)
    element = args[0] if args and fixed is None else Any

    def read(value: Any, _: Any) -> Any:
        if type(value) is not list:
            raise SerializationError.mismatch("", "a JSON list", describe_type(value))
        if fixed is not None and len(value) != len(fixed):
            raise SerializationError(
                f"expected a list of {len(fixed)} elements, got {len(value)}",
                expected=f"{len(fixed)} elements",
                got=str(len(value)),
            )
        types = fixed or [element] * len(value)
        elements = []
        for index, (item, kind_of_item) in enumerate(zip(value, types, strict=True)):
            try:
                elements.append(converter.structure(item, kind_of_item))
            except Exception as error:
                raise locate_error(error).at(f"[{index}]") from None
        return kind(elements)

    return read


# --- nested attrs classes -----------------------------------------------------------------


def _is_nested_attrs(cls: Any) -> bool:
    """Whether ``cls`` is an attrs class other than an item or a message."""
    return (
        isinstance(cls, type)
        and attrs.has(cls)
        and not issubclass(cls, (KernelContent, ChatMessageContent))
    )


def _nested_writer(cls: type, converter: cattrs.BaseConverter) -> Callable[[Any], Any]:
    generated: Callable[[Any], dict[str, Any]] | None = None

    def write(value: Any) -> dict[str, Any]:
        nonlocal generated
        if generated is None:  # made on first use: a class may hold itself
            generated = make_dict_unstructure_fn(
                cls, converter, _cattrs_omit_if_default=True, _cattrs_use_alias=True
            )
        return generated(value)

    return write


def _nested_reader(cls: type, converter: cattrs.BaseConverter) -> Callable[[Any, Any], Any]:
    generated: Callable[[Any, Any], Any] | None = None

    def read(value: Any, _: Any) -> Any:
        nonlocal generated
        if type(value) is not dict:
            raise SerializationError.mismatch(
                "", f"a {cls.__name__} object", describe_type(value)
            )
        if generated is None:  # made on first use: a class may hold itself
            generated = make_dict_structure_fn(
                cls, converter, _cattrs_detailed_validation=True, _cattrs_use_alias=True
            )
        # cattrs' own errors, as for any class of the user's: the readers locate them.
        return generated(value, cls)

    return read
