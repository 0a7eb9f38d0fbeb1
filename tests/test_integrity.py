"""What users met when trying the library, each as a test of the exact behaviour now.

Before the model checked types, a user could build `TextContent(5)` or a message named ``5``,
write it with ``to_json`` and then fail to read it back, or see a bare ``TypeError`` far from the
mistake. Each case they reported is here with the exact error (class, and the message that starts
with the field it is about) or the exact value now given, followed by the round trip that used to
break. The last test is a property over a wide mix of values: whatever is given to a checked
field is either refused with an error located at that field, or written and read back equal.

Tests of behaviour that is still wrong in the library are marked `library_problem` (a strict
``xfail``: they fail today, and start failing the suite as unexpected passes once fixed, so the
mark is then removed).
"""

from __future__ import annotations

import contextlib
import datetime
import decimal
import re
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from strategies import json_values

from semantic_chat import (
    AudioContent,
    ChatHistory,
    ChatMessageContent,
    FileContent,
    FormatError,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    InvalidTypeError,
    InvalidValueError,
    KernelContent,
    ReasoningContent,
    RefusalContent,
    SemanticChatError,
    SerializationError,
    TextContent,
    UnknownContent,
    UnsupportedContentError,
    Usage,
)
from semantic_chat.formats import openai_chat, openai_responses
from semantic_chat.serialization import from_json, to_dict, to_json

URL = "https://example.com/a.png"
PDF = b"%PDF-1.4\n" + bytes(1991)  # 2,000 bytes


def png_image() -> ImageContent:
    """A real 64x48 PNG made by the library (120 bytes: all black compresses well)."""
    return ImageContent.from_array(np.zeros((48, 64, 3), np.uint8))


def library_problem(reason: str) -> pytest.MarkDecorator:
    """Mark a test of the right behaviour that the library does not have yet."""
    return pytest.mark.xfail(reason=f"library problem: {reason}", strict=True)


@contextlib.contextmanager
def raises_exactly(error_class: type[Exception], message: str) -> Iterator[None]:
    """Expect exactly ``error_class`` (not a subclass) with exactly ``message``."""
    with pytest.raises(error_class) as caught:
        yield
    assert type(caught.value) is error_class
    assert str(caught.value) == message


def round_trips(obj: Any) -> bool:
    """Whether ``obj`` reads back equal from its JSON, as the same class."""
    read = from_json(to_json(obj), type(obj))
    return type(read) is type(obj) and read == obj


# --- wrong types given to constructors ------------------------------------------------------

CONSTRUCTED = [
    pytest.param(lambda: TextContent(5), "text: expected a str, got int", id="TextContent(5)"),
    pytest.param(
        lambda: TextContent(None), "text: expected a str, got NoneType", id="TextContent(None)"
    ),
    pytest.param(
        lambda: RefusalContent(None),
        "text: expected a str, got NoneType",
        id="RefusalContent(None)",
    ),
    pytest.param(
        lambda: ReasoningContent(5), "text: expected a str, got int", id="ReasoningContent(5)"
    ),
    pytest.param(
        lambda: FileContent(data=PDF, filename=5),
        "filename: expected a str or None, got int",
        id="FileContent(data, filename=5)",
    ),
    pytest.param(
        lambda: FileContent(uri="https://example.com/a.pdf", filename=5),
        "filename: expected a str or None, got int",
        id="FileContent(uri, filename=5)",
    ),
    pytest.param(
        lambda: ChatMessageContent("user", "hi", name=5),
        "name: expected a str or None, got int",
        id="message name=5",
    ),
    pytest.param(
        lambda: ChatMessageContent("user", "hi", model_id=3.5),
        "model_id: expected a str or None, got float",
        id="message model_id=3.5",
    ),
    pytest.param(
        lambda: ChatMessageContent("user", "hi", id=["x"]),
        "id: expected a str or None, got list",
        id="message id=['x']",
    ),
    pytest.param(
        lambda: FunctionCallContent("c", "f", 12),
        "arguments: expected a JSON string, a mapping or None, got int",
        id="FunctionCallContent(arguments=12)",
    ),
    pytest.param(
        lambda: FunctionCallContent(None, None),
        "name: expected a str, got NoneType",
        id="FunctionCallContent(None, None)",
    ),
]


@pytest.mark.parametrize(("build", "message"), CONSTRUCTED)
def test_a_constructor_refuses_a_wrong_type_naming_the_field(
    build: Callable[[], object], message: str
) -> None:
    with raises_exactly(InvalidTypeError, message):
        build()


# --- the same values assigned after construction --------------------------------------------

