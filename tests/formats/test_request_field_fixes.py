"""Request fields the two OpenAI formats shape differently, and Chat's message ``weight``.

Three defects, each reproduced here: ``stream_options.include_usage`` (Chat only) was copied
into Responses requests; structured output (``response_format`` / ``text.format``) and
``verbosity`` were dropped between the formats though both have them; a fine-tuning line's
``weight`` was dropped without a word by every other format's writer.
"""

from __future__ import annotations

import json
import subprocess
import sys
import typing
import warnings
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openai.types.chat.completion_create_params import CompletionCreateParamsNonStreaming
from openai.types.responses.response_create_params import (
    ResponseCreateParamsNonStreaming,
    StreamOptions,
)
from openai.types.responses.response_format_text_json_schema_config_param import (
    ResponseFormatTextJSONSchemaConfigParam,
)
from openai.types.responses.response_text_config_param import ResponseTextConfigParam
from openai.types.shared_params.response_format_json_schema import JSONSchema
from pydantic import TypeAdapter

from semantic_chat import formats
from semantic_chat.errors import UnsupportedContentError
from semantic_chat.formats import anthropic, gemini, openai_chat, openai_responses

SCHEMA = {
    "type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"],
    "additionalProperties": False,
}
HI = [{"role": "user", "content": "Hi"}]
CHAT_REQUEST = TypeAdapter(CompletionCreateParamsNonStreaming)
RESPONSES_REQUEST = TypeAdapter(ResponseCreateParamsNonStreaming)


