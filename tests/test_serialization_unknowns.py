"""What this version does not know is kept, and what would not read back is refused at writing.

Messages and history documents read with keys this version does not know (a message subclass
whose plugin is not loaded, keys of newer data) write them back exactly; plugin fields typed
with a union of JSON scalars read back; a field of a type no hook reads back, and a value
outside a ``Literal``, are refused when written, naming the field.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from typing import Any, Literal

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from semantic_chat import (
    ChatHistory,
    ChatMessageContent,
    ContentType,
    InvalidTypeError,
    InvalidValueError,
    KernelContent,
    SerializationError,
    TextContent,
    UnknownContentTypeError,
)
from semantic_chat.contents.base import CONTENT_TYPES
from semantic_chat.formats import openai_chat
from semantic_chat.message import MESSAGE_TYPES, UnknownMessage
from semantic_chat.serialization import from_dict, from_json, make_converter, to_dict, to_json

# --- plugin classes --------------------------------------------------------------------------

_LABELS = ("x_un_ticket", "x_un_float_or_text", "x_un_timer", "x_un_anything", "x_un_when",
           "x_un_mood", "x_un_maybe_mood", "x_un_laps")


@attrs.define
class TicketContent(KernelContent):
    content_type = ContentType("x_un_ticket")
    title: str = ""
    ref: int | str | None = None


@attrs.define
class FloatOrTextContent(KernelContent):
    content_type = ContentType("x_un_float_or_text")
    value: float | str = ""


@attrs.define
class TimerContent(KernelContent):
    content_type = ContentType("x_un_timer")
    left: dt.timedelta


@attrs.define
class AnythingContent(KernelContent):
    content_type = ContentType("x_un_anything")
    payload: object = None


@attrs.define
class WhenContent(KernelContent):
    content_type = ContentType("x_un_when")
    when: int | dt.datetime | None = None


@attrs.define
class LapsContent(KernelContent):
    content_type = ContentType("x_un_laps")
    laps: list[dt.timedelta] = attrs.Factory(list)


@attrs.define
class MoodContent(KernelContent):
    content_type = ContentType("x_un_mood")
    mood: Literal["happy", "sad"] = "happy"


@attrs.define
class MaybeMoodContent(KernelContent):
    content_type = ContentType("x_un_maybe_mood")
    mood: Literal["happy", 2] | None = None


@pytest.fixture(autouse=True, scope="module")
def _forget_plugins() -> Iterator[None]:
    """Take this module's plugin classes out of the registries once its tests are done."""
    yield
    for label in _LABELS:
        CONTENT_TYPES.unregister(label)
    MESSAGE_TYPES.unregister("x_un_tagged", missing_ok=True)


def define_tagged() -> type[ChatMessageContent]:
    """Define (and so register) the message plugin, as a process that imports it does."""

    @attrs.define
    class TaggedMessage(ChatMessageContent):
        message_type = "x_un_tagged"
        priority: int = 0

    return TaggedMessage


def user_with(*items: KernelContent) -> ChatHistory:
    return ChatHistory([ChatMessageContent("user", items=list(items))])


def write_error(obj: Any) -> SerializationError:
    with pytest.raises(SerializationError) as info:
        to_json(obj)
    assert type(info.value) is SerializationError
    return info.value


# --- 1. a message subclass whose plugin is not loaded, and unknown keys -----------------------

TAGGED = (
    '{"version":1,"messages":[{"message_type":"x_un_tagged","role":"user",'
    '"items":[{"type":"text","text":"hi"}],"priority":3}]}'
)


