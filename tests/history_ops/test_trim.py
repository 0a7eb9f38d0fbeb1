"""trim and reduce: LangChain and Semantic Kernel parity, safe cut points, purity, properties."""

from __future__ import annotations

import copy
from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from semantic_chat import (
    AuthorRole,
    ChatHistory,
    ChatMessageContent,
    FunctionCallContent,
    FunctionResultContent,
    InvalidTypeError,
    InvalidValueError,
    TextContent,
)
from semantic_chat.history_ops import (
    count_tokens,
    count_tokens_approximately,
    per_message,
    reduce,
    spans,
    trim,
    validate,
)
from semantic_chat.history_ops.units import spans_from_end
from semantic_chat.options import ChatOptions

M = ChatMessageContent


def texts(history: Sequence[ChatMessageContent]) -> list[tuple[str, str]]:
    """Each message as (role, text): what the parity cases compare."""
    return [(str(message.role), message.text) for message in history]


# ---------------------------------------------------------------- LangChain's trim_messages


def dummy_token_counter(message: ChatMessageContent) -> int:
    """LangChain's test counter, per message: 3 before, 4 per text block, 3 after."""
    return 3 + 4 * len(message.items) + 3


FOUR_TOKEN = "This is a 4 token text."


def messages_to_trim() -> list[ChatMessageContent]:
    """LangChain's ``_MESSAGES_TO_TRIM``: 10 tokens each, the AI message 14 (two blocks)."""
    return [
        M("system", FOUR_TOKEN),
        M("user", FOUR_TOKEN, id="first"),
        M(
            "assistant",
            items=[
                TextContent("This is the FIRST 4 token block."),
                TextContent("This is the SECOND 4 token block."),
            ],
            id="second",
        ),
        M("user", FOUR_TOKEN, id="third"),
        M("assistant", FOUR_TOKEN, id="fourth"),
    ]


def ids(history: Sequence[ChatMessageContent]) -> list[str | None]:
    return [message.id for message in history]


def test_langchain_first_30() -> None:
    history = ChatHistory(messages_to_trim())
    result = trim(history, 30, token_counter=dummy_token_counter, strategy="first")
    assert ids(result) == [None, "first"]


def test_langchain_first_30_allow_partial() -> None:
    result = trim(
        messages_to_trim(), 30, token_counter=dummy_token_counter, strategy="first",
        allow_partial=True,
    )
    assert ids(result) == [None, "first", "second"]
    assert result[2].items == [TextContent("This is the FIRST 4 token block.")]


def test_langchain_first_30_allow_partial_end_on_human() -> None:
    result = trim(
        messages_to_trim(), 30, token_counter=dummy_token_counter, strategy="first",
        allow_partial=True, end_on="user",
    )
    assert ids(result) == [None, "first"]


def test_langchain_last_30_include_system() -> None:
    result = trim(messages_to_trim(), 30, token_counter=dummy_token_counter, start_on=None)
    assert ids(result) == [None, "third", "fourth"]


def test_langchain_last_40_include_system_allow_partial() -> None:
    result = trim(
        messages_to_trim(), 40, token_counter=dummy_token_counter, allow_partial=True,
        start_on=None,
    )
    assert ids(result) == [None, "second", "third", "fourth"]
    assert result[1].items == [TextContent("This is the SECOND 4 token block.")]


def test_langchain_last_30_include_system_allow_partial_end_on_human() -> None:
    result = trim(
        messages_to_trim(), 30, token_counter=dummy_token_counter, allow_partial=True,
        start_on=None, end_on="user",
    )
    assert ids(result) == [None, "second", "third"]
    assert result[1].items == [TextContent("This is the SECOND 4 token block.")]


def test_langchain_last_40_include_system_allow_partial_start_on_human() -> None:
    result = trim(
        messages_to_trim(), 30, token_counter=dummy_token_counter, allow_partial=True,
        start_on="user",
    )
    assert ids(result) == [None, "third", "fourth"]


def characters(message: ChatMessageContent) -> int:
    return len(message.text)


def test_langchain_allow_partial_one_message() -> None:
    history = [M("user", "This is a funky text.", id="third")]
    result = trim(
        history, 2, token_counter=characters, text_splitter=list, strategy="first",
        allow_partial=True,
    )
    assert texts(result) == [("user", "Th")]
    assert ids(result) == ["third"]


def test_langchain_last_allow_partial_one_message() -> None:
    history = [M("user", "This is a funky text.", id="third")]
    result = trim(history, 2, token_counter=characters, text_splitter=list, allow_partial=True)
    assert texts(result) == [("user", "t.")]


def test_langchain_allow_partial_text_splitter() -> None:
    def count_words(message: ChatMessageContent) -> int:
        return len(" ".join(item.text for item in message.items).split(" "))  # type: ignore[attr-defined]

    def split_on_space(text: str) -> list[str]:
        words = text.split(" ")
        return [word + " " for word in words[:-1]] + words[-1:]

    result = trim(
        messages_to_trim(), 10, token_counter=count_words, keep_system=False,
        allow_partial=True, text_splitter=split_on_space,
    )
    assert texts(result) == [("user", "a 4 token text."), ("assistant", FOUR_TOKEN)]
    assert ids(result) == ["third", "fourth"]


