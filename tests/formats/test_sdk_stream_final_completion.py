"""The `openai` SDK's accumulated stream (``get_final_completion()``) read and written back.

The SDK's ``ChatCompletionStreamState`` keeps each delta's ``index`` on the final tool calls
and adds ``parsed_arguments`` to their functions; neither is in the API's request type
(``ChatCompletionMessageToolCallParam``). `openai_chat` reads an ``index`` that is the call's
place in the message as none (another into the call's `FunctionCallContent.index`, never
written) and drops ``parsed_arguments`` (the arguments parsed), so the final completion reads
and writes as the non-streamed reply does, and reads as our own accumulated stream's message.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

import openai
import pydantic
import pytest
from format_helpers import validate_chat_payload
from hypothesis import given
from hypothesis import strategies as st
from openai.lib.streaming.chat._completions import ChatCompletionStreamState
from openai.types.chat import ChatCompletion, ChatCompletionChunk

from semantic_chat import (
    ChatHistory,
    FormatError,
    FunctionCallContent,
    StreamingChatMessageContent,
    TextContent,
)
from semantic_chat.formats import openai_chat
from semantic_chat.serialization import to_json

# The recorded stream of openai-python's test_parse_multiple_pydantic_tools
# (tests/lib/chat/test_completions_streaming.py): two tool calls, index 0 and 1, whose
# arguments come in pieces, then the finish and a usage chunk.
STREAM_ID = "chatcmpl-ABfwAwrNePHUgBBezonVC6MX3zd63"
WEATHER_ID = "call_JMW1whyEaYG438VE1OIflxA2"
STOCK_ID = "call_DNYTawLBoN8fj3KN6qU9N1Ou"
WEATHER_PIECES = [
    '{"ci', 'ty": ', '"Edinb', "urgh", '", "c', "ountry", '": "', 'GB", ', '"units', '": "',
    'c"}',
]
STOCK_PIECES = ['{"ti', 'cker"', ': "AAP', 'L", ', '"exch', 'ange":', ' "NA', 'SDAQ"', "}"]
WEATHER_ARGUMENTS = '{"city": "Edinburgh", "country": "GB", "units": "c"}'
STOCK_ARGUMENTS = '{"ticker": "AAPL", "exchange": "NASDAQ"}'
USAGE = {
    "prompt_tokens": 149,
    "completion_tokens": 60,
    "total_tokens": 209,
    "completion_tokens_details": {"reasoning_tokens": 0},
}


def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    """One recorded ``chat.completion.chunk`` of choice 0 around ``delta``."""
    return {
        "id": STREAM_ID, "object": "chat.completion.chunk", "created": 1727346178,
        "model": "gpt-4o-2024-08-06", "system_fingerprint": "fp_5050236cbd",
        "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}],
    }


def call_delta(index: int, arguments: str, call_id: str | None = None,
               name: str | None = None) -> dict[str, Any]:
    """A ``tool_calls`` delta: the first of a call has its id, type and name."""
    if call_id is None:
        return {"tool_calls": [{"index": index, "function": {"arguments": arguments}}]}
    return {"tool_calls": [{"index": index, "id": call_id, "type": "function",
                            "function": {"name": name, "arguments": arguments}}]}


CHUNKS = [
    chunk({"role": "assistant", "content": None}),
    chunk(call_delta(0, "", WEATHER_ID, "GetWeatherArgs")),
    *[chunk(call_delta(0, piece)) for piece in WEATHER_PIECES],
    chunk(call_delta(1, "", STOCK_ID, "get_stock_price")),
    *[chunk(call_delta(1, piece)) for piece in STOCK_PIECES],
    chunk({}, "tool_calls"),
    {**chunk({}), "choices": [], "usage": USAGE},
]

# The same reply not streamed, as the API sends it (recorded shape of the same SDK test).
REPLY = {
    "id": STREAM_ID, "object": "chat.completion", "created": 1727346178,
    "model": "gpt-4o-2024-08-06", "system_fingerprint": "fp_5050236cbd",
    "choices": [{
        "index": 0,
        "message": {
            "role": "assistant", "content": None, "refusal": None,
            "tool_calls": [
                {"id": WEATHER_ID, "type": "function",
                 "function": {"name": "GetWeatherArgs", "arguments": WEATHER_ARGUMENTS}},
                {"id": STOCK_ID, "type": "function",
                 "function": {"name": "get_stock_price", "arguments": STOCK_ARGUMENTS}},
            ],
        },
        "logprobs": None,
        "finish_reason": "tool_calls",
    }],
    "usage": USAGE,
}

# What to_payload writes for either: no "index", no "parsed_arguments".
WRITTEN = [{
    "role": "assistant",
    "content": None,
    "tool_calls": [
        {"id": WEATHER_ID, "type": "function",
         "function": {"name": "GetWeatherArgs", "arguments": WEATHER_ARGUMENTS}},
        {"id": STOCK_ID, "type": "function",
         "function": {"name": "get_stock_price", "arguments": STOCK_ARGUMENTS}},
    ],
    "refusal": None,
}]


class GetWeatherArgs(pydantic.BaseModel):
    city: str
    country: str
    units: str = "c"


STOCK_TOOL: Any = {
    "type": "function",
    "function": {
        "name": "get_stock_price",
        "parameters": {
            "type": "object",
            "properties": {"ticker": {"type": "string"}, "exchange": {"type": "string"}},
            "required": ["ticker", "exchange"],
            "additionalProperties": False,
        },
        "strict": True,
    },
}
# What client.chat.completions.stream(tools=...) hands its stream state: strict tools, whose
# final calls get parsed_arguments.
TOOLS = [openai.pydantic_function_tool(GetWeatherArgs), STOCK_TOOL]


def final_completion(chunks: list[dict[str, Any]], tools: Any = openai.NOT_GIVEN) -> Any:
    """The SDK's ``get_final_completion()`` after feeding it ``chunks``."""
    state: Any = ChatCompletionStreamState(input_tools=tools)
    for raw in chunks:
        state.handle_chunk(ChatCompletionChunk.model_validate(raw))
    return state.get_final_completion()