def test_a_subclass_saved_with_its_plugin_is_written_back_whole_without_it() -> None:
    tagged = define_tagged()
    history = ChatHistory([tagged("user", "hi", priority=3)])
    assert to_json(history) == TAGGED
    MESSAGE_TYPES.unregister("x_un_tagged")  # another process, without the plugin

    read = from_json(TAGGED, ChatHistory)
    message = read[0]
    assert type(message) is UnknownMessage
    assert message.unknown_keys == {"message_type": "x_un_tagged", "priority": 3}
    assert message.role == "user"
    assert message.text == "hi"
    assert to_json(read) == TAGGED

    again = define_tagged()  # the plugin loaded later: read into its class as before
    back = from_json(to_json(read), ChatHistory)[0]
    assert type(back) is again
    assert back.priority == 3  # type: ignore[attr-defined]
    MESSAGE_TYPES.unregister("x_un_tagged")


def test_strict_still_refuses_a_message_type_nobody_registered() -> None:
    with pytest.raises(UnknownContentTypeError) as info:
        from_json(TAGGED, strict=True)
    assert str(info.value) == (
        "messages[0].message_type: unknown message type 'x_un_tagged': "
        "no class is registered under it"
    )


@pytest.mark.parametrize(
    "text",
    [
        '{"role":"user","foo":1}',
        '{"role":"user","items":[{"type":"text","text":"a"}],"foo":{"b":[1,null]}}',
        '{"role":"assistant","name":"n","finish_reason":"stop","usage":{"prompt_tokens":3},'
        '"later":true}',
        '{"message_type":"x_un_gone","role":"tool","metadata":{"k":"v"},"z":"",'
        '"a":[1.5]}',
        '{"message_type":"chat_message","role":"user","foo":1}',
        '{"message_type":null,"role":"user","foo":1}',
    ],
)
def test_a_message_with_unknown_keys_writes_them_back_exactly(text: str) -> None:
    message = from_json(text)
    assert type(message) is UnknownMessage
    assert to_json(message) == text
    history = '{"version":1,"messages":[' + text + "]}"
    assert to_json(from_json(history)) == history


def test_a_message_without_unknown_keys_stays_a_plain_message() -> None:
    message = from_json('{"role":"user","items":[{"type":"text","text":"a"}],"name":"n"}')
    assert type(message) is ChatMessageContent


def test_a_history_with_unknown_keys_writes_them_back_exactly() -> None:
    text = '{"version":1,"messages":[{"role":"user"}],"saved_by":"x 2.0","tags":["a",{"b":null}]}'
    history = from_json(text, ChatHistory)
    assert to_json(history) == text
    assert to_json(history[:]) == text  # a slice keeps them, as it keeps the options
    assert history == from_json(text, ChatHistory)
    assert history != from_json('{"version":1,"messages":[{"role":"user"}]}', ChatHistory)


def test_unknown_keys_count_in_equality() -> None:
    one = from_json('{"role":"user","foo":1}')
    assert one == from_json('{"role":"user","foo":1}')
    assert one != from_json('{"role":"user","foo":2}')
    assert one != ChatMessageContent("user")
    assert one == UnknownMessage("user", unknown_keys={"foo": 1})


def test_provider_writers_do_not_write_unknown_keys() -> None:
    history = from_json(TAGGED, ChatHistory)
    assert openai_chat.to_payload(history) == [{"role": "user", "content": "hi"}]


def test_unknown_keys_are_refused_when_they_would_not_read_back() -> None:
    with pytest.raises(InvalidValueError) as empty:
        UnknownMessage("user", unknown_keys={})
    assert str(empty.value) == (
        "unknown_keys: an unknown message needs at least one unknown key: "
        "build a ChatMessageContent"
    )
    with pytest.raises(InvalidValueError) as own:
        UnknownMessage("user", unknown_keys={"role": "tool"})
    assert str(own.value) == (
        "unknown_keys[\"role\"]: 'role' would be read back as the message's own field, "
        "not as an unknown key"
    )
    with pytest.raises(InvalidValueError) as registered:
        UnknownMessage("user", unknown_keys={"message_type": "chat_message"})
    assert str(registered.value) == (
        "unknown_keys[\"message_type\"]: 'chat_message' is the message type of "
        "ChatMessageContent: build a ChatMessageContent instead"
    )
    with pytest.raises(InvalidTypeError) as not_json:
        UnknownMessage("user", unknown_keys={"when": dt.date(2024, 1, 1)})
    assert str(not_json.value).startswith('unknown_keys["when"]: ')


