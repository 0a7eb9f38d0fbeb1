"""The command line with Anthropic Messages: ``--to anthropic`` and ``--from anthropic`` work
through the registry for ``example``, ``convert``, ``validate``, ``show`` and ``formats``, and
each Anthropic document keeps its envelope (a Message Batches line moves between Anthropic's
``params`` envelope and OpenAI's)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from cli_helpers import run

sys.path.insert(0, str(Path(__file__).parent.parent / "formats"))
from format_helpers import validate_anthropic_payload, validate_anthropic_request

from semantic_chat import formats

USER = {"role": "user", "content": "hi"}
RESPONSE = {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-haiku-4-5",
            "content": [{"type": "text", "text": "4"}], "stop_reason": "end_turn",
            "stop_sequence": None, "usage": {"input_tokens": 5, "output_tokens": 1}}
TOOL_LOOP = [
    USER,
    {"role": "assistant", "content": [
        {"type": "tool_use", "id": "t", "name": "f", "input": {"a": 1}}]},
    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": "ok"}]},
]
LINES = [
    {"model": "claude-haiku-4-5", "max_tokens": 50, "system": "Be brief.", "messages": [USER],
     "thinking": {"type": "enabled", "budget_tokens": 1024}},
    {"custom_id": "r1", "params": {"model": "claude-haiku-4-5", "max_tokens": 10,
                                   "messages": [USER]}},
    {"custom_id": "r1", "result": {"type": "succeeded", "message": RESPONSE}},
    RESPONSE,
    {"system": "Be brief.", "messages": [USER]},
    TOOL_LOOP,
]
REPLY = {"messages": [{"role": "assistant", "content": [{"type": "text", "text": "4"}]}]}
EXPECTED = {
    "anthropic": [
        LINES[0],
        LINES[1],
        {"custom_id": "r1", "result": {"type": "succeeded", "message": REPLY}},
        REPLY,
        LINES[4],
        {"messages": TOOL_LOOP},
    ],
    "openai-chat": [
        {"model": "claude-haiku-4-5", "messages": [
            {"role": "system", "content": "Be brief."}, USER], "max_completion_tokens": 50},
        {"custom_id": "r1", "method": "POST", "url": "/v1/chat/completions",
         "body": {"model": "claude-haiku-4-5", "messages": [USER], "max_completion_tokens": 10}},
        {"custom_id": "r1", "result": {"type": "succeeded", "message": [
            {"role": "assistant", "content": "4"}]}},
        [{"role": "assistant", "content": "4"}],
        {"messages": [{"role": "system", "content": "Be brief."}, USER]},
        [USER,
         {"role": "assistant", "content": None, "tool_calls": [
             {"id": "t", "type": "function", "function": {"name": "f", "arguments": '{"a":1}'}}]},
         {"role": "tool", "tool_call_id": "t", "content": "ok"}],
    ],
    "openai-responses": [
        {"model": "claude-haiku-4-5", "input": [
            {"role": "system", "content": "Be brief."}, USER], "max_output_tokens": 50},
        {"custom_id": "r1", "method": "POST", "url": "/v1/responses",
         "body": {"model": "claude-haiku-4-5", "input": [USER], "max_output_tokens": 10}},
        {"custom_id": "r1", "result": {"type": "succeeded", "message": [
            {"role": "assistant", "content": "4"}]}},
        [{"role": "assistant", "content": "4"}],
        {"input": [{"role": "system", "content": "Be brief."}, USER]},
        [USER,
         {"type": "function_call", "call_id": "t", "name": "f", "arguments": '{"a":1}'},
         {"type": "function_call_output", "call_id": "t", "output": "ok"}],
    ],
}
THINKING_LOST = {
    "anthropic": [],
    "openai-chat": ["semantic-chat: warning: line 1: options.extra[\"thinking\"]: dropped: "
                    "OpenAI Chat Completions cannot carry the request field 'thinking'"],
    "openai-responses": ["semantic-chat: warning: line 1: options.extra[\"thinking\"]: "
                         "dropped: OpenAI Responses cannot carry the request field 'thinking'"],
}


def _write(path: Path, lines: list) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def _read(text: str) -> list:
    return [json.loads(line) for line in text.splitlines()]


@pytest.mark.parametrize("target", sorted(EXPECTED))
def test_every_anthropic_document_converts_and_keeps_its_envelope(tmp_path, target):
    _write(tmp_path / "in.jsonl", LINES)
    done = run("convert", "in.jsonl", "--to", target, "-o", "out.jsonl", cwd=tmp_path)
    assert done.status == 0, done.stderr
    assert done.errors == [
        *THINKING_LOST[target], f"semantic-chat: converted 6 conversations to {target}"
        + ("; dropped 1 item" if THINKING_LOST[target] else "")
    ]
    written = _read((tmp_path / "out.jsonl").read_text(encoding="utf-8"))
    assert written == EXPECTED[target]
    if target == "anthropic":
        validate_anthropic_request(written[0])
        validate_anthropic_request(written[1]["params"])
        for payload in (written[2]["result"]["message"], *written[3:]):
            validate_anthropic_payload(payload)


def test_what_was_converted_to_anthropic_reads_back(tmp_path):
    _write(tmp_path / "in.jsonl", LINES)
    run("convert", "in.jsonl", "--to", "anthropic", "-o", "out.jsonl", cwd=tmp_path)
    done = run("validate", "out.jsonl", cwd=tmp_path)
    # The reply written as {"messages": [...]} reads alike in both formats: detection gives
    # such a document to openai-chat (and it reads the same there).
    assert (done.status, done.stdout) == (
        0, "out.jsonl: no problems in 6 conversations (5 anthropic, 1 openai-chat)\n"
    )


def test_an_openai_batch_line_becomes_a_message_batches_line():
    line = {"custom_id": "r1", "method": "POST", "url": "/v1/chat/completions",
            "body": {"model": "gpt-4o", "max_completion_tokens": 9, "messages": [USER]}}
    done = run("convert", "--to", "anthropic", stdin=json.dumps(line))
    assert (done.status, done.stderr) == (0, "")
    assert json.loads(done.stdout) == {
        "custom_id": "r1", "params": {"model": "gpt-4o", "max_tokens": 9, "messages": [USER]}
    }


def test_example_converts_to_anthropic_with_its_losses_and_reads_back(tmp_path):
    done = run("example", "--to", "anthropic", "-o", "example.json", cwd=tmp_path)
    assert (done.status, done.errors) == (0, [
        "semantic-chat: warning: messages[1].name: dropped: Anthropic Messages cannot carry "
        "the name of a user message",
        "semantic-chat: warning: messages[1].items[1].detail: dropped: Anthropic Messages "
        "cannot carry an image's detail",
        "semantic-chat: warning: messages[1].items[2]: dropped: Anthropic Messages cannot "
        "carry audio content in a user message",
        "semantic-chat: warning: messages[2].items[0]: dropped: Anthropic Messages cannot "
        "carry reasoning without the signature Anthropic needs back; it is never sent as text",
    ])
    written = json.loads((tmp_path / "example.json").read_text(encoding="utf-8"))
    validate_anthropic_payload(written)
    assert formats.detect(written) == "anthropic"
    assert written["system"] == "You are a helpful assistant that can read the weather."
    assert [message["role"] for message in written["messages"]] == [
        "user", "assistant", "user", "assistant"
    ]
    shown = run("show", "example.json", "--color", "never", cwd=tmp_path)
    assert shown.status == 0
    assert shown.stdout.splitlines()[-1] == (
        "Contains 5 messages; items: 1 function_call, 1 function_result, 1 image, 3 text."
    )


def test_from_anthropic_reads_a_list_detection_gives_to_openai_chat():
    conversation = json.dumps([USER, {"role": "assistant", "content": "hello"}])
    detected = run("validate", stdin=conversation)
    assert detected.stdout == "<stdin>: no problems (openai-chat, 2 messages)\n"
    named = run("validate", "--from", "anthropic", stdin=conversation)
    assert named.stdout == "<stdin>: no problems (anthropic, 2 messages)\n"
    done = run("convert", "--from", "anthropic", "--to", "anthropic", stdin=conversation)
    assert json.loads(done.stdout) == {"messages": [USER, {"role": "assistant",
                                                           "content": "hello"}]}


def test_validate_names_each_bad_anthropic_line(tmp_path):
    _write(tmp_path / "in.jsonl", [[USER], [{"role": "robot", "content": "x"}]])
    done = run("validate", "in.jsonl", "--from", "anthropic", cwd=tmp_path)
    assert (done.status, done.stdout) == (1, (
        "line 2: messages[0].role: Anthropic Messages has no role 'robot'\n"
        "in.jsonl: 1 error in 2 conversations\n"
    ))


def test_validate_to_anthropic_reports_what_it_cannot_carry(tmp_path):
    chat = [{"role": "user", "name": "ann", "content": [
        {"type": "text", "text": "hi"},
        {"type": "input_audio", "input_audio": {
            "data": "UklGRiwAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQgAAAAAAOgDGPwAAA==",
            "format": "wav"}},
    ]}]
    (tmp_path / "chat.json").write_text(json.dumps(chat), encoding="utf-8")
    done = run("validate", "chat.json", "--to", "anthropic", cwd=tmp_path)
    assert (done.status, done.stdout) == (1, (
        "messages[0].name: warning: Anthropic Messages cannot carry the name of a user message\n"
        "messages[0].items[1]: Anthropic Messages cannot carry audio content in a user message\n"
        "chat.json: 1 error, 1 warning\n"
    ))
    converted = run("convert", "chat.json", "--to", "anthropic", "--drop-unsupported",
                    cwd=tmp_path)
    assert json.loads(converted.stdout) == {"messages": [USER]}


def test_an_openai_request_without_max_tokens_needs_max_tokens_to_become_an_anthropic_one(
    tmp_path,
):
    body = {"model": "gpt-4o", "messages": [USER]}
    done = run("convert", "--to", "anthropic", stdin=json.dumps(body))
    assert (done.status, done.stdout) == (1, "")
    assert done.errors == [
        "semantic-chat: max_tokens: Anthropic Messages requires max_tokens: pass --max-tokens"
    ]
    done = run("convert", "--to", "anthropic", "--max-tokens", "512", stdin=json.dumps(body))
    assert (done.status, json.loads(done.stdout)) == (
        0, {"model": "gpt-4o", "max_tokens": 512, "messages": [USER]}
    )
    given = {**body, "max_completion_tokens": 64}  # the request's own limit wins
    done = run("convert", "--to", "anthropic", "--max-tokens", "512", stdin=json.dumps(given))
    assert json.loads(done.stdout)["max_tokens"] == 64
    lines = tmp_path / "requests.jsonl"
    lines.write_text(json.dumps(body) + "\n" + json.dumps(given) + "\n")
    done = run("convert", "requests.jsonl", "--to", "anthropic", "--max-tokens", "9", "-q",
               cwd=tmp_path)
    assert [json.loads(line)["max_tokens"] for line in done.stdout.splitlines()] == [9, 64]


@pytest.mark.parametrize("value", ["0", "-3", "many"])
def test_max_tokens_must_be_a_whole_number_above_zero(value):
    done = run("convert", "--to", "anthropic", "--max-tokens", value, stdin="{}")
    assert done.status == 2
    assert done.errors == [
        "semantic-chat convert: error: argument --max-tokens: expected a whole number of "
        f"tokens above 0, got {value!r} (see semantic-chat convert --help)"
    ]


def test_show_reads_an_anthropic_request():
    done = run("show", "--color", "never", stdin=json.dumps(LINES[0]))
    assert done.status == 0
    assert done.stdout.splitlines() == [
        "── system", "   Be brief.", "", "── user", "   hi", "",
        "Contains 2 messages; items: 2 text.",
    ]


def test_formats_lists_anthropic():
    done = run("formats")
    (line,) = [line for line in done.stdout.splitlines() if line.startswith("anthropic ")]
    assert line.endswith("  " + formats.get("anthropic").summary)
