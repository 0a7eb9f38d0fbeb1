"""Batch lines on the command line: models, token limits, failed results, bytes and options.

- A Batch request line without a model converted for Anthropic's or OpenAI's Batch API (which
  take a model in every line) is an error of ``convert`` and ``validate`` located at the line;
  ``--max-tokens`` reaches a Batch line's request (and a Gemini body's) as any request's.
- ``errored`` / ``canceled`` / ``expired`` results lines (Gemini and OpenAI error lines too)
  are shown as what they are and do not stop ``show``; ``validate`` warns about them.
- Bytes that are not UTF-8 are placed at the first bad byte; a UTF-16 file is named so.
- ``--max-tokens`` past the 64-bit range is the option's usage error.
"""

from __future__ import annotations

import json
from pathlib import Path

import pydantic
import pytest
from anthropic.types.messages import batch_create_params
from cli_helpers import run
from hypothesis import given, settings
from hypothesis import strategies as st

from semantic_chat import formats
from semantic_chat.batch import convert_batch
from semantic_chat.cli import main
from semantic_chat.cli.files import parse_json
from semantic_chat.cli.pipeline import Job, transform
from semantic_chat.errors import FormatError, SerializationError
from semantic_chat.formats.validation import Problem, failed_request

GEMINI_LINE = {"key": "request-1", "request": {"contents": [
    {"role": "user", "parts": [{"text": "Describe photosynthesis."}]}
]}}
NO_MODEL = (
    "the source names no model, and an Anthropic Message Batches line needs one "
    '(params.model): add "model" to the line\'s request (no option gives one)'
)
NO_MODEL_OPENAI = (
    "the source names no model, and an OpenAI Batch line needs one (body.model): add "
    '"model" to the line\'s request (no option gives one)'
)
SUCCEEDED = {"custom_id": "r1", "result": {"type": "succeeded", "message": {
    "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-haiku-4-5",
    "content": [{"type": "text", "text": "Hi there"}], "stop_reason": "end_turn",
    "stop_sequence": None, "usage": {"input_tokens": 5, "output_tokens": 3},
}}}
EXPIRED = {"custom_id": "r0", "result": {"type": "expired"}}
ERRORED = {"custom_id": "r2", "result": {"type": "errored", "error": {"type": "error", "error": {
    "type": "invalid_request_error", "message": "max_tokens: Field required"}}}}
GEMINI_ERROR = {"key": "k3", "error": {"code": 3, "message": "Invalid", "status": "INVALID_ARGUMENT"}}
OPENAI_ERROR = {"id": "b1", "custom_id": "c1", "response": None,
                "error": {"code": "batch_expired", "message": "window expired"}}


def _jsonl(path, *lines):
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return str(path)


def _run(capsys, *args):
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


# --- 1. a Batch line's model and token limit ---------------------------------------------------


@pytest.mark.parametrize(("target", "message"), [
    ("anthropic", NO_MODEL), ("openai-chat", NO_MODEL_OPENAI), ("openai-responses", NO_MODEL_OPENAI),
])
def test_convert_refuses_a_batch_line_without_a_model(tmp_path, capsys, target, message):
    source = _jsonl(tmp_path / "g.jsonl", GEMINI_LINE)
    status, out, err = _run(capsys, "convert", source, "--to", target, "--max-tokens", "77")
    assert (status, out, err) == (1, "", f"semantic-chat: line 1: request: {message}\n")


def test_validate_reports_a_batch_line_without_a_model(tmp_path, capsys):
    source = _jsonl(tmp_path / "g.jsonl", GEMINI_LINE)
    status, out, _ = _run(capsys, "validate", source, "--to", "anthropic", "--max-tokens", "77")
    assert status == 1
    assert out == f"line 1: request: {NO_MODEL}\n{source}: 1 error in 1 conversation\n"


