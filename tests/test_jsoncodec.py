"""`semantic_chat.jsoncodec`: the JSON value check, and byte-identical text from both backends."""

from __future__ import annotations

import collections
import datetime
import decimal
import enum
import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from json_backends import BACKENDS, backend

from semantic_chat import AuthorRole, SerializationError, jsoncodec
from semantic_chat.jsoncodec import dumps, json_value, loads, use_backend


def dumps_with(name: str, value: Any, indent: int | None = None) -> str:
    with backend(name):
        return dumps(value, indent)


def loads_with(name: str, text: Any) -> Any:
    with backend(name):
        return loads(text)


# --- backend selection ----------------------------------------------------------------------


def test_orjson_is_the_default_backend_when_installed() -> None:
    pytest.importorskip("orjson")
    assert jsoncodec.BACKEND == "orjson"


@pytest.mark.parametrize("name", BACKENDS)
def test_use_backend_switches_the_backend(name: str) -> None:
    use_backend(name)
    assert name == jsoncodec.BACKEND


def test_use_backend_refuses_an_unknown_name() -> None:
    with pytest.raises(ValueError) as info:
        use_backend("simplejson")
    assert str(info.value) == "unknown JSON backend 'simplejson': expected 'orjson' or 'json'"
    assert jsoncodec.BACKEND in BACKENDS


# --- json_value: what is accepted -------------------------------------------------------------


@pytest.mark.parametrize(
    "value",
    [
        None,
        True,
        False,
        0,
        -1,
        -(2**63),
        2**63 - 1,
        2**64 - 1,
        0.0,
        -0.0,
        1.5,
        5e-324,
        1.7976931348623157e308,
        "",
        "é😀\u2028\x00",
        [],
        {},
        [1, "a", None, [True, {"k": 2.5}]],
        {"a": {"b": [1, {"c": None}]}, "": "empty key", "é": []},
    ],
    ids=repr,
)
def test_json_value_accepts_json_values_and_returns_an_equal_value(value: Any) -> None:
    copy = json_value(value, "metadata")
    assert copy == value
    assert type(copy) is type(value)
    if isinstance(value, float):
        assert math.copysign(1.0, copy) == math.copysign(1.0, value)


def test_json_value_returns_a_deep_copy_of_containers() -> None:
    value = {"a": [1, {"b": []}], "c": {}}
    copy = json_value(value, "metadata")
    assert copy == value
    assert copy is not value
    assert copy["a"] is not value["a"]
    assert copy["a"][1] is not value["a"][1]
    assert copy["a"][1]["b"] is not value["a"][1]["b"]
    copy["a"][1]["b"].append(1)
    assert value == {"a": [1, {"b": []}], "c": {}}


# --- json_value: what is refused, with the exact message -------------------------------------


class _Color(enum.IntEnum):
    RED = 1


class _Local:
    pass


