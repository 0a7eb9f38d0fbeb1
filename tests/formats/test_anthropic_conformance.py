"""Anthropic Messages: recorded and documented payloads read, written back exactly, and valid.

Fixtures: ``fixtures/anthropic_conformance.json`` (bodies, responses and streams recorded in
the official SDK's repository; a copy of the shared conformance file) and
``fixtures/anthropic_documented.json`` (cases written from the API documentation: citations of
every kind, web search, cache control, prefill, tool results with images, a thinking tool
loop, stop reasons; each case names the page). Every request must come back as it was
(``to_request(from_request(body)) == body``), its ``{system, messages}`` part through
``to_payload(from_payload(...))`` too, and a response's content written back as an assistant
message must be that content; everything written must validate against the SDK's types.
"""

from __future__ import annotations

import copy
import warnings

import attrs
import pytest
from anthropic.types import Message, RawMessageStreamEvent
from format_helpers import (
    PDF,
    PNG,
    case,
    case_ids,
    cases,
    dumps_sorted,
    validate_anthropic_payload,
    validate_anthropic_request,
)
from pydantic import TypeAdapter

from semantic_chat import (
    AuthorRole,
    ChatHistory,
    ChatMessageContent,
    Citation,
    FileContent,
    FinishReason,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    ReasoningContent,
    StreamingChatMessageContent,
    TextContent,
    Usage,
)
from semantic_chat.contents import UnknownContent
from semantic_chat.errors import SemanticChatError
from semantic_chat.formats import anthropic as anthropic_format

RECORDED = "anthropic_conformance.json"
DOCUMENTED = "anthropic_documented.json"


def _all(kind: str) -> list[dict]:
    return cases(RECORDED, kind) + cases(DOCUMENTED, kind)


REQUESTS = _all("request")
MESSAGES = _all("messages")
RESPONSES = _all("response")
STREAMS = cases(RECORDED, "stream")


def _payload_part(body: dict) -> dict:
    """The ``{system?, messages}`` part of a request body, as ``to_payload`` writes it."""
    return {key: body[key] for key in ("system", "messages") if key in body}


def _request(name: str) -> dict:
    for filename in (DOCUMENTED, RECORDED):
        try:
            return case(filename, name)["payload"]
        except KeyError:
            continue
    raise KeyError(name)


def _response(name: str) -> dict:
    return _request(name)


def _without_metadata(citations: tuple[Citation, ...]) -> list[Citation]:
    return [attrs.evolve(citation, metadata={}) for citation in citations]


# --- round trips -------------------------------------------------------------------------


@pytest.mark.parametrize("fixture", REQUESTS, ids=case_ids(REQUESTS))
def test_request_reads_and_writes_back_exactly(fixture):
    body = fixture["payload"]
    written = anthropic_format.to_request(anthropic_format.from_request(body))
    assert written == body
    # == ignores key order only; sorted JSON text also pins every list's order.
    assert dumps_sorted(written) == dumps_sorted(body)
    validate_anthropic_request(written, fixture.get("extra_body", ()))


@pytest.mark.parametrize("fixture", REQUESTS, ids=case_ids(REQUESTS))
def test_fixture_request_is_valid_sdk_input(fixture):
    validate_anthropic_request(fixture["payload"], fixture.get("extra_body", ()))


@pytest.mark.parametrize("fixture", REQUESTS + MESSAGES, ids=case_ids(REQUESTS + MESSAGES))
def test_messages_payload_reads_and_writes_back_exactly(fixture):
    payload = _payload_part(fixture["payload"])
    history = anthropic_format.from_payload(payload)
    written = anthropic_format.to_payload(history)
    assert written == payload
    assert dumps_sorted(written) == dumps_sorted(payload)
    validate_anthropic_payload(written)
    # read twice, the same history; written twice, the same payload
    assert anthropic_format.from_payload(written) == history
    assert anthropic_format.to_payload(anthropic_format.from_payload(written)) == payload


WITHOUT_SYSTEM = [fixture for fixture in REQUESTS + MESSAGES if "system" not in fixture["payload"]]


