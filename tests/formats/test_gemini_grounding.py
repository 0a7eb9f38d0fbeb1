"""Gemini ``grounding_metadata`` and ``citation_metadata`` read as `Citation` values per part.

The grounding payloads follow the shapes the Gemini API documents for Grounding with Google
Search (https://ai.google.dev/gemini-api/docs/google-search: ``groundingChunks`` of ``web``
sources, ``groundingSupports`` whose ``segment`` counts UTF-8 bytes), File Search
(``retrievedContext`` chunks) and Grounding with Google Maps (``maps`` chunks), and the fields
of ``google.genai.types.GroundingMetadata`` / ``CitationMetadata``.
"""

from __future__ import annotations

from typing import Any

import pytest
from google.genai import types

from semantic_chat import Citation
from semantic_chat.errors import FormatError
from semantic_chat.formats.gemini.grounding import read_citation_metadata, read_grounding
from semantic_chat.formats.wire import as_plain

PATH = "candidates[0].grounding_metadata"
CITED = "candidates[0].citation_metadata"

EURO = "Spain won Euro 2024, defeating England 2-1 in the final. This victory marks Spain's record fourth European Championship title."
REDIRECT = "https://vertexaisearch.cloud.google.com/grounding-api-redirect/"

# Grounding with Google Search as the REST API sends it (camelCase).
SEARCH_REST: dict[str, Any] = {
    "webSearchQueries": ["UEFA Euro 2024 winner", "who won euro 2024"],
    "searchEntryPoint": {"renderedContent": "<!-- HTML and CSS for the search widget -->"},
    "groundingChunks": [
        {"web": {"uri": REDIRECT + "AUZIYQH1", "title": "aljazeera.com", "domain": "aljazeera.com"}},
        {"web": {"uri": REDIRECT + "AUZIYQG2", "title": "uefa.com"}},
    ],
    "groundingSupports": [
        {
            "segment": {"endIndex": 56, "text": "Spain won Euro 2024, defeating England 2-1 in the final."},
            "groundingChunkIndices": [0],
        },
        {
            "segment": {
                "startIndex": 57,
                "endIndex": 124,
                "text": "This victory marks Spain's record fourth European Championship title.",
            },
            "groundingChunkIndices": [0, 1],
            "confidenceScores": [0.88, 0.65],
        },
    ],
}

# The same metadata as the SDK spells it (snake_case).
SEARCH_SNAKE: dict[str, Any] = {
    "web_search_queries": ["UEFA Euro 2024 winner", "who won euro 2024"],
    "search_entry_point": {"rendered_content": "<!-- HTML and CSS for the search widget -->"},
    "grounding_chunks": [
        {"web": {"uri": REDIRECT + "AUZIYQH1", "title": "aljazeera.com", "domain": "aljazeera.com"}},
        {"web": {"uri": REDIRECT + "AUZIYQG2", "title": "uefa.com"}},
    ],
    "grounding_supports": [
        {
            "segment": {"end_index": 56, "text": "Spain won Euro 2024, defeating England 2-1 in the final."},
            "grounding_chunk_indices": [0],
        },
        {
            "segment": {
                "start_index": 57,
                "end_index": 124,
                "text": "This victory marks Spain's record fourth European Championship title.",
            },
            "grounding_chunk_indices": [0, 1],
            "confidence_scores": [0.88, 0.65],
        },
    ],
}

SEARCH_EXPECTED = {
    0: [
        Citation(
            url=REDIRECT + "AUZIYQH1",
            title="aljazeera.com",
            source_index=0,
            text_start=0,
            text_end=56,
            metadata={"gemini": {"kind": "grounding", "chunk": "web", "domain": "aljazeera.com"}},
        ),
        Citation(
            url=REDIRECT + "AUZIYQH1",
            title="aljazeera.com",
            source_index=0,
            text_start=57,
            text_end=124,
            metadata={
                "gemini": {
                    "kind": "grounding",
                    "chunk": "web",
                    "domain": "aljazeera.com",
                    "confidence": 0.88,
                }
            },
        ),
        Citation(
            url=REDIRECT + "AUZIYQG2",
            title="uefa.com",
            source_index=1,
            text_start=57,
            text_end=124,
            metadata={"gemini": {"kind": "grounding", "chunk": "web", "confidence": 0.65}},
        ),
    ]
}


