"""Constructing messages by hand, and what checking each value's type would cost.

Run from the repository root: ``python benchmarks/bench_construct.py [--quick]``.

Two parts, measured in one process with every case interleaved:

1. The public API as a person writes it: the constructors of items and messages, the
   ``add_*_message`` methods of a history, one assignment to a public field, a read of one, and
   the trusted constructors the readers use (`semantic_chat.trusted`, which must not slow down
   when the public API starts checking types).
2. The candidate mechanisms for those checks, on small standalone attrs classes of three fields
   (``text: str``, ``name: str | None``, ``index: int | None``) defined here: no checks (today),
   attrs validators run on assignment too, private slots behind properties (getter
   ``operator.attrgetter``, setter a Python function), a hand-written ``__init__`` with inline
   checks, and attrs' ``__init__`` with an ``__attrs_post_init__`` that checks. For each:
   construct, read a field, assign a field, and the stores of a trusted constructor.

Each case is a statement compiled into a loop as `timeit` does (the loop's own cost is the
*empty loop* row); a sample runs it long enough to last about half a millisecond. Every round
times every case once, in a rotating order; the figure is the median over rounds of the
nanoseconds per execution (wall clock; CPU time of the thread beside it). The garbage
collector is off while timing and collects between rounds.

Samples are short on purpose: on a busy 2-core machine the scheduler takes the core away every
few milliseconds, and with samples of 4 ms most of them were interrupted, so the wall-clock
median doubled (CPU time did not); with samples of 0.5 ms the interrupted ones are a minority
and the median drops them.

With ``--baseline REV`` (by default the last commit before the model checked its fields) the
public API cases also run against that revision of the library, extracted from git as
``semantic_chat_base`` and timed in the same rounds, so the table shows the cost of the checks
as before / after on the same machine at the same moment (``--baseline none`` skips it).

Prints a markdown section (run.py puts it into RESULTS.md).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import itertools
import operator
import struct
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import attrs

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import extract_revision, fmt, median, table

import semantic_chat
from semantic_chat import (
    AuthorRole,
    ChatHistory,
    ChatMessageContent,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    InvalidTypeError,
    TextContent,
    trusted,
)

# --- the candidate mechanisms ---------------------------------------------------------------


def _mismatch(field_name: str, expected: str, value: object) -> InvalidTypeError:
    return InvalidTypeError.mismatch(field_name, expected, type(value).__name__)


def _v_text(_instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if type(value) is not str:
        raise _mismatch(attribute.alias or attribute.name, "a str", value)


def _v_optional_text(_instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if value is not None and type(value) is not str:
        raise _mismatch(attribute.alias or attribute.name, "a str or None", value)


def _v_optional_int(_instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if value is not None and type(value) is not int:
        raise _mismatch(attribute.alias or attribute.name, "an int or None", value)


@attrs.define(slots=True, weakref_slot=False)
class Plain:
    """(1) Today: plain slots, no checks."""

    text: str
    name: str | None = None
    index: int | None = None


_optional = attrs.validators.optional
_instance_of = attrs.validators.instance_of


@attrs.define(slots=True, weakref_slot=False, on_setattr=attrs.setters.validate)
class AttrsValidators:
    """(2a) attrs' own ``instance_of`` validators, run by ``__init__`` and on assignment."""

    text: str = attrs.field(validator=_instance_of(str))
    name: str | None = attrs.field(default=None, validator=_optional(_instance_of(str)))
    index: int | None = attrs.field(default=None, validator=_optional(_instance_of(int)))


@attrs.define(slots=True, weakref_slot=False, on_setattr=attrs.setters.validate)
class FunctionValidators:
    """(2b) Validators that are plain functions (``type(x) is str``), also on assignment."""

    text: str = attrs.field(validator=_v_text)
    name: str | None = attrs.field(default=None, validator=_v_optional_text)
    index: int | None = attrs.field(default=None, validator=_v_optional_int)


def _set_text(self: Any, value: object) -> None:
    if type(value) is not str:
        raise _mismatch("text", "a str", value)
    self._text = value


def _set_name(self: Any, value: object) -> None:
    if value is not None and type(value) is not str:
        raise _mismatch("name", "a str or None", value)
    self._name = value


