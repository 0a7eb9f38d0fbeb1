"""Anthropic and Gemini results lines converted to an OpenAI format read back in that format.

A results line keeps its envelope when converted, and holds the reply as the target's
payload: for the OpenAI formats, a list. Such a list is read in the format it is in, not as
the envelope's provider (which read Chat Completions ``tool_calls`` as an unknown message key,
kept in silence and never shown).
"""

from __future__ import annotations

import json

import pytest
from cli_helpers import run, write_jsonl

from semantic_chat import formats
from semantic_chat.errors import FormatError

ANTHROPIC_RESULT = {"custom_id": "r1", "result": {"type": "succeeded", "message": {
    "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-haiku-4-5",
    "content": [{"type": "text", "text": "Checking."},
                {"type": "tool_use", "id": "toolu_1", "name": "get_weather",
                 "input": {"city": "NY"}}],
    "stop_reason": "tool_use", "stop_sequence": None,
    "usage": {"input_tokens": 10, "output_tokens": 5},
}}}
GEMINI_RESULT = {"key": "k1", "response": {"candidates": [{
    "content": {"role": "model", "parts": [
        {"text": "Checking."},
        {"function_call": {"name": "get_weather", "args": {"city": "NY"}}},
    ]},
    "finish_reason": "STOP",
}]}}
CHAT_REPLY = [{"role": "assistant", "content": "Checking.", "tool_calls": [
    {"id": "toolu_1", "type": "function",
     "function": {"name": "get_weather", "arguments": '{"city":"NY"}'}},
]}]
RESPONSES_REPLY = [
    {"role": "assistant", "content": "Checking."},
    {"type": "function_call", "call_id": "toolu_1", "name": "get_weather",
     "arguments": '{"city":"NY"}'},
]


def test_an_anthropic_results_line_converted_to_chat_reads_as_chat(tmp_path):
    # What was seen: validate said "1 anthropic" and show printed only "Checking.".
    source = write_jsonl(tmp_path / "results.jsonl", [ANTHROPIC_RESULT])
    done = run("convert", str(source), "--to", "openai-chat", "-q")
    assert done.status == 0, done.stderr
    converted = json.loads(done.stdout)
    assert converted == {**ANTHROPIC_RESULT, "result": {"type": "succeeded",
                                                        "message": CHAT_REPLY}}
    assert formats.detect(converted) == "openai-chat"
    lines = write_jsonl(tmp_path / "chat.jsonl", [converted])
    checked = run("validate", str(lines))
    assert checked.stdout.splitlines() == [
        f"{lines}: no problems in 1 conversation (1 openai-chat)"
    ]
    shown = run("show", str(lines), "--color", "never")
    assert '   [tool call toolu_1] get_weather({"city":"NY"})' in shown.stdout.splitlines()
    back = run("convert", str(lines), "--to", "anthropic", "-q")
    assert json.loads(back.stdout)["result"]["message"] == {"messages": [
        {"role": "assistant", "content": ANTHROPIC_RESULT["result"]["message"]["content"]},
    ]}


@pytest.mark.parametrize(("target", "reply"), [
    ("openai-chat", CHAT_REPLY),
    ("openai-responses", RESPONSES_REPLY),
])
def test_a_converted_results_line_reads_back_in_its_target(target, reply):
    converted = formats.convert(ANTHROPIC_RESULT, target=target)
    # The reply in the line's envelope, as the command line writes it (the library used to
    # give the reply alone, losing the line's custom_id).
    wrapped = {**ANTHROPIC_RESULT, "result": {"type": "succeeded", "message": reply}}
    assert converted == wrapped
    assert formats.detect(wrapped) == target
    history = formats.get(target).from_payload(wrapped)
    assert [str(item) for item in history[0].items] == [
        "Checking.", 'get_weather({"city":"NY"})'
    ]


def test_a_gemini_results_line_converted_to_an_openai_format_reads_back(tmp_path):
    source = write_jsonl(tmp_path / "results.jsonl", [GEMINI_RESULT])
    for target in ("openai-chat", "openai-responses"):
        done = run("convert", str(source), "--to", target, "-q")
        assert done.status == 0, done.stderr
        converted = json.loads(done.stdout)
        assert converted["key"] == "k1"
        assert isinstance(converted["response"], list)
        assert formats.detect(converted) == target
        history = formats.get(target).from_payload(converted)
        assert [type(item).__name__ for item in history[0].items] == [
            "TextContent", "FunctionCallContent"
        ]


def test_the_providers_own_results_lines_are_still_theirs():
    assert formats.detect(ANTHROPIC_RESULT) == "anthropic"
    assert formats.detect(GEMINI_RESULT) == "gemini"
    with pytest.raises(FormatError) as raised:
        formats.get("openai-chat").from_payload(ANTHROPIC_RESULT)
    assert str(raised.value) == (
        "messages: expected a list of messages or a Chat Completions document, got an "
        "Anthropic Message Batches result line"
    )
