"""Gemini: ids the readers made up stay unwritten after `repair` renamed a repeated one.

Replies read one by one (``from_response``, as an agent loop reads them) each number their
calls from ``gemini-call-0-0``, so a history of several has repeated ids. `repair` without a
format renames each repeat (``gemini-call-0-0-2``) with its results. What was seen: the
Gemini writer no longer knew such an id for one it made up and sent it to the API.
"""

from __future__ import annotations

import warnings
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from semantic_chat import (
    ChatHistory,
    ChatMessageContent,
    FunctionCallContent,
    FunctionResultContent,
)
from semantic_chat.formats import gemini
from semantic_chat.formats.gemini.shared import is_made_id
from semantic_chat.history_ops import repair, validate


def _reply(cities: list[str]) -> dict[str, Any]:
    parts = [{"function_call": {"name": "weather", "args": {"city": city}}} for city in cities]
    return {"candidates": [{"content": {"role": "model", "parts": parts}}]}


def _loop(turns: list[tuple[list[str], list[int]]]) -> ChatHistory:
    """An agent loop: a question, a reply of calls read alone, results in the order given."""
    history = ChatHistory()
    for cities, order in turns:
        history.add_user_message("Weather?")
        reply = gemini.from_response(_reply(cities))
        history.append(reply)
        calls = reply.items.of_type(FunctionCallContent)
        results = [calls[k].to_result(f"{cities[k]}: {k}") for k in order]
        history.append(ChatMessageContent("tool", items=results))
    return history


def _silently(history: ChatHistory) -> dict[str, Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return gemini.to_payload(history)


def test_a_renamed_made_up_id_is_still_never_written() -> None:
    history = _loop([(["Paris", "Oslo"], [1, 0]), (["Rome", "Bern"], [1, 0])])
    fixed, changes = repair(history)
    assert [change.message for change in changes] == [
        "call 'gemini-call-0-0' (weather) to 'gemini-call-0-0-2', with its results: the call at "
        "messages[1].items[0] has its id (each call's id must be unique)",
        "call 'gemini-call-0-1' (weather) to 'gemini-call-0-1-2', with its results: the call at "
        "messages[1].items[1] has its id (each call's id must be unique)",
    ]
    payload = _silently(fixed)
    assert payload["contents"][4:] == [
        {"role": "model", "parts": [
            {"function_call": {"name": "weather", "args": {"city": "Rome"}}},
            {"function_call": {"name": "weather", "args": {"city": "Bern"}}}]},
        # in the order of their calls: Gemini pairs a result with the first call of its name
        {"role": "user", "parts": [
            {"function_response": {"name": "weather", "response": {"result": "Rome: 0"}}},
            {"function_response": {"name": "weather", "response": {"result": "Bern: 1"}}}]},
    ]


def test_is_made_id_knows_repairs_suffix_and_nothing_else() -> None:
    assert is_made_id("gemini-call-0-0")
    assert is_made_id("gemini-call-12-3-2")
    assert not is_made_id("gemini-call-0-0-")
    assert not is_made_id("gemini-call-0-0-2-2")
    assert not is_made_id("gemini-call-0")
    assert not is_made_id("call_gemini-call-0-0")


_TURNS = st.lists(
    st.lists(st.sampled_from(["Paris", "Oslo", "Rome", "Bern"]), min_size=1, max_size=3).flatmap(
        lambda cities: st.tuples(st.just(cities), st.permutations(range(len(cities))))),
    min_size=1, max_size=4)


@given(_TURNS)
def test_a_repaired_gemini_loop_writes_no_made_up_id_and_pairs_every_result(
    turns: list[tuple[list[str], list[int]]],
) -> None:
    fixed, _ = repair(_loop(turns))
    assert validate(fixed) == []
    payload = _silently(fixed)
    for content in payload["contents"]:
        for part in content["parts"]:
            for key in ("function_call", "function_response"):
                assert "id" not in part.get(key, {}), part
    # Read back, each result answers the call it answered before: its text names the city.
    calls: dict[str, str] = {}
    answered = []
    for message in gemini.from_payload(payload):
        for item in message.items:
            if isinstance(item, FunctionCallContent):
                assert item.id is not None
                calls[item.id] = item.parse_arguments()["city"]
            elif isinstance(item, FunctionResultContent):
                assert isinstance(item.result, str)
                assert item.call_id is not None
                city, _, _ = item.result.partition(":")
                answered.append((calls[item.call_id], city))
    assert answered == [(city, city) for city, _ in answered]
    assert len(answered) == sum(len(cities) for cities, _ in turns)
