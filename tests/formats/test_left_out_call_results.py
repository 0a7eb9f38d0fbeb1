"""A call the Anthropic or Gemini writer leaves out takes the results answering it along.

The API refuses a ``tool_result`` / ``function_response`` without its call, so under
``on_unsupported="warn"`` (or ``"drop"``) a history with an OpenAI custom tool call, a call
without an id (Anthropic), or a call outside an assistant message must still give a valid
request: each result answering a call left out goes too, reported at its own path.
"""

from __future__ import annotations

import re
import warnings
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from semantic_chat import (
    AuthorRole,
    ChatHistory,
    ChatMessageContent,
    FunctionCallContent,
    FunctionResultContent,
)
from semantic_chat.errors import FormatError, UnsupportedContentError
from semantic_chat.formats import anthropic, gemini, openai_chat
from semantic_chat.formats.anthropic import writing as anthropic_writing
from semantic_chat.formats.gemini import writing as gemini_writing
from semantic_chat.formats.wire import ConversionWarning, collect_losses

_ANTHROPIC = "Anthropic Messages"
_GEMINI = "Gemini"
_CUSTOM = "as an OpenAI custom tool call (free-form input, not a JSON object)"


def _result_note(fmt: str, where: str, call: str) -> str:
    """The warning text for a result left out with its call."""
    return (
        f"{where}: dropped: {fmt} cannot carry a result whose call was left out ({call}): "
        "the API refuses a result without its call"
    )


def _custom_history() -> ChatHistory:
    """An OpenAI Chat history: a custom call and a function call, each answered."""
    return openai_chat.from_payload(
        [
            {"role": "user", "content": "hi"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {"id": "call_c", "type": "custom",
                     "custom": {"name": "grep", "input": "foo"}},
                    {"id": "call_f", "type": "function",
                     "function": {"name": "f", "arguments": "{}"}},
                ],
            },
            {"role": "tool", "tool_call_id": "call_c", "content": "found"},
            {"role": "tool", "tool_call_id": "call_f", "content": "ok"},
        ]
    )


def _messages(caught: list[warnings.WarningMessage]) -> list[str]:
    return [str(each.message) for each in caught if each.category is ConversionWarning]


def _write_warned(write: Any, history: ChatHistory) -> tuple[dict[str, Any], list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        payload = write(history, on_unsupported="warn")
    return payload, _messages(caught)


# --- the reproduction: an OpenAI custom call ----------------------------------------------


def test_anthropic_leaves_out_the_result_of_a_custom_call() -> None:
    payload, notes = _write_warned(anthropic.to_payload, _custom_history())
    assert payload == {
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant",
             "content": [{"type": "tool_use", "id": "call_f", "name": "f", "input": {}}]},
            {"role": "user",
             "content": [{"type": "tool_result", "tool_use_id": "call_f", "content": "ok"}]},
        ]
    }
    assert notes == [
        f"messages[1].items[0]: dropped: {_ANTHROPIC} cannot carry function_call content "
        + _CUSTOM,
        _result_note(_ANTHROPIC, "messages[2].items[0]", "messages[1].items[0]"),
    ]


def test_gemini_leaves_out_the_result_of_a_custom_call() -> None:
    payload, notes = _write_warned(gemini.to_payload, _custom_history())
    assert payload == {
        "contents": [
            {"role": "user", "parts": [{"text": "hi"}]},
            {"role": "model",
             "parts": [{"function_call": {"id": "call_f", "name": "f", "args": {}}}]},
            {"role": "user", "parts": [
                {"function_response": {"id": "call_f", "name": "f",
                                       "response": {"result": "ok"}}}]},
        ]
    }
    assert notes == [
        f"messages[1].items[0]: dropped: {_GEMINI} cannot carry function_call content {_CUSTOM}",
        _result_note(_GEMINI, "messages[2].items[0]", "messages[1].items[0]"),
    ]


@pytest.mark.parametrize("write", [anthropic.to_payload, gemini.to_payload])
def test_the_result_note_is_a_conversion_warning_at_its_path(write: Any) -> None:
    with pytest.warns(ConversionWarning, match=re.escape(
        "messages[2].items[0]: dropped: "
    ) + ".*a result whose call was left out \\(messages\\[1\\]\\.items\\[0\\]\\)"):
        write(_custom_history(), on_unsupported="warn")


@pytest.mark.parametrize("write", [anthropic.to_payload, gemini.to_payload])
def test_drop_leaves_the_call_and_its_results_out_silently(write: Any) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        dropped = write(_custom_history(), on_unsupported="drop")
    warned, _ = _write_warned(write, _custom_history())
    assert dropped == warned


@pytest.mark.parametrize("write", [anthropic.to_payload, gemini.to_payload])
@pytest.mark.parametrize("policy", [None, "error"])
def test_error_refuses_the_call_first_as_before(write: Any, policy: str | None) -> None:
    with pytest.raises(UnsupportedContentError, match=re.escape(_CUSTOM)) as raised:
        write(_custom_history(), on_unsupported=policy)
    assert raised.value.path == "messages[1].items[0]"


