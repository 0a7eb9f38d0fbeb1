"""`repair` and `validate`: pairing of calls and results, each format's order, the changes."""

from __future__ import annotations

import warnings
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from semantic_chat import (
    AudioContent,
    ChatHistory,
    ChatMessageContent,
    ChatOptions,
    FunctionCallContent,
    FunctionResultContent,
    TextContent,
    formats,
)
from semantic_chat.errors import FormatError, InvalidTypeError
from semantic_chat.formats import Problem, WireFormat, registry
from semantic_chat.formats.wire import unsupported_field
from semantic_chat.history_ops.repair import MISSING_RESULT, Change, repair, validate
from semantic_chat.serialization import to_dict

FORMATS = [None, *formats.names()]


def call(call_id: str | None, name: str = "f", arguments: str = "{}") -> FunctionCallContent:
    return FunctionCallContent(call_id, name, arguments)


def result(call_id: str | None, value: str = "ok", **fields: Any) -> FunctionResultContent:
    return FunctionResultContent(call_id, value, **fields)


def assistant(*items: Any) -> ChatMessageContent:
    return ChatMessageContent("assistant", items=list(items))


def tool(*items: FunctionResultContent) -> ChatMessageContent:
    return ChatMessageContent("tool", items=list(items))


def missing(call_id: str | None, name: str = "f") -> FunctionResultContent:
    return FunctionResultContent(call_id, MISSING_RESULT, name=name, is_error=True)


def shape(history: ChatHistory) -> list[tuple[str, list[str]]]:
    """Each message's role and its items as text, to compare a history at a glance."""
    return [(str(message.role), [str(item) for item in message.items]) for message in history]


# --- Change ---------------------------------------------------------------------------------


def test_change_reads_as_a_sentence_and_is_a_frozen_value() -> None:
    change = Change("messages[4]", "dropped", "an orphan result for call 'x'")
    assert str(change) == "messages[4]: dropped an orphan result for call 'x'"
    assert change == Change("messages[4]", "dropped", "an orphan result for call 'x'")
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        change.path = "messages[5]"  # type: ignore[misc]


# --- pairing ----------------------------------------------------------------------------------


def test_a_paired_history_is_returned_unchanged_with_the_same_messages() -> None:
    history = ChatHistory(
        [
            ChatMessageContent("user", "weather in Paris and Rome?"),
            assistant(call("a", "weather"), call("b", "weather")),
            tool(result("b", "12")),  # parallel results in any order, over two messages
            tool(result("a", "18")),
            ChatMessageContent("assistant", "18 and 12"),
        ],
        options=ChatOptions(model="m", max_tokens=100),
    )
    for name in FORMATS:
        repaired, changes = repair(history, for_format=name)
        assert changes == []
        assert repaired == history
        assert repaired is not history
        assert all(kept is given for kept, given in zip(repaired, history, strict=True))
        assert repaired.options is history.options
        # Semantic Kernel's JSON has no request options: leaving them out is reported
        lost = {"options.model", "options.max_tokens"} if name in ("sk-python", "sk-dotnet") else set()
        problems = validate(history, name)
        assert {problem.path for problem in problems} == lost
        assert all(problem.severity == "warning" for problem in problems)


def test_an_orphan_result_is_dropped_with_its_message() -> None:
    history = ChatHistory([ChatMessageContent("user", "hi"), tool(result("x"))])
    repaired, changes = repair(history)
    assert changes == [Change("messages[1]", "dropped", "an orphan result for call 'x'")]
    assert shape(repaired) == [("user", ["hi"])]
    assert validate(history) == [
        Problem("messages[1].items[0]", "a result for call 'x', which no earlier call makes")
    ]


def test_an_orphan_among_results_is_dropped_from_a_copy_of_the_message() -> None:
    answered = result("a", "18")
    history = ChatHistory([assistant(call("a")), tool(result("zzz"), answered)])
    repaired, changes = repair(history)
    assert changes == [Change("messages[1].items[0]", "dropped", "an orphan result for call 'zzz'")]
    assert repaired.messages == [history[0], tool(answered)]
    assert repaired[1] is not history[1]
    assert repaired[1].items[0] is answered  # the items kept are shared, not copied
    assert len(history[1].items) == 2  # the input is untouched


