"""OpenAI Responses: real and documented inputs read, written back exactly, and valid.

Fixtures: ``fixtures/openai_responses.json`` (requests and a response recorded in the official
SDK's tests, plus cases written from the SDK's request types; each case names its source).
"""

from __future__ import annotations

import base64

import pytest
from format_helpers import (
    PDF,
    PNG,
    case,
    case_ids,
    cases,
    dumps_sorted,
    validate_responses_item,
    validate_responses_payload,
)
from openai.types.responses import Response

from semantic_chat import (
    ChatHistory,
    ChatMessageContent,
    FileContent,
    FinishReason,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    ReasoningContent,
    RefusalContent,
    TextContent,
    Usage,
)
from semantic_chat.contents import UnknownContent
from semantic_chat.formats import openai_responses

FIXTURES = "openai_responses.json"
REQUESTS = cases(FIXTURES, "request")
LIST_INPUTS = [c for c in REQUESTS if isinstance(c["payload"]["input"], list)]
RESPONSE = case(FIXTURES, "response_message_output_text")["payload"]


def request(name: str) -> dict:
    return case(FIXTURES, name)["payload"]


def read(name: str) -> ChatHistory:
    return openai_responses.from_request(request(name))


# --- round trips -------------------------------------------------------------------------


@pytest.mark.parametrize("fixture", REQUESTS, ids=case_ids(REQUESTS))
def test_request_reads_and_writes_back_exactly(fixture):
    original = fixture["payload"]
    # The whole body comes back: model and the other options are kept on history.options.
    written = openai_responses.to_request(openai_responses.from_request(original))
    assert written == original
    assert dumps_sorted(written) == dumps_sorted(original)
    validate_responses_payload(written["input"])


@pytest.mark.parametrize("fixture", LIST_INPUTS, ids=case_ids(LIST_INPUTS))
def test_input_list_reads_and_writes_back_exactly(fixture):
    original = fixture["payload"]["input"]
    written = openai_responses.to_payload(openai_responses.from_payload(original))
    assert written == original
    # sorted keys: the JSON text pins the order of items, content parts, summaries ...
    assert dumps_sorted(written) == dumps_sorted(original)
    for ours, theirs in zip(written, original, strict=True):
        assert set(ours) == set(theirs)
        for key in ("content", "output", "summary"):
            if isinstance(theirs.get(key), list):
                assert dumps_sorted(ours[key]) == dumps_sorted(theirs[key])
    validate_responses_payload(written)


@pytest.mark.parametrize("fixture", LIST_INPUTS, ids=case_ids(LIST_INPUTS))
def test_fixture_is_valid_sdk_input(fixture):
    validate_responses_payload(fixture["payload"]["input"])


@pytest.mark.parametrize("fixture", REQUESTS, ids=case_ids(REQUESTS))
def test_read_twice_gives_equal_histories(fixture):
    history = openai_responses.from_request(fixture["payload"])
    assert openai_responses.from_request(openai_responses.to_request(history)) == history


def test_instructions_become_a_leading_system_message():
    history = read("instructions_and_string_input")
    assert [str(m.role) for m in history] == ["system", "user"]
    assert history[0].text == "You are a coding assistant that talks like a pirate."
    assert history[1].text == "How do I check if a Python object is an instance of a class?"
    # Written as an input list, the instructions are a system message item.
    written = openai_responses.to_payload(history)
    assert written == [
        {"role": "system", "content": "You are a coding assistant that talks like a pirate."},
        {"role": "user", "content": "How do I check if a Python object is an instance of a class?"},
    ]
    validate_responses_payload(written)


def test_instructions_with_an_input_list():
    body = {"instructions": "Be terse.", "input": [{"role": "user", "content": "hi"}]}
    assert openai_responses.to_request(openai_responses.from_request(body)) == body
    assert openai_responses.from_payload(body["input"], instructions="Be terse.") == (
        openai_responses.from_request(body)
    )


# --- what is read ------------------------------------------------------------------------


def test_image_url_detail_auto_reads_as_no_detail():
    (message,) = read("input_text_and_image_url")
    assert [type(item) for item in message.items] == [TextContent, ImageContent]
    image = message.images[0]
    assert image.uri.startswith("https://upload.wikimedia.org/")
    assert image.detail is None


def test_image_data_url():
    (message,) = read("input_image_base64_data_url")
    assert message.images == [
        ImageContent(data=base64.b64decode(PNG), mime_type="image/png", detail="low")
    ]


def test_input_image_by_file_id():
    (message,) = read("input_image_by_file_id")
    assert message.items == [
        TextContent("What's in this image?"),
        ImageContent(file_id="file-TgNWqiNTM9sTGC9vtDT1kd", detail="high"),
    ]


