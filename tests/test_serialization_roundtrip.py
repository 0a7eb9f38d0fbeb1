"""Round trips through `semantic_chat.serialization`: JSON, dicts, both backends, plugins."""

from __future__ import annotations

import copy
import random
import string
from collections.abc import Iterator
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from json_backends import BACKENDS, backend
from strategies import (
    binary_items,
    function_calls,
    function_results,
    histories,
    items,
    json_values,
    labels,
    messages,
    metadata,
    reasoning_items,
    refusal_items,
    text_items,
    unknown_items,
    usages,
)

from semantic_chat import (
    AudioContent,
    AuthorRole,
    BinaryContent,
    ChatHistory,
    ChatMessageContent,
    ContentType,
    FileContent,
    FinishReason,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    InvalidValueError,
    KernelContent,
    ReasoningContent,
    RefusalContent,
    SerializationError,
    TextContent,
    UnknownContent,
    Usage,
    jsoncodec,
)
from semantic_chat.contents.base import CONTENT_TYPES
from semantic_chat.message import MESSAGE_TYPES
from semantic_chat.serialization import from_dict, from_json, to_dict, to_json


def assert_json_pure(value: Any) -> None:
    """Only plain dicts with str keys, lists, str, int, float, bool and None."""
    kind = type(value)
    if kind is dict:
        for key, item in value.items():
            assert type(key) is str
            assert_json_pure(item)
    elif kind is list:
        for item in value:
            assert_json_pure(item)
    else:
        assert kind in (str, int, float, bool, type(None)), kind


def assert_round_trips(obj: Any, cls: type) -> str:
    """JSON and dict round trips of ``obj`` read as ``cls``, on both backends; returns the JSON."""
    texts = {}
    for name in BACKENDS:
        with backend(name):
            text = to_json(obj)
            indented = to_json(obj, indent=2)
            read = from_json(text, cls)
            assert read == obj
            assert type(read) is type(obj)
            assert to_json(read) == text
            assert from_json(indented, cls) == obj
            assert to_json(from_json(indented, cls), indent=2) == indented
            texts[name] = (text, indented)
    assert texts["json"] == texts["orjson"]
    written = to_dict(obj)
    assert_json_pure(written)
    kept = copy.deepcopy(written)
    assert from_dict(written, cls) == obj
    assert written == kept  # reading does not change its input
    return texts["json"][0]


# --- plugin classes for the generated histories ----------------------------------------------


@pytest.fixture(scope="module")
def plugins() -> Iterator[dict[str, type]]:
    """A binary plugin, a text subclass plugin and a message subclass, unregistered afterwards."""

    @attrs.define
    class ClipContent(BinaryContent):
        content_type = ContentType("x_rt_clip")
        fps: float | None = None
        frames: int = 0

    @attrs.define
    class CitedText(TextContent):
        content_type = ContentType("x_rt_cited")
        source: str | None = None
        pages: list[int] = attrs.Factory(list)

    @attrs.define
    class ScoredMessage(ChatMessageContent):
        message_type = "x_rt_scored"
        score: int = 0
        tags: list[str] = attrs.Factory(list)

    yield {"clip": ClipContent, "cited": CitedText, "scored": ScoredMessage}
    CONTENT_TYPES.unregister("x_rt_clip")
    CONTENT_TYPES.unregister("x_rt_cited")
    MESSAGE_TYPES.unregister("x_rt_scored")


_INT64 = st.integers(min_value=-(2**63), max_value=2**63 - 1)
_FINITE = st.floats(allow_nan=False, allow_infinity=False)


def deep_metadata() -> st.SearchStrategy[dict[str, Any]]:
    return st.dictionaries(st.text(max_size=6), json_values(max_leaves=12), max_size=3)


@st.composite
def clip_items(draw: st.DrawFn, cls: type) -> KernelContent:
    fields: dict[str, Any] = {
        "fps": draw(st.none() | _FINITE),
        "frames": draw(_INT64),
        "metadata": draw(metadata()),
    }
    source = draw(st.sampled_from(["data", "uri", "file_id"]))
    if source == "data":
        return cls(data=draw(st.binary(max_size=40)), mime_type="video/mp4", **fields)
    if source == "uri":
        return cls(uri="https://example.com/v/" + draw(st.text(string.ascii_letters)), **fields)
    return cls(file_id="file-" + draw(st.text(string.digits)), **fields)