def test_langchain_list_counter_through_per_message() -> None:
    def list_counter(messages: list[ChatMessageContent]) -> int:
        return sum(dummy_token_counter(message) for message in messages)

    result = trim(
        messages_to_trim(), 40, token_counter=per_message(list_counter), allow_partial=True,
        start_on=None,
    )
    assert ids(result) == [None, "second", "third", "fourth"]


def test_langchain_include_system_strategy_last_empty_messages() -> None:
    assert trim(ChatHistory(), 10, token_counter=dummy_token_counter) == ChatHistory()


def test_langchain_partial_text_splitting() -> None:
    history = [M("user", "This is a long message that needs trimming")]
    result = trim(
        history, 10, token_counter=characters, strategy="first", allow_partial=True,
        text_splitter=list,
    )
    assert texts(result) == [("user", "This is a ")]


def test_langchain_mixed_content_with_partial() -> None:
    history = [
        M(
            "assistant",
            items=[
                TextContent("First part of text."),
                TextContent("Second part that should be trimmed."),
            ],
        )
    ]
    result = trim(history, 20, token_counter=characters, strategy="first", allow_partial=True)
    assert [item.text for item in result[0].items] == ["First part of text."]  # type: ignore[attr-defined]


def test_langchain_exact_token_boundary() -> None:
    history = [M("system", "10 tokens exactly."), M("user", "Another 10 tokens.")]
    first = trim(history, 10, token_counter=dummy_token_counter, strategy="first")
    assert texts(first) == [("system", "10 tokens exactly.")]
    both = trim(history, 20, token_counter=dummy_token_counter, strategy="first")
    assert both == ChatHistory(history)


def test_langchain_start_on_with_allow_partial() -> None:
    history = [
        M("user", "First human message"),
        M("assistant", "AI response"),
        M("user", "Second human message"),
    ]
    result = trim(
        history, 20, token_counter=dummy_token_counter, allow_partial=True, start_on="user"
    )
    assert texts(result) == [("user", "Second human message")]


# The conversation of trim_messages' docstring examples.
DOC_MESSAGES = [
    M("system", "you're a good assistant, you always respond with a joke."),
    M("user", "i wonder why it's called langchain"),
    M(
        "assistant",
        'Well, I guess they thought "WordRope" and "SentenceString" just '
        "didn't have the same ring to it!",
    ),
    M("user", "and who is harrison chasing anyways"),
    M(
        "assistant",
        "Hmmm let me think.\n\nWhy, he's probably chasing after the last "
        "cup of coffee in the office!",
    ),
    M("user", "what do you call a speechless parrot"),
]


def test_langchain_doc_approximate_45() -> None:
    # trim_messages(messages, max_tokens=45, strategy="last",
    #     token_counter=count_tokens_approximately, start_on="human", include_system=True)
    result = trim(DOC_MESSAGES, 45, token_counter=count_tokens_approximately)
    assert [message.text for message in result] == [
        "you're a good assistant, you always respond with a joke.",
        "what do you call a speechless parrot",
    ]
    assert result[0] is DOC_MESSAGES[0]
    assert result[1] is DOC_MESSAGES[5]


def test_langchain_doc_approximate_80() -> None:
    # The same call with max_tokens=80 keeps the last exchange too (19 + 13 + 28 + 13 = 73).
    result = trim(DOC_MESSAGES, 80)
    assert [message.text[:12] for message in result] == [
        "you're a goo", "and who is h", "Hmmm let me ", "what do you ",
    ]


def test_langchain_doc_len_counts_messages() -> None:
    # token_counter=len with max_tokens=4: four messages, the system message one of them.
    expected = [DOC_MESSAGES[0], *DOC_MESSAGES[3:]]
    by_messages = trim(DOC_MESSAGES, max_messages=4)
    assert list(by_messages) == expected
    by_counter = trim(DOC_MESSAGES, 4, token_counter=lambda message: 1)
    assert list(by_counter) == expected


def test_langchain_doc_dummy_counter_first_30_partial() -> None:
    history = [
        M("system", "This is a 4 token text. The full message is 10 tokens."),
        M("user", "This is a 4 token text. The full message is 10 tokens.", id="first"),
        M(
            "assistant",
            items=[
                TextContent("This is the FIRST 4 token block."),
                TextContent("This is the SECOND 4 token block."),
            ],
            id="second",
        ),
        M("user", "This is a 4 token text. The full message is 10 tokens.", id="third"),
        M("assistant", "This is a 4 token text. The full message is 10 tokens.", id="fourth"),
    ]
    result = trim(
        history, 30, token_counter=dummy_token_counter, strategy="first", allow_partial=True
    )
    assert ids(result) == [None, "first", "second"]
    assert result[2].text == "This is the FIRST 4 token block."


