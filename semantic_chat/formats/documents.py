"""Whole API documents: request bodies, responses, Batch lines and fine-tuning lines.

People keep conversations in the documents the APIs take and give: a Chat Completions or
Responses request body, a ``chat.completion`` or ``response`` object, a line of an OpenAI
Batch input file (``{"custom_id", "method", "url", "body"}``) or output file
(``{"custom_id", "response": {"body"}}``), a line of a fine-tuning file (``{"messages",
"tools", "parallel_tool_calls"}``); and for Anthropic a Messages request body, a ``message``
response, and a line of a Message Batches request (``{"custom_id", "params"}``) or results
file (``{"custom_id", "result": {"type", "message"}}``); and for Gemini a ``generateContent``
request (a REST body, or the SDK's ``{"model", "contents", "config"}``), a
``GenerateContentResponse``, and a line of a Batch API input file (``{"key", "request"}``) or
output file (``{"key", "response"}``). `kind_of` tells which one a dict is; `unwrap` takes a
Batch line apart into its body and a function that puts a converted body back into an
envelope for the target: an input line's ``url`` names the target's endpoint, and an input
line moves between OpenAI's envelope, Anthropic's ``params`` one and Gemini's ``request`` one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, NamedTuple

from ..errors import FormatError, SemanticChatError
from ..history import ChatHistory
from ..serialization import from_dict
from .request_fields import is_anthropic_tool

__all__ = [
    "ENDPOINTS",
    "KIND_NAMES",
    "OWN_DOCUMENT",
    "RESULT_LINES",
    "Kind",
    "Unwrapped",
    "holds_list_reply",
    "holds_openai_body",
    "is_own_document",
    "is_request",
    "kind_of",
    "read_enveloped",
    "refuse_stream",
    "stream_of",
    "unwrap",
    "without_none",
    "writes_request",
]

Kind = Literal[
    "chat_request",
    "fine_tuning",
    "chat_response",
    "responses_request",
    "responses_response",
    "batch_input",
    "batch_output",
    "anthropic_request",
    "anthropic_response",
    "anthropic_batch",
    "anthropic_batch_result",
    "gemini_request",
    "gemini_response",
    "gemini_batch",
    "gemini_batch_result",
]

ENDPOINTS = {"openai-chat": "/v1/chat/completions", "openai-responses": "/v1/responses"}
"""The Batch ``url`` of each format's endpoint."""

RESULT_LINES = frozenset(("batch_output", "anthropic_batch_result", "gemini_batch_result"))
"""The kinds of Batch results lines: each holds a reply, never a request."""

KIND_NAMES: dict[str, str] = {
    "chat_request": "a Chat Completions request",
    "fine_tuning": "a Chat Completions fine-tuning line",
    "chat_response": "a Chat Completions response",
    "responses_request": "a Responses request",
    "responses_response": "a Responses response",
    "batch_input": "an OpenAI Batch input line",
    "batch_output": "an OpenAI Batch output line",
    "anthropic_request": "an Anthropic Messages request",
    "anthropic_response": "an Anthropic Messages response",
    "anthropic_batch": "an Anthropic Message Batches request line",
    "anthropic_batch_result": "an Anthropic Message Batches result line",
    "gemini_request": "a Gemini generateContent request",
    "gemini_response": "a Gemini response",
    "gemini_batch": "a Gemini Batch request line",
    "gemini_batch_result": "a Gemini Batch result line",
}
"""Each kind of document in words, for an error that says what a reader got instead."""

_REQUESTS = frozenset((
    "chat_request", "fine_tuning", "responses_request", "anthropic_request", "gemini_request"
))

ANTHROPIC = "anthropic"
"""The name of the Anthropic Messages format, whose Batch lines have their own envelope."""

GEMINI = "gemini"
"""The name of the Gemini format, whose Batch lines have their own envelope too."""