ASSIGNED = [
    pytest.param(lambda: TextContent("a"), "text", 5, "text: expected a str, got int", id="text"),
    pytest.param(
        lambda: TextContent("a"), "text", None, "text: expected a str, got NoneType", id="text-None"
    ),
    pytest.param(
        lambda: RefusalContent("a"),
        "text",
        None,
        "text: expected a str, got NoneType",
        id="refusal-None",
    ),
    pytest.param(
        lambda: ReasoningContent("a"), "text", 5, "text: expected a str, got int", id="reasoning"
    ),
    pytest.param(
        lambda: FileContent(data=PDF, filename="a.pdf"),
        "filename",
        5,
        "filename: expected a str or None, got int",
        id="filename",
    ),
    pytest.param(
        lambda: FunctionCallContent("c", "f", '{"a": 1}'),
        "arguments",
        12,
        "arguments: expected a JSON string, a mapping or None, got int",
        id="arguments",
    ),
    pytest.param(
        lambda: FunctionCallContent("c", "f"),
        "name",
        None,
        "name: expected a str, got NoneType",
        id="call-name-None",
    ),
    pytest.param(
        lambda: ChatMessageContent("user", "hi", name="ada"),
        "name",
        5,
        "name: expected a str or None, got int",
        id="message-name",
    ),
    pytest.param(
        lambda: ChatMessageContent("user", "hi"),
        "model_id",
        3.5,
        "model_id: expected a str or None, got float",
        id="message-model_id",
    ),
    pytest.param(
        lambda: ChatMessageContent("user", "hi"),
        "id",
        ["x"],
        "id: expected a str or None, got list",
        id="message-id",
    ),
]


@pytest.mark.parametrize(("build", "field", "value", "message"), ASSIGNED)
def test_an_assignment_refuses_a_wrong_type_and_changes_nothing(
    build: Callable[[], Any], field: str, value: object, message: str
) -> None:
    obj = build()
    before = getattr(obj, field)
    with raises_exactly(InvalidTypeError, message):
        setattr(obj, field, value)
    assert getattr(obj, field) == before
    assert round_trips(obj)


def test_a_message_whose_text_assignment_was_refused_still_prints_and_writes() -> None:
    item = TextContent("a")
    message = ChatMessageContent("user", items=[item])
    with raises_exactly(InvalidTypeError, "text: expected a str, got int"):
        item.text = 5
    assert str(message) == "a"
    assert message.text == "a"
    assert openai_chat.to_payload([message]) == [{"role": "user", "content": "a"}]
    assert to_json(message) == '{"role":"user","items":[{"type":"text","text":"a"}]}'


def test_reasoning_without_text_prints_as_empty_and_round_trips() -> None:
    item = ReasoningContent(None)
    assert item.text == ""
    assert str(item) == ""
    assert to_json(item) == '{"type":"reasoning"}'
    assert round_trips(item)


def test_reasoning_text_assigned_none_becomes_empty() -> None:
    item = ReasoningContent("thinking", signature="sig")
    item.text = None
    assert item.text == ""
    assert to_json(item) == '{"type":"reasoning","signature":"sig"}'
    assert round_trips(item)


# --- function calls ---------------------------------------------------------------------------


def test_a_call_without_an_id_writes_its_name_and_reads_back() -> None:
    call = FunctionCallContent(None, "f")
    assert to_json(call) == '{"type":"function_call","name":"f"}'
    assert round_trips(call)


def test_a_call_with_dict_arguments_writes_a_payload_with_json_text() -> None:
    call = FunctionCallContent("c", "f", {"x": np.int64(1)})
    assert call.arguments == {"x": 1}
    assert type(call.arguments["x"]) is int
    assert openai_chat.to_payload([ChatMessageContent("assistant", items=[call])]) == [
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "c", "type": "function", "function": {"name": "f", "arguments": '{"x":1}'}}
            ],
        }
    ]
    assert round_trips(call)


# --- usage given as a dict ------------------------------------------------------------------


def test_usage_given_as_a_dict_becomes_a_usage_and_round_trips() -> None:
    message = ChatMessageContent("assistant", "hi", usage={"prompt_tokens": 1})
    assert message.usage == Usage(prompt_tokens=1)
    assert type(message.usage) is Usage
    assert (
        to_json(message)
        == '{"role":"assistant","items":[{"type":"text","text":"hi"}],"usage":{"prompt_tokens":1}}'
    )
    read = from_json(to_json(message), ChatMessageContent)
    assert read == message
    assert type(read.usage) is Usage


def test_usage_assigned_as_a_dict_becomes_a_usage_and_round_trips() -> None:
    message = ChatMessageContent("assistant", "hi")
    message.usage = {"completion_tokens": 2, "cached_tokens": 0}
    assert message.usage == Usage(completion_tokens=2, cached_tokens=0)
    assert round_trips(message)


USAGE_FIELDS = (
    "prompt_tokens, completion_tokens, total_tokens, cached_tokens, reasoning_tokens, "
    "cache_creation_tokens"
)

BAD_USAGES = [
    pytest.param(
        {"prompt_tokenz": 1},
        InvalidValueError,
        f"usage: unknown token counts 'prompt_tokenz': a Usage has {USAGE_FIELDS}",
        id="unknown-key",
    ),
    pytest.param(
        {"a": 1, "b": 2},
        InvalidValueError,
        f"usage: unknown token counts 'a', 'b': a Usage has {USAGE_FIELDS}",
        id="unknown-keys",
    ),
    pytest.param(
        {"prompt_tokens": 1, "details": {"a": 1}},
        InvalidValueError,
        f"usage: unknown token counts 'details': a Usage has {USAGE_FIELDS}",
        id="nested-details",
    ),
    pytest.param(
        {"prompt_tokens": "1"},
        InvalidTypeError,
        "usage.prompt_tokens: expected an int, got str",
        id="str-count",
    ),
    pytest.param(
        {"prompt_tokens": 1.0},
        InvalidTypeError,
        "usage.prompt_tokens: expected an int, got float",
        id="float-count",
    ),
    pytest.param(
        {"prompt_tokens": True},
        InvalidTypeError,
        "usage.prompt_tokens: expected an int, got bool",
        id="bool-count",
    ),
    pytest.param(
        {"prompt_tokens": np.int64(3)},
        InvalidTypeError,
        "usage.prompt_tokens: expected an int, got int64",
        id="numpy-count",
    ),
    pytest.param(
        {"cached_tokens": "0"},
        InvalidTypeError,
        "usage.cached_tokens: expected an int or None, got str",
        id="str-optional-count",
    ),
    pytest.param(
        5,
        InvalidTypeError,
        "usage: expected a Usage, a dict of its fields, or None, got int",
        id="int",
    ),
    pytest.param(
        [1],
        InvalidTypeError,
        "usage: expected a Usage, a dict of its fields, or None, got list",
        id="list",
    ),
]