def test_a_result_before_its_call_is_an_orphan_and_the_call_is_answered() -> None:
    history = ChatHistory([tool(result("a", "early")), assistant(call("a"))])
    repaired, changes = repair(history)
    assert [str(change) for change in changes] == [
        "messages[0]: dropped an orphan result for call 'a'",
        "messages[1].items[0]: added an error result for call 'a' (f), which was never answered",
    ]
    assert repaired.messages == [history[1], tool(missing("a"))]


def test_an_empty_history_needs_nothing() -> None:
    for name in FORMATS:
        assert repair(ChatHistory(), for_format=name) == (ChatHistory(), [])
        assert validate(ChatHistory(), name) == []


def test_a_second_result_for_one_call_is_dropped() -> None:
    history = ChatHistory([assistant(call("a")), tool(result("a", "1")), tool(result("a", "2"))])
    repaired, changes = repair(history)
    assert changes == [Change("messages[2]", "dropped", "a second result for call 'a'")]
    assert shape(repaired) == [("assistant", ["f({})"]), ("tool", ["1"])]
    assert validate(history) == [
        Problem("messages[2].items[0]", "a second result for call 'a', which is answered already")
    ]


def test_a_call_never_answered_gets_an_error_result_after_the_answered_ones() -> None:
    history = ChatHistory(
        [
            ChatMessageContent("user", "go"),
            assistant(TextContent("let me see"), call("a", "f"), call("b", "g"), call("c", "h")),
            tool(result("c", "3")),
            tool(result("a", "1")),
            ChatMessageContent("user", "and?"),
        ]
    )
    repaired, changes = repair(history)
    assert changes == [
        Change(
            "messages[1].items[2]",
            "added",
            "an error result for call 'b' (g), which was never answered",
        )
    ]
    assert repaired.messages == [
        *history[:4],
        tool(missing("b", "g")),
        history[4],
    ]
    assert repaired[4].items[0].is_error
    assert validate(history) == [Problem("messages[1].items[2]", "call 'b' (g) has no result")]


def test_unanswered_calls_at_the_end_are_answered_in_call_order() -> None:
    history = ChatHistory([assistant(call("a"), call("b", "g"))])
    repaired, changes = repair(history)
    assert [change.path for change in changes] == ["messages[0].items[0]", "messages[0].items[1]"]
    assert repaired.messages == [history[0], tool(missing("a"), missing("b", "g"))]


def test_a_result_after_another_message_is_moved_to_follow_its_call() -> None:
    late = result("b", "2")
    history = ChatHistory(
        [
            assistant(call("a"), call("b")),
            tool(result("a", "1")),
            ChatMessageContent("user", "hurry"),
            tool(late),
        ]
    )
    repaired, changes = repair(history)
    assert changes == [
        Change("messages[3]", "moved", "the result for call 'b' (f) to follow its call (messages[0].items[1])")
    ]
    assert repaired.messages == [history[0], history[1], tool(late), history[2]]
    assert validate(history) == [
        Problem(
            "messages[3].items[0]",
            "the result for call 'b' (f) is not right after its call (messages[0].items[1])",
        )
    ]


def test_moved_and_added_results_share_one_message_in_call_order() -> None:
    history = ChatHistory(
        [
            assistant(call("a"), call("b"), call("c")),
            ChatMessageContent("user", "x"),
            tool(result("c", "3"), result("q", "?")),
        ]
    )
    repaired, changes = repair(history)
    assert [str(change) for change in changes] == [
        "messages[0].items[0]: added an error result for call 'a' (f), which was never answered",
        "messages[0].items[1]: added an error result for call 'b' (f), which was never answered",
        "messages[2].items[0]: moved the result for call 'c' (f) to follow its call (messages[0].items[2])",
        "messages[2].items[1]: dropped an orphan result for call 'q'",
        "messages[2]: dropped the message, empty once its results were moved or dropped",
    ]
    assert repaired.messages == [
        history[0],
        tool(missing("a"), missing("b"), result("c", "3")),
        history[1],
    ]


def test_results_leading_a_user_message_are_moved_into_a_tool_message_before_it() -> None:
    history = ChatHistory(
        [assistant(call("a")), ChatMessageContent("user", items=[result("a", "1"), TextContent("next")])]
    )
    repaired, changes = repair(history)
    assert changes == [
        Change(
            "messages[1].items[0]",
            "moved",
            "the result for call 'a' (f) to follow its call (messages[0].items[0])",
        )
    ]
    assert shape(repaired) == [("assistant", ["f({})"]), ("tool", ["1"]), ("user", ["next"])]