_ANTHROPIC_BODY_KEYS = ("system", "stop_sequences", "anthropic_version")
"""Keys that make a ``messages`` body an Anthropic one: no OpenAI body has them (``top_k`` and
``thinking`` are left to `semantic_chat.formats.scoring`: OpenAI-compatible servers take them).
Its ``tools`` and ``tool_choice`` can be as sure: see `_has_anthropic_tools`."""

_ANTHROPIC_CHOICES = frozenset(("any", "tool"))
"""``tool_choice`` types only Anthropic has (OpenAI's are strings, or ``function`` ...)."""


_GEMINI_RESULT_KEYS = ("response", "error", "status")
"""What a Gemini Batch output line holds beside its ``key``: the response, or why it failed."""

_GEMINI_PROMPT_FEEDBACK = ("promptFeedback", "prompt_feedback")
"""A Gemini response whose prompt was blocked has this and no ``candidates``."""


def kind_of(document: Any) -> Kind | None:
    """Which API document ``document`` is, or ``None`` for anything else (a list, a history)."""
    if type(document) is not dict:
        return None
    if "custom_id" in document:
        if isinstance(document.get("body"), dict):
            return "batch_input"
        if "response" in document or "error" in document:
            return "batch_output"
        if isinstance(document.get("params"), dict):
            return "anthropic_batch"
        if isinstance(document.get("result"), dict):
            return "anthropic_batch_result"
    if "key" in document:
        if isinstance(document.get("request"), dict):
            return "gemini_batch"
        if any(key in document for key in _GEMINI_RESULT_KEYS):
            return "gemini_batch_result"
    if "version" in document:
        return None  # this library's own history
    messages = document.get("messages")
    if isinstance(messages, list) and (
        any(key in document for key in _ANTHROPIC_BODY_KEYS) or _has_anthropic_tools(document)
    ):
        return "anthropic_request"
    if isinstance(messages, list) and (messages or "model" in document):
        return "chat_request" if "model" in document else "fine_tuning"
    if "contents" in document:
        return "gemini_request"
    if "input" in document:
        return "responses_request"
    kind = document.get("object")
    if kind == "chat.completion" or (kind is None and isinstance(document.get("choices"), list)):
        return "chat_response"
    if kind == "response" or (kind is None and isinstance(document.get("output"), list)):
        return "responses_response"
    if (
        document.get("type") == "message"
        and document.get("role") == "assistant"
        and isinstance(document.get("content"), list)
        and "model" in document
    ):
        return "anthropic_response"
    if isinstance(document.get("candidates"), list) or any(
        key in document for key in _GEMINI_PROMPT_FEEDBACK
    ):
        return "gemini_response"
    return None


def _has_anthropic_tools(document: dict[str, Any]) -> bool:
    """Whether a body's tools or tool choice are in a shape only Anthropic's take.

    A tool with an ``input_schema`` or a dated type (``web_search_20250305``), or a
    ``tool_choice`` object of type ``any`` or ``tool`` or with ``disable_parallel_tool_use``:
    OpenAI's tools have ``parameters`` and undated types, and its choices are neither.
    """
    tools = document.get("tools")
    if type(tools) is list and any(
        type(tool) is dict and is_anthropic_tool(tool) for tool in tools
    ):
        return True
    choice = document.get("tool_choice")
    return type(choice) is dict and (
        choice.get("type") in _ANTHROPIC_CHOICES or "disable_parallel_tool_use" in choice
    )


_ANTHROPIC_EVENTS = frozenset((
    "message_start", "message_delta", "message_stop", "content_block_start",
    "content_block_delta", "content_block_stop", "ping",
))
"""The types of Anthropic's stream events (its ``error`` event is Responses' type too)."""

_RESPONSES_EVENT_PREFIX = "response."
"""Every Responses stream event's type starts so (``response.created``,
``response.output_text.delta`` ...)."""


