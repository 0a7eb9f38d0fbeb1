"""The trusted constructors readers use give exactly what the public constructors give."""

from __future__ import annotations

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
from semantic_chat.trusted import (
    new_binary,
    new_call,
    new_history,
    new_message,
    new_result,
    new_text,
    new_text_message,
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
    assert made.messages is messages
    assert made == ChatHistory(messages)
    assert repr(made) == repr(ChatHistory(messages))
