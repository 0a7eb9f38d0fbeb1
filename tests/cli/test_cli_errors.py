"""Every error path: one line on stderr, status 2 for usage and 1 for bad input."""

import json
from concurrent.futures import ThreadPoolExecutor

import pytest
from cli_helpers import chat_conversation, example_json, run


def _make_files(directory):
    (directory / "good.json").write_text(json.dumps(chat_conversation(1)))
    (directory / "broken.json").write_text('{"version": 1, "messages": [')
    (directory / "other.json").write_text('{"hello": "world"}')
    (directory / "example.json").write_text(example_json())
    (directory / "data.jsonl").write_text(json.dumps(chat_conversation(1)) + "\n")
    (directory / "sub").mkdir()
    return directory


CASES = [
    # (arguments, status, the error line or its start)
    (["convert", "missing.json", "--to", "openai-chat"], 1,
     "semantic-chat: missing.json: No such file or directory"),
    (["convert", "broken.json", "--to", "openai-chat"], 1,
     "semantic-chat: line 1, column 29: malformed JSON: "),
    (["convert", "other.json", "--to", "openai-chat"], 1,
     "semantic-chat: cannot tell the format of this dict: pass --from (one of anthropic, "
     "gemini, openai-chat, openai-responses, semantic-chat, sk-dotnet, sk-python)"),
    (["convert", "example.json", "--to", "openai-chat"], 1,
     "semantic-chat: messages[2].items[0]: OpenAI Chat Completions cannot carry reasoning "
     "content in an assistant message (pass --drop-unsupported to leave it out)"),
    (["convert", "good.json", "--to", "openai-chat", "-o", "nowhere/out.json"], 1,
     "semantic-chat: nowhere/out.json: cannot write: the folder nowhere does not exist"),
    (["convert", "good.json", "--to", "xml"], 2,
     "semantic-chat convert: error: argument --to: invalid choice: 'xml' (choose from "
     "'anthropic', 'gemini', 'openai-chat', 'openai-responses', 'semantic-chat', "
     "'sk-dotnet', 'sk-python', 'parquet') (see "
     "semantic-chat convert --help)"),
    (["validate", "good.json", "--format", "xml"], 2,
     "semantic-chat validate: error: argument --format/--from: invalid choice: 'xml'"),
    (["convert", "good.json"], 2,
     "semantic-chat convert: error: the following arguments are required: --to"),
    (["convert", "good.json", "--to", "openai-chat", "-o", "good.json"], 2,
     "semantic-chat: --output good.json: is the input file; write to another path"),
    (["convert", "good.json", "--to", "openai-chat", "-o", "./sub/../good.json"], 2,
     "semantic-chat: --output ./sub/../good.json: is the input file"),
    (["convert", "good.json", "--to", "openai-chat", "-o", "."], 2,
     "semantic-chat: --output .: is a directory"),
    (["convert", "data.jsonl", "--to", "openai-chat", "--indent"], 2,
     "semantic-chat: --indent does not apply to JSONL"),
    (["convert", "data.jsonl", "--to", "openai-chat", "--workers", "two"], 2,
     "semantic-chat convert: error: argument -j/--workers: expected a whole number"),
    (["show", "--colour", "always"], 2, "semantic-chat: error: unrecognized arguments: --colour"),
    (["frobnicate"], 2, "semantic-chat: error: argument COMMAND: invalid choice: 'frobnicate'"),
    (["show", "missing.json"], 1, "semantic-chat: missing.json: No such file or directory"),
]


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory):
    """Run every case at once (each in a directory of its own), since each run is a process."""
    # the directories are made here, one after another: mktemp is not safe across threads
    directories = [_make_files(tmp_path_factory.mktemp("case")) for _ in CASES]

    def one(case, directory):
        before = (directory / "good.json").read_bytes()
        done = run(*case[0], cwd=directory)
        untouched = (directory / "good.json").read_bytes() == before
        return done, untouched, sorted(path.name for path in directory.glob(".*.part"))

    with ThreadPoolExecutor(max_workers=4) as pool:
        done = pool.map(one, CASES, directories)
        return dict(zip((" ".join(case[0]) for case in CASES), done, strict=True))


@pytest.mark.parametrize(("args", "status", "message"), CASES, ids=[" ".join(c[0]) for c in CASES])
def test_error(outcomes, args, status, message):
    done, input_untouched, leftovers = outcomes[" ".join(args)]
    assert (done.status, done.stdout) == (status, "")
    assert len(done.errors) == 1, done.stderr
    assert done.errors[0].startswith(message)
    assert input_untouched
    assert leftovers == []


def test_debug_shows_the_traceback(tmp_path):
    done = run("convert", "broken.json", "--to", "openai-chat", "--debug", cwd=_make_files(tmp_path))
    assert done.status == 1
    assert "Traceback" in done.stderr
    assert "SerializationError: line 1, column 29: malformed JSON" in done.stderr


CHUNK = ('{"id":"c1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":'
         '[{"index":0,"delta":{"role":"assistant","content":"Hi"},"finish_reason":null}]}')
ONE_EVENT = (
    "semantic-chat: {where}this is one event of an OpenAI Chat Completions stream, not a "
    "conversation: accumulate the whole stream (its format's from_stream over every event, "
    "then StreamingChatMessageContent.accumulate(...).to_message())"
)
CAPTURE = (
    "semantic-chat: this is a server-sent events capture ('data:' lines), not JSON: a recorded "
    "stream is read in Python (the JSON of each data line, given to its format's from_stream, "
    "then StreamingChatMessageContent.accumulate(...).to_message())"
)


@pytest.mark.parametrize(("files", "args", "message"), [
    ({"s.json": CHUNK}, ["s.json"], ONE_EVENT.format(where="")),
    ({"s.json": CHUNK}, ["s.json", "--from", "openai-chat"], ONE_EVENT.format(where="")),
    ({"s.jsonl": f"{CHUNK}\n{CHUNK}\n"}, ["s.jsonl"], ONE_EVENT.format(where="line 1: ")),
    ({"s.sse": f"data: {CHUNK}\n\ndata: [DONE]\n\n"}, ["s.sse"], CAPTURE),
    ({"s.sse": "event: message_start\ndata: {}\n\n"}, ["s.sse"], CAPTURE),
    ({"p.parquet": b"PAR1\x15\x04\x80\x00rest of a parquet file"}, ["p.parquet"],
     "semantic-chat: this is a Parquet file, not JSON: convert --engine dask reads Parquet "
     "shards (the 'messages' column); the other commands read JSON and JSONL"),
])
def test_a_stream_or_a_parquet_file_is_named_where_a_conversation_is_expected(
    tmp_path, files, args, message
):
    # What was seen: one chunk (or a chunk a line) gave "cannot tell the format of this dict:
    # pass --from", and then "messages: expected a list of messages, got dict"; a raw SSE
    # capture "line 1, column 1: malformed JSON: unexpected character"; a Parquet file
    # "line 2, column 250: not UTF-8: byte 0x80".
    for name, text in files.items():
        path = tmp_path / name
        path.write_bytes(text if isinstance(text, bytes) else text.encode())
    done = run("convert", *args, "--to", "anthropic", cwd=tmp_path)
    assert (done.status, done.stdout) == (1, "")
    assert done.stderr.splitlines()[0] == message


@pytest.mark.parametrize(("value", "named"), [("null", "null"), ("42", "a number")])
def test_a_json_scalar_is_no_conversation(value, named):
    done = run("convert", "--to", "anthropic", stdin=value)
    assert (done.status, done.stderr) == (
        1, f"semantic-chat: this is {named}, not a conversation (an object or a list)\n")
