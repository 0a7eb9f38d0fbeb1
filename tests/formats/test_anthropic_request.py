"""Anthropic Messages request bodies and documents: options, conversions, detection.

``from_request`` / ``to_request`` give a body back exactly, with its settings as
``ChatOptions``; ``formats.convert`` moves bodies between Anthropic and the OpenAI formats,
reporting what the target cannot carry; ``formats.detect`` and ``from_payload`` know every
Anthropic document (a body, ``{"system", "messages"}``, a response, Message Batches lines).
"""

from __future__ import annotations

import copy
import warnings

import pytest
from anthropic.types import Message
from format_helpers import validate_anthropic_request

from semantic_chat import (
    ChatHistory,
    ChatMessageContent,
    ChatOptions,
    FinishReason,
    FunctionCallContent,
    FunctionResultContent,
    TextContent,
    formats,
)
from semantic_chat.errors import FormatError, InvalidTypeError, UnsupportedContentError
from semantic_chat.formats import ConversionWarning, anthropic, documents

WEATHER_TOOL = {
    "name": "get_weather",
    "description": "Weather in a city",
    "input_schema": {"type": "object", "properties": {"city": {"type": "string"}},
                     "required": ["city"]},
    "cache_control": {"type": "ephemeral"},
}
WEB_SEARCH = {"type": "web_search_20250305", "name": "web_search", "max_uses": 3}
BODY = {
    "model": "claude-sonnet-4-5",
    "max_tokens": 2048,
    "system": [{"type": "text", "text": "You answer briefly.",
                "cache_control": {"type": "ephemeral"}}],
    "messages": [{"role": "user", "content": "Weather in Paris?"}],
    "tools": [WEATHER_TOOL, WEB_SEARCH],
    "tool_choice": {"type": "auto", "disable_parallel_tool_use": True},
    "thinking": {"type": "enabled", "budget_tokens": 1024},
    "temperature": 1,
    "top_p": 0.9,
    "top_k": 40,
    "stop_sequences": ["END", "STOP"],
    "metadata": {"user_id": "u-123"},
    "service_tier": "auto",
}
# The SDK no longer declares these three; callers send them as extra_body.
EXTRA_BODY = ("temperature", "top_p", "top_k")


