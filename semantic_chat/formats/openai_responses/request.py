"""Responses documents: request bodies, ``response`` objects and Batch lines.

`from_request` reads a request body's ``instructions`` and ``input`` into the history and its
other fields into ``history.options`` (`semantic_chat.ChatOptions`); `to_request` writes them
back. `from_payload` takes an ``input`` (a string or a list of items) or any of these
documents, told apart by their keys.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ...errors import FormatError, describe_type
from ...history import ChatHistory
from ...message import ChatMessageContent
from ...options import ChatOptions
from ...trusted import new_history
from .. import documents
from ..request_fields import (
    check_tool_names,
    options_from,
    report_options_metadata,
    write_extra,
    write_tool_settings,
)
from ..wire import OnUnsupported, as_plain, require, unsupported_field
from . import reading, writing
from .shared import FORMAT, HINTS

__all__ = ["from_payload", "from_request", "to_payload", "to_request"]

_RENAMED = {"max_output_tokens": "max_tokens"}
_CHAT_ONLY = ("stop", "seed", "frequency_penalty", "presence_penalty")


def from_payload(payload: Any, instructions: str | None = None) -> ChatHistory:
    """Read an ``input`` (a string or a list of items), or a whole Responses document.

    A document is a request body (`from_request`), a ``response`` object (read by
    `from_response` into a one-message history), or an OpenAI Batch input or output line
    holding one of those. ``instructions`` applies to an ``input`` only.

    Raises:
        FormatError: a malformed item or document; the message names the location, e.g.
            ``body.input[2].content[0].type`` in a Batch line.
    """
    if isinstance(payload, (str, list, tuple, bytes)) or (
        not isinstance(payload, dict) and not hasattr(payload, "model_dump")
    ):
        documents.refuse_stream(payload)  # a list of events is no conversation
        return reading.from_payload(payload, instructions)
    document = as_plain(payload, "")
    documents.refuse_stream(document)  # one event of a stream, saved alone
    kind = documents.kind_of(document)
    if documents.holds_openai_body(document, kind):
        history: ChatHistory = documents.read_enveloped(document, from_payload)
        return history
    if kind == "responses_request":
        return from_request(document)
    if kind == "responses_response":
        return new_history([reading.from_response(document)])
    expected = "a string or a list of items or a Responses document"
    if kind is None:
        documents.refuse_own_document(document, "input", expected)
        return reading.from_payload(document)  # refuses it as it refuses any non-list
    raise FormatError.mismatch("input", expected, documents.KIND_NAMES[kind])


def from_request(request: Any) -> ChatHistory:
    """Read a ``responses.create`` request body.

    ``instructions`` become a leading system message (marked so that `to_request` puts them
    back), ``input`` the messages (a request may have none: a stored ``prompt``'s, or one that
    continues a ``previous_response_id``; it is written back without one); ``model``,
    ``tools``, ``tool_choice``, ``parallel_tool_calls``, ``temperature``, ``top_p``,
    ``max_output_tokens`` (as ``max_tokens``) and ``reasoning.effort`` (as
    ``reasoning_effort``) become ``history.options``; every other field (``store``,
    ``include``, the rest of ``reasoning`` ...) is kept in ``options.extra``.

    Raises:
        FormatError: the request or one of its items is malformed, a field holds the wrong
            type (``temperature: expected a number or None, got str``), or a function tool
            has no ``str`` name (``tools[0].name``).
    """
    body = as_plain(request, "request")
    if type(body) is not dict:
        raise FormatError.mismatch("request", "a request object", describe_type(body))
    instructions = body.get("instructions")
    if instructions is not None and not isinstance(instructions, str):
        raise FormatError.mismatch("request.instructions", "str", describe_type(instructions))
    # No input: a stored prompt's request (``prompt``), or one that continues a conversation
    # (``previous_response_id``, ``conversation``) with nothing new; none is written back.
    items = require(body, "input", (str, list), "request") if "input" in body else []
    fields = {key: value for key, value in body.items() if key not in ("input", "instructions")}
    reasoning = fields.get("reasoning")
    if isinstance(reasoning, dict) and isinstance(reasoning.get("effort"), str):
        rest = {key: value for key, value in reasoning.items() if key != "effort"}
        fields = {key: value for key, value in fields.items() if key != "reasoning"}
        fields["reasoning_effort"] = reasoning["effort"]
        if rest:
            fields["reasoning"] = rest
    check_tool_names(fields.get("tools"))
    options = options_from(fields, _RENAMED)
    if "input" not in body:
        options = options if options is not None else ChatOptions()
        options.metadata = {**(options.metadata or {}), HINTS: {"no_input": True}}
    history = reading.from_payload(items, instructions)
    history.options = options
    return history


def to_request(
    history: Iterable[ChatMessageContent] | ChatHistory,
    *,
    on_unsupported: OnUnsupported | None = None,
) -> dict[str, Any]:
    """Write a history as a ``responses.create`` request body.

    ``model`` comes first, then ``instructions`` (a leading system message read from them)
    and ``input`` (a string when it was read from one), then the options in Responses' names
    (``max_tokens`` as ``max_output_tokens``, ``reasoning_effort`` as ``reasoning.effort``,
    tools and tool choice flat; Gemini's function declarations as function tools; Chat
    Completions' ``response_format`` and ``verbosity`` as ``text.format`` and
    ``text.verbosity``; ``stream_options`` without Chat's ``include_usage``, left out in
    silence since a Responses stream always reports usage). ``stop``, ``seed``, the
    penalties, Chat Completions, Anthropic and Gemini fields in ``options.extra`` (``n``,
    ``safety_settings``, a ``response_format`` no ``text.format`` fits ...) and the other
    providers' own tools (``google_search`` ...) are reported as ``on_unsupported`` says (by
    default left out with a warning).

    Raises:
        UnsupportedContentError: something is left out and ``on_unsupported`` is
            ``"error"`` (or an item the format cannot carry, as `to_payload` says).
    """
    options = history.options if isinstance(history, ChatHistory) else None
    body: dict[str, Any] = {}
    if options is not None and options.model is not None:
        body["model"] = options.model
    body.update(writing.to_request(history, on_unsupported=on_unsupported))
    if options is None:
        return body
    if report_options_metadata(options, HINTS, FORMAT, on_unsupported).get("no_input") and (
        body.get("input") == []
    ):
        del body["input"]  # read without one, and still none
    write_tool_settings(body, options, False, FORMAT, on_unsupported)
    for name in ("temperature", "top_p"):
        value = getattr(options, name)
        if value is not None:
            body[name] = value
    if options.max_tokens is not None:
        body["max_output_tokens"] = options.max_tokens
    reasoning = options.extra.get("reasoning")
    if options.reasoning_effort is not None:
        rest = reasoning if isinstance(reasoning, dict) else {}
        body["reasoning"] = {"effort": options.reasoning_effort, **rest}
    elif "reasoning" in options.extra:
        body["reasoning"] = reasoning
    for name in _CHAT_ONLY:
        if getattr(options, name) is not None:
            unsupported_field(on_unsupported, FORMAT, f"options.{name}", f"the option {name!r}")
    write_extra(body, options, "responses", FORMAT, on_unsupported, _is_reasoning)
    return body


def _is_reasoning(key: str) -> bool:
    return key == "reasoning"


def to_payload(
    history: Iterable[ChatMessageContent] | ChatMessageContent,
    *,
    on_unsupported: OnUnsupported | None = None,
) -> list[dict[str, Any]]:
    """Write a history, or one message, as a Responses ``input`` list.

    See `semantic_chat.formats.openai_responses.writing.to_payload`. The history's options
    and instructions are not part of an ``input`` list: `to_request` writes them.

    Raises:
        UnsupportedContentError: what `writing.to_payload` raises.
        FormatError: a role the format does not have.
    """
    if isinstance(history, ChatMessageContent):
        history = [history]
    return writing.to_payload(history, on_unsupported=on_unsupported)
