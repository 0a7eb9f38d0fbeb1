"""A stream accumulates to `from_response` of the same answer given whole (Gemini, Responses).

Gemini: a text's ``thought_signature`` may come with its first piece (the text goes on after
it), and the empty text part a stream ends with (after a function call too) is no part of the
answer. Responses: a stream without ``output_item.added`` events still names its calls.
"""

from __future__ import annotations

import base64
import sys
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from semantic_chat import FunctionCallContent, ReasoningContent, TextContent
from semantic_chat.errors import FormatError
from semantic_chat.formats import gemini, openai_responses
from semantic_chat.streaming import StreamingChatMessageContent

sys.path.insert(0, str(Path(__file__).parent.parent / "formats"))  # the Responses helpers
from test_responses_stream_fixes import (
    BASE,
    USAGE,
    assert_like_response,
    events_of,
    output_items,
)

SIG = base64.b64encode(b"sig").decode()  # "c2ln"
SIG_2 = base64.b64encode(b"sig-2").decode()


def _chunk(parts: list[dict[str, Any]], **fields: Any) -> dict[str, Any]:
    return {"candidates": [{"content": {"role": "model", "parts": parts}, "index": 0, **fields}]}


def _streamed(chunks: list[dict[str, Any]]) -> Any:
    return StreamingChatMessageContent.accumulate(gemini.from_stream(chunks)).to_message()


# --- Gemini: a signature on the first piece of a text ----------------------------------------


def test_a_signature_on_the_first_piece_of_a_text_keeps_the_text_one_item():
    chunks = [_chunk([{"text": "Hello", "thought_signature": SIG}]),
              _chunk([{"text": " world"}], finish_reason="STOP")]
    whole = _chunk([{"text": "Hello world", "thought_signature": SIG}], finish_reason="STOP")
    reply = _streamed(chunks)
    assert reply.items == [TextContent("Hello world", metadata={"gemini": {"thought_signature": SIG}})]
    assert reply.items == gemini.from_response(whole).items


def test_a_second_signature_starts_the_next_text():
    chunks = [_chunk([{"text": "A", "thought_signature": SIG}]), _chunk([{"text": "B"}]),
              _chunk([{"text": "C", "thought_signature": SIG_2}]), _chunk([{"text": "D"}])]
    assert _streamed(chunks).items == [
        TextContent("AB", metadata={"gemini": {"thought_signature": SIG}}),
        TextContent("CD", metadata={"gemini": {"thought_signature": SIG_2}}),
    ]


# --- Gemini: the empty text part a stream ends with --------------------------------------------


def test_the_empty_text_part_after_a_call_gives_no_item():
    chunks = [_chunk([{"function_call": {"name": "f", "args": {"a": 1}}}]),
              _chunk([{"text": ""}], finish_reason="STOP")]
    whole = _chunk([{"function_call": {"name": "f", "args": {"a": 1}}}], finish_reason="STOP")
    reply = _streamed(chunks)
    assert reply.items == [FunctionCallContent(id="gemini-call-0-0", name="f", arguments={"a": 1})]
    assert reply.items == gemini.from_response(whole).items
    assert list(gemini.from_stream(chunks))[1].items == []


def test_a_signed_empty_text_after_a_call_is_the_text_from_response_reads():
    call = {"function_call": {"name": "f", "args": {}}}
    chunks = [_chunk([call]), _chunk([{"text": "", "thought_signature": SIG}], finish_reason="STOP")]
    whole = _chunk([call, {"text": "", "thought_signature": SIG}], finish_reason="STOP")
    reply = _streamed(chunks)
    assert reply.items[1] == TextContent("", metadata={"gemini": {"thought_signature": SIG}})
    assert reply.items == gemini.from_response(whole).items


def test_a_malformed_signature_on_an_empty_text_is_located():
    chunks = [_chunk([{"text": "a"}]), _chunk([{"text": "", "thought_signature": 5}])]
    with pytest.raises(FormatError, match=r"^chunks\[1\]\.candidates\[0\]\.content\.parts\[0\]"
                                          r"\.thought_signature: expected base64 text, got int"):
        _streamed(chunks)


# --- Gemini: any answer, split anywhere ----------------------------------------------------------

_words = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=12)
_signatures = st.none() | st.binary(min_size=1, max_size=6).map(lambda b: base64.b64encode(b).decode())


@st.composite
def _gemini_parts(draw: Any) -> list[dict[str, Any]]:
    """An answer's parts: texts, thoughts (each maybe signed) and calls; no two texts (or two
    thoughts) in a row, which a stream cannot tell from one."""
    parts: list[dict[str, Any]] = []
    for kind in draw(st.lists(st.sampled_from(["text", "thought", "call"]), max_size=6)):
        if kind != "call" and parts and parts[-1].get("thought", False) == (kind == "thought") \
                and "text" in parts[-1]:
            continue
        signature = draw(_signatures)
        part: dict[str, Any] = (
            {"function_call": {"name": draw(st.sampled_from(["f", "g"])),
                               "args": {"x": draw(_words)}}} if kind == "call"
            else {"text": draw(_words), **({"thought": True} if kind == "thought" else {})}
        )
        parts.append({**part, **({"thought_signature": signature} if signature else {})})
    return parts


