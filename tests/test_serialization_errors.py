"""Errors of `semantic_chat.serialization`: located messages when reading and writing."""

from __future__ import annotations

import copy
import datetime
import json
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

import attrs
import pytest
from cattrs.errors import BaseValidationError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from json_backends import BACKENDS, backend
from strategies import histories, json_values

from semantic_chat import (
    BinaryContent,
    ChatHistory,
    ChatMessageContent,
    ContentType,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    InvalidTypeError,
    InvalidValueError,
    KernelContent,
    SemanticChatError,
    SerializationError,
    TextContent,
    UnknownContent,
    UnknownContentTypeError,
    UnsupportedVersionError,
    Usage,
    jsoncodec,
)
from semantic_chat.contents.base import CONTENT_TYPES
from semantic_chat.message import MESSAGE_TYPES, UnknownMessage
from semantic_chat.serialization import from_dict, from_json, to_dict, to_json


def history_of(*messages: str) -> str:
    return '{"version":1,"messages":[' + ",".join(messages) + "]}"


def user_with(*items: str) -> str:
    return '{"role":"user","items":[' + ",".join(items) + "]}"


def read_error(text: str | bytes, cls: type = ChatHistory, **kwargs: Any) -> SerializationError:
    """Read ``text`` with both backends; return the error (the same from each)."""
    errors = []
    for name in BACKENDS:
        with backend(name), pytest.raises(SerializationError) as info:
            from_json(text, cls, **kwargs)
        errors.append(info.value)
    first, second = errors
    assert type(first) is type(second)
    assert str(first) == str(second)
    assert isinstance(first, ValueError)
    assert not isinstance(first, (KeyError, BaseValidationError))
    assert first.__cause__ is None
    if first.path:
        assert str(first).startswith(first.path + ": ")
    return first


# --- malformed JSON --------------------------------------------------------------------------


@pytest.mark.parametrize("name", BACKENDS)
@pytest.mark.parametrize(
    "text",
    ['{"version":1,', "", "not json", b'{"version":1,"messages":["\xff"]}',
     memoryview(b"[1,"), bytearray(b"{,}")],
    ids=["truncated", "empty", "words", "bad-utf8", "memoryview", "bytearray"],
)
def test_malformed_json(name: str, text: Any) -> None:
    with backend(name), pytest.raises(SerializationError) as info:
        from_json(text, ChatHistory)
    assert str(info.value).startswith("malformed JSON: ")
    assert info.value.path == ""


# --- reading: exact messages and locations ---------------------------------------------------


TEXT = '{"type":"text","text":"a"}'