@pytest.mark.parametrize(("usage", "error_class", "message"), BAD_USAGES)
def test_bad_usage_is_refused_at_construction_naming_the_field(
    usage: object, error_class: type[Exception], message: str
) -> None:
    with raises_exactly(error_class, message):
        ChatMessageContent("assistant", "hi", usage=usage)


@pytest.mark.parametrize(("usage", "error_class", "message"), BAD_USAGES)
def test_bad_usage_is_refused_when_assigned_and_changes_nothing(
    usage: object, error_class: type[Exception], message: str
) -> None:
    message_obj = ChatMessageContent("assistant", "hi", usage=Usage(total_tokens=7))
    with raises_exactly(error_class, message):
        message_obj.usage = usage
    assert message_obj.usage == Usage(total_tokens=7)


# --- the one source of a binary item ----------------------------------------------------------


def test_assigning_a_uri_to_a_data_image_replaces_the_data() -> None:
    image = png_image()
    image.uri = URL
    assert (image.data, image.uri, image.file_id) == (None, URL, None)
    assert to_json(image) == f'{{"type":"image","mime_type":"image/png","uri":"{URL}"}}'
    assert round_trips(image)


def test_assigning_a_file_id_to_a_data_image_replaces_the_data() -> None:
    image = png_image()
    image.file_id = "f1"
    assert (image.data, image.uri, image.file_id) == (None, None, "f1")
    assert to_json(image) == '{"type":"image","mime_type":"image/png","file_id":"f1"}'
    assert round_trips(image)


def test_assigning_data_to_a_uri_image_replaces_the_uri_and_sniffs_the_type() -> None:
    data = png_image().data
    image = ImageContent(uri=URL)
    image.data = data
    assert (image.data, image.uri, image.file_id, image.mime_type) == (
        data,
        None,
        None,
        "image/png",
    )
    assert round_trips(image)


def test_assigning_a_uri_to_a_data_file_keeps_its_name_and_type() -> None:
    file = FileContent(data=PDF, filename="a.pdf")
    file.uri = "https://example.com/a.pdf"
    assert to_json(file) == (
        '{"type":"file","mime_type":"application/pdf","uri":"https://example.com/a.pdf",'
        '"filename":"a.pdf"}'
    )
    assert round_trips(file)


@pytest.mark.parametrize(
    ("build", "field"),
    [
        pytest.param(png_image, "data", id="data"),
        pytest.param(lambda: ImageContent(uri=URL), "uri", id="uri"),
        pytest.param(lambda: ImageContent(file_id="f1"), "file_id", id="file_id"),
    ],
)
def test_removing_the_only_source_is_refused_and_changes_nothing(
    build: Callable[[], ImageContent], field: str
) -> None:
    image = build()
    before = to_json(image)
    with raises_exactly(
        InvalidValueError,
        f"{field}: ImageContent needs one of data, uri and file_id: "
        "assign another source instead of removing this one",
    ):
        setattr(image, field, None)
    assert to_json(image) == before
    assert round_trips(image)


def test_assigning_none_to_a_source_the_item_does_not_use_changes_nothing() -> None:
    image = png_image()
    data = image.data
    image.uri = None
    image.file_id = None
    assert (image.data, image.uri, image.file_id) == (data, None, None)
    assert round_trips(image)


def test_mime_type_none_on_data_is_sniffed_again() -> None:
    image = png_image()
    image.mime_type = "image/jpeg"
    image.mime_type = None
    assert image.mime_type == "image/png"
    assert round_trips(image)


def test_mime_type_none_on_a_pdf_file_is_sniffed_again() -> None:
    file = FileContent(data=PDF, mime_type="application/octet-stream")
    file.mime_type = None
    assert file.mime_type == "application/pdf"
    assert round_trips(file)


def test_mime_type_none_on_a_uri_stays_unknown() -> None:
    image = ImageContent(uri=URL, mime_type="image/png")
    image.mime_type = None
    assert image.mime_type is None
    assert to_json(image) == f'{{"type":"image","uri":"{URL}"}}'
    assert round_trips(image)


# --- items= ---------------------------------------------------------------------------------

STR_HINT = "pass text or bytes as content= to have them converted"
ITEM_HINT = "pass [item] for one item, or content="

