"""Property: a final message cut into fragments, the way providers stream, sums back to itself."""

from __future__ import annotations

import itertools
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from semantic_chat import (
    ChatMessageContent,
    FunctionCallContent,
    KernelContent,
    ReasoningContent,
    RefusalContent,
    StreamingChatMessageContent,
    StreamingFunctionCallContent,
    StreamingReasoningContent,
    StreamingRefusalContent,
    StreamingTextContent,
    TextContent,
    Usage,
)

Chunk = StreamingChatMessageContent

words = st.text(min_size=1, max_size=30)
texts = st.builds(TextContent, words)
refusals = st.builds(RefusalContent, words)
reasonings = st.builds(
    ReasoningContent, words, signature=st.none() | st.text(min_size=1, max_size=20)
)
calls = st.builds(
    FunctionCallContent,
    st.uuids().map(lambda u: f"call_{u.hex[:12]}"),  # ids are unique within a message
    st.text(min_size=1, max_size=12),
    st.text(max_size=40),
)
items = st.lists(st.one_of(texts, refusals, reasonings, calls), max_size=6).filter(
    # Two adjacent fragments of one kind join in a stream: a final message never has them.
    lambda found: all(
        type(a) is not type(b) or isinstance(a, FunctionCallContent)
        for a, b in itertools.pairwise(found)
    )
    and len({item.id for item in found if isinstance(item, FunctionCallContent)})
    == sum(isinstance(item, FunctionCallContent) for item in found)
)
finals = st.builds(
    ChatMessageContent,
    st.just("assistant"),
    items=items,
    id=st.none() | st.just("resp_1"),
    model_id=st.none() | st.just("model-a"),
    finish_reason=st.none() | st.sampled_from(["stop", "tool_calls", "length"]),
    usage=st.none() | st.builds(Usage, st.integers(0, 99), st.integers(0, 99), st.integers(0, 200)),
)


def cut(draw: Any, text: str) -> list[str]:
    """Cut a text into consecutive pieces (at least one, possibly empty ones)."""
    points = sorted(draw(st.lists(st.integers(0, len(text)), max_size=4)))
    bounds = [0, *points, len(text)]
    return [text[a:b] for a, b in itertools.pairwise(bounds)]


# How a "provider" identifies call fragments after the first one; "shared-index" and
# "shared-index-id" number every call 0, as Ollama does, giving the id with the first
# fragment only or with each.
STYLES = ("index", "string-index", "id", "bare", "shared-index", "shared-index-id")


@st.composite
def streams(
    draw: Any, styles: tuple[str, ...] = STYLES
) -> tuple[ChatMessageContent, list[StreamingChatMessageContent]]:
    """A final message and chunks that stream it, one fragment per chunk."""
    final = draw(finals)
    fragments: list[KernelContent] = []
    style = draw(st.sampled_from(styles))
    for position, item in enumerate(final.items):
        if isinstance(item, TextContent):
            fragments += [StreamingTextContent(p) for p in cut(draw, item.text)]
        elif isinstance(item, RefusalContent):
            fragments += [StreamingRefusalContent(p) for p in cut(draw, item.text)]
        elif isinstance(item, ReasoningContent):
            pieces = cut(draw, item.text)
            signature = item.signature
            signs: list[str | None] = [None] * len(pieces)
            if signature is not None:
                signs[-1] = signature
            fragments += [
                StreamingReasoningContent(p, signature=s) for p, s in zip(pieces, signs, strict=False)
            ]
        elif isinstance(item, FunctionCallContent):
            index: int | str = str(position) if style == "string-index" else position
            if style.startswith("shared-index"):
                index = 0
            names = cut(draw, item.name)
            arguments = cut(draw, str(item.arguments))
            for number in range(max(len(names), len(arguments))):
                first = number == 0
                fragments.append(
                    StreamingFunctionCallContent(
                        id=item.id if first or style in ("id", "shared-index-id") else None,
                        name=names[number] if number < len(names) else "",
                        arguments=arguments[number] if number < len(arguments) else "",
                        index=None if style in ("id", "bare") else index,
                    )
                )
    chunks = [Chunk("assistant", id=final.id, model_id=final.model_id)]
    chunks += [Chunk(None, items=[fragment]) for fragment in fragments]
    chunks.append(Chunk(None, finish_reason=final.finish_reason, usage=final.usage))
    return final, chunks


@given(streams())
def test_accumulated_chunks_give_back_the_final_message(stream):
    final, chunks = stream
    assert Chunk.accumulate(chunks).to_message() == final


@given(streams())
def test_sum_gives_the_same_as_accumulate(stream):
    final, chunks = stream
    assert sum(chunks[1:], chunks[0]).to_message() == final


# A part of a "shared-index" stream that begins inside a call holds id-less fragments under
# the index every call shares: merged alone, they make a call without an id, which the next
# call's id then names (a call may get its id late, as in OpenAI Responses streams).
@given(streams(tuple(style for style in STYLES if style != "shared-index")), st.data())
def test_any_grouping_of_the_sum_gives_the_same_message(stream, data):
    final, chunks = stream
    points = sorted(data.draw(st.lists(st.integers(1, len(chunks) - 1), max_size=4)))
    bounds = [0, *points, len(chunks)]
    groups = [chunks[a:b] for a, b in itertools.pairwise(bounds) if a < b]
    partials = [Chunk.accumulate(group) for group in groups]
    assert Chunk.accumulate(partials).to_message() == final
