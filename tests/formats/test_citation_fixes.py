"""Citation defects found by testing: spans said as cited, loss wording, request citations."""

from __future__ import annotations

import warnings
from types import ModuleType
from typing import Any

import pytest
from format_helpers import validate_anthropic_payload

from semantic_chat import ChatHistory, Citation, TextContent
from semantic_chat.errors import UnsupportedContentError
from semantic_chat.formats import anthropic, sk_python
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
