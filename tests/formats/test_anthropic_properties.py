"""Anthropic Messages: property tests over histories and payloads the format carries.

What the format carries is written without a word: every property runs with conversion
warnings turned into errors, so a loss reported for something it does carry fails.
"""

from __future__ import annotations

import itertools
import warnings
from typing import Any

import attrs
from format_helpers import dumps_sorted, validate_anthropic_payload, validate_anthropic_request
from format_strategies import anthropic_histories, anthropic_loose_histories, anthropic_payloads
from hypothesis import given
from strategies import histories

from semantic_chat import ChatHistory, ChatOptions, FunctionResultContent, TextContent
from semantic_chat.contents.metadata import peek_metadata
from semantic_chat.errors import SemanticChatError
from semantic_chat.formats import anthropic as anthropic_format
from semantic_chat.formats.anthropic import reading as anthropic_reading
from semantic_chat.formats.anthropic import writing as anthropic_writing
from semantic_chat.formats.wire import ConversionWarning


def _no_empty_texts(history: ChatHistory) -> ChatHistory:
    """The history with every plain empty or whitespace-only text saying ``"-"``.

    The writer leaves a blank text out beside other blocks, and a message of blank texts
    only (the API refuses both), so one does not read back: test_anthropic_writer_fixes.py
    and test_writer_fixes.py cover that.
    """
    for message in history:
        for item in message.items:
            inner = item.result if type(item) is FunctionResultContent else None
            for each in [item, *(inner if type(inner) is list else [])]:
                if type(each) is TextContent and not each.text.strip() and not each.citations:
                    each.text = "-"
    # A last assistant message is the prefill, which the API refuses ending in whitespace:
    # the writer takes it off (test_writer_edge_fixes.py covers that).
    last = history[-1] if len(history) else None
    if last is not None and last.role == "assistant" and last.items:
        text = last.items[-1]
        if type(text) is TextContent and text.text != text.text.rstrip():
            text.text = text.text.rstrip() or "-"
    return history


def _no_empty_text_blocks(payload: dict[str, Any]) -> dict[str, Any]:
    """The payload with every plain blank text block, and blank string content, saying
    ``"-"`` (see above): in turns, in ``system`` and in tool results alike."""
    def walk(value: Any) -> None:
        if isinstance(value, list):
            for element in value:
                walk(element)
        elif isinstance(value, dict):
            plain_text = value.keys() == {"type", "text"} and value["type"] == "text"
            if plain_text and not value["text"].strip():
                value["text"] = "-"
            content = value.get("content")
            if "role" in value and isinstance(content, str) and not content.strip():
                value["content"] = "-"
            for element in value.values():
                walk(element)

    walk(payload)
    # The prefill (a last assistant turn) may not end in whitespace either (the API's rule).
    turns = payload.get("messages") or []
    if turns and turns[-1].get("role") == "assistant":
        content = turns[-1]["content"]
        if isinstance(content, str):
            turns[-1]["content"] = content.rstrip() or "-"
        elif content and content[-1].get("type") == "text":
            content[-1]["text"] = content[-1]["text"].rstrip() or "-"
    return payload


@given(anthropic_histories().map(_no_empty_texts))
def test_history_reads_back_exactly_from_a_valid_payload(history):
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConversionWarning)
        payload = anthropic_format.to_payload(history)
        validate_anthropic_payload(payload)
        read = anthropic_format.from_payload(payload)
        assert read == history
        # and the payload is a fixed point
        assert anthropic_format.to_payload(read) == payload


@given(anthropic_loose_histories().map(_no_empty_texts))
def test_normalised_history_is_a_fixed_point_after_one_write(history):
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConversionWarning)
        payload = anthropic_format.to_payload(history)
        validate_anthropic_payload(payload)
        read = anthropic_format.from_payload(payload)
        again = anthropic_format.to_payload(read)
        assert again == payload
        assert dumps_sorted(again) == dumps_sorted(payload)
        # the second read equals the first
        assert anthropic_format.from_payload(again) == read
        # the turns alternate, and every user turn's results come first
        roles = [message["role"] for message in payload["messages"]]
        assert all(a != b for a, b in itertools.pairwise(roles))
        for message in payload["messages"]:
            if isinstance(message["content"], list):
                kinds = [block["type"] for block in message["content"]]
                results = kinds.count("tool_result")
                assert kinds[:results] == ["tool_result"] * results


@given(anthropic_loose_histories().map(_no_empty_texts))
def test_a_request_of_a_history_is_a_valid_body(history):
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConversionWarning)
        history.options = ChatOptions(model="claude-sonnet-4-5")
        body = anthropic_format.to_request(history, max_tokens=1024)
        validate_anthropic_request(body)
        assert body == {"model": "claude-sonnet-4-5", "max_tokens": 1024,
                        **anthropic_format.to_payload(history)}


@given(anthropic_payloads().map(_no_empty_text_blocks))
def test_valid_payload_reads_and_writes_back_exactly(payload):
    validate_anthropic_payload(payload)  # the strategy builds only what the SDK accepts
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConversionWarning)
        written = anthropic_format.to_payload(anthropic_format.from_payload(payload))
    assert written == payload
    assert dumps_sorted(written) == dumps_sorted(payload)


@given(anthropic_payloads().map(_no_empty_text_blocks))
def test_a_body_of_a_valid_payload_reads_and_writes_back_exactly(payload):
    body = {"model": "claude-sonnet-4-5", "max_tokens": 256, **payload}
    written = anthropic_format.to_request(anthropic_format.from_request(body))
    assert written == body
    validate_anthropic_request(written)


@given(anthropic_payloads())
def test_the_direct_reader_agrees_with_the_general_reader(payload):
    # from_payload reads common shapes directly; the general reader must give the same.
    messages = []
    if "system" in payload:
        messages.append(anthropic_reading._read_system(payload["system"]))
    names: dict[str, str] = {}
    for index, message in enumerate(payload["messages"]):
        messages.extend(anthropic_reading._read_message(message, f"messages[{index}]", names))
    direct = anthropic_reading.from_payload(payload["messages"], payload.get("system"))
    assert direct == ChatHistory(messages)


@given(anthropic_loose_histories())
def test_the_direct_writer_agrees_with_the_general_writer(history):
    # to_payload writes common shapes directly; the general writer must give the same.
    general = anthropic_writing._to_payload(history, None, True, False)
    assert dumps_sorted(anthropic_format.to_payload(history)) == dumps_sorted(general)


def _without_metadata(history: ChatHistory) -> ChatHistory:
    """The history without metadata: no hints the generator made up (``"anthropic": junk``)."""
    for message in history:
        if peek_metadata(message):
            message.metadata.clear()
        for item in message.items:
            if peek_metadata(item):
                item.metadata.clear()
            if isinstance(item, TextContent) and item.citations:
                item.citations = [attrs.evolve(c, metadata={}) for c in item.citations]
    return history


@given(histories().map(_without_metadata))
def test_anything_the_model_holds_is_written_valid_or_refused_with_its_location(history):
    # Every item kind, any role (custom ones too), names, ids, usage: what the format cannot
    # carry is left out ("drop") or refused at its place; what is written is valid.
    try:
        payload = anthropic_format.to_payload(history, on_unsupported="drop")
    except SemanticChatError as error:
        refused = str(error)
    else:
        validate_anthropic_payload(payload)
        return
    assert refused.startswith("messages[")