def stream_of(payload: Any) -> str | None:
    """The API whose recorded stream ``payload`` is (a list of its events), or ``None``.

    Only the first element is looked at (a cheap check; a saved stream may start anywhere):
    a ``chat.completion.chunk``, an Anthropic event (``message_start``, ``ping`` ...), a
    ``response.*`` event, or a Gemini response (its streamed chunks are responses). None of
    these is a message, so such a list is no conversation until it is accumulated.
    """
    if type(payload) is not list or not payload or type(payload[0]) is not dict:
        return None
    first = payload[0]
    if "role" in first:  # a message (every reader of a list pays for this check: keep it first)
        return None
    event = event_of(first)
    if event is not None:
        return event
    if isinstance(first.get("candidates"), list) or any(
        key in first for key in _GEMINI_PROMPT_FEEDBACK
    ):  # a Gemini response (`kind_of`'s test), as each streamed chunk is
        return "Gemini"
    return None


def event_of(payload: Any) -> str | None:
    """The API one streamed event or chunk (a dict) is of, or ``None``.

    A ``chat.completion.chunk``, an Anthropic event or a ``response.*`` event; a Gemini
    chunk is a response, which reads as one.
    """
    if type(payload) is not dict or "role" in payload:
        return None
    if payload.get("object") == "chat.completion.chunk":
        return "OpenAI Chat Completions"
    kind = payload.get("type")
    if isinstance(kind, str):
        if kind in _ANTHROPIC_EVENTS:
            return "Anthropic Messages"
        if kind.startswith(_RESPONSES_EVENT_PREFIX):
            return "OpenAI Responses"
    return None


def refuse_stream(payload: Any) -> None:
    """Refuse a recorded stream, or one of its events, naming its API.

    A cheap check (`stream_of`, `event_of`), for `detect` and the readers, where a
    conversation is expected: a list of ``{"type": ...}`` events would otherwise read as
    Responses items, or fail at its first event's missing ``role`` without saying what the
    list is; one event (a stream saved a chunk a line) would be "no format" or a document
    missing its ``messages``.

    Raises:
        FormatError: ``payload`` is a list of stream events or chunks, or one of them.
    """
    stream = stream_of(payload)
    if stream is not None:
        raise FormatError(
            f"this is a stream of {stream} events, not a conversation: accumulate it "
            "first (its format's from_stream, then "
            "StreamingChatMessageContent.accumulate(...).to_message())"
        )
    stream = event_of(payload)
    if stream is not None:
        raise FormatError(
            f"this is one event of an {stream} stream, not a conversation: accumulate the "
            "whole stream (its format's from_stream over every event, then "
            "StreamingChatMessageContent.accumulate(...).to_message())"
        )


def writes_request(line: Any, body: Any, history: ChatHistory) -> bool:
    """Whether ``body`` (``line``, or the Batch line's body) is written as a request body.

    Else it is written as the target's payload. A request body is, and a history with
    options; a results line's body never is: it is a reply, even when it reads as a request
    (an Anthropic ``{"messages": [...]}`` payload has a Chat request's shape).
    """
    return (is_request(body) or history.options is not None) and (
        kind_of(line) not in RESULT_LINES
    )


def is_own_document(value: Any) -> bool:
    """Whether ``value`` is this library's own JSON (``{"version", "messages"}``)."""
    return type(value) is dict and "version" in value and "messages" in value


OWN_DOCUMENT = "this library's own JSON (read it with from_json, or as format 'semantic-chat')"
"""This library's own document in words, for an error that says what a reader got instead."""


def refuse_own_document(document: Any, path: str, expected: str) -> None:
    """Refuse this library's own JSON where a provider's document is expected, naming it.

    Raises:
        FormatError: ``document`` is one (`is_own_document`), at ``path``.
    """
    if is_own_document(document):
        raise FormatError.mismatch(path, expected, OWN_DOCUMENT)


def is_request(document: Any) -> bool:
    """Whether ``document`` is a request body or a fine-tuning line (not a Batch line)."""
    return kind_of(document) in _REQUESTS


class Unwrapped(NamedTuple):
    """A document taken out of its Batch envelope.

    Attributes:
        body: the conversation's document (the whole document when there is no envelope).
        path: where ``body`` is in the document (``body``, ``response.body``, or empty).
        wrap: puts a converted body back: ``wrap(converted, target_format_name)``.
    """

    body: Any
    path: str
    wrap: Callable[[Any, str], Any]


