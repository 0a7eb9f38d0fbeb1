"""Conversations moved between OpenAI and Anthropic: what both carry comes back, the rest is reported.

1. A Chat Completions conversation (parallel tool calls, images by data URL and http URL, an
   error result) becomes a valid Anthropic body and comes back with the same calls, results,
   images and text.
2. A Claude tool loop with thinking (signatures, a redacted block) goes to OpenAI Responses
   and back: text, calls and results are kept; the thinking, which Responses cannot take from
   another provider, is reported under each ``on_unsupported`` and never sent as text. The
   other way round, OpenAI reasoning is never sent to Anthropic as text either.
3. Citations: an Anthropic web search citation becomes a Responses ``url_citation``; what an
   annotation cannot hold (the quoted text, a ``char_location``) is reported.
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
    validate_responses_payload,
)

from semantic_chat import (
    Citation,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
)
from semantic_chat.errors import UnsupportedContentError
from semantic_chat.formats import anthropic as anthropic_format
from semantic_chat.formats import openai_chat, openai_responses

DOCUMENTED = "anthropic_documented.json"


def _caught(write):
    """What ``write()`` returns, and the messages of the warnings it gave, in order."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        written = write()
    return written, [str(note.message) for note in caught]


# --- 1. Chat Completions -> Anthropic -> Chat Completions --------------------------------

WEATHER_PARAMETERS = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "unit": {"type": "string", "enum": ["c", "f"]}},
    "required": ["city"],
}

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

# What the Anthropic body must be: system on top, both calls in one assistant turn with their
# arguments as objects, both results first in one user turn, the error as the flag (the Chat
# reader took the "Error: " prefix off), the images as a base64 and a url source, the tool
# reshaped (input_schema), max_completion_tokens as max_tokens.
ANTHROPIC_BODY = {
    "model": "gpt-4o",
    "max_tokens": 512,
    "system": "You are a helpful assistant.",
    "tools": [{"name": "get_weather", "description": "Current weather",
               "input_schema": WEATHER_PARAMETERS}],
    "messages": [
        {"role": "user", "content": [
            {"type": "text", "text": "Compare the weather in these two places."},
            {"type": "image", "source": {"type": "base64", "media_type": "image/png",
                                         "data": PNG}},
            {"type": "image", "source": {"type": "url", "url": "https://example.com/oslo.jpg"}},
        ]},
        {"role": "assistant", "content": [
            {"type": "tool_use", "id": "call_1", "name": "get_weather",
             "input": {"city": "Paris"}},
            {"type": "tool_use", "id": "call_2", "name": "get_weather",
             "input": {"city": "Oslo", "unit": "c"}},
        ]},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "call_1", "content": "18C, sunny"},
            {"type": "tool_result", "tool_use_id": "call_2", "content": "service unavailable",
             "is_error": True},
        ]},
        {"role": "assistant", "content": "Paris is sunny at 18C; I could not get Oslo."},
        {"role": "user", "content": "Thanks"},
    ],
}


def test_a_chat_conversation_becomes_a_valid_anthropic_body():
    history = openai_chat.from_request(CHAT_BODY)
    body, notes = _caught(lambda: anthropic_format.to_request(history))
    assert body == ANTHROPIC_BODY
    validate_anthropic_request(body)
    # what Anthropic has no field for is reported, one warning each
    assert notes == [
        "messages[1].items[2].detail: dropped: Anthropic Messages cannot carry an image's "
        "detail",
        "messages[6].name: dropped: Anthropic Messages cannot carry the name of a user message",
    ]
    with pytest.raises(UnsupportedContentError) as raised:
        anthropic_format.to_request(history, on_unsupported="error")
    assert str(raised.value) == (
        "messages[1].items[2].detail: Anthropic Messages cannot carry an image's detail "
        "(pass on_unsupported='warn' to leave it out)")