def test_a_reused_id_answers_the_latest_call() -> None:
    history = ChatHistory(
        [
            assistant(call("c1", "f")),
            ChatMessageContent("user", "again"),
            assistant(call("c1", "g")),
            tool(result("c1", "from g")),
        ]
    )
    repaired, changes = repair(history)
    assert [str(change) for change in changes] == [
        "messages[0].items[0]: added an error result for call 'c1' (f), which was never answered",
        "messages[2].items[0]: renamed call 'c1' (g) to 'c1-2', with its results: the call at "
        "messages[0].items[0] has its id (each call's id must be unique)",
    ]
    assert shape(repaired) == [
        ("assistant", ["f({})"]),
        ("tool", [MISSING_RESULT]),
        ("user", ["again"]),
        ("assistant", ["g({})"]),
        ("tool", ["from g"]),
    ]
    assert [item.id for item in repaired[3].items] == ["c1-2"]
    assert [item.call_id for item in repaired[4].items] == ["c1-2"]


def test_calls_without_ids_pair_by_name_as_gemini_does() -> None:
    history = ChatHistory(
        [
            assistant(call(None, "f"), call(None, "g"), call(None, "f")),
            tool(result(None, "g1", name="g"), result(None, "f1", name="f")),
            tool(result(None, "?")),  # neither id nor name: the first unanswered call
        ]
    )
    repaired, changes = repair(history)
    assert changes == []
    assert repaired == history
    lone = ChatHistory([assistant(call(None, "f")), ChatMessageContent("user", "x"), tool(result(None))])
    repaired, changes = repair(lone)
    assert [str(change) for change in changes] == [
        "messages[0].items[0]: added an error result for a f call, which was never answered",
        "messages[2]: dropped an orphan result for a call without an id",
    ]
    assert repaired.messages == [lone[0], tool(missing(None)), lone[1]]


def test_a_format_without_an_error_flag_gets_the_error_in_the_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def write(history: ChatHistory, *, on_unsupported: Any = None) -> list[Any]:
        for m, message in enumerate(history):
            for i, item in enumerate(message.items):
                if isinstance(item, FunctionResultContent) and item.is_error:
                    where = f"messages[{m}].items[{i}].is_error"
                    unsupported_field(on_unsupported, "Flagless", where, "a result's error flag")
        return []

    flagless = WireFormat("flagless", "no error flag", ChatHistory, write, lambda payload: 0)
    monkeypatch.setitem(registry._FORMATS, "flagless", flagless)
    history = ChatHistory([assistant(call("a", "f"))])
    repaired, _ = repair(history, for_format="flagless")
    assert repaired[1].items == [FunctionResultContent("a", "Error: " + MISSING_RESULT, name="f")]
    assert validate(repaired, "flagless") == []
    flagged, _ = repair(history)
    assert validate(flagged, "flagless") == [
        Problem("messages[1].items[0].is_error", "Flagless cannot carry a result's error flag", "warning")
    ]


# --- each format's order ------------------------------------------------------------------


@pytest.mark.parametrize(("name", "label"), [("anthropic", "Anthropic"), ("gemini", "Gemini")])
def test_instructions_go_to_the_top_and_runs_merge_for_anthropic_and_gemini(
    name: str, label: str
) -> None:
    history = ChatHistory(
        [
            ChatMessageContent("system", "be brief"),
            ChatMessageContent("user", "hi", name="ada"),
            ChatMessageContent("developer", "use metric"),
            ChatMessageContent("user", "there"),
            ChatMessageContent("assistant", "hello"),
            ChatMessageContent("assistant", items=[call("a")]),
            tool(result("a")),
            ChatMessageContent("user", "thanks"),
        ]
    )
    repaired, changes = repair(history, for_format=name)
    alternate = f"({label} needs user and assistant turns to alternate)"
    assert [str(change) for change in changes] == [
        f"messages[2]: moved a developer message to the top: {label} takes instructions only there",
        f"messages[3]: merged into messages[1]: a second user message in a row {alternate}",
        f"messages[5]: merged into messages[4]: a second assistant message in a row {alternate}",
    ]
    assert shape(repaired) == [
        ("system", ["be brief"]),
        ("developer", ["use metric"]),
        ("user", ["hi", "there"]),
        ("assistant", ["hello", "f({})"]),
        ("tool", ["ok"]),
        ("user", ["thanks"]),
    ]
    assert repaired[2].name == "ada"  # the first message's fields are kept
    needs = f"{label} needs user and assistant turns to alternate"
    problems = validate(history, name)
    assert problems[:2] == [
        Problem("messages[3]", f"a second user message in a row: {needs}", "warning"),
        Problem("messages[5]", f"a second assistant message in a row: {needs}", "warning"),
    ]
    assert [problem.path for problem in problems[2:]] == ["messages[1].name", "messages[2]"]
    assert validate(repaired, name) == [Problem("messages[2].name", problems[2].message, "warning")]


