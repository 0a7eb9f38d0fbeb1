"""The Gemini SDK validators catch unknown keys, wrong types and what lax validation lets through.

Each trap is shown twice where it applies: the bad value passes a plain ``model_validate`` of
the SDK type, and the validator refuses it, so the validators used on everything the Gemini
format writes cannot pass vacuously.
"""

from __future__ import annotations

import json

import pytest
from format_helpers import (
    GEMINI_CONFIG,
    GEMINI_CONTENT,
    PNG,
    assert_gemini_spelling,
    gemini_snake,
    gemini_spelling,
    validate_gemini_content,
    validate_gemini_payload,
    validate_gemini_request,
)
from pydantic import ValidationError


def _user(*parts: dict) -> dict:
    return {"role": "user", "parts": list(parts)}


@pytest.mark.parametrize(
    ("content", "location"),
    [
        (_user({"text": "x", "zzz": 1}), "parts.0.zzz"),
        (_user({"inline_data": {"mime_type": "image/png", "data": PNG, "detail": "low"}}),
         "parts.0.inline_data.detail"),
        (_user({"functionCall": {"name": "f", "args": {}, "index": 0}}),
         "parts.0.functionCall.index"),
        ({"role": "user", "parts": [], "name": "ada"}, "name"),
    ],
)
def test_an_unknown_key_is_refused(content, location):
    with pytest.raises(ValidationError, match="Extra inputs are not permitted"):
        GEMINI_CONTENT.model_validate(content)
    with pytest.raises(AssertionError, match=r"^content is not a google\.genai Content") as raised:
        validate_gemini_content(content)
    assert location in str(raised.value)


@pytest.mark.parametrize(
    ("content", "location"),
    [
        (_user({"text": 5}), "parts.0.text"),
        ({"role": 7, "parts": [{"text": "x"}]}, "role"),
        (_user({"function_call": {"name": "f", "args": "{}"}}), "parts.0.function_call.args"),
    ],
)
def test_a_wrong_type_is_refused(content, location):
    with pytest.raises(AssertionError, match=r"is not a google\.genai Content") as raised:
        validate_gemini_content(content)
    assert location in str(raised.value)


def test_bytes_must_be_base64_text():
    bad = {"role": "model", "parts": [{"thought_signature": "not base64!", "text": "x"}]}
    with pytest.raises(AssertionError, match="Data should be valid base64"):
        validate_gemini_content(bad)
    # both alphabets are taken, as the SDK takes them
    validate_gemini_content({"role": "model", "parts": [{"thought_signature": "+/8=",
                                                          "text": "x"}]})
    validate_gemini_content({"role": "model", "parts": [{"thoughtSignature": "-_8=",
                                                          "text": "x"}]})


def test_a_part_is_checked_strictly_although_its_own_init_validates_it_laxly():
    # The first trap: Part has a custom __init__, so strict validation does not reach its fields.
    bad = _user({"text": "x", "thought": "yes"})
    assert GEMINI_CONTENT.model_validate_json(json.dumps(bad), strict=True).parts[0].thought
    with pytest.raises(AssertionError) as raised:
        validate_gemini_content(bad)
    assert str(raised.value) == "content.parts[0].thought: 'yes' is not a JSON bool"
    with pytest.raises(AssertionError, match=r"video_metadata\.fps: '3' is not a JSON float"):
        validate_gemini_content(_user({"file_data": {"file_uri": "gs://b/v.mp4"},
                                       "video_metadata": {"fps": "3"}}))


@pytest.mark.filterwarnings("ignore:SOMETIMES is not a valid")
def test_an_unknown_enum_value_is_refused():
    # The second trap: the SDK's enums take any value, with a warning only.
    config = {"toolConfig": {"functionCallingConfig": {"mode": "SOMETIMES"}}}
    GEMINI_CONFIG.model_validate(config)
    with pytest.raises(AssertionError) as raised:
        validate_gemini_request({"contents": [], **config})
    assert str(raised.value) == (
        "body (its config fields).toolConfig.functionCallingConfig.mode: 'SOMETIMES' is not a "
        "value of FunctionCallingConfigMode")
    # a known value in any case passes, as the SDK reads it
    validate_gemini_request({"contents": [], "generationConfig": {
        "thinkingConfig": {"thinkingLevel": "low"}}})


def test_validation_is_strict():
    body = {"contents": [_user({"text": "x"})], "generationConfig": {"maxOutputTokens": "16"}}
    GEMINI_CONFIG.model_validate({"maxOutputTokens": "16"})  # lax: "16" is 16
    with pytest.raises(AssertionError, match=r"is not a google\.genai GenerateContentConfig"):
        validate_gemini_request(body)


