"""OpenAI Responses streams: each part of a message is its own item, as `from_response` reads it.

A ``message`` output item with several ``output_text`` (or ``refusal``) parts streams its
deltas with an ``output_index`` and a ``content_index``; accumulated, the stream gives one
item per part, in part order, with their citations, and the message item's id and status on
the first part: exactly `from_response` of the final response.
"""

from __future__ import annotations

import warnings
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from semantic_chat import Citation, RefusalContent, TextContent
from semantic_chat.errors import FormatError
from semantic_chat.formats import openai_responses
from semantic_chat.streaming import StreamingChatMessageContent, StreamingTextContent

BASE = {"id": "resp_1", "object": "response", "created_at": 1, "model": "gpt-5",
        "parallel_tool_calls": True, "tool_choice": "auto", "tools": []}
HINTS = {"output": True}
ENVELOPE = {"output": True, "message": {
    "parts": True, "fields": {"type": "message", "id": "msg_1", "status": "completed"}}}


def _message(*parts: dict[str, Any], number: int = 1) -> dict[str, Any]:
    return {"type": "message", "id": f"msg_{number}", "role": "assistant",
            "status": "completed", "content": list(parts)}


def _text(text: str, *annotations: dict[str, Any]) -> dict[str, Any]:
    return {"type": "output_text", "text": text, "annotations": list(annotations)}


def _final(*output: dict[str, Any]) -> dict[str, Any]:
    return {**BASE, "status": "completed", "output": list(output)}


def _accumulated(events: list[dict[str, Any]]) -> Any:
    """The stream's message, with any warning raised as an error: nothing is left out."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        chunks = list(openai_responses.from_stream(events))
    return StreamingChatMessageContent.accumulate(chunks).to_message()


def _assert_like_response(streamed: Any, final: dict[str, Any]) -> None:
    whole = openai_responses.from_response(final)
    assert streamed.items == whole.items
    assert openai_responses.to_payload([streamed]) == openai_responses.to_payload([whole])


# --- the reproduction -------------------------------------------------------------------

TWO = _message(_text("Part one."), _text("Part two."))


def _two_part_events() -> list[dict[str, Any]]:
    """The tester's stream: deltas keyed by output and content index, no part events."""
    where = {"output_index": 0, "item_id": "msg_1", "logprobs": []}
    return [
        {"type": "response.output_item.added", "output_index": 0,
         "item": {**TWO, "status": "in_progress", "content": []}},
        {"type": "response.output_text.delta", **where, "content_index": 0, "delta": "Part one."},
        {"type": "response.output_text.delta", **where, "content_index": 1, "delta": "Part two."},
        {"type": "response.output_item.done", "output_index": 0, "item": TWO},
        {"type": "response.completed", "response": _final(TWO)},
    ]


def test_two_output_text_parts_stream_as_two_items_with_the_message_id_and_status():
    streamed = _accumulated(_two_part_events())
    assert list(streamed.items) == [
        TextContent("Part one.", metadata={"openai_responses": ENVELOPE}),
        TextContent("Part two.", metadata={"openai_responses": HINTS}),
    ]
    assert openai_responses.to_payload([streamed]) == [
        {"role": "assistant", "content": [_text("Part one."), _text("Part two.")],
         "type": "message", "id": "msg_1", "status": "completed"}]
    _assert_like_response(streamed, _final(TWO))


def test_a_later_part_has_its_own_block_index_and_the_first_keeps_the_output_index():
    deltas = [chunk.items[0] for chunk in openai_responses.from_stream(_two_part_events()[1:3])]
    assert deltas == [StreamingTextContent("Part one.", index=0),
                      StreamingTextContent("Part two.", index=2**32)]


# --- part events, refusals and citations ------------------------------------------------

CITATION = {"type": "url_citation", "url": "https://w.com", "title": "W", "start_index": 0,
            "end_index": 5}