def test_other_formats_keep_the_order() -> None:
    history = ChatHistory(
        [
            ChatMessageContent("user", "hi"),
            ChatMessageContent("system", "late"),
            ChatMessageContent("user", "there"),
        ]
    )
    for name in ("openai-chat", "openai-responses", "semantic-chat"):
        repaired, changes = repair(history, for_format=name)
        assert changes == []
        assert repaired == history
        assert validate(history, name) == []


def test_validate_reports_what_the_writer_refuses_beside_the_pairing() -> None:
    audio = AudioContent(data=b"RIFF", mime_type="audio/wav")
    history = ChatHistory([ChatMessageContent("user", items=[audio]), tool(result("x"))])
    problems = validate(history, "anthropic")
    assert problems[0] == Problem(
        "messages[1].items[0]", "a result for call 'x', which no earlier call makes"
    )
    assert problems[1].path == "messages[0].items[0]"
    assert problems[1].severity == "error"
    assert "audio" in problems[1].message
    repaired, _ = repair(history, for_format="anthropic")
    assert [problem.path for problem in validate(repaired, "anthropic")] == ["messages[0].items[0]"]


def test_an_orphan_is_reported_once_for_gemini() -> None:
    # Written, the orphan (no name to send) would make the writer go message by message,
    # and each result after it would be reported for want of its call.
    history = ChatHistory(
        [
            assistant(call("a"), call("b")),
            tool(result("z"), result("a", metadata={"x": 1})),
            tool(result("b")),
        ]
    )
    assert validate(history, "gemini") == [
        Problem("messages[1].items[0]", "a result for call 'z', which no earlier call makes"),
        Problem("messages[1].items[1].metadata[\"x\"]", "Gemini cannot carry metadata", "warning"),
    ]


# --- bad input ----------------------------------------------------------------------------


def test_bad_input_is_refused_at_its_name() -> None:
    with pytest.raises(InvalidTypeError, match=r"^history: expected a ChatHistory, got list"):
        repair([ChatMessageContent("user", "hi")])  # type: ignore[arg-type]
    with pytest.raises(InvalidTypeError, match=r"^history: expected a ChatHistory, got str"):
        validate("hi")  # type: ignore[arg-type]
    with pytest.raises(FormatError, match=r"^for_format: unknown format 'claude'") as raised:
        repair(ChatHistory(), for_format="claude")
    assert raised.value.path == "for_format"
    with pytest.raises(FormatError, match=r"^for_format: unknown format 'x'"):
        validate(ChatHistory(), "x")


# --- the property -----------------------------------------------------------------------------

_TEXTS = st.text(min_size=1, max_size=8)
_ARGUMENTS = st.sampled_from(["{}", '{"city": "Paris"}', {"n": 1}])


