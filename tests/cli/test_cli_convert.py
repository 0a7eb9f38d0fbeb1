"""``semantic-chat convert``: documents and JSONL, files and pipes, workers, atomic output."""

import json
import os
import signal
import stat
import subprocess
import time

import pytest
from cli_helpers import (
    BAD_TOOL_MESSAGE,
    COMMAND,
    chat_conversation,
    example_json,
    run,
    write_jsonl,
)

from semantic_chat import formats, jsoncodec
from semantic_chat.example import example_history
from semantic_chat.serialization import to_dict


def _expected_line(conversation, target="openai-responses"):
    return jsoncodec.dumps(formats.convert(conversation, "openai-chat", target=target))


def test_file_to_file_detects_the_format_and_matches_the_library(tmp_path):
    source = tmp_path / "example.json"
    source.write_text(example_json(), encoding="utf-8")
    target = tmp_path / "out.json"
    done = run("convert", str(source), "--to", "openai-responses", "--drop-unsupported",
               "-o", str(target))
    assert (done.status, done.stdout) == (0, "")
    assert len(done.errors) == 3  # ada's name, the audio clip and the reasoning item
    assert all("dropped" in line for line in done.errors)
    with pytest.warns(UserWarning, match="dropped"):
        expected = formats.convert(to_dict(example_history()), target="openai-responses",
                                   on_unsupported="warn")
    assert json.loads(target.read_text(encoding="utf-8")) == expected
    assert sorted(path.name for path in tmp_path.iterdir()) == ["example.json", "out.json"]
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask  # not the temp file's 0600


def test_stdin_to_stdout_with_detection():
    conversation = chat_conversation(1)
    done = run("convert", "--to", "semantic-chat", stdin=json.dumps(conversation))
    assert (done.status, done.stderr) == (0, "")
    assert done.stdout == _expected_line(conversation, "semantic-chat") + "\n"


def test_from_overrides_detection():
    done = run("convert", "--from", "semantic-chat", "--to", "openai-responses",
               stdin=json.dumps(chat_conversation(1)))
    assert (done.status, done.stdout) == (1, "")
    assert done.errors == ["semantic-chat: expected a history object, got list"]


def test_jsonl_with_a_bad_line_stops_and_writes_nothing(tmp_path):
    source = write_jsonl(tmp_path / "in.jsonl", [chat_conversation(i) for i in range(5)],
                         raw={4: json.dumps(BAD_TOOL_MESSAGE)})
    target = tmp_path / "out.jsonl"
    target.write_text("previous contents\n")
    done = run("convert", str(source), "--to", "openai-responses", "-o", str(target))
    assert done.status == 1
    assert done.errors == ["semantic-chat: line 4: messages[1]: tool message without tool_call_id"]
    assert target.read_text() == "previous contents\n"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["in.jsonl", "out.jsonl"]


def test_skip_invalid_converts_the_rest_and_counts_what_it_skipped(tmp_path):
    conversations = [chat_conversation(i) for i in range(6)]
    source = write_jsonl(tmp_path / "in.jsonl", conversations,
                         raw={3: "{not json", 5: "", 6: json.dumps(BAD_TOOL_MESSAGE)})
    done = run("convert", str(source), "--to", "openai-responses", "--skip-invalid")
    assert done.status == 0
    assert done.stdout.splitlines() == [_expected_line(c) for c in conversations]
    assert len(done.errors) == 3
    assert done.errors[0] == (
        "semantic-chat: line 3, column 2: skipped: malformed JSON: unexpected character, "
        "expected a string key"
    )
    assert done.errors[1:] == [
        "semantic-chat: line 6: skipped: messages[1]: tool message without tool_call_id",
        "semantic-chat: converted 6 conversations to openai-responses; skipped 2 invalid lines",
    ]


def test_two_workers_keep_the_order(tmp_path):
    conversations = [chat_conversation(i) for i in range(600)]
    source = write_jsonl(tmp_path / "in.jsonl", conversations, raw={300: json.dumps([])})
    target = tmp_path / "out.jsonl"
    done = run("convert", str(source), "--from", "openai-chat", "--to", "openai-responses",
               "--workers", "2", "--skip-invalid", "-o", str(target))
    assert done.status == 0
    assert target.read_text(encoding="utf-8").splitlines() == [
        _expected_line(c) for c in conversations[:299]] + ["[]"] + [
        _expected_line(c) for c in conversations[299:]]
    assert done.errors == ["semantic-chat: converted 601 conversations to openai-responses"]


def test_jsonl_from_stdin_with_warnings_per_line():
    lines = [to_dict(example_history()), to_dict(example_history())]
    done = run("convert", "--jsonl", "--to", "openai-chat", "--drop-unsupported", "--quiet",
               stdin="".join(jsoncodec.dumps(line) + "\n" for line in lines))
    assert done.status == 0
    assert [formats.detect(json.loads(line)) for line in done.stdout.splitlines()] == [
        "openai-chat", "openai-chat"]
    assert [line.split(": dropped:")[0] for line in done.errors] == [
        "semantic-chat: warning: line 1: messages[2].items[0]",
        "semantic-chat: warning: line 2: messages[2].items[0]",
    ]


def test_a_document_that_is_jsonl_gets_a_hint():
    done = run("convert", "--to", "semantic-chat",
               stdin=json.dumps(chat_conversation(1)) + "\n" + json.dumps(chat_conversation(2)))
    assert done.status == 1
    assert done.errors[0].endswith("(one JSON value per line? pass --jsonl)")


@pytest.mark.parametrize(("signum", "workers", "status"),
                         [(signal.SIGINT, "1", 130), (signal.SIGTERM, "2", 143)])
def test_an_interrupted_run_leaves_no_file(tmp_path, signum, workers, status):
    target = tmp_path / "out.jsonl"
    process = subprocess.Popen(
        [COMMAND, "convert", "--jsonl", "--to", "openai-responses", "-o", str(target),
         "--workers", workers],
        stdin=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    assert process.stdin is not None
    process.stdin.write(
        "".join(json.dumps(chat_conversation(i)) + "\n" for i in range(300)).encode()
    )
    process.stdin.flush()  # stdin stays open: the command waits for more, mid-run
    deadline = time.monotonic() + 30
    while not list(tmp_path.glob(".out.jsonl.*.part")) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert list(tmp_path.glob(".out.jsonl.*.part"))
    time.sleep(0.3)
    process.send_signal(signum)
    _, errors = process.communicate(timeout=30)
    assert process.returncode == status
    assert b"Traceback" not in errors
    assert list(tmp_path.iterdir()) == []