def test_the_anthropic_body_comes_back_to_chat_with_the_same_calls_results_images_and_text():
    history = openai_chat.from_request(CHAT_BODY)
    body = anthropic_format.to_request(history, on_unsupported="drop")
    back_history = anthropic_format.from_request(body)
    back = openai_chat.to_request(back_history)
    validate_chat_payload(back["messages"])

    # the calls: ids, names, parsed arguments (the text is now compact JSON)
    original = openai_chat.from_request(CHAT_BODY)
    calls = [item for message in back_history for item in message.items
             if isinstance(item, FunctionCallContent)]
    assert [(c.id, c.name, c.parse_arguments()) for c in calls] == [
        ("call_1", "get_weather", {"city": "Paris"}),
        ("call_2", "get_weather", {"city": "Oslo", "unit": "c"}),
    ]
    assert [(c.id, c.name, c.parse_arguments()) for c in original[2].function_calls] == [
        (c.id, c.name, c.parse_arguments()) for c in calls]
    # the results: call ids, content, the error flag
    results = [item for message in back_history for item in message.items
               if isinstance(item, FunctionResultContent)]
    assert [(r.call_id, r.result, r.is_error, r.name) for r in results] == [
        ("call_1", "18C, sunny", False, "get_weather"),
        ("call_2", "service unavailable", True, "get_weather"),
    ]
    # the images: the same bytes and media type, the same URL (its detail was reported)
    data_image, url_image = back_history[1].images
    assert (data_image.data, data_image.mime_type) == (
        ImageContent.from_base64(PNG, "image/png").data, "image/png")
    assert url_image == ImageContent(uri="https://example.com/oslo.jpg")
    # the text
    assert [m.text for m in back_history] == [
        "You are a helpful assistant.", "Compare the weather in these two places.", "", "",
        "Paris is sunny at 18C; I could not get Oslo.", "Thanks"]

    # The whole Chat body: the original but for the compact arguments, the "Error: " prefix
    # written back from the flag, and the detail and name reported above.
    expected = copy.deepcopy(CHAT_BODY)
    expected["messages"][1]["content"][2]["image_url"].pop("detail")
    expected["messages"][2]["tool_calls"][0]["function"]["arguments"] = '{"city":"Paris"}'
    expected["messages"][2]["tool_calls"][1]["function"]["arguments"] = (
        '{"city":"Oslo","unit":"c"}')
    expected["messages"][6].pop("name")
    assert back == expected


def test_the_tool_results_of_a_chat_conversation_are_one_anthropic_user_turn():
    # two tool messages and the next user message: one turn, results first
    history = openai_chat.from_payload([
        {"role": "user", "content": "Both?"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "a", "type": "function", "function": {"name": "f", "arguments": "{}"}},
            {"id": "b", "type": "function", "function": {"name": "g", "arguments": ""}}]},
        {"role": "tool", "tool_call_id": "a", "content": [{"type": "text", "text": "A"}]},
        {"role": "tool", "tool_call_id": "b", "content": "B"},
        {"role": "user", "content": "And now?"},
    ])
    payload = anthropic_format.to_payload(history)
    validate_anthropic_payload(payload)
    assert payload["messages"][1:] == [
        {"role": "assistant", "content": [
            {"type": "tool_use", "id": "a", "name": "f", "input": {}},
            {"type": "tool_use", "id": "b", "name": "g", "input": {}},  # a blank string is {}
        ]},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "a", "content": [{"type": "text",
                                                                       "text": "A"}]},
            {"type": "tool_result", "tool_use_id": "b", "content": "B"},
            {"type": "text", "text": "And now?"},
        ]},
    ]


# --- 2. a Claude tool loop with thinking -> Responses -> Anthropic -----------------------

THINKING_LOOP = case(DOCUMENTED, "extended_thinking_tool_loop")["payload"]

DROPPED_THINKING = (
    "OpenAI Responses cannot carry reasoning content from anthropic (its opaque data is only "
    "valid there)"
)