def cited_items(cls: type) -> st.SearchStrategy[KernelContent]:
    return st.builds(
        cls,
        text=st.text(max_size=20),
        source=st.none() | st.text(max_size=10),
        pages=st.lists(st.integers(min_value=0, max_value=10**6), max_size=3),
        metadata=deep_metadata(),
    )


def every_item(plugins: dict[str, type]) -> st.SearchStrategy[KernelContent]:
    return st.one_of(
        items(),
        unknown_items(),
        clip_items(plugins["clip"]),
        cited_items(plugins["cited"]),
        st.builds(TextContent, text=st.text(), metadata=deep_metadata()),
        st.builds(FunctionResultContent, call_id=st.none() | st.text(max_size=5),
                  result=json_values(max_leaves=12)),
    )


@st.composite
def every_message(draw: st.DrawFn, plugins: dict[str, type]) -> ChatMessageContent:
    optional_text = st.none() | st.text(max_size=12)
    fields: dict[str, Any] = {
        "items": draw(st.lists(every_item(plugins), max_size=4)),
        "name": draw(optional_text),
        "id": draw(optional_text),
        "finish_reason": draw(st.none() | labels().map(FinishReason)),
        "usage": draw(st.none() | usages()),
        "model_id": draw(optional_text),
        "metadata": draw(deep_metadata()),
    }
    role = draw(labels().map(AuthorRole))
    if draw(st.booleans()):
        return ChatMessageContent(role, **fields)
    return plugins["scored"](
        role,
        score=draw(_INT64),
        tags=draw(st.lists(st.text(max_size=5), max_size=3)),
        **fields,
    )


def every_history(plugins: dict[str, type], min_size: int = 0) -> st.SearchStrategy[ChatHistory]:
    return st.lists(every_message(plugins), min_size=min_size, max_size=5).map(ChatHistory)


def budget(examples: int) -> settings:
    return settings(max_examples=examples, suppress_health_check=[HealthCheck.too_slow])


# --- histories -------------------------------------------------------------------------------


@budget(50)
@given(histories())
def test_generated_history_round_trips(history: ChatHistory) -> None:
    assert_round_trips(history, ChatHistory)


@budget(40)
@given(data=st.data())
def test_history_with_every_item_kind_and_plugins_round_trips(
    plugins: dict[str, type], data: st.DataObject
) -> None:
    history = data.draw(every_history(plugins))
    text = assert_round_trips(history, ChatHistory)
    assert to_dict(history) == jsoncodec.loads(text)
    for name in BACKENDS:
        with backend(name):
            read = from_json(text.encode("utf-8"), ChatHistory)
        assert read == history
        assert [type(message) for message in read] == [type(message) for message in history]
        assert [[type(item) for item in message.items] for message in read] == [
            [type(item) for item in message.items] for message in history
        ]


@budget(30)
@given(histories(max_messages=3, max_items=2))
def test_from_json_accepts_str_bytes_bytearray_memoryview(history: ChatHistory) -> None:
    text = to_json(history)
    raw = text.encode("utf-8")
    for source in (text, raw, bytearray(raw), memoryview(raw)):
        assert from_json(source, ChatHistory) == history


# --- single items, messages, usage -------------------------------------------------------------


@pytest.mark.parametrize(
    "strategy",
    [
        text_items(),
        refusal_items(),
        reasoning_items(),
        binary_items(),
        function_calls(),
        function_results(),
        unknown_items(),
    ],
    ids=["text", "refusal", "reasoning", "binary", "function_call", "function_result",
         "unknown"],
)
@settings(max_examples=50)
@given(data=st.data())
def test_single_item_round_trips(strategy: st.SearchStrategy[Any], data: st.DataObject) -> None:
    item = data.draw(strategy)
    assert_round_trips(item, KernelContent)
    assert_round_trips(item, type(item))
    if not isinstance(item, UnknownContent):
        assert jsoncodec.loads(to_json(item))["type"] == type(item).content_type