def test_input_file_by_id_url_and_data():
    (message,) = read("input_file_by_id_url_and_data")
    assert message.items == [
        FileContent(file_id="file-6F2ksmvXxt4VdoqmHRw6kL"),
        FileContent(uri="https://www.berkshirehathaway.com/letters/2024ltr.pdf"),
        FileContent(data=base64.b64decode(PDF), mime_type="application/pdf",
                    filename="report.pdf"),
        TextContent("What do these three documents have in common?"),
    ]


def test_replayed_output_message_is_an_assistant_message():
    history = read("replay_output_message_item")
    assert [str(m.role) for m in history] == ["user", "assistant", "user"]
    assert [type(item) for item in history[1].items] == [TextContent]
    assert history[1].text.startswith("I can't provide real-time updates")


def test_function_call_and_string_output():
    history = read("function_call_and_string_output")
    assert [str(m.role) for m in history] == ["user", "assistant", "tool"]
    (call,) = history[1].items
    assert (call.id, call.name, call.arguments) == (
        "call_unLAR8MvFNptuiZK6K6HCy5k", "get_weather", '{"latitude":48.8566,"longitude":2.3522}'
    )
    assert history[2].items == [
        FunctionResultContent("call_unLAR8MvFNptuiZK6K6HCy5k", "14.7", name="get_weather")
    ]


def test_function_call_output_as_content_list():
    history = read("function_call_output_as_content_list")
    assert history[2].items == [
        FunctionResultContent(
            "call_ss_0001",
            [
                TextContent("Screenshot captured."),
                ImageContent(data=base64.b64decode(PNG), mime_type="image/png"),
            ],
            name="take_screenshot",
        )
    ]


def test_reasoning_items_keep_id_summary_and_encrypted_content():
    history = read("reasoning_items_with_encrypted_content")
    assert [str(m.role) for m in history] == ["user", "assistant", "tool", "assistant"]
    first, call = history[1].items
    assert isinstance(call, FunctionCallContent)
    assert first == ReasoningContent(
        "", encrypted="gAAAAABoIPOEnc-shortened-1", provider="openai",
        metadata={"openai_responses": {"fields": {"id": "rs_6820f383d7c08191846711c5df8233bc"}}},
    )
    second, answer = history[3].items
    assert isinstance(second, ReasoningContent)
    assert second.text == (
        "**Reporting the weather**\n\nThe tool says 14.7C and cloudy.\n\n"
        "**Answering briefly**\n\nOne sentence is enough."
    )
    assert second.encrypted == "gAAAAABoIPObx-shortened-2"
    assert answer.text == "It is 14.7C and cloudy in Paris."


def test_unknown_item_is_kept_and_written_back():
    history = read("unknown_item_web_search_call")
    assert [str(m.role) for m in history] == ["user", "assistant", "user"]
    unknown, text = history[1].items
    assert isinstance(unknown, UnknownContent)
    assert unknown.type == "web_search_call"
    assert unknown.fields == {
        "id": "ws_67c9fa0502748190b7dd390736892e100be649c1a5ff9609",
        "status": "completed",
        "action": {"type": "search", "query": "positive news story today"},
    }
    assert text.text == "A community garden opened today in Leeds."
    written = openai_responses.to_payload(history)
    assert written[1] == request("unknown_item_web_search_call")["input"][1]


# --- hand-built histories ----------------------------------------------------------------


def test_hand_built_history_is_written_in_the_default_shapes():
    history = ChatHistory()
    history.add_developer_message("Answer in French.")
    history.add_user_message(items=[
        TextContent("Describe it."),
        ImageContent(uri="https://x.test/a.png"),
        ImageContent(file_id="file-1", detail="low"),
        FileContent(uri="https://x.test/a.pdf", filename="a.pdf"),
    ])
    history.add_assistant_message(items=[FunctionCallContent("call_1", "look", {"at": "a"})])
    history.add_tool_message({"seen": "a cat"}, call_id="call_1", name="look")
    history.add_assistant_message(items=[TextContent("Un chat."), TextContent("Noir.")])
    written = openai_responses.to_payload(history)
    assert written == [
        {"role": "developer", "content": "Answer in French."},
        {"role": "user", "content": [
            {"type": "input_text", "text": "Describe it."},
            {"type": "input_image", "image_url": "https://x.test/a.png", "detail": "auto"},
            {"type": "input_image", "file_id": "file-1", "detail": "low"},
            {"type": "input_file", "file_url": "https://x.test/a.pdf", "filename": "a.pdf"},
        ]},
        {"type": "function_call", "call_id": "call_1", "name": "look", "arguments": '{"at":"a"}'},
        {"type": "function_call_output", "call_id": "call_1", "output": '{"seen":"a cat"}'},
        # The API takes an assistant's texts as strings (it refuses input_text there)
        {"role": "assistant", "content": "Un chat."},
        {"role": "assistant", "content": "Noir."},
    ]
    validate_responses_payload(written)


