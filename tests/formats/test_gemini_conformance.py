"""Gemini: recorded and documented payloads read, written back exactly, and valid.

Fixtures: ``fixtures/gemini_conformance.json`` (``generate_content`` kwargs from the official
SDK's README and tests; a copy of the shared conformance file) and
``fixtures/gemini_documented.json`` (REST bodies and ``GenerateContentResponse`` JSON written
from the API documentation and the SDK's tests, each naming its source: thought signatures on
calls and on text, thought summaries, code execution, Google Search grounding, several
candidates, media with ``video_metadata`` / ``media_resolution``, multimodal function
responses, camelCase and snake_case).

Every request comes back as it was, in its spelling and layout (``to_request(from_request(b),
spelling=<b's>) == b``), its ``{contents, system_instruction}`` part through ``to_payload(
from_payload(...))`` too; written in the other spelling it reads back the same. A response's
candidate content written back as a model turn is that content. Everything written
validates against the SDK's types, and an SDK object reads as its JSON does.
"""

from __future__ import annotations

import copy

import attrs
import pytest
from format_helpers import (
    PNG,
    WAV,
    assert_gemini_spelling,
    case,
    case_ids,
    cases,
    dumps_sorted,
    gemini_spelling,
    validate_gemini_payload,
    validate_gemini_request,
    validate_gemini_response,
)
from google.genai import types as genai_types

from semantic_chat import (
    AudioContent,
    AuthorRole,
    Citation,
    FileContent,
    FinishReason,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    ReasoningContent,
    TextContent,
    Usage,
)
from semantic_chat.contents import UnknownContent
from semantic_chat.formats import gemini as gemini_format

RECORDED = "gemini_conformance.json"
DOCUMENTED = "gemini_documented.json"

REQUESTS = cases(RECORDED, "request") + cases(DOCUMENTED, "request")
RESPONSES = cases(DOCUMENTED, "response")

# The thought signatures of the documented cases (opaque bytes, standard base64).
SIG_A = "++++/3Rob3VnaHQtc2lnbmF0dXJlLUEAPw=="
SIG_B = "++++/3Rob3VnaHQtc2lnbmF0dXJlLUIAPw=="
SIG_C = "++++/3Rob3VnaHQtc2lnbmF0dXJlLUMAPw=="
SIG_D = "++++/3Rob3VnaHQtc2lnbmF0dXJlLUQAPw=="
SIG_E = "++++/3Rob3VnaHQtc2lnbmF0dXJlLUUAPw=="
SIG_F = "++++/3Rob3VnaHQtc2lnbmF0dXJlLUYAPw=="


def _spelling(body: dict) -> str:
    return gemini_spelling("request", body)


def _other(spelling: str) -> str:
    return "camel" if spelling == "snake" else "snake"


def _payload_part(body: dict) -> dict:
    """The ``{contents, system_instruction?}`` part of a request, as ``to_payload`` writes it.

    In the body's spelling; an SDK layout's system instruction comes from its ``config``.
    """
    source = body.get("config", body)
    part = {"contents": body["contents"]}
    for key in ("system_instruction", "systemInstruction"):
        if key in source:
            part[key] = source[key]
    return part


def _system(body: dict):
    source = body.get("config", body)
    return source.get("system_instruction", source.get("systemInstruction"))


def _request(name: str) -> dict:
    for filename in (DOCUMENTED, RECORDED):
        try:
            return case(filename, name)["payload"]
        except KeyError:
            continue
    raise KeyError(name)


def _items(history, kind) -> list:
    return [item for message in history for item in message.items if isinstance(item, kind)]


def _without_metadata(citations) -> list[Citation]:
    return [attrs.evolve(citation, metadata={}) for citation in citations]


# --- requests: round trips ---------------------------------------------------------------


@pytest.mark.parametrize("fixture", REQUESTS, ids=case_ids(REQUESTS))
def test_fixture_request_is_valid_sdk_input(fixture):
    validate_gemini_request(fixture["payload"])


