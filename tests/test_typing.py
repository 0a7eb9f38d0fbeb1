"""What mypy --strict infers for typed access to items and histories, seen from a user's file."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

import semantic_chat

pytest.importorskip("mypy")

REPO = Path(semantic_chat.__file__).parent.parent

PROGRAM = """\
from semantic_chat import (
    ChatHistory,
    ChatMessageContent,
    ChatMessageContentItemCollection,
    ImageContent,
    TextContent,
)

collection = ChatMessageContentItemCollection()
history = ChatHistory()
reveal_type(collection.of_type(ImageContent))
reveal_type(collection.first(ImageContent))
reveal_type(history[1:])
reveal_type(history[0])
reveal_type(collection[1:])
reveal_type(ChatMessageContent("user").images)
wrong: TextContent | None = collection.first(ImageContent)
from semantic_chat.serialization import from_json
reveal_type(from_json("{}", ChatHistory))
reveal_type(from_json("{}"))
reveal_type(history.messages)
history.messages = [ChatMessageContent("user")]
from semantic_chat import CONTENT_TYPES
counted = ChatMessageContent("assistant", "hi", usage={"prompt_tokens": 3})
reveal_type(CONTENT_TYPES["text"])
"""


@pytest.fixture(scope="module")
def mypy_output(tmp_path_factory):
    path = tmp_path_factory.mktemp("typing") / "user_code.py"
    path.write_text(PROGRAM, encoding="utf-8")
    # Run from the repository so mypy reads its config and shares the (git-ignored)
    # .mypy_cache that `mypy --strict semantic_chat` warms; a cold run takes several seconds.
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", str(path)],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )
    return result.stdout + result.stderr


def _revealed(output: str, line: int) -> str:
    found = re.search(rf"user_code\.py:{line}: note: Revealed type is \"([^\"]*)\"", output)
    assert found, output
    return found.group(1)


def test_of_type_reveals_a_list_of_the_class(mypy_output):
    assert re.fullmatch(
        r"(builtins\.)?list\[semantic_chat\.contents\.image\.ImageContent\]",
        _revealed(mypy_output, 11),
    )


def test_first_reveals_the_class_or_none(mypy_output):
    assert _revealed(mypy_output, 12) in (
        "semantic_chat.contents.image.ImageContent | None",
        "Union[semantic_chat.contents.image.ImageContent, None]",
    )


def test_history_slice_reveals_a_history(mypy_output):
    assert _revealed(mypy_output, 13) == "semantic_chat.history.ChatHistory"


def test_history_index_reveals_a_message(mypy_output):
    assert _revealed(mypy_output, 14) == "semantic_chat.message.ChatMessageContent"


def test_collection_slice_reveals_a_collection(mypy_output):
    assert _revealed(mypy_output, 15) == (
        "semantic_chat.collection.ChatMessageContentItemCollection"
    )


def test_message_view_reveals_a_typed_list(mypy_output):
    assert re.fullmatch(
        r"(builtins\.)?list\[semantic_chat\.contents\.image\.ImageContent\]",
        _revealed(mypy_output, 16),
    )


def test_typed_access_is_checked_not_any(mypy_output):
    assert re.search(r"user_code\.py:17: error: Incompatible types in assignment", mypy_output)


def test_from_json_with_a_class_reveals_the_class(mypy_output):
    assert _revealed(mypy_output, 19) == "semantic_chat.history.ChatHistory"


def test_from_json_without_a_class_reveals_a_union(mypy_output):
    assert _revealed(mypy_output, 20) in (
        "semantic_chat.history.ChatHistory | semantic_chat.message.ChatMessageContent"
        " | semantic_chat.contents.base.KernelContent",
        "Union[semantic_chat.history.ChatHistory, semantic_chat.message.ChatMessageContent,"
        " semantic_chat.contents.base.KernelContent]",
    )


def test_history_messages_reveals_a_list_of_messages(mypy_output):
    assert re.fullmatch(
        r"(builtins\.)?list\[semantic_chat\.message\.ChatMessageContent\]",
        _revealed(mypy_output, 21),
    )


def test_no_other_errors(mypy_output):
    errors = [line for line in mypy_output.splitlines() if ": error:" in line]
    assert len(errors) == 1, mypy_output


def test_usage_given_as_a_mapping_of_counts_is_accepted(mypy_output):
    # The README: "usage= takes a Usage or a dict of its fields"; mypy refused the dict.
    assert "user_code.py:24:" not in mypy_output


def test_a_registry_is_indexed_by_a_plain_label(mypy_output):
    assert _revealed(mypy_output, 25) == "type[semantic_chat.contents.base.KernelContent]"