READ_ERRORS = [
    # the item's type label
    (
        history_of(user_with('{"text":"a"}')),
        "messages[0].items[0].type: missing the item's type label",
    ),
    (
        history_of(user_with('{"type":null}')),
        "messages[0].items[0].type: missing the item's type label",
    ),
    (
        history_of(user_with(TEXT, '{"type":3}')),
        "messages[0].items[1].type: expected a string, got int",
    ),
    (
        history_of(user_with('{"type":["text"]}')),
        "messages[0].items[0].type: expected a string, got list",
    ),
    # required fields
    (history_of('{"items":[]}'), "messages[0].role: missing required field"),
    (history_of(user_with('{"type":"text"}')), "messages[0].items[0].text: missing required field"),
    (
        history_of(user_with('{"type":"function_call","id":"c"}')),
        "messages[0].items[0].name: missing required field",
    ),
    # fields of the wrong type
    (
        history_of(user_with('{"type":"text","text":3}')),
        "messages[0].items[0].text: expected a string, got int",
    ),
    (
        history_of(user_with('{"type":"text","text":null}')),
        "messages[0].items[0].text: expected a string, got null",
    ),
    (
        history_of(user_with('{"type":"function_call","id":"c","name":"f","index":true}')),
        "messages[0].items[0].index: expected a JSON int, got bool",
    ),
    (
        history_of(user_with('{"type":"function_call","id":7,"name":"f"}')),
        "messages[0].items[0].id: expected a string, got int",
    ),
    (
        history_of(user_with('{"type":"function_result","call_id":"c","is_error":1}')),
        "messages[0].items[0].is_error: expected a JSON bool, got int",
    ),
    (
        history_of(user_with('{"type":"image","file_id":"f","mime_type":5}')),
        "messages[0].items[0].mime_type: expected a string, got int",
    ),
    (
        history_of(user_with('{"type":"image","uri":"https://x","detail":1}')),
        "messages[0].items[0].detail: expected a string, got int",
    ),
    (
        history_of(user_with('{"type":"file","file_id":"f","filename":[]}')),
        "messages[0].items[0].filename: expected a string, got list",
    ),
    (history_of('{"role":3}'), "messages[0].role: expected a string label, got int"),
    (
        history_of('{"role":"user","finish_reason":5}'),
        "messages[0].finish_reason: expected a string label, got int",
    ),
    (history_of('{"role":"user","name":5}'), "messages[0].name: expected a string, got int"),
    (
        history_of('{"role":"user","model_id":{}}'),
        "messages[0].model_id: expected a string, got dict",
    ),
    (
        history_of('{"role":"user","message_type":5}'),
        "messages[0].message_type: expected a string, got int",
    ),
    (
        history_of('{"role":"user","usage":{"prompt_tokens":true}}'),
        "messages[0].usage.prompt_tokens: expected a JSON int, got bool",
    ),
    (
        history_of('{"role":"user","usage":{"cached_tokens":1.5}}'),
        "messages[0].usage.cached_tokens: expected a JSON int, got float",
    ),
    (
        history_of('{"role":"user","usage":{"total_tokens":"3"}}'),
        "messages[0].usage.total_tokens: expected a JSON int, got str",
    ),
    # a list (or anything else) where an object is expected, and the reverse
    (
        history_of(user_with('{"type":"text","text":"a","metadata":[]}')),
        "messages[0].items[0].metadata: expected a JSON object, got list",
    ),
    (
        history_of(user_with('{"type":"text","text":"a","metadata":null}')),
        "messages[0].items[0].metadata: expected a JSON object, got NoneType",
    ),
    (
        history_of('{"role":"user","metadata":"x"}'),
        "messages[0].metadata: expected a JSON object, got str",
    ),
    (history_of(user_with("[]")), "messages[0].items[0]: expected an item object, got list"),
    (history_of(user_with('"text"')), "messages[0].items[0]: expected an item object, got str"),
    (history_of("[]"), "messages[0]: expected a message object, got list"),
    (history_of("null"), "messages[0]: expected a message object, got NoneType"),
    (history_of('{"role":"user","items":{}}'), "messages[0].items: expected a list of items, got dict"),
    ('{"version":1,"messages":{}}', "messages: expected a list, got dict"),
    ("[]", "expected a history object, got list"),
    ('"history"', "expected a history object, got str"),
    # base64
    (
        history_of(
            user_with(TEXT), user_with(TEXT), user_with(TEXT),
            user_with(TEXT, '{"type":"image","data":"ab!c","mime_type":"image/png"}'),
        ),
        "messages[3].items[1].data: invalid base64 at character 2: '!' is not a base64 character",
    ),
    (
        history_of(user_with('{"type":"image","data":"abc","mime_type":"image/png"}')),
        "messages[0].items[0].data: invalid base64 at character 3: "
        "3 base64 characters is not a multiple of 4 (missing '=' padding?)",
    ),
    (
        history_of(user_with('{"type":"audio","data":"YWJj\\n","mime_type":"audio/wav"}')),
        "messages[0].items[0].data: invalid base64 at character 4: '\\n' is not a base64 character",
    ),
    (
        history_of(user_with('{"type":"file","data":5,"mime_type":"text/plain"}')),
        "messages[0].items[0].data: expected base64 text, got int",
    ),
    (
        history_of(
            user_with(TEXT),
            '{"role":"tool","items":[' + TEXT + ',{"type":"function_result","call_id":"c",'
            '"result_items":[' + TEXT + ',{"type":"image","data":"!!!!","mime_type":"image/png"}'
            "]}]}",
        ),
        "messages[1].items[1].result_items[1].data: invalid base64 at character 0: "
        "'!' is not a base64 character",
    ),
    (
        history_of(user_with('{"type":"function_result","call_id":"c","result_items":{}}')),
        "messages[0].items[0].result_items: expected a list of items, got dict",
    ),
    # rules of the model, at the item
    (
        history_of(
            user_with('{"type":"image","data":"YWJj","uri":"https://x","mime_type":"image/png"}')
        ),
        "messages[0].items[0]: ImageContent needs exactly one of data, uri and file_id, got 2",
    ),
    (
        history_of(user_with('{"type":"image"}')),
        "messages[0].items[0]: ImageContent needs exactly one of data, uri and file_id, got none",
    ),
]


@pytest.mark.parametrize(("text", "message"), READ_ERRORS, ids=[m for _, m in READ_ERRORS])
def test_reading_error_message_and_location(text: str, message: str) -> None:
    error = read_error(text)
    assert type(error) is SerializationError
    assert str(error) == message
    path, _, _ = message.partition(": ")
    if message.startswith("expected a history object"):
        path = ""
    assert error.path == path


def test_mismatch_errors_carry_expected_and_got() -> None:
    error = read_error(history_of(user_with('{"type":"text","text":3}')))
    assert (error.path, error.expected, error.got) == (
        "messages[0].items[0].text", "a string", "int"
    )
    error = read_error(history_of('{"role":"user","usage":{"prompt_tokens":true}}'))
    assert (error.path, error.expected, error.got) == (
        "messages[0].usage.prompt_tokens", "a JSON int", "bool"
    )
    assert error.detail == "expected a JSON int, got bool"


@pytest.mark.parametrize(
    ("text", "cls", "message"),
    [
        ('{"type":"text","text":5}', TextContent, "text: expected a string, got int"),
        ('{"type":"text","text":5}', KernelContent, "text: expected a string, got int"),
        ('{"text":"a"}', KernelContent, "type: missing the item's type label"),
        ("[1]", KernelContent, "expected an item object, got list"),
        ('{"role":"user","usage":{"total_tokens":"3"}}', ChatMessageContent,
         "usage.total_tokens: expected a JSON int, got str"),
        ('{"items":[]}', ChatMessageContent, "role: missing required field"),
        ('"user"', ChatMessageContent, "expected a message object, got str"),
        ('{"prompt_tokens":true}', Usage, "prompt_tokens: expected a JSON int, got bool"),
    ],
    ids=repr,
)
def test_reading_single_objects_locates_from_the_object(
    text: str, cls: type, message: str
) -> None:
    assert str(read_error(text, cls)) == message


