"""Citations in a transcript: one line each under the text they support."""

from __future__ import annotations

import pytest

from semantic_chat import ChatMessageContent, Citation, TextContent
from semantic_chat.transcript import describe_citation, render_transcript


@pytest.mark.parametrize(
    ("citation", "line"),
    [
        (
            Citation(cited_text="The sky is blue.", title="Colours", source_index=0,
                     source_start=2, source_end=3, source_unit="page"),
            '[citation] Colours: "The sky is blue." (page 2 of source 0)',
        ),
        (
            Citation(url="https://example.com/sky", title="Sky", text_start=0, text_end=12),
            "[citation] Sky <https://example.com/sky> (for characters 0-11)",
        ),
        (
            Citation(url="https://example.com/sky", cited_text="blue"),
            '[citation] https://example.com/sky: "blue"',
        ),
        (Citation(file_id="file_1", filename="r.pdf", source_index=2), "[citation] r.pdf (source 2)"),
        (Citation(file_id="file_1", text_start=7), "[citation] file_1 (for characters from 7)"),
        (Citation(source_start=4, source_end=9, source_unit="char"),
         "[citation] a source (characters 4-8)"),
        (Citation(), "[citation] a source"),
    ],
)
def test_a_citation_is_one_line_saying_what_it_points_at(citation: Citation, line: str) -> None:
    assert describe_citation(citation) == line


def test_a_long_quote_is_shortened() -> None:
    line = describe_citation(Citation(cited_text="x" * 300, title="Doc"))
    assert line.startswith('[citation] Doc: "xxx')
    assert line.endswith('…"')
    assert len(line) < 230


def test_citations_are_listed_under_the_text_they_support() -> None:
    text = TextContent("The sky is blue.", citations=[
        Citation(title="Colours", cited_text="blue sky", source_index=0, source_start=3,
                 source_end=11, source_unit="char"),
        Citation(url="https://example.com/sky"),
    ])
    message = ChatMessageContent("assistant", items=[text, TextContent("Anything else?")])
    assert render_transcript([message]).splitlines() == [
        "── assistant",
        "   The sky is blue.",
        '     [citation] Colours: "blue sky" (characters 3-10 of source 0)',
        "     [citation] https://example.com/sky",
        "   Anything else?",
    ]
    coloured = render_transcript([message], color=True).splitlines()
    assert coloured[2] == (
        '     \x1b[2m[citation] Colours: "blue sky" (characters 3-10 of source 0)\x1b[0m'
    )
