"""Whatever the public API lets you build, the library writes and reads back.

A hypothesis state machine builds, mutates and writes one `ChatHistory` through the public API
alone, plugin content classes included, from values drawn from a wide mix of valid and invalid
ones (numpy scalars and arrays, NaN, huge integers, lone surrogates, datetimes, tuples, bytes,
arbitrary objects ...). At every step one of two things holds:

- the call raised a `SemanticChatError` whose message names the field or list it touched
  (any other exception fails the test), and a refused change to a list left it as it was;
- or it was accepted, and then (checked after every step) ``from_json(to_json(h)) == h``, writing
  what was read gives the same text, and each OpenAI ``to_payload`` succeeds or raises
  `UnsupportedContentError`.

The one way to put a value past the checks is to store it straight into a plain container the
model hands out: a ``metadata`` dict, a function result or arguments dict, an unknown item's
``fields``. Those cannot be intercepted, so the machine remembers which objects were changed that
way; only while such an object is in the history may ``to_json`` refuse, and then with a located
`SerializationError`. numpy arrays are never stored that way (``==`` on them raises in numpy).
The other exception is a plugin's own fields, which the library leaves to their author (README,
"Your own content types"): the writer may refuse them, located at the field.
"""

from __future__ import annotations

import base64
import dataclasses
import datetime
import decimal
import enum
import functools
import math
import pathlib
import uuid
import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import attrs
import numpy as np
from hypothesis import note, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule
from strategies import json_values

from semantic_chat import (
    AudioContent,
    AuthorRole,
    BinaryContent,
    ChatHistory,
    ChatMessageContent,
    ContentType,
    FileContent,
    FinishReason,
    FormatError,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    KernelContent,
    ReasoningContent,
    RefusalContent,
    SemanticChatError,
    SerializationError,
    StreamingChatMessageContent,
    StreamingFunctionCallContent,
    StreamingReasoningContent,
    StreamingRefusalContent,
    StreamingTextContent,
    TextContent,
    UnknownContent,
    UnsupportedContentError,
    Usage,
)
from semantic_chat.formats import ConversionWarning, openai_chat, openai_responses
from semantic_chat.serialization import from_json, to_json

# --- plugin content classes ----------------------------------------------------------------


class Mood(enum.Enum):
    """An enum field of a plugin item."""

    CALM = "calm"
    EAGER = "eager"


@attrs.frozen
class Point:
    """A nested attrs class inside a plugin item."""

    x: int
    y: int


@attrs.frozen
class StickerContent(KernelContent):
    """A frozen plugin item: its metadata dict is still made on first use."""

    content_type = ContentType("integrity_sticker")
    label: str = "smile"
    size: int = 1


@attrs.define
class EventContent(KernelContent):
    """A plugin item whose fields are of the types the converter must write and read back."""

    content_type = ContentType("integrity_event")
    when: datetime.datetime
    day: datetime.date | None = None
    uid: uuid.UUID | None = None
    amount: decimal.Decimal | None = None
    mood: Mood = Mood.CALM
    where: pathlib.Path | None = None
    point: Point | None = None


@attrs.define
class ClipContent(BinaryContent):
    """A plugin binary kind with a field of its own."""

    content_type = ContentType("integrity_clip")
    fps: float | None = None


# --- wide values ----------------------------------------------------------------------------


class Opaque:
    """An object of no type the library knows."""

    def __repr__(self) -> str:
        return "Opaque()"


@dataclasses.dataclass
class Plain:
    """A dataclass, which is not a JSON value either."""

    x: int = 1


PNG = b"\x89PNG\r\n\x1a\n" + bytes(16)
WAV_HEAD = b"RIFF\x24\x00\x00\x00WAVEfmt "
PDF = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n"
DATA_URI = "data:image/png;base64,iVBORw0KGgoAAAAAAAAAAAAAAAAAAAA="

_TEXT = st.text(max_size=8)
_SURROGATE_TEXT = st.builds(
    lambda head, lone, tail: head + lone + tail,
    st.text(max_size=3),
    st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF),
    st.text(max_size=3),
)
_NUMPY_SCALARS = st.one_of(
    st.floats(width=64).map(np.float64),
    st.integers(-(2**31), 2**31 - 1).map(np.int32),
    st.booleans().map(np.bool_),
)
_NUMPY_ARRAYS = st.one_of(
    st.lists(st.integers(-100, 100), max_size=4).map(lambda v: np.array(v, dtype=np.int64)),
    st.lists(st.floats(-10, 10, width=32), max_size=3).map(lambda v: np.array(v, np.float32)),
    st.lists(st.booleans(), max_size=3).map(lambda v: np.array(v, dtype=np.bool_)),
    st.integers(1, 3).map(lambda n: np.zeros((n, 2, 3), np.uint8)),
)
_DATETIMES = st.datetimes(
    min_value=datetime.datetime(1900, 1, 1), max_value=datetime.datetime(2200, 1, 1)
)
_AWARE_DATETIMES = st.datetimes(
    min_value=datetime.datetime(1900, 1, 1),
    max_value=datetime.datetime(2200, 1, 1),
    timezones=st.sampled_from(
        [datetime.UTC, datetime.timezone(datetime.timedelta(hours=5, minutes=30))]
    ),
)

