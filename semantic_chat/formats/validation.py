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

from ..errors import FormatError, SemanticChatError
from ..history import ChatHistory
from ..options import ChatOptions
from .documents import kind_of, unwrap
from .registry import WireFormat, detect, get
from .wire import OnUnsupported, collect_losses, policy

__all__ = [
    "Checked",
    "Problem",
    "check",
    "check_batch_model",
    "failed_request",
    "give_max_tokens",
    "validate",
]

Severity = Literal["error", "warning"]

_LISTS = ("messages", "input", "output", "contents")
"""The keys of a document object whose list is read one element at a time."""

_MODEL_LINES = {
    "anthropic": ("an Anthropic Message Batches line", "params.model"),
    "openai-chat": ("an OpenAI Batch line", "body.model"),
    "openai-responses": ("an OpenAI Batch line", "body.model"),
}
"""The targets whose Batch request line must name a model, the line and where it goes (a
Gemini line need not: a Gemini batch job names its model)."""

_REQUEST_LINES = frozenset(("batch_input", "anthropic_batch", "gemini_batch"))
"""The kinds of Batch request line (input line), whose body is a request."""

_LIMITED = frozenset((
    "chat_request", "responses_request", "anthropic_request", "gemini_request"
))
"""The request bodies a token limit is given to; a fine-tuning line, no API's request, is not."""

_NO_REPLY = frozenset(("errored", "canceled", "expired"))
"""The types of an Anthropic Message Batches result that has no message."""

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
            format = _body_format(payload)
            if format is None:
                return _no_reply(payload, None) or Checked(None, None, [_problem(error)])
    reader = get(format)
    prefix = ""
    try:
        with collect_losses() as losses:  # what reading leaves out (a response's other
            history = reader.from_payload(payload)  # candidates ...)
    except (SemanticChatError, ValueError) as error:
        # A Batch line of another provider's envelope (as `convert --to` writes one: an
        # OpenAI Batch line of this library's JSON) is read by its body, as `convert` reads it.
        read_body = _read_body(reader, payload)
        if read_body is None:
            no_reply = _no_reply(payload, format)
            if no_reply is not None:
                return no_reply
            first = _problem(error)
            if "[" not in first.path:  # the reader refused the whole document: no element alone
                return Checked(format, None, [first])
            problems = _read_problems(reader, payload)
            return Checked(format, None, problems if first in problems else [first, *problems])
        history, losses, prefix = read_body
    give_max_tokens(history, payload, max_tokens)
    read = [
        Problem(_under(prefix, path), detail, "error" if action == "error" else "warning")
        for path, detail, action in losses
    ]
    try:
        check_batch_model(payload, history, target or format)
    except FormatError as error:
        read.append(_problem(error))
    written = _write_problems(writer or reader, history, on_unsupported)
    return Checked(format, history, read + written)


def give_max_tokens(history: ChatHistory, document: Any, max_tokens: int | None) -> None:
    """Give a request read without an output limit ``max_tokens`` (``--max-tokens``).

    A request with options gets it in them; a request body read without options (a Gemini
    body, which names no model, alone or in a Batch line) gets options holding only it, so
    the target's request carries it. A fine-tuning line (messages, no model) is left alone.
    """
    if max_tokens is None:
        return
    options = history.options
    if options is not None:
        if options.max_tokens is None:
            options.max_tokens = max_tokens
        return
    if kind_of(unwrap(document).body) in _LIMITED:
        history.options = ChatOptions(max_tokens=max_tokens)