BAD_ITEMS = [
    pytest.param("abc", f"items: expected a list of items, got str: {STR_HINT}", id="str"),
    pytest.param(b"abc", f"items: expected a list of items, got bytes: {STR_HINT}", id="bytes"),
    pytest.param(
        TextContent("a"),
        f"items: expected a list of items, got TextContent: {ITEM_HINT}",
        id="lone-item",
    ),
    pytest.param(5, f"items: expected a list of items, got int: {ITEM_HINT}", id="int"),
]


@pytest.mark.parametrize(("items", "message"), BAD_ITEMS)
def test_items_given_something_other_than_a_list_is_refused(items: object, message: str) -> None:
    with raises_exactly(InvalidTypeError, message):
        ChatMessageContent("user", items=items)


@pytest.mark.parametrize(("items", "message"), BAD_ITEMS)
def test_items_assigned_something_other_than_a_list_is_refused_and_changes_nothing(
    items: object, message: str
) -> None:
    message_obj = ChatMessageContent("user", "hi")
    with raises_exactly(InvalidTypeError, message):
        message_obj.items = items
    assert message_obj.items == [TextContent("hi")]


def test_items_none_means_no_items() -> None:
    assert ChatMessageContent("user", items=None).items == []
    message = ChatMessageContent("user", "hi")
    message.items = None
    assert message.items == []
    assert to_json(message) == '{"role":"user"}'
    assert round_trips(message)


def test_a_list_of_one_string_is_one_text_item() -> None:
    assert ChatMessageContent("user", items=["abc"]).items == [TextContent("abc")]


# --- numpy values where JSON is taken -------------------------------------------------------


def test_a_tool_result_with_a_numpy_float_stores_a_python_float() -> None:
    history = ChatHistory()
    history.add_tool_message({"t": np.float64(18.5)}, call_id="c")
    result = history[-1].items[0].result
    assert result == {"t": 18.5}
    assert type(result["t"]) is float
    assert to_json(history) == (
        '{"version":1,"messages":[{"role":"tool","items":'
        '[{"type":"function_result","call_id":"c","result":{"t":18.5}}]}]}'
    )
    assert round_trips(history)


def test_a_tool_result_that_is_a_numpy_array_becomes_a_list() -> None:
    history = ChatHistory()
    history.add_tool_message(np.arange(3), call_id="c")
    item = history[-1].items[0]
    assert item.result == [0, 1, 2]
    assert [type(value) for value in item.result] == [int, int, int]
    assert str(item) == "[0, 1, 2]"
    assert round_trips(history)


def test_numpy_values_nested_in_a_result_become_json_values() -> None:
    result = FunctionResultContent(
        "c", {"m": np.eye(2), "ok": np.bool_(True), "n": np.int32(4), "s": np.str_("x")}
    ).result
    assert result == {"m": [[1.0, 0.0], [0.0, 1.0]], "ok": True, "n": 4, "s": "x"}
    assert type(result["m"]) is list
    assert type(result["m"][0][0]) is float
    assert type(result["ok"]) is bool
    assert type(result["n"]) is int
    assert type(result["s"]) is str
    message = ChatMessageContent("tool", items=[FunctionResultContent("c", result)])
    assert openai_chat.to_payload([message]) == [
        {
            "role": "tool",
            "tool_call_id": "c",
            "content": '{"m":[[1.0,0.0],[0.0,1.0]],"ok":true,"n":4,"s":"x"}',
        }
    ]


def test_a_numpy_result_assigned_later_becomes_a_python_number() -> None:
    item = FunctionResultContent("c", 1)
    item.result = np.float64(2.5)
    assert item.result == 2.5
    assert type(item.result) is float


def test_numpy_metadata_given_to_a_message_or_item_becomes_python_numbers() -> None:
    message = ChatMessageContent("user", "x", metadata={"k": np.int64(5)})
    item = TextContent("x", metadata={"k": np.float32(1.5)})
    assert message.metadata == {"k": 5}
    assert type(message.metadata["k"]) is int
    assert item.metadata == {"k": 1.5}
    assert type(item.metadata["k"]) is float
    assert round_trips(message)
    assert round_trips(item)


def test_numpy_metadata_assigned_becomes_python_numbers() -> None:
    message = ChatMessageContent("user", "x")
    message.metadata = {"a": np.int64(1)}
    assert message.metadata == {"a": 1}
    assert type(message.metadata["a"]) is int


def test_a_numpy_scalar_put_into_metadata_later_is_written_as_a_number() -> None:
    message = ChatMessageContent("user", "x")
    message.metadata["k"] = np.float64(2.5)
    text = to_json(message)
    assert text == '{"role":"user","items":[{"type":"text","text":"x"}],"metadata":{"k":2.5}}'
    read = from_json(text, ChatMessageContent)
    assert read.metadata == {"k": 2.5}
    assert type(read.metadata["k"]) is float
    assert read == message


def test_numpy_values_put_into_metadata_later_are_written_as_json() -> None:
    message = ChatMessageContent("user", "x")
    message.metadata["k"] = np.int64(3)
    message.metadata["b"] = np.bool_(False)
    message.metadata["a"] = np.arange(2)
    item = TextContent("x")
    item.metadata["k"] = np.float32(0.5)
    item.metadata["n"] = np.int8(-3)
    assert to_json(message) == (
        '{"role":"user","items":[{"type":"text","text":"x"}],'
        '"metadata":{"k":3,"b":false,"a":[0,1]}}'
    )
    assert to_json(item) == '{"type":"text","text":"x","metadata":{"k":0.5,"n":-3}}'