@pytest.mark.xfail(
    strict=True,
    reason="deliberate: LangChain's trim_messages cuts between an AIMessage's tool call and "
    "its ToolMessage when only the ToolMessage fits; trim keeps or drops the pair whole",
)
def test_langchain_keeps_a_lone_tool_result() -> None:
    history = [
        M("user", "weather?"),
        M("assistant", items=[FunctionCallContent("c1", "weather", "{}")]),
        M("tool", items=[FunctionResultContent("c1", "sunny")]),
    ]
    # trim_messages(..., max_tokens=1, token_counter=len) returns [ToolMessage("sunny")].
    result = trim(history, 1, token_counter=lambda message: 1, start_on=None)
    assert texts(result) == [("tool", "")]
    assert result[0] is history[2]


# ------------------------------------------------------------------ trim's own rules


def tool_conversation() -> list[ChatMessageContent]:
    """A question answered with two parallel calls whose results arrive in two messages."""
    return [
        M("system", "Be brief."),
        M("user", "Weather in Paris and Rome?"),
        M(
            "assistant",
            items=[
                FunctionCallContent("p", "weather", '{"city": "Paris"}'),
                FunctionCallContent("r", "weather", '{"city": "Rome"}'),
            ],
        ),
        M("tool", items=[FunctionResultContent("r", "20 C")]),
        M("tool", items=[FunctionResultContent("p", "18 C")]),
        M("assistant", "Paris 18 C, Rome 20 C."),
    ]


def test_spans_keep_parallel_calls_with_results_in_any_order() -> None:
    assert spans(tool_conversation()) == [(0, 1), (1, 2), (2, 5), (5, 6)]


def test_spans_reach_across_an_interleaved_user_message_and_ignore_orphans() -> None:
    history = [
        M("assistant", items=[FunctionCallContent("a", "f")]),
        M("user", "still there?"),
        M("tool", items=[FunctionResultContent("a", "done")]),
        M("tool", items=[FunctionResultContent("nobody", "orphan")]),
        M("assistant", items=[FunctionCallContent("b", "g")]),
        M("tool", items=[FunctionResultContent("b", "1")]),
    ]
    assert spans(history) == [(0, 3), (3, 4), (4, 6)]
    # A later result for call "a" as well ties everything from that call to it together.
    history[5] = M("tool", items=[FunctionResultContent("b", "1"), FunctionResultContent("a", "2")])
    assert spans(history) == [(0, 6)]
    assert spans([]) == []


def test_trim_never_separates_a_call_from_its_results() -> None:
    history = tool_conversation()
    one_each = trim(history, 4, token_counter=lambda message: 1, start_on=None)
    assert texts(one_each) == [("system", "Be brief."), ("assistant", "Paris 18 C, Rome 20 C.")]
    whole_span = trim(history, 5, token_counter=lambda message: 1, start_on=None)
    assert list(whole_span) == [history[0], *history[2:]]
    with_question = trim(history, 6, token_counter=lambda message: 1)
    assert list(with_question) == history


def test_trim_start_on_user_by_default() -> None:
    history = tool_conversation()
    result = trim(history, 5, token_counter=lambda message: 1)
    assert list(result) == [history[0]]  # the call span fits but does not open on a user
    assert list(trim(history, max_messages=5)) == [history[0]]


def test_trim_end_on_drops_the_spans_after_the_last_such_role() -> None:
    history = tool_conversation()
    result = trim(history, max_messages=6, end_on="tool", start_on=None)
    assert list(result) == history[:5]
    assert list(trim(history, max_messages=6, end_on=["critic"])) == [history[0]]


def test_trim_first_keeps_a_prefix_of_whole_spans() -> None:
    history = tool_conversation()
    assert list(trim(history, max_messages=4, strategy="first")) == history[:2]
    assert list(trim(history, max_messages=5, strategy="first")) == history[:5]
    assert list(trim(history, max_messages=5, strategy="first", end_on="user")) == history[:2]


def test_trim_keeps_leading_system_and_developer_messages() -> None:
    history = ChatHistory(system_message="S", developer_message="D")
    history.add_user_message("one")
    history.add_assistant_message("two")
    history.add_system_message("a note")
    history.add_user_message("three")
    result = trim(history, max_messages=3)
    assert texts(result) == [("system", "S"), ("developer", "D"), ("user", "three")]
    without = trim(history, max_messages=3, keep_system=False)
    assert texts(without) == [("user", "three")]
    without_start = trim(history, max_messages=3, keep_system=False, start_on=None)
    assert texts(without_start) == [("assistant", "two"), ("system", "a note"), ("user", "three")]


def test_trim_leaves_only_the_instructions_when_they_exceed_the_budget() -> None:
    history = ChatHistory(system_message="S" * 400)
    history.add_user_message("hi")
    assert texts(trim(history, 10)) == [("system", "S" * 400)]
    assert texts(trim(history, 10, keep_system=False)) == [("user", "hi")]


