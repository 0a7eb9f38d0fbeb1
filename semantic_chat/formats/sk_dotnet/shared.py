"""Names, tables and small helpers both directions of .NET Semantic Kernel's JSON share.

.NET Semantic Kernel writes a ``ChatHistory`` with ``System.Text.Json`` as an array of
``ChatMessageContent`` objects with PascalCase keys; each item of ``Items`` is tagged by a
``"$type"`` discriminator (``KernelContent``'s ``[JsonDerivedType]`` attributes), which
``System.Text.Json`` requires to be the item's first key when it reads it back.
"""

from __future__ import annotations

from typing import Any

from ...contents import KernelContent
from ...errors import FormatError, describe_type
from ...media import normalize_mime_type
from ..codecs import PluginCodecs, run_decoder, run_encoder
from ..wire import HINT_KEYS

__all__ = [
    "BUILT_IN",
    "DISCRIMINATORS",
    "FORMAT",
    "HINTS",
    "NAME",
    "NOT_METADATA",
    "TYPE",
    "DotnetCodecs",
    "codecs",
    "mime_hint",
    "register_decoder",
    "register_encoder",
]

NAME = "sk-dotnet"
"""The format's name in the `semantic_chat.formats` registry."""

HINTS = "sk_dotnet"
"""The metadata key under which this format keeps what it needs to write a payload back."""

FORMAT = ".NET Semantic Kernel"
"""The format's name in messages (``.NET Semantic Kernel cannot carry ...``)."""

TYPE = "$type"
"""The key of an item's type discriminator."""

BUILT_IN = (
    "TextContent",
    "ImageContent",
    "AudioContent",
    "BinaryContent",
    "FileReferenceContent",
    "FunctionCallContent",
    "FunctionResultContent",
    "ReasoningContent",
)
"""The ``$type`` values this format reads into items of their own kind, which no plugin
decoder may take."""

DISCRIMINATORS = frozenset((*BUILT_IN, "ChatMessageContent", "ActionContent", "AnnotationContent"))
"""Every ``$type`` ``KernelContent`` declares (``[JsonDerivedType]``). The three that are not
`BUILT_IN` are read as `UnknownContent` (kept whole) unless a plugin decoder takes them."""

NOT_METADATA = HINT_KEYS | {HINTS, "sk_python"}
"""Metadata keys that hold a wire format's hints: never written into ``Metadata``."""


class DotnetCodecs(PluginCodecs):
    """Plugin codecs for a format whose items are tagged by ``"$type"`` rather than ``"type"``."""

    def encode(self, item: KernelContent, path: str) -> dict[str, Any] | None:
        """Write ``item`` with its encoder (``$type`` moved first), or ``None`` without one.

        Raises:
            FormatError: the encoder returned something other than an item object (a dict
                with a ``str`` ``"$type"``); the message names ``path`` and the item's class.
        """
        encode = self.encoder_for(item)
        if encode is None:
            return None
        part = run_encoder(encode, item, path)
        if type(part) is not dict or not isinstance(part.get(TYPE), str):
            got = "a dict without a str '$type'" if isinstance(part, dict) else describe_type(part)
            raise FormatError(
                f"the encoder for {type(item).__qualname__} returned {got}, "
                "expected an item dict",
                path=path,
            )
        return {TYPE: part[TYPE], **part}

    def decode(self, part: dict[str, Any], path: str) -> KernelContent | None:
        """Read ``part`` with the decoder of its ``$type``, or return ``None`` without one.

        Raises:
            FormatError: the decoder returned something other than an item; a library error
                the decoder raised is located at ``path``.
        """
        kind = part.get(TYPE)
        decode = self.decoders.get(kind) if isinstance(kind, str) else None
        if decode is None:
            return None
        return run_decoder(decode, part, f"$type {kind!r}", path)


codecs = DotnetCodecs(NAME, FORMAT, BUILT_IN)
"""Plugin encoders and decoders of this format (`semantic_chat.formats.register_encoder`).

A decoder is registered under a ``$type`` (``"ActionContent"``) and gets the item object; an
encoder returns one (a dict with a ``"$type"``, which the writer puts first)."""
register_encoder = codecs.register_encoder
"""``register_encoder(cls, encoder)``: ``formats.register_encoder("sk-dotnet", ...)``."""
register_decoder = codecs.register_decoder
"""``register_decoder(type, decoder)``: ``formats.register_decoder("sk-dotnet", ...)``."""


def mime_hint(raw: str | None) -> str | None:
    """Our ``mime_type`` for a .NET ``MimeType`` of a binary item, or ``None`` when ours refuses it.

    Ours checks a media type (``type/subtype``); .NET takes any string (its tests use
    ``mime-type-1``). The reader keeps such a value in the hints and writes it back.
    """
    if raw is None:
        return None
    try:
        return normalize_mime_type(raw)
    except ValueError:
        return None
