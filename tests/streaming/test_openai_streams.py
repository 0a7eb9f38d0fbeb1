"""Recorded OpenAI streams accumulate to the message each stream describes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from semantic_chat import FinishReason, FunctionCallContent, RefusalContent, TextContent, Usage
from semantic_chat.formats import openai_chat, openai_responses
from semantic_chat.streaming import StreamingChatMessageContent, accumulate_choices

CASES = {
    case["name"]: case["payload"]
    for case in json.loads((Path(__file__).parent / "openai_chat_streams.json").read_text())
}


def accumulated(name):
    return StreamingChatMessageContent.accumulate(openai_chat.from_stream(CASES[name])).to_message()


def test_text_stream():
    message = accumulated("stream_text_content")
    assert message.items == [
        TextContent(
            "I'm unable to provide real-time weather updates. To get the current weather in "
            "San Francisco, I recommend checking a reliable weather website or a weather app."
        )
    ]
    assert message.finish_reason == FinishReason.STOP
    assert message.usage == Usage(14, 30, 44, reasoning_tokens=0)
    assert message.id == "chatcmpl-ABfw031mOJeYCSHe4yI2ZjOA6kMJL"
    assert message.model_id == "gpt-4o-2024-08-06"


def test_single_tool_call_fragments_keep_the_exact_argument_string():
    message = accumulated("stream_single_tool_call_fragments")
    assert message.items == [
        FunctionCallContent("call_4XzlGBLtUe9dy3GVNV4jhq7h", "get_weather", '{"city":"New York City"}')
    ]
    assert message.finish_reason == FinishReason.TOOL_CALLS
    assert message.usage == Usage(44, 16, 60, reasoning_tokens=0)


def test_parallel_tool_calls_stay_apart_in_order():
    message = accumulated("stream_parallel_tool_calls_with_usage")
    assert [(c.id, c.name) for c in message.function_calls] == [
        ("call_JMW1whyEaYG438VE1OIflxA2", "GetWeatherArgs"),
        ("call_DNYTawLBoN8fj3KN6qU9N1Ou", "get_stock_price"),
    ]
    expected_arguments = [
        ''.join(
            tc["function"].get("arguments") or ""
            for chunk in CASES["stream_parallel_tool_calls_with_usage"]
            for choice in chunk["choices"]
            for tc in choice["delta"].get("tool_calls") or []
            if tc["index"] == index
        )
        for index in (0, 1)
    ]
    assert [c.arguments for c in message.function_calls] == expected_arguments
    assert expected_arguments[0] == '{"city": "Edinburgh", "country": "GB", "units": "c"}'
    assert message.usage == Usage(149, 60, 209, reasoning_tokens=0)


def test_refusal_deltas_make_one_refusal():
    message = accumulated("stream_refusal_with_logprobs")
    assert message.items == [RefusalContent("I'm very sorry, but I can't assist with that.")]


@pytest.mark.parametrize("name", sorted(CASES))
def test_stream_and_sdk_objects_give_the_same_message(name):
    from openai.types.chat import ChatCompletionChunk

    sdk = [ChatCompletionChunk.model_validate(chunk) for chunk in CASES[name]]
    from_sdk = StreamingChatMessageContent.accumulate(openai_chat.from_stream(sdk)).to_message()
    assert from_sdk == accumulated(name)


def test_several_choices_accumulate_apart():
    chunks = [
        {"id": "c", "model": "m", "choices": [
            {"index": 0, "delta": {"role": "assistant", "content": "Hel"}},
            {"index": 1, "delta": {"role": "assistant", "content": "Bon"}},
        ]},
        {"id": "c", "model": "m", "choices": [
            {"index": 1, "delta": {"content": "jour"}, "finish_reason": "stop"},
            {"index": 0, "delta": {"content": "lo"}, "finish_reason": "stop"},
        ]},
    ]
    merged = accumulate_choices(openai_chat.from_stream(chunks))
    assert [m.to_message().text for m in merged] == ["Hello", "Bonjour"]


def test_audio_deltas_become_one_audio_item_with_the_transcript_in_its_hints():
    chunks = [
        {"choices": [{"index": 0, "delta": {"role": "assistant", "audio": {"id": "audio_1", "transcript": "Hi "}}}]},
        {"choices": [{"index": 0, "delta": {"audio": {"transcript": "there"}}, "finish_reason": "stop"}]},
    ]
    message = StreamingChatMessageContent.accumulate(openai_chat.from_stream(chunks)).to_message()
    assert message.text == ""  # the transcript is the audio's, as from_response reads it
    assert [audio.file_id for audio in message.audios] == ["audio_1"]
    assert message.audios[0].metadata == {"openai_chat": {"fields": {"transcript": "Hi there"}}}


def test_a_malformed_chunk_names_its_position():
    with pytest.raises(ValueError, match=r"^chunks\[1\]: expected an object or a provider SDK model, got str$"):
        list(openai_chat.from_stream([{"choices": []}, "oops"]))


RESPONSES_EVENTS = [
    {"type": "response.created", "response": {"id": "resp_1", "model": "gpt-5"}},
    {"type": "response.in_progress", "response": {"id": "resp_1"}},
    {"type": "response.output_item.added", "output_index": 0,
     "item": {"type": "reasoning", "id": "rs_1", "summary": []}},
    {"type": "response.reasoning_summary_text.delta", "output_index": 0, "delta": "Think"},
    {"type": "response.reasoning_summary_text.delta", "output_index": 0, "delta": "ing"},
    {"type": "response.output_item.done", "output_index": 0,
     "item": {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "enc"}},
    {"type": "response.output_item.added", "output_index": 1,
     "item": {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get", "arguments": ""}},
    {"type": "response.function_call_arguments.delta", "output_index": 1, "delta": '{"a":'},
    {"type": "response.function_call_arguments.delta", "output_index": 1, "delta": "1}"},
    {"type": "response.output_text.delta", "output_index": 2, "delta": "Do"},
    {"type": "response.output_text.delta", "output_index": 2, "delta": "ne"},
    {"type": "response.completed", "response": {
        "id": "resp_1", "model": "gpt-5", "status": "completed",
        "usage": {"input_tokens": 5, "output_tokens": 7, "total_tokens": 12,
                  "input_tokens_details": {"cached_tokens": 1},
                  "output_tokens_details": {"reasoning_tokens": 3}}}},
]


def test_responses_events_accumulate_to_the_turn():
    merged = StreamingChatMessageContent.accumulate(openai_responses.from_stream(RESPONSES_EVENTS))
    message = merged.to_message()
    assert [type(item).__name__ for item in message.items] == [
        "ReasoningContent", "FunctionCallContent", "TextContent"
    ]
    reasoning, call, text = message.items
    assert (reasoning.text, reasoning.encrypted, reasoning.provider) == ("Thinking", "enc", "openai")
    assert (call.id, call.name, call.arguments) == ("call_1", "get", '{"a":1}')
    assert text.text == "Done"
    assert message.finish_reason == FinishReason.TOOL_CALLS
    assert message.usage == Usage(5, 7, 12, cached_tokens=1, reasoning_tokens=3)
    assert (message.id, message.model_id) == ("resp_1", "gpt-5")
    assert openai_responses.to_payload([message])[0] == {
        "type": "reasoning",
        "summary": [{"type": "summary_text", "text": "Thinking"}],
        "encrypted_content": "enc",
        "id": "rs_1",
    }
