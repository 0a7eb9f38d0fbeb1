"""Gemini across formats: tool data beside media, URIs OpenAI cannot fetch, id-less results.

- a ``function_response`` whose ``response`` holds data beside media ``parts`` reads as a
  result of that data (compact JSON text) followed by the media, so other formats carry it;
  written back to Gemini while that text is unchanged, it is the ``function_response`` read;
- the OpenAI Responses writer refuses an image or file by a URI the API cannot fetch (not
  http(s), or a YouTube page), through the ``on_unsupported`` policy, located;
- results without an id answer the earliest unanswered calls of their name across
  consecutive model contents.
"""

from __future__ import annotations

import warnings
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from semantic_chat import (
    ChatHistory,
    FileContent,
    FunctionResultContent,
    ImageContent,
    TextContent,
    formats,
)
from semantic_chat.errors import FormatError, UnsupportedContentError
from semantic_chat.formats import ConversionWarning, gemini, openai_responses
from semantic_chat.formats.gemini import reading
from semantic_chat.formats.gemini.shared import response_value
from semantic_chat.formats.wire import compact_json
from semantic_chat.message import ChatMessageContent

PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAEElEQVR42mO4o6EBRwzEcQDzAxLBy9ItygAAAABJ"
    "RU5ErkJggg=="
)
YOUTUBE = "https://www.youtube.com/watch?v=9hE5-98ZeCg"


# --- URIs the OpenAI Responses API cannot fetch --------------------------------------------


def _user(*items: Any) -> ChatHistory:
    return ChatHistory([ChatMessageContent("user", items=[*items, TextContent("Summarize")])])


@pytest.mark.parametrize(
    ("item", "why"),
    [
        (FileContent(uri="gs://my-bucket/report.pdf", mime_type="application/pdf"),
         "file content by a URI other than http(s)"),
        (ImageContent(uri="gs://my-bucket/chart.png", mime_type="image/png"),
         "image content by a URI other than http(s)"),
        (FileContent(uri=YOUTUBE, mime_type="video/mp4"),
         "file content by a YouTube page URL (a web page, not a file)"),
        (FileContent(uri="https://youtu.be/9hE5-98ZeCg"),
         "file content by a YouTube page URL (a web page, not a file)"),
    ],
)
def test_responses_refuses_a_uri_it_cannot_fetch(item: Any, why: str) -> None:
    with pytest.raises(UnsupportedContentError) as caught:
        openai_responses.to_payload(_user(item))
    assert str(caught.value) == (
        f"messages[0].items[0]: OpenAI Responses cannot carry {why} "
        "(pass on_unsupported='warn' to leave it out)"
    )


def test_responses_leaves_an_unfetchable_uri_out_with_a_warning() -> None:
    history = _user(FileContent(uri="gs://my-bucket/report.pdf", mime_type="application/pdf"))
    with pytest.warns(ConversionWarning) as caught:
        payload = openai_responses.to_payload(history, on_unsupported="warn")
    assert payload == [{"role": "user", "content": "Summarize"}]
    assert [str(each.message) for each in caught] == [
        "messages[0].items[0]: dropped: OpenAI Responses cannot carry file content by a URI "
        "other than http(s)"
    ]


def test_responses_refuses_an_unfetchable_uri_in_a_function_output() -> None:
    history = gemini.from_payload([
        {"role": "model", "parts": [{"function_call": {"name": "chart", "args": {}}}]},
        {"role": "user", "parts": [{"function_response": {
            "name": "chart", "response": {"result": "see"},
            "parts": [{"file_data": {"file_uri": "gs://b/c.png", "mime_type": "image/png"}}],
        }}]},
    ])
    with pytest.raises(UnsupportedContentError, match=r"^messages\[1\]\.items\[0\]\.result\[1\]: "):
        openai_responses.to_payload(history)


