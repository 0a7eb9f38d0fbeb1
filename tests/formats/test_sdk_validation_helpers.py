"""The SDK validation helpers catch what plain TypedDict validation lets through."""

from __future__ import annotations

import pytest
from format_helpers import (
    CHAT_MESSAGE_ADAPTER,
    assert_keys_known,
    key_problems,
    validate_chat_message,
    validate_responses_item,
)
from openai.types.chat import ChatCompletionMessageParam
from openai.types.responses import ResponseInputItemParam


def test_lazy_iterables_are_not_checked_by_validate_python_alone():
    # The trap the helpers exist for: this passes validate_python ...
    bad = {"role": "user", "content": [{"type": "image_url", "image_url": {"url": "u",
                                                                            "detail": "huge"}}]}
    CHAT_MESSAGE_ADAPTER.validate_python(bad)
    # ... but not once the content is iterated.
    with pytest.raises(AssertionError, match="is not a ChatCompletionMessageParam"):
        validate_chat_message(bad)


@pytest.mark.parametrize(
    ("message", "problem"),
    [
        ({"role": "user", "content": "x", "zzz": 1},
         "m.zzz: key not declared by ChatCompletionUserMessageParam"),
        ({"role": "user", "content": [{"type": "text", "text": "x", "extra": 1}]},
         "m.content[0].extra: key not declared by ChatCompletionContentPartTextParam"),
        ({"role": "user", "content": [{"type": "image_url", "image_url": {"url": "u", "x": 1}}]},
         "m.content[0].image_url.x: key not declared by ImageURL"),
        ({"role": "assistant", "tool_calls": [
            {"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"},
             "index": 0}]},
         "m.tool_calls[0].index: key not declared by ChatCompletionMessageFunctionToolCallParam"),
        ({"role": "tool", "tool_call_id": "c", "content": "x", "name": "f"},
         "m.name: key not declared by ChatCompletionToolMessageParam"),
    ],
)
def test_unknown_and_missing_chat_keys_are_reported(message, problem):
    # validate_python ignores unknown keys ...
    CHAT_MESSAGE_ADAPTER.validate_python(message)
    # ... key_problems does not.
    assert problem in key_problems(message, ChatCompletionMessageParam, "m")
    with pytest.raises(AssertionError):
        assert_keys_known(message, ChatCompletionMessageParam, "m")


def test_missing_required_keys_are_reported():
    # The SDK modules use `from __future__ import annotations`: __required_keys__ is empty.
    assert key_problems({"role": "tool", "content": "x"}, ChatCompletionMessageParam, "m") == [
        "m: missing key 'tool_call_id' required by ChatCompletionToolMessageParam"
    ]


@pytest.mark.parametrize(
    ("item", "problem"),
    [
        ({"type": "reasoning", "id": "r", "summary": [{"type": "summary_text", "text": "x",
                                                        "q": 1}]},
         "i.summary[0].q: key not declared by Summary"),
        ({"type": "web_search_call", "id": "w", "status": "completed",
          "action": {"type": "search", "query": "q", "zz": 2}},
         "i.action.zz: key not declared by ActionSearch"),
        ({"type": "function_call_output", "call_id": "c", "output": "x", "is_error": True},
         "i.is_error: key not declared by FunctionCallOutput"),
        ({"type": "frobnicate"},
         "i: no member of the union has the discriminators {'type': 'frobnicate'}"),
    ],
)
def test_unknown_responses_keys_are_reported(item, problem):
    assert problem in key_problems(item, ResponseInputItemParam, "i")


@pytest.mark.parametrize(
    "item",
    [
        {"role": "user", "content": "x"},
        {"role": "assistant", "content": [{"type": "output_text", "text": "a", "annotations": [],
                                           "logprobs": []}],
         "id": "m", "type": "message", "status": "completed"},
        {"type": "function_call", "call_id": "c", "name": "n", "arguments": "{}",
         "id": "fc", "status": "completed"},
        {"type": "function_call_output", "call_id": "c", "output": [
            {"type": "input_text", "text": "a"},
            {"type": "input_image", "image_url": "https://x.test/a.png", "detail": "auto"},
            {"type": "input_file", "file_id": "file-1"},
        ]},
        {"type": "reasoning", "id": "r", "summary": [], "encrypted_content": "e"},
    ],
)
def test_valid_responses_items_pass(item):
    validate_responses_item(item)


def test_chat_message_with_every_assistant_field_passes():
    validate_chat_message({
        "role": "assistant", "name": "a", "content": [{"type": "text", "text": "t"},
                                                      {"type": "refusal", "refusal": "r"}],
        "refusal": None, "audio": {"id": "audio_1"},
        "tool_calls": [{"id": "c", "type": "custom", "custom": {"name": "n", "input": "i"}}],
        "function_call": {"name": "f", "arguments": "{}"},
    })
