"""JSON text in and out, with orjson when installed and the standard library otherwise.

Both backends give byte-identical text: compact separators (or two-space indentation), UTF-8
characters unescaped, and floats written the way orjson writes them (the standard library's
``1e-07`` becomes ``1e-7``, and numbers from 1e-5 to 1e-4 are written in fixed notation).
`json_value` checks that a value is JSON (what orjson would accept, and no more) before it is
written, so that both backends refuse the same things with a located error.

Nesting: both backends read documents up to `JSON_DEPTH_MAX` levels deep (orjson's limit; the
standard library's parser is given the stack it needs) and refuse deeper ones with the same
located message. orjson writes only 255 levels; deeper values are written by the standard
library's writer, which gives the same bytes.
"""

from __future__ import annotations

import json
import math
import re
import sys
from typing import Any

import numpy as np

from .errors import (
    InvalidTypeError,
    InvalidValueError,
    SerializationError,
    describe_lone_surrogate,
    describe_type,
)

try:
    import orjson
except ImportError:  # pragma: no cover - exercised by forcing the fallback in tests
    orjson = None  # type: ignore[assignment]

__all__ = [
    "BACKEND",
    "JSON_DEPTH_MAX",
    "JSON_INT_MAX",
    "JSON_INT_MIN",
    "dumps",
    "json_value",
    "loads",
    "model_json_value",
    "text_position",
    "use_backend",
    "utf8_error",
]

BACKEND: str = "orjson" if orjson is not None else "json"
"""The backend in use: ``"orjson"`` or ``"json"``."""

JSON_INT_MIN = -(2**63)
"""The smallest integer JSON readers take back (orjson's limit; the fallback refuses the same)."""
JSON_INT_MAX = 2**64 - 1
"""The largest integer JSON readers take back."""
JSON_DEPTH_MAX = 1024
"""The deepest nesting of arrays and objects JSON readers take (orjson's limit)."""
_QUOTED = r'"(?:[^"\\]|\\.)*"'  # a JSON string, escapes included
_STRING_OR_EXPONENT = re.compile(rf"({_QUOTED})|(-?\d+(?:\.\d+)?e-\d+)")


def use_backend(name: str) -> None:
    """Choose the backend (``"orjson"`` or ``"json"``); both write the same bytes.

    Raises:
        ValueError: the name is unknown, or ``orjson`` is asked for and not installed.
    """
    global BACKEND  # noqa: PLW0603 - one process-wide switch, read on every call
    if name not in ("orjson", "json"):
        raise ValueError(f"unknown JSON backend {name!r}: expected 'orjson' or 'json'")
    if name == "orjson" and orjson is None:
        raise ValueError("orjson is not installed: pip install 'semantic_chat[fast]'")
    BACKEND = name


def dumps(value: Any, indent: int | None = None) -> str:
    """Write a JSON-ready value as text.

    numpy scalars and arrays are written as the Python numbers and lists they hold, as
    `json_value` copies them.

    Raises:
        SerializationError: a part of ``value`` is not JSON (a lone surrogate, NaN or an
            infinity, an integer outside the 64-bit range, a type JSON has no value for) or
            it is nested too deeply for the writer; the message gives its location.
        ValueError: ``indent`` is not ``None`` or 2 (the only indentation orjson writes).
    """
    if indent not in (None, 2):
        raise ValueError(f"indent must be None or 2, got {indent!r}")
    if BACKEND == "orjson":
        try:
            return orjson.dumps(
                value, default=_plain_numpy, option=_INDENTED if indent else _COMPACT
            ).decode()
        except orjson.JSONEncodeError as error:
            if str(error) != "Recursion limit reached":
                raise _locate_unencodable(value) from None
        # orjson writes 255 levels at most; the standard library writes the same bytes.
    return _stdlib_dumps(value, indent)


# orjson would write dates, times and dataclasses; the standard library refuses them: so do we.
_COMPACT = (
    0 if orjson is None else orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
)
_INDENTED = 0 if orjson is None else _COMPACT | orjson.OPT_INDENT_2


