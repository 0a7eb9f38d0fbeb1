"""Repair a history so that a wire format takes it, and say what a format would refuse in it.

Every provider refuses a tool result whose call is not in the message right before the
results, and a call that is never answered; those that pair by id refuse two calls of one id
(replies read one by one from Gemini, which sends no ids, each get the made-up ids
``gemini-call-0-<k>``); Anthropic and Gemini also want user and
assistant turns to alternate, with system text only before the first turn. `validate` reports
each such problem where it is (``messages[4].items[0]``), with what the format's writer
would refuse or leave out; `repair` fixes the pairing and ordering ones and reports each
`Change` it made.
"""

from __future__ import annotations

import copy
import functools
import re
from collections.abc import Sequence
from typing import Literal, NamedTuple

import attrs

from ..contents import FunctionCallContent, FunctionResultContent, KernelContent, TextContent
from ..contents.metadata import peek_metadata
from ..errors import InvalidTypeError, SemanticChatError, describe_type
from ..formats import anthropic, gemini
from ..formats.registry import WireFormat, get
from ..formats.validation import Problem, _write_problems
from ..formats.wire import ERROR_PREFIX, collect_losses
from ..history import ChatHistory
from ..labels import AuthorRole
from ..message import ChatMessageContent
from ..trusted import new_history

__all__ = ["MISSING_RESULT", "Action", "Change", "repair", "validate"]

Action = Literal["dropped", "moved", "added", "merged", "renamed"]
"""What `repair` did at a place: left something out, put it elsewhere, added an error
result, joined a message into the one before it, or gave a call (and its results) a new id."""

MISSING_RESULT = "no result was recorded for this call"
"""The text of the error result `repair` adds for a call that was never answered (after
``"Error: "`` in a format without an error flag on results)."""

_ITEM = re.compile(r"(?<=^messages\[)(\d+)\]\.items\[(\d+)\]")
"""A path's message and item index (``messages[3].items[1]``), to map a probe's path back."""

_PLAIN_ID = re.compile(r"[A-Za-z0-9_-]+")
"""The ids Anthropic takes for a ``tool_use`` (its API refuses others with a 400)."""
_NOT_PLAIN = re.compile(r"[^A-Za-z0-9_-]")

_ASSISTANT, _TOOL, _USER = AuthorRole.ASSISTANT, AuthorRole.TOOL, AuthorRole.USER
_INSTRUCTIONS = frozenset((AuthorRole.SYSTEM, AuthorRole.DEVELOPER))


@attrs.frozen
class Change:
    """One change `repair` made: where in the history it was given, what it did, and to what.

    ``str()`` reads as a sentence: ``messages[4]: dropped an orphan result for call 'x'``.
    """

    path: str
    """Where, in the history given to `repair` (not the one it returns): ``messages[4]`` for
    a whole message, ``messages[4].items[1]`` for one item."""

    action: Action
    """What was done there: ``"dropped"``, ``"moved"``, ``"added"``, ``"merged"`` or
    ``"renamed"``."""

    message: str
    """What it was done to, and why, without the location: ``an orphan result for call 'x'``."""

    def __str__(self) -> str:
        return f"{self.path}: {self.action} {self.message}"


@attrs.frozen
class _Rules:
    """What a wire format asks of a history's order beyond pairing."""

    label: str
    """The format's name in messages (``Anthropic``)."""

    alternate: bool
    """User and assistant turns must alternate (a run of one role is merged)."""

    instructions_first: bool
    """System and developer messages may only come before the first turn."""

    plain_ids: bool = False
    """A call's id may hold only letters, digits, ``_`` and ``-`` (`_PLAIN_ID`)."""

    blank: Literal["whitespace", "empty"] | None = None
    """Which user or assistant message of plain texts only the format's writer leaves out:
    texts empty or of whitespace (Anthropic, but for an empty last assistant message, the
    prefill it takes), or empty texts (Gemini). Either leaves out a message of no items."""


_RULES = {
    anthropic.NAME: _Rules(
        "Anthropic", alternate=True, instructions_first=True, plain_ids=True, blank="whitespace"
    ),
    gemini.NAME: _Rules("Gemini", alternate=True, instructions_first=True, blank="empty"),
}
"""The formats with ordering rules; the others (OpenAI's, this library's) take any order."""


# --- pairing ------------------------------------------------------------------------------


class _Group:
    """An assistant message's calls and the place its answering results end."""

    __slots__ = ("calls", "end", "extra")

    def __init__(self, end: int) -> None:
        self.calls: list[_Call] = []
        self.end = end
        """The position of the last message of the answer block (the call's own if none)."""
        self.extra: list[tuple[int, FunctionResultContent]] = []
        """Results to put after the block: (call order, result), moved or made up."""


