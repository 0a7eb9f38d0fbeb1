"""`jsoncodec`: both backends read, write and refuse the same things, with located errors.

Reproductions of defects found by testing: deep nesting (written by orjson only to 255
levels, a raw RecursionError from the standard library), lone surrogate escapes located by
one backend only, numpy values (``longdouble`` recursing forever, numpy scalars refused
without a location) and the property that both backends agree on any JSON value.
"""

from __future__ import annotations

import datetime
import math
import sys
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from json_backends import BACKENDS, backend

from semantic_chat import InvalidValueError, SerializationError, TextContent, jsoncodec
from semantic_chat.jsoncodec import dumps, json_value, loads
from semantic_chat.serialization import from_json, to_json

_PREFIX = (
    '{"version":1,"messages":[{"role":"user","items":'
    '[{"type":"text","text":"hi","metadata":'
)


def nested_document(depth: int) -> str:
    """A history document whose text item's metadata nests ``depth`` objects."""
    return _PREFIX + '{"a":' * depth + "1" + "}" * depth + "}]}]}"


def nested_list(depth: int) -> list[Any]:
    """``depth`` lists, each inside the one before."""
    outer: list[Any] = []
    inner = outer
    for _ in range(depth - 1):
        inner.append([])
        inner = inner[0]
    return outer


def outcome(name: str, call: Any, *args: Any) -> tuple[str, Any]:
    """What ``call(*args)`` gives under backend ``name``: its result or its error's message."""
    with backend(name):
        try:
            return "ok", call(*args)
        except SerializationError as error:
            return type(error).__name__, str(error)


# --- nesting ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", BACKENDS)
def test_metadata_nested_300_deep_is_written_back_as_it_was_read(name: str) -> None:
    document = nested_document(300)
    with backend(name):
        assert to_json(from_json(document)) == document


@pytest.mark.parametrize("indent", [None, 2])
def test_a_value_deeper_than_orjson_writes_gives_the_same_text_on_both_backends(
    indent: int | None,
) -> None:
    value = {"a": nested_list(400), "f": 1e-7}
    written = {name: outcome(name, dumps, value, indent) for name in BACKENDS}
    assert written["json"] == written["orjson"]
    if indent is None:
        assert written["json"] == ("ok", '{"a":' + "[" * 400 + "]" * 400 + ',"f":1e-7}')


@pytest.mark.parametrize("name", BACKENDS)
def test_a_document_1000_deep_is_refused_with_its_location_and_depth(name: str) -> None:
    with backend(name), pytest.raises(SerializationError) as info:
        from_json(nested_document(1000))
    assert str(info.value) == (
        "messages[0].items[0].metadata: nested 1000 levels deep, "
        "too deeply for Python's recursion limit"
    )


@pytest.mark.parametrize("name", BACKENDS)
@pytest.mark.parametrize("depth", [1100, 3000])
def test_a_document_deeper_than_the_limit_is_refused_where_it_goes_too_deep(
    name: str, depth: int
) -> None:
    with backend(name), pytest.raises(SerializationError) as info:
        from_json(nested_document(depth))
    assert str(info.value) == (
        "malformed JSON: nested more than 1024 levels deep: line 1 column 5184 (char 5183)"
    )


@pytest.mark.parametrize("name", BACKENDS)
@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("[" * 1025 + "]" * 1025, "line 1 column 1026 (char 1025)"),
        (b"[" * 1025 + b"]" * 1025, "line 1 column 1026 (char 1025)"),
        ('["]]]' + "[" * 10 + '",' + "[\n" * 1025 + "]" * 1026, "line 1024 column 2 (char 2064)"),
    ],
    ids=["str", "bytes", "brackets in a string and lines"],
)
def test_loads_refuses_more_than_1024_levels_at_the_same_place(
    name: str, text: str | bytes, where: str
) -> None:
    with backend(name), pytest.raises(SerializationError) as info:
        loads(text)
    assert str(info.value) == f"malformed JSON: nested more than 1024 levels deep: {where}"


@pytest.mark.parametrize("name", BACKENDS)
def test_loads_reads_1024_levels_and_leaves_the_recursion_limit_as_it_was(name: str) -> None:
    limit = sys.getrecursionlimit()
    with backend(name):
        value = loads("[" * 1024 + "]" * 1024)
    assert sys.getrecursionlimit() == limit
    depth = 0
    while isinstance(value, list):
        depth += 1
        value = value[0] if value else None
    assert depth == 1024


