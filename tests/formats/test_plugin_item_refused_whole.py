"""A plugin's own item kind with no encoder is refused, or left out, whole, at its path.

What was seen: before refusing such an item (a ``KernelContent`` subclass of no built-in
kind), every writer reported each of its fields, ``messages[0].items[1].url: dropped: ...
cannot carry the field 'url' of ClipContent (written as KernelContent)``, though nothing is
written as a ``KernelContent``; with ``on_unsupported="error"`` the error named the field,
not the item. A subclass of a built-in kind is written as that kind, and its own fields are
still reported.
"""

from __future__ import annotations

import warnings
from typing import Any

import attrs
import pytest

from semantic_chat import ChatHistory, ContentType, KernelContent, TextContent, formats
from semantic_chat.errors import UnsupportedContentError


@attrs.define
class ClipContent(KernelContent):
    content_type = ContentType("test_refused_clip")
    url: str = ""
    seconds: float = 0.0


@attrs.define
class NoteContent(TextContent):
    content_type = ContentType("test_refused_note")
    author: str | None = None


WRITERS = {
    "openai-chat": "OpenAI Chat Completions cannot carry test_refused_clip content in a user "
                   "message",
    "openai-responses": "OpenAI Responses cannot carry test_refused_clip content in a user "
                        "message",
    "anthropic": "Anthropic Messages cannot carry test_refused_clip content in a user message",
    "gemini": "Gemini cannot carry test_refused_clip content in a user message",
    "sk-python": "Semantic Kernel (Python) cannot carry test_refused_clip content (it has no "
                 "such content type)",
    "sk-dotnet": ".NET Semantic Kernel cannot carry test_refused_clip content (.NET has no "
                 "content type that holds it)",
}


def _notes(name: str, history: ChatHistory, **options: Any) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        formats.get(name).to_payload(history, **options)
    return [str(note.message) for note in caught]


@pytest.mark.parametrize("name", list(WRITERS))
def test_a_plugin_item_of_its_own_kind_is_reported_once_at_the_item(name: str) -> None:
    history = ChatHistory()
    history.add_user_message(["hi", ClipContent("https://x.test/clip", 3.0)])
    assert _notes(name, history, on_unsupported="warn") == [
        f"messages[0].items[1]: dropped: {WRITERS[name]}"]
    with pytest.raises(UnsupportedContentError) as raised:
        formats.get(name).to_payload(history, on_unsupported="error")
    assert raised.value.path == "messages[0].items[1]"


@pytest.mark.parametrize("name", ["openai-chat", "anthropic", "gemini"])
def test_a_subclass_of_a_built_in_kind_still_has_its_own_fields_reported(name: str) -> None:
    history = ChatHistory()
    history.add_user_message([NoteContent("hi", author="ada")])
    notes = _notes(name, history)
    assert len(notes) == 1
    assert notes[0].startswith("messages[0].items[0].author: dropped: ")
    assert notes[0].endswith("cannot carry the field 'author' of NoteContent (written as "
                             "TextContent)")
