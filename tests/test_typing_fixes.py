"""The message helpers' keywords and the batch functions' results, as mypy --strict sees them.

``add_*_message`` and the role helpers (``user()`` ...) took ``**fields: Any``, so a misspelt
or wrongly typed keyword passed mypy; ``convert_batch`` and its siblings returned ``Any``.
Their keywords are now spelt out (building the same message as before), and a batch function
returns a ``dict`` for a mapping and the class it was given for a table.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import messages

import semantic_chat
from semantic_chat import (
    AuthorRole,
    ChatHistory,
    ChatMessageContent,
    FinishReason,
    FunctionResultContent,
    InvalidTypeError,
    InvalidValueError,
    TextContent,
    Usage,
)
from semantic_chat.roles import assistant, system, tool, user

pytest.importorskip("mypy")

REPO = Path(semantic_chat.__file__).parent.parent

PROGRAM = """\
from semantic_chat import ChatHistory, TextContent, Usage
from semantic_chat.batch import convert_batch, to_prompt_batch, validate_batch
from semantic_chat.roles import assistant, system, tool, user

history = ChatHistory()
history.add_user_message("hi", nmae="ada")
user("hi", finish_reason=3)
history.add_assistant_message("a", usage={"prompt_tokens": "3"})
system("s", name=5)
tool("r", call_id="c", metadata=[1])
history.add_tool_message("r", "c", model_id=7)
history.add_developer_message("d", "positional name")
history.add_system_message("s", name="n", id="i", finish_reason="stop", model_id="m")
history.add_user_message(items=[TextContent("hi")], usage={"prompt_tokens": 3})
history.add_assistant_message("a", usage=Usage(1, 2, 3), metadata={"k": 1}, inner_content=0)
history.add_tool_message("r", "c", "fn", True, id="t", finish_reason="stop")
assistant("a", name="bot", model_id="m", usage=Usage(), inner_content=object())
tool("r", call_id="c", is_error=True, name="runner", id="t")
batch = {"messages": ['[{"role": "user", "content": "Hi"}]']}
reveal_type(convert_batch(batch, target="anthropic"))
reveal_type(validate_batch(batch))
reveal_type(to_prompt_batch(batch))
convert_batch([batch], target="anthropic")
"""

WRONG_LINES = {
    6: 'Unexpected keyword argument "nmae" for "add_user_message" of "ChatHistory"',
    7: 'Argument "finish_reason" to "user" has incompatible type "int"',
    8: 'Dict entry 0 has incompatible type "str": "str"; expected "str": "int"',
    9: 'Argument "name" to "system" has incompatible type "int"',
    10: 'Argument "metadata" to "tool" has incompatible type "list[int]"',
    11: 'Argument "model_id" to "add_tool_message" of "ChatHistory" has incompatible type "int"',
    12: 'Too many positional arguments for "add_developer_message" of "ChatHistory"',
    23: 'No overload variant of "convert_batch" matches argument types',
}


@pytest.fixture(scope="module")
def mypy_output(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("typing_fixes") / "user_code.py"
    path.write_text(PROGRAM, encoding="utf-8")
    # From the repository, as tests/test_typing.py: its config and its warm .mypy_cache.
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", str(path)],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )
    return result.stdout + result.stderr


def _errors(output: str) -> dict[int, list[str]]:
    found: dict[int, list[str]] = {}
    for line, message in re.findall(r"user_code\.py:(\d+): error: (.*)", output):
        found.setdefault(int(line), []).append(message)
    return found


def _revealed(output: str, line: int) -> str:
    found = re.search(rf"user_code\.py:{line}: note: Revealed type is \"([^\"]*)\"", output)
    assert found, output
    return found.group(1)


@pytest.mark.parametrize(("line", "expected"), sorted(WRONG_LINES.items()))
def test_a_misspelt_or_wrongly_typed_keyword_is_a_mypy_error_at_its_line(
    mypy_output: str, line: int, expected: str
) -> None:
    assert any(message.startswith(expected) for message in _errors(mypy_output).get(line, []))


def test_correct_calls_pass_and_no_other_line_is_an_error(mypy_output: str) -> None:
    assert set(_errors(mypy_output)) == set(WRONG_LINES), mypy_output


@pytest.mark.parametrize("line", [20, 21, 22])
def test_a_batch_function_given_a_dict_reveals_a_dict(mypy_output: str, line: int) -> None:
    assert re.fullmatch(r"(builtins\.)?dict\[(builtins\.)?str, Any\]", _revealed(mypy_output, line))


# --- run time: the same messages as the constructor builds --------------------------------

KEYWORDS: list[tuple[str, Any, str, Any]] = [
    ("name", "ada", "name", "ada"),
    ("id", "msg_1", "id", "msg_1"),
    ("finish_reason", "stop", "finish_reason", FinishReason.STOP),
    ("usage", {"prompt_tokens": 3}, "usage", Usage(prompt_tokens=3)),
    ("model_id", "gpt-x", "model_id", "gpt-x"),
    ("metadata", {"k": 1}, "metadata", {"k": 1}),
    ("inner_content", {"raw": True}, "inner_content", {"raw": True}),
]

ROLE_HELPERS: list[tuple[Callable[..., ChatMessageContent], AuthorRole]] = [
    (system, AuthorRole.SYSTEM),
    (user, AuthorRole.USER),
    (assistant, AuthorRole.ASSISTANT),
    (tool, AuthorRole.TOOL),
    (ChatHistory().add_system_message, AuthorRole.SYSTEM),
    (ChatHistory().add_developer_message, AuthorRole.DEVELOPER),
    (ChatHistory().add_user_message, AuthorRole.USER),
    (ChatHistory().add_assistant_message, AuthorRole.ASSISTANT),
]


@pytest.mark.parametrize(("make", "role"), ROLE_HELPERS)
@pytest.mark.parametrize(("keyword", "value", "attribute", "expected"), KEYWORDS)
def test_each_keyword_sets_the_same_field_as_the_constructor(
    make: Callable[..., ChatMessageContent],
    role: AuthorRole,
    keyword: str,
    value: Any,
    attribute: str,
    expected: Any,
) -> None:
    message = make("hi", **{keyword: value})
    assert message == ChatMessageContent(role, "hi", **{keyword: value})
    assert message.role is role
    assert list(message.items) == [TextContent("hi")]
    assert getattr(message, attribute) == expected


@pytest.mark.parametrize(("make", "role"), ROLE_HELPERS)
def test_items_keyword_is_taken_as_the_constructor_takes_it(
    make: Callable[..., ChatMessageContent], role: AuthorRole
) -> None:
    message = make(items=[TextContent("a"), TextContent("b")])
    assert message == ChatMessageContent(role, items=[TextContent("a"), TextContent("b")])
    assert list(message.items) == [TextContent("a"), TextContent("b")]


def test_add_methods_append_the_message_they_return() -> None:
    history = ChatHistory()
    made = history.add_user_message("hi", name="ada", usage={"prompt_tokens": 3})
    assert history.messages == [made]
    assert (made.name, made.usage) == ("ada", Usage(prompt_tokens=3))


@pytest.mark.parametrize(("make", "role"), ROLE_HELPERS)
@pytest.mark.parametrize(
    ("keyword", "value", "message"),
    [
        ("finish_reason", 3, "finish_reason: expected a str, got int"),
        ("name", 5, "name: expected a str or None, got int"),
        ("usage", {"prompt_tokens": "3"}, "usage.prompt_tokens: expected an int, got str"),
        ("metadata", [1], "metadata: expected a dict or None, got list"),
    ],
)
def test_a_wrong_type_is_still_a_located_invalid_type_error(
    make: Callable[..., ChatMessageContent],
    role: AuthorRole,
    keyword: str,
    value: Any,
    message: str,
) -> None:
    with pytest.raises(InvalidTypeError) as caught:
        make("hi", **{keyword: value})
    assert str(caught.value) == message


@pytest.mark.parametrize(("make", "role"), ROLE_HELPERS)
def test_a_misspelt_keyword_is_still_a_type_error(
    make: Callable[..., ChatMessageContent], role: AuthorRole
) -> None:
    with pytest.raises(TypeError, match="unexpected keyword argument 'nmae'"):
        make("hi", nmae="ada")


def test_tool_with_a_call_id_puts_the_result_in_one_item_with_the_message_fields() -> None:
    message = tool("42", call_id="call_1", is_error=True, name="runner", model_id="m")
    assert message == ChatMessageContent(
        AuthorRole.TOOL,
        items=[FunctionResultContent("call_1", "42", is_error=True)],
        name="runner",
        model_id="m",
    )


def test_tool_with_a_call_id_and_items_is_a_located_error() -> None:
    with pytest.raises(InvalidTypeError) as caught:
        tool("42", call_id="call_1", items=[FunctionResultContent("call_2", "1")])
    assert str(caught.value) == "items: give call_id= (with the result) or items=, not both"


def test_tool_is_error_without_a_call_id_is_still_refused() -> None:
    with pytest.raises(InvalidValueError) as caught:
        tool([FunctionResultContent("call_1", "1")], is_error=True)
    assert str(caught.value).startswith("is_error: applies to a result given with call_id")


@pytest.mark.parametrize(
    ("keyword", "value", "attribute", "expected"), [k for k in KEYWORDS if k[0] != "name"]
)
def test_add_tool_message_keywords_set_the_message_fields(
    keyword: str, value: Any, attribute: str, expected: Any
) -> None:
    message = ChatHistory().add_tool_message("42", "call_1", "fn", **{keyword: value})
    assert message == ChatMessageContent(
        AuthorRole.TOOL,
        items=[FunctionResultContent("call_1", "42", name="fn")],
        **{keyword: value},
    )
    assert getattr(message, attribute) == expected


def _fields(message: ChatMessageContent) -> dict[str, Any]:
    """Every keyword field of ``message``, as the helpers take them."""
    return {
        "items": list(message.items),
        "name": message.name,
        "id": message.id,
        "finish_reason": message.finish_reason,
        "usage": message.usage,
        "model_id": message.model_id,
        "metadata": message.metadata,
        "inner_content": message.inner_content,
    }


@given(messages(), st.sampled_from(ROLE_HELPERS))
def test_a_message_rebuilt_from_its_fields_by_a_helper_is_equal(
    message: ChatMessageContent, helper: tuple[Callable[..., ChatMessageContent], AuthorRole]
) -> None:
    make, role = helper
    rebuilt = make(**_fields(message))
    assert rebuilt == ChatMessageContent(role, **_fields(message))
    assert rebuilt.role is role
    assert _fields(rebuilt) == _fields(message)
