"""`filter` and `merge_runs`: LangChain's documented examples, items, pairing, bad input."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_repair import messy_histories

from semantic_chat import (
    AuthorRole,
    ChatHistory,
    ChatMessageContent,
    ChatOptions,
    Citation,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    KernelContent,
    ReasoningContent,
    TextContent,
)
from semantic_chat.errors import InvalidTypeError, InvalidValueError
from semantic_chat.history_ops.repair import repair, validate
from semantic_chat.history_ops.select import filter as select
from semantic_chat.history_ops.select import merge_runs
from semantic_chat.serialization import to_dict


def message(role: str, *items: Any, **fields: Any) -> ChatMessageContent:
    return ChatMessageContent(role, items=[TextContent(i) if isinstance(i, str) else i for i in items], **fields)


def texts(history: ChatHistory) -> list[tuple[str, list[str]]]:
    return [(str(m.role), [str(item) for item in m.items]) for m in history]


# --- filter: LangChain's filter_messages examples -------------------------------------------------


def test_filter_reference_example() -> None:
    # filter_messages(messages, include_names=("example_user", "example_assistant"),
    #                 include_types=("system",), exclude_ids=("bar",))
    history = ChatHistory(
        [
            message("system", "you're a good assistant."),
            message("user", "what's your name", id="foo", name="example_user"),
            message("assistant", "steve-o", id="bar", name="example_assistant"),
            message("user", "what's your favorite color", id="baz"),
            message("assistant", "silicon blue", id="blah"),
        ]
    )
    chosen = select(
        history,
        names=("example_user", "example_assistant"),
        roles=("system",),
        exclude_ids=("bar",),
    )
    assert chosen.messages == [history[0], history[1]]
    assert chosen[1] is history[1]


@pytest.fixture
def guide() -> ChatHistory:
    """The how-to guide's messages (ids 1 to 5)."""
    return ChatHistory(
        [
            message("system", "you are a good assistant", id="1"),
            message("user", "example input", id="2", name="example_user"),
            message("assistant", "example output", id="3", name="example_assistant"),
            message("user", "real input", id="4", name="bob"),
            message("assistant", "real output", id="5", name="alice"),
        ]
    )


def ids(history: ChatHistory) -> list[str | None]:
    return [m.id for m in history]


def test_filter_guide_include_one_type(guide: ChatHistory) -> None:
    assert ids(select(guide, roles="user")) == ["2", "4"]  # include_types="human"


def test_filter_guide_exclude_names(guide: ChatHistory) -> None:
    assert ids(select(guide, exclude_names=["example_user", "example_assistant"])) == ["1", "4", "5"]


def test_filter_guide_include_types_exclude_id(guide: ChatHistory) -> None:
    # include_types=[HumanMessage, AIMessage], exclude_ids=["3"]
    assert ids(select(guide, roles=[AuthorRole.USER, "Assistant"], exclude_ids=["3"])) == ["2", "4", "5"]


def test_filter_without_conditions_keeps_everything(guide: ChatHistory) -> None:
    chosen = select(guide, roles=[], names=None)  # an empty collection sets no condition
    assert chosen == guide
    assert all(a is b for a, b in zip(chosen, guide, strict=True))


# --- filter: items ------------------------------------------------------------------------


def test_filter_by_item_type_keeps_messages_as_copies_or_drops_them() -> None:
    image = ImageContent(uri="https://example.com/a.png")
    thought = ReasoningContent("hmm")
    history = ChatHistory(
        [message("user", "look", image), message("assistant", thought, "a cat"), message("user", image)],
        options=ChatOptions(model="m"),
    )
    without_images = select(history, exclude_types=[ImageContent])
    assert texts(without_images) == [("user", ["look"]), ("assistant", ["hmm", "a cat"])]
    assert without_images[0] is not history[0]
    assert without_images[1] is history[1]
    assert without_images.options == history.options
    assert len(history[0].items) == 2  # the input is untouched
    only_text = select(history, types="text")  # a label
    assert texts(only_text) == [("user", ["look"]), ("assistant", ["a cat"])]
    by_class = select(history, types=[TextContent, "image"], exclude_types="reasoning")
    assert texts(by_class) == [
        ("user", ["look", "https://example.com/a.png"]),
        ("assistant", ["a cat"]),
        ("user", ["https://example.com/a.png"]),
    ]
    assert select(history, types=KernelContent) == history  # a base class matches every item