def test_unknown_keys_broken_by_hand_are_refused_at_writing_located() -> None:
    message = UnknownMessage("user", unknown_keys={"foo": 1})
    object.__setattr__(message, "_unknown_keys", {"items": []})
    error = write_error(ChatHistory([ChatMessageContent("user"), message]))
    assert str(error) == (
        "messages[1].unknown_keys[\"items\"]: 'items' would be read back as the message's "
        "own field, not as an unknown key"
    )
    history = from_json('{"version":1,"messages":[],"x":1}', ChatHistory)
    history._unknown_keys = {"version": 2}
    assert str(write_error(history)) == (
        "unknown_keys[\"version\"]: 'version' would be read back as the history's own field, "
        "not as an unknown key"
    )


_KEY = st.text(st.characters(blacklist_categories=("Cs",)), max_size=6)
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(max_size=5)
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_KEY, inner, max_size=3),
    max_leaves=6,
)
_BASES = (
    {"role": "user", "items": [{"type": "text", "text": "hi"}]},
    {"role": "assistant", "name": "bot", "finish_reason": "stop", "model_id": "m"},
    {"role": "tool", "items": [{"type": "function_result", "call_id": "c", "result": [1]}]},
    {"role": "system", "metadata": {"k": 1}, "usage": {"prompt_tokens": 2}},
)
_RESERVED = {*attrs.fields_dict(ChatMessageContent), "role", "items", "name", "id",
             "finish_reason", "usage", "model_id", "metadata", "message_type"}


@st.composite
def messages_with_unknown_keys(draw: st.DrawFn) -> dict[str, Any]:
    message = dict(draw(st.sampled_from(_BASES)))
    extra = draw(st.dictionaries(_KEY.filter(lambda key: key not in _RESERVED), _JSON,
                                 max_size=3))
    if draw(st.booleans()):
        message["message_type"] = "x_un_new_" + draw(st.text("abc", max_size=3))
    message.update(extra)
    return message


@given(
    messages=st.lists(messages_with_unknown_keys(), max_size=4),
    extra=st.dictionaries(
        _KEY.filter(lambda key: key not in ("version", "options", "messages")), _JSON,
        max_size=3,
    ),
)
def test_documents_with_unknown_keys_round_trip_exactly(
    messages: list[dict[str, Any]], extra: dict[str, Any]
) -> None:
    document = {"version": 1, "messages": messages, **extra}
    history = from_json(json.dumps(document), ChatHistory)
    written = to_json(history)
    assert json.loads(written) == document
    assert from_json(written, ChatHistory) == history
    assert to_json(from_json(written, ChatHistory)) == written


# --- 2. a union of JSON scalars reads back -----------------------------------------------------


@pytest.mark.parametrize(
    ("ref", "text"),
    [
        (None, '{"type":"x_un_ticket","title":"broken login"}'),
        (12, '{"type":"x_un_ticket","title":"broken login","ref":12}'),
        ("JIRA-12", '{"type":"x_un_ticket","title":"broken login","ref":"JIRA-12"}'),
    ],
)
def test_a_union_of_json_scalars_reads_back_as_written(ref: int | str | None, text: str) -> None:
    history = user_with(TicketContent(title="broken login", ref=ref))
    written = to_json(history)
    assert written == '{"version":1,"messages":[{"role":"user","items":[' + text + "]}]}"
    back = from_json(written, ChatHistory)
    assert back == history
    assert type(back[0].items[0].ref) is type(ref)  # type: ignore[attr-defined]


@given(st.none() | st.integers(-(2**53), 2**53) | st.text())
def test_every_value_of_a_scalar_union_round_trips(ref: int | str | None) -> None:
    item = TicketContent(ref=ref)
    assert from_json(to_json(item)) == item


