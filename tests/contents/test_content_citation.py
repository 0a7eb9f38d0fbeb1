"""Citations: the value, its checks, how a text item holds it, JSON, streaming and usage."""

from __future__ import annotations

import attrs
import numpy as np
import pytest

from semantic_chat import (
    ChatMessageContent,
    Citation,
    InvalidTypeError,
    InvalidValueError,
    SerializationError,
    StreamingChatMessageContent,
    StreamingReasoningContent,
    StreamingTextContent,
    TextContent,
    Usage,
)
from semantic_chat.serialization import from_dict, from_json, to_dict, to_json

PAGE = Citation(
    cited_text="The sky is blue.",
    title="Colours",
    source_index=0,
    source_start=2,
    source_end=3,
    source_unit="page",
    metadata={"anthropic": {"type": "page_location"}},
)
WEB = Citation(url="https://example.com/sky", title="Sky", text_start=0, text_end=12)


def test_every_field_is_optional_and_none_by_default() -> None:
    empty = Citation()
    assert attrs.asdict(empty) == {
        "cited_text": None, "title": None, "url": None, "file_id": None, "filename": None,
        "source_index": None, "source_start": None, "source_end": None, "source_unit": None,
        "text_start": None, "text_end": None, "metadata": {},
    }
    assert repr(empty) == "Citation()"


def test_repr_shows_only_what_is_set() -> None:
    assert repr(WEB) == (
        "Citation(title='Sky', url='https://example.com/sky', text_start=0, text_end=12)"
    )


def test_compares_by_value_and_hashes_without_its_metadata() -> None:
    assert Citation(title="Sky", url="u") == Citation(url="u", title="Sky")
    assert Citation(title="Sky") != Citation(title="Sky", metadata={"x": 1})
    assert hash(Citation(title="Sky")) == hash(Citation(title="Sky", metadata={"x": 1}))
    assert attrs.evolve(WEB, title="Sea").title == "Sea"


def test_is_immutable() -> None:
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        WEB.title = "Sea"  # type: ignore[misc]


def test_numpy_integers_become_ints() -> None:
    citation = Citation(source_start=np.int64(4))
    assert type(citation.source_start) is int
    assert citation.source_start == 4


@pytest.mark.parametrize(
    ("fields", "error", "message"),
    [
        ({"title": 5}, InvalidTypeError, "title: expected a str or None, got int"),
        ({"url": b"x"}, InvalidTypeError, "url: expected a str or None, got bytes"),
        ({"source_start": "3"}, InvalidTypeError, "source_start: expected an int or None, got str"),
        ({"text_end": True}, InvalidTypeError, "text_end: expected an int or None, got bool"),
        (
            {"source_index": 2**64},
            InvalidValueError,
            "source_index: integer outside the 64-bit range JSON readers accept",
        ),
        (
            {"cited_text": "a\ud800"},
            InvalidValueError,
            "cited_text: lone surrogate '\\ud800' at character 1 cannot be written as UTF-8",
        ),
        ({"metadata": [1]}, InvalidTypeError, "metadata: expected a dict or None, got list"),
    ],
)
def test_bad_fields_are_refused_naming_the_field(
    fields: dict[str, object], error: type[Exception], message: str
) -> None:
    with pytest.raises(error) as caught:
        Citation(**fields)  # type: ignore[arg-type]
    assert type(caught.value) is error
    assert str(caught.value) == message


def test_a_text_item_has_no_citations_unless_given() -> None:
    item = TextContent("The sky is blue.")
    assert item.citations == ()
    assert repr(item) == "TextContent(text='The sky is blue.')"


def test_citations_are_kept_as_a_tuple_in_order() -> None:
    given = [PAGE, WEB]
    item = TextContent("The sky is blue.", citations=given)
    given.clear()  # the caller's list is not aliased
    assert item.citations == (PAGE, WEB)
    item.citations = [WEB]
    assert item.citations == (WEB,)
    match item:
        case TextContent(text=text, citations=(first,)):
            assert (text, first) == ("The sky is blue.", WEB)
        case _:
            pytest.fail("a text item with one citation did not match")


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ([WEB, "https://x"], "citations[1]: expected a Citation, got str"),
        ("https://x", "citations: expected a list of Citation, got str"),
        (WEB, "citations: expected a list of Citation, got Citation"),
        (5, "citations: expected a list of Citation, got int"),
    ],
)
def test_anything_but_citations_is_refused_naming_the_element(value: object, message: str) -> None:
    with pytest.raises(InvalidTypeError) as built:
        TextContent("x", citations=value)  # type: ignore[arg-type]
    assert str(built.value) == message
    item = TextContent("x", citations=[PAGE])
    with pytest.raises(InvalidTypeError) as assigned:
        item.citations = value  # type: ignore[assignment]
    assert str(assigned.value) == message
    assert item.citations == (PAGE,)


