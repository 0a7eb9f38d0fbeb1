"""Anthropic Messages: hand-written cases, read to exact items and written back to exact dicts.

Each case gives the payload and what it reads as, so a reader and a writer that make the same
mistake cannot pass. The turn rules (system to the top, results first and joined to the next
user turn, merging) and what the format refuses or warns about are pinned with their exact
output; a property pins the writer's and reader's quick paths to their general paths.
"""

from __future__ import annotations

import json
import warnings

import pytest
from format_helpers import PDF, PNG, validate_anthropic_payload
from hypothesis import given, reject
from hypothesis import strategies as st

from semantic_chat import (
    AudioContent,
    ChatHistory,
    ChatMessageContent,
    Citation,
    FileContent,
    FinishReason,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    KernelContent,
    ReasoningContent,
    RefusalContent,
    TextContent,
    Usage,
)
from semantic_chat.contents import UnknownContent
from semantic_chat.errors import FormatError, UnsupportedContentError
from semantic_chat.formats import anthropic as anthropic_format
from semantic_chat.formats.anthropic import citations, reading, shared, writing
from semantic_chat.formats.wire import ConversionWarning

TEXT_DOC = "The grass is green. The sky is blue."


def read(messages: list[dict], system: object = None) -> ChatHistory:
    return reading.from_payload(messages, system)


def write(history: object, **options: object) -> dict:
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConversionWarning)  # nothing is lost in these cases
        written = writing.to_payload(history, **options)  # type: ignore[arg-type]
    validate_anthropic_payload(written)
    return written


def hinted(item: KernelContent, **hints: object) -> KernelContent:
    item.metadata["anthropic"] = dict(hints)
    return item


# --- every block kind, both ways ---------------------------------------------------------

# (role of the turn, the block, the item it reads as)
BLOCKS = [
    pytest.param("user", {"type": "text", "text": "hi"}, TextContent("hi"), id="text"),
    pytest.param(
        "user", {"type": "text", "text": "hi", "cache_control": {"type": "ephemeral"}},
        hinted(TextContent("hi"), fields={"cache_control": {"type": "ephemeral"}}),
        id="text-cache_control",
    ),
    pytest.param(
        "user",
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}},
        ImageContent.from_base64(PNG, mime_type="image/png"), id="image-base64",
    ),
    pytest.param(
        "user", {"type": "image", "source": {"type": "url", "url": "https://x.test/a.png"}},
        ImageContent(uri="https://x.test/a.png"), id="image-url",
    ),
    pytest.param(
        "user", {"type": "image", "source": {"type": "file", "file_id": "file_011"}},
        ImageContent(file_id="file_011"), id="image-file",
    ),
    pytest.param(
        "user",
        {"type": "document", "source": {"type": "base64", "media_type": "application/pdf",
                                         "data": PDF}, "title": "Report"},
        FileContent.from_base64(PDF, mime_type="application/pdf", filename="Report"),
        id="document-pdf",
    ),
    pytest.param(
        "user",
        {"type": "document",
         "source": {"type": "text", "media_type": "text/plain", "data": TEXT_DOC}},
        hinted(FileContent(data=TEXT_DOC.encode(), mime_type="text/plain"), source="text"),
        id="document-text",
    ),
    pytest.param(
        "user", {"type": "document", "source": {"type": "url", "url": "https://x.test/a.pdf"}},
        FileContent(uri="https://x.test/a.pdf"), id="document-url",
    ),
    pytest.param(
        "user", {"type": "document", "source": {"type": "file", "file_id": "file_022"}},
        FileContent(file_id="file_022"), id="document-file",
    ),
    pytest.param(
        "assistant",
        {"type": "tool_use", "id": "toolu_1", "name": "get_weather",
         "input": {"city": "Paris", "days": [1, 2], "metric": None}},
        FunctionCallContent("toolu_1", "get_weather",
                            {"city": "Paris", "days": [1, 2], "metric": None}),
        id="tool_use",
    ),
    pytest.param(
        "assistant",
        {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {},
         "caller": {"type": "direct"}},
        hinted(FunctionCallContent("toolu_1", "f", {}), fields={"caller": {"type": "direct"}}),
        id="tool_use-caller",
    ),
    pytest.param(
        "assistant", {"type": "thinking", "thinking": "Let me see.", "signature": "EqQB"},
        ReasoningContent("Let me see.", signature="EqQB", provider="anthropic"), id="thinking",
    ),
    pytest.param(
        "assistant", {"type": "redacted_thinking", "data": "EmwKAhgB"},
        ReasoningContent(encrypted="EmwKAhgB", provider="anthropic"), id="redacted_thinking",
    ),
    pytest.param(
        "assistant",
        {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search",
         "input": {"query": "weather"}},
        UnknownContent("server_tool_use", {"id": "srvtoolu_1", "name": "web_search",
                                           "input": {"query": "weather"}}),
        id="server_tool_use",
    ),
    pytest.param(
        "assistant",
        {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1",
         "content": [{"type": "web_search_result", "url": "https://x.test", "title": "X",
                      "encrypted_content": "Eq0B", "page_age": None}]},
        UnknownContent("web_search_tool_result", {
            "tool_use_id": "srvtoolu_1",
            "content": [{"type": "web_search_result", "url": "https://x.test", "title": "X",
                         "encrypted_content": "Eq0B", "page_age": None}]}),
        id="web_search_tool_result",
    ),
    pytest.param(
        "user",
        {"type": "search_result", "source": "https://x.test/doc", "title": "Doc",
         "content": [{"type": "text", "text": "chunk"}]},
        UnknownContent("search_result", {"source": "https://x.test/doc", "title": "Doc",
                                         "content": [{"type": "text", "text": "chunk"}]}),
        id="search_result",
    ),
]


