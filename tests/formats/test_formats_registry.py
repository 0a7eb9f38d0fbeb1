"""The format registry: names, get, detect and convert over the OpenAI fixtures."""

from __future__ import annotations

import pytest
from format_helpers import (
    case,
    case_ids,
    cases,
    validate_chat_payload,
    validate_responses_payload,
)
from format_strategies import chat_histories, responses_histories
from hypothesis import given, settings

from semantic_chat import formats
from semantic_chat.errors import FormatError, UnsupportedContentError
from semantic_chat.formats import openai_chat, openai_responses
from semantic_chat.serialization import to_dict

CHAT_MESSAGES = cases("openai_chat.json", "messages")
RESPONSES_REQUESTS = cases("openai_responses.json", "request")
OURS = ("openai-chat", "openai-responses", "semantic-chat")


def test_names_are_sorted_and_include_the_built_in_formats():
    names = formats.names()
    assert names == sorted(names)
    assert set(OURS) <= set(names)


@pytest.mark.parametrize("name", OURS)
def test_get_by_name(name):
    found = formats.get(name)
    assert found.name == name
    assert found.summary


def test_get_wires_the_modules():
    assert formats.get("openai-chat").from_payload is openai_chat.from_payload
    assert formats.get("openai-responses").to_payload is openai_responses.to_payload


def test_get_unknown_name_lists_the_names():
    with pytest.raises(FormatError) as raised:
        formats.get("nope")
    assert str(raised.value) == f"unknown format 'nope': expected one of {', '.join(formats.names())}"
    for name in OURS:
        assert name in str(raised.value)


# --- detect ------------------------------------------------------------------------------


@pytest.mark.parametrize("fixture", CHAT_MESSAGES, ids=case_ids(CHAT_MESSAGES))
def test_detect_chat_messages(fixture):
    payload = fixture["payload"]
    assert formats.detect(payload) == "openai-chat"
    assert formats.detect(to_dict(openai_chat.from_payload(payload))) == "semantic-chat"


@pytest.mark.parametrize("fixture", RESPONSES_REQUESTS, ids=case_ids(RESPONSES_REQUESTS))
def test_detect_responses_input(fixture):
    items = fixture["payload"]["input"]
    assert formats.detect(items) == "openai-responses"
    history = openai_responses.from_request(fixture["payload"])
    assert formats.detect(to_dict(history)) == "semantic-chat"


def test_detect_responses_request_body():
    body = case("openai_responses.json", "input_text_and_image_url")["payload"]
    assert formats.detect(body) == "openai-responses"


@pytest.mark.parametrize(
    ("payload", "kind"),
    [
        ({}, "dict"),
        ({"messages": []}, "dict"),
        ([], "list"),
        ([1, 2], "list"),
        ([{"a": 1}], "list"),
    ],
)
def test_detect_garbage(payload, kind):
    with pytest.raises(FormatError) as raised:
        formats.detect(payload)
    assert str(raised.value) == (
        f"cannot tell the format of this {kind}: pass the source format "
        f"(one of {', '.join(formats.names())})"
    )


@pytest.mark.parametrize(("payload", "named"), [
    (None, "null"), (42, "a number"), (1.5, "a number"), (True, "a boolean"),
])
def test_detect_names_a_json_scalar_and_gives_no_advice_that_cannot_help(payload, named):
    # What was seen: "cannot tell the format of this NoneType: pass --from (...)", though no
    # format reads null.
    with pytest.raises(FormatError) as raised:
        formats.detect(payload)
    assert str(raised.value) == f"this is {named}, not a conversation (an object or a list)"


@settings(max_examples=40)
@given(chat_histories(max_messages=4))
def test_detect_generated_chat_payloads(history):
    payload = openai_chat.to_payload(history)
    if payload:
        assert formats.detect(payload) == "openai-chat"
    assert formats.detect(to_dict(history)) == "semantic-chat"


@settings(max_examples=40)
@given(responses_histories(max_messages=4))
def test_detect_generated_responses_payloads(history):
    payload = openai_responses.to_payload(history)
    if not payload:
        return
    if all("role" in item and isinstance(item["content"], str) for item in payload):
        # Plain {"role", "content": str} messages are valid in both formats.
        assert formats.detect(payload) in ("openai-chat", "openai-responses")
    else:
        assert formats.detect(payload) == "openai-responses"


