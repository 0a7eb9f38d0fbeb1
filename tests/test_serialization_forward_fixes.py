"""Fixes: newer keys on known items and in usage are kept (strict refuses them, located);
plugin container fields refuse what would not read back; registry misuse is refused."""

from __future__ import annotations

import datetime
import string
from collections.abc import Iterator
from typing import Any

import attrs
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from semantic_chat import (
    CONTENT_TYPES,
    MESSAGE_TYPES,
    ChatHistory,
    ContentType,
    KernelContent,
    TextContent,
    UnknownContent,
    Usage,
    jsoncodec,
)
from semantic_chat.contents.base import item_keys
from semantic_chat.errors import (
    InvalidTypeError,
    InvalidValueError,
    RegistrationError,
    SerializationError,
)
from semantic_chat.serialization import from_dict, from_json, to_json
from semantic_chat.usage import UsageWithUnknownKeys
from tests.strategies import histories

NEWER = (
    '{"version":1,"messages":[{"role":"assistant","items":['
    '{"type":"text","text":"hi","lang":"fr"},'
    '{"type":"image","uri":"https://x.test/y.png","blurhash":"LEHV6n"}],'
    '"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3,"audio_tokens":5}}]}'
)


@pytest.fixture(autouse=True)
def _forget_plugins() -> Iterator[None]:
    """Take the plugin classes the tests define out of the registry again."""
    yield
    for label in ("embedding", "stats", "box", "fwd_plugin"):
        CONTENT_TYPES.unregister(label, missing_ok=True)


# --- 1. keys of newer data on known items and in usage --------------------------------------


def test_newer_keys_on_known_items_and_usage_are_written_back_byte_identical() -> None:
    history = from_json(NEWER, ChatHistory)
    text, image = history[0].items
    assert type(text) is UnknownContent
    assert (text.type, text.fields) == ("text", {"text": "hi", "lang": "fr"})
    assert type(image) is UnknownContent
    assert image.fields == {"uri": "https://x.test/y.png", "blurhash": "LEHV6n"}
    usage = history[0].usage
    assert type(usage) is UsageWithUnknownKeys
    assert (usage.prompt_tokens, usage.completion_tokens, usage.total_tokens) == (1, 2, 3)
    assert usage.unknown_keys == {"audio_tokens": 5}
    assert to_json(history) == NEWER
    assert from_json(to_json(history), ChatHistory) == history


def test_metadata_of_a_newer_item_stays_in_place() -> None:
    item = '{"type":"text","text":"hi","metadata":{"a":1},"lang":"fr"}'
    read = from_json(item)
    assert type(read) is UnknownContent
    assert read.fields == {"text": "hi", "metadata": {"a": 1}, "lang": "fr"}
    assert to_json(read) == item


@pytest.mark.parametrize(
    ("document", "path"),
    [
        (NEWER, "messages[0].items[0].lang"),
        (NEWER.replace(',"lang":"fr"', ""), "messages[0].items[1].blurhash"),
        (
            NEWER.replace(',"lang":"fr"', "").replace(',"blurhash":"LEHV6n"', ""),
            "messages[0].usage.audio_tokens",
        ),
    ],
)
def test_strict_refuses_newer_keys_at_the_key(document: str, path: str) -> None:
    with pytest.raises(SerializationError) as caught:
        from_json(document, ChatHistory, strict=True)
    assert caught.value.path == path


def test_strict_message_for_a_newer_item_key() -> None:
    with pytest.raises(SerializationError) as caught:
        from_json(NEWER, strict=True)
    assert str(caught.value) == (
        "messages[0].items[0].lang: a 'text' item has no field 'lang' in this version "
        "(data of a newer version or plugin): read it without strict=True to keep it as "
        "UnknownContent"
    )


@pytest.mark.parametrize(
    "item",
    [
        {"type": "text", "text": "hi", "lang": "fr"},
        {"type": "function_call", "id": "c", "name": "f", "arguments": "{}", "x": 1},
        {"type": "function_result", "call_id": "c", "name": "f", "result": "ok", "x": 1},
        {"type": "image", "data": "aGk=", "mime_type": "image/png", "x": 1},
    ],
)
def test_direct_and_general_readers_agree_on_newer_items(item: dict[str, Any]) -> None:
    alone = from_dict(item)
    in_history = from_dict({"version": 1, "messages": [{"role": "user", "items": [item]}]})
    assert alone == in_history[0].items[0] == UnknownContent(
        type=item["type"], fields={k: v for k, v in item.items() if k != "type"}
    )


