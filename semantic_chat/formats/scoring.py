"""Telling wire formats apart by the keys and part types a payload uses.

Whole documents are recognised by their keys (`semantic_chat.formats.documents.kind_of`): a
request body, a response, a fine-tuning line; a Batch line by its ``url`` or, failing that,
by its body.

A bare list of ``{"role": "user", "content": "Hi"}`` messages reads alike in Chat Completions
and Anthropic Messages; it is given to ``openai-chat``. Anthropic wins on what only it has:
a top-level ``system`` or ``stop_sequences``; a tool with an ``input_schema`` or a dated type
(``web_search_20250305``, ``bash_20250124``), or a ``tool_choice`` object of type ``any`` or
``tool`` or with ``disable_parallel_tool_use`` (all decisive, whatever the model's name);
``top_k`` or ``thinking`` beside ``messages``, ``tool_use`` / ``tool_result`` / ``thinking`` /
``document`` blocks or an image with a ``source``, a ``message`` response, a Message Batches
line, or (between bodies that read alike) a ``claude`` model with ``max_tokens``.

Gemini documents have keys no other format uses: ``contents`` (a request body, REST or the
SDK's ``{"model", "contents", "config"}``), ``candidates`` or ``promptFeedback`` (a response),
a Batch line's ``key``; a bare list is Gemini's when each element has ``parts``.
"""

from __future__ import annotations

from typing import Any

from .documents import holds_list_reply, is_own_document, kind_of

__all__ = [
    "score_anthropic",
    "score_gemini",
    "score_openai_chat",
    "score_openai_responses",
    "score_semantic_chat",
    "score_sk_dotnet",
    "score_sk_python",
]

_RESPONSES_ITEMS = frozenset(
    ("message", "function_call", "function_call_output", "reasoning", "item_reference")
)
_RESPONSES_PARTS = frozenset(("input_text", "output_text", "input_image", "input_file"))
_CHAT_PARTS = frozenset(("text", "image_url", "input_audio", "file", "refusal"))
_ANTHROPIC_BLOCKS = frozenset((
    "tool_use", "tool_result", "thinking", "redacted_thinking", "document", "search_result",
    "server_tool_use", "web_search_tool_result", "web_fetch_tool_result",
    "code_execution_tool_result", "mcp_tool_use", "mcp_tool_result", "container_upload",
))
_OPENAI_ONLY_PARTS = (_CHAT_PARTS | _RESPONSES_PARTS) - {"text"}
_ANTHROPIC_ROLES = frozenset(("user", "assistant"))
_ANTHROPIC_MESSAGE_KEYS = frozenset(("role", "content"))
_GEMINI_PART_KEYS = frozenset((
    "function_call", "functionCall", "function_response", "functionResponse", "inline_data",
    "inlineData", "file_data", "fileData", "thought_signature", "thoughtSignature",
    "executable_code", "executableCode", "code_execution_result", "codeExecutionResult",
))
# Body fields only Anthropic has, but which OpenAI-compatible servers take too (so they are
# evidence, not proof, unlike ``system`` or ``stop_sequences``: see `documents.kind_of`).
_ANTHROPIC_HINT_FIELDS = ("top_k", "thinking")


def score_semantic_chat(payload: Any) -> int:
    """Recognise ``{"version": N, "messages": [...]}``."""
    if isinstance(payload, dict) and "version" in payload and "messages" in payload:
        return 10
    return 0


def score_sk_python(payload: Any) -> int:
    """Recognise Semantic Kernel's Python ``ChatHistory.serialize()``: ``{"messages": [...]}``.

    Every message must be an object with ``"content_type": "message"`` and an ``items`` list
    (which no other format's messages have), scoring above any request body. A history
    with no messages (``{"messages": []}``) says nothing of its format: name it to read it.
    """
    if type(payload) is not dict or not isinstance(payload.get("messages"), list):
        return 0
    messages = payload["messages"]
    if not messages:
        return 0
    for message in messages:
        if not isinstance(message, dict) or message.get("content_type") != "message":
            return 0
        if not isinstance(message.get("items", []), list):
            return 0
    return 50


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
        if kind in _RESULT_LINES:
            return _score_converted_reply(payload, kind, score_openai_chat)
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
        if kind in _RESULT_LINES:
            return _score_converted_reply(payload, kind, score_openai_responses)
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


