"""The table of wire formats: find one by name, tell which one a payload is in, convert."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import attrs

from ..errors import FormatError, describe_type
from ..history import ChatHistory
from . import documents
from .documents import refuse_stream
from .wire import OnUnsupported, as_plain

__all__ = ["WireFormat", "convert", "detect", "get", "names", "register"]


@attrs.frozen
class WireFormat:
    """A wire format: how to read and write a conversation in it, and how to recognise it."""

    name: str
    """The name used by `get`, `convert` and the command line (``openai-chat``)."""

    summary: str
    """One line saying what the format carries."""

    from_payload: Callable[[Any], ChatHistory]
    """Read a payload into a history."""

    to_payload: Callable[..., Any]
    """Write a history as a payload; takes ``on_unsupported`` as a keyword."""

    score: Callable[[Any], int]
    """How surely a payload is in this format: 0 not at all, higher is surer."""

    to_request: Callable[..., Any] | None = None
    """Write a history as a whole request body (its options and messages), for formats that
    have one; takes ``on_unsupported`` as a keyword."""


_FORMATS: dict[str, WireFormat] = {}


def register(wire_format: WireFormat) -> None:
    """Add a format (or replace the one of the same name)."""
    _FORMATS[wire_format.name] = wire_format


def names() -> list[str]:
    """The registered format names, sorted."""
    return sorted(_FORMATS)


def get(name: str) -> WireFormat:
    """Return the format called ``name``.

    Raises:
        FormatError: no format has that name; the message lists the names there are.
    """
    found = _FORMATS.get(name)
    if found is None:
        raise FormatError(f"unknown format {name!r}: expected one of {', '.join(names())}")
    return found


def detect(payload: Any) -> str:
    """Return the name of the format ``payload`` is most surely in.

    ``payload`` is a parsed value, or a provider SDK object (read as its ``model_dump``, as
    are SDK objects in a list). A
    ``str`` is a Responses input of that text, unless it is JSON text: that is refused, as
    the caller most likely meant the value it holds (parse it first, or name the format).
    A list of stream events or chunks is refused, named, before any format scores it.

    Raises:
        FormatError: no format recognises the payload, it is a ``str`` of JSON text, or it is
            a recorded stream (`documents.refuse_stream`).
    """
    if isinstance(payload, str):
        _refuse_json_text(payload)
    elif not isinstance(payload, (dict, list)) and hasattr(payload, "model_dump"):
        payload = as_plain(payload, "")
    elif isinstance(payload, list) and any(hasattr(each, "model_dump") for each in payload):
        # SDK objects in a list (``input += response.output``), scored as their dumps
        payload = [as_plain(each) if hasattr(each, "model_dump") else each for each in payload]
    refuse_stream(payload)  # its events score as Responses items
    scalar = _JSON_SCALARS.get(type(payload))
    if scalar is not None:  # no format reads it: naming one would not help
        raise FormatError(f"this is {scalar}, not a conversation (an object or a list)")
    best, best_score = None, 0
    for wire_format in _FORMATS.values():
        score = wire_format.score(payload)
        if score > best_score:
            best, best_score = wire_format.name, score
    if best is None:
        raise FormatError(
            f"cannot tell the format of this {describe_type(payload)}: "
            f"pass the source format (one of {', '.join(names())})"
        )
    return best


_JSON_SCALARS = {type(None): "null", bool: "a boolean", int: "a number", float: "a number"}
"""The JSON values no format reads, as a message names them."""


def _refuse_json_text(text: str) -> None:
    """Refuse a string that holds a JSON object or array.

    Raises:
        FormatError: it does.
    """
    stripped = text.strip()
    if stripped[:1] not in ("[", "{"):
        return
    try:
        json.loads(stripped)
    except ValueError:
        return
    raise FormatError(
        "this str is JSON text: pass the value it holds (json.loads), or name the source "
        "format to read the text itself as a message"
    )


def convert(
    payload: Any,
    source: str | None = None,
    *,
    target: str,
    on_unsupported: OnUnsupported | None = None,
    max_tokens: int | None = None,
) -> Any:
    """Read ``payload`` in ``source`` (detected when ``None``) and write it in ``target``.

    A payload whose history has request options (a request body, a Batch line holding one) is
    written as a request body of the target format (``to_request``), with what the target
    cannot carry of the options reported as below; anything else as the target's payload. A
    Batch line keeps its envelope, as ``semantic-chat convert`` writes it: a request line
    moves into the target's (an Anthropic line's ``custom_id`` becomes an OpenAI line's or a
    Gemini line's ``key``), a results line holds the reply as the target's payload.

    What the target cannot carry follows ``on_unsupported``: ``"error"`` refuses it,
    ``"warn"`` leaves it out with a `ConversionWarning`, ``"drop"`` leaves it out silently;
    by default items are refused and fields left out with a warning (each format's table in
    the README). `validate` reports every such problem at once. ``max_tokens`` goes into a
    request that has no output limit (Anthropic's Messages API requires one), as the command
    line's ``--max-tokens`` and `validate`'s do.

    Raises:
        FormatError: the payload cannot be read, or a name is unknown.
        UnsupportedContentError: the target format cannot carry something in the payload.
    """
    writer = get(target)
    unwrapped = documents.unwrap(as_plain(payload) if hasattr(payload, "model_dump") else payload)
    if unwrapped.path:  # a Batch line keeps its envelope, as the command line writes it
        body = unwrapped.body
        try:
            history = get(source if source is not None else detect(body)).from_payload(body)
        except FormatError as error:
            raise error.at(unwrapped.path) from None
        _give_max_tokens(history, payload, max_tokens)
        request = documents.writes_request(payload, body, history)
        return unwrapped.wrap(_written(writer, history, request, on_unsupported), target)
    reader = get(source if source is not None else detect(payload))
    history = reader.from_payload(payload)
    _give_max_tokens(history, payload, max_tokens)
    return _written(writer, history, history.options is not None, on_unsupported)


def _give_max_tokens(history: ChatHistory, payload: Any, max_tokens: int | None) -> None:
    """``max_tokens`` into a request read without a limit (`validation.give_max_tokens`)."""
    if max_tokens is not None:
        from .validation import give_max_tokens  # noqa: PLC0415 - it imports this module

        give_max_tokens(history, payload, max_tokens)


def _written(
    writer: WireFormat, history: ChatHistory, request: bool, on_unsupported: OnUnsupported | None
) -> Any:
    """``history`` as ``writer``'s request body (when ``request`` and it has one) or payload."""
    if request and writer.to_request is not None:
        # A request body (or a Batch line holding one) stays a request body, options kept.
        return writer.to_request(history, on_unsupported=on_unsupported)
    return writer.to_payload(history, on_unsupported=on_unsupported)