def test_part_events_keep_an_empty_part_before_the_parts_after_it():
    message = _message(_text(""), {"type": "refusal", "refusal": "No."},
                       _text("Sunny", CITATION))
    at = {"output_index": 0, "item_id": "msg_1"}
    events = [
        {"type": "response.output_item.added", "output_index": 0,
         "item": {**message, "status": "in_progress", "content": []}},
        {"type": "response.content_part.added", **at, "content_index": 0, "part": _text("")},
        {"type": "response.content_part.added", **at, "content_index": 1,
         "part": {"type": "refusal", "refusal": ""}},
        {"type": "response.refusal.delta", **at, "content_index": 1, "delta": "No."},
        {"type": "response.content_part.added", **at, "content_index": 2, "part": _text("")},
        {"type": "response.output_text.delta", **at, "content_index": 2, "delta": "Sun"},
        {"type": "response.output_text.delta", **at, "content_index": 2, "delta": "ny"},
        {"type": "response.output_text.annotation.added", **at, "content_index": 2,
         "annotation_index": 0, "annotation": CITATION},
        {"type": "response.output_item.done", "output_index": 0, "item": message},
        {"type": "response.completed", "response": _final(message)},
    ]
    streamed = _accumulated(events)
    assert list(streamed.items) == [
        TextContent("", metadata={"openai_responses": ENVELOPE}),
        RefusalContent("No."),
        TextContent("Sunny", citations=[
            Citation(url="https://w.com", title="W", text_start=0, text_end=5)],
            metadata={"openai_responses": HINTS}),
    ]
    _assert_like_response(streamed, _final(message))


# --- bad input --------------------------------------------------------------------------


@pytest.mark.parametrize(("fields", "message"), [
    ({"content_index": "1"}, "events[1].content_index: expected an int from 0 to 2**32 - 1, "
                             "got str"),
    ({"content_index": -1}, "events[1].content_index: expected an int from 0 to 2**32 - 1, "
                            "got -1"),
    ({"content_index": 2**32}, "events[1].content_index: expected an int from 0 to 2**32 - 1, "
                               f"got {2**32}"),
    ({"content_index": 1, "output_index": 2**32},
     f"events[1].output_index: expected an int from 0 to 2**32 - 1 in a part's event, "
     f"got {2**32}"),
])
def test_a_bad_content_index_is_refused_at_its_event(fields, message):
    events = [{"type": "response.created", "response": {**BASE, "status": "in_progress"}},
              {"type": "response.output_text.delta", "output_index": 0, "delta": "x", **fields}]
    with pytest.raises(FormatError) as raised:
        list(openai_responses.from_stream(events))
    assert str(raised.value) == message


# --- the property -----------------------------------------------------------------------

_texts = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=20)
_annotations = st.lists(st.builds(
    lambda n: {"type": "url_citation", "url": f"https://e.com/{n}", "title": f"T{n}",
               "start_index": 0, "end_index": n}, st.integers(0, 9)), max_size=2)


@st.composite
def _streams(draw: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A final response of one or two messages of 1-4 ``output_text`` parts, and its events.

    Each text is cut into deltas at random points; part events, annotation events and each
    message's ``output_item.done`` are there or not (``response.completed`` gives the rest).
    """
    messages = [
        _message(*[_text(draw(_texts), *draw(_annotations))
                   for _ in range(draw(st.integers(1, 4)))], number=number)
        for number in range(draw(st.integers(1, 2)))
    ]
    events: list[dict[str, Any]] = []
    for index, message in enumerate(messages):
        events.append({"type": "response.output_item.added", "output_index": index,
                       "item": {**message, "status": "in_progress", "content": []}})
        for number, part in enumerate(message["content"]):
            events += _part_events(draw, part, {"output_index": index, "content_index": number,
                                                "item_id": message["id"]})
        if draw(st.booleans()):
            events.append({"type": "response.output_item.done", "output_index": index,
                           "item": message})
    events.append({"type": "response.completed", "response": _final(*messages)})
    return _final(*messages), events


def _part_events(draw: Any, part: dict[str, Any], at: dict[str, Any]) -> list[dict[str, Any]]:
    """One part's events: maybe its ``content_part.added``, its deltas, maybe its annotations.

    An empty text has its ``content_part.added`` (the API always sends it): a part no event
    names is placed when its item ends, after the parts streamed (the accumulator places
    items in arrival order, as the strict xfail in test_stream_equality_fixes pins).
    """
    events = []
    if draw(st.booleans()) or not part["text"]:
        events.append({"type": "response.content_part.added", **at, "part": _text("")})
    text = part["text"]
    cuts = sorted(draw(st.sets(st.integers(1, max(len(text) - 1, 1)), max_size=4)))
    for start, end in zip([0, *cuts], [*cuts, len(text)], strict=True):
        if start < end:
            events.append({"type": "response.output_text.delta", **at, "logprobs": [],
                           "delta": text[start:end]})
    if draw(st.booleans()):
        events += [{"type": "response.output_text.annotation.added", **at,
                    "annotation_index": n, "annotation": annotation}
                   for n, annotation in enumerate(part["annotations"])]
    events.append({"type": "response.content_part.done", **at, "part": part})
    return events


@given(_streams())
def test_a_streamed_message_of_several_parts_accumulates_to_from_response(stream):
    final, events = stream
    _assert_like_response(_accumulated(events), final)
