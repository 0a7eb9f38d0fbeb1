"""Names, tables and small helpers both directions of Semantic Kernel's Python JSON share.

Semantic Kernel writes a history with ``ChatHistory.serialize()`` (pydantic's
``model_dump_json(exclude_none=True)``): messages and items tagged by ``content_type``,
function names split into ``plugin_name`` and ``function_name``, binary data as a data URI
whose parameters repeat the item's ``metadata``, and results as ``str(result)``.
"""

from __future__ import annotations

import ast
import json
import math
import re
from typing import Any

import attrs

from ...options import ChatOptions
from ...usage import Usage
from ...validation import JSON_INT_MAX, JSON_INT_MIN
from ..request_fields import report_options_metadata
from ..wire import HINT_KEYS, OnUnsupported, unsupported_field

__all__ = [
    "CONTENT_TYPES",
    "FINISH_REASONS",
    "FORMAT",
    "HINTS",
    "NAME",
    "OWN_HINTS",
    "REASONING_LOSSES",
    "ROLES",
    "STATUSES",
    "data_uri_parameters",
    "given_name",
    "literal_result",
    "names_from_dotnet",
    "names_of",
    "readable_parameter",
    "reasoning_losses",
    "report_options",
    "sk_mime_type",
    "usage_from_metadata",
    "usage_metadata",
]

NAME = "sk-python"
"""The format's name in the `semantic_chat.formats` registry."""

HINTS = "sk_python"
"""The metadata key under which this format keeps what it needs to write a history back."""

FORMAT = "Semantic Kernel (Python)"
"""The format's name in messages (``Semantic Kernel (Python) cannot carry ...``)."""

OWN_HINTS = HINT_KEYS | {"sk_dotnet", "sk_python"}
"""Metadata keys that are formats' hints: never written into Semantic Kernel's metadata (a
Semantic Kernel metadata key of one of these names is kept in the hints instead)."""

ROLES = frozenset(("system", "user", "assistant", "tool", "developer"))
"""Semantic Kernel's ``AuthorRole`` values."""

FINISH_REASONS = frozenset(("stop", "length", "content_filter", "tool_calls", "function_call"))
"""Semantic Kernel's ``FinishReason`` values: it refuses any other."""

REASONING_LOSSES = (
    ("signature", "a reasoning signature"),
    ("encrypted", "a reasoning item's encrypted content"),
    ("provider", "the provider whose reasoning it is (read back, it is no provider's: none "
                 "sends it back)"),
)
"""The `ReasoningContent` fields neither Semantic Kernel format holds, and how a loss names
each (``... cannot carry a reasoning item's encrypted content``): one wording for both. See
`reasoning_losses`."""


def reasoning_losses(item: Any) -> list[tuple[str, str]]:
    """The `REASONING_LOSSES` a reasoning item has: its set fields neither format holds.

    The provider is named only when it is the whole loss: with a signature or encrypted
    content lost, the reasoning cannot go back to its provider anyway, and that is reported.
    """
    lost = [(field, what) for field, what in REASONING_LOSSES if getattr(item, field) is not None]
    if len(lost) > 1:
        return [(field, what) for field, what in lost if field != "provider"]
    return lost

STATUSES = frozenset(("completed", "failed", "in_progress", "incomplete"))
"""Semantic Kernel's ``Status`` values (of a Responses API message)."""

CONTENT_TYPES = frozenset((
    "text", "image", "audio", "binary", "file_reference", "streaming_file_reference",
    "function_call", "function_result", "reasoning", "annotation", "streaming_annotation",
))
"""The item ``content_type`` values a Semantic Kernel message holds."""

_SEPARATOR = "-"
"""What joins a plugin's name and a function's name in a fully qualified name."""

_MIME_TYPE = re.compile(r"[a-zA-Z]+/[a-zA-Z-]+")
"""The media types Semantic Kernel reads back from a data URI (``image/svg+xml`` fails)."""