def test_trim_adds_the_counter_overhead_once() -> None:
    class Counter:
        overhead = 2

        def __call__(self, message: ChatMessageContent, /) -> int:
            return 1

    history = [M("user", "a"), M("user", "b"), M("user", "c")]
    assert list(trim(history, 4, token_counter=Counter())) == history[1:]


def test_trim_does_not_cut_a_message_with_calls() -> None:
    history = [
        M("user", "q"),
        M("assistant", items=[TextContent("a " * 50), FunctionCallContent("c", "f")]),
        M("tool", items=[FunctionResultContent("c", "r")]),
    ]
    assert list(trim(history, 5, token_counter=characters, allow_partial=True, start_on=None)) == []


def test_trim_is_pure_and_keeps_options() -> None:
    options = ChatOptions(model="m", temperature=0.5)
    history = ChatHistory(messages_to_trim(), options=options)
    before = copy.deepcopy(history)
    items_before = [list(message.items) for message in history]
    result = trim(history, 40, token_counter=dummy_token_counter, allow_partial=True, start_on=None)
    assert history == before
    assert [list(message.items) for message in history] == items_before
    assert result.options is options
    assert result[0] is history[0]
    assert result[1] is not history[2]  # the cut message is new
    assert result[2] is history[3]
    assert result is not history
    assert reduce(history, 100) is not history
    assert reduce(history, 100) == history
    assert reduce(history, 2).options is options


def test_trim_accepts_a_list_and_returns_a_history() -> None:
    result = trim([M("user", "a")], 100)
    assert isinstance(result, ChatHistory)
    assert result.options is None


@pytest.mark.parametrize(
    ("arguments", "error", "pattern"),
    [
        ({}, InvalidValueError, r"^max_tokens: give max_tokens, max_messages or both"),
        ({"max_tokens": -1}, InvalidValueError, r"^max_tokens: must not be negative, got -1"),
        ({"max_tokens": 1.5}, InvalidTypeError, r"^max_tokens: expected an int or None, got float"),
        ({"max_tokens": True}, InvalidTypeError, r"^max_tokens: expected an int or None, got bool"),
        ({"max_messages": -2}, InvalidValueError, r"^max_messages: must not be negative"),
        ({"max_tokens": 5, "strategy": "middle"}, InvalidValueError, r"^strategy: expected 'last' or 'first', got 'middle'"),
        ({"max_tokens": 5, "token_counter": 3}, InvalidTypeError, r"^token_counter: expected a function"),
        ({"max_tokens": 5, "start_on": " "}, InvalidValueError, r"^start_on: "),
        ({"max_tokens": 5, "end_on": ["user", 3]}, InvalidTypeError, r"^end_on\[1\]: expected a role, got int"),
        ({"max_tokens": 5, "end_on": 3}, InvalidTypeError, r"^end_on: expected a role, a list of roles or None"),
        ({"max_tokens": 5, "text_splitter": "x"}, InvalidTypeError, r"^text_splitter: expected a function"),
    ],
)
def test_trim_refuses_bad_arguments(arguments: dict[str, object], error: type, pattern: str) -> None:
    with pytest.raises(error, match=pattern):
        trim(DOC_MESSAGES, **arguments)  # type: ignore[arg-type]


def test_trim_refuses_bad_input_and_counts() -> None:
    with pytest.raises(InvalidTypeError, match=r"^history: expected a ChatHistory or a list"):
        trim("hello", 5)  # type: ignore[arg-type]
    with pytest.raises(InvalidTypeError, match=r"^messages\[1\]: expected a ChatMessageContent"):
        trim([M("user", "a"), "b"], 5)  # type: ignore[list-item]
    with pytest.raises(InvalidTypeError, match=r"^messages\[0\]: expected an int token count"):
        trim(DOC_MESSAGES, 5, token_counter=lambda message: "1")  # type: ignore[arg-type,return-value]
    with pytest.raises(InvalidTypeError, match=r"^messages\[5\]: expected an int token count"):
        trim(DOC_MESSAGES, 5, token_counter=lambda message: "1", keep_system=False)  # type: ignore[arg-type,return-value]
    with pytest.raises(InvalidTypeError, match=r"^messages\[2\]: expected an int token count"):
        # the whole third message counts 9; its first line, tried alone, a str
        trim([M("user", "a"), M("user", "bb"), M("user", "cc\ncc")], 5,
             token_counter=lambda m: {1: 2, 2: 2, 5: 9}.get(len(m.text), "x"),  # type: ignore[arg-type,return-value]
             strategy="first", allow_partial=True)
    with pytest.raises(InvalidTypeError, match=r"^text_splitter: expected a function returning"):
        trim([M("user", "abc")], 1, token_counter=characters, allow_partial=True,
             text_splitter=lambda text: "abc")  # type: ignore[arg-type,return-value]


# -------------------------------------------------- Semantic Kernel's truncation reducer


def sk_chat_messages() -> list[ChatMessageContent]:
    return [
        M("system", "System message."),
        M("user", "User message 1"),
        M("assistant", "Assistant message 1"),
        M("user", "User message 2"),
        M("assistant", "Assistant message 2"),
    ]


