"""OpenAI Chat streams: calls sharing an index stay apart."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from semantic_chat import FormatError, FunctionCallContent, StreamMergeError
from semantic_chat.formats import openai_chat
from semantic_chat.streaming import (
    StreamingChatMessageContent,
    StreamingFunctionCallContent,
    accumulate_choices,
)

Chunk = StreamingChatMessageContent

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