@pytest.mark.parametrize("fixture", WITHOUT_SYSTEM, ids=case_ids(WITHOUT_SYSTEM))
def test_a_bare_messages_list_reads_as_the_payload_does(fixture):
    payload = fixture["payload"]  # a bare list has no system: payloads without one
    history = anthropic_format.from_payload(payload["messages"])
    assert history == anthropic_format.from_payload({"messages": payload["messages"]})
    assert anthropic_format.to_payload(history) == {"messages": payload["messages"]}


@pytest.mark.parametrize("fixture", REQUESTS, ids=case_ids(REQUESTS))
def test_the_payload_reader_agrees_with_the_request_reader(fixture):
    body = fixture["payload"]
    from_body = anthropic_format.from_request(body)
    from_payload = anthropic_format.from_payload(_payload_part(body))
    assert list(from_body) == list(from_payload)
    # from_payload of a whole body reads it as a request, options included
    assert anthropic_format.from_payload(body) == from_body


# --- responses ---------------------------------------------------------------------------

# name: (id, model_id, finish_reason, usage)
EXPECTED_RESPONSES = {
    "recorded_response_text_and_tool_use": (
        "msg_01BAceCxj9VxXR9GhBedwTm2", "claude-haiku-4-5-20251001", FinishReason.TOOL_CALLS,
        Usage(prompt_tokens=834, completion_tokens=81, total_tokens=915, cached_tokens=0,
              cache_creation_tokens=0),
    ),
    "recorded_response_tool_use_only": (
        "msg_01RMQBcKf2dxTq6qfi31BBTz", "claude-haiku-4-5-20251001", FinishReason.TOOL_CALLS,
        Usage(prompt_tokens=656, completion_tokens=74, total_tokens=730, cached_tokens=0,
              cache_creation_tokens=0),
    ),
    "recorded_response_end_turn_text": (
        "msg_01GJyhkguJrrqMbZNzEybYFL", "claude-haiku-4-5-20251001", FinishReason.STOP,
        Usage(prompt_tokens=760, completion_tokens=63, total_tokens=823, cached_tokens=0,
              cache_creation_tokens=0),
    ),
    "response_with_document_citations": (
        "msg_01Cit4tionsDocsXyZ", "claude-sonnet-4-5-20250929", FinishReason.STOP,
        Usage(prompt_tokens=2101, completion_tokens=118, total_tokens=2219, cached_tokens=0,
              cache_creation_tokens=0),
    ),
    "response_web_search_with_citations": (
        "msg_a930390d3a", "claude-opus-4-1-20250805", FinishReason.STOP,
        Usage(prompt_tokens=6039, completion_tokens=931, total_tokens=6970, cached_tokens=0,
              cache_creation_tokens=0),
    ),
    "response_extended_thinking_tool_use": (
        # every input token: 50 new + 1,200 written to the cache + 3,000 read from it
        "msg_01NhR4vE9nVh2sHs5fXbzji8", "claude-sonnet-4-5-20250929", FinishReason.TOOL_CALLS,
        Usage(prompt_tokens=4250, completion_tokens=420, total_tokens=4670,
              cached_tokens=3000, cache_creation_tokens=1200),
    ),
    "response_stop_sequence": (
        "msg_01StopSequence", "claude-sonnet-4-5-20250929", FinishReason.STOP,
        Usage(prompt_tokens=20, completion_tokens=12, total_tokens=32, cached_tokens=0,
              cache_creation_tokens=0),
    ),
    "response_max_tokens": (
        "msg_01MaxTokens", "claude-sonnet-4-5-20250929", FinishReason.LENGTH,
        Usage(prompt_tokens=12, completion_tokens=3, total_tokens=15, cached_tokens=0,
              cache_creation_tokens=0),
    ),
    "response_refusal": (
        "msg_01Refusal", "claude-sonnet-4-5-20250929", FinishReason.CONTENT_FILTER,
        Usage(prompt_tokens=15, completion_tokens=7, total_tokens=22, cached_tokens=0,
              cache_creation_tokens=0),
    ),
    "response_pause_turn": (
        "msg_01PauseTurn", "claude-sonnet-4-5-20250929", FinishReason("pause_turn"),
        Usage(prompt_tokens=5000, completion_tokens=80, total_tokens=5080, cached_tokens=0,
              cache_creation_tokens=0),
    ),
    "response_context_window_exceeded": (
        "msg_01ContextWindow", "claude-sonnet-4-5-20250929", FinishReason.LENGTH,
        Usage(prompt_tokens=199990, completion_tokens=10, total_tokens=200000,
              cached_tokens=0, cache_creation_tokens=0),
    ),
}


