"""The command line over a JSONL of whole API documents: each line keeps its envelope."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from cli_helpers import run

sys.path.insert(0, str(Path(__file__).parent.parent / "formats"))
from format_helpers import validate_chat_payload, validate_responses_payload

MESSAGES = [{"role": "user", "content": "hi"}]
COMPLETION = {
    "id": "c2", "object": "chat.completion", "created": 2, "model": "gpt-4o-mini",
    "choices": [{"index": 0, "finish_reason": "stop",
                 "message": {"role": "assistant", "content": "4", "refusal": None}}],
}
TOOLS = [{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}]
LINES = [
    {"model": "gpt-4o", "messages": MESSAGES, "temperature": 0.5, "max_tokens": 50},
    {"custom_id": "r1", "method": "POST", "url": "/v1/chat/completions",
     "body": {"model": "gpt-4o-mini", "messages": MESSAGES, "max_completion_tokens": 10}},
    {"custom_id": "r2", "method": "POST", "url": "/v1/responses",
     "body": {"model": "o4-mini", "instructions": "Be brief.", "input": "3+3?",
              "reasoning": {"effort": "low"}, "store": False}},
    {"messages": MESSAGES, "tools": TOOLS, "parallel_tool_calls": False},
    COMPLETION,
    {"id": "b1", "custom_id": "r1", "error": None,
     "response": {"status_code": 200, "request_id": "q", "body": COMPLETION}},
    MESSAGES,
]
REPLY_CHAT = [{"role": "assistant", "content": "4", "refusal": None}]
REPLY_RESPONSES = [{"role": "assistant", "content": "4"}]
EXPECTED = {
    "openai-chat": [
        LINES[0],
        LINES[1],
        {"custom_id": "r2", "method": "POST", "url": "/v1/chat/completions",
         "body": {"model": "o4-mini", "messages": [
             {"role": "system", "content": "Be brief."}, {"role": "user", "content": "3+3?"}],
             "reasoning_effort": "low", "store": False}},
        LINES[3],
        REPLY_CHAT,
        {**LINES[5], "response": {**LINES[5]["response"], "body": REPLY_CHAT}},
        MESSAGES,
    ],
    "openai-responses": [
        {"model": "gpt-4o", "input": MESSAGES, "temperature": 0.5, "max_output_tokens": 50},
        {"custom_id": "r1", "method": "POST", "url": "/v1/responses",
         "body": {"model": "gpt-4o-mini", "input": MESSAGES, "max_output_tokens": 10}},
        LINES[2],
        {"input": MESSAGES, "tools": [{"type": "function", "name": "f",
                                       "parameters": {"type": "object"}, "strict": False}],
         "parallel_tool_calls": False},
        REPLY_RESPONSES,
        {**LINES[5], "response": {**LINES[5]["response"], "body": REPLY_RESPONSES}},
        MESSAGES,
    ],
}


@pytest.fixture
def mixed(tmp_path):
    path = tmp_path / "mixed.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in LINES))
    return path


@pytest.mark.parametrize("target", ["openai-chat", "openai-responses"])
def test_each_line_keeps_its_envelope(mixed, target):
    done = run("convert", str(mixed), "--to", target, "-q")
    assert done.status == 0, done.stderr
    written = [json.loads(line) for line in done.stdout.splitlines()]
    assert written == EXPECTED[target]
    validate = validate_chat_payload if target == "openai-chat" else validate_responses_payload
    for line in written:
        body = line.get("body", line) if isinstance(line, dict) else line
        if isinstance(body, dict) and "response" in line:
            body = line["response"]["body"]
        payload = body if isinstance(body, list) else body.get("messages", body.get("input"))
        validate(payload)


def test_through_semantic_chat_and_back(mixed, tmp_path):
    ours = tmp_path / "ours.jsonl"
    done = run("convert", str(mixed), "--to", "semantic-chat", "-q", "-o", str(ours))
    assert done.status == 0, done.stderr
    first = json.loads(ours.read_text().splitlines()[0])
    assert first["options"] == {
        "model": "gpt-4o", "temperature": 0.5, "max_tokens": 50,
        "metadata": {"openai_chat": {"max_tokens": True}},
    }
    for target in ("openai-chat", "openai-responses"):
        back = run("convert", str(ours), "--to", target, "-q")
        assert back.status == 0, back.stderr
        assert [json.loads(line) for line in back.stdout.splitlines()] == EXPECTED[target]


def test_validate_reads_every_document(mixed):
    done = run("validate", str(mixed), "-q")
    assert done.status == 0, done.stdout + done.stderr


BATCH_OUTPUT = {
    "id": "batch_req_1", "custom_id": "r1", "error": None,
    "response": {"status_code": 200, "request_id": "q", "body": {
        "id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-4o",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": "Hi"},
                     "finish_reason": "stop"}],
    }},
}


@pytest.mark.parametrize("target", ["openai-chat", "openai-responses"])
def test_a_converted_batch_output_line_keeps_its_envelope_and_reads_back(target):
    done = run("convert", "-", "--jsonl", "--to", target, "-q",
               stdin=json.dumps(BATCH_OUTPUT) + "\n")
    assert done.status == 0, done.stderr
    written = json.loads(done.stdout)
    # a Chat reply keeps the refusal key the API sent (null) beside its content
    reply = {"role": "assistant", "content": "Hi"}
    if target == "openai-chat":
        reply["refusal"] = None
    assert written == {
        **BATCH_OUTPUT,
        "response": {"status_code": 200, "request_id": "q", "body": [reply]},
    }
    again = run("convert", "-", "--jsonl", "--to", "openai-chat", "-q", stdin=done.stdout)
    assert again.status == 0, again.stderr
    assert json.loads(again.stdout) == written
