"""Edges of the session's writer changes that a tester met, each pinned to its exact output.

- A call left out and a later call written with the same id (Gemini's made-up ids repeat
  from turn to turn): only the results of the one left out go.
- A message read without its plugin (`UnknownMessage`): each of its keys is reported, as a
  loaded subclass's fields are.
- Anthropic: system messages of blank text only that would be text blocks leave ``system``
  out, with a warning.
- Anthropic: a citation it leaves out whole is not also reported key by key.
- The prompt text reads back a citation's keys of a newer version, as `from_json` does.
- Anthropic: a last assistant message (the prefill) loses its trailing whitespace, which the
  API refuses, with a warning; a message of nothing between turns is left out.
"""

from __future__ import annotations

import warnings
from typing import Any

import anthropic as sdk
import pydantic
import pytest

from semantic_chat import (
    ChatHistory,
    ChatMessageContent,
    FunctionCallContent,
    FunctionResultContent,
    TextContent,
    UnknownMessage,
)
from semantic_chat.errors import UnsupportedContentError
from semantic_chat.formats import anthropic, gemini, openai_chat
from semantic_chat.history_ops import repair, validate
from semantic_chat.serialization import from_json


def _written(write: Any, history: Any, **options: Any) -> tuple[Any, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        payload = write(history, **options)
    return payload, [str(note.message) for note in caught]


REUSED = openai_chat.from_payload([
    {"role": "user", "content": "hi"},
    {"role": "assistant", "content": None, "tool_calls": [
        {"id": "gemini-call-0-0", "type": "custom", "custom": {"name": "grep", "input": "foo"}}]},
    {"role": "tool", "tool_call_id": "gemini-call-0-0", "content": "found"},
    {"role": "user", "content": "now the weather"},
    {"role": "assistant", "content": None, "tool_calls": [
        {"id": "gemini-call-0-0", "type": "function",
         "function": {"name": "weather", "arguments": "{}"}}]},
    {"role": "tool", "tool_call_id": "gemini-call-0-0", "content": "sunny"},
])


def _left_out_notes(title: str) -> list[str]:
    return [
        f"messages[1].items[0]: dropped: {title} cannot carry function_call content as an "
        "OpenAI custom tool call (free-form input, not a JSON object)",
        f"messages[2].items[0]: dropped: {title} cannot carry a result whose call was left out "
        "(messages[1].items[0]): the API refuses a result without its call",
    ]


def test_gemini_keeps_the_result_of_a_later_call_with_the_id_of_one_left_out() -> None:
    payload, notes = _written(gemini.to_payload, REUSED, on_unsupported="warn")
    assert payload == {"contents": [
        {"role": "user", "parts": [{"text": "hi"}]},
        {"role": "user", "parts": [{"text": "now the weather"}]},
        {"role": "model", "parts": [{"function_call": {"name": "weather", "args": {}}}]},
        {"role": "user", "parts": [
            {"function_response": {"name": "weather", "response": {"result": "sunny"}}}]},
    ]}
    assert notes == _left_out_notes("Gemini")


def test_anthropic_keeps_the_result_of_a_later_call_with_the_id_of_one_left_out() -> None:
    payload, notes = _written(anthropic.to_payload, REUSED, on_unsupported="warn")
    assert payload == {"messages": [
        {"role": "user", "content": [
            {"type": "text", "text": "hi"}, {"type": "text", "text": "now the weather"}]},
        {"role": "assistant", "content": [
            {"type": "tool_use", "id": "gemini-call-0-0", "name": "weather", "input": {}}]},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "gemini-call-0-0", "content": "sunny"}]},
    ]}
    assert notes == _left_out_notes("Anthropic Messages")


def test_a_second_call_left_out_with_the_same_id_takes_its_results_too() -> None:
    history = openai_chat.from_payload([
        {"role": "user", "content": "hi"},
        *[
            message
            for _ in range(2)
            for message in (
                {"role": "assistant", "content": None, "tool_calls": [
                    {"id": "c1", "type": "custom", "custom": {"name": "grep", "input": "x"}}]},
                {"role": "tool", "tool_call_id": "c1", "content": "found"},
            )
        ],
        {"role": "user", "content": "thanks"},
    ])
    payload, notes = _written(gemini.to_payload, history, on_unsupported="drop")
    assert payload == {"contents": [
        {"role": "user", "parts": [{"text": "hi"}]},
        {"role": "user", "parts": [{"text": "thanks"}]},
    ]}
    assert notes == []