REFUSED_JSON = [
    pytest.param(
        lambda: FunctionResultContent("c", {"b": np.float64("nan")}),
        InvalidValueError,
        'result["b"]: nan is not a JSON value',
        id="result-numpy-nan",
    ),
    pytest.param(
        lambda: FunctionResultContent("c", np.array([1.5, np.nan])),
        InvalidValueError,
        "result[1]: nan is not a JSON value",
        id="result-array-with-nan",
    ),
    pytest.param(
        lambda: FunctionResultContent("c", {"a": [1, datetime.date(2020, 1, 1)]}),
        InvalidTypeError,
        'result["a"][1]: date is not a JSON value',
        id="result-date",
    ),
    pytest.param(
        lambda: FunctionResultContent("c", [TextContent("a"), 1]),
        InvalidTypeError,
        "result[1]: expected an item (a result is JSON or a list of items, not both), got int",
        id="result-items-and-json",
    ),
    pytest.param(
        lambda: ChatMessageContent("user", "x", metadata={"k": {"n": float("nan")}}),
        InvalidValueError,
        'metadata["k"]["n"]: nan is not a JSON value',
        id="metadata-nan",
    ),
    pytest.param(
        lambda: ChatMessageContent("user", "x", metadata={1: 2}),
        InvalidTypeError,
        "metadata: int key 1 is not a JSON object key (use str)",
        id="metadata-int-key",
    ),
    pytest.param(
        lambda: FunctionCallContent("c", "f", {"a": {1: 2}}),
        InvalidTypeError,
        'arguments["a"]: int key 1 is not a JSON object key (use str)',
        id="arguments-int-key",
    ),
    pytest.param(
        lambda: UnknownContent("video", {"u": (1,)}),
        InvalidTypeError,
        'fields["u"]: tuple is not a JSON value',
        id="unknown-fields-tuple",
    ),
]


@pytest.mark.parametrize(("build", "error_class", "message"), REFUSED_JSON)
def test_a_value_that_is_not_json_is_refused_where_it_is(
    build: Callable[[], object], error_class: type[Exception], message: str
) -> None:
    with raises_exactly(error_class, message):
        build()


def test_a_lone_item_given_as_a_result_becomes_a_list_of_it() -> None:
    assert FunctionResultContent("c", TextContent("a")).result == [TextContent("a")]


# --- str() of every kind of item --------------------------------------------------------------

SHOWN = [
    pytest.param(TextContent("hello"), "hello", id="text"),
    pytest.param(RefusalContent("I can't help."), "I can't help.", id="refusal"),
    pytest.param(ReasoningContent("think"), "think", id="reasoning"),
    pytest.param(ReasoningContent(), "", id="reasoning-empty"),
    pytest.param(ReasoningContent(encrypted="abc"), "", id="reasoning-encrypted"),
    pytest.param(
        FunctionCallContent("c", "get_weather", '{"city":  "Paris"}'),
        'get_weather({"city":  "Paris"})',
        id="call-str-arguments",
    ),
    pytest.param(
        FunctionCallContent("c", "get_weather", {"city": "Paris", "n": 1}),
        'get_weather({"city": "Paris", "n": 1})',
        id="call-dict-arguments",
    ),
    pytest.param(FunctionCallContent("c", "get_weather"), "get_weather()", id="call-no-arguments"),
    pytest.param(FunctionResultContent("c", "sunny"), "sunny", id="result-str"),
    pytest.param(
        FunctionResultContent("c", {"t": 18.5, "sky": "clear", "unit": "°C"}),
        '{"t": 18.5, "sky": "clear", "unit": "°C"}',
        id="result-dict",
    ),
    pytest.param(FunctionResultContent("c", [1, "a", None]), '[1, "a", null]', id="result-list"),
    pytest.param(
        FunctionResultContent("c", [TextContent("a"), png_image()]),
        "a\n[image/png, 64x48, 120 bytes]",
        id="result-items",
    ),
    pytest.param(FunctionResultContent("c", None), "", id="result-none"),
    pytest.param(png_image(), "[image/png, 64x48, 120 bytes]", id="image-data"),
    pytest.param(ImageContent(uri=URL), URL, id="image-uri"),
    pytest.param(
        ImageContent(file_id="f1", mime_type="image/png"),
        "[image/png, file id f1]",
        id="image-file-id",
    ),
    pytest.param(ImageContent(file_id="f1"), "[image, file id f1]", id="image-file-id-no-type"),
    pytest.param(AudioContent(file_id="f1"), "[audio, file id f1]", id="audio-file-id-no-type"),
    pytest.param(
        FileContent(file_id="f1", filename="a.pdf"), "[file, a.pdf, file id f1]",
        id="file-file-id-no-type",
    ),
    pytest.param(
        AudioContent.from_array(np.zeros(8000, np.int16), sample_rate=16000),
        "[audio/wav, 0.50 s, 16,044 bytes]",
        id="audio-data",
    ),
    pytest.param(
        FileContent(data=PDF, filename="a.pdf"), "[application/pdf, a.pdf, 2,000 bytes]",
        id="file-data",
    ),
    pytest.param(
        FileContent(uri="https://example.com/a.pdf", filename="a.pdf"),
        "https://example.com/a.pdf",
        id="file-uri",
    ),
    pytest.param(
        FileContent(file_id="file-1", mime_type="application/pdf", filename="a.pdf"),
        "[application/pdf, a.pdf, file id file-1]",
        id="file-file-id",
    ),
    pytest.param(UnknownContent("video", {"url": "x"}), "[video]", id="unknown"),
]