@pytest.mark.parametrize("fixture", REQUESTS, ids=case_ids(REQUESTS))
def test_request_reads_and_writes_back_exactly(fixture):
    body = fixture["payload"]
    written = gemini_format.to_request(gemini_format.from_request(body),
                                       spelling=_spelling(body))
    assert written == body
    # == ignores key order only; sorted JSON text also pins every list's order.
    assert dumps_sorted(written) == dumps_sorted(body)
    validate_gemini_request(written)


@pytest.mark.parametrize("fixture", REQUESTS, ids=case_ids(REQUESTS))
def test_contents_payload_reads_and_writes_back_exactly(fixture):
    payload = _payload_part(fixture["payload"])
    spelling = _spelling(fixture["payload"])
    history = gemini_format.from_payload(payload)
    written = gemini_format.to_payload(history, spelling=spelling)
    assert written == payload
    assert dumps_sorted(written) == dumps_sorted(payload)
    validate_gemini_payload(written)
    # read twice, the same history; written twice, the same payload
    assert gemini_format.from_payload(written) == history
    assert gemini_format.to_payload(gemini_format.from_payload(written),
                                    spelling=spelling) == payload


WITHOUT_SYSTEM = [fixture for fixture in REQUESTS if _system(fixture["payload"]) is None]


@pytest.mark.parametrize("fixture", WITHOUT_SYSTEM, ids=case_ids(WITHOUT_SYSTEM))
def test_a_bare_contents_list_reads_as_the_payload_does(fixture):
    contents = fixture["payload"]["contents"]
    history = gemini_format.from_payload(contents)
    assert history == gemini_format.from_payload({"contents": contents})
    assert gemini_format.to_payload(history, spelling=_spelling(fixture["payload"])) == {
        "contents": contents}


@pytest.mark.parametrize("fixture", REQUESTS, ids=case_ids(REQUESTS))
def test_the_payload_reader_agrees_with_the_request_reader(fixture):
    body = fixture["payload"]
    from_body = gemini_format.from_request(body)
    assert list(from_body) == list(gemini_format.from_payload(_payload_part(body)))
    # from_payload of a whole body reads it as a request, options included
    assert gemini_format.from_payload(body) == from_body


@pytest.mark.parametrize("fixture", REQUESTS, ids=case_ids(REQUESTS))
def test_a_request_written_in_the_other_spelling_reads_back_the_same(fixture):
    body = fixture["payload"]
    spelling = _spelling(body)
    history = gemini_format.from_request(body)
    other = gemini_format.to_request(history, spelling=_other(spelling))
    assert_gemini_spelling("request", other, _other(spelling))
    validate_gemini_request(other)
    back = gemini_format.from_request(other)
    assert list(back) == list(history)
    # the options too, but for the tools: kept as given, so now in the other spelling
    if history.options is not None:
        assert attrs.evolve(back.options, tools=None) == attrs.evolve(history.options,
                                                                      tools=None)
    assert gemini_format.to_request(back, spelling=spelling) == body
    # the contents alone too
    payload = gemini_format.to_payload(history, spelling=_other(spelling))
    assert_gemini_spelling("payload", payload, _other(spelling))
    validate_gemini_payload(payload)


@pytest.mark.parametrize("fixture", REQUESTS, ids=case_ids(REQUESTS))
def test_a_request_of_mixed_spellings_is_written_in_one(fixture):
    body = fixture["payload"]
    history = gemini_format.from_request(body)
    snake = gemini_format.to_request(history, spelling="snake")
    camel = gemini_format.to_request(history, spelling="camel")
    # every other content in the other spelling, the rest of the body camel
    mixed = copy.deepcopy(camel)
    mixed["contents"] = [content if index % 2 else snake["contents"][index]
                         for index, content in enumerate(camel["contents"])]
    assert gemini_format.to_request(gemini_format.from_request(mixed), spelling="snake") == snake
    assert gemini_format.to_request(gemini_format.from_request(mixed), spelling="camel") == camel


def test_snake_case_is_the_default_spelling():
    body = _request("rest_code_execution_camel")
    history = gemini_format.from_request(body)
    assert gemini_format.to_request(history) == gemini_format.to_request(history,
                                                                         spelling="snake")
    assert gemini_format.to_payload(history)["contents"][1]["parts"][1] == {
        "executable_code": body["contents"][1]["parts"][1]["executableCode"]}