@budget(50)
@given(data=st.data())
def test_plugin_item_round_trips(plugins: dict[str, type], data: st.DataObject) -> None:
    item = data.draw(st.one_of(clip_items(plugins["clip"]), cited_items(plugins["cited"])))
    assert_round_trips(item, KernelContent)
    assert_round_trips(item, type(item))
    if isinstance(item, TextContent):
        assert_round_trips(item, TextContent)
    else:
        assert_round_trips(item, BinaryContent)


@budget(50)
@given(messages())
def test_single_message_round_trips(message: ChatMessageContent) -> None:
    assert_round_trips(message, ChatMessageContent)


@budget(50)
@given(data=st.data())
def test_message_subclass_round_trips(plugins: dict[str, type], data: st.DataObject) -> None:
    message = data.draw(every_message(plugins))
    assert_round_trips(message, ChatMessageContent)
    assert_round_trips(message, type(message))


@given(usages())
def test_usage_round_trips(usage: Usage) -> None:
    assert_round_trips(usage, Usage)


@budget(50)
@given(st.lists(items(), max_size=4))
def test_list_of_items_round_trips_through_from_dict(values: list[KernelContent]) -> None:
    written = [to_dict(item) for item in values]
    assert from_dict(written, list[KernelContent]) == values


# --- unknown items ---------------------------------------------------------------------------


_UNKNOWN_LABELS = st.text(alphabet=string.ascii_lowercase + "_", min_size=1, max_size=8).map(
    "x_unregistered_".__add__
)


@budget(50)
@given(_UNKNOWN_LABELS, st.dictionaries(st.text(max_size=8), json_values(), max_size=5))
def test_unknown_item_writes_back_exactly_what_it_read(label: str, fields: dict[str, Any]) -> None:
    fields.pop("type", None)
    for name in BACKENDS:
        with backend(name):
            text = jsoncodec.dumps({"type": label, **fields})
            item = from_json(text, KernelContent)
            assert type(item) is UnknownContent
            assert item.type == label
            assert item.fields == fields
            assert to_json(item) == text
            history_text = (
                '{"version":1,"messages":[{"role":"user","items":[' + text + "]}]}"
            )
            assert to_json(from_json(history_text, ChatHistory)) == history_text


def test_unknown_item_keeps_a_metadata_key_that_is_not_an_object() -> None:
    text = '{"type":"x_future","metadata":[1,2],"data":"not base64!"}'
    item = from_json(text, KernelContent)
    assert item == UnknownContent("x_future", {"metadata": [1, 2], "data": "not base64!"})
    assert to_json(item) == text


def test_unknown_item_with_metadata_round_trips() -> None:
    item = UnknownContent("x_future", {"a": 1}, metadata={"trace": "t1"})
    assert from_json(to_json(item), KernelContent) == item


# --- text edge cases ----------------------------------------------------------------------------


def test_empty_strings_everywhere_round_trip() -> None:
    history = ChatHistory([
        ChatMessageContent(
            "user",
            items=[
                TextContent(""),
                RefusalContent(""),
                ReasoningContent("", signature="", encrypted="", provider=""),
                FunctionCallContent("", "", ""),
                FunctionResultContent("", "", name=""),
                FileContent(file_id="", filename="", mime_type="text/plain"),
                ImageContent(uri="", detail=""),
                AudioContent(data=b"", mime_type="audio/wav"),
                TextContent("x", metadata={"": ""}),
                UnknownContent("x_empty", {"": ""}),
            ],
            name="",
            id="",
            model_id="",
            metadata={"": {"": [""]}},
        )
    ])
    text = assert_round_trips(history, ChatHistory)
    assert '"name":""' in text
    assert '"text":""' in text


@pytest.mark.parametrize(
    "text",
    [
        "é😀\u2028\u2029\x00\x1f\x7f\ufeff\U0010ffff",
        '"\\/\b\f\n\r\t',
        "1e-07 5e-05 \"1e-07\"",
        "\u0130\u212a\u00df",  # İ, Kelvin sign, ß: case mapping oddities for labels
    ],
    ids=["unicode", "escapes", "float-like", "case"],
)
def test_unicode_round_trips_everywhere(text: str) -> None:
    history = ChatHistory([
        ChatMessageContent(
            AuthorRole(text),
            items=[TextContent(text, metadata={text: text}), FunctionCallContent(text, text, text)],
            name=text,
            finish_reason=FinishReason(text),
            metadata={text: [text]},
        )
    ])
    assert_round_trips(history, ChatHistory)