def sk_chat_messages_with_tools() -> list[ChatMessageContent]:
    return [
        M("system", "System message."),
        M("user", "User message 1"),
        M("assistant", items=[FunctionCallContent("123", "plugin-search", '{"q": "x"}')]),
        M("tool", items=[FunctionResultContent("123", "RESULT", name="plugin-search")]),
        M("user", "User message 2"),
        M("assistant", "Assistant message 2"),
    ]


def test_sk_no_need() -> None:
    history = sk_chat_messages()
    assert list(reduce(history, 5, 0)) == history


def test_sk_no_truncation_index_found() -> None:
    history = [M("user", "Msg")] * 10
    assert list(reduce(history, 3, 10)) == history


def test_sk_truncation() -> None:
    history = sk_chat_messages()
    result = reduce(history, 2)
    assert list(result) == [history[0], history[-1]]


def test_sk_truncation_with_tools() -> None:
    history = sk_chat_messages_with_tools()
    result = reduce(history, 3, 0)
    assert list(result) == [history[0], history[-2], history[-1]]


def test_sk_preserves_system_message() -> None:
    history = ChatHistory(system_message="a system message")
    for turn in range(1, 5):
        history.add_user_message(f"user prompt {turn}")
        history.add_assistant_message(f"response {turn}")
    result = reduce(history, 2)
    assert texts(result) == [("system", "a system message"), ("assistant", "response 4")]


def test_sk_preserves_developer_message() -> None:
    history = [
        M("developer", "Developer instructions."),
        M("user", "User message 1"),
        M("assistant", "Assistant message 1"),
        M("user", "User message 2"),
        M("assistant", "Assistant message 2"),
    ]
    result = reduce(history, 2)
    assert texts(result) == [("developer", "Developer instructions."), ("assistant", "Assistant message 2")]


def test_sk_target_count_1_with_system_message() -> None:
    history = ChatHistory(system_message="System prompt")
    for text in ("Hello", "Hi", "How are you?", "Good"):
        history.add_message(M("user" if text in ("Hello", "How are you?") else "assistant", text))
    assert texts(reduce(history, 1)) == [("system", "System prompt")]


def test_sk_without_system_message() -> None:
    history = sk_chat_messages()[1:]
    assert list(reduce(history, 2)) == history[-2:]


def test_sk_locate_index_with_and_without_system_message() -> None:
    # locate_safe_reduction_index(history, 3, has_system_message=True) == 3: the last two
    # messages and the system message.
    history = sk_chat_messages()
    assert list(reduce(history, 3)) == [history[0], *history[3:]]
    assert list(reduce(history[1:], 2)) == history[3:]


def test_sk_multiple_system_messages_keep_the_first() -> None:
    history = [
        M("system", "System prompt 1"),
        M("developer", "Developer instructions"),
        M("user", "User 1"),
        M("assistant", "Asst 1"),
        M("user", "User 2"),
        M("assistant", "Asst 2"),
    ]
    assert texts(reduce(history, 2)) == [("system", "System prompt 1"), ("assistant", "Asst 2")]


def test_sk_system_message_in_retained_tail() -> None:
    history = [
        M("user", "User 1"),
        M("assistant", "Asst 1"),
        M("user", "User 2"),
        M("system", "Late system msg"),
        M("assistant", "Asst 2"),
    ]
    assert list(reduce(history, 3)) == history[2:]


def simple_history(count: int, system: bool = False) -> list[ChatMessageContent]:
    """SK .NET's MockChatHistoryGenerator.CreateSimpleHistory: assistant messages only."""
    head = [M("system", "system message")] if system else []
    return head + [M("assistant", f"message #{index}") for index in range(count)]


def history_with_user_input(count: int) -> list[ChatMessageContent]:
    """CreateHistoryWithUserInput: user and assistant messages in turn, user first."""
    return [
        M("assistant", f"assistant response: {index}") if index % 2 else M("user", f"user input: {index}")
        for index in range(count)
    ]


def history_with_function_content() -> list[ChatMessageContent]:
    """CreateHistoryWithFunctionContent: calls at 5 and 9, their results at 6 and 10."""
    history = history_with_user_input(14)
    history[5] = M("assistant", items=[FunctionCallContent("5", "function call: 5")])
    history[6] = M("tool", items=[FunctionResultContent("5", "function result: 6")])
    history[7] = M("assistant", "assistant response: 7")
    history[8] = M("user", "user input: 8")
    history[9] = M("assistant", items=[FunctionCallContent("9", "function call: 9")])
    history[10] = M("tool", items=[FunctionResultContent("9", "function result: 10")])
    history[11] = M("assistant", "assistant response: 11")
    return history


def test_sk_dotnet_reduced_and_rereduced() -> None:
    source = simple_history(20)
    assert reduce(source, 20) == ChatHistory(source)
    reduced = reduce(source, 10)
    assert len(reduced) == 10
    assert len(reduce([*reduced, *source], 10)) == 10
    with_system = reduce(simple_history(20, system=True), 10)
    assert len(with_system) == 10
    assert with_system[0].role == AuthorRole.SYSTEM


