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