def unwrap(document: Any) -> Unwrapped:
    """Take a Batch line apart; any other document is its own body.

    An input line converted to Anthropic becomes ``{"custom_id", "params"}``, one converted to
    Gemini ``{"key", "request"}`` (the ``custom_id`` as the ``key``, and back), and one
    converted to an OpenAI format ``{"custom_id", "method": "POST", "url", "body"}``; a
    results line (any provider's) keeps its envelope.

    Raises:
        FormatError: a Batch output or results line without a reply (a failed request); the
            message gives the line's error.
    """
    kind = kind_of(document)
    if kind == "batch_input":
        return Unwrapped(document["body"], "body", lambda body, target: _rewrap_input(
            document, body, target
        ))
    if kind == "batch_output":
        return Unwrapped(_output_body(document), "response.body", lambda body, _: {
            **document, "response": {**document["response"], "body": body}
        })
    if kind == "anthropic_batch":
        return Unwrapped(document["params"], "params", lambda body, target: _rewrap_params(
            document, body, target
        ))
    if kind == "anthropic_batch_result":
        return Unwrapped(_result_message(document), "result.message", lambda body, _: {
            **document, "result": {**document["result"], "message": body}
        })
    if kind == "gemini_batch":
        return Unwrapped(document["request"], "request", lambda body, target: _rewrap_request(
            document, body, target
        ))
    if kind == "gemini_batch_result":
        return Unwrapped(_gemini_response(document), "response", lambda body, _: {
            **document, "response": body
        })
    return Unwrapped(document, "", lambda body, _: body)


def _rewrap_input(document: dict[str, Any], body: Any, target: str) -> dict[str, Any]:
    if target == ANTHROPIC:
        return {"custom_id": document["custom_id"], "params": body}
    if target == GEMINI:
        return {"key": document["custom_id"], "request": body}
    written = dict(document)
    endpoint = ENDPOINTS.get(target)
    if endpoint is not None:
        written["url"] = endpoint
    written["body"] = body
    return written


def _rewrap_params(document: dict[str, Any], body: Any, target: str) -> dict[str, Any]:
    """An Anthropic request line for ``target``: OpenAI's envelope for an OpenAI endpoint."""
    if target == GEMINI:
        return {"key": document["custom_id"], "request": body}
    endpoint = ENDPOINTS.get(target)
    if endpoint is None:
        return {**document, "params": body}
    rest = {key: value for key, value in document.items() if key not in ("custom_id", "params")}
    return {"custom_id": document["custom_id"], "method": "POST", "url": endpoint, "body": body,
            **rest}


def _rewrap_request(document: dict[str, Any], body: Any, target: str) -> dict[str, Any]:
    """A Gemini request line for ``target``: OpenAI's or Anthropic's envelope for theirs."""
    rest = {key: value for key, value in document.items() if key not in ("key", "request")}
    if target == ANTHROPIC:
        return {"custom_id": document["key"], "params": body, **rest}
    endpoint = ENDPOINTS.get(target)
    if endpoint is None:
        return {**document, "request": body}
    return {"custom_id": document["key"], "method": "POST", "url": endpoint, "body": body,
            **rest}


def _gemini_response(document: dict[str, Any]) -> Any:
    """The reply of a Gemini Batch output line: its ``response``.

    A line this library converted holds the reply as the target's payload (a list, or a
    document), so that it reads back.

    Raises:
        FormatError: the request failed (the line holds an ``error`` or a ``status``); the
            message gives the API's message when there is one.
    """
    response = document.get("response")
    if isinstance(response, (dict, list)):
        return response
    error = document.get("error", document.get("status"))
    detail = error.get("message") if isinstance(error, dict) else None
    why = f": the request failed: {detail}" if isinstance(detail, str) else ""
    raise FormatError(f"a Gemini Batch result line without a response{why}", path="response")