def test_every_response_has_its_expected_values():
    assert sorted(EXPECTED_RESPONSES) == sorted(case_ids(RESPONSES))


def _contains(value, key, expected) -> bool:
    """Whether ``value`` (JSON) holds ``key: expected`` at some depth."""
    if isinstance(value, dict):
        if key in value and value[key] == expected:
            return True
        return any(_contains(element, key, expected) for element in value.values())
    if isinstance(value, list):
        return any(_contains(element, key, expected) for element in value)
    return False


@pytest.mark.parametrize("fixture", RESPONSES, ids=case_ids(RESPONSES))
def test_response_content_writes_back_as_the_assistant_turn(fixture):
    response = fixture["payload"]
    message = anthropic_format.from_response(response)
    assert message.role == AuthorRole.ASSISTANT
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        written = anthropic_format.to_payload(message)
    # Written alone, the reply is the last assistant turn: the prefill, which the API refuses
    # ending in whitespace, so a reply's final newline is taken off (and reported).
    content = copy.deepcopy(response["content"])
    last = content[-1]
    trimmed = last["type"] == "text" and last["text"] != last["text"].rstrip()
    if trimmed:
        last["text"] = last["text"].rstrip()
    assert written == {"messages": [{"role": "assistant", "content": content}]}
    assert dumps_sorted(written) == dumps_sorted(
        {"messages": [{"role": "assistant", "content": content}]})
    assert [str(note.message) for note in caught] == (
        ["messages[0]: dropped: Anthropic Messages cannot carry the trailing whitespace of a "
         "last assistant message (the API refuses a prefill that ends in whitespace): taken off"]
        if trimmed else []
    )
    validate_anthropic_payload(written)


@pytest.mark.parametrize("fixture", RESPONSES, ids=case_ids(RESPONSES))
def test_response_id_model_finish_reason_and_usage_are_read_exactly(fixture):
    response = fixture["payload"]
    message = anthropic_format.from_response(response)
    message_id, model_id, finish_reason, usage = EXPECTED_RESPONSES[fixture["name"]]
    assert message.id == message_id
    assert message.model_id == model_id
    assert message.finish_reason == finish_reason
    assert str(message.finish_reason) == str(finish_reason)
    assert message.usage == usage
    # The original stop reason and (when there was one) stop sequence are kept in the hints.
    hints = message.metadata["anthropic"]
    assert _contains(hints, "stop_reason", response["stop_reason"])
    if response["stop_sequence"] is not None:
        assert _contains(hints, "stop_sequence", response["stop_sequence"])
    assert message.inner_content == response


@pytest.mark.parametrize("fixture", RESPONSES, ids=case_ids(RESPONSES))
def test_an_sdk_message_reads_as_its_dict(fixture):
    response = fixture["payload"]
    sdk = Message.model_validate(response)
    from_sdk = anthropic_format.from_response(sdk)
    from_dict = anthropic_format.from_response(response)
    assert from_sdk.items == from_dict.items
    assert (from_sdk.id, from_sdk.model_id, from_sdk.finish_reason, from_sdk.usage) == (
        from_dict.id, from_dict.model_id, from_dict.finish_reason, from_dict.usage)
    assert anthropic_format.to_payload(from_sdk) == anthropic_format.to_payload(from_dict)


@pytest.mark.parametrize("fixture", RESPONSES, ids=case_ids(RESPONSES))
def test_a_response_given_to_from_payload_is_a_one_message_history(fixture):
    history = anthropic_format.from_payload(fixture["payload"])
    assert list(history) == [anthropic_format.from_response(fixture["payload"])]


def test_the_stop_sequence_is_kept():
    message = anthropic_format.from_response(_response("response_stop_sequence"))
    assert message.finish_reason == FinishReason.STOP
    assert _contains(message.metadata["anthropic"], "stop_sequence", "3.")


