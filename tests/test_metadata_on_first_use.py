"""``metadata`` is made on first use: none and an empty dict mean the same everywhere."""

from __future__ import annotations

import attrs
import pytest

from semantic_chat import (
    ChatHistory,
    ChatMessageContent,
    FunctionCallContent,
    ImageContent,
    KernelContent,
    TextContent,
)
from semantic_chat.contents.metadata import EMPTY_METADATA, peek_metadata
from semantic_chat.formats import openai_chat
from semantic_chat.serialization import from_json, to_dict, to_json


@attrs.define
class Sticker(KernelContent):
    """A plugin item: written by the general (cattrs-generated) path."""

    content_type = "test_sticker_metadata"
    name: str


def owners() -> list[KernelContent | ChatMessageContent]:
    return [
        TextContent("a"),
        FunctionCallContent("c1", "f", "{}"),
        ImageContent(uri="https://example.com/a.png"),
        Sticker("smile"),
        ChatMessageContent("user", "hi"),
    ]


@pytest.mark.parametrize("owner", owners(), ids=lambda owner: type(owner).__name__)
def test_metadata_reads_as_an_empty_dict_that_keeps_what_is_put_in_it(owner):
    assert peek_metadata(owner) is EMPTY_METADATA
    assert owner.metadata == {}
    owner.metadata["k"] = 1
    assert owner.metadata == {"k": 1}
    assert peek_metadata(owner) == {"k": 1}


@pytest.mark.parametrize("owner", owners(), ids=lambda owner: type(owner).__name__)
def test_an_empty_metadata_dict_equals_none_and_is_neither_shown_nor_written(owner):
    before_repr, before_json = repr(owner), to_json(owner)
    fresh = attrs.evolve(owner)
    assert owner.metadata == {}  # made by reading it
    assert owner == fresh
    assert fresh == owner
    assert repr(owner) == before_repr
    assert "metadata" not in repr(owner)
    assert to_json(owner) == before_json
    assert "metadata" not in to_dict(owner)


def test_assigning_metadata_replaces_the_dict():
    item = TextContent("a")
    item.metadata = {"source": "x"}
    assert item.metadata == {"source": "x"}
    assert item != TextContent("a")
    assert repr(item) == "TextContent(text='a', metadata={'source': 'x'})"


def test_a_message_shows_metadata_only_when_it_holds_something():
    message = ChatMessageContent("user", "hi", metadata={"k": [1]})
    assert repr(message) == (
        "ChatMessageContent(role='user', items=[TextContent(text='hi')], metadata={'k': [1]})"
    )


def test_reading_and_converting_a_history_makes_no_metadata_dicts():
    payload = [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": [
            {"type": "text", "text": "What is this?"},
            {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
        ]},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}},
        ]},
        {"role": "tool", "tool_call_id": "c1", "content": "done"},
    ]
    built = openai_chat.from_payload(payload)
    loaded = from_json(to_json(built), ChatHistory)
    for history in (built, loaded):
        assert openai_chat.to_payload(history) == payload
        owners = [*history, *(item for message in history for item in message.items)]
        assert [peek_metadata(owner) for owner in owners] == [EMPTY_METADATA] * len(owners)
