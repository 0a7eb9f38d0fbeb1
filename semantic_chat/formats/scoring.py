"""Telling wire formats apart by the keys and part types a payload uses.

Whole documents are recognised by their keys (`semantic_chat.formats.documents.kind_of`): a
request body, a response, a fine-tuning line; a Batch line by its ``url`` or, failing that,
by its body.
"""

from __future__ import annotations

from typing import Any

from .documents import kind_of

__all__ = ["score_openai_chat", "score_openai_responses", "score_semantic_chat"]

_RESPONSES_ITEMS = frozenset(
    ("message", "function_call", "function_call_output", "reasoning", "item_reference")
)
_RESPONSES_PARTS = frozenset(("input_text", "output_text", "input_image", "input_file"))
_CHAT_PARTS = frozenset(("text", "image_url", "input_audio", "file", "refusal"))


def score_semantic_chat(payload: Any) -> int:
    """Recognise ``{"version": N, "messages": [...]}``."""
    if isinstance(payload, dict) and "version" in payload and "messages" in payload:
        return 10
    return 0


def score_openai_chat(payload: Any) -> int:
    """Recognise a list of ``{"role", "content"}`` messages with Chat Completions parts.

    Also a request body or fine-tuning line (``messages``), a ``chat.completion``, and a
    Batch line for ``/v1/chat/completions`` or holding one of those.
    """
    kind = kind_of(payload)
    if kind is not None:
        if kind in ("chat_request", "fine_tuning"):
            return 10 + score_openai_chat(payload["messages"])
        if kind == "chat_response":
            return 20
        return _score_batch(payload, kind, "/chat/completions", score_openai_chat)
    if not _is_message_list(payload):
        return 0
    score = 2
    for message in payload:
        if "tool_call_id" in message or "tool_calls" in message:
            score += 3
        for part in _parts(message):
            score += 3 if part in _CHAT_PARTS else -5 if part in _RESPONSES_PARTS else 0
    return max(score, 0)


def score_openai_responses(payload: Any) -> int:
    """Recognise a list of Responses input items, or a ``{"input": ...}`` request.

    Also a ``response`` object and a Batch line for ``/v1/responses`` or holding one of
    those. A string is a Responses input (its text), told apart by `detect` from JSON text.
    """
    if isinstance(payload, str):
        return 1
    kind = kind_of(payload)
    if kind is not None:
        if kind == "responses_request":
            return 5 + score_openai_responses(payload["input"])
        if kind == "responses_response":
            return 20
        return _score_batch(payload, kind, "/responses", score_openai_responses)
    if isinstance(payload, dict) and "input" in payload:
        return 5 + score_openai_responses(payload["input"])
    if not isinstance(payload, list) or not payload:
        return 0
    if not all(isinstance(item, dict) for item in payload):
        return 0
    score = 1
    for item in payload:
        kind = item.get("type")
        if kind in _RESPONSES_ITEMS:
            score += 3
        elif kind is None and "role" not in item:
            return 0
        for part in _parts(item):
            score += 3 if part in _RESPONSES_PARTS else -5 if part in _CHAT_PARTS else 0
    return max(score, 0)


def _score_batch(payload: dict[str, Any], kind: str, endpoint: str, score: Any) -> int:
    """Score a Batch line: surely this format when its ``url`` is the endpoint, else by body."""
    if kind == "batch_input":
        url = payload.get("url")
        if isinstance(url, str) and url.rstrip("/").endswith(endpoint):
            return 30
        return int(score(payload["body"]))
    if kind == "batch_output":
        response = payload.get("response")
        body = response.get("body") if isinstance(response, dict) else None
        return int(score(body)) if isinstance(body, dict) else 0
    return 0


def _is_message_list(payload: Any) -> bool:
    return (
        isinstance(payload, list)
        and bool(payload)
        and all(isinstance(message, dict) and "role" in message for message in payload)
    )


def _parts(message: dict[str, Any]) -> list[Any]:
    content = message.get("content")
    if isinstance(content, list):
        return [part.get("type") for part in content if isinstance(part, dict)]
    return []
