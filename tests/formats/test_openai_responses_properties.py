"""OpenAI Responses: property tests over histories the format carries."""

from __future__ import annotations

from format_helpers import dumps_sorted, validate_responses_payload
from format_strategies import responses_histories, responses_payloads
from hypothesis import given

from semantic_chat.formats import openai_responses


@given(responses_histories())
def test_history_reads_back_exactly_from_a_valid_payload(history):
    payload = openai_responses.to_payload(history)
    validate_responses_payload(payload)
    read = openai_responses.from_payload(payload)
    assert read == history
    assert openai_responses.to_payload(read) == payload
    # to_request adds nothing to a history without instructions or string input
    assert openai_responses.to_request(history) == {"input": payload}


@given(responses_payloads())
def test_valid_payload_reads_and_writes_back_exactly(payload):
    validate_responses_payload(payload)  # the strategy builds only what the SDK accepts
    written = openai_responses.to_payload(openai_responses.from_payload(payload))
    assert written == payload
    assert dumps_sorted(written) == dumps_sorted(payload)