def test_an_anthropic_line_without_a_model_is_refused_for_openai_too():
    line = {"custom_id": "a", "params": {"max_tokens": 5, "messages": [
        {"role": "user", "content": "hi"}]}}
    with pytest.raises(FormatError) as caught:
        transform(Job(None, "openai-chat"), line)
    assert str(caught.value) == (
        "params: the source names no model, and an OpenAI Batch line needs one (body.model): "
        'add "model" to the line\'s params (no option gives one)'
    )


def test_a_gemini_line_needs_no_model_for_gemini_and_gets_max_tokens():
    _, text, notes = transform(Job(None, "gemini", max_tokens=77), GEMINI_LINE)
    assert json.loads(text) == {"key": "request-1", "request": {
        "contents": [{"role": "user", "parts": [{"text": "Describe photosynthesis."}]}],
        "generation_config": {"max_output_tokens": 77},
    }}
    assert notes == []


def test_max_tokens_reaches_a_batch_line_with_a_model_and_the_sdk_takes_it(tmp_path, capsys):
    line = {"key": "request-1", "request": {"model": "claude-haiku-4-5", **GEMINI_LINE["request"]}}
    source = _jsonl(tmp_path / "g.jsonl", line)
    status, out, _ = _run(capsys, "convert", source, "--to", "anthropic", "--max-tokens", "77")
    written = json.loads(out)
    assert (status, written) == (0, {"custom_id": "request-1", "params": {
        "model": "claude-haiku-4-5", "max_tokens": 77,
        "messages": [{"role": "user", "content": "Describe photosynthesis."}],
    }})
    pydantic.TypeAdapter(batch_create_params.Request).validate_python(written)


def test_max_tokens_reaches_a_gemini_body_but_not_a_fine_tuning_line():
    body = {"contents": [{"parts": [{"text": "Hi"}]}]}
    fine_tuning = {"messages": [{"role": "user", "content": "Hi"}]}
    job = Job(None, "anthropic", max_tokens=77)
    assert json.loads(transform(job, body)[1]) == {
        "max_tokens": 77, "messages": [{"role": "user", "content": "Hi"}]
    }
    assert json.loads(transform(job, fine_tuning)[1]) == {
        "messages": [{"role": "user", "content": "Hi"}]
    }


def test_the_library_checks_the_same():
    assert formats.validate(GEMINI_LINE, target="anthropic", max_tokens=77) == [
        Problem("request", NO_MODEL)
    ]
    assert formats.validate(GEMINI_LINE) == []
    with pytest.raises(FormatError) as caught:
        convert_batch({"messages": [GEMINI_LINE]}, target="anthropic", max_tokens=77)
    assert str(caught.value) == f"batch row 0: request: {NO_MODEL}"
    recorded = convert_batch(
        {"messages": [GEMINI_LINE]}, target="anthropic", on_error="record", max_tokens=77
    )
    assert recorded["messages"] == [None]
    assert recorded["problems"] == [[f"request: {NO_MODEL}"]]


@settings(max_examples=40, deadline=None)
@given(
    text=st.text(min_size=1).filter(str.strip),
    model=st.from_regex(r"[a-z][a-z0-9.-]{0,20}", fullmatch=True),
    tokens=st.integers(1, 2**63 - 1),
)
def test_a_gemini_batch_line_round_trips_through_anthropic(text, model, tokens):
    line = {"key": "k", "request": {"model": model, "contents": [
        {"role": "user", "parts": [{"text": text}]}]}}
    _, there, _ = transform(Job(None, "anthropic", max_tokens=tokens), line)
    params = json.loads(there)["params"]
    assert (params["model"], params["max_tokens"]) == (model, tokens)
    _, back, _ = transform(Job(None, "gemini"), json.loads(there))
    assert json.loads(back) == {"key": "k", "request": {
        **line["request"], "generation_config": {"max_output_tokens": tokens}
    }}


# --- 2. results lines of requests that got no reply --------------------------------------------