def _stdlib_dumps(value: Any, indent: int | None) -> str:
    """`dumps` with the standard library, its floats rewritten the way orjson writes them."""
    separators = (",", ": ") if indent else (",", ":")
    try:
        text = json.dumps(
            value,
            ensure_ascii=False,
            indent=indent,
            separators=separators,
            allow_nan=False,
            default=_plain_numpy,
        )
        text.encode("utf-8")
    except (ValueError, TypeError, UnicodeEncodeError):
        raise _locate_unencodable(value) from None
    except RecursionError:
        raise _too_deep(value, "") from None
    if _LONG_NUMBER.search(text):
        found = _find_unencodable(value, "", False)
        if found is not None:  # an integer orjson would refuse: refuse it too
            raise found
    if "e-" in text:
        text = _STRING_OR_EXPONENT.sub(_orjson_float, text)
    return text


def _plain_numpy(value: Any) -> Any:
    """The writers' ``default``: a numpy value as the JSON it holds; anything else refused.

    Raises:
        TypeError: ``value`` is not numpy, or holds what JSON cannot (NaN, a longdouble that
            is not exactly a float); the writer then locates it.
    """
    if isinstance(value, (np.generic, np.ndarray)):
        try:
            return _copy_json(value)
        except _NotJSON:
            pass
    raise TypeError(f"{describe_type(value)} is not a JSON value")


def loads(text: str | bytes | bytearray | memoryview) -> Any:
    """Parse JSON text.

    Raises:
        SerializationError: the text is not valid JSON, or is nested more than
            `JSON_DEPTH_MAX` levels deep; the message gives line and column.
    """
    if isinstance(text, memoryview):
        text = text.tobytes()
    if BACKEND == "orjson":
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError as error:
            if error.msg == "depth limit exceeded":
                where = f"line {error.lineno} column {error.colno} (char {error.pos})"
                raise SerializationError(f"{_TOO_DEEP_TEXT}: {where}") from None
            problem = utf8_error(text) if isinstance(text, (bytes, bytearray)) else None
            raise SerializationError(f"malformed JSON: {problem or error}") from None
    if isinstance(text, (bytes, bytearray)) and text[:3] == b"\xef\xbb\xbf":
        raise SerializationError("malformed JSON: a UTF-8 byte order mark is not JSON")
    try:
        value = _stdlib_loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        problem = utf8_error(text) if isinstance(text, (bytes, bytearray)) else None
        raise SerializationError(f"malformed JSON: {problem or error}") from None
    except RecursionError:
        value = _stdlib_loads_deep(text)
    else:
        if _may_parse_too_deep() and _deeper_than_orjson_reads(text, value):
            raise _nested_too_deeply(_text_of(text), _first_too_deep(_text_of(text)) or 0)
    source = _text_of(text)
    if _SURROGATE_ESCAPE.search(source) and _find_unencodable(value, "", True) is not None:
        raise _lone_surrogate_escape(source)
    return value


_WIDE_BOMS = (
    (b"\xff\xfe\x00\x00", "UTF-32"), (b"\x00\x00\xfe\xff", "UTF-32"),
    (b"\xff\xfe", "UTF-16"), (b"\xfe\xff", "UTF-16"),
)
"""Byte order marks of the encodings a JSON file is saved in by mistake, longest first."""


def utf8_error(data: bytes | bytearray) -> str | None:
    """Say why ``data`` is not UTF-8, where, in the parsers' position words; ``None`` if it is."""
    for bom, encoding in _WIDE_BOMS:
        if data.startswith(bom):
            return (
                f"not UTF-8: the text is {encoding} (it starts with a {encoding} "
                "byte order mark)"
            )
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as error:
        start = error.start
    else:
        return None
    line_start = data.rfind(b"\n", 0, start) + 1
    line = data.count(b"\n", 0, start) + 1
    column = len(data[line_start:start].decode("utf-8")) + 1
    char = len(data[:start].decode("utf-8"))
    return f"not UTF-8: byte 0x{data[start]:02x}: line {line} column {column} (char {char})"