def _set_index(self: Any, value: object) -> None:
    if value is not None and type(value) is not int:
        raise _mismatch("index", "an int or None", value)
    self._index = value


def _properties(cls: type[Any]) -> type[Any]:
    """Give ``cls`` the public ``text``, ``name`` and ``index`` properties of (3) and (4)."""
    cls.text = property(operator.attrgetter("_text"), _set_text)
    cls.name = property(operator.attrgetter("_name"), _set_name)
    cls.index = property(operator.attrgetter("_index"), _set_index)
    return cls


@_properties
@attrs.define(slots=True, weakref_slot=False, on_setattr=attrs.setters.NO_OP)
class SlotProperties:
    """(3) Private slots, validators for ``__init__``, properties for reads and assignments.

    ``on_setattr=NO_OP``: the property setter checks, so a store to the private slot must not
    run the validator again (and a trusted constructor's store must cost a plain store).
    """

    _text: str = attrs.field(alias="text", validator=_v_text)
    _name: str | None = attrs.field(alias="name", default=None, validator=_v_optional_text)
    _index: int | None = attrs.field(alias="index", default=None, validator=_v_optional_int)


@_properties
@attrs.define(slots=True, weakref_slot=False)
class SlotPropertiesDefault:
    """(3x) As (3) with `attrs.define`'s default ``on_setattr`` (convert, then validate).

    The trap: any field with a validator makes attrs generate a ``__setattr__`` that validates
    every store to it, the private slot's included.
    """

    _text: str = attrs.field(alias="text", validator=_v_text)
    _name: str | None = attrs.field(alias="name", default=None, validator=_v_optional_text)
    _index: int | None = attrs.field(alias="index", default=None, validator=_v_optional_int)


@_properties
@attrs.define(slots=True, weakref_slot=False, init=False)
class HandInit:
    """(4) A hand-written ``__init__`` with inline checks, and the properties of (3)."""

    _text: str
    _name: str | None
    _index: int | None

    def __init__(self, text: str, name: str | None = None, index: int | None = None) -> None:
        if type(text) is not str:
            raise _mismatch("text", "a str", text)
        if name is not None and type(name) is not str:
            raise _mismatch("name", "a str or None", name)
        if index is not None and type(index) is not int:
            raise _mismatch("index", "an int or None", index)
        self._text = text
        self._name = name
        self._index = index


@attrs.define(slots=True, weakref_slot=False)
class PostInit:
    """(5) attrs' ``__init__`` then ``__attrs_post_init__`` with inline checks; properties
    whose getter is a Python function (the shape of the change being made to the library)."""

    _text: str = attrs.field(alias="text")
    _name: str | None = attrs.field(alias="name", default=None)
    _index: int | None = attrs.field(alias="index", default=None)

    def __attrs_post_init__(self) -> None:
        if type(self._text) is not str:
            raise _mismatch("text", "a str", self._text)
        if self._name is not None and type(self._name) is not str:
            raise _mismatch("name", "a str or None", self._name)
        if self._index is not None and type(self._index) is not int:
            raise _mismatch("index", "an int or None", self._index)

    @property
    def text(self) -> str:
        return self._text

    @text.setter
    def text(self, value: str) -> None:
        _set_text(self, value)

    @property
    def name(self) -> str | None:
        return self._name

    @name.setter
    def name(self, value: str | None) -> None:
        _set_name(self, value)

    @property
    def index(self) -> int | None:
        return self._index

    @index.setter
    def index(self, value: int | None) -> None:
        _set_index(self, value)


MECHANISMS: dict[str, tuple[type[Any], str]] = {
    "(1) no checks (today)": (Plain, ""),
    "(2a) attrs `instance_of` validators, `on_setattr=validate`": (AttrsValidators, ""),
    "(2b) function validators, `on_setattr=validate`": (FunctionValidators, ""),
    "(3) private slots + `attrgetter` properties, validators in `__init__`": (
        SlotProperties, "_",
    ),
    "(3x) as (3) with `attrs.define`'s default `on_setattr` (validates private stores)": (
        SlotPropertiesDefault, "_",
    ),
    "(4) hand-written `__init__` with inline checks + properties of (3)": (HandInit, "_"),
    "(5) `__attrs_post_init__` checks + `def` properties": (PostInit, "_"),
}
"""Label: (class, prefix of the slot a trusted constructor stores)."""

