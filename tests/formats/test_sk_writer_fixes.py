"""Fixes to the Semantic Kernel writers: .NET's ``to_payload`` takes one message, and a
reasoning loss reads as English.

Each test is a reproduction of the defect asserting the fixed behaviour.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import pytest
from format_strategies import chat_histories
from hypothesis import given

from semantic_chat import ChatHistory, ChatMessageContent, ReasoningContent
from semantic_chat.errors import FormatError
from semantic_chat.formats import sk_dotnet, sk_python

WRITERS: dict[str, Callable[..., Any]] = {
    "Semantic Kernel (Python)": sk_python.to_payload,
    ".NET Semantic Kernel": sk_dotnet.to_payload,
}


def _record(write: Callable[[], Any]) -> tuple[Any, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        written = write()
    return written, [str(note.message) for note in caught]


# --- 2. .NET's to_payload takes one message ----------------------------------------------


def test_dotnet_writes_one_message_as_a_history_of_it() -> None:
    message = ChatMessageContent("user", "hi")
    assert sk_dotnet.to_payload(message) == [
        {"Role": {"Label": "user"}, "Items": [{"$type": "TextContent", "Text": "hi"}]}
    ]


def test_dotnet_locates_a_loss_in_one_message_as_in_a_history() -> None:
    message = ChatMessageContent("assistant", items=[ReasoningContent("r", encrypted="e")])
    _, caught = _record(lambda: sk_dotnet.to_payload(message))
    assert caught == [
        "messages[0].items[0].encrypted: dropped: .NET Semantic Kernel cannot carry a "
        "reasoning item's encrypted content"
    ]


def test_dotnet_refuses_an_element_that_is_no_message_at_its_index() -> None:
    with pytest.raises(FormatError) as raised:
        sk_dotnet.to_payload([ChatMessageContent("user", "hi"), "hi"])  # type: ignore[list-item]
    assert raised.value.path == "messages[1]"
    assert str(raised.value) == "messages[1]: expected a ChatMessageContent, got str"


def _outcome(history: Any) -> Any:
    """What .NET's writer gives for ``history``, or the error it raises (arguments that are
    not a JSON object: Chat's strategy keeps any text)."""
    try:
        return sk_dotnet.to_payload(history, on_unsupported="drop")
    except FormatError as error:
        return str(error)


@given(chat_histories(max_messages=4))
def test_property_one_message_is_written_as_a_history_of_it(history: ChatHistory) -> None:
    for message in history:
        alone = _outcome(message)
        assert alone == _outcome([message])
        if isinstance(alone, list):
            assert sk_dotnet.to_payload(sk_dotnet.from_payload(alone)) == alone


# --- 3. a reasoning item's losses read as English ----------------------------------------


@pytest.mark.parametrize("format_name", list(WRITERS))
def test_reasoning_losses_read_as_english(format_name: str) -> None:
    message = ChatMessageContent(
        "assistant", items=[ReasoningContent("r", signature="s", encrypted="e")]
    )
    _, caught = _record(lambda: WRITERS[format_name]([message]))
    assert caught == [
        f"messages[0].items[0].signature: dropped: {format_name} cannot carry a reasoning "
        "signature",
        f"messages[0].items[0].encrypted: dropped: {format_name} cannot carry a reasoning "
        "item's encrypted content",
    ]
