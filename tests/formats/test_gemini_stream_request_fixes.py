"""Gemini fixes: grounding on a chunk without text, and every thinking level both ways.

A stream's ``grounding_metadata`` may come on a chunk whose only part is a function call (or
on one without parts): its citations still reach the text they cite, as `from_response` of
the answer given whole puts them. google-genai's ``types.ThinkingLevel`` has ``XHIGH``: it
reads as the reasoning effort ``"xhigh"`` and writes back, as every other member does.
"""

from __future__ import annotations

import warnings
from typing import Any

import attrs
import pytest
from google.genai import types
from hypothesis import given
from hypothesis import strategies as st

from semantic_chat import ChatHistory, ChatMessageContent, ChatOptions, Citation, formats
from semantic_chat.errors import FormatError
from semantic_chat.formats import gemini
from semantic_chat.streaming import StreamingChatMessageContent, StreamingTextContent

WEB = {"web": {"uri": "https://meteo.example/paris", "title": "meteo.example"}}
CALL = {"function_call": {"name": "book_table", "args": {"city": "Paris"}}}
HINT = {"gemini": {"kind": "grounding", "chunk": "web"}}


def _chunk(parts: list[dict[str, Any]] | None, **fields: Any) -> dict[str, Any]:
    content = {} if parts is None else {"content": {"role": "model", "parts": parts}}
    return {"candidates": [{**content, "index": 0, **fields}]}


def _grounding(*segments: tuple[int, int, int]) -> dict[str, Any]:
    """Grounding by the one web chunk of ``(part_index, start, end)`` segments."""
    return {"grounding_chunks": [WEB], "grounding_supports": [
        {"segment": {"part_index": part, "start_index": start, "end_index": end},
         "grounding_chunk_indices": [0]} for part, start, end in segments]}


def _cite(start: int, end: int) -> Citation:
    return Citation(title="meteo.example", url="https://meteo.example/paris", source_index=0,
                    text_start=start, text_end=end, metadata=HINT)


def _quietly(call: Any) -> tuple[Any, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call()
    return result, [str(note.message) for note in caught]


def _streamed(chunks: list[dict[str, Any]]) -> Any:
    return StreamingChatMessageContent.accumulate(gemini.from_stream(chunks)).to_message()


# --- grounding on a chunk without text ---------------------------------------------------------


def test_grounding_on_a_chunk_whose_only_part_is_a_call_cites_the_text_before():
    grounding = _grounding((0, 0, 15))
    chunks = [_chunk([{"text": "Paris is sunny."}]),
              _chunk([CALL], finish_reason="STOP", grounding_metadata=grounding)]
    whole = _chunk([{"text": "Paris is sunny."}, CALL], finish_reason="STOP",
                   grounding_metadata=grounding)
    (reply, expected), notes = _quietly(lambda: (_streamed(chunks), gemini.from_response(whole)))
    assert reply.items[0].citations == (_cite(0, 15),)
    assert reply == expected
    assert notes == []
    # The citation comes as an empty fragment of part 0, after the call it came with.
    last = list(gemini.from_stream(chunks))[-1]
    assert [type(item) for item in last.items][1:] == [StreamingTextContent]
    assert last.items[1].index == 0
    assert last.items[1].citations == (_cite(0, 15),)


def test_grounding_on_a_last_chunk_without_parts_cites_the_text():
    grounding = _grounding((0, 6, 15))
    chunks = [_chunk([{"text": "Paris "}]), _chunk([{"text": "is sunny."}]),
              _chunk(None, finish_reason="STOP", grounding_metadata=grounding)]
    whole = _chunk([{"text": "Paris is sunny."}], finish_reason="STOP",
                   grounding_metadata=grounding)
    reply = _streamed(chunks)
    assert reply.items[0].citations == (_cite(6, 15),)
    assert reply == gemini.from_response(whole)


def test_grounding_cites_an_earlier_text_part_than_the_last_one():
    grounding = _grounding((0, 0, 5), (2, 0, 4))
    parts = [{"text": "Paris"}, CALL, {"text": "Done"}]
    chunks = [_chunk(parts[:1]), _chunk(parts[1:2]),
              _chunk(parts[2:], finish_reason="STOP", grounding_metadata=grounding)]
    reply = _streamed(chunks)
    assert [getattr(item, "citations", None) for item in reply.items] == [
        (_cite(0, 5),), None, (_cite(0, 4),)]
    expected = gemini.from_response(_chunk(parts, finish_reason="STOP",
                                           grounding_metadata=grounding))
    assert reply == expected


def test_a_support_given_twice_cites_twice_as_the_whole_answer_does():
    grounding = _grounding((0, 0, 5), (0, 0, 5))
    chunks = [_chunk([{"text": "Paris"}]),
              _chunk([CALL], finish_reason="STOP", grounding_metadata=grounding)]
    reply = _streamed(chunks)
    assert reply.items[0].citations == (_cite(0, 5), _cite(0, 5))
    assert reply == gemini.from_response(
        _chunk([{"text": "Paris"}, CALL], finish_reason="STOP", grounding_metadata=grounding))


def test_grounding_repeated_on_later_chunks_cites_once():
    grounding = _grounding((0, 0, 5))
    chunks = [_chunk([{"text": "Paris"}], grounding_metadata=grounding),
              _chunk([CALL], grounding_metadata=grounding),
              _chunk([{"text": ""}], finish_reason="STOP", grounding_metadata=grounding)]
    reply = _streamed(chunks)
    assert reply.items[0].citations == (_cite(0, 5),)
    assert reply == gemini.from_response(
        _chunk([{"text": "Paris"}, CALL], finish_reason="STOP", grounding_metadata=grounding))


def test_recitation_over_two_texts_cites_both_when_it_comes_with_a_call():
    recited = {"citations": [{"start_index": 3, "end_index": 7, "uri": "https://a.example"}]}
    chunks = [_chunk([{"text": "abcde"}]), _chunk([CALL]), _chunk([{"text": "fgh"}]),
              _chunk([CALL], finish_reason="STOP", citation_metadata=recited)]
    reply = _streamed(chunks)
    spans = [[(c.text_start, c.text_end) for c in getattr(item, "citations", ())]
             for item in reply.items]
    assert spans == [[(3, 5)], [], [(0, 2)], []]
    whole = _chunk([{"text": "abcde"}, CALL, {"text": "fgh"}, CALL], finish_reason="STOP",
                   citation_metadata=recited)
    assert reply == gemini.from_response(whole)


def test_a_segment_beyond_the_streamed_text_is_located_in_its_chunk():
    chunks = [_chunk([{"text": "Paris"}]),
              _chunk([CALL], finish_reason="STOP", grounding_metadata=_grounding((0, 0, 9)))]
    with pytest.raises(FormatError) as raised:
        list(gemini.from_stream(chunks))
    assert str(raised.value) == (
        "chunks[1].candidates[0].grounding_metadata.grounding_supports[0].segment.end_index: "
        "byte offset 9 is beyond the text (5 bytes)")


_texts = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1,
                 max_size=10)