def test_show_shows_an_expired_line_and_goes_on(tmp_path, capsys):
    source = _jsonl(tmp_path / "results.jsonl", EXPIRED, SUCCEEDED)
    status, out, err = _run(capsys, "show", "--color", "never", source)
    assert (status, err) == (0, "")
    assert out == (
        "══ line 1 · anthropic\n(no reply: request r0: expired)\n\n"
        "══ line 2 · anthropic\n── assistant  · model=claude-haiku-4-5, finish=stop, tokens=8\n"
        "   Hi there\n\nContains 1 message; items: 1 text.\n"
    )


def test_show_html_lists_a_failed_line_without_a_page(tmp_path, capsys):
    source = _jsonl(tmp_path / "results.jsonl", EXPIRED, SUCCEEDED)
    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / "conversation-1.html").write_text("an earlier run's page")
    status, _, err = _run(capsys, "show", "--html", "-o", str(pages), source)
    assert status == 0
    assert err == (
        f"semantic-chat: wrote 1 conversation page and index.html to {pages} (1 line without "
        "a reply: no page); removed 1 page an earlier run left for other lines\n"
    )
    assert sorted(path.name for path in pages.iterdir()) == ["conversation-2.html", "index.html"]
    index = (pages / "index.html").read_text()
    assert (
        '<tr><td class="number">line 1</td><td class="format">anthropic</td>'
        '<td class="number">0</td><td><span class="none">no reply: request r0: expired'
        "</span></td></tr>\n"
    ) in index
    assert 'href="conversation-2.html"' in index


def test_show_html_of_one_failed_line_says_there_is_no_page(tmp_path, capsys):
    source = _jsonl(tmp_path / "results.jsonl", EXPIRED, SUCCEEDED)
    status, out, err = _run(capsys, "show", "--html", "--line", "1", source)
    assert (status, out) == (1, "")
    assert err == "semantic-chat: line 1: no reply, so no page: request r0: expired\n"


def test_validate_warns_about_failed_lines_and_passes(tmp_path, capsys):
    source = _jsonl(tmp_path / "results.jsonl", EXPIRED, SUCCEEDED, ERRORED)
    status, out, _ = _run(capsys, "validate", source)
    assert status == 0
    assert out == (
        "line 1: warning: no reply to convert: request r0: expired\n"
        "line 3: warning: no reply to convert: request r2: errored: invalid_request_error: "
        "max_tokens: Field required\n"
        f"{source}: 2 warnings in 3 conversations\n"
    )


def test_gemini_and_openai_error_lines_are_warnings(tmp_path, capsys):
    source = _jsonl(tmp_path / "results.jsonl", GEMINI_ERROR, OPENAI_ERROR)
    status, out, _ = _run(capsys, "validate", source)
    assert status == 0
    assert out == (
        "line 1: warning: no reply to convert: request k3: failed: INVALID_ARGUMENT: Invalid\n"
        "line 2: warning: no reply to convert: request c1: failed: batch_expired: window "
        f"expired\n{source}: 2 warnings in 2 conversations\n"
    )


def test_failed_request_words_each_kind():
    canceled = {"custom_id": "r", "result": {"type": "canceled"}}
    as_body = {"id": "b", "custom_id": "c", "error": None, "response": {
        "status_code": 400, "body": {"error": {"message": "bad model", "code": "model_not_found"}}
    }}
    assert failed_request(canceled) == "request r: canceled"
    assert failed_request(as_body) == "request c: failed (status 400): model_not_found: bad model"
    assert failed_request(SUCCEEDED) is None
    assert failed_request(GEMINI_LINE) is None


@pytest.mark.parametrize("line", [
    {"custom_id": "r", "result": {"type": "succeeded"}},  # no message: malformed
    {"key": "k", "response": None},  # neither a response nor an error
    {"custom_id": "c", "response": None, "error": None},
])
def test_a_malformed_results_line_stays_an_error(tmp_path, capsys, line):
    assert failed_request(line) is None
    source = _jsonl(tmp_path / "bad.jsonl", line)
    status, out, _ = _run(capsys, "validate", source)
    assert status == 1
    assert out.startswith("line 1: ")
    assert "no reply to convert" not in out


# --- 3. bytes that are not UTF-8 ---------------------------------------------------------------