def test_citations_are_written_as_their_set_fields_and_read_back() -> None:
    item = TextContent("The sky is blue.", citations=[PAGE, WEB])
    written = to_dict(item)
    assert written == {
        "type": "text",
        "text": "The sky is blue.",
        "citations": [
            {
                "cited_text": "The sky is blue.",
                "title": "Colours",
                "source_index": 0,
                "source_start": 2,
                "source_end": 3,
                "source_unit": "page",
                "metadata": {"anthropic": {"type": "page_location"}},
            },
            {"title": "Sky", "url": "https://example.com/sky", "text_start": 0, "text_end": 12},
        ],
    }
    assert from_dict(written, TextContent) == item
    message = ChatMessageContent("assistant", items=[item])
    assert from_json(to_json(message), ChatMessageContent) == message


@pytest.mark.parametrize(
    ("citations", "message"),
    [
        ({"title": "x"}, "items[0].citations: expected a list of citations, got dict"),
        ([5], "items[0].citations[0]: expected a citation object, got int"),
        (
            [{"page": 3}],
            "items[0].citations[0].page: no citation field 'page' in this version (data of a "
            "newer version): read it without strict=True to keep it",
        ),
        (
            [{"source_start": "3"}],
            "items[0].citations[0].source_start: expected an int or None, got str",
        ),
    ],
)
def test_bad_citations_in_json_are_refused_with_their_location(
    citations: object, message: str
) -> None:
    data = {"role": "assistant", "items": [{"type": "text", "text": "x", "citations": citations}]}
    with pytest.raises(SerializationError) as caught:
        from_dict(data, ChatMessageContent, strict=True)  # not strict, a newer key is kept
    assert str(caught.value) == message


def test_a_citation_broken_after_it_was_given_is_refused_when_written() -> None:
    citation = Citation(title="x", metadata={"ok": 1})
    citation.metadata["when"] = object()
    item = TextContent("x", citations=[citation])
    with pytest.raises(SerializationError) as caught:
        to_dict(ChatMessageContent("user", items=[item]))
    assert str(caught.value).startswith('items[0].citations[0].metadata["when"]: ')


def test_streamed_blocks_with_different_indexes_stay_apart() -> None:
    chunks = [
        StreamingChatMessageContent("assistant", items=[StreamingTextContent("Acc", index=0)]),
        StreamingChatMessageContent(None, items=[StreamingTextContent("ording to", index=0)]),
        StreamingChatMessageContent(None, items=[StreamingTextContent("The sky", index=1)]),
        StreamingChatMessageContent(
            None, items=[StreamingTextContent("", index=1, citations=[PAGE])]
        ),
        StreamingChatMessageContent(None, items=[StreamingTextContent(" is blue", index=1)]),
        StreamingChatMessageContent(None, items=[StreamingTextContent(".")]),  # no index: joins
    ]
    message = StreamingChatMessageContent.accumulate(chunks).to_message()
    assert [type(item) for item in message.items] == [TextContent, TextContent]
    assert [item.text for item in message.items] == ["According to", "The sky is blue."]
    assert [item.citations for item in message.items] == [(), (PAGE,)]


def test_thinking_blocks_with_different_indexes_stay_apart() -> None:
    chunk = StreamingChatMessageContent(
        "assistant",
        items=[
            StreamingReasoningContent("Let me", provider="anthropic", index=0),
            StreamingReasoningContent(" think.", provider="anthropic", index=0),
            StreamingReasoningContent(signature="sig", provider="anthropic", index=0),
            StreamingReasoningContent(encrypted="opaque", provider="anthropic", index=1),
        ],
    )
    reasoning = StreamingChatMessageContent.accumulate([chunk]).to_message().reasoning
    assert [(r.text, r.signature, r.encrypted) for r in reasoning] == [
        ("Let me think.", "sig", None),
        ("", None, "opaque"),
    ]


def test_fragments_without_an_index_join_as_before() -> None:
    chunk = StreamingChatMessageContent(
        "assistant", items=[StreamingTextContent("a"), StreamingTextContent("b")]
    )
    assert StreamingChatMessageContent.accumulate([chunk]).to_message().items == [
        TextContent("ab")
    ]


def test_a_block_index_must_be_a_whole_number() -> None:
    with pytest.raises(InvalidTypeError) as caught:
        StreamingTextContent("a", index="1")  # type: ignore[arg-type]
    assert str(caught.value) == "index: expected an int or None, got str"
    assert StreamingTextContent("a", index=np.int32(2)).index == 2


def test_cache_creation_tokens_add_and_stay_unreported_when_unreported() -> None:
    assert (Usage(10, 2, 12, cache_creation_tokens=4) + Usage(5, 1, 6)).cache_creation_tokens == 4
    assert (Usage(10, 2, 12) + Usage(5, 1, 6)).cache_creation_tokens is None
    with pytest.raises(InvalidTypeError) as caught:
        Usage(cache_creation_tokens="4")  # type: ignore[arg-type]
    assert str(caught.value) == "cache_creation_tokens: expected an int or None, got str"