def as_sdk_object(final: Any) -> Any:
    return final


def as_json_dump(final: Any) -> Any:
    return final.model_dump(mode="json")


def as_dump_without_none(final: Any) -> Any:
    return final.model_dump(mode="json", exclude_none=True)


SHAPES = [as_sdk_object, as_json_dump, as_dump_without_none]


def test_the_sdk_final_completion_carries_index_and_parsed_arguments():
    """The reproduction's precondition: the SDK puts both keys on the final calls."""
    calls = as_json_dump(final_completion(CHUNKS, TOOLS))["choices"][0]["message"]["tool_calls"]
    assert [call["index"] for call in calls] == [0, 1]
    assert [call["function"]["parsed_arguments"] for call in calls] == [
        {"city": "Edinburgh", "country": "GB", "units": "c"},
        {"ticker": "AAPL", "exchange": "NASDAQ"},
    ]


@pytest.mark.parametrize("shape", SHAPES, ids=lambda shape: shape.__name__)
@pytest.mark.parametrize("tools", [openai.NOT_GIVEN, TOOLS], ids=["no-tools", "strict-tools"])
def test_the_final_completion_is_written_without_index_or_parsed_arguments(shape, tools):
    message = openai_chat.from_response(shape(final_completion(CHUNKS, tools)))
    assert message.items == [
        FunctionCallContent(WEATHER_ID, "GetWeatherArgs", WEATHER_ARGUMENTS),
        FunctionCallContent(STOCK_ID, "get_stock_price", STOCK_ARGUMENTS),
    ]
    assert [item.metadata for item in message.items] == [{}, {}]  # no hint of either key
    written = openai_chat.to_payload([message])
    assert written == WRITTEN
    validate_chat_payload(written)


