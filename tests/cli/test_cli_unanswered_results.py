"""``convert`` goes past a Batch results line of a request that got no reply, as ``validate``
does: the line has nothing to convert, so it is left out with the same warning
(``no reply to convert: request a3: expired``) and counted in the summary. It stopped the run
with status 1 at the first such line, though ``validate`` called it only a warning and real
results files routinely hold a few."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from semantic_chat.cli import main

SUCCEEDED = {"custom_id": "r1", "result": {"type": "succeeded", "message": {
    "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-haiku-4-5",
    "content": [{"type": "text", "text": "Hi there"}], "stop_reason": "end_turn",
    "stop_sequence": None, "usage": {"input_tokens": 5, "output_tokens": 3},
}}}
EXPIRED = {"custom_id": "r0", "result": {"type": "expired"}}
GEMINI_ERROR = {"key": "k3", "error": {"code": 3, "message": "Invalid", "status": "INVALID_ARGUMENT"}}
OPENAI_ERROR = {"id": "b1", "custom_id": "c1", "response": None,
                "error": {"code": "batch_expired", "message": "window expired"}}


def _jsonl(path: Path, *lines: object) -> str:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return str(path)


@pytest.mark.parametrize("target", ["openai-chat", "openai-responses", "anthropic", "gemini"])
def test_convert_leaves_out_a_line_without_a_reply_and_goes_on(tmp_path, capsys, target):
    source = _jsonl(tmp_path / "results.jsonl", SUCCEEDED, EXPIRED, SUCCEEDED)
    status = main(["convert", source, "--to", target])
    out, err = capsys.readouterr()
    assert status == 0
    assert [json.loads(line)["custom_id"] for line in out.splitlines()] == ["r1", "r1"]
    assert err == (
        "semantic-chat: warning: line 2: no reply to convert: request r0: expired\n"
        f"semantic-chat: converted 2 conversations to {target}; left out 1 request without a "
        "reply\n")


def test_gemini_and_openai_error_lines_are_left_out_too(tmp_path, capsys):
    source = _jsonl(tmp_path / "results.jsonl", GEMINI_ERROR, OPENAI_ERROR)
    status = main(["convert", source, "--to", "anthropic", "-q"])
    out, err = capsys.readouterr()
    assert (status, out) == (0, "")
    assert err == (
        "semantic-chat: warning: line 1: no reply to convert: request k3: failed: "
        "INVALID_ARGUMENT: Invalid\n"
        "semantic-chat: warning: line 2: no reply to convert: request c1: failed: "
        "batch_expired: window expired\n")


def test_a_single_document_without_a_reply_is_an_error_saying_so(tmp_path, capsys):
    source = tmp_path / "line.json"
    source.write_text(json.dumps(EXPIRED))
    status = main(["convert", str(source), "--to", "openai-chat"])
    out, err = capsys.readouterr()
    assert (status, out, err) == (
        1, "", "semantic-chat: no reply to convert: request r0: expired\n")
