"""Plugin fields of common Python types: written as JSON, read back equal, errors located.

Covers the standard library types the converter handles out of the box (dates and times,
``UUID``, ``Decimal``, enums, paths, tuples and sets, nested attrs classes), a hook of one's own
for any other type, and frozen plugin classes.
"""

from __future__ import annotations

import datetime as dt
import decimal
import enum
import json
import pathlib
import re
import uuid
from collections.abc import Iterator
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st
from json_backends import BACKENDS, backend

from semantic_chat import (
    ChatHistory,
    ChatMessageContent,
    ContentType,
    FunctionResultContent,
    KernelContent,
    SerializationError,
    TextContent,
)
from semantic_chat.contents.base import CONTENT_TYPES
from semantic_chat.serialization import (
    configure_converter,
    from_dict,
    from_json,
    make_converter,
    to_dict,
    to_json,
)

# --- the plugin classes ---------------------------------------------------------------------


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


class Mood(str, enum.Enum):  # the older spelling of a string enum
    CALM = "calm"
    ANGRY = "angry"


class Access(enum.Flag):
    READ = 1
    WRITE = 2


class Switch(enum.Enum):
    ON = True
    ONE = 1


class Token(enum.Enum):  # values of two JSON types, which do not compare
    A = "a"
    B = "b"
    TEN = 10
    TWO = 2


@attrs.define
class Where:
    lat: float
    lon: float
    label: str = ""


@attrs.define
class PhotoContent(KernelContent):
    content_type = ContentType("x_pf_photo")
    taken_at: dt.datetime | None = None
    day: dt.date | None = None
    alarm: dt.time | None = None
    id: uuid.UUID | None = None
    price: decimal.Decimal | None = None
    color: Color = Color.RED
    level: Level | None = None
    mood: Mood | None = None
    access: Access | None = None
    path: pathlib.Path | None = None
    posix: pathlib.PurePosixPath | None = None
    where: Where | None = None
    tags: tuple[str, ...] = ()
    pair: tuple[int, str] | None = None
    labels: frozenset[str] = frozenset()
    numbers: set[int] = attrs.Factory(set)
    stamps: tuple[dt.date, ...] = ()
    thumbnail: bytes | None = None


@attrs.define
class DayContent(KernelContent):
    content_type = ContentType("x_pf_day")
    day: dt.date


@attrs.define
class SwitchContent(KernelContent):
    content_type = ContentType("x_pf_switch")
    switch: Switch
    mixed: frozenset[Token] = frozenset()


@attrs.frozen
class StampContent(KernelContent):
    content_type = ContentType("x_pf_stamp")
    at: dt.datetime
    where: Where | None = None


@attrs.frozen
class FrozenResultContent(FunctionResultContent):
    content_type = ContentType("x_pf_frozen_result")
    finished_at: dt.datetime | None = None


class Money:
    """A type the converter does not know: it needs hooks of its own (the README's example)."""

    def __init__(self, cents: int, currency: str) -> None:
        self.cents, self.currency = cents, currency

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Money) and (self.cents, self.currency) == (
            other.cents,
            other.currency,
        )

    def __hash__(self) -> int:
        return hash((self.cents, self.currency))


@attrs.define
class InvoiceContent(KernelContent):
    content_type = ContentType("x_pf_invoice")
    total: Money


_LABELS = ("x_pf_photo", "x_pf_day", "x_pf_switch", "x_pf_stamp", "x_pf_frozen_result",
           "x_pf_invoice")


@pytest.fixture(autouse=True, scope="module")
def _forget_plugins() -> Iterator[None]:
    """Take this module's plugin classes out of the registry once its tests are done."""
    yield
    for label in _LABELS:
        CONTENT_TYPES.unregister(label)


def history_of(*items: KernelContent) -> ChatHistory:
    return ChatHistory([ChatMessageContent("user", items=list(items))])


def read_error(data: Any, cls: type = ChatHistory) -> str:
    """The message of the `SerializationError` that reading ``data`` raises (never another)."""
    with pytest.raises(SerializationError) as info:
        from_dict(data, cls)
    assert type(info.value) is SerializationError
    return str(info.value)


