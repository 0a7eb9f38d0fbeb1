"""Conversations moved between Gemini and the other formats: what both carry comes back.

1. A Chat Completions conversation (parallel calls, an image by data URL and one by http URL,
   an error result) becomes a valid Gemini body and comes back with the same calls, results,
   images and text; the ids pair calls with results all the way.
2. An Anthropic tool loop (an image in a tool result, text after the results) does the same.
3. A Gemini conversation without call ids goes to OpenAI (which needs ids: the made-up ones)
   and back: the made-up ids are never written to Gemini, and calls and results still pair,
   even when OpenAI answered them out of order.
4. Signatures are never sent to another provider: a Gemini thought signature (in an item's
   hints), Gemini thoughts, Anthropic thinking and OpenAI encrypted reasoning are each left
   out and reported where they were, with the exact message of each ``on_unsupported``.
"""

from __future__ import annotations

import copy
import json
import warnings

import pytest
from format_helpers import (
    PNG,
    case,
    validate_anthropic_payload,
    validate_anthropic_request,
    validate_chat_payload,
    validate_gemini_payload,
    validate_gemini_request,
    validate_responses_payload,
)

from semantic_chat import (
    ChatHistory,
    ChatMessageContent,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    ReasoningContent,
    TextContent,
)
from semantic_chat.errors import UnsupportedContentError
from semantic_chat.formats import anthropic as anthropic_format
from semantic_chat.formats import gemini as gemini_format
from semantic_chat.formats import openai_chat, openai_responses


