"""Gemini streams accumulate to the message the answer given whole reads as.

Each documented response of ``tests/formats/fixtures/gemini_documented.json`` is streamed as
the API streams it (`stream_of`: text and thoughts in small pieces, a signature with the
last piece of its part, a function call or any other part whole in one chunk, the usage
growing and the finish reason and metadata on a candidate's last chunk, the candidates of
one response interleaved), as dicts in the response's spelling, in the other spelling, and
as ``google.genai`` SDK objects; the accumulated stream writes (``to_payload``) as
``from_response`` of the whole response, with the same id, model, finish reason, usage and
hints. Streams written by hand check the fragments themselves.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from google.genai import types

from semantic_chat import (
    FinishReason,
    FunctionCallContent,
    ReasoningContent,
    TextContent,
    Usage,
)
from semantic_chat.contents import UnknownContent
from semantic_chat.errors import FormatError
from semantic_chat.formats import gemini
from semantic_chat.formats.gemini.shared import respell, snake_key
from semantic_chat.streaming import (
    StreamingChatMessageContent,
    StreamingFunctionCallContent,
    StreamingReasoningContent,
    StreamingTextContent,
    accumulate_choices,
)

FIXTURES = Path(__file__).parent.parent / "formats" / "fixtures" / "gemini_documented.json"
RESPONSES = {
    case["name"]: case["payload"]
    for case in json.loads(FIXTURES.read_text("utf-8"))
    if case["kind"] == "response"
}


def _pieces(part: dict[str, Any], piece: int) -> list[dict[str, Any]]:
    """A part as the chunks of a stream carry it: text in pieces, the rest with the last."""
    text_key = next((key for key in part if key == "text"), None)
    if text_key is None:
        return [part]
    text = part["text"]
    others = {key: value for key, value in part.items() if key != "text"}
    signature = {key: value for key, value in others.items() if snake_key(key) ==
                 "thought_signature"}
    each = {key: value for key, value in others.items() if key not in signature}
    cuts = [text[at:at + piece] for at in range(0, len(text), piece)] or [""]
    pieces = [{"text": cut, **each} for cut in cuts]
    pieces[-1].update(signature)
    return pieces


def stream_of(response: dict[str, Any], piece: int = 7) -> list[dict[str, Any]]:
    """The chunks the API streams for ``response``, its candidates interleaved."""
    usage_key = next(key for key in response if snake_key(key) == "usage_metadata")
    usage = response[usage_key]
    prompt = {key: value for key, value in usage.items()
              if snake_key(key) == "prompt_token_count"}
    fields = {key: value for key, value in response.items()
              if key not in ("candidates", usage_key)}
    queues: list[list[dict[str, Any]]] = []
    for candidate in response["candidates"]:
        rest = {key: value for key, value in candidate.items() if key != "content"}
        content = candidate.get("content")
        if content is None:
            queues.append([rest])
            continue
        parts = [cut for part in content["parts"] for cut in _pieces(part, piece)]
        chunks = [{"content": {"parts": [cut], "role": "model"}, "index": rest["index"]}
                  for cut in parts]
        chunks[-1].update(rest)
        queues.append(chunks)
    stream = []
    while any(queues):
        for queue in queues:
            if queue:
                stream.append({"candidates": [queue.pop(0)], usage_key: prompt, **fields})
    stream[-1][usage_key] = usage
    return stream


def accumulated(chunks: list[Any]) -> list[Any]:
    return [merged.to_message() for merged in accumulate_choices(gemini.from_stream(chunks))]


def _assert_like_response(replies: list[Any], response: dict[str, Any]) -> None:
    assert len(replies) == len(response["candidates"])
    for index, reply in enumerate(replies):
        expected = gemini.from_response(response, candidate=index)
        assert gemini.to_payload(reply) == gemini.to_payload(expected)
        assert (reply.id, reply.model_id, reply.finish_reason, reply.usage) == (
            expected.id, expected.model_id, expected.finish_reason, expected.usage
        )
        assert reply.metadata == expected.metadata
        assert [type(item) for item in reply.items] == [type(item) for item in expected.items]
        for got, want in zip(reply.items, expected.items, strict=True):
            assert got.metadata == want.metadata
            if isinstance(want, TextContent):
                assert (got.text, got.citations) == (want.text, want.citations)


# --- every documented response, streamed -----------------------------------------------------


@pytest.mark.parametrize("name", sorted(RESPONSES))
@pytest.mark.parametrize("piece", [1, 7, 1000])
def test_a_streamed_response_accumulates_to_the_response_given_whole(name, piece):
    response = RESPONSES[name]
    _assert_like_response(accumulated(stream_of(response, piece)), response)


@pytest.mark.parametrize("name", sorted(RESPONSES))
def test_the_other_spelling_reads_the_same(name):
    response = RESPONSES[name]
    chunks = stream_of(response)
    other = "snake" if any(key == "usageMetadata" for key in response) else "camel"
    respelled = [respell(chunk, other) for chunk in chunks]
    assert accumulated(respelled) == accumulated(chunks)


@pytest.mark.parametrize("name", sorted(RESPONSES))
def test_sdk_chunks_read_as_their_json(name):
    chunks = stream_of(RESPONSES[name])
    objects = [types.GenerateContentResponse.model_validate_json(json.dumps(chunk))
               for chunk in chunks]
    assert accumulated(objects) == accumulated(chunks)
    raw = list(gemini.from_stream(objects))
    assert raw[0].inner_content is objects[0]


# --- what the fragments are ------------------------------------------------------------------

META = {"modelVersion": "gemini-2.5-flash", "responseId": "r-1"}


def _chunk(*parts: dict[str, Any], usage: dict[str, int] | None = None,
           **candidate: Any) -> dict[str, Any]:
    chunk: dict[str, Any] = {"candidates": [{"content": {"role": "model", "parts": list(parts)},
                                             "index": 0, **candidate}], **META}
    if usage is not None:
        chunk["usageMetadata"] = usage
    return chunk


def test_text_over_several_chunks_is_one_text_item_and_the_last_usage_wins():
    chunks = [
        _chunk({"text": "The sky "}, usage={"promptTokenCount": 4, "totalTokenCount": 4}),
        _chunk({"text": "is blue "}, usage={"promptTokenCount": 4, "candidatesTokenCount": 3,
                                            "totalTokenCount": 7}),
        _chunk({"text": "today."}, finishReason="STOP",
               usage={"promptTokenCount": 4, "candidatesTokenCount": 5, "totalTokenCount": 9}),
    ]
    read = list(gemini.from_stream(chunks))
    assert [chunk.items for chunk in read] == [
        [StreamingTextContent("The sky ", index=0)],
        [StreamingTextContent("is blue ", index=0)],
        [StreamingTextContent("today.", index=0)],
    ]
    assert [chunk.usage for chunk in read] == [Usage(4, 0, 4), Usage(4, 3, 7), Usage(4, 5, 9)]
    assert [chunk.finish_reason for chunk in read] == [None, None, FinishReason.STOP]
    assert {(chunk.id, chunk.model_id, chunk.choice_index) for chunk in read} == {
        ("r-1", "gemini-2.5-flash", 0)
    }
    reply = StreamingChatMessageContent.accumulate(read).to_message()
    assert reply.items == [TextContent("The sky is blue today.")]
    assert (reply.usage, reply.finish_reason) == (Usage(4, 5, 9), FinishReason.STOP)
    assert reply.metadata == {"gemini": {
        "finish_reason": "STOP",
        "usage_metadata": {"prompt_token_count": 4, "candidates_token_count": 5,
                           "total_token_count": 9},
        "candidate": {"index": 0},
    }}


def test_thoughts_carry_their_signature_on_the_last_piece_then_the_answer_follows():
    chunks = [
        _chunk({"text": "Let me ", "thought": True}),
        _chunk({"text": "think.", "thought": True, "thoughtSignature": "c2lnLTE="}),
        _chunk({"text": "Blue."}),
        _chunk({"text": "", "thoughtSignature": "c2lnLTI="}, finishReason="STOP"),
    ]
    read = list(gemini.from_stream(chunks))
    assert read[1].items == [StreamingReasoningContent(
        "think.", signature="c2lnLTE=", provider="gemini", index=0
    )]
    assert read[3].items == [StreamingTextContent(
        "", index=1, metadata={"gemini": {"thought_signature": "c2lnLTI="}}
    )]
    reply = StreamingChatMessageContent.accumulate(read).to_message()
    assert reply.items == [
        ReasoningContent("Let me think.", signature="c2lnLTE=", provider="gemini"),
        TextContent("Blue.", metadata={"gemini": {"thought_signature": "c2lnLTI="}}),
    ]
    assert gemini.to_payload(reply)["contents"] == [{"role": "model", "parts": [
        {"text": "Let me think.", "thought": True, "thought_signature": "c2lnLTE="},
        {"text": "Blue.", "thought_signature": "c2lnLTI="},
    ]}]


def test_a_signature_ends_its_part_and_an_empty_part_is_its_own_item():
    chunks = [
        _chunk({"text": "A", "thought": True, "thoughtSignature": "c2lnLTE="}),
        _chunk({"text": "B", "thought": True}),
        _chunk({"thoughtSignature": "c2lnLTI="}),
        _chunk({"text": "C", "thought": True}),
    ]
    reply = StreamingChatMessageContent.accumulate(gemini.from_stream(chunks)).to_message()
    assert reply.items == [
        ReasoningContent("A", signature="c2lnLTE=", provider="gemini"),
        ReasoningContent("B", provider="gemini"),
        ReasoningContent("", signature="c2lnLTI=", provider="gemini",
                         metadata={"gemini": {"empty": ["thought_signature"]}}),
        ReasoningContent("C", provider="gemini"),
    ]
    assert gemini.to_payload(reply)["contents"][0]["parts"] == [
        {"text": "A", "thought": True, "thought_signature": "c2lnLTE="},
        {"text": "B", "thought": True},
        {"thought_signature": "c2lnLTI="},
        {"text": "C", "thought": True},
    ]


def test_a_function_call_arrives_whole_and_made_up_ids_count_over_the_whole_answer():
    chunks = [
        _chunk({"text": "Checking."}),
        _chunk({"functionCall": {"name": "get_weather", "args": {"city": "Paris"}},
                "thoughtSignature": "c2lnLTE="}),
        _chunk({"functionCall": {"name": "get_weather", "args": {"city": "Oslo"}}},
               {"functionCall": {"id": "call-7", "name": "get_time"}}),
        _chunk({"functionCall": {"name": "get_weather", "args": {"city": "Rome"}}},
               finishReason="STOP"),
    ]
    read = list(gemini.from_stream(chunks))
    assert read[1].items == [StreamingFunctionCallContent(
        "gemini-call-0-0", "get_weather", {"city": "Paris"},
        metadata={"gemini": {"thought_signature": "c2lnLTE="}},
    )]
    assert read[2].items == [
        StreamingFunctionCallContent("gemini-call-0-1", "get_weather", {"city": "Oslo"}),
        StreamingFunctionCallContent("call-7", "get_time", {},
                                     metadata={"gemini": {"no_args": True}}),
    ]
    reply = StreamingChatMessageContent.accumulate(read).to_message()
    assert reply.items == [
        TextContent("Checking."),
        FunctionCallContent("gemini-call-0-0", "get_weather", {"city": "Paris"},
                            metadata={"gemini": {"thought_signature": "c2lnLTE="}}),
        FunctionCallContent("gemini-call-0-1", "get_weather", {"city": "Oslo"}),
        FunctionCallContent("call-7", "get_time", {}, metadata={"gemini": {"no_args": True}}),
        FunctionCallContent("gemini-call-0-3", "get_weather", {"city": "Rome"}),
    ]
    assert reply.finish_reason == FinishReason.TOOL_CALLS
    whole = {"candidates": [{"content": {"role": "model", "parts": [
        part for chunk in chunks for part in chunk["candidates"][0]["content"]["parts"]
    ]}, "index": 0, "finishReason": "STOP"}], **META}
    expected = gemini.from_response(whole)
    assert [item.id for item in expected.items[1:]] == [item.id for item in reply.items[1:]]
    assert gemini.to_payload(reply) == gemini.to_payload(expected)
    assert reply.metadata == expected.metadata


def test_code_execution_parts_are_given_whole():
    chunks = [
        _chunk({"executableCode": {"language": "PYTHON", "code": "print(1)"}}),
        _chunk({"codeExecutionResult": {"outcome": "OUTCOME_OK", "output": "1\n"}},
               finishReason="STOP"),
    ]
    read = list(gemini.from_stream(chunks))
    assert read[0].items == [UnknownContent("executable_code",
                                            {"language": "PYTHON", "code": "print(1)"})]
    assert read[1].items == [UnknownContent("code_execution_result",
                                            {"outcome": "OUTCOME_OK", "output": "1\n"})]


def test_several_candidates_are_choices():
    chunks = [
        {"candidates": [{"content": {"role": "model", "parts": [{"text": "Ro"}]}, "index": 0},
                        {"content": {"role": "model", "parts": [{"text": "Au"}]}, "index": 1}],
         **META},
        {"candidates": [{"content": {"role": "model", "parts": [{"text": "ses"}]}, "index": 0,
                         "finishReason": "STOP"}], **META},
        {"candidates": [{"content": {"role": "model", "parts": [{"text": "tumn"}]}, "index": 1,
                         "finishReason": "MAX_TOKENS"}],
         "usageMetadata": {"promptTokenCount": 3, "candidatesTokenCount": 4,
                           "totalTokenCount": 7}, **META},
    ]
    read = list(gemini.from_stream(chunks))
    # The usage of the last chunk is the answer's: candidate 0, absent there, is given it too.
    assert [(chunk.choice_index, chunk.usage) for chunk in read] == [
        (0, None), (1, None), (0, None), (1, Usage(3, 4, 7)), (0, Usage(3, 4, 7)),
    ]
    first, second = accumulated(chunks)
    assert (first.text, first.finish_reason, first.usage) == ("Roses", FinishReason.STOP,
                                                              Usage(3, 4, 7))
    assert (second.text, second.finish_reason) == ("Autumn", FinishReason.LENGTH)
    assert second.metadata["gemini"]["candidate"] == {"index": 1}


def test_a_blocked_prompt_gives_one_empty_answer_with_its_feedback():
    chunk = {"promptFeedback": {"blockReason": "SAFETY"},
             "usageMetadata": {"promptTokenCount": 6, "totalTokenCount": 6}, **META}
    read = list(gemini.from_stream([chunk]))
    assert len(read) == 1
    assert (read[0].choice_index, read[0].items) == (0, [])
    reply = read[0].to_message()
    expected = gemini.from_response(chunk)
    assert (reply.usage, reply.metadata, reply.id) == (expected.usage, expected.metadata,
                                                       expected.id)


def test_grounding_on_the_last_chunk_cites_the_text_streamed_before():
    response = RESPONSES["response_google_search_grounding_camel"]
    read = list(gemini.from_stream(stream_of(response, piece=10)))
    cited = [item for chunk in read for item in chunk.items if item.citations]
    assert len(cited) == 1
    assert cited[0].text == ""
    # Gemini's offsets count UTF-8 bytes (the dash is three); a citation's count characters.
    assert [(c.text_start, c.text_end, c.source_index) for c in cited[0].citations] == [
        (0, 64, 0), (65, 121, 0), (65, 121, 1)
    ]


# --- malformed chunks ------------------------------------------------------------------------


@pytest.mark.parametrize(("chunks", "message"), [
    (["hi"], "chunks[0]: expected a GenerateContentResponse, got str"),
    ([[]], "chunks[0]: expected a GenerateContentResponse, got list"),
    ([{"candidates": {}}], "chunks[0].candidates: expected a list, got dict"),
    ([{"candidates": [5]}], "chunks[0].candidates[0]: expected a Candidate object, got int"),
    ([{"candidates": [{"index": "0"}]}],
     "chunks[0].candidates[0].index: expected a whole number, got str"),
    ([{"candidates": [{"content": []}]}],
     "chunks[0].candidates[0].content: expected a Content object, got list"),
    ([_chunk({"text": "a"}), _chunk({"functionCall": {"args": {}}})],
     "chunks[1].candidates[0].content.parts[0].function_call: missing 'name'"),
    ([_chunk({"text": "a"}), _chunk({"text": 5})],
     "chunks[1].candidates[0].content.parts[0].text: expected str, got int"),
    ([_chunk({"text": "a"}, usage=5)],  # type: ignore[arg-type]
     "chunks[0].usage_metadata: expected a usage metadata object, got int"),
    ([_chunk({"text": "a"}, finishReason=3)],
     "chunks[0].candidates[0].finish_reason: expected str, got int"),
])
def test_a_malformed_chunk_is_located(chunks, message):
    with pytest.raises(FormatError) as raised:
        list(gemini.from_stream(chunks))
    assert str(raised.value) == message