def _may_parse_too_deep() -> bool:
    """Whether the standard library's parser can go deeper than orjson reads.

    Before Python 3.12 it stops at the recursion limit, each level one call; from 3.12 at
    the C stack's limit, which may be higher.
    """
    return sys.version_info >= (3, 12) or sys.getrecursionlimit() > JSON_DEPTH_MAX


def _deeper_than_orjson_reads(text: str | bytes | bytearray, value: Any) -> bool:
    """Whether a parsed document nests more than `JSON_DEPTH_MAX` levels.

    The brackets are counted first (C speed): without that many, it cannot.
    """
    opening = text.count("[") + text.count("{") if isinstance(text, str) else (
        text.count(b"[") + text.count(b"{")
    )
    return opening > JSON_DEPTH_MAX and _depth(value) > JSON_DEPTH_MAX


def _text_of(text: str | bytes | bytearray) -> str:
    """The text of a document given as text or UTF-8, for locating an error in it."""
    return text if isinstance(text, str) else bytes(text).decode("utf-8", "replace")


def _stdlib_loads(text: str | bytes | bytearray) -> Any:
    """The standard library's parser, refusing what orjson refuses (NaN, infinite floats)."""
    return json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)


def _stdlib_loads_deep(text: str | bytes | bytearray) -> Any:
    """Parse a document the standard library ran out of stack for, as deep as orjson reads.

    A document nested deeper than `JSON_DEPTH_MAX` is refused where orjson refuses it; one
    within the limit is parsed again with room on the stack for its depth.
    """
    source = _text_of(text)
    opener = _first_too_deep(source)
    if opener is not None:
        raise _nested_too_deeply(source, opener)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(limit + JSON_DEPTH_MAX + 100)
    try:
        return _stdlib_loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        problem = utf8_error(text) if isinstance(text, (bytes, bytearray)) else None
        raise SerializationError(f"malformed JSON: {problem or error}") from None
    finally:
        sys.setrecursionlimit(limit)


_STRING_OR_BRACKET = re.compile(rf"{_QUOTED}|[\[{{]|[\]}}]")


def _first_too_deep(source: str) -> int | None:
    """The index of the first ``[`` or ``{`` nested deeper than `JSON_DEPTH_MAX`, if any."""
    depth = 0
    for match in _STRING_OR_BRACKET.finditer(source):
        mark = match.group()
        if mark in "[{":
            depth += 1
            if depth > JSON_DEPTH_MAX:
                return match.start()
        elif mark in "]}":
            depth -= 1
    return None


def _nested_too_deeply(source: str, opener: int) -> SerializationError:
    """The error for a document nested too deeply, at the bracket that went too deep."""
    return SerializationError(f"{_TOO_DEEP_TEXT}: {text_position(source, opener + 1)}")


_TOO_DEEP_TEXT = f"malformed JSON: nested more than {JSON_DEPTH_MAX} levels deep"


def text_position(source: str, index: int) -> str:
    """``line L column C (char I)``, the way both parsers say where an error is."""
    line = source.count("\n", 0, index) + 1
    column = index - (source.rfind("\n", 0, index) + 1) + 1
    return f"line {line} column {column} (char {index})"


_UNICODE_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|.)")
_STRING = re.compile(_QUOTED)


def _lone_surrogate_escape(source: str) -> SerializationError:
    """Locate the first escape of a lone surrogate, with orjson's words for it."""
    for string in _STRING.finditer(source):
        if "\\" not in string.group():
            continue
        escapes = list(_UNICODE_ESCAPE.finditer(source, string.start(), string.end()))
        for index, escape in enumerate(escapes):
            problem = _surrogate_problem(escapes, index)
            if problem is not None:
                where = text_position(source, escape.start())
                return SerializationError(f"malformed JSON: {problem} in string: {where}")
    return SerializationError("malformed JSON: a lone surrogate escape is not valid UTF-8")