def failed_request(document: Any) -> str | None:
    """Say what a Batch results line of a request that got no reply says; else ``None``.

    Results files routinely hold them: an Anthropic ``errored``, ``canceled`` or ``expired``
    result, a Gemini ``{"key", "error"}`` line, an OpenAI line with an ``error`` (or an error
    as its body). A line that is none of these, or has no error object, is left to the reader
    (it is malformed, and reading says where). Said as ``request r0: expired`` or
    ``request r1: errored: invalid_request_error: max_tokens: Field required``.
    """
    kind = kind_of(document)
    if kind == "anthropic_batch_result":
        result = document["result"]
        if result.get("type") not in _NO_REPLY or isinstance(result.get("message"), (dict, list)):
            return None
        error = result.get("error")
        inner = error.get("error") if isinstance(error, dict) else None
        why = _words(result.get("type"), *_error_words(inner, "type"))
        return f"request {document.get('custom_id')}: {why}"
    if kind == "gemini_batch_result":
        if isinstance(document.get("response"), (dict, list)):
            return None
        error = document.get("error", document.get("status"))
        if not isinstance(error, dict):
            return None
        why = _words("failed", *_error_words(error, "status"))
        return f"request {document.get('key')}: {why}"
    if kind == "batch_output":
        return _failed_output(document)
    return None


def _failed_output(document: dict[str, Any]) -> str | None:
    """`failed_request` for an OpenAI Batch output line."""
    response = document.get("response")
    body = response.get("body") if isinstance(response, dict) else None
    error = document.get("error")
    if isinstance(body, dict) and set(body) == {"error"}:
        error = body["error"]
    elif isinstance(body, (dict, list)) or not isinstance(error, dict):
        return None
    status = response.get("status_code") if isinstance(response, dict) else None
    failed = f"failed (status {status})" if isinstance(status, int) else "failed"
    return f"request {document.get('custom_id')}: {_words(failed, *_error_words(error, 'code'))}"


def _error_words(error: Any, kind_key: str) -> tuple[Any, Any]:
    """An API error object's kind (its ``kind_key``) and message, ``None`` where missing."""
    if not isinstance(error, dict):
        return None, None
    return error.get(kind_key), error.get("message")


def _words(*parts: Any) -> str:
    """The parts that are text or numbers, joined by ``: `` (``errored: overloaded: busy``)."""
    return ": ".join(str(part) for part in parts if isinstance(part, (str, int)) and part != "")


def check_batch_model(document: Any, history: ChatHistory, target: str) -> None:
    """Refuse a Batch request line that would be written for ``target`` without a model.

    Anthropic's Message Batches and OpenAI's Batch API take a model in every line, and a
    Gemini Batch line has none (its job names it): such a line converted to theirs is one
    their API refuses. A cheap check: the document's kind, then the options.

    Raises:
        FormatError: ``document`` is a Batch request line, ``target`` needs a model and the
            history read from it has none; located at the line's request.
    """
    needs = _MODEL_LINES.get(target)
    if needs is None or (history.options is not None and history.options.model is not None):
        return
    kind = kind_of(document)
    if kind not in _REQUEST_LINES:
        return
    line, field = needs
    where = {"batch_input": "body", "anthropic_batch": "params"}.get(kind, "request")
    raise FormatError(
        f"the source names no model, and {line} needs one ({field}): add \"model\" to the "
        f"line's {where} (no option gives one)",
        path=where,
    )


def _no_reply(payload: Any, format: str | None) -> Checked | None:
    """A results line of a request that got no reply: a warning, not an error of the file.

    Such lines are normal in a results file; converting stops at one (nothing to convert),
    so it is worth a word.
    """
    failed = failed_request(payload)
    if failed is None:
        return None
    return Checked(format, None, [Problem("", f"no reply to convert: {failed}", "warning")])


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


def _body_format(payload: Any) -> str | None:
    """The format of a Batch line's body, when the line is one (``None`` when it is not)."""
    try:
        body, prefix, _ = unwrap(payload)
        return detect(body) if prefix else None
    except (SemanticChatError, ValueError):
        return None


def _read_body(
    reader: WireFormat, payload: Any
) -> tuple[ChatHistory, list[tuple[str, str, str]], str] | None:
    """A Batch line's body read alone: the history, what reading left out, the body's path.

    ``None`` when ``payload`` is no Batch line, or its body does not read either.
    """
    try:
        body, prefix, _ = unwrap(payload)
    except (SemanticChatError, ValueError):
        return None
    if not prefix:
        return None
    try:
        with collect_losses() as losses:
            history = reader.from_payload(body)
    except (SemanticChatError, ValueError):
        return None
    return history, list(losses), prefix


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