def test_reading_an_item_as_the_wrong_class() -> None:
    error = read_error(TEXT, ImageContent)
    assert "ImageContent" in str(error)
    assert "TextContent" in str(error)


def test_from_dict_locates_errors_in_a_list_of_items() -> None:
    with pytest.raises(SerializationError) as info:
        from_dict([{"type": "text", "text": "a"}, {"type": "text"}], list[KernelContent])
    assert str(info.value) == "[1].text: missing required field"
    assert info.value.path == "[1].text"


def test_from_dict_never_changes_its_input() -> None:
    data = json.loads(history_of(user_with(TEXT, '{"type":"text","text":3}')))
    kept = copy.deepcopy(data)
    with pytest.raises(SerializationError):
        from_dict(data, ChatHistory)
    assert data == kept


@pytest.mark.parametrize("value", ["[]", '"abc"', "5", '[["prompt_tokens", 1]]'])
def test_usage_that_is_not_an_object_is_refused(value: str) -> None:
    error = read_error(history_of('{"role":"user","usage":' + value + "}"))
    assert error.path == "messages[0].usage"
    assert error.got == {"[": "list", '"': "str", "5": "int"}[value[0]]


def test_usage_from_none_is_a_mismatch() -> None:
    with pytest.raises(SerializationError) as info:
        from_dict(None, Usage)
    assert info.value.got == "NoneType"


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ('{"role":""}', "messages[0].role: a label must not be blank, got ''"),
        ('{"role":"user","finish_reason":" "}',
         "messages[0].finish_reason: a label must not be blank, got ' '"),
    ],
    ids=["role", "finish_reason"],
)
def test_blank_label_is_located_at_its_field(message: str, expected: str) -> None:
    assert str(read_error(history_of(message))) == expected


@pytest.mark.parametrize("arguments", ["5", "[1]", "true"])
def test_function_call_arguments_of_the_wrong_type(arguments: str) -> None:
    item = '{"type":"function_call","id":"c","name":"f","arguments":' + arguments + "}"
    error = read_error(history_of(user_with(item)))
    assert error.path == "messages[0].items[0].arguments"


# --- generated damage: never anything but a located SerializationError ------------------------


