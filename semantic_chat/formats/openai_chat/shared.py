"""Names and tables both directions of OpenAI Chat Completions share, and its plugin codecs."""

from __future__ import annotations

import mimetypes

from ...contents import FileContent
from ...media import canonical_mime_type
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
    "file_name",
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


# --- What both OpenAI formats share about media ---------------------------------------------

_EXTENSIONS = {
    "application/pdf": ".pdf",
    "text/plain": ".txt",
    "text/markdown": ".md",
    "text/csv": ".csv",
    "text/html": ".html",
    "application/json": ".json",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document": ".docx",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": ".xlsx",
    "application/vnd.openxmlformats-officedocument.presentationml.presentation": ".pptx",
}
"""Extensions for a made-up filename, before Python's built-in table (never the host's)."""
_BUILTIN_TYPES = mimetypes.MimeTypes()


def file_name(item: FileContent) -> str:
    """The filename to send with a file's data: its own, else ``file`` and its type's extension.

    OpenAI refuses ``file_data`` without a ``filename`` (400 ``Missing required parameter``),
    and a file read elsewhere may have none (an Anthropic document without a title, Gemini
    inline data): ``application/pdf`` is sent as ``file.pdf``, ``text/plain`` as
    ``file.txt``, a type with no known extension as ``file``.
    """
    if item.filename is not None:
        return item.filename
    bare = canonical_mime_type(item.mime_type or "")
    extension = _EXTENSIONS.get(bare) or _BUILTIN_TYPES.guess_extension(bare) or ""
    return "file" + extension