# Scalars of every kind, valid and invalid, that are safe to store anywhere (no numpy arrays).
_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**63), 2**63 - 1),
    st.sampled_from([2**63, -(2**63) - 1, 2**70]),
    st.floats(),
    st.sampled_from([math.nan, math.inf, -math.inf]),
    _TEXT,
    _SURROGATE_TEXT,
    st.binary(max_size=6),
    _NUMPY_SCALARS,
    _DATETIMES,
    st.dates(),
    st.uuids(),
    st.decimals(allow_nan=True, places=2),
    st.sampled_from(
        [Mood.CALM, pathlib.Path("no/such/file.txt"), AuthorRole.USER, FinishReason.STOP]
    ),
    st.builds(Opaque),
    st.builds(Plain),
    st.builds(bytearray, st.binary(max_size=4)),
    st.builds(complex, st.floats(-1, 1), st.floats(-1, 1)),
    st.just(np.str_("numpy text")),
)
_KEYS = st.one_of(_TEXT, _TEXT, st.integers(-3, 3), st.none(), _SURROGATE_TEXT)

# What goes straight into a plain dict: everything but numpy arrays.
DIRECT = st.recursive(
    _SCALARS,
    lambda children: st.one_of(
        st.lists(children, max_size=3),
        st.lists(children, max_size=2).map(tuple),
        st.dictionaries(_KEYS, children, max_size=3),
        st.frozensets(st.integers(0, 3), max_size=2),
    ),
    max_leaves=5,
)
# What is handed to constructors and setters: also numpy arrays and model objects.
WIDE = st.one_of(
    DIRECT,
    _NUMPY_ARRAYS,
    st.lists(st.one_of(_NUMPY_SCALARS, _NUMPY_ARRAYS), max_size=2),
    st.dictionaries(_TEXT, st.one_of(_NUMPY_SCALARS, _NUMPY_ARRAYS), max_size=2),
    st.builds(TextContent, _TEXT),
    st.builds(Usage, st.integers(0, 9), st.integers(0, 9), st.integers(0, 18)),
    st.builds(ChatMessageContent, st.just("user"), _TEXT),
)

_IDENTIFIERS = st.from_regex(r"[A-Za-z_][A-Za-z0-9_.\-]{0,8}", fullmatch=True)
_JSON_OBJECTS = st.dictionaries(_TEXT, json_values(max_leaves=3), max_size=3)
_MIME_TYPES = st.sampled_from(
    [
        "image/png",
        "IMAGE/PNG",
        "audio/wav",
        "application/pdf",
        "text/plain;charset=utf-8",
        "video/mp4",
        "image/svg+xml",
        "nonsense",
        "",
        "image/",
        "a/b;c",
    ]
)
_SOURCES = {
    "data": st.one_of(
        st.sampled_from([PNG, WAV_HEAD, PDF, b"", b"\x00\x01"]),
        st.binary(max_size=12),
        st.builds(bytearray, st.just(PNG)),
        st.builds(memoryview, st.just(PDF)),
    ),
    "uri": st.one_of(
        _TEXT.map("https://example.com/".__add__),
        st.sampled_from([DATA_URI, "data:,hello", "data:text/plain;base64,@@", "", "x"]),
    ),
    "file_id": st.one_of(_IDENTIFIERS.map("file-".__add__), st.just("")),
}

