"""Usage, options and citations of a newer version through `to_dict` / `from_dict` on their own.

What was seen: inside a history their newer keys were kept, but on their own
``to_dict(usage)`` dropped them (``{'prompt_tokens': 1, 'completion_tokens': 2}``),
``to_dict(options)`` and ``to_dict(citation)`` wrote them under a key ``unknown_keys``, and
``from_dict(data, ChatOptions)`` / ``from_dict(data, Citation)`` dropped a key they did not
know without a word. The prompt text, which writes a message's usage with ``to_dict``,
lost the counts with them.
"""

from __future__ import annotations

import json
import string
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from semantic_chat import (
    ChatHistory,
    ChatOptions,
    ChatOptionsWithUnknownKeys,
    Citation,
    CitationWithUnknownKeys,
    Usage,
    UsageWithUnknownKeys,
    formats,
)
from semantic_chat.errors import SerializationError, UnsupportedContentError
from semantic_chat.formats import ConversionWarning
from semantic_chat.serialization import from_dict, from_json, to_dict, to_json

NEWER = '{"version":1,"messages":[{"role":"assistant","items":[],"usage":{"prompt_tokens":1,"completion_tokens":2,"future_tokens":5}}]}'


def test_usage_of_a_newer_version_keeps_its_counts_on_its_own() -> None:
    usage = from_json(NEWER, ChatHistory)[0].usage
    assert type(usage) is UsageWithUnknownKeys
    assert to_dict(usage) == {"prompt_tokens": 1, "completion_tokens": 2, "future_tokens": 5}
    assert from_dict(to_dict(usage), Usage) == usage


def test_options_of_a_newer_version_are_written_with_their_keys_in_place() -> None:
    options = from_dict({"model": "m", "temperature": 0.5, "future_knob": [1]}, ChatOptions)
    assert type(options) is ChatOptionsWithUnknownKeys
    assert options.unknown_keys == {"future_knob": [1]}
    assert to_dict(options) == {"model": "m", "temperature": 0.5, "future_knob": [1]}
    assert from_dict(to_dict(options), ChatOptions) == options
    assert to_json(options) == '{"model":"m","temperature":0.5,"future_knob":[1]}'


def test_a_citation_of_a_newer_version_is_written_with_its_keys_in_place() -> None:
    citation = from_dict({"url": "https://x.test", "future_rank": 2}, Citation)
    assert citation == CitationWithUnknownKeys(url="https://x.test",
                                               unknown_keys={"future_rank": 2})
    assert to_dict(citation) == {"url": "https://x.test", "future_rank": 2}
    assert from_dict(to_dict(citation), Citation) == citation


def test_plain_ones_are_written_as_before() -> None:
    assert to_dict(Usage(prompt_tokens=3)) == {"prompt_tokens": 3}
    assert to_dict(ChatOptions(model="m", max_tokens=9)) == {"model": "m", "max_tokens": 9}
    assert to_dict(Citation(title="T", text_start=0)) == {"title": "T", "text_start": 0}


@pytest.mark.parametrize(("data", "cls", "message"), [
    ({"model": "m", "future_knob": 1}, ChatOptions,
     "future_knob: no option 'future_knob' in this version (data of a newer version): read it "
     "without strict=True to keep it"),
    ({"url": "u", "future_rank": 1}, Citation,
     "future_rank: no citation field 'future_rank' in this version (data of a newer version): "
     "read it without strict=True to keep it"),
])
def test_strict_refuses_a_newer_key_at_its_name(data: Any, cls: type, message: str) -> None:
    with pytest.raises(SerializationError) as raised:
        from_dict(data, cls, strict=True)
    assert str(raised.value) == message


@pytest.mark.parametrize(("data", "cls", "message"), [
    ({"model": 5}, ChatOptions, "model: expected a str or None, got int"),
    ({"temperature": "hot", "future": 1}, ChatOptions,
     "temperature: expected a number or None, got str"),
    ([], ChatOptions, "expected an options object, got list"),
    ({"url": 5}, Citation, "url: expected a str or None, got int"),
    ("x", Citation, "expected a citation object, got str"),
])
def test_bad_ones_on_their_own_are_refused_at_their_field(
    data: Any, cls: type, message: str
) -> None:
    with pytest.raises(SerializationError) as raised:
        from_dict(data, cls)
    assert str(raised.value) == message