@pytest.mark.parametrize("fixture", REQUESTS, ids=case_ids(REQUESTS))
def test_sdk_contents_read_as_their_json(fixture):
    body = fixture["payload"]
    contents = body["contents"]
    sdk_contents = [genai_types.Content.model_validate(content) for content in contents]
    system = _system(body)
    sdk_system = (genai_types.Content.model_validate(system) if isinstance(system, dict)
                  else system)
    from_sdk = gemini_format.from_payload(
        {"contents": sdk_contents, **({} if system is None else {"system_instruction":
                                                                 sdk_system})})
    from_json = gemini_format.from_payload(_payload_part(body))
    assert list(from_sdk) == list(from_json)
    spelling = _spelling(body)
    assert gemini_format.to_payload(from_sdk, spelling=spelling) == _payload_part(body)
    # a bare list of SDK contents too
    assert list(gemini_format.from_payload(sdk_contents)) == list(
        gemini_format.from_payload(contents))


SDK_LAYOUT = [fixture for fixture in REQUESTS if "config" in fixture["payload"]]


@pytest.mark.parametrize("fixture", SDK_LAYOUT, ids=case_ids(SDK_LAYOUT))
def test_sdk_kwargs_of_sdk_objects_read_as_their_json(fixture):
    body = fixture["payload"]
    sdk = {"model": body["model"],
           "contents": [genai_types.Content.model_validate(c) for c in body["contents"]],
           "config": genai_types.GenerateContentConfig.model_validate(body["config"])}
    from_sdk = gemini_format.from_request(sdk)
    from_json = gemini_format.from_request(body)
    assert list(from_sdk) == list(from_json)
    # the options too, but for the tools: kept as the SDK dumps them (camelCase)
    assert attrs.evolve(from_sdk.options, tools=None) == attrs.evolve(from_json.options,
                                                                      tools=None)
    assert gemini_format.to_request(from_sdk, spelling="snake") == body


# --- requests: what they read as ---------------------------------------------------------


def test_parallel_calls_without_ids_get_made_up_ids_their_results_pair_with():
    history = gemini_format.from_request(
        _request("rest_parallel_calls_signature_on_first_call_camel"))
    assert [str(message.role) for message in history] == ["user", "assistant", "tool"]
    paris, london = history[1].items
    assert (paris.id, paris.name, paris.arguments) == (
        "gemini-call-1-0", "get_current_temperature", {"location": "Paris"})
    assert (london.id, london.name, london.arguments) == (
        "gemini-call-1-1", "get_current_temperature", {"location": "London"})
    # the signature stays on the call it came with, the second has none
    assert paris.metadata["gemini"]["thought_signature"] == SIG_A
    assert "gemini" not in london.metadata
    assert [(r.call_id, r.name, r.result, r.is_error) for r in history[2].items] == [
        ("gemini-call-1-0", "get_current_temperature", {"temp": "15C"}, False),
        ("gemini-call-1-1", "get_current_temperature", {"temp": "12C"}, False),
    ]
    options = history.options
    assert (options.tool_choice, options.reasoning_effort, options.temperature) == (
        "auto", "low", 1.0)
    assert options.tools == [_request(
        "rest_parallel_calls_signature_on_first_call_camel")["tools"][0]]
    # made-up ids are never written to Gemini
    written = gemini_format.to_payload(history)
    assert "gemini-call" not in dumps_sorted(written)


def test_recorded_parallel_calls_pair_by_name_and_order():
    history = gemini_format.from_request(_request("parallel_function_calls_user_responses"))
    calls = _items(history, FunctionCallContent)
    results = _items(history, FunctionResultContent)
    assert [(c.id, c.arguments) for c in calls] == [
        ("gemini-call-1-0", {"location": "Boston"}), ("gemini-call-1-1", {"location": "New York"})]
    assert [(r.call_id, r.result) for r in results] == [
        ("gemini-call-1-0", "Boston: 45F, windy"), ("gemini-call-1-1", "New York: 50F, clear")]