def _caught(write):
    """What ``write()`` returns, and the messages of the warnings it gave, in order."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        written = write()
    return written, [str(note.message) for note in caught]


def _calls(history) -> list[tuple[str, str, object]]:
    return [(item.id, item.name, item.parse_arguments()) for message in history
            for item in message.items if isinstance(item, FunctionCallContent)]


def _results(history) -> list[tuple[str, object, bool]]:
    return [(item.call_id, item.result, item.is_error) for message in history
            for item in message.items if isinstance(item, FunctionResultContent)]


WEATHER_PARAMETERS = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "unit": {"type": "string", "enum": ["c", "f"]}},
    "required": ["city"],
}

# --- 1. Chat Completions -> Gemini -> Chat Completions -----------------------------------

CHAT_BODY = {
    "model": "gpt-4o",
    "max_completion_tokens": 512,
    "tools": [{"type": "function", "function": {
        "name": "get_weather", "description": "Current weather",
        "parameters": WEATHER_PARAMETERS}}],
    "messages": [
        {"role": "system", "content": "You are a helpful assistant."},
        {"role": "user", "content": [
            {"type": "text", "text": "Compare the weather in these two places."},
            {"type": "image_url", "image_url": {"url": "data:image/png;base64," + PNG}},
            {"type": "image_url", "image_url": {"url": "https://example.com/oslo.jpg",
                                                "detail": "high"}},
        ]},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_1", "type": "function",
             "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}},
            {"id": "call_2", "type": "function",
             "function": {"name": "get_weather", "arguments": '{"city": "Oslo", "unit": "c"}'}},
        ]},
        {"role": "tool", "tool_call_id": "call_1", "content": "18C, sunny"},
        {"role": "tool", "tool_call_id": "call_2", "content": "Error: service unavailable"},
        {"role": "assistant", "content": "Paris is sunny at 18C; I could not get Oslo."},
        {"role": "user", "content": "Thanks", "name": "ada"},
    ],
}

# The Gemini body: the system prompt as system_instruction; the images as inline_data and as
# file_data (whose mime type says it is an image, as the API requires); the calls with their
# ids and arguments as objects; both results in one user content, named after their calls,
# the error as {"error": ...}; max_completion_tokens in generation_config; the tool as a
# function declaration.
GEMINI_BODY = {
    "model": "gpt-4o",
    "contents": [
        {"role": "user", "parts": [
            {"text": "Compare the weather in these two places."},
            {"inline_data": {"mime_type": "image/png", "data": PNG}},
            {"file_data": {"file_uri": "https://example.com/oslo.jpg",
                           "mime_type": "image/jpeg"}},
        ]},
        {"role": "model", "parts": [
            {"function_call": {"id": "call_1", "name": "get_weather", "args": {"city": "Paris"}}},
            {"function_call": {"id": "call_2", "name": "get_weather",
                               "args": {"city": "Oslo", "unit": "c"}}},
        ]},
        {"role": "user", "parts": [
            {"function_response": {"id": "call_1", "name": "get_weather",
                                   "response": {"result": "18C, sunny"}}},
            {"function_response": {"id": "call_2", "name": "get_weather",
                                   "response": {"error": "service unavailable"}}},
        ]},
        {"role": "model", "parts": [{"text": "Paris is sunny at 18C; I could not get Oslo."}]},
        {"role": "user", "parts": [{"text": "Thanks"}]},
    ],
    "system_instruction": {"parts": [{"text": "You are a helpful assistant."}]},
    "tools": [{"function_declarations": [{
        "name": "get_weather", "description": "Current weather",
        "parameters_json_schema": WEATHER_PARAMETERS}]}],
    "generation_config": {"max_output_tokens": 512},
}


def test_a_chat_conversation_becomes_a_valid_gemini_body():
    history = openai_chat.from_request(CHAT_BODY)
    body, notes = _caught(lambda: gemini_format.to_request(history))
    assert body == GEMINI_BODY
    validate_gemini_request(body)
    # what Gemini has no field for is reported, one warning each
    assert notes == [
        "messages[1].items[2].detail: dropped: Gemini cannot carry an image's detail",
        "messages[6].name: dropped: Gemini cannot carry the name of a user message",
    ]
    with pytest.raises(UnsupportedContentError) as raised:
        gemini_format.to_request(history, on_unsupported="error")
    assert str(raised.value) == (
        "messages[1].items[2].detail: Gemini cannot carry an image's detail "
        "(pass on_unsupported='warn' to leave it out)")


def test_a_chat_conversation_in_camel_case():
    history = openai_chat.from_request(CHAT_BODY)
    body = gemini_format.to_request(history, spelling="camel", on_unsupported="drop")
    validate_gemini_request(body)
    assert body["contents"][0]["parts"][1:] == [
        {"inlineData": {"mimeType": "image/png", "data": PNG}},
        {"fileData": {"fileUri": "https://example.com/oslo.jpg", "mimeType": "image/jpeg"}},
    ]
    assert body["generationConfig"] == {"maxOutputTokens": 512}
    camel, snake = gemini_format.from_request(body), gemini_format.from_request(GEMINI_BODY)
    assert list(camel) == list(snake)  # the messages; the options keep each body's spelling
    assert gemini_format.to_request(camel) == GEMINI_BODY


def test_the_gemini_body_comes_back_to_chat_with_the_same_calls_results_images_and_text():
    history = openai_chat.from_request(CHAT_BODY)
    body = gemini_format.to_request(history, on_unsupported="drop")
    back_history = gemini_format.from_request(body)
    back = openai_chat.to_request(back_history)
    validate_chat_payload(back["messages"])

    # the calls keep their ids, so the results pair with them
    assert _calls(back_history) == [
        ("call_1", "get_weather", {"city": "Paris"}),
        ("call_2", "get_weather", {"city": "Oslo", "unit": "c"}),
    ]
    assert _results(back_history) == [
        ("call_1", "18C, sunny", False),
        ("call_2", "service unavailable", True),
    ]
    # the images: the same bytes and media type, the same URL
    data_image, url_image = back_history[1].images
    assert (data_image.data, data_image.mime_type) == (
        ImageContent.from_base64(PNG, "image/png").data, "image/png")
    assert (type(url_image), url_image.uri) == (ImageContent, "https://example.com/oslo.jpg")
    # the text
    assert [m.text for m in back_history] == [
        "You are a helpful assistant.", "Compare the weather in these two places.", "", "",
        "Paris is sunny at 18C; I could not get Oslo.", "Thanks"]

    # The whole Chat body: the original but for the compact arguments, and the detail and
    # name reported above.
    expected = copy.deepcopy(CHAT_BODY)
    expected["messages"][1]["content"][2]["image_url"].pop("detail")
    expected["messages"][2]["tool_calls"][0]["function"]["arguments"] = '{"city":"Paris"}'
    expected["messages"][2]["tool_calls"][1]["function"]["arguments"] = (
        '{"city":"Oslo","unit":"c"}')
    expected["messages"][6].pop("name")
    assert back == expected


# --- 2. Anthropic -> Gemini -> Anthropic -------------------------------------------------

CITY = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}

ANTHROPIC_BODY = {
    "model": "claude-sonnet-4-5",
    "max_tokens": 1024,
    "system": "You are a careful assistant.",
    "tools": [{"name": "get_weather", "description": "Current weather", "input_schema": CITY},
              {"name": "render_map", "description": "A map of a city", "input_schema": CITY}],
    "messages": [
        {"role": "user", "content": [
            {"type": "text", "text": "What is the weather in Paris, and what does it look like?"},
            {"type": "image", "source": {"type": "base64", "media_type": "image/png",
                                         "data": PNG}},
            {"type": "image", "source": {"type": "url", "url": "https://example.com/paris.png"}},
        ]},
        {"role": "assistant", "content": [
            {"type": "text", "text": "Let me check both."},
            {"type": "tool_use", "id": "toolu_01", "name": "get_weather", "input": {"city": "Paris"}},
            {"type": "tool_use", "id": "toolu_02", "name": "render_map", "input": {"city": "Paris"}},
        ]},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_01", "content": "service unavailable",
             "is_error": True},
            {"type": "tool_result", "tool_use_id": "toolu_02", "content": [
                {"type": "text", "text": "Map of Paris"},
                {"type": "image", "source": {"type": "base64", "media_type": "image/png",
                                             "data": PNG}}]},
            {"type": "text", "text": "What do you see?"},
        ]},
        {"role": "assistant", "content": "No weather, but the map shows the Seine."},
        {"role": "user", "content": "Thanks!"},
    ],
}

# The Gemini contents: the results first (one user content), then the user's text in a content
# of its own; the result with an image as text plus a media part.
GEMINI_OF_ANTHROPIC = [
    {"role": "user", "parts": [
        {"text": "What is the weather in Paris, and what does it look like?"},
        {"inline_data": {"mime_type": "image/png", "data": PNG}},
        {"file_data": {"file_uri": "https://example.com/paris.png", "mime_type": "image/png"}},
    ]},
    {"role": "model", "parts": [
        {"text": "Let me check both."},
        {"function_call": {"id": "toolu_01", "name": "get_weather", "args": {"city": "Paris"}}},
        {"function_call": {"id": "toolu_02", "name": "render_map", "args": {"city": "Paris"}}},
    ]},
    {"role": "user", "parts": [
        {"function_response": {"id": "toolu_01", "name": "get_weather",
                               "response": {"error": "service unavailable"}}},
        {"function_response": {"id": "toolu_02", "name": "render_map",
                               "response": {"result": "Map of Paris"},
                               "parts": [{"inline_data": {"mime_type": "image/png",
                                                          "data": PNG}}]}},
    ]},
    {"role": "user", "parts": [{"text": "What do you see?"}]},
    {"role": "model", "parts": [{"text": "No weather, but the map shows the Seine."}]},
    {"role": "user", "parts": [{"text": "Thanks!"}]},
]


def test_an_anthropic_conversation_becomes_a_valid_gemini_body():
    history = anthropic_format.from_request(ANTHROPIC_BODY)
    body, notes = _caught(lambda: gemini_format.to_request(history))
    assert notes == []
    assert body == {
        "model": "claude-sonnet-4-5",
        "contents": GEMINI_OF_ANTHROPIC,
        "system_instruction": {"parts": [{"text": "You are a careful assistant."}]},
        "tools": [{"function_declarations": [
            {"name": "get_weather", "description": "Current weather",
             "parameters_json_schema": CITY},
            {"name": "render_map", "description": "A map of a city",
             "parameters_json_schema": CITY},
        ]}],
        "generation_config": {"max_output_tokens": 1024},
    }
    validate_gemini_request(body)


def test_the_gemini_body_comes_back_to_anthropic_as_it_was():
    history = anthropic_format.from_request(ANTHROPIC_BODY)
    back_history = gemini_format.from_request(gemini_format.to_request(history))
    assert _calls(back_history) == [("toolu_01", "get_weather", {"city": "Paris"}),
                                    ("toolu_02", "render_map", {"city": "Paris"})]
    error, with_image = [item for message in back_history for item in message.items
                         if isinstance(item, FunctionResultContent)]
    assert (error.call_id, error.result, error.is_error) == (
        "toolu_01", "service unavailable", True)
    text, image = with_image.result
    assert text == TextContent("Map of Paris")
    assert (image.data, image.mime_type) == (ImageContent.from_base64(PNG, "image/png").data,
                                             "image/png")
    back = anthropic_format.to_request(back_history)
    assert back == ANTHROPIC_BODY
    validate_anthropic_request(back)


# --- 3. Gemini without ids -> OpenAI -> Gemini -------------------------------------------

NO_IDS = case("gemini_conformance.json", "parallel_function_calls_user_responses")["payload"]

CHAT_OF_NO_IDS = [
    {"role": "user", "content": "What's the weather in Boston and New York?"},
    {"role": "assistant", "content": None, "tool_calls": [
        {"id": "gemini-call-1-0", "type": "function", "function": {
            "name": "get_weather_by_location", "arguments": '{"location":"Boston"}'}},
        {"id": "gemini-call-1-1", "type": "function", "function": {
            "name": "get_weather_by_location", "arguments": '{"location":"New York"}'}},
    ]},
    {"role": "tool", "tool_call_id": "gemini-call-1-0", "content": "Boston: 45F, windy"},
    {"role": "tool", "tool_call_id": "gemini-call-1-1", "content": "New York: 50F, clear"},
]


def test_made_up_ids_pair_calls_and_results_in_openai():
    messages = openai_chat.to_payload(gemini_format.from_request(NO_IDS))
    assert messages == CHAT_OF_NO_IDS
    validate_chat_payload(messages)


@pytest.mark.parametrize(
    ("write", "read"),
    [(openai_chat.to_payload, openai_chat.from_payload),
     (openai_responses.to_payload, openai_responses.from_payload),
     (anthropic_format.to_payload, anthropic_format.from_payload)],
    ids=["chat", "responses", "anthropic"],
)
def test_made_up_ids_are_never_written_back_to_gemini(write, read):
    there = write(gemini_format.from_request(NO_IDS))
    back = gemini_format.to_payload(read(there))
    # the very contents read: no id on a call or a result
    assert back == {"contents": NO_IDS["contents"]}
    validate_gemini_payload(back)
    reread = gemini_format.from_payload(back)
    assert _results(reread) == [("gemini-call-1-0", "Boston: 45F, windy", False),
                                ("gemini-call-1-1", "New York: 50F, clear", False)]
    assert [call_id for call_id, _, _ in _calls(reread)] == ["gemini-call-1-0",
                                                              "gemini-call-1-1"]


def test_results_answered_out_of_order_still_pair_once_the_ids_are_left_out():
    # OpenAI answered New York first; Gemini pairs results without ids by name and order,
    # so they must be written in the order of their calls.
    swapped = copy.deepcopy(CHAT_OF_NO_IDS)
    swapped[2], swapped[3] = swapped[3], swapped[2]
    back = gemini_format.to_payload(openai_chat.from_payload(swapped))
    validate_gemini_payload(back)
    assert back["contents"][2] == NO_IDS["contents"][2]
    reread = gemini_format.from_payload(back)
    calls = {call_id: arguments["location"] for call_id, _, arguments in _calls(reread)}
    assert sorted((calls[call_id], result) for call_id, result, _ in _results(reread)) == [
        ("Boston", "Boston: 45F, windy"), ("New York", "New York: 50F, clear")]


def test_real_ids_go_both_ways():
    body = case("gemini_conformance.json", "function_call_and_response_with_ids")["payload"]
    messages = openai_chat.to_payload(gemini_format.from_request(body))
    assert messages[1]["tool_calls"][0]["id"] == "function-call-2831741891384417458"
    assert messages[2]["tool_call_id"] == "function-call-2831741891384417458"
    back = gemini_format.to_payload(openai_chat.from_payload(messages))
    assert back == {"contents": body["contents"]}


# --- 4. signatures never go to another provider ------------------------------------------

SIGNED = case("gemini_documented.json", "rest_thought_summary_and_signed_text_camel")["payload"]
SIGNED_CALLS = case("gemini_documented.json",
                    "rest_parallel_calls_signature_on_first_call_camel")["payload"]
SECRETS = [
    "++++/3Rob3VnaHQtc2lnbmF0dXJlLUEAPw==",  # on the first call
    "++++/3Rob3VnaHQtc2lnbmF0dXJlLUQAPw==",  # on the answer's text
    "++++/3Rob3VnaHQtc2lnbmF0dXJlLUUAPw==",  # an empty part's
    "Summing the primes",  # a thought summary
]

CHAT = "OpenAI Chat Completions"
RESPONSES = "OpenAI Responses"
ANTHROPIC = "Anthropic Messages"


def _signature_dropped(format_name: str, where: str) -> str:
    return (f'{where}.metadata["gemini"].thought_signature: dropped: {format_name} cannot carry '
            "a Gemini thought signature (it is only valid with Gemini)")


def _thought_dropped(format_name: str, where: str) -> str:
    detail = {
        CHAT: "OpenAI Chat Completions cannot carry reasoning content in an assistant message",
        RESPONSES: "OpenAI Responses cannot carry reasoning content from gemini (its opaque "
                   "data is only valid there)",
        ANTHROPIC: "Anthropic Messages cannot carry reasoning from another provider "
                   "('gemini'); it is never sent as text",
    }[format_name]
    return f"{where}: dropped: {detail}"


WRITERS = {
    CHAT: (openai_chat.to_payload, validate_chat_payload),
    RESPONSES: (openai_responses.to_payload, validate_responses_payload),
    ANTHROPIC: (anthropic_format.to_payload, validate_anthropic_payload),
}

# What each writer sends of the thought-summary conversation: the text, nothing of the thoughts.
TEXT_TURNS = [
    ("user", "What is the sum of the first 50 prime numbers?"),
    ("assistant", "The sum of the first 50 prime numbers is 5117."),
    ("user", "And of the first 10?"),
    ("assistant", "The sum of the first 10 prime numbers is 129."),
    ("user", "Thanks!"),
]


def _turns(format_name: str, written) -> list[tuple[str, str]]:
    messages = written["messages"] if format_name == ANTHROPIC else written
    return [(message["role"], message["content"]) for message in messages]


@pytest.mark.parametrize("format_name", list(WRITERS))
@pytest.mark.parametrize("on_unsupported", ["warn", None])
def test_gemini_thoughts_and_signatures_are_left_out_and_reported(format_name, on_unsupported):
    history = gemini_format.from_request(SIGNED)
    write, validate = WRITERS[format_name]
    notes = [
        _signature_dropped(format_name, "messages[1].items[1]"),
        _thought_dropped(format_name, "messages[1].items[0]"),
        _thought_dropped(format_name, "messages[3].items[1]"),
    ]
    if on_unsupported is None and format_name != ANTHROPIC:
        # The OpenAI writers refuse reasoning items by default (as they refuse Claude's):
        # the signature was already reported when the thought is refused.
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with pytest.raises(UnsupportedContentError) as raised:
                write(history, on_unsupported=on_unsupported)
        assert [str(note.message) for note in caught] == notes[:1]
        assert str(raised.value) == (
            notes[1].replace(": dropped: ", ": ", 1)
            + " (pass on_unsupported='warn' to leave it out)")
        return
    written, caught = _caught(lambda: write(history, on_unsupported=on_unsupported))
    assert caught == notes
    assert _turns(format_name, written) == TEXT_TURNS
    validate(written)
    text = json.dumps(written)
    assert not [secret for secret in SECRETS if secret in text]


@pytest.mark.parametrize("format_name", list(WRITERS))
def test_gemini_signatures_are_refused_on_error(format_name):
    write, _ = WRITERS[format_name]
    with pytest.raises(UnsupportedContentError) as raised:
        write(gemini_format.from_request(SIGNED), on_unsupported="error")
    assert str(raised.value) == (
        f'messages[1].items[1].metadata["gemini"].thought_signature: {format_name} cannot '
        "carry a Gemini thought signature (it is only valid with Gemini) "
        "(pass on_unsupported='warn' to leave it out)")
    with pytest.raises(UnsupportedContentError) as raised:
        write(gemini_format.from_request(SIGNED_CALLS), on_unsupported="error")
    assert str(raised.value).startswith(
        'messages[1].items[0].metadata["gemini"].thought_signature: ')


@pytest.mark.parametrize("format_name", list(WRITERS))
@pytest.mark.parametrize("on_unsupported", [None, "warn"])
def test_a_signed_gemini_call_goes_out_without_its_signature(format_name, on_unsupported):
    write, validate = WRITERS[format_name]
    written, notes = _caught(lambda: write(gemini_format.from_request(SIGNED_CALLS),
                                           on_unsupported=on_unsupported))
    assert notes == [_signature_dropped(format_name, "messages[1].items[0]")]
    validate(written)
    assert SECRETS[0] not in json.dumps(written)
    # the calls and their results still pair (the result objects are JSON text there)
    back = {CHAT: openai_chat.from_payload, RESPONSES: openai_responses.from_payload,
            ANTHROPIC: anthropic_format.from_payload}[format_name](written)
    assert _results(back) == [("gemini-call-1-0", '{"temp":"15C"}', False),
                              ("gemini-call-1-1", '{"temp":"12C"}', False)]


THINKING_LOOP = case("anthropic_documented.json", "extended_thinking_tool_loop")["payload"]
CLAUDE_DROPPED = ("Gemini cannot carry reasoning from another provider ('anthropic'); it is "
                  "never sent")

GEMINI_OF_THINKING_LOOP = {"contents": [
    {"role": "user", "parts": [{"text": "What's the weather in Paris?"}]},
    {"role": "model", "parts": [
        {"text": "I can help you get the current weather information for Paris. "
                 "Let me check that for you"},
        {"function_call": {"id": "toolu_01CswdEQBMshySk6Y9DFKrfq", "name": "get_weather",
                           "args": {"location": "Paris"}}},
    ]},
    {"role": "user", "parts": [{"function_response": {
        "id": "toolu_01CswdEQBMshySk6Y9DFKrfq", "name": "get_weather",
        "response": {"result": "Current temperature: 88\u00b0F"}}}]},
    {"role": "model", "parts": [{"function_call": {
        "id": "toolu_02", "name": "get_weather", "args": {"location": "Paris, France"}}}]},
    {"role": "user", "parts": [{"function_response": {
        "id": "toolu_02", "name": "get_weather",
        "response": {"result": "Current temperature: 31\u00b0C"}}}]},
]}


@pytest.mark.parametrize("on_unsupported", [None, "warn"])
def test_claude_thinking_is_never_sent_to_gemini(on_unsupported):
    history = anthropic_format.from_request(THINKING_LOOP)
    payload, notes = _caught(lambda: gemini_format.to_payload(history,
                                                             on_unsupported=on_unsupported))
    assert notes == [f"messages[{m}].items[{i}]: dropped: {CLAUDE_DROPPED}"
                     for m, i in ((1, 0), (1, 1), (3, 0))]
    assert payload == GEMINI_OF_THINKING_LOOP
    validate_gemini_payload(payload)
    text = json.dumps(payload)
    for block in THINKING_LOOP["messages"][1]["content"][:2]:
        for secret in (block.get("thinking"), block.get("signature"), block.get("data")):
            if secret:
                assert json.dumps(secret)[1:-1] not in text


def test_claude_thinking_is_refused_by_gemini_on_error():
    history = anthropic_format.from_request(THINKING_LOOP)
    with pytest.raises(UnsupportedContentError) as raised:
        gemini_format.to_payload(history, on_unsupported="error")
    assert str(raised.value) == (
        f"messages[1].items[0]: {CLAUDE_DROPPED} (pass on_unsupported='warn' to leave it out)")


OPENAI_REASONING = [
    {"role": "user", "content": "What's 2+2? Use the calculator."},
    {"type": "reasoning", "id": "rs_1", "encrypted_content": "gAAAAAB...",
     "summary": [{"type": "summary_text", "text": "The user wants a sum; call the tool."}]},
    {"type": "function_call", "call_id": "call_9", "name": "add", "arguments": '{"a": 2, "b": 2}'},
    {"type": "function_call_output", "call_id": "call_9", "output": "4"},
]
OPENAI_DROPPED = ("messages[1].items[0]: dropped: Gemini cannot carry reasoning from another "
                  "provider ('openai'); it is never sent")


@pytest.mark.parametrize("on_unsupported", [None, "warn"])
def test_openai_encrypted_reasoning_is_never_sent_to_gemini(on_unsupported):
    history = openai_responses.from_payload(OPENAI_REASONING)
    payload, notes = _caught(lambda: gemini_format.to_payload(history,
                                                             on_unsupported=on_unsupported))
    assert notes == [OPENAI_DROPPED]
    assert payload == {"contents": [
        {"role": "user", "parts": [{"text": "What's 2+2? Use the calculator."}]},
        {"role": "model", "parts": [{"function_call": {"id": "call_9", "name": "add",
                                                       "args": {"a": 2, "b": 2}}}]},
        {"role": "user", "parts": [{"function_response": {"id": "call_9", "name": "add",
                                                          "response": {"result": "4"}}}]},
    ]}
    assert "gAAAAAB" not in json.dumps(payload)
    assert "The user wants a sum" not in json.dumps(payload)
    validate_gemini_payload(payload)


def test_openai_encrypted_reasoning_is_refused_by_gemini_on_error():
    history = openai_responses.from_payload(OPENAI_REASONING)
    with pytest.raises(UnsupportedContentError) as raised:
        gemini_format.to_payload(history, on_unsupported="error")
    assert str(raised.value) == (
        "messages[1].items[0]: Gemini cannot carry reasoning from another provider ('openai'); "
        "it is never sent (pass on_unsupported='warn' to leave it out)")


def _reasoning_history(*items) -> ChatHistory:
    return ChatHistory([ChatMessageContent("user", "hi"),
                        ChatMessageContent("assistant", items=[*items, TextContent("hello")])])


@pytest.mark.parametrize("on_unsupported", [None, "warn"])
def test_encrypted_reasoning_of_no_named_provider_is_never_sent_either(on_unsupported):
    history = _reasoning_history(ReasoningContent("", encrypted="opaque-blob"))
    payload, notes = _caught(lambda: gemini_format.to_payload(history,
                                                             on_unsupported=on_unsupported))
    assert notes == ["messages[1].items[0]: dropped: Gemini cannot carry encrypted reasoning "
                     "(another provider's); it is never sent"]
    assert payload["contents"][1] == {"role": "model", "parts": [{"text": "hello"}]}
    with pytest.raises(UnsupportedContentError, match=r"^messages\[1\]\.items\[0\]: Gemini "):
        gemini_format.to_payload(history, on_unsupported="error")


def test_gemini_reasoning_is_sent_as_thoughts_and_reasoning_of_no_provider_left_out():
    history = _reasoning_history(ReasoningContent("plain thought"),
                                 ReasoningContent("mine", signature="AAAA", provider="gemini"))
    payload, notes = _caught(lambda: gemini_format.to_payload(history))
    assert notes == ["messages[1].items[0]: dropped: Gemini cannot carry reasoning of no named "
                     "provider (only its own thoughts, provider 'gemini', are sent back); it is "
                     "never sent"]
    assert payload["contents"][1] == {"role": "model", "parts": [
        {"text": "mine", "thought": True, "thought_signature": "AAAA"},
        {"text": "hello"},
    ]}
    validate_gemini_payload(payload)