@given(st.text(), st.text())
def test_any_text_round_trips(text: str, key: str) -> None:
    message = ChatMessageContent("user", items=[TextContent(text, metadata={key: text})])
    assert_round_trips(message, ChatMessageContent)


_SURROGATES = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)


@settings(max_examples=50)
@given(
    histories(max_messages=3, max_items=2),
    st.data(),
    st.text(max_size=10),
    _SURROGATES,
    st.text(max_size=10),
)
def test_lone_surrogate_is_located_never_a_unicode_error(
    history: ChatHistory, data: st.DataObject, prefix: str, surrogate: str, suffix: str
) -> None:
    history.add_user_message("last")
    index = data.draw(st.integers(min_value=0, max_value=len(history) - 1))
    message = history[index]
    position = data.draw(st.integers(min_value=0, max_value=len(message.items)))
    with pytest.raises(InvalidValueError) as refused:
        TextContent(prefix + surrogate + suffix)
    assert str(refused.value) == (
        f"text: lone surrogate {surrogate!r} at character {len(prefix)} "
        "cannot be written as UTF-8"
    )
    item = TextContent(prefix + suffix)
    object.__setattr__(item, "_text", prefix + surrogate + suffix)  # reaching inside on purpose
    message.items.insert(position, item)
    expected = (
        f"messages[{index}].items[{position}].text: lone surrogate {surrogate!r} "
        f"at character {len(prefix)} cannot be written as UTF-8"
    )
    for name in BACKENDS:
        with backend(name), pytest.raises(SerializationError) as info:
            to_json(history)
        assert str(info.value) == expected
        assert info.value.path == f"messages[{index}].items[{position}].text"
        with backend(name), pytest.raises(SerializationError):
            to_json(history, indent=2)


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: ChatMessageContent("user", name="a\udfffb"),
         "name: lone surrogate '\\udfff' at character 1 cannot be written as UTF-8"),
        (lambda: ChatMessageContent("\ud800"),
         "role: lone surrogate '\\ud800' at character 0 cannot be written as UTF-8"),
        (lambda: ChatMessageContent("user", finish_reason="\ud800"),
         "finish_reason: lone surrogate '\\ud800' at character 0 cannot be written as UTF-8"),
        (lambda: FunctionCallContent("c", "f", "{\ud800}"),
         "arguments: lone surrogate '\\ud800' at character 1 cannot be written as UTF-8"),
        (lambda: FunctionResultContent("c", ["ok", "\ud800"]),
         "result[1]: lone surrogate '\\ud800' at character 0 cannot be written as UTF-8"),
    ],
    ids=["name", "role", "finish_reason", "arguments", "result"],
)
def test_lone_surrogates_are_refused_when_built(build: Any, message: str) -> None:
    with pytest.raises(InvalidValueError) as info:
        build()
    assert str(info.value) == message


@pytest.mark.parametrize(
    ("slot", "value", "path"),
    [
        ("_name", "a\udfffb", "messages[0].name"),
        ("_model_id", "\ud800", "messages[0].model_id"),
    ],
)
@pytest.mark.parametrize("name", BACKENDS)
def test_lone_surrogates_put_in_by_hand_are_located(
    name: str, slot: str, value: str, path: str
) -> None:
    message = ChatMessageContent("user", "x")
    object.__setattr__(message, slot, value)  # reaching inside on purpose
    with backend(name), pytest.raises(SerializationError) as info:
        to_json(ChatHistory([message]))
    assert info.value.path == path
    assert str(info.value).startswith(path + ": lone surrogate ")


# --- big binary payloads -------------------------------------------------------------------


@settings(max_examples=5, deadline=None)
@given(
    st.sampled_from([ImageContent, AudioContent, FileContent, BinaryContent]),
    st.integers(min_value=0, max_value=2**20),
    st.integers(min_value=0, max_value=2**32),
)
def test_large_binary_payload_round_trips(cls: type, size: int, seed: int) -> None:
    payload = random.Random(seed).randbytes(size)
    item = cls(data=payload, mime_type="application/octet-stream")
    history = ChatHistory([ChatMessageContent("user", items=[TextContent("see"), item])])
    texts = {}
    for name in BACKENDS:
        with backend(name):
            text = to_json(history)
            read = from_json(text, ChatHistory)
            read_item = read[0].items[1]
            assert read_item.is_decoded is False
            assert to_json(read) == text
            assert read_item.is_decoded is False
            assert read == history
            assert read_item.data == payload
            assert read_item.is_decoded is True
            texts[name] = text
    assert texts["json"] == texts["orjson"]
    assert from_dict(to_dict(history), ChatHistory) == history