def history_json(message: Any) -> dict[str, Any]:
    """The history of one message as JSON, without the calls' ``index`` (see below)."""
    document = json.loads(to_json(ChatHistory([message])))
    for item in document["messages"][0]["items"]:
        item.pop("index", None)
    return document


@pytest.mark.parametrize("shape", SHAPES, ids=lambda shape: shape.__name__)
def test_the_final_completion_reads_as_the_non_streamed_reply(shape):
    """Equal histories, but for each call's ``index``: its place in the stream, which the
    non-streamed reply has not; both write the same request."""
    ChatCompletion.model_validate(REPLY)
    streamed = openai_chat.from_response(shape(final_completion(CHUNKS, TOOLS)))
    reply = openai_chat.from_response(REPLY)
    assert [call.index for call in reply.items] == [None, None]
    assert streamed.items == reply.items
    assert history_json(streamed) == history_json(reply)
    assert openai_chat.to_payload([streamed]) == openai_chat.to_payload([reply]) == WRITTEN


def test_the_final_completion_reads_and_writes_as_our_own_accumulated_stream():
    # What was seen: the accumulated stream's calls had no index, and the SDK's final
    # completion read with index 0 and 1, so the two messages were not equal.
    chunks = list(openai_chat.from_stream(CHUNKS))
    accumulated = chunks[0]
    for more in chunks[1:]:
        accumulated += more
    final = openai_chat.from_response(final_completion(CHUNKS, TOOLS))
    assert accumulated.to_message().items == final.items
    assert openai_chat.to_payload([accumulated]) == openai_chat.to_payload([final]) == WRITTEN


def test_a_pasted_sdk_message_in_a_request_has_its_index_read_the_same_way():
    """``from_payload`` of the final message's calls: the same ``index`` field, not a hint."""
    message = as_json_dump(final_completion(CHUNKS, TOOLS))["choices"][0]["message"]
    pasted = {key: message[key] for key in ("role", "content", "refusal", "tool_calls")}
    history = openai_chat.from_payload([pasted])
    assert history.messages[0].items == [
        FunctionCallContent(WEATHER_ID, "GetWeatherArgs", WEATHER_ARGUMENTS),
        FunctionCallContent(STOCK_ID, "get_stock_price", STOCK_ARGUMENTS),
    ]
    pasted["tool_calls"] = pasted["tool_calls"][::-1]  # each index no longer its place: kept
    assert [call.index for call in openai_chat.from_payload([pasted])[0].items] == [1, 0]
    written = openai_chat.to_payload(history)
    assert written == WRITTEN
    validate_chat_payload(written)


def test_a_null_index_in_a_request_is_no_index():
    call = {"id": "c1", "type": "function", "index": None,
            "function": {"name": "f", "arguments": "{}"}}
    history = openai_chat.from_payload([{"role": "assistant", "content": None,
                                         "tool_calls": [call]}])
    assert history.messages[0].items == [FunctionCallContent("c1", "f", "{}")]
    assert openai_chat.to_payload(history) == [{
        "role": "assistant", "content": None,
        "tool_calls": [{"id": "c1", "type": "function",
                        "function": {"name": "f", "arguments": "{}"}}],
    }]


def test_a_custom_call_index_is_read_too():
    call = {"id": "c1", "type": "custom", "index": 3, "custom": {"name": "sh", "input": "ls"}}
    history = openai_chat.from_payload([{"role": "assistant", "content": None,
                                         "tool_calls": [call]}])
    assert history.messages[0].items[0].index == 3
    assert openai_chat.to_payload(history)[0]["tool_calls"] == [
        {"id": "c1", "type": "custom", "custom": {"name": "sh", "input": "ls"}}
    ]


