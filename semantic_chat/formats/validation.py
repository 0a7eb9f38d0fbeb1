"""Checking a payload the way `convert` would, and reporting every problem, not the first.

Reading goes message by message (item by item in a Responses input, content by content
in a Gemini ``contents`` list) once the whole document fails, so each bad message is
reported with its location. Then the history is written in the target format (the source
format itself when no target is given: what ``convert`` to the same format does) with
every loss recorded instead of raised: what the writer would refuse is an error, what it
would leave out with a warning is a warning.
"""

from __future__ import annotations

import re
from typing import Any, Literal, NamedTuple

import attrs

from ..errors import SemanticChatError
from ..history import ChatHistory
from .documents import unwrap
from .registry import WireFormat, detect, get
from .wire import OnUnsupported, collect_losses, policy

__all__ = ["Checked", "Problem", "check", "validate"]

Severity = Literal["error", "warning"]

_LISTS = ("messages", "input", "output", "contents")
"""The keys of a document object whose list is read one element at a time."""

_FIRST = re.compile(r"^(.*?\b(?:messages|input|contents))\[0\]")


@attrs.frozen
class Problem:
    """One problem found in a payload: where, what, and whether converting would fail on it."""

    path: str
    """Where: ``messages[3].content[1].type`` in the payload read, or ``messages[1].items[0]``
    in the history written (the target's rules)."""

    message: str
    """What is wrong, without the location."""

    severity: Severity = "error"
    """``"error"``: reading or converting fails on it; ``"warning"``: converting leaves
    something out with a `ConversionWarning`."""

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


def validate(
    payload: Any,
    format: str | None = None,
    *,
    target: str | None = None,
    on_unsupported: OnUnsupported | None = None,
    max_tokens: int | None = None,
) -> list[Problem]:
    """Return every problem `convert` would meet reading ``payload`` and writing it in ``target``.

    ``format`` is the payload's format (detected when ``None``); ``target`` defaults to it, so
    a document is checked against the rules of its own format as well. ``on_unsupported`` is
    what the conversion would be given: by default items the target cannot carry are errors
    and fields it leaves out are warnings. ``max_tokens`` is the output token limit a request
    that gives none would be written with (Anthropic requires one), as ``semantic-chat
    convert --max-tokens`` gives it. An empty list means the conversion succeeds without a
    warning.

    Raises:
        FormatError: ``format`` or ``target`` is not a registered format's name.
        InvalidValueError: ``on_unsupported`` is not one of its values.
    """
    return check(
        payload, format, target=target, on_unsupported=on_unsupported, max_tokens=max_tokens
    ).problems


class Checked(NamedTuple):
    """What `check` found: the format read (``None`` if unknown), the history, the problems."""

    format: str | None
    history: ChatHistory | None
    problems: list[Problem]


def check(
    payload: Any,
    format: str | None = None,
    *,
    target: str | None = None,
    on_unsupported: OnUnsupported | None = None,
    max_tokens: int | None = None,
) -> Checked:
    """`validate`, also returning the format and the history read (for a summary).

    The history's options get ``max_tokens`` when they have none, as the conversion would.

    Raises:
        FormatError: ``format`` or ``target`` is not a registered format's name.
        InvalidValueError: ``on_unsupported`` is not one of its values.
    """
    on_unsupported = policy(on_unsupported)
    writer = get(target) if target is not None else None
    if format is None:
        try:
            format = detect(payload)
        except SemanticChatError as error:
            return Checked(None, None, [_problem(error)])
    reader = get(format)
    try:
        with collect_losses() as losses:  # what reading leaves out (a response's other
            history = reader.from_payload(payload)  # candidates ...)
    except (SemanticChatError, ValueError) as error:
        first = _problem(error)
        problems = _read_problems(reader, payload)
        return Checked(format, None, problems if first in problems else [first, *problems])
    options = history.options
    if max_tokens is not None and options is not None and options.max_tokens is None:
        options.max_tokens = max_tokens
    read = [
        Problem(path, detail, "error" if action == "error" else "warning")
        for path, detail, action in losses
    ]
    written = _write_problems(writer or reader, history, on_unsupported)
    return Checked(format, history, read + written)


def _problem(error: Exception, severity: Severity = "error") -> Problem:
    if isinstance(error, SemanticChatError):
        return Problem(error.path, error.detail, severity)
    return Problem("", str(error), severity)


def _pieces(payload: Any) -> tuple[list[Any], Any] | None:
    """The list a document is made of, and how to make a document of one of its elements."""
    if isinstance(payload, list):
        return payload, lambda element: [element]
    if isinstance(payload, dict):
        for key in _LISTS:
            elements = payload.get(key)
            if isinstance(elements, list):
                return elements, lambda element, key=key: {**payload, key: [element]}
    return None


def _relocate(path: str, index: int) -> str:
    """Move a path found in a one-element document to the element's place in the whole."""
    return _FIRST.sub(lambda found: f"{found.group(1)}[{index}]", path, count=1)


def _under(prefix: str, path: str) -> str:
    if not prefix:
        return path
    if not path or path.startswith("["):
        return prefix + path
    return f"{prefix}.{path}"


def _read_problems(reader: WireFormat, payload: Any) -> list[Problem]:
    """Read each element of the document (a Batch line's body) alone; return the problems."""
    try:
        body, prefix, _ = unwrap(payload)
    except (SemanticChatError, ValueError):
        return []
    pieces = _pieces(body)
    if pieces is None:
        return []
    elements, alone = pieces
    problems = []
    for index, element in enumerate(elements):
        try:
            reader.from_payload(alone(element))
        except (SemanticChatError, ValueError) as error:
            found = _problem(error)
            found = attrs.evolve(found, path=_under(prefix, _relocate(found.path, index)))
            if found not in problems:  # a problem outside the list, met with every element
                problems.append(found)
    return problems


def _write_problems(
    writer: WireFormat, history: ChatHistory, on_unsupported: OnUnsupported | None
) -> list[Problem]:
    """Write the history with every loss recorded; message by message if writing fails."""
    try:
        return _write_all(writer, history, on_unsupported, None)
    except (SemanticChatError, ValueError) as error:
        whole = _problem(error)
    problems = []
    for index, message in enumerate(history.messages):
        try:
            problems.extend(_write_all(writer, ChatHistory([message]), on_unsupported, index))
        except (SemanticChatError, ValueError) as error:
            found = _problem(error)
            problems.append(attrs.evolve(found, path=_relocate(found.path, index)))
    if not any(problem.severity == "error" for problem in problems):
        problems.insert(0, whole)  # no message is at fault: the request is (no max_tokens)
    return problems


def _write_all(
    writer: WireFormat,
    history: ChatHistory,
    on_unsupported: OnUnsupported | None,
    index: int | None,
) -> list[Problem]:
    write = writer.to_payload
    if history.options is not None and writer.to_request is not None:
        write = writer.to_request  # as `convert` does: the options' losses are checked too
    with collect_losses() as losses:
        write(history, on_unsupported=on_unsupported)
    return [
        Problem(
            path if index is None else _relocate(path, index),
            detail,
            "error" if action == "error" else "warning",
        )
        for path, detail, action in losses
    ]