def _exact(found: dict[int, list[Citation]], expected: dict[int, list[Citation]]) -> None:
    """Citations compare without metadata (it is left out of equality): compare it too."""
    assert found == expected
    assert {k: [c.metadata for c in v] for k, v in found.items()} == {
        k: [c.metadata for c in v] for k, v in expected.items()
    }


def test_google_search_grounding_rest_spelling() -> None:
    _exact(read_grounding(SEARCH_REST, [{"text": EURO}], PATH), SEARCH_EXPECTED)


def test_google_search_grounding_sdk_spelling() -> None:
    _exact(read_grounding(SEARCH_SNAKE, [{"text": EURO}], PATH), SEARCH_EXPECTED)


def test_sdk_object_dumped_reads_alike() -> None:
    metadata = types.GroundingMetadata.model_validate(SEARCH_SNAKE)
    plain = as_plain(metadata)
    _exact(read_grounding(plain, [{"text": EURO}], PATH), SEARCH_EXPECTED)


MULTI = "Café ☕ opens at 8. Tokyo 東京 has 🍣."  # 34 characters, 44 UTF-8 bytes


def test_byte_offsets_become_character_offsets_in_their_part() -> None:
    metadata = {
        "grounding_chunks": [
            {"web": {"uri": "https://example.com/cafe", "title": "example.com"}},
            {"web": {"uri": "https://example.jp/tokyo", "title": "example.jp"}},
        ],
        "grounding_supports": [
            # No part_index: part 0. No start_index: 0. Bytes 0..21 are characters 0..18.
            {"segment": {"end_index": 21}, "grounding_chunk_indices": [0]},
            # Part 2, bytes 22..44 ("Tokyo 東京 has 🍣.") are characters 19..34.
            {"segment": {"part_index": 2, "start_index": 22, "end_index": 44}, "grounding_chunk_indices": [1]},
            # Only the emoji: bytes 39..43 are character 32..33.
            {"segment": {"part_index": 2, "start_index": 39, "end_index": 43}, "grounding_chunk_indices": [1]},
        ],
    }
    parts: list[dict[str, Any]] = [
        {"text": MULTI},
        {"function_call": {"name": "f", "args": {}}},
        {"text": MULTI},
    ]
    web = {"gemini": {"kind": "grounding", "chunk": "web"}}
    expected = {
        0: [Citation(url="https://example.com/cafe", title="example.com", source_index=0, text_start=0, text_end=18, metadata=web)],
        2: [
            Citation(url="https://example.jp/tokyo", title="example.jp", source_index=1, text_start=19, text_end=34, metadata=web),
            Citation(url="https://example.jp/tokyo", title="example.jp", source_index=1, text_start=32, text_end=33, metadata=web),
        ],
    }
    found = read_grounding(metadata, parts, PATH)
    _exact(found, expected)
    spans = [MULTI[c.text_start : c.text_end] for c in found[2]]
    assert spans == ["Tokyo 東京 has 🍣.", "🍣"]


def test_offset_inside_a_character_takes_in_the_whole_character() -> None:
    # Bytes 7..35 start inside "☕" (bytes 6..9) and end inside "京" (bytes 31..34).
    metadata = {
        "grounding_chunks": [{"web": {"uri": "https://example.com"}}],
        "grounding_supports": [
            {"segment": {"start_index": 7, "end_index": 32}, "grounding_chunk_indices": [0]}
        ],
    }
    (citation,) = read_grounding(metadata, [{"text": MULTI}], PATH)[0]
    assert (citation.text_start, citation.text_end) == (5, 27)
    assert MULTI[5:27] == "☕ opens at 8. Tokyo 東京"


