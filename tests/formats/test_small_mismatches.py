"""Two small mismatches users met: a Chat Completions stream accumulated without the
``refusal: null`` hint `from_response` keeps, and the command line calling a JSONL line cut
inside a string an "unexpected control character"."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from itertools import pairwise
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from hypothesis import given
from hypothesis import strategies as st
from json_backends import BACKENDS, backend

from semantic_chat import ChatMessageContent, StreamingChatMessageContent
from semantic_chat.cli.files import parse_json
from semantic_chat.errors import FormatError, SerializationError
from semantic_chat.formats import openai_chat
from semantic_chat.serialization import to_json

# 1. A Chat Completions stream accumulates to from_response of the same reply

ID, MODEL, CREATED, FINGERPRINT = "chatcmpl-ABfw031mOJeYCSHe4yI2ZjOA6kMJL", "gpt-4o-2024-08-06", 1727346168, "fp_5050236cbd"
TEXT = "I'm unable to provide real-time weather updates."
USAGE = {"prompt_tokens": 14, "completion_tokens": 10, "total_tokens": 24,
         "completion_tokens_details": {"reasoning_tokens": 0}}


def _chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    """A chunk of the recorded shape (openai-python's tests: ``stream_text_content``)."""
    return {"id": ID, "object": "chat.completion.chunk", "created": CREATED, "model": MODEL,
            "system_fingerprint": FINGERPRINT,
            "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}]}


USAGE_CHUNK = {"id": ID, "object": "chat.completion.chunk", "created": CREATED, "model": MODEL,
               "system_fingerprint": FINGERPRINT, "choices": [], "usage": USAGE}

# As recorded: the first delta sends "refusal": null, the text follows in pieces.
TEXT_STREAM = [
    _chunk({"role": "assistant", "content": "", "refusal": None}),
    _chunk({"content": "I'm unable to provide"}),
    _chunk({"content": " real-time weather updates."}),
    _chunk({}, "stop"),
    USAGE_CHUNK,
]

CALL = {"id": "call_4XzlGBLtUe9dy3GVNV4jhq7h", "type": "function",
        "function": {"name": "get_weather", "arguments": '{"city":"New York City"}'}}

# As recorded (``stream_single_tool_call_fragments``): no delta names the refusal at all.
CALL_STREAM = [
    _chunk({"role": "assistant", "content": None, "tool_calls": [
        {"index": 0, "id": CALL["id"], "type": "function",
         "function": {"name": "get_weather", "arguments": ""}}]}),
    _chunk({"tool_calls": [{"index": 0, "function": {"arguments": '{"city":'}}]}),
    _chunk({"tool_calls": [{"index": 0, "function": {"arguments": '"New York City"}'}}]}),
    _chunk({}, "tool_calls"),
    USAGE_CHUNK,
]

REFUSAL = "I'm very sorry, but I can't assist with that."
REFUSAL_STREAM = [
    _chunk({"role": "assistant", "content": None, "refusal": ""}),
    _chunk({"refusal": "I'm very sorry,"}),
    _chunk({"refusal": " but I can't assist with that."}),
    _chunk({}, "stop"),
    USAGE_CHUNK,
]


def _completion(message: dict[str, Any], finish: str) -> dict[str, Any]:
    """The non-streamed reply the API gives for the same answer (content and refusal both)."""
    return {"id": ID, "object": "chat.completion", "created": CREATED, "model": MODEL,
            "system_fingerprint": FINGERPRINT, "usage": USAGE,
            "choices": [{"index": 0, "logprobs": None, "finish_reason": finish,
                         "message": {"role": "assistant", **message}}]}


def _streamed(chunks: list[dict[str, Any]]) -> ChatMessageContent:
    return StreamingChatMessageContent.accumulate(openai_chat.from_stream(chunks)).to_message()


def _as_json(message: ChatMessageContent) -> Any:
    """The message's JSON, parsed: key order aside, what `to_json` writes."""
    return json.loads(to_json(message))


def test_a_text_stream_has_from_responses_refusal_hint_and_writes_it_back():
    streamed = _streamed(TEXT_STREAM)
    whole = openai_chat.from_response(
        _completion({"content": TEXT, "refusal": None}, "stop"))
    assert streamed.metadata["openai_chat"]["fields"] == {"refusal": None}
    assert _as_json(streamed) == _as_json(whole)
    assert openai_chat.to_payload([streamed]) == openai_chat.to_payload([whole]) == [
        {"role": "assistant", "content": TEXT, "refusal": None}
    ]


def test_a_tool_call_stream_that_never_names_the_refusal_has_the_hint_too():
    streamed = _streamed(CALL_STREAM)
    whole = openai_chat.from_response(
        _completion({"content": None, "refusal": None, "tool_calls": [CALL]}, "tool_calls"))
    assert _as_json(streamed) == _as_json(whole)
    assert openai_chat.to_payload([streamed]) == openai_chat.to_payload([whole]) == [
        {"role": "assistant", "content": None, "tool_calls": [CALL], "refusal": None}
    ]


def test_a_refusal_stream_has_no_hint_and_writes_the_refusal():
    streamed = _streamed(REFUSAL_STREAM)
    whole = openai_chat.from_response(_completion({"content": None, "refusal": REFUSAL}, "stop"))
    assert "fields" not in streamed.metadata["openai_chat"]
    assert _as_json(streamed) == _as_json(whole)
    assert openai_chat.to_payload([streamed]) == openai_chat.to_payload([whole]) == [
        {"role": "assistant", "content": None, "refusal": REFUSAL}
    ]


def test_the_hint_is_in_the_chunk_that_finishes_the_choice_only():
    chunks = list(openai_chat.from_stream(TEXT_STREAM))
    assert [chunk.metadata["openai_chat"].get("fields") for chunk in chunks] == [
        None, None, None, {"refusal": None}, None
    ]


def _pieces(text: str, cuts: list[int]) -> list[str]:
    bounds = [0, *sorted({min(cut, len(text)) for cut in cuts}), len(text)]
    return [text[start:end] for start, end in pairwise(bounds) if end > start]


@given(
    st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=30),
    st.lists(st.integers(0, 30), max_size=5),
    st.booleans(),
    st.booleans(),
)
def test_any_split_stream_accumulates_to_from_response_and_writes_the_same(
    answer: str, cuts: list[int], refuses: bool, names_refusal: bool
):
    key = "refusal" if refuses else "content"
    first: dict[str, Any] = {"role": "assistant", "content": None if refuses else ""}
    if names_refusal or refuses:
        first["refusal"] = "" if refuses else None
    chunks = [_chunk(first), *(_chunk({key: piece}) for piece in _pieces(answer, cuts))]
    chunks += [_chunk({}, "stop"), USAGE_CHUNK]
    message = {"content": None, "refusal": answer} if refuses else {
        "content": answer, "refusal": None}
    whole = openai_chat.from_response(_completion(message, "stop"))
    streamed = _streamed(chunks)
    assert _as_json(streamed) == _as_json(whole)
    assert openai_chat.to_payload([streamed]) == openai_chat.to_payload([whole])


def test_a_malformed_chunk_is_still_refused_at_its_place():
    with pytest.raises(FormatError, match=r"^chunks\[1\]\.choices\[0\]: expected a choice object"):
        _streamed([TEXT_STREAM[0], {**TEXT_STREAM[3], "choices": ["stop"]}])


# 2. The command line says a JSONL line ends inside a string, where it ends

_NEXT_TO_PYTHON = Path(sys.executable).with_name("semantic-chat")
COMMAND = str(_NEXT_TO_PYTHON) if _NEXT_TO_PYTHON.exists() else shutil.which("semantic-chat")

GOOD = '{"messages": [{"role": "user", "content": "hi"}]}\n'
CUT = '{"messages": [{"role": "user", "content": "abc'
CUT_SAID = "line 2, column 47: malformed JSON: the line ends inside a string opened at column 43"


class Done(NamedTuple):
    status: int
    stdout: list[str]
    errors: list[str]


def _run(*args: str, cwd: Path) -> Done:
    """Run ``semantic-chat ARGS`` as the CLI tests do: exit status, stdout and stderr lines."""
    assert COMMAND is not None, "semantic-chat is not installed (pip install -e .)"
    environment = {key: value for key, value in os.environ.items() if key != "NO_COLOR"}
    done = subprocess.run([COMMAND, *args], input=b"", capture_output=True, cwd=cwd,
                          env=environment, timeout=120, check=False)
    assert "Traceback" not in done.stderr.decode()
    return Done(done.returncode, done.stdout.decode().splitlines(),
                done.stderr.decode().splitlines())


@pytest.mark.parametrize("ending", ["\n", "\r\n", ""], ids=["newline", "crlf", "end-of-file"])
def test_convert_says_the_line_ends_inside_a_string(tmp_path, ending):
    (tmp_path / "cut.jsonl").write_bytes((GOOD + CUT + ending).encode())
    done = _run("convert", "cut.jsonl", "--to", "semantic-chat", cwd=tmp_path)
    assert (done.status, done.errors) == (1, [f"semantic-chat: {CUT_SAID}"])


def test_validate_and_show_say_the_line_ends_inside_a_string(tmp_path):
    (tmp_path / "cut.jsonl").write_text(GOOD + CUT + "\n", encoding="utf-8")
    done = _run("validate", "cut.jsonl", cwd=tmp_path)
    assert done == Done(1, [CUT_SAID, "cut.jsonl: 1 error in 2 conversations"], [])
    done = _run("show", "cut.jsonl", "--line", "2", cwd=tmp_path)
    assert (done.status, done.stdout, done.errors) == (1, [], [f"semantic-chat: {CUT_SAID}"])


def test_a_document_with_a_string_open_at_a_line_end_is_said_so(tmp_path):
    (tmp_path / "cut.json").write_text('{"messages":\n  [{"role": "user", "content": "a\nb"}]}',
                                       encoding="utf-8")
    done = _run("show", "cut.json", cwd=tmp_path)
    assert (done.status, done.errors) == (1, [
        "semantic-chat: line 2, column 34: malformed JSON: the line ends inside a string "
        "opened at column 32"
    ])


def test_other_errors_keep_the_parsers_words(tmp_path):
    (tmp_path / "bad.jsonl").write_text(
        GOOD + '{"messages": [{"role": "user", "content": "a"\n', encoding="utf-8")
    done = _run("validate", "bad.jsonl", cwd=tmp_path)
    assert done.stdout == ["line 2, column 46: malformed JSON: unexpected end of data",
                           "bad.jsonl: 1 error in 2 conversations"]


@pytest.mark.parametrize("name", BACKENDS)
@pytest.mark.parametrize(("line", "said"), [
    (CUT + "\n", "the line ends inside a string opened at column 43: line 1 column 47 (char 46)"),
    (CUT, "the line ends inside a string opened at column 43: line 1 column 47 (char 46)"),
    ('{"a": "\\"q\u00e9\r\n', "the line ends inside a string opened at column 7: line 1 column 12 (char 11)"),
    ('{"a":\n "x\n', "the line ends inside a string opened at column 2: line 2 column 4 (char 9)"),
])
def test_both_backends_say_where_the_line_ends_inside_a_string(name, line, said):
    with backend(name), pytest.raises(SerializationError) as caught:
        parse_json(line.encode())
    assert str(caught.value) == f"malformed JSON: {said}"


@pytest.mark.parametrize("name", BACKENDS)
@pytest.mark.parametrize("line", [
    '{"a": "a\tb"}\n',  # a tab inside the string: the parser's error, at the tab
    '{"a" "b\n',  # the missing colon comes first
    '{"a": "ab\\\n',  # an escape cut by the line's end: the parser's invalid escape
    '{"a": "b"\n',  # no string open at the end
])
def test_an_error_before_the_line_end_keeps_the_parsers_words(name, line):
    with backend(name), pytest.raises(SerializationError) as caught:
        parse_json(line.encode())
    assert "inside a string" not in str(caught.value)
    assert str(caught.value).startswith("malformed JSON: ")
