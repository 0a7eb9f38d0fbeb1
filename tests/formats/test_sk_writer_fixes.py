"""Fixes to the Semantic Kernel writers: a reasoning loss reads as English.

Each test is a reproduction of the defect asserting the fixed behaviour.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import pytest

from semantic_chat import ChatMessageContent, ReasoningContent
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