def test_retrieved_context_maps_image_and_newer_chunks() -> None:
    metadata = {
        "groundingChunks": [
            {
                "retrievedContext": {
                    "uri": "gs://bucket/guide.pdf",
                    "title": "guide.pdf",
                    "text": "Water boils at 100 °C at sea level.",
                    "fileSearchStore": "fileSearchStores/kitchen-123",
                    "pageNumber": 4,
                }
            },
            {
                "maps": {
                    "uri": "https://maps.google.com/?cid=1234567890",
                    "title": "Blue Bottle Coffee",
                    "placeId": "places/ChIJ0123456789",
                    "text": "A cafe known for single-origin pour-overs.",
                }
            },
            {
                "image": {
                    "sourceUri": "https://example.org/kettles",
                    "imageUri": "https://example.org/kettle.png",
                    "title": "Kettles",
                    "domain": "example.org",
                }
            },
            {"hologram": {"uri": "https://example.net/h", "title": "H", "depth": 3}},
            {},
        ],
        "groundingSupports": [
            {"segment": {"endIndex": 5}, "groundingChunkIndices": [0, 1, 2, 3, 4]},
        ],
    }
    found = read_grounding(metadata, [{"text": "Boil water."}], PATH)
    expected = {
        0: [
            Citation(
                url="gs://bucket/guide.pdf",
                title="guide.pdf",
                cited_text="Water boils at 100 °C at sea level.",
                source_index=0,
                text_start=0,
                text_end=5,
                metadata={
                    "gemini": {
                        "kind": "grounding",
                        "chunk": "retrieved_context",
                        "file_search_store": "fileSearchStores/kitchen-123",
                        "page_number": 4,
                    }
                },
            ),
            Citation(
                url="https://maps.google.com/?cid=1234567890",
                title="Blue Bottle Coffee",
                source_index=1,
                text_start=0,
                text_end=5,
                metadata={
                    "gemini": {
                        "kind": "grounding",
                        "chunk": "maps",
                        "place_id": "places/ChIJ0123456789",
                        "text": "A cafe known for single-origin pour-overs.",
                    }
                },
            ),
            Citation(
                url="https://example.org/kettles",
                title="Kettles",
                source_index=2,
                text_start=0,
                text_end=5,
                metadata={
                    "gemini": {
                        "kind": "grounding",
                        "chunk": "image",
                        "image_uri": "https://example.org/kettle.png",
                        "domain": "example.org",
                    }
                },
            ),
            Citation(
                url="https://example.net/h",
                title="H",
                source_index=3,
                text_start=0,
                text_end=5,
                metadata={"gemini": {"kind": "grounding", "chunk": "hologram", "depth": 3}},
            ),
            Citation(source_index=4, text_start=0, text_end=5, metadata={"gemini": {"kind": "grounding"}}),
        ]
    }
    _exact(found, expected)


def test_support_without_segment_covers_part_zero_and_supports_without_chunks_give_none() -> None:
    metadata = {
        "grounding_chunks": [{"web": {"uri": "https://example.com", "title": "example.com"}}],
        "grounding_supports": [
            {"grounding_chunk_indices": [0]},
            {"segment": {"start_index": 0, "end_index": 3}, "grounding_chunk_indices": []},
            {"segment": {"start_index": 0, "end_index": 3}},
        ],
    }
    found = read_grounding(metadata, [{"text": "Hi there"}], PATH)
    expected = {
        0: [
            Citation(
                url="https://example.com",
                title="example.com",
                source_index=0,
                metadata={"gemini": {"kind": "grounding", "chunk": "web"}},
            )
        ]
    }
    _exact(found, expected)


def test_nothing_to_cite() -> None:
    assert read_grounding({}, [{"text": "x"}], PATH) == {}
    assert read_grounding({"web_search_queries": ["q"], "grounding_chunks": None}, [], PATH) == {}
    # A candidate without content (blocked): its grounding has no text to hang on.
    assert read_grounding(SEARCH_SNAKE, [], PATH) == {}


_CHUNK = [{"web": {"uri": "https://example.com"}}]