def _result_message(document: dict[str, Any]) -> Any:
    """The reply of an Anthropic results line: the ``message`` of a ``succeeded`` result.

    Raises:
        FormatError: the request did not succeed (``errored``, ``canceled``, ``expired``);
            the message gives the API's error when there is one.
    """
    result = document["result"]
    message = result.get("message")
    if isinstance(message, (dict, list)):
        return message
    kind = result.get("type")
    error = result.get("error")
    inner = error.get("error") if isinstance(error, dict) else None
    detail = inner.get("message") if isinstance(inner, dict) else None
    why = f" ({kind})" if isinstance(kind, str) else ""
    if isinstance(detail, str):
        why += f": {detail}"
    raise FormatError(f"a Message Batches result without a message{why}", path="result")


def _output_body(document: dict[str, Any]) -> Any:
    """The reply of a Batch output line: the API's response, or what this library wrote.

    A line this library converted holds the reply as the target's payload (a list, or this
    library's JSON), so that it reads back.
    """
    response = document.get("response")
    body = response.get("body") if isinstance(response, dict) else None
    if not isinstance(body, (dict, list)):
        error = document.get("error")
        detail = error.get("message") if isinstance(error, dict) else None
        why = f": the request failed: {detail}" if isinstance(detail, str) else ""
        raise FormatError(f"a Batch output line without a response body{why}", path="response")
    status = response.get("status_code") if isinstance(response, dict) else None
    error = body.get("error") if isinstance(body, dict) else None
    if isinstance(error, dict) and set(body) == {"error"}:  # the API's error, not a reply
        detail = error.get("message")
        code = f" (status {status})" if isinstance(status, int) else ""
        why = f": {detail}" if isinstance(detail, str) else ""
        raise FormatError(f"the request failed{code}{why}", path="response.body.error")
    return body


def holds_list_reply(document: Any, kind: str) -> bool:
    """Whether an Anthropic or Gemini results line holds its reply as a list.

    Neither API's reply is one: such a line was converted by the command line to an OpenAI
    format, whose payload is a list, and is read in that format.
    """
    if type(document) is not dict:
        return False
    if kind == "anthropic_batch_result":
        result = document.get("result")
        return isinstance(result, dict) and isinstance(result.get("message"), list)
    if kind == "gemini_batch_result":
        return isinstance(document.get("response"), list)
    return False


def holds_openai_body(document: Any, kind: str | None) -> bool:
    """Whether an OpenAI reader reads the body of this line.

    That is an OpenAI Batch line, or an Anthropic or Gemini results line holding a converted
    reply (`holds_list_reply`).
    """
    return kind in ("batch_input", "batch_output") or (
        kind is not None and holds_list_reply(document, kind)
    )


def read_enveloped(document: Any, read: Callable[[Any], Any]) -> Any:
    """Read the body of a Batch line with ``read``, locating errors inside the line.

    A body in this library's own JSON (a results line converted ``--to semantic-chat``, which
    keeps its envelope) is read as that whatever ``read`` is, so that it reads back.

    Raises:
        FormatError: as `unwrap`, or what ``read`` raises, its path under the body's.
    """
    unwrapped = unwrap(document)
    if is_own_document(unwrapped.body):
        read = _read_own
    try:
        return read(unwrapped.body)
    except SemanticChatError as error:
        raise error.at(unwrapped.path) from None


def _read_own(body: Any) -> ChatHistory:
    """Read a body in this library's own JSON, as the ``semantic-chat`` format reads it."""
    return from_dict(body, ChatHistory)


def without_none(value: Any) -> Any:
    """A copy of a JSON value without the ``None`` fields of its objects (lists keep theirs).

    An SDK object's ``model_dump()`` writes every field it knows, ``None`` when unset, and
    ``model_dump(exclude_none=True)`` none of those: reading a response through this makes
    both, and the object itself, the same message. ``logprobs`` are kept as they are (the
    API writes ``null`` in them, kept in metadata as it came).
    """
    if type(value) is dict:
        return {
            key: element if key == "logprobs" else without_none(element)
            for key, element in value.items()
            if element is not None
        }
    if type(value) is list:
        return [without_none(element) for element in value]
    return value