def test_responses_still_writes_http_urls() -> None:
    history = _user(
        FileContent(uri="HTTPS://example.com/report.pdf"),
        ImageContent(uri="http://example.com/chart.png"),
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        payload = openai_responses.to_payload(history)
    assert payload == [{"role": "user", "content": [
        {"type": "input_file", "file_url": "HTTPS://example.com/report.pdf"},
        {"type": "input_image", "image_url": "http://example.com/chart.png", "detail": "auto"},
        {"type": "input_text", "text": "Summarize"},
    ]}]


def test_the_gemini_repro_converts_to_responses_with_warnings() -> None:
    payload = {"contents": [{"role": "user", "parts": [
        {"file_data": {"file_uri": "gs://my-bucket/report.pdf", "mime_type": "application/pdf"}},
        {"file_data": {"file_uri": YOUTUBE, "mime_type": "video/mp4"},
         "video_metadata": {"start_offset": "10s", "end_offset": "20s"}},
        {"text": "Summarize both"}]}]}
    with pytest.warns(ConversionWarning) as caught:
        written = formats.convert(payload, target="openai-responses", on_unsupported="warn")
    assert written == [{"role": "user", "content": "Summarize both"}]
    assert [str(each.message) for each in caught] == [
        "messages[0].items[0]: dropped: OpenAI Responses cannot carry file content by a URI "
        "other than http(s)",
        "messages[0].items[1]: dropped: OpenAI Responses cannot carry file content by a "
        "YouTube page URL (a web page, not a file)",
    ]


# --- a function's data beside media ---------------------------------------------------------


def _chart_payload(response: Any, media: int = 1) -> dict[str, Any]:
    """A call of ``get_chart`` answered by ``response`` and ``media`` PNG parts."""
    body: dict[str, Any] = {"name": "get_chart"}
    if response is not None:
        body["response"] = response
    body["parts"] = [{"inline_data": {"mime_type": "image/png", "data": PNG}}] * media
    return {"contents": [
        {"role": "user", "parts": [{"text": "chart for Paris?"}]},
        {"role": "model", "parts": [{"function_call": {"name": "get_chart",
                                                        "args": {"city": "Paris"}}}]},
        {"role": "user", "parts": [{"function_response": body}]},
    ]}


def _result(payload: dict[str, Any]) -> FunctionResultContent:
    return gemini.from_payload(payload["contents"]).messages[2].function_results[0]


@pytest.mark.parametrize(
    ("response", "text", "is_error"),
    [
        ({"temperature": 18.5, "sky": "clear"}, '{"temperature":18.5,"sky":"clear"}', False),
        ({"result": 42}, "42", False),
        ({"result": {"sky": "clear"}}, '{"sky":"clear"}', False),
        ({"output": [1, "two"]}, '[1,"two"]', False),
        ({"result": "see the chart"}, "see the chart", False),
        ({"error": {"code": 3, "message": "no data"}}, '{"code":3,"message":"no data"}', True),
        ({"error": "no data"}, "no data", True),
        ({"result": None, "note": "é"}, '{"result":null,"note":"é"}', False),
    ],
)
def test_a_response_beside_media_reads_as_text_then_media(
    response: dict[str, Any], text: str, is_error: bool
) -> None:
    payload = _chart_payload(response)
    result = _result(payload)
    assert result.result == [TextContent(text), ImageContent.from_base64(PNG, mime_type="image/png")]
    assert result.is_error is is_error
    assert gemini.to_payload(gemini.from_payload(payload["contents"])) == payload


@pytest.mark.parametrize(
    "response", [None, {}, {"result": None}, {"output": None}, {"error": None}]
)
def test_a_response_of_no_value_beside_media_reads_as_the_media(response: Any) -> None:
    payload = _chart_payload(response, media=2)
    image = ImageContent.from_base64(PNG, mime_type="image/png")
    assert _result(payload).result == [image, image]
    assert gemini.to_payload(gemini.from_payload(payload["contents"])) == payload


def test_other_formats_carry_the_data_beside_the_image() -> None:
    payload = _chart_payload({"temperature": 18.5, "sky": "clear"})
    text = '{"temperature":18.5,"sky":"clear"}'
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        anthropic = formats.convert(payload, target="anthropic")
        responses = formats.convert(payload, target="openai-responses")
    assert anthropic["messages"][-1] == {"role": "user", "content": [{
        "type": "tool_result", "tool_use_id": "gemini-call-1-0", "content": [
            {"type": "text", "text": text},
            {"type": "image", "source": {"type": "base64", "media_type": "image/png",
                                         "data": PNG}},
        ],
    }]}
    assert responses[-1] == {"type": "function_call_output", "call_id": "gemini-call-1-0",
                             "output": [
                                 {"type": "input_text", "text": text},
                                 {"type": "input_image", "detail": "auto",
                                  "image_url": f"data:image/png;base64,{PNG}"},
                             ]}
    assert str(_result(payload)) == f"{text}\n[image/png, 4x4, 73 bytes]"


def test_an_edited_result_writes_its_own_text() -> None:
    payload = _chart_payload({"temperature": 18.5, "sky": "clear"})
    history = gemini.from_payload(payload["contents"])
    result = history.messages[2].function_results[0]
    image = {"inline_data": {"mime_type": "image/png", "data": PNG}}
    result.result = [TextContent("no chart today"), result.result[1]]
    assert gemini.to_payload(history)["contents"][2] == {"role": "user", "parts": [
        {"function_response": {"name": "get_chart", "response": {"result": "no chart today"},
                               "parts": [image]}}]}
    result.result = [result.result[1]]  # the data taken out: not written back
    assert gemini.to_payload(history)["contents"][2]["parts"][0]["function_response"] == {
        "name": "get_chart", "response": {}, "parts": [image]}
    result.result = [TextContent('{"temperature":18.5,"sky":"clear"}'), result.result[0]]
    result.is_error = True  # the text as read, but now an error: written as one
    assert gemini.to_payload(history)["contents"][2]["parts"][0]["function_response"] == {
        "name": "get_chart", "response": {"error": '{"temperature":18.5,"sky":"clear"}'},
        "parts": [image]}


def test_a_bad_response_beside_media_is_located() -> None:
    with pytest.raises(FormatError) as caught:
        gemini.from_payload(_chart_payload({"result": float("nan")})["contents"])
    assert caught.value.path.startswith("contents[2].parts[0].function_response.response")
    with pytest.raises(FormatError) as caught:
        gemini.from_payload(_chart_payload(["not", "an", "object"])["contents"])
    assert str(caught.value) == (
        "contents[2].parts[0].function_response.response: expected an object, got list"
    )


_JSON_LEAVES = st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=8)
_JSON = st.recursive(
    _JSON_LEAVES,
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.text(min_size=1, max_size=6), inner, max_size=3),
    max_leaves=8,
)