@pytest.mark.parametrize(("role", "block", "item"), BLOCKS)
def test_a_block_reads_as_its_item_and_the_item_writes_as_the_block(role, block, item):
    # a second block keeps the content a list without the "parts" hint
    other = {"type": "text", "text": "and"}
    payload = [{"role": role, "content": [block, other]}]
    (message,) = read(payload)
    assert message.items == [item, TextContent("and")]
    assert write([ChatMessageContent(role, items=[item, TextContent("and")])]) == {
        "messages": payload}


def test_tool_results_read_and_write_as_blocks():
    call = {"role": "assistant", "content": [
        {"type": "tool_use", "id": "t1", "name": "lookup", "input": {"q": "x"}},
        {"type": "tool_use", "id": "t2", "name": "shot", "input": {}},
        {"type": "tool_use", "id": "t3", "name": "noop", "input": {}}]}
    results = {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "t1", "content": "plain text"},
        {"type": "tool_result", "tool_use_id": "t2", "content": [
            {"type": "text", "text": "the screen:"},
            {"type": "image",
             "source": {"type": "base64", "media_type": "image/png", "data": PNG}}]},
        {"type": "tool_result", "tool_use_id": "t3", "is_error": True,
         "content": "no such file"},
        {"type": "tool_result", "tool_use_id": "t3"},
    ]}
    history = read([{"role": "user", "content": "go"}, call, results])
    assert [str(message.role) for message in history] == ["user", "assistant", "tool"]
    assert history[2].items == [
        FunctionResultContent("t1", "plain text", name="lookup"),
        FunctionResultContent(
            "t2", [TextContent("the screen:"), ImageContent.from_base64(PNG, "image/png")],
            name="shot"),
        FunctionResultContent("t3", "no such file", name="noop", is_error=True),
        FunctionResultContent("t3", None, name="noop"),
    ]
    assert write(history)["messages"] == [{"role": "user", "content": "go"}, call, results]


