"""Gemini request bodies and documents: options, layouts, spellings, conversions, detection.

``from_request`` / ``to_request`` give a body back exactly (in its layout, and in its spelling
when asked), with its settings as ``ChatOptions``; ``formats.convert`` moves bodies between
Gemini and the other formats, reporting what the target cannot carry; ``formats.detect`` and
``from_payload`` know every Gemini document (a body, a response, Batch lines).
"""

from __future__ import annotations

import copy
import warnings
from typing import Any

import pytest
from format_helpers import assert_gemini_spelling, validate_gemini_request
from google.genai import types

from semantic_chat import ChatHistory, ChatMessageContent, ChatOptions, formats
from semantic_chat.errors import FormatError, InvalidValueError, UnsupportedContentError
from semantic_chat.formats import documents, gemini, openai_chat, openai_responses

CONTENTS = [{"role": "user", "parts": [{"text": "Weather in Paris?"}]}]
WEATHER = {"function_declarations": [{
    "name": "get_weather",
    "description": "Weather in a city",
    "parameters_json_schema": {"type": "object",
                               "properties": {"city_name": {"type": "string"}}},
}]}
SCHEMA = {"type": "object", "properties": {"snake_case": {"type": "string"}},
          "additionalProperties": False}

# A REST body with a field of every kind, in the SDK's spelling.
BODY: dict[str, Any] = {
    "model": "gemini-2.5-pro",
    "contents": CONTENTS,
    "system_instruction": {"parts": [{"text": "Be brief."}]},
    "tools": [WEATHER, {"google_search": {}}],
    "tool_config": {"function_calling_config": {"mode": "ANY",
                                                "allowed_function_names": ["get_weather"]}},
    "safety_settings": [{"category": "HARM_CATEGORY_HATE_SPEECH",
                         "threshold": "BLOCK_ONLY_HIGH"}],
    "cached_content": "cachedContents/abc",
    "labels": {"team_name": "search"},
    "generation_config": {
        "temperature": 1,
        "top_p": 0.9,
        "top_k": 40,
        "max_output_tokens": 2048,
        "stop_sequences": ["END"],
        "seed": 7,
        "presence_penalty": 0.5,
        "frequency_penalty": 0.25,
        "candidate_count": 2,
        "response_mime_type": "application/json",
        "response_json_schema": SCHEMA,
        "thinking_config": {"thinking_level": "HIGH", "include_thoughts": True},
    },
}
# The same body as the REST documentation spells it: the user's data (the labels, the
# schemas) is the same.
CAMEL_BODY: dict[str, Any] = {
    "model": "gemini-2.5-pro",
    "contents": CONTENTS,
    "systemInstruction": {"parts": [{"text": "Be brief."}]},
    "tools": [{"functionDeclarations": [{
        "name": "get_weather",
        "description": "Weather in a city",
        "parametersJsonSchema": WEATHER["function_declarations"][0]["parameters_json_schema"],
    }]}, {"googleSearch": {}}],
    "toolConfig": {"functionCallingConfig": {"mode": "ANY",
                                             "allowedFunctionNames": ["get_weather"]}},
    "safetySettings": [{"category": "HARM_CATEGORY_HATE_SPEECH",
                        "threshold": "BLOCK_ONLY_HIGH"}],
    "cachedContent": "cachedContents/abc",
    "labels": {"team_name": "search"},
    "generationConfig": {
        "temperature": 1,
        "topP": 0.9,
        "topK": 40,
        "maxOutputTokens": 2048,
        "stopSequences": ["END"],
        "seed": 7,
        "presencePenalty": 0.5,
        "frequencyPenalty": 0.25,
        "candidateCount": 2,
        "responseMimeType": "application/json",
        "responseJsonSchema": SCHEMA,
        "thinkingConfig": {"thinkingLevel": "HIGH", "includeThoughts": True},
    },
}
EXTRA = {
    "safety_settings": [{"category": "HARM_CATEGORY_HATE_SPEECH",
                         "threshold": "BLOCK_ONLY_HIGH"}],
    "cached_content": "cachedContents/abc",
    "labels": {"team_name": "search"},
    "top_k": 40,
    "candidate_count": 2,
    "response_mime_type": "application/json",
    "response_json_schema": SCHEMA,
    "thinking_config": {"include_thoughts": True},
}