def _locations(value: Any, where: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield where
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _locations(item, (*where, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _locations(item, (*where, index))


@settings(max_examples=100, suppress_health_check=[HealthCheck.too_slow])
@given(histories(max_messages=4, max_items=3), st.data())
def test_damaged_data_raises_only_located_serialization_errors(
    history: ChatHistory, data: st.DataObject
) -> None:
    document = json.loads(to_json(history))
    where = data.draw(st.sampled_from([w for w in _locations(document) if w]))
    parent = document
    for key in where[:-1]:
        parent = parent[key]
    if data.draw(st.booleans()):
        del parent[where[-1]]
    else:
        parent[where[-1]] = data.draw(json_values(max_leaves=3))
    for name in BACKENDS:
        with backend(name):
            text = jsoncodec.dumps(document)
            for error in (
                _error_or_none(from_json, text, ChatHistory),
                _error_or_none(from_dict, document, ChatHistory, strict=True),
            ):
                if error is not None and error.path:
                    assert str(error).startswith(error.path + ": ")


def _error_or_none(read: Any, *args: Any, **kwargs: Any) -> SerializationError | None:
    """Call ``read``; a SerializationError is returned, anything else propagates."""
    try:
        read(*args, **kwargs)
    except SerializationError as error:
        return error
    return None


# --- strict mode -----------------------------------------------------------------------------


def test_unknown_item_label_reads_as_unknown_content_unless_strict() -> None:
    text = history_of(user_with(TEXT, '{"type":"x_new","a":1}'))
    history = from_json(text, ChatHistory)
    assert history[0].items[1] == UnknownContent("x_new", {"a": 1})
    error = read_error(text, strict=True)
    assert type(error) is UnknownContentTypeError
    assert isinstance(error, SerializationError)
    assert str(error) == (
        "messages[0].items[1]: unknown content type 'x_new': no class is registered under it"
    )
    assert error.path == "messages[0].items[1]"


def test_strict_locates_unknown_labels_inside_result_items() -> None:
    text = history_of(
        user_with(TEXT),
        '{"role":"tool","items":[{"type":"function_result","call_id":"c",'
        '"result_items":[' + TEXT + ',{"type":"x_nope"}]}]}',
    )
    assert from_json(text, ChatHistory)[1].items[0].result[1] == UnknownContent("x_nope")
    error = read_error(text, strict=True)
    assert str(error) == (
        "messages[1].items[0].result_items[1]: unknown content type 'x_nope': "
        "no class is registered under it"
    )


def test_strict_single_item() -> None:
    error = read_error('{"type":"x_zz","k":1}', KernelContent, strict=True)
    assert type(error) is UnknownContentTypeError
    assert str(error) == "unknown content type 'x_zz': no class is registered under it"
    assert error.path == ""


def test_strict_unknown_message_type() -> None:
    text = history_of('{"role":"user"}', '{"message_type":"x_msg","role":"user"}')
    read = from_json(text, ChatHistory)[1]  # kept whole, the label included, when not strict
    assert type(read) is UnknownMessage
    assert read.unknown_keys == {"message_type": "x_msg"}
    error = read_error(text, strict=True)
    assert type(error) is UnknownContentTypeError
    assert str(error) == (
        "messages[1].message_type: unknown message type 'x_msg': no class is registered under it"
    )
    assert error.path == "messages[1].message_type"


@pytest.mark.parametrize(
    "item",
    ['{"type":"unknown","a":1}', '{"type":"TEXT","text":"a"}', '{"type":"Function_Call","name":"f"}'],
)
def test_strict_accepts_registered_labels_in_any_case(item: str) -> None:
    text = history_of(user_with(item))
    assert from_json(text, ChatHistory, strict=True) == from_json(text, ChatHistory)


def test_strict_accepts_a_plugin_defined_after_import() -> None:
    @attrs.define
    class VideoContent(BinaryContent):
        content_type = ContentType("video")
        fps: float | None = None

    try:
        text = history_of(user_with('{"type":"video","uri":"https://x/v.mp4","fps":25.0}'))
        item = from_json(text, ChatHistory, strict=True)[0].items[0]
        assert item == VideoContent(uri="https://x/v.mp4", fps=25.0)
        error = read_error(
            history_of(user_with('{"type":"video","uri":"https://x/v.mp4","fps":"fast"}'))
        )
        assert str(error) == "messages[0].items[0].fps: expected a JSON float, got str"
    finally:
        CONTENT_TYPES.unregister("video")


def test_message_subclass_field_errors_are_located() -> None:
    @attrs.define
    class RatedMessage(ChatMessageContent):
        message_type = "rated"
        rating: int = 0

    try:
        error = read_error(history_of('{"message_type":"rated","role":"user","rating":true}'))
        assert str(error) == "messages[0].rating: expected a JSON int, got bool"
        error = read_error('{"role":"user"}', RatedMessage)
        assert "RatedMessage" in str(error)
    finally:
        MESSAGE_TYPES.unregister("rated")


# --- versions ---------------------------------------------------------------------------------


@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("version", [2, 17, 10**6])
def test_newer_version_is_refused(version: int, strict: bool) -> None:
    error = read_error(f'{{"version":{version},"messages":[]}}', strict=strict)
    assert type(error) is UnsupportedVersionError
    assert isinstance(error, SerializationError)
    assert str(error) == (
        f"version: found version {version}, this library reads version 1 and older: "
        "upgrade semantic_chat"
    )
    assert (error.path, error.expected, error.got) == ("version", "1", str(version))


def test_newer_version_is_refused_before_reading_messages() -> None:
    error = read_error('{"version":2,"messages":[{"role":5}],"new_field":true}')
    assert type(error) is UnsupportedVersionError


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ('{"messages":[]}', "version: missing the format version"),
        ('{"version":null,"messages":[]}', "version: missing the format version"),
        ('{"version":"1","messages":[]}', "version: expected an integer, got str"),
        ('{"version":true,"messages":[]}', "version: expected an integer, got bool"),
        ('{"version":1.0,"messages":[]}', "version: expected an integer, got float"),
        ('{"version":[1],"messages":[]}', "version: expected an integer, got list"),
    ],
    ids=repr,
)
def test_missing_or_malformed_version(document: str, message: str) -> None:
    error = read_error(document)
    assert type(error) is SerializationError
    assert str(error) == message
    assert error.path == "version"


@pytest.mark.parametrize("version", [0, 1])
def test_current_and_older_versions_are_read(version: int) -> None:
    history = from_json(f'{{"version":{version},"messages":[{{"role":"user"}}]}}', ChatHistory)
    assert history == ChatHistory([ChatMessageContent("user")])
    assert from_json(f'{{"version":{version}}}', ChatHistory) == ChatHistory()


# --- input types --------------------------------------------------------------------------------


DOCUMENT = history_of(user_with('{"type":"text","text":"é😀"}'))


@pytest.mark.parametrize("name", BACKENDS)
@pytest.mark.parametrize(
    "source",
    [
        DOCUMENT,
        DOCUMENT.encode("utf-8"),
        bytearray(DOCUMENT.encode("utf-8")),
        memoryview(DOCUMENT.encode("utf-8")),
        memoryview(b"  " + DOCUMENT.encode("utf-8") + b"  ")[2:-2],
    ],
    ids=["str", "bytes", "bytearray", "memoryview", "memoryview-slice"],
)
def test_from_json_reads_str_bytes_and_memoryview(name: str, source: Any) -> None:
    expected = ChatHistory([ChatMessageContent("user", "é😀")])
    with backend(name):
        assert from_json(source, ChatHistory) == expected
        assert from_json(source, ChatHistory, strict=True) == expected


@pytest.mark.parametrize("name", BACKENDS)
def test_from_json_errors_are_the_same_for_bytes(name: str) -> None:
    text = history_of(user_with('{"type":"text","text":3}'))
    messages = set()
    with backend(name):
        for source in (text, text.encode(), memoryview(text.encode())):
            with pytest.raises(SerializationError) as info:
                from_json(source, ChatHistory)
            messages.add(str(info.value))
    assert messages == {"messages[0].items[0].text: expected a string, got int"}


# --- writing: values that are not JSON ---------------------------------------------------------
#
# The constructors and setters refuse such values up front (InvalidTypeError/InvalidValueError
# naming the field); the writers still check what they copy, since a value can be put into a
# metadata, result or arguments dict after construction. Each case is tested both ways.


def _history_with_item_metadata(value: Any) -> ChatHistory:
    """A valid history whose third item then gets ``value`` put into its metadata dict."""
    item = TextContent("three")
    history = ChatHistory()
    history.add_user_message("one")
    history.add_assistant_message("two")
    history.add_user_message(items=[item])
    item.metadata["when"] = value  # a dict is not checked when changed in place
    return history


# (value, error of the constructor, message of the constructor; the writer's adds the location)
NON_JSON_METADATA = [
    (datetime.datetime(2024, 5, 1, 12, 0), InvalidTypeError,
     'metadata["when"]: datetime is not a JSON value'),
    (float("nan"), InvalidValueError, 'metadata["when"]: nan is not a JSON value'),
    (float("inf"), InvalidValueError, 'metadata["when"]: inf is not a JSON value'),
    (float("-inf"), InvalidValueError, 'metadata["when"]: -inf is not a JSON value'),
    ((1, 2), InvalidTypeError, 'metadata["when"]: tuple is not a JSON value'),
    ({1: "a"}, InvalidTypeError,
     'metadata["when"]: int key 1 is not a JSON object key (use str)'),
    (2**64, InvalidValueError,
     'metadata["when"]: integer outside the 64-bit range JSON readers accept'),
    (-(2**63) - 1, InvalidValueError,
     'metadata["when"]: integer outside the 64-bit range JSON readers accept'),
    ({"a": [0, {1}]}, InvalidTypeError, 'metadata["when"]["a"][1]: set is not a JSON value'),
    (b"raw", InvalidTypeError, 'metadata["when"]: bytes is not a JSON value'),
]
_META_IDS = [message for _, _, message in NON_JSON_METADATA]


@pytest.mark.parametrize(("value", "error", "message"), NON_JSON_METADATA, ids=_META_IDS)
def test_non_json_metadata_is_refused_by_constructors_and_setters(
    value: Any, error: type[SemanticChatError], message: str
) -> None:
    refusals: list[Callable[[], object]] = [
        lambda: TextContent("three", metadata={"when": value}),
        lambda: ChatMessageContent("user", metadata={"when": value}),
        lambda: setattr(TextContent("three"), "metadata", {"when": value}),
        lambda: setattr(ChatMessageContent("user"), "metadata", {"when": value}),
    ]
    for refuse in refusals:
        with pytest.raises(error) as info:
            refuse()
        assert type(info.value) is error
        assert str(info.value) == message
        assert info.value.path == message.partition(": ")[0]


@pytest.mark.parametrize(("value", "error", "message"), NON_JSON_METADATA, ids=_META_IDS)
@pytest.mark.parametrize("name", BACKENDS)
def test_non_json_metadata_is_refused_by_the_writer_naming_the_path(
    name: str, value: Any, error: type[SemanticChatError], message: str
) -> None:
    message = "messages[2].items[0]." + message
    history = _history_with_item_metadata(value)
    with backend(name):
        for write in (to_dict, to_json, lambda h: to_json(h, indent=2)):
            with pytest.raises(SerializationError) as info:
                write(history)
            assert str(info.value) == message
            assert info.value.path == message.partition(": ")[0]


def _in_a_history(role: str, *items: KernelContent) -> ChatHistory:
    return ChatHistory([ChatMessageContent(role, items=list(items))])


def _store_past_the_setter(obj: Any, slot: str, value: Any) -> Any:
    """Put ``value`` into the private slot behind a field, as no public way can."""
    # This reaches inside on purpose: the constructor and the setter refuse the value, so a
    # broken object can only be made this way, and the writer must still refuse to write it.
    object.__setattr__(obj, slot, value)
    return obj


def _message_metadata_date() -> ChatHistory:
    message = ChatMessageContent("user")
    message.metadata["at"] = datetime.date(2024, 1, 1)
    return ChatHistory([message])


def _message_metadata_nan() -> ChatMessageContent:
    message = ChatMessageContent("user", metadata={"k": {"n": 1.0}})
    message.metadata["k"]["n"] = float("nan")
    return message


def _item_metadata_datetime() -> TextContent:
    item = TextContent("x")
    item.metadata["when"] = datetime.datetime(2024, 1, 1)
    return item


def _result_with_a_date() -> ChatHistory:
    result = FunctionResultContent("c", {"a": [1]})
    result.result["a"].append(datetime.date(2020, 1, 1))
    return _in_a_history("tool", result)


def _result_item_metadata_set() -> ChatHistory:
    result = FunctionResultContent("c", [TextContent("x")])
    result.result[0].metadata["w"] = {1}
    return _in_a_history("tool", result)


def _result_items_and_json() -> ChatHistory:
    result = FunctionResultContent("c", [TextContent("a")])
    result.result.append(1)
    return _in_a_history("tool", result)


def _result_tuple() -> ChatHistory:
    return _in_a_history(
        "tool", _store_past_the_setter(FunctionResultContent("c", [1, 2]), "_result", (1, 2))
    )


def _arguments_object() -> ChatHistory:
    call = FunctionCallContent("c", "f", {})
    assert isinstance(call.arguments, dict)
    call.arguments["a"] = object()
    return _in_a_history("assistant", call)


def _unknown_fields_set() -> ChatHistory:
    unknown = UnknownContent("x_a", {"k": 1})
    unknown.fields["k"] = {1}
    return _in_a_history("user", TextContent("a"), unknown)


class NonJsonCase(NamedTuple):
    """One value the model refuses, and the same damage done after construction."""

    refusals: tuple[Callable[[], object], ...]  # constructor and setter calls that refuse it
    error: type[SemanticChatError]
    refused: str  # their exact message
    broken: Callable[[], object]  # a valid object, then broken
    written: str  # the writer's exact message


NON_JSON_ELSEWHERE = [
    NonJsonCase(
        (
            lambda: ChatMessageContent("user", metadata={"at": datetime.date(2024, 1, 1)}),
            lambda: setattr(
                ChatMessageContent("user"), "metadata", {"at": datetime.date(2024, 1, 1)}
            ),
        ),
        InvalidTypeError,
        'metadata["at"]: date is not a JSON value',
        _message_metadata_date,
        'messages[0].metadata["at"]: date is not a JSON value',
    ),
    NonJsonCase(
        (lambda: ChatMessageContent("user", metadata={"k": {"n": float("nan")}}),),
        InvalidValueError,
        'metadata["k"]["n"]: nan is not a JSON value',
        _message_metadata_nan,
        'metadata["k"]["n"]: nan is not a JSON value',
    ),
    NonJsonCase(
        (lambda: TextContent("x", metadata={"when": datetime.datetime(2024, 1, 1)}),),
        InvalidTypeError,
        'metadata["when"]: datetime is not a JSON value',
        _item_metadata_datetime,
        'metadata["when"]: datetime is not a JSON value',
    ),
    NonJsonCase(
        (
            lambda: FunctionResultContent("c", {"a": [1, datetime.date(2020, 1, 1)]}),
            lambda: setattr(
                FunctionResultContent("c"), "result", {"a": [1, datetime.date(2020, 1, 1)]}
            ),
        ),
        InvalidTypeError,
        'result["a"][1]: date is not a JSON value',
        _result_with_a_date,
        'messages[0].items[0].result["a"][1]: date is not a JSON value',
    ),
    NonJsonCase(
        # the item inside refuses it, before the result is made
        (lambda: FunctionResultContent("c", [TextContent("x", metadata={"w": {1}})]),),
        InvalidTypeError,
        'metadata["w"]: set is not a JSON value',
        _result_item_metadata_set,
        'messages[0].items[0].result_items[0].metadata["w"]: set is not a JSON value',
    ),
    NonJsonCase(
        (
            lambda: FunctionResultContent("c", [TextContent("a"), 1]),
            lambda: setattr(FunctionResultContent("c"), "result", [TextContent("a"), 1]),
        ),
        InvalidTypeError,
        "result[1]: expected an item (a result is JSON or a list of items, not both), got int",
        _result_items_and_json,
        # the writer names the element that is not an item, as the constructor does
        "messages[0].items[0].result[1]: expected an item "
        "(a result is JSON or a list of items, not both), got int",
    ),
    NonJsonCase(
        (
            lambda: FunctionResultContent("c", (1, 2)),
            lambda: setattr(FunctionResultContent("c"), "result", (1, 2)),
        ),
        InvalidTypeError,
        "result: tuple is not a JSON value",
        _result_tuple,
        "messages[0].items[0].result: tuple is not a JSON value",
    ),
    NonJsonCase(
        (
            lambda: FunctionCallContent("c", "f", {"a": object()}),
            lambda: setattr(FunctionCallContent("c", "f"), "arguments", {"a": object()}),
        ),
        InvalidTypeError,
        'arguments["a"]: object is not a JSON value',
        _arguments_object,
        'messages[0].items[0].arguments["a"]: object is not a JSON value',
    ),
    NonJsonCase(
        (
            lambda: UnknownContent("x_a", {"k": {1}}),
            lambda: setattr(UnknownContent("x_a"), "fields", {"k": {1}}),
        ),
        InvalidTypeError,
        'fields["k"]: set is not a JSON value',
        _unknown_fields_set,
        'messages[0].items[1].fields["k"]: set is not a JSON value',
    ),
    # fields of the wrong type
    NonJsonCase(
        (
            lambda: TextContent(5),  # type: ignore[arg-type]
            lambda: setattr(TextContent("a"), "text", 5),
        ),
        InvalidTypeError,
        "text: expected a str, got int",
        lambda: _in_a_history("user", _store_past_the_setter(TextContent("a"), "_text", 5)),
        "messages[0].items[0].text: expected a str, got int",
    ),
    NonJsonCase(
        (
            lambda: FunctionCallContent("c", 5),  # type: ignore[arg-type]
            lambda: setattr(FunctionCallContent("c", "f"), "name", 5),
        ),
        InvalidTypeError,
        "name: expected a str, got int",
        lambda: _in_a_history(
            "assistant", _store_past_the_setter(FunctionCallContent("c", "f"), "_name", 5)
        ),
        "messages[0].items[0].name: expected a str, got int",
    ),
    NonJsonCase(
        (
            lambda: FunctionResultContent("c", is_error=1),  # type: ignore[arg-type]
            lambda: setattr(FunctionResultContent("c"), "is_error", 1),
        ),
        InvalidTypeError,
        "is_error: expected a bool, got int",
        lambda: _in_a_history(
            "tool", _store_past_the_setter(FunctionResultContent("c"), "_is_error", 1)
        ),
        "messages[0].items[0].is_error: expected a bool, got int",
    ),
    NonJsonCase(
        (
            lambda: ChatMessageContent("user", name=5),  # type: ignore[arg-type]
            lambda: setattr(ChatMessageContent("user"), "name", 5),
        ),
        InvalidTypeError,
        "name: expected a str or None, got int",
        lambda: ChatHistory([
            ChatMessageContent("user"),
            _store_past_the_setter(ChatMessageContent("user"), "_name", 5),
        ]),
        "messages[1].name: expected a str or None, got int",
    ),
]
_ELSEWHERE_IDS = [case.written for case in NON_JSON_ELSEWHERE]


@pytest.mark.parametrize("case", NON_JSON_ELSEWHERE, ids=_ELSEWHERE_IDS)
def test_values_that_cannot_be_written_are_refused_by_constructors_and_setters(
    case: NonJsonCase,
) -> None:
    for refuse in case.refusals:
        with pytest.raises(case.error) as info:
            refuse()
        assert type(info.value) is case.error
        assert str(info.value) == case.refused
        assert info.value.path == case.refused.partition(": ")[0]


@pytest.mark.parametrize("case", NON_JSON_ELSEWHERE, ids=_ELSEWHERE_IDS)
@pytest.mark.parametrize("name", BACKENDS)
def test_values_put_in_after_construction_are_refused_by_the_writer_naming_the_path(
    name: str, case: NonJsonCase
) -> None:
    obj = case.broken()
    with backend(name):
        for write in (to_dict, to_json):
            with pytest.raises(SerializationError) as info:
                write(obj)
            assert str(info.value) == case.written
            assert info.value.path == case.written.partition(": ")[0]


class PlainText(TextContent):
    """A subclass without @attrs.define: never registered."""


class PlainMessage(ChatMessageContent):
    """A message subclass without @attrs.define: never registered."""


def test_unregistered_content_subclass_is_refused() -> None:
    history = ChatHistory([ChatMessageContent("user", items=[TextContent("a"), PlainText("b")])])
    with pytest.raises(SerializationError) as info:
        to_json(history)
    assert str(info.value) == (
        f"messages[0].items[1]: {__name__}.PlainText is not a registered content class: "
        "decorate it with @attrs.define and give it its own content_type"
    )


def test_unregistered_message_subclass_is_refused() -> None:
    history = ChatHistory([ChatMessageContent("user"), PlainMessage("user", "x")])
    with pytest.raises(SerializationError) as info:
        to_json(history)
    assert str(info.value) == (
        f"messages[1]: {__name__}.PlainMessage is not a registered message class: "
        "decorate it with @attrs.define and give it its own message_type"
    )


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: TextContent("x\udc00"),
         "text: lone surrogate '\\udc00' at character 1 cannot be written as UTF-8"),
        (lambda: ChatMessageContent("user", metadata={"note": "\ud800"}),
         'metadata["note"]: lone surrogate \'\\ud800\' at character 0 cannot be written as UTF-8'),
        (lambda: ChatMessageContent("user", metadata={"k\ud800": 1}),
         'metadata["k\\ud800"]: lone surrogate \'\\ud800\' at character 1 '
         "cannot be written as UTF-8"),
        (lambda: Usage(prompt_tokens=2**64),
         "prompt_tokens: integer outside the 64-bit range JSON readers accept"),
        (lambda: ChatMessageContent("assistant", usage={"prompt_tokens": 2**64}),
         "usage.prompt_tokens: integer outside the 64-bit range JSON readers accept"),
        (lambda: FunctionCallContent("c", "f", index=2**70),
         "index: integer outside the 64-bit range JSON readers accept"),
    ],
    ids=["text", "metadata", "metadata-key", "usage", "usage-dict", "index"],
)
def test_values_no_json_writer_can_write_are_refused_when_built(build: Any, message: str) -> None:
    with pytest.raises(InvalidValueError) as info:
        build()
    assert str(info.value) == message