@pytest.mark.parametrize("name", BACKENDS)
def test_json_value_refuses_a_value_too_deep_to_walk_with_its_path(name: str) -> None:
    with backend(name), pytest.raises(SerializationError) as info:
        json_value({"k": nested_list(2000)}, "metadata")
    assert str(info.value) == (
        "metadata: nested 2001 levels deep, too deeply for Python's recursion limit"
    )


# --- lone surrogate escapes -----------------------------------------------------------------


@pytest.mark.parametrize("name", BACKENDS)
@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"a":"x\\ud800b"}', "no low surrogate in string: line 1 column 8 (char 7)"),
        ('{"a":"x\\udc00b"}', "invalid high surrogate in string: line 1 column 8 (char 7)"),
        ('{"a":"é\\ud800b"}', "no low surrogate in string: line 1 column 8 (char 7)"),
        (
            '["\\\\ud800", "\\ud800\\u0041"]',
            "invalid low surrogate in string: line 1 column 14 (char 13)",
        ),
        ('{"a":\n "\\ud800"}', "no low surrogate in string: line 2 column 3 (char 8)"),
        ('"\\ud800\\ud800"', "invalid low surrogate in string: line 1 column 2 (char 1)"),
        ('"\\ud83d\\ude00\\ude00"', "invalid high surrogate in string: line 1 column 14 (char 13)"),
    ],
)
def test_a_lone_surrogate_escape_is_located_the_same_way_by_both_backends(
    name: str, text: str, message: str
) -> None:
    for given_text in (text, text.encode()):
        with backend(name), pytest.raises(SerializationError) as info:
            loads(given_text)
        assert str(info.value) == f"malformed JSON: {message}"


@pytest.mark.parametrize("name", BACKENDS)
def test_a_surrogate_pair_escape_is_read_as_its_character(name: str) -> None:
    with backend(name):
        assert loads('["\\ud83d\\ude00", "\\\\ud800"]') == ["😀", "\\ud800"]


@pytest.mark.parametrize("name", BACKENDS)
def test_the_saved_file_with_a_lone_surrogate_names_line_and_column(
    name: str, tmp_path: Any
) -> None:
    path = tmp_path / "surrogate.json"
    path.write_text(
        '{"version":1,\n"messages":[{"role":"user","items":[{"type":"text","text":"a\\ud800b"}]}]}'
    )
    with backend(name), pytest.raises(SerializationError) as info:
        from_json(path.read_text())
    assert str(info.value) == (
        "malformed JSON: no low surrogate in string: line 2 column 61 (char 74)"
    )


# --- numpy values -----------------------------------------------------------------------------


def test_a_longdouble_a_float_equals_is_taken_as_that_float() -> None:
    item = TextContent("x", metadata={"x": np.longdouble(0.5)})
    assert type(item.metadata["x"]) is float
    assert item.metadata["x"] == 0.5
    assert json_value([np.longdouble(-2.0)], "metadata") == [-2.0]


def test_a_longdouble_nan_is_refused_as_nan() -> None:
    with pytest.raises(InvalidValueError) as info:
        TextContent("x", metadata={"n": np.longdouble("nan")})
    assert str(info.value) == 'metadata["n"]: nan is not a JSON value'


def test_a_longdouble_no_float_equals_is_refused_with_its_path() -> None:
    third = np.longdouble(1) / np.longdouble(3)
    if float(third) == third:  # pragma: no cover - longdouble is a double on this platform
        pytest.skip("numpy.longdouble has no more precision than float here")
    with pytest.raises(InvalidValueError) as info:
        TextContent("x", metadata={"x": [third]})
    assert str(info.value) == (
        f'metadata["x"][0]: numpy.longdouble {third!s} is not exactly a float, '
        "which JSON readers read"
    )
    with pytest.raises(SerializationError) as refused:
        json_value(np.array([1, third], dtype=np.longdouble), "result")
    assert str(refused.value) == (
        f"result[1]: numpy.longdouble {third!s} is not exactly a float, which JSON readers read"
    )


def test_a_numpy_scalar_that_holds_no_json_value_is_refused() -> None:
    with pytest.raises(SerializationError) as info:
        json_value({"z": np.clongdouble(1 + 2j)}, "metadata")
    assert str(info.value) == 'metadata["z"]: clongdouble is not a JSON value'


