"""OpenAI Chat Completions: real and documented payloads read, written back exactly, and valid.

Fixtures: ``fixtures/openai_chat.json`` (payloads recorded in the official SDK's tests, plus
cases written from the SDK's request types; each case names its source).
"""

from __future__ import annotations

import base64

import pytest
from format_helpers import (
    MP3,
    PDF,
    PNG,
    WAV,
    case,
    case_ids,
    cases,
    dumps_sorted,
    validate_chat_message,
    validate_chat_payload,
)
from openai.types.chat import ChatCompletion

from semantic_chat import (
    AudioContent,
    ChatHistory,
    ChatMessageContent,
    FileContent,
    FinishReason,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    RefusalContent,
    TextContent,
    Usage,
)
from semantic_chat.errors import FormatError
from semantic_chat.formats import openai_chat
from semantic_chat.serialization import from_json, to_json

FIXTURES = "openai_chat.json"
MESSAGES = cases(FIXTURES, "messages")
RESPONSES = cases(FIXTURES, "response")



def payload(name: str) -> list[dict]:
    return case(FIXTURES, name)["payload"]


# --- round trips -------------------------------------------------------------------------


@pytest.mark.parametrize("fixture", MESSAGES, ids=case_ids(MESSAGES))
def test_payload_reads_and_writes_back_exactly(fixture):
    original = fixture["payload"]
    written = openai_chat.to_payload(openai_chat.from_payload(original))
    assert written == original
    # == on dicts ignores nothing but key order; with sorted keys, JSON text also pins the
    # order of every list: messages, content parts, tool calls.
    assert dumps_sorted(written) == dumps_sorted(original)
    for ours, theirs in zip(written, original, strict=True):
        assert set(ours) == set(theirs)  # same keys
        if isinstance(theirs.get("content"), list):
            assert dumps_sorted(ours["content"]) == dumps_sorted(theirs["content"])
    validate_chat_payload(written)


@pytest.mark.parametrize("fixture", MESSAGES, ids=case_ids(MESSAGES))
def test_fixture_is_valid_sdk_input(fixture):
    validate_chat_payload(fixture["payload"])


@pytest.mark.parametrize("fixture", MESSAGES, ids=case_ids(MESSAGES))
def test_read_twice_gives_equal_histories(fixture):
    history = openai_chat.from_payload(fixture["payload"])
    assert openai_chat.from_payload(openai_chat.to_payload(history)) == history


def test_tool_call_arguments_are_kept_byte_for_byte():
    history = openai_chat.from_payload(payload("three_parallel_tool_calls_refusal_null"))
    assert [call.arguments for call in history[1].function_calls] == [
        '{"city": "Edinburgh", "country": "GB", "units": "c"}',
        '{"city": "Paris", "country": "FR", "units": "c"}',
        '{"city": "Tokyo", "country": "JP", "units": "c"}',
    ]


def test_tool_results_get_the_name_of_their_call_whatever_their_order():
    history = openai_chat.from_payload(payload("three_parallel_tool_calls_refusal_null"))
    results = [message.items[0] for message in history[2:]]
    assert results == [
        FunctionResultContent("call_Ne6bmCXL9h6sHzoG8gdpK1ex", "18C, light rain",
                              name="GetWeatherArgs"),
        FunctionResultContent("call_9rqjEc1DQRADTYGVV45LbZwL", "12C, overcast",
                              name="GetWeatherArgs"),
        FunctionResultContent("call_Ow1sRgyHG8ooJ4sCv6NB4gr4", "24C, clear",
                              name="GetWeatherArgs"),
    ]
    assert [str(message.role) for message in history[2:]] == ["tool"] * 3


def test_tool_result_text_parts_read_as_text_items():
    history = openai_chat.from_payload(payload("assistant_text_plus_tool_call_then_tool_parts"))
    assert history[1].items == [
        TextContent("Let me check that order for you."),
        FunctionCallContent("call_62136354", "get_order", '{"order_id":"8123"}'),
    ]
    assert history[2].items == [
        FunctionResultContent(
            "call_62136354",
            [
                TextContent('{"order_id": "8123", "status": "packed"}'),
                TextContent('{"estimated_ship_date": "2024-10-02"}'),
            ],
            name="get_order",
        )
    ]