@pytest.mark.parametrize(
    ("count", "target", "threshold"),
    [(0, 1, 0), (1, 1, 0), (1, 2, 0), (1, 2**31 - 1, 0), (5, 1, 5), (5, 4, 2), (5, 5, 1),
     (900, 500, 400), (900, 500, 2**31 - 1)],
)
def test_sk_dotnet_not_reduced(count: int, target: int, threshold: int) -> None:
    history = history_with_user_input(count)
    assert list(reduce(history, target, threshold)) == history


CASES_FOUND = [(2, 1, 0), (3, 2, 0), (3, 1, 1), (6, 1, 4), (6, 4, 1), (6, 5, 0),
               (1000, 500, 400), (1000, 500, 499)]


@pytest.mark.parametrize(("count", "target", "threshold"), CASES_FOUND)
def test_sk_dotnet_found(count: int, target: int, threshold: int) -> None:
    history = simple_history(count)
    assert list(reduce(history, target, threshold)) == history[count - target :]


@pytest.mark.parametrize(("count", "target", "threshold"), CASES_FOUND)
def test_sk_dotnet_found_with_user(count: int, target: int, threshold: int) -> None:
    history = history_with_user_input(count)
    expected = target + (1 if threshold and history[-target].role != AuthorRole.USER else 0)
    result = reduce(history, target, threshold)
    assert list(result) == history[count - expected :]


def dotnet_expected_with_function_content(target: int) -> int:
    """The kept count .NET's test expects: one more at a call, two more at a result."""
    history = history_with_function_content()
    at = history[len(history) - target]
    if at.function_calls:
        return target + 1
    if at.function_results:
        return target + 2
    return target


@pytest.mark.parametrize(("target", "threshold"), [(4, 3), (5, 8), (6, 0), (6, 7), (7, 0)])
def test_sk_dotnet_with_function_content_agreeing(target: int, threshold: int) -> None:
    history = history_with_function_content()
    result = reduce(history, target, threshold)
    kept = dotnet_expected_with_function_content(target)
    assert list(result) == history[len(history) - kept :]


DIFFERING = [(4, 0), (5, 0), (8, 0), (9, 0)]


@pytest.mark.parametrize(("target", "threshold"), DIFFERING)
@pytest.mark.xfail(
    strict=True,
    reason="deliberate: at a call or its result, .NET's reducer also keeps the message before "
    "the call; reduce cuts at the call, as Semantic Kernel's Python reducer does",
)
def test_sk_dotnet_with_function_content_differs(target: int, threshold: int) -> None:
    history = history_with_function_content()
    result = reduce(history, target, threshold)
    assert len(result) == dotnet_expected_with_function_content(target)


@pytest.mark.parametrize(("target", "threshold"), DIFFERING)
def test_sk_python_with_function_content(target: int, threshold: int) -> None:
    history = history_with_function_content()
    result = reduce(history, target, threshold)
    # Targets 4 and 5 land on the call at 9 or its result, 8 and 9 on the call at 5 or its
    # result: the cut goes to the call (SK Python's locate_safe_reduction_index).
    start = {4: 9, 5: 9, 8: 5, 9: 5}[target]
    assert list(result) == history[start:]


@pytest.mark.parametrize(
    ("arguments", "error", "pattern"),
    [
        ({"target_count": 0}, InvalidValueError, r"^target_count: must be at least 1, got 0"),
        ({"target_count": -1}, InvalidValueError, r"^target_count: must be at least 1"),
        ({"target_count": 2.0}, InvalidTypeError, r"^target_count: expected an int, got float"),
        ({"target_count": 2, "threshold_count": -1}, InvalidValueError, r"^threshold_count: must be at least 0"),
        ({"target_count": 2, "threshold_count": None}, InvalidTypeError, r"^threshold_count: expected an int"),
        ({"target_count": 2, "strategy": "summarize"}, InvalidValueError, r"^strategy: expected 'truncate', got 'summarize'"),
    ],
)
def test_reduce_refuses_bad_arguments(arguments: dict[str, object], error: type, pattern: str) -> None:
    with pytest.raises(error, match=pattern):
        reduce(DOC_MESSAGES, **arguments)  # type: ignore[arg-type]


# ------------------------------------------------------------------------- properties

_WORDS = st.text(alphabet="ab \n", max_size=30)


