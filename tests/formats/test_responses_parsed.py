"""OpenAI Responses: a ``ParsedResponse`` (``responses.parse()``, a stream's final response)
reads as its ``Response``.

What was seen: its client-side ``parsed_arguments`` (on a function call) and ``parsed`` (on an
``output_text``) were kept as hints and written into the next request's input items, which
have neither key; the message was not the one the plain ``Response`` reads as.
"""

from __future__ import annotations

import json
import warnings
from typing import Any

import pydantic
import pytest
from openai.lib._parsing._responses import parse_response
from openai.types.responses import Response, ResponseInputItemParam

from semantic_chat.formats import openai_responses

RAW: dict[str, Any] = {
    "id": "resp_1", "object": "response", "created_at": 1, "status": "completed",
    "model": "gpt-5", "parallel_tool_calls": True, "tool_choice": "auto", "tools": [],
    "output": [
        {"id": "fc_1", "type": "function_call", "call_id": "call_1", "name": "get_weather",
         "arguments": '{"city":"Paris"}', "status": "completed"},
        {"id": "msg_1", "type": "message", "role": "assistant", "status": "completed",
         "content": [{"type": "output_text", "text": '{"a":1}', "annotations": [],
                      "logprobs": []}]},
    ],
}
TOOLS = [{"type": "function", "name": "get_weather", "strict": True, "parameters": {
    "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"],
    "additionalProperties": False}}]


class Answer(pydantic.BaseModel):
    a: int


def _parsed() -> Any:
    raw = Response.model_validate(RAW)
    return parse_response(text_format=Answer, input_tools=TOOLS, response=raw)


@pytest.mark.parametrize("shape", ["object", "dump", "json"])
def test_a_parsed_response_reads_and_writes_as_its_response(shape: str) -> None:
    parsed = _parsed()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pydantic's serializer warnings on ParsedResponse
        given = {"object": parsed, "dump": parsed.model_dump(),
                 "json": parsed.model_dump(mode="json")}[shape]
    assert parsed.output[0].parsed_arguments == {"city": "Paris"}  # what the SDK adds
    message = openai_responses.from_response(given)
    assert message.items == openai_responses.from_response(RAW).items
    written = openai_responses.to_payload(message)
    assert "parsed" not in json.dumps(written)
    adapter = pydantic.TypeAdapter(ResponseInputItemParam)
    for item in written:
        adapter.validate_python(item)


def test_a_pasted_parsed_output_in_a_request_drops_them_too() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        output = _parsed().model_dump(mode="json")["output"]
    history = openai_responses.from_payload([{"role": "user", "content": "Weather?"}, *output])
    assert "parsed" not in json.dumps(openai_responses.to_payload(history))


def test_a_list_holding_sdk_output_items_is_detected_and_converted() -> None:
    # What was seen: convert([user, *response.output, output], target="anthropic") said
    # "cannot tell the format of this list: pass the source format", though detect(response)
    # and detect of the dumped list both say openai-responses.
    from semantic_chat import formats

    response = Response.model_validate(RAW)
    conversation = [{"role": "user", "content": "Weather in Paris?"}, *response.output[:1],
                    {"type": "function_call_output", "call_id": "call_1", "output": "18 C"}]
    assert formats.detect(conversation) == "openai-responses"
    assert formats.convert(conversation, target="anthropic") == {"messages": [
        {"role": "user", "content": "Weather in Paris?"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "call_1",
                                           "name": "get_weather", "input": {"city": "Paris"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "call_1",
                                      "content": "18 C"}]},
    ]}