_PLUGINLESS = (
    '{"version":1,"messages":[{"role":"user","items":[{"type":"text","text":"Hi"}],'
    '"message_type":"hunt_session","session":"s2"}]}'
)


@pytest.mark.parametrize(
    ("write", "title", "payload"),
    [
        (anthropic.to_payload, "Anthropic Messages",
         {"messages": [{"role": "user", "content": "Hi"}]}),
        (openai_chat.to_payload, "OpenAI Chat Completions", [{"role": "user", "content": "Hi"}]),
        (gemini.to_payload, "Gemini", {"contents": [{"role": "user", "parts": [{"text": "Hi"}]}]}),
    ],
)
def test_the_keys_of_a_message_read_without_its_plugin_are_reported(
    write: Any, title: str, payload: Any
) -> None:
    history = from_json(_PLUGINLESS, ChatHistory)
    assert type(history[0]) is UnknownMessage
    assert _written(write, history) == (payload, [
        f"messages[0].session: dropped: {title} cannot carry the field 'session' of a "
        "'hunt_session' message (its plugin is not loaded)"
    ])
    assert _written(write, history, on_unsupported="drop") == (payload, [])
    with pytest.raises(UnsupportedContentError) as raised:
        write(history, on_unsupported="error")
    assert raised.value.path == "messages[0].session"


def test_keys_of_newer_data_on_a_message_are_reported_as_such() -> None:
    message = UnknownMessage("user", "Hi", unknown_keys={"mood": "curious"})
    assert _written(openai_chat.to_payload, [message]) == (
        [{"role": "user", "content": "Hi"}],
        ["messages[0].mood: dropped: OpenAI Chat Completions cannot carry the message field "
         "'mood' (unknown to this version)"],
    )


@pytest.mark.parametrize("on_unsupported", [None, "warn", "error"])
def test_anthropic_leaves_out_a_system_of_blank_texts_only(on_unsupported: Any) -> None:
    history = [ChatMessageContent("system", ""), ChatMessageContent("developer", " "),
               ChatMessageContent("user", "hi")]
    note = ("dropped: Anthropic Messages cannot carry a system message of empty or blank "
            "text only (the API refuses a blank text block)")
    assert _written(anthropic.to_payload, history, on_unsupported=on_unsupported) == (
        {"messages": [{"role": "user", "content": "hi"}]},
        [f"messages[0]: {note}", f"messages[1]: {note}"],
    )
    assert _written(anthropic.to_payload, history, on_unsupported="drop") == (
        {"messages": [{"role": "user", "content": "hi"}]}, [])
    # beside a text that says something, a blank one goes without a word, as in a turn
    history[1] = ChatMessageContent("developer", "Be brief.")
    assert _written(anthropic.to_payload, history) == (
        {"system": "Be brief.", "messages": [{"role": "user", "content": "hi"}]}, [])
    # one blank text alone is the system string, as read from a payload: written as it is
    assert _written(anthropic.to_payload, history[:1] + history[2:]) == (
        {"system": "", "messages": [{"role": "user", "content": "hi"}]}, [])


def test_anthropic_reports_a_citation_left_out_whole_once() -> None:
    history = from_json(
        '{"version":1,"messages":[{"role":"user","items":[{"type":"text","text":"Hi"}]},'
        '{"role":"assistant","items":[{"type":"text","text":"Paris is big.","citations":'
        '[{"url":"https://x.example","title":"X","future_key":[1,2]}]}]}]}',
        ChatHistory,
    )
    payload, notes = _written(anthropic.to_payload, history)
    assert payload["messages"][1] == {"role": "assistant", "content": "Paris is big."}
    assert notes == [
        "messages[1].items[0].citations[0]: dropped: Anthropic Messages cannot carry a "
        "citation that names no document or search result location"
    ]


def test_prompt_text_reads_back_a_citation_of_a_newer_version() -> None:
    history = from_json(
        '{"version":1,"messages":[{"role":"assistant","items":[{"type":"text","text":'
        '"Paris.","citations":[{"url":"https://x.example","future_key":1}]}]}]}',
        ChatHistory,
    )
    text = history.to_prompt()
    assert text == (
        '<chat_history><message role="assistant"><text semantic_chat="{&quot;citations&quot;:'
        '[{&quot;url&quot;:&quot;https://x.example&quot;,&quot;future_key&quot;:1}]}">Paris.'
        "</text></message></chat_history>"
    )
    assert ChatHistory.from_prompt(text) == history


