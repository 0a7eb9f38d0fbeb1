"""Token counting: the approximate rule, images by size, list counters, the tiktoken adapter."""

from __future__ import annotations

import base64
import functools
import struct
import sys
import zlib

import pytest
import tiktoken

from semantic_chat import (
    AudioContent,
    ChatHistory,
    ChatMessageContent,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    InvalidTypeError,
    InvalidValueError,
    TextContent,
)
from semantic_chat.history_ops import (
    TiktokenCounter,
    count_tokens,
    count_tokens_approximately,
    image_tokens,
    per_message,
    tiktoken_counter,
)


def _png(width: int, height: int) -> bytes:
    """A PNG signature and IHDR chunk: all the bytes a size needs, none of the pixels."""
    header = struct.pack(">II", width, height) + bytes([8, 2, 0, 0, 0])
    chunk = b"IHDR" + header
    return (
        b"\x89PNG\r\n\x1a\n"
        + struct.pack(">I", len(header))
        + chunk
        + struct.pack(">I", zlib.crc32(chunk))
    )


def _image(width: int, height: int, detail: str | None = None) -> ImageContent:
    return ImageContent(data=_png(width, height), mime_type="image/png", detail=detail)


# The conversation of LangChain's trim_messages documentation; its count_tokens_approximately
# gives these counts message by message (role and text characters / 4, rounded up, plus 3).
LANGCHAIN_DOC_MESSAGES = [
    ChatMessageContent("system", "you're a good assistant, you always respond with a joke."),
    ChatMessageContent("user", "i wonder why it's called langchain"),
    ChatMessageContent(
        "assistant",
        'Well, I guess they thought "WordRope" and "SentenceString" just '
        "didn't have the same ring to it!",
    ),
    ChatMessageContent("user", "and who is harrison chasing anyways"),
    ChatMessageContent(
        "assistant",
        "Hmmm let me think.\n\nWhy, he's probably chasing after the last "
        "cup of coffee in the office!",
    ),
    ChatMessageContent("user", "what do you call a speechless parrot"),
]


def test_approximate_counts_as_langchain_does_for_text() -> None:
    counts = [count_tokens_approximately(message) for message in LANGCHAIN_DOC_MESSAGES]
    assert counts == [19, 13, 30, 13, 28, 13]
    assert count_tokens(LANGCHAIN_DOC_MESSAGES) == 116
    assert count_tokens(ChatHistory(LANGCHAIN_DOC_MESSAGES)) == 116


def test_approximate_rule_for_names_calls_and_results() -> None:
    named = ChatMessageContent("user", "abcd", name="ada")  # 4 + 4 + 3 = 11 chars
    assert count_tokens_approximately(named) == 3 + 3
    assert count_tokens_approximately(named, count_name=False) == 2 + 3
    call = ChatMessageContent(
        "assistant", items=[FunctionCallContent("c1", "weather", '{"city": "Paris"}')]
    )  # assistant 9 + weather 7 + c1 2 + arguments 16 = 34 chars
    assert count_tokens_approximately(call) == 9 + 3
    mapping_call = ChatMessageContent(
        "assistant", items=[FunctionCallContent("c1", "weather", {"city": "Paris"})]
    )
    assert count_tokens_approximately(mapping_call) == 9 + 3
    result = ChatMessageContent(
        "tool", items=[FunctionResultContent("c1", {"temperature": 18})]
    )  # tool 4 + c1 2 + '{"temperature": 18}' 19 = 25 chars
    assert count_tokens_approximately(result) == 7 + 3
    assert count_tokens_approximately(result, chars_per_token=1.0) == 25 + 3
    assert count_tokens_approximately(result, extra_tokens_per_message=0) == 7


def test_approximate_counts_images_by_openai_tiles() -> None:
    def cost(image: ImageContent) -> int:
        message = ChatMessageContent("user", items=[image])  # "user": 1 token, plus 3
        return count_tokens_approximately(message) - 4

    assert cost(_image(64, 48)) == 85 + 170  # one tile
    assert cost(_image(64, 48, detail="low")) == 85
    assert cost(_image(1024, 1024)) == 85 + 170 * 4  # 768 x 768: 2 x 2 tiles
    assert cost(_image(4096, 2048)) == 85 + 170 * 6  # 2048 x 1024, then 1536 x 768
    assert cost(_image(512, 512)) == 85 + 170
    assert cost(ImageContent(uri="https://example.com/a.png")) == 85
    message = ChatMessageContent("user", items=[ImageContent(uri="https://example.com/a.png")])
    assert count_tokens_approximately(message, tokens_per_image=1000) == 1004


