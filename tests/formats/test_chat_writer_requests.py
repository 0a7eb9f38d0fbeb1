"""OpenAI Chat Completions: what is written is a message the API takes.

A message whose every item was left out is left out (the API refuses ``"content": []`` and an
assistant message of ``"content": null`` with nothing else), and a reply read from the SDK's
``parse()`` is written back without what the SDK added (``parsed``, ``"tool_calls": []``).
"""

from __future__ import annotations

import pydantic
import pytest
from format_helpers import validate_chat_payload
from openai.types.chat import ParsedChatCompletion

from semantic_chat import ChatHistory, ImageContent, ReasoningContent, TextContent
from semantic_chat.formats import ConversionWarning, openai_chat


def _history() -> ChatHistory:
    history = ChatHistory()
    history.add_user_message([ImageContent(file_id="file-abc")])  # Chat has no image by id
    history.add_assistant_message(items=[
        ReasoningContent("thinking", signature="sig", provider="anthropic"),
    ])
    history.add_user_message("And now?")
    return history


def test_messages_whose_items_were_all_left_out_are_left_out():
    # What was seen: [{"role": "user", "content": []}, {"role": "assistant", "content": null},
    # {"role": "user", "content": "And now?"}], which the API refuses.
    with pytest.warns(ConversionWarning) as caught:
        written = openai_chat.to_payload(_history(), on_unsupported="warn")
    assert written == [{"role": "user", "content": "And now?"}]
    assert [str(note.message) for note in caught] == [
        "messages[0].items[0]: dropped: OpenAI Chat Completions cannot carry image content "
        "by a file id",
        "messages[1].items[0]: dropped: OpenAI Chat Completions cannot carry reasoning "
        "content in an assistant message",
    ]
    validate_chat_payload(written)
    assert openai_chat.to_payload(_history(), on_unsupported="drop") == written


def test_a_message_keeping_something_is_still_written():
    history = ChatHistory()
    history.add_user_message([TextContent("Look:"), ImageContent(file_id="file-abc")])
    history.add_assistant_message(items=[
        ReasoningContent("thinking", signature="sig", provider="anthropic"), TextContent("Ok."),
    ])
    written = openai_chat.to_payload(history, on_unsupported="drop")
    assert written == [
        {"role": "user", "content": "Look:"},
        {"role": "assistant", "content": "Ok."},
    ]


def test_an_empty_message_as_given_is_written_as_it_is():
    history = ChatHistory()
    history.add_assistant_message(items=[])
    assert openai_chat.to_payload(history) == [{"role": "assistant", "content": None}]


class _Weather(pydantic.BaseModel):
    city: str


def test_a_parsed_reply_goes_back_without_what_the_sdk_added():
    # What was seen: "parsed": {...} and "tool_calls": [] in the assistant message written.
    completion = {
        "id": "c", "object": "chat.completion", "created": 1, "model": "gpt-4o",
        "choices": [{"index": 0, "finish_reason": "stop", "logprobs": None, "message": {
            "role": "assistant", "content": '{"city":"Paris"}', "refusal": None,
            "parsed": {"city": "Paris"}, "tool_calls": [],
        }}],
    }
    parsed = ParsedChatCompletion[_Weather].model_validate(completion)
    for given in (parsed, completion):
        written = openai_chat.to_payload([openai_chat.from_response(given)])
        assert written == [
            {"role": "assistant", "content": '{"city":"Paris"}', "refusal": None}
        ]
        validate_chat_payload(written)