@st.composite
def messy_histories(draw: st.DrawFn) -> ChatHistory:
    """Histories of text, parallel calls and results gone wrong in every way a program errs.

    Results answer any call made before (late, twice, out of order, spread over messages,
    in user or even assistant messages), or none; calls go unanswered; ids are reused;
    instructions come anywhere; roles repeat. Only what every format carries: text, calls
    with ids and object arguments, results of text (the error results are `repair`'s).
    """
    messages: list[ChatMessageContent] = []
    made: list[FunctionCallContent] = []
    for _ in range(draw(st.integers(0, 10))):
        kind = draw(
            st.sampled_from(
                [
                    "user", "assistant", "system", "developer", "calls", "results", "orphan",
                    "mixed", "user results", "assistant results",
                ]
            )
        )
        if kind in ("user", "assistant", "system", "developer"):
            messages.append(ChatMessageContent(kind, draw(_TEXTS)))
        elif kind == "calls":
            calls = [
                FunctionCallContent(
                    draw(st.sampled_from(["a", "b", "fn.a:0", f"call_{len(made) + k}"])),
                    draw(st.sampled_from(["weather", "time"])),
                    draw(_ARGUMENTS),
                )
                for k in range(draw(st.integers(1, 3)))
            ]
            made.extend(calls)
            said = [TextContent(draw(_TEXTS))] if draw(st.booleans()) else []
            messages.append(ChatMessageContent("assistant", items=[*said, *calls]))
        elif kind in ("results", "mixed", "user results", "assistant results") and made:
            answered = draw(st.lists(st.sampled_from(made), min_size=1, max_size=4))
            results = [
                FunctionResultContent(c.id, draw(_TEXTS)) for c in answered
            ]
            if kind == "mixed":
                messages.append(ChatMessageContent("user", items=[*results, TextContent("and")]))
            elif kind == "user results":
                messages.append(ChatMessageContent("user", items=results))
            elif kind == "assistant results":  # results where no format takes them
                messages.append(ChatMessageContent("assistant", items=[TextContent("so"), *results]))
            else:
                messages.append(ChatMessageContent("tool", items=results))
        else:
            messages.append(tool(FunctionResultContent("nobody", draw(_TEXTS))))
    return ChatHistory(messages)


@given(messy_histories())
def test_repair_makes_every_format_take_any_history(history: ChatHistory) -> None:
    before = to_dict(history)
    objects = [(message, list(message.items)) for message in history]
    for name in FORMATS:
        repaired, changes = repair(history, for_format=name)
        assert validate(repaired, name) == []
        assert bool(changes) == bool(validate(history, name))
        again, more = repair(repaired, for_format=name)
        assert more == []
        assert again == repaired
        if name is not None:
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                formats.get(name).to_payload(repaired)
        calls = {item.id for message in repaired for item in message.function_calls}
        assert {item.call_id for message in repaired for item in message.function_results} == calls
    assert to_dict(history) == before
    for (message, items), now in zip(objects, history, strict=True):
        assert message is now
        assert all(a is b for a, b in zip(items, now.items, strict=True))


def _gemini_reply(city: str) -> dict[str, Any]:
    """A Gemini Developer API answer: a function call without an id."""
    call_part = {"function_call": {"name": "get_weather", "args": {"city": city}}}
    content = {"role": "model", "parts": [call_part]}
    return {"candidates": [{"content": content, "finish_reason": "STOP", "index": 0}]}


def _gemini_loop() -> ChatHistory:
    """An agent loop that reads each Gemini reply with from_response: ids made twice alike."""
    from semantic_chat.formats import gemini

    history = ChatHistory()
    history.add_user_message("Weather in Paris?")
    first = gemini.from_response(_gemini_reply("Paris"))
    history.append(first)
    history.add_tool_message({"t": 18}, call_id=first.function_calls[0].id)
    history.add_user_message("And in Oslo?")
    second = gemini.from_response(_gemini_reply("Oslo"))
    history.append(second)
    history.add_tool_message({"t": 3}, call_id=second.function_calls[0].id)
    return history


def test_calls_read_one_reply_at_a_time_from_gemini_reuse_an_id_anthropic_refuses() -> None:
    history = _gemini_loop()
    assert [str(problem) for problem in validate(history, "anthropic")] == [
        "messages[4].items[0]: call 'gemini-call-0-0' (get_weather) has the id of the call at "
        "messages[1].items[0]: Anthropic needs each call's id to be unique"
    ]
    fixed, changes = repair(history, for_format="anthropic")
    assert [str(change) for change in changes] == [
        "messages[4].items[0]: renamed call 'gemini-call-0-0' (get_weather) to "
        "'gemini-call-0-0-2', with its results: the call at messages[1].items[0] has its id "
        "(Anthropic needs each call's id to be unique)"
    ]
    blocks = [
        (block["type"], block.get("id") or block.get("tool_use_id"))
        for turn in formats.anthropic.to_payload(fixed)["messages"]
        if isinstance(turn["content"], list)
        for block in turn["content"]
        if block["type"] != "text"
    ]
    assert blocks == [
        ("tool_use", "gemini-call-0-0"),
        ("tool_result", "gemini-call-0-0"),
        ("tool_use", "gemini-call-0-0-2"),
        ("tool_result", "gemini-call-0-0-2"),
    ]
    assert validate(fixed, "anthropic") == []
    assert history[4].items[0].id == "gemini-call-0-0"  # nothing given is changed


