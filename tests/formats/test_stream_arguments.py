"""A streamed tool call's arguments are what `from_response` reads from the final answer.

Anthropic streams a ``tool_use`` block's input as ``input_json_delta`` text: the call keeps
that text while it streams (`partial_arguments` reads it), and at the block's stop (or the
end of the stream) its arguments become the ``input`` mapping of the final ``Message``; text
that is not a JSON object (a stream cut by ``max_tokens``) stays as it is. Gemini sends each
call whole: its ``args`` mapping stays a mapping. The accumulator takes a mapping fragment as
the call's arguments whole.
"""

from __future__ import annotations

import json
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import json_values

from semantic_chat import FinishReason, FunctionCallContent, TextContent
from semantic_chat.errors import FormatError
from semantic_chat.formats import anthropic, gemini, openai_chat
from semantic_chat.streaming import StreamingChatMessageContent, StreamingFunctionCallContent

STREAM_CASES = json.loads(
    (Path(__file__).parent.parent / "streaming" / "anthropic_streams.json").read_text("utf-8")
)
MESSAGE = {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-x",
           "content": [], "stop_reason": None, "stop_sequence": None,
           "usage": {"input_tokens": 10, "output_tokens": 1}}


def accumulate(stream: Any) -> StreamingChatMessageContent:
    return StreamingChatMessageContent.accumulate(stream)