def _surrogate_problem(escapes: list[re.Match[str]], index: int) -> str | None:
    """What is wrong with escape ``index`` of a string, if it is part of no surrogate pair."""
    code = _escaped_code(escapes[index])
    previous = _escaped_code(escapes[index - 1]) if index else None
    after_high = previous is not None and 0xD800 <= previous <= 0xDBFF and (
        escapes[index - 1].end() == escapes[index].start()
    )
    if code is None or after_high:
        return None
    if 0xDC00 <= code <= 0xDFFF:
        return "invalid high surrogate"
    if not 0xD800 <= code <= 0xDBFF:
        return None
    following = escapes[index + 1] if index + 1 < len(escapes) else None
    if following is None or following.start() != escapes[index].end():
        return "no low surrogate"
    low = _escaped_code(following)
    if low is None or not 0xDC00 <= low <= 0xDFFF:
        return "invalid low surrogate"
    return None


def _escaped_code(escape: re.Match[str]) -> int | None:
    r"""The code unit a ``\uXXXX`` escape gives; ``None`` for another escape (``\n``)."""
    digits = escape.group(1)
    return None if digits is None else int(digits, 16)


_LONG_NUMBER = re.compile(r"\d{19}")  # -2**63 - 1 has 19 digits, 2**64 has 20
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise SerializationError(f"malformed JSON: {text} is out of the range of a float")
    return value


def _refuse_constant(name: str) -> Any:
    # orjson refuses NaN and Infinity, which are not JSON; the fallback must agree.
    raise SerializationError(f"malformed JSON: {name} is not a JSON value")


def json_value(value: Any, path: str) -> Any:
    """Return a copy of ``value`` after checking that it is a JSON value.

    JSON values are dicts with string keys, lists, strings, booleans, ``None``, integers
    in the 64-bit range and finite floats. numpy scalars and arrays are taken too and copied
    as the numbers, booleans, strings and lists they hold (``.item()`` / ``.tolist()``), so
    what a data pipeline hands over is written as JSON readers read it; a ``longdouble`` is
    taken as the float it equals exactly, and refused when no float does.

    Raises:
        SerializationError: a part of ``value`` is not JSON, or it is nested too deeply to
            be walked; the message names its path, e.g.
            ``metadata["when"]: datetime is not a JSON value``.
    """
    try:
        return _copy_json(value)
    except _NotJSON:
        where, detail, _ = _locate_not_json(value, path)
        raise SerializationError(detail, path=where) from None
    except RecursionError:
        raise _too_deep(value, path) from None


def model_json_value(value: Any, path: str) -> Any:
    """`json_value` for values given to the model's constructors and setters.

    Raises:
        InvalidTypeError: a part of ``value`` is of a type JSON cannot hold (a ``datetime``,
            a ``tuple``, a key that is not a ``str``); the message names its path.
        InvalidValueError: a number JSON cannot hold (NaN, infinities, an integer outside
            the 64-bit range), a string with a lone surrogate, or a value nested too deeply
            to be walked (a `SerializationError`).
    """
    try:
        return _copy_model_json(value)
    except (_NotJSON, UnicodeEncodeError):
        pass
    except RecursionError:
        raise _too_deep(value, path) from None
    try:
        copied = _copy_json(value)
    except _NotJSON:
        where, detail, is_type = _locate_not_json(value, path)
        raise (InvalidTypeError if is_type else InvalidValueError)(detail, path=where) from None
    found = _find_unencodable(copied, path, True)
    if found is None:  # the copy above refused it for its text, so this cannot happen
        raise InvalidValueError("text that cannot be written as UTF-8", path=path)
    raise InvalidValueError(found.detail, path=found.path)


class _NotJSON(Exception):
    """Raised by `_copy_json`; the error with its path is built only then."""