def test_a_latin1_byte_is_placed_in_a_document(tmp_path, capsys):
    path = tmp_path / "latin1.json"
    path.write_bytes(b'{"model": "c", "max_tokens": 5,\n "messages": [\n'
                     b'  {"role": "user", "content": "caf\xe9"}]}\n')
    status, out, _ = _run(capsys, "validate", str(path))
    assert (status, out) == (1, f"line 3, column 35: not UTF-8: byte 0xe9\n{path}: 1 error\n")


def test_a_latin1_byte_is_placed_in_a_jsonl_line(tmp_path, capsys):
    path = tmp_path / "latin1.jsonl"
    good = json.dumps(SUCCEEDED).encode()
    path.write_bytes(good + b'\n{"custom_id":"a","params":{"model":"c","max_tokens":5,'
                     b'"messages":[{"role":"user","content":"caf\xe9"}]}}\n')
    for command in (["convert", str(path), "--to", "gemini"], ["show", str(path)]):
        status, _, err = _run(capsys, *command)
        assert (status, err) == (1, "semantic-chat: line 2, column 96: not UTF-8: byte 0xe9\n")


def test_a_utf16_file_is_named(tmp_path, capsys):
    path = tmp_path / "u16.json"
    path.write_bytes('{"messages": [{"role": "user", "content": "hi"}]}'.encode("utf-16"))
    status, _, err = _run(capsys, "show", str(path))
    assert (status, err) == (
        1, "semantic-chat: not UTF-8: the text is UTF-16 (it starts with a UTF-16 byte order "
        "mark)\n",
    )


def test_parse_json_keeps_other_errors():
    assert parse_json('{"a": "é"}'.encode()) == {"a": "é"}
    with pytest.raises(SerializationError) as caught:
        parse_json(b'{"a": ')
    assert str(caught.value).startswith("malformed JSON: ")
    with pytest.raises(SerializationError) as caught:
        parse_json(b'["\xc3\xa9", "\xff"]')
    assert str(caught.value) == "not UTF-8: byte 0xff: line 1 column 8 (char 7)"


# --- 4. a token limit past 64 bits -------------------------------------------------------------


@pytest.mark.parametrize("command", ["convert", "validate"])
def test_a_huge_max_tokens_is_a_usage_error(tmp_path, capsys, command):
    source = tmp_path / "chat.json"
    source.write_text('[{"role": "user", "content": "hi"}]')
    extra = ["--to", "anthropic"] if command == "convert" else []
    with pytest.raises(SystemExit) as caught:
        main([command, str(source), *extra, "--max-tokens", "99999999999999999999"])
    assert caught.value.code == 2
    assert capsys.readouterr().err == (
        f"semantic-chat {command}: error: argument --max-tokens: expected at most "
        "9,223,372,036,854,775,807 tokens (a 64-bit integer), got '99999999999999999999' "
        f"(see semantic-chat {command} --help)\n"
    )


def test_the_largest_max_tokens_is_taken(tmp_path, capsys):
    source = tmp_path / "chat.json"
    source.write_text('{"model": "m", "messages": [{"role": "user", "content": "hi"}]}')
    status, out, _ = _run(
        capsys, "convert", str(source), "--to", "anthropic", "--max-tokens", str(2**63 - 1)
    )
    assert (status, json.loads(out)["max_tokens"]) == (0, 2**63 - 1)


# --- validate --format reads what convert --to wrote ------------------------------------------

OPENAI_LINE = ('{"custom_id":"r0","method":"POST","url":"/v1/chat/completions","body":{"model":'
               '"gpt-4o","messages":[{"role":"user","content":"Hi"}]}}')
GEMINI_RESULT = ('{"key":"g0","response":{"candidates":[{"content":{"role":"model","parts":'
                 '[{"text":"Hello"}]},"finishReason":"STOP"}]}}')


