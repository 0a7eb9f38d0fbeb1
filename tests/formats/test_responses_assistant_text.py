"""OpenAI Responses: an assistant's texts as the API takes them, and no message split in two.

The API refuses ``input_text`` parts from the assistant ("Supported values are:
'output_text' and 'refusal'"), and the SDK's input message (``EasyInputMessageParam``) takes
only input parts: outside an output message read with its id, each of an assistant's texts is
a message with a string content. An item left out no longer ends the message around it.
"""

from __future__ import annotations

import copy
import warnings
from typing import Any

import pytest
from format_helpers import validate_responses_payload
from hypothesis import given
from hypothesis import strategies as st

from semantic_chat import (
    ChatMessageContent,
    FileContent,
    ImageContent,
    TextContent,
    UnknownContent,
    formats,
)
from semantic_chat.errors import UnsupportedContentError
from semantic_chat.formats import openai_responses

CLAUDE_BODY: dict[str, Any] = {
    "model": "claude-sonnet-4-5", "max_tokens": 100,
    "messages": [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": [{"type": "text", "text": "Hello."},
                                          {"type": "text", "text": "How can I help?"}]},
        {"role": "user", "content": "bye"},
    ],
}


def _silently(call: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return call()


def test_a_claude_answer_of_two_texts_is_two_assistant_messages():
    # What was seen: {"role": "assistant", "content": [{"type": "input_text", ...},
    # {"type": "input_text", ...}]}, which the API refuses.
    body = _silently(lambda: formats.convert(copy.deepcopy(CLAUDE_BODY),
                                             target="openai-responses"))
    assert body["input"] == [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "Hello."},
        {"role": "assistant", "content": "How can I help?"},
        {"role": "user", "content": "bye"},
    ]
    validate_responses_payload(body["input"])


def test_the_two_messages_are_one_claude_turn_again():
    there = _silently(lambda: formats.convert(copy.deepcopy(CLAUDE_BODY),
                                              target="openai-responses"))
    back = _silently(lambda: formats.convert({**there, "max_output_tokens": 100},
                                             target="anthropic"))
    assert back == CLAUDE_BODY


@given(st.lists(st.text(max_size=12), min_size=1, max_size=4))
def test_any_texts_of_an_assistant_message_are_written_exactly(texts):
    message = ChatMessageContent("assistant", items=[TextContent(text) for text in texts])
    written = openai_responses.to_payload([message])
    assert written == [{"role": "assistant", "content": text} for text in texts]
    validate_responses_payload(written)
    read = openai_responses.from_payload(written)
    assert [item.text for each in read for item in each.items] == texts


def test_an_output_message_keeps_its_output_text_parts():
    output = [{
        "type": "message", "id": "msg_1", "status": "completed", "role": "assistant",
        "content": [{"type": "output_text", "text": "Hello.", "annotations": []},
                    {"type": "output_text", "text": "How can I help?", "annotations": []}],
    }]
    history = openai_responses.from_payload(copy.deepcopy(output))
    assert openai_responses.to_payload(history) == output


def test_an_assistant_list_read_from_a_payload_is_written_back_as_read():
    # The SDK's types accept it; a payload read is written back exactly, whatever the API says.
    payload = [{"role": "assistant", "content": [{"type": "input_text", "text": "a"},
                                                 {"type": "input_text", "text": "b"}]}]
    history = openai_responses.from_payload(copy.deepcopy(payload))
    assert openai_responses.to_payload(history) == payload


@pytest.mark.parametrize("media", [
    ImageContent(uri="https://example.com/a.png"),
    FileContent(file_id="file-1", filename="a.pdf"),
])
def test_media_in_an_assistant_message_is_refused_then_left_out(media):
    message = ChatMessageContent("assistant", items=[TextContent("See:"), media])
    kind = "image" if isinstance(media, ImageContent) else "file"
    with pytest.raises(UnsupportedContentError) as raised:
        openai_responses.to_payload([message])
    assert str(raised.value) == (
        f"messages[0].items[1]: OpenAI Responses cannot carry {kind} content in an assistant "
        "message (the API takes text only from the assistant) (pass on_unsupported='warn' to "
        "leave it out)"
    )
    with pytest.warns(formats.ConversionWarning, match=r"^messages\[0\]\.items\[1\]: dropped"):
        written = openai_responses.to_payload([message], on_unsupported="warn")
    assert written == [{"role": "assistant", "content": "See:"}]


def test_an_item_left_out_does_not_split_the_message_around_it():
    # What was seen: a user turn of text, search_result, text became two user messages.
    message = ChatMessageContent("user", items=[
        TextContent("Using this:"),
        UnknownContent("search_result", {"source": "s", "content": []}),
        TextContent("answer the question."),
    ])
    with pytest.warns(formats.ConversionWarning, match=r"^messages\[0\]\.items\[1\]: dropped"):
        written = openai_responses.to_payload([message], on_unsupported="warn")
    assert written == [{"role": "user", "content": [
        {"type": "input_text", "text": "Using this:"},
        {"type": "input_text", "text": "answer the question."},
    ]}]
    validate_responses_payload(written)