def quietly(function: Any, *args: Any, **kwargs: Any) -> tuple[Any, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = function(*args, **kwargs)
    return result, [str(note.message) for note in caught]


def chat_to_responses(body: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    written: dict[str, Any] = openai_responses.to_request(openai_chat.from_request(body), **kwargs)
    return written


def responses_to_chat(body: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    written: dict[str, Any] = openai_chat.to_request(openai_responses.from_request(body), **kwargs)
    return written


def declared(typed_dict: Any) -> set[str]:
    return set(typing.get_type_hints(typed_dict))


def check_responses_text(body: dict[str, Any]) -> None:
    """The body passes the SDK's request type, and ``text`` has only keys the SDK declares."""
    RESPONSES_REQUEST.validate_python(body)
    text = body.get("text", {})
    assert set(text) <= declared(ResponseTextConfigParam)
    if text.get("format", {}).get("type") == "json_schema":
        assert set(text["format"]) <= declared(ResponseFormatTextJSONSchemaConfigParam)


def check_chat_format(body: dict[str, Any]) -> None:
    CHAT_REQUEST.validate_python({**body, "stream": False} if "stream" in body else body)
    response_format = body.get("response_format", {})
    if response_format.get("type") == "json_schema":
        assert set(response_format) == {"type", "json_schema"}
        assert set(response_format["json_schema"]) <= declared(JSONSchema)


# --- 1. stream_options -----------------------------------------------------------------------


def test_include_usage_is_left_out_of_a_responses_request_in_silence():
    body = {"model": "gpt-4o", "messages": HI, "stream": True,
            "stream_options": {"include_usage": True}}
    written, notes = quietly(chat_to_responses, body, on_unsupported="error")
    assert written == {"model": "gpt-4o", "input": HI, "stream": True}
    assert notes == []


def test_include_obfuscation_goes_to_responses_without_include_usage():
    body = {"model": "gpt-4o", "messages": HI, "stream": True,
            "stream_options": {"include_usage": False, "include_obfuscation": False}}
    written, notes = quietly(chat_to_responses, body)
    assert written == {"model": "gpt-4o", "input": HI, "stream": True,
                       "stream_options": {"include_obfuscation": False}}
    assert set(written["stream_options"]) <= declared(StreamOptions)
    assert notes == []


def test_responses_stream_options_go_to_chat_as_they_are():
    body = {"model": "gpt-4o", "input": HI, "stream": True,
            "stream_options": {"include_obfuscation": True}}
    written, notes = quietly(responses_to_chat, body)
    assert written == {"model": "gpt-4o", "messages": HI, "stream": True,
                       "stream_options": {"include_obfuscation": True}}
    assert notes == []
    assert chat_to_responses(written) == body


def test_chat_stream_options_round_trip_in_chat():
    body = {"model": "gpt-4o", "messages": HI, "stream": True,
            "stream_options": {"include_usage": True}}
    assert openai_chat.to_request(openai_chat.from_request(body)) == body


def _semantic_chat(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    command = Path(sys.executable).with_name("semantic-chat")
    return subprocess.run([str(command), *args], input=stdin, capture_output=True, text=True,
                          timeout=120, check=False)


def test_a_batch_line_converted_by_the_command_line_keeps_structured_output():
    line = {"custom_id": "r2", "method": "POST", "url": "/v1/chat/completions", "body": {
        "model": "gpt-4o", "messages": HI, "stream_options": {"include_usage": True},
        "response_format": {"type": "json_object"}, "verbosity": "high"}}
    done = _semantic_chat("convert", "--to", "openai-responses", "--on-unsupported", "error",
                          stdin=json.dumps(line) + "\n")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "custom_id": "r2", "method": "POST", "url": "/v1/responses", "body": {
            "model": "gpt-4o", "input": HI,
            "text": {"format": {"type": "json_object"}, "verbosity": "high"}}}


# --- 2. response_format / verbosity <-> text ------------------------------------------------


def test_json_schema_and_verbosity_go_from_chat_to_responses_and_back():
    chat = {"model": "gpt-4o", "messages": HI, "verbosity": "low", "response_format": {
        "type": "json_schema", "json_schema": {"name": "w", "schema": SCHEMA, "strict": True}}}
    responses, notes = quietly(chat_to_responses, chat)
    assert responses == {"model": "gpt-4o", "input": HI, "text": {
        "format": {"type": "json_schema", "name": "w", "schema": SCHEMA, "strict": True},
        "verbosity": "low"}}
    assert notes == []
    check_responses_text(responses)
    back, notes = quietly(responses_to_chat, responses)
    assert back == chat
    assert notes == []
    check_chat_format(back)


def test_text_format_goes_from_responses_to_chat_and_back():
    responses = {"model": "gpt-4o", "input": "Hi", "text": {
        "format": {"type": "json_schema", "name": "w", "schema": SCHEMA, "strict": True,
                   "description": "a w"},
        "verbosity": "low"}}
    chat, notes = quietly(responses_to_chat, responses)
    assert chat == {"model": "gpt-4o", "messages": HI, "verbosity": "low", "response_format": {
        "type": "json_schema",
        "json_schema": {"name": "w", "schema": SCHEMA, "strict": True, "description": "a w"}}}
    assert notes == []
    check_chat_format(chat)
    back = chat_to_responses(chat)
    assert back == {**responses, "input": HI}  # a string input comes back as its message


@pytest.mark.parametrize("kind", ["json_object", "text"])
def test_json_object_and_text_formats_convert_both_ways(kind):
    chat = {"model": "m", "messages": HI, "response_format": {"type": kind}}
    responses = {"model": "m", "input": HI, "text": {"format": {"type": kind}}}
    assert chat_to_responses(chat, on_unsupported="error") == responses
    assert responses_to_chat(responses, on_unsupported="error") == chat


def test_a_text_object_with_other_keys_keeps_them():
    body = {"model": "m", "messages": HI, "text": {"x_vendor": 1},
            "response_format": {"type": "json_object"}}
    written, notes = quietly(chat_to_responses, body)
    assert written == {"model": "m", "input": HI,
                       "text": {"x_vendor": 1, "format": {"type": "json_object"}}}
    assert notes == []


def test_response_format_is_reported_when_text_already_has_a_format():
    body = {"model": "m", "messages": HI, "text": {"format": {"type": "text"}},
            "response_format": {"type": "json_object"}, "verbosity": "low"}
    written, notes = quietly(chat_to_responses, body)
    assert written == {"model": "m", "input": HI,
                       "text": {"format": {"type": "text"}, "verbosity": "low"}}
    assert notes == [
        'options.extra["response_format"]: dropped: OpenAI Responses cannot carry the request '
        "field 'response_format'",
    ]


@pytest.mark.parametrize("response_format", [
    {"type": "json_schema", "json_schema": {"name": "w"}},  # Responses requires a schema
    {"type": "json_schema", "json_schema": {"schema": SCHEMA}},  # and a name
    {"type": "json_schema", "json_schema": {"name": "w", "schema": SCHEMA, "x": 1}},
    {"type": "json_schema", "json_schema": {"name": "w", "schema": SCHEMA, "strict": 1}},
    {"type": "json_object", "json_schema": {}},
    {"type": "grammar"},
    "json",
    [{"type": "json"}],  # Gemini's list
])
def test_a_response_format_that_does_not_fit_is_reported_at_its_field(response_format):
    body = {"model": "m", "messages": HI, "response_format": response_format}
    with pytest.raises(UnsupportedContentError) as raised:
        chat_to_responses(body, on_unsupported="error")
    assert str(raised.value).startswith(
        'options.extra["response_format"]: OpenAI Responses cannot carry the request field '
        "'response_format'"
    )
    written, notes = quietly(chat_to_responses, body)
    assert written == {"model": "m", "input": HI}
    assert len(notes) == 1


def test_a_verbosity_that_is_no_string_is_reported():
    body = {"model": "m", "messages": HI, "verbosity": 3}
    written, notes = quietly(chat_to_responses, body)
    assert written == {"model": "m", "input": HI}
    assert notes == [
        'options.extra["verbosity"]: dropped: OpenAI Responses cannot carry the request field '
        "'verbosity'",
    ]


def test_a_text_part_that_does_not_fit_chat_is_reported_inside_text():
    body = {"model": "m", "input": "Hi", "text": {
        "format": {"type": "json_schema", "schema": SCHEMA}, "verbosity": "high", "x": 1}}
    with pytest.raises(UnsupportedContentError) as raised:
        responses_to_chat(body, on_unsupported="error")
    assert str(raised.value).startswith(
        'options.extra["text"].format: OpenAI Chat Completions cannot carry the request field '
        "'text.format'"
    )
    written, notes = quietly(responses_to_chat, body)
    assert written == {"model": "m", "messages": HI, "verbosity": "high"}
    assert notes == [
        'options.extra["text"].format: dropped: OpenAI Chat Completions cannot carry the '
        "request field 'text.format'",
        'options.extra["text"].x: dropped: OpenAI Chat Completions cannot carry the request '
        "field 'text.x'",
    ]


def test_a_text_that_is_no_object_is_reported_as_before():
    body = {"model": "m", "input": "Hi", "text": "json"}
    written, notes = quietly(responses_to_chat, body)
    assert written == {"model": "m", "messages": HI}
    assert notes == [
        'options.extra["text"]: dropped: OpenAI Chat Completions cannot carry the request '
        "field 'text'",
    ]


def test_anthropic_and_gemini_still_report_both_shapes():
    chat = openai_chat.from_request(
        {"model": "m", "messages": HI, "response_format": {"type": "json_object"}})
    responses = openai_responses.from_request(
        {"model": "m", "input": "Hi", "text": {"format": {"type": "json_object"}}})
    for history in (chat, responses):
        with pytest.raises(UnsupportedContentError):
            anthropic.to_request(history, max_tokens=10, on_unsupported="error")
        with pytest.raises(UnsupportedContentError):
            gemini.to_request(history, on_unsupported="error")


_NAMES = st.text(st.characters(min_codepoint=97, max_codepoint=122), min_size=1, max_size=8)
_SCHEMAS = st.dictionaries(_NAMES, st.sampled_from([{"type": "string"}, {"type": "integer"}]),
                           max_size=3).map(lambda props: {"type": "object", "properties": props})
_SPECS = st.fixed_dictionaries(
    {"name": _NAMES, "schema": _SCHEMAS},
    optional={"strict": st.sampled_from([True, False, None]), "description": st.text(max_size=8)},
)
_CHAT_FORMATS = st.one_of(
    st.sampled_from([{"type": "text"}, {"type": "json_object"}]),
    _SPECS.map(lambda spec: {"type": "json_schema", "json_schema": spec}),
)
_CHAT_FIELDS = st.fixed_dictionaries({}, optional={
    "response_format": _CHAT_FORMATS,
    "verbosity": st.sampled_from(["low", "medium", "high", None]),
    "stream_options": st.fixed_dictionaries({}, optional={"include_obfuscation": st.booleans()}),
})


@given(_CHAT_FIELDS)
def test_chat_structured_output_survives_a_round_trip_through_responses(fields):
    chat = {"model": "m", "messages": HI, **fields}
    responses, notes = quietly(chat_to_responses, chat, on_unsupported="error")
    assert notes == []
    check_responses_text(responses)
    assert responses_to_chat(responses, on_unsupported="error") == chat


@given(_CHAT_FIELDS)
def test_responses_text_survives_a_round_trip_through_chat(fields):
    responses = chat_to_responses({"model": "m", "messages": HI, **fields})
    chat, notes = quietly(responses_to_chat, responses, on_unsupported="error")
    assert notes == []
    check_chat_format(chat)
    assert chat_to_responses(chat, on_unsupported="error") == responses


# --- 3. a fine-tuning line's weight ----------------------------------------------------------

LINE = {"messages": [
    {"role": "user", "content": "Hi"},
    {"role": "assistant", "content": "Bad answer", "weight": 0},
    {"role": "user", "content": "Again"},
    {"role": "assistant", "content": "Good answer", "weight": 1},
]}
TARGETS = {
    "openai-responses": "OpenAI Responses", "gemini": "Gemini", "anthropic": "Anthropic Messages",
}


@pytest.mark.parametrize(("target", "name"), TARGETS.items())
def test_a_weight_is_refused_when_asked(target, name):
    with pytest.raises(UnsupportedContentError) as raised:
        formats.convert(LINE, target=target, on_unsupported="error")
    assert str(raised.value) == (
        f"messages[1].weight: {name} cannot carry the fine-tuning weight of a message (0) "
        "(pass on_unsupported='warn' to leave it out)"
    )


@pytest.mark.parametrize(("target", "name"), TARGETS.items())
def test_each_weight_left_out_is_reported_where_it_was(target, name):
    _, notes = quietly(formats.convert, LINE, target=target)
    assert notes == [
        f"messages[1].weight: dropped: {name} cannot carry the fine-tuning weight of a "
        "message (0)",
        f"messages[3].weight: dropped: {name} cannot carry the fine-tuning weight of a "
        "message (1)",
    ]


def test_the_weight_is_left_out_of_the_responses_input():
    written, _ = quietly(formats.convert, LINE, target="openai-responses")
    assert written == [
        {"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Bad answer"},
        {"role": "user", "content": "Again"}, {"role": "assistant", "content": "Good answer"},
    ]


def test_chat_keeps_the_weight_in_silence():
    written, notes = quietly(openai_chat.to_request, openai_chat.from_request(LINE),
                             on_unsupported="error")
    assert written == LINE
    assert notes == []


def test_wire_details_among_chat_hints_are_not_reported():
    line = {"messages": [{"role": "user", "content": "Hi"},
                         {"role": "assistant", "content": "Yo", "refusal": None, "audio": None}]}
    written, notes = quietly(formats.convert, line, target="openai-responses",
                             on_unsupported="error")
    assert written == [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Yo"}]
    assert notes == []


def test_the_command_line_reports_the_weight():
    done = _semantic_chat("convert", "--to", "gemini", "--on-unsupported", "error",
                          stdin=json.dumps(LINE) + "\n")
    assert done.returncode == 1
    assert done.stderr == (
        "semantic-chat: messages[1].weight: Gemini cannot carry the fine-tuning weight of a "
        "message (0) (pass --drop-unsupported to leave it out)\n"
    )


@pytest.mark.parametrize(("target", "label"), [
    ("sk-python", "Semantic Kernel (Python)"),
    ("sk-dotnet", ".NET Semantic Kernel"),
])
def test_semantic_kernel_writers_report_the_weight_too(target, label):
    line = {"messages": [{"role": "user", "content": "hi"},
                         {"role": "assistant", "content": "yo", "weight": 0}]}
    with pytest.warns(formats.ConversionWarning) as caught:
        formats.convert(line, target=target)
    assert [str(note.message) for note in caught] == [
        f"messages[1].weight: dropped: {label} cannot carry the fine-tuning weight of a "
        "message (0)"
    ]
