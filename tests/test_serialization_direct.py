"""The direct readers for common shapes agree with the cattrs-generated general path."""

from __future__ import annotations

from unittest.mock import patch

import pytest
from hypothesis import given
from strategies import histories

from semantic_chat import ChatHistory, SerializationError
from semantic_chat.jsoncodec import dumps
from semantic_chat.serialization import from_dict, from_json, hooks, make_converter, to_dict


def read_generally(data: object) -> ChatHistory:
    """Read with a new converter whose direct readers are switched off."""
    with (
        patch.object(hooks, "DIRECT_READERS", {}),
        patch.object(hooks, "read_message_directly", lambda data, read_items: None),
    ):
        return make_converter().structure(data, ChatHistory)


@given(histories())
def test_direct_and_general_readers_build_equal_histories(history):
    data = to_dict(history)
    direct = from_dict(data, ChatHistory)
    general = read_generally(data)
    assert direct == general == history
    assert [type(m) for m in direct] == [type(m) for m in general]
    assert [[type(i) for i in m.items] for m in direct] == [
        [type(i) for i in m.items] for m in general
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"version":1,"messages":[{"role":"user","items":[{"type":"text","text":5}]}]}',
         "messages[0].items[0].text: expected a string, got int"),
        ('{"version":1,"messages":[{"role":"user","items":[{"type":"function_call","name":3}]}]}',
         "messages[0].items[0].name: expected a string, got int"),
        ('{"version":1,"messages":[{"role":"tool","items":[{"type":"function_result","call_id":"c","is_error":1}]}]}',
         "messages[0].items[0].is_error: expected a JSON bool, got int"),
        ('{"version":1,"messages":[{"role":"user","name":7}]}',
         "messages[0].name: expected a string, got int"),
        ('{"version":1,"messages":[{"role":"user","finish_reason":"   "}]}',
         "messages[0].finish_reason: a label must not be blank, got '   '"),
    ],
)
def test_shapes_the_direct_readers_decline_are_located_by_the_general_path(text, message):
    with pytest.raises(SerializationError) as info:
        from_json(text, ChatHistory)
    assert str(info.value) == message


def write_generally(history: ChatHistory) -> object:
    """Write with a new converter whose direct writers are switched off."""
    with (
        patch.object(hooks, "DIRECT_WRITERS", {}),
        patch.object(hooks, "write_message_directly", lambda message, write_items: None),
    ):
        return make_converter().unstructure(history)


@given(histories())
def test_direct_and_general_writers_write_identical_json(history):
    assert dumps(to_dict(history)) == dumps(write_generally(history))