def _caught(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call()
    return result, [str(note.message) for note in caught]


# --- from_request / to_request -------------------------------------------------------------


def test_a_body_reads_into_options_and_writes_back_exactly():
    history = anthropic.from_request(copy.deepcopy(BODY))
    assert history.options == ChatOptions(
        model="claude-sonnet-4-5",
        max_tokens=2048,
        tools=[WEATHER_TOOL, WEB_SEARCH],
        tool_choice="auto",
        parallel_tool_calls=False,
        temperature=1,
        top_p=0.9,
        stop=["END", "STOP"],
        extra={"thinking": {"type": "enabled", "budget_tokens": 1024}, "top_k": 40,
               "metadata": {"user_id": "u-123"}, "service_tier": "auto"},
    )
    assert [(m.role, m.text) for m in history] == [
        ("system", "You answer briefly."), ("user", "Weather in Paris?")
    ]
    written = anthropic.to_request(history)
    assert written == BODY
    assert list(written)[:4] == ["model", "max_tokens", "system", "messages"]
    validate_anthropic_request(written, EXTRA_BODY)


def test_a_streaming_body_writes_back_exactly_and_validates():
    body = {"model": "claude-haiku-4-5", "max_tokens": 64, "stream": True,
            "messages": [{"role": "user", "content": "Hi"}]}
    history = anthropic.from_request(body)
    assert history.options.extra == {"stream": True}
    assert anthropic.to_request(history) == body
    validate_anthropic_request(anthropic.to_request(history))


@pytest.mark.parametrize(("choice", "option", "parallel"), [
    ({"type": "auto"}, "auto", None),
    ({"type": "any"}, "required", None),
    ({"type": "none"}, "none", None),
    ({"type": "tool", "name": "get_weather"}, {"type": "function", "name": "get_weather"}, None),
    ({"type": "any", "disable_parallel_tool_use": True}, "required", False),
    ({"type": "auto", "disable_parallel_tool_use": False}, "auto", True),
    ({"type": "tool", "name": "get_weather", "disable_parallel_tool_use": True},
     {"type": "function", "name": "get_weather"}, False),
])
def test_tool_choice_variants_read_as_options_and_write_back(choice, option, parallel):
    body = {"model": "claude-sonnet-4-5", "max_tokens": 16, "tools": [WEATHER_TOOL],
            "tool_choice": choice, "messages": [{"role": "user", "content": "x"}]}
    options = anthropic.from_request(body).options
    assert (options.tool_choice, options.parallel_tool_calls) == (option, parallel)
    assert anthropic.to_request(anthropic.from_request(body)) == body
    validate_anthropic_request(anthropic.to_request(anthropic.from_request(body)))


def test_a_tool_choice_of_a_newer_shape_is_kept_as_given():
    choice = {"type": "tool", "name": "f", "strength": "high"}
    body = {"max_tokens": 16, "tool_choice": choice, "messages": []}
    history = anthropic.from_request(body)
    assert (history.options.tool_choice, history.options.parallel_tool_calls) == (choice, None)
    assert anthropic.to_request(history) == body


def test_system_and_messages_alone_have_no_options():
    payload = {"system": "Be brief.", "messages": [{"role": "user", "content": "hi"}]}
    history = anthropic.from_request(payload)
    assert history.options is None
    assert anthropic.to_payload(history) == payload
    assert anthropic.from_payload(payload) == history


def test_bedrock_body_keeps_anthropic_version_and_has_no_model():
    body = {"anthropic_version": "bedrock-2023-05-31", "max_tokens": 100,
            "messages": [{"role": "user", "content": "hi"}]}
    history = anthropic.from_payload(body)
    assert history.options == ChatOptions(max_tokens=100,
                                          extra={"anthropic_version": "bedrock-2023-05-31"})
    assert anthropic.to_request(history) == body


def test_to_request_needs_max_tokens_and_says_how_to_give_it():
    history = ChatHistory([ChatMessageContent("user", "hi")])
    with pytest.raises(FormatError) as raised:
        anthropic.to_request(history)
    assert str(raised.value) == (
        "max_tokens: Anthropic Messages requires max_tokens: set history.options.max_tokens, "
        "or pass to_request(history, max_tokens=...)"
    )
    assert anthropic.to_request(history, max_tokens=50) == {
        "max_tokens": 50, "messages": [{"role": "user", "content": "hi"}]
    }
    history.options = ChatOptions(model="claude-haiku-4-5", max_tokens=10)
    assert anthropic.to_request(history, max_tokens=50)["max_tokens"] == 50  # the keyword wins
    assert anthropic.to_request(history)["max_tokens"] == 10
    with pytest.raises(InvalidTypeError, match=r"^max_tokens: expected an int"):
        anthropic.to_request(history, max_tokens="50")  # type: ignore[arg-type]


def test_to_request_takes_merge_consecutive():
    history = ChatHistory([ChatMessageContent("user", "a"), ChatMessageContent("user", "b")],
                          )
    history.options = ChatOptions(max_tokens=5)
    assert anthropic.to_request(history)["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}
    ]
    with pytest.raises(FormatError, match=r"^messages\[1\]"):
        anthropic.to_request(history, merge_consecutive=False)


@pytest.mark.parametrize(("body", "message"), [
    ("hi", "request: expected an object or a provider SDK model, got str"),
    ([], "request: expected a request object, got list"),
    ({"model": "m"}, "request: missing 'messages'"),
    ({"messages": "hi"}, "messages: expected a list of messages, got str"),
    ({"messages": [], "stop_sequences": ["a", 5]}, "stop_sequences[1]: expected a str, got int"),
    ({"messages": [], "stop_sequences": 5},
     "stop_sequences: expected a str, a list of str or None, got int"),
    ({"messages": [], "temperature": "hot"}, "temperature: expected a number or None, got str"),
    ({"messages": [], "max_tokens": 1.5}, "max_tokens: expected an int or None, got float"),
    ({"messages": [], "tool_choice": "auto"},
     "tool_choice: expected a tool choice object, got str"),
    ({"messages": [], "tool_choice": {"name": "f"}}, "tool_choice: missing 'type'"),
    ({"messages": [], "tool_choice": {"type": "tool", "name": 5}},
     "tool_choice.name: expected str, got int"),
    ({"messages": [], "tool_choice": {"type": "auto", "disable_parallel_tool_use": "yes"}},
     "tool_choice.disable_parallel_tool_use: expected bool, got str"),
    ({"messages": [{"role": "system", "content": "x"}]},
     "messages[0].role: Anthropic Messages has no role 'system'"),
    ({"system": {"type": "text", "text": "x"}, "messages": []},
     "system: expected a string or a list of text blocks, got dict"),
])
def test_a_malformed_body_is_located(body, message):
    with pytest.raises(FormatError) as raised:
        anthropic.from_request(body)
    assert str(raised.value) == message


# --- converting bodies between formats ----------------------------------------------------


def test_an_anthropic_body_becomes_a_chat_completions_body_with_the_losses_reported():
    written, notes = _caught(lambda: formats.convert(copy.deepcopy(BODY), target="openai-chat"))
    assert written == {
        "model": "claude-sonnet-4-5",
        "messages": [{"role": "system", "content": "You answer briefly."},
                     {"role": "user", "content": "Weather in Paris?"}],
        "tools": [{"type": "function", "function": {
            "name": "get_weather", "description": "Weather in a city",
            "parameters": WEATHER_TOOL["input_schema"]}}],
        "tool_choice": "auto",
        "parallel_tool_calls": False,
        "temperature": 1,
        "top_p": 0.9,
        "max_completion_tokens": 2048,
        "stop": ["END", "STOP"],
        "top_k": 40,  # a vendor extension OpenAI-compatible servers take: written as it is
        "metadata": {"user_id": "u-123"},
        "service_tier": "auto",
    }
    assert notes == [
        "options.tools[0].cache_control: dropped: OpenAI Chat Completions cannot carry the "
        "tool field 'cache_control'",
        'options.tools[1]: dropped: OpenAI Chat Completions cannot carry a '
        '"web_search_20250305" tool',
        "options.extra[\"thinking\"]: dropped: OpenAI Chat Completions cannot carry the "
        "request field 'thinking'",
    ]


def test_an_anthropic_body_becomes_a_responses_body_with_the_losses_reported():
    written, notes = _caught(
        lambda: formats.convert(copy.deepcopy(BODY), target="openai-responses")
    )
    assert written == {
        "model": "claude-sonnet-4-5",
        "input": [{"role": "system", "content": "You answer briefly."},
                  {"role": "user", "content": "Weather in Paris?"}],
        "tools": [{"type": "function", "name": "get_weather", "description": "Weather in a city",
                   "parameters": WEATHER_TOOL["input_schema"], "strict": False}],
        "tool_choice": "auto",
        "parallel_tool_calls": False,
        "temperature": 1,
        "top_p": 0.9,
        "max_output_tokens": 2048,
        "top_k": 40,
        "metadata": {"user_id": "u-123"},
        "service_tier": "auto",
    }
    assert notes == [
        "options.tools[0].cache_control: dropped: OpenAI Responses cannot carry the tool field "
        "'cache_control'",
        'options.tools[1]: dropped: OpenAI Responses cannot carry a "web_search_20250305" tool',
        "options.stop: dropped: OpenAI Responses cannot carry the option 'stop'",
        "options.extra[\"thinking\"]: dropped: OpenAI Responses cannot carry the request field "
        "'thinking'",
    ]


def test_a_named_tool_choice_travels_to_both_openai_formats():
    body = {"model": "claude-sonnet-4-5", "max_tokens": 16, "tools": [WEATHER_TOOL],
            "tool_choice": {"type": "tool", "name": "get_weather"},
            "messages": [{"role": "user", "content": "x"}]}
    chat = formats.convert(body, target="openai-chat", on_unsupported="drop")
    responses = formats.convert(body, target="openai-responses", on_unsupported="drop")
    assert chat["tool_choice"] == {"type": "function", "function": {"name": "get_weather"}}
    assert responses["tool_choice"] == {"type": "function", "name": "get_weather"}
    assert formats.convert(chat, target="anthropic")["tool_choice"] == body["tool_choice"]
    assert formats.convert(responses, target="anthropic")["tool_choice"] == body["tool_choice"]


CHAT_BODY = {
    "model": "gpt-4o",
    "messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "hi"}],
    "tools": [{"type": "function", "function": {
        "name": "get_weather", "description": "Weather in a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
        "strict": True,
    }}],
    "tool_choice": "required",
    "parallel_tool_calls": False,
    "temperature": 0.2,
    "max_completion_tokens": 100,
    "stop": "END",
    "seed": 7,
    "store": True,
    "metadata": {"team": "a"},
    "response_format": {"type": "json_object"},
}


def test_a_chat_completions_body_becomes_an_anthropic_body_with_the_losses_reported():
    written, notes = _caught(lambda: formats.convert(CHAT_BODY, target="anthropic"))
    assert written == {
        "model": "gpt-4o",
        "max_tokens": 100,
        "system": "Be brief.",
        "messages": [{"role": "user", "content": "hi"}],
        "tools": [{"name": "get_weather", "description": "Weather in a city",
                   "input_schema": {"type": "object",
                                    "properties": {"city": {"type": "string"}}},
                   "strict": True}],
        "tool_choice": {"type": "any", "disable_parallel_tool_use": True},
        "temperature": 0.2,
        "stop_sequences": ["END"],
    }
    assert notes == [
        "options.seed: dropped: Anthropic Messages cannot carry the option 'seed'",
        "options.extra[\"store\"]: dropped: Anthropic Messages cannot carry the request field "
        "'store'",
        "options.extra[\"metadata\"][\"team\"]: dropped: Anthropic Messages cannot carry "
        "the metadata key 'team' (it takes 'user_id' only)",
        "options.extra[\"response_format\"]: dropped: Anthropic Messages cannot carry the "
        "request field 'response_format'",
    ]
    validate_anthropic_request(written, EXTRA_BODY)
    with pytest.raises(UnsupportedContentError, match=r"^options\.seed: "):
        formats.convert(CHAT_BODY, target="anthropic", on_unsupported="error")


RESPONSES_BODY = {
    "model": "o4-mini",
    "instructions": "Be brief.",
    "input": "hi",
    "tools": [
        {"type": "function", "name": "get_weather", "parameters": {"type": "object"}},
        {"type": "web_search"},
        {"type": "function", "name": "ping"},
    ],
    "tool_choice": {"type": "function", "name": "get_weather"},
    "max_output_tokens": 100,
    "reasoning": {"effort": "low"},
    "include": ["reasoning.encrypted_content"],
}


def test_a_responses_body_becomes_an_anthropic_body_with_the_losses_reported():
    written, notes = _caught(lambda: formats.convert(RESPONSES_BODY, target="anthropic"))
    assert written == {
        "model": "o4-mini",
        "max_tokens": 100,
        "system": "Be brief.",
        "messages": [{"role": "user", "content": "hi"}],
        "tools": [{"name": "get_weather", "input_schema": {"type": "object"}},
                  {"name": "ping", "input_schema": {"type": "object", "properties": {}}}],
        "tool_choice": {"type": "tool", "name": "get_weather"},
    }
    assert notes == [
        'options.tools[1]: dropped: Anthropic Messages cannot carry a "web_search" tool',
        "options.reasoning_effort: dropped: Anthropic Messages cannot carry the option "
        "'reasoning_effort'",
        "options.extra[\"include\"]: dropped: Anthropic Messages cannot carry the request "
        "field 'include'",
    ]
    validate_anthropic_request(written)


def test_an_openai_body_without_max_tokens_cannot_become_an_anthropic_request():
    body = {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}]}
    with pytest.raises(FormatError, match=r"^max_tokens: Anthropic Messages requires max_tokens"):
        formats.convert(body, target="anthropic")