def test_reasoning_with_an_openai_id_is_written():
    item = ReasoningContent(
        "Thinking about cats.", encrypted="gAAA", provider="openai",
        metadata={"openai_responses": {"fields": {"id": "rs_1"}}},
    )
    written = openai_responses.to_payload([ChatMessageContent("assistant", items=[item])])
    assert written == [{
        "type": "reasoning", "id": "rs_1", "encrypted_content": "gAAA",
        "summary": [{"type": "summary_text", "text": "Thinking about cats."}],
    }]
    validate_responses_payload(written)
    assert openai_responses.from_payload(written)[0].items == [item]


def test_string_input_is_written_back_as_a_string():
    history = openai_responses.from_payload("hello")
    assert history[0].text == "hello"
    assert openai_responses.to_request(history) == {"input": "hello"}


# --- the response ------------------------------------------------------------------------


def test_from_response():
    reply = openai_responses.from_response(RESPONSE)
    assert str(reply.role) == "assistant"
    assert reply.id == "resp_689a0b2545288193953c892439b42e2800b2e36c65a1fd4b"
    assert reply.model_id == "gpt-4o-mini-2024-07-18"
    assert reply.finish_reason == FinishReason.STOP
    assert reply.usage == Usage(14, 50, 64, cached_tokens=0, reasoning_tokens=0, cache_creation_tokens=0)
    assert [type(item) for item in reply.items] == [TextContent]
    assert reply.text == RESPONSE["output"][0]["content"][0]["text"]
    assert reply.inner_content is RESPONSE


def test_reply_is_written_back_as_the_output_message_item():
    reply = openai_responses.from_response(RESPONSE)
    written = openai_responses.to_payload([reply])
    assert written == RESPONSE["output"]
    validate_responses_payload(written)


def test_reply_written_back_matches_the_recorded_replay():
    # The recorded request replays the same output item (same id), with its text shortened
    # by the SDK test that recorded it; everything else is identical.
    replayed = request("replay_output_message_item")["input"][1]
    (written,) = openai_responses.to_payload([openai_responses.from_response(RESPONSE)])
    assert written["id"] == replayed["id"]
    assert written["content"][0]["text"].startswith(replayed["content"][0]["text"])
    written["content"][0]["text"] = replayed["content"][0]["text"]
    assert written == replayed


def test_sdk_object_reads_like_its_dict():
    response = Response.model_validate(RESPONSE)
    reply = openai_responses.from_response(response)
    assert reply == openai_responses.from_response(RESPONSE)
    assert reply.inner_content is response


def test_sdk_output_items_appended_to_the_input_are_read():
    # The usual loop: input += response.output
    items = [{"role": "user", "content": "q"}, *Response.model_validate(RESPONSE).output]
    written = openai_responses.to_payload(openai_responses.from_payload(items))
    assert written == [items[0], *RESPONSE["output"]]
    validate_responses_payload(written)


def _response_with(**changes: object) -> dict:
    return {**case(FIXTURES, "response_message_output_text")["payload"], **changes}


def test_function_calls_finish_with_tool_calls_and_keep_reasoning():
    output = [
        {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "enc"},
        {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_weather",
         "arguments": '{"city":"Paris"}', "status": "completed"},
    ]
    usage = {"input_tokens": 30,
             "input_tokens_details": {"cached_tokens": 12, "cache_write_tokens": 0},
             "output_tokens": 90, "output_tokens_details": {"reasoning_tokens": 64},
             "total_tokens": 120}
    response = _response_with(output=output, usage=usage)
    reply = openai_responses.from_response(response)
    assert reply.finish_reason == FinishReason.TOOL_CALLS
    assert reply.usage == Usage(30, 90, 120, cached_tokens=12, reasoning_tokens=64, cache_creation_tokens=0)
    assert [type(item) for item in reply.items] == [ReasoningContent, FunctionCallContent]
    written = openai_responses.to_payload([reply])
    assert written == output
    validate_responses_payload(written)
    assert openai_responses.from_response(Response.model_validate(response)) == reply


@pytest.mark.parametrize(
    ("reason", "finish"),
    [("max_output_tokens", FinishReason.LENGTH), ("content_filter", FinishReason.CONTENT_FILTER)],
)
def test_incomplete_responses(reason, finish):
    response = _response_with(status="incomplete", incomplete_details={"reason": reason})
    assert openai_responses.from_response(response).finish_reason == finish


def test_refusal_output_is_written_back():
    output = [{"type": "message", "id": "msg_1", "status": "completed", "role": "assistant",
               "content": [{"type": "refusal", "refusal": "I can't help with that."}]}]
    reply = openai_responses.from_response(_response_with(output=output))
    assert [type(item) for item in reply.items] == [RefusalContent]
    written = openai_responses.to_payload([reply])
    assert written == output
    validate_responses_item(written[0])
