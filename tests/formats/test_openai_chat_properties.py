"""OpenAI Chat Completions: property tests over histories the format carries."""

from __future__ import annotations

from format_helpers import dumps_sorted, validate_chat_payload
from format_strategies import chat_histories, chat_payloads
from hypothesis import given

from semantic_chat import ChatHistory
from semantic_chat.formats import openai_chat


@given(chat_histories())
def test_history_reads_back_exactly_from_a_valid_payload(history):
    payload = openai_chat.to_payload(history)
    validate_chat_payload(payload)
    # one Chat message per message (each generated tool message holds one result)
    assert [message["role"] for message in payload] == [str(m.role) for m in history]
    read = openai_chat.from_payload(payload)
    assert read == history
    # and the payload is a fixed point
    assert openai_chat.to_payload(read) == payload


@given(chat_payloads())
def test_valid_payload_reads_and_writes_back_exactly(payload):
    validate_chat_payload(payload)  # the strategy builds only what the SDK accepts
    written = openai_chat.to_payload(openai_chat.from_payload(payload))
    assert written == payload
    assert dumps_sorted(written) == dumps_sorted(payload)


@given(chat_payloads())
def test_the_direct_reader_agrees_with_the_general_reader(payload):
    # from_payload reads common shapes directly; the general reader must give the same.
    general = ChatHistory()
    names: dict[str, str] = {}
    for index, message in enumerate(payload):
        general.messages.append(openai_chat.reading._read_message(message, f"messages[{index}]", names))
    assert openai_chat.from_payload(payload) == general


@given(chat_histories())
def test_the_direct_writer_agrees_with_the_general_writer(history):
    # to_payload writes common shapes directly; the general writer must give the same.
    general: list[dict] = []
    for index, message in enumerate(history):
        openai_chat.writing._write_message(message, f"messages[{index}]", general, "raise")
    assert dumps_sorted(openai_chat.to_payload(history)) == dumps_sorted(general)