@pytest.mark.parametrize(
    ("value", "path", "message"),
    [
        (2**64, "metadata", "integer outside the 64-bit range JSON readers accept"),
        (-(2**63) - 1, "metadata", "integer outside the 64-bit range JSON readers accept"),
        (float("nan"), "metadata", "nan is not a JSON value"),
        (float("inf"), "metadata", "inf is not a JSON value"),
        (float("-inf"), "metadata", "-inf is not a JSON value"),
        ((1, 2), "metadata", "tuple is not a JSON value"),
        ({1, 2}, "metadata", "set is not a JSON value"),
        (b"x", "metadata", "bytes is not a JSON value"),
        (bytearray(b"x"), "metadata", "bytearray is not a JSON value"),
        (datetime.datetime(2024, 1, 2), "metadata", "datetime is not a JSON value"),
        (datetime.date(2024, 1, 2), "metadata", "date is not a JSON value"),
        (decimal.Decimal("1.5"), "metadata", "Decimal is not a JSON value"),
        (object(), "metadata", "object is not a JSON value"),
        (_Local(), "metadata", "_Local is not a JSON value"),
        (_Color.RED, "metadata", "_Color is not a JSON value"),
        (collections.OrderedDict(a=1), "metadata", "OrderedDict is not a JSON value"),
        (AuthorRole.USER, "metadata", "AuthorRole is not a JSON value"),
        ({1: "a"}, "metadata", "int key 1 is not a JSON object key (use str)"),
        ({None: "a"}, "metadata", "NoneType key None is not a JSON object key (use str)"),
        ({(1, 2): "a"}, "metadata", "tuple key (1, 2) is not a JSON object key (use str)"),
        ({"when": datetime.time(1, 2)}, 'metadata["when"]', "time is not a JSON value"),
        ([1, 2, float("nan")], "metadata[2]", "nan is not a JSON value"),
        ({"a": [1, {"b": {3}}]}, 'metadata["a"][1]["b"]', "set is not a JSON value"),
        ({"a": {"b": {2: 1}}}, 'metadata["a"]["b"]',
         "int key 2 is not a JSON object key (use str)"),
        ({'say "hi"': 2**70}, 'metadata["say \\"hi\\""]',
         "integer outside the 64-bit range JSON readers accept"),
        ({"é": (1,)}, 'metadata["é"]', "tuple is not a JSON value"),
    ],
    ids=lambda part: part if isinstance(part, str) else type(part).__name__,
)
def test_json_value_refuses_non_json_values_naming_the_path(
    value: Any, path: str, message: str
) -> None:
    with pytest.raises(SerializationError) as info:
        json_value(value, "metadata")
    assert info.value.path == path
    assert info.value.detail == message
    assert str(info.value) == f"{path}: {message}"
    assert isinstance(info.value, ValueError)


def test_json_value_with_an_empty_path_gives_a_bare_message() -> None:
    with pytest.raises(SerializationError) as info:
        json_value(datetime.date(2024, 1, 1), "")
    assert str(info.value) == "date is not a JSON value"
    assert info.value.path == ""


# --- dumps -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (1e-7, "1e-7"),
        (-1e-7, "-1e-7"),
        (1e-10, "1e-10"),
        (5e-5, "0.00005"),
        (-5e-5, "-0.00005"),
        (1e-5, "0.00001"),
        (1.5e-5, "0.000015"),
        (9.99e-5, "0.0000999"),
        (1e-4, "0.0001"),
        (0.1, "0.1"),
        (-0.0, "-0.0"),
        (0.0, "0.0"),
        (1.0, "1.0"),
        (123.456, "123.456"),
        (1e15, "1000000000000000.0"),
        (1e16, "1e+16"),
        (1.5e300, "1.5e+300"),
        (1.7976931348623157e308, "1.7976931348623157e+308"),
        (2.5e-308, "2.5e-308"),
        (5e-324, "5e-324"),
    ],
    ids=repr,
)
@pytest.mark.parametrize("name", BACKENDS)
def test_dumps_writes_floats_exactly(name: str, value: float, text: str) -> None:
    assert dumps_with(name, value) == text
    assert dumps_with(name, [value]) == f"[{text}]"
    assert dumps_with(name, {"x": value}, 2) == f'{{\n  "x": {text}\n}}'


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_dumps_floats_identical_across_backends(value: float) -> None:
    compact = dumps_with("json", value)
    assert compact == dumps_with("orjson", value)
    assert dumps_with("json", {"k": [value]}, 2) == dumps_with("orjson", {"k": [value]}, 2)
    for name in BACKENDS:
        read = loads_with(name, compact)
        assert read == value
        assert math.copysign(1.0, read) == math.copysign(1.0, value)


_TRICKY_TEXT = st.text(alphabet='0123456789e-+."\\ \n\u2028é', max_size=12)
_TRICKY_VALUES = st.recursive(
    st.one_of(
        _TRICKY_TEXT,
        st.floats(allow_nan=False, allow_infinity=False),
        st.integers(min_value=-(2**63), max_value=2**64 - 1),
        st.booleans(),
        st.none(),
    ),
    lambda children: st.one_of(
        st.lists(children, max_size=3), st.dictionaries(_TRICKY_TEXT, children, max_size=3)
    ),
    max_leaves=10,
)