def test_image_read_from_base64_is_left_undecoded() -> None:
    image = ImageContent.from_base64(base64.b64encode(_png(1024, 1024)).decode(), "image/png")
    assert not image.is_decoded
    assert image_tokens(image) == 765
    assert not image.is_decoded  # counting decoded a copy of the header, not the item


def test_unreadable_image_size_costs_the_unknown_count() -> None:
    broken = ImageContent(data=b"\x89PNG\r\n\x1a\n" + b"\0" * 4, mime_type="image/png")
    assert image_tokens(broken) == 85
    assert image_tokens(broken, unknown=7) == 7


def test_files_audio_and_items_inside_results() -> None:
    audio = AudioContent(data=b"RIFF....WAVEfmt ", mime_type="audio/wav")
    message = ChatMessageContent("user", items=[audio])
    assert count_tokens_approximately(message) == 1 + 85 + 3
    assert count_tokens_approximately(message, tokens_per_file=10) == 1 + 10 + 3
    result = ChatMessageContent(
        "tool", items=[FunctionResultContent("c1", [TextContent("abcd"), _image(64, 48)])]
    )  # tool 4 + c1 2 + abcd 4 = 10 chars -> 3, the image 255
    assert count_tokens_approximately(result) == 3 + 255 + 3


def test_count_tokens_adds_the_overhead_once() -> None:
    class Counter:
        overhead = 10

        def __call__(self, message: ChatMessageContent, /) -> int:
            return len(message.text)

    history = ChatHistory([ChatMessageContent("user", "abc"), ChatMessageContent("user", "de")])
    assert count_tokens(history, Counter()) == 15
    assert count_tokens([], Counter()) == 10


def test_count_tokens_refuses_a_count_that_is_not_an_int() -> None:
    history = ChatHistory([ChatMessageContent("user", "abc"), ChatMessageContent("user", "d")])
    with pytest.raises(InvalidTypeError, match=r"^messages\[0\]: expected an int") as info:
        count_tokens(history, lambda message: 1.5)  # type: ignore[arg-type,return-value]
    assert info.value.path == "messages[0]"

    class BadOverhead:
        overhead = "3"

        def __call__(self, message: ChatMessageContent, /) -> int:
            return 1

    with pytest.raises(InvalidTypeError, match=r"^token_counter\.overhead: expected an int"):
        count_tokens(history, BadOverhead())


def test_per_message_turns_a_list_counter_into_a_message_counter() -> None:
    seen: list[int] = []

    def list_counter(messages: list[ChatMessageContent]) -> int:
        seen.append(len(messages))
        return 3 + sum(4 + len(message.text) for message in messages)

    counter = per_message(list_counter)
    assert counter.overhead == 3  # type: ignore[attr-defined]
    history = ChatHistory([ChatMessageContent("user", "abc"), ChatMessageContent("user", "de")])
    assert [counter(message) for message in history] == [7, 6]
    assert count_tokens(history, counter) == list_counter(list(history)) == 16
    assert seen == [0, 1, 1, 1, 1, 2]  # the empty list once, then each message alone
    with pytest.raises(InvalidTypeError, match=r"^list_counter: expected a function"):
        per_message(5)  # type: ignore[arg-type]


# A byte-level encoding: every UTF-8 byte is one token, so the counts are exact and known.
BYTES = tiktoken.Encoding(
    name="bytes",
    pat_str=r"\S+|\s+",
    mergeable_ranks={bytes([value]): value for value in range(256)},
    special_tokens={},
)

# The tool of the cookbook's function-calling section.
WEATHER_TOOL = {
    "type": "function",
    "function": {
        "name": "get_current_weather",
        "description": "Get the current weather in a given location",
        "parameters": {
            "type": "object",
            "properties": {
                "location": {
                    "type": "string",
                    "description": "The city and state, e.g. San Francisco, CA",
                },
                "unit": {
                    "type": "string",
                    "description": "The unit of temperature to return",
                    "enum": ["celsius", "fahrenheit"],
                },
            },
            "required": ["location"],
        },
    },
}