def test_a_json_result_is_written_as_compact_json_text_and_false_is_error_is_kept():
    history = ChatHistory([ChatMessageContent("tool", items=[
        FunctionResultContent("t1", {"temp": 18.5, "sky": "clear"}),
        FunctionResultContent("t2", [1, 2]),
        FunctionResultContent("t3", []),
    ])])
    assert write(history)["messages"] == [{"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "t1", "content": '{"temp":18.5,"sky":"clear"}'},
        {"type": "tool_result", "tool_use_id": "t2", "content": "[1,2]"},
        {"type": "tool_result", "tool_use_id": "t3", "content": []},
    ]}]
    explicit = [{"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "t1", "content": "ok", "is_error": False}]}]
    (message,) = read(explicit)
    assert message.items == [hinted(FunctionResultContent("t1", "ok"),
                                    fields={"is_error": False})]
    assert write(read(explicit))["messages"] == explicit


# --- system, cache_control ---------------------------------------------------------------


def test_a_system_string_is_a_system_message_and_written_back_a_string():
    history = read([{"role": "user", "content": "hi"}], "Be brief.")
    assert history == ChatHistory([
        ChatMessageContent("system", content="Be brief."),
        ChatMessageContent("user", content="hi"),
    ])
    assert write(history) == {"system": "Be brief.",
                              "messages": [{"role": "user", "content": "hi"}]}


def test_system_blocks_with_cache_control_are_kept_as_blocks():
    system = [
        {"type": "text", "text": "You are a librarian."},
        {"type": "text", "text": "<the whole catalogue>",
         "cache_control": {"type": "ephemeral", "ttl": "1h"}},
    ]
    history = read([{"role": "user", "content": "hi"}], system)
    expected = ChatMessageContent("system", items=[
        TextContent("You are a librarian."),
        hinted(TextContent("<the whole catalogue>"),
               fields={"cache_control": {"type": "ephemeral", "ttl": "1h"}}),
    ])
    expected.metadata["anthropic"] = {"blocks": True}
    assert history[0] == expected
    assert write(history)["system"] == system
    # one plain block read as a list stays a list
    one = [{"type": "text", "text": "Be brief."}]
    assert write(read([], one)) == {"system": one, "messages": []}


def test_system_and_developer_messages_go_to_the_top_level_system():
    history = ChatHistory([
        ChatMessageContent("system", content="Be brief."),
        ChatMessageContent("developer", content="Answer in French."),
        ChatMessageContent("user", content="hi"),
    ])
    assert write(history) == {
        "system": [{"type": "text", "text": "Be brief."},
                   {"type": "text", "text": "Answer in French."}],
        "messages": [{"role": "user", "content": "hi"}],
    }


def test_a_system_message_after_the_first_turn_is_moved_and_reported():
    history = ChatHistory([
        ChatMessageContent("user", content="hi"),
        ChatMessageContent("system", content="Now be brief."),
        ChatMessageContent("assistant", content="Hello."),
    ])
    with pytest.warns(ConversionWarning) as caught:
        written = writing.to_payload(history)
    assert written == {"system": "Now be brief.", "messages": [
        {"role": "user", "content": "hi"}, {"role": "assistant", "content": "Hello."}]}
    assert [str(w.message) for w in caught] == [
        "messages[1]: dropped: Anthropic Messages cannot carry the place of a system message "
        "after the first turn (moved to the system)"
    ]


def test_cache_control_marks_the_last_block_of_a_message_and_a_tool_use():
    question = ChatMessageContent("user", items=[TextContent("<long context>"),
                                                 TextContent("question")])
    anthropic_format.cache_control(question)
    call = FunctionCallContent("toolu_1", "search", {"q": "x"})
    anthropic_format.cache_control(call, ttl="1h")
    system = ChatMessageContent("system", content="Be brief.")
    anthropic_format.cache_control(system)
    history = ChatHistory([system, question, ChatMessageContent("assistant", items=[call])])
    assert write(history) == {
        "system": [{"type": "text", "text": "Be brief.",
                    "cache_control": {"type": "ephemeral"}}],
        "messages": [
            {"role": "user", "content": [
                {"type": "text", "text": "<long context>"},
                {"type": "text", "text": "question", "cache_control": {"type": "ephemeral"}},
            ]},
            {"role": "assistant", "content": [
                {"type": "tool_use", "id": "toolu_1", "name": "search", "input": {"q": "x"},
                 "cache_control": {"type": "ephemeral", "ttl": "1h"}},
            ]},
        ],
    }
    assert call.metadata == {"anthropic": {"fields": {
        "cache_control": {"type": "ephemeral", "ttl": "1h"}}}}


def test_cache_control_on_a_tool_result_and_a_string_turn():
    result = FunctionResultContent("toolu_1", "42")
    anthropic_format.cache_control(result)
    answer = ChatMessageContent("user", content="thanks")
    anthropic_format.cache_control(answer)
    history = ChatHistory([ChatMessageContent("tool", items=[result]), answer])
    assert write(history)["messages"] == [{"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "toolu_1", "content": "42",
         "cache_control": {"type": "ephemeral"}},
        {"type": "text", "text": "thanks", "cache_control": {"type": "ephemeral"}},
    ]}]


# --- documents ---------------------------------------------------------------------------


def test_documents_with_title_context_and_citations_enabled():
    blocks = [
        {"type": "document", "source": {"type": "base64", "media_type": "application/pdf",
                                        "data": PDF},
         "title": "Annual report", "context": "Fiscal 2024", "citations": {"enabled": True}},
        {"type": "document",
         "source": {"type": "text", "media_type": "text/plain", "data": TEXT_DOC},
         "title": "My Document", "citations": {"enabled": True},
         "cache_control": {"type": "ephemeral"}},
        {"type": "document", "source": {"type": "url", "url": "https://x.test/card.pdf"}},
        {"type": "document", "source": {"type": "file", "file_id": "file_011CNha"},
         "title": None},
        {"type": "document",
         "source": {"type": "content", "content": [{"type": "text", "text": "First chunk"}]},
         "title": "Chunks", "citations": {"enabled": True}},
        {"type": "text", "text": "Summarise."},
    ]
    (message,) = read([{"role": "user", "content": blocks}])
    assert message.items == [
        hinted(FileContent.from_base64(PDF, "application/pdf", filename="Annual report"),
               fields={"context": "Fiscal 2024", "citations": {"enabled": True}}),
        hinted(FileContent(data=TEXT_DOC.encode(), mime_type="text/plain",
                           filename="My Document"),
               source="text", fields={"citations": {"enabled": True},
                                      "cache_control": {"type": "ephemeral"}}),
        FileContent(uri="https://x.test/card.pdf"),
        hinted(FileContent(file_id="file_011CNha"), fields={"title": None}),
        UnknownContent("document", {
            "source": {"type": "content",
                       "content": [{"type": "text", "text": "First chunk"}]},
            "title": "Chunks", "citations": {"enabled": True}}),
        TextContent("Summarise."),
    ]
    assert write([message])["messages"] == [{"role": "user", "content": blocks}]


