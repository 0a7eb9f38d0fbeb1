"""Whole API documents: request bodies, responses, Batch lines and fine-tuning lines.

People keep conversations in the documents the APIs take and give: a Chat Completions or
Responses request body, a ``chat.completion`` or ``response`` object, a line of an OpenAI
Batch input file (``{"custom_id", "method", "url", "body"}``) or output file
(``{"custom_id", "response": {"body"}}``), a line of a fine-tuning file (``{"messages",
"tools", "parallel_tool_calls"}``). `kind_of` tells which one a dict is; `unwrap` takes a
Batch line apart into its body and a function that puts a converted body back into the same
envelope, with the ``url`` rewritten for the target's endpoint.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, NamedTuple

from ..errors import FormatError, SemanticChatError

__all__ = [
    "ENDPOINTS",
    "Kind",
    "Unwrapped",
    "is_request",
    "kind_of",
    "read_enveloped",
    "unwrap",
    "without_none",
]

Kind = Literal[
    "chat_request",
    "fine_tuning",
    "chat_response",
    "responses_request",
    "responses_response",
    "batch_input",
    "batch_output",
]

ENDPOINTS = {"openai-chat": "/v1/chat/completions", "openai-responses": "/v1/responses"}
"""The Batch ``url`` of each format's endpoint."""

_REQUESTS = frozenset(("chat_request", "fine_tuning", "responses_request"))


def kind_of(document: Any) -> Kind | None:
    """Which API document ``document`` is, or ``None`` for anything else (a list, a history)."""
    if type(document) is not dict:
        return None
    if "custom_id" in document:
        if isinstance(document.get("body"), dict):
            return "batch_input"
        if "response" in document or "error" in document:
            return "batch_output"
    if "version" in document:
        return None  # this library's own history
    messages = document.get("messages")
    if isinstance(messages, list) and (messages or "model" in document):
        return "chat_request" if "model" in document else "fine_tuning"
    if "input" in document:
        return "responses_request"
    kind = document.get("object")
    if kind == "chat.completion" or (kind is None and isinstance(document.get("choices"), list)):
        return "chat_response"
    if kind == "response" or (kind is None and isinstance(document.get("output"), list)):
        return "responses_response"
    return None


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

    Raises:
        FormatError: a Batch output line without a response body (a failed request); the
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
    return Unwrapped(document, "", lambda body, _: body)


def _rewrap_input(document: dict[str, Any], body: Any, target: str) -> dict[str, Any]:
    written = dict(document)
    endpoint = ENDPOINTS.get(target)
    if endpoint is not None:
        written["url"] = endpoint
    written["body"] = body
    return written


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
    return body


def read_enveloped(document: Any, read: Callable[[Any], Any]) -> Any:
    """Read the body of a Batch line with ``read``, locating errors inside the line.

    Raises:
        FormatError: as `unwrap`, or what ``read`` raises, its path under the body's.
    """
    unwrapped = unwrap(document)
    try:
        return read(unwrapped.body)
    except SemanticChatError as error:
        raise error.at(unwrapped.path) from None


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