MECHANISM_OPS = {
    "construct `C(\"hi\")`": "C('hi')",
    "construct `C(\"hi\", name=\"n\", index=1)`": "C('hi', name='n', index=1)",
    "read `o.text`": "o.text",
    "assign `o.text = \"y\"`": "o.text = 'y'",
    "assign `o.index = 2`": "o.index = 2",
    # the trusted stores depend on the mechanism: see _trusted_statements
    "trusted: `object.__new__` + 3 stores": "",
    "trusted: one store": "",
    "trusted: one `object.__setattr__` store": "",
}


def _trusted_statements(cls: type[Any], prefix: str) -> dict[str, str]:
    """A trusted constructor's statements for ``cls``: build with 3 stores, and one store.

    For (1) and (2) the stores are plain assignments, as `trusted.py` writes them today; for
    (2) they go through the ``__setattr__`` attrs generates, which runs the validators (the
    ``object.__setattr__`` store is the way around it). For (3) to (5) the trusted path stores
    the private slot directly.
    """
    return {
        "trusted: `object.__new__` + 3 stores": (
            f"t = _new(C); t.{prefix}text = 'hi'; t.{prefix}name = None; "
            f"t.{prefix}index = None"
        ),
        "trusted: one store": f"o.{prefix}text = 'y'",
        "trusted: one `object.__setattr__` store": f"_set(o, '{prefix}text', 'y')",
    }


def _check_mechanism(cls: type[Any]) -> None:
    """Every checking mechanism accepts good values and rejects a wrong type, both ways."""
    obj = cls("hi", name="n", index=1)
    assert (obj.text, obj.name, obj.index) == ("hi", "n", 1)
    obj.text, obj.name, obj.index = "y", None, None
    assert (obj.text, obj.name, obj.index) == ("y", None, None)
    if cls is Plain:
        return
    for bad in ({"text": 1}, {"text": "hi", "name": 1}, {"text": "hi", "index": "1"}):
        try:
            cls(**bad)
        except (TypeError, InvalidTypeError):
            pass
        else:
            raise AssertionError(f"{cls.__name__}({bad}) did not raise")
    try:
        obj.index = "2"
    except (TypeError, InvalidTypeError):
        pass
    else:
        raise AssertionError(f"{cls.__name__}: assigning a str to index did not raise")


# --- the public API cases -------------------------------------------------------------------