def test_a_file_from_elsewhere_is_a_document_titled_by_its_name():
    history = ChatHistory([ChatMessageContent("user", items=[
        FileContent.from_base64(PDF, "application/pdf", filename="a.pdf"),
        FileContent(data=b"plain words", mime_type="text/plain; charset=utf-8"),
    ])])
    assert write(history)["messages"] == [{"role": "user", "content": [
        {"type": "document", "source": {"type": "base64", "media_type": "application/pdf",
                                        "data": PDF}, "title": "a.pdf"},
        {"type": "document",
         "source": {"type": "text", "media_type": "text/plain", "data": "plain words"}},
    ]}]


# --- citations ---------------------------------------------------------------------------

CITATIONS = [
    pytest.param(
        {"type": "char_location", "cited_text": "The grass is green. ", "document_index": 0,
         "document_title": "My Document", "start_char_index": 0, "end_char_index": 20},
        Citation(cited_text="The grass is green. ", title="My Document", source_index=0,
                 source_start=0, source_end=20, source_unit="char",
                 metadata={"anthropic": {"type": "char_location"}}),
        id="char_location",
    ),
    pytest.param(
        {"type": "page_location", "cited_text": "Revenue grew.", "document_index": 1,
         "document_title": None, "start_page_number": 2, "end_page_number": 3},
        Citation(cited_text="Revenue grew.", source_index=1,
                 source_start=2, source_end=3, source_unit="page",
                 metadata={"anthropic": {"type": "page_location", "document_title": None}}),
        id="page_location",
    ),
    pytest.param(
        {"type": "content_block_location", "cited_text": "First chunk", "document_index": 2,
         "document_title": "Chunks", "start_block_index": 0, "end_block_index": 1},
        Citation(cited_text="First chunk", title="Chunks", source_index=2, source_start=0,
                 source_end=1, source_unit="block",
                 metadata={"anthropic": {"type": "content_block_location"}}),
        id="content_block_location",
    ),
    pytest.param(
        {"type": "web_search_result_location", "cited_text": "Sunny, 18 °C",
         "url": "https://weather.test/paris", "title": "Paris weather",
         "encrypted_index": "Eo8BCioIAhgB"},
        Citation(cited_text="Sunny, 18 °C", title="Paris weather",
                 url="https://weather.test/paris",
                 metadata={"anthropic": {"type": "web_search_result_location",
                                         "encrypted_index": "Eo8BCioIAhgB"}}),
        id="web_search_result_location",
    ),
    pytest.param(
        {"type": "search_result_location", "cited_text": "chunk", "search_result_index": 0,
         "source": "https://x.test/doc", "title": "Doc", "start_block_index": 0,
         "end_block_index": 1},
        Citation(cited_text="chunk", title="Doc", url="https://x.test/doc", source_index=0,
                 source_start=0, source_end=1, source_unit="block",
                 metadata={"anthropic": {"type": "search_result_location"}}),
        id="search_result_location",
    ),
    pytest.param(
        {"type": "video_location", "cited_text": "a frame", "start_frame": 3},
        Citation(cited_text="a frame",
                 metadata={"anthropic": {"type": "video_location", "start_frame": 3}}),
        id="newer-type",
    ),
]


@pytest.mark.parametrize(("data", "citation"), CITATIONS)
def test_each_citation_type_reads_exactly_and_writes_back_identical(data, citation):
    assert citations.read_citation(data, "c") == citation
    assert citations.write_citation(citation, "c", None) == data
    block = {"type": "text", "text": "the grass is green", "citations": [data]}
    payload = [{"role": "assistant", "content": [block, {"type": "text", "text": "."}]}]
    (message,) = read(payload)
    assert message.items[0] == TextContent("the grass is green", citations=[citation])
    assert writing.to_payload([message]) == {"messages": payload}


def test_a_citation_from_another_format_is_written_as_the_location_it_names():
    cited = TextContent("green", citations=[
        Citation(cited_text="The grass is green.", source_index=0, source_start=0,
                 source_end=19, source_unit="char")])
    assert write([ChatMessageContent("assistant", items=[cited, TextContent(".")])])[
        "messages"][0]["content"][0] == {
        "type": "text", "text": "green", "citations": [
            {"type": "char_location", "cited_text": "The grass is green.", "document_index": 0,
             "start_char_index": 0, "end_char_index": 19, "document_title": None}]}


def test_a_file_id_from_another_format_is_left_out_of_the_citation_with_a_warning():
    cited = TextContent("green", citations=[
        Citation(cited_text="The grass is green.", source_index=0, source_start=0,
                 source_end=19, source_unit="char", file_id="file_1")])
    message = ChatMessageContent("system", items=[cited])
    with pytest.warns(ConversionWarning) as caught:
        written = writing.to_payload([message, ChatMessageContent("user", "Hi")])
    assert written["system"] == [{"type": "text", "text": "green", "citations": [
        {"type": "char_location", "cited_text": "The grass is green.", "document_index": 0,
         "start_char_index": 0, "end_char_index": 19, "document_title": None}]}]
    assert [str(w.message) for w in caught] == [
        "messages[0].items[0].citations[0].file_id: dropped: Anthropic Messages cannot carry "
        "a citation's file_id (a request's citations cannot name a file)"
    ]
    validate_anthropic_payload(written)


