"""Fixes to the Semantic Kernel writers: a Gemini thought signature on a text or call is
reported, .NET's ``to_payload`` takes one message, and a reasoning loss reads as English.

Each test is a reproduction of the defect asserting the fixed behaviour.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable
from typing import Any

import pytest
from format_strategies import chat_histories
from hypothesis import given
from hypothesis import strategies as st

from semantic_chat import (
    ChatHistory,
    ChatMessageContent,
    FunctionCallContent,
    FunctionResultContent,
    KernelContent,
    ReasoningContent,
    TextContent,
)
from semantic_chat.errors import FormatError, UnsupportedContentError
from semantic_chat.formats import gemini, sk_dotnet, sk_python

WRITERS: dict[str, Callable[..., Any]] = {
    "Semantic Kernel (Python)": sk_python.to_payload,
    ".NET Semantic Kernel": sk_dotnet.to_payload,
}
TEXT_SIGNATURE = "CiQBdGV4dHNpZw=="
CALL_SIGNATURE = "CiQBY2FsbHNpZw=="
RESPONSE = {"candidates": [{"content": {"role": "model", "parts": [
    {"text": "Let me check.", "thought_signature": TEXT_SIGNATURE},
    {"function_call": {"name": "get_weather", "args": {"city": "Paris"}},
     "thought_signature": CALL_SIGNATURE},
]}, "finish_reason": "STOP"}]}
"""The tester's reproduction: a Gemini answer whose text and call are both signed."""


def _signature_loss(where: str, format_name: str) -> str:
    return (
        f'{where}.metadata["gemini"].thought_signature: dropped: {format_name} cannot carry '
        "a Gemini thought signature (it is only valid with Gemini)"
    )


def _first_items(written: Any) -> list[Any]:
    """The first message's items: Python's ``{"messages": [{"items"}]}``, .NET's ``[{"Items"}]``."""
    if isinstance(written, dict):
        return written["messages"][0]["items"]  # type: ignore[no-any-return]
    return written[0]["Items"]  # type: ignore[no-any-return]