@pytest.mark.parametrize(
    ("metadata", "parts", "where", "detail"),
    [
        ([], [{"text": "x"}], PATH, "expected a grounding metadata object, got list"),
        ({"grounding_supports": {}}, [{"text": "x"}], f"{PATH}.grounding_supports", "expected a list, got dict"),
        ({"groundingSupports": [5]}, [{"text": "x"}], f"{PATH}.groundingSupports[0]", "expected a grounding support object, got int"),
        (
            {"grounding_chunks": _CHUNK, "grounding_supports": [{"segment": [], "grounding_chunk_indices": [0]}]},
            [{"text": "x"}], f"{PATH}.grounding_supports[0].segment", "expected a segment object, got list",
        ),
        (
            {"grounding_chunks": _CHUNK, "grounding_supports": [{"grounding_chunk_indices": ["0"]}]},
            [{"text": "x"}], f"{PATH}.grounding_supports[0].grounding_chunk_indices[0]", "expected int, got str",
        ),
        (
            {"grounding_chunks": _CHUNK, "grounding_supports": [{"grounding_chunk_indices": [0, 1]}]},
            [{"text": "x"}], f"{PATH}.grounding_supports[0].grounding_chunk_indices[1]", "no grounding chunk 1 (there are 1)",
        ),
        (
            {"grounding_chunks": _CHUNK, "grounding_supports": [{"grounding_chunk_indices": [-1]}]},
            [{"text": "x"}], f"{PATH}.grounding_supports[0].grounding_chunk_indices[0]", "no grounding chunk -1 (there are 1)",
        ),
        (
            {"grounding_chunks": _CHUNK, "grounding_supports": [{"segment": {"part_index": 3}, "grounding_chunk_indices": [0]}]},
            [{"text": "x"}], f"{PATH}.grounding_supports[0].segment.part_index", "no part 3 in the candidate (it has 1)",
        ),
        (
            {"grounding_chunks": _CHUNK, "grounding_supports": [{"segment": {"partIndex": 1}, "groundingChunkIndices": [0]}]},
            [{"text": "x"}, {"function_call": {"name": "f"}}], f"{PATH}.grounding_supports[0].segment.partIndex", "part 1 of the candidate has no text",
        ),
        (
            {"grounding_chunks": _CHUNK, "grounding_supports": [{"segment": {"part_index": True}, "grounding_chunk_indices": [0]}]},
            [{"text": "x"}], f"{PATH}.grounding_supports[0].segment.part_index", "expected int, got bool",
        ),
        (
            {"grounding_chunks": _CHUNK, "grounding_supports": [{"segment": {"end_index": 10}, "grounding_chunk_indices": [0]}]},
            [{"text": "Café"}], f"{PATH}.grounding_supports[0].segment.end_index", "byte offset 10 is beyond the text (5 bytes)",
        ),
        (
            {"grounding_chunks": _CHUNK, "grounding_supports": [{"segment": {"start_index": 3, "end_index": 2}, "grounding_chunk_indices": [0]}]},
            [{"text": "Café"}], f"{PATH}.grounding_supports[0].segment.start_index", "starts at byte 3, after its end (2)",
        ),
        (
            {"grounding_chunks": _CHUNK, "grounding_supports": [{"segment": {"start_index": -1}, "grounding_chunk_indices": [0]}]},
            [{"text": "x"}], f"{PATH}.grounding_supports[0].segment.start_index", "expected a byte offset of 0 or more, got -1",
        ),
        (
            {"grounding_chunks": _CHUNK, "grounding_supports": [{"segment": {"end_index": "1"}, "grounding_chunk_indices": [0]}]},
            [{"text": "x"}], f"{PATH}.grounding_supports[0].segment.end_index", "expected int, got str",
        ),
        (
            {"grounding_chunks": ["web"], "grounding_supports": [{"grounding_chunk_indices": [0]}]},
            [{"text": "x"}], f"{PATH}.grounding_chunks[0]", "expected a grounding chunk object, got str",
        ),
        (
            {"grounding_chunks": [{"web": "https://x"}], "grounding_supports": [{"grounding_chunk_indices": [0]}]},
            [{"text": "x"}], f"{PATH}.grounding_chunks[0].web", "expected a grounding source object, got str",
        ),
        (
            {"groundingChunks": [{"web": {"title": 7}}], "groundingSupports": [{"groundingChunkIndices": [0]}]},
            [{"text": "x"}], f"{PATH}.groundingChunks[0].web.title", "expected str, got int",
        ),
        (
            {"grounding_chunks": _CHUNK, "grounding_supports": [{"grounding_chunk_indices": [0], "confidence_scores": ["high"]}]},
            [{"text": "x"}], f"{PATH}.grounding_supports[0].confidence_scores[0]", "expected a number, got str",
        ),
        (
            {"grounding_chunks": [{"web": {"title": "\ud800"}}], "grounding_supports": [{"grounding_chunk_indices": [0]}]},
            [{"text": "x"}], f"{PATH}.grounding_chunks[0]", None,
        ),
    ],
)
def test_malformed_grounding_is_located(
    metadata: Any, parts: list[dict[str, Any]], where: str, detail: str | None
) -> None:
    with pytest.raises(FormatError) as caught:
        read_grounding(metadata, parts, PATH)
    assert caught.value.path == where
    if detail is not None:
        assert caught.value.detail == detail


# citation_metadata: offsets count UTF-8 bytes in the answer's text (text parts, no thoughts).

RECITED = "The quick brown fox jumps over the lazy dog. 🦊 Foxes are quick."  # 🦊 is 4 bytes