def history_data(item: dict[str, Any]) -> dict[str, Any]:
    return {"version": 1, "messages": [{"role": "user", "items": [item]}]}


# --- the issue: a datetime field is read back -------------------------------------------------


@pytest.mark.parametrize("name", BACKENDS)
def test_a_datetime_field_round_trips_as_iso_8601(name: str) -> None:
    item = PhotoContent(taken_at=dt.datetime(2024, 5, 6, 7, 8, 9, 123456))
    with backend(name):
        text = to_json(history_of(item))
        assert text == (
            '{"version":1,"messages":[{"role":"user","items":'
            '[{"type":"x_pf_photo","taken_at":"2024-05-06T07:08:09.123456"}]}]}'
        )
        read = from_json(text, ChatHistory)
    assert read == history_of(item)
    assert read[0].items[0].taken_at == dt.datetime(2024, 5, 6, 7, 8, 9, 123456)


def test_naive_and_aware_datetimes_stay_as_given() -> None:
    plus_two = dt.timezone(dt.timedelta(hours=2))
    aware = PhotoContent(taken_at=dt.datetime(2024, 5, 6, 7, 8, tzinfo=plus_two))
    naive = PhotoContent(taken_at=dt.datetime(2024, 5, 6, 7, 8))
    assert to_dict(aware)["taken_at"] == "2024-05-06T07:08:00+02:00"
    assert to_dict(naive)["taken_at"] == "2024-05-06T07:08:00"
    aware_read = from_dict(to_dict(aware), PhotoContent)
    naive_read = from_dict(to_dict(naive), PhotoContent)
    assert aware_read == aware
    assert aware_read.taken_at.utcoffset() == dt.timedelta(hours=2)
    assert naive_read == naive
    assert naive_read.taken_at.tzinfo is None


@pytest.mark.parametrize(
    ("offset", "written"),
    [
        (dt.timedelta(minutes=19, seconds=32), "+00:19:32"),
        (dt.timedelta(microseconds=1), "+00:00:00.000001"),
        (-dt.timedelta(microseconds=999999), "-00:00:00.999999"),
        (-dt.timedelta(hours=5, microseconds=5), "-05:00:00.000005"),
    ],
)
def test_utc_offsets_of_seconds_and_microseconds_are_kept(
    offset: dt.timedelta, written: str
) -> None:
    zone = dt.timezone(offset)
    item = PhotoContent(taken_at=dt.datetime(2024, 1, 2, tzinfo=zone), alarm=dt.time(3, tzinfo=zone))
    assert to_dict(item) == {
        "type": "x_pf_photo",
        "taken_at": f"2024-01-02T00:00:00{written}",
        "alarm": f"03:00:00{written}",
    }
    read = from_dict(to_dict(item), PhotoContent)
    assert read == item
    assert read.taken_at.utcoffset() == offset
    assert read.alarm.utcoffset() == offset


# --- what each type is written as ---------------------------------------------------------------

WRITTEN = [
    ("day", dt.date(2024, 2, 29), "2024-02-29"),
    ("thumbnail", b"\x00\xff\xfe", "AP/+"),
    ("alarm", dt.time(6, 30), "06:30:00"),
    ("alarm", dt.time(6, 30, 0, 5, tzinfo=dt.timezone.utc), "06:30:00.000005+00:00"),
    ("id", uuid.UUID(int=0x12345678123456781234567812345678),
     "12345678-1234-5678-1234-567812345678"),
    ("price", decimal.Decimal("1.10"), "1.10"),
    ("price", decimal.Decimal("1E+3"), "1E+3"),
    ("price", decimal.Decimal("-0.000001"), "-0.000001"),
    ("color", Color.BLUE, "blue"),
    ("level", Level.HIGH, 2),
    ("access", Access.READ | Access.WRITE, 3),
    ("path", pathlib.Path("photos/2024/a.png"), "photos/2024/a.png"),
    ("posix", pathlib.PurePosixPath("/srv/photos"), "/srv/photos"),
    ("where", Where(48.85, 2.35), {"lat": 48.85, "lon": 2.35}),
    ("where", Where(0.0, -1.5, label="sea"), {"lat": 0.0, "lon": -1.5, "label": "sea"}),
    ("tags", ("b", "a", "b"), ["b", "a", "b"]),
    ("pair", (7, "seven"), [7, "seven"]),
    ("labels", frozenset({"pear", "apple", "fig"}), ["apple", "fig", "pear"]),
    ("numbers", {10, 9, -1}, [-1, 9, 10]),
    ("stamps", (dt.date(2024, 1, 2), dt.date(2023, 1, 2)), ["2024-01-02", "2023-01-02"]),
]