# Values of the right kind for each field, often valid, sometimes just wrong.
_PLAUSIBLE: dict[str, st.SearchStrategy[Any]] = {
    "text": _TEXT,
    **_SOURCES,
    "mime_type": st.none() | _MIME_TYPES,
    "detail": st.sampled_from([None, "low", "high", "auto", "sharp"]),
    "filename": st.none() | st.sampled_from(["a.pdf", "notes.txt", ""]),
    "id": st.none() | _IDENTIFIERS,
    "name": st.none() | _IDENTIFIERS,
    "call_id": st.none() | _IDENTIFIERS,
    "arguments": st.one_of(
        st.none(),
        st.sampled_from(['{"city": "Paris"}', "", '{"a": ', "[1, 2]", " {} "]),
        _JSON_OBJECTS,
        st.dictionaries(_TEXT, st.one_of(_NUMPY_SCALARS, _NUMPY_ARRAYS), max_size=2),
    ),
    "index": st.one_of(st.none(), st.integers(0, 5), st.just("0"), st.just(np.int32(2))),
    "result": st.one_of(
        _TEXT,
        json_values(max_leaves=4),
        st.lists(st.builds(TextContent, _TEXT), min_size=1, max_size=2),
        _NUMPY_SCALARS,
        _NUMPY_ARRAYS,
    ),
    "is_error": st.one_of(st.booleans(), st.just(np.bool_(True))),
    "signature": st.none() | _TEXT,
    "encrypted": st.none() | _TEXT,
    "provider": st.sampled_from([None, "openai", "anthropic", "other"]),
    "type": st.sampled_from(["x_widget", "x_gadget", "text", "unknown", "", "image", "X_Upper"]),
    "fields": st.one_of(
        _JSON_OBJECTS,
        st.sampled_from([{"type": "x"}, {"metadata": {"a": 1}}, {"text": "t"}]),
    ),
    "metadata": st.one_of(
        st.none(),
        st.dictionaries(_TEXT, json_values(max_leaves=3), max_size=2),
        st.dictionaries(_TEXT, _NUMPY_SCALARS, max_size=2),
        st.sampled_from(["openai_chat", "openai_responses"]).flatmap(
            lambda key: st.dictionaries(st.just(key), json_values(max_leaves=3), max_size=1)
        ),
    ),
    "inner_content": WIDE,
    "role": st.sampled_from(
        ["user", "assistant", "system", "developer", "tool", "critic", "USER", "", " "]
    ).map(lambda r: AuthorRole(r) if r == "tool" else r),
    "finish_reason": st.sampled_from([None, "stop", "length", "tool_calls", "odd", ""]),
    "model_id": st.none() | _TEXT,
    "usage": st.none()
    | st.builds(
        Usage,
        st.integers(0, 99),
        st.integers(0, 99),
        st.integers(0, 200),
        st.none() | st.integers(0, 9),
        st.none() | st.integers(0, 9),
    ),
    "choice_index": st.one_of(st.integers(0, 3), st.just(np.int32(1))),
    "prompt_tokens": st.integers(0, 10**6),
    "completion_tokens": st.integers(0, 10**6),
    "total_tokens": st.integers(0, 10**6),
    "cached_tokens": st.none() | st.integers(0, 10**6),
    "reasoning_tokens": st.none() | st.integers(0, 10**6),
    # plugin fields
    "label": _TEXT,
    "size": st.integers(0, 9),
    "when": st.one_of(_DATETIMES, _AWARE_DATETIMES),
    "day": st.none() | st.dates(),
    "uid": st.none() | st.uuids(),
    "amount": st.none() | st.decimals(allow_nan=False, allow_infinity=False, places=3),
    "mood": st.sampled_from(Mood),
    "where": st.none() | st.sampled_from([pathlib.Path("a/b.txt"), pathlib.Path("/tmp/x")]),
    "point": st.none() | st.builds(Point, st.integers(-5, 5), st.integers(-5, 5)),
    "fps": st.none() | st.floats(0, 120),
}


@functools.cache
def field_values(name: str) -> st.SearchStrategy[Any]:
    """Values for the field ``name``: mostly plausible ones, the rest from anywhere."""
    plausible = _PLAUSIBLE.get(name, _TEXT)
    return st.one_of(plausible, plausible, WIDE)


# --- what each class takes ------------------------------------------------------------------

_BINARY = ("data", "uri", "file_id", "mime_type")
_COMMON = ("metadata", "inner_content")

# Public fields by class: the constructor's keywords, and what may be assigned afterwards.
FIELDS: dict[type[KernelContent], tuple[str, ...]] = {
    TextContent: ("text",),
    RefusalContent: ("text",),
    ReasoningContent: ("text", "signature", "encrypted", "provider"),
    BinaryContent: _BINARY,
    ImageContent: (*_BINARY, "detail"),
    AudioContent: _BINARY,
    FileContent: (*_BINARY, "filename"),
    FunctionCallContent: ("id", "name", "arguments", "index"),
    FunctionResultContent: ("call_id", "result", "name", "is_error"),
    UnknownContent: ("type", "fields"),
    StreamingTextContent: ("text",),
    StreamingRefusalContent: ("text",),
    StreamingReasoningContent: ("text", "signature", "encrypted", "provider"),
    StreamingFunctionCallContent: ("id", "name", "arguments", "index"),
    StickerContent: ("label", "size"),
    EventContent: ("when", "day", "uid", "amount", "mood", "where", "point"),
    ClipContent: (*_BINARY, "fps"),
}
# The fields the plugin classes declare themselves, which the library does not check.
PLUGIN_FIELDS = frozenset(
    name
    for cls in (StickerContent, EventContent, ClipContent)
    for name in FIELDS[cls]
    if name not in FIELDS[BinaryContent]
)
# Arguments a constructor cannot do without (leaving them out is Python's TypeError).
REQUIRED: dict[type[KernelContent], tuple[str, ...]] = {
    TextContent: ("text",),
    RefusalContent: ("text",),
    StreamingTextContent: ("text",),
    StreamingRefusalContent: ("text",),
    FunctionCallContent: ("id", "name"),
    StreamingFunctionCallContent: ("id", "name"),
    FunctionResultContent: ("call_id",),
    UnknownContent: ("type",),
    EventContent: ("when",),
}
MESSAGE_FIELDS = (
    "role",
    "content",
    "items",
    "name",
    "id",
    "finish_reason",
    "usage",
    "model_id",
    "metadata",
    "inner_content",
)
USAGE_FIELDS = (
    "prompt_tokens",
    "completion_tokens",
    "total_tokens",
    "cached_tokens",
    "reasoning_tokens",
)
_ADD_METHODS = ("system", "developer", "user", "assistant")