def test_sequential_calls_keep_each_signature_on_its_call():
    history = gemini_format.from_request(_request("rest_sequential_calls_each_signed_camel"))
    assert [str(message.role) for message in history] == [
        "system", "user", "assistant", "tool", "assistant", "tool"]
    assert history[0].items == [TextContent("You are a travel assistant.")]
    check, taxi = _items(history, FunctionCallContent)
    assert (check.id, check.metadata["gemini"]["thought_signature"]) == ("gemini-call-1-0",
                                                                         SIG_B)
    assert (taxi.id, taxi.metadata["gemini"]["thought_signature"]) == ("gemini-call-3-0", SIG_C)
    first, second = _items(history, FunctionResultContent)
    assert (first.call_id, first.result) == (
        "gemini-call-1-0", {"status": "delayed", "departure_time": "12 PM"})
    assert (second.call_id, second.result) == ("gemini-call-3-0", {"booking_status": "success"})
    assert history.options.max_tokens == 2048
    assert history.options.extra["thinking_config"] == {"include_thoughts": True,
                                                        "thinking_budget": 1024}


def test_thought_summaries_and_signatures_on_text_and_empty_parts():
    history = gemini_format.from_request(_request("rest_thought_summary_and_signed_text_camel"))
    summary, answer = history[1].items
    assert summary == ReasoningContent(
        "**Summing the primes**\n\nI list the first 50 primes and add them up.",
        provider="gemini")
    assert answer.text == "The sum of the first 50 prime numbers is 5117."
    assert type(answer) is TextContent
    assert answer.metadata["gemini"]["thought_signature"] == SIG_D
    text, empty = history[3].items
    assert text == TextContent("The sum of the first 10 prime numbers is 129.")
    assert (type(empty), empty.text, empty.signature, empty.provider) == (
        ReasoningContent, "", SIG_E, "gemini")
    assert history.options.extra["cached_content"] == "cachedContents/prime-facts-7f3a"


def test_a_bare_thought_part_reads_as_empty_reasoning():
    history = gemini_format.from_request(_request("empty_thought_part_from_sdk_test"))
    empty, text = history[1].items
    assert (type(empty), empty.text, empty.signature, empty.provider) == (
        ReasoningContent, "", None, "gemini")
    assert text.text.startswith("The FIFA World Cup is held every four years.")


def test_code_execution_parts_are_kept_as_unknown_content():
    history = gemini_format.from_request(_request("rest_code_execution_camel"))
    intro, code, result, answer = history[1].items
    assert intro == TextContent("I will write and run Python code to add the first 50 primes.")
    body = _request("rest_code_execution_camel")
    assert code == UnknownContent("executable_code",
                                  body["contents"][1]["parts"][1]["executableCode"])
    assert result == UnknownContent("code_execution_result",
                                    {"outcome": "OUTCOME_OK", "output": "5117\n"})
    assert answer == TextContent("The sum of the first 50 prime numbers is 5117.")
    assert history.options.tools == [{"codeExecution": {}}]


def test_media_parts_read_by_mime_type_with_their_part_fields_kept():
    history = gemini_format.from_request(
        _request("rest_media_parts_and_generation_config_snake"))
    system, user = history
    assert system.role == AuthorRole.SYSTEM
    text, image, video, audio, report = user.items
    assert text == TextContent("Describe the picture, the clip, the sound and the report.")
    assert isinstance(image, ImageContent)
    assert (image.data, image.mime_type) == (ImageContent.from_base64(PNG, "image/png").data,
                                             "image/png")
    assert image.metadata["gemini"]["fields"] == {"media_resolution": {
        "level": "MEDIA_RESOLUTION_HIGH"}}
    assert type(video) is FileContent
    assert (video.uri, video.mime_type) == (
        "https://generativelanguage.googleapis.com/v1beta/files/fq9r5ftyqrho", "video/mp4")
    assert video.metadata["gemini"]["fields"] == {"video_metadata": {
        "start_offset": "0s", "end_offset": "5s", "fps": 3}}
    assert isinstance(audio, AudioContent)
    assert (audio.data, audio.mime_type) == (AudioContent.from_base64(WAV, "audio/wav").data,
                                             "audio/wav")
    assert type(report) is FileContent
    assert (report.uri, report.mime_type, report.filename) == (
        "gs://cloud-samples-data/generative-ai/pdf/2403.05530.pdf", "application/pdf",
        "gemini-report.pdf")
    options = history.options
    assert (options.temperature, options.top_p, options.max_tokens, options.stop,
            options.seed, options.presence_penalty, options.frequency_penalty) == (
        0.4, 0.95, 1024, ["END"], 7, 0.1, 0.2)
    assert {key: options.extra[key] for key in (
        "top_k", "candidate_count", "response_mime_type", "media_resolution",
        "safety_settings")} == {
        "top_k": 40, "candidate_count": 1, "response_mime_type": "text/plain",
        "media_resolution": "MEDIA_RESOLUTION_LOW",
        "safety_settings": [{"category": "HARM_CATEGORY_DANGEROUS_CONTENT",
                             "threshold": "BLOCK_ONLY_HIGH"}],
    }


