"""The command line's texts: ``example`` works for every format, positions inside JSONL lines,
one text for empty input, and thousands separators in every count."""

import json

import pytest
from cli_helpers import chat_conversation, run, write_jsonl

from semantic_chat import ChatMessageContent, TextContent, formats
from semantic_chat.example import example_history
from semantic_chat.transcript import summarize

EXAMPLE_WARNINGS = {
    "semantic-chat": [],
    "anthropic": [
        "semantic-chat: warning: messages[1].name: dropped: Anthropic Messages cannot carry "
        "the name of a user message",
        "semantic-chat: warning: messages[1].items[1].detail: dropped: Anthropic Messages "
        "cannot carry an image's detail",
        "semantic-chat: warning: messages[1].items[2]: dropped: Anthropic Messages cannot "
        "carry audio content in a user message",
        "semantic-chat: warning: messages[2].items[0]: dropped: Anthropic Messages cannot "
        "carry reasoning without the signature Anthropic needs back; it is never sent as text",
    ],
    "gemini": [
        "semantic-chat: warning: messages[1].name: dropped: Gemini cannot carry the name of a "
        "user message",
        "semantic-chat: warning: messages[1].items[1].detail: dropped: Gemini cannot carry an "
        "image's detail",
        "semantic-chat: warning: messages[2].items[0]: dropped: Gemini cannot carry reasoning "
        "of no named provider (only its own thoughts, provider 'gemini', are sent back); it is "
        "never sent",
    ],
    "openai-chat": [
        "semantic-chat: warning: messages[2].items[0]: dropped: OpenAI Chat Completions cannot "
        "carry reasoning content in an assistant message",
    ],
    "openai-responses": [
        "semantic-chat: warning: messages[1].name: dropped: OpenAI Responses cannot carry the "
        "name of a user message",
        "semantic-chat: warning: messages[1].items[2]: dropped: OpenAI Responses cannot carry "
        "audio content in a user message",
        "semantic-chat: warning: messages[2].items[0]: dropped: OpenAI Responses cannot carry "
        "reasoning content without the id of an OpenAI reasoning item",
    ],
    "sk-dotnet": [
        "semantic-chat: warning: messages[1].items[1].detail: dropped: .NET Semantic Kernel "
        "cannot carry an image's detail",
    ],
    "sk-python": [
        "semantic-chat: warning: messages[1].items[1].detail: dropped: Semantic Kernel (Python) "
        "cannot carry an image's detail",
    ],
}


def test_every_registered_format_has_its_expected_warnings():
    assert sorted(EXAMPLE_WARNINGS) == formats.names()


@pytest.mark.parametrize("name", sorted(EXAMPLE_WARNINGS))
def test_example_succeeds_for_every_format_and_warns_about_what_it_leaves_out(name):
    done = run("example", "--to", name)
    assert (done.status, done.errors) == (0, EXAMPLE_WARNINGS[name])
    written = json.loads(done.stdout)
    assert formats.detect(written) == name
    assert len(formats.get(name).from_payload(written)) == 5


@pytest.mark.parametrize(("content", "name"), [
    (b"", "empty.json"),
    (b" \n\t\r\n  ", "blank.json"),
    (b"\xef\xbb\xbf\n", "bom.json"),
])
def test_empty_input_has_one_text_everywhere(tmp_path, content, name):
    (tmp_path / name).write_bytes(content)
    for command in (["show", name], ["convert", name, "--to", "openai-chat"]):
        done = run(*command, cwd=tmp_path)
        assert (done.status, done.stdout, done.errors) == (
            1, "", ["semantic-chat: the input is empty: expected a JSON document"]
        )
    done = run("validate", name, cwd=tmp_path)
    assert (done.status, done.stderr) == (1, "")
    assert done.stdout.splitlines() == [
        "the input is empty: expected a JSON document", f"{name}: 1 error"
    ]
    done = run("show", stdin=content)
    assert done.errors == ["semantic-chat: the input is empty: expected a JSON document"]


def test_a_document_error_names_line_and_column(tmp_path):
    (tmp_path / "bad.json").write_text('{"messages":\n  [1 x]}')
    done = run("show", "bad.json", cwd=tmp_path)
    assert (done.status, done.errors) == (1, [
        "semantic-chat: line 2, column 6: malformed JSON: unexpected character, expected ',' "
        "or ']'"
    ])


def _bad_lines(tmp_path):
    return write_jsonl(
        tmp_path / "in.jsonl", [chat_conversation(i) for i in range(5)],
        raw={4: '[{"role": "user", "content": "a"', 6: '[{"role": "user", oops]'},
    )


def test_convert_names_the_column_inside_the_jsonl_line(tmp_path):
    source = _bad_lines(tmp_path)
    done = run("convert", str(source), "--to", "openai-responses")
    assert (done.status, done.errors) == (1, [
        "semantic-chat: line 4, column 33: malformed JSON: unexpected end of data"
    ])
    done = run("convert", str(source), "--to", "openai-responses", "--skip-invalid")
    assert (done.status, done.errors) == (0, [
        "semantic-chat: line 4, column 33: skipped: malformed JSON: unexpected end of data",
        "semantic-chat: line 6, column 19: skipped: malformed JSON: unexpected character, "
        "expected a string key",
        "semantic-chat: converted 5 conversations to openai-responses; skipped 2 invalid lines",
    ])


def test_validate_and_show_name_the_column_inside_the_jsonl_line(tmp_path):
    source = _bad_lines(tmp_path)
    done = run("validate", str(source), "--workers", "2")
    assert (done.status, done.stderr) == (1, "")
    assert done.stdout.splitlines() == [
        "line 4, column 33: malformed JSON: unexpected end of data",
        "line 6, column 19: malformed JSON: unexpected character, expected a string key",
        f"{source}: 2 errors in 7 conversations",
    ]
    done = run("show", str(source))
    assert (done.status, done.errors) == (1, [
        "semantic-chat: line 4, column 33: malformed JSON: unexpected end of data"
    ])


def test_counts_have_thousands_separators(tmp_path):
    source = write_jsonl(tmp_path / "many.jsonl", [chat_conversation(i) for i in range(1000)],
                         raw={1001: "[1"})
    done = run("convert", str(source), "--to", "semantic-chat", "--skip-invalid", "-o",
               str(tmp_path / "out.jsonl"))
    assert (done.status, done.errors) == (0, [
        "semantic-chat: line 1,001, column 3: skipped: malformed JSON: unexpected end of data",
        "semantic-chat: converted 1,000 conversations to semantic-chat; skipped 1 invalid line",
    ])
    done = run("show", str(tmp_path / "out.jsonl"))
    assert done.status == 0
    assert "══ line 1,000 · semantic-chat" in done.stdout.splitlines()


def test_the_summary_and_transcript_use_separators_too():
    history = [ChatMessageContent("user", items=[TextContent("x")] * 3333) for _ in range(1200)]
    assert summarize(history) == "1,200 messages; items: 3,999,600 text"
    example = example_history()
    example[2].usage.total_tokens = 5000
    done = run("show", stdin=json.dumps(formats.get("semantic-chat").to_payload(example)))
    assert "── assistant  · model=example-model, finish=tool_calls, tokens=5,000" in (
        done.stdout.splitlines()
    )