def test_a_union_with_float_reads_a_json_integer_as_a_float() -> None:
    item = from_json('{"type":"x_un_float_or_text","value":1}')
    assert item == FloatOrTextContent(value=1.0)
    assert type(item.value) is float  # type: ignore[attr-defined]


def test_a_scalar_union_refuses_another_type_at_writing_and_reading_located() -> None:
    assert str(write_error(user_with(TicketContent(ref=True)))) == (  # type: ignore[arg-type]
        "messages[0].items[0].ref: expected an int, a str or None, got bool"
    )
    with pytest.raises(SerializationError) as info:
        from_dict({"version": 1, "messages": [
            {"role": "user", "items": [{"type": "x_un_ticket", "ref": 1.5}]}
        ]})
    assert str(info.value) == "messages[0].items[0].ref: expected an int, a str or None, got float"
    nan = user_with(FloatOrTextContent(value=float("nan")))
    assert str(write_error(nan)) == "messages[0].items[0].value: nan is not a JSON value"


def test_another_union_is_refused_at_writing_naming_field_and_type() -> None:
    history = user_with(TextContent("when?"), WhenContent(when=None))
    assert str(write_error(history)) == (
        "messages[0].items[1].when: int | datetime | None cannot be read back (a union needs "
        "its members told apart: str, int, float, bool and None are): register a hook pair "
        "for it on the converter"
    )


# --- 3. a type no hook reads back is refused at writing, located --------------------------------


@pytest.mark.parametrize(
    ("item", "expected"),
    [
        (TimerContent(dt.timedelta(minutes=5)),
         "messages[0].items[1].left: timedelta is not a JSON value: "
         "register a hook pair for it on the converter"),
        (AnythingContent(payload={"a": 1}),
         "messages[0].items[1].payload: object is not a JSON value: "
         "register a hook pair for it on the converter"),
        (LapsContent([dt.timedelta(seconds=1)]),
         "messages[0].items[1].laps: list[timedelta] is not a JSON value: "
         "register a hook pair for it on the converter"),
    ],
)
def test_a_field_of_a_type_no_hook_reads_is_refused_at_the_field(
    item: KernelContent, expected: str
) -> None:
    assert str(write_error(user_with(TextContent("set a timer"), item))) == expected


def test_a_hook_pair_on_a_converter_of_ones_own_makes_the_type_written_and_read() -> None:
    converter = make_converter()
    converter.register_unstructure_hook(dt.timedelta, lambda value: value.total_seconds())
    converter.register_structure_hook(dt.timedelta, lambda value, _: dt.timedelta(seconds=value))
    item = TimerContent(dt.timedelta(minutes=5))
    assert converter.unstructure(item, KernelContent) == {"type": "x_un_timer", "left": 300.0}
    assert converter.structure({"type": "x_un_timer", "left": 300.0}, KernelContent) == item
    assert to_dict(TicketContent(ref=3)) == {"type": "x_un_ticket", "ref": 3}


# --- 4. a value outside a Literal is refused at writing ----------------------------------------


def test_a_literal_field_refuses_a_value_it_does_not_allow_at_writing() -> None:
    assert str(write_error(user_with(MoodContent(mood="angry")))) == (  # type: ignore[arg-type]
        "messages[0].items[0].mood: 'angry' is not one of 'happy', 'sad'"
    )
    maybe = user_with(MaybeMoodContent(mood="2"))  # type: ignore[arg-type]
    assert str(write_error(maybe)) == (
        "messages[0].items[0].mood: '2' is not one of 'happy', 2, None"
    )


@pytest.mark.parametrize(
    "item", [MoodContent(mood="sad"), MaybeMoodContent(), MaybeMoodContent(mood=2)]
)
def test_a_literal_field_with_an_allowed_value_round_trips(item: KernelContent) -> None:
    assert from_json(to_json(item)) == item


def test_unknown_message_is_public():
    import semantic_chat
    from semantic_chat.message import UnknownMessage

    assert semantic_chat.UnknownMessage is UnknownMessage
