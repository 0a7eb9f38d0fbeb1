"""Gemini (and Chat Completions) readers: SDK dumps, candidates left out, a blocked prompt.

- every ``model_dump`` of a ``google.genai`` object reads as the object does: ``null``
  fields are absent fields and SDK enums their values, while a ``null`` in the user's data
  (call ``args``, a function's ``response``, a JSON schema, ``labels``) stays;
- a response of several candidates (choices) read without saying which warns, located, of
  each one left out; saying which does not warn;
- a prompt blocked (``prompt_feedback.block_reason``) finishes with ``content_filter``.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest
from gemini_strategies import gemini_histories
from google.genai import types as T
from hypothesis import given, settings

from semantic_chat import ChatHistory, FinishReason, TextContent, formats
from semantic_chat.errors import FormatError
from semantic_chat.formats import ConversionWarning, gemini, openai_chat
from semantic_chat.formats.gemini.shared import proto_json
from semantic_chat.serialization import from_json, to_json

FIXTURES = Path(__file__).parent / "fixtures"
GEMINI_CASES = json.loads((FIXTURES / "gemini_conformance.json").read_text())
"""The shared conformance file (``conformance/gemini.json``), as copied here."""
CHAT_CASES = {
    case["name"]: case for case in json.loads((FIXTURES / "openai_chat.json").read_text())
}

DUMPS: dict[str, dict[str, Any]] = {
    "python": {},
    "json": {"mode": "json"},
    "python, no nulls": {"exclude_none": True},
    "json, no nulls": {"mode": "json", "exclude_none": True},
}


def _sdk_request(payload: dict[str, Any]) -> dict[str, Any]:
    """A conformance request with its contents and config as SDK objects."""
    request: dict[str, Any] = {
        **payload,
        "contents": [T.Content.model_validate(content) for content in payload["contents"]],
    }
    if "config" in payload:
        request["config"] = T.GenerateContentConfig.model_validate(payload["config"])
    return request


def _dumped(request: dict[str, Any], dump: dict[str, Any]) -> dict[str, Any]:
    """The request with each SDK object replaced by its ``model_dump(**dump)``."""
    dumped = {**request, "contents": [content.model_dump(**dump) for content in request["contents"]]}
    if "config" in request:
        dumped["config"] = request["config"].model_dump(**dump)
    return dumped


def _answer() -> T.GenerateContentResponse:
    return T.GenerateContentResponse(
        response_id="r1",
        model_version="gemini-2.5-flash",
        candidates=[T.Candidate(
            index=0,
            finish_reason=T.FinishReason.STOP,
            content=T.Content(role="model", parts=[
                T.Part(text="Let me look.", thought=True),
                T.Part(function_call=T.FunctionCall(
                    name="find", args={"city": None, "tags": [None, 1]}
                )),
            ]),
        )],
        usage_metadata=T.GenerateContentResponseUsageMetadata(
            prompt_token_count=3, candidates_token_count=4, total_token_count=7
        ),
    )


# --- 1. every model_dump reads alike ----------------------------------------------------------


@pytest.mark.parametrize("dump", list(DUMPS.values()), ids=list(DUMPS))
@pytest.mark.parametrize("case", GEMINI_CASES, ids=[case["name"] for case in GEMINI_CASES])
def test_every_conformance_request_reads_alike_from_sdk_objects_and_each_dump(case, dump):
    request = _sdk_request(case["payload"])
    expected = gemini.from_request(case["payload"])
    assert gemini.from_request(_dumped(request, dump)) == expected
    # the object itself: its tools are kept as its dump spells them (camelCase), written alike
    assert gemini.to_request(gemini.from_request(request)) == gemini.to_request(expected)
    contents = [content.model_dump(**dump) for content in request["contents"]]
    assert gemini.from_payload(contents) == gemini.from_payload(case["payload"]["contents"])


@pytest.mark.parametrize("dump", list(DUMPS.values()), ids=list(DUMPS))
def test_a_response_reads_alike_from_its_sdk_object_and_each_dump(dump):
    response = _answer()
    expected = gemini.from_response(response)
    reply = gemini.from_response(response.model_dump(**dump))
    assert reply.items == expected.items
    assert reply.finish_reason == FinishReason.TOOL_CALLS
    assert reply.usage == expected.usage
    assert reply.metadata == expected.metadata == {"gemini": {
        "finish_reason": "STOP",
        "usage_metadata": {"prompt_token_count": 3, "candidates_token_count": 4,
                           "total_token_count": 7},
        "candidate": {"index": 0},
    }}
    call = reply.items[1]
    assert call.arguments == {"city": None, "tags": [None, 1]}  # the user's nulls stay


def test_the_repro_dumps_read_as_the_json_dump_without_nulls():
    response = T.GenerateContentResponse(candidates=[T.Candidate(
        finish_reason="STOP", content=T.Content(role="model", parts=[T.Part(text="hi")]))])
    for dump in DUMPS.values():
        reply = gemini.from_response(response.model_dump(**dump))
        assert reply.items == [TextContent("hi")]
        assert reply.finish_reason == FinishReason.STOP
    content = T.Content(role="user", parts=[T.Part(text="hi")])
    (message,) = gemini.from_payload([content.model_dump(mode="json")])
    assert message.items == [TextContent("hi")]
    assert message.metadata == {}


def test_a_function_declaration_schema_loses_its_nulls_and_a_json_schema_keeps_them():
    config = T.GenerateContentConfig(
        tools=[T.Tool(function_declarations=[
            T.FunctionDeclaration(name="f", parameters=T.Schema(
                type=T.Type.OBJECT, properties={"args": T.Schema(type=T.Type.STRING)})),
            T.FunctionDeclaration(name="g", parameters_json_schema={
                "type": "object", "default": None, "properties": {"x": {"const": None}}}),
        ])],
        labels={"team": "a"},
    )
    for dump in DUMPS.values():
        history = gemini.from_request({"contents": [], "config": config.model_dump(**dump)})
        assert history.options is not None
        assert history.options.tools == [{"function_declarations": [
            {"name": "f", "parameters": {"type": "OBJECT",
                                         "properties": {"args": {"type": "STRING"}}}},
            {"name": "g", "parameters_json_schema": {
                "type": "object", "default": None, "properties": {"x": {"const": None}}}},
        ]}]
        assert history.options.extra == {"labels": {"team": "a"}}


def test_proto_json_keeps_user_data_and_returns_a_clean_value_itself():
    clean = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}
    assert proto_json(clean) is clean
    dirty = {
        "functionCall": {"name": "f", "args": {"a": None}, "id": None},
        "function_response": {"name": "f", "response": {"result": None}, "id": None},
        "part_metadata": {"k": None},
        "labels": {"k": None},
        "responseJsonSchema": {"default": None},
        "response_schema": {"type": T.Type.OBJECT, "nullable": None, "enum": ["A", None],
                            "properties": {"labels": {"type": "STRING", "title": None}}},
        "modalities": [T.Modality.TEXT, None],
        "video_metadata": None,
    }
    assert proto_json(dirty) == {
        "functionCall": {"name": "f", "args": {"a": None}},
        "function_response": {"name": "f", "response": {"result": None}},
        "part_metadata": {"k": None},
        "labels": {"k": None},
        "responseJsonSchema": {"default": None},
        "response_schema": {"type": "OBJECT", "enum": ["A", None],
                            "properties": {"labels": {"type": "STRING"}}},
        "modalities": ["TEXT", None],
    }
    assert type(proto_json(dirty)["response_schema"]["type"]) is str
    assert dirty["functionCall"]["id"] is None  # the input is not changed


@settings(max_examples=60, deadline=None)
@given(gemini_histories())
def test_sdk_contents_and_every_dump_of_them_read_back_the_history(history):
    payload = gemini.to_payload(history)
    contents = [T.Content.model_validate(content) for content in payload["contents"]]
    system = payload.get("system_instruction")
    instruction = None if system is None else T.Content.model_validate(system)
    expected = gemini.from_payload(payload)
    assert gemini.from_payload({"contents": contents, "system_instruction": instruction}) == (
        expected
    )
    clean_json = gemini.from_payload(_document(contents, instruction, DUMPS["json, no nulls"]))
    for name, dump in DUMPS.items():
        read = gemini.from_payload(_document(contents, instruction, dump))
        # a JSON dump writes bytes as URL-safe base64, kept as given: as the clean JSON dump
        assert read == (clean_json if dump.get("mode") == "json" else expected), name


def _document(
    contents: list[T.Content], instruction: T.Content | None, dump: dict[str, Any]
) -> dict[str, Any]:
    """``{"contents", "system_instruction"}`` of the objects' ``model_dump(**dump)``."""
    document: dict[str, Any] = {"contents": [content.model_dump(**dump) for content in contents]}
    if instruction is not None:
        document["system_instruction"] = instruction.model_dump(**dump)
    return document