def test_text_and_refusal_parts_keep_their_order():
    history = openai_chat.from_payload(payload("assistant_content_parts_text_and_refusal"))
    assert [type(item) for item in history[1].items] == [TextContent, RefusalContent]
    assert history[1].items[1].text == "I can't help with picking locks."


def test_refusal_field_reads_as_refusal_item():
    history = openai_chat.from_payload(payload("assistant_refusal_echoed_back"))
    assert history[1].items == [
        RefusalContent("I'm very sorry, but I can't assist with that request.")
    ]


# --- documented shapes, read -------------------------------------------------------------


def test_image_url_with_detail():
    (message,) = openai_chat.from_payload(payload("user_image_url_with_detail"))
    assert message.items == [
        TextContent("Compare these two images."),
        ImageContent(uri="https://example.com/cat.jpg", detail="high"),
        ImageContent(data=base64.b64decode(PNG), mime_type="image/png", detail="low"),
        ImageContent(uri="https://example.com/dog.jpg"),
    ]
    assert message.items[2].size == (4, 4)


def test_input_audio_wav_and_mp3():
    (message,) = openai_chat.from_payload(payload("user_input_audio_wav_and_mp3"))
    wav, mp3 = message.audios
    assert wav == AudioContent(data=base64.b64decode(WAV), mime_type="audio/wav")
    assert mp3 == AudioContent(data=base64.b64decode(MP3), mime_type="audio/mpeg")
    # The base64 text is kept as read and written back without a decode / encode.
    assert (wav.base64, mp3.base64) == (WAV, MP3)
    assert wav.duration == pytest.approx(4 / 8000)


def test_file_data_and_filename():
    (message,) = openai_chat.from_payload(payload("user_file_data_pdf_with_filename"))
    assert message.items == [
        FileContent(data=base64.b64decode(PDF), mime_type="application/pdf",
                    filename="report.pdf"),
        TextContent("What is the first line of this report?"),
    ]


def test_file_by_id():
    (message,) = openai_chat.from_payload(payload("user_file_by_file_id"))
    assert message.files == [
        FileContent(file_id="file-6F2ksmvXxt4VdoqmHRw6kL"),
        FileContent(file_id="file-Pq7vBWx3tZ8LmN2c", filename="notes.pdf"),
    ]


def test_assistant_audio_by_id():
    history = openai_chat.from_payload(payload("assistant_audio_by_id"))
    assert history[1].items == [AudioContent(file_id="audio_abc123")]


def test_names_on_messages():
    history = openai_chat.from_payload(payload("names_on_user_and_system"))
    assert [message.name for message in history] == ["moderator", "alice", "bob", "chef"]


def test_legacy_function_call_and_function_role():
    history = openai_chat.from_payload(payload("legacy_function_role_and_function_call"))
    assert history[1].items == [FunctionCallContent(None, "get_weather", '{"city": "Paris"}')]
    assert str(history[2].role) == "function"
    assert history[2].name is None
    assert history[2].items == [
        FunctionResultContent(None, '{"temperature": 18, "sky": "overcast"}', name="get_weather")
    ]


def test_custom_tool_call():
    history = openai_chat.from_payload(payload("custom_tool_call"))
    (call,) = history[1].function_calls
    assert (call.id, call.name, call.arguments) == (
        "call_6Jr0Xz1kWq", "code_exec", 'print("hello world")'
    )
    assert history[2].items == [
        FunctionResultContent("call_6Jr0Xz1kWq", "hello world", name="code_exec")
    ]


# --- assistant content null (the API's shape) and missing ------------------------------------

_CALL = {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}


@pytest.mark.parametrize("path", ["plain", "general"])
def test_assistant_tool_calls_with_content_null_need_no_hint(path):
    message = {"role": "assistant", "content": None, "tool_calls": [_CALL]}
    if path == "general":
        message["refusal"] = None  # a key the quick reader declines: read the long way
    history = openai_chat.from_payload([message])
    assert history[0].items == [FunctionCallContent("call_1", "f", "{}")]
    expected_hints = {"fields": {"refusal": None}} if path == "general" else None
    assert history[0].metadata.get("openai_chat") == expected_hints
    assert openai_chat.to_payload(history) == [message]