# --- convert -----------------------------------------------------------------------------


def test_convert_chat_to_responses_and_back():
    chat = case("openai_chat.json", "assistant_text_plus_tool_call_then_tool_parts")["payload"]
    responses = formats.convert(chat, target="openai-responses")
    assert responses == [
        {"role": "user", "content": "Can you look up order 8123 and tell me when it ships?"},
        {"role": "assistant", "content": "Let me check that order for you."},
        {"type": "function_call", "call_id": "call_62136354", "name": "get_order",
         "arguments": '{"order_id":"8123"}'},
        {"type": "function_call_output", "call_id": "call_62136354", "output": [
            {"type": "input_text", "text": '{"order_id": "8123", "status": "packed"}'},
            {"type": "input_text", "text": '{"estimated_ship_date": "2024-10-02"}'},
        ]},
        {"role": "assistant", "content": "Order 8123 is packed and should ship on 2 October 2024."},
    ]
    validate_responses_payload(responses)
    back = formats.convert(responses, "openai-responses", target="openai-chat")
    assert back == chat
    assert formats.convert(responses, target="openai-chat") == chat  # detected source
    validate_chat_payload(back)


def test_convert_parallel_calls_keeps_arguments_and_result_order():
    chat = case("openai_chat.json", "three_parallel_tool_calls_refusal_null")["payload"]
    back = formats.convert(formats.convert(chat, target="openai-responses"),
                           target="openai-chat")
    # Only the Chat-specific null refusal is not carried across; an assistant message of tool
    # calls is written with content null, as the API sends it.
    expected = [dict(message) for message in chat]
    del expected[1]["refusal"]
    assert back == expected


@pytest.mark.parametrize("fixture", CHAT_MESSAGES, ids=case_ids(CHAT_MESSAGES))
def test_convert_through_semantic_chat_is_lossless(fixture):
    payload = fixture["payload"]
    own = formats.convert(payload, "openai-chat", target="semantic-chat")
    assert formats.detect(own) == "semantic-chat"
    assert formats.convert(own, target="openai-chat") == payload


@pytest.mark.parametrize(
    "fixture", [pytest.param(c, id=c["name"]) for c in RESPONSES_REQUESTS]
)
def test_convert_responses_through_semantic_chat_is_lossless(fixture):
    items = fixture["payload"]["input"]
    own = formats.convert(items, "openai-responses", target="semantic-chat")
    assert formats.convert(own, target="openai-responses") == (
        openai_responses.to_payload(openai_responses.from_payload(items))
    )


def test_convert_reasoning_to_chat_raises_or_drops():
    items = case("openai_responses.json", "reasoning_items_with_encrypted_content")["payload"]
    items = items["input"]
    with pytest.raises(UnsupportedContentError) as raised:
        formats.convert(items, target="openai-chat")
    assert raised.value.path == "messages[1].items[0]"
    with pytest.warns(UserWarning, match="dropped") as record:
        chat = formats.convert(items, target="openai-chat", on_unsupported="warn")
    detail = "dropped: OpenAI Chat Completions cannot carry reasoning content in an assistant message"
    assert [str(w.message) for w in record] == [
        f"messages[1].items[0]: {detail}", f"messages[3].items[0]: {detail}"
    ]
    assert chat[1] == {
        "role": "assistant",
        "content": None,
        "tool_calls": [{"id": "call_KzJ5Oy0Wm1", "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city":"Paris"}'}}],
    }
    validate_chat_payload(chat)


def test_convert_unknown_names():
    with pytest.raises(FormatError, match="unknown format 'nope'"):
        formats.convert([], "nope", target="openai-chat")
    with pytest.raises(FormatError, match="unknown format 'nope'"):
        formats.convert([{"role": "user", "content": "x"}], target="nope")


def test_convert_legacy_function_call_to_responses_is_refused_or_valid():
    chat = case("openai_chat.json", "legacy_function_role_and_function_call")["payload"]
    try:
        responses = formats.convert(chat, target="openai-responses")
    except UnsupportedContentError:
        return
    validate_responses_payload(responses)