@pytest.mark.parametrize("write", [anthropic.to_payload, gemini.to_payload])
def test_validation_sees_the_call_as_the_fault_and_the_result_as_a_warning(write: Any) -> None:
    with collect_losses() as losses:
        write(_custom_history(), on_unsupported="error")
    assert [(path, action) for path, _, action in losses] == [
        ("messages[1].items[0]", "error"),
        ("messages[2].items[0]", "warn"),
    ]


# --- the other calls each writer leaves out -----------------------------------------------


def _history(call_role: AuthorRole, call: FunctionCallContent) -> ChatHistory:
    """A user turn, ``call`` in a message of ``call_role``, and a tool message answering it."""
    return ChatHistory(
        [
            ChatMessageContent(AuthorRole.USER, "hi"),
            ChatMessageContent(call_role, items=[call]),
            ChatMessageContent(
                AuthorRole.TOOL,
                items=[FunctionResultContent("call_x", "done", name="f")],
            ),
            ChatMessageContent(AuthorRole.USER, "next"),
        ]
    )


@pytest.mark.parametrize(
    ("call_role", "why"),
    [
        (AuthorRole.USER, "in a user message"),
        (AuthorRole.TOOL, "in a tool message"),
        (AuthorRole.SYSTEM, "in a system message (text only)"),
    ],
)
def test_anthropic_leaves_out_the_result_of_a_call_outside_an_assistant_message(
    call_role: AuthorRole, why: str
) -> None:
    history = _history(call_role, FunctionCallContent("call_x", "f", "{}"))
    payload, notes = _write_warned(anthropic.to_payload, history)
    assert payload == {"messages": [{"role": "user", "content": [
        {"type": "text", "text": "hi"}, {"type": "text", "text": "next"}]}]}
    assert notes[-2:] == [
        f"messages[1].items[0]: dropped: {_ANTHROPIC} cannot carry function_call content {why}",
        _result_note(_ANTHROPIC, "messages[2].items[0]", "messages[1].items[0]"),
    ]


@pytest.mark.parametrize(
    ("call_role", "why"),
    [
        (AuthorRole.USER, "in a user message"),
        (AuthorRole.TOOL, "in a tool message"),
        (AuthorRole.SYSTEM, "in a system message"),
    ],
)
def test_gemini_leaves_out_the_result_of_a_call_outside_an_assistant_message(
    call_role: AuthorRole, why: str
) -> None:
    history = _history(call_role, FunctionCallContent("call_x", "f", "{}"))
    payload, notes = _write_warned(gemini.to_payload, history)
    assert payload == {"contents": [
        {"role": "user", "parts": [{"text": "hi"}]},
        {"role": "user", "parts": [{"text": "next"}]},
    ]}
    assert notes[-2:] == [
        f"messages[1].items[0]: dropped: {_GEMINI} cannot carry function_call content {why}",
        _result_note(_GEMINI, "messages[2].items[0]", "messages[1].items[0]"),
    ]


def test_gemini_matches_a_made_up_id_like_any_other() -> None:
    made = "gemini-call-1-0"
    history = ChatHistory(
        [
            ChatMessageContent(AuthorRole.USER, items=[FunctionCallContent(made, "f", "{}")]),
            ChatMessageContent(AuthorRole.TOOL,
                               items=[FunctionResultContent(made, "done", name="f")]),
        ]
    )
    payload, notes = _write_warned(gemini.to_payload, history)
    assert payload == {"contents": []}
    assert notes[-1] == _result_note(_GEMINI, "messages[1].items[0]", "messages[0].items[0]")


def test_anthropic_call_without_an_id_takes_no_other_result_along() -> None:
    history = ChatHistory(
        [
            ChatMessageContent(AuthorRole.USER, "hi"),
            ChatMessageContent(AuthorRole.ASSISTANT, items=[
                FunctionCallContent(None, "f", "{}"), FunctionCallContent("call_g", "g", "{}")]),
            ChatMessageContent(AuthorRole.TOOL, items=[FunctionResultContent("call_g", "ok")]),
        ]
    )
    payload, notes = _write_warned(anthropic.to_payload, history)
    assert payload["messages"][1:] == [
        {"role": "assistant",
         "content": [{"type": "tool_use", "id": "call_g", "name": "g", "input": {}}]},
        {"role": "user",
         "content": [{"type": "tool_result", "tool_use_id": "call_g", "content": "ok"}]},
    ]
    assert notes == [
        f"messages[1].items[0]: dropped: {_ANTHROPIC} cannot carry function_call content "
        "without an id"
    ]


# --- among other results -------------------------------------------------------------------