def test_gemini_takes_reused_ids_its_writer_leaves_out() -> None:
    history = _gemini_loop()
    assert validate(history, "gemini") == []
    assert repair(history, for_format="gemini") == (history, [])


def test_a_renamed_id_skips_the_suffixes_other_items_use() -> None:
    history = ChatHistory([
        assistant(call("c1")), tool(result("c1")),
        assistant(call("c1-2")), tool(result("c1-2")),
        assistant(call("c1")), tool(result("c1", "second")),
        assistant(call("c1")), tool(result("c1", "third")),
    ])
    fixed, changes = repair(history, for_format="openai-chat")
    assert [change.path for change in changes] == ["messages[4].items[0]", "messages[6].items[0]"]
    assert [item.id for message in fixed for item in message.function_calls] == [
        "c1", "c1-2", "c1-3", "c1-4"
    ]
    assert [item.call_id for message in fixed for item in message.items
            if isinstance(item, FunctionResultContent)] == ["c1", "c1-2", "c1-3", "c1-4"]
    assert "openai-chat needs each call's id to be unique" in changes[0].message


def test_a_call_id_anthropic_refuses_is_reported_and_replaced_with_its_results() -> None:
    history = ChatHistory([
        ChatMessageContent("user", "Weather in Paris?"),
        assistant(call("functions.get_weather:0", "get_weather"), call("functions_get_weather_0")),
        tool(result("functions.get_weather:0", "18 C"), result("functions_get_weather_0")),
    ])
    assert [str(problem) for problem in validate(history, "anthropic")] == [
        "messages[1].items[0]: call 'functions.get_weather:0' (get_weather) has an id Anthropic "
        "refuses (letters, digits, '_' and '-' only)"
    ]
    assert validate(history, "openai-chat") == []
    fixed, changes = repair(history, for_format="anthropic")
    assert [str(change) for change in changes] == [
        "messages[1].items[0]: renamed call 'functions.get_weather:0' (get_weather) to "
        "'functions_get_weather_0-2', with its results: Anthropic refuses its id (letters, "
        "digits, '_' and '-' only)"
    ]
    assert [item.id for item in fixed[1].items] == [
        "functions_get_weather_0-2", "functions_get_weather_0"
    ]
    assert [item.call_id for item in fixed[2].items] == [
        "functions_get_weather_0-2", "functions_get_weather_0"
    ]
    assert validate(fixed, "anthropic") == []


def _answered_by_name() -> ChatHistory:
    """A Gemini reply's call (its id made up) answered Gemini's way: by name, without an id."""
    from semantic_chat.formats import gemini

    reply = gemini.from_response(_gemini_reply("Paris"))
    history = ChatHistory()
    history.add_user_message("Paris?")
    history.append(reply)
    history.append(tool(FunctionResultContent(None, {"t": 18}, name="get_weather")))
    history.add_assistant_message("18 degrees.")
    return history


def test_a_result_without_an_id_answers_the_call_of_its_name_whatever_its_id() -> None:
    from semantic_chat.history_ops import filter as keep_only
    from semantic_chat.history_ops import spans

    history = _answered_by_name()
    assert validate(history, "gemini") == []
    assert repair(history, for_format="gemini") == (history, [])
    assert spans(history) == [(0, 1), (1, 3), (3, 4)]
    kept = keep_only(history, exclude_roles="tool")
    assert [(str(m.role), [type(i).__name__ for i in m.items]) for m in kept] == [
        ("user", ["TextContent"]), ("assistant", ["TextContent"])
    ]


def test_a_result_answering_by_name_gets_its_calls_id_for_a_format_pairing_by_id() -> None:
    history = _answered_by_name()
    assert [str(problem) for problem in validate(history, "anthropic")] == [
        "messages[2].items[0]: the result for call 'gemini-call-0-0' (get_weather) gives no "
        "call id: Anthropic pairs a result with its call by id"
    ]
    fixed, changes = repair(history, for_format="anthropic")
    assert [str(change) for change in changes] == [
        "messages[2].items[0]: added the id of call 'gemini-call-0-0' (get_weather) to its "
        "result: Anthropic pairs a result with its call by id"
    ]
    assert fixed[2].items[0].call_id == "gemini-call-0-0"
    assert history[2].items[0].call_id is None  # nothing given is changed
    assert fixed[1] is history[1]
    assert validate(fixed, "anthropic") == []
    assert formats.anthropic.to_payload(fixed)["messages"][2]["content"][0] == {
        "type": "tool_result", "tool_use_id": "gemini-call-0-0", "content": '{"t":18}'
    }