@st.composite
def _responses(draw: st.DrawFn) -> dict[str, Any]:
    """A ``response`` object: a value wrapped (``result``, ``output``, ``error``) or an object."""
    wrap = draw(st.sampled_from(["result", "output", "error", None]))
    if wrap is None:
        return draw(st.dictionaries(st.text(min_size=1, max_size=6), _JSON, max_size=3))
    return {wrap: draw(_JSON)}


@given(response=_responses(), media=st.integers(1, 3))
@settings(max_examples=200, deadline=None)
def test_a_response_beside_media_round_trips(response: dict[str, Any], media: int) -> None:
    payload = _chart_payload(response, media)
    result = _result(payload)
    value, failed = response_value(response)
    texts = [each.text for each in result.result if isinstance(each, TextContent)]
    if value is None or response == {}:  # no value: the media alone
        assert texts == []
    else:
        assert texts == [value if type(value) is str else compact_json(value, "value")]
    assert result.is_error is failed
    assert len(result.result) == len(texts) + media
    assert gemini.to_payload(gemini.from_payload(payload["contents"])) == payload


# --- results without an id after consecutive model contents ---------------------------------


def _call(name: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"function_call": {"name": name, "args": arguments or {}}}


def _answer(name: str, value: str) -> dict[str, Any]:
    return {"function_response": {"name": name, "response": {"result": value}}}


def _pairs(contents: list[dict[str, Any]], quick: bool = True) -> list[tuple[str, str]]:
    """(call id, value) of each result, read quickly or the general way."""
    history = reading._from_payload(contents, None, quick)
    return [(each.call_id, each.result) for message in history
            for each in message.function_results]


def test_results_answer_the_calls_of_consecutive_model_contents_in_order() -> None:
    contents = [
        {"role": "user", "parts": [{"text": "q"}]},
        {"role": "model", "parts": [_call("a")]},
        {"role": "model", "parts": [_call("a", {"n": 2})]},
        {"role": "user", "parts": [_answer("a", "1"), _answer("a", "2")]},
    ]
    expected = [("gemini-call-1-0", "1"), ("gemini-call-2-0", "2")]
    assert _pairs(contents) == expected
    assert _pairs(contents, quick=False) == expected
    anthropic = formats.convert({"contents": contents}, target="anthropic")
    assert [block["tool_use_id"] for block in anthropic["messages"][-1]["content"]] == [
        "gemini-call-1-0", "gemini-call-2-0"]
    assert gemini.to_payload(gemini.from_payload(contents)) == {"contents": contents}