def test_a_bad_value_in_a_dump_is_still_located():
    dumped = T.Content(role="user", parts=[T.Part(text="hi")]).model_dump(mode="json")
    dumped["parts"][0]["thought"] = "yes"
    with pytest.raises(FormatError, match=r"^contents\[0\]\.parts\[0\]\.thought: expected bool"):
        gemini.from_payload([dumped])


# --- 2. other candidates are reported ---------------------------------------------------------

TWO = {"candidates": [
    {"index": 0, "finish_reason": "STOP", "content": {"role": "model", "parts": [{"text": "A"}]}},
    {"index": 1, "finish_reason": "STOP", "content": {"role": "model", "parts": [{"text": "B"}]}},
], "model_version": "gemini-2.5-flash", "response_id": "r1"}


def _warned(read: Any) -> tuple[Any, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = read()
    return result, [str(note.message) for note in caught if note.category is ConversionWarning]


def test_reading_one_of_two_candidates_unasked_warns_of_the_other():
    reply, notes = _warned(lambda: gemini.from_response(TWO))
    assert reply.items == [TextContent("A")]
    assert notes == [
        "response.candidates[1]: dropped: candidate 1 of 2: from_response reads one "
        "(read this one with from_response(response, candidate=1))"
    ]


def test_a_candidate_asked_for_reads_without_a_warning():
    for index, text in ((0, "A"), (1, "B")):
        reply, notes = _warned(lambda index=index: gemini.from_response(TWO, candidate=index))
        assert reply.items == [TextContent(text)]
        assert notes == []
    with pytest.raises(FormatError, match=r"^response\.candidates: no candidate 2 among 2$"):
        gemini.from_response(TWO, candidate=2)


@pytest.mark.parametrize("target", ["openai-chat", "anthropic", "gemini", "semantic-chat"])
def test_converting_a_response_of_two_candidates_warns_for_every_target(target):
    _, notes = _warned(lambda: formats.convert(TWO, target=target))
    assert notes == [
        "response.candidates[1]: dropped: candidate 1 of 2: from_response reads one "
        "(read this one with from_response(response, candidate=1))"
    ]


def test_one_candidate_or_none_reads_without_a_warning():
    one = {"candidates": TWO["candidates"][:1]}
    assert _warned(lambda: gemini.from_response(one))[1] == []
    assert _warned(lambda: gemini.from_response({"candidates": []}))[1] == []


def test_a_chat_completion_of_three_choices_warns_of_two_unless_one_is_asked_for():
    completion = CHAT_CASES["completion_n3_choices"]["payload"]
    reply, notes = _warned(lambda: openai_chat.from_response(completion))
    assert reply.items == [TextContent('{"city":"San Francisco","temperature":64,"units":"f"}')]
    assert notes == [
        f"completion.choices[{index}]: dropped: choice {index} of 3: from_response reads one "
        f"(read this one with from_response(completion, choice={index}))"
        for index in (1, 2)
    ]
    reply, notes = _warned(lambda: openai_chat.from_response(completion, choice=2))
    assert reply.items == [TextContent('{"city":"San Francisco","temperature":63.0,"units":"f"}')]
    assert notes == []
    _, notes = _warned(lambda: formats.convert(completion, target="gemini"))
    assert len(notes) == 2
    with pytest.raises(FormatError, match=r"^completion\.choices: no choice 3 among 3$"):
        openai_chat.from_response(completion, choice=3)


# --- 3. a blocked prompt ----------------------------------------------------------------------


@pytest.mark.parametrize("spelling", ["snake", "camel"])
def test_a_blocked_prompt_finishes_with_content_filter_and_keeps_its_reason(spelling):
    feedback = {"block_reason": "PROHIBITED_CONTENT",
                "block_reason_message": "The prompt was blocked."}
    key = "prompt_feedback"
    if spelling == "camel":
        feedback = {"blockReason": "PROHIBITED_CONTENT",
                    "blockReasonMessage": "The prompt was blocked."}
        key = "promptFeedback"
    reply = gemini.from_response({key: feedback, "response_id": "r9"})
    assert list(reply.items) == []
    assert reply.finish_reason == FinishReason.CONTENT_FILTER
    assert reply.metadata == {"gemini": {"response": {"prompt_feedback": {
        "block_reason": "PROHIBITED_CONTENT", "block_reason_message": "The prompt was blocked."}}}}
    again = from_json(to_json(ChatHistory([reply])))  # through semantic-chat JSON
    assert again.messages[0].finish_reason == FinishReason.CONTENT_FILTER
    assert again.messages[0].metadata == reply.metadata


def test_a_blocked_prompt_from_the_sdk_reads_alike():
    response = T.GenerateContentResponse(prompt_feedback=T.GenerateContentResponsePromptFeedback(
        block_reason=T.BlockedReason.SAFETY))
    for read in (response, *(response.model_dump(**dump) for dump in DUMPS.values())):
        reply = gemini.from_response(read)
        assert reply.finish_reason == FinishReason.CONTENT_FILTER
        assert reply.metadata == {"gemini": {"response": {"prompt_feedback": {
            "block_reason": "SAFETY"}}}}


def test_feedback_without_a_block_reason_is_no_finish():
    reply = gemini.from_response({"prompt_feedback": {"safety_ratings": []}})
    assert reply.finish_reason is None


def test_a_block_reason_that_is_no_string_is_located():
    with pytest.raises(
        FormatError, match=r"^response\.prompt_feedback\.blockReason: expected str, got int$"
    ):
        gemini.from_response({"promptFeedback": {"blockReason": 3}})


def test_a_null_text_is_an_absent_one():
    """Proto JSON: ``{"text": null}`` is ``{}``, a part without data (it was refused)."""
    assert gemini.from_payload([{"role": "user", "parts": [{"text": None}]}]) == (
        gemini.from_payload([{"role": "user", "parts": [{}]}])
    )
    history = gemini.from_payload([{"role": "user", "parts": [{"text": None}]}])
    assert gemini.to_payload(history) == {"contents": [{"role": "user", "parts": [{}]}]}