def small_png() -> bytes:
    """A valid 2x2 RGB PNG (69 bytes), written without any imaging library."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body)) + kind + body
            + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
        )

    header = struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0)
    rows = b"\x00" + b"\xff\x00\x00" * 2 + b"\x00" + b"\x00\x00\xff" * 2
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")
    )


SETUP_ITEM = "item = TextContent('hi')"
SETUP_MESSAGE = "message = ChatMessageContent('user', 'hello')"
SETUP_CALL = "call = FunctionCallContent('c1', 'get_weather', '{\"city\": \"Paris\"}')"
SETUP_HISTORY = "history = ChatHistory()"

# (group, label, setup, statement, a statement with a wrong type, or "")
PUBLIC_CASES: list[tuple[str, str, str, str, str]] = [
    ("by hand", '`TextContent("hi")`', "", "TextContent('hi')", "TextContent(1)"),
    (
        "by hand", '`ChatMessageContent("user", "hello")`', "",
        "ChatMessageContent('user', 'hello')", "ChatMessageContent('user', 'hello', name=1)",
    ),
    (
        "by hand", '`ChatMessageContent("assistant", items=[TextContent("hello")])`', "",
        "ChatMessageContent('assistant', items=[TextContent('hello')])",
        "ChatMessageContent('assistant', items=[TextContent(b'hello')])",
    ),
    (
        "by hand", '`FunctionCallContent("c1", "get_weather", \'{"city": "Paris"}\')`',
        "arguments = '{\"city\": \"Paris\"}'",
        "FunctionCallContent('c1', 'get_weather', arguments)",
        "FunctionCallContent(1, 'get_weather', arguments)",
    ),
    (
        "by hand", '`FunctionResultContent("c1", {"t": 18.5}, name="get_weather")`',
        "result = {'t': 18.5}",
        "FunctionResultContent('c1', result, name='get_weather')",
        "FunctionResultContent('c1', result, name=1)",
    ),
    (
        "by hand", '`ImageContent(data=png, mime_type="image/png")` (69-byte PNG)', "",
        "ImageContent(data=PNG, mime_type='image/png')",
        "ImageContent(data=PNG, mime_type=1)",
    ),
    (
        "by hand", '`ImageContent(uri="https://example.com/cat.png")`', "",
        "ImageContent(uri='https://example.com/cat.png')", "ImageContent(uri=1)",
    ),
    (
        "by hand",
        '`ChatMessageContent("assistant", items=[call], model_id="m", name="n", id="x")`',
        SETUP_CALL,
        "ChatMessageContent('assistant', items=[call], model_id='m', name='n', id='x')",
        "ChatMessageContent('assistant', items=[call], model_id=1, name='n', id='x')",
    ),
    (
        "by hand", '`history.add_user_message("hi")`', SETUP_HISTORY,
        "history.add_user_message('hi')", "history.add_user_message('hi', name=1)",
    ),
    (
        "by hand", '`history.add_tool_message({"t": 18.5}, call_id="c1")`',
        SETUP_HISTORY + "; result = {'t': 18.5}",
        "history.add_tool_message(result, call_id='c1')",
        "history.add_tool_message(result, call_id=1)",
    ),
    ("assign", '`item.text = "x"`', SETUP_ITEM, "item.text = 'x'", "item.text = 1"),
    ("assign", '`message.name = "n"`', SETUP_MESSAGE, "message.name = 'n'", "message.name = 1"),
    (
        "assign", '`message.model_id = "m"`', SETUP_MESSAGE, "message.model_id = 'm'",
        "message.model_id = 1",
    ),
    ("read", "`item.text`", SETUP_ITEM, "item.text", ""),
    ("read", "`message.name`", SETUP_MESSAGE, "message.name", ""),
    ("read", "`message.content` (first text)", SETUP_MESSAGE, "message.content", ""),
    ("trusted (readers)", '`trusted.new_text("hi")`', "", "new_text('hi')", ""),
    (
        "trusted (readers)", '`trusted.new_text_message(USER, "hi")`', "",
        "new_text_message(USER, 'hi')", "",
    ),
    (
        "trusted (readers)", "`trusted.new_call(\"c1\", \"get_weather\", args, None)`",
        "arguments = '{\"city\": \"Paris\"}'",
        "new_call('c1', 'get_weather', arguments, None)", "",
    ),
    (
        "trusted (readers)", '`trusted.new_tool_message("c1", {"t": 18.5}, None)`',
        "result = {'t': 18.5}", "new_tool_message('c1', result, None)", "",
    ),
    (
        "trusted (readers)", '`trusted.new_message(ASSISTANT, [call], model_id="m")`',
        SETUP_CALL, "new_message(ASSISTANT, [call], model_id='m')", "",
    ),
    ("reference", "empty loop (`pass`; included in every row)", "", "pass", ""),
]

NAMESPACE: dict[str, Any] = {
    "TextContent": TextContent,
    "ChatMessageContent": ChatMessageContent,
    "FunctionCallContent": FunctionCallContent,
    "FunctionResultContent": FunctionResultContent,
    "ImageContent": ImageContent,
    "ChatHistory": ChatHistory,
    "PNG": small_png(),
    "USER": AuthorRole.USER,
    "ASSISTANT": AuthorRole.ASSISTANT,
    "new_text": trusted.new_text,
    "new_text_message": trusted.new_text_message,
    "new_call": trusted.new_call,
    "new_tool_message": trusted.new_tool_message,
    "new_message": trusted.new_message,
    "_new": object.__new__,
}


CHECKS_BASELINE = "11a9a4f"
"""The last commit before every constructor and field assignment checked its values."""

BASE = " @base"
"""Appended to a public case's group for the same statement run against the baseline."""