@pytest.mark.parametrize("name", BACKENDS)
def test_lone_surrogate_in_text_is_located(name: str) -> None:
    broken = TextContent("x")
    object.__setattr__(broken, "_text", "x\udc00")  # reaching inside on purpose
    history = ChatHistory([
        ChatMessageContent("user", "ok"),
        ChatMessageContent("user", items=[TextContent("a"), broken]),
    ])
    with backend(name), pytest.raises(SerializationError) as info:
        to_json(history)
    assert str(info.value) == (
        "messages[1].items[1].text: lone surrogate '\\udc00' at character 1 "
        "cannot be written as UTF-8"
    )
    assert info.value.path == "messages[1].items[1].text"
    assert not isinstance(info.value, UnicodeError)
    # to_dict does not encode: it returns the string as it is
    assert to_dict(history)["messages"][1]["items"][1]["text"] == "x\udc00"


@pytest.mark.parametrize("name", BACKENDS)
def test_lone_surrogate_put_into_metadata_is_located_like_other_metadata_errors(
    name: str,
) -> None:
    message = ChatMessageContent("user")
    message.metadata["note"] = "\ud800"
    with backend(name), pytest.raises(SerializationError) as info:
        to_json(ChatHistory([message]))
    assert info.value.path == 'messages[0].metadata["note"]'


