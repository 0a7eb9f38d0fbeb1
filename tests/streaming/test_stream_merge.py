"""The merge rules of streaming chunks, one rule per test."""

from __future__ import annotations

import numpy as np
import pytest

from semantic_chat import (
    AuthorRole,
    ChatMessageContent,
    FinishReason,
    FunctionCallContent,
    ImageContent,
    InvalidTypeError,
    InvalidValueError,
    ReasoningContent,
    RefusalContent,
    StreamingChatMessageContent,
    StreamingFunctionCallContent,
    StreamingReasoningContent,
    StreamingRefusalContent,
    StreamingTextContent,
    StreamMergeError,
    TextContent,
    Usage,
)
from semantic_chat.serialization import from_json, to_json
from semantic_chat.streaming import accumulate_choices, parse_partial_json

Chunk = StreamingChatMessageContent


def call(index=None, id=None, name="", arguments=""):
    return StreamingFunctionCallContent(id=id, name=name, arguments=arguments, index=index)


def test_chunks_of_different_choices_refuse_to_merge():
    with pytest.raises(StreamMergeError, match=r"^choice_index: cannot merge chunks of choices 0 and 1$"):
        Chunk("assistant", "a") + Chunk(None, "b", choice_index=1)


def test_a_chunk_without_role_takes_the_others_role():
    assert (Chunk(None, items=[StreamingTextContent("a")]) + Chunk("assistant")).role == "assistant"
    assert (Chunk("assistant") + Chunk(None)).role is AuthorRole.ASSISTANT


def test_two_different_roles_refuse_to_merge():
    with pytest.raises(StreamMergeError, match=r"^role: cannot merge chunks with roles assistant and tool$"):
        Chunk("assistant") + Chunk("tool")


def test_adjacent_text_fragments_concatenate_into_one_item():
    merged = Chunk("assistant", items=[StreamingTextContent("Hel")]) + Chunk(
        None, items=[StreamingTextContent("lo")]
    )
    assert merged.items == [StreamingTextContent("Hello")]


def test_text_fragments_separated_by_a_call_stay_apart():
    chunks = [
        Chunk("assistant", items=[StreamingTextContent("a")]),
        Chunk(None, items=[call(0, "c1", "f", "{}")]),
        Chunk(None, items=[StreamingTextContent("b")]),
    ]
    assert Chunk.accumulate(chunks).to_message().items == [
        TextContent("a"),
        FunctionCallContent("c1", "f", "{}"),
        TextContent("b"),
    ]


def test_reasoning_text_and_signature_fragments_concatenate():
    merged = Chunk.accumulate(
        [
            Chunk("assistant", items=[StreamingReasoningContent("Thin", signature="ab")]),
            Chunk(None, items=[StreamingReasoningContent("king", signature="cd")]),
        ]
    )
    assert merged.to_message().items == [ReasoningContent("Thinking", signature="abcd")]


def test_refusal_fragments_concatenate_and_become_a_refusal():
    merged = Chunk.accumulate(
        [Chunk("assistant", items=[StreamingRefusalContent("I can")]),
         Chunk(None, items=[StreamingRefusalContent("not.")])]
    )
    assert merged.to_message().items == [RefusalContent("I cannot.")]


def test_call_fragments_merge_by_index_and_the_string_index_equals_the_number():
    merged = Chunk.accumulate(
        [
            Chunk("assistant", items=[call(0, "c1", "get_", '{"ci')]),
            Chunk(None, items=[call("0", None, "weather", 'ty": "Paris"}')]),
        ]
    )
    assert merged.to_message().items == [
        FunctionCallContent("c1", "get_weather", '{"city": "Paris"}')
    ]


def test_call_fragments_merge_by_id_when_there_is_no_index():
    merged = Chunk.accumulate(
        [
            Chunk("assistant", items=[call(None, "a", "f", '{"x":')]),
            Chunk(None, items=[call(None, "b", "g", "{}")]),
            Chunk(None, items=[call(None, "a", "", "1}")]),
        ]
    )
    assert merged.to_message().items == [
        FunctionCallContent("a", "f", '{"x":1}'),
        FunctionCallContent("b", "g", "{}"),
    ]