def test_a_url_citation_is_left_out_with_a_warning_and_refused_on_error():
    cited = TextContent("Paris is sunny", citations=[
        Citation(url="https://x.test", title="X", text_start=0, text_end=5)])
    message = ChatMessageContent("assistant", items=[cited])
    with pytest.warns(ConversionWarning) as caught:
        written = writing.to_payload([message])
    assert written == {"messages": [{"role": "assistant", "content": "Paris is sunny"}]}
    assert [str(w.message) for w in caught] == [
        "messages[0].items[0].citations[0]: dropped: Anthropic Messages cannot carry a "
        "citation that names no document or search result location"
    ]
    with pytest.raises(UnsupportedContentError) as raised:
        writing.to_payload([message], on_unsupported="error")
    assert raised.value.path == "messages[0].items[0].citations[0]"


# --- thinking, prefill -------------------------------------------------------------------

THINKING_LOOP = [
    {"role": "user", "content": "What is the weather in Paris?"},
    {"role": "assistant", "content": [
        {"type": "thinking", "thinking": "I should call the tool.", "signature": "EqQBCgIYAh"},
        {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix"},
        {"type": "tool_use", "id": "toolu_01", "name": "get_weather",
         "input": {"city": "Paris"}},
    ]},
    {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "toolu_01", "content": "18 °C, clear"}]},
    {"role": "assistant", "content": [
        {"type": "thinking", "thinking": "Now answer.", "signature": "EpIBCkYIBh"},
        {"type": "text", "text": "It is 18 °C and clear."},
    ]},
    {"role": "user", "content": "And tomorrow?"},
]


def test_a_thinking_tool_loop_is_sent_back_exactly():
    history = read(THINKING_LOOP)
    assert history[1].items == [
        ReasoningContent("I should call the tool.", signature="EqQBCgIYAh",
                         provider="anthropic"),
        ReasoningContent(encrypted="EmwKAhgBEgy3va3pzix", provider="anthropic"),
        FunctionCallContent("toolu_01", "get_weather", {"city": "Paris"}),
    ]
    assert history[2].items == [
        FunctionResultContent("toolu_01", "18 °C, clear", name="get_weather")]
    assert write(history)["messages"] == THINKING_LOOP


def test_prefill_of_the_last_assistant_turn():
    payload = [
        {"role": "user", "content": "Give me JSON for Paris."},
        {"role": "assistant", "content": "{"},
    ]
    history = read(payload, "Answer in JSON.")
    assert history[-1] == ChatMessageContent("assistant", content="{")
    assert write(history) == {"system": "Answer in JSON.", "messages": payload}


def test_reasoning_of_another_provider_is_dropped_with_a_warning_or_refused():
    history = ChatHistory([
        ChatMessageContent("user", content="hi"),
        ChatMessageContent("assistant", items=[
            ReasoningContent("plan", encrypted="gAAAA", provider="openai"),
            TextContent("Hello."),
        ]),
    ])
    with pytest.warns(ConversionWarning) as caught:
        written = writing.to_payload(history)
    assert written["messages"][1] == {"role": "assistant", "content": "Hello."}
    assert [str(w.message) for w in caught] == [
        "messages[1].items[0]: dropped: Anthropic Messages cannot carry reasoning from "
        "another provider ('openai'); it is never sent as text"
    ]
    with pytest.raises(UnsupportedContentError) as raised:
        writing.to_payload(history, on_unsupported="error")
    assert raised.value.path == "messages[1].items[0]"
    assert writing.to_payload(history, on_unsupported="drop") == written


def test_reasoning_without_a_signature_is_never_sent_as_text():
    history = [ChatMessageContent("assistant", items=[ReasoningContent("a thought")])]
    with pytest.warns(ConversionWarning, match="without the signature"):
        assert writing.to_payload(history) == {"messages": []}  # nothing left to send


def test_reasoning_with_a_signature_and_no_provider_is_anthropic_thinking():
    history = [ChatMessageContent("assistant", items=[
        ReasoningContent("hm", signature="Eq"), TextContent("ok")])]
    assert write(history)["messages"] == [{"role": "assistant", "content": [
        {"type": "thinking", "thinking": "hm", "signature": "Eq"},
        {"type": "text", "text": "ok"}]}]


# --- turn rules --------------------------------------------------------------------------


