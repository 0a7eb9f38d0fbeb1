"""Names and tables both directions of OpenAI Chat Completions share, and its plugin codecs."""

from __future__ import annotations

from ..codecs import PluginCodecs

__all__ = [
    "AUDIO_FORMAT",
    "AUDIO_MIME",
    "FORMAT",
    "HINTS",
    "INSTRUCTION_ROLES",
    "MESSAGE_KEYS",
    "NAME",
    "PLAIN_ROLES",
    "ROLES",
    "codecs",
    "register_decoder",
    "register_encoder",
]


NAME = "openai-chat"
"""The format's name in the `semantic_chat.formats` registry."""

HINTS = "openai_chat"
"""The metadata key under which this format keeps what it needs to write a payload back."""

FORMAT = "OpenAI Chat Completions"
AUDIO_MIME = {"wav": "audio/wav", "mp3": "audio/mpeg"}
AUDIO_FORMAT = {mime: name for name, mime in AUDIO_MIME.items()} | {"audio/mp3": "mp3"}
INSTRUCTION_ROLES = frozenset(("system", "developer"))
PLAIN_ROLES = frozenset(("system", "developer", "user", "assistant"))
ROLES = frozenset(("system", "developer", "user", "assistant", "tool", "function"))
MESSAGE_KEYS = {
    "system": {"role", "content", "name"},
    "developer": {"role", "content", "name"},
    "user": {"role", "content", "name"},
    "assistant": {"role", "content", "name", "refusal", "tool_calls", "function_call", "audio"},
    "tool": {"role", "content", "tool_call_id"},
    "function": {"role", "content", "name"},
}

codecs = PluginCodecs(NAME, FORMAT, ("text", "refusal", "image_url", "input_audio", "file"))
"""Plugin encoders and decoders of this format (`semantic_chat.formats.register_encoder`)."""
register_encoder = codecs.register_encoder
"""``register_encoder(cls, encoder)``: ``formats.register_encoder("openai-chat", ...)``."""
register_decoder = codecs.register_decoder
"""``register_decoder(part_type, decoder)``: ``formats.register_decoder("openai-chat", ...)``."""