@pytest.mark.parametrize(
    ("body", "match"),
    [
        ({"contents": [], "frobnicate": 1}, r"body: unexpected keys \['contents', 'frobnicate'\]"),
        ({"contents": [], "generationConfig": {"temperatur": 0.5}}, "Extra inputs"),
        ({"contents": [], "generation_config": {"thinking_config": {"budget": 5}}},
         "Extra inputs"),
        ({"contents": [], "tools": [{"bogus_tool": {}}]}, "Extra inputs"),
        ({"contents": [], "systemInstruction": "Be brief."}, r"body\.system_instruction"),
        ({"contents": [_user({"text": "x", "q": 1})]}, r"body\.contents\[0\] is not"),
        ({"contents": [], "temperature": 0.5}, "unexpected keys"),
        ({"contents": [], "generation_config": {}, "generationConfig": {}},
         "'generation_config' is given in both spellings"),
        ({"contents": [], "model": "m", "config": {"temperatur": 1}}, "Extra inputs"),
        ({"contents": [], "config": {}, "tools": []}, "unexpected keys"),
        ({"contents": [], "config": {"system_instruction": {"parts": [{"txt": "s"}]}}},
         r"body\.config\.system_instruction is not"),
        ({"model": "m"}, "missing 'contents'"),
    ],
)
def test_a_bad_request_is_refused(body, match):
    with pytest.raises(AssertionError, match=match):
        validate_gemini_request(body)


@pytest.mark.parametrize(
    "body",
    [
        # REST, camelCase, every config field
        {"model": "gemini-2.5-flash", "contents": [_user({"text": "x"})],
         "systemInstruction": {"parts": [{"text": "s"}]},
         "tools": [{"functionDeclarations": [{"name": "f", "parametersJsonSchema": {
             "type": "object", "additionalProperties": False, "x-any-keyword": 1}}]},
             {"googleSearch": {}}, {"codeExecution": {}}],
         "toolConfig": {"functionCallingConfig": {"mode": "ANY",
                                                  "allowedFunctionNames": ["f"]}},
         "safetySettings": [{"category": "HARM_CATEGORY_HARASSMENT",
                             "threshold": "BLOCK_NONE"}],
         "cachedContent": "cachedContents/x", "labels": {"any_key": "v"},
         "generationConfig": {"temperature": 1, "candidateCount": 2,
                              "thinkingConfig": {"thinkingLevel": "low"},
                              "responseJsonSchema": {"type": "object", "anything": True}}},
        # REST, snake_case
        {"contents": [{"parts": [{"text": "x"}]}], "tools": [{"google_search": {}}],
         "generation_config": {"max_output_tokens": 5, "stop_sequences": ["a"]}},
        # SDK kwargs, a string system instruction
        {"model": "m", "contents": [_user({"text": "x"})],
         "config": {"system_instruction": "Be brief.", "temperature": 0.3}},
    ],
)
def test_valid_requests_pass(body):
    validate_gemini_request(body)


@pytest.mark.parametrize(
    ("payload", "match"),
    [
        ({"contents": [], "model": "m"}, "unexpected keys"),
        ({"messages": []}, "unexpected keys"),
        ({"system_instruction": "s"}, "missing 'contents'"),
        ({"contents": [], "systemInstruction": {"parts": [{"text": 1}]}},
         "system_instruction is not"),
        ({"contents": [_user({"inline_data": {"mime_type": "image/png", "data": b"x"}})]},
         "is not JSON"),
    ],
)
def test_a_bad_payload_is_refused(payload, match):
    with pytest.raises(AssertionError, match=match):
        validate_gemini_payload(payload)


def test_a_payload_may_have_a_string_system_instruction():
    validate_gemini_payload({"contents": [], "system_instruction": "Be brief."})
    validate_gemini_payload({"contents": [_user({"text": "x"})],
                             "systemInstruction": {"parts": [{"text": "s"}]}})


# --- spelling ----------------------------------------------------------------------------


def test_camel_keys_become_snake():
    assert [gemini_snake(k) for k in ("functionCall", "thoughtSignature", "text",
                                      "function_call", "cachedContentTokenCount")] == [
        "function_call", "thought_signature", "text", "function_call",
        "cached_content_token_count"]


def test_the_spelling_of_a_document_is_read_from_its_structural_keys_only():
    # the user's data (args, a response object, labels) does not count
    snake = {"contents": [{"role": "model", "parts": [
        {"function_call": {"name": "f", "args": {"someArg": 1}}}]}],
        "labels": {"camelLabel": "x"}}
    camel = {"contents": [{"role": "model", "parts": [
        {"functionCall": {"name": "f", "args": {"some_arg": 1}}}]}]}
    assert gemini_spelling("request", snake) == "snake"
    assert gemini_spelling("request", camel) == "camel"
    assert gemini_spelling("request", {"contents": [_user({"text": "x"})]}) == "snake"
    assert gemini_spelling("response", {"usageMetadata": {"promptTokenCount": 1}}) == "camel"
    with pytest.raises(AssertionError, match="both spellings"):
        gemini_spelling("content", {"role": "model", "parts": [
            {"functionCall": {"name": "f"}, "thought_signature": "AA=="}]})


def test_a_key_in_the_other_spelling_is_reported_where_it_is():
    payload = {"contents": [{"role": "user", "parts": [
        {"inline_data": {"mimeType": "image/png", "data": PNG}}]}]}
    with pytest.raises(AssertionError) as raised:
        assert_gemini_spelling("payload", payload, "snake")
    assert str(raised.value) == (
        "keys not in snake spelling: ['contents[0].parts[0].inline_data.mimeType']")
    assert_gemini_spelling("payload", {"contents": [], "systemInstruction": {
        "parts": [{"text": "s"}]}}, "camel")