class _Call:
    """One call in a `_Group`: where it is, and where the result answering it is, if any."""

    __slots__ = ("answer", "call", "group", "item", "order", "position", "result")

    def __init__(
        self, call: FunctionCallContent, position: int, item: int, group: _Group, order: int
    ) -> None:
        self.call = call
        self.position = position
        self.item = item
        self.group = group
        self.order = order
        self.answer: tuple[int, int] | None = None
        """The position and item index of the result answering it."""
        self.result: FunctionResultContent | None = None
        """The result answering it."""


class _Pairing:
    """Which results stay, move after their call's results, or go; which calls go unanswered.

    Built over a worklist of messages (positions) in one pass. ``removed[p]`` maps an item
    index of the message at position ``p`` to what happened to it: the `_Call` it answers
    (moved after that call's results) or, dropped, whether its call was answered already
    and the call it names (``(True, "call 'x'")``).
    """

    def __init__(self, messages: Sequence[ChatMessageContent]) -> None:
        self.groups: list[_Group] = []
        self.removed: dict[int, dict[int, _Call | tuple[bool, str]]] = {}
        self._by_id: dict[str, list[_Call]] = {}  # the waiting calls of each id
        self._by_name: dict[str, list[_Call]] = {}  # the waiting calls of each name, any id
        self._made: set[tuple[bool, str]] = set()  # (True, id) and (False, name) of each call
        block: _Group | None = None  # the group whose answer block the scan is in
        for position, message in enumerate(messages):
            items = message.items
            if _answers_only(message):
                for index, item in enumerate(items):
                    if isinstance(item, FunctionResultContent):  # all are: for the types
                        self._place(item, position, index, block)
                if block is not None:
                    block.end = position
                continue
            block = None  # any other message ends the answer block
            for index, item in enumerate(items):
                if isinstance(item, FunctionResultContent):
                    self._place(item, position, index, None)
            if message.role == _ASSISTANT:
                block = self._open(message, position)

    def _open(self, message: ChatMessageContent, position: int) -> _Group | None:
        """Register an assistant message's calls as a group; ``None`` if it has none."""
        group: _Group | None = None
        for index, item in enumerate(message.items):
            if isinstance(item, FunctionCallContent):
                if group is None:
                    group = _Group(position)
                    self.groups.append(group)
                call = _Call(item, position, index, group, len(group.calls))
                group.calls.append(call)
                if item.id is not None:
                    self._by_id.setdefault(item.id, []).append(call)
                    self._made.add((True, item.id))
                self._by_name.setdefault(item.name, []).append(call)
                self._made.add((False, item.name))
        return group

    def _place(
        self, result: FunctionResultContent, position: int, index: int, block: _Group | None
    ) -> None:
        """Pair a result with the call it answers, or mark it moved or dropped."""
        call = self._match(result, block)
        if call is None:
            if result.call_id is not None:
                second = (True, result.call_id) in self._made
            else:
                second = result.name is not None and (False, result.name) in self._made
            self.removed.setdefault(position, {})[index] = (second, _orphan(result))
            return
        call.answer = (position, index)
        call.result = result
        if call.group is not block:
            call.group.extra.append((call.order, result))
            self.removed.setdefault(position, {})[index] = call

    def _match(self, result: FunctionResultContent, block: _Group | None) -> _Call | None:
        """The unanswered call a result answers, taken off the waiting lists.

        In the open answer block its earliest call of that id (or, without an id, of that
        name, whatever the call's id: Gemini pairs by name, and its readers make ids up);
        elsewhere the latest earlier one. A result with neither id nor name answers the open
        block's first unanswered call without an id.
        """
        if result.call_id is not None:
            waiting = self._by_id.get(result.call_id)
        elif result.name is not None:
            waiting = self._by_name.get(result.name)
        else:
            waiting = None
            if block is not None:
                for call in block.calls:
                    if call.result is None and call.call.id is None:
                        self._by_name[call.call.name].remove(call)
                        return call
        if not waiting:
            return None
        at = len(waiting) - 1
        while at > 0 and waiting[at - 1].group is block and block is not None:
            at -= 1
        call = waiting.pop(at)
        call_id = call.call.id
        if result.call_id is None:
            if call_id is not None:
                self._by_id[call_id].remove(call)
        else:
            self._by_name[call.call.name].remove(call)
        return call

    def answered_by_name(self) -> list[_Call]:
        """The calls with an id whose result gives none (it answers by the call's name)."""
        return [
            call
            for group in self.groups
            for call in group.calls
            if call.call.id is not None and call.result is not None and call.result.call_id is None
        ]

    def unanswered(self) -> list[_Call]:
        """The calls no result answers, in the order of the history."""
        return [call for group in self.groups for call in group.calls if call.result is None]