@pytest.mark.parametrize("name", BACKENDS)
def test_dumps_writes_numpy_values_as_the_numbers_they_hold(name: str) -> None:
    value = {
        "n": np.int64(5),
        "u": np.uint64(2**64 - 1),
        "b": np.bool_(True),
        "a": np.arange(2),
        "f": np.float64(1e-7),
        "h": np.float32(0.5),
        "l": np.longdouble(0.25),
    }
    with backend(name):
        assert dumps(value) == (
            '{"n":5,"u":18446744073709551615,"b":true,"a":[0,1],"f":1e-7,"h":0.5,"l":0.25}'
        )


@pytest.mark.parametrize("name", BACKENDS)
@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({"x": [np.float64("nan")]}, 'x[0]: nan is not a JSON value'),
        ({"x": np.array([1.0, np.inf])}, 'x[1]: inf is not a JSON value'),
        ({"x": np.float32("-inf")}, 'x: -inf is not a JSON value'),
        ({"x": np.clongdouble(1j)}, 'x: clongdouble is not a JSON value'),
        ({"x": {"a b": datetime.date(2024, 1, 2)}}, 'x["a b"]: date is not a JSON value'),
    ],
    ids=["nan in a list", "inf in an array", "float32 -inf", "clongdouble", "a date"],
)
def test_dumps_refuses_what_is_not_json_with_the_same_located_message(
    name: str, value: Any, message: str
) -> None:
    with backend(name), pytest.raises(SerializationError) as info:
        dumps(value)
    assert str(info.value) == message


# --- both backends agree ----------------------------------------------------------------------

_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**65), max_value=2**65)
    | st.sampled_from([2**64 - 1, 2**64, -(2**63), -(2**63) - 1, 2**63])
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.floats(min_value=1e-6, max_value=1e-3)
    | st.text(max_size=8)
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=20,
)


@settings(max_examples=200, deadline=None)
@given(value=_VALUES, indent=st.sampled_from([None, 2]))
def test_both_backends_write_the_same_text_or_the_same_error(
    value: Any, indent: int | None
) -> None:
    written = {name: outcome(name, dumps, value, indent) for name in BACKENDS}
    assert written["json"] == written["orjson"]
    if written["json"][0] == "ok":
        read = {name: outcome(name, loads, written["json"][1]) for name in BACKENDS}
        assert read["json"] == read["orjson"] == ("ok", value)


@settings(max_examples=40, deadline=None)
@given(
    depth=st.sampled_from([250, 254, 255, 256, 260, 1020, 1024, 1025, 1030]),
    leaf=_SCALARS.filter(lambda leaf: type(leaf) is not int or -(2**63) <= leaf < 2**64),
    kind=st.sampled_from(["[", '{"k":']),
)
def test_both_backends_agree_near_the_nesting_limits(depth: int, leaf: Any, kind: str) -> None:
    leaf_text = dumps(leaf)
    closer = "]" if kind == "[" else "}"
    text = kind * depth + leaf_text + closer * depth
    read = {name: outcome(name, loads, text) for name in BACKENDS}
    assert read["json"] == read["orjson"]
    if read["json"][0] == "ok":
        written = {name: outcome(name, dumps, read["json"][1]) for name in BACKENDS}
        assert written["json"] == written["orjson"] == ("ok", text)
    else:
        assert read["json"][1].startswith("malformed JSON: nested more than 1024 levels deep")


def test_a_float_is_written_the_same_by_both_backends() -> None:
    for number in (1e-7, 1.5e-5, 1e16, 1e300, -0.0, 5e-324, math.pi):
        assert dumps_both(number) == {jsoncodec.dumps(number)}


def dumps_both(value: Any) -> set[str]:
    """The texts the two backends write for ``value`` (one when they agree)."""
    texts = set()
    for name in BACKENDS:
        with backend(name):
            texts.add(dumps(value))
    return texts


@pytest.mark.xfail(
    strict=True,
    reason="orjson reads an integer outside 64 bits as a float; no check cheap enough for "
    "the load path is known yet (see the fix report)",
)
def test_an_integer_outside_64_bits_is_refused_by_both_backends_when_read() -> None:
    document = (
        '{"version":1,"messages":[{"role":"user","items":[{"type":"text","text":"hi",'
        '"metadata":{"id":18446744073709551616}}]}]}'
    )
    refused = {name: outcome(name, from_json, document) for name in BACKENDS}
    assert refused["orjson"] == refused["json"] == (
        "SerializationError",
        'messages[0].items[0].metadata["id"]: integer outside the 64-bit range JSON readers '
        "accept",
    )