RESPONSES_INPUT = [
    {"role": "user", "content": "What's the weather in Paris?"},
    {"role": "assistant", "content": "I can help you get the current weather information for "
                                     "Paris. Let me check that for you"},
    {"type": "function_call", "call_id": "toolu_01CswdEQBMshySk6Y9DFKrfq",
     "name": "get_weather", "arguments": '{"location":"Paris"}'},
    {"type": "function_call_output", "call_id": "toolu_01CswdEQBMshySk6Y9DFKrfq",
     "output": "Current temperature: 88\u00b0F"},
    {"type": "function_call", "call_id": "toolu_02", "name": "get_weather",
     "arguments": '{"location":"Paris, France"}'},
    {"type": "function_call_output", "call_id": "toolu_02",
     "output": "Current temperature: 31\u00b0C"},
]


@pytest.mark.parametrize("on_unsupported", [None, "error"])
def test_claude_thinking_is_refused_by_responses_by_default_and_on_error(on_unsupported):
    history = anthropic_format.from_request(THINKING_LOOP)
    with pytest.raises(UnsupportedContentError) as raised:
        openai_responses.to_payload(history, on_unsupported=on_unsupported)
    assert str(raised.value) == (
        f"messages[1].items[0]: {DROPPED_THINKING} (pass on_unsupported='warn' to leave it out)"
    )


@pytest.mark.parametrize(
    ("on_unsupported", "expected_notes"),
    [
        ("warn", [f"messages[1].items[0]: dropped: {DROPPED_THINKING}",
                  f"messages[1].items[1]: dropped: {DROPPED_THINKING}",
                  f"messages[3].items[0]: dropped: {DROPPED_THINKING}"]),
        ("drop", []),
    ],
)
def test_claude_tool_loop_goes_to_responses_without_its_thinking(on_unsupported, expected_notes):
    history = anthropic_format.from_request(THINKING_LOOP)
    items, notes = _caught(lambda: openai_responses.to_payload(history,
                                                              on_unsupported=on_unsupported))
    assert notes == expected_notes
    assert items == RESPONSES_INPUT
    validate_responses_payload(items)
    # never sent as text: no word of the thinking, no signature, no redacted data
    text = json.dumps(items)
    for block in THINKING_LOOP["messages"][1]["content"][:2]:
        for secret in (block.get("thinking"), block.get("signature"), block.get("data")):
            if secret:
                assert json.dumps(secret)[1:-1] not in text


def test_claude_tool_loop_comes_back_from_responses_with_its_text_calls_and_results():
    history = anthropic_format.from_request(THINKING_LOOP)
    items = openai_responses.to_payload(history, on_unsupported="drop")
    back = anthropic_format.to_payload(openai_responses.from_payload(items))
    validate_anthropic_payload(back)
    # the original messages without the thinking blocks (and the explicit is_error: false,
    # an Anthropic hint Responses has no place for)
    expected = copy.deepcopy(THINKING_LOOP["messages"])
    expected[1]["content"] = expected[1]["content"][2:]
    expected[3]["content"] = expected[3]["content"][1:]
    del expected[4]["content"][0]["is_error"]
    assert back == {"messages": expected}


def test_a_claude_request_becomes_a_responses_request_with_the_thinking_option_reported():
    history = anthropic_format.from_request(THINKING_LOOP)
    body, notes = _caught(lambda: openai_responses.to_request(history, on_unsupported="warn"))
    assert notes == [
        f"messages[1].items[0]: dropped: {DROPPED_THINKING}",
        f"messages[1].items[1]: dropped: {DROPPED_THINKING}",
        f"messages[3].items[0]: dropped: {DROPPED_THINKING}",
        "options.extra[\"thinking\"]: dropped: OpenAI Responses cannot carry the request "
        "field 'thinking'",
    ]
    assert body == {
        "model": "claude-sonnet-4-5",
        "input": RESPONSES_INPUT,
        "tools": [{"type": "function", "name": "get_weather",
                   "description": "Get the current weather in a given location",
                   "parameters": THINKING_LOOP["tools"][0]["input_schema"], "strict": False}],
        "tool_choice": "auto",
        "max_output_tokens": 16000,
    }
    validate_responses_payload(body["input"])