def _among_others() -> ChatHistory:
    """A custom call's result between two others in one later tool message."""
    history = openai_chat.from_payload(
        [
            {"role": "user", "content": "hi"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {"id": "call_a", "type": "function",
                     "function": {"name": "a", "arguments": "{}"}},
                    {"id": "call_c", "type": "custom",
                     "custom": {"name": "grep", "input": "foo"}},
                    {"id": "call_b", "type": "function",
                     "function": {"name": "b", "arguments": "{}"}},
                ],
            },
            {"role": "user", "content": "and?"},
        ]
    )
    history.add_message(
        ChatMessageContent(
            AuthorRole.TOOL,
            items=[
                FunctionResultContent("call_a", "A", name="a"),
                FunctionResultContent("call_c", "C", name="grep"),
                FunctionResultContent("call_b", "B", name="b"),
            ],
        )
    )
    return history


def test_anthropic_leaves_out_only_the_result_of_the_call_left_out() -> None:
    payload, notes = _write_warned(anthropic.to_payload, _among_others())
    assert payload["messages"][2] == {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "call_a", "content": "A"},
        {"type": "tool_result", "tool_use_id": "call_b", "content": "B"},
        {"type": "text", "text": "and?"},
    ]}
    assert notes[-1] == _result_note(_ANTHROPIC, "messages[3].items[1]", "messages[1].items[1]")


def test_gemini_leaves_out_only_the_result_of_the_call_left_out() -> None:
    payload, notes = _write_warned(gemini.to_payload, _among_others())
    assert payload["contents"][3] == {"role": "user", "parts": [
        {"function_response": {"id": "call_a", "name": "a", "response": {"result": "A"}}},
        {"function_response": {"id": "call_b", "name": "b", "response": {"result": "B"}}},
    ]}
    assert notes[-1] == _result_note(_GEMINI, "messages[3].items[1]", "messages[1].items[1]")


# --- bad input -----------------------------------------------------------------------------


@pytest.mark.filterwarnings("ignore::semantic_chat.formats.wire.ConversionWarning")
@pytest.mark.parametrize("write", [anthropic.to_payload, gemini.to_payload])
def test_a_broken_result_after_a_call_left_out_is_refused_at_its_field(write: Any) -> None:
    history = _custom_history()
    result = history.messages[2].items[0]
    object.__setattr__(result, "_call_id", ["call_c"])  # broken by hand: unhashable
    with pytest.raises(FormatError, match=r"call_id") as raised:
        write(history, on_unsupported="warn")
    assert raised.value.path == "messages[2].items[0].call_id"


# --- properties ----------------------------------------------------------------------------


@st.composite
def _histories_with_custom_calls(draw: st.DrawFn) -> ChatHistory:
    """OpenAI Chat histories of rounds of calls (some custom), each answered in some order."""
    payload: list[dict[str, Any]] = []
    count = 0
    for _ in range(draw(st.integers(1, 3))):
        payload.append({"role": "user", "content": draw(st.sampled_from(["hi", "go", "more"]))})
        calls = []
        for _ in range(draw(st.integers(1, 3))):
            count += 1
            call_id = f"call_{count}"
            if draw(st.booleans()):
                calls.append({"id": call_id, "type": "custom",
                              "custom": {"name": "grep", "input": "x"}})
            else:
                calls.append({"id": call_id, "type": "function",
                              "function": {"name": "f", "arguments": "{}"}})
        payload.append({"role": "assistant", "content": None, "tool_calls": calls})
        for call in draw(st.permutations(calls)):
            payload.append({"role": "tool", "tool_call_id": call["id"], "content": "r"})
    history = openai_chat.from_payload(payload)
    if draw(st.booleans()):  # results of one round in one tool message, as Gemini reads them
        last = history.messages[-1]
        if last.role == AuthorRole.TOOL and len(history.messages) > 3:
            before = history.messages[-2]
            if before.role == AuthorRole.TOOL:
                before.items.extend(last.items)
                history.messages.pop()
    return history


@given(_histories_with_custom_calls())
def test_anthropic_never_sends_a_result_without_its_call(history: ChatHistory) -> None:
    payload = anthropic.to_payload(history, on_unsupported="drop")
    calls = {block["id"] for turn in payload["messages"] if type(turn["content"]) is list
             for block in turn["content"] if block["type"] == "tool_use"}
    answered = [block["tool_use_id"] for turn in payload["messages"]
                if type(turn["content"]) is list
                for block in turn["content"] if block["type"] == "tool_result"]
    assert all(call_id in calls for call_id in answered)
    assert sorted(answered) == sorted(calls)  # every call kept keeps its result
    general = anthropic_writing._to_payload(history, "drop", True, False)
    assert general == payload


@given(_histories_with_custom_calls())
def test_gemini_never_sends_a_result_without_its_call(history: ChatHistory) -> None:
    payload = gemini.to_payload(history, on_unsupported="drop")
    parts = [part for content in payload["contents"] for part in content["parts"]]
    calls = {part["function_call"]["id"] for part in parts if "function_call" in part}
    answered = [part["function_response"]["id"] for part in parts
                if "function_response" in part]
    assert all(call_id in calls for call_id in answered)
    assert sorted(answered) == sorted(calls)
    keys = gemini_writing.spelling_keys("snake")
    assert gemini_writing._to_payload(history, "drop", keys, False) == payload
