"""Gemini: no empty text part beside others, which the API refuses.

The API answers "Unable to submit request because it has an empty text parameter" for a
``{"text": ""}`` part; an OpenAI reply of tool calls brings one (``"content": ""``). An empty
text says nothing, so it is left out without a word when the content has other parts; a
message of empty texts only is left out with a warning (it would be a content without parts).
"""

from __future__ import annotations

import warnings

from google.genai import types as genai_types

from semantic_chat import ChatHistory, ChatMessageContent, FunctionCallContent, TextContent
from semantic_chat.formats import gemini, openai_chat

CALLS_REPLY = [
    {"role": "user", "content": "Weather in Paris?"},
    {"role": "assistant", "content": "", "tool_calls": [
        {"id": "call_1", "type": "function",
         "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}},
    ]},
    {"role": "tool", "tool_call_id": "call_1", "content": "18 C"},
]


def _silently(history: ChatHistory) -> dict:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return gemini.to_payload(history)


def test_an_openai_reply_of_calls_has_no_empty_text():
    # What was seen: {"role": "model", "parts": [{"text": ""}, {"function_call": ...}]}.
    payload = _silently(openai_chat.from_payload(CALLS_REPLY))
    assert payload["contents"][1] == {"role": "model", "parts": [
        {"function_call": {"id": "call_1", "name": "get_weather", "args": {"city": "Paris"}}},
    ]}
    for content in payload["contents"]:
        genai_types.Content.model_validate(content)


def test_the_general_writer_leaves_it_out_too():
    message = ChatMessageContent("assistant", items=[
        TextContent(""), FunctionCallContent("call_1", "f", {}),
    ], metadata={"app": 1})  # metadata: the general writer, which reports it
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        payload = gemini.to_payload([message])
    assert payload["contents"] == [{"role": "model", "parts": [
        {"function_call": {"id": "call_1", "name": "f", "args": {}}},
    ]}]


def _noted(history: ChatHistory, **options: object) -> tuple[dict, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        payload = gemini.to_payload(history, **options)
    return payload, [str(note.message) for note in caught]


EMPTY_NOTE = ("dropped: Gemini cannot carry a message of empty text only (the API refuses an "
              "empty part)")


def test_a_message_of_empty_texts_only_is_left_out_with_a_warning():
    history = ChatHistory()
    history.add_user_message("")
    history.add_assistant_message(items=[TextContent(""), TextContent("")])
    history.add_user_message("hi")
    payload, notes = _noted(history)
    assert payload == {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}
    assert notes == [f"messages[0]: {EMPTY_NOTE}", f"messages[1]: {EMPTY_NOTE}"]


def test_the_general_writer_leaves_an_empty_message_out_as_the_quick_one_does():
    history = ChatHistory([ChatMessageContent("user", "hi"),
                           ChatMessageContent("assistant", "", metadata={"x": 1})])
    payload, notes = _noted(history, on_unsupported="drop")
    assert payload == {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}
    assert notes == []


def test_an_empty_message_left_out_is_a_warning_even_when_losses_are_errors():
    history = ChatHistory([ChatMessageContent("user", "hi"), ChatMessageContent("assistant", "")])
    payload, notes = _noted(history, on_unsupported="error")
    assert payload == {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}
    assert notes == [f"messages[1]: {EMPTY_NOTE}"]


def test_a_whitespace_text_is_text_and_is_written():
    history = ChatHistory([ChatMessageContent("user", " "), ChatMessageContent("assistant", "\n")])
    assert _silently(history)["contents"] == [
        {"role": "user", "parts": [{"text": " "}]},
        {"role": "model", "parts": [{"text": "\n"}]},
    ]


def test_an_empty_instruction_is_still_written_whole():
    history = ChatHistory([ChatMessageContent("system", ""), ChatMessageContent("user", "hi")])
    assert _silently(history)["system_instruction"] == {"parts": [{"text": ""}]}


def test_system_messages_make_one_instruction_without_empty_texts():
    history = ChatHistory([ChatMessageContent("system", ""), ChatMessageContent("system", "Be brief.")])
    history.add_user_message("hi")
    assert _silently(history)["system_instruction"] == {"parts": [{"text": "Be brief."}]}


def test_an_empty_text_that_carries_something_is_kept():
    payload = {"contents": [{"role": "model", "parts": [
        {"text": "", "thought_signature": "c2lnbmF0dXJl"},
        {"function_call": {"name": "f", "args": {}}},
    ]}]}
    assert gemini.to_payload(gemini.from_payload(payload)) == payload
