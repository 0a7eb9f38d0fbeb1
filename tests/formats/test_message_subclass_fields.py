"""A plugin's message subclass is written as a `ChatMessageContent`: the fields it adds have no
place in a provider format, so each one that is set is reported at ``messages[i].<field>``
under ``on_unsupported`` (left out with a warning by default), as an item subclass's are.
Every provider writer (OpenAI Chat and Responses, Anthropic, Gemini, both Semantic Kernel
dialects) dropped a ``SessionMessage.session`` without a word (the quick paths wrote it as a
plain message)."""

from __future__ import annotations

import warnings
from typing import Any

import attrs
import pytest
from format_helpers import dumps_sorted
from format_strategies import chat_histories
from hypothesis import given
from hypothesis import strategies as st

from semantic_chat import (
    ChatHistory,
    ChatMessageContent,
    FunctionCallContent,
    TextContent,
    formats,
)
from semantic_chat.contents.metadata import peek_metadata
from semantic_chat.errors import FormatError, InvalidValueError, UnsupportedContentError
from semantic_chat.formats import anthropic, gemini, openai_chat

TITLES = {
    "anthropic": "Anthropic Messages",
    "gemini": "Gemini",
    "openai-chat": "OpenAI Chat Completions",
    "openai-responses": "OpenAI Responses",
    "sk-python": "Semantic Kernel (Python)",
    "sk-dotnet": ".NET Semantic Kernel",
}


@attrs.define
class SessionMessage(ChatMessageContent):
    message_type = "test_message_subclass_session"
    session: str | None = None
    tags: list[str] = attrs.field(factory=list)


@attrs.define
class PlainMessage(ChatMessageContent):
    """A subclass that adds no field: nothing to report."""

    message_type = "test_message_subclass_plain"


def _history(message: ChatMessageContent) -> ChatHistory:
    return ChatHistory([ChatMessageContent("system", "be brief"), message])


def _written(name: str, history: ChatHistory, **options: Any) -> tuple[Any, list[str]]:
    """The payload ``name`` writes and the text of each warning, in order."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        payload = formats.get(name).to_payload(history, **options)
    return payload, [str(note.message) for note in caught]


def _note(name: str, field: str) -> str:
    return (f"messages[1].{field}: dropped: {TITLES[name]} cannot carry the field {field!r} of "
            "SessionMessage (written as ChatMessageContent)")


WRITTEN = {
    "anthropic": {"system": "be brief", "messages": [{"role": "user", "content": "hi"}]},
    "gemini": {
        "contents": [{"role": "user", "parts": [{"text": "hi"}]}],
        "system_instruction": {"parts": [{"text": "be brief"}]},
    },
    "openai-chat": [{"role": "system", "content": "be brief"}, {"role": "user", "content": "hi"}],
    "openai-responses": [
        {"role": "system", "content": "be brief"}, {"role": "user", "content": "hi"}
    ],
    "sk-python": {"messages": [
        {"metadata": {}, "content_type": "message", "role": "system",
         "items": [{"metadata": {}, "content_type": "text", "text": "be brief"}]},
        {"metadata": {}, "content_type": "message", "role": "user",
         "items": [{"metadata": {}, "content_type": "text", "text": "hi"}]},
    ]},
    "sk-dotnet": [
        {"Role": {"Label": "system"}, "Items": [{"$type": "TextContent", "Text": "be brief"}]},
        {"Role": {"Label": "user"}, "Items": [{"$type": "TextContent", "Text": "hi"}]},
    ],
}
"""What each writer writes for the history of `_history` with a user's ``hi``."""


@pytest.mark.parametrize("name", sorted(TITLES))
def test_set_fields_of_a_message_subclass_are_reported_at_the_message(name):
    history = _history(SessionMessage("user", "hi", session="s-1", tags=["a"]))
    payload, notes = _written(name, history)
    assert payload == WRITTEN[name]  # the rest as for a plain message
    assert notes == [_note(name, "session"), _note(name, "tags")]


@pytest.mark.parametrize("name", sorted(TITLES))
def test_drop_leaves_them_out_in_silence(name):
    history = _history(SessionMessage("user", "hi", session="s-1"))
    assert _written(name, history, on_unsupported="drop") == (WRITTEN[name], [])


@pytest.mark.parametrize("name", sorted(TITLES))
def test_error_refuses_the_first_set_field_at_its_path(name):
    history = _history(SessionMessage("user", "hi", tags=["a"]))
    with pytest.raises(UnsupportedContentError) as raised:
        _written(name, history, on_unsupported="error")
    assert raised.value.path == "messages[1].tags"
    assert str(raised.value).startswith(
        f"messages[1].tags: {TITLES[name]} cannot carry the field 'tags' of SessionMessage "
        "(written as ChatMessageContent)")