@given(_TRICKY_VALUES, st.sampled_from([None, 2]))
def test_dumps_identical_across_backends_with_float_like_strings(
    value: Any, indent: int | None
) -> None:
    # Strings that look like exponent floats ("5e-05") must not be rewritten by the json
    # backend's float fix-up, and escaped quotes must not confuse it.
    text = dumps_with("json", value, indent)
    assert text == dumps_with("orjson", value, indent)
    assert loads_with("json", text) == value


@pytest.mark.parametrize("name", BACKENDS)
@pytest.mark.parametrize(
    ("value", "compact", "indented"),
    [
        ("é😀\u2028\x00\x1f\"\\/", '"é😀\u2028\\u0000\\u001f\\"\\\\/"',
         '"é😀\u2028\\u0000\\u001f\\"\\\\/"'),
        (
            {"a": "x 1e-07 y", "b": 1e-07, "c": [5e-05, {"d": "5e-05"}]},
            '{"a":"x 1e-07 y","b":1e-7,"c":[0.00005,{"d":"5e-05"}]}',
            '{\n  "a": "x 1e-07 y",\n  "b": 1e-7,\n  "c": [\n    0.00005,\n    {\n'
            '      "d": "5e-05"\n    }\n  ]\n}',
        ),
        ([1, 2.0, True, None, "s"], '[1,2.0,true,null,"s"]',
         '[\n  1,\n  2.0,\n  true,\n  null,\n  "s"\n]'),
        ({"é": {"ü": []}}, '{"é":{"ü":[]}}', '{\n  "é": {\n    "ü": []\n  }\n}'),
        ({}, "{}", "{}"),
        ([], "[]", "[]"),
        ([[]], "[[]]", "[\n  []\n]"),
        (2**64 - 1, "18446744073709551615", "18446744073709551615"),
        (-(2**63), "-9223372036854775808", "-9223372036854775808"),
    ],
    ids=repr,
)
def test_dumps_exact_text(name: str, value: Any, compact: str, indented: str) -> None:
    assert dumps_with(name, value) == compact
    assert dumps_with(name, value, None) == compact
    assert dumps_with(name, value, 2) == indented


@pytest.mark.parametrize("name", BACKENDS)
@pytest.mark.parametrize("indent", [3, 0, 4, 1, -1])
def test_dumps_refuses_other_indents(name: str, indent: int) -> None:
    with pytest.raises(ValueError) as info:
        dumps_with(name, {"a": 1}, indent)
    assert str(info.value) == f"indent must be None or 2, got {indent}"


@pytest.mark.parametrize("name", BACKENDS)
@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("ab\ud800", "lone surrogate '\\ud800' at character 2 cannot be written as UTF-8"),
        (["ok", "\udfff"],
         "[1]: lone surrogate '\\udfff' at character 0 cannot be written as UTF-8"),
        ({"a": {"b": ["x", "y\udc00z"]}},
         "a.b[1]: lone surrogate '\\udc00' at character 1 cannot be written as UTF-8"),
    ],
    ids=["top", "list", "nested"],
)
def test_dumps_locates_lone_surrogates(name: str, value: Any, message: str) -> None:
    with pytest.raises(SerializationError) as info:
        dumps_with(name, value)
    assert str(info.value) == message


# --- loads ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", BACKENDS)
@pytest.mark.parametrize(
    "text",
    ['{"a":', "", "[1,]", '{"a":1}x', "nan", "{'a': 1}", b"\xff", b'{"a": "\xff"}', "[1 2]"],
    ids=repr,
)
def test_loads_malformed_json(name: str, text: str | bytes) -> None:
    with pytest.raises(SerializationError) as info:
        loads_with(name, text)
    assert str(info.value).startswith("malformed JSON: ")
    assert info.value.path == ""
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("name", BACKENDS)
def test_loads_malformed_json_gives_line_and_column(name: str) -> None:
    with pytest.raises(SerializationError) as info:
        loads_with(name, '{\n  "a": 1,\n  "b": }')
    assert str(info.value).startswith("malformed JSON: ")
    assert "line 3 column" in str(info.value)