@pytest.mark.parametrize("name", BACKENDS)
def test_lone_surrogate_in_a_key_gives_a_printable_error(name: str) -> None:
    message = ChatMessageContent("user")
    message.metadata["k\ud800"] = 1
    with backend(name), pytest.raises(SerializationError) as info:
        to_json(ChatHistory([message]))
    assert info.value.path.startswith("messages[0].metadata")
    str(info.value).encode("utf-8")


@pytest.mark.parametrize("name", BACKENDS)
@pytest.mark.parametrize(
    ("owner", "slot", "path"),
    [("usage", "prompt_tokens", "messages[0].usage.prompt_tokens"),
     ("call", "_index", "messages[0].items[0].index")],
    ids=["usage", "index"],
)
def test_typed_int_beyond_64_bits_put_in_by_hand_is_refused_naming_the_path(
    name: str, owner: str, slot: str, path: str
) -> None:
    usage = Usage(prompt_tokens=1)
    call = FunctionCallContent("c", "f", index=1)
    message = ChatMessageContent("assistant", items=[call], usage=usage)
    object.__setattr__(usage if owner == "usage" else call, slot, 2**70)  # reaching inside
    with backend(name), pytest.raises(SerializationError) as info:
        to_json(ChatHistory([message]))
    assert info.value.path == path