def test_claude_thinking_is_refused_by_chat_completions_too():
    history = anthropic_format.from_request(THINKING_LOOP)
    with pytest.raises(UnsupportedContentError, match=r"^messages\[1\]\.items\[0\]: OpenAI Chat"):
        openai_chat.to_payload(history)
    messages, notes = _caught(lambda: openai_chat.to_payload(history, on_unsupported="warn"))
    assert notes == [
        f"messages[{m}].items[{i}]: dropped: OpenAI Chat Completions cannot carry reasoning "
        "content in an assistant message"
        for m, i in ((1, 0), (1, 1), (3, 0))
    ]
    validate_chat_payload(messages)
    assert messages[1]["content"] == ("I can help you get the current weather information for "
                                      "Paris. Let me check that for you")


OPENAI_REASONING = [
    {"role": "user", "content": "What's 2+2? Use the calculator."},
    {"type": "reasoning", "id": "rs_1", "encrypted_content": "gAAAAAB...",
     "summary": [{"type": "summary_text", "text": "The user wants a sum; call the tool."}]},
    {"type": "function_call", "call_id": "call_9", "name": "add", "arguments": '{"a": 2, "b": 2}'},
    {"type": "function_call_output", "call_id": "call_9", "output": "4"},
]

ANTHROPIC_OF_OPENAI_REASONING = {"messages": [
    {"role": "user", "content": "What's 2+2? Use the calculator."},
    {"role": "assistant", "content": [
        {"type": "tool_use", "id": "call_9", "name": "add", "input": {"a": 2, "b": 2}}]},
    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "call_9",
                                  "content": "4"}]},
]}

OPENAI_REASONING_DROPPED = (
    "messages[1].items[0]: dropped: Anthropic Messages cannot carry reasoning from another "
    "provider ('openai'); it is never sent as text"
)


@pytest.mark.parametrize(
    ("on_unsupported", "expected_notes"),
    [(None, [OPENAI_REASONING_DROPPED]), ("warn", [OPENAI_REASONING_DROPPED]), ("drop", [])],
)
def test_openai_reasoning_is_never_sent_to_anthropic_as_text(on_unsupported, expected_notes):
    history = openai_responses.from_payload(OPENAI_REASONING)
    payload, notes = _caught(lambda: anthropic_format.to_payload(history,
                                                                on_unsupported=on_unsupported))
    assert notes == expected_notes  # warned by default: a field-like loss, not a refusal
    assert payload == ANTHROPIC_OF_OPENAI_REASONING
    assert "The user wants a sum" not in json.dumps(payload)
    validate_anthropic_payload(payload)


def test_openai_reasoning_is_refused_by_anthropic_on_error():
    history = openai_responses.from_payload(OPENAI_REASONING)
    with pytest.raises(UnsupportedContentError) as raised:
        anthropic_format.to_payload(history, on_unsupported="error")
    assert str(raised.value) == (
        "messages[1].items[0]: Anthropic Messages cannot carry reasoning from another provider "
        "('openai'); it is never sent as text (pass on_unsupported='warn' to leave it out)"
    )


# --- 3. citations across formats ---------------------------------------------------------

WEB_SEARCH = case(DOCUMENTED, "response_web_search_with_citations")["payload"]
DOCUMENT_CITATIONS = case(DOCUMENTED, "response_with_document_citations")["payload"]
SHANNON = "Claude Shannon was born on April 30, 1916, in Petoskey, Michigan"
URL_CITATION = {"type": "url_citation", "start_index": 0, "end_index": len(SHANNON),
                "url": "https://en.wikipedia.org/wiki/Claude_Shannon",
                "title": "Claude Shannon - Wikipedia"}


