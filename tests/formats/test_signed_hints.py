"""A provider's signature kept in hints is never sent to another provider, and never silently.

A Gemini thought signature rides on the item it came with (``metadata["gemini"]``); every
other writer leaves it out and reports it where it was, as `on_unsupported` says.
"""

from __future__ import annotations

import warnings

import pytest

from semantic_chat import (
    ChatHistory,
    FunctionCallContent,
    FunctionResultContent,
    TextContent,
)
from semantic_chat.errors import UnsupportedContentError
from semantic_chat.formats import anthropic, openai_chat, openai_responses

WHERE = 'messages[1].items[0].metadata["gemini"].thought_signature'


def _history() -> ChatHistory:
    history = ChatHistory()
    history.add_user_message("Weather in Paris?")
    signed = {"gemini": {"thought_signature": "c2lnbmF0dXJl"}}
    history.add_assistant_message(
        items=[FunctionCallContent(id="c1", name="weather", arguments='{"city": "Paris"}',
                                   metadata=signed)]
    )
    history.add_tool_message([FunctionResultContent(call_id="c1", result="sunny")])
    return history


WRITERS = {
    "OpenAI Chat Completions": openai_chat.to_payload,
    "OpenAI Responses": openai_responses.to_payload,
    "Anthropic Messages": anthropic.to_payload,
}


@pytest.mark.parametrize("format_name", list(WRITERS))
def test_a_gemini_signature_is_left_out_with_a_located_warning(format_name: str) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        payload = WRITERS[format_name](_history())
    assert [str(note.message) for note in caught] == [
        f"{WHERE}: dropped: {format_name} cannot carry a Gemini thought signature "
        "(it is only valid with Gemini)"
    ]
    assert "c2lnbmF0dXJl" not in repr(payload)


@pytest.mark.parametrize("format_name", list(WRITERS))
def test_a_gemini_signature_is_refused_when_asked(format_name: str) -> None:
    with pytest.raises(UnsupportedContentError) as raised:
        WRITERS[format_name](_history(), on_unsupported="error")
    assert str(raised.value).startswith(WHERE)


@pytest.mark.parametrize("format_name", list(WRITERS))
def test_a_gemini_signature_is_dropped_silently_only_when_asked(format_name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        WRITERS[format_name](_history(), on_unsupported="drop")


def test_other_gemini_hints_are_a_formats_own_and_not_reported() -> None:
    history = ChatHistory()
    history.add_user_message(items=[TextContent("hi", metadata={"gemini": {"role": None}})])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert openai_chat.to_payload(history) == [{"role": "user", "content": "hi"}]
