"""Chat Completions documents: request bodies, fine-tuning lines, responses and Batch lines.

`from_request` reads a request body's ``messages`` into the history and its other fields
into ``history.options`` (`semantic_chat.ChatOptions`); `to_request` writes them back.
`from_payload` takes a ``messages`` list or any of these documents, told apart by their keys.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ...errors import FormatError
from ...history import ChatHistory
from ...message import ChatMessageContent
from ...trusted import new_history
from .. import documents
from ..request_fields import (
    check_tool_names,
    options_from,
    report_options_metadata,
    request_messages,
    write_extra,
    write_tool_settings,
)
from ..wire import OnUnsupported, as_plain
from . import reading, writing
from .shared import FORMAT, HINTS

__all__ = ["from_payload", "from_request", "to_payload", "to_request"]

_RENAMED = {"max_completion_tokens": "max_tokens"}


def from_payload(payload: Any) -> ChatHistory:
    """Read a ``messages`` list, or a whole Chat Completions document, into a history.

    A document is a request body or fine-tuning line (`from_request`), a ``chat.completion``
    (its first choice, as `from_response` reads it, makes a one-message history), or an
    OpenAI Batch input or output line holding one of those (its ``custom_id`` is not kept:
    the command line keeps the envelope).

    Raises:
        FormatError: a malformed message or document; the message names the location, e.g.
            ``body.messages[3].content[1].type`` in a Batch line.
    """
    if isinstance(payload, (list, tuple)) or (
        not isinstance(payload, (dict, str, bytes)) and not hasattr(payload, "model_dump")
    ):
        documents.refuse_stream(payload)  # a list of events is no conversation
        return reading.from_payload(payload)
    document = as_plain(payload, "") if not isinstance(payload, (str, bytes)) else payload
    documents.refuse_stream(document)  # one event of a stream, saved alone
    kind = documents.kind_of(document)
    if documents.holds_openai_body(document, kind):
        history: ChatHistory = documents.read_enveloped(document, from_payload)
        return history
    if kind in ("chat_request", "fine_tuning"):
        return from_request(document)
    if kind == "chat_response":
        return new_history([reading.from_response(document)])
    expected = "a list of messages or a Chat Completions document"
    if kind is None:
        documents.refuse_own_document(document, "messages", expected)
        return reading.from_payload(document)  # refuses it as it refuses any non-list
    raise FormatError.mismatch("messages", expected, documents.KIND_NAMES[kind])


def from_request(body: Any) -> ChatHistory:
    """Read a ``chat.completions.create`` request body (or a fine-tuning line).

    ``messages`` become the history's messages; ``model``, ``tools``, ``tool_choice``,
    ``parallel_tool_calls``, ``temperature``, ``top_p``, ``max_completion_tokens`` (or the
    older ``max_tokens``, remembered so that it is written back under that name),
    ``reasoning_effort``, ``stop``, ``seed`` and the penalties become ``history.options``;
    every other field is kept in ``options.extra``.

    Raises:
        FormatError: the body is not an object, has no ``messages`` list, a field holds
            the wrong type, or a function tool has no ``str`` name; the message names the
            field (``temperature: expected a number or None, got str``,
            ``tools[0].function: missing 'name'``) or the message (``messages[2].role``).
    """
    plain, messages = request_messages(body)
    fields = {key: value for key, value in plain.items() if key != "messages"}
    renamed = dict(_RENAMED)
    legacy = "max_tokens" in fields and "max_completion_tokens" not in fields
    check_tool_names(fields.get("tools"))
    options = options_from(fields, renamed)
    if options is not None and legacy:
        options.metadata = {HINTS: {"max_tokens": True}}
    history = reading.from_payload(messages)
    history.options = options
    return history


def to_request(
    history: Iterable[ChatMessageContent] | ChatHistory,
    *,
    on_unsupported: OnUnsupported | None = None,
) -> dict[str, Any]:
    """Write a history as a ``chat.completions.create`` request body.

    ``model`` comes first, then ``messages``, then the options in Chat Completions' names
    (``max_tokens`` as ``max_completion_tokens``, tools and tool choice nested under
    ``function``). A history without a model (a fine-tuning line) is written without one.
    Responses' ``text`` becomes ``response_format`` (from ``text.format``) and ``verbosity``.
    A Responses, Anthropic or Gemini field in ``options.extra`` (``include``, ``thinking``,
    ``safety_settings`` ...) or a hosted tool (Gemini's ``google_search`` ...) is reported as
    ``on_unsupported`` says (by default left out with a warning); Gemini's function
    declarations become function tools.

    Raises:
        UnsupportedContentError: something is left out and ``on_unsupported`` is
            ``"error"`` (or an item the format cannot carry, as `to_payload` says).
    """
    options = history.options if isinstance(history, ChatHistory) else None
    body: dict[str, Any] = {}
    if options is not None and options.model is not None:
        body["model"] = options.model
    body["messages"] = writing.to_payload(history, on_unsupported=on_unsupported)
    if options is None:
        return body
    hints = report_options_metadata(options, HINTS, FORMAT, on_unsupported)
    write_tool_settings(body, options, True, FORMAT, on_unsupported)
    for name in ("temperature", "top_p"):
        value = getattr(options, name)
        if value is not None:
            body[name] = value
    if options.max_tokens is not None:
        key = "max_tokens" if hints.get("max_tokens") else "max_completion_tokens"
        body[key] = options.max_tokens
    for name in ("reasoning_effort", "stop", "seed", "frequency_penalty", "presence_penalty"):
        value = getattr(options, name)
        if value is not None:
            body[name] = value
    write_extra(body, options, "chat", FORMAT, on_unsupported)
    return body


def to_payload(
    history: Iterable[ChatMessageContent] | ChatMessageContent,
    *,
    on_unsupported: OnUnsupported | None = None,
) -> list[dict[str, Any]]:
    """Write a history, or one message, as a Chat Completions ``messages`` list.

    See `semantic_chat.formats.openai_chat.writing.to_payload`; a lone message is written as
    a history of that message (a tool message of several results gives several messages).
    The history's options are not part of a ``messages`` list: `to_request` writes them.

    Raises:
        UnsupportedContentError: what `writing.to_payload` raises.
        FormatError: a role the format does not have.
    """
    if isinstance(history, ChatMessageContent):
        history = [history]
    return writing.to_payload(history, on_unsupported=on_unsupported)
