"""OpenAI Responses: a reasoning item's text in its ``content`` (gpt-oss) is the item's text.

What was seen: ``{"type": "reasoning", "summary": [], "content": [{"type": "reasoning_text",
"text": ...}]}`` read as reasoning of no text (the transcript showed ``[reasoning]`` and
nothing), and ``response.reasoning_text.delta`` events gave no text while streaming.
"""

from __future__ import annotations

import copy
from typing import Any

import pydantic
from openai.types.responses import ResponseInputItemParam

from semantic_chat import StreamingChatMessageContent
from semantic_chat.formats import openai_responses

ITEM = {"id": "rs_1", "type": "reasoning", "summary": [],
        "content": [{"type": "reasoning_text", "text": "The user wants a greeting."}]}
ANSWER = {"id": "msg_1", "type": "message", "role": "assistant", "status": "completed",
          "content": [{"type": "output_text", "text": "Hi!", "annotations": []}]}
RESPONSE = {"id": "resp_1", "object": "response", "created_at": 1, "status": "completed",
            "model": "gpt-oss-120b", "output": [ITEM, ANSWER]}


def test_a_reasoning_items_content_text_is_its_text_and_written_back_as_read() -> None:
    message = openai_responses.from_response(RESPONSE)
    assert message.reasoning[0].text == "The user wants a greeting."
    written = openai_responses.to_payload(message)
    assert written[0] == ITEM
    pydantic.TypeAdapter(ResponseInputItemParam).validate_python(written[0])


def test_a_changed_text_is_written_as_the_content() -> None:
    message = openai_responses.from_response(RESPONSE)
    message.items[0].text = "Greet them."
    assert openai_responses.to_payload(message)[0] == {
        "id": "rs_1", "type": "reasoning", "summary": [],
        "content": [{"type": "reasoning_text", "text": "Greet them."}]}


def test_a_summary_stays_the_text_and_the_content_is_kept() -> None:
    item = {**ITEM, "summary": [{"type": "summary_text", "text": "Greeting."}]}
    message = openai_responses.from_response({**RESPONSE, "output": [item, ANSWER]})
    assert message.reasoning[0].text == "Greeting."
    assert openai_responses.to_payload(message)[0] == item


def _events() -> list[dict[str, Any]]:
    started = {**ITEM, "content": []}
    events: list[dict[str, Any]] = [
        {"type": "response.created", "sequence_number": 0,
         "response": {**RESPONSE, "status": "in_progress", "output": []}},
        {"type": "response.output_item.added", "output_index": 0, "sequence_number": 1,
         "item": started},
    ]
    for number, piece in enumerate(["The user", " wants a", " greeting."]):
        events.append({"type": "response.reasoning_text.delta", "item_id": "rs_1",
                       "output_index": 0, "content_index": 0, "delta": piece,
                       "sequence_number": 2 + number})
    events += [
        {"type": "response.output_item.done", "output_index": 0, "sequence_number": 5,
         "item": copy.deepcopy(ITEM)},
        {"type": "response.output_item.done", "output_index": 1, "sequence_number": 6,
         "item": copy.deepcopy(ANSWER)},
        {"type": "response.completed", "sequence_number": 7, "response": RESPONSE},
    ]
    return events


def test_reasoning_text_streams_and_accumulates_to_the_response() -> None:
    chunks = list(openai_responses.from_stream(_events()))
    texts = [item.text for chunk in chunks for item in chunk.items
             if type(item).__name__ == "StreamingReasoningContent"]
    assert texts[:4] == ["", "The user", " wants a", " greeting."]
    message = StreamingChatMessageContent.accumulate(chunks).to_message()
    expected = openai_responses.from_response(RESPONSE)
    assert message.items == expected.items
    assert openai_responses.to_payload(message) == openai_responses.to_payload(expected)