def test_unknown_content_of_a_registered_label_needs_a_key_the_class_does_not_know() -> None:
    with pytest.raises(InvalidValueError) as caught:
        UnknownContent(type="text", fields={"text": "hi"})
    assert str(caught.value) == "type: 'text' is the label of TextContent: build a TextContent instead"
    newer = UnknownContent(type="text", fields={"text": "hi", "lang": "fr"})
    with pytest.raises(InvalidValueError):
        newer.fields = {"text": "hi"}
    assert newer.fields == {"text": "hi", "lang": "fr"}
    assert item_keys(TextContent) == frozenset(("type", "metadata", "text", "citations"))


def test_usage_with_unknown_keys_refuses_bad_keys() -> None:
    with pytest.raises(InvalidValueError) as caught:
        UsageWithUnknownKeys(1, 2, 3, unknown_keys={"prompt_tokens": 1})
    assert caught.value.path == 'unknown_keys["prompt_tokens"]'
    with pytest.raises(InvalidValueError) as caught:
        UsageWithUnknownKeys(unknown_keys={})
    assert caught.value.path == "unknown_keys"
    with pytest.raises(InvalidTypeError) as caught:
        UsageWithUnknownKeys(unknown_keys={"when": datetime.date(2020, 1, 1)})
    assert caught.value.path == 'unknown_keys["when"]'
    kept = UsageWithUnknownKeys(1, 2, 3, unknown_keys={"audio_tokens": 5})
    assert kept != Usage(1, 2, 3)
    assert type(kept + Usage(1, 1, 2)) is Usage  # an unknown key cannot be added up


_EXTRA_KEYS = st.text(alphabet=string.ascii_lowercase, min_size=1, max_size=6).map("zz_".__add__)


def _add_extra_keys(draw: st.DrawFn, document: dict[str, Any]) -> list[str]:
    """Add drawn keys to some items and usages of ``document``; return their paths in order."""
    paths = []
    for m, message in enumerate(document["messages"]):
        for i, item in enumerate(message.get("items", [])):
            if draw(st.booleans()):
                key = draw(_EXTRA_KEYS)
                item[key] = draw(st.integers(-5, 5) | st.text(max_size=4))
                paths.append(f"messages[{m}].items[{i}].{key}")
        if "usage" in message and draw(st.booleans()):
            key = draw(_EXTRA_KEYS)
            message["usage"][key] = draw(st.integers(0, 9))
            paths.append(f"messages[{m}].usage.{key}")
    return paths


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), histories())
def test_property_newer_keys_round_trip_byte_identical_and_strict_refuses_them(
    data: st.DataObject, history: ChatHistory
) -> None:
    document = jsoncodec.loads(to_json(history))
    paths = _add_extra_keys(data.draw, document)
    text = jsoncodec.dumps(document, None)
    read = from_json(text, ChatHistory)
    assert to_json(read) == text
    kept = [item for message in read for item in message.items if type(item) is UnknownContent]
    assert len(kept) == sum(".items[" in path for path in paths)
    assert from_json(to_json(read), ChatHistory) == read
    if paths:
        with pytest.raises(SerializationError) as caught:
            from_json(text, ChatHistory, strict=True)
        assert caught.value.path == paths[0]
    else:
        assert from_json(text, ChatHistory, strict=True) == history


# --- 2, 4, 5. plugin fields -------------------------------------------------------------------


def _saved(item: KernelContent) -> str:
    history = ChatHistory()
    history.add_user_message(["hi", item])
    return to_json(history)


def _refused(item: KernelContent) -> str:
    with pytest.raises(SerializationError) as caught:
        _saved(item)
    return str(caught.value)


def test_nan_in_plugin_containers_is_refused_at_the_field() -> None:
    @attrs.define
    class Embedding(KernelContent):
        content_type = ContentType("embedding")
        vector: list[float] = attrs.field(factory=list)
        scores: dict[str, float] = attrs.field(factory=dict)

    assert _refused(Embedding([0.5, float("nan")])) == (
        "messages[0].items[1].vector[1]: nan is not a JSON value"
    )
    assert _refused(Embedding(scores={"x": float("inf")})) == (
        'messages[0].items[1].scores["x"]: inf is not a JSON value'
    )
    good = Embedding([0.5, 1.0], {"x": 2.0})
    assert from_json(_saved(good), ChatHistory)[0].items[1] == good


