"""Cases from the "What was seen" lists of issues 14 and 15 that no other test pinned exactly.

Most cases of both issues are guarded elsewhere (`test_integrity.py`, `test_history.py`,
`formats/test_conversion_losses.py`, `formats/test_documents_and_options.py`, the CLI tests ...).
These are the few that were only covered by a near neighbour, by a property that may not draw
them, or not at all (what the README says).
"""

from __future__ import annotations

import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from semantic_chat import ChatMessageContent, FileContent, InvalidTypeError, streaming
from semantic_chat.diagram import mermaid
from semantic_chat.errors import FormatError, UnsupportedContentError
from semantic_chat.formats import ConversionWarning, Problem, convert, openai_responses, validate
from semantic_chat.serialization import configure_converter, converter, make_converter

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")


# --- issue 14: `FileContent(filename=5)`, exactly as reported (no source given) --------------


def test_file_content_with_only_a_bad_filename_names_the_filename() -> None:
    with pytest.raises(InvalidTypeError) as raised:
        FileContent(filename=5)  # type: ignore[arg-type]
    assert type(raised.value) is InvalidTypeError
    assert str(raised.value) == "filename: expected a str or None, got int"


# --- issue 14: the README says how to teach the converter a type ----------------------------


def test_readme_says_how_to_teach_the_converter_a_field_type() -> None:
    assert "from semantic_chat.serialization import converter" in README
    assert "converter.register_unstructure_hook(" in README
    assert "converter.register_structure_hook(" in README
    assert "configure_converter(your_converter)" in README
    assert "make_converter()" in README
    # and the names it gives are real
    assert callable(configure_converter)
    assert callable(make_converter)
    assert hasattr(converter, "register_structure_hook")


# --- issue 15: an assistant's name is not dropped in silence by openai-responses -------------


def test_an_assistant_name_in_responses_is_a_warning_by_default_and_refused_with_error() -> None:
    history = [ChatMessageContent("assistant", "hello", name="bot")]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        written = openai_responses.to_payload(history)
    assert written == [{"role": "assistant", "content": "hello"}]
    assert [(note.category, str(note.message)) for note in caught] == [(
        ConversionWarning,
        "messages[0].name: dropped: OpenAI Responses cannot carry the name of an assistant "
        "message",
    )]
    with pytest.raises(UnsupportedContentError) as raised:
        openai_responses.to_payload(history, on_unsupported="error")
    assert str(raised.value) == (
        "messages[0].name: OpenAI Responses cannot carry the name of an assistant message "
        "(pass on_unsupported='warn' to leave it out)"
    )


# --- issue 15: validate refuses a `robot` in Chat Completions as convert does ----------------


def test_validate_refuses_a_chat_robot_as_convert_to_the_same_format_does() -> None:
    robot = [{"role": "user", "content": "hi"}, {"role": "robot", "content": "beep"}]
    assert validate(robot, "openai-chat") == [
        Problem("messages[1].role", "OpenAI Chat Completions has no role 'robot'")
    ]
    with pytest.raises(FormatError) as raised:
        convert(robot, "openai-chat", target="openai-chat")
    assert str(raised.value) == "messages[1].role: OpenAI Chat Completions has no role 'robot'"


# --- issue 15: `python -m semantic_chat.diagram` run anywhere writes nothing -----------------


def test_python_dash_m_diagram_prints_and_writes_nothing(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "semantic_chat.diagram"],
        cwd=tmp_path, capture_output=True, text=True, check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == mermaid()
    assert list(tmp_path.iterdir()) == []


# --- issue 15: the README names accumulate_choices where it is, and sum() as it works --------


def test_readme_names_accumulate_choices_where_it_is() -> None:
    assert "StreamingChatMessageContent.accumulate_choices" not in README
    assert "`semantic_chat.streaming.accumulate_choices(chunks)`" in README
    assert callable(streaming.accumulate_choices)
    assert not hasattr(streaming.StreamingChatMessageContent, "accumulate_choices")


def test_readme_sum_of_chunks_works_as_written() -> None:
    assert re.search(r"`sum\(chunks\)` works too", README)
    chunks = [
        streaming.StreamingChatMessageContent("assistant", "Hel"),
        streaming.StreamingChatMessageContent("assistant", "lo"),
    ]
    assert sum(chunks).content == "Hello"  # type: ignore[attr-defined]