def test_in_a_history_an_option_error_is_still_located_under_options() -> None:
    with pytest.raises(SerializationError) as raised:
        from_json('{"version":1,"options":{"model":5},"messages":[]}')
    assert str(raised.value) == "options.model: expected a str or None, got int"


_KEYS = st.text(string.ascii_lowercase, min_size=1, max_size=8).map(lambda k: "future_" + k)
_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-9, 9) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=3), inner,
                                                               max_size=2),
    max_leaves=4)
_NEWER = st.dictionaries(_KEYS, _VALUES, max_size=3)


@given(_NEWER, st.fixed_dictionaries({}, optional={
    "prompt_tokens": st.integers(0, 99), "completion_tokens": st.integers(0, 99),
    "cached_tokens": st.integers(0, 9)}))
def test_property_usage_round_trips_on_its_own(newer: dict[str, Any], known: dict[str, Any]) -> None:
    usage = from_dict({**known, **newer}, Usage)
    written = to_dict(usage)
    assert from_dict(written, Usage) == usage
    assert {key: written[key] for key in newer} == newer


@given(_NEWER, st.fixed_dictionaries({}, optional={
    "model": st.text(max_size=5), "temperature": st.floats(0, 2), "seed": st.integers(0, 9),
    "extra": st.dictionaries(st.text(max_size=3), st.integers(-99, 99), max_size=2)}))
def test_property_options_round_trip_on_their_own(
    newer: dict[str, Any], known: dict[str, Any]
) -> None:
    options = from_dict({**known, **newer}, ChatOptions)
    written = to_dict(options)
    assert from_dict(written, ChatOptions) == options
    assert {key: written[key] for key in newer} == newer


@given(_NEWER, st.fixed_dictionaries({}, optional={
    "url": st.text(max_size=5), "title": st.text(max_size=5),
    "text_start": st.integers(0, 9)}))
def test_property_citations_round_trip_on_their_own(
    newer: dict[str, Any], known: dict[str, Any]
) -> None:
    citation = from_dict({**known, **newer}, Citation)
    written = to_dict(citation)
    assert from_dict(written, Citation) == citation
    assert {key: written[key] for key in newer} == newer


# --- a history's own keys of a newer version, through the provider writers ------------------

TOP = ('{"version":1,"future_top":{"a":1},'
       '"messages":[{"role":"user","items":[{"type":"text","text":"hi"}]}]}')


@pytest.mark.parametrize(("name", "label"), [
    ("openai-chat", "OpenAI Chat Completions"), ("openai-responses", "OpenAI Responses"),
    ("anthropic", "Anthropic Messages"), ("gemini", "Gemini"),
    ("sk-python", "Semantic Kernel (Python)"), ("sk-dotnet", ".NET Semantic Kernel"),
])
def test_every_provider_writer_reports_a_newer_history_key_and_never_sends_it(
    name: str, label: str
) -> None:
    # What was seen: anthropic.to_payload(from_json(TOP)) gave {"messages": [...]} without a
    # word, and so did every other writer.
    history = from_json(TOP, ChatHistory)
    writer = formats.get(name)
    with pytest.warns(ConversionWarning) as caught:
        payload = writer.to_payload(history)
    assert [str(note.message) for note in caught] == [
        f"future_top: dropped: {label} cannot carry the history key 'future_top' (unknown to "
        "this version)"]
    assert "future_top" not in json.dumps(payload)
    with pytest.raises(UnsupportedContentError) as raised:
        writer.to_payload(history, on_unsupported="error")
    assert raised.value.path == "future_top"


@pytest.mark.parametrize(("document", "message"), [
    ('{"version":1,"messages":[{"role":"user","itmes":[]}]}',
     "messages[0].itmes: no message field 'itmes' in this version (data of a newer version): "
     "read it without strict=True to keep it"),
    ('{"version":1,"mesages":[]}',
     "mesages: no history key 'mesages' in this version (data of a newer version): read it "
     "without strict=True to keep it"),
])
def test_strict_refuses_a_message_or_history_key_it_does_not_know(
    document: str, message: str
) -> None:
    # What was seen: with strict=True a misspelled "itmes" read silently as a message of no
    # items (an UnknownMessage), and a history key "mesages" was kept, where strict refuses
    # an item's, usage's, options' and citation's unknown keys.
    with pytest.raises(SerializationError) as raised:
        from_json(document, strict=True)
    assert str(raised.value) == message
    assert from_json(document) is not None  # not strict: kept, as before