def test_a_multimodal_function_response_reads_as_text_and_media_items():
    history = gemini_format.from_request(_request("rest_multimodal_function_response_camel"))
    (result,) = history[2].items
    assert (result.call_id, result.name, result.is_error) == (
        "gemini-call-1-0", "get_sales_chart", False)
    text, chart = result.result
    assert text == TextContent("Sales rose 12% over the month.")
    assert isinstance(chart, ImageContent)
    assert (chart.data, chart.mime_type) == (ImageContent.from_base64(PNG, "image/png").data,
                                             "image/png")


def test_a_function_response_that_refers_to_its_part_keeps_its_object():
    history = gemini_format.from_request(
        _request("rest_function_response_referencing_its_part_camel"))
    (result,) = history[2].items
    assert result.call_id == "gemini-call-1-0"
    (image,) = [item for item in result.result if isinstance(item, ImageContent)]
    assert image.mime_type == "image/png"


def test_ids_wrappers_the_function_role_and_text_after_results():
    history = gemini_format.from_request(
        _request("rest_ids_wrappers_function_role_and_trailing_text_snake"))
    assert [str(message.role) for message in history] == [
        "user", "assistant", "tool", "assistant", "user", "assistant", "tool", "user"]
    lights, thermostat = history[2].items
    assert (lights.call_id, lights.result, lights.is_error) == ("call-lights-1", "on", False)
    assert (thermostat.call_id, thermostat.result, thermostat.is_error) == (
        "call-thermo-2", "thermostat offline", True)
    lock, time = history[6].items
    assert (lock.call_id, lock.result) == ("call-lock-3", {"locked": True})
    assert (time.call_id, time.result) == ("call-time-4", "21:04")
    assert history[7].items == [TextContent("Is everything done now?")]
    _, no_args = history[5].items
    assert (no_args.id, no_args.arguments) == ("call-time-4", {})
    assert history.options.extra["labels"] == {"team": "home-automation"}


def test_a_content_without_a_role_is_a_user_message():
    history = gemini_format.from_request(
        _request("rest_google_search_request_without_role_snake"))
    (user,) = history
    assert (user.role, user.items) == (AuthorRole.USER, [TextContent("Who won the euro 2024?")])
    assert history.options.tools == [{"google_search": {}}]


def test_sdk_kwargs_options():
    body = _request("sdk_kwargs_any_mode_one_function_thinking_level")
    history = gemini_format.from_request(body)
    system, user = history
    assert system.items == [TextContent("You are a weather bot. Always call the tool.")]
    assert user.items == [TextContent("What is the weather like in Boston?")]
    options = history.options
    assert (options.model, options.temperature, options.max_tokens, options.reasoning_effort,
            options.tool_choice) == (
        "gemini-2.5-flash", 0, 256, "low", {"type": "function", "name": "get_current_weather"})
    assert options.tools == body["config"]["tools"]