def clean_json(value: Any) -> bool:
    """Whether ``value`` is JSON exactly as it is (so writing it must work and read it back)."""
    kind = type(value)
    if value is None or kind is bool:
        return True
    if kind is str:
        return _encodable(value)
    if kind is int:
        return -(2**63) <= value <= 2**63 - 1
    if kind is float:
        return math.isfinite(value)
    if kind is list:
        return all(clean_json(v) for v in value)
    if kind is dict:
        return all(type(k) is str and _encodable(k) and clean_json(v) for k, v in value.items())
    return False


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


_INDICES = [st.integers(0, n) for n in range(400)]
_SHAPES = st.sampled_from(["list", "list", "tuple", "none", "wide", "text", "bytes"])
_ELEMENTS = st.sampled_from(["pool", "pool", "pool", "text", "wide"])


class Refused(Exception):
    """Marks a call the library refused (with a proper error); the rule then stops."""


def outcome(call: Callable[[], Any], *kinds: type[BaseException]) -> tuple[Any, Any]:
    """``(result, None)``, or ``(None, error)`` when ``call`` raised one of ``kinds``."""
    try:
        return call(), None
    except kinds as error:
        return None, error


# --- the machine ------------------------------------------------------------------------------


class IntegrityMachine(RuleBasedStateMachine):
    """Builds and changes a history through the public API and checks it is always writable."""

    def __init__(self) -> None:
        super().__init__()
        self.history = ChatHistory()
        self.items: list[KernelContent] = []
        self.messages: list[ChatMessageContent] = []
        # Objects whose plain containers (metadata, result, arguments, fields) were changed
        # directly with something that is not JSON as it stands; kept alive so ids stay unique.
        # Keyed by (id, "metadata") or (id, "contents"): a new metadata dict clears the first.
        self.tainted: dict[tuple[int, str], object] = {}

    # -- helpers ---------------------------------------------------------------------------

    def attempt(self, call: Callable[[], Any], names: Sequence[str], what: str) -> Any:
        """Run ``call``; a `SemanticChatError` must name one of ``names``, anything else fails."""
        result, error = outcome(call, SemanticChatError, OSError)
        self.error = error
        if error is None:
            note(f"accepted {what}")
            return result
        note(f"refused {what}: {error!r}")
        if isinstance(error, OSError):
            # A path given as content is read (`BinaryContent.from_file`); a missing file is
            # the OSError that documents. The machine's paths name no file.
            assert isinstance(error, (FileNotFoundError, IsADirectoryError)), error
            assert "content" in names or "items" in names, error
        else:
            text = str(error).lower()
            assert any(name.lower() in text for name in names), (
                f"{what}: the error {str(error)!r} names none of {list(names)}"
            )
        raise Refused

    @staticmethod
    def pick(data: st.DataObject, pool: Sequence[Any], label: str) -> Any:
        """One element of ``pool`` (by index: a fresh ``sampled_from`` per draw is slow)."""
        last = len(pool) - 1
        indices = _INDICES[last] if last < len(_INDICES) else st.integers(0, last)
        return pool[data.draw(indices, label=label)]

    def draw_item(self, data: st.DataObject) -> KernelContent:
        return self.pick(data, self.items, "item")  # type: ignore[no-any-return]

    def draw_message(self, data: st.DataObject) -> ChatMessageContent:
        return self.pick(data, self.messages, "message")  # type: ignore[no-any-return]

    def item_values(self, data: st.DataObject, max_size: int = 3) -> Any:
        """A list (or something else) to hand over as items: pool items mixed with anything."""
        shape = data.draw(_SHAPES, label="items shape")
        if shape in ("list", "tuple"):
            size = data.draw(_INDICES[max_size], label="size")
            values = [self.item_value(data) for _ in range(size)]
            return values if shape == "list" else tuple(values)
        if shape == "none":
            return None
        if shape == "text":
            return data.draw(_TEXT, label="items")
        if shape == "bytes":
            return data.draw(_SOURCES["data"], label="items")
        return data.draw(WIDE, label="items")

    def item_value(self, data: st.DataObject) -> Any:
        kind = data.draw(_ELEMENTS, label="element")
        if kind == "pool" and self.items:
            return self.draw_item(data)
        if kind == "text":
            return data.draw(_TEXT, label="element")
        return data.draw(WIDE, label="element")

    def message_values(self, data: st.DataObject, max_size: int = 3) -> Any:
        """A list (or something else) of messages: pool messages mixed with anything."""
        if data.draw(st.integers(0, 4), label="messages shape") == 0:
            return data.draw(WIDE, label="messages")
        values = []
        for _ in range(data.draw(_INDICES[max_size], label="size")):
            if self.messages and data.draw(_ELEMENTS, label="element") != "wide":
                values.append(self.draw_message(data))
            else:
                values.append(data.draw(WIDE, label="element"))
        return values

    def keep(self, item: object) -> None:
        if isinstance(item, KernelContent) and all(item is not known for known in self.items):
            self.items.append(item)

    def keep_message(self, message: ChatMessageContent) -> None:
        if all(message is not known for known in self.messages):
            self.messages.append(message)
        for item in list(message.items):
            self.keep(item)

    def taint(self, owner: object, value: Any, kind: str) -> None:
        if not clean_json(value):
            self.tainted[id(owner), kind] = owner

    def reachable(self) -> Iterator[object]:
        """Every message and item the history holds, items inside results included."""
        for message in self.history:
            assert isinstance(message, ChatMessageContent), f"the history holds {message!r}"
            yield message
            yield from self._items_under(message.items)

    def _items_under(self, items: Sequence[Any]) -> Iterator[object]:
        for item in items:
            yield item
            if isinstance(item, FunctionResultContent) and isinstance(item.result, list):
                yield from self._items_under(
                    [r for r in item.result if isinstance(r, KernelContent)]
                )

    def tainted_in_history(self) -> bool:
        return any(
            (id(obj), kind) in self.tainted
            for obj in self.reachable()
            for kind in ("metadata", "contents")
        )

    # -- items -------------------------------------------------------------------------------

    @rule(cls=st.sampled_from(sorted(FIELDS, key=lambda c: c.__name__)), data=st.data())
    def build_item(self, cls: type[KernelContent], data: st.DataObject) -> None:
        """Construct an item of any kind from drawn keyword arguments."""
        kwargs: dict[str, Any] = {}
        for name in (*FIELDS[cls], *_COMMON):
            required = name in REQUIRED.get(cls, ())
            if required or data.draw(st.booleans(), label=f"give {name}"):
                kwargs[name] = data.draw(field_values(name), label=name)
        if issubclass(cls, BinaryContent):
            names: Sequence[str] = (*kwargs, *_BINARY)
        else:
            names = tuple(kwargs)
        try:
            item = self.attempt(lambda: cls(**kwargs), names, f"{cls.__name__}(**{kwargs!r})")
        except Refused:
            return
        self.check_binary_sources(item)
        self.keep(item)

    @rule(
        cls=st.sampled_from([BinaryContent, ImageContent, AudioContent, FileContent, ClipContent]),
        data=st.data(),
    )
    def build_binary_from_text(self, cls: type[BinaryContent], data: st.DataObject) -> None:
        """The other public constructors of binary items: base64 text and data URIs."""
        how = data.draw(st.sampled_from(["base64", "data_uri"]), label="constructor")
        text = data.draw(
            st.one_of(
                st.sampled_from(["iVBORw0KGgoAAAAAAAAAAAAAAAAAAAA=", "JVBERi0xLjcK", "", "@@@"]),
                st.binary(max_size=9).map(lambda b: base64.b64encode(b).decode("ascii")),
                st.sampled_from([DATA_URI, "data:,hi", "data:audio/wav;base64,UklGRg=="]),
                WIDE,
            ),
            label="text",
        )
        try:
            if how == "base64":
                mime_type = data.draw(field_values("mime_type"), label="mime_type")
                item = self.attempt(
                    lambda: cls.from_base64(text, mime_type),
                    ("data", "mime_type", "base64", "text"),
                    f"{cls.__name__}.from_base64({text!r}, {mime_type!r})",
                )
            else:
                item = self.attempt(
                    lambda: cls.from_data_uri(text),
                    ("data", "uri", "mime_type", "text"),
                    f"{cls.__name__}.from_data_uri({text!r})",
                )
        except Refused:
            return
        self.check_binary_sources(item)
        self.keep(item)

    @precondition(lambda self: any(isinstance(i, FunctionCallContent) for i in self.items))
    @rule(data=st.data())
    def build_result_of_call(self, data: st.DataObject) -> None:
        """``FunctionCallContent.to_result`` with any value."""
        calls = [i for i in self.items if isinstance(i, FunctionCallContent)]
        call = self.pick(data, calls, "call")
        value = data.draw(field_values("result"), label="value")
        is_error = data.draw(field_values("is_error"), label="is_error")
        try:
            item = self.attempt(
                lambda: call.to_result(value, is_error=is_error),
                ("result", "is_error", "call_id", "name", "value"),
                f"to_result({value!r}, is_error={is_error!r})",
            )
        except Refused:
            return
        self.keep(item)

    @precondition(lambda self: self.items)
    @rule(data=st.data())
    def assign_item_field(self, data: st.DataObject) -> None:
        """Assign any public field of an item (plugin fields included) a wide value."""
        item = self.draw_item(data)
        name = data.draw(st.sampled_from([*FIELDS[type(item)], *_COMMON]), label="field")
        value = data.draw(field_values(name), label="value")
        if isinstance(item, StickerContent):
            # A frozen class refuses every assignment with attrs' own error, by design.
            return
        before = self.snapshot(item)
        try:
            self.attempt(
                lambda: setattr(item, name, value),
                # New bytes whose media type cannot be told are refused at ``mime_type``.
                (name, "mime_type") if name == "data" else (name,),
                f"{type(item).__name__}.{name} = {value!r}",
            )
        except Refused:
            assert self.snapshot(item) == before, f"a refused {name}= changed the item"
            return
        if name == "metadata":
            self.tainted.pop((id(item), "metadata"), None)
        self.check_binary_sources(item)

    # -- messages ----------------------------------------------------------------------------

    @rule(data=st.data())
    def build_message(self, data: st.DataObject) -> None:
        """``ChatMessageContent(role, content=..., items=..., ...)`` with drawn fields."""
        streaming = data.draw(st.booleans(), label="streaming")
        role = data.draw(field_values("role"), label="role")
        kwargs: dict[str, Any] = {}
        source = data.draw(st.sampled_from(["content", "items", "both", "none"]), label="source")
        if source in ("content", "both"):
            kwargs["content"] = self.item_values(data)
        if source in ("items", "both"):
            kwargs["items"] = self.item_values(data)
        for name in ("name", "id", "finish_reason", "usage", "model_id", *_COMMON):
            if data.draw(st.booleans(), label=f"give {name}"):
                kwargs[name] = data.draw(field_values(name), label=name)
        cls: type[ChatMessageContent] = ChatMessageContent
        if streaming:
            cls = StreamingChatMessageContent
            if data.draw(st.booleans(), label="give choice_index"):
                kwargs["choice_index"] = data.draw(field_values("choice_index"))
        names = ("role", *kwargs)
        try:
            message = self.attempt(
                lambda: cls(role, **kwargs), names, f"{cls.__name__}({role!r}, **{kwargs!r})"
            )
        except Refused:
            return
        self.keep_message(message)

    @rule(method=st.sampled_from(_ADD_METHODS), data=st.data())
    def add_role_message(self, method: str, data: st.DataObject) -> None:
        """``history.add_<role>_message(content, **fields)``."""
        content = self.item_values(data) if data.draw(st.booleans(), label="give content") else None
        kwargs: dict[str, Any] = {}
        for name in ("items", "name", "id", "finish_reason", "usage", "model_id", "metadata"):
            if data.draw(st.integers(0, 3), label=f"give {name}") == 0:
                kwargs[name] = (
                    self.item_values(data) if name == "items" else data.draw(field_values(name))
                )
        add = getattr(self.history, f"add_{method}_message")
        before = list(self.history.messages)
        try:
            message = self.attempt(
                lambda: add(content, **kwargs),
                ("content", *kwargs),
                f"add_{method}_message({content!r}, **{kwargs!r})",
            )
        except Refused:
            self.check_unchanged(self.history.messages, before, "history")
            return
        self.keep_message(message)

    @rule(data=st.data())
    def add_tool_message(self, data: st.DataObject) -> None:
        """``history.add_tool_message(result, call_id=..., name=..., is_error=...)``."""
        result = data.draw(field_values("result"), label="result")
        kwargs: dict[str, Any] = {}
        for name in ("call_id", "name", "is_error", "metadata", "id"):
            if name == "call_id" or data.draw(st.booleans(), label=f"give {name}"):
                kwargs[name] = data.draw(field_values(name), label=name)
        before = list(self.history.messages)
        try:
            message = self.attempt(
                lambda: self.history.add_tool_message(result, **kwargs),
                ("result", *kwargs),
                f"add_tool_message({result!r}, **{kwargs!r})",
            )
        except Refused:
            self.check_unchanged(self.history.messages, before, "history")
            return
        self.keep_message(message)

    @precondition(lambda self: self.messages)
    @rule(data=st.data())
    def assign_message_field(self, data: st.DataObject) -> None:
        """Assign any public field of a message a wide value (``content`` and ``items`` too)."""
        message = self.draw_message(data)
        names = list(MESSAGE_FIELDS)
        if isinstance(message, StreamingChatMessageContent):
            names.append("choice_index")
        name = data.draw(st.sampled_from(names), label="field")
        if name == "items":
            value = self.item_values(data)
        elif name == "content":
            value = data.draw(st.one_of(_TEXT, st.none(), WIDE), label="value")
        else:
            value = data.draw(field_values(name), label="value")
        before = self.snapshot(message)
        try:
            self.attempt(
                lambda: setattr(message, name, value),
                (name,) if name != "items" else ("items", "content="),
                f"message.{name} = {value!r}",
            )
        except Refused:
            assert self.snapshot(message) == before, f"a refused {name}= changed the message"
            if name == "items" and isinstance(value, (str, bytes)):
                assert "content=" in str(self.error), f"no hint to pass content=: {self.error}"
            return
        if name == "metadata":
            self.tainted.pop((id(message), "metadata"), None)
        if name == "items":
            if value is None:
                assert len(message.items) == 0, "items = None should mean no items"
            for item in list(message.items):
                self.keep(item)
        if name == "content" and value is not None:
            for item in list(message.items):
                self.keep(item)

    @precondition(lambda self: any(m.usage is not None for m in self.messages))
    @rule(data=st.data())
    def assign_usage_field(self, data: st.DataObject) -> None:
        """Assign a field of a message's `Usage`."""
        usages = [m.usage for m in self.messages if m.usage is not None]
        usage = self.pick(data, usages, "usage")
        name = data.draw(st.sampled_from(USAGE_FIELDS), label="field")
        value = data.draw(field_values(name), label="value")
        try:
            self.attempt(lambda: setattr(usage, name, value), (name,), f"usage.{name} = {value!r}")
        except Refused:
            return

    # -- lists of items and of messages -------------------------------------------------------

    @precondition(lambda self: self.messages)
    @rule(data=st.data())
    def mutate_items(self, data: st.DataObject) -> None:
        """Change ``message.items`` with every list operation; a refusal leaves it unchanged."""
        message = self.draw_message(data)
        items = message.items
        self.mutate_list(data, items, lambda: message.items, "items", self.item_values)
        for item in list(message.items):
            self.keep(item)

    @rule(data=st.data())
    def mutate_history(self, data: st.DataObject) -> None:
        """Change the history (as a sequence, and through ``history.messages``) likewise."""
        target = data.draw(st.sampled_from(["history", "messages"]), label="through")
        if target == "history":
            container: Any = self.history
        else:
            container = self.history.messages
        self.mutate_list(
            data, container, lambda: self.history.messages, "messages", self.message_values
        )
        for message in list(self.history):
            if isinstance(message, ChatMessageContent):
                self.keep_message(message)

    def mutate_list(
        self,
        data: st.DataObject,
        container: Any,
        current: Callable[[], Any],
        where: str,
        values: Callable[[st.DataObject], Any],
    ) -> None:
        size = len(container)
        op = data.draw(
            st.sampled_from(
                ["append", "insert", "extend", "iadd", "setitem", "setslice", "delitem", "assign"]
            ),
            label="operation",
        )
        index = data.draw(st.integers(-size - 1, size + 1), label="index")
        stop = data.draw(st.integers(-size - 1, size + 1), label="stop")
        one = values(data, 1)
        one = one[0] if isinstance(one, list) and one else one
        many = values(data)
        before = list(current())
        owner = self.history if where == "messages" else None

        def change() -> None:
            if op == "append":
                container.append(one)
            elif op == "insert":
                container.insert(index, one)
            elif op == "extend":
                container.extend(many)
            elif op == "iadd":
                box = container
                box += many
            elif op == "setitem":
                container[index] = one
            elif op == "setslice":
                container[index:stop] = many
            elif op == "delitem":
                del container[index]
            elif owner is not None:
                owner.messages = many
            else:
                self._assign_items(container, many)

        try:
            self.attempt(change, (where, "content="), f"{where} {op} {one!r} / {many!r}")
        except Refused:
            self.check_unchanged(current(), before, where)
        except (IndexError, TypeError) as error:
            # Python's own list errors for an index out of range or a bad slice value are
            # what a list does; they must leave the list as it was.
            if op in ("setitem", "delitem") and isinstance(error, IndexError):
                self.check_unchanged(current(), before, where)
                return
            raise

    def _assign_items(self, collection: Any, value: Any) -> None:
        for message in self.messages:
            if message.items is collection:
                message.items = value
                return

    @staticmethod
    def check_unchanged(now: Sequence[Any], before: Sequence[Any], where: str) -> None:
        assert len(now) == len(before), f"a refused change to {where} changed its length"
        assert all(a is b for a, b in zip(now, before, strict=True)), (
            f"a refused change to {where} left it changed"
        )

    # -- metadata and the plain containers ---------------------------------------------------

    def owners(self) -> list[Any]:
        return [*self.items, *self.messages]

    @precondition(lambda self: self.items or self.messages)
    @rule(data=st.data())
    def set_metadata_key(self, data: st.DataObject) -> None:
        """``owner.metadata[key] = value``: a plain dict, so nothing can check it."""
        owner = self.pick(data, self.owners(), "owner")
        key = data.draw(
            st.one_of(_KEYS, st.sampled_from(["openai_chat", "openai_responses"])), label="key"
        )
        value = data.draw(DIRECT, label="value")
        metadata = self.attempt(lambda: owner.metadata, ("metadata",), "owner.metadata")
        assert type(metadata) is dict, f"{type(owner).__name__}.metadata is {metadata!r}"
        metadata[key] = value
        self.taint(owner, {key: value}, "metadata")

    @precondition(lambda self: self.items or self.messages)
    @rule(data=st.data())
    def assign_metadata(self, data: st.DataObject) -> None:
        """``owner.metadata = value``: checked by the setter."""
        owner = self.pick(data, self.owners(), "owner")
        if isinstance(owner, StickerContent):
            return  # frozen: every assignment is refused by attrs, by design
        value = data.draw(st.one_of(field_values("metadata"), DIRECT), label="value")
        try:
            self.attempt(
                lambda: setattr(owner, "metadata", value), ("metadata",), f"metadata = {value!r}"
            )
        except Refused:
            return
        self.tainted.pop((id(owner), "metadata"), None)

    @precondition(lambda self: any(self._containers(i) for i in self.items))
    @rule(data=st.data())
    def mutate_plain_container(self, data: st.DataObject) -> None:
        """Store into a result, arguments or unknown-fields dict or list after construction."""
        candidates = [i for i in self.items if self._containers(i)]
        item = self.pick(data, candidates, "item")
        container = self.pick(data, self._containers(item), "container")
        value = data.draw(DIRECT, label="value")
        if isinstance(container, list):
            container.append(value)
            self.tainted[id(item), "contents"] = item  # items mixed with values: no result shape
        else:
            key = data.draw(_KEYS, label="key")
            container[key] = value
            self.taint(item, {key: value}, "contents")

    @staticmethod
    def _containers(item: KernelContent) -> list[Any]:
        found = []
        if isinstance(item, FunctionResultContent) and isinstance(item.result, (dict, list)):
            found.append(item.result)
        if isinstance(item, FunctionCallContent) and isinstance(item.arguments, dict):
            found.append(item.arguments)
        if isinstance(item, UnknownContent) and isinstance(item.fields, dict):
            found.append(item.fields)
        return found

    # -- checks ------------------------------------------------------------------------------

    @staticmethod
    def snapshot(obj: Any) -> Any:
        """What a refused change must leave as it was: the repr and the item list's identity."""
        if isinstance(obj, ChatMessageContent):
            return (repr(obj), [id(i) for i in obj.items])
        return repr(obj)

    @staticmethod
    def check_binary_sources(item: Any) -> None:
        if isinstance(item, BinaryContent):
            sources = [s for s in ("data", "uri", "file_id") if getattr(item, s) is not None]
            assert len(sources) == 1, f"{item!r} holds the sources {sources}"

    @invariant()
    def items_read_as_text(self) -> None:
        """``str`` and ``repr`` of everything work; ``str`` of an item is readable text."""
        repr(self.history)
        for obj in self.reachable():
            shown = str(obj)
            assert isinstance(shown, str)
            assert " object at 0x" not in shown, f"str() of {type(obj).__name__}: {shown!r}"
            repr(obj)
            self.check_binary_sources(obj)

    @invariant()
    def written_and_read_back(self) -> None:
        """``to_json`` works and reads back equal, or refuses a value stored past the checks."""
        history = self.history
        text, error = outcome(lambda: to_json(history), SerializationError)
        if error is not None:
            assert isinstance(error, SerializationError)
            assert error.path, f"to_json refused without a location: {error}"
            if error.path.rsplit(".", 1)[-1] in PLUGIN_FIELDS:
                # A plugin's own fields are its author's to check (README: "Your own content
                # types"); the writer refuses at the field what its type's hook cannot write.
                return
            assert self.tainted_in_history(), (
                f"to_json refused a history built only through checked calls: {error}"
            )
            return
        back = from_json(text, ChatHistory)
        assert back == history, f"read back differs:\n{back.messages!r}\n{history.messages!r}"
        assert to_json(back) == text, "writing what was read gives other text"

    @invariant()
    def written_as_openai_payloads(self) -> None:
        """Each OpenAI writer succeeds or refuses an item it cannot carry, with its location."""
        for fmt in (openai_chat, openai_responses):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConversionWarning)  # metadata left out
                payload, error = outcome(lambda fmt=fmt: fmt.to_payload(self.history), FormatError)
            if error is None:
                # What a writer wrote, its reader reads, or refuses with a located error; a
                # value stored past the checks may make it refuse in the model's own words.
                kinds = (SemanticChatError if self.tainted_in_history() else FormatError,)
                _, error = outcome(lambda f=fmt, p=payload: f.from_payload(p), *kinds)
                assert error is None or error.path, f"{fmt.__name__} reader, unlocated: {error}"
                continue
            assert isinstance(error, FormatError)
            assert error.path, f"{fmt.__name__}.to_payload, unlocated: {error}"
            # Besides items a format cannot carry, a role it does not have is a FormatError at
            # ``.role``; a plugin's own field may be refused like ``to_json`` refuses it; and
            # hints stored in metadata (nothing checks them against a format:
            # they are plain JSON values to the model) may make a writer fail.
            assert (
                isinstance(error, UnsupportedContentError)
                or error.path.endswith(".role")
                or error.path.rsplit(".", 1)[-1] in PLUGIN_FIELDS
                or self.hints_in_history()
            ), f"{fmt.__name__}.to_payload: {error!r}"

    def hints_in_history(self) -> bool:
        keys = ("openai_chat", "openai_responses")
        for obj in self.reachable():
            metadata = getattr(obj, "_metadata", None)
            if metadata and any(k in metadata for k in keys):
                return True
        return bool(self.tainted_in_history())


IntegrityMachine.TestCase.settings = settings(stateful_step_count=40)
TestIntegrity = IntegrityMachine.TestCase