def test_a_tool_loop_converts_from_chat_completions_and_back():
    chat = [
        {"role": "user", "content": "Weather in Paris and Rome?"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_1", "type": "function",
             "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}},
            {"id": "call_2", "type": "function",
             "function": {"name": "get_weather", "arguments": '{"city": "Rome"}'}},
        ]},
        {"role": "tool", "tool_call_id": "call_1", "content": "18 C"},
        {"role": "tool", "tool_call_id": "call_2", "content": "Error: no data"},
    ]
    written = formats.convert(chat, target="anthropic")
    assert written == {"messages": [
        {"role": "user", "content": "Weather in Paris and Rome?"},
        {"role": "assistant", "content": [
            {"type": "tool_use", "id": "call_1", "name": "get_weather", "input": {"city": "Paris"}},
            {"type": "tool_use", "id": "call_2", "name": "get_weather", "input": {"city": "Rome"}},
        ]},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "call_1", "content": "18 C"},
            {"type": "tool_result", "tool_use_id": "call_2", "content": "no data",
             "is_error": True},
        ]},
    ]}
    assert formats.detect(written) == "anthropic"
    back = formats.convert(written, target="openai-chat")
    # The same calls, results and text; arguments come back as compact JSON text (Anthropic
    # carries them as an object).
    chat[1]["tool_calls"][0]["function"]["arguments"] = '{"city":"Paris"}'
    chat[1]["tool_calls"][1]["function"]["arguments"] = '{"city":"Rome"}'
    assert back == chat