def test_a_string_system_instruction_is_one_system_message():
    history = gemini_format.from_request(_request("system_instruction_string_in_config"))
    assert history[0].role == AuthorRole.SYSTEM
    assert history[0].items == [TextContent("I say high, you say low")]
    assert (history.options.max_tokens, history.options.temperature) == (3, 0.3)


# --- responses ---------------------------------------------------------------------------

# name: per candidate (id, model_id, finish_reason, usage); usage is the response's.
USAGE_PARALLEL = Usage(prompt_tokens=71, completion_tokens=142, total_tokens=213,
                       reasoning_tokens=106)
USAGE_TWO = Usage(prompt_tokens=8, completion_tokens=20, total_tokens=28)
EXPECTED_RESPONSES = {
    "response_parallel_calls_without_ids_camel": [
        ("3dkGab-uIeqfz7IPi5KRqQE", "gemini-3-pro-preview", FinishReason.TOOL_CALLS,
         USAGE_PARALLEL)],
    "response_thought_summary_and_signed_text_camel": [
        ("Yq8Gac2tFp-Nz7IP8pWgoAs", "gemini-2.5-pro", FinishReason.STOP,
         Usage(prompt_tokens=1200, completion_tokens=370, total_tokens=1570,
               cached_tokens=1024, reasoning_tokens=350))],
    "response_code_execution_camel": [
        # tool-use prompt tokens are input too: 29 + 300
        ("kP0Gaf7xLrOfz7IPq4DC8Qk", "gemini-2.5-flash", FinishReason.STOP,
         Usage(prompt_tokens=329, completion_tokens=210, total_tokens=539))],
    "response_google_search_grounding_camel": [
        ("8w0Hacq1MZ6fz7IPiYiR6Ac", "gemini-2.5-flash", FinishReason.STOP,
         Usage(prompt_tokens=157, completion_tokens=31, total_tokens=188))],
    "response_two_candidates_camel": [
        ("c1AHaYrXO4-fz7IPzoXc8Qo", "gemini-2.0-flash", FinishReason.STOP, USAGE_TWO),
        ("c1AHaYrXO4-fz7IPzoXc8Qo", "gemini-2.0-flash", FinishReason.LENGTH, USAGE_TWO)],
    "response_function_call_with_id_snake": [
        ("f1IHaZKZB5ub2fMPu4uF8QE", "gemini-2.5-flash", FinishReason.TOOL_CALLS,
         Usage(prompt_tokens=40, completion_tokens=60, total_tokens=100, reasoning_tokens=51))],
    "response_blocked_candidate_without_content_snake": [
        ("aVIHaZ6VCs2b2fMPrqWB0Ac", "gemini-2.5-flash", FinishReason.CONTENT_FILTER,
         Usage(prompt_tokens=12, completion_tokens=0, total_tokens=12))],
}

CANDIDATES = [(fixture, index) for fixture in RESPONSES
              for index in range(len(fixture["payload"]["candidates"]))]
CANDIDATE_IDS = [f"{fixture['name']}[{index}]" for fixture, index in CANDIDATES]
WITH_CONTENT = [(fixture, index) for fixture, index in CANDIDATES
                if "content" in fixture["payload"]["candidates"][index]]


def test_every_response_has_its_expected_values():
    assert sorted(EXPECTED_RESPONSES) == sorted(case_ids(RESPONSES))
    for fixture in RESPONSES:
        assert len(EXPECTED_RESPONSES[fixture["name"]]) == len(fixture["payload"]["candidates"])


@pytest.mark.parametrize("fixture", RESPONSES, ids=case_ids(RESPONSES))
def test_fixture_response_is_valid_sdk_output(fixture):
    validate_gemini_response(fixture["payload"])


@pytest.mark.parametrize(("fixture", "index"), WITH_CONTENT,
                         ids=[f"{f['name']}[{i}]" for f, i in WITH_CONTENT])