def test_citation_metadata_one_part() -> None:
    metadata = {
        "citations": [
            {
                "startIndex": 4,
                "endIndex": 44,
                "uri": "https://example.com/pangrams",
                "title": "Pangrams",
                "license": "CC-BY-4.0",
                "publicationDate": {"year": 2021, "month": 3, "day": 9},
            },
            {"end_index": 3, "uri": "https://example.com/the"},
            {"start_index": 45, "end_index": 49, "uri": "https://example.com/fox-emoji"},
        ]
    }
    found = read_citation_metadata(metadata, [{"text": RECITED}], CITED)
    expected = {
        0: [
            Citation(
                url="https://example.com/pangrams",
                title="Pangrams",
                text_start=4,
                text_end=44,
                metadata={
                    "gemini": {
                        "kind": "citation_metadata",
                        "license": "CC-BY-4.0",
                        "publication_date": {"year": 2021, "month": 3, "day": 9},
                    }
                },
            ),
            Citation(
                url="https://example.com/the",
                text_start=0,
                text_end=3,
                metadata={"gemini": {"kind": "citation_metadata"}},
            ),
            Citation(
                url="https://example.com/fox-emoji",
                text_start=45,
                text_end=46,
                metadata={"gemini": {"kind": "citation_metadata"}},
            ),
        ]
    }
    _exact(found, expected)
    assert RECITED[45:46] == "🦊"


def test_citation_metadata_spans_are_cut_at_the_parts_they_cover() -> None:
    # The answer's text is "Héllo " + "wörld." (parts 0 and 2; part 1 is a thought):
    # bytes 0..7 and 7..14. The citation covers bytes 3..11: "llo " and "wör".
    parts: list[dict[str, Any]] = [
        {"text": "Héllo "},
        {"text": "thinking about it", "thought": True},
        {"text": "wörld."},
        {"function_call": {"name": "f", "args": {}}},
    ]
    metadata = {"citations": [{"start_index": 3, "end_index": 11, "uri": "https://example.com/hw"}]}
    hints = {"gemini": {"kind": "citation_metadata"}}
    expected = {
        0: [Citation(url="https://example.com/hw", text_start=2, text_end=6, metadata=hints)],
        2: [Citation(url="https://example.com/hw", text_start=0, text_end=3, metadata=hints)],
    }
    _exact(read_citation_metadata(metadata, parts, CITED), expected)
    # No end: to the end of the answer; an empty span at a boundary goes to the earlier part.
    metadata = {"citations": [{"start_index": 7}, {"start_index": 7, "end_index": 7}]}
    expected = {
        0: [Citation(text_start=6, text_end=6, metadata=hints)],
        2: [Citation(text_start=0, text_end=6, metadata=hints)],
    }
    _exact(read_citation_metadata(metadata, parts, CITED), expected)


def test_citation_metadata_without_content_checks_types_only() -> None:
    # A candidate blocked for RECITATION has citations and no content.
    metadata = {"citations": [{"start_index": 100, "end_index": 250, "uri": "https://example.com"}]}
    assert read_citation_metadata(metadata, [], CITED) == {}
    with pytest.raises(FormatError) as caught:
        read_citation_metadata({"citations": [{"end_index": 2.5}]}, [], CITED)
    assert caught.value.path == f"{CITED}.citations[0].end_index"


@pytest.mark.parametrize(
    ("metadata", "where", "detail"),
    [
        ("citations", CITED, "expected a citation metadata object, got str"),
        ({"citations": {"uri": "x"}}, f"{CITED}.citations", "expected a list, got dict"),
        ({"citations": [None]}, f"{CITED}.citations[0]", "expected a citation object, got NoneType"),
        ({"citations": [{"uri": 3}]}, f"{CITED}.citations[0].uri", "expected str, got int"),
        ({"citations": [{"title": ["T"]}]}, f"{CITED}.citations[0].title", "expected str, got list"),
        ({"citations": [{"startIndex": "0"}]}, f"{CITED}.citations[0].startIndex", "expected int, got str"),
        ({"citations": [{"end_index": 6}]}, f"{CITED}.citations[0].end_index", "byte offset 6 is beyond the text (5 bytes)"),
        ({"citations": [{"start_index": 4, "end_index": 1}]}, f"{CITED}.citations[0].start_index", "starts at byte 4, after its end (1)"),
    ],
)
def test_malformed_citation_metadata_is_located(metadata: Any, where: str, detail: str) -> None:
    with pytest.raises(FormatError) as caught:
        read_citation_metadata(metadata, [{"text": "Café"}], CITED)
    assert caught.value.path == where
    assert caught.value.detail == detail
