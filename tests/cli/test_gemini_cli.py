"""The command line with Google Gemini: ``--to gemini`` and ``--from gemini`` work through the
registry for ``example``, ``convert``, ``validate``, ``show`` and ``formats``, and each Gemini
document keeps its envelope (a Batch API request line moves between Gemini's ``request``
envelope and the other providers', a result line keeps its own and reads back)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import run

sys.path.insert(0, str(Path(__file__).parent.parent / "formats"))
from format_helpers import validate_gemini_payload, validate_gemini_request

from semantic_chat import formats

USER = {"role": "user", "parts": [{"text": "hi"}]}
RESPONSE = {
    "candidates": [{"content": {"role": "model", "parts": [{"text": "4"}]},
                    "finishReason": "STOP", "index": 0}],
    "usageMetadata": {"promptTokenCount": 5, "candidatesTokenCount": 1, "totalTokenCount": 6},
    "modelVersion": "gemini-2.5-flash",
    "responseId": "resp-1",
}
TOOL_LOOP = [
    USER,
    {"role": "model", "parts": [{"functionCall": {"name": "f", "args": {"a": 1}},
                                 "thoughtSignature": "c2ln"}]},
    {"role": "user", "parts": [{"functionResponse": {"name": "f",
                                                     "response": {"result": "ok"}}}]},
]
SYSTEM = {"parts": [{"text": "Be brief."}]}
LINES: list[Any] = [
    {"model": "gemini-2.5-flash", "contents": [USER], "systemInstruction": SYSTEM,
     "generationConfig": {"maxOutputTokens": 50, "thinkingConfig": {"thinkingBudget": 1024}}},
    {"model": "gemini-2.5-flash", "contents": [USER],
     "config": {"system_instruction": "Be brief.", "max_output_tokens": 50,
                "temperature": 0.5}},
    # A Gemini Batch line names no model (its job does): one converted for Anthropic's or
    # OpenAI's Batch API, which need one in every line, must be given one.
    {"key": "r1", "request": {"model": "gemini-2.5-flash", "contents": [USER],
                              "generation_config": {"max_output_tokens": 10}}},
    {"key": "r1", "response": RESPONSE},
    RESPONSE,
    {"contents": [USER], "system_instruction": SYSTEM},
    TOOL_LOOP,
]
GEMINI_REPLY = {"contents": [{"role": "model", "parts": [{"text": "4"}]}]}
CHAT_LOOP = [
    {"role": "user", "content": "hi"},
    {"role": "assistant", "content": None, "tool_calls": [
        {"id": "gemini-call-1-0", "type": "function",
         "function": {"name": "f", "arguments": '{"a":1}'}}]},
    {"role": "tool", "tool_call_id": "gemini-call-1-0", "content": "ok"},
]
EXPECTED: dict[str, list[Any]] = {
    "gemini": [
        # Written in one spelling: snake_case, the default.
        {"model": "gemini-2.5-flash", "contents": [USER], "system_instruction": SYSTEM,
         "generation_config": {"max_output_tokens": 50,
                               "thinking_config": {"thinking_budget": 1024}}},
        LINES[1],
        LINES[2],
        {"key": "r1", "response": GEMINI_REPLY},
        GEMINI_REPLY,
        LINES[5],
        {"contents": [USER, {"role": "model", "parts": [
            {"function_call": {"name": "f", "args": {"a": 1}}, "thought_signature": "c2ln"}]},
            {"role": "user", "parts": [{"function_response": {
                "name": "f", "response": {"result": "ok"}}}]}]},
    ],
    "openai-chat": [
        {"model": "gemini-2.5-flash", "messages": [
            {"role": "system", "content": "Be brief."}, {"role": "user", "content": "hi"}],
         "max_completion_tokens": 50},
        {"model": "gemini-2.5-flash", "messages": [
            {"role": "system", "content": "Be brief."}, {"role": "user", "content": "hi"}],
         "temperature": 0.5, "max_completion_tokens": 50},
        {"custom_id": "r1", "method": "POST", "url": "/v1/chat/completions",
         "body": {"model": "gemini-2.5-flash", "messages": [{"role": "user", "content": "hi"}],
                  "max_completion_tokens": 10}},
        {"key": "r1", "response": [{"role": "assistant", "content": "4"}]},
        [{"role": "assistant", "content": "4"}],
        {"messages": [{"role": "system", "content": "Be brief."},
                      {"role": "user", "content": "hi"}]},
        CHAT_LOOP,
    ],
    "anthropic": [
        {"model": "gemini-2.5-flash", "max_tokens": 50, "system": "Be brief.",
         "messages": [{"role": "user", "content": "hi"}]},
        {"model": "gemini-2.5-flash", "max_tokens": 50, "system": "Be brief.",
         "messages": [{"role": "user", "content": "hi"}], "temperature": 0.5},
        {"custom_id": "r1", "params": {"model": "gemini-2.5-flash", "max_tokens": 10,
                                       "messages": [{"role": "user", "content": "hi"}]}},
        {"key": "r1", "response": {"messages": [{"role": "assistant", "content": "4"}]}},
        {"messages": [{"role": "assistant", "content": "4"}]},
        {"system": "Be brief.", "messages": [{"role": "user", "content": "hi"}]},
        {"messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": [
                {"type": "tool_use", "id": "gemini-call-1-0", "name": "f", "input": {"a": 1}}]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "gemini-call-1-0", "content": "ok"}]},
        ]},
    ],
}
FORMAT_NAMES = {"openai-chat": "OpenAI Chat Completions", "anthropic": "Anthropic Messages"}


def _write(path: Path, lines: list[Any]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def _read(text: str) -> list[Any]:
    return [json.loads(line) for line in text.splitlines()]


@pytest.mark.parametrize("target", sorted(EXPECTED))
def test_every_gemini_document_converts_and_keeps_its_envelope(tmp_path, target):
    _write(tmp_path / "in.jsonl", LINES)
    done = run("convert", "in.jsonl", "--to", target, "-o", "out.jsonl", cwd=tmp_path)
    assert done.status == 0, done.stderr
    name = FORMAT_NAMES.get(target)
    lost = [] if name is None else [
        f"semantic-chat: warning: line 1: options.extra[\"thinking_config\"]: dropped: {name} "
        "cannot carry the request field 'thinking_config'",
        "semantic-chat: warning: line 7: messages[1].items[0].metadata[\"gemini\"]."
        f"thought_signature: dropped: {name} cannot carry a Gemini thought signature (it is "
        "only valid with Gemini)",
    ]
    summary = f"semantic-chat: converted 7 conversations to {target}"
    assert done.errors == [*lost, summary + ("; dropped 2 items" if lost else "")]
    written = _read((tmp_path / "out.jsonl").read_text(encoding="utf-8"))
    assert written == EXPECTED[target]
    if target == "gemini":
        for body in (written[0], written[1], written[2]["request"]):
            validate_gemini_request(body)
        for payload in (written[3]["response"], *written[4:]):
            validate_gemini_payload(payload)


@pytest.mark.parametrize("target", sorted(EXPECTED))
def test_what_was_converted_reads_back(tmp_path, target):
    _write(tmp_path / "in.jsonl", LINES)
    run("convert", "in.jsonl", "--to", target, "-o", "out.jsonl", "-q", cwd=tmp_path)
    done = run("validate", "out.jsonl", cwd=tmp_path)
    assert done.status == 0, done.stdout
    assert done.stdout.splitlines()[-1].startswith("out.jsonl: no problems in 7 conversations")
    # A result line keeps Gemini's envelope; its reply is read in the format it was written in.
    again = run("convert", "out.jsonl", "--to", "gemini", "-q", cwd=tmp_path)
    assert _read(again.stdout)[3] == {"key": "r1", "response": GEMINI_REPLY}


def test_other_batch_lines_move_into_geminis_envelope_and_back(tmp_path):
    chat_line = {"custom_id": "c1", "method": "POST", "url": "/v1/chat/completions",
                 "body": {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}]}}
    anthropic_line = {"custom_id": "c2", "params": {
        "model": "claude-haiku-4-5", "max_tokens": 8,
        "messages": [{"role": "user", "content": "hi"}]}}
    _write(tmp_path / "in.jsonl", [chat_line, anthropic_line])
    done = run("convert", "in.jsonl", "--to", "gemini", "-q", cwd=tmp_path)
    gemini_lines = _read(done.stdout)
    assert gemini_lines == [
        {"key": "c1", "request": {"model": "gpt-4o", "contents": [USER]}},
        {"key": "c2", "request": {"model": "claude-haiku-4-5", "contents": [USER],
                                  "generation_config": {"max_output_tokens": 8}}},
    ]
    _write(tmp_path / "gemini.jsonl", gemini_lines)
    back = run("convert", "gemini.jsonl", "--to", "openai-chat", "-q", cwd=tmp_path)
    assert _read(back.stdout)[0] == chat_line


def test_a_contents_list_is_detected_and_from_gemini_reads_it():
    conversation = json.dumps([USER, {"role": "model", "parts": [{"text": "hello"}]}])
    detected = run("validate", stdin=conversation)
    assert detected.stdout == "<stdin>: no problems (gemini, 2 messages)\n"
    named = run("validate", "--from", "gemini", stdin=conversation)
    assert named.stdout == detected.stdout
    done = run("convert", "--from", "gemini", "--to", "openai-chat", stdin=conversation)
    assert json.loads(done.stdout) == [{"role": "user", "content": "hi"},
                                       {"role": "assistant", "content": "hello"}]


def test_validate_names_each_bad_gemini_line_and_content(tmp_path):
    _write(tmp_path / "in.jsonl", [
        [USER],
        [USER, {"role": "robot", "parts": []}, {"role": "user", "parts": [{"text": 5}]}],
        {"key": "r2", "request": {"contents": [{"role": "model", "parts": [
            {"functionCall": {"args": {}}}]}]}},
    ])
    done = run("validate", "in.jsonl", "--from", "gemini", cwd=tmp_path)
    assert (done.status, done.stdout) == (1, (
        "line 2: contents[1].role: Gemini has no role 'robot'\n"
        "line 2: contents[2].parts[0].text: expected str, got int\n"
        "line 3: request.contents[0].parts[0].function_call: missing 'name'\n"
        "in.jsonl: 3 errors in 3 conversations\n"
    ))


def test_validate_to_gemini_reports_what_it_cannot_carry(tmp_path):
    chat = [{"role": "user", "name": "ann", "content": "hi"},
            {"role": "assistant", "content": None, "refusal": "I cannot."}]
    (tmp_path / "chat.json").write_text(json.dumps(chat), encoding="utf-8")
    done = run("validate", "chat.json", "--to", "gemini", cwd=tmp_path)
    assert (done.status, done.stdout) == (1, (
        "messages[0].name: warning: Gemini cannot carry the name of a user message\n"
        "messages[1].items[0]: Gemini cannot carry refusal content in an assistant message\n"
        "chat.json: 1 error, 1 warning\n"
    ))
    converted = run("convert", "chat.json", "--to", "gemini", "--drop-unsupported",
                    cwd=tmp_path)
    assert json.loads(converted.stdout) == {"contents": [USER]}


def test_example_to_gemini_writes_a_valid_payload(tmp_path):
    done = run("example", "--to", "gemini", "-o", "example.json", cwd=tmp_path)
    assert done.status == 0
    written = json.loads((tmp_path / "example.json").read_text(encoding="utf-8"))
    validate_gemini_payload(written)
    assert formats.detect(written) == "gemini"
    assert written["system_instruction"] == {
        "parts": [{"text": "You are a helpful assistant that can read the weather."}]
    }
    assert [content["role"] for content in written["contents"]] == [
        "user", "model", "user", "model"
    ]
    shown = run("show", "example.json", "--color", "never", cwd=tmp_path)
    assert shown.stdout.splitlines()[-1] == (
        "Contains 5 messages; items: 1 audio, 1 function_call, 1 function_result, 1 image, "
        "3 text."  # the example's reasoning has no provider: never sent to Gemini
    )


def test_show_reads_a_gemini_request_in_either_layout():
    for line in LINES[:2]:
        done = run("show", "--color", "never", stdin=json.dumps(line))
        assert done.status == 0
        assert done.stdout.splitlines() == [
            "── system", "   Be brief.", "", "── user", "   hi", "",
            "Contains 2 messages; items: 2 text.",
        ]


def test_formats_lists_gemini():
    done = run("formats")
    (line,) = [line for line in done.stdout.splitlines() if line.startswith("gemini ")]
    assert line.endswith("  " + formats.get("gemini").summary)