def test_a_thinking_tool_loop_goes_to_responses_and_back_keeping_what_it_can():
    body = {
        "model": "claude-sonnet-4-5", "max_tokens": 4096,
        "thinking": {"type": "enabled", "budget_tokens": 2048},
        "tools": [{"name": "get_weather", "input_schema": {"type": "object"}}],
        "messages": [
            {"role": "user", "content": "Weather in Paris?"},
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": "Need the tool.", "signature": "sig1"},
                {"type": "tool_use", "id": "toolu_1", "name": "get_weather",
                 "input": {"city": "Paris"}}]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "toolu_1", "content": "18 C"}]},
        ],
    }
    with pytest.raises(UnsupportedContentError, match=r"^messages\[1\]\.items\[0\]: "):
        formats.convert(body, target="openai-responses")  # thinking is an item: refused
    responses, notes = _caught(
        lambda: formats.convert(body, target="openai-responses", on_unsupported="warn")
    )
    assert notes == [
        "messages[1].items[0]: dropped: OpenAI Responses cannot carry reasoning content from "
        "anthropic (its opaque data is only valid there)",
        "options.extra[\"thinking\"]: dropped: OpenAI Responses cannot carry the request field "
        "'thinking'",
    ]
    assert responses == {
        "model": "claude-sonnet-4-5",
        "input": [
            {"role": "user", "content": "Weather in Paris?"},
            {"type": "function_call", "call_id": "toolu_1", "name": "get_weather",
             "arguments": '{"city":"Paris"}'},
            {"type": "function_call_output", "call_id": "toolu_1", "output": "18 C"},
        ],
        "tools": [{"type": "function", "name": "get_weather", "parameters": {"type": "object"},
                   "strict": False}],
        "max_output_tokens": 4096,
    }
    back, notes = _caught(lambda: formats.convert(responses, target="anthropic"))
    assert notes == []
    assert back == {
        **{key: value for key, value in body.items() if key != "thinking"},
        "messages": [body["messages"][0],
                     {"role": "assistant", "content": body["messages"][1]["content"][1:]},
                     body["messages"][2]],
    }


