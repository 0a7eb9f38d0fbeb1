"""Google Gemini: property tests over histories and payloads the format carries.

What the format carries is written without a word: the round trips run with conversion
warnings turned into errors, so a loss reported for something it does carry fails. Payloads
are written back in the spelling they came in (``spelling=``), and read the same in either.
"""

from __future__ import annotations

import warnings
from typing import Any

import attrs
import pytest
from format_helpers import (
    assert_gemini_spelling,
    dumps_sorted,
    validate_gemini_payload,
)
from gemini_strategies import (
    gemini_histories,
    gemini_loose_histories,
    gemini_payloads,
    mixed,
    respell,
)
from google.genai import types as genai_types
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from json_backends import BACKENDS, backend
from strategies import histories

from semantic_chat import (
    ChatHistory,
    FunctionCallContent,
    FunctionResultContent,
    TextContent,
)
from semantic_chat.contents.metadata import peek_metadata
from semantic_chat.errors import FormatError, SemanticChatError
from semantic_chat.formats.gemini import reading, writing
from semantic_chat.formats.gemini.shared import is_made_id
from semantic_chat.formats.wire import ConversionWarning

SPELLINGS = pytest.mark.parametrize("spelling", ["snake", "camel"])

# Properties over the model's whole `histories()` cost more per example: half the profile's
# examples (the ci profile still runs more).
_COSTLY = settings(max_examples=max(settings.default.max_examples // 2, 10),
                   suppress_health_check=[HealthCheck.too_slow])


def _system(payload: dict[str, Any]) -> Any:
    return payload.get("system_instruction", payload.get("systemInstruction"))


def _read(payload: dict[str, Any]) -> ChatHistory:
    """``{"contents", "system_instruction"?}`` (either spelling) read by the reader."""
    return reading.from_payload(payload["contents"], _system(payload))


def _write(history: Any, spelling: str = "snake", **options: Any) -> dict[str, Any]:
    return writing.to_payload(history, spelling=spelling, **options)


def _parts(payload: dict[str, Any]) -> list[dict[str, Any]]:
    return [part for content in payload["contents"] for part in content["parts"]]


# --- histories ---------------------------------------------------------------------------


@SPELLINGS
@given(history=gemini_histories())
def test_history_reads_back_exactly_from_a_valid_payload(history, spelling):
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConversionWarning)
        payload = _write(history, spelling)
        validate_gemini_payload(payload)
        assert_gemini_spelling("payload", payload, spelling)
        read = _read(payload)
        assert read == history
        # and the payload is a fixed point
        assert _write(read, spelling) == payload


@given(gemini_loose_histories())
def test_normalised_history_is_a_fixed_point_after_one_write(history):
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConversionWarning)
        payload = _write(history)
        validate_gemini_payload(payload)
        read = _read(payload)
        again = _write(read)
        assert again == payload
        assert dumps_sorted(again) == dumps_sorted(payload)
        # the second read equals the first
        assert _read(again) == read
    # system and developer messages are one leading system message
    instructions = [m for m in history if str(m.role) in ("system", "developer")]
    roles = [str(message.role) for message in read]
    assert roles.count("system") == (1 if instructions else 0)
    assert "developer" not in roles
    if instructions:
        assert roles[0] == "system"
        texts = [item.text for m in instructions for item in m.items]
        if any(texts):  # an empty text beside others is left out (the API refuses one)
            texts = [text for text in texts if text]
        assert [item.text for item in read[0].items] == texts


@given(gemini_loose_histories())
def test_a_made_up_id_is_never_written_and_calls_and_results_still_pair(history):
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConversionWarning)
        payload = _write(history)
    for part in _parts(payload):
        for key in ("function_call", "function_response"):
            if key in part and "id" in part[key]:
                assert not is_made_id(part[key]["id"]), part
    # every result read back answers a call read before it, of the same name
    calls: dict[str, str] = {}
    for message in _read(payload):
        for item in message.items:
            if isinstance(item, FunctionCallContent):
                assert item.id is not None
                calls[item.id] = item.name
            elif isinstance(item, FunctionResultContent):
                assert calls.get(item.call_id) == item.name, (item, calls)


@given(gemini_histories(), st.sampled_from(["snake", "camel"]))
def test_the_quick_writer_agrees_with_the_general_writer(history, spelling):
    # to_payload writes common shapes directly; the general writer must give the same.
    general = writing._to_payload(history, None, writing._KEYS[spelling], False)
    assert dumps_sorted(_write(history, spelling)) == dumps_sorted(general)


@pytest.mark.parametrize("json_backend", BACKENDS)
@given(history=gemini_loose_histories())
def test_the_quick_writer_agrees_with_the_general_writer_on_loose_histories(
    history, json_backend
):
    # Arguments given as JSON text are parsed by the backend's loads in the quick loop.
    with backend(json_backend), warnings.catch_warnings():
        warnings.simplefilter("error", ConversionWarning)
        general = writing._to_payload(history, None, writing._KEYS["snake"], False)
        assert dumps_sorted(_write(history)) == dumps_sorted(general)