@pytest.mark.parametrize(("item", "shown"), SHOWN)
def test_str_of_an_item_is_readable(item: KernelContent, shown: str) -> None:
    assert str(item) == shown


def test_the_image_described_is_the_png_made() -> None:
    image = png_image()
    assert image.data is not None
    assert len(image.data) == 120
    assert image.data.startswith(b"\x89PNG\r\n\x1a\n")


def test_str_of_a_message_joins_its_text_items() -> None:
    message = ChatMessageContent("user", items=[TextContent("a"), TextContent("b")])
    assert str(message) == "a\nb"


# --- objects broken by reaching inside -----------------------------------------------------


def broken_text_history() -> ChatHistory:
    item = TextContent("a")
    object.__setattr__(item, "_text", 5)
    return ChatHistory([ChatMessageContent("user", items=[item])])


def broken_name_history() -> ChatHistory:
    message = ChatMessageContent("user", "hi")
    object.__setattr__(message, "_name", 5)
    return ChatHistory([message])


WRITERS_OF_BROKEN = [
    pytest.param(to_json, SerializationError, id="to_json"),
    pytest.param(to_dict, SerializationError, id="to_dict"),
    pytest.param(openai_chat.to_payload, FormatError, id="openai_chat"),
    pytest.param(openai_responses.to_payload, FormatError, id="openai_responses"),
]


@pytest.mark.parametrize(("write", "error_class"), WRITERS_OF_BROKEN)
def test_a_text_broken_by_hand_is_refused_by_every_writer_at_its_place(
    write: Callable[[Any], object], error_class: type[Exception]
) -> None:
    with raises_exactly(error_class, "messages[0].items[0].text: expected a str, got int"):
        write(broken_text_history())


@pytest.mark.parametrize(("write", "error_class"), WRITERS_OF_BROKEN)
def test_a_name_broken_by_hand_is_refused_by_every_writer_at_its_place(
    write: Callable[[Any], object], error_class: type[Exception]
) -> None:
    with raises_exactly(error_class, "messages[0].name: expected a str or None, got int"):
        write(broken_name_history())


def test_a_lone_broken_item_or_message_is_refused_at_its_field() -> None:
    item = TextContent("a")
    object.__setattr__(item, "_text", 5)
    with raises_exactly(SerializationError, "text: expected a str, got int"):
        to_json(item)
    with raises_exactly(SerializationError, "items[0].text: expected a str, got int"):
        to_json(ChatMessageContent("user", items=[item]))
    message = ChatMessageContent("user", "hi")
    object.__setattr__(message, "_name", 5)
    with raises_exactly(SerializationError, "name: expected a str or None, got int"):
        to_json(message)
    with raises_exactly(FormatError, "messages[0].name: expected a str or None, got int"):
        openai_chat.to_payload([message])


# Every private slot of every kind of item and of a message, broken by hand with a value of a
# wrong type. ``to_json`` copies every field, so it must refuse at the field; a payload writer
# copies only some, so it may write, but when it refuses it is with a located FormatError (an
# item it cannot carry at all is refused at the item). Never a bare TypeError/AttributeError.

PNG = png_image().data
ITEM_KINDS: dict[str, tuple[str, Callable[[], KernelContent]]] = {
    "text": ("user", lambda: TextContent("a")),
    "refusal": ("assistant", lambda: RefusalContent("a")),
    "reasoning": ("assistant", lambda: ReasoningContent("a", signature="s")),
    "call": ("assistant", lambda: FunctionCallContent("c", "f", '{"a": 1}', index=0)),
    "result": ("tool", lambda: FunctionResultContent("c", "r", name="f")),
    "image": ("user", lambda: ImageContent(data=PNG, detail="low")),
    "audio": ("user", lambda: AudioContent.from_array(np.zeros(80, np.int16), sample_rate=8000)),
    "file": ("user", lambda: FileContent(data=PDF, filename="a.pdf")),
    "unknown": ("user", lambda: UnknownContent("video", {"u": 1})),
}


class Opaque:
    """A value of a type no field takes."""


BAD_VALUES = {"int": 5, "object": Opaque()}
# Slots where 5 is a legal value; only the object is tried there.
INT_IS_LEGAL = {("call", "_index"), ("result", "_result")}

WRITERS = {
    "to_json": to_json,
    "openai_chat": openai_chat.to_payload,
    "openai_responses": openai_responses.to_payload,
}

# Known gaps, "<kind>.<slot>=<value>-<writer>" -> what happens instead of a located error.
METADATA = "a non-dict metadata is written by to_json and raises a bare error in payloads"
GAPS: dict[str, str] = {}


def _broken_cases() -> Iterator[Any]:
    for kind, (role, build) in ITEM_KINDS.items():
        for field in attrs.fields(type(build())):
            if field.name == "inner_content":
                continue
            for bad_name in BAD_VALUES:
                if bad_name == "int" and (kind, field.name) in INT_IS_LEGAL:
                    continue
                yield kind, role, field.name, bad_name
    for field in attrs.fields(ChatMessageContent):
        if field.name != "inner_content":
            for bad_name in BAD_VALUES:
                yield "message", "user", field.name, bad_name