@st.composite
def _pieces_of(draw: Any, part: dict[str, Any]) -> list[dict[str, Any]]:
    """A part as a stream carries it: a text cut anywhere, its signature on any piece (or on an
    empty piece of its own at the end); a thought's on its last piece; a call whole."""
    if "text" not in part:
        return [part]
    text = part["text"]
    cuts = sorted(draw(st.sets(st.integers(1, max(1, len(text) - 1)), max_size=3)))
    bounds = [0, *[cut for cut in cuts if cut < len(text)], len(text)]
    marker = {"thought": True} if part.get("thought") else {}
    pieces = [{"text": text[a:b], **marker} for a, b in pairwise(bounds)]
    signature = part.get("thought_signature")
    if signature is not None:
        if marker:
            pieces[-1]["thought_signature"] = signature
        else:
            at = draw(st.integers(0, len(pieces)))
            if at == len(pieces):
                pieces.append({"text": ""})
            pieces[at]["thought_signature"] = signature
    return pieces


@st.composite
def _grounding_of(draw: Any, parts: list[dict[str, Any]]) -> dict[str, Any]:
    """Grounding by one web source of random byte spans of the answer's texts (no thoughts)."""
    texts = [index for index, part in enumerate(parts)
             if "text" in part and not part.get("thought")]
    supports = []
    for index in draw(st.lists(st.sampled_from(texts), max_size=3)) if texts else []:
        size = len(parts[index]["text"].encode())
        start = draw(st.integers(0, size))
        end = draw(st.integers(start, size))
        segment = {"part_index": index, "start_index": start, "end_index": end}
        supports.append({"segment": segment, "grounding_chunk_indices": [0]})
    return {"grounding_chunks": [{"web": {"uri": "https://a.example"}}],
            "grounding_supports": supports}


@st.composite
def _gemini_streams(draw: Any) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """A whole answer and its chunks: the pieces grouped at random, maybe an empty text last;
    maybe grounding on the last chunk, which may have no text (a call, an empty text, no parts)."""
    parts = draw(_gemini_parts())
    pieces = [piece for part in parts for piece in draw(_pieces_of(part))]
    if draw(st.booleans()):
        pieces.append({"text": ""})
    chunks: list[dict[str, Any]] = []
    while pieces:
        take = draw(st.integers(1, len(pieces)))
        chunks.append(_chunk(pieces[:take]))
        pieces = pieces[take:]
    if not chunks or draw(st.booleans()):
        chunks.append(_chunk([]))
    fields: dict[str, Any] = {"finish_reason": "STOP"}
    if draw(st.booleans()):
        fields["grounding_metadata"] = draw(_grounding_of(parts))
    chunks[-1]["candidates"][0].update(fields)
    return chunks, _chunk(parts, **fields)


@given(_gemini_streams())
def test_a_gemini_answer_split_anywhere_accumulates_to_from_response(case):
    chunks, whole = case
    reply, expected = _streamed(chunks), gemini.from_response(whole)
    assert reply.items == expected.items
    assert reply.finish_reason == expected.finish_reason
    assert gemini.to_payload(reply) == gemini.to_payload(expected)


# --- Responses: streams without output_item events --------------------------------------------


def _without(events: list[dict[str, Any]], *kinds: str) -> list[dict[str, Any]]:
    return [event for event in events if event["type"] not in
            {f"response.output_item.{kind}" for kind in kinds}]


def _accumulated(events: list[dict[str, Any]]) -> Any:
    return StreamingChatMessageContent.accumulate(openai_responses.from_stream(events)).to_message()


CALL = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_weather",
        "arguments": '{"city":"Paris"}', "status": "completed"}
RESPONSE = {**BASE, "status": "completed", "output": [CALL], "usage": USAGE}


def test_a_call_streamed_without_its_added_event_keeps_its_name():
    reply = _accumulated(_without(events_of(RESPONSE, 4), "added", "done"))
    assert [(item.id, item.name, item.arguments) for item in reply.items] == [
        ("call_1", "get_weather", '{"city":"Paris"}')]
    assert_like_response(reply, RESPONSE)


@st.composite
def _call_responses(draw: Any) -> dict[str, Any]:
    """A response of function and custom tool calls only."""
    output = []
    for index in range(draw(st.integers(0, 4))):
        item = draw(output_items(index))
        if item["type"] in ("function_call", "custom_tool_call"):
            output.append(item)
    return {**RESPONSE, "output": output}


@given(_call_responses(), st.integers(1, 9), st.sampled_from([("done",), ("added", "done")]))
def test_calls_streamed_without_item_events_accumulate_to_from_response(response, piece, kinds):
    assert_like_response(_accumulated(_without(events_of(response, piece), *kinds)), response)


REASONING = {"type": "reasoning", "id": "rs_1", "encrypted_content": "ENC==",
             "summary": [{"type": "summary_text", "text": "Thinking."}]}
MESSAGE = {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
           "content": [{"type": "output_text", "text": "Hi.", "annotations": [], "logprobs": []}]}


def test_the_reasoning_and_message_streamed_without_done_events_are_each_one_item():
    response = {**RESPONSE, "output": [REASONING, MESSAGE, CALL]}
    reply = _accumulated(_without(events_of(response, 4), "done"))
    assert [type(item) for item in reply.items] == [
        ReasoningContent, TextContent, FunctionCallContent]
    assert_like_response(reply, response)


@pytest.mark.xfail(strict=True, reason=(
    "an item only response.completed gives (no event streamed it) is added after the items "
    "streamed before it, whatever its output_index: the accumulator places items in "
    "arrival order"))
def test_a_search_before_the_message_keeps_its_place_without_item_events():
    search = {"type": "web_search_call", "id": "ws_0", "status": "completed",
              "action": {"type": "search", "query": "paris weather"}}
    response = {**RESPONSE, "output": [search, MESSAGE]}
    assert_like_response(_accumulated(_without(events_of(response, 4), "added", "done")), response)