def test_bare_dict_and_list_fields_refuse_what_would_not_read_back() -> None:
    @attrs.define
    class Box(KernelContent):
        content_type = ContentType("box")
        extra: dict = attrs.field(factory=dict)  # type: ignore[type-arg]
        values: list = attrs.field(factory=list)  # type: ignore[type-arg]

    assert _refused(Box({"t": (1, 2)})) == (
        'messages[0].items[1].extra["t"]: tuple is not a JSON value'
    )
    assert _refused(Box({"when": datetime.date(2020, 1, 1)})) == (
        'messages[0].items[1].extra["when"]: date is not a JSON value'
    )
    assert _refused(Box({1: "a"})) == (
        "messages[0].items[1].extra: int key 1 is not a JSON object key (use str)"
    )
    assert _refused(Box(values=[float("inf")])) == (
        "messages[0].items[1].values[0]: inf is not a JSON value"
    )
    good = Box({"a": [1, {"b": None}]}, [1, "x"])
    assert from_json(_saved(good), ChatHistory)[0].items[1] == good
    bad = _saved(good).replace('"values":[1,"x"]', '"values":{"a":1}')
    with pytest.raises(SerializationError) as caught:
        from_json(bad, ChatHistory)
    assert str(caught.value) == "messages[0].items[1].values: expected a JSON array, got dict"


def test_numpy_values_and_null_in_plugin_fields() -> None:
    @attrs.define
    class Stats(KernelContent):
        content_type = ContentType("stats")
        ok: bool = False
        counts: list[int] = attrs.field(factory=list)
        score: float = 0.0

    assert _refused(Stats(ok=np.bool_(True))) == (
        "messages[0].items[1].ok: expected a bool, got numpy.bool_"
    )
    written = _saved(Stats(counts=[1, np.int64(2)]))
    assert '{"type":"stats","counts":[1,2]}' in written
    assert from_json(written, ChatHistory)[0].items[1] == Stats(counts=[1, 2])
    with pytest.raises(SerializationError) as caught:
        from_json('{"type":"stats","score":null}')
    assert str(caught.value) == "score: expected a JSON float, got null"


# --- 3. a plugin field named type --------------------------------------------------------------


def test_a_plugin_field_named_type_is_refused_at_registration() -> None:
    with pytest.raises(RegistrationError) as caught:

        @attrs.define
        class Ticket(KernelContent):
            content_type = ContentType("fwd_plugin")
            type: str = "bug"

    assert caught.value.path == "test_a_plugin_field_named_type_is_refused_at_registration.<locals>.Ticket.type"
    assert "fwd_plugin" not in CONTENT_TYPES
    with pytest.raises(RegistrationError):

        @attrs.define
        class Aliased(KernelContent):
            content_type = ContentType("fwd_plugin")
            kind: str = attrs.field(default="bug", alias="type")


# --- 6. unregistering ---------------------------------------------------------------------------


def test_unregistering_a_builtin_or_an_unknown_label_is_refused() -> None:
    with pytest.raises(RegistrationError) as caught:
        CONTENT_TYPES.unregister("text")
    assert str(caught.value) == (
        "text: content type 'text' belongs to the built-in "
        "semantic_chat.contents.text.TextContent, which cannot be unregistered"
    )
    assert CONTENT_TYPES.get_class("text") is TextContent
    with pytest.raises(RegistrationError) as caught:
        CONTENT_TYPES.unregister("no-such-label")
    assert caught.value.path == "no-such-label"
    assert str(caught.value).startswith(
        "no-such-label: no class is registered under content type 'no-such-label' (registered: "
    )
    with pytest.raises(RegistrationError):
        MESSAGE_TYPES.unregister("chat_message")
    CONTENT_TYPES.unregister("no-such-label", missing_ok=True)  # a clean-up step: no error


def test_unregistering_a_plugin_label_still_works() -> None:
    @attrs.define
    class Plugin(KernelContent):
        content_type = ContentType("fwd_plugin")

    version = CONTENT_TYPES.version
    CONTENT_TYPES.unregister("fwd_plugin")
    assert "fwd_plugin" not in CONTENT_TYPES
    assert CONTENT_TYPES.version == version + 1