def base_namespace(package: str) -> dict[str, Any]:
    """`NAMESPACE` with the classes and functions of another copy of the library."""
    library = importlib.import_module(package)
    base_trusted = importlib.import_module(f"{package}.trusted")
    namespace = dict(NAMESPACE)
    for name in ("TextContent", "ChatMessageContent", "FunctionCallContent",
                 "FunctionResultContent", "ImageContent", "ChatHistory"):
        namespace[name] = getattr(library, name)
    namespace["USER"] = library.AuthorRole.USER
    namespace["ASSISTANT"] = library.AuthorRole.ASSISTANT
    for name in ("new_text", "new_text_message", "new_call", "new_tool_message", "new_message"):
        namespace[name] = getattr(base_trusted, name)
    return namespace


# --- timing ---------------------------------------------------------------------------------

_TEMPLATE = """
def inner(_it, _wall, _cpu):
    {setup}
    _c0 = _cpu()
    _w0 = _wall()
    for _ in _it:
        {stmt}
    _w1 = _wall()
    _c1 = _cpu()
    return _w1 - _w0, _c1 - _c0
"""


@dataclass
class Case:
    """One timed statement and its samples (ns per execution)."""

    key: tuple[str, str]
    setup: str
    stmt: str
    namespace: dict[str, Any]
    inner: Callable[..., tuple[int, int]] | None = None
    number: int = 0
    error: str = ""
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)

    def prepare(self, sample_ns: int) -> None:
        """Compile the loop, run the statement once, and choose a count per sample."""
        source = _TEMPLATE.format(setup=self.setup or "pass", stmt=self.stmt)
        local: dict[str, Any] = {}
        try:
            exec(compile(source, f"<case {self.key[1]}>", "exec"), self.namespace, local)
            self.inner = local["inner"]
            number = 1
            while True:
                wall, _ = self.run(number)
                if wall >= sample_ns // 10 or number >= 10**7:
                    break
                number *= 10
            self.number = max(1, int(number * sample_ns / max(wall, 1)))
        except Exception as error:  # shown in the table instead of a figure
            self.inner = None
            self.error = f"{type(error).__name__}: {error}"

    def run(self, number: int) -> tuple[int, int]:
        assert self.inner is not None
        return self.inner(itertools.repeat(None, number), time.perf_counter_ns, time.thread_time_ns)

    def sample(self) -> None:
        if self.inner is None:
            return
        wall, cpu = self.run(self.number)
        self.wall.append(wall / self.number)
        self.cpu.append(cpu / self.number)

    @property
    def ns(self) -> float:
        return median(self.wall)

    @property
    def cpu_ns(self) -> float:
        return median(self.cpu)


def rejects(setup: str, bad: str, namespace: dict[str, Any] | None = None) -> str:
    """Whether running ``bad`` (after ``setup``) raises, and what."""
    if not bad:
        return ""
    namespace = dict(NAMESPACE if namespace is None else namespace)
    try:
        exec(setup or "pass", namespace)
        exec(bad, namespace)
    except Exception as error:  # reported, whatever it is
        return f"yes (`{type(error).__name__}`)"
    return "no"


def make_cases(base: dict[str, Any] | None = None) -> list[Case]:
    cases = [
        Case((group, label), setup, stmt, NAMESPACE)
        for group, label, setup, stmt, _ in PUBLIC_CASES
    ]
    if base is not None:
        cases += [
            Case((group + BASE, label), setup, stmt, base)
            for group, label, setup, stmt, _ in PUBLIC_CASES
        ]
    for name, (cls, prefix) in MECHANISMS.items():
        _check_mechanism(cls)
        namespace = {"C": cls, "_new": object.__new__, "_set": object.__setattr__}
        statements = MECHANISM_OPS | _trusted_statements(cls, prefix)
        for op, stmt in statements.items():
            setup = "" if op.startswith("construct") else "o = C('hi', name='n', index=1)"
            cases.append(Case((name, op), setup, stmt, namespace))
    return cases


def measure(cases: list[Case], rounds: int, sample_ns: int) -> None:
    for case in cases:
        case.prepare(sample_ns)
    gc.collect()
    gc.disable()
    try:
        for number in range(rounds):
            shift = number % len(cases)
            for case in cases[shift:] + cases[:shift]:
                case.sample()
            gc.enable()
            gc.collect()
            gc.disable()
    finally:
        gc.enable()


# --- reporting ------------------------------------------------------------------------------


def _cell(case: Case) -> str:
    return f"error: {case.error}" if case.error else fmt(case.ns, 1)


