"""Whole API documents (requests, responses, Batch and fine-tuning lines) and ChatOptions."""

from __future__ import annotations

import json
import re
import typing
import warnings

import pytest
from format_helpers import force_lazy, validate_chat_payload, validate_responses_payload
from openai.types.chat import ChatCompletion
from openai.types.chat.completion_create_params import CompletionCreateParamsNonStreaming
from openai.types.responses import Response
from openai.types.responses.response_create_params import ResponseCreateParamsNonStreaming
from pydantic import TypeAdapter

from semantic_chat import ChatHistory, ChatMessageContent, ChatOptions, formats
from semantic_chat.errors import (
    FormatError,
    InvalidTypeError,
    SerializationError,
    UnsupportedContentError,
)
from semantic_chat.formats import Problem, openai_chat, openai_responses
from semantic_chat.serialization import from_json, to_json

CHAT_BODY = {
    "model": "gpt-4o",
    "messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "hi"}],
    "tools": [{"type": "function", "function": {
        "name": "get_weather", "description": "Weather in a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
        "strict": True,
    }}],
    "tool_choice": {"type": "function", "function": {"name": "get_weather"}},
    "temperature": 0.2,
    "top_p": 1,
    "max_completion_tokens": 100,
    "reasoning_effort": "low",
    "seed": 7,
    "store": True,
    "response_format": {"type": "json_object"},
}
RESPONSES_BODY = {
    "model": "o4-mini",
    "instructions": "Be brief.",
    "input": "hi",
    "tools": [{"type": "function", "name": "get_weather", "description": "Weather in a city",
               "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
               "strict": True}],
    "tool_choice": {"type": "function", "name": "get_weather"},
    "temperature": 0.2,
    "top_p": 1,
    "max_output_tokens": 100,
    "reasoning": {"effort": "low", "summary": "auto"},
    "store": True,
    "include": ["reasoning.encrypted_content"],
}
COMPLETION = {
    "id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-4o",
    "choices": [{"index": 0, "finish_reason": "tool_calls", "logprobs": None, "message": {
        "role": "assistant", "content": None, "refusal": None,
        "tool_calls": [{"id": "call_1", "type": "function",
                        "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}}],
    }}],
    "usage": {"prompt_tokens": 5, "completion_tokens": 3, "total_tokens": 8},
}
RESPONSE = {
    "id": "resp_1", "object": "response", "created_at": 1.0, "model": "o4-mini",
    "status": "completed", "parallel_tool_calls": True, "tool_choice": "auto", "tools": [],
    "output": [
        {"type": "reasoning", "id": "rs_1", "summary": []},
        {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
         "content": [{"type": "output_text", "text": "Hello", "annotations": []}]},
    ],
    "usage": {"input_tokens": 5, "output_tokens": 3, "total_tokens": 8,
              "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
              "output_tokens_details": {"reasoning_tokens": 1}},
}
CHAT_REQUEST = TypeAdapter(CompletionCreateParamsNonStreaming)
RESPONSES_REQUEST = TypeAdapter(ResponseCreateParamsNonStreaming)


def validate_chat_request(body):
    """The body passes the SDK's request type; its keys and messages are all declared."""
    force_lazy(CHAT_REQUEST.validate_python(body))
    assert set(body) <= set(typing.get_type_hints(CompletionCreateParamsNonStreaming))
    validate_chat_payload(body["messages"])


def validate_responses_request(body):
    force_lazy(RESPONSES_REQUEST.validate_python(body))
    assert set(body) <= set(typing.get_type_hints(ResponseCreateParamsNonStreaming))
    validate_responses_payload(body["input"])


def quietly(function, *args, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = function(*args, **kwargs)
    return result, [str(note.message) for note in caught]


# --- ChatOptions ---------------------------------------------------------------------------


def test_options_check_fields_when_built_and_assigned():
    with pytest.raises(InvalidTypeError, match=re.escape(
        "temperature: expected a number or None, got str"
    )):
        ChatOptions(temperature="hot")
    options = ChatOptions(model="m")
    with pytest.raises(InvalidTypeError, match=re.escape("tools[0]: expected a tool object, got int")):
        options.tools = [1]
    with pytest.raises(InvalidTypeError, match=re.escape("stop[1]: expected a str, got int")):
        options.stop = ["a", 2]
    with pytest.raises(InvalidTypeError, match=re.escape(
        "options: expected a ChatOptions or None, got dict"
    )):
        ChatHistory(options={"model": "m"})
    assert options == ChatOptions(model="m")


def test_history_options_round_trip_through_json():
    history = ChatHistory(system_message="Be brief.", options=ChatOptions(
        model="m", temperature=1, tools=[{"type": "function", "name": "f"}], extra={"store": True}
    ))
    text = to_json(history)
    assert text == (
        '{"version":1,"options":{"model":"m","tools":[{"type":"function","name":"f"}],'
        '"temperature":1,"extra":{"store":true}},"messages":[{"role":"system","items":'
        '[{"type":"text","text":"Be brief."}]}]}'
    )
    assert from_json(text, ChatHistory) == history
    assert from_json(text, ChatHistory).options == history.options
    assert history[1:].options == history.options
    assert to_json(ChatHistory()) == '{"version":1,"messages":[]}'


@pytest.mark.parametrize(("text", "message"), [
    ('{"version":1,"options":{"temperature":"x"}}',
     "options.temperature: expected a number or None, got str"),
    ('{"version":1,"options":[]}', "options: expected an object, got list"),
])
def test_bad_options_in_json_are_located(text, message):
    with pytest.raises(SerializationError) as raised:
        from_json(text, ChatHistory)
    assert str(raised.value) == message


# --- request bodies ------------------------------------------------------------------------


def test_chat_request_reads_options_and_writes_back_exactly():
    history = openai_chat.from_request(CHAT_BODY)
    assert history.options == ChatOptions(
        model="gpt-4o", tools=CHAT_BODY["tools"], tool_choice=CHAT_BODY["tool_choice"],
        temperature=0.2, top_p=1, max_tokens=100, reasoning_effort="low", seed=7,
        extra={"store": True, "response_format": {"type": "json_object"}},
    )
    assert [m.text for m in history] == ["Be brief.", "hi"]
    written = openai_chat.to_request(history)
    assert written == CHAT_BODY
    assert list(written)[:2] == ["model", "messages"]
    validate_chat_request(written)


def test_chat_request_keeps_the_older_max_tokens_name():
    body = {"model": "m", "messages": [{"role": "user", "content": "x"}], "max_tokens": 5}
    history = openai_chat.from_request(body)
    assert history.options.max_tokens == 5
    assert openai_chat.to_request(history) == body


def test_responses_request_keeps_model_reasoning_store_and_include():
    history = openai_responses.from_request(RESPONSES_BODY)
    assert history.options == ChatOptions(
        model="o4-mini", tools=RESPONSES_BODY["tools"], tool_choice=RESPONSES_BODY["tool_choice"],
        temperature=0.2, top_p=1, max_tokens=100, reasoning_effort="low",
        extra={"reasoning": {"summary": "auto"}, "store": True,
               "include": ["reasoning.encrypted_content"]},
    )
    written = openai_responses.to_request(history)
    assert written == RESPONSES_BODY
    validate_responses_request(written)


def test_chat_request_to_responses_keeps_what_both_express_and_reports_the_rest():
    written, notes = quietly(openai_responses.to_request, openai_chat.from_request(CHAT_BODY))
    assert written == {
        "model": "gpt-4o",
        "input": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "hi"}],
        "tools": RESPONSES_BODY["tools"],
        "tool_choice": {"type": "function", "name": "get_weather"},
        "temperature": 0.2,
        "top_p": 1,
        "max_output_tokens": 100,
        "reasoning": {"effort": "low"},
        "store": True,
        "text": {"format": {"type": "json_object"}},
    }
    assert notes == ["options.seed: dropped: OpenAI Responses cannot carry the option 'seed'"]
    validate_responses_request(written)


def test_responses_request_to_chat_keeps_what_both_express_and_reports_the_rest():
    written, notes = quietly(openai_chat.to_request, openai_responses.from_request(RESPONSES_BODY))
    assert written == {
        "model": "o4-mini",
        "messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "hi"}],
        "tools": CHAT_BODY["tools"],
        "tool_choice": {"type": "function", "function": {"name": "get_weather"}},
        "temperature": 0.2,
        "top_p": 1,
        "max_completion_tokens": 100,
        "reasoning_effort": "low",
        "store": True,
    }
    assert notes == [
        'options.extra["include"]: dropped: OpenAI Chat Completions cannot carry the request '
        "field 'include'",
        'options.extra["reasoning"]: dropped: OpenAI Chat Completions cannot carry the request '
        "field 'reasoning'",
    ]
    validate_chat_request(written)


def test_losses_are_refused_with_on_unsupported_error():
    with pytest.raises(FormatError, match=re.escape(
        "options.seed: OpenAI Responses cannot carry the option 'seed'"
    )):
        openai_responses.to_request(openai_chat.from_request(CHAT_BODY), on_unsupported="error")


def test_hosted_tool_is_reported_for_chat():
    body = {"model": "m", "input": "x", "tools": [{"type": "web_search"}]}
    written, notes = quietly(openai_chat.to_request, openai_responses.from_request(body))
    assert written == {"model": "m", "messages": [{"role": "user", "content": "x"}]}
    assert notes == [
        'options.tools[0]: dropped: OpenAI Chat Completions cannot carry a "web_search" tool'
    ]


def test_bad_request_field_is_located():
    with pytest.raises(FormatError) as raised:
        openai_chat.from_request({"messages": [], "temperature": "hot"})
    assert str(raised.value) == "temperature: expected a number or None, got str"
    with pytest.raises(FormatError) as raised:
        openai_responses.from_request({"input": "x", "max_output_tokens": "5"})
    assert str(raised.value) == "max_output_tokens: expected an int or None, got str"
    with pytest.raises(FormatError) as raised:
        openai_chat.from_request({"model": "m"})
    assert str(raised.value) == "request: missing 'messages'"


# --- documents -----------------------------------------------------------------------------

FINE_TUNING = {
    "messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}],
    "tools": CHAT_BODY["tools"],
    "parallel_tool_calls": False,
}
BATCH_CHAT = {"custom_id": "r1", "method": "POST", "url": "/v1/chat/completions",
              "body": {"model": "m", "messages": [{"role": "user", "content": "hi"}]}}
BATCH_RESPONSES = {"custom_id": "r2", "method": "POST", "url": "/v1/responses",
                   "body": {"model": "m", "input": "hi"}}
BATCH_OUTPUT = {"id": "b1", "custom_id": "r1", "error": None,
                "response": {"status_code": 200, "request_id": "q", "body": COMPLETION}}


@pytest.mark.parametrize(("document", "name"), [
    (CHAT_BODY, "openai-chat"),
    (FINE_TUNING, "openai-chat"),
    (COMPLETION, "openai-chat"),
    (BATCH_CHAT, "openai-chat"),
    (BATCH_OUTPUT, "openai-chat"),
    (RESPONSES_BODY, "openai-responses"),
    (RESPONSE, "openai-responses"),
    (BATCH_RESPONSES, "openai-responses"),
    ("hello", "openai-responses"),
])
def test_documents_are_detected(document, name):
    assert formats.detect(document) == name


def test_each_document_reads_into_the_history_it_holds():
    assert openai_chat.from_payload(FINE_TUNING) == openai_chat.from_request(FINE_TUNING)
    assert openai_chat.from_payload(FINE_TUNING).options == ChatOptions(
        tools=CHAT_BODY["tools"], parallel_tool_calls=False
    )
    assert openai_chat.from_payload(BATCH_CHAT) == openai_chat.from_request(BATCH_CHAT["body"])
    assert openai_chat.from_payload(COMPLETION) == ChatHistory(
        [openai_chat.from_response(COMPLETION)]
    )
    assert openai_chat.from_payload(BATCH_OUTPUT) == ChatHistory(
        [openai_chat.from_response(COMPLETION)]
    )
    assert openai_responses.from_payload(RESPONSE) == ChatHistory(
        [openai_responses.from_response(RESPONSE)]
    )
    assert openai_responses.from_payload(BATCH_RESPONSES) == openai_responses.from_request(
        BATCH_RESPONSES["body"]
    )


def test_fine_tuning_line_writes_back_as_one():
    assert openai_chat.to_request(openai_chat.from_payload(FINE_TUNING)) == FINE_TUNING


def test_errors_inside_a_batch_line_are_located():
    line = {**BATCH_CHAT, "body": {"model": "m", "messages": [{"role": "user"}]}}
    with pytest.raises(FormatError) as raised:
        openai_chat.from_payload(line)
    assert str(raised.value) == "body.messages[0]: missing 'content'"
    failed = {"id": "b", "custom_id": "r", "response": None,
              "error": {"code": "x", "message": "rate limited"}}
    with pytest.raises(FormatError) as raised:
        openai_chat.from_payload(failed)
    assert str(raised.value) == (
        "response: a Batch output line without a response body: the request failed: rate limited"
    )


def test_json_text_in_a_str_is_refused_unless_the_source_is_named():
    text = '[{"role": "user", "content": "hi"}]'
    with pytest.raises(FormatError) as raised:
        formats.convert(text, target="openai-chat")
    assert str(raised.value) == (
        "this str is JSON text: pass the value it holds (json.loads), or name the source "
        "format to read the text itself as a message"
    )
    assert formats.convert(text, source="openai-responses", target="openai-chat") == [
        {"role": "user", "content": text}
    ]
    assert formats.convert("[not json", target="openai-chat") == [
        {"role": "user", "content": "[not json"}
    ]


# --- responses and SDK objects -------------------------------------------------------------


def test_chat_from_response_is_the_same_for_an_sdk_object_and_both_dumps():
    sdk = ChatCompletion.model_validate(COMPLETION)
    read = [openai_chat.from_response(value) for value in (
        sdk, sdk.model_dump(), sdk.model_dump(exclude_none=True), COMPLETION
    )]
    assert read[0] == read[1] == read[2] == read[3]
    assert openai_chat.to_payload(read[1]) == [{
        "role": "assistant", "content": None, "refusal": None,
        "tool_calls": COMPLETION["choices"][0]["message"]["tool_calls"],
    }]


def test_responses_from_response_is_the_same_for_an_sdk_object_and_both_dumps():
    sdk = Response.model_validate(RESPONSE)
    read = [openai_responses.from_response(value) for value in (
        sdk, sdk.model_dump(), sdk.model_dump(exclude_none=True), RESPONSE
    )]
    assert read[0] == read[1] == read[2] == read[3]


def test_to_payload_takes_one_message():
    message = ChatMessageContent("user", "hi")
    assert openai_chat.to_payload(message) == [{"role": "user", "content": "hi"}]
    assert openai_responses.to_payload(message) == [{"role": "user", "content": "hi"}]


def test_converted_documents_pass_the_sdk_request_types():
    for body in (CHAT_BODY, FINE_TUNING, BATCH_CHAT["body"]):
        validate_chat_request({"model": "m", **openai_chat.to_request(openai_chat.from_request(body))})
    written, _ = quietly(openai_responses.to_request, openai_chat.from_request(FINE_TUNING))
    validate_responses_request({"model": "m", **written})
    assert json.loads(json.dumps(written)) == written


A_RESPONSES_REQUEST = {
    "model": "gpt-5",
    "input": [{"role": "user", "content": "hi"}],
    "reasoning": {"effort": "low"},
    "store": False,
    "include": ["reasoning.encrypted_content"],
}


def test_convert_keeps_a_responses_request_whole():
    assert formats.convert(A_RESPONSES_REQUEST, target="openai-responses") == A_RESPONSES_REQUEST


def test_convert_writes_a_request_as_the_other_formats_request_and_reports_the_rest():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        written = formats.convert(A_RESPONSES_REQUEST, target="openai-chat")
    assert written == {
        "model": "gpt-5",
        "messages": [{"role": "user", "content": "hi"}],
        "reasoning_effort": "low",
        "store": False,
    }
    assert [str(warning.message) for warning in caught] == [
        "options.extra[\"include\"]: dropped: OpenAI Chat Completions cannot carry the request "
        "field 'include'"
    ]
    with pytest.raises(UnsupportedContentError) as info:
        formats.convert(A_RESPONSES_REQUEST, target="openai-chat", on_unsupported="error")
    assert str(info.value).startswith('options.extra["include"]: ')


def test_convert_of_a_bare_list_stays_a_bare_list():
    assert formats.convert([{"role": "user", "content": "hi"}], target="openai-responses") == [
        {"role": "user", "content": "hi"}
    ]


@pytest.mark.parametrize(
    ("read", "document", "message"),
    [
        (
            openai_chat.from_payload,
            {"model": "claude-x", "max_tokens": 8, "system": "Be brief.", "messages": []},
            "messages: expected a list of messages or a Chat Completions document, "
            "got an Anthropic Messages request",
        ),
        (
            openai_chat.from_payload,
            {"model": "gpt-x", "input": "Hi"},
            "messages: expected a list of messages or a Chat Completions document, "
            "got a Responses request",
        ),
        (
            openai_responses.from_payload,
            {"object": "chat.completion", "choices": []},
            "input: expected a string or a list of items or a Responses document, "
            "got a Chat Completions response",
        ),
        (
            openai_responses.from_payload,
            {"type": "message", "role": "assistant", "content": [], "model": "claude-x"},
            "input: expected a string or a list of items or a Responses document, "
            "got an Anthropic Messages response",
        ),
    ],
)
def test_a_document_of_another_format_is_refused_naming_what_it_is(read, document, message):
    with pytest.raises(FormatError) as caught:
        read(document)
    assert str(caught.value) == message


def test_validate_checks_a_request_bodys_options_as_convert_writes_them():
    body = {
        "model": "claude-x", "max_tokens": 50, "system": "Be brief.",
        "messages": [{"role": "user", "content": "hi"}],
        "thinking": {"type": "enabled", "budget_tokens": 1024},
    }
    assert formats.validate(body, target="openai-chat") == [
        Problem(
            'options.extra["thinking"]',
            "OpenAI Chat Completions cannot carry the request field 'thinking'",
            "warning",
        )
    ]
    chat = {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi", "name": "ann"}]}
    assert formats.validate(chat, target="anthropic") == [
        Problem(
            "max_tokens",
            "Anthropic Messages requires max_tokens: set history.options.max_tokens, or pass "
            "to_request(history, max_tokens=...)",
        ),
        Problem(
            "messages[0].name", "Anthropic Messages cannot carry the name of a user message",
            "warning",
        ),
    ]