_PARAMETER = re.compile(r"[a-zA-Z0-9]+")
"""What a data URI parameter's name and value must be for Semantic Kernel to read it back."""


def names_of(name: str | None, *, result: bool = False) -> dict[str, Any]:
    """The ``name``, ``function_name`` and ``plugin_name`` Semantic Kernel derives from a name.

    ``weather-get`` is plugin ``weather``, function ``get``; a name without ``-`` is the
    function's alone, and a result made from a call (``from_function_call_content_and_result``)
    then has no ``name``. ``None`` (a result without a name) is function ``""``.
    """
    if name is None:
        return {"function_name": ""}
    plugin, separator, function = name.partition(_SEPARATOR)
    if not separator:
        return {"function_name": name} if result else {"name": name, "function_name": name}
    return {"name": name, "function_name": function, "plugin_name": plugin}


def given_name(names: dict[str, Any]) -> str | None:
    """The name a kept ``name`` / ``function_name`` / ``plugin_name`` triple gives.

    ``name`` when set, else ``plugin_name-function_name`` (the function's alone without a
    plugin), as `reading` reads them; a writer uses the triple while the name is still this.
    """
    function, plugin = names.get("function_name"), names.get("plugin_name")
    return names.get("name") or (f"{plugin}{_SEPARATOR}{function}" if plugin else function) or None


def names_from_dotnet(name: str, dotnet: dict[str, Any]) -> dict[str, Any] | None:
    """The Python name fields of a name read from .NET, its split as .NET gave it; or ``None``.

    ``dotnet`` is the item's ``metadata["sk_dotnet"]``: its ``PluginName`` is the plugin read
    (``None`` marks a ``FunctionName`` with ``-`` and no plugin, never to be split). Written
    as Semantic Kernel's constructor writes ``function_name`` and ``plugin_name`` (a call and
    a result alike). ``None``
    when there is no such hint, or the name no longer starts with its plugin.
    """
    if "PluginName" not in dotnet:
        return None
    plugin = dotnet["PluginName"]
    if plugin is None:
        return {"function_name": name}
    if type(plugin) is not str:
        return None
    if not plugin:
        return {"function_name": name, "plugin_name": plugin}
    if not name.startswith(plugin + _SEPARATOR) or len(name) == len(plugin) + 1:
        return None
    return {"name": name, "function_name": name[len(plugin) + 1 :], "plugin_name": plugin}


def data_uri_parameters(metadata: dict[str, Any]) -> str:
    """The parameters Semantic Kernel writes into a data URI from an item's metadata.

    ``;key=value`` for each key, the value as Python's ``str`` gives it (``True``, ``1``).
    """
    return "".join(f";{key}={value}" for key, value in metadata.items())


def readable_parameter(key: str, value: Any) -> bool:
    """Whether Semantic Kernel reads a metadata entry back equal from a data URI.

    It reads every parameter back into ``metadata`` as a string, and only those whose name
    and value are letters and digits at all.
    """
    return (
        type(value) is str
        and _PARAMETER.fullmatch(key) is not None
        and _PARAMETER.fullmatch(value) is not None
    )


def sk_mime_type(mime_type: str) -> bool:
    """Whether Semantic Kernel reads a data URI of this media type back."""
    return _MIME_TYPE.fullmatch(mime_type) is not None


def literal_result(text: str) -> dict[str, Any] | list[Any] | None:
    """The dict or list a result's text is the Python repr of, or ``None``.

    Semantic Kernel writes a result as ``str(result)``, so a dict comes back as
    ``"{'t': 1}"``. The text is parsed with `ast.literal_eval` (never ``eval``) and kept only
    when it is a JSON object or array whose repr gives the text back exactly, so writing it
    again restores the same text.
    """
    stripped = text[:1]
    if stripped not in ("{", "["):
        return None
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    if type(value) not in (dict, list) or not _is_json(value) or repr(value) != text:
        return None
    return value  # type: ignore[no-any-return]  # a dict or list, checked above