def test_tiktoken_counts_the_cookbook_way() -> None:
    counter = tiktoken_counter(BYTES)
    assert isinstance(counter, TiktokenCounter)
    assert counter.overhead == 3  # every reply is primed with 3 tokens
    assert counter(ChatMessageContent("user", "hello")) == 3 + 4 + 5
    assert counter(ChatMessageContent("user", "hello", name="ada")) == 3 + 4 + 5 + 3 + 1
    assert counter(ChatMessageContent("system", "héllo")) == 3 + 6 + 6  # bytes, not characters
    history = ChatHistory(
        [ChatMessageContent("user", "hello"), ChatMessageContent("assistant", "hi")]
    )
    assert count_tokens(history, counter) == 3 + 12 + (3 + 9 + 2)


def test_tiktoken_counts_calls_results_and_images() -> None:
    counter = tiktoken_counter(BYTES)
    call = ChatMessageContent(
        "assistant", items=[FunctionCallContent("c1", "weather", '{"city":"Paris"}')]
    )
    assert counter(call) == 3 + 9 + 7 + 16
    result = ChatMessageContent("tool", items=[FunctionResultContent("c1", "18 C")])
    assert counter(result) == 3 + 4 + 4
    image = ChatMessageContent("user", items=[TextContent("ab"), _image(1024, 1024)])
    assert counter(image) == 3 + 4 + 2 + 765
    text_with_special = ChatMessageContent("user", "<|endoftext|>")
    assert counter(text_with_special) == 3 + 4 + 13


def test_tiktoken_counts_tools_by_the_cookbook_rule() -> None:
    # 7 + "get_current_weather:Get the current weather in a given location" (63)
    # + 3 + (3 + "location:string:The city and state, e.g. San Francisco, CA" (58))
    # + (3 - 3 + 3 + 7 + 3 + 10 + "unit:string:The unit of temperature to return" (45)) + 12
    counter = tiktoken_counter(BYTES, tools=[WEATHER_TOOL])
    assert counter.overhead == 3 + 214
    gpt4 = tiktoken_counter(BYTES, tools=[WEATHER_TOOL], model="gpt-4")
    assert gpt4.overhead == 3 + 214 + 3  # 10 per function, not 7
    responses_tool = {"type": "function", **WEATHER_TOOL["function"]}  # type: ignore[dict-item]
    assert tiktoken_counter(BYTES, tools=[responses_tool]).overhead == 3 + 214
    described = {"type": "function", "function": {"name": "f", "description": "Does it."}}
    assert tiktoken_counter(BYTES, tools=[described]).overhead == 3 + 7 + len("f:Does it") + 12
    other = {"type": "web_search"}
    assert tiktoken_counter(BYTES, tools=[other]).overhead == 3 + len('{"type": "web_search"}') + 12


def test_tiktoken_refuses_bad_tools_and_names() -> None:
    with pytest.raises(InvalidTypeError, match=r"^tools\[0\]: expected a tool object"):
        tiktoken_counter(BYTES, tools=["get_weather"])  # type: ignore[list-item]
    with pytest.raises(InvalidTypeError, match=r"^tools\[0\]\.function: expected a function"):
        tiktoken_counter(BYTES, tools=[{"type": "function", "function": "f"}])
    with pytest.raises(InvalidTypeError, match=r"^tools\[0\]\.parameters: expected a JSON"):
        tiktoken_counter(BYTES, tools=[{"type": "function", "name": "f", "parameters": [1]}])
    with pytest.raises(InvalidValueError, match=r"^encoding_or_model: tiktoken knows no") as info:
        tiktoken_counter("no-such-model")
    assert info.value.path == "encoding_or_model"
    with pytest.raises(InvalidTypeError, match=r"^encoding_or_model: expected an encoding"):
        tiktoken_counter(5)  # type: ignore[arg-type]


def test_tiktoken_missing_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "tiktoken", None)
    with pytest.raises(ImportError, match=r"pip install 'semantic_chat\[tiktoken\]'"):
        tiktoken_counter("o200k_base")


def test_a_partial_of_the_approximate_counter_is_a_counter() -> None:
    coarse = functools.partial(count_tokens_approximately, chars_per_token=2.0)
    assert count_tokens(LANGCHAIN_DOC_MESSAGES[:2], coarse) == (31 + 3) + (19 + 3)