BROKEN = [
    pytest.param(
        kind,
        role,
        slot,
        bad_name,
        writer,
        id=f"{kind}.{slot}={bad_name}-{writer}",
        marks=[library_problem(GAPS[f"{kind}.{slot}={bad_name}-{writer}"])]
        if f"{kind}.{slot}={bad_name}-{writer}" in GAPS
        else [],
    )
    for kind, role, slot, bad_name in _broken_cases()
    for writer in WRITERS
]


def _broken_history(kind: str, role: str, slot: str, bad: object) -> tuple[ChatHistory, str]:
    """A one-message history with ``slot`` set to ``bad`` by hand, and the path of the field."""
    if kind == "message":
        message = ChatMessageContent(role, "hi")
        object.__setattr__(message, slot, bad)
        return ChatHistory([message]), f"messages[0].{slot.lstrip('_')}"
    item = ITEM_KINDS[kind][1]()
    object.__setattr__(item, slot, bad)
    return ChatHistory([ChatMessageContent(role, items=[item])]), (
        f"messages[0].items[0].{slot.lstrip('_')}"
    )


def _refusal(action: Callable[[Any], object], argument: object) -> SemanticChatError | None:
    """The library error ``action(argument)`` raises, or None; any other exception escapes."""
    try:
        action(argument)
    except SemanticChatError as error:
        return error
    return None


@pytest.mark.parametrize(("kind", "role", "slot", "bad_name", "writer"), BROKEN)
def test_a_field_broken_by_hand_never_escapes_as_a_bare_error(
    kind: str, role: str, slot: str, bad_name: str, writer: str
) -> None:
    history, path = _broken_history(kind, role, slot, BAD_VALUES[bad_name])
    if writer == "to_json":
        with pytest.raises(SerializationError) as caught:
            to_json(history)
        assert str(caught.value).startswith(f"{path}: ") or str(caught.value).startswith(f"{path}[")
        return
    refused = _refusal(WRITERS[writer], history)
    if refused is None:
        return  # this writer does not copy the field
    assert isinstance(refused, FormatError)
    located = (f"{path}: ", f"{path}[")
    if isinstance(refused, UnsupportedContentError):
        located = (*located, "messages[0].items[0]: ")
    assert str(refused).startswith(located), str(refused)


# --- values put into a result or arguments dict after construction ------------------------


def _result_history(key_value: tuple[object, object]) -> ChatHistory:
    item = FunctionResultContent("c", {"a": 1})
    item.result[key_value[0]] = key_value[1]
    return ChatHistory([ChatMessageContent("tool", items=[item])])


def _arguments_history(key_value: tuple[object, object]) -> ChatHistory:
    item = FunctionCallContent("c", "f", {"a": 1})
    item.arguments[key_value[0]] = key_value[1]
    return ChatHistory([ChatMessageContent("assistant", items=[item])])


LATE_VALUES = [
    pytest.param(
        ("b", float("nan")), InvalidValueError, '["b"]: nan is not a JSON value', id="nan"
    ),
    pytest.param(("b", Opaque()), InvalidTypeError, '["b"]: Opaque is not a JSON value', id="obj"),
    pytest.param(
        ("b", datetime.date(2020, 1, 1)),
        InvalidTypeError,
        '["b"]: date is not a JSON value',
        id="date",
    ),
    pytest.param(("b", (1, 2)), InvalidTypeError, '["b"]: tuple is not a JSON value', id="tuple"),
    pytest.param(
        ("b", {1: 2}),
        InvalidTypeError,
        '["b"]: int key 1 is not a JSON object key (use str)',
        id="int-key",
    ),
]

WRITTEN_ANYWAY = "the payload writer writes what to_json refuses (a tuple as a list, 1 as '1')"
NOT_LOCATED = "the payload error about arguments does not name the message and item"
LATE_GAPS: dict[tuple[str, str, str], str] = {}


# The payload writers write tool output and arguments as JSON text with the standard library,
# which takes a tuple as a list and an int key as a string: the text is valid JSON, and it is
# a string in the payload, so nothing is written that a reader refuses. Only to_json, whose
# output must read back equal, refuses them.
LENIENT_IN_PAYLOADS = {"tuple": '{"a":1,"b":[1,2]}', "int-key": '{"a":1,"b":{"1":2}}'}


def _late_cases() -> Iterator[Any]:
    for where in ("result", "arguments"):
        for writer in WRITERS:
            for case in LATE_VALUES:
                (key_value, _, detail), name = case.values, case.id
                if writer != "to_json" and name in LENIENT_IN_PAYLOADS:
                    continue
                gap = LATE_GAPS.get((where, writer, name))
                yield pytest.param(
                    where,
                    writer,
                    key_value,
                    detail,
                    id=f"{where}-{writer}-{name}",
                    marks=[library_problem(gap)] if gap else [],
                )


@pytest.mark.parametrize(("where", "writer", "key_value", "detail"), list(_late_cases()))
def test_a_value_put_into_a_dict_later_is_refused_by_every_writer_at_its_place(
    where: str, writer: str, key_value: tuple[object, object], detail: str
) -> None:
    build = _result_history if where == "result" else _arguments_history
    error_class = SerializationError if writer == "to_json" else FormatError
    with raises_exactly(error_class, f"messages[0].items[0].{where}{detail}"):
        WRITERS[writer](build(key_value))