def _copy_json(value: Any) -> Any:
    kind = type(value)
    if kind is str or kind is bool or value is None:
        return value
    if kind is dict:
        copy = {}
        for key, item in value.items():
            if type(key) is not str:
                raise _NotJSON
            copy[key] = _copy_json(item)
        return copy
    if kind is list:
        return [_copy_json(item) for item in value]
    if (kind is int and JSON_INT_MIN <= value <= JSON_INT_MAX) or (
        kind is float and math.isfinite(value)
    ):
        return value
    if isinstance(value, (np.generic, np.ndarray)):
        return _copy_json(_from_numpy(value))
    raise _NotJSON


def _copy_model_json(value: Any) -> Any:
    """`_copy_json` that also refuses text UTF-8 cannot encode (raising UnicodeEncodeError)."""
    kind = type(value)
    if kind is str:
        if not value.isascii():
            value.encode("utf-8")
        return value
    if kind is bool or value is None:
        return value
    if kind is dict:
        copy = {}
        for key, item in value.items():
            if type(key) is not str:
                raise _NotJSON
            if not key.isascii():
                key.encode("utf-8")
            leaf = type(item)  # plain numbers and ASCII text inline: no call per leaf
            if (leaf is str and item.isascii()) or (leaf is float and math.isfinite(item)):
                copy[key] = item
            else:
                copy[key] = _copy_model_json(item)
        return copy
    if kind is list:
        return [_copy_model_json(item) for item in value]
    if (kind is int and JSON_INT_MIN <= value <= JSON_INT_MAX) or (
        kind is float and math.isfinite(value)
    ):
        return value
    if isinstance(value, (np.generic, np.ndarray)):
        return _copy_model_json(_from_numpy(value))
    raise _NotJSON


def _from_numpy(value: np.generic | np.ndarray[Any, Any]) -> Any:
    """A numpy scalar or array as the plain Python value(s) it holds.

    A ``longdouble`` (whose ``.item()`` is a ``longdouble`` again) becomes the float it
    equals exactly; NaN stays NaN, for the callers to refuse as NaN.

    Raises:
        _NotJSON: a ``longdouble`` that no float equals, or a scalar numpy gives back as a
            numpy value (``clongdouble``), which no JSON value holds.
    """
    if isinstance(value, np.ndarray):
        return value.tolist()
    plain = value.item()
    if not isinstance(plain, np.generic):
        return plain
    if isinstance(plain, np.longdouble):
        number = float(plain)
        if number == plain or math.isnan(number):
            return number
    raise _NotJSON


def _numpy_detail(value: np.generic | np.ndarray[Any, Any]) -> str:
    """Why `_from_numpy` refused a numpy scalar."""
    if isinstance(value, np.longdouble):
        return f"numpy.longdouble {value!s} is not exactly a float, which JSON readers read"
    return f"{describe_type(value)} is not a JSON value"


def _locate_not_json(value: Any, path: str) -> tuple[str, str, bool]:
    """Find the first part of ``value`` that is not JSON: its path, why, and whether by type.

    The flag is ``False`` when the type is right but the value is not (a number out of range).
    """
    kind = type(value)
    if isinstance(value, (np.generic, np.ndarray)):
        try:
            plain = _from_numpy(value)
        except _NotJSON:
            return path, _numpy_detail(value), not isinstance(value, np.longdouble)
        return _locate_not_json(plain, path)
    if kind is dict:
        for key, item in value.items():
            if type(key) is not str:
                detail = f"{describe_type(key)} key {key!r} is not a JSON object key (use str)"
                return path, detail, True
            try:
                _copy_json(item)
            except _NotJSON:
                where = f"{path}[{json.dumps(key, ensure_ascii=False)}]"
                return _locate_not_json(item, where)
    elif kind is list:
        for index, item in enumerate(value):
            try:
                _copy_json(item)
            except _NotJSON:
                return _locate_not_json(item, f"{path}[{index}]")
    elif kind is int:
        return path, "integer outside the 64-bit range JSON readers accept", False
    elif kind is float:
        return path, f"{value} is not a JSON value", False
    return path, f"{describe_type(value)} is not a JSON value", True