class _IdFault(NamedTuple):
    """Why a format refuses a call's id, as a problem and as a renaming says it."""

    problem: str
    """After the call: ``has the id of the call at messages[1].items[0]: ...``."""

    reason: str
    """After the new id: ``the call at messages[1].items[0] has its id (...)``."""

    base: str
    """What the new id is made from: the id itself, or its characters the format takes."""


def _id_faults(
    worklist: Sequence[ChatMessageContent], paths: Sequence[str], wire: WireFormat | None
) -> dict[tuple[int, int], _IdFault]:
    """Each call whose id the format refuses, by position and item: reused, or ill-formed.

    Every format but Gemini (whose writer leaves ids out) pairs by id, so an id must be
    unique; Anthropic also takes only letters, digits, ``_`` and ``-`` in one.
    """
    if not _pairs_by_id(wire):
        return {}
    if wire is None:
        label, plain, unique = "", False, "each call's id must be unique"
    else:
        rules = _RULES.get(wire.name)
        label = _label(wire)
        plain = rules is not None and rules.plain_ids
        unique = f"{label} needs each call's id to be unique"
    first: dict[str, tuple[int, int]] = {}
    faults: dict[tuple[int, int], _IdFault] = {}
    for position, message in enumerate(worklist):
        if message.role != _ASSISTANT:
            continue
        for index, item in enumerate(message.items):
            if not isinstance(item, FunctionCallContent) or item.id is None:
                continue
            call_id = item.id
            earlier = first.setdefault(call_id, (position, index))
            if plain and not _PLAIN_ID.fullmatch(call_id):
                takes = "letters, digits, '_' and '-' only"
                faults[position, index] = _IdFault(
                    f"has an id {label} refuses ({takes})",
                    f"{label} refuses its id ({takes})",
                    _NOT_PLAIN.sub("_", call_id) or "call",
                )
            elif earlier != (position, index):
                at = f"{paths[earlier[0]]}.items[{earlier[1]}]"
                faults[position, index] = _IdFault(
                    f"has the id of the call at {at}: {unique}",
                    f"the call at {at} has its id ({unique})",
                    call_id,
                )
    return faults


def _label(wire: WireFormat) -> str:
    """How messages name a format: its rules' label (``Anthropic``), else its name."""
    rules = _RULES.get(wire.name)
    return wire.name if rules is None else rules.label


def _pairs_by_id(wire: WireFormat | None) -> bool:
    """Whether a format pairs results with calls by id: all but Gemini, which writes none."""
    return wire is None or wire.name != gemini.NAME


def _by_id_reason(wire: WireFormat | None) -> str:
    """Why a result must give its call's id (``Anthropic pairs a result with its call by id``)."""
    if wire is None:
        return "a result names its call by id in every format but Gemini"
    return f"{_label(wire)} pairs a result with its call by id"


Given = dict[int, dict[int, FunctionResultContent]]
"""Results replaced, by worklist position and item index (the shape of `_Pairing.removed`)."""


def _given_ids(pairing: _Pairing) -> list[tuple[_Call, FunctionResultContent]]:
    """Each call with an id answered by name, and its result given the call's id."""
    given = []
    for call in pairing.answered_by_name():
        assert call.result is not None
        assert call.call.id is not None
        given.append((call, _with_call_id(call.result, call.call.id)))
    return given


def _with_call_ids(
    pairing: _Pairing, wire: WireFormat | None, paths: Sequence[str]
) -> tuple[Given, list[tuple[int, int, Change]]]:
    """The results answering a call by name given its id, by place, and the changes.

    A result moved after its call is replaced in its group's list as well.
    """
    given: Given = {}
    found: list[tuple[int, int, Change]] = []
    if not _pairs_by_id(wire):
        return given, found
    for call, result in _given_ids(pairing):
        assert call.answer is not None
        position, index = call.answer
        given.setdefault(position, {})[index] = result
        call.group.extra = [
            (order, result if old is call.result else old) for order, old in call.group.extra
        ]
        what = f"the id of {_call_text(call.call)} to its result: {_by_id_reason(wire)}"
        found.append((position, index, Change(f"{paths[position]}.items[{index}]", "added", what)))
    return given, found


def _replaced(
    message: ChatMessageContent, at: dict[int, FunctionResultContent]
) -> ChatMessageContent:
    """A copy of ``message`` with the items at the indexes of ``at`` replaced by its values."""
    return _with_items(message, [at.get(index, item) for index, item in enumerate(message.items)])