@pytest.fixture
def video_content() -> Iterator[type]:
    @attrs.define
    class VideoContent(BinaryContent):
        content_type = ContentType("video")
        fps: float | None = None

    yield VideoContent
    CONTENT_TYPES.unregister("video")


@pytest.mark.parametrize("name", BACKENDS)
@pytest.mark.parametrize("value", [float("nan"), float("inf")], ids=["nan", "inf"])
def test_plugin_non_finite_float_is_refused(name: str, value: float, video_content: type) -> None:
    video = video_content(uri="https://x/v.mp4", fps=value)
    with backend(name), pytest.raises(SerializationError) as info:
        to_json(ChatHistory([ChatMessageContent("user", items=[video])]))
    assert info.value.path == "messages[0].items[0].fps"


@pytest.mark.parametrize("name", BACKENDS)
@pytest.mark.parametrize("size", [0, 2], ids=["empty", "two"])
def test_a_plugin_field_that_cannot_be_compared_with_its_default_is_located(
    name: str, size: int, video_content: type
) -> None:
    import numpy as np

    # The writer leaves a field at its default out, so it compares: numpy cannot answer.
    video = video_content(uri="https://x/v.mp4", fps=np.zeros(size))
    with backend(name), pytest.raises(SerializationError) as info:
        to_json(ChatHistory([ChatMessageContent("user", items=[video])]))
    assert info.value.path == "messages[0].items[0].fps"
    assert str(info.value).startswith(
        "messages[0].items[0].fps: cannot be written: ValueError: The truth value of an"
    )