def test_a_tool_message_and_the_next_user_message_join_one_turn_results_first():
    history = ChatHistory([
        ChatMessageContent("user", content="weather in Paris and Oslo?"),
        ChatMessageContent("assistant", items=[
            FunctionCallContent("c1", "weather", '{"city": "Paris"}'),
            FunctionCallContent("c2", "weather", '{"city": "Oslo"}'),
        ]),
        ChatMessageContent("tool", items=[FunctionResultContent("c1", "18 °C")]),
        ChatMessageContent("tool", items=[FunctionResultContent("c2", "3 °C")]),
        ChatMessageContent("user", content="and Rome?"),
    ])
    assert write(history)["messages"] == [
        {"role": "user", "content": "weather in Paris and Oslo?"},
        {"role": "assistant", "content": [
            {"type": "tool_use", "id": "c1", "name": "weather", "input": {"city": "Paris"}},
            {"type": "tool_use", "id": "c2", "name": "weather", "input": {"city": "Oslo"}},
        ]},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "c1", "content": "18 °C"},
            {"type": "tool_result", "tool_use_id": "c2", "content": "3 °C"},
            {"type": "text", "text": "and Rome?"},
        ]},
    ]
    # ... and it is joined even when merging is refused: it is not a merge
    assert writing.to_payload(history, merge_consecutive=False) == write(history)
    # read back: a tool message of both results, then the user's text
    back = read(write(history)["messages"])
    assert [str(message.role) for message in back] == ["user", "assistant", "tool", "user"]
    assert back[2].items == [FunctionResultContent("c1", "18 °C", name="weather"),
                             FunctionResultContent("c2", "3 °C", name="weather")]
    assert back[3] == ChatMessageContent("user", content="and Rome?")


def test_results_inside_a_user_message_come_first():
    history = [ChatMessageContent("user", items=[
        TextContent("here:"), FunctionResultContent("c1", "ok")])]
    assert write(history)["messages"] == [{"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "c1", "content": "ok"},
        {"type": "text", "text": "here:"}]}]
    # read back, results after other blocks stay in place (the API refuses that order)
    (message,) = read([{"role": "user", "content": [
        {"type": "text", "text": "here:"},
        {"type": "tool_result", "tool_use_id": "c1", "content": "ok"}]}])
    assert message == ChatMessageContent("user", items=[
        TextContent("here:"), FunctionResultContent("c1", "ok")])


def test_consecutive_turns_of_one_role_are_merged_or_refused():
    history = ChatHistory([
        ChatMessageContent("user", content="one"),
        ChatMessageContent("user", items=[TextContent("two"),
                                          ImageContent(uri="https://x.test/a.png")]),
        ChatMessageContent("assistant", content="three"),
        ChatMessageContent("assistant", content="four"),
    ])
    assert write(history)["messages"] == [
        {"role": "user", "content": [
            {"type": "text", "text": "one"}, {"type": "text", "text": "two"},
            {"type": "image", "source": {"type": "url", "url": "https://x.test/a.png"}}]},
        {"role": "assistant", "content": [
            {"type": "text", "text": "three"}, {"type": "text", "text": "four"}]},
    ]
    with pytest.raises(FormatError) as raised:
        writing.to_payload(history, merge_consecutive=False)
    assert type(raised.value) is FormatError
    assert str(raised.value) == (
        "messages[1]: Anthropic Messages needs user and assistant turns to alternate: a user "
        "message after a user message (pass merge_consecutive=True to merge them)"
    )


def test_results_after_a_user_message_are_a_merge_and_come_first():
    history = ChatHistory([
        ChatMessageContent("user", content="also this"),
        ChatMessageContent("tool", items=[FunctionResultContent("c1", "ok")]),
    ])
    assert write(history)["messages"] == [{"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "c1", "content": "ok"},
        {"type": "text", "text": "also this"}]}]
    with pytest.raises(FormatError) as raised:
        writing.to_payload(history, merge_consecutive=False)
    assert raised.value.path == "messages[1]"


# --- arguments -------------------------------------------------------------------------


def test_string_arguments_are_parsed_into_the_input_object():
    # Key order is kept; spacing goes, and numbers are the values JSON text spells
    # (1e2 is the float 100.0, 1.50 is 1.5); a blank string or none is {}.
    history = [ChatMessageContent("assistant", items=[
        FunctionCallContent("c1", "f", '{ "b" : 1e2,\n  "a": [1.50, -0, "x"], "c": {} }'),
        FunctionCallContent("c2", "g", "  "),
        FunctionCallContent("c3", "h", None),
        FunctionCallContent("c4", "i", {"z": 1, "y": None}),
    ])]
    content = write(history)["messages"][0]["content"]
    assert [block["input"] for block in content] == [
        {"b": 100.0, "a": [1.5, 0, "x"], "c": {}}, {}, {}, {"z": 1, "y": None}]
    assert list(content[0]["input"]) == ["b", "a", "c"]


@pytest.mark.parametrize(("arguments", "message"), [
    ('{"a": ', "messages[0].items[1].arguments: arguments are not valid JSON: "),
    ("[1, 2]", "messages[0].items[1].arguments: expected arguments that are a JSON object, "
               "got an array"),
    ('"text"', "messages[0].items[1].arguments: expected arguments that are a JSON object, "
               "got a JSON str"),
    ('{"a": NaN}', "messages[0].items[1].arguments: arguments are not valid JSON: "),
])
def test_arguments_that_are_no_json_object_are_refused_at_their_place(arguments, message):
    history = [ChatMessageContent("assistant", items=[
        TextContent("calling"), FunctionCallContent("c1", "f", arguments)])]
    with pytest.raises(FormatError) as raised:
        writing.to_payload(history)
    assert type(raised.value) is FormatError
    assert raised.value.path == "messages[0].items[1].arguments"
    assert str(raised.value).startswith(message)