@pytest.mark.parametrize(("line", "target"), [
    (OPENAI_LINE, "semantic-chat"), (GEMINI_RESULT, "anthropic"), (OPENAI_LINE, "gemini"),
])
def test_validate_with_format_reads_a_batch_line_convert_wrote(
    tmp_path: Path, line: str, target: str
) -> None:
    # What was seen: "line 1: version: missing the format version" for an OpenAI Batch line of
    # our JSON, and "messages: expected a list of messages or an Anthropic Messages document,
    # got a Gemini Batch result line" for a Gemini results line of Anthropic messages: the
    # lines convert --from read, and convert --to had just written.
    (tmp_path / "in.jsonl").write_text(line + "\n")
    assert run("convert", "in.jsonl", "--to", target, "-q", "-o", "out.jsonl",
               cwd=tmp_path).status == 0
    done = run("validate", "out.jsonl", "--format", target, cwd=tmp_path)
    assert (done.status, done.stdout) == (
        0, f"out.jsonl: no problems in 1 conversation (1 {target})\n")
    converted = run("convert", "out.jsonl", "--from", target, "--to", "openai-chat", "-q",
                    cwd=tmp_path)
    assert converted.status == 0


def test_validate_with_format_still_names_the_envelope_it_cannot_read(tmp_path: Path) -> None:
    (tmp_path / "in.jsonl").write_text(OPENAI_LINE + "\n")
    done = run("validate", "in.jsonl", "--format", "gemini", cwd=tmp_path)
    assert done.status == 1
    assert done.stdout.splitlines()[0].startswith("line 1: ")


def test_a_results_line_reply_has_one_shape_whatever_path_it_came(tmp_path: Path) -> None:
    # What was seen: gemini -> openai-chat gave {"response": [message]}, but gemini ->
    # anthropic -> openai-chat {"response": {"messages": [message]}}: the Anthropic payload
    # {"messages": [...]} read as a request body and was written as the target's request.
    (tmp_path / "g.jsonl").write_text(GEMINI_RESULT + "\n")
    direct = run("convert", "g.jsonl", "--to", "openai-chat", "-q", cwd=tmp_path)
    assert run("convert", "g.jsonl", "--to", "anthropic", "-q", "-o", "a.jsonl",
               cwd=tmp_path).status == 0
    assert json.loads((tmp_path / "a.jsonl").read_text()) == {
        "key": "g0", "response": {"messages": [{"role": "assistant", "content": "Hello"}]}}
    through = run("convert", "a.jsonl", "--to", "openai-chat", "-q", cwd=tmp_path)
    expected = {"key": "g0", "response": [{"role": "assistant", "content": "Hello"}]}
    assert json.loads(direct.stdout) == json.loads(through.stdout) == expected


def test_formats_convert_keeps_a_batch_lines_envelope_as_the_command_does() -> None:
    # What was seen: formats.convert of a Message Batches line gave the bare body, its
    # custom_id gone without a word, where the README says the line becomes an OpenAI Batch
    # input line (and the command line writes one).
    line = {"custom_id": "req-1", "params": {"model": "claude-sonnet-4-5", "max_tokens": 100,
                                             "messages": [{"role": "user", "content": "Hi"}]}}
    assert formats.convert(line, target="openai-chat") == {
        "custom_id": "req-1", "method": "POST", "url": "/v1/chat/completions",
        "body": {"model": "claude-sonnet-4-5", "messages": [{"role": "user", "content": "Hi"}],
                 "max_completion_tokens": 100}}
    assert formats.convert(line, target="anthropic") == line
    assert formats.convert(line, target="gemini")["key"] == "req-1"
    command = json.loads(run("convert", "--to", "openai-chat", "-q",
                             stdin=json.dumps(line)).stdout)
    assert command == formats.convert(line, target="openai-chat")


def test_formats_convert_locates_a_batch_line_body_problem_under_its_envelope() -> None:
    line = {"custom_id": "req-1", "params": {"model": "m", "max_tokens": 9,
                                             "messages": [{"role": "robot", "content": "Hi"}]}}
    with pytest.raises(FormatError) as raised:
        formats.convert(line, target="openai-chat")
    assert raised.value.path.startswith("params.messages[0]")