def test_filter_combines_messages_then_items() -> None:
    history = ChatHistory([message("user", "a", "b", name="x"), message("user", "c", name="y")])
    assert texts(select(history, names="x", exclude_types=TextContent)) == []
    empty = ChatHistory([ChatMessageContent("user"), message("assistant", "hi")])
    assert select(empty, roles="user").messages == [empty[0]]  # no items: chosen by its role


# --- filter: never orphans --------------------------------------------------------------------


def tool_history() -> ChatHistory:
    return ChatHistory(
        [
            message("user", "weather in Paris and Rome?"),
            message(
                "assistant",
                "checking",
                FunctionCallContent("a", "weather", '{"city": "Paris"}'),
                FunctionCallContent("b", "weather", '{"city": "Rome"}'),
            ),
            message("tool", FunctionResultContent("b", "12")),
            message("tool", FunctionResultContent("a", "18")),
            message("assistant", "18 and 12"),
        ]
    )


def test_leaving_out_results_leaves_out_their_calls() -> None:
    history = tool_history()
    chosen = select(history, exclude_roles="tool")
    assert texts(chosen) == [
        ("user", ["weather in Paris and Rome?"]),
        ("assistant", ["checking"]),
        ("assistant", ["18 and 12"]),
    ]
    assert validate(chosen) == []


def test_leaving_out_a_call_leaves_out_its_result() -> None:
    history = tool_history()
    chosen = select(history, exclude_ids=[], exclude_types=FunctionCallContent)
    assert texts(chosen) == [
        ("user", ["weather in Paris and Rome?"]),
        ("assistant", ["checking"]),
        ("assistant", ["18 and 12"]),
    ]
    one_result = ChatHistory([*history[:2], history[3], history[4]])  # b's result missing
    chosen = select(one_result, roles=["user", "assistant", "tool"])
    assert texts(chosen) == texts(one_result)  # a problem already there stays


def test_leaving_out_one_result_leaves_out_only_its_call() -> None:
    history = tool_history()
    history[2].id = "result-b"
    chosen = select(history, exclude_ids="result-b")
    assert texts(chosen) == [
        ("user", ["weather in Paris and Rome?"]),
        ("assistant", ["checking", 'weather({"city": "Paris"})']),
        ("tool", ["18"]),
        ("assistant", ["18 and 12"]),
    ]
    assert validate(chosen) == []


@given(
    messy_histories(),
    st.sets(st.sampled_from(["user", "assistant", "tool", "system"])),
    st.sets(st.sampled_from([FunctionCallContent, FunctionResultContent, TextContent])),
)
def test_filter_keeps_a_paired_history_paired(
    history: ChatHistory, roles: set[str], types: set[type[KernelContent]]
) -> None:
    paired, _ = repair(history)
    before = to_dict(paired)
    chosen = select(paired, exclude_roles=roles, exclude_types=types)
    assert validate(chosen) == []
    assert all(message.role not in roles for message in chosen)
    assert not any(isinstance(item, tuple(types)) for message in chosen for item in message.items)
    assert to_dict(paired) == before


# --- merge_runs: LangChain's merge_message_runs examples ----------------------------------------


def test_merge_runs_reference_example() -> None:
    history = ChatHistory(
        [
            message("system", "you're a good assistant."),
            message("user", "what's your favorite color", id="foo"),
            message("user", "wait your favorite food", id="bar"),
            message("assistant", "my favorite colo", FunctionCallContent("123", "blah_tool", {"x": 2}), id="baz"),
            message(
                "assistant",
                "my favorite dish is lasagna",
                FunctionCallContent("456", "blah_tool", {"x": -10}),
                id="blur",
            ),
        ]
    )
    merged = merge_runs(history, join_text="\n")
    assert merged.messages == [
        history[0],
        message("user", "what's your favorite color\nwait your favorite food", id="foo"),
        message(
            "assistant",
            "my favorite colo",
            FunctionCallContent("123", "blah_tool", {"x": 2}),
            "my favorite dish is lasagna",
            FunctionCallContent("456", "blah_tool", {"x": -10}),
            id="baz",
        ),
    ]
    assert merged[0] is history[0]
    # Items, not text, by default: the user's two texts stay two items.
    assert texts(merge_runs(history))[1] == ("user", ["what's your favorite color", "wait your favorite food"])