def test_unknown_content_with_a_type_field_is_refused() -> None:
    # a "type" field would be read back as the item's own label, so it is refused up front
    message = (
        'fields["type"]: \'type\' would be read back as the item\'s own type label, not as a field'
    )
    for refuse in (
        lambda: UnknownContent("x_future", {"type": "text", "text": "hi"}),
        lambda: setattr(UnknownContent("x_future"), "fields", {"type": "text"}),
    ):
        with pytest.raises(InvalidValueError) as info:
            refuse()
        assert type(info.value) is InvalidValueError
        assert str(info.value) == message
        assert info.value.path == 'fields["type"]'


@pytest.mark.parametrize("name", BACKENDS)
def test_unknown_content_given_a_type_field_later_is_refused_by_the_writer(name: str) -> None:
    unknown = UnknownContent("x_future", {"text": "hi"})
    unknown.fields["type"] = "text"
    history = _in_a_history("user", TextContent("a"), unknown)
    with backend(name):
        for write, obj in ((to_dict, unknown), (to_json, unknown), (to_json, history)):
            where = "messages[0].items[1]." if obj is history else ""
            with pytest.raises(SerializationError) as info:
                write(obj)
            assert str(info.value) == (
                f'{where}fields["type"]: \'type\' would be read back as the item\'s own '
                "type label, not as a field"
            )
            assert info.value.path == f'{where}fields["type"]'
