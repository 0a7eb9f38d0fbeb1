"""OpenAI Chat streams: calls sharing an index stay apart; logprobs and response fields stay."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openai.lib.streaming.chat import ChatCompletionStreamState
from openai.types.chat import ChatCompletionChunk

from semantic_chat import FormatError, FunctionCallContent, StreamMergeError
from semantic_chat.formats import openai_chat
from semantic_chat.streaming import (
    StreamingChatMessageContent,
    StreamingFunctionCallContent,
    accumulate_choices,
)

Chunk = StreamingChatMessageContent

CASES = {
    case["name"]: case["payload"]
    for case in json.loads((Path(__file__).parent / "openai_chat_streams.json").read_text())
}


def tool_chunk(call: dict[str, Any], reason: str | None = None, choice: int = 0) -> dict[str, Any]:
    """A chat.completion.chunk whose delta holds one tool-call fragment."""
    return {
        "id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m",
        "choices": [
            {"index": choice, "delta": {"tool_calls": [call]}, "finish_reason": reason}
        ],
    }


def fragment(call_id: str | None, name: str, arguments: str) -> dict[str, Any]:
    """A tool-call delta under index 0, as Ollama sends every parallel call."""
    found: dict[str, Any] = {"index": 0, "function": {"name": name, "arguments": arguments}}
    if call_id is not None:
        found["id"] = call_id
        found["type"] = "function"
    return found


def calls(message: Any) -> list[tuple[str | None, str, Any]]:
    return [(item.id, item.name, item.arguments) for item in message.items]


OLLAMA = [
    tool_chunk(fragment("call_a", "f", '{"x":1}')),
    tool_chunk(fragment("call_b", "g", '{"y":2}'), "tool_calls"),
]


# Defect 1: two calls under one index (ollama/ollama#15457) were merged into one.


def test_calls_sharing_an_index_stay_apart_when_their_ids_differ():
    message = Chunk.accumulate(openai_chat.from_stream(OLLAMA)).to_message()
    assert calls(message) == [("call_a", "f", '{"x":1}'), ("call_b", "g", '{"y":2}')]
    assert all(type(item) is FunctionCallContent for item in message.items)


def test_sum_and_accumulate_choices_agree_with_accumulate_on_a_shared_index():
    chunks = list(openai_chat.from_stream(OLLAMA))
    expected = [("call_a", "f", '{"x":1}'), ("call_b", "g", '{"y":2}')]
    assert calls(sum(chunks[1:], chunks[0]).to_message()) == expected
    assert calls(accumulate_choices(chunks)[0].to_message()) == expected


def test_two_choices_each_with_calls_sharing_an_index():
    stream = [
        tool_chunk(fragment("call_a", "f", "{}"), choice=0),
        tool_chunk(fragment("call_c", "h", "[]"), choice=1),
        tool_chunk(fragment("call_b", "g", "{}"), choice=0),
        tool_chunk(fragment("call_d", "k", "[]"), choice=1),
    ]
    merged = accumulate_choices(openai_chat.from_stream(stream))
    assert [calls(choice.to_message()) for choice in merged] == [
        [("call_a", "f", "{}"), ("call_b", "g", "{}")],
        [("call_c", "h", "[]"), ("call_d", "k", "[]")],
    ]


def test_a_fragment_without_id_joins_the_last_call_begun_under_its_index():
    stream = [
        tool_chunk(fragment("call_a", "f", '{"x":')),
        tool_chunk(fragment(None, "", "1}")),
        tool_chunk(fragment("call_b", "g", '{"y":')),
        tool_chunk(fragment(None, "", "2}"), "tool_calls"),
    ]
    message = Chunk.accumulate(openai_chat.from_stream(stream)).to_message()
    assert calls(message) == [("call_a", "f", '{"x":1}'), ("call_b", "g", '{"y":2}')]


def test_a_fragment_repeating_an_earlier_id_joins_that_call():
    stream = [
        tool_chunk(fragment("call_a", "f", '{"x":')),
        tool_chunk(fragment("call_b", "g", "{}")),
        tool_chunk(fragment("call_a", "", "1}")),
    ]
    message = Chunk.accumulate(openai_chat.from_stream(stream)).to_message()
    assert calls(message) == [("call_a", "f", '{"x":1}'), ("call_b", "g", "{}")]


def test_a_call_named_late_still_takes_its_id():
    # A call begun without an id takes the first id given under its index (as before).
    chunks = [
        Chunk("assistant", items=[StreamingFunctionCallContent(None, "f", "{", index=0)]),
        Chunk(None, items=[StreamingFunctionCallContent("call_a", "", "}", index=0)]),
    ]
    assert calls(Chunk.accumulate(chunks).to_message()) == [("call_a", "f", "{}")]


@given(st.lists(st.tuples(st.booleans(), st.text(max_size=5)), min_size=1, max_size=8))
def test_shared_index_streams_sum_as_they_accumulate(pieces):
    """Each True starts a new call under index 0 (with a new id); False continues it."""
    chunks = [Chunk("assistant")]
    for number, (starts, text) in enumerate(pieces):
        call_id = f"call_{number}" if starts or number == 0 else None
        chunks.append(
            Chunk(None, items=[StreamingFunctionCallContent(call_id, "", text, index=0)])
        )
    expected = calls(Chunk.accumulate(chunks).to_message())
    assert calls(sum(chunks[1:], chunks[0]).to_message()) == expected
    assert len(expected) == 1 + sum(starts for starts, _ in pieces[1:])


def test_a_tool_call_delta_that_is_not_an_object_is_located():
    stream = [OLLAMA[0], tool_chunk(fragment("call_b", "g", "{}"))]
    stream[1]["choices"][0]["delta"]["tool_calls"] = ["call_b"]
    with pytest.raises(FormatError, match=r"chunks\[1\]\.choices\[0\]\.delta\.tool_calls\[0\]"):
        list(openai_chat.from_stream(stream))


def test_a_tool_call_index_that_is_not_a_number_is_refused_on_merging():
    stream = [tool_chunk({**fragment("call_a", "f", "{}"), "index": "first"})]
    with pytest.raises(StreamMergeError, match="tool call index must be a whole number") as caught:
        Chunk.accumulate(openai_chat.from_stream(stream))
    assert caught.value.path == "index"


# Defect 2: logprobs, created and system_fingerprint were dropped from streams.


def sdk_final(payload: list[dict[str, Any]]) -> dict[str, Any]:
    """The completion the OpenAI SDK accumulates from a stream, as the API would send it."""
    state = ChatCompletionStreamState()
    for raw in payload:
        state.handle_chunk(ChatCompletionChunk.model_validate(raw))
    final = state.get_final_completion().model_dump(mode="json", exclude_unset=True)
    for choice in final["choices"]:
        choice["message"].pop("parsed", None)
    return final


def response_hint(message: Any) -> Any:
    return message.metadata.get("openai_chat", {}).get("response")


@pytest.mark.parametrize("name", sorted(CASES))
def test_recorded_streams_keep_the_response_fields_from_response_keeps(name):
    streamed = Chunk.accumulate(openai_chat.from_stream(CASES[name])).to_message()
    whole = openai_chat.from_response(sdk_final(CASES[name]))
    assert response_hint(streamed) == response_hint(whole)
    assert response_hint(streamed)["created"] == CASES[name][0]["created"]


def test_recorded_refusal_keeps_every_chunks_logprobs_in_order():
    payload = CASES["stream_refusal_with_logprobs"]
    streamed = Chunk.accumulate(openai_chat.from_stream(payload)).to_message()
    kept = response_hint(streamed)
    assert kept["created"] == 1727346173
    assert kept["system_fingerprint"] == "fp_5050236cbd"
    assert kept["logprobs"]["content"] is None
    assert [token["token"] for token in kept["logprobs"]["refusal"]] == [
        "I'm", " very", " sorry", ",", " but", " I", " can't", " assist", " with", " that", ".",
    ]
    assert kept["logprobs"] == sdk_final(payload)["choices"][0]["logprobs"]


def test_sdk_chunk_objects_give_the_same_metadata_as_dicts():
    payload = CASES["stream_refusal_with_logprobs"]
    objects = [ChatCompletionChunk.model_validate(raw) for raw in payload]
    from_dicts = Chunk.accumulate(openai_chat.from_stream(payload)).to_message()
    from_objects = Chunk.accumulate(openai_chat.from_stream(objects)).to_message()
    assert from_objects.metadata == from_dicts.metadata


def test_each_chunk_carries_its_own_logprobs_and_accumulating_leaves_them_alone():
    payload = CASES["stream_refusal_with_logprobs"]
    chunks = list(openai_chat.from_stream(payload))
    assert chunks[1].metadata == {
        "openai_chat": {
            "response": {
                "created": 1727346173,
                "system_fingerprint": "fp_5050236cbd",
                "logprobs": {
                    "content": None,
                    "refusal": [
                        {"token": "I'm", "logprob": -0.0012038043, "bytes": [73, 39, 109],
                         "top_logprobs": []},
                    ],
                },
            }
        }
    }
    before = copy.deepcopy([chunk.metadata for chunk in chunks])
    whole = Chunk.accumulate(chunks).to_message()
    assert [chunk.metadata for chunk in chunks] == before
    summed = sum(chunks[1:], chunks[0]).to_message()
    assert summed.metadata == whole.metadata
    halves = [Chunk.accumulate(chunks[:5]), Chunk.accumulate(chunks[5:])]
    assert Chunk.accumulate(halves).to_message().metadata == whole.metadata


def test_an_annotations_hint_survives_later_chunks_response_fields():
    citation = {
        "type": "url_citation",
        "url_citation": {"url": "https://a.example", "title": "A", "start_index": 0,
                         "end_index": 2},
    }
    stream = [
        {"id": "c", "object": "chat.completion.chunk", "created": 5, "model": "m",
         "choices": [{"index": 0, "delta": {"role": "assistant", "content": "Hi"}}]},
        {"id": "c", "object": "chat.completion.chunk", "created": 5, "model": "m",
         "choices": [{"index": 0, "delta": {"annotations": [citation]}}]},
        {"id": "c", "object": "chat.completion.chunk", "created": 5, "model": "m",
         "system_fingerprint": "fp_1",
         "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
    ]
    message = Chunk.accumulate(openai_chat.from_stream(stream)).to_message()
    assert message.metadata == {
        "openai_chat": {
            "annotations": True,
            "response": {"created": 5, "system_fingerprint": "fp_1"},
            "fields": {"refusal": None},
        }
    }


def test_a_chunk_that_is_not_an_object_is_located():
    with pytest.raises(FormatError, match=r"chunks\[1\]"):
        list(openai_chat.from_stream([OLLAMA[0], ["not", "a", "chunk"]]))
