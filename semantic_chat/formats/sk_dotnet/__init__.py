""".NET Semantic Kernel's own JSON: what ``JsonSerializer.Serialize(chatHistory)`` writes.

A history is an array of ``ChatMessageContent`` objects in PascalCase: ``AuthorName``,
``"Role": {"Label": "user"}``, ``Items``, ``MimeType``, ``ModelId``, ``Metadata``. Each item
is tagged by ``"$type"`` (first, as ``System.Text.Json`` needs to read it back):
``TextContent``, ``ImageContent`` / ``AudioContent`` / ``BinaryContent`` (``Uri`` and base64
``Data``), ``FileReferenceContent`` (``FileId``, as `FileContent`), ``FunctionCallContent``
(``Id``, ``PluginName``, ``FunctionName``, the ``Arguments`` dictionary),
``FunctionResultContent`` (``CallId``, ``Result``) and ``ReasoningContent``;
``ActionContent``, ``AnnotationContent``, a nested ``ChatMessageContent`` and newer kinds are
kept whole as `UnknownContent`. ``Encoding`` is not in the JSON (.NET ignores it).

A plugin and function name pair is held as Semantic Kernel's qualified name,
``Plugin-Function``; the plugin is kept in ``metadata["sk_dotnet"]`` with every other thing
our model has no field for, so that ``to_payload(from_payload(p)) == p``.

``register_encoder(cls, encoder)`` and ``register_decoder(type, decoder)`` are
`semantic_chat.formats.register_encoder` and ``register_decoder`` with the format name
``"sk-dotnet"`` given; a decoder is registered under a ``$type``.
"""

from __future__ import annotations

from .reading import from_payload as from_payload
from .shared import FORMAT as FORMAT
from .shared import HINTS as HINTS
from .shared import NAME as NAME
from .shared import register_decoder as register_decoder
from .shared import register_encoder as register_encoder
from .writing import to_payload as to_payload

__all__ = [
    "FORMAT",
    "HINTS",
    "NAME",
    "from_payload",
    "register_decoder",
    "register_encoder",
    "to_payload",
]