def test_each_payload_gets_an_input_of_its_own():
    # Parsed arguments are reused between writes (agent loops send a history again and
    # again): changing one payload's input must not change the next one's.
    history = [ChatMessageContent("assistant", items=[
        FunctionCallContent("c1", "f", '{"city": "Paris", "days": 3}'),
        FunctionCallContent("c2", "f", '{"tags": ["a"]}')])]
    first = writing.to_payload(history)
    for block in first["messages"][0]["content"]:
        block["input"]["city"] = "Oslo"
        block["input"].pop("tags", None)
    second = writing.to_payload(history)
    assert [block["input"] for block in second["messages"][0]["content"]] == [
        {"city": "Paris", "days": 3}, {"tags": ["a"]}]


def test_an_input_read_from_anthropic_is_written_back_as_the_same_object():
    block = {"type": "tool_use", "id": "c1", "name": "f",
             "input": {"z": 1.0, "a": [{"deep": None}], "big": 12345678901234567890}}
    (message,) = read([{"role": "assistant", "content": [block]}])
    written = write([message])["messages"][0]["content"][0]
    assert written == block
    assert written["input"] is not message.items[0].arguments  # a copy, not the item's dict
    assert list(written["input"]) == ["z", "a", "big"]


# --- responses ---------------------------------------------------------------------------


def test_a_response_reads_with_its_id_model_finish_reason_and_usage():
    response = {
        "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-x",
        "content": [{"type": "text", "text": "Hi."}],
        "stop_reason": "stop_sequence", "stop_sequence": "###", "container": None,
        "usage": {"input_tokens": 10, "cache_creation_input_tokens": 200,
                  "cache_read_input_tokens": 300, "output_tokens": 5,
                  "output_tokens_details": {"thinking_tokens": 2},
                  "service_tier": "standard", "server_tool_use": None},
    }
    message = reading.from_response(response)
    assert message.items == [TextContent("Hi.")]
    assert (message.id, message.model_id, message.finish_reason) == (
        "msg_1", "claude-x", FinishReason.STOP)
    assert message.usage == Usage(prompt_tokens=510, completion_tokens=5, total_tokens=515,
                                  cached_tokens=300, reasoning_tokens=2,
                                  cache_creation_tokens=200)
    assert message.metadata == {"anthropic": {
        "parts": True, "stop_reason": "stop_sequence", "stop_sequence": "###",
        "usage": {"output_tokens_details": {"thinking_tokens": 2},
                  "service_tier": "standard"}}}
    assert message.inner_content is response
    assert write([message]) == {"messages": [
        {"role": "assistant", "content": [{"type": "text", "text": "Hi."}]}]}


@pytest.mark.parametrize(("stop_reason", "finish_reason"), [
    ("end_turn", FinishReason.STOP), ("stop_sequence", FinishReason.STOP),
    ("max_tokens", FinishReason.LENGTH), ("model_context_window_exceeded", FinishReason.LENGTH),
    ("tool_use", FinishReason.TOOL_CALLS), ("refusal", FinishReason.CONTENT_FILTER),
    ("pause_turn", FinishReason("pause_turn")),
])
def test_stop_reasons_map_to_finish_reasons(stop_reason, finish_reason):
    assert shared.finish_reason(stop_reason) == finish_reason


def test_usage_without_cache_counts_leaves_them_unknown():
    assert shared.read_usage({"input_tokens": 7, "output_tokens": 3}) == Usage(
        prompt_tokens=7, completion_tokens=3, total_tokens=10)


# --- what the format cannot carry --------------------------------------------------------


@pytest.mark.parametrize(("item", "message"), [
    (AudioContent(data=b"RIFF....WAVE", mime_type="audio/wav"),
     "messages[0].items[0]: Anthropic Messages cannot carry audio content in a user message"),
    (RefusalContent("no"),
     "messages[0].items[0]: Anthropic Messages cannot carry refusal content in a user message"),
    (FileContent(data=b"a,b\n", mime_type="text/csv"),
     "messages[0].items[0]: Anthropic Messages cannot carry file content of type text/csv "
     "(PDF or plain text only)"),
    (ImageContent(data=b"BM....", mime_type="image/bmp"),
     "messages[0].items[0]: Anthropic Messages cannot carry image content of type image/bmp "
     "(JPEG, PNG, GIF or WebP only)"),
    (ImageContent(uri="gs://bucket/a.png"),
     "messages[0].items[0]: Anthropic Messages cannot carry image content by a URI other "
     "than http(s)"),
])
def test_items_the_format_cannot_carry_are_refused(item, message):
    with pytest.raises(UnsupportedContentError) as raised:
        writing.to_payload([ChatMessageContent("user", items=[item])])
    assert str(raised.value) == message + " (pass on_unsupported='warn' to leave it out)"


