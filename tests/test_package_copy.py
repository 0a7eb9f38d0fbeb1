"""A copy of the package imported under another name works as the package does.

`benchmarks/compare_revisions.py` imports an earlier revision as ``semantic_chat_base`` beside
this one. The library tells its own classes from plugins' by their package, so a copy under
another name must count its classes as its own: the registration checks for plugins (no field
written as ``type``) refused the copy's own `UnknownContent` and the import failed.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import semantic_chat

SCRIPT = """
import semantic_chat_copy as copy
from semantic_chat_copy.registry import is_builtin
from semantic_chat_copy.formats import openai_chat
assert is_builtin(copy.UnknownContent) and is_builtin(copy.TextContent)
history = openai_chat.from_payload([{"role": "user", "content": "hi"}])
print(openai_chat.to_payload(history))
"""


def test_a_copy_under_another_name_imports_and_converts(tmp_path: Path) -> None:
    source = Path(semantic_chat.__file__).parent
    shutil.copytree(source, tmp_path / "semantic_chat_copy",
                    ignore=shutil.ignore_patterns("__pycache__"))
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=tmp_path, capture_output=True, text=True,
        check=False,
    )
    assert done.stderr == ""
    assert done.stdout == "[{'role': 'user', 'content': 'hi'}]\n"