def _renamed_ids(
    worklist: list[ChatMessageContent], paths: Sequence[str], wire: WireFormat | None
) -> tuple[list[ChatMessageContent], list[tuple[int, int, Change]]]:
    """``worklist`` with each call id the format refuses replaced, and the changes.

    A reused id becomes ``<id>-2`` (``-3`` ...: the first suffix no item uses); an ill-formed
    one its characters the format takes (the others as ``_``), suffixed the same way if
    another item has that id. The results after the call that name its old id, up to the
    next call of that id, take the new one: those pairing gives it (a result answers the
    latest earlier call of its id). Changes come with their position and item index.
    """
    faults = _id_faults(worklist, paths, wire)
    if not faults:
        return worklist, []
    taken = {
        text
        for message in worklist
        for item in message.items
        for text in (getattr(item, "id", None), getattr(item, "call_id", None))
        if isinstance(text, str)
    }
    active: dict[str, str] = {}  # an old id -> the new id its results take from here on
    found: list[tuple[int, int, Change]] = []
    renamed = list(worklist)
    for position, message in enumerate(worklist):
        items = list(message.items)
        changed = False
        for index, item in enumerate(items):
            if isinstance(item, FunctionCallContent) and item.id is not None:
                fault = faults.get((position, index))
                if fault is None:
                    active.pop(item.id, None)  # a call of its own: its results keep the id
                    continue
                new = _free_id(fault.base, taken)
                active[item.id] = new
                what = f"{_call_text(item)} to {new!r}, with its results: {fault.reason}"
                change = Change(f"{paths[position]}.items[{index}]", "renamed", what)
                found.append((position, index, change))
                items[index] = _with_id(item, new)
                changed = True
            elif isinstance(item, FunctionResultContent) and item.call_id in active:
                items[index] = _with_call_id(item, active[item.call_id])
                changed = True
        if changed:
            renamed[position] = _with_items(message, items)
    return renamed, found


def _free_id(old: str, taken: set[str]) -> str:
    """``old`` if no item uses it, else ``<old>-2`` or the first of ``-3``, ``-4`` ... free.

    The id returned is taken from then on.
    """
    if old not in taken:
        taken.add(old)
        return old
    suffix = 2
    while f"{old}-{suffix}" in taken:
        suffix += 1
    new = f"{old}-{suffix}"
    taken.add(new)
    return new


def _with_id(call: FunctionCallContent, new: str) -> FunctionCallContent:
    changed = copy.copy(call)
    changed.id = new
    return changed


def _with_call_id(result: FunctionResultContent, new: str) -> FunctionResultContent:
    changed = copy.copy(result)
    changed.call_id = new
    return changed


def _answers_only(message: ChatMessageContent) -> bool:
    """Whether a message can stand in an answer block: a user or tool message of results."""
    items = message.items
    role = message.role
    return (
        bool(items)
        and role != _ASSISTANT
        and role not in _INSTRUCTIONS
        and all(isinstance(item, FunctionResultContent) for item in items)
    )


def _call_text(call: FunctionCallContent) -> str:
    return f"call {call.id!r} ({call.name})" if call.id is not None else f"a {call.name} call"


def _orphan(result: FunctionResultContent) -> str:
    if result.call_id is not None:
        return f"call {result.call_id!r}"
    return f"a {result.name} call" if result.name is not None else "a call without an id"


def _moved_text(call: _Call, paths: Sequence[str]) -> str:
    return (
        f"the result for {_call_text(call.call)} to follow its call "
        f"({paths[call.position]}.items[{call.item}])"
    )


# --- the public functions -----------------------------------------------------------------


