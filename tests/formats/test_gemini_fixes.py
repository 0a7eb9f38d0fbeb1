"""Gemini across formats: URIs OpenAI cannot fetch.

- the OpenAI Responses writer refuses an image or file by a URI the API cannot fetch (not
  http(s), or a YouTube page), through the ``on_unsupported`` policy, located.
"""

from __future__ import annotations

import warnings
from typing import Any

import pytest

from semantic_chat import (
    ChatHistory,
    FileContent,
    ImageContent,
    TextContent,
    formats,
)
from semantic_chat.errors import UnsupportedContentError
from semantic_chat.formats import ConversionWarning, gemini, openai_responses
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