# --- detection ---------------------------------------------------------------------------


USER = {"role": "user", "content": "Hi"}
RESPONSE = {
    "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-haiku-4-5",
    "content": [{"type": "text", "text": "Hello"}], "stop_reason": "end_turn",
    "stop_sequence": None, "usage": {"input_tokens": 5, "output_tokens": 2},
}
BATCH_LINE = {"custom_id": "req-1", "params": {"model": "claude-haiku-4-5", "max_tokens": 16,
                                               "messages": [USER]}}
RESULT_LINE = {"custom_id": "req-1", "result": {"type": "succeeded", "message": RESPONSE}}


@pytest.mark.parametrize(("payload", "name"), [
    ([USER], "openai-chat"),
    ([{"role": "user", "content": [{"type": "text", "text": "Hi"}]}], "openai-chat"),
    ({"model": "gpt-4o", "max_tokens": 16, "messages": [USER]}, "openai-chat"),
    ({"model": "claude-haiku-4-5", "messages": [USER]}, "openai-chat"),
    ({"model": "claude-haiku-4-5", "max_tokens": 16, "messages": [USER]}, "anthropic"),
    ({"system": "Be brief.", "messages": [USER]}, "anthropic"),
    ({"system": "Be brief.", "messages": []}, "anthropic"),
    ({"model": "m", "max_tokens": 16, "stop_sequences": ["x"], "messages": [USER]}, "anthropic"),
    ({"model": "m", "max_tokens": 16, "top_k": 5, "messages": [USER]}, "anthropic"),
    ({"model": "m", "max_tokens": 16, "thinking": {"type": "adaptive"}, "messages": [USER]},
     "anthropic"),
    ({"anthropic_version": "bedrock-2023-05-31", "max_tokens": 16, "messages": [USER]},
     "anthropic"),
    ([USER, {"role": "assistant", "content": [
        {"type": "tool_use", "id": "t", "name": "f", "input": {}}]}], "anthropic"),
    ([{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t",
                                     "content": "x"}]}], "anthropic"),
    ([{"role": "assistant", "content": [{"type": "thinking", "thinking": "h",
                                          "signature": "s"}]}], "anthropic"),
    ([{"role": "user", "content": [{"type": "image", "source": {
        "type": "url", "url": "https://x.test/a.png"}}]}], "anthropic"),
    ([{"role": "user", "content": [{"type": "document", "source": {
        "type": "file", "file_id": "file_1"}}]}], "anthropic"),
    (RESPONSE, "anthropic"),
    (BATCH_LINE, "anthropic"),
    (RESULT_LINE, "anthropic"),
    ([{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "u"}}]}],
     "openai-chat"),
    ([{"role": "system", "content": "x"}, USER], "openai-chat"),
    ({"model": "gpt-4o", "input": "hi"}, "openai-responses"),
])
def test_detect(payload, name):
    assert formats.detect(payload) == name