def validate(history: ChatHistory, for_format: str | None = None) -> list[Problem]:
    """Return every problem a provider would meet in ``history``: pairing, order, and writing.

    Always: a result whose call is not in the message right before its results (they may be
    spread over several tool messages, in any order), a second result for one call, a call
    never answered, and, for every format but Gemini (whose writer leaves ids out), a call
    with the id of an earlier call (`Problem` errors, at the item). With ``for_format`` (a
    registered format's name) also what that format asks: for Anthropic and Gemini, a run of
    user or of assistant messages (a warning: Anthropic joins them, Gemini may refuse them),
    then every problem its writer meets (`semantic_chat.formats.validate`'s rules: what it
    refuses is an error, what it leaves out with a `ConversionWarning` a warning, such as a
    system message after the first turn). An empty list means the history is written and
    sent as it is.

    Raises:
        InvalidTypeError: ``history`` is not a `ChatHistory`.
        FormatError: ``for_format`` is not a registered format's name.
    """
    messages = _messages(history)
    wire, rules = _format(for_format)
    order = _order(messages, rules)
    paths = [f"messages[{index}]" for index in order]
    worklist = [messages[index] for index in order]
    pairing = _Pairing(worklist)
    found: list[tuple[int, int, Problem]] = []
    for position, removed in pairing.removed.items():
        for index, detail in removed.items():
            path = f"{paths[position]}.items[{index}]"
            if isinstance(detail, _Call):
                text = (
                    f"the result for {_call_text(detail.call)} is not right after its call "
                    f"({paths[detail.position]}.items[{detail.item}])"
                )
            elif detail[0]:
                text = f"a second result for {detail[1]}, which is answered already"
            else:
                text = f"a result for {detail[1]}, which no earlier call makes"
            found.append((order[position], index, Problem(path, text)))
    for call in pairing.unanswered():
        path = f"{paths[call.position]}.items[{call.item}]"
        problem = Problem(path, f"{_call_text(call.call)} has no result")
        found.append((order[call.position], call.item, problem))
    given: Given = {}  # the results answering by name, with their call's id: as written
    if _pairs_by_id(wire):
        for call, result in _given_ids(pairing):
            assert call.answer is not None
            position, index = call.answer
            given.setdefault(position, {})[index] = result
            text = f"the result for {_call_text(call.call)} gives no call id: {_by_id_reason(wire)}"
            path = f"{paths[position]}.items[{index}]"
            found.append((order[position], index, Problem(path, text)))
    for (position, index), fault in _id_faults(worklist, paths, wire).items():
        refused = worklist[position].items[index]
        assert isinstance(refused, FunctionCallContent)
        text = f"{_call_text(refused)} {fault.problem}"
        path = f"{paths[position]}.items[{index}]"
        found.append((order[position], index, Problem(path, text)))
    if rules is not None and rules.alternate:
        previous: ChatMessageContent | None = None
        for position, message in enumerate(worklist):
            if message.role in _INSTRUCTIONS and rules.instructions_first:
                continue
            if previous is not None and _same_turn(previous, message):
                text = (
                    f"a second {message.role} message in a row: {rules.label} needs user and "
                    "assistant turns to alternate"
                )
                found.append((order[position], -1, Problem(paths[position], text, "warning")))
            previous = message
    found.sort(key=lambda entry: entry[:2])
    problems = [problem for _, _, problem in found]
    if wire is not None:
        problems.extend(_writer_problems(wire, history, messages, pairing, order, given=given))
    return problems


def _writer_problems(
    wire: WireFormat,
    history: ChatHistory,
    messages: list[ChatMessageContent],
    pairing: _Pairing,
    order: list[int],
    *,
    given: Given,
) -> list[Problem]:
    """What the format's writer meets in ``history``, its orphan results left out.

    An orphan is reported once, by the pairing; written, it would also fail the writers
    that look a result's call up (Gemini, for the function's name), and the messages after
    it would then be written alone, each reported for want of the calls before it. So is a
    result answering by name: the writer meets it with its call's id (``given``, by place).
    """
    kept: dict[int, list[int]] = {}
    for position, removed in pairing.removed.items():
        dropped = [index for index, detail in removed.items() if not isinstance(detail, _Call)]
        if dropped:
            index = order[position]
            kept[index] = [i for i in range(len(messages[index].items)) if i not in dropped]
    if not kept and not given:
        return _write_problems(wire, history, None)
    probe = list(messages)
    for position, at in given.items():
        index = order[position]
        probe[index] = _replaced(probe[index], at)
    for index, indexes in kept.items():
        items = probe[index].items
        probe[index] = _with_items(probe[index], [items[i] for i in indexes])
    problems = _write_problems(wire, new_history(probe, history.options), None)

    def place(found: re.Match[str]) -> str:
        indexes = kept.get(int(found.group(1)))
        item = int(found.group(2))
        return found.group(0) if indexes is None else f"{found.group(1)}].items[{indexes[item]}]"

    return [
        attrs.evolve(problem, path=_ITEM.sub(place, problem.path, count=1))
        for problem in problems
    ]


