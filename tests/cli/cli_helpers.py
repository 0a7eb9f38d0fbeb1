"""Run the installed ``semantic-chat`` command as a subprocess, and make inputs for it.

Every run checks the rule that holds for all of them: no traceback on stderr unless
``--debug`` was passed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, NamedTuple

from semantic_chat import jsoncodec
from semantic_chat.example import example_history
from semantic_chat.serialization import to_dict

_NEXT_TO_PYTHON = Path(sys.executable).with_name("semantic-chat")
COMMAND = str(_NEXT_TO_PYTHON) if _NEXT_TO_PYTHON.exists() else shutil.which("semantic-chat")
"""The console script of the environment running the tests (or the first on PATH)."""


class Done(NamedTuple):
    status: int
    stdout: str
    stderr: str

    @property
    def errors(self) -> list[str]:
        return self.stderr.splitlines()


def run(*args: str, stdin: str | bytes | None = None, cwd: Path | None = None,
        command: list[str] | None = None, env: dict[str, str] | None = None) -> Done:
    """Run ``semantic-chat ARGS`` and return its exit status, stdout and stderr."""
    assert COMMAND is not None, "semantic-chat is not installed (pip install -e .)"
    environment = {key: value for key, value in os.environ.items() if key != "NO_COLOR"}
    environment.update(env or {})
    data = stdin.encode() if isinstance(stdin, str) else stdin
    done = subprocess.run(
        [*(command or [COMMAND]), *args],
        input=data if data is not None else b"",
        capture_output=True,
        cwd=cwd,
        env=environment,
        timeout=120,
        check=False,
    )
    result = Done(done.returncode, done.stdout.decode(), done.stderr.decode())
    if "--debug" not in args:
        assert "Traceback" not in result.stderr, result.stderr
    return result


def chat_conversation(index: int) -> list[dict[str, Any]]:
    """A small Chat Completions conversation whose texts and ids carry ``index``."""
    call = f"call_{index}"
    return [
        {"role": "user", "content": f"question {index}"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": call,
                    "type": "function",
                    "function": {"name": "lookup", "arguments": json.dumps({"n": index})},
                }
            ],
        },
        {"role": "tool", "tool_call_id": call, "content": f"result {index}"},
        {"role": "assistant", "content": f"answer {index}"},
    ]


BAD_TOOL_MESSAGE = [{"role": "user", "content": "hi"}, {"role": "tool", "content": "x"}]
"""A Chat Completions conversation whose tool message has no ``tool_call_id``."""


def write_jsonl(path: Path, conversations: list[Any], raw: dict[int, str] | None = None) -> Path:
    """Write one conversation per line; ``raw`` puts given text on given (1-based) lines."""
    lines = [jsoncodec.dumps(conversation) for conversation in conversations]
    for number, text in sorted((raw or {}).items()):
        lines.insert(number - 1, text)
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def example_json() -> str:
    """The bundled example in this library's JSON, as `semantic-chat example` writes it."""
    return jsoncodec.dumps(to_dict(example_history()))