@st.composite
def conversations(draw: st.DrawFn) -> list[ChatMessageContent]:
    """Histories shaped like real ones: instructions, turns, parallel calls answered in
    several tool messages in any order, sometimes with a user message in between."""
    history: list[ChatMessageContent] = []
    if draw(st.booleans()):
        history.append(M("system", draw(_WORDS)))
    if draw(st.booleans()):
        history.append(M("developer", draw(_WORDS)))
    calls = 0
    for _ in range(draw(st.integers(0, 10))):
        kind = draw(st.sampled_from(["user", "assistant", "tools", "tools", "system", "orphan"]))
        if kind == "orphan":  # a result whose call is not in the history
            history.append(M("tool", items=[FunctionResultContent(f"ghost_{calls}", "?")]))
            calls += 1
            continue
        if kind != "tools":
            history.append(M(kind, draw(_WORDS)))
            continue
        count = draw(st.integers(1, 3))
        call_ids = [f"call_{calls + offset}" for offset in range(count)]
        calls += count
        items: list[object] = [TextContent(draw(_WORDS))] if draw(st.booleans()) else []
        items += [FunctionCallContent(call_id, "f", draw(_WORDS)) for call_id in call_ids]
        history.append(M("assistant", items=items))  # type: ignore[arg-type]
        order = draw(st.permutations(call_ids))
        cuts = sorted(draw(st.sets(st.integers(1, max(1, count - 1)), max_size=count - 1)))
        groups = [order[start:stop] for start, stop in zip([0, *cuts], [*cuts, count], strict=True)]
        for number, group in enumerate(groups):
            if number and draw(st.booleans()):
                history.append(M("user", draw(_WORDS)))
            results = [FunctionResultContent(call_id, draw(_WORDS)) for call_id in group]
            history.append(M("tool", items=results))
    return history


def pairs(history: Sequence[ChatMessageContent]) -> list[tuple[int, int]]:
    """(call message index, result message index) for every result in the history."""
    found = []
    calls_at: dict[str, int] = {}
    for index, message in enumerate(history):
        for call in message.function_calls:
            assert call.id is not None
            calls_at[call.id] = index
        for result in message.function_results:
            assert result.call_id is not None
            if result.call_id in calls_at:  # not an orphan
                found.append((calls_at[result.call_id], index))
    return found


@given(conversations(), st.integers(0, 3))
def test_spans_from_end_are_the_spans_backwards(source: list[ChatMessageContent], low: int) -> None:
    found = spans(source)
    assert list(spans_from_end(source)) == found[::-1]
    low = min(low, leading_instructions(source))
    assert list(spans_from_end(source, low)) == [span for span in found if span[0] >= low][::-1]
    covered = [index for start, stop in found for index in range(start, stop)]
    assert covered == list(range(len(source)))
    span_of = {index: start for start, stop in found for index in range(start, stop)}
    for call_at, result_at in pairs(source):
        assert span_of[call_at] == span_of[result_at]


def test_spans_from_end_split_around_an_orphan() -> None:
    history = [
        M("user", "q"),
        M("assistant", items=[FunctionCallContent("a", "f")]),
        M("tool", items=[FunctionResultContent("a", "1")]),
        M("tool", items=[FunctionResultContent("ghost", "?")]),
        M("assistant", "done"),
    ]
    assert list(spans_from_end(history)) == [(4, 5), (3, 4), (1, 3), (0, 1)]
    assert list(trim(history, max_messages=2, start_on=None)) == history[4:]


def kept_indices(source: Sequence[ChatMessageContent], result: ChatHistory) -> list[int]:
    """Where each kept message was in ``source`` (every kept message is one of its objects)."""
    where = {id(message): index for index, message in enumerate(source)}
    return [where[id(message)] for message in result]


def check_pairs(source: Sequence[ChatMessageContent], kept: list[int]) -> None:
    keep = set(kept)
    for call_at, result_at in pairs(source):
        assert (call_at in keep) == (result_at in keep), (call_at, result_at, kept)


def leading_instructions(source: Sequence[ChatMessageContent]) -> int:
    count = 0
    while count < len(source) and source[count].role in (AuthorRole.SYSTEM, AuthorRole.DEVELOPER):
        count += 1
    return count


def small_counter(message: ChatMessageContent) -> int:
    return 1 + len(message.text)


@given(
    conversations(),
    st.integers(0, 60),
    st.none() | st.integers(0, 8),
    st.sampled_from([count_tokens_approximately, small_counter]),
    st.booleans(),
    st.sampled_from([None, "user"]),
)
def test_trim_last_keeps_pairs_budget_and_a_suffix(
    source: list[ChatMessageContent],
    max_tokens: int,
    max_messages: int | None,
    counter: object,
    keep_system: bool,
    start_on: str | None,
) -> None:
    result = trim(
        source, max_tokens, max_messages, token_counter=counter,  # type: ignore[arg-type]
        keep_system=keep_system, start_on=start_on,
    )
    kept = kept_indices(source, result)
    check_pairs(source, kept)
    head = leading_instructions(source) if keep_system else 0
    assert kept[: min(head, len(kept))] == list(range(min(head, len(kept))))
    body = kept[head:]
    if body:
        assert body == list(range(body[0], len(source)))  # a suffix
        assert result[head].role != AuthorRole.TOOL
        if start_on is not None:
            assert result[head].role == AuthorRole.USER
    if count_tokens(source[:head], counter) <= max_tokens and (  # type: ignore[arg-type]
        max_messages is None or head <= max_messages
    ):
        assert count_tokens(result, counter) <= max_tokens  # type: ignore[arg-type]
        assert max_messages is None or len(result) <= max_messages
    else:
        assert kept == list(range(head))