def test_merge_runs_guide_example() -> None:
    history = ChatHistory(
        [
            message("system", "you're a good assistant."),
            message("system", "you always respond with a joke."),
            message("user", "i wonder why it's called langchain"),
            message("user", "and who is harrison chasing anyways"),
            message("assistant", 'Well, I guess they thought "WordRope" and "SentenceString" just didn\'t have the same ring to it!'),
            message("assistant", "Why, he's probably chasing after the last cup of coffee in the office!"),
        ]
    )
    merged = merge_runs(history, join_text="\n")
    # LangChain keeps the user's texts as two blocks there because the first was given as a
    # list of blocks; every message here holds items, so join_text joins them all.
    assert texts(merged) == [
        ("system", ["you're a good assistant.\nyou always respond with a joke."]),
        ("user", ["i wonder why it's called langchain\nand who is harrison chasing anyways"]),
        (
            "assistant",
            [
                'Well, I guess they thought "WordRope" and "SentenceString" just didn\'t have the same '
                "ring to it!\nWhy, he's probably chasing after the last cup of coffee in the office!"
            ],
        ),
    ]


# --- merge_runs: our rules ------------------------------------------------------------------


def test_merge_runs_needs_the_same_role_and_name_and_merges_results() -> None:
    history = ChatHistory(
        [
            message("user", "a", name="ada"),
            message("user", "b", name="bob"),
            message("user", "c", name="bob"),
            message("assistant", FunctionCallContent("x", "f"), FunctionCallContent("y", "f")),
            message("tool", FunctionResultContent("x", "1")),
            message("tool", FunctionResultContent("y", "2")),
        ],
        options=ChatOptions(model="m"),
    )
    merged = merge_runs(history)
    assert texts(merged) == [
        ("user", ["a"]),
        ("user", ["b", "c"]),
        ("assistant", ["f()", "f()"]),
        ("tool", ["1", "2"]),
    ]
    assert merged[1].name == "bob"
    assert merged[0] is history[0]
    assert merged.options == history.options
    assert [r.call_id for r in merged[3].function_results] == ["x", "y"]
    assert len(history) == 6  # the input is untouched


def test_merge_runs_joins_only_plain_adjacent_texts() -> None:
    cited = TextContent("cited", citations=[Citation(url="https://example.com", text_start=0, text_end=5)])
    image = ImageContent(uri="https://example.com/a.png")
    history = ChatHistory(
        [
            message("assistant", "a", "b"),
            message("assistant", "c", image, "d"),
            message("assistant", cited, "e", TextContent("f", metadata={"k": 1}), "g"),
        ]
    )
    (merged,) = merge_runs(history, join_text=" ")
    assert [str(item) for item in merged.items] == ["a b c", "https://example.com/a.png", "d", "cited", "e", "f", "g"]
    assert merged.items[3] is cited
    assert merged.items[5].metadata == {"k": 1}
    assert merge_runs(ChatHistory([history[0]]), join_text=" ")[0] is history[0]  # alone: as it is


# --- bad input ----------------------------------------------------------------------------


def test_bad_input_is_refused_at_its_name() -> None:
    history = tool_history()
    with pytest.raises(InvalidTypeError, match=r"^history: expected a ChatHistory, got list"):
        select([])  # type: ignore[arg-type]
    with pytest.raises(InvalidTypeError, match=r"^roles\[1\]: expected a str, got int"):
        select(history, roles=["user", 5])  # type: ignore[list-item]
    with pytest.raises(InvalidTypeError, match=r"^exclude_names: expected a str, got int"):
        select(history, exclude_names=5)  # type: ignore[arg-type]
    with pytest.raises(InvalidTypeError, match=r"^ids\[0\]: expected a str, got NoneType"):
        select(history, ids=[None])  # type: ignore[list-item]
    with pytest.raises(InvalidTypeError, match=r"^types\[1\]: expected an item class or a content-type label, got type"):
        select(history, types=[TextContent, int])  # type: ignore[list-item]
    with pytest.raises(InvalidTypeError, match=r"^exclude_types: expected an item class or a content-type label, got float"):
        select(history, exclude_types=1.5)  # type: ignore[arg-type]
    with pytest.raises(InvalidValueError, match=r"^exclude_roles\[0\]: "):
        select(history, exclude_roles=[" "])
    with pytest.raises(InvalidValueError, match=r"^types: "):
        select(history, types="")
    with pytest.raises(InvalidTypeError, match=r"^history: expected a ChatHistory, got NoneType"):
        merge_runs(None)  # type: ignore[arg-type]
    with pytest.raises(InvalidTypeError, match=r"^join_text: expected a str or None, got bytes"):
        merge_runs(history, join_text=b"\n")  # type: ignore[arg-type]
