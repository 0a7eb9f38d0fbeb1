"""The trusted constructors readers use give what the public constructors give.

And a message a reader made keeps its plain list of items until ``items`` is first read.
"""

from __future__ import annotations

import copy
import pickle

import attrs
import pytest

from semantic_chat import (
    AudioContent,
    AuthorRole,
    BinaryContent,
    ChatHistory,
    ChatMessageContent,
    FileContent,
    FinishReason,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    TextContent,
)
from semantic_chat.collection import ChatMessageContentItemCollection
from semantic_chat.formats import openai_chat
from semantic_chat.serialization import from_json, to_json
from semantic_chat.trusted import (
    new_binary,
    new_call,
    new_history,
    new_image,
    new_message,
    new_result,
    new_text,
    new_text_message,
    new_tool_message,
)

PNG_BASE64 = "iVBORw0KGgo="


def _every_field_is_set(obj: object) -> bool:
    """A field left unset would raise AttributeError on first read: check them all."""
    return all(hasattr(obj, field.name) for field in attrs.fields(type(obj)))


@pytest.mark.parametrize(
    ("made", "built"),
    [
        (new_text("hé"), TextContent("hé")),
        (new_text(""), TextContent("")),
        (new_call("c1", "f", '{"a":1}', None), FunctionCallContent("c1", "f", '{"a":1}')),
        (new_call(None, "f", {"a": 1}, 2), FunctionCallContent(None, "f", {"a": 1}, index=2)),
        (new_call("c1", "f", None, None), FunctionCallContent("c1", "f")),
        (new_result("c1", "done", "f", False), FunctionResultContent("c1", "done", name="f")),
        (new_result(None, {"ok": True}, None, True),
         FunctionResultContent(None, {"ok": True}, is_error=True)),
        (new_binary(ImageContent, PNG_BASE64, "image/png", None, "detail", "low"),
         ImageContent.from_base64(PNG_BASE64, mime_type="image/png", detail="low")),
        (new_binary(ImageContent, None, None, "https://x.test/a.png", "detail", None),
         ImageContent(uri="https://x.test/a.png")),
        (new_image(PNG_BASE64, "image/png", None, "high"),
         ImageContent.from_base64(PNG_BASE64, mime_type="image/png", detail="high")),
        (new_image(None, None, "https://x.test/a.png", None), ImageContent(uri="https://x.test/a.png")),
        (new_binary(AudioContent, "UklGRg==", "audio/wav", None),
         AudioContent.from_base64("UklGRg==", mime_type="audio/wav")),
        (new_binary(FileContent, None, "application/pdf", "https://x.test/a.pdf", "filename",
                    "a.pdf"),
         FileContent(uri="https://x.test/a.pdf", mime_type="application/pdf", filename="a.pdf")),
        (new_binary(BinaryContent, "AAE=", "application/octet-stream", None),
         BinaryContent.from_base64("AAE=", mime_type="application/octet-stream")),
    ],
    ids=lambda value: type(value).__name__,
)
def test_new_item_equals_the_constructed_item(made, built):
    assert type(made) is type(built)
    assert _every_field_is_set(made)
    assert made == built
    assert repr(made) == repr(built)
    assert made.metadata == {}


def test_new_binary_keeps_base64_undecoded_until_data_is_read():
    item = new_binary(ImageContent, PNG_BASE64, "image/png", None)
    assert not item.is_decoded
    assert item.data == b"\x89PNG\r\n\x1a\n"
    assert item.is_decoded


def test_new_message_equals_the_constructed_message():
    items = ChatMessageContentItemCollection([new_text("hi")])
    made = new_message(AuthorRole.ASSISTANT, items, "bot", "m1", FinishReason.STOP, "gpt",
                       {"k": 1})
    built = ChatMessageContent("assistant", "hi", name="bot", id="m1", finish_reason="stop",
                               model_id="gpt", metadata={"k": 1})
    assert _every_field_is_set(made)
    assert made == built
    assert repr(made) == repr(built)
    assert made.items is items  # handed over, not copied
    assert type(made.items) is ChatMessageContentItemCollection


def test_new_message_defaults_match_the_constructor():
    made = new_message(AuthorRole.USER, ChatMessageContentItemCollection())
    assert made == ChatMessageContent("user")
    assert (made.name, made.id, made.finish_reason, made.usage, made.model_id) == (None,) * 5
    assert made.metadata == {}
    made.items.append("checked after all")  # the collection still checks what users add
    assert made.items == [TextContent("checked after all")]


def test_new_text_message_equals_the_constructed_message():
    made = new_text_message(AuthorRole.SYSTEM, "Be brief.")
    assert _every_field_is_set(made)
    assert made == ChatMessageContent("system", "Be brief.")
    assert type(made.items) is ChatMessageContentItemCollection
    assert _every_field_is_set(made.items[0])


def test_new_history_holds_the_given_list():
    messages = [ChatMessageContent("user", "hi")]
    made = new_history(messages)
    assert type(made) is ChatHistory
    assert made._messages is messages  # until ``messages`` is read (see test_history.py)
    assert made == ChatHistory(messages)
    assert repr(made) == repr(ChatHistory(messages))


def test_new_tool_message_equals_the_constructed_message():
    made = new_tool_message("c1", {"ok": True}, "lookup")
    built = ChatMessageContent(
        "tool", items=[FunctionResultContent("c1", {"ok": True}, name="lookup")]
    )
    assert _every_field_is_set(made)
    assert _every_field_is_set(made.items[0])
    assert made == built
    assert repr(made) == repr(built)


# --- the plain list a reader hands a message ---------------------------------------------


def _read_histories():
    payload = [
        {"role": "system", "content": "Be brief."},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}},
        ]},
        {"role": "tool", "tool_call_id": "c1", "content": "done"},
    ]
    built = openai_chat.from_payload(payload)
    from_json(to_json(built), ChatHistory)  # a label read the first time takes the long way
    return [built, from_json(to_json(built), ChatHistory)]


@pytest.mark.parametrize("history", _read_histories(), ids=["from_payload", "from_json"])
def test_a_read_message_keeps_a_plain_list_until_items_is_read(history):
    assert [type(message._items) for message in history] == [list] * 3
    written = to_json(history), openai_chat.to_payload(history)
    assert [type(message._items) for message in history] == [list] * 3  # writing reads none
    first = history[0].items
    assert type(first) is ChatMessageContentItemCollection
    assert history[0].items is first  # made once, then kept
    assert first == [TextContent("Be brief.")]
    assert history[0] == ChatMessageContent("system", "Be brief.")
    assert repr(history[0]) == repr(ChatMessageContent("system", "Be brief."))
    with pytest.raises(TypeError, match=r"items\[1\]"):
        first.append(None)  # the collection checks what is added, as on any message
    assert (to_json(history), openai_chat.to_payload(history)) == written


def test_a_read_message_pickles_and_copies_with_its_items():
    (message, *_) = _read_histories()[1]
    for twin in (pickle.loads(pickle.dumps(message)), copy.deepcopy(message)):
        assert twin == message
        assert type(twin.items) is ChatMessageContentItemCollection