@pytest.mark.parametrize("name", sorted(TITLES))
def test_fields_at_their_defaults_are_not_reported(name):
    # an empty list from the factory is its default: nothing is lost
    assert _written(name, _history(SessionMessage("user", "hi"))) == (WRITTEN[name], [])
    assert _written(name, _history(PlainMessage("user", "hi"))) == (WRITTEN[name], [])


def test_chat_sends_a_subclass_the_general_way_for_an_assistant_with_calls():
    message = SessionMessage("assistant", items=[
        TextContent("checking"), FunctionCallContent("c1", "weather", '{"city":"Oslo"}')],
        session="s-2")
    payload, notes = _written("openai-chat", ChatHistory([message]))
    assert payload == [{
        "role": "assistant",
        "content": "checking",
        "tool_calls": [{"id": "c1", "type": "function",
                        "function": {"name": "weather", "arguments": '{"city":"Oslo"}'}}],
    }]
    assert notes == ["messages[0].session: dropped: OpenAI Chat Completions cannot carry the "
                     "field 'session' of SessionMessage (written as ChatMessageContent)"]
    assert openai_chat.writing._write_plain_message(message) is None


def test_a_broken_item_of_a_subclass_is_located():
    item = TextContent("hi")
    object.__setattr__(item, "_text", 5)
    with pytest.raises(FormatError) as raised:
        openai_chat.to_payload([SessionMessage("user", items=[item], session="s-1")])
    assert str(raised.value) == "messages[0].items[0].text: expected a str, got int"


@pytest.mark.parametrize("name", sorted(TITLES))
def test_an_unknown_policy_is_refused_before_anything_is_written(name):
    with pytest.raises(InvalidValueError) as raised:
        _written(name, _history(SessionMessage("user", "hi", session="s")), on_unsupported="x")
    assert raised.value.path == "on_unsupported"


@given(
    st.sampled_from(sorted(TITLES)),
    st.none() | st.text(max_size=3),
    st.lists(st.text(max_size=3), max_size=2),
)
def test_exactly_the_fields_that_differ_from_their_defaults_are_reported(name, session, tags):
    payload, notes = _written(name, _history(SessionMessage("user", "hi", session=session,
                                                            tags=tags)))
    assert payload == WRITTEN[name]
    expected = [field for field, set_ in (("session", session is not None), ("tags", tags))
                if set_]
    assert notes == [_note(name, field) for field in expected]


def _as_session(message: ChatMessageContent) -> SessionMessage:
    """The same message as a `SessionMessage` whose own fields hold their defaults."""
    return SessionMessage(
        message.role, items=list(message.items), name=message.name, id=message.id,
        finish_reason=message.finish_reason, usage=message.usage, model_id=message.model_id,
        metadata=peek_metadata(message) or None,
    )


@given(chat_histories())
def test_a_subclass_at_its_defaults_writes_what_the_plain_message_writes(history):
    # plain messages go Chat's quick path, subclasses its general one: both must agree
    subclassed = ChatHistory([_as_session(message) for message in history])
    plain, plain_notes = _written("openai-chat", history)
    written, notes = _written("openai-chat", subclassed)
    assert dumps_sorted(written) == dumps_sorted(plain)
    assert notes == plain_notes
    assert openai_chat.from_payload(written) == history  # and reads back as the plain history


@pytest.mark.parametrize("name", ["anthropic", "gemini"])
def test_anthropic_and_gemini_send_a_subclass_the_general_way_in_their_quick_loops(name):
    # the commonest shapes are written in the loop itself: a subclass must not take it
    history = ChatHistory([
        SessionMessage("user", "hi", session="s-1"),
        SessionMessage("assistant", "hello", session="s-1"),
    ])
    payload, notes = _written(name, history)
    plain, plain_notes = _written(name, ChatHistory([
        ChatMessageContent("user", "hi"), ChatMessageContent("assistant", "hello")]))
    assert payload == plain
    assert plain_notes == []
    title = TITLES[name]
    assert notes == [
        f"messages[{index}].session: dropped: {title} cannot carry the field 'session' of "
        "SessionMessage (written as ChatMessageContent)"
        for index in (0, 1)
    ]
    if name == "anthropic":
        assert anthropic.writing._write_plain_message(history[0]) is None
    else:
        assert gemini.to_payload(history, on_unsupported="drop") == plain