def _is_json(value: Any) -> bool:
    """Whether a literal is a value our JSON holds.

    That is dicts with string keys, lists, finite floats, integers JSON readers take (64
    bits) and text UTF-8 can write (no lone surrogate): a result is kept as its text otherwise.
    """
    kind = type(value)
    if kind is dict:
        return all(_is_text(key) and _is_json(element) for key, element in value.items())
    if kind is list:
        return all(_is_json(element) for element in value)
    if kind is float:
        return math.isfinite(value)
    if kind is int:
        return bool(JSON_INT_MIN <= value <= JSON_INT_MAX)
    if kind is str:
        return _is_text(value)
    return kind is bool or value is None


def _is_text(value: Any) -> bool:
    """Whether ``value`` is a ``str`` that can be written as UTF-8."""
    if type(value) is not str:
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


_OPTIONS = tuple(
    field.name for field in attrs.fields(ChatOptions) if field.name not in ("extra", "metadata")
)
"""The `ChatOptions` fields a Semantic Kernel history has no place for, in their order."""


def report_options(
    options: ChatOptions | None, hints: str, format_name: str,
    on_unsupported: OnUnsupported | None,
) -> None:
    """Report a history's request options as lost: Semantic Kernel's JSON holds messages only.

    One field loss per option set (``options.model``, ``options.extra["store"]``), and per
    key of its metadata that is no format's hints (``options.metadata["user"]``).

    Raises:
        UnsupportedContentError: there is such an option and ``on_unsupported`` is ``"error"``.
    """
    if options is None:
        return
    for name in _OPTIONS:
        if getattr(options, name) is not None:
            what = f"the option {name!r}"
            unsupported_field(on_unsupported, format_name, f"options.{name}", what)
    for key in options.extra:
        where = f"options.extra[{json.dumps(key, ensure_ascii=False)}]"
        unsupported_field(on_unsupported, format_name, where, f"the option {key!r}")
    report_options_metadata(options, hints, format_name, on_unsupported)


def usage_metadata(usage: Usage) -> dict[str, Any]:
    """Token usage as Semantic Kernel's connectors keep it: ``metadata["usage"]``.

    That is a ``CompletionUsage``: ``prompt_tokens``, ``completion_tokens`` and the details
    OpenAI gives (``cached_tokens``, ``reasoning_tokens``); it has no total.
    """
    written: dict[str, Any] = {
        "prompt_tokens": usage.prompt_tokens,
        "completion_tokens": usage.completion_tokens,
    }
    if usage.cached_tokens is not None:
        written["prompt_tokens_details"] = {"cached_tokens": usage.cached_tokens}
    if usage.reasoning_tokens is not None:
        written["completion_tokens_details"] = {"reasoning_tokens": usage.reasoning_tokens}
    return written


def usage_from_metadata(value: Any) -> Usage | None:
    """The `Usage` a ``metadata["usage"]`` holds, when `usage_metadata` writes it back exactly.

    Anything else (other details, a count missing) stays in the metadata as it is.
    """
    if type(value) is not dict:
        return None
    prompt, completion = value.get("prompt_tokens"), value.get("completion_tokens")
    prompt_details = value.get("prompt_tokens_details")
    completion_details = value.get("completion_tokens_details")
    cached = prompt_details.get("cached_tokens") if type(prompt_details) is dict else None
    reasoning = (
        completion_details.get("reasoning_tokens") if type(completion_details) is dict else None
    )
    if type(prompt) is not int or type(completion) is not int:
        return None
    try:
        usage = Usage(
            prompt_tokens=prompt,
            completion_tokens=completion,
            total_tokens=prompt + completion,
            cached_tokens=cached,
            reasoning_tokens=reasoning,
        )
    except (TypeError, ValueError):  # a negative or malformed count: kept as metadata
        return None
    return usage if usage_metadata(usage) == value else None