def repair(
    history: ChatHistory, *, for_format: str | None = None
) -> tuple[ChatHistory, list[Change]]:
    """Return ``history`` made acceptable in pairing and order, and the changes made.

    Pairing, always: a result whose call is in an earlier message but not right before its
    results is moved to follow them; a result answering no earlier unanswered call (an
    orphan, or a second result for one call) is dropped; a call never answered gets an error
    result (`MISSING_RESULT`, ``is_error=True``, the call's id and name; for a format that
    has no error flag on results, ``"Error: "`` starts its text instead). Moved and added
    results go in one new tool message right after the call's own results (or the call), in
    the order of the calls; a message left without items is dropped. For every format but
    Gemini, a call with the id of an earlier call gets a new one (``<id>-2``), and so do the
    results after it that name that id (those it is answered by).

    With ``for_format`` (a registered format's name) also that format's order: for Anthropic
    and Gemini, system and developer messages after the first turn are moved to the top
    (after those already there, in order), a message of no items or a user or assistant
    message of blank text only, which the format's writer would leave out, is dropped
    (`_without_blank_turns`; Anthropic's empty last assistant message, the prefill, is kept), then
    each run of user or of assistant messages is merged into its first message (its items
    then the next one's; the first's name, id, usage and metadata kept). A message of
    results is never merged. Other formats take any order: only the pairing is repaired.

    Each `Change` is located in the history given. Nothing given is changed: unchanged
    messages are the same objects in the returned history, a changed one is a copy sharing
    the items it keeps; the returned history has the given one's ``options``. Afterwards
    `validate` finds no pairing or order problem (what a format cannot carry, such as audio
    for Anthropic, is not repaired).

    Raises:
        InvalidTypeError: ``history`` is not a `ChatHistory`.
        FormatError: ``for_format`` is not a registered format's name.
    """
    messages = _messages(history)
    wire, rules = _format(for_format)
    order = _order(messages, rules)
    changes = _moved_instructions(messages, order, rules)
    flag = wire is None or _carries_error_flag(wire)
    built = _repair_pairing(messages, order, changes, flag, wire)
    if rules is not None and rules.blank is not None:
        built = _without_blank_turns(built, rules, changes)
    if rules is not None and rules.alternate:
        built = _merge_turns(built, rules, changes)
    if rules is not None and rules.blank == "whitespace":
        built = _without_trailing_whitespace(built, rules, changes)
    return new_history([message for message, _ in built], history.options), changes


# --- helpers ------------------------------------------------------------------------------


def _messages(history: ChatHistory) -> list[ChatMessageContent]:
    """The messages of a history, refusing anything else.

    Raises:
        InvalidTypeError: ``history`` is not a `ChatHistory`.
    """
    if not isinstance(history, ChatHistory):
        raise InvalidTypeError.mismatch("history", "a ChatHistory", describe_type(history))
    return history._messages


def _format(for_format: str | None) -> tuple[WireFormat | None, _Rules | None]:
    """The format named (``None`` for none) and its ordering rules, if it has any.

    Raises:
        FormatError: no format has that name; located at ``for_format``.
    """
    if for_format is None:
        return None, None
    try:
        wire = get(for_format)
    except SemanticChatError as error:
        raise error.with_path("for_format") from None
    return wire, _RULES.get(wire.name)


def _order(messages: list[ChatMessageContent], rules: _Rules | None) -> list[int]:
    """The indexes of ``messages`` in the order the format takes them.

    Formats that want instructions first get every system and developer message after the
    first turn moved up behind those before it; others get the messages as they are.
    """
    indexes = range(len(messages))
    if rules is None or not rules.instructions_first:
        return list(indexes)
    top = []
    rest = []
    for index in indexes:
        message = messages[index]
        if message.role in _INSTRUCTIONS:
            top.append(index)
        else:
            rest.append(index)
    return top + rest


def _moved_instructions(
    messages: list[ChatMessageContent], order: list[int], rules: _Rules | None
) -> list[Change]:
    """The changes of putting instructions after the first turn at the top, as `_order` does."""
    changes: list[Change] = []
    if rules is None or not rules.instructions_first:
        return changes
    first_turn = next(
        (i for i, message in enumerate(messages) if message.role not in _INSTRUCTIONS),
        len(messages),
    )
    for index in order:  # the instructions come first in it
        role = messages[index].role
        if role not in _INSTRUCTIONS:
            break
        if index > first_turn:
            what = f"a {role} message to the top: {rules.label} takes instructions only there"
            changes.append(Change(f"messages[{index}]", "moved", what))
    return changes