@pytest.mark.parametrize(("field", "value", "written"), WRITTEN)
def test_each_type_is_written_as_json_and_read_back_equal(
    field: str, value: Any, written: Any
) -> None:
    item = PhotoContent(**{field: value})
    data = to_dict(item)
    assert data == {"type": "x_pf_photo", field: written}
    assert json.loads(to_json(item)) == data
    read = from_json(to_json(item), PhotoContent)
    assert read == item
    assert type(getattr(read, field)) is type(value)


def test_mixin_enums_are_read_as_members() -> None:
    item = PhotoContent(mood=Mood.ANGRY, level=Level.LOW)
    assert to_json(item) == '{"type":"x_pf_photo","level":1,"mood":"angry"}'
    read = from_json(to_json(item), PhotoContent)
    assert read.mood is Mood.ANGRY
    assert read.level is Level.LOW


def test_an_enum_value_is_matched_as_json_true_is_not_1() -> None:
    on, one = SwitchContent(Switch.ON), SwitchContent(Switch.ONE)
    assert to_dict(on) == {"type": "x_pf_switch", "switch": True}
    assert to_dict(one) == {"type": "x_pf_switch", "switch": 1}
    assert from_dict(to_dict(on), SwitchContent).switch is Switch.ON
    assert from_dict(to_dict(one), SwitchContent).switch is Switch.ONE


def test_a_set_of_elements_that_do_not_compare_is_sorted_by_json_text() -> None:
    item = SwitchContent(Switch.ON, mixed=frozenset(Token))
    assert to_dict(item)["mixed"] == ["a", "b", 10, 2]  # '"a"' < '"b"' < '10' < '2'
    assert from_dict(to_dict(item), SwitchContent) == item


def test_a_date_field_holding_a_datetime_is_read_back_as_the_datetime() -> None:
    item = DayContent(dt.datetime(2024, 5, 6, 7, 8))
    assert to_dict(item) == {"type": "x_pf_day", "day": "2024-05-06T07:08:00"}
    assert from_dict(to_dict(item), DayContent) == item
    assert type(from_dict(to_dict(item), DayContent).day) is dt.datetime


def test_other_spellings_are_read_and_written_canonically() -> None:
    read = from_dict(
        {"type": "x_pf_photo", "id": "{12345678123456781234567812345678}", "price": 12},
        PhotoContent,
    )
    assert read.id == uuid.UUID("12345678-1234-5678-1234-567812345678")
    assert read.price == decimal.Decimal(12)
    assert to_dict(read) == {
        "type": "x_pf_photo",
        "id": "12345678-1234-5678-1234-567812345678",
        "price": "12",
    }


def test_optional_fields_and_defaults_are_left_out_and_read_back() -> None:
    item = PhotoContent()
    assert to_dict(item) == {"type": "x_pf_photo"}
    assert from_dict({"type": "x_pf_photo"}, PhotoContent) == item
    nulls = {"type": "x_pf_photo", "taken_at": None, "id": None, "where": None, "pair": None}
    assert from_dict(nulls, PhotoContent) == item


# --- reading bad input: one located SerializationError ----------------------------------------