def test_document_kinds():
    assert documents.kind_of(BATCH_LINE) == "anthropic_batch"
    assert documents.kind_of(RESULT_LINE) == "anthropic_batch_result"
    assert documents.kind_of(RESPONSE) == "anthropic_response"
    assert documents.kind_of({"system": "s", "messages": []}) == "anthropic_request"
    assert documents.kind_of({"model": "claude-x", "max_tokens": 1, "messages": [USER]}) == (
        "chat_request"  # reads alike in both: the scores decide
    )
    assert documents.is_request({"system": "s", "messages": []})
    # a Responses message item is not an Anthropic response
    assert documents.kind_of({"type": "message", "role": "assistant", "content": []}) is None


# --- from_payload on every document kind --------------------------------------------------


def _hello():
    return ChatHistory([ChatMessageContent("user", "Hi")])


def test_from_payload_reads_a_messages_list():
    assert anthropic.from_payload([USER]) == _hello()
    assert anthropic.from_payload((USER,)) == _hello()


def test_from_payload_reads_a_request_body_and_a_batch_line_alike():
    body = anthropic.from_payload(BATCH_LINE["params"])
    assert body == anthropic.from_request(BATCH_LINE["params"])
    assert body.options == ChatOptions(model="claude-haiku-4-5", max_tokens=16)
    assert anthropic.from_payload(BATCH_LINE) == body


def test_from_payload_reads_a_response_and_a_results_line_as_one_message():
    (reply,) = anthropic.from_payload(RESPONSE)
    assert reply == anthropic.from_response(RESPONSE)
    assert (reply.id, reply.finish_reason, reply.text) == ("msg_1", FinishReason.STOP, "Hello")
    (from_line,) = anthropic.from_payload(RESULT_LINE)
    assert from_line == reply


def test_from_payload_reads_a_fine_tuning_line_and_an_openai_batch_line():
    line = {"messages": [USER]}
    assert anthropic.from_payload(line) == _hello()
    batch = {"custom_id": "c", "method": "POST", "url": "/v1/chat/completions", "body": line}
    assert anthropic.from_payload(batch) == _hello()


def test_from_payload_takes_sdk_objects():
    (reply,) = anthropic.from_payload(Message.model_validate(RESPONSE))
    assert reply.text == "Hello"
    assert reply.id == "msg_1"


def test_from_payload_locates_errors_inside_a_batch_line():
    line = {"custom_id": "c", "params": {"max_tokens": 1, "messages": [{"role": "robot",
                                                                        "content": "x"}]}}
    with pytest.raises(FormatError) as raised:
        anthropic.from_payload(line)
    assert str(raised.value) == "params.messages[0].role: Anthropic Messages has no role 'robot'"