# --- plugins defined after import ----------------------------------------------------------------


@pytest.fixture
def video_content() -> Iterator[type]:
    @attrs.define
    class VideoContent(BinaryContent):
        content_type = ContentType("video")
        fps: float | None = None

    yield VideoContent
    CONTENT_TYPES.unregister("video")


@pytest.fixture
def rated_message() -> Iterator[type]:
    @attrs.define
    class RatedMessage(ChatMessageContent):
        message_type = "rated"
        rating: int = 0

    yield RatedMessage
    MESSAGE_TYPES.unregister("rated")


def test_plugin_defined_after_import_round_trips_without_registration(
    video_content: type,
) -> None:
    video = video_content(data=b"abc", mime_type="video/mp4", fps=24.0)
    text = to_json(video)
    assert text == '{"type":"video","data":"YWJj","mime_type":"video/mp4","fps":24.0}'
    for cls in (KernelContent, BinaryContent, video_content):
        read = from_json(text, cls)
        assert type(read) is video_content
        assert read == video
        assert read.fps == 24.0
    history = ChatHistory([ChatMessageContent("user", items=[TextContent("clip"), video])])
    assert from_json(to_json(history), ChatHistory, strict=True) == history
    assert from_dict(to_dict(history), ChatHistory) == history


def test_plugin_reads_an_integer_into_a_float_field(video_content: type) -> None:
    read = from_json('{"type":"video","uri":"https://x/v.mp4","fps":30}', KernelContent)
    assert read == video_content(uri="https://x/v.mp4", fps=30.0)
    assert type(read.fps) is float


def test_unregistered_label_reads_as_unknown_once_the_plugin_is_gone() -> None:
    @attrs.define
    class VideoContent(BinaryContent):
        content_type = ContentType("video")
        fps: float | None = None

    text = '{"type":"video","uri":"https://x/v.mp4","fps":25.0}'
    try:
        assert type(from_json(text, KernelContent)) is VideoContent
    finally:
        CONTENT_TYPES.unregister("video")
    assert from_json(text, KernelContent) == UnknownContent(
        "video", {"uri": "https://x/v.mp4", "fps": 25.0}
    )


def test_message_subclass_keeps_its_identity(rated_message: type) -> None:
    message = rated_message("assistant", items=[TextContent("ok")], rating=5)
    text = to_json(message)
    assert text == (
        '{"message_type":"rated","role":"assistant","items":[{"type":"text","text":"ok"}],'
        '"rating":5}'
    )
    for cls in (ChatMessageContent, rated_message):
        read = from_json(text, cls)
        assert type(read) is rated_message
        assert read == message
        assert read.rating == 5
    history = ChatHistory([ChatMessageContent("user", "hi"), message])
    read_history = from_json(to_json(history), ChatHistory, strict=True)
    assert read_history == history
    assert [type(m) for m in read_history] == [ChatMessageContent, rated_message]
    assert from_dict(to_dict(history), ChatHistory) == history


def test_message_subclass_default_fields_are_left_out(rated_message: type) -> None:
    # attrs generates the subclass' __init__ (role, items=..., ..., rating=0)
    assert to_json(rated_message("user")) == '{"message_type":"rated","role":"user"}'
    assert to_json(rated_message(role="user", rating=0, items=[])) == (
        '{"message_type":"rated","role":"user"}'
    )
    read = from_json('{"message_type":"rated","role":"user"}', ChatMessageContent)
    assert read == rated_message("user")


def test_message_subclass_label_is_case_insensitive(rated_message: type) -> None:
    read = from_json('{"message_type":"RATED","role":"user","rating":1}', ChatMessageContent)
    assert type(read) is rated_message
    assert to_json(read) == '{"message_type":"rated","role":"user","rating":1}'
