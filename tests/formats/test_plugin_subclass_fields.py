"""A plugin's subclass of a built-in item is written as that built-in item: the fields it adds
have no place in a provider format, so each one that is set is reported at its path (left out
with a warning by default), in every writer that writes such an item. A tester's
``NoteContent(TextContent)`` lost its ``priority`` in five writers without a word."""

from __future__ import annotations

import warnings
from typing import Any, ClassVar

import attrs
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from semantic_chat import BinaryContent, ChatHistory, ChatMessageContent, TextContent, formats
from semantic_chat.errors import UnsupportedContentError
from semantic_chat.labels import ContentType

TITLES = {
    "openai-chat": "OpenAI Chat Completions",
    "openai-responses": "OpenAI Responses",
    "anthropic": "Anthropic Messages",
    "gemini": "Gemini",
    "sk-dotnet": ".NET Semantic Kernel",
}


@attrs.define
class NoteContent(TextContent):
    content_type: ClassVar[ContentType] = ContentType("test_subclass_note")
    priority: int = 0
    tags: list[str] = attrs.field(factory=list)


@attrs.define
class ClipContent(BinaryContent):
    content_type: ClassVar[ContentType] = ContentType("test_subclass_clip")
    fps: float | None = None


@attrs.define
class PlainNote(TextContent):
    """A subclass that adds no field: nothing to report."""

    content_type: ClassVar[ContentType] = ContentType("test_subclass_plain_note")


def _written(name: str, item: Any, **options: Any) -> tuple[Any, list[str]]:
    history = ChatHistory([ChatMessageContent("user", items=[TextContent("hi"), item])])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        payload = formats.get(name).to_payload(history, **options)
    return payload, [str(note.message) for note in caught]


@pytest.mark.parametrize("name", sorted(TITLES))
def test_a_set_field_of_a_subclass_is_reported_at_its_path(name):
    _, notes = _written(name, NoteContent("remember", priority=5))
    assert notes == [f"messages[0].items[1].priority: dropped: {TITLES[name]} cannot carry the "
                     "field 'priority' of NoteContent (written as TextContent)"]


@pytest.mark.parametrize("name", sorted(TITLES))
def test_fields_left_at_their_defaults_are_not_reported(name):
    quiet, notes = _written(name, NoteContent("remember"))
    assert notes == []
    assert quiet == _written(name, TextContent("remember"))[0]  # written as the text it is


@pytest.mark.parametrize("name", sorted(TITLES))
def test_a_subclass_adding_no_field_is_written_silently(name):
    assert _written(name, PlainNote("remember"))[1] == []


@pytest.mark.parametrize("name", sorted(TITLES))
def test_with_error_the_field_is_refused_at_its_path(name):
    with pytest.raises(UnsupportedContentError) as raised:
        _written(name, NoteContent("remember", tags=["a"]), on_unsupported="error")
    assert raised.value.path == "messages[0].items[1].tags"


def test_a_binary_subclass_field_is_reported_where_the_format_writes_binary():
    for name in ("gemini", "sk-dotnet"):
        _, notes = _written(name, ClipContent(data=b"\x00\x00\x00\x18ftypmp42",
                                              mime_type="video/mp4", fps=25.0))
        assert notes == [f"messages[0].items[1].fps: dropped: {TITLES[name]} cannot carry "
                         "the field 'fps' of ClipContent (written as BinaryContent)"]


def test_an_encoder_writes_the_item_whole_and_nothing_is_reported():
    formats.register_encoder("openai-chat", NoteContent, lambda item: {
        "type": "text", "text": f"[{item.priority}] {item.text}"})
    try:
        payload, notes = _written("openai-chat", NoteContent("remember", priority=5))
    finally:
        formats.unregister_encoder("openai-chat", NoteContent)
    assert notes == []
    assert payload[0]["content"][1] == {"type": "text", "text": "[5] remember"}


@attrs.define(eq=False)
class Scored(TextContent):
    content_type: ClassVar[ContentType] = ContentType("test_subclass_scored")
    scores: Any = None


def test_a_field_that_cannot_be_compared_with_its_default_counts_as_set():
    _, notes = _written("anthropic", Scored("x", scores=np.array([1.0, 2.0])))
    assert notes == ["messages[0].items[1].scores: dropped: Anthropic Messages cannot carry "
                     "the field 'scores' of Scored (written as TextContent)"]


@given(st.sampled_from(sorted(TITLES)), st.integers(-3, 3), st.lists(st.text(max_size=3),
                                                                         max_size=2))
def test_exactly_the_fields_that_differ_from_their_defaults_are_reported(name, priority, tags):
    _, notes = _written(name, NoteContent("n", priority=priority, tags=tags))
    expected = [field for field, value in (("priority", priority), ("tags", tags)) if value]
    assert [note.split(":")[0] for note in notes] == [
        f"messages[0].items[1].{field}" for field in expected]


@pytest.mark.parametrize("name", sorted(TITLES))
def test_a_subclass_field_inside_a_tool_result_is_reported_at_its_path(name):
    from semantic_chat import FunctionCallContent, FunctionResultContent

    history = ChatHistory([
        ChatMessageContent("user", "hi"),
        ChatMessageContent("assistant", items=[FunctionCallContent("c1", "f", "{}")]),
        ChatMessageContent("tool", items=[
            FunctionResultContent("c1", [NoteContent("res", priority=5)], name="f")]),
    ])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        formats.get(name).to_payload(history)
    assert [str(note.message) for note in caught] == [
        f"messages[2].items[0].result[0].priority: dropped: {TITLES[name]} cannot carry the "
        "field 'priority' of NoteContent (written as TextContent)"]