def _responses_answer(text: str):
    """A Responses history whose answer is an output message (the one place for annotations)."""
    return openai_responses.from_payload([
        {"role": "user", "content": "When was Claude Shannon born?"},
        {"id": "msg_1", "type": "message", "status": "completed", "role": "assistant",
         "content": [{"type": "output_text", "text": text, "annotations": []}]},
    ])


def test_a_web_search_citation_becomes_a_url_citation():
    cited = anthropic_format.from_response(WEB_SEARCH).items[4]
    history = _responses_answer(SHANNON)
    history[1].items[0].citations = cited.citations
    items, notes = _caught(lambda: openai_responses.to_payload(history))
    validate_responses_payload(items)
    assert items[1]["content"] == [{"type": "output_text", "text": SHANNON,
                                    "annotations": [URL_CITATION]}]
    # the quote has no place in an annotation; the encrypted index is Anthropic's own hint
    assert notes == ["messages[1].items[0].citations[0].cited_text: dropped: OpenAI Responses "
                     "cannot carry cited_text in a url_citation annotation"]
    # read back from Responses: the same source, now with the span Responses gives
    read = openai_responses.from_payload(items)
    assert read[1].items[0].citations == (Citation(
        title="Claude Shannon - Wikipedia", url="https://en.wikipedia.org/wiki/Claude_Shannon",
        text_start=0, text_end=len(SHANNON)),)


def test_a_char_location_citation_is_reported_lost_in_responses():
    char = anthropic_format.from_response(DOCUMENT_CITATIONS).items[1]
    assert char.citations[0].source_unit == "char"
    history = _responses_answer(char.text)
    history[1].items[0].citations = char.citations
    items, notes = _caught(lambda: openai_responses.to_payload(history))
    assert items[1]["content"] == [{"type": "output_text", "text": "the grass is green",
                                    "annotations": []}]
    assert notes == ["messages[1].items[0].citations[0]: dropped: OpenAI Responses cannot "
                     "carry a citation without a url or a file id (no annotation type fits it)"]
    with pytest.raises(UnsupportedContentError, match=r"^messages\[1\]\.items\[0\]\.citations"):
        openai_responses.to_payload(history, on_unsupported="error")


def test_citations_of_an_anthropic_reply_in_an_input_message_are_reported():
    # Written as an input message (no OpenAI output message id): no annotations at all.
    reply = anthropic_format.from_response(WEB_SEARCH)
    items, notes = _caught(lambda: openai_responses.to_payload(reply, on_unsupported="warn"))
    assert notes == [
        "messages[0].items[1]: dropped: OpenAI Responses cannot carry unknown content in an "
        "assistant message",
        "messages[0].items[2]: dropped: OpenAI Responses cannot carry unknown content in an "
        "assistant message",
        "messages[0].items[4].citations: dropped: OpenAI Responses cannot carry citations "
        "outside an output message item (one read with its id): only output_text has "
        "annotations",
    ]
    assert items == [
        {"role": "assistant", "content": "I'll search for when Claude Shannon was born."},
        {"role": "assistant", "content": "Based on the search results, "},
        {"role": "assistant", "content": SHANNON},
    ]
    validate_responses_payload(items)


def test_a_url_citation_from_responses_is_reported_lost_in_anthropic():
    # A url_citation has no encrypted_index: Anthropic cannot take it back as a web result.
    history = _responses_answer(SHANNON)
    history[1].items[0].citations = [Citation(
        title="Claude Shannon - Wikipedia", url="https://en.wikipedia.org/wiki/Claude_Shannon",
        text_start=0, text_end=len(SHANNON))]
    payload, notes = _caught(lambda: anthropic_format.to_payload(history))
    assert payload["messages"][1] == {"role": "assistant", "content": SHANNON}
    assert notes == ["messages[1].items[0].citations[0]: dropped: Anthropic Messages cannot "
                     "carry a citation that names no document or search result location"]
    validate_anthropic_payload(payload)