# --- blank turns: what the Anthropic and Gemini writers leave out, repair leaves out first ------


@pytest.mark.parametrize(("name", "text", "dropped"), [
    ("anthropic", "", True), ("anthropic", "  \n", True), ("anthropic", "hi", False),
    ("gemini", "", True), ("gemini", "  \n", False), ("openai-chat", "", False),
])
def test_repair_leaves_out_a_message_of_blank_text_the_format_refuses(name, text, dropped):
    history = ChatHistory([ChatMessageContent("user", text)])
    repaired, changes = repair(history, for_format=name)
    label = {"anthropic": "Anthropic", "gemini": "Gemini"}.get(name)
    assert [str(change) for change in changes] == (
        [f"messages[0]: dropped a message of blank text only ({label} refuses it)"]
        if dropped else [])
    assert len(repaired) == (0 if dropped else 1)
    assert validate(repaired, name) == []


@pytest.mark.parametrize("name", ["anthropic", "gemini"])
@pytest.mark.parametrize("role", ["user", "assistant", "tool"])
def test_repair_leaves_out_a_message_of_no_items_the_format_refuses(name, role):
    # What was seen: the Gemini writer sent a blocked reply's empty message as
    # {"role": "model", "parts": []}, which the API refuses ("contents.parts must not be
    # empty"); now both writers leave it out, and repair does first.
    history = ChatHistory([ChatMessageContent("user", "hi"), ChatMessageContent(role, items=[]),
                           ChatMessageContent("assistant", "hello")])
    repaired, changes = repair(history, for_format=name)
    label = {"anthropic": "Anthropic", "gemini": "Gemini"}[name]
    assert [str(change) for change in changes] == [
        f"messages[1]: dropped a message of no items ({label} refuses it)"]
    assert [(str(m.role), [item.text for item in m.items]) for m in repaired] == [
        ("user", ["hi"]), ("assistant", ["hello"])]
    assert validate(repaired, name) == []


def test_repair_keeps_a_message_of_no_items_for_formats_that_take_it():
    history = ChatHistory([ChatMessageContent("user", "hi"),
                           ChatMessageContent("assistant", items=[])])
    repaired, changes = repair(history, for_format="openai-chat")
    assert changes == []
    assert list(repaired) == list(history)


def test_repair_keeps_anthropics_empty_prefill_and_merges_around_a_blank_turn():
    history = ChatHistory([
        ChatMessageContent("user", "hi"), ChatMessageContent("assistant", " "),
        ChatMessageContent("user", "again"), ChatMessageContent("assistant", ""),
    ])
    repaired, changes = repair(history, for_format="anthropic")
    assert [str(change) for change in changes] == [
        "messages[1]: dropped a message of blank text only (Anthropic refuses it)",
        "messages[2]: merged into messages[0]: a second user message in a row (Anthropic "
        "needs user and assistant turns to alternate)",
    ]
    assert [(str(m.role), [item.text for item in m.items]) for m in repaired] == [
        ("user", ["hi", "again"]), ("assistant", [""])]
    assert validate(repaired, "anthropic") == []


def test_repair_for_anthropic_leaves_out_blank_instructions_among_several():
    # What was seen (ci profile): two system messages of blank text, which the writer would
    # write as blank text blocks (refused) and leave out with a warning, stayed after repair.
    history = ChatHistory([ChatMessageContent("system", ""), ChatMessageContent("system", " ")])
    repaired, changes = repair(history, for_format="anthropic")
    assert [str(change) for change in changes] == [
        "messages[0]: dropped a message of blank text only (Anthropic refuses it)",
        "messages[1]: dropped a message of blank text only (Anthropic refuses it)"]
    assert validate(repaired, "anthropic") == []
    lone = ChatHistory([ChatMessageContent("system", " ")])  # a system string, written as it is
    assert repair(lone, for_format="anthropic")[1] == []