def test_a_fragment_with_neither_index_nor_id_continues_the_last_call():
    merged = Chunk.accumulate(
        [
            Chunk("assistant", items=[call(None, "a", "f", "{")]),
            Chunk(None, items=[call(None, "b", "g", "[")]),
            Chunk(None, items=[call(None, None, "", "]")]),
        ]
    )
    assert [c.arguments for c in merged.to_message().function_calls] == ["{", "[]"]


def test_different_calls_stay_separate_in_first_seen_order():
    merged = Chunk.accumulate(
        [
            Chunk("assistant", items=[call(1, "second", "g", "")]),
            Chunk(None, items=[call(0, "first", "f", "")]),
            Chunk(None, items=[call(1, None, "", "{}")]),
            Chunk(None, items=[call(0, None, "", "[]")]),
        ]
    )
    calls = merged.to_message().function_calls
    assert [(c.id, c.name, c.arguments) for c in calls] == [("second", "g", "{}"), ("first", "f", "[]")]


def test_a_non_numeric_index_is_refused():
    with pytest.raises(StreamMergeError, match="index must be a whole number"):
        Chunk.accumulate([Chunk("assistant", items=[call("x", "a", "f", "")])])


@pytest.mark.parametrize("index", ["\u00b2", "\u0663"])
def test_a_digit_that_is_no_ascii_digit_is_refused_located(index):
    # What was seen: index "²" passed str.isdigit() and then int() raised a bare ValueError.
    with pytest.raises(StreamMergeError) as raised:
        Chunk.accumulate([Chunk("assistant", items=[call(index, "a", "f", "")])])
    assert str(raised.value) == (
        f"index: a tool call index must be a whole number, got {index!r}")


def test_last_values_win_for_usage_finish_reason_id_model_and_name():
    merged = Chunk.accumulate(
        [
            Chunk("assistant", id="r1", model_id="m1", usage=Usage(1, 1, 2)),
            Chunk(None, finish_reason="length", name="bot"),
            Chunk(None, id="r2", usage=Usage(5, 6, 11)),
            Chunk(None),
        ]
    )
    assert (merged.id, merged.model_id, merged.finish_reason, merged.name) == (
        "r2", "m1", FinishReason.LENGTH, "bot"
    )
    assert merged.usage == Usage(5, 6, 11)


def test_metadata_merges_with_later_keys_winning():
    merged = Chunk("assistant", metadata={"a": 1, "b": 1}) + Chunk(None, metadata={"b": 2})
    assert merged.metadata == {"a": 1, "b": 2}


def test_non_streaming_items_pass_through_in_order():
    image = ImageContent(uri="https://example.com/a.png")
    merged = Chunk.accumulate(
        [Chunk("assistant", items=[StreamingTextContent("a")]), Chunk(None, items=[image])]
    )
    assert merged.to_message().items == [TextContent("a"), image]


def test_sum_with_a_start_chunk_equals_accumulate():
    chunks = [Chunk("assistant", items=[StreamingTextContent(t)]) for t in "abc"]
    assert sum(chunks[1:], chunks[0]) == Chunk.accumulate(chunks)


def test_adding_does_not_change_either_chunk():
    left = Chunk("assistant", items=[StreamingTextContent("a")])
    right = Chunk(None, items=[StreamingTextContent("b")])
    left + right
    assert left.items == [StreamingTextContent("a")]
    assert right.items == [StreamingTextContent("b")]


def test_accumulate_of_nothing_is_an_error():
    with pytest.raises(StreamMergeError, match="no chunks"):
        Chunk.accumulate([])


def test_to_message_gives_plain_items_and_a_plain_message():
    message = Chunk.accumulate(
        [Chunk("assistant", items=[StreamingTextContent("hi"), call(0, "c", "f", "{}")])]
    ).to_message()
    assert type(message) is ChatMessageContent
    assert [type(item) for item in message.items] == [TextContent, FunctionCallContent]
    assert message.function_calls[0].index is None


