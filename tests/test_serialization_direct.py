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
        patch.object(hooks, "message_reader", lambda readers, inline_text, general: general),
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
        ('{"version":1,"messages":[{"role":"user","items":[{"type":"image","data":"abc","mime_type":"image/png"}]}]}',
         "messages[0].items[0].data: invalid base64 at character 3: "
         "3 base64 characters is not a multiple of 4 (missing '=' padding?)"),
        ('{"version":1,"messages":[{"role":"user","items":[{"type":"audio","data":"AAAA","mime_type":"audio wav"}]}]}',
         "messages[0].items[0].mime_type: malformed media type 'audio wav': expected type/subtype"),
        ('{"version":1,"messages":[{"role":"user","items":[{"type":"file","uri":"https://x","filename":3}]}]}',
         "messages[0].items[0].filename: expected a string, got int"),
        ('{"version":1,"messages":[{"role":"user","items":[{"type":"image","uri":"https://x","data":"AAAA"}]}]}',
         "messages[0].items[0]: ImageContent needs exactly one of data, uri and file_id, got 2"),
        ('{"version":1,"messages":[{"role":"user","items":"hi"}]}',
         "messages[0].items: expected a list of items, got str"),
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
        patch.object(hooks, "message_writer", lambda writers, general: general),
    ):
        return make_converter().unstructure(history)


@given(histories())
def test_direct_and_general_writers_write_identical_json(history):
    assert dumps(to_dict(history)) == dumps(write_generally(history))


@pytest.mark.parametrize(
    "item",
    [
        {"type": "image", "data": "iVBORw0KGgo=", "mime_type": "IMAGE/PNG", "detail": "low"},
        {"type": "image", "uri": "https://example.com/a.png"},
        {"type": "image", "uri": "DATA:image/png;base64,iVBORw0KGgo="},
        {"type": "audio", "uri": "https://example.com/a.wav", "mime_type": "audio/wav"},
        {"type": "audio", "data": "UklGRg==", "mime_type": "audio/L16; rate=16000"},
        {"type": "file", "file_id": "file-1", "filename": "a.pdf"},
        {"type": "file", "data": "JVBERi0=", "mime_type": "application/pdf", "filename": "a.pdf"},
        {"type": "binary", "data": "AAEC", "mime_type": "application/octet-stream",
         "metadata": {"k": 1}},
    ],
)
def test_binary_items_read_the_same_on_both_paths(item):
    data = {"version": 1, "messages": [{"role": "user", "items": [item]}]}
    direct = from_dict(data, ChatHistory)
    general = read_generally(data)
    assert direct == general
    read, expected = direct[0].items[0], general[0].items[0]
    assert type(read) is type(expected)
    assert (read.mime_type, read.uri, read.file_id, read.is_decoded) == (
        expected.mime_type, expected.uri, expected.file_id, expected.is_decoded
    )


def test_a_class_registered_under_text_instead_of_text_content_is_read_as_itself():
    import attrs

    from semantic_chat import CONTENT_TYPES, KernelContent, TextContent

    # unregister() refuses a built-in label, so the table is changed by hand for this case.
    del CONTENT_TYPES._classes["text"]
    CONTENT_TYPES.version += 1
    try:

        @attrs.define
        class Note(KernelContent):
            content_type = "text"
            text: str

        read = from_json(
            '{"version":1,"messages":[{"role":"user","items":[{"type":"text","text":"hi"}]}]}',
            ChatHistory,
        )
        assert type(read[0].items[0]) is Note
    finally:
        CONTENT_TYPES.unregister("text")
        CONTENT_TYPES.register("text", TextContent)
    read = from_json(
        '{"version":1,"messages":[{"role":"user","items":[{"type":"text","text":"hi"}]}]}',
        ChatHistory,
    )
    assert type(read[0].items[0]) is TextContent