def test_a_call_without_an_id_and_an_image_in_an_assistant_message_are_refused():
    history = [ChatMessageContent("assistant", items=[
        FunctionCallContent(None, "f", "{}"), ImageContent(uri="https://x.test/a.png")])]
    with pytest.raises(UnsupportedContentError) as raised:
        writing.to_payload(history)
    assert raised.value.path == "messages[0].items[0]"
    with pytest.warns(ConversionWarning) as caught:
        assert writing.to_payload(history, on_unsupported="warn") == {"messages": []}
    assert [w.message.args[0].split(":")[0] for w in caught] == [
        "messages[0].items[0]", "messages[0].items[1]"]


def test_a_name_detail_and_metadata_are_left_out_with_a_warning():
    message = ChatMessageContent("user", name="ada", items=[
        ImageContent(uri="https://x.test/a.png", detail="low")])
    message.metadata["source"] = "crm"
    with pytest.warns(ConversionWarning) as caught:
        written = writing.to_payload([message])
    assert written == {"messages": [{"role": "user", "content": [
        {"type": "image", "source": {"type": "url", "url": "https://x.test/a.png"}}]}]}
    assert sorted(str(w.message).split(":")[0] for w in caught) == [
        'messages[0].items[0].detail', 'messages[0].metadata["source"]', "messages[0].name"]


def test_a_role_the_format_does_not_have_is_refused():
    with pytest.raises(FormatError) as raised:
        writing.to_payload([ChatMessageContent("critic", content="meh")])
    assert str(raised.value) == "messages[0].role: Anthropic Messages has no role 'critic'"


# --- the quick paths agree with the general ones ----------------------------------------

_ids = st.text("abcdef0123456789", min_size=1, max_size=8)
_words = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)
_scalars = st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | _words | st.floats(
    allow_nan=False, allow_infinity=False)
_objects = st.dictionaries(_words, st.recursive(
    _scalars, lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(_words, inner, max_size=3), max_leaves=6), max_size=4)
_arguments = _objects | _objects.map(json.dumps) | st.sampled_from(
    ["", "  ", "{}", '{"a": 1}  ', " {\"a\": [1, 2.5e3]}", "[1]", "nope", '{"a": NaN}'])
_images = st.sampled_from([
    ImageContent.from_base64(PNG, "image/png"), ImageContent(uri="https://x.test/a.png"),
    ImageContent(uri="gs://x/a.png"), ImageContent(file_id="file_1"),
    ImageContent.from_base64(PNG, "image/png", detail="low"),
])


@st.composite
def _plain_messages(draw: st.DrawFn) -> ChatMessageContent:
    role = draw(st.sampled_from(["system", "developer", "user", "assistant", "tool"]))
    texts = st.builds(TextContent, _words | st.just(""))  # empty texts: left out beside others
    if role == "assistant":
        items = draw(st.lists(
            texts
            | st.builds(FunctionCallContent, _ids | st.none(), _ids, _arguments)
            | st.builds(ReasoningContent, _words, signature=_ids | st.none(),
                        provider=st.sampled_from([None, "anthropic", "openai"])),
            max_size=4))
    elif role == "tool":
        items = draw(st.lists(st.builds(FunctionResultContent, _ids, _words | st.none(),
                                        is_error=st.booleans()), max_size=3))
    elif role == "user":
        items = draw(st.lists(
            texts | _images | st.builds(FunctionResultContent, _ids, _words), max_size=4))
    else:
        items = draw(st.lists(texts, min_size=1, max_size=2))
    return ChatMessageContent(role, items=items)


@given(st.lists(_plain_messages(), max_size=8), st.booleans())
def test_the_quick_writer_agrees_with_the_general_writer(messages, merge):
    expected: object
    try:
        expected = writing._to_payload(messages, "drop", merge, False)
    except FormatError as error:  # arguments that are no JSON object, turns that repeat
        expected = error
    if isinstance(expected, FormatError):
        with pytest.raises(FormatError) as raised:
            writing.to_payload(messages, on_unsupported="drop", merge_consecutive=merge)
        assert str(raised.value) == str(expected)
    else:
        assert writing.to_payload(messages, on_unsupported="drop",
                                  merge_consecutive=merge) == expected


@given(st.lists(_plain_messages(), max_size=8))
def test_the_quick_reader_agrees_with_the_general_reader(messages):
    try:
        payload = writing.to_payload(messages, on_unsupported="drop")
    except FormatError:
        reject()  # arguments that are no JSON object: nothing to read
    general: list[ChatMessageContent] = []
    names: dict[str, str] = {}
    for index, turn in enumerate(payload["messages"]):
        general.extend(reading._read_message(turn, f"messages[{index}]", names))
    quick = reading.from_payload(payload["messages"])
    assert list(quick) == general
