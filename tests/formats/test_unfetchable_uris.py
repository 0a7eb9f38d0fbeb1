"""Images by a URI the OpenAI APIs cannot fetch are refused, as Anthropic's writer refuses them.

The Chat Completions writer sent a Gemini ``gs://`` image (and a YouTube page) as
``image_url.url``; the API downloads http(s) URLs only. One `wire.unfetchable_uri` says why,
for the Chat Completions and Responses writers alike.
"""

from __future__ import annotations

import warnings

import pytest
from hypothesis import given
from hypothesis import strategies as st

from semantic_chat import ChatHistory, ChatMessageContent, ImageContent, TextContent
from semantic_chat.errors import UnsupportedContentError
from semantic_chat.formats import openai_chat
from semantic_chat.formats.wire import ConversionWarning, unfetchable_uri


def _history(uri: str) -> ChatHistory:
    return ChatHistory([ChatMessageContent("user", items=[TextContent("a"), ImageContent(uri=uri)])])


@pytest.mark.parametrize(
    ("uri", "why"),
    [
        ("gs://bucket/cat.png", "by a URI other than http(s)"),
        ("ftp://example.com/cat.png", "by a URI other than http(s)"),
        ("https://www.youtube.com/watch?v=abc", "by a YouTube page URL (a web page, not a file)"),
        ("https://youtu.be/abc", "by a YouTube page URL (a web page, not a file)"),
    ],
)
def test_chat_refuses_an_image_the_api_cannot_fetch(uri: str, why: str) -> None:
    with pytest.raises(UnsupportedContentError) as info:
        openai_chat.to_payload(_history(uri))
    assert str(info.value) == (
        f"messages[0].items[1]: OpenAI Chat Completions cannot carry image content {why} "
        "(pass on_unsupported='warn' to leave it out)"
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        payload = openai_chat.to_payload(_history(uri), on_unsupported="warn")
    assert payload == [{"role": "user", "content": "a"}]  # the text left alone: a string
    assert [type(w.message) for w in caught] == [ConversionWarning]


@pytest.mark.parametrize(
    "uri", ["https://example.com/cat.png", "http://example.com/cat.png", "HTTPS://EXAMPLE.COM/c.png",
            "https://example.com/youtube-tips.png"],
)
def test_chat_writes_an_http_image_as_given(uri: str) -> None:
    assert openai_chat.to_payload(_history(uri)) == [{"role": "user", "content": [
        {"type": "text", "text": "a"}, {"type": "image_url", "image_url": {"url": uri}},
    ]}]


@given(st.sampled_from(["https://", "http://", "gs://", "s3://", "HTTP://"]),
       st.sampled_from(["example.com", "youtube.com", "www.youtube.com", "youtu.be", "a.youtube.net"]),
       st.text("abc/?=", max_size=8))
def test_the_writer_refuses_exactly_what_unfetchable_uri_names(
    scheme: str, host: str, rest: str
) -> None:
    uri = f"{scheme}{host}/{rest}"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        payload = openai_chat.to_payload(_history(uri), on_unsupported="warn")
    written = isinstance(payload[0]["content"], list)  # else the text alone, as a string
    assert written == (unfetchable_uri(uri) is None)
    assert len(caught) == (0 if written else 1)