def score_anthropic(payload: Any) -> int:
    """Recognise Anthropic Messages: a body, a ``message`` response, a Message Batches line.

    A ``messages`` list scores below `score_openai_chat` unless it holds blocks only
    Anthropic has (``tool_use``, ``tool_result``, ``thinking``, an image with a ``source``
    ...); it scores nothing with a role or key Anthropic messages lack (``system``,
    ``tool_calls``, ``name``), and less for each OpenAI part (``image_url``). A body with
    Anthropic's tools or tool choice is its (`documents.kind_of`). A body that reads alike in
    both formats is Anthropic's when its model is a ``claude`` one with
    ``max_tokens``, or it has ``top_k`` or ``thinking``.
    """
    kind = kind_of(payload)
    if kind is None:
        return _score_anthropic_messages(payload)
    if kind == "anthropic_request":
        return 40 + _score_anthropic_messages(payload["messages"])
    if kind == "anthropic_response":
        return 20
    if kind in ("anthropic_batch", "anthropic_batch_result"):
        return 30
    if kind in ("chat_request", "fine_tuning"):
        messages = _score_anthropic_messages(payload["messages"])
        if messages == 0 and payload["messages"]:
            return 0
        score = 10 + messages
        score += sum(10 for key in _ANTHROPIC_HINT_FIELDS if key in payload)
        model = payload.get("model")
        if isinstance(model, str) and "claude" in model.lower() and "max_tokens" in payload:
            score += 3
        return score
    if kind in ("batch_input", "batch_output"):
        return _score_batch(payload, kind, "/v1/messages", score_anthropic)
    return 0


def score_gemini(payload: Any) -> int:
    """Recognise Gemini: a request body, a response, a Batch line, or a ``contents`` list.

    A list scores when every element is an object with a ``parts`` list (a ``role`` is
    optional), more for each part with a data key only Gemini has (``function_call``,
    ``inline_data`` ...); an OpenAI Batch line, or an Anthropic results line, by its body.
    """
    kind = kind_of(payload)
    if kind is None:
        return _score_gemini_contents(payload)
    if kind == "gemini_request":
        return 40
    if kind == "gemini_response":
        return 20
    if kind in ("gemini_batch", "gemini_batch_result"):
        return 30
    if kind in ("batch_input", "batch_output"):
        return _score_batch(payload, kind, ":generateContent", score_gemini)
    if kind == "anthropic_batch_result":
        # A results line the command line converted to Gemini holds a Gemini reply: above
        # the 30 Anthropic gives any results line.
        message = payload["result"].get("message")
        return 35 if score_gemini(message) else 0
    return 0


def _score_gemini_contents(payload: Any) -> int:
    """Score a bare ``contents`` list: 0 unless every element has a ``parts`` list."""
    if not isinstance(payload, list) or not payload:
        return 0
    score = 10
    for content in payload:
        if not isinstance(content, dict) or not isinstance(content.get("parts"), list):
            return 0
        for part in content["parts"]:
            if isinstance(part, dict) and any(key in _GEMINI_PART_KEYS for key in part):
                score += 3
    return score


def _score_anthropic_messages(payload: Any) -> int:
    """Score a ``messages`` list as Anthropic's: 1 for plain ones (below Chat Completions' 2)."""
    if not _is_message_list(payload):
        return 0
    score = 1
    for message in payload:
        if message["role"] not in _ANTHROPIC_ROLES or not message.keys() <= _ANTHROPIC_MESSAGE_KEYS:
            return 0
        content = message.get("content")
        if not isinstance(content, list):
            continue
        for block in content:
            if not isinstance(block, dict):
                continue
            kind = block.get("type")
            if kind in _ANTHROPIC_BLOCKS or (kind == "image" and "source" in block):
                score += 5
            elif kind == "text":
                score += 3  # as Chat Completions counts it: a tie, settled by the base
            elif kind in _OPENAI_ONLY_PARTS:
                score -= 5
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
        if is_own_document(body):
            return 1  # converted --to semantic-chat: any reader reads it (`read_enveloped`)
        return int(score(body)) if isinstance(body, dict) else 0
    return 0


_RESULT_LINES = frozenset(("anthropic_batch_result", "gemini_batch_result"))


def _score_converted_reply(payload: dict[str, Any], kind: str, score: Any) -> int:
    """Score an Anthropic or Gemini results line the command line converted to an OpenAI format.

    Such a line keeps its envelope and holds the reply as the target's payload: a list, which
    neither Anthropic's reply (a ``message`` object) nor Gemini's (a response, or a
    ``{"contents"}`` document) is. So a list is read in the format it is in, above the 30
    the envelope's own format gives any of its lines.
    """
    if not holds_list_reply(payload, kind):
        return 0
    reply = payload["result"]["message"] if kind == "anthropic_batch_result" else (
        payload["response"]
    )
    found = int(score(reply))
    return 35 + found if found else 0


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


def score_sk_dotnet(payload: Any) -> int:
    """Recognise .NET Semantic Kernel's ``ChatHistory`` JSON: an array of message objects.

    Every element must have a ``Role`` object with a ``Label`` and an ``Items`` array (keys
    no other format spells in PascalCase); each item with a ``$type`` adds to the score.
    """
    if not isinstance(payload, list) or not payload:
        return 0
    score = 30
    for message in payload:
        if not isinstance(message, dict):
            return 0
        role, items = message.get("Role"), message.get("Items")
        if not isinstance(role, dict) or "Label" not in role or not isinstance(items, list):
            return 0
        score += sum(1 for item in items if isinstance(item, dict) and "$type" in item)
    return score