def test_usage_keys_that_are_not_counts_are_kept():
    message = anthropic_format.from_response(_response("response_web_search_with_citations"))
    assert _contains(message.metadata["anthropic"], "server_tool_use",
                     {"web_search_requests": 1, "web_fetch_requests": 0})
    message = anthropic_format.from_response(_response("response_extended_thinking_tool_use"))
    assert _contains(message.metadata["anthropic"], "cache_creation",
                     {"ephemeral_5m_input_tokens": 1200, "ephemeral_1h_input_tokens": 0})


# --- what the documented cases read as ---------------------------------------------------


def test_documents_read_as_files_and_the_content_document_as_unknown():
    history = anthropic_format.from_request(_request("documents_with_citations_enabled"))
    (user,) = history
    text_doc, pdf_doc, content_doc, url_doc, file_doc, question = user.items
    assert isinstance(text_doc, FileContent)
    assert (text_doc.data, text_doc.mime_type, text_doc.filename) == (
        b"The grass is green. The sky is blue.", "text/plain", "My Document")
    assert isinstance(pdf_doc, FileContent)
    assert (pdf_doc.data, pdf_doc.mime_type, pdf_doc.filename) == (
        FileContent.from_base64(PDF, "application/pdf").data, "application/pdf",
        "Annual report")
    assert content_doc == UnknownContent("document", {
        "source": {"type": "content", "content": [{"type": "text", "text": "First chunk"},
                                                  {"type": "text", "text": "Second chunk"}]},
        "title": "Document Title",
        "context": "Context about the document that will not be cited from",
        "citations": {"enabled": True},
    })
    assert isinstance(url_doc, FileContent)
    assert url_doc.uri == ("https://assets.anthropic.com/m/1cd9d098ac3e6467/original/"
                           "Claude-3-Model-Card-October-Addendum.pdf")
    assert url_doc.filename is None
    assert isinstance(file_doc, FileContent)
    assert file_doc.file_id == "file_011CNha8iCJcU1wXNR6q4V8w"
    assert question == TextContent("What color is the grass and sky?")


def test_document_citations_are_read_onto_their_text():
    message = anthropic_format.from_response(_response("response_with_document_citations"))
    texts = message.items
    assert all(type(item) is TextContent for item in texts)
    assert [item.text for item in texts] == [
        "According to the documents, ", "the grass is green", " and ", "the sky is blue",
        ". The report and the custom document agree: ",
        "revenue grew in both halves of the year", ", and the model card says ",
        "the evaluations were updated", ".",
    ]
    assert [len(item.citations) for item in texts] == [0, 1, 0, 1, 0, 2, 0, 1, 0]
    assert _without_metadata(texts[1].citations) == [Citation(
        cited_text="The grass is green. ", title="My Document", source_index=0,
        source_start=0, source_end=20, source_unit="char")]
    assert _without_metadata(texts[3].citations) == [Citation(
        cited_text="The sky is blue.", title="My Document", source_index=0,
        source_start=20, source_end=36, source_unit="char")]
    assert _without_metadata(texts[5].citations) == [
        Citation(cited_text="Revenue grew in the first half. ", title="Annual report",
                 source_index=1, source_start=1, source_end=2, source_unit="page"),
        Citation(cited_text="First chunkSecond chunk", title="Document Title",
                 source_index=2, source_start=0, source_end=2, source_unit="block"),
    ]
    # the untitled URL document: no title
    assert _without_metadata(texts[7].citations) == [Citation(
        cited_text="We updated the evaluations. ", source_index=3, source_start=3,
        source_end=4, source_unit="page")]
    assert [c.metadata["anthropic"]["type"] for c in texts[5].citations] == [
        "page_location", "content_block_location"]
    assert texts[1].citations[0].metadata["anthropic"]["type"] == "char_location"
    # whole-block citations: no span inside the text
    assert {(c.text_start, c.text_end) for t in texts for c in t.citations} == {(None, None)}