@pytest.mark.parametrize("extra", [{}, {"refusal": None}, {"refusal": "No."}])
def test_assistant_without_content_key_is_written_back_without_it(extra):
    message = {"role": "assistant", "tool_calls": [_CALL], **extra}
    history = openai_chat.from_payload([message])
    assert history[0].metadata["openai_chat"]["no_content"] is True
    assert openai_chat.to_payload(history) == [message]
    assert openai_chat.to_payload(from_json(to_json(history), ChatHistory)) == [message]


def test_built_assistant_without_text_is_written_with_content_null():
    history = ChatHistory()
    history.add_message(ChatMessageContent("assistant", items=[FunctionCallContent("c", "f")]))
    history.add_message(ChatMessageContent("assistant", items=[RefusalContent("No.")]))
    history.add_message(ChatMessageContent("assistant"))
    written = openai_chat.to_payload(history)
    assert written == [
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}
        ]},
        {"role": "assistant", "content": None, "refusal": "No."},
        {"role": "assistant", "content": None},
    ]
    validate_chat_payload(written[:2])


def test_older_hint_recording_content_null_still_writes_it():
    # Histories stored before content null became the default recorded it as a field.
    message = ChatMessageContent("assistant", items=[FunctionCallContent("c", "f")],
                                 metadata={"openai_chat": {"fields": {"content": None}}})
    (written,) = openai_chat.to_payload([message])
    assert written["content"] is None
    assert list(written) == ["role", "content", "tool_calls"]


# --- hand-built histories, written -------------------------------------------------------