@pytest.mark.parametrize(
    ("bad", "found"),
    [
        ("0", "expected an int, got str"),
        (True, "expected an int, got bool"),
        (1.5, "expected an int, got float"),
        ({}, "expected an int, got dict"),
        (2**64, "integer outside the 64-bit range JSON readers accept"),
    ],
    ids=repr,
)
def test_an_index_that_is_no_int_is_refused_at_its_place_in_a_request(bad, found):
    calls = [
        {"id": "c0", "type": "function", "function": {"name": "f", "arguments": "{}"}},
        {"id": "c1", "type": "function", "index": bad,
         "function": {"name": "f", "arguments": "{}"}},
    ]
    with pytest.raises(FormatError) as caught:
        openai_chat.from_payload([{"role": "user", "content": "hi"},
                                  {"role": "assistant", "content": None, "tool_calls": calls}])
    assert str(caught.value) == (
        f"messages[1].tool_calls[1].index: {found}"
    )


def test_an_index_that_is_no_int_is_refused_at_its_place_in_a_response():
    bad = json.loads(json.dumps(REPLY))
    bad["choices"][0]["message"]["tool_calls"][1]["index"] = "1"
    with pytest.raises(FormatError) as caught:
        openai_chat.from_response(bad)
    assert str(caught.value) == (
        "completion.choices[0].message.tool_calls[1].index: expected an int, got str"
    )


# --- any stream, split anywhere ----------------------------------------------------------


@st.composite
def pieces(draw: st.DrawFn, text: str) -> list[str]:
    """``text`` cut at random points (an empty text is one empty piece)."""
    cuts = sorted(draw(st.sets(st.integers(1, max(len(text) - 1, 1)), max_size=4)))
    bounds = [0, *[cut for cut in cuts if cut < len(text)], len(text)]
    return [text[start:end] for start, end in itertools.pairwise(bounds)] or [""]


ARGUMENT_TEXTS = st.dictionaries(
    st.text("abcxyz", min_size=1, max_size=4), st.integers() | st.text(max_size=5), max_size=3
).map(json.dumps)


@st.composite
def streamed_replies(draw: st.DrawFn) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Chunks of a reply of optional text and 1-3 tool calls, and the same reply unstreamed."""
    text = draw(st.none() | st.text(min_size=1, max_size=12))
    calls = [
        (f"call_{number}", draw(st.sampled_from(["f", "get_x", "Lookup"])), draw(ARGUMENT_TEXTS))
        for number in range(draw(st.integers(1, 3)))
    ]
    chunks = [chunk({"role": "assistant", "content": None if text is None else ""})]
    if text is not None:
        chunks += [chunk({"content": piece}) for piece in draw(pieces(text))]
    for index, (call_id, name, arguments) in enumerate(calls):
        first, *rest = draw(pieces(arguments))
        chunks.append(chunk(call_delta(index, first, call_id, name)))
        chunks += [chunk(call_delta(index, piece)) for piece in rest]
    chunks += [chunk({}, "tool_calls"), {**chunk({}), "choices": [], "usage": USAGE}]
    reply = json.loads(json.dumps(REPLY))
    reply["choices"][0]["message"]["content"] = text
    reply["choices"][0]["message"]["tool_calls"] = [
        {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}
        for call_id, name, arguments in calls
    ]
    return chunks, reply


@given(streamed_replies())
def test_any_final_completion_reads_and_writes_as_its_reply(case):
    chunks, reply = case
    final = openai_chat.from_response(as_json_dump(final_completion(chunks)))
    read = openai_chat.from_response(reply)
    calls = [item for item in final.items if isinstance(item, FunctionCallContent)]
    assert [call.index for call in calls] == [None] * len(calls)  # each its place
    assert final.items == read.items
    assert StreamingChatMessageContent.accumulate(
        openai_chat.from_stream(chunks)).to_message().items == final.items
    assert history_json(final) == history_json(read)
    written = openai_chat.to_payload([final])
    assert written == openai_chat.to_payload([read])
    assert all("index" not in call for call in written[0]["tool_calls"])
    assert [type(item) for item in final.items[:1]] == (
        [TextContent] if reply["choices"][0]["message"]["content"] else [FunctionCallContent]
    )
    validate_chat_payload(written)