def test_web_search_blocks_are_kept_and_its_citations_read():
    message = anthropic_format.from_response(_response("response_web_search_with_citations"))
    intro, server_call, server_result, lead, cited = message.items
    assert intro == TextContent("I'll search for when Claude Shannon was born.")
    assert server_call == UnknownContent("server_tool_use", {
        "id": "srvtoolu_01WYG3ziw53XMcoyKL4XcZmE", "name": "web_search",
        "input": {"query": "claude shannon birth date"}})
    assert isinstance(server_result, UnknownContent)
    assert server_result.type == "web_search_tool_result"
    assert server_result.fields["tool_use_id"] == "srvtoolu_01WYG3ziw53XMcoyKL4XcZmE"
    assert lead == TextContent("Based on the search results, ")
    assert cited.text == "Claude Shannon was born on April 30, 1916, in Petoskey, Michigan"
    (citation,) = cited.citations
    assert attrs.evolve(citation, metadata={}) == Citation(
        cited_text="Claude Elwood Shannon (April 30, 1916 \u2013 February 24, 2001) was an "
        "American mathematician, electrical engineer, computer scientist, cryptographer and "
        "i...",
        title="Claude Shannon - Wikipedia",
        url="https://en.wikipedia.org/wiki/Claude_Shannon",
    )
    assert citation.metadata["anthropic"]["type"] == "web_search_result_location"
    assert citation.metadata["anthropic"]["encrypted_index"] == "Eo8BCioIAhgBIiQyYjQ0OWJmZi1lNm.."


def test_search_result_citations_are_read():
    history = anthropic_format.from_request(_request("search_results_and_their_citations"))
    answer = history[3]
    assert answer.role == AuthorRole.ASSISTANT
    first, second = answer.items
    assert _without_metadata(first.citations) == [Citation(
        cited_text="All API requests must include an API key in the Authorization header.",
        title="API Reference - Authentication", url="https://docs.company.com/api-reference",
        source_index=0, source_start=0, source_end=1, source_unit="block")]
    assert _without_metadata(second.citations) == [Citation(
        cited_text="Rotate keys every 90 days.", url="https://docs.company.com/keys",
        source_index=1, source_start=0, source_end=1, source_unit="block")]
    # the search_result blocks are kept whole, at the top level and in the tool result
    assert [type(item).__name__ for item in history[0].items] == ["UnknownContent",
                                                                  "TextContent"]
    (result,) = history[2].items
    assert isinstance(result, FunctionResultContent)
    assert result.name == "search_knowledge_base"
    assert [item.type for item in result.result] == ["search_result"]


def test_thinking_tool_loop_reads_signatures_and_redacted_thinking():
    history = anthropic_format.from_request(_request("extended_thinking_tool_loop"))
    assert [str(message.role) for message in history] == [
        "user", "assistant", "tool", "assistant", "tool"]
    thinking, redacted, text, call = history[1].items
    assert thinking == ReasoningContent(
        "The user wants to know the current weather in Paris. I have access to a function "
        "`get_weather` that can provide this information.",
        signature="BDaL4VrbR2Oj0hO4XpJxT28J5TILnCrrUXoKiiNBZW9P+nr8XSj1zuZzAl4egiCCpQNvfyUuFFJP5"
        "CncdYZEQPPmLxYsNrcs....",
        provider="anthropic",
    )
    assert redacted == ReasoningContent(
        "", encrypted="EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfW"
        "XGmKDxH4mPnZ5sQ7vB5URj...", provider="anthropic")
    assert text == TextContent("I can help you get the current weather information for Paris. "
                               "Let me check that for you")
    assert isinstance(call, FunctionCallContent)
    assert (call.id, call.name, call.parse_arguments()) == (
        "toolu_01CswdEQBMshySk6Y9DFKrfq", "get_weather", {"location": "Paris"})
    assert history[2].items == [FunctionResultContent(
        "toolu_01CswdEQBMshySk6Y9DFKrfq", "Current temperature: 88\u00b0F", name="get_weather")]
    (last,) = history[4].items
    assert (last.call_id, last.result, last.is_error, last.name) == (
        "toolu_02", "Current temperature: 31\u00b0C", False, "get_weather")
    options = history.options
    assert (options.model, options.max_tokens, options.tool_choice) == (
        "claude-sonnet-4-5", 16000, "auto")
    assert options.extra["thinking"] == {"type": "enabled", "budget_tokens": 10000}


