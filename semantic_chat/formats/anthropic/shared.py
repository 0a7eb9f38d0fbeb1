"""Names, tables and small readers both directions of Anthropic Messages share.

Also the format's plugin codecs, the mapping of ``stop_reason`` to `FinishReason`, and the
reading of ``usage`` (whose three input counts add up to the OpenAI ``prompt_tokens``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...labels import FinishReason
from ...usage import Usage
from ..codecs import PluginCodecs
from ..wire import WEB_IMAGE_TYPES

__all__ = [
    "BLOCK_TYPES",
    "FORMAT",
    "HINTS",
    "IMAGE_TYPES",
    "KEPT_BLOCK_TYPES",
    "NAME",
    "NEWER_MARK",
    "PROVIDER",
    "ROLES",
    "codecs",
    "finish_reason",
    "read_usage",
    "register_decoder",
    "register_encoder",
    "usage_fields",
    "without_unset_nulls",
]

NAME = "anthropic"
"""The format's name in the `semantic_chat.formats` registry."""

HINTS = "anthropic"
"""The metadata key under which this format keeps what it needs to write a payload back."""

FORMAT = "Anthropic Messages"
"""The format's name in messages (``Anthropic Messages cannot carry ...``)."""

PROVIDER = "anthropic"
"""`ReasoningContent.provider` of thinking read from this format: only sent back here."""

ROLES = frozenset(("user", "assistant"))
"""The roles of the ``messages`` list (instructions go to the top-level ``system``)."""

IMAGE_TYPES = WEB_IMAGE_TYPES
"""The media types of a base64 image source."""

BLOCK_TYPES = (
    "text",
    "image",
    "document",
    "tool_use",
    "tool_result",
    "thinking",
    "redacted_thinking",
)
"""The block types this format reads and writes itself; every other one is a plugin's, or
is kept whole as `UnknownContent` (server tools, search results, newer types)."""

KEPT_BLOCK_TYPES = frozenset((
    "advisor_tool_result",
    "bash_code_execution_tool_result",
    "browser_state",
    "code_execution_tool_result",
    "compaction",
    "container_upload",
    "document",  # of content blocks (a "content" source)
    "fallback",
    "mcp_tool_listing",
    "mcp_tool_result",
    "mcp_tool_use",
    "search_result",
    "server_tool_use",
    "text_editor_code_execution_tool_result",
    "tool_addition",
    "tool_reference",
    "tool_removal",
    "tool_search_tool_result",
    "web_fetch_tool_result",
    "web_search_tool_result",
))
"""Anthropic's block types (beta ones too) this code keeps whole as `UnknownContent`.

The writer sends an unknown item back only when it is one of these, or marked by the reader
as a newer Anthropic type (`NEWER_MARK`): any other is another origin's, and refused."""

NEWER_MARK = "block"
"""The hint (``metadata["anthropic"]["block"] = True``) the reader leaves on an `UnknownContent`
of a block type newer than `KEPT_BLOCK_TYPES`, so the writer knows it is Anthropic's."""

codecs = PluginCodecs(NAME, FORMAT, BLOCK_TYPES)
"""Plugin encoders and decoders of this format (`semantic_chat.formats.register_encoder`)."""
register_encoder = codecs.register_encoder
"""``register_encoder(cls, encoder)``: ``formats.register_encoder("anthropic", ...)``."""
register_decoder = codecs.register_decoder
"""``register_decoder(block_type, decoder)``: ``formats.register_decoder("anthropic", ...)``."""

_FINISH_REASONS = {
    "end_turn": FinishReason.STOP,
    "stop_sequence": FinishReason.STOP,
    "max_tokens": FinishReason.LENGTH,
    "model_context_window_exceeded": FinishReason.LENGTH,
    "tool_use": FinishReason.TOOL_CALLS,
    "refusal": FinishReason.CONTENT_FILTER,
}

_USAGE_COUNTS = frozenset((
    "input_tokens",
    "output_tokens",
    "cache_creation_input_tokens",
    "cache_read_input_tokens",
))


def finish_reason(stop_reason: str) -> FinishReason:
    """The `FinishReason` of an Anthropic ``stop_reason``.

    ``end_turn`` and ``stop_sequence`` are ``STOP``, ``max_tokens`` and
    ``model_context_window_exceeded`` ``LENGTH``, ``tool_use`` ``TOOL_CALLS``, ``refusal``
    ``CONTENT_FILTER``; any other (``pause_turn``, newer ones) is a label of its own text.
    The original is kept by the readers in the message's hints.
    """
    return _FINISH_REASONS.get(stop_reason) or FinishReason(stop_reason)


def read_usage(usage: Mapping[str, Any]) -> Usage:
    """Read an Anthropic ``usage`` object with its OpenAI meaning.

    ``prompt_tokens`` is every input token: ``input_tokens`` + ``cache_creation_input_tokens``
    + ``cache_read_input_tokens``; ``cached_tokens`` the tokens read from the cache and
    ``cache_creation_tokens`` those written to it (``None`` when not reported);
    ``reasoning_tokens`` is ``output_tokens_details.thinking_tokens`` when given;
    ``total_tokens`` is input and output together. Missing or ``null`` counts are zero.
    """
    created = _count(usage.get("cache_creation_input_tokens"))
    read = _count(usage.get("cache_read_input_tokens"))
    prompt = (_count(usage.get("input_tokens")) or 0) + (created or 0) + (read or 0)
    completion = _count(usage.get("output_tokens")) or 0
    details = usage.get("output_tokens_details")
    thinking = _count(details.get("thinking_tokens")) if isinstance(details, Mapping) else None
    return Usage(
        prompt_tokens=prompt,
        completion_tokens=completion,
        total_tokens=prompt + completion,
        cached_tokens=read,
        reasoning_tokens=thinking,
        cache_creation_tokens=created,
    )


def usage_fields(usage: Mapping[str, Any]) -> dict[str, Any]:
    """The keys of a ``usage`` object that `read_usage` does not count, kept in hints.

    ``cache_creation`` (the breakdown by time to live), ``service_tier``, ``server_tool_use``,
    ``inference_geo``, ``output_tokens_details`` ... as they were given.
    """
    return {key: value for key, value in usage.items() if key not in _USAGE_COUNTS}


def _count(value: Any) -> int | None:
    """A token count as an ``int``; ``None`` for a missing, ``null`` or malformed one."""
    return value if type(value) is int else None


_READ_KEYS = frozenset((
    "citations", "content", "data", "id", "input", "is_error", "name", "signature", "source",
    "text", "thinking", "title", "tool_use_id", "type",
))
"""The block keys the readers read: a ``null`` there is read as given (a text's ``citations``)
or refused where it cannot be."""


def without_unset_nulls(block: Any) -> Any:
    """A response block without the ``null`` keys an SDK's ``model_dump()`` adds.

    ``model_dump()`` writes every field the SDK's response model has, ``None`` when the API
    did not send it (``caller``, ``toolset_name``): written back, the request's types refuse
    them, and the block would differ from the SDK object it came from. A ``null`` the readers
    read (`_READ_KEYS`) stays.
    """
    if type(block) is not dict or None not in block.values():
        return block
    return {key: value for key, value in block.items() if value is not None or key in _READ_KEYS}