def test_results_of_several_names_across_model_contents() -> None:
    contents = [
        {"role": "model", "parts": [_call("a"), {"text": "and"}, _call("b")]},
        {"role": "model", "parts": [{"text": "thinking"}]},
        {"role": "model", "parts": [_call("a", {"n": 3})], "custom": 1},  # general reader
        {"role": "user", "parts": [_answer("b", "b1"), _answer("a", "a1"), _answer("a", "a2"),
                                   _answer("a", "extra")]},
    ]
    expected = [("gemini-call-0-1", "b1"), ("gemini-call-0-0", "a1"),
                ("gemini-call-2-0", "a2"), ("gemini-call-3-3", "extra")]
    assert _pairs(contents) == expected
    assert _pairs(contents, quick=False) == expected


def test_a_content_between_model_contents_ends_their_turn() -> None:
    contents = [
        {"role": "model", "parts": [_call("a")]},
        {"role": "user", "parts": [{"text": "never mind"}]},
        {"role": "model", "parts": [_call("a")]},
        {"role": "user", "parts": [_answer("a", "1"), _answer("a", "2")]},
    ]
    assert _pairs(contents) == [("gemini-call-2-0", "1"), ("gemini-call-3-1", "2")]
    assert _pairs(contents, quick=False) == _pairs(contents)


def test_a_malformed_content_after_model_contents_is_located() -> None:
    contents = [
        {"role": "model", "parts": [_call("a")]},
        {"role": "model", "parts": [{"function_call": {"name": 7}}]},
    ]
    with pytest.raises(FormatError) as caught:
        gemini.from_payload(contents)
    assert str(caught.value) == (
        "contents[1].parts[0].function_call.name: expected str, got int"
    )


@st.composite
def _model_runs(draw: st.DrawFn) -> tuple[list[dict[str, Any]], list[tuple[str, str]]]:
    """Consecutive model contents calling ``a`` and ``b``, then their id-less results.

    The results come in any order of names, each name's in the order of its calls (the
    order the writer gives them); also the (call id, value) each must pair with.
    """
    turns = draw(st.lists(st.lists(st.sampled_from("ab"), min_size=1, max_size=3),
                          min_size=1, max_size=4))
    contents: list[dict[str, Any]] = [{"role": "user", "parts": [{"text": "go"}]}]
    calls: list[tuple[str, str]] = []  # (id, name)
    for names in turns:
        calls.extend((f"gemini-call-{len(contents)}-{k}", name) for k, name in enumerate(names))
        contents.append({"role": "model", "parts": [_call(name) for name in names]})
    order = draw(st.permutations([name for _, name in calls]))
    queues = {name: [call_id for call_id, known in calls if known == name] for name in "ab"}
    parts, expected = [], []
    for index, name in enumerate(order):
        call_id = queues[name].pop(0)
        parts.append(_answer(name, f"r{index}"))
        expected.append((call_id, f"r{index}"))
    contents.append({"role": "user", "parts": parts})
    return contents, expected


@given(_model_runs())
@settings(max_examples=200, deadline=None)
def test_id_less_results_pair_across_model_contents_and_round_trip(
    run: tuple[list[dict[str, Any]], list[tuple[str, str]]],
) -> None:
    contents, expected = run
    assert _pairs(contents) == expected
    assert _pairs(contents, quick=False) == expected
    history = gemini.from_payload(contents)
    assert gemini.to_payload(history) == {"contents": contents}
    anthropic = formats.convert({"contents": contents}, target="anthropic")["messages"]
    asked = [block["id"] for block in anthropic[1]["content"]]
    answered = [block["tool_use_id"] for block in anthropic[2]["content"]]
    assert sorted(answered) == sorted(asked)


def test_a_result_without_an_id_answers_a_call_sent_without_one_first() -> None:
    # Across one model turn, a call the API gave an id to is answered by a result giving it.
    payload = [
        {"role": "user", "parts": [{"text": "Go."}]},
        {"role": "model", "parts": [{"function_call": {"id": "fc_1", "name": "a", "args": {}}}]},
        {"role": "model", "parts": [{"function_call": {"name": "a", "args": {}}}]},
        {"role": "user", "parts": [{"function_response": {"name": "a", "response": {"result": "x"}}}]},
    ]
    history = gemini.from_payload(payload)
    made = history[2].items[0].id
    assert made == "gemini-call-2-0"
    assert history[3].items[0].call_id == made
    assert gemini.to_payload(history)["contents"] == payload
