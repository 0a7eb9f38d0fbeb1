"""``semantic-chat example``, ``formats``, ``--version`` and ``python -m semantic_chat``."""

import json
import sys

from cli_helpers import example_json, run

from semantic_chat import __version__, formats
from semantic_chat.example import example_history
from semantic_chat.history import ChatHistory
from semantic_chat.serialization import from_json
from semantic_chat.transcript import render_transcript


def test_example_prints_the_bundled_conversation_in_our_json():
    done = run("example")
    assert (done.status, done.stderr) == (0, "")
    assert done.stdout == example_json() + "\n"  # piped: one compact line
    assert from_json(done.stdout, ChatHistory) == example_history()


def test_example_indents_when_asked():
    done = run("example", "--indent")
    assert done.status == 0
    assert done.stdout.startswith('{\n  "version": 1,\n  "messages": [\n')
    assert from_json(done.stdout, ChatHistory) == example_history()


def test_example_in_another_format_drops_with_one_warning_line_each():
    done = run("example", "--to", "openai-responses", "--drop-unsupported")
    assert done.status == 0
    payload = json.loads(done.stdout)
    assert isinstance(payload, list)
    assert formats.detect(payload) == "openai-responses"
    assert done.errors == [
        "semantic-chat: warning: messages[1].name: dropped: OpenAI Responses cannot carry "
        "the name of a user message",
        "semantic-chat: warning: messages[1].items[2]: dropped: OpenAI Responses cannot carry "
        "audio content in a user message",
        "semantic-chat: warning: messages[2].items[0]: dropped: OpenAI Responses cannot carry "
        "reasoning content without the id of an OpenAI reasoning item",
    ]


def test_example_refuses_what_the_format_cannot_carry_when_asked():
    done = run("example", "--to", "openai-chat", "--on-unsupported", "error")
    assert (done.status, done.stdout) == (1, "")
    assert done.errors == [
        "semantic-chat: messages[2].items[0]: OpenAI Chat Completions cannot carry reasoning "
        "content in an assistant message (pass --drop-unsupported to leave it out)"
    ]


def test_example_writes_a_file(tmp_path):
    target = tmp_path / "example.json"
    done = run("example", "--output", str(target))
    assert (done.status, done.stdout, done.stderr) == (0, "", "")
    assert target.read_text(encoding="utf-8") == example_json() + "\n"
    assert [path.name for path in tmp_path.iterdir()] == ["example.json"]


def test_formats_lists_each_format_with_what_it_carries():
    done = run("formats")
    assert done.status == 0
    lines = done.stdout.splitlines()
    assert [line.split()[0] for line in lines] == [
        "anthropic", "gemini", "openai-chat", "openai-responses", "semantic-chat", "sk-dotnet",
        "sk-python",
    ]
    for line, name in zip(lines, formats.names(), strict=True):
        assert line.endswith("  " + formats.get(name).summary)


def test_version_and_missing_command():
    assert run("--version").stdout == f"semantic-chat {__version__}\n"
    done = run()
    assert done.status == 2
    assert done.errors == [
        "semantic-chat: error: missing command (example, convert, validate, show, formats) "
        "(see semantic-chat --help)"
    ]


def test_python_dash_m_runs_the_same_command():
    module = [sys.executable, "-m", "semantic_chat"]
    done = run("example", command=module)
    assert (done.status, done.stdout) == (0, example_json() + "\n")
    done = run("convert", "--to", "nope", command=module)
    assert done.status == 2
    assert done.errors[0].startswith("semantic-chat convert: error: argument --to: invalid choice")


def test_python_dash_m_without_arguments_keeps_the_transcript_and_round_trip():
    done = run(command=[sys.executable, "-m", "semantic_chat"])
    assert done.status == 0
    assert done.stdout.startswith(render_transcript(example_history()) + "\n\nContains 5 messages")
    assert done.stdout.endswith("read back: identical.\n")
