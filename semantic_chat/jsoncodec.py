"""JSON text in and out, with orjson when installed and the standard library otherwise.

Both backends give byte-identical text: compact separators (or two-space indentation), UTF-8
characters unescaped, and floats written the way orjson writes them (the standard library's
``1e-07`` becomes ``1e-7``, and numbers from 1e-5 to 1e-4 are written in fixed notation).
`json_value` checks that a value is JSON (what orjson would accept, and no more) before it is
written, so that both backends refuse the same things with a located error.
"""

from __future__ import annotations

import json
import math
import re
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
    "JSON_INT_MAX",
    "JSON_INT_MIN",
    "dumps",
    "json_value",
    "loads",
    "model_json_value",
    "use_backend",
]

BACKEND: str = "orjson" if orjson is not None else "json"
"""The backend in use: ``"orjson"`` or ``"json"``."""

JSON_INT_MIN = -(2**63)
"""The smallest integer JSON readers take back (orjson's limit; the fallback refuses the same)."""
JSON_INT_MAX = 2**64 - 1
"""The largest integer JSON readers take back."""
_STRING_OR_EXPONENT = re.compile(r'("(?:[^"\\]|\\.)*")|(-?\d+(?:\.\d+)?e-\d+)')


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

    Raises:
        SerializationError: a string holds a lone surrogate (not encodable as UTF-8); the
            message gives its location.
        ValueError: ``indent`` is not ``None`` or 2 (the only indentation orjson writes).
    """
    if indent not in (None, 2):
        raise ValueError(f"indent must be None or 2, got {indent!r}")
    if BACKEND == "orjson":
        try:
            return orjson.dumps(value, option=orjson.OPT_INDENT_2 if indent else 0).decode()
        except orjson.JSONEncodeError:
            raise _locate_unencodable(value) from None
    separators = (",", ": ") if indent else (",", ":")
    try:
        text = json.dumps(
            value, ensure_ascii=False, indent=indent, separators=separators, allow_nan=False
        )
        text.encode("utf-8")
    except (ValueError, UnicodeEncodeError):
        raise _locate_unencodable(value) from None
    if _LONG_NUMBER.search(text) and _find_unencodable(value, "", False) is not None:
        raise _locate_unencodable(value)  # an integer orjson would refuse: refuse it too
    if "e-" in text:
        text = _STRING_OR_EXPONENT.sub(_orjson_float, text)
    return text


def loads(text: str | bytes | bytearray | memoryview) -> Any:
    """Parse JSON text.

    Raises:
        SerializationError: the text is not valid JSON; the message gives line and column.
    """
    if isinstance(text, memoryview):
        text = text.tobytes()
    if BACKEND == "orjson":
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError as error:
            raise SerializationError(f"malformed JSON: {error}") from None
    if isinstance(text, (bytes, bytearray)) and text[:3] == b"\xef\xbb\xbf":
        raise SerializationError("malformed JSON: a UTF-8 byte order mark is not JSON")
    try:
        value = json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise SerializationError(f"malformed JSON: {error}") from None
    source = text if isinstance(text, str) else bytes(text).decode("utf-8", "replace")
    if _SURROGATE_ESCAPE.search(source) and _find_unencodable(value, "", True) is not None:
        raise SerializationError("malformed JSON: a lone surrogate escape is not valid UTF-8")
    return value


_LONG_NUMBER = re.compile(r"\d{20}")
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
    what a data pipeline hands over is written as JSON readers read it.

    Raises:
        SerializationError: a part of ``value`` is not JSON; the message names its path,
            e.g. ``metadata["when"]: datetime is not a JSON value``.
    """
    try:
        return _copy_json(value)
    except _NotJSON:
        where, detail, _ = _locate_not_json(value, path)
        raise SerializationError(detail, path=where) from None


def model_json_value(value: Any, path: str) -> Any:
    """`json_value` for values given to the model's constructors and setters.

    Raises:
        InvalidTypeError: a part of ``value`` is of a type JSON cannot hold (a ``datetime``,
            a ``tuple``, a key that is not a ``str``); the message names its path.
        InvalidValueError: a number JSON cannot hold (NaN, infinities, an integer outside
            the 64-bit range), or a string with a lone surrogate.
    """
    try:
        return _copy_model_json(value)
    except (_NotJSON, UnicodeEncodeError):
        pass
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
    """A numpy scalar or array as the plain Python value(s) it holds."""
    return value.tolist() if isinstance(value, np.ndarray) else value.item()


def _locate_not_json(value: Any, path: str) -> tuple[str, str, bool]:
    """Find the first part of ``value`` that is not JSON: its path, why, and whether by type.

    The flag is ``False`` when the type is right but the value is not (a number out of range).
    """
    kind = type(value)
    if isinstance(value, (np.generic, np.ndarray)):
        return _locate_not_json(_from_numpy(value), path)
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
    found = _find_unencodable(value, "", False)
    return found or SerializationError(f"{describe_type(value)} cannot be written as JSON")


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
    elif kind is list:
        for index, item in enumerate(value):
            found = _find_unencodable(item, f"{path}[{index}]", free)
            if found is not None:
                return found
    return None
