"""What a tester met writing an agent loop across providers.

A tool result that is only an image, sent to Chat Completions with ``on_unsupported="warn"``,
was written as ``"content": []``, which the API refuses (an array needs one element): the
tool message cannot be left out (its call would go unanswered), so it is written with the
empty string, after the warning that says what was left out.
"""

from __future__ import annotations

import warnings

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openai.types.chat import ChatCompletionToolMessageParam
from pydantic import TypeAdapter

from semantic_chat import (
    AudioContent,
    ChatHistory,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    TextContent,
)
from semantic_chat.errors import UnsupportedContentError
from semantic_chat.formats import openai_chat

PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000")


def _history(result: object, is_error: bool = False) -> ChatHistory:
    history = ChatHistory()
    history.add_user_message("chart?")
    history.add_assistant_message(items=[FunctionCallContent("c1", "chart", "{}")])
    history.add_tool_message(FunctionResultContent("c1", result, name="chart", is_error=is_error))
    return history


def _tool_message(history: ChatHistory) -> tuple[dict, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        messages = openai_chat.to_payload(history, on_unsupported="warn")
    return messages[2], [str(note.message) for note in caught]


def test_a_result_of_an_image_only_is_written_as_an_empty_string_after_the_warning():
    message, notes = _tool_message(_history([ImageContent(data=PNG, mime_type="image/png")]))
    assert message == {"role": "tool", "tool_call_id": "c1", "content": ""}
    assert notes == ["messages[2].items[0].result[0]: dropped: OpenAI Chat Completions cannot "
                     "carry image content in a tool result"]
    TypeAdapter(ChatCompletionToolMessageParam).validate_python(message)


def test_an_error_result_of_an_image_only_still_says_it_is_an_error():
    message, _ = _tool_message(_history([ImageContent(data=PNG, mime_type="image/png")], True))
    assert message["content"] == "Error: "


def test_by_default_the_image_is_still_refused_at_its_path():
    with pytest.raises(UnsupportedContentError) as raised:
        openai_chat.to_payload(_history([ImageContent(data=PNG, mime_type="image/png")]))
    assert raised.value.path == "messages[2].items[0].result[0]"


@given(st.lists(st.sampled_from(["text", "image", "audio"]), min_size=1, max_size=4))
def test_a_tool_message_never_has_an_empty_list_of_parts(kinds):
    made = {"text": lambda: TextContent("t"),
            "image": lambda: ImageContent(data=PNG, mime_type="image/png"),
            "audio": lambda: AudioContent(data=b"RIFF0000WAVE", mime_type="audio/wav")}
    message, _ = _tool_message(_history([made[kind]() for kind in kinds]))
    texts = [{"type": "text", "text": "t"}] * kinds.count("text")
    assert message["content"] == (texts or "")
