"""Gemini and Anthropic streams: errors raise, and no block is lost or left stale.

Gemini: an error object, mid-stream or as a whole body, raises `ProviderError`. Anthropic:
a block of a type the reader does not know takes its deltas (``compaction_delta``) or warns;
a ``server_tool_use`` cut by ``max_tokens`` or by the stream's end keeps its input text; a
text block started with ``"citations": null`` and then cited carries no stale hint.
"""

from __future__ import annotations

import json
import warnings
from itertools import pairwise
from typing import Any

import pydantic
import pytest
from anthropic.lib.streaming._beta_messages import accumulate_event
from anthropic.types.beta import BetaRawMessageStreamEvent
from hypothesis import given
from hypothesis import strategies as st

from semantic_chat import FinishReason, ProviderError, TextContent
from semantic_chat.contents import UnknownContent
from semantic_chat.errors import FormatError
from semantic_chat.formats import anthropic, gemini
from semantic_chat.formats.wire import ConversionWarning
from semantic_chat.streaming import StreamingChatMessageContent, StreamingTextContent

OVERLOADED = {"code": 503, "message": "The model is overloaded. Please try again later.",
              "status": "UNAVAILABLE"}
HEAD = {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
        "stop_sequence": None, "usage": {"input_tokens": 10, "output_tokens": 20}}
CITATION = {"type": "char_location", "cited_text": "c", "document_index": 0,
            "document_title": None, "start_char_index": 0, "end_char_index": 1}


def _accumulate(events: list[Any]) -> Any:
    return StreamingChatMessageContent.accumulate(anthropic.from_stream(events)).to_message()


def _start(index: int, block: dict[str, Any]) -> dict[str, Any]:
    return {"type": "content_block_start", "index": index, "content_block": block}


def _delta(index: int, delta: dict[str, Any]) -> dict[str, Any]:
    return {"type": "content_block_delta", "index": index, "delta": delta}


def _stop(index: int) -> dict[str, Any]:
    return {"type": "content_block_stop", "index": index}


def _opening() -> dict[str, Any]:
    return {"type": "message_start", "message": {
        **HEAD, "content": [], "stop_reason": None, "usage": {"input_tokens": 10,
                                                               "output_tokens": 1}}}


def _closing(reason: str = "end_turn") -> list[dict[str, Any]]:
    return [{"type": "message_delta", "delta": {"stop_reason": reason, "stop_sequence": None},
             "usage": {"output_tokens": 20}},
            {"type": "message_stop"}]


# --- Gemini: an error object raises ProviderError ------------------------------------------


def test_a_gemini_error_chunk_mid_stream_raises_after_what_came_before():
    chunks = [
        {"candidates": [{"content": {"parts": [{"text": "Once upon"}], "role": "model"},
                         "index": 0}], "modelVersion": "gemini-2.5-flash", "responseId": "r7"},
        {"error": OVERLOADED},
    ]
    given_before: list[Any] = []
    with pytest.raises(ProviderError) as raised:
        given_before.extend(gemini.from_stream(chunks))
    assert str(raised.value) == (
        "chunks[1].error: UNAVAILABLE: The model is overloaded. Please try again later."
    )
    assert raised.value.error_type == "UNAVAILABLE"
    assert isinstance(raised.value, RuntimeError)
    assert [chunk.items for chunk in given_before] == [[StreamingTextContent("Once upon",
                                                                            index=0)]]


def test_a_gemini_error_body_raises_from_response():
    with pytest.raises(ProviderError) as raised:
        gemini.from_response({"error": OVERLOADED})
    assert str(raised.value) == (
        "response.error: UNAVAILABLE: The model is overloaded. Please try again later."
    )
    assert raised.value.path == "response.error"


@pytest.mark.parametrize(("error", "message", "error_type"), [
    ({"code": 429, "message": "Resource exhausted"}, "chunks[0].error: 429: Resource exhausted",
     None),
    ({"status": "INTERNAL"}, "chunks[0].error: INTERNAL: the API reported an error", "INTERNAL"),
    ("boom", "chunks[0].error: error: boom", None),
])
def test_a_gemini_error_object_of_any_shape_raises_located(error, message, error_type):
    with pytest.raises(ProviderError) as raised:
        list(gemini.from_stream([{"error": error}]))
    assert (str(raised.value), raised.value.error_type) == (message, error_type)


def test_a_gemini_chunk_that_is_not_an_object_is_still_a_format_error():
    with pytest.raises(FormatError) as raised:
        list(gemini.from_stream([["error"]]))
    assert str(raised.value).startswith("chunks[0]: expected a GenerateContentResponse")


# --- Anthropic: a block of an unknown type takes its deltas ----------------------------------