@pytest.mark.parametrize("name", BACKENDS)
@pytest.mark.parametrize(
    "text",
    [
        '{"a":[1,2.5,"é",null,true]}',
        b'{"a":[1,2.5,"\xc3\xa9",null,true]}',
        bytearray(b'{"a":[1,2.5,"\xc3\xa9",null,true]}'),
        memoryview(b'{"a":[1,2.5,"\xc3\xa9",null,true]}'),
        memoryview(b'xx{"a":[1,2.5,"\xc3\xa9",null,true]}xx')[2:-2],
    ],
    ids=["str", "bytes", "bytearray", "memoryview", "memoryview-slice"],
)
def test_loads_accepts_text_and_bytes(name: str, text: Any) -> None:
    assert loads_with(name, text) == {"a": [1, 2.5, "é", None, True]}


@pytest.mark.parametrize(
    "text",
    ["NaN", "[Infinity]", '{"a":-Infinity}', "1e400", '"\\ud800"', b"\xef\xbb\xbf{}"],
    ids=repr,
)
def test_loads_json_backend_refuses_what_orjson_refuses(text: str | bytes) -> None:
    with pytest.raises(SerializationError):
        loads_with("orjson", text)
    with pytest.raises(SerializationError) as info:
        loads_with("json", text)
    assert str(info.value).startswith("malformed JSON: ")


WRITTEN_CYCLE = "metadata: a list or dict that holds itself (a cycle) cannot be written as JSON"


def test_a_value_that_holds_itself_is_refused_at_its_place_not_walked_forever() -> None:
    # What was seen: TextContent("x", metadata=d) with d["self"] = d never returned (the
    # depth of the value was measured by walking it without end).
    from semantic_chat import FunctionResultContent, TextContent
    from semantic_chat.errors import SerializationError
    from semantic_chat.serialization import to_json

    looped: dict = {}
    looped["self"] = looped
    with pytest.raises(SerializationError) as raised:
        TextContent("x", metadata=looped)
    assert str(raised.value) == (
        "metadata: a list or dict that holds itself (a cycle) cannot be written as JSON")
    listed: list = [1]
    listed.append(listed)
    with pytest.raises(SerializationError) as raised:
        FunctionResultContent("c1", listed)
    assert str(raised.value) == (
        "result: a list or dict that holds itself (a cycle) cannot be written as JSON")
    item = TextContent("x", metadata={"a": {}})
    item.metadata["a"]["b"] = item.metadata  # after the fact: caught when written
    with pytest.raises(SerializationError) as raised:
        to_json(item)
    assert str(raised.value) == WRITTEN_CYCLE
    shared = [1, 2]
    assert TextContent("x", metadata={"a": shared, "b": shared}).metadata == {
        "a": [1, 2], "b": [1, 2]}  # the same list twice is no cycle


@pytest.mark.parametrize("backend", ["orjson", "json"])
def test_bytes_that_are_not_utf8_are_located_at_the_byte(backend: str) -> None:
    # What was seen (orjson): "malformed JSON: str is not valid UTF-8: surrogates not allowed:
    # line 1 column 1 (char 0)" for a cp1252 'é' on line 2.
    from semantic_chat import jsoncodec
    from semantic_chat.serialization import from_json

    data = b'{"version":1,\n"messages":[{"role":"user","items":[{"type":"text","text":"caf\xe9"}]}]}'
    before = jsoncodec.BACKEND
    jsoncodec.use_backend(backend)
    try:
        with pytest.raises(SerializationError) as raised:
            from_json(data)
    finally:
        jsoncodec.use_backend(before)
    assert str(raised.value) == (
        "malformed JSON: not UTF-8: byte 0xe9: line 2 column 63 (char 76)")