BAD = [
    ("taken_at", "yesterday", "'yesterday' is not an ISO 8601 datetime"),
    ("taken_at", 1714972089, "expected ISO 8601 datetime text, got int"),
    ("day", "2024-02-30", "'2024-02-30' is not an ISO 8601 date"),
    ("alarm", "25:00", "'25:00' is not an ISO 8601 time"),
    ("id", "not-a-uuid", "'not-a-uuid' is not a UUID"),
    ("thumbnail", "AP*+", "invalid base64 at character 2: '*' is not a base64 character"),
    ("thumbnail", [0, 255], "expected base64 text, got list"),
    ("id", 7, "expected UUID text, got int"),
    ("price", "one", "'one' is not a decimal number"),
    ("price", 1.1, "expected a decimal number as a string (a JSON float is not exact), got float"),
    ("price", True, "expected a decimal number as a string (a JSON float is not exact), got bool"),
    ("color", "green", 'expected a member of Color: one of "red", "blue", got "green"'),
    ("level", 3, "expected a member of Level: one of 1, 2, got 3"),
    ("level", "1", 'expected a member of Level: one of 1, 2, got "1"'),
    ("mood", "sad", 'expected a member of Mood: one of "calm", "angry", got "sad"'),
    ("access", 4, "expected a member of Access: one of 1, 2, got 4"),
    ("path", 5, "expected a path as a string, got int"),
    ("tags", "ab", "expected a JSON list, got str"),
    ("tags", ["a", 2], "[1]: expected a string, got int"),
    ("labels", {"a": 1}, "expected a JSON list, got dict"),
    ("pair", [1], "expected a list of 2 elements, got 1"),
    ("pair", ["1", "one"], "[0]: expected a JSON int, got str"),
    ("stamps", ["2024-01-02", "soon"], "[1]: 'soon' is not an ISO 8601 date"),
    ("where", "Paris", "expected a Where object, got str"),
    ("where", {"lat": "north", "lon": 2}, ".lat: expected a JSON float, got str"),
    ("where", {"lat": 1.0}, ".lon: missing required field"),
]


@pytest.mark.parametrize(("field", "value", "message"), BAD)
def test_bad_input_is_one_located_serialization_error(
    field: str, value: Any, message: str
) -> None:
    data = history_data({"type": "x_pf_photo", field: value})
    at = f"messages[0].items[0].{field}"
    expected = f"{at}{message}" if message.startswith((".", "[")) else f"{at}: {message}"
    assert read_error(data) == expected


def test_an_error_in_an_item_read_alone_is_located_at_the_field() -> None:
    message = read_error({"type": "x_pf_photo", "taken_at": "yesterday"}, PhotoContent)
    assert message == "taken_at: 'yesterday' is not an ISO 8601 datetime"


def test_an_error_in_malformed_json_text_is_located_too() -> None:
    text = '{"type":"x_pf_photo","where":{"lat":1,"lon":[]}}'
    with pytest.raises(SerializationError, match=re.escape("where.lon: expected a JSON float, "
                                                           "got list")):
        from_json(text, PhotoContent)


# --- a type of one's own: hooks, and configure_converter -------------------------------------


def write_money(money: Money) -> str:
    return f"{money.cents / 100:.2f} {money.currency}"


def read_money(value: Any, _: type) -> Money:
    if not isinstance(value, str):
        raise SerializationError.mismatch("", "an amount like '12.50 EUR'", type(value).__name__)
    if not re.fullmatch(r"-?\d+\.\d\d [A-Z]{3}", value):
        raise SerializationError(f"{value!r} is not an amount like '12.50 EUR'")
    amount, currency = value.split()
    return Money(round(float(amount) * 100), currency)


def test_a_hook_of_ones_own_on_a_converter_of_ones_own() -> None:
    converter = make_converter()
    converter.register_unstructure_hook(Money, write_money)
    converter.register_structure_hook(Money, read_money)
    item = InvoiceContent(Money(1250, "EUR"))
    data = converter.unstructure(history_of(item))
    assert data["messages"][0]["items"] == [{"type": "x_pf_invoice", "total": "12.50 EUR"}]
    assert converter.structure(data, ChatHistory) == history_of(item)
    data["messages"][0]["items"][0]["total"] = "lots"
    with pytest.raises(SerializationError) as info:
        converter.structure(data, ChatHistory)
    assert str(info.value) == "messages[0].items[0].total: 'lots' is not an amount like '12.50 EUR'"
    data["messages"][0]["items"][0]["total"] = 1250
    with pytest.raises(SerializationError) as info:
        converter.structure(data, ChatHistory)
    assert str(info.value) == (
        "messages[0].items[0].total: expected an amount like '12.50 EUR', got int"
    )