def _repair_pairing(
    messages: list[ChatMessageContent],
    order: list[int],
    changes: list[Change],
    flag: bool,
    wire: WireFormat | None,
) -> list[tuple[ChatMessageContent, str | None]]:
    """The messages in ``order`` with results paired, each with its path (``None``: new).

    The changes are added to ``changes`` in the order of the history; ``flag`` says whether
    an added error result may carry ``is_error`` (else its text says it). Call ids ``wire``
    (the format, ``None`` for any) refuses are replaced first (`_renamed_ids`).
    """
    paths = [f"messages[{index}]" for index in order]
    worklist = [messages[index] for index in order]
    found: list[tuple[int, int, Change]] = []
    worklist, renamed = _renamed_ids(worklist, paths, wire)
    found.extend((order[position], index, change) for position, index, change in renamed)
    pairing = _Pairing(worklist)
    given, named = _with_call_ids(pairing, wire, paths)
    found.extend((order[position], index, change) for position, index, change in named)
    for call in pairing.unanswered():
        call.group.extra.append((call.order, _missing(call.call, flag)))
    ends = {group.end: group for group in pairing.groups if group.extra}
    built: list[tuple[ChatMessageContent, str | None]] = []
    for position, original in enumerate(worklist):
        path = paths[position]
        removed = pairing.removed.get(position)
        at = given.get(position)
        message = original if at is None else _replaced(original, at)
        if removed is None:
            built.append((message, path))
        else:
            whole = len(message.items) == 1
            for index, detail in removed.items():
                where = path if whole else f"{path}.items[{index}]"
                if isinstance(detail, _Call):
                    change = Change(where, "moved", _moved_text(detail, paths))
                else:
                    what = "a second result" if detail[0] else "an orphan result"
                    change = Change(where, "dropped", f"{what} for {detail[1]}")
                found.append((order[position], index, change))
            kept = [item for index, item in enumerate(message.items) if index not in removed]
            if kept:
                built.append((_with_items(message, kept), path))
            elif not whole:
                what = "the message, empty once its results were moved or dropped"
                change = Change(path, "dropped", what)
                found.append((order[position], len(message.items), change))
        group = ends.get(position)
        if group is not None:
            group.extra.sort(key=lambda entry: entry[0])
            results: list[KernelContent] = [result for _, result in group.extra]
            built.append((ChatMessageContent(_TOOL, items=results), None))
    for call in pairing.unanswered():
        where = f"{paths[call.position]}.items[{call.item}]"
        what = f"an error result for {_call_text(call.call)}, which was never answered"
        found.append((order[call.position], call.item, Change(where, "added", what)))
    found.sort(key=lambda entry: entry[:2])
    changes.extend(change for _, _, change in found)
    return built


def _same_turn(previous: ChatMessageContent, message: ChatMessageContent) -> bool:
    """Whether ``message`` continues ``previous``'s turn: both user or both assistant messages.

    Messages of results are turns of their own (the writers join them to the turn they
    need), so they never continue or are continued.
    """
    role = message.role
    return (
        role == previous.role
        and role in (_USER, _ASSISTANT)
        and not _answers_only(message)
        and not _answers_only(previous)
    )


def _without_blank_turns(
    built: list[tuple[ChatMessageContent, str | None]], rules: _Rules, changes: list[Change]
) -> list[tuple[ChatMessageContent, str | None]]:
    """Leave out the messages the format's writer would leave out as blank or empty.

    Such a message says nothing, and the API refuses it (an empty or whitespace-only text
    block for Anthropic, an empty text part for Gemini, an empty turn for both): the writer
    leaves it out (with a warning, but for Anthropic's empty tool message), so `repair`
    leaves it out first and says so. Anthropic's empty last assistant message, the prefill
    the API takes, is kept.
    """
    kept: list[tuple[ChatMessageContent, str | None]] = []
    last = len(built) - 1
    # Anthropic writes several instructions as text blocks, where a blank one is refused (a
    # lone one is its system string, written as it is).
    blocks = rules.blank == "whitespace" and sum(m.role in _INSTRUCTIONS for m, _ in built) > 1
    for place, (message, path) in enumerate(built):
        if (
            _is_blank_turn(message, rules) and not (
                place == last and rules.blank == "whitespace" and _is_prefill(message)
            )
        ) or (blocks and message.role in _INSTRUCTIONS and _is_blank_texts(message)):
            held = "blank text only" if message.items else "no items"
            what = f"a message of {held} ({rules.label} refuses it)"
            changes.append(Change(path or "messages", "dropped", what))
            continue
        kept.append((message, path))
    return kept


def _is_blank_texts(message: ChatMessageContent) -> bool:
    """Whether a message holds plain texts only, each empty or of whitespace (one at least)."""
    return bool(message.items) and all(
        type(item) is TextContent and not item.citations and not peek_metadata(item)
        and (not item.text or item.text.isspace())
        for item in message.items
    )


def _is_blank_turn(message: ChatMessageContent, rules: _Rules) -> bool:
    """Whether a message has no items, or holds only plain texts the format calls blank.

    Both writers leave a message of no items out (Anthropic's but as the prefill): the APIs
    refuse an empty turn (Gemini: "contents.parts must not be empty").
    """
    if not message.items:
        return message.role in (_USER, _ASSISTANT, _TOOL)
    if message.role not in (_USER, _ASSISTANT):
        return False
    for item in message.items:
        if type(item) is not TextContent or item.citations or peek_metadata(item):
            return False
        text = item.text
        if text and (rules.blank == "empty" or not text.isspace()):
            return False
    return True