@pytest.mark.parametrize(("result", "message"), [
    ({"type": "errored", "error": {"type": "error", "error": {
        "type": "invalid_request_error", "message": "max_tokens: Field required"}}},
     "result: a Message Batches result without a message (errored): max_tokens: Field required"),
    ({"type": "expired"}, "result: a Message Batches result without a message (expired)"),
])
def test_a_results_line_without_a_message_says_why(result, message):
    with pytest.raises(FormatError) as raised:
        anthropic.from_payload({"custom_id": "c", "result": result})
    assert str(raised.value) == message


@pytest.mark.parametrize(("payload", "got"), [
    ({"object": "chat.completion", "choices": []}, "a Chat Completions response"),
    ({"model": "gpt-4o", "input": "hi"}, "a Responses request"),
    ({"object": "response", "output": []}, "a Responses response"),
])
def test_from_payload_refuses_an_openai_document(payload, got):
    with pytest.raises(FormatError) as raised:
        anthropic.from_payload(payload)
    assert str(raised.value) == (
        f"messages: expected a list of messages or an Anthropic Messages document, got {got}"
    )


def test_from_payload_refuses_what_is_no_document():
    with pytest.raises(FormatError, match=r"^messages: expected a list of messages, got dict"):
        anthropic.from_payload({"hello": "world"})


def test_to_payload_takes_one_message():
    message = ChatMessageContent("assistant", items=[
        TextContent("Let me check."), FunctionCallContent("t1", "f", {"a": 1}),
    ])
    assert anthropic.to_payload(message) == {"messages": [{"role": "assistant", "content": [
        {"type": "text", "text": "Let me check."},
        {"type": "tool_use", "id": "t1", "name": "f", "input": {"a": 1}},
    ]}]}


def test_a_result_alone_is_a_user_turn():
    history = ChatHistory([ChatMessageContent("tool", items=[FunctionResultContent("t1", "ok")])])
    assert anthropic.to_payload(history) == {"messages": [{"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "t1", "content": "ok"}]}]}


# --- Batch envelopes between providers ------------------------------------------------------


def test_an_anthropic_batch_line_moves_to_openais_envelope_and_back():
    unwrapped = documents.unwrap(BATCH_LINE)
    assert (unwrapped.body, unwrapped.path) == (BATCH_LINE["params"], "params")
    chat = unwrapped.wrap({"model": "m", "messages": [USER]}, "openai-chat")
    assert chat == {"custom_id": "req-1", "method": "POST", "url": "/v1/chat/completions",
                    "body": {"model": "m", "messages": [USER]}}
    again = documents.unwrap(chat).wrap(BATCH_LINE["params"], "anthropic")
    assert again == BATCH_LINE
    assert documents.unwrap(BATCH_LINE).wrap({"version": 1}, "semantic-chat") == {
        "custom_id": "req-1", "params": {"version": 1}
    }


def test_a_results_line_keeps_its_envelope():
    unwrapped = documents.unwrap(RESULT_LINE)
    assert (unwrapped.body, unwrapped.path) == (RESPONSE, "result.message")
    assert unwrapped.wrap([USER], "openai-chat") == {
        "custom_id": "req-1", "result": {"type": "succeeded", "message": [USER]}
    }


@pytest.mark.parametrize(("target", "name"), [
    ("openai-chat", "OpenAI Chat Completions"), ("openai-responses", "OpenAI Responses"),
])
def test_a_service_tier_only_anthropic_takes_is_reported_in_an_openai_request(target, name):
    body = {"model": "claude-x", "max_tokens": 50, "messages": [{"role": "user", "content": "hi"}],
            "service_tier": "standard_only"}
    with pytest.warns(ConversionWarning) as caught:
        written = formats.convert(body, target=target)
    assert "service_tier" not in written
    assert [str(warning.message) for warning in caught] == [
        f'options.extra["service_tier"]: dropped: {name} cannot carry the request field '
        "'service_tier' with Anthropic's value 'standard_only'"
    ]
    shared = formats.convert({**body, "service_tier": "auto"}, target=target)
    assert shared["service_tier"] == "auto"