def test_configure_converter_installs_the_type_hooks_on_any_converter() -> None:
    import cattrs

    own = cattrs.Converter()
    configure_converter(own)
    item = PhotoContent(taken_at=dt.datetime(2024, 1, 2), labels=frozenset({"b", "a"}))
    data = own.unstructure(item)
    assert data == {"type": "x_pf_photo", "taken_at": "2024-01-02T00:00:00", "labels": ["a", "b"]}
    assert own.structure(data, KernelContent) == item


# --- frozen plugins ---------------------------------------------------------------------------


def test_a_frozen_plugin_round_trips() -> None:
    item = StampContent(dt.datetime(2024, 5, 6, 7, 8), where=Where(1.0, 2.0))
    text = to_json(history_of(item))
    assert text == (
        '{"version":1,"messages":[{"role":"user","items":[{"type":"x_pf_stamp",'
        '"at":"2024-05-06T07:08:00","where":{"lat":1.0,"lon":2.0}}]}]}'
    )
    read = from_json(text, ChatHistory)
    assert read == history_of(item)
    assert type(read[0].items[0]) is StampContent
    assert to_json(read) == text


def test_a_frozen_plugin_reads_its_metadata() -> None:
    item = StampContent(dt.datetime(2024, 5, 6))
    assert item.metadata == {}
    read = from_json(to_json(item), KernelContent)
    assert read.metadata == {}
    with_metadata = StampContent(dt.datetime(2024, 5, 6), metadata={"camera": "x100"})
    text = to_json(with_metadata)
    assert text == '{"type":"x_pf_stamp","at":"2024-05-06T00:00:00","metadata":{"camera":"x100"}}'
    assert from_json(text, KernelContent).metadata == {"camera": "x100"}


@pytest.mark.parametrize(
    ("result", "written"),
    [
        ({"temperature": 21}, {"result": {"temperature": 21}}),
        ("sunny", {"result": "sunny"}),
        ([TextContent("see the chart")],
         {"result_items": [{"type": "text", "text": "see the chart"}]}),
    ],
)
def test_a_frozen_function_result_reads_its_result(result: Any, written: dict[str, Any]) -> None:
    item = FrozenResultContent("call_1", result)
    data = to_dict(item)
    assert data == {"type": "x_pf_frozen_result", "call_id": "call_1", **written}
    read = from_dict(data, KernelContent)
    assert type(read) is FrozenResultContent
    assert read == item
    assert read.result == result


# --- a property over every type ---------------------------------------------------------------

_offsets = st.builds(
    dt.timezone,
    st.timedeltas(min_value=dt.timedelta(hours=-23, minutes=-59),
                  max_value=dt.timedelta(hours=23, minutes=59)),
)
_zones = st.none() | _offsets
_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
_finite = st.floats(allow_nan=False, allow_infinity=False)

photos = st.builds(
    PhotoContent,
    taken_at=st.none() | st.datetimes(timezones=_zones),
    day=st.none() | st.dates() | st.datetimes(),
    alarm=st.none() | st.times(timezones=_zones),
    id=st.none() | st.uuids(),
    price=st.none() | st.decimals(allow_nan=False),
    color=st.sampled_from(Color),
    level=st.none() | st.sampled_from(Level),
    mood=st.none() | st.sampled_from(Mood),
    access=st.none() | st.sampled_from([Access(0), Access.READ, Access.WRITE, Access(3)]),
    path=st.none() | st.builds(pathlib.Path, _text),
    posix=st.none() | st.builds(pathlib.PurePosixPath, _text),
    where=st.none() | st.builds(Where, _finite, _finite, _text),
    tags=st.lists(_text, max_size=4).map(tuple),
    pair=st.none() | st.tuples(st.integers(-(2**63), 2**63 - 1), _text),
    labels=st.frozensets(_text, max_size=4),
    numbers=st.sets(st.integers(-(2**63), 2**63 - 1), max_size=4),
    stamps=st.lists(st.dates(), max_size=3).map(tuple),
    thumbnail=st.none() | st.binary(max_size=8),
)


@given(photo=photos, name=st.sampled_from(BACKENDS))
def test_every_plugin_field_type_round_trips(photo: PhotoContent, name: str) -> None:
    with backend(name):
        text = to_json(history_of(photo))
        read = from_json(text, ChatHistory)
        assert read == history_of(photo)
        assert to_json(read) == text