def tool_events(*pieces: str, stop: bool = True, reason: str = "tool_use") -> list[dict[str, Any]]:
    """An Anthropic stream of one ``tool_use`` block whose input arrives as ``pieces``."""
    events: list[dict[str, Any]] = [
        {"type": "message_start", "message": MESSAGE},
        {"type": "content_block_start", "index": 0, "content_block": {
            "type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}},
        *({"type": "content_block_delta", "index": 0,
           "delta": {"type": "input_json_delta", "partial_json": piece}} for piece in pieces),
    ]
    if stop:
        events += [
            {"type": "content_block_stop", "index": 0},
            {"type": "message_delta", "delta": {"stop_reason": reason, "stop_sequence": None},
             "usage": {"output_tokens": 9}},
            {"type": "message_stop"},
        ]
    return events


def final_message(tool_input: dict[str, Any]) -> dict[str, Any]:
    """The final ``Message`` of `tool_events`: the call with its parsed input."""
    return {**MESSAGE, "stop_reason": "tool_use",
            "content": [{"type": "tool_use", "id": "toolu_1", "name": "f", "input": tool_input}],
            "usage": {"input_tokens": 10, "output_tokens": 9}}


# --- Anthropic ------------------------------------------------------------------------------


def test_anthropic_streamed_call_equals_the_final_message_and_converts_alike():
    streamed = accumulate(anthropic.from_stream(
        tool_events('{"n": 1.50, ', '"u": "\\u00e9"}'))).to_message()
    whole = anthropic.from_response(final_message({"n": 1.5, "u": "é"}))
    assert streamed.items == [FunctionCallContent("toolu_1", "f", {"n": 1.5, "u": "é"})]
    assert streamed == whole
    written = [openai_chat.to_payload(message)[0]["tool_calls"][0]["function"]["arguments"]
               for message in (streamed, whole)]
    assert written == ['{"n":1.5,"u":"é"}', '{"n":1.5,"u":"é"}']


def test_anthropic_call_is_text_while_streaming_and_a_mapping_from_its_stop():
    events = tool_events('{"city": "Par', 'is", "b": 2}')
    chunks = list(anthropic.from_stream(events))
    assert [item for chunk in chunks for item in chunk.items] == [
        StreamingFunctionCallContent("toolu_1", "f", "", index=0),
        StreamingFunctionCallContent(None, "", '{"city": "Par', index=0),
        StreamingFunctionCallContent(None, "", 'is", "b": 2}', index=0),
        StreamingFunctionCallContent(None, "", {"city": "Paris", "b": 2}, index=0),
    ]
    assert chunks[4].inner_content == {"type": "content_block_stop", "index": 0}
    call = accumulate(chunks[:3]).items[0]  # message_start, the start, one piece
    assert isinstance(call, StreamingFunctionCallContent)
    assert call.arguments == '{"city": "Par'
    assert call.partial_arguments() == {"city": "Par"}
    done = accumulate(chunks).items[0]
    assert isinstance(done, StreamingFunctionCallContent)
    assert done.arguments == {"city": "Paris", "b": 2}
    assert list(done.arguments) == ["city", "b"]  # key order as sent
    assert done.partial_arguments() == {"city": "Paris", "b": 2}


def test_anthropic_call_without_input_is_an_empty_mapping():
    streamed = accumulate(anthropic.from_stream(tool_events())).to_message()
    assert streamed.items == [FunctionCallContent("toolu_1", "f", {})]
    assert streamed == anthropic.from_response(final_message({}))


def test_anthropic_input_cut_by_max_tokens_stays_text():
    events = tool_events('{"city": "Par', reason="max_tokens")
    reply = accumulate(anthropic.from_stream(events)).to_message()
    assert reply.items == [FunctionCallContent("toolu_1", "f", '{"city": "Par')]
    assert reply.finish_reason == FinishReason.LENGTH


@pytest.mark.parametrize(("pieces", "arguments"), [
    (('[1, 2]',), "[1, 2]"),  # JSON, but not an object: from_response would refuse it
    (('{"big": 1', "0" * 30 + "}"), '{"big": 1' + "0" * 30 + "}"),  # beyond 64-bit integers
    (('{"x": NaN}',), '{"x": NaN}'),  # Python's json reads it; JSON has no NaN
])
def test_anthropic_input_a_mapping_cannot_hold_stays_text(pieces, arguments):
    reply = accumulate(anthropic.from_stream(tool_events(*pieces))).to_message()
    assert reply.items == [FunctionCallContent("toolu_1", "f", arguments)]


def test_anthropic_stream_ending_inside_a_call_parses_it_if_it_is_whole():
    whole = accumulate(anthropic.from_stream(tool_events('{"a": ', "[1]}", stop=False)))
    assert whole.to_message().items == [FunctionCallContent("toolu_1", "f", {"a": [1]})]
    cut = accumulate(anthropic.from_stream(tool_events('{"a": ', "[1", stop=False)))
    assert cut.to_message().items == [FunctionCallContent("toolu_1", "f", '{"a": [1')]


def test_anthropic_malformed_input_piece_is_located():
    events = tool_events('{"a": 1}')
    events[2]["delta"]["partial_json"] = 5
    with pytest.raises(FormatError) as raised:
        list(anthropic.from_stream(events))
    assert str(raised.value) == "events[2].delta.partial_json: expected str, got int"


@pytest.mark.parametrize("case", [c for c in STREAM_CASES if c["kind"] == "stream"],
                         ids=lambda case: case["name"])
def test_anthropic_recorded_streams_accumulate_to_the_final_messages_items(case):
    reply = accumulate(anthropic.from_stream(case["payload"])).to_message()
    assert reply.items == anthropic.from_response(case["message"]).items


def test_anthropic_conformance_tool_stream_gives_the_input_mapping():
    (case,) = [c for c in STREAM_CASES if c["name"] == "stream_text_then_tool_use_input_json"]
    reply = accumulate(anthropic.from_stream(case["payload"])).to_message()
    assert reply.items[1].arguments == {"location": "Paris"}
    assert reply == anthropic.from_response(case["message"])


@st.composite
def split_text(draw: st.DrawFn, text: str) -> list[str]:
    """``text`` cut at random places into pieces (empty pieces too)."""
    cuts = sorted(draw(st.lists(st.integers(0, len(text)), max_size=6)))
    bounds = [0, *cuts, len(text)]
    return [text[start:end] for start, end in pairwise(bounds)]


json_objects = st.dictionaries(st.text(max_size=8), json_values(max_leaves=6), max_size=4)


@settings(max_examples=200, deadline=None)
@given(tool_input=json_objects, ascii_only=st.booleans(), compact=st.booleans(), data=st.data())
def test_anthropic_accumulated_call_equals_from_response_of_the_final_message(
    tool_input, ascii_only, compact, data
):
    separators = (",", ":") if compact else (", ", ": ")
    text = json.dumps(tool_input, ensure_ascii=ascii_only, separators=separators)
    pieces = data.draw(split_text(text))
    reply = accumulate(anthropic.from_stream(tool_events(*pieces))).to_message()
    expected = anthropic.from_response(final_message(tool_input))
    assert reply == expected
    assert list(reply.items[0].arguments) == list(tool_input)


# --- Gemini ---------------------------------------------------------------------------------


def gemini_chunk(*parts: dict[str, Any], **candidate: Any) -> dict[str, Any]:
    return {"candidates": [{"index": 0, "content": {"role": "model", "parts": list(parts)},
                            **candidate}], "modelVersion": "gemini-2.5-flash"}


def test_gemini_streamed_call_equals_the_answer_given_whole():
    chunk = gemini_chunk({"function_call": {"name": "f", "args": {"a": 1, "b": [1, 2]}}},
                         finish_reason="STOP")
    (read,) = gemini.from_stream([chunk])
    assert read.items == [
        StreamingFunctionCallContent("gemini-call-0-0", "f", {"a": 1, "b": [1, 2]})
    ]
    streamed = accumulate([read]).to_message()
    whole = gemini.from_response(chunk)
    assert streamed.items == [FunctionCallContent("gemini-call-0-0", "f", {"a": 1, "b": [1, 2]})]
    assert streamed == whole


def test_gemini_call_without_args_is_an_empty_mapping_with_its_hint():
    chunk = gemini_chunk({"function_call": {"id": "c", "name": "f"}}, finish_reason="STOP")
    streamed = accumulate(gemini.from_stream([chunk])).to_message()
    assert streamed.items == [
        FunctionCallContent("c", "f", {}, metadata={"gemini": {"no_args": True}})
    ]
    assert streamed == gemini.from_response(chunk)


def test_gemini_malformed_args_are_located():
    chunk = gemini_chunk({"function_call": {"name": "f", "args": [1]}})
    with pytest.raises(FormatError) as raised:
        list(gemini.from_stream([chunk]))
    assert str(raised.value) == (
        "chunks[0].candidates[0].content.parts[0].function_call.args: "
        "expected an object, got list"
    )


@settings(max_examples=100, deadline=None)
@given(calls=st.lists(json_objects, min_size=1, max_size=3), together=st.booleans())
def test_gemini_streamed_and_whole_messages_are_equal(calls, together):
    parts = [{"text": "Checking."}] + [
        {"functionCall": {"name": f"f{number}", "args": args}}
        for number, args in enumerate(calls)
    ]
    chunks = (
        [gemini_chunk(parts[0]), gemini_chunk(*parts[1:], finishReason="STOP")]
        if together
        else [gemini_chunk(part) for part in parts[:-1]]
        + [gemini_chunk(parts[-1], finishReason="STOP")]
    )
    streamed = accumulate(gemini.from_stream(chunks)).to_message()
    whole = gemini.from_response(gemini_chunk(*parts, finishReason="STOP"))
    assert streamed == whole
    assert [item.arguments for item in streamed.items[1:]] == calls
    assert streamed.items[0] == TextContent("Checking.")


# --- the accumulator ------------------------------------------------------------------------


def call_chunk(arguments: Any, **fields: Any) -> StreamingChatMessageContent:
    return StreamingChatMessageContent(
        "assistant", [StreamingFunctionCallContent(arguments=arguments, index=0, **fields)]
    )


def test_a_mapping_fragment_is_the_calls_arguments_whole():
    chunks = [call_chunk('{"a": ', id="c", name="f"), call_chunk("1}", id=None, name=""),
              call_chunk({"a": 1}, id=None, name="")]
    assert accumulate(chunks).to_message().items == [FunctionCallContent("c", "f", {"a": 1})]
    assert (chunks[0] + chunks[1] + chunks[2]).to_message() == accumulate(chunks).to_message()


def test_text_after_a_mapping_continues_its_json_text_as_before():
    chunks = [call_chunk({"a": "é"}, id="c", name="f"), call_chunk(" ", id=None, name="")]
    assert accumulate(chunks).to_message().items == [
        FunctionCallContent("c", "f", '{"a": "\\u00e9"} ')
    ]