# The SDK's keywords of generate_content, as the README's system instruction example.
SDK_BODY: dict[str, Any] = {
    "model": "gemini-2.5-flash",
    "contents": [{"role": "user", "parts": [{"text": "high"}]}],
    "config": {
        "system_instruction": "I say high, you say low",
        "max_output_tokens": 3,
        "temperature": 0.3,
        "tools": [WEATHER],
        "tool_config": {"function_calling_config": {"mode": "AUTO"}},
        "thinking_config": {"thinking_budget": 0},
        "http_options": {"timeout": 30000},
    },
}


def _caught(call: Any) -> tuple[Any, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call()
    return result, [str(note.message) for note in caught]


# --- from_request / to_request -------------------------------------------------------------


def test_a_rest_body_reads_into_options_and_writes_back_exactly():
    history = gemini.from_request(copy.deepcopy(BODY))
    assert history.options == ChatOptions(
        model="gemini-2.5-pro",
        tools=[WEATHER, {"google_search": {}}],
        tool_choice={"type": "function", "name": "get_weather"},
        temperature=1,
        top_p=0.9,
        max_tokens=2048,
        reasoning_effort="high",
        stop=["END"],
        seed=7,
        presence_penalty=0.5,
        frequency_penalty=0.25,
        extra=EXTRA,
        metadata={"gemini": {"thinking_level": "HIGH"}},
    )
    assert [(m.role, m.text) for m in history] == [
        ("system", "Be brief."), ("user", "Weather in Paris?")
    ]
    written = gemini.to_request(history)
    assert written == BODY
    assert list(written)[:3] == ["model", "contents", "system_instruction"]
    assert list(written)[-1] == "generation_config"
    validate_gemini_request(written)
    assert_gemini_spelling("request", written, "snake")


def test_a_camel_case_body_reads_to_the_same_options_and_writes_back_in_its_spelling():
    history = gemini.from_request(copy.deepcopy(CAMEL_BODY))
    snake = gemini.from_request(copy.deepcopy(BODY))
    # Tools are kept as given; every other field by its snake_case name, its keys too.
    assert history.options.tools == CAMEL_BODY["tools"]
    assert history.options.extra == EXTRA
    assert history.messages == snake.messages
    assert history.options == ChatOptions(**{
        **{name: getattr(snake.options, name) for name in ("model", "tool_choice", "temperature",
           "top_p", "max_tokens", "reasoning_effort", "stop", "seed", "presence_penalty",
           "frequency_penalty", "extra", "metadata")},
        "tools": CAMEL_BODY["tools"],
    })
    written = gemini.to_request(history, spelling="camel")
    assert written == CAMEL_BODY
    validate_gemini_request(written)
    assert_gemini_spelling("request", written, "camel")
    assert gemini.to_request(history) == BODY
    assert gemini.to_request(snake, spelling="camel") == CAMEL_BODY


def test_a_body_of_mixed_spellings_reads_and_is_written_in_one():
    body = {"contents": CONTENTS, "generationConfig": {"max_output_tokens": 5, "topK": 3},
            "system_instruction": {"parts": [{"text": "x"}]}}
    history = gemini.from_request(body)
    assert history.options == ChatOptions(max_tokens=5, extra={"top_k": 3})
    assert gemini.to_request(history) == {
        "contents": CONTENTS, "system_instruction": {"parts": [{"text": "x"}]},
        "generation_config": {"max_output_tokens": 5, "top_k": 3},
    }


def test_the_sdk_layout_is_kept_and_written_back_exactly():
    history = gemini.from_request(copy.deepcopy(SDK_BODY))
    assert history.options == ChatOptions(
        model="gemini-2.5-flash",
        tools=[WEATHER],
        tool_choice="auto",
        temperature=0.3,
        max_tokens=3,
        extra={"thinking_config": {"thinking_budget": 0}, "http_options": {"timeout": 30000}},
        metadata={"gemini": {"layout": "sdk"}},
    )
    assert [(m.role, m.text) for m in history] == [
        ("system", "I say high, you say low"), ("user", "high")
    ]
    written = gemini.to_request(history)
    assert written == SDK_BODY
    assert list(written) == ["model", "contents", "config"]
    assert next(iter(written["config"])) == "system_instruction"


def test_an_sdk_body_written_as_rest_moves_its_settings_and_reports_the_client_settings():
    history = gemini.from_request(copy.deepcopy(SDK_BODY))
    written, notes = _caught(lambda: gemini.to_request(history, layout="rest"))
    assert written == {
        "model": "gemini-2.5-flash",
        "contents": SDK_BODY["contents"],
        # The REST API takes a Content only: the string is written as one.
        "system_instruction": {"parts": [{"text": "I say high, you say low"}]},
        "tools": [WEATHER],
        "tool_config": {"function_calling_config": {"mode": "AUTO"}},
        "generation_config": {"temperature": 0.3, "max_output_tokens": 3,
                              "thinking_config": {"thinking_budget": 0}},
    }
    assert notes == [
        "options.extra[\"http_options\"]: dropped: Gemini cannot carry the SDK setting "
        "'http_options' in a REST request body"
    ]
    validate_gemini_request(written)
    camel = gemini.to_request(history, layout="sdk", spelling="camel")
    assert camel == {
        "model": "gemini-2.5-flash",
        "contents": SDK_BODY["contents"],
        "config": {
            "systemInstruction": "I say high, you say low",
            "temperature": 0.3,
            "maxOutputTokens": 3,
            "thinkingConfig": {"thinkingBudget": 0},
            "tools": [{"functionDeclarations": [{
                "name": "get_weather",
                "description": "Weather in a city",
                "parametersJsonSchema":
                    WEATHER["function_declarations"][0]["parameters_json_schema"],
            }]}],
            "toolConfig": {"functionCallingConfig": {"mode": "AUTO"}},
            "httpOptions": {"timeout": 30000},
        },
    }


def test_a_rest_body_written_in_the_sdk_layout_reads_back_the_same():
    history = gemini.from_request(copy.deepcopy(BODY))
    sdk = gemini.to_request(history, layout="sdk")
    assert list(sdk) == ["model", "contents", "config"]
    assert sdk["config"]["system_instruction"] == BODY["system_instruction"]
    assert sdk["config"]["labels"] == {"team_name": "search"}
    assert sdk["config"]["thinking_config"] == {"thinking_level": "HIGH",
                                                "include_thoughts": True}
    validate_gemini_request(sdk)
    again = gemini.from_request(sdk)
    assert gemini.to_request(again) == sdk
    assert gemini.to_request(again, layout="rest") == BODY


def test_an_sdk_config_object_is_read_as_its_fields():
    config = types.GenerateContentConfig(
        system_instruction="Be brief.", temperature=0.5, max_output_tokens=10,
        thinking_config=types.ThinkingConfig(thinking_level=types.ThinkingLevel.LOW),
    )
    history = gemini.from_request({"model": "gemini-3-flash", "contents": CONTENTS,
                                   "config": config})
    assert history.options == ChatOptions(
        model="gemini-3-flash", temperature=0.5, max_tokens=10, reasoning_effort="low",
        metadata={"gemini": {"layout": "sdk", "thinking_level": "LOW"}},
    )
    assert gemini.to_request(history) == {
        "model": "gemini-3-flash", "contents": CONTENTS,
        "config": {"system_instruction": "Be brief.", "temperature": 0.5,
                   "max_output_tokens": 10, "thinking_config": {"thinking_level": "LOW"}},
    }


def test_contents_and_a_system_instruction_alone_have_no_options():
    payload = {"contents": CONTENTS, "system_instruction": {"parts": [{"text": "Be brief."}]}}
    history = gemini.from_request(payload)
    assert history.options is None
    assert gemini.to_request(history) == payload
    assert gemini.to_payload(history) == payload
    assert gemini.from_payload(payload) == history


def test_to_payload_takes_one_message():
    assert gemini.to_payload(ChatMessageContent("assistant", "hi"), spelling="camel") == {
        "contents": [{"role": "model", "parts": [{"text": "hi"}]}]
    }


@pytest.mark.parametrize(("calling", "choice", "kept"), [
    ({"mode": "AUTO"}, "auto", None),
    ({"mode": "ANY"}, "required", None),
    ({"mode": "NONE"}, "none", None),
    ({"mode": "ANY", "allowed_function_names": ["get_weather"]},
     {"type": "function", "name": "get_weather"}, None),
    # Modes and shapes no tool choice says stay in extra, whole.
    ({"mode": "VALIDATED"}, None, {"function_calling_config": {"mode": "VALIDATED"}}),
    ({"mode": "ANY", "allowed_function_names": ["a", "b"]}, None,
     {"function_calling_config": {"mode": "ANY", "allowed_function_names": ["a", "b"]}}),
    ({"mode": "AUTO", "allowed_function_names": ["a"]}, None,
     {"function_calling_config": {"mode": "AUTO", "allowed_function_names": ["a"]}}),
    ({"mode": "auto"}, None, {"function_calling_config": {"mode": "auto"}}),
    ({"mode": "ANY", "stream_function_call_arguments": True}, None,
     {"function_calling_config": {"mode": "ANY", "stream_function_call_arguments": True}}),
    ({"allowed_function_names": ["a"]}, None,
     {"function_calling_config": {"allowed_function_names": ["a"]}}),
])
def test_tool_config_variants_read_as_options_and_write_back(calling, choice, kept):
    body = {"contents": CONTENTS, "tools": [WEATHER],
            "tool_config": {"function_calling_config": calling}}
    options = gemini.from_request(copy.deepcopy(body)).options
    assert options.tool_choice == choice
    assert options.extra.get("tool_config") == kept
    assert gemini.to_request(gemini.from_request(copy.deepcopy(body))) == body


def test_a_tool_config_keeps_what_the_tool_choice_does_not_say():
    retrieval = {"lat_lng": {"latitude": 48.85, "longitude": 2.35}}
    body = {"contents": CONTENTS, "toolConfig": {
        "functionCallingConfig": {"mode": "NONE"}, "retrievalConfig": {
            "latLng": {"latitude": 48.85, "longitude": 2.35}}}}
    options = gemini.from_request(body).options
    assert options.tool_choice == "none"
    assert options.extra == {"tool_config": {"retrieval_config": retrieval}}
    assert gemini.to_request(gemini.from_request(body), spelling="camel") == body


@pytest.mark.parametrize(("thinking", "effort", "kept", "written"), [
    ({"thinking_level": "HIGH"}, "high", None, None),
    ({"thinking_level": "low"}, "low", None, None),  # the REST docs' lower case stays so
    ({"thinking_level": "MINIMAL", "include_thoughts": True}, "minimal",
     {"include_thoughts": True}, None),
    ({"thinking_budget": 1024, "include_thoughts": False}, None,
     {"thinking_budget": 1024, "include_thoughts": False}, None),
    ({"thinkingBudget": -1}, None, {"thinking_budget": -1}, {"thinking_budget": -1}),
])
def test_thinking_config_variants(thinking, effort, kept, written):
    body = {"contents": CONTENTS, "generation_config": {"thinking_config": thinking}}
    options = gemini.from_request(copy.deepcopy(body)).options
    assert options.reasoning_effort == effort
    assert options.extra.get("thinking_config") == kept
    expected = {"contents": CONTENTS,
                "generation_config": {"thinking_config": written or thinking}}
    assert gemini.to_request(gemini.from_request(copy.deepcopy(body))) == expected


def test_fields_out_of_their_usual_place_are_written_back_where_they_were():
    body = {"contents": CONTENTS, "service_tier": "flex", "newer_field": {"on": True},
            "generation_config": {"labels": {"a": "b"}, "media_resolution":
                                  "MEDIA_RESOLUTION_LOW"}}
    history = gemini.from_request(copy.deepcopy(body))
    assert history.options == ChatOptions(
        extra={"service_tier": "flex", "newer_field": {"on": True}, "labels": {"a": "b"},
               "media_resolution": "MEDIA_RESOLUTION_LOW"},
        metadata={"gemini": {"placed": {"newer_field": "body",
                                        "labels": "generation_config"}}},
    )
    assert gemini.to_request(history) == body


def test_the_rest_output_config_is_the_sdk_generation_output_config():
    body = {"contents": CONTENTS, "output_config": {"x": 1}}
    history = gemini.from_request(body)
    assert history.options.extra == {"generation_output_config": {"x": 1}}
    assert gemini.to_request(history) == body
    assert gemini.to_request(history, layout="sdk") == {
        "contents": CONTENTS, "config": {"generation_output_config": {"x": 1}}
    }


@pytest.mark.parametrize(("body", "message"), [
    ("hi", "request: expected a request object, got str"),
    ([], "request: expected a request object, got list"),
    ({"model": "m"}, "request: missing 'contents'"),
    ({"contents": "hi"}, "contents: expected a list of contents, got str"),
    ({"contents": [{"role": "user", "parts": [{"text": 5}]}]},
     "contents[0].parts[0].text: expected str, got int"),
    ({"contents": [], "system_instruction": 5},
     "system_instruction: expected a string, a Content object, a part or a list of parts, "
     "got int"),
    ({"contents": [], "generation_config": []},
     "generation_config: expected a generation config object, got list"),
    ({"contents": [], "generationConfig": {"stopSequences": ["a", 5]}},
     "generationConfig.stopSequences[1]: expected a str, got int"),
    ({"contents": [], "generation_config": {"stop_sequences": 5}},
     "generation_config.stop_sequences: expected a str, a list of str or None, got int"),
    ({"contents": [], "generation_config": {"temperature": "hot"}},
     "generation_config.temperature: expected a number or None, got str"),
    ({"contents": [], "generation_config": {"max_output_tokens": 1.5}},
     "generation_config.max_output_tokens: expected an int or None, got float"),
    ({"contents": [], "model": 5}, "model: expected a str or None, got int"),
    ({"contents": [], "tools": {"google_search": {}}},
     "tools: expected a list of tool objects or None, got dict"),
    ({"contents": [], "generation_config": {"top_k": 1, "topK": 2}},
     "generation_config.topK: 'top_k' is given twice (also as 'top_k')"),
    ({"contents": [], "generation_config": {}, "generationConfig": {}},
     "generationConfig: 'generation_config' is given twice (also as 'generation_config')"),
    ({"contents": [], "top_k": 1, "generation_config": {"top_k": 2}},
     "generation_config.top_k: 'top_k' is given twice (also at top_k)"),
    ({"contents": [], "generation_config": {"thinking_config": {"thinking_level": 3}}},
     "generation_config.thinking_config.thinking_level: expected str, got int"),
    ({"contents": [], "generation_config": {"thinking_config": "high"}},
     "generation_config.thinking_config: expected a thinking config object, got str"),
    ({"contents": [], "tool_config": []}, "tool_config: expected a tool config object, got list"),
    ({"contents": [], "tool_config": {"function_calling_config": "ANY"}},
     "tool_config.function_calling_config: expected a function calling config, got str"),
    ({"contents": [], "toolConfig": {"functionCallingConfig": {"mode": 1}}},
     "toolConfig.function_calling_config.mode: expected str, got int"),
    ({"contents": [], "tool_config": {"function_calling_config": {
        "mode": "ANY", "allowed_function_names": "f"}}},
     "tool_config.function_calling_config.allowed_function_names: expected a list of str, "
     "got str"),
    ({"contents": [], "tool_config": {"function_calling_config": {
        "mode": "ANY", "allowed_function_names": ["f", 2]}}},
     "tool_config.function_calling_config.allowed_function_names[1]: expected str, got int"),
    ({"contents": [], "config": []}, "config: expected a config object, got list"),
    ({"contents": [], "config": {"temperature": "hot"}},
     "config.temperature: expected a number or None, got str"),
    ({"contents": [], "config": {}, "safety_settings": []},
     "safety_settings: unexpected beside 'config': generate_content takes model, contents "
     "and config"),
])
def test_a_malformed_body_is_located(body, message):
    with pytest.raises(FormatError) as raised:
        gemini.from_request(body)
    assert str(raised.value) == message


def test_spelling_and_layout_are_checked():
    history = ChatHistory([ChatMessageContent("user", "hi")])
    with pytest.raises(InvalidValueError, match=r"^spelling: expected 'snake' or 'camel'"):
        gemini.to_request(history, spelling="kebab")  # type: ignore[arg-type]
    with pytest.raises(InvalidValueError, match=r"^layout: expected 'rest', 'sdk' or None"):
        gemini.to_request(history, layout="grpc")  # type: ignore[arg-type]


# --- converting bodies between formats ----------------------------------------------------

CHAT_BODY: dict[str, Any] = {
    "model": "gpt-4o",
    "messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "hi"}],
    "tools": [{"type": "function", "function": {
        "name": "get_weather", "description": "Weather in a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
    }}],
    "tool_choice": "required",
    "parallel_tool_calls": False,
    "temperature": 0.2,
    "max_completion_tokens": 100,
    "stop": "END",
    "seed": 7,
    "reasoning_effort": "low",
    "store": True,
    "metadata": {"team": "a"},
    "response_format": {"type": "json_object"},
    "n": 2,
}


def test_a_chat_completions_body_becomes_a_gemini_body_with_the_losses_reported():
    written, notes = _caught(lambda: formats.convert(copy.deepcopy(CHAT_BODY), target="gemini"))
    assert written == {
        "model": "gpt-4o",
        "contents": [{"role": "user", "parts": [{"text": "hi"}]}],
        "system_instruction": {"parts": [{"text": "Be brief."}]},
        "tools": [{"function_declarations": [{
            "name": "get_weather", "description": "Weather in a city",
            "parameters_json_schema": {"type": "object",
                                       "properties": {"city": {"type": "string"}}},
        }]}],
        "tool_config": {"function_calling_config": {"mode": "ANY"}},
        "store": True,
        "generation_config": {
            "temperature": 0.2, "max_output_tokens": 100, "stop_sequences": ["END"],
            "seed": 7, "thinking_config": {"thinking_level": "LOW"},
        },
    }
    assert notes == [
        "options.parallel_tool_calls: dropped: Gemini cannot carry the option "
        "'parallel_tool_calls'",
        "options.extra[\"metadata\"]: dropped: Gemini cannot carry the request field "
        "'metadata'",
        "options.extra[\"response_format\"]: dropped: Gemini cannot carry the request field "
        "'response_format' with OpenAI's value {'type': 'json_object'}",
        "options.extra[\"n\"]: dropped: Gemini cannot carry the request field 'n'",
    ]
    with pytest.raises(UnsupportedContentError, match=r"^options\.parallel_tool_calls: "):
        formats.convert(CHAT_BODY, target="gemini", on_unsupported="error")
    written = formats.convert(CHAT_BODY, target="gemini", on_unsupported="drop")
    del written["store"]  # the SDK's config has it; the REST body has it at the top
    validate_gemini_request(written)


def test_the_gemini_body_comes_back_to_chat_completions():
    gemini_body = formats.convert(copy.deepcopy(CHAT_BODY), target="gemini",
                                  on_unsupported="drop")
    back = formats.convert(gemini_body, target="openai-chat")
    assert back == {
        "model": "gpt-4o",
        "messages": CHAT_BODY["messages"],
        "tools": CHAT_BODY["tools"],
        "tool_choice": "required",
        "temperature": 0.2,
        "max_completion_tokens": 100,
        "reasoning_effort": "low",
        "stop": ["END"],
        "seed": 7,
        "store": True,
    }


@pytest.mark.parametrize(("choice", "calling"), [
    ("auto", {"mode": "AUTO"}),
    ("none", {"mode": "NONE"}),
    ({"type": "function", "function": {"name": "f"}},
     {"mode": "ANY", "allowed_function_names": ["f"]}),
    ({"type": "function", "name": "f"}, {"mode": "ANY", "allowed_function_names": ["f"]}),
    ({"type": "allowed_tools", "allowed_tools": {"mode": "required", "tools": [
        {"type": "function", "function": {"name": "f"}},
        {"type": "function", "function": {"name": "g"}}]}},
     {"mode": "ANY", "allowed_function_names": ["f", "g"]}),
    ({"type": "allowed_tools", "mode": "auto", "tools": [{"type": "function", "name": "f"}]},
     {"mode": "AUTO", "allowed_function_names": ["f"]}),
])
def test_other_formats_tool_choices_become_function_calling_modes(choice, calling):
    history = ChatHistory([ChatMessageContent("user", "hi")])
    history.options = ChatOptions(tool_choice=choice)
    assert gemini.to_request(history) == {
        "contents": [{"role": "user", "parts": [{"text": "hi"}]}],
        "tool_config": {"function_calling_config": calling},
    }


@pytest.mark.parametrize(("choice", "note"), [
    ("sometimes", 'options.tool_choice: dropped: Gemini cannot carry the tool choice '
                  '"sometimes"'),
    ({"type": "custom", "name": "grammar"},
     'options.tool_choice: dropped: Gemini cannot carry a "custom" tool choice'),
    ({"type": "allowed_tools", "mode": "auto", "tools": [{"type": "mcp"}]},
     'options.tool_choice: dropped: Gemini cannot carry a "allowed_tools" tool choice'),
])
def test_a_tool_choice_gemini_has_no_mode_for_is_reported(choice, note):
    history = ChatHistory([ChatMessageContent("user", "hi")])
    history.options = ChatOptions(tool_choice=choice, extra={"tool_config": {
        "retrieval_config": {"language_code": "fr"}}})
    written, notes = _caught(lambda: gemini.to_request(history))
    assert written["tool_config"] == {"retrieval_config": {"language_code": "fr"}}
    assert notes == [note]


@pytest.mark.parametrize(("effort", "written", "notes"), [
    ("medium", {"thinking_config": {"thinking_level": "MEDIUM"}}, []),
    ("xhigh", {"thinking_config": {"thinking_level": "XHIGH"}}, []),  # the SDK's XHIGH
    ("none", None, ['options.reasoning_effort: dropped: Gemini cannot carry the reasoning '
                    'effort "none"']),
])
def test_reasoning_efforts_become_thinking_levels(effort, written, notes):
    history = ChatHistory([ChatMessageContent("user", "hi")])
    history.options = ChatOptions(reasoning_effort=effort)
    body, caught = _caught(lambda: gemini.to_request(history))
    assert body.get("generation_config") == written
    assert caught == notes


def test_an_anthropic_body_becomes_a_gemini_body_with_the_losses_reported():
    body = {
        "model": "claude-sonnet-4-5", "max_tokens": 512, "system": "Be brief.",
        "messages": [{"role": "user", "content": "hi"}],
        "tools": [{"name": "get_weather", "description": "Weather in a city",
                   "input_schema": {"type": "object"}},
                  {"type": "web_search_20250305", "name": "web_search"}],
        "tool_choice": {"type": "tool", "name": "get_weather"},
        "thinking": {"type": "enabled", "budget_tokens": 1024},
        "top_k": 5, "service_tier": "standard_only", "stop_sequences": ["END"],
    }
    written, notes = _caught(lambda: formats.convert(body, target="gemini"))
    assert written == {
        "model": "claude-sonnet-4-5",
        "contents": [{"role": "user", "parts": [{"text": "hi"}]}],
        "system_instruction": {"parts": [{"text": "Be brief."}]},
        "tools": [{"function_declarations": [{
            "name": "get_weather", "description": "Weather in a city",
            "parameters_json_schema": {"type": "object"}}]}],
        "tool_config": {"function_calling_config": {
            "mode": "ANY", "allowed_function_names": ["get_weather"]}},
        "generation_config": {"max_output_tokens": 512, "stop_sequences": ["END"],
                              "top_k": 5},
    }
    assert notes == [
        'options.tools[1]: dropped: Gemini cannot carry a "web_search_20250305" tool',
        "options.extra[\"thinking\"]: dropped: Gemini cannot carry the request field "
        "'thinking'",
        "options.extra[\"service_tier\"]: dropped: Gemini cannot carry the request field "
        "'service_tier' with Anthropic's value 'standard_only'",
    ]
    validate_gemini_request(written)


def test_a_gemini_body_becomes_an_anthropic_body_with_its_max_tokens():
    written = formats.convert(copy.deepcopy(BODY), target="anthropic", on_unsupported="drop")
    assert written["max_tokens"] == 2048
    assert written["system"] == "Be brief."
    assert written["tool_choice"] == {"type": "tool", "name": "get_weather"}
    assert written["top_k"] == 40


# --- documents ----------------------------------------------------------------------------

RESPONSE = {
    "candidates": [{"content": {"role": "model", "parts": [{"text": "Sunny."}]},
                    "finishReason": "STOP", "index": 0}],
    "usageMetadata": {"promptTokenCount": 5, "candidatesTokenCount": 2, "totalTokenCount": 7},
    "modelVersion": "gemini-2.5-flash",
    "responseId": "resp-1",
}


@pytest.mark.parametrize(("document", "kind"), [
    (BODY, "gemini_request"),
    (CAMEL_BODY, "gemini_request"),
    (SDK_BODY, "gemini_request"),
    ({"contents": []}, "gemini_request"),
    (RESPONSE, "gemini_response"),
    ({"promptFeedback": {"blockReason": "SAFETY"}}, "gemini_response"),
    ({"key": "r1", "request": {"contents": CONTENTS}}, "gemini_batch"),
    ({"key": "r1", "response": RESPONSE}, "gemini_batch_result"),
    ({"key": "r1", "error": {"code": 3, "message": "bad"}}, "gemini_batch_result"),
])
def test_every_gemini_document_is_told_apart(document, kind):
    assert documents.kind_of(document) == kind
    assert formats.detect(document) == "gemini"
    assert documents.is_request(document) == (kind == "gemini_request")


def test_a_bare_contents_list_is_gemini_and_a_messages_list_is_not():
    assert formats.detect([{"role": "user", "parts": [{"text": "hi"}]}]) == "gemini"
    assert formats.detect([{"parts": [{"text": "hi"}]}]) == "gemini"
    assert formats.detect([{"role": "user", "content": "hi"}]) == "openai-chat"


def test_from_payload_reads_every_document():
    history = gemini.from_payload(RESPONSE)
    assert [(m.role, m.text, m.id, m.model_id) for m in history] == [
        ("assistant", "Sunny.", "resp-1", "gemini-2.5-flash")
    ]
    sdk = types.GenerateContentResponse.model_validate(RESPONSE)
    assert gemini.from_payload(sdk) == history
    assert gemini.from_payload({"key": "r1", "response": RESPONSE}) == history
    line = {"key": "r1", "request": copy.deepcopy(BODY)}
    assert gemini.from_payload(line) == gemini.from_request(copy.deepcopy(BODY))
    openai_line = {"custom_id": "c", "method": "POST", "url": "/v1/x", "body": SDK_BODY}
    assert gemini.from_payload(openai_line) == gemini.from_request(SDK_BODY)
    assert gemini.from_payload(CONTENTS) == gemini.from_request({"contents": CONTENTS})


@pytest.mark.parametrize(("document", "message"), [
    ({"key": "r1", "request": {"contents": [{"role": "robot", "parts": []}]}},
     "request.contents[0].role: Gemini has no role 'robot'"),
    ({"key": "r1", "error": {"code": 3, "message": "bad request"}},
     "response: a Gemini Batch result line without a response: the request failed: "
     "bad request"),
    ({"key": "r1", "status": {"code": 3}},
     "response: a Gemini Batch result line without a response"),
    ({"object": "chat.completion", "choices": []},
     "contents: expected a list of contents or a Gemini document, got a Chat Completions "
     "response"),
    ({"type": "message", "role": "assistant", "model": "claude", "content": []},
     "contents: expected a list of contents or a Gemini document, got an Anthropic Messages "
     "response"),
    ({"model": "gpt-4o", "messages": []},
     "contents: expected a list of contents or a Gemini document, got a Chat Completions "
     "request"),
])
def test_a_document_of_another_kind_or_a_bad_line_is_refused_and_located(document, message):
    with pytest.raises(FormatError) as raised:
        gemini.from_payload(document)
    assert str(raised.value) == message


def test_other_formats_refuse_gemini_documents_naming_them():
    with pytest.raises(FormatError) as raised:
        openai_chat.from_payload(BODY)
    assert str(raised.value) == (
        "messages: expected a list of messages or a Chat Completions document, got a Gemini "
        "generateContent request"
    )
    with pytest.raises(FormatError) as raised:
        openai_responses.from_payload({"key": "r", "response": RESPONSE})
    assert str(raised.value).endswith("got a Gemini Batch result line")


@pytest.mark.parametrize(("target", "expected"), [
    ("gemini", {"key": "r1", "request": {"x": 1}, "metadata": {"m": 1}}),
    ("openai-chat", {"custom_id": "r1", "method": "POST", "url": "/v1/chat/completions",
                     "body": {"x": 1}, "metadata": {"m": 1}}),
    ("openai-responses", {"custom_id": "r1", "method": "POST", "url": "/v1/responses",
                          "body": {"x": 1}, "metadata": {"m": 1}}),
    ("anthropic", {"custom_id": "r1", "params": {"x": 1}, "metadata": {"m": 1}}),
    ("semantic-chat", {"key": "r1", "request": {"x": 1}, "metadata": {"m": 1}}),
])
def test_a_batch_request_line_moves_into_each_targets_envelope(target, expected):
    line = {"key": "r1", "request": {"contents": CONTENTS}, "metadata": {"m": 1}}
    unwrapped = documents.unwrap(line)
    assert (unwrapped.body, unwrapped.path) == ({"contents": CONTENTS}, "request")
    assert unwrapped.wrap({"x": 1}, target) == expected


def test_other_batch_lines_move_into_geminis_envelope():
    openai_line = {"custom_id": "c1", "method": "POST", "url": "/v1/chat/completions",
                   "body": {"messages": []}}
    anthropic_line = {"custom_id": "c2", "params": {"max_tokens": 5, "messages": []}}
    assert documents.unwrap(openai_line).wrap({"x": 1}, "gemini") == {
        "key": "c1", "request": {"x": 1}
    }
    assert documents.unwrap(anthropic_line).wrap({"x": 1}, "gemini") == {
        "key": "c2", "request": {"x": 1}
    }
    result = documents.unwrap({"key": "k", "response": RESPONSE})
    assert (result.body, result.path) == (RESPONSE, "response")
    assert result.wrap([1], "openai-chat") == {"key": "k", "response": [1]}