def test_candidate_content_writes_back_as_the_model_turn(fixture, index):
    response = fixture["payload"]
    content = response["candidates"][index]["content"]
    message = gemini_format.from_response(response, candidate=index)
    assert message.role == AuthorRole.ASSISTANT
    written = gemini_format.to_payload(message, spelling=gemini_spelling("response", response))
    assert written == {"contents": [content]}
    assert dumps_sorted(written) == dumps_sorted({"contents": [content]})
    validate_gemini_payload(written)
    # in the other spelling too, valid, and read back the same (but for the citations, which
    # are the response's own: not written)
    other = gemini_format.to_payload(
        message, spelling=_other(gemini_spelling("response", response)))
    validate_gemini_payload(other)
    assert gemini_format.from_payload(other)[0].items == [
        attrs.evolve(item, citations=()) if isinstance(item, TextContent) else item
        for item in message.items]


@pytest.mark.parametrize(("fixture", "index"), CANDIDATES, ids=CANDIDATE_IDS)
def test_response_id_model_finish_reason_and_usage_are_read_exactly(fixture, index):
    response = fixture["payload"]
    message = gemini_format.from_response(response, candidate=index)
    message_id, model_id, finish_reason, usage = EXPECTED_RESPONSES[fixture["name"]][index]
    assert message.id == message_id
    assert message.model_id == model_id
    assert message.finish_reason == finish_reason
    assert str(message.finish_reason) == str(finish_reason)
    assert message.usage == usage
    # the original finish reason and the whole usage object are kept in the hints (snake)
    candidate = response["candidates"][index]
    hints = message.metadata["gemini"]
    assert hints["finish_reason"] == candidate.get("finishReason", candidate.get("finish_reason"))
    assert set(hints["usage_metadata"]) == {
        _snake(key) for key in response.get("usageMetadata", response.get("usage_metadata"))}
    assert message.inner_content == response


def _snake(key: str) -> str:
    return "".join("_" + c.lower() if c.isupper() else c for c in key)


def test_a_blocked_candidate_is_an_empty_message_with_its_ratings_kept():
    response = _request("response_blocked_candidate_without_content_snake")
    message = gemini_format.from_response(response)
    assert message.items == []
    assert message.finish_reason == FinishReason.CONTENT_FILTER
    assert message.metadata["gemini"]["candidate"]["safety_ratings"] == [
        {"category": "HARM_CATEGORY_DANGEROUS_CONTENT", "probability": "HIGH", "blocked": True}]


@pytest.mark.parametrize(("fixture", "index"), CANDIDATES, ids=CANDIDATE_IDS)
def test_an_sdk_response_reads_as_its_json(fixture, index):
    response = fixture["payload"]
    sdk = genai_types.GenerateContentResponse.model_validate(response)
    from_sdk = gemini_format.from_response(sdk, candidate=index)
    from_json = gemini_format.from_response(response, candidate=index)
    assert from_sdk.items == from_json.items
    assert (from_sdk.id, from_sdk.model_id, from_sdk.finish_reason, from_sdk.usage) == (
        from_json.id, from_json.model_id, from_json.finish_reason, from_json.usage)
    assert gemini_format.to_payload(from_sdk) == gemini_format.to_payload(from_json)


@pytest.mark.parametrize("fixture", RESPONSES, ids=case_ids(RESPONSES))
def test_a_response_given_to_from_payload_is_a_one_message_history(fixture):
    history = gemini_format.from_payload(fixture["payload"])
    assert list(history) == [gemini_format.from_response(fixture["payload"])]


def test_response_calls_without_ids_get_made_up_ids_of_turn_zero():
    message = gemini_format.from_response(_request("response_parallel_calls_without_ids_camel"))
    paris, london = message.items
    assert [(c.id, c.name, c.arguments) for c in (paris, london)] == [
        ("gemini-call-0-0", "get_current_temperature", {"location": "Paris"}),
        ("gemini-call-0-1", "get_current_temperature", {"location": "London"})]
    assert paris.metadata["gemini"]["thought_signature"] == SIG_A
    assert "gemini" not in london.metadata


def test_a_response_call_keeps_its_id_and_signature():
    message = gemini_format.from_response(_request("response_function_call_with_id_snake"))
    (call,) = message.items
    assert (call.id, call.name, call.arguments) == (
        "function-call-2831741891384417458", "turn_on_the_lights", {"room": "kitchen"})
    assert call.metadata["gemini"]["thought_signature"] == SIG_B
    assert message.metadata["gemini"]["response"]["create_time"] == "2025-11-02T09:14:07.412345Z"