@given(conversations(), st.integers(0, 60), st.none() | st.integers(0, 8))
def test_trim_first_keeps_pairs_budget_and_a_prefix(
    source: list[ChatMessageContent], max_tokens: int, max_messages: int | None
) -> None:
    result = trim(source, max_tokens, max_messages, strategy="first", keep_system=False)
    kept = kept_indices(source, result)
    check_pairs(source, kept)
    assert kept == list(range(len(kept)))
    assert count_tokens(result) <= max_tokens
    assert max_messages is None or len(result) <= max_messages


@given(conversations(), st.integers(0, 60), st.sampled_from(["last", "first"]))
def test_trim_partial_stays_within_budget(
    source: list[ChatMessageContent], max_tokens: int, strategy: str
) -> None:
    result = trim(
        source, max_tokens, token_counter=small_counter, strategy=strategy,  # type: ignore[arg-type]
        keep_system=False, start_on=None, allow_partial=True,
    )
    assert count_tokens(result, small_counter) <= max_tokens
    whole = [message for message in result if any(message is other for other in source)]
    assert len(whole) >= len(result) - 1  # at most one message is cut
    check_pairs(source, kept_indices(source, ChatHistory(whole)))


@given(conversations(), st.integers(1, 12), st.integers(0, 4))
def test_reduce_keeps_pairs_and_a_suffix_after_the_first_instruction(
    source: list[ChatMessageContent], target: int, threshold: int
) -> None:
    result = reduce(source, target, threshold)
    kept = kept_indices(source, result)
    check_pairs(source, kept)
    if len(source) <= target + threshold:
        assert kept == list(range(len(source)))
        return
    first = next(
        (index for index, message in enumerate(source)
         if message.role in (AuthorRole.SYSTEM, AuthorRole.DEVELOPER)),
        None,
    )
    body = kept[1:] if kept and kept[0] == first and (len(kept) == 1 or kept[1] != first + 1) else kept
    if body:
        assert body == list(range(body[0], len(source)))
        assert source[body[0]].role != AuthorRole.TOOL or body[0] == 0


def test_trim_keeps_a_result_answering_by_name_with_its_call() -> None:
    # What was seen: trim(h, max_messages=3) kept ['user', 'tool', 'assistant'], the result
    # (no call id, name "weather") without its call: spans_from_end paired results by id only.
    history = ChatHistory()
    history.add_user_message("Weather in Paris?")
    history.add_assistant_message(items=[FunctionCallContent("c1", "weather", "{}")])
    history.add_user_message("Hurry up please.")
    history.append(ChatMessageContent("tool", items=[
        FunctionResultContent(None, "18 C", name="weather")]))
    history.add_assistant_message("It is 18 C.")
    assert spans(history) == [(0, 1), (1, 4), (4, 5)]
    assert list(spans_from_end(history)) == [(4, 5), (1, 4), (0, 1)]
    assert [str(m.role) for m in trim(history, max_messages=3)] == []
    assert len(trim(history, max_messages=5)) == 5


@st.composite
def _by_name(draw: st.DrawFn) -> list[ChatMessageContent]:
    """Turns of calls answered by name (no call id), some with a user message between."""
    messages = [ChatMessageContent("user", "go")]
    for turn in range(draw(st.integers(1, 4))):
        names = draw(st.lists(st.sampled_from(["a", "b"]), min_size=1, max_size=3))
        messages.append(ChatMessageContent("assistant", items=[
            FunctionCallContent(f"c{turn}-{k}", name, "{}") for k, name in enumerate(names)]))
        if draw(st.booleans()):
            messages.append(ChatMessageContent("user", "meanwhile"))
        answered = draw(st.permutations(names))
        messages.append(ChatMessageContent("tool", items=[
            FunctionResultContent(None, "ok", name=name) for name in answered]))
        messages.append(ChatMessageContent("assistant", "done"))
    return messages


@given(_by_name(), st.integers(1, 12))
def test_spans_from_end_pair_results_by_name_as_spans_does(
    source: list[ChatMessageContent], budget: int
) -> None:
    assert list(spans_from_end(source)) == spans(source)[::-1]
    kept = trim(ChatHistory(source), max_messages=budget)
    assert not [problem for problem in validate(kept) if "no earlier call" in problem.message]


@pytest.mark.parametrize("operation", [spans, count_tokens, lambda m: list(spans_from_end(m))])
def test_a_non_message_is_refused_at_its_index(operation) -> None:
    # What was seen: spans and count_tokens raised "AttributeError: 'str' object has no
    # attribute 'items'" where trim says where the non-message is.
    with pytest.raises(InvalidTypeError) as raised:
        operation([ChatMessageContent("user", "hi"), "hello"])
    assert str(raised.value) == "messages[1]: expected a ChatMessageContent, got str"