COMPACTION = [
    _opening(),
    _start(0, {"type": "compaction", "content": None, "encrypted_content": None}),
    _delta(0, {"type": "compaction_delta", "content": "Summary: Paris weather.",
               "encrypted_content": "EqQBCgIYAhIM"}),
    _stop(0),
    _start(1, {"type": "text", "text": ""}),
    _delta(1, {"type": "text_delta", "text": "Continuing."}),
    _stop(1),
    *_closing(),
]


def test_a_compaction_block_takes_its_delta_as_the_sdk_accumulates_it():
    events = pydantic.TypeAdapter(list[BetaRawMessageStreamEvent]).validate_python(COMPACTION)
    snapshot = None
    for event in events:
        snapshot = accumulate_event(event=event, current_snapshot=snapshot, json_bufs={},
                                    request_headers={})
    assert snapshot is not None
    final = snapshot.model_dump(exclude_none=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        from_dicts, from_objects = _accumulate(COMPACTION), _accumulate(events)
    assert from_dicts.items == [
        UnknownContent("compaction", {"content": "Summary: Paris weather.",
                                      "encrypted_content": "EqQBCgIYAhIM"}),
        TextContent("Continuing."),
    ]
    assert from_dicts == from_objects == anthropic.from_response(final)


NEWER = {"anthropic": {"block": True}}  # the reader's mark on a block type newer than it


def test_a_newer_blocks_text_deltas_join_as_text_deltas_do():
    events = [_opening(), _start(0, {"type": "future", "note": "", "extra": None}),
              _delta(0, {"type": "future_delta", "note": "ab"}),
              _delta(0, {"type": "future_delta", "note": "cd", "extra": 3}),
              _stop(0), *_closing()]
    assert _accumulate(events).items == [
        UnknownContent("future", {"note": "abcd", "extra": 3}, metadata=NEWER),
    ]


@pytest.mark.parametrize(("block", "delta", "detail"), [
    ({"type": "compaction", "content": None}, {"type": "compaction_delta", "summary": "x"},
     "a compaction_delta whose fields are not those of its compaction block (summary)"),
    ({"type": "counter", "count": 1}, {"type": "count_delta", "count": 2},
     "a count_delta whose fields are not those of its counter block (count)"),
    ({"type": "marker"}, {"type": "marker_delta"},
     "a marker_delta whose fields are not those of its marker block (none)"),
])
def test_a_delta_that_cannot_fold_in_warns_naming_it_and_the_block_stays(block, delta, detail):
    events = [_opening(), _start(0, block), _delta(0, delta), _stop(0), *_closing()]
    with pytest.warns(ConversionWarning) as caught:
        reply = _accumulate(events)
    assert [str(w.message) for w in caught] == [
        f"events[2].delta: dropped: {detail}: the reader cannot fold it in"
    ]
    fields = {key: value for key, value in block.items() if key != "type"}
    metadata = None if block["type"] == "compaction" else NEWER  # a newer type is marked
    assert reply.items == [UnknownContent(block["type"], fields, metadata=metadata)]


def test_a_malformed_delta_of_a_newer_block_is_located():
    events = [_opening(), _start(0, {"type": "compaction", "content": None}),
              _delta(0, {"content": "x"}), _stop(0)]
    with pytest.raises(FormatError) as raised:
        list(anthropic.from_stream(events))
    assert str(raised.value) == "events[2].delta: missing 'type'"


# --- Anthropic: a server_tool_use cut short keeps its input text ------------------------------

TEXT = [_start(0, {"type": "text", "text": ""}),
        _delta(0, {"type": "text_delta", "text": "Let me search."}), _stop(0)]
SEARCH = [_start(1, {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search",
                     "input": {}}),
          _delta(1, {"type": "input_json_delta", "partial_json": '{"query": "weath'})]
CUT_SEARCH = UnknownContent("server_tool_use", {"id": "srvtoolu_1", "name": "web_search",
                                                "input": '{"query": "weath'})


def test_a_server_tool_input_cut_by_max_tokens_stays_text():
    reply = _accumulate([_opening(), *TEXT, *SEARCH, _stop(1), *_closing("max_tokens")])
    assert reply.items == [TextContent("Let me search."), CUT_SEARCH]
    assert reply.finish_reason == FinishReason.LENGTH


def test_a_stream_ending_inside_a_server_tool_block_gives_it_as_it_stands():
    assert _accumulate([_opening(), *TEXT, *SEARCH]).items == [
        TextContent("Let me search."), CUT_SEARCH,
    ]


def test_a_stream_ending_inside_a_newer_block_gives_it_with_its_deltas():
    reply = _accumulate(COMPACTION[:3])
    assert reply.items == [UnknownContent("compaction", {
        "content": "Summary: Paris weather.", "encrypted_content": "EqQBCgIYAhIM"})]


# --- Anthropic: "citations": null then citations --------------------------------------------


def test_a_text_started_with_null_citations_then_cited_has_no_stale_hint():
    events = [_opening(), _start(0, {"type": "text", "text": "", "citations": None}),
              _delta(0, {"type": "text_delta", "text": "cited"}),
              _delta(0, {"type": "citations_delta", "citation": CITATION}), _stop(0),
              *_closing()]
    reply = _accumulate(events)
    final = {**HEAD, "stop_reason": "end_turn",
             "content": [{"type": "text", "text": "cited", "citations": [CITATION]}]}
    assert reply == anthropic.from_response(final)
    assert reply.items[0].metadata == {}


def test_a_text_started_with_null_citations_and_never_cited_keeps_its_null():
    events = [_opening(), _start(0, {"type": "text", "text": "", "citations": None}),
              _delta(0, {"type": "text_delta", "text": "plain"}), _stop(0), *_closing()]
    reply = _accumulate(events)
    final = {**HEAD, "stop_reason": "end_turn",
             "content": [{"type": "text", "text": "plain", "citations": None}]}
    assert reply == anthropic.from_response(final)
    assert reply.items[0].metadata == {"anthropic": {"fields": {"citations": None}}}


# --- property: the stream accumulates to from_response of its final message ---------------

_texts = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)