def public_table(
    cases: dict[tuple[str, str], Case], base: dict[str, Any] | None = None
) -> str:
    if base is None:
        rows = []
        for group, label, setup, _, bad in PUBLIC_CASES:
            case = cases[(group, label)]
            rows.append([
                group, label, _cell(case), fmt(case.cpu_ns, 1), rejects(setup, bad),
            ])
        return table(
            ["kind", "statement", "ns", "CPU ns", "wrong type rejected"], rows, align="llrrl"
        )
    rows = []
    for group, label, setup, _, bad in PUBLIC_CASES:
        after, before = cases[(group, label)], cases[(group + BASE, label)]
        ratio = "-" if after.error or before.error else f"{after.ns / before.ns:.2f}x"
        rows.append([
            group, label, _cell(before), _cell(after), ratio,
            rejects(setup, bad, base), rejects(setup, bad),
        ])
    return table(
        ["kind", "statement", "before ns", "after ns", "after / before",
         "wrong type rejected before", "after"],
        rows, align="llrrrll",
    )


def mechanism_tables(cases: dict[tuple[str, str], Case]) -> str:
    ops = list(MECHANISM_OPS)
    base = next(iter(MECHANISMS))
    rows = []
    delta_rows = []
    for name in MECHANISMS:
        rows.append([name, *(_cell(cases[(name, op)]) for op in ops)])
        if name != base:
            delta_rows.append([
                name,
                *(f"{cases[(name, op)].ns - cases[(base, op)].ns:+.1f}" for op in ops),
            ])
    return "\n".join([
        table(["mechanism", *ops], rows),
        "",
        "Difference from (1), ns per operation:",
        "",
        table(["mechanism", *ops], delta_rows),
    ])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="15 rounds instead of 101")
    parser.add_argument("--rounds", type=int, default=None, help="default 101")
    parser.add_argument("--sample-ms", type=float, default=0.5, help="default 0.5")
    parser.add_argument(
        "--baseline", default=CHECKS_BASELINE,
        help=f"git revision to time the public cases against (default {CHECKS_BASELINE}; "
        "'none' to skip)",
    )
    args = parser.parse_args(argv)
    rounds = args.rounds or (15 if args.quick else 101)
    sample_ns = int(args.sample_ms * 1e6)

    with tempfile.TemporaryDirectory() as folder:
        base, against = None, ""
        if args.baseline.lower() != "none":
            commit = extract_revision(args.baseline, Path(folder))
            sys.path.insert(0, folder)
            base = base_namespace("semantic_chat_base")
            against = (
                f" *before* is commit `{commit}`, the library before its constructors and "
                "setters checked values, run in the same rounds; *after* is this tree."
            )
        cases = make_cases(base)
        started = time.perf_counter()
        measure(cases, rounds, sample_ns)
        seconds = time.perf_counter() - started
        by_key = {case.key: case for case in cases}
        public = public_table(by_key, base)
    source = Path(semantic_chat.__file__).resolve().parents[1]
    print("\n".join([
        f"`semantic_chat` from `{source}`; {len(cases)} cases x {rounds} rounds of "
        f"~{sample_ns / 1e6:g} ms samples, interleaved in rotating order ({seconds:.0f} s); "
        "median ns per execution (wall clock), loop included." + against,
        "",
        "### By hand through the public API, and the trusted constructors of readers",
        "",
        public,
        "",
        "*wrong type rejected*: whether the same statement with one value of a wrong type "
        "raises (`TextContent(1)`, `name=1`, `call_id=1`, `item.text = 1`, ...).",
        "",
        "### Candidate mechanisms on a 3-field slotted attrs class (ns per operation)",
        "",
        "`C` has `text: str`, `name: str | None`, `index: int | None`. Every checking "
        "mechanism here rejects a wrong type in the constructor and on assignment (checked "
        "before timing). *Trusted*: `object.__new__(C)` and plain stores, as `trusted.py` "
        "writes them: `t.text = ...` for (1) and (2) (through attrs' generated "
        "`__setattr__` for (2), which runs the validators), `t._text = ...` (the private "
        "slot) for (3) to (5).",
        "",
        mechanism_tables(by_key),
    ]))


if __name__ == "__main__":
    main()