def test_tool_results_with_images_read_as_result_items():
    history = anthropic_format.from_request(_request("tool_results_with_images_and_documents"))
    assert [str(message.role) for message in history] == ["user", "assistant", "tool", "user"]
    weather, clock = history[2].items
    assert weather.call_id == "toolu_01A09q90qw90lq917835lq9"
    assert weather.name == "get_weather"
    text, data_image, url_image = weather.result
    assert text == TextContent("15 degrees")
    assert isinstance(data_image, ImageContent)
    assert (data_image.data, data_image.mime_type) == (
        ImageContent.from_base64(PNG, "image/png").data, "image/png")
    assert url_image == ImageContent(
        uri="https://upload.wikimedia.org/wikipedia/commons/a/a7/Camponotus_flavomarginatus_ant.jpg")
    assert clock.name == "get_time"
    file_image, document = clock.result
    assert file_image == ImageContent(file_id="file_011CPMxVD3fHLUhvTqtsQA5w")
    assert isinstance(document, FileContent)
    assert (document.data, document.mime_type, document.filename) == (
        b"14:05 CEST", "text/plain", "clock.txt")
    assert history[3].items == [TextContent("Describe the picture too.")]


def test_a_result_without_content_and_an_error_result():
    history = anthropic_format.from_request(
        _request("images_by_url_and_file_and_tool_use_input_kept"))
    first, second = history[2].items
    assert (first.call_id, first.result, first.is_error) == ("toolu_01Rec", None, False)
    assert (second.call_id, second.result, second.is_error) == ("toolu_02Rec", "ok", True)
    # tool_use input is kept as the mapping it is: key order, floats, big integers
    call, empty = history[1].items
    assert call.parse_arguments() == {
        "zeta": 1, "alpha": [1.5, 2.0, {"n": None, "t": True}],
        "caf\u00e9": "cr\u00e8me br\u00fbl\u00e9e", "big": 12345678901234}
    assert list(call.parse_arguments()) == ["zeta", "alpha", "caf\u00e9", "big"]
    assert empty.parse_arguments() == {}


def test_prefill_is_the_last_assistant_message():
    history = anthropic_format.from_request(_request("prefill_last_assistant_turn"))
    assert history[-1] == ChatMessageContent("assistant", "The best answer is (")
    history = anthropic_format.from_request(_request("prefill_json_with_system_string"))
    assert [str(message.role) for message in history] == ["system", "user", "assistant"]
    assert history[0].items == [TextContent("You are a data extraction assistant.")]
    assert history[-1].items == [TextContent("{")]


def test_system_blocks_read_as_one_system_message():
    history = anthropic_format.from_request(
        _request("cache_control_on_system_tools_and_last_block"))
    system = history[0]
    assert system.role == AuthorRole.SYSTEM
    assert [item.text for item in system.items] == [
        "You are an AI assistant tasked with analyzing literary works. Your goal is to "
        "provide insightful commentary on themes, characters, and writing style.\n",
        "<the entire contents of 'Pride and Prejudice'>",
    ]
    assert len(history) == 4
    assert history.options.tools[1]["cache_control"] == {"type": "ephemeral"}


def test_request_options_are_read_into_chat_options():
    history = anthropic_format.from_request(_request("request_options_and_sampling"))
    options = history.options
    assert options.model == "claude-sonnet-4-5"
    assert options.max_tokens == 512
    assert options.temperature == 0.2
    assert options.top_p == 0.9
    assert options.stop == ["\n\nHuman:", "###"]
    assert options.tool_choice == "required"
    assert options.parallel_tool_calls is False
    assert options.extra["top_k"] == 40
    assert options.extra["metadata"] == {"user_id": "13803d75-b4b5-4c3e-b2a2-6f21399b021b"}
    assert options.extra["service_tier"] == "auto"
    history = anthropic_format.from_request(_request("stream_request_with_named_tool_choice"))
    assert history.options.extra["stream"] is True


# --- streams -----------------------------------------------------------------------------

