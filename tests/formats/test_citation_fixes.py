"""Citation defects found by testing: spans said as cited, loss wording, request citations."""

from __future__ import annotations

import warnings
from types import ModuleType
from typing import Any

import pytest
from format_helpers import validate_anthropic_payload
from hypothesis import given
from hypothesis import strategies as st

from semantic_chat import ChatHistory, ChatMessageContent, Citation, TextContent
from semantic_chat.errors import FormatError, UnsupportedContentError
from semantic_chat.formats import anthropic, openai_chat, sk_python
from semantic_chat.transcript import describe_citation


def _written(module: ModuleType, history: ChatHistory, **options: Any) -> tuple[Any, list[str]]:
    """Write ``history`` with ``module``, returning the payload and the warnings' texts."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        payload = module.to_payload(history, **options)
    return payload, [str(warning.message) for warning in caught]


def _anthropic_page(start: int, end: int) -> dict[str, object]:
    return {
        "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-x",
        "stop_reason": "end_turn", "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
        "content": [{"type": "text", "text": "fact", "citations": [{
            "type": "page_location", "cited_text": "Page text", "document_index": 0,
            "document_title": "Report", "start_page_number": start, "end_page_number": end,
        }]}],
    }


# -- describe_citation: a citation's end is exclusive, the line says what is cited ----------

@pytest.mark.parametrize(
    ("start", "end", "line"),
    [
        (2, 3, '[citation] Report: "Page text" (page 2 of source 0)'),
        (2, 5, '[citation] Report: "Page text" (pages 2-4 of source 0)'),
    ],
)
def test_an_anthropic_page_location_names_the_pages_cited(start: int, end: int, line: str) -> None:
    citation = anthropic.from_response(_anthropic_page(start, end)).items[0].citations[0]
    assert (citation.source_start, citation.source_end) == (start, end)
    assert describe_citation(citation) == line


@pytest.mark.parametrize(
    ("citation", "line"),
    [
        (Citation(source_start=0, source_end=20, source_unit="char"),
         "[citation] a source (characters 0-19)"),
        (Citation(source_start=5, source_end=6, source_unit="char"),
         "[citation] a source (character 5)"),
        (Citation(source_start=1, source_end=2, source_unit="block", source_index=3),
         "[citation] a source (block 1 of source 3)"),
        (Citation(source_start=0, source_end=3, source_unit="block"),
         "[citation] a source (blocks 0-2)"),
        (Citation(source_start=4, source_unit="page"), "[citation] a source (pages from 4)"),
        (Citation(source_start=4, source_end=6, source_unit="line"),
         "[citation] a source (line 4-5)"),
        (Citation(source_start=4, source_end=6), "[citation] a source (positions 4-5)"),
        (Citation(url="https://e.test", text_start=3, text_end=4),
         "[citation] https://e.test (for character 3)"),
        (Citation(file_id="file_1", text_start=7, text_end=7),
         "[citation] file_1 (for the point before character 7)"),
        (Citation(source_start=9, source_end=4, source_unit="char"),
         "[citation] a source (characters 9 to 4 (end exclusive))"),
    ],
)
def test_every_span_is_said_inclusively(citation: Citation, line: str) -> None:
    assert describe_citation(citation) == line


# -- Semantic Kernel (Python): the loss names the annotation once ---------------------------

def test_a_semantic_kernel_annotation_loss_reads_as_english() -> None:
    history = ChatHistory()
    cited = Citation(cited_text="x", title="Doc", source_index=0)
    history.add_assistant_message(items=[TextContent("fact", citations=[cited])])
    _, caught = _written(sk_python, history)
    assert caught == [
        "messages[0].items[0].citations[0].source_index: dropped: Semantic Kernel (Python) "
        "cannot carry source_index in a Semantic Kernel annotation"
    ]


# -- Anthropic: a request's citation never carries a file_id --------------------------------

def _anthropic_cited(file_id: str | None) -> dict[str, Any]:
    citation = {
        "type": "char_location", "cited_text": "The grass is green.", "document_index": 0,
        "document_title": "Plain", "start_char_index": 0, "end_char_index": 19,
        "file_id": file_id,
    }
    return {
        "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-x",
        "stop_reason": "end_turn", "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
        "content": [{"type": "text", "text": "green", "citations": [citation]}],
    }


_REQUEST_CITATION = {
    "type": "char_location", "cited_text": "The grass is green.", "document_index": 0,
    "document_title": "Plain", "start_char_index": 0, "end_char_index": 19,
}


def test_a_file_id_read_from_a_response_is_left_out_of_the_request_with_a_warning() -> None:
    message = anthropic.from_response(_anthropic_cited("file_1"))
    assert message.items[0].citations[0].file_id == "file_1"
    history = ChatHistory([message])
    payload, caught = _written(anthropic, history)
    assert payload["messages"][0]["content"] == [
        {"type": "text", "text": "green", "citations": [_REQUEST_CITATION]}
    ]
    assert caught == [
        "messages[0].items[0].citations[0].file_id: dropped: Anthropic Messages cannot carry "
        "a citation's file_id (a request's citations cannot name a file)"
    ]
    validate_anthropic_payload(payload)


def test_a_null_file_id_read_from_a_response_is_dropped_silently() -> None:
    history = ChatHistory([anthropic.from_response(_anthropic_cited(None))])
    payload, caught = _written(anthropic, history)
    assert payload["messages"][0]["content"][0]["citations"] == [_REQUEST_CITATION]
    assert caught == []
    validate_anthropic_payload(payload)


def test_a_file_id_is_refused_under_the_error_policy_naming_its_place() -> None:
    history = ChatHistory([anthropic.from_response(_anthropic_cited("file_1"))])
    with pytest.raises(UnsupportedContentError, match=r"messages\[0\]\.items\[0\]\.citations"
                       r"\[0\]\.file_id"):
        anthropic.to_payload(history, on_unsupported="error")


# -- OpenAI Chat: annotations index a message's texts joined --------------------------------

_SEARCH_TEXT = "Paris is the capital of France (en.wikipedia.org)."
_PARIS = Citation(url="https://en.wikipedia.org/wiki/Paris", title="Paris", text_start=31,
                  text_end=49)
_EXTRA = Citation(url="https://e.test", title="E", text_start=0, text_end=6)


def _searched() -> ChatMessageContent:
    """A Chat Completions answer read with one annotation, then given a second cited text."""
    response = {
        "id": "c1", "object": "chat.completion", "created": 1, "model": "gpt-4o-search-preview",
        "choices": [{"index": 0, "finish_reason": "stop", "logprobs": None, "message": {
            "role": "assistant", "content": _SEARCH_TEXT, "refusal": None,
            "annotations": [{"type": "url_citation", "url_citation": {
                "start_index": 31, "end_index": 49, "title": "Paris",
                "url": "https://en.wikipedia.org/wiki/Paris"}}],
        }}],
    }
    message = openai_chat.from_response(response)
    message.items.append(TextContent("Extra.", citations=[_EXTRA]))
    return message


def _annotation(url: str, title: str, start: int, end: int) -> dict[str, Any]:
    return {"type": "url_citation", "url_citation": {
        "start_index": start, "end_index": end, "title": title, "url": url}}


def test_a_second_text_s_spans_are_shifted_by_the_text_before_it() -> None:
    message = _searched()
    (written,), caught = _written(openai_chat, ChatHistory([message]))
    assert caught == []
    assert written["content"] == [
        {"type": "text", "text": _SEARCH_TEXT}, {"type": "text", "text": "Extra."}
    ]
    assert written["annotations"] == [
        _annotation("https://en.wikipedia.org/wiki/Paris", "Paris", 31, 49),
        _annotation("https://e.test", "E", 50, 56),
    ]
    joined = _SEARCH_TEXT + "Extra."
    assert joined[50:56] == "Extra."
    (back,) = openai_chat.from_payload([written])
    assert [item.citations for item in back.items] == [(_PARIS,), (_EXTRA,)]
    assert back.items == message.items


def test_list_content_annotations_are_split_among_its_texts() -> None:
    payload = [{"role": "assistant", "content": [
        {"type": "text", "text": "abc"}, {"type": "text", "text": ""},
        {"type": "text", "text": "defg"},
    ], "annotations": [
        _annotation("https://d.test", "D", 3, 5), _annotation("https://a.test", "A", 0, 3),
        _annotation("https://g.test", "G", 7, 7),
    ]}]
    (message,) = openai_chat.from_payload(payload)
    assert [item.citations for item in message.items] == [
        (Citation(url="https://a.test", title="A", text_start=0, text_end=3),),
        (),
        (Citation(url="https://d.test", title="D", text_start=0, text_end=2),
         Citation(url="https://g.test", title="G", text_start=4, text_end=4)),
    ]
    assert message.metadata == {"openai_chat": {"annotations": True}}


@pytest.mark.parametrize(
    ("start", "end"),
    [(2, 4), (0, 9), (5, 3), (-1, 1)],
    ids=["spans-two-texts", "beyond-the-texts", "reversed", "negative"],
)
def test_an_annotation_no_text_holds_keeps_the_list_whole(start: int, end: int) -> None:
    payload = [{"role": "assistant", "content": [
        {"type": "text", "text": "abc"}, {"type": "text", "text": "def"},
    ], "annotations": [_annotation("https://a.test", "A", 0, 1),
                       _annotation("https://b.test", "B", start, end)]}]
    (message,) = openai_chat.from_payload(payload)
    assert [item.citations for item in message.items] == [(), ()]
    assert message.metadata["openai_chat"]["fields"]["annotations"] == payload[0]["annotations"]
    assert openai_chat.to_payload([message]) == payload


def test_a_span_outside_its_text_among_several_is_left_out_with_a_warning() -> None:
    message = _searched()
    message.items[1].citations = [
        Citation(url="https://e.test", title="E", text_start=2, text_end=9), _EXTRA,
    ]
    (written,), caught = _written(openai_chat, ChatHistory([message]))
    assert written["annotations"][1:] == [_annotation("https://e.test", "E", 50, 56)]
    assert caught == [
        "messages[0].items[1].citations[0].text_start: dropped: OpenAI Chat Completions "
        "cannot carry a span outside its text (2 to 9 in 6 characters: a message's "
        "annotations index its texts joined)"
    ]
    with pytest.raises(UnsupportedContentError) as raised:
        openai_chat.to_payload([message], on_unsupported="error")
    assert raised.value.path == "messages[0].items[1].citations[0].text_start"


def test_a_malformed_annotation_beside_list_content_names_its_place() -> None:
    payload = [{"role": "assistant", "content": [
        {"type": "text", "text": "ab"}, {"type": "text", "text": "cd"},
    ], "annotations": [{"type": "url_citation",
                        "url_citation": {"url": "u", "title": "t", "start_index": 0}}]}]
    with pytest.raises(FormatError) as raised:
        openai_chat.from_payload(payload)
    assert str(raised.value) == "messages[0].annotations[0].url_citation: missing 'end_index'"


_TEXT = st.text(st.characters(codec="utf-8"), max_size=12)


@st.composite
def _cited_text(draw: st.DrawFn) -> TextContent:
    """A text with url citations whose spans lie inside it and are not empty."""
    text = draw(_TEXT)
    citations = []
    if text:
        for _ in range(draw(st.integers(0, 3))):
            start = draw(st.integers(0, len(text) - 1))
            end = draw(st.integers(start + 1, len(text)))
            url, title = draw(_TEXT), draw(_TEXT)
            citations.append(Citation(url=f"https://{url}", title=title, text_start=start,
                                      text_end=end))
    return TextContent(text, citations=citations)


@given(st.lists(_cited_text(), min_size=2, max_size=5))
def test_chat_messages_of_several_cited_texts_round_trip(texts: list[TextContent]) -> None:
    message = ChatMessageContent("assistant", items=texts,
                                 metadata={"openai_chat": {"annotations": True}})
    history = ChatHistory([message])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        written = openai_chat.to_payload(history)
    assert openai_chat.from_payload(written) == history
