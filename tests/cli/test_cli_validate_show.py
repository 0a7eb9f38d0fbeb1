"""``semantic-chat validate`` and ``semantic-chat show``."""

import json

from cli_helpers import BAD_TOOL_MESSAGE, chat_conversation, example_json, run, write_jsonl

from semantic_chat.example import example_history
from semantic_chat.transcript import render_transcript, summarize


def test_validate_a_good_document(tmp_path):
    source = tmp_path / "example.json"
    source.write_text(example_json(), encoding="utf-8")
    done = run("validate", str(source))
    assert (done.status, done.stderr) == (0, "")
    assert done.stdout == f"{source}: no problems (semantic-chat, 5 messages)\n"


def test_validate_a_bad_document_from_stdin():
    done = run("validate", "--format", "openai-chat", stdin=json.dumps(BAD_TOOL_MESSAGE))
    assert (done.status, done.stderr) == (1, "")
    assert done.stdout.splitlines() == [
        "messages[1]: tool message without tool_call_id",
        "<stdin>: 1 error",
    ]


def test_validate_jsonl_prints_every_problem_with_its_line(tmp_path):
    source = write_jsonl(tmp_path / "in.jsonl", [chat_conversation(i) for i in range(10)],
                         raw={2: '"just a string"', 7: json.dumps(BAD_TOOL_MESSAGE), 9: "[1, 2"})
    done = run("validate", str(source), "--workers", "2", "--from", "openai-chat")
    assert (done.status, done.stderr) == (1, "")
    lines = done.stdout.splitlines()
    assert lines[0] == "line 2: messages: expected a list of messages, got str"
    assert lines[1] == "line 7: messages[1]: tool message without tool_call_id"
    assert lines[2].startswith("line 9, column 6: malformed JSON: ")
    assert lines[3:] == [f"{source}: 3 errors in 13 conversations"]


def test_validate_a_good_jsonl_file_quietly(tmp_path):
    source = write_jsonl(tmp_path / "in.jsonl", [chat_conversation(i) for i in range(3)])
    assert run("validate", str(source)).stdout == (
        f"{source}: no problems in 3 conversations (3 openai-chat)\n"
    )
    assert run("validate", str(source), "--quiet") == (0, "", "")


def test_show_prints_the_transcript_without_colour_when_piped():
    done = run("show", stdin=example_json())
    assert (done.status, done.stderr) == (0, "")
    history = example_history()
    assert done.stdout == f"{render_transcript(history)}\n\nContains {summarize(history)}.\n"
    assert "\x1b[" not in done.stdout
    lines = done.stdout.splitlines()
    assert lines[:7] == [
        "── system",
        "   You are a helpful assistant that can read the weather.",
        "",
        "── user (ada)",
        "   What is in this picture, and what does the clip sound like? Also, what's the "
        "weather in Paris?",
        lines[5],  # the PNG's byte count depends on the encoder
        "   [audio] audio/wav, 0.50 s, 16,044 bytes",
    ]
    assert lines[5].startswith("   [image] image/png, 64x48 px, ")
    assert '   [tool call call_weather_1] get_weather({"city": "Paris", "unit": "celsius"})' in lines


def test_show_in_colour_when_asked():
    done = run("show", "--color", "always", stdin=example_json())
    assert done.status == 0
    assert "\x1b[1m\x1b[35msystem\x1b[0m" in done.stdout
    assert "\x1b[34m[image]\x1b[0m image/png" in done.stdout
    plain = run("show", "--color", "never", stdin=example_json()).stdout
    assert plain.startswith("── system\n")
    assert "\x1b[" not in plain


def test_show_jsonl_heads_each_conversation_with_its_line(tmp_path):
    source = write_jsonl(tmp_path / "in.jsonl", [chat_conversation(1), chat_conversation(2)])
    done = run("show", str(source))
    assert done.status == 0
    blocks = done.stdout.split("\n\n══ ")
    assert blocks[0].splitlines()[:3] == ["══ line 1 · openai-chat", "── user", "   question 1"]
    assert blocks[1].splitlines()[:3] == ["line 2 · openai-chat", "── user", "   question 2"]
    assert "   [tool call call_2] lookup({\"n\": 2})" in blocks[1]


def test_show_a_bad_line(tmp_path):
    source = write_jsonl(tmp_path / "in.jsonl", [chat_conversation(1)],
                         raw={2: json.dumps(BAD_TOOL_MESSAGE)})
    done = run("show", str(source))
    assert done.status == 1
    assert done.errors == ["semantic-chat: line 2: messages[1]: tool message without tool_call_id"]


def test_show_names_a_broken_image_or_clip_instead_of_failing():
    # What was seen: show printed "semantic-chat: PNG: truncated header (8 bytes, need 24)"
    # and exited 1, where validate, convert and show --html had no complaint.
    png_signature = "iVBORw0KGgo="  # the 8 bytes every PNG starts with, and nothing more
    wav_start = "UklGRgAAAABXQVZFZm10IA=="  # RIFF....WAVEfmt , without its fmt chunk
    body = {"model": "claude-sonnet-4-5", "max_tokens": 100, "messages": [{"role": "user", "content": [
        {"type": "text", "text": "see"},
        {"type": "image", "source": {"type": "base64", "media_type": "image/png",
                                     "data": png_signature}},
    ]}]}
    done = run("show", "--color", "never", stdin=json.dumps(body))
    assert (done.status, done.errors) == (0, [])
    assert "   [image] image/png, 8 bytes, unreadable: PNG: truncated header (8 bytes, need " \
        "24)" in done.stdout.splitlines()
    clip = [{"role": "user", "content": [
        {"type": "text", "text": "hear"},
        {"type": "input_audio", "input_audio": {"data": wav_start, "format": "wav"}},
    ]}]
    done = run("show", "--color", "never", stdin=json.dumps(clip))
    assert (done.status, done.errors) == (0, [])
    assert "   [audio] audio/wav, 16 bytes, unreadable: WAV: no fmt chunk" in done.stdout.splitlines()