def _record(write: Callable[[], Any]) -> tuple[Any, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        written = write()
    return written, [str(note.message) for note in caught]


# --- 1. a Gemini thought signature on a text or call -------------------------------------


@pytest.mark.parametrize("format_name", list(WRITERS))
def test_a_signature_on_a_text_and_a_call_is_reported_at_each(format_name: str) -> None:
    message = gemini.from_response(RESPONSE)
    written, caught = _record(lambda: WRITERS[format_name](message))
    assert caught == [
        _signature_loss("messages[0].items[0]", format_name),
        _signature_loss("messages[0].items[1]", format_name),
    ]
    text = json.dumps(written)
    assert TEXT_SIGNATURE not in text
    assert CALL_SIGNATURE not in text


@pytest.mark.parametrize("format_name", list(WRITERS))
def test_a_signature_is_refused_under_error_at_its_item(format_name: str) -> None:
    message = gemini.from_response(RESPONSE)
    with pytest.raises(UnsupportedContentError) as raised:
        WRITERS[format_name](ChatHistory([message]), on_unsupported="error")
    assert str(raised.value) == (
        'messages[0].items[0].metadata["gemini"].thought_signature: '
        f"{format_name} cannot carry a Gemini thought signature (it is only valid with Gemini) "
        "(pass on_unsupported='warn' to leave it out)"
    )


@pytest.mark.parametrize("format_name", list(WRITERS))
def test_a_signature_is_dropped_silently_only_under_drop(format_name: str) -> None:
    message = gemini.from_response(RESPONSE)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        written = WRITERS[format_name](message, on_unsupported="drop")
    items = _first_items(written)
    assert len(items) == 2
    assert items[0].get("text", items[0].get("Text")) == "Let me check."


@pytest.mark.parametrize("format_name", list(WRITERS))
def test_a_thoughts_signature_is_reported_once_as_reasoning(format_name: str) -> None:
    response = {"candidates": [{"content": {"role": "model", "parts": [
        {"text": "hm", "thought": True, "thought_signature": TEXT_SIGNATURE},
    ]}}]}
    _, caught = _record(lambda: WRITERS[format_name](gemini.from_response(response)))
    assert caught == [
        f"messages[0].items[0].signature: dropped: {format_name} cannot carry a reasoning "
        "signature"
    ]


@pytest.mark.parametrize("format_name", list(WRITERS))
def test_an_unsigned_thoughts_provider_is_reported(format_name: str) -> None:
    # What was seen: a Gemini thought without a signature went through Semantic Kernel JSON
    # without a word, and came back as reasoning of no provider, which gemini.to_request
    # then leaves out ("reasoning of no named provider").
    response = {"candidates": [{"content": {"role": "model", "parts": [
        {"text": "hm", "thought": True}, {"text": "Answer"},
    ]}}]}
    _, caught = _record(lambda: WRITERS[format_name](gemini.from_response(response)))
    assert caught == [
        f"messages[0].items[0].provider: dropped: {format_name} cannot carry the provider "
        "whose reasoning it is (read back, it is no provider's: none sends it back)"
    ]


@pytest.mark.parametrize("format_name", list(WRITERS))
def test_a_signature_on_a_message_is_reported_at_the_message(format_name: str) -> None:
    message = ChatMessageContent(
        "assistant", "hi", metadata={"gemini": {"thought_signature": "c2ln"}, "note": 1}
    )
    written, caught = _record(lambda: WRITERS[format_name]([message]))
    assert caught == [_signature_loss("messages[0]", format_name)]
    assert "c2ln" not in json.dumps(written)


def test_dotnet_reports_a_signature_on_an_item_in_a_result() -> None:
    signed = TextContent("sunny", metadata={"gemini": {"thought_signature": "c2ln"}})
    message = ChatMessageContent("tool", items=[FunctionResultContent("c1", [signed])])
    written, caught = _record(lambda: sk_dotnet.to_payload(message))
    assert caught == [_signature_loss("messages[0].items[0].result[0]", ".NET Semantic Kernel")]
    assert written[0]["Items"][0]["Result"] == [{"$type": "TextContent", "Text": "sunny"}]


def test_other_gemini_hints_are_not_reported() -> None:
    message = ChatMessageContent(
        "user", items=[TextContent("hi", metadata={"gemini": {"video_metadata": {}}})]
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert sk_dotnet.to_payload(message) == [
            {"Role": {"Label": "user"}, "Items": [{"$type": "TextContent", "Text": "hi"}]}
        ]
        assert sk_python.to_payload(message)["messages"][0]["items"] == [
            {"metadata": {}, "content_type": "text", "text": "hi"}
        ]


def _item(signed: bool, call: bool, index: int) -> KernelContent:
    metadata = {"gemini": {"thought_signature": f"c2ln{index}"}} if signed else None
    if call:
        return FunctionCallContent(id=f"c{index}", name="f", arguments="{}", metadata=metadata)
    return TextContent(f"t{index}", metadata=metadata)


@given(st.lists(st.tuples(st.booleans(), st.booleans()), min_size=1, max_size=6))
def test_property_each_signed_item_is_reported_once_where_it_is(
    shapes: list[tuple[bool, bool]],
) -> None:
    message = ChatMessageContent(
        "assistant", items=[_item(signed, call, n) for n, (signed, call) in enumerate(shapes)]
    )
    for format_name, write in WRITERS.items():
        written, caught = _record(lambda write=write: write(message))  # type: ignore[misc]
        assert caught == [
            _signature_loss(f"messages[0].items[{n}]", format_name)
            for n, (signed, _) in enumerate(shapes)
            if signed
        ]
        assert "c2ln" not in json.dumps(written)


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