def _pieces(draw: Any, text: str) -> list[str]:
    """``text`` cut at a few drawn places (one empty piece for no text)."""
    cuts = sorted(draw(st.sets(st.integers(1, max(1, len(text) - 1)), max_size=3)))
    edges = [0, *(cut for cut in cuts if cut < len(text)), len(text)]
    return [text[a:b] for a, b in pairwise(edges)] or [""]


@st.composite
def _blocks(draw: Any, index: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """One block of a final message and the events that stream it at ``index``."""
    kind = draw(st.sampled_from(["text", "compaction", "server_tool_use"]))
    if kind == "compaction":
        content, secret = draw(_texts), draw(_texts)
        return ({"type": "compaction", "content": content, "encrypted_content": secret}, [
            _start(index, {"type": "compaction", "content": None, "encrypted_content": None}),
            _delta(index, {"type": "compaction_delta", "content": content,
                           "encrypted_content": secret}),
        ])
    if kind == "server_tool_use":
        query = draw(st.dictionaries(st.sampled_from(["query", "url"]), _texts, max_size=2))
        block = {"type": "server_tool_use", "id": f"srvtoolu_{index}", "name": "web_search"}
        return ({**block, "input": query}, [
            _start(index, {**block, "input": {}}),
            *(_delta(index, {"type": "input_json_delta", "partial_json": piece})
              for piece in _pieces(draw, json.dumps(query))),
        ])
    text = draw(_texts)
    started = draw(st.sampled_from(["absent", "null", "empty"]))
    cited = draw(st.lists(st.builds(lambda t: {**CITATION, "cited_text": t}, _texts),
                          max_size=2))
    start: dict[str, Any] = {"type": "text", "text": ""}
    if started != "absent":
        start["citations"] = None if started == "null" else []
    final = {**start, "text": text}
    if cited:
        final["citations"] = cited
    return (final, [
        _start(index, start),
        *(_delta(index, {"type": "text_delta", "text": piece}) for piece in _pieces(draw, text)),
        *(_delta(index, {"type": "citations_delta", "citation": c}) for c in cited),
    ])


@st.composite
def _streams(draw: Any) -> tuple[dict[str, Any], list[dict[str, Any]], bool]:
    """A final message, its stream, and whether it ends: else cut inside its last block."""
    count = draw(st.integers(1, 4))
    drawn = [draw(_blocks(index)) for index in range(count)]
    events = [_opening()]
    for index, (_, streamed) in enumerate(drawn):
        events += [*streamed, _stop(index)]
    final = {**HEAD, "stop_reason": "end_turn", "content": [block for block, _ in drawn]}
    if draw(st.booleans()):
        return final, [*events, *_closing()], True
    return final, events[:-1], False


@given(_streams())
def test_an_anthropic_stream_accumulates_to_from_response_of_its_final_message(stream):
    final, events, ended = stream
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        reply = _accumulate(events)
    expected = anthropic.from_response(final)
    assert reply.items == expected.items  # a cut stream: each block as it stands
    if ended:  # the message's own fields come with message_delta
        assert anthropic.to_payload(reply) == anthropic.to_payload(expected)
        assert (reply.id, reply.finish_reason, reply.usage, reply.metadata) == (
            expected.id, expected.finish_reason, expected.usage, expected.metadata
        )
