"""`from_json(text)` and `from_dict(data)` without a class: whatever the document holds."""

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import histories, items, messages

from semantic_chat import (
    ChatHistory,
    ChatMessageContent,
    FunctionCallContent,
    SerializationError,
    StreamingChatMessageContent,
    TextContent,
    UnknownContent,
    UnknownContentTypeError,
    UnsupportedVersionError,
)
from semantic_chat.serialization import from_dict, from_json, to_dict, to_json

EXPECTED = 'a history ("version"), a message ("role") or an item ("type")'


def _history() -> ChatHistory:
    history = ChatHistory(system_message="Be brief.", developer_message="Use tools.")
    history.add_user_message("hi")
    return history


@pytest.mark.parametrize(
    "value",
    [
        _history(),
        ChatHistory(),
        ChatMessageContent("user", "hi"),
        ChatMessageContent("critic"),
        StreamingChatMessageContent("assistant", "par", choice_index=1),
        TextContent("hi"),
        FunctionCallContent("c1", "weather", {"city": "Paris"}),
    ],
    ids=["history", "empty-history", "message", "bare-message", "streaming", "text", "call"],
)
def test_reads_what_the_document_holds(value):
    read = from_json(to_json(value))
    assert type(read) is type(value)
    assert read == value
    assert from_dict(to_dict(value)) == value


def test_a_history_is_told_by_its_messages_key_too():
    with pytest.raises(SerializationError) as excinfo:
        from_dict({"messages": []})
    assert str(excinfo.value) == "version: missing the format version"


def test_an_unknown_item_is_read_as_unknown_content():
    read = from_json('{"type": "hologram", "depth": 3}')
    assert read == UnknownContent("hologram", {"depth": 3})


def test_an_item_with_keys_a_message_or_history_would_have_is_an_item():
    read = from_json('{"type": "hologram", "role": "user", "version": 2}')
    assert read == UnknownContent("hologram", {"role": "user", "version": 2})


def test_strict_passes_through():
    with pytest.raises(UnknownContentTypeError) as excinfo:
        from_json('{"type": "hologram"}', strict=True)
    assert str(excinfo.value) == "unknown content type 'hologram': no class is registered under it"


def test_a_newer_history_is_refused():
    with pytest.raises(UnsupportedVersionError, match=re.escape("version: found version 2,")):
        from_json('{"version": 2, "messages": []}')


@pytest.mark.parametrize(
    ("text", "got"),
    [
        ("[]", "list"),
        ('"hi"', "str"),
        ("3", "int"),
        ("null", "NoneType"),
        ("{}", "an object with none of these keys"),
        ('{"items": [], "name": "x"}', "an object with none of these keys"),
    ],
)
def test_anything_else_is_refused_saying_what_was_expected(text, got):
    with pytest.raises(SerializationError) as excinfo:
        from_json(text)
    assert str(excinfo.value) == f"expected {EXPECTED}, got {got}"
    assert excinfo.value.path == ""
    assert excinfo.value.expected == EXPECTED
    assert excinfo.value.got == got


def test_errors_inside_are_located():
    with pytest.raises(SerializationError) as excinfo:
        from_json('{"role": "user", "items": [{"type": "text", "text": 3}]}')
    assert str(excinfo.value) == "items[0].text: expected a string, got int"


def test_malformed_json_is_what_a_typed_read_says():
    with pytest.raises(SerializationError) as expected:
        from_json("{", ChatHistory)
    with pytest.raises(SerializationError) as excinfo:
        from_json("{")
    assert str(excinfo.value) == str(expected.value)


def test_a_class_still_decides():
    with pytest.raises(SerializationError) as excinfo:
        from_json('{"type": "text", "text": "hi"}', ChatHistory)
    assert str(excinfo.value) == "version: missing the format version"
    with pytest.raises(SerializationError) as excinfo:
        from_json('{"role": "user"}', TextContent)
    assert str(excinfo.value) == "type: missing the item's type label"


@settings(max_examples=40, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(histories(max_messages=3), messages(max_items=3), items()))
def test_round_trip_without_a_class(value):
    read = from_json(to_json(value))
    assert type(read) is type(value)
    assert read == value