def _orjson_float(match: re.Match[str]) -> str:
    if match.group(1) is not None:
        return match.group(1)
    mantissa, _, exponent = match.group(2).partition("e")
    power = int(exponent)
    if power != -5:
        return f"{mantissa}e{power}"
    sign = "-" if mantissa.startswith("-") else ""
    digits = mantissa.lstrip("-").replace(".", "")
    return f"{sign}0.0000{digits}"


def _locate_unencodable(value: Any) -> SerializationError:
    """Say where the first value that JSON cannot carry is, and what it is."""
    try:
        found = _find_unencodable(value, "", False)
    except RecursionError:
        return _too_deep(value, "")
    return found or SerializationError(f"{describe_type(value)} cannot be written as JSON")


def _too_deep(value: Any, path: str) -> SerializationError:
    """The error for a value nested too deeply to be walked or written, with its depth.

    A list or dict that holds itself is nested without end: said so, not measured.
    """
    if _holds_itself(value):
        return SerializationError(
            "a list or dict that holds itself (a cycle) cannot be written as JSON", path=path
        )
    return SerializationError(
        f"nested {_depth(value)} levels deep, too deeply for Python's recursion limit", path=path
    )


def _holds_itself(value: Any) -> bool:
    """Whether a list, tuple or dict in ``value`` holds itself, at any depth (no recursion)."""
    on_path: set[int] = set()
    stack: list[tuple[Any, bool]] = [(value, False)]
    while stack:
        each, leaving = stack.pop()
        if leaving:
            on_path.discard(id(each))
            continue
        if not isinstance(each, (dict, list, tuple)):
            continue
        if id(each) in on_path:
            return True
        on_path.add(id(each))
        stack.append((each, True))
        stack.extend((child, False) for child in (
            each.values() if isinstance(each, dict) else each))
    return False


def _depth(value: Any) -> int:
    """How deeply lists and dicts nest in ``value`` (0 for a scalar), without recursing.

    One level at a time: only the containers of a level are kept for the next.
    """
    depth, level = 0, [value]
    while True:
        containers = [each for each in level if isinstance(each, (dict, list, tuple))]
        if not containers:
            return depth
        depth += 1
        level = []
        for container in containers:
            level.extend(container.values() if isinstance(container, dict) else container)


# Below these keys the values are free JSON, located as ["key"] rather than .field.
_JSON_CONTAINERS = frozenset(("metadata", "fields", "result", "arguments"))


def _find_unencodable(value: Any, path: str, free: bool) -> SerializationError | None:
    kind = type(value)
    if kind is str:
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as error:
            return SerializationError(describe_lone_surrogate(value, error), path=path)
    elif kind is int:
        if not JSON_INT_MIN <= value <= JSON_INT_MAX:
            return SerializationError(
                "integer outside the 64-bit range JSON readers accept", path=path
            )
    elif kind is float:
        if not math.isfinite(value):
            return SerializationError(f"{value} is not a JSON value", path=path)
    elif kind is dict:
        for key, item in value.items():
            if free or not str(key).isidentifier():
                where = f"{path}[{json.dumps(str(key))}]"
            else:
                where = f"{path}.{key}" if path else str(key)
            found = _find_unencodable(key, where, True) or _find_unencodable(
                item, where, free or key in _JSON_CONTAINERS
            )
            if found is not None:
                return found
    elif kind is list or kind is tuple:
        for index, item in enumerate(value):
            found = _find_unencodable(item, f"{path}[{index}]", free)
            if found is not None:
                return found
    elif isinstance(value, (np.generic, np.ndarray)):
        try:
            plain = _from_numpy(value)
        except _NotJSON:
            return SerializationError(_numpy_detail(value), path=path)
        return _find_unencodable(plain, path, free)
    elif not isinstance(value, (str, int, float, dict, list, tuple)) and value is not None:
        return SerializationError(f"{describe_type(value)} is not a JSON value", path=path)
    return None