@given(gemini_payloads(extra_data_keys=True) | gemini_payloads("camel", extra_data_keys=True))
def test_the_quick_reader_agrees_with_the_general_reader(payload):
    # from_payload reads common shapes directly; the general reader must give the same.
    contents, system = payload["contents"], _system(payload)
    assert reading._from_payload(contents, system, True) == reading._from_payload(
        contents, system, False)


# --- payloads ----------------------------------------------------------------------------


@SPELLINGS
@given(data=st.data())
def test_valid_payload_reads_and_writes_back_exactly(data, spelling):
    payload = data.draw(gemini_payloads(spelling))
    validate_gemini_payload(payload)  # the strategy builds only what the SDK accepts
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConversionWarning)
        written = _write(_read(payload), spelling)
    assert written == payload
    assert dumps_sorted(written) == dumps_sorted(payload)


@SPELLINGS
@given(data=st.data())
def test_data_keys_this_code_does_not_model_are_written_back_exactly(data, spelling):
    payload = data.draw(gemini_payloads(spelling, extra_data_keys=True))
    validate_gemini_payload(payload)
    assert _write(_read(payload), spelling) == payload


@given(gemini_payloads(), st.data())
def test_a_payload_of_mixed_spelling_reads_the_same_and_is_written_in_one(payload, data):
    given_mixed = data.draw(mixed(payload))
    read = _read(given_mixed)
    assert read == _read(payload)
    assert _write(read, "snake") == payload
    assert _write(read, "camel") == respell(payload)


def _standard_base64(value: Any) -> Any:
    """The payload with its inline data in standard base64, as an SDK object gives it back."""
    if isinstance(value, list):
        return [_standard_base64(element) for element in value]
    if isinstance(value, dict):
        copied = {key: _standard_base64(element) for key, element in value.items()}
        if isinstance(copied.get("inline_data"), dict):
            blob = copied["inline_data"]
            copied["inline_data"] = {**blob, "data": blob["data"].translate(_URL_SAFE)}
        return copied
    return value


_URL_SAFE = str.maketrans("-_", "+/")


@given(gemini_payloads(extra_data_keys=True).map(_standard_base64))
def test_sdk_objects_read_as_their_json(payload):
    objects = [genai_types.Content.model_validate(c) for c in payload["contents"]]
    system = _system(payload)
    if isinstance(system, dict):
        system = genai_types.Content.model_validate(system)
    assert reading.from_payload(objects, system) == _read(payload)


_FUTURE_PARTS = st.sampled_from([
    {"future_part": {"kind": "x", "nested_key": {"a": 1}}},
    {"future_part": "plain value", "thought_signature": "c2ln"},
    {"future_part": [1, 2]},
])


@given(gemini_payloads(), st.data())
def test_a_data_key_newer_than_this_code_is_written_back_exactly(payload, data):
    # The SDK does not know these keys: no validation, only the round trip.
    for content in payload["contents"]:
        if content.get("role") == "model" and data.draw(st.booleans()):
            content["parts"].insert(data.draw(st.integers(0, len(content["parts"]))),
                                    data.draw(_FUTURE_PARTS))
    read = _read(payload)
    assert _write(read) == payload


# --- anything the model holds ------------------------------------------------------------


def _without_metadata(history: ChatHistory) -> ChatHistory:
    """The history without metadata: no hints the generator made up (``"gemini": junk``)."""
    for message in history:
        if peek_metadata(message):
            message.metadata.clear()
        for item in message.items:
            if peek_metadata(item):
                item.metadata.clear()
            if isinstance(item, TextContent) and item.citations:
                item.citations = [attrs.evolve(c, metadata={}) for c in item.citations]
    return history


def _written_or_refused(history: Any, on_unsupported: Any) -> tuple[Any, list[str]]:
    """The payload and the warnings, or the error that refused the history, and no warnings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            written: Any = _write(history, on_unsupported=on_unsupported)
        except SemanticChatError as error:
            written = error
    return written, [str(note.message) for note in caught if note.category is ConversionWarning]


@_COSTLY
@given(histories().map(_without_metadata), st.sampled_from([None, "warn", "drop"]))
def test_anything_the_model_holds_is_written_valid_or_refused_with_its_location(
    history, on_unsupported
):
    # Every item kind, any role (custom ones too), names, ids, usage: what the format cannot
    # carry is left out or refused at its place; what is written is valid.
    written, notes = _written_or_refused(history, on_unsupported)
    if isinstance(written, SemanticChatError):
        assert isinstance(written, FormatError), repr(written)
        assert written.path.startswith("messages["), str(written)
        assert str(written).startswith(f"{written.path}: ")
        if on_unsupported in ("warn", "drop"):  # only what is no loss is refused then
            assert type(written) is FormatError, str(written)
        return
    validate_gemini_payload(written)
    assert all(note.startswith("messages[") for note in notes), notes
    if on_unsupported == "drop":
        assert notes == []
