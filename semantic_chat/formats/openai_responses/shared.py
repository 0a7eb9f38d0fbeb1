"""Names and tables both directions of OpenAI Responses share, and its plugin codecs."""

from __future__ import annotations

from typing import Any

from ..codecs import PluginCodecs

__all__ = [
    "AUDIO_MIME",
    "CHAT_HINTS",
    "FORMAT",
    "HINTS",
    "MESSAGE_KEYS",
    "NAME",
    "OPAQUE_PROVIDER",
    "ROLES",
    "codecs",
    "default_is_string",
    "register_decoder",
    "register_encoder",
]


NAME = "openai-responses"
"""The format's name in the `semantic_chat.formats` registry."""

HINTS = "openai_responses"
"""The metadata key under which this format keeps what it needs to write a payload back."""

CHAT_HINTS = "openai_chat"
"""The Chat Completions hints: a custom tool call is marked ``{"custom": True}`` there; both
OpenAI formats read and write that one mark, so a custom call keeps its kind across them."""

FORMAT = "OpenAI Responses"
AUDIO_MIME = {"wav": "audio/wav", "mp3": "audio/mpeg"}
MESSAGE_KEYS = ("role", "content")
OPAQUE_PROVIDER = "openai"
ROLES = frozenset(("system", "developer", "user", "assistant", "tool"))

codecs = PluginCodecs(
    NAME,
    FORMAT,
    ("input_text", "output_text", "refusal", "input_image", "input_file", "input_audio"),
)
"""Plugin encoders and decoders of this format (`semantic_chat.formats.register_encoder`)."""
register_encoder = codecs.register_encoder
"""``register_encoder(cls, encoder)``: ``formats.register_encoder("openai-responses", ...)``."""
register_decoder = codecs.register_decoder
"""``register_decoder(part_type, decoder)``: the same as ``formats.register_decoder``."""

def default_is_string(content: list[Any]) -> bool:
    """Whether the writer would write this part list as a plain string."""
    return (
        len(content) == 1
        and isinstance(content[0], dict)
        and content[0].get("type") == "input_text"
        and len(content[0]) == 2
    )