# What each recorded stream describes: the final Message.
STREAMED = {
    "stream_text_with_ping": {
        "id": "msg_4QpJur2dWWDjF6C758FbBw5vm12BaVipnK", "type": "message", "role": "assistant",
        "model": "claude-3-opus-latest",
        "content": [{"type": "text", "text": "Hello there!"}],
        "stop_reason": "end_turn", "stop_sequence": None,
        "usage": {"input_tokens": 11, "output_tokens": 6},
    },
    "stream_text_then_tool_use_input_json": {
        "id": "msg_019Q1hrJbZG26Fb9BQhrkHEr", "type": "message", "role": "assistant",
        "model": "claude-sonnet-4-20250514",
        "content": [
            {"type": "text", "text": "I'll check the current weather in Paris for you."},
            {"type": "tool_use", "id": "toolu_01NRLabsLyVHZPKxbKvkfSMn", "name": "get_weather",
             "caller": {"type": "direct"}, "input": {"location": "Paris"}},
        ],
        "stop_reason": "tool_use", "stop_sequence": None,
        "usage": {"input_tokens": 377, "cache_creation_input_tokens": 0,
                  "cache_read_input_tokens": 0, "output_tokens": 65,
                  "service_tier": "standard"},
    },
}

STREAM_USAGE = {
    # the stream did not report cache counts: None, not 0
    "stream_text_with_ping": Usage(prompt_tokens=11, completion_tokens=6, total_tokens=17),
    "stream_text_then_tool_use_input_json": Usage(
        prompt_tokens=377, completion_tokens=65, total_tokens=442, cached_tokens=0,
        cache_creation_tokens=0),
}


def test_every_stream_has_its_expected_message():
    assert sorted(STREAMED) == sorted(case_ids(STREAMS))


@pytest.mark.parametrize("fixture", STREAMS, ids=case_ids(STREAMS))
def test_stream_accumulates_to_the_message_it_describes(fixture):
    expected = STREAMED[fixture["name"]]
    chunks = list(anthropic_format.from_stream(fixture["payload"]))
    reply = StreamingChatMessageContent.accumulate(chunks).to_message()
    from_response = anthropic_format.from_response(expected)
    assert anthropic_format.to_payload(reply) == anthropic_format.to_payload(from_response)
    assert anthropic_format.to_payload(reply) == {
        "messages": [{"role": "assistant", "content": expected["content"]}]}
    assert (reply.id, reply.model_id, reply.finish_reason) == (
        expected["id"], expected["model"], from_response.finish_reason)
    assert reply.usage == from_response.usage == STREAM_USAGE[fixture["name"]]


@pytest.mark.parametrize("fixture", STREAMS, ids=case_ids(STREAMS))
def test_sdk_stream_events_read_as_their_dicts(fixture):
    adapter: TypeAdapter = TypeAdapter(RawMessageStreamEvent)
    events = [adapter.validate_python(event) for event in fixture["payload"]
              if event["type"] != "ping"]
    dicts = [event for event in fixture["payload"] if event["type"] != "ping"]
    from_sdk = StreamingChatMessageContent.accumulate(anthropic_format.from_stream(events))
    from_dicts = StreamingChatMessageContent.accumulate(anthropic_format.from_stream(dicts))
    assert from_sdk.to_message() == from_dicts.to_message()


def test_input_json_deltas_give_partial_arguments():
    (fixture,) = [c for c in STREAMS if c["name"] == "stream_text_then_tool_use_input_json"]
    events = fixture["payload"]
    # up to and including the deltas '{"locati' and 'on": "P'
    cut = next(i for i, e in enumerate(events)
               if e.get("delta", {}).get("partial_json") == 'on": "P')
    partial = StreamingChatMessageContent.accumulate(
        anthropic_format.from_stream(events[: cut + 1]))
    calls = partial.function_calls
    assert len(calls) == 1
    assert calls[0].partial_arguments() == {"location": "P"}



# --- what is written by hand is valid too ------------------------------------------------


def test_a_cache_mark_on_thinking_is_not_written_where_the_api_takes_none():
    # ThinkingBlockParam and RedactedThinkingBlockParam have no cache_control (the API caches
    # thinking with the turn, never on its own): marking one is refused, or what is written
    # leaves the mark out and is valid.
    thinking = ReasoningContent("hmm", signature="sig", provider="anthropic")
    redacted = ReasoningContent("", encrypted="opaque", provider="anthropic")
    history = ChatHistory([
        ChatMessageContent("user", "hi"),
        ChatMessageContent("assistant", items=[thinking, redacted, TextContent("hello")]),
    ])
    try:
        anthropic_format.cache_control(thinking)
        anthropic_format.cache_control(redacted, ttl="1h")
    except SemanticChatError:
        return
    payload = anthropic_format.to_payload(history, on_unsupported="warn")
    validate_anthropic_payload(payload)