_TRIMMED = (
    "messages[1]: dropped: Anthropic Messages cannot carry the trailing whitespace of a last "
    "assistant message (the API refuses a prefill that ends in whitespace): taken off"
)


@pytest.mark.parametrize("on_unsupported", [None, "warn", "error"])
def test_anthropic_takes_trailing_whitespace_off_the_prefill(on_unsupported: Any) -> None:
    # A logged reply that ends with a newline, sent last: "final assistant content cannot end
    # with trailing whitespace".
    history = openai_chat.from_payload([
        {"role": "user", "content": "Write a haiku"},
        {"role": "assistant", "content": "Autumn moon rises\nfrogs hold their breath\n"},
    ])
    assert _written(anthropic.to_payload, history, on_unsupported=on_unsupported) == (
        {"messages": [
            {"role": "user", "content": "Write a haiku"},
            {"role": "assistant", "content": "Autumn moon rises\nfrogs hold their breath"},
        ]},
        [_TRIMMED],
    )
    assert history[1].items[0].text.endswith("\n")  # the history is left as it was
    assert _written(anthropic.to_payload, history, on_unsupported="drop")[1] == []


def test_anthropic_trims_the_last_text_block_of_a_prefill_and_only_a_last_turn() -> None:
    history = [
        ChatMessageContent("user", "Go"),
        ChatMessageContent("assistant", items=[
            TextContent("one \n"), FunctionCallContent("c1", "f", "{}")]),
        ChatMessageContent("tool", items=[FunctionResultContent("c1", "ok")]),
        ChatMessageContent("assistant", items=[TextContent("a"), TextContent("b\t ")]),
    ]
    payload, notes = _written(anthropic.to_payload, history)
    assert payload["messages"][1]["content"][0] == {"type": "text", "text": "one \n"}  # not last
    assert payload["messages"][-1] == {"role": "assistant", "content": [
        {"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}
    assert notes == [_TRIMMED.replace("messages[1]", "messages[3]")]


def test_anthropic_leaves_out_an_assistant_message_of_nothing_between_turns() -> None:
    # An empty reply (all of a response blocked) between turns: the API refuses empty
    # content there; the turns around it are merged. Last, it is the empty prefill, kept.
    history = [ChatMessageContent("user", "hi"), ChatMessageContent("assistant", items=[]),
               ChatMessageContent("user", "again")]
    assert _written(anthropic.to_payload, history) == (
        {"messages": [{"role": "user", "content": [
            {"type": "text", "text": "hi"}, {"type": "text", "text": "again"}]}]},
        ["messages[1]: dropped: Anthropic Messages cannot carry a message of empty or blank "
         "text only (the API refuses it; only the last assistant message may be empty)"],
    )
    assert _written(anthropic.to_payload, history[:2]) == (
        {"messages": [{"role": "user", "content": "hi"},
                      {"role": "assistant", "content": []}]},
        [],
    )


def test_repair_for_anthropic_does_what_the_writer_would_to_the_prefill_and_an_empty_turn() -> None:
    history = ChatHistory([
        ChatMessageContent("user", "hi"),
        ChatMessageContent("assistant", items=[]),
        ChatMessageContent("user", "again"),
        ChatMessageContent("assistant", "Sure.\n"),
    ])
    repaired, changes = repair(history, for_format="anthropic")
    assert [str(change) for change in changes] == [
        "messages[1]: dropped a message of no items (Anthropic refuses it)",
        "messages[2]: merged into messages[0]: a second user message in a row (Anthropic needs "
        "user and assistant turns to alternate)",
        "messages[3]: dropped the trailing whitespace of the last assistant message (Anthropic "
        "refuses a prefill that ends in whitespace)",
    ]
    assert [message.role for message in repaired] == ["user", "assistant"]
    assert repaired[-1].items[0].text == "Sure."
    assert history[3].items[0].text == "Sure.\n"  # nothing given is changed
    assert validate(repaired, "anthropic") == []
    assert _written(anthropic.to_payload, repaired)[1] == []


# --- Anthropic: a tool result of blank text only --------------------------------------------


@pytest.mark.parametrize(("parts", "content"), [
    ([{"type": "text", "text": " "}], []),
    ([{"type": "text", "text": ""}], []),
    ([{"type": "text", "text": ""}, {"type": "text", "text": "\n"}], []),
    ([{"type": "text", "text": "18 C"}, {"type": "text", "text": "\n"}],
     [{"type": "text", "text": "18 C"}]),
])
def test_anthropic_writes_no_blank_text_block_in_a_tool_result(
    parts: list[dict[str, Any]], content: list[dict[str, Any]]
) -> None:
    # What was seen: a tool's empty output, [{"type": "text", "text": " "}], was sent as that
    # text block, and the API answers "text content blocks must be non-empty".
    history = openai_chat.from_payload([
        {"role": "user", "content": "Weather?"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "weather",
                                                              "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": parts},
    ])
    payload, notes = _written(anthropic.to_payload, history)
    assert payload["messages"][2] == {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "call_1", "content": content}]}
    assert notes == []
    pydantic.TypeAdapter(sdk.types.MessageParam).validate_python(payload["messages"][2])


# --- OpenAI Chat: a result without its call's id ---------------------------------------------


def _answers(*results: FunctionResultContent) -> ChatHistory:
    return ChatHistory([
        ChatMessageContent("user", "Weather in Paris and Oslo?"),
        ChatMessageContent("assistant", items=[
            FunctionCallContent("call_1", "weather", '{"city": "Paris"}'),
            FunctionCallContent("call_2", "weather", '{"city": "Oslo"}'),
            FunctionCallContent("call_3", "time", "{}"),
        ]),
        ChatMessageContent("tool", items=list(results)),
    ])


def test_chat_answers_the_first_unanswered_call_of_the_results_name() -> None:
    # What was seen: a result without its call's id (answered by name, as Gemini answers) was
    # written as a legacy {"role": "function"} message, leaving every tool call unanswered,
    # which the API refuses; no warning, even with on_unsupported="error".
    history = _answers(FunctionResultContent(None, "12:00", name="time"),
                       FunctionResultContent("call_1", "18 C", name="weather"),
                       FunctionResultContent(None, "5 C", name="weather"))
    payload, notes = _written(openai_chat.to_payload, history, on_unsupported="error")
    assert payload[2:] == [
        {"role": "tool", "tool_call_id": "call_3", "content": "12:00"},
        {"role": "tool", "tool_call_id": "call_1", "content": "18 C"},
        {"role": "tool", "tool_call_id": "call_2", "content": "5 C"},
    ]
    assert notes == []


def test_chat_still_writes_a_legacy_function_message_when_no_tool_call_awaits_it() -> None:
    history = _answers(FunctionResultContent(None, "?", name="unknown"))
    payload, notes = _written(openai_chat.to_payload, history)
    assert payload[2:] == [{"role": "function", "name": "unknown", "content": "?"}]
    assert notes == []
    legacy = openai_chat.from_payload([
        {"role": "assistant", "content": None,
         "function_call": {"name": "weather", "arguments": "{}"}},
        {"role": "function", "name": "weather", "content": "18 C"},
    ])
    assert openai_chat.to_payload(legacy)[1] == {
        "role": "function", "name": "weather", "content": "18 C"}


def test_chat_reports_a_refusal_that_moves_after_the_content() -> None:
    # What was seen: [RefusalContent, TextContent] was written as content and refusal, and
    # read back as [TextContent, RefusalContent], without a word.
    from semantic_chat import RefusalContent

    history = ChatHistory([ChatMessageContent("assistant", items=[
        RefusalContent("I can't help with that."), TextContent("But here is a tip.")])])
    payload, notes = _written(openai_chat.to_payload, history)
    assert payload == [{"role": "assistant", "content": "But here is a tip.",
                        "refusal": "I can't help with that."}]
    assert notes == [
        "messages[0].items[0]: dropped: OpenAI Chat Completions cannot carry a refusal's place "
        "before the content after it (the refusal is read last)"]
    in_order = ChatHistory([ChatMessageContent("assistant", items=[
        TextContent("But here is a tip."), RefusalContent("I can't help with that.")])])
    assert _written(openai_chat.to_payload, in_order)[1] == []


def test_a_result_of_no_output_is_an_empty_text_in_the_openai_formats() -> None:
    # What was seen: an Anthropic tool_result without content became the text "null" in a
    # Chat tool message ("Error: null" in Responses with is_error), and came back as "null".
    from semantic_chat.formats import openai_responses

    history = anthropic.from_payload([
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "f",
                                           "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1"},
                                     {"type": "tool_result", "tool_use_id": "t2",
                                      "is_error": True}]},
    ])
    chat = openai_chat.to_payload(history)
    assert chat[1] == {"role": "tool", "tool_call_id": "t1", "content": ""}
    assert chat[2] == {"role": "tool", "tool_call_id": "t2", "content": "Error: "}
    responses = openai_responses.to_payload(history)
    assert responses[1] == {"type": "function_call_output", "call_id": "t1", "output": ""}