@st.composite
def _grounded_streams(draw: Any) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Texts and calls (no two texts in a row), cut into chunks; grounding of random byte spans
    of the texts on the last chunk, which may hold a call, nothing, or text."""
    kinds = draw(st.lists(st.sampled_from(["text", "call"]), min_size=1, max_size=5))
    parts: list[dict[str, Any]] = []
    for kind in kinds:
        if kind == "call":
            parts.append(CALL)
        elif not parts or "text" not in parts[-1]:
            parts.append({"text": draw(_texts)})
    texts = [index for index, part in enumerate(parts) if "text" in part]
    segments = []
    for index in draw(st.lists(st.sampled_from(texts), max_size=4)) if texts else []:
        size = len(parts[index]["text"].encode())
        start = draw(st.integers(0, size))
        segments.append((index, start, draw(st.integers(start, size))))
    grounding = _grounding(*segments)
    pieces = list(parts)
    chunks: list[dict[str, Any]] = []
    while pieces:
        take = draw(st.integers(1, len(pieces)))
        chunks.append(_chunk(pieces[:take]))
        pieces = pieces[take:]
    if draw(st.booleans()):
        chunks.append(_chunk(draw(st.sampled_from([None, [], [{"text": ""}]]))))
    chunks[-1]["candidates"][0].update(finish_reason="STOP", grounding_metadata=grounding)
    return chunks, _chunk(parts, finish_reason="STOP", grounding_metadata=grounding)


@given(_grounded_streams())
def test_grounding_on_any_last_chunk_accumulates_to_from_response(case):
    chunks, whole = case
    reply, expected = _streamed(chunks), gemini.from_response(whole)
    assert reply.items == expected.items
    assert reply == expected
    assert gemini.to_payload(reply) == gemini.to_payload(expected)


# --- thinking levels ---------------------------------------------------------------------------

# The levels that are efforts; THINKING_LEVEL_UNSPECIFIED says there is none (tested below).
LEVELS = [level.value for level in types.ThinkingLevel if level.value != "THINKING_LEVEL_UNSPECIFIED"]


def _body(level: str) -> dict[str, Any]:
    return {"contents": [{"role": "user", "parts": [{"text": "hi"}]}],
            "generation_config": {"thinking_config": {"thinking_level": level}}}


def test_the_installed_sdk_has_xhigh():
    assert "XHIGH" in LEVELS


@pytest.mark.parametrize("level", LEVELS)
def test_every_sdk_thinking_level_reads_as_an_effort_and_writes_back(level):
    history = gemini.from_request(_body(level))
    assert history.options.reasoning_effort == level.lower()
    history.options = ChatOptions(reasoning_effort=level.lower())  # no hint of the spelling
    written, notes = _quietly(lambda: gemini.to_request(history))
    assert written["generation_config"] == {"thinking_config": {"thinking_level": level}}
    assert notes == []


def test_xhigh_survives_a_trip_through_chat_completions():
    (chat, back), notes = _quietly(lambda: (
        formats.convert(_body("XHIGH"), target="openai-chat"),
        formats.convert(formats.convert(_body("XHIGH"), target="openai-chat"), target="gemini")))
    assert chat == {"messages": [{"role": "user", "content": "hi"}], "reasoning_effort": "xhigh"}
    assert back == _body("XHIGH")
    assert notes == []


def test_the_effort_none_is_still_reported_as_dropped():
    history = ChatHistory([ChatMessageContent("user", "hi")])
    history.options = ChatOptions(reasoning_effort="none")
    written, notes = _quietly(lambda: gemini.to_request(history))
    assert "generation_config" not in written
    assert notes == ['options.reasoning_effort: dropped: Gemini cannot carry the reasoning '
                     'effort "none"']


def test_the_installed_sdk_has_the_unspecified_level():
    assert [level.value for level in types.ThinkingLevel if level.value not in LEVELS] == [
        "THINKING_LEVEL_UNSPECIFIED"]


def test_an_unspecified_thinking_level_is_no_effort_and_round_trips_in_its_config():
    body = _body("THINKING_LEVEL_UNSPECIFIED")
    history = gemini.from_request(body)
    assert history.options.reasoning_effort is None
    assert history.options.extra == {
        "thinking_config": {"thinking_level": "THINKING_LEVEL_UNSPECIFIED"}}
    assert gemini.to_request(history) == body


def test_an_unspecified_thinking_level_is_reported_not_sent_to_chat_as_an_effort():
    chat, notes = _quietly(lambda: formats.convert(
        _body("THINKING_LEVEL_UNSPECIFIED"), target="openai-chat"))
    assert chat == {"messages": [{"role": "user", "content": "hi"}]}
    assert notes == ['options.extra["thinking_config"]: dropped: OpenAI Chat Completions '
                     "cannot carry the request field 'thinking_config'"]


def test_an_effort_given_later_wins_over_a_kept_unspecified_level():
    history = gemini.from_request(_body("THINKING_LEVEL_UNSPECIFIED"))
    history.options = attrs.evolve(history.options, reasoning_effort="high")
    assert gemini.to_request(history)["generation_config"] == {
        "thinking_config": {"thinking_level": "HIGH"}}


def test_the_effort_thinking_level_unspecified_is_reported_as_dropped():
    history = ChatHistory([ChatMessageContent("user", "hi")])
    history.options = ChatOptions(reasoning_effort="thinking_level_unspecified")
    written, notes = _quietly(lambda: gemini.to_request(history))
    assert "generation_config" not in written
    assert notes == ["options.reasoning_effort: dropped: Gemini cannot carry the reasoning "
                     'effort "thinking_level_unspecified"']


def test_a_thinking_level_that_is_no_string_is_located():
    body = {"contents": [], "generationConfig": {"thinkingConfig": {"thinkingLevel": ["XHIGH"]}}}
    with pytest.raises(FormatError) as raised:
        gemini.from_request(body)
    assert str(raised.value) == (
        "generationConfig.thinkingConfig.thinking_level: expected str, got list")


@given(st.sampled_from(LEVELS), st.sampled_from([str.upper, str.lower]))
def test_a_thinking_level_round_trips_through_gemini_and_through_chat(level, spell):
    body = _body(spell(level))
    assert gemini.to_request(gemini.from_request(body)) == body
    via_chat, notes = _quietly(lambda: formats.convert(
        formats.convert(body, target="openai-chat"), target="gemini"))
    assert via_chat == _body(level.upper())  # Chat keeps no spelling: the SDK's upper case
    assert notes == []