@pytest.mark.parametrize("name", sorted(LENIENT_IN_PAYLOADS))
@pytest.mark.parametrize("writer", ["openai_chat", "openai_responses"])
def test_a_tuple_or_int_key_put_into_a_result_later_is_written_as_json_text_in_payloads(
    writer: str, name: str
) -> None:
    value = {"tuple": (1, 2), "int-key": {1: 2}}[name]
    payload = WRITERS[writer](_result_history(("b", value)))
    texts = [
        entry.get("content", entry.get("output"))
        for entry in payload
        if entry.get("role") == "tool" or entry.get("type") == "function_call_output"
    ]
    assert texts == [LENIENT_IN_PAYLOADS[name]]


def test_an_object_put_into_metadata_later_is_refused_by_to_json_at_its_place() -> None:
    message = ChatMessageContent("user", "x")
    message.metadata["k"] = Opaque()
    with raises_exactly(
        SerializationError, 'messages[0].metadata["k"]: Opaque is not a JSON value'
    ):
        to_json(ChatHistory([message]))
    message.metadata["k"] = float("nan")
    with raises_exactly(SerializationError, 'messages[0].metadata["k"]: nan is not a JSON value'):
        to_json(ChatHistory([message]))


# --- any value, any checked field: refused at the field, or read back equal -----------------


def _numpy_scalars() -> st.SearchStrategy[Any]:
    dtypes = st.sampled_from(["int8", "int64", "uint64", "float16", "float32", "float64", "bool"])
    return dtypes.flatmap(lambda dtype: hnp.from_dtype(np.dtype(dtype)))


def _numpy_arrays() -> st.SearchStrategy[Any]:
    return hnp.arrays(
        st.sampled_from([np.int32, np.float64, np.bool_, np.dtype("U3"), np.complex64]),
        hnp.array_shapes(min_dims=0, max_dims=2, max_side=3),
    )


def wide_values() -> st.SearchStrategy[Any]:
    """Values of nearly every kind a user might pass, JSON or not, nested a little."""
    scalars = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.integers(min_value=-(2**64), max_value=2**64),
        st.floats(),
        st.text(max_size=6),
        st.text(st.characters(codec=None, categories=["Cs", "Lu", "Nd"]), max_size=3),
        st.binary(max_size=4),
        st.datetimes(),
        st.dates(),
        st.decimals(allow_nan=False, places=2),
        st.builds(Opaque),
        st.builds(object),
        st.just(TextContent("an item")),
        _numpy_scalars(),
        _numpy_arrays(),
    )
    keys = st.one_of(
        st.text(max_size=4), st.integers(), st.none(), st.booleans(), st.floats(), st.tuples()
    )
    nested = st.recursive(
        scalars,
        lambda children: st.one_of(
            st.lists(children, max_size=3),
            st.dictionaries(keys, children, max_size=3),
            st.tuples(children, children),
            st.frozensets(st.integers(), max_size=2),
        ),
        max_leaves=6,
    )
    # Plain JSON values too, so that accepted values are drawn about as often as refused ones.
    return st.one_of(scalars, json_values(), nested)


CHECKED_FIELDS: dict[str, tuple[Callable[[Any], Any], str]] = {
    "TextContent(v)": (TextContent, "text"),
    "FunctionResultContent(c, v)": (lambda value: FunctionResultContent("c", value), "result"),
    "FunctionCallContent(c, f, v)": (
        lambda value: FunctionCallContent("c", "f", value),
        "arguments",
    ),
    "message name=v": (lambda value: ChatMessageContent("user", "x", name=value), "name"),
    "message metadata={k: v}": (
        lambda value: ChatMessageContent("user", "x", metadata={"k": value}),
        'metadata["k"]',
    ),
}


@given(case=st.sampled_from(sorted(CHECKED_FIELDS)), value=wide_values())
def test_any_value_is_refused_at_its_field_or_reads_back_equal(case: str, value: Any) -> None:
    build, path = CHECKED_FIELDS[case]
    written: list[tuple[Any, str]] = []

    def build_and_write(given: Any) -> None:
        built = build(given)
        written.append((built, to_json(built)))

    refused = _refusal(build_and_write, value)
    if refused is not None:
        assert re.match(rf"{re.escape(path)}(: |\[|\.)", str(refused)), str(refused)
        return
    built, text = written[0]
    assert from_json(text, type(built)) == built


def test_values_with_no_json_form_are_refused_at_the_field() -> None:
    # A few of the values the property draws, spelled out with their exact messages.
    for value, message in [
        (decimal.Decimal("1.10"), 'metadata["k"]: Decimal is not a JSON value'),
        (np.datetime64("2020-01-01"), 'metadata["k"]: date is not a JSON value'),
        (np.complex128(1j), 'metadata["k"]: complex is not a JSON value'),
        (float("inf"), 'metadata["k"]: inf is not a JSON value'),
        (2**70, 'metadata["k"]: integer outside the 64-bit range JSON readers accept'),
    ]:
        with pytest.raises(SemanticChatError) as caught:
            ChatMessageContent("user", "x", metadata={"k": value})
        assert str(caught.value) == message