def _without_trailing_whitespace(
    built: list[tuple[ChatMessageContent, str | None]], rules: _Rules, changes: list[Change]
) -> list[tuple[ChatMessageContent, str | None]]:
    """Take the trailing whitespace off a last assistant message's last text, as the writer does.

    Anthropic refuses a prefill (the last assistant message) that ends in whitespace; the
    writer takes it off with a warning, so `repair` does it first and says so.
    """
    if not built:
        return built
    message, path = built[-1]
    item = message.items[-1] if message.role == _ASSISTANT and message.items else None
    if type(item) is not TextContent or not item.text.rstrip() or item.text == item.text.rstrip():
        return built
    items = [*message.items[:-1], attrs.evolve(item, text=item.text.rstrip())]
    what = (
        f"the trailing whitespace of the last assistant message ({rules.label} refuses a "
        "prefill that ends in whitespace)"
    )
    changes.append(Change(path or "messages", "dropped", what))
    return [*built[:-1], (_with_items(message, items), path)]


def _is_prefill(message: ChatMessageContent) -> bool:
    """Whether an assistant message holds empty texts only (Anthropic's empty prefill)."""
    return message.role == _ASSISTANT and all(
        isinstance(item, TextContent) and not item.text for item in message.items
    )


def _merge_turns(
    built: list[tuple[ChatMessageContent, str | None]], rules: _Rules, changes: list[Change]
) -> list[tuple[ChatMessageContent, str | None]]:
    """Merge each run of user or of assistant messages into its first, reporting each merge.

    A run's items are gathered and its message made once, when the run ends (linear).
    """
    merged: list[tuple[ChatMessageContent, str | None]] = []
    instructions = rules.instructions_first
    last = -1  # the index in ``merged`` of the last turn (instructions skipped)
    run: list[KernelContent] | None = None  # the items of the run at ``last``, once it grows

    def close() -> None:
        if run is not None:
            first, path = merged[last]
            merged[last] = (_with_items(first, run), path)

    for message, path in built:
        if instructions and message.role in _INSTRUCTIONS:
            merged.append((message, path))
            continue
        if last >= 0 and _same_turn(merged[last][0], message):
            if run is None:
                run = list(merged[last][0].items)
            run.extend(message.items)
            what = (
                f"into {merged[last][1]}: a second {message.role} message in a row "
                f"({rules.label} needs user and assistant turns to alternate)"
            )
            changes.append(Change(path or "messages", "merged", what))
            continue
        close()
        run = None
        merged.append((message, path))
        last = len(merged) - 1
    close()
    return merged


def _with_items(message: ChatMessageContent, items: list[KernelContent]) -> ChatMessageContent:
    """A copy of ``message`` holding ``items``, with a copy of its metadata (nothing shared)."""
    changed = copy.copy(message)
    changed.items = items
    metadata = peek_metadata(message)
    changed.metadata = copy.deepcopy(dict(metadata)) if metadata else None
    return changed


def _missing(call: FunctionCallContent, flag: bool) -> FunctionResultContent:
    """The error result `repair` adds for a call never answered.

    ``is_error=True`` where the format carries it; else ``"Error: "`` starts the text, as
    OpenAI's guides have a failed call's output say.
    """
    if flag:
        return FunctionResultContent(call.id, MISSING_RESULT, name=call.name, is_error=True)
    return FunctionResultContent(call.id, ERROR_PREFIX + MISSING_RESULT, name=call.name)


@functools.cache
def _carries_error_flag(wire: WireFormat) -> bool:
    """Whether a format writes a result's ``is_error`` (tried once on a call and its result).

    A format that leaves the flag out reports it as a loss; one whose writer fails on the
    trial is taken to carry it (its own problems are `validate`'s to report).
    """
    call = FunctionCallContent("call_1", "f", "{}")
    failed = FunctionResultContent("call_1", MISSING_RESULT, name="f", is_error=True)
    trial = ChatHistory(
        [
            ChatMessageContent(_USER, "?"),
            ChatMessageContent(_ASSISTANT, items=[call]),
            ChatMessageContent(_TOOL, items=[failed]),
        ]
    )
    try:
        with collect_losses() as losses:
            wire.to_payload(trial, on_unsupported=None)
    except (SemanticChatError, ValueError):
        return True
    return not any(path.endswith(".is_error") for path, _, _ in losses)