def test_a_thought_summary_and_a_signed_answer_in_a_response():
    message = gemini_format.from_response(
        _request("response_thought_summary_and_signed_text_camel"))
    summary, answer = message.items
    assert summary == ReasoningContent(
        "**Summing the primes**\n\nI list the first 50 primes and add them up.",
        provider="gemini")
    assert (type(answer), answer.text, answer.metadata["gemini"]["thought_signature"]) == (
        TextContent, "The sum of the first 50 prime numbers is 5117.", SIG_D)


def test_google_search_grounding_becomes_citations_at_character_offsets():
    response = _request("response_google_search_grounding_camel")
    message = gemini_format.from_response(response)
    (text,) = message.items
    assert text.text == (
        "Spain won Euro 2024, beating England 2\u20131 in the final in Berlin. "
        "It is Spain's record fourth European Championship title.")
    uefa = "https://vertexaisearch.cloud.google.com/grounding-api-redirect/AbF9wXE1"
    aljazeera = "https://vertexaisearch.cloud.google.com/grounding-api-redirect/AbF9wXE2"
    # byte offsets 0-66 and 67-123 (the en dash is 3 bytes) are characters 0-64 and 65-121
    assert _without_metadata(text.citations) == [
        Citation(url=uefa, title="uefa.com", source_index=0, text_start=0, text_end=64),
        Citation(url=uefa, title="uefa.com", source_index=0, text_start=65, text_end=121),
        Citation(url=aljazeera, title="aljazeera.com", source_index=1, text_start=65,
                 text_end=121),
    ]
    assert text.text[65:121] == "It is Spain's record fourth European Championship title."
    assert [c.metadata["gemini"]["confidence"] for c in text.citations] == [0.97, 0.91, 0.88]
    # the whole grounding metadata is kept (snake_case) in the message hints
    grounding = message.metadata["gemini"]["grounding_metadata"]
    assert grounding["web_search_queries"] == ["who won euro 2024", "UEFA Euro 2024 final"]
    assert grounding["search_entry_point"] == {"rendered_content": response["candidates"][0][
        "groundingMetadata"]["searchEntryPoint"]["renderedContent"]}
    # grounding is response-only data: written back, the citations are left out silently
    assert gemini_format.to_payload(message, spelling="camel") == {
        "contents": [response["candidates"][0]["content"]]}


def test_several_candidates_read_one_at_a_time():
    response = _request("response_two_candidates_camel")
    first = gemini_format.from_response(response)
    second = gemini_format.from_response(response, candidate=1)
    assert first.items == [TextContent("Roses in the morning, rain upon the sill.",
                                       citations=first.items[0].citations)]
    assert second.items == [TextContent("Autumn leaves are falling, one by")]
    assert (first.finish_reason, second.finish_reason) == (FinishReason.STOP,
                                                           FinishReason.LENGTH)
    assert first.metadata["gemini"]["candidate"]["avg_logprobs"] == -0.21
    assert second.metadata["gemini"]["candidate"]["avg_logprobs"] == -0.35
    assert first.metadata["gemini"]["candidate"]["safety_ratings"] == [
        {"category": "HARM_CATEGORY_HARASSMENT", "probability": "NEGLIGIBLE"}]
    # the citation metadata of the first is read onto its text and kept whole
    assert _without_metadata(first.items[0].citations) == [Citation(
        url="https://example.com/poems/roses", text_start=0, text_end=20)]
    assert first.metadata["gemini"]["citation_metadata"] == {"citations": [
        {"start_index": 0, "end_index": 20, "uri": "https://example.com/poems/roses",
         "license": "cc-by-4.0"}]}


def test_code_execution_in_a_response_is_kept_as_unknown_content():
    message = gemini_format.from_response(_request("response_code_execution_camel"))
    _, code, result, _ = message.items
    assert (code.type, code.fields["language"]) == ("executable_code", "PYTHON")
    assert result == UnknownContent("code_execution_result",
                                    {"outcome": "OUTCOME_OK", "output": "5117\n"})