def test_a_chunk_without_role_becomes_an_assistant_message():
    assert Chunk(None, "x").to_message().role is AuthorRole.ASSISTANT


def test_accumulate_choices_merges_each_choice_apart():
    merged = accumulate_choices(
        [
            Chunk("assistant", "a", choice_index=1),
            Chunk("assistant", "x", choice_index=0),
            Chunk(None, items=[StreamingTextContent("b")], choice_index=1),
        ]
    )
    assert [(m.choice_index, m.to_message().text) for m in merged] == [(0, "x"), (1, "ab")]


def test_chunks_round_trip_through_json_as_streaming_classes():
    chunk = Chunk(None, items=[StreamingTextContent("a"), call("0", "c", "f", '{"a"')], choice_index=2)
    back = from_json(to_json(chunk), ChatMessageContent)
    assert type(back) is Chunk
    assert back == chunk
    assert back.role is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"city": "Par', {"city": "Par"}),
        ('{"city": "Paris", "co', {"city": "Paris"}),
        ('{"city": "Paris", "country":', {"city": "Paris"}),
        ('{"a": [1, 2, tru', {"a": [1, 2]}),
        ('{"a": {"b": "c\\', {"a": {"b": "c"}}),
        ('{"a": 1}', {"a": 1}),
        ("", {}),
        ("[1, 2", {}),
    ],
)
def test_partial_arguments_parse_as_far_as_they_go(text, expected):
    assert call(0, "c", "f", text).partial_arguments() == expected


def test_parse_partial_json_returns_none_when_nothing_parses():
    assert parse_partial_json("}") is None


def test_sum_without_a_start_value_adds_the_chunks():
    chunks = [
        StreamingChatMessageContent("assistant", "Hel"),
        StreamingChatMessageContent("assistant", "lo"),
    ]
    total = sum(chunks)
    assert isinstance(total, StreamingChatMessageContent)
    assert total.content == "Hello"
    assert total == StreamingChatMessageContent.accumulate(chunks)


def test_adding_a_chunk_to_anything_but_zero_is_refused():
    with pytest.raises(TypeError):
        1 + StreamingChatMessageContent("assistant", "x")  # type: ignore[operator]


def test_a_chunk_locates_what_it_refuses():
    with pytest.raises(InvalidValueError) as info:
        StreamingChatMessageContent("user", content=["a", "\ud800"])
    assert str(info.value) == (
        "content[1].text: lone surrogate '\\ud800' at character 0 cannot be written as UTF-8"
    )
    with pytest.raises(InvalidTypeError) as info:
        StreamingChatMessageContent(5)  # type: ignore[arg-type]
    assert str(info.value) == "role: expected a str, got int"


def test_choice_index_is_checked_when_built_and_assigned():
    chunk = StreamingChatMessageContent("assistant", "hi", choice_index=np.int64(2))
    assert chunk.choice_index == 2
    assert type(chunk.choice_index) is int
    with pytest.raises(InvalidTypeError) as info:
        chunk.choice_index = "x"  # type: ignore[assignment]
    assert str(info.value) == "choice_index: expected an int, got str"
    assert chunk.choice_index == 2


def test_a_later_reasoning_fragment_names_the_provider_as_it_gives_the_signature():
    # What was seen: provider None: only the first fragment's provider was kept.
    from semantic_chat import StreamingReasoningContent

    merged = Chunk.accumulate([
        Chunk("assistant", items=[StreamingReasoningContent("think")]),
        Chunk(items=[StreamingReasoningContent("", signature="sig", provider="anthropic")]),
    ]).to_message()
    assert (merged.items[0].text, merged.items[0].signature, merged.items[0].provider) == (
        "think", "sig", "anthropic")


def test_a_chunk_without_a_role_reads_back_without_a_class():
    # What was seen: from_json(to_json(chunk)) of a chunk after the first (no role) said
    # "expected a history, a message or an item, got an object with none of these keys".
    chunk = Chunk(content="lo")
    text = to_json(chunk)
    assert '"message_type":"streaming"' in text
    assert from_json(text) == chunk