def test_hand_built_history_is_written_in_the_default_shapes():
    history = ChatHistory(system_message="Be brief.")
    history.add_user_message(
        items=[TextContent("What is this?"), ImageContent(uri="https://x.test/a.png",
                                                          detail="low")],
        name="ann",
    )
    history.add_assistant_message(
        items=[
            TextContent("Looking it up."),
            FunctionCallContent("call_1", "lookup", {"q": "a.png", "n": 1}),
            FunctionCallContent("call_2", "noop"),
        ]
    )
    history.add_tool_message({"kind": "cat", "ok": True}, call_id="call_1", name="lookup")
    history.add_tool_message("done", call_id="call_2", name="noop")
    history.add_assistant_message("A cat.")
    written = openai_chat.to_payload(history)
    assert written == [
        {"role": "system", "content": "Be brief."},
        {
            "role": "user",
            "name": "ann",
            "content": [
                {"type": "text", "text": "What is this?"},
                {"type": "image_url", "image_url": {"url": "https://x.test/a.png",
                                                    "detail": "low"}},
            ],
        },
        {
            "role": "assistant",
            "content": "Looking it up.",
            "tool_calls": [
                {"id": "call_1", "type": "function",
                 "function": {"name": "lookup", "arguments": '{"q":"a.png","n":1}'}},
                {"id": "call_2", "type": "function",
                 "function": {"name": "noop", "arguments": "{}"}},
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": '{"kind":"cat","ok":true}'},
        {"role": "tool", "tool_call_id": "call_2", "content": "done"},
        {"role": "assistant", "content": "A cat."},
    ]
    validate_chat_payload(written)


def test_several_results_in_one_message_become_one_tool_message_each():
    message = ChatMessageContent(
        "tool",
        items=[FunctionResultContent("a", "1"), FunctionResultContent("b", ["x", "y"])],
    )
    written = openai_chat.to_payload([message])
    assert written == [
        {"role": "tool", "tool_call_id": "a", "content": "1"},
        {"role": "tool", "tool_call_id": "b", "content": '["x","y"]'},
    ]
    validate_chat_payload(written)


def test_binary_data_is_written_as_data_urls_and_bare_base64():
    message = ChatMessageContent(
        "user",
        items=[
            ImageContent(data=base64.b64decode(PNG), mime_type="image/png"),
            AudioContent(data=base64.b64decode(WAV), mime_type="audio/wav"),
            FileContent(data=base64.b64decode(PDF), mime_type="application/pdf",
                        filename="r.pdf"),
        ],
    )
    written = openai_chat.to_payload([message])
    assert written == [
        {
            "role": "user",
            "content": [
                {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG}"}},
                {"type": "input_audio", "input_audio": {"data": WAV, "format": "wav"}},
                {"type": "file", "file": {"file_data": f"data:application/pdf;base64,{PDF}",
                                          "filename": "r.pdf"}},
            ],
        }
    ]
    validate_chat_payload(written)


# --- responses ---------------------------------------------------------------------------

EXPECTED_REPLIES = {
    "completion_stop_plain_text": (
        [TextContent(
            "I'm unable to provide real-time weather updates. To get the current weather in San "
            "Francisco, I recommend checking a reliable weather website or app like the Weather "
            "Channel or a local news station."
        )],
        "chatcmpl-ABfvaueLEMLNYbT8YzpJxsmiQ6HSY", FinishReason.STOP, Usage(14, 37, 51, None, 0),
    ),
    "completion_n3_choices": (
        [TextContent('{"city":"San Francisco","temperature":64,"units":"f"}')],
        "chatcmpl-ABfvp8qzboW92q8ONDF4DPHlI7ckC", FinishReason.STOP, Usage(79, 44, 123, None, 0),
    ),
    "completion_finish_length": (
        [TextContent('{"')],
        "chatcmpl-ABfvvX7eB1KsfeZj8VcF3z7G7SbaA", FinishReason.LENGTH, Usage(79, 1, 80, None, 0),
    ),
    "completion_refusal": (
        [RefusalContent("I'm very sorry, but I can't assist with that.")],
        "chatcmpl-ABfvwoKVWPQj2UPlAcAKM7s40GsRx", FinishReason.STOP, Usage(79, 12, 91, None, 0),
    ),
    "completion_parallel_tool_calls": (
        [
            FunctionCallContent("call_fdNz3vOBKYgOIpMdWotB9MjY", "GetWeatherArgs",
                                '{"city": "Edinburgh", "country": "GB", "units": "c"}'),
            FunctionCallContent("call_h1DWI1POMJLb0KwIyQHWXD4p", "get_stock_price",
                                '{"ticker": "AAPL", "exchange": "NASDAQ"}'),
        ],
        "chatcmpl-ABfvyvfNWKcl7Ohqos4UFrmMs1v4C", FinishReason.TOOL_CALLS,
        Usage(149, 60, 209, None, 0),
    ),
    "completion_single_tool_call_strict": (
        [FunctionCallContent("call_CUdUoJpsWWVdxXntucvnol1M", "get_weather",
                             '{"city":"San Francisco","state":"CA"}')],
        "chatcmpl-ABfvzdvCI6RaIkiEFNjqGXCSYnlzf", FinishReason.TOOL_CALLS,
        Usage(48, 19, 67, None, 0),
    ),
}


def test_every_recorded_completion_has_an_expectation():
    assert set(EXPECTED_REPLIES) == {c["name"] for c in RESPONSES}


@pytest.mark.parametrize("fixture", RESPONSES, ids=case_ids(RESPONSES))
def test_from_response(fixture):
    completion = fixture["payload"]
    items, response_id, finish_reason, usage = EXPECTED_REPLIES[fixture["name"]]
    reply = openai_chat.from_response(completion)
    assert str(reply.role) == "assistant"
    assert reply.items == items
    assert reply.id == response_id
    assert reply.model_id == "gpt-4o-2024-08-06"
    assert reply.finish_reason == finish_reason
    assert reply.usage == usage
    assert reply.name is None
    # What the message does not model is kept, not lost.
    kept = reply.metadata["openai_chat"]["response"]
    assert kept == {
        "created": completion["created"],
        "system_fingerprint": completion["system_fingerprint"],
    }
    assert reply.inner_content is completion


@pytest.mark.parametrize("fixture", RESPONSES, ids=case_ids(RESPONSES))
def test_reply_is_written_back_as_the_completion_message(fixture):
    completion = fixture["payload"]
    for index, choice in enumerate(completion["choices"]):
        written = openai_chat.to_payload([openai_chat.from_response(completion, choice=index)])
        assert written == [choice["message"]]
        validate_chat_payload(written)


@pytest.mark.parametrize("fixture", RESPONSES, ids=case_ids(RESPONSES))
def test_sdk_object_reads_like_its_dict(fixture):
    completion = ChatCompletion.model_validate(fixture["payload"])
    reply = openai_chat.from_response(completion)
    assert reply == openai_chat.from_response(fixture["payload"])
    assert reply.inner_content is completion


@pytest.mark.parametrize("fixture", RESPONSES, ids=case_ids(RESPONSES))
def test_sdk_message_appended_to_the_messages_is_read(fixture):
    # The usual loop: messages.append(completion.choices[0].message)
    sdk_message = ChatCompletion.model_validate(fixture["payload"]).choices[0].message
    messages = [{"role": "user", "content": "q"}, sdk_message]
    written = openai_chat.to_payload(openai_chat.from_payload(messages))
    assert written == [messages[0], fixture["payload"]["choices"][0]["message"]]
    validate_chat_payload(written)


def test_choice_picks_one_of_n():
    completion = case(FIXTURES, "completion_n3_choices")["payload"]
    texts = [openai_chat.from_response(completion, choice=i).text for i in range(3)]
    assert texts == [
        '{"city":"San Francisco","temperature":64,"units":"f"}',
        '{"city":"San Francisco","temperature":65,"units":"f"}',
        '{"city":"San Francisco","temperature":63.0,"units":"f"}',
    ]
    sdk = ChatCompletion.model_validate(completion)
    assert openai_chat.from_response(sdk, choice=2).text == texts[2]


@pytest.mark.parametrize("choice", [3, -1])
def test_choice_out_of_range(choice):
    completion = case(FIXTURES, "completion_n3_choices")["payload"]
    with pytest.raises(FormatError) as raised:
        openai_chat.from_response(completion, choice=choice)
    assert str(raised.value) == f"completion.choices: no choice {choice} among 3"
    assert raised.value.path == "completion.choices"


def test_cached_tokens_and_logprobs():
    completion = case(FIXTURES, "completion_stop_plain_text")["payload"]
    completion["usage"]["prompt_tokens_details"] = {"cached_tokens": 8, "audio_tokens": 0}
    completion["choices"][0]["logprobs"] = {"content": [], "refusal": None}
    reply = openai_chat.from_response(completion)
    assert reply.usage == Usage(14, 37, 51, cached_tokens=8, reasoning_tokens=0)
    assert reply.metadata["openai_chat"]["response"]["logprobs"] == {
        "content": [], "refusal": None
    }
    validate_chat_message(openai_chat.to_payload([reply])[0])


# An audio answer, shaped as in https://platform.openai.com/docs/guides/audio (the response's
# message.audio has id, expires_at, data and transcript; a follow-up request sends back only
# {"audio": {"id": ...}}). The data is the fixtures' 4-sample WAV.
AUDIO_COMPLETION = {
    "id": "chatcmpl-AJ7T4VbqGv5WI0gY4hy6kBHZXOqPa",
    "object": "chat.completion",
    "created": 1729014962,
    "model": "gpt-4o-audio-preview-2024-10-01",
    "choices": [{
        "index": 0,
        "message": {
            "role": "assistant",
            "content": None,
            "refusal": None,
            "audio": {
                "id": "audio_abc123",
                "expires_at": 1729018505,
                "data": WAV,
                "transcript": "Yes, golden retrievers are known to be great family dogs.",
            },
        },
        "finish_reason": "stop",
        "logprobs": None,
    }],
    "usage": {"prompt_tokens": 17, "completion_tokens": 98, "total_tokens": 115},
}


def test_audio_reply_is_read_by_id():
    ChatCompletion.model_validate(AUDIO_COMPLETION)
    reply = openai_chat.from_response(AUDIO_COMPLETION)
    assert [item.file_id for item in reply.audios] == ["audio_abc123"]
    assert reply.usage == Usage(17, 98, 115)


def test_audio_reply_written_back_is_a_valid_request_message():
    written = openai_chat.to_payload([openai_chat.from_response(AUDIO_COMPLETION)])
    validate_chat_payload(written)
    assert written[0]["audio"] == {"id": "audio_abc123"}
