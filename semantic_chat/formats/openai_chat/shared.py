"""Names and tables both directions of OpenAI Chat Completions share, and its plugin codecs."""

from __future__ import annotations

import mimetypes
from typing import Any, TypeVar

from ...contents import BinaryContent, FileContent, ImageContent
from ...errors import FormatError
from ...media import canonical_mime_type
from ..codecs import PluginCodecs
from ..wire import binary_from_data_url

__all__ = [
    "AUDIO_FORMAT",
    "AUDIO_MIME",
    "FORMAT",
    "HINTS",
    "IMAGE_TYPES",
    "INSTRUCTION_ROLES",
    "MESSAGE_KEYS",
    "NAME",
    "PLAIN_ROLES",
    "ROLES",
    "binary_from_base64",
    "codecs",
    "file_name",
    "image_type_refused",
    "read_data_url",
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

IMAGE_TYPES = frozenset(("image/png", "image/jpeg", "image/gif", "image/webp"))
"""The image types OpenAI takes (PNG, JPEG, WEBP, non-animated GIF), as `canonical_mime_type`
names them; a writer's quick path compares an item's type with it as it is held."""


def image_type_refused(item: ImageContent) -> str | None:
    """Why OpenAI cannot take an image's bytes (``of type image/bmp (...)``), or ``None``.

    The type is compared by its registered name, so ``image/jpg`` and ``IMAGE/PNG`` pass; the
    reason is worded for `unsupported`, as Anthropic's writer words it.
    """
    bare = canonical_mime_type(item.mime_type or "")
    if bare in IMAGE_TYPES:
        return None
    return f"of type {bare or 'unknown'} (JPEG, PNG, GIF or WebP only)"


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


_B = TypeVar("_B", bound=BinaryContent)


def binary_from_base64(cls: type[_B], text: str, mime_type: str, path: str, **fields: Any) -> _B:
    """``cls.from_base64`` with a bad base64 text refused at ``path`` (``...input_audio.data``).

    Raises:
        FormatError: the text is not strict base64, located at ``path``.
    """
    try:
        return cls.from_base64(text, mime_type=mime_type, **fields)
    except ValueError as error:
        raise FormatError(getattr(error, "detail", str(error)), path=path) from None


def read_data_url(cls: type[_B], url: str, path: str, **fields: Any) -> _B:
    """`binary_from_data_url`, as lenient as the constructors (``ImageContent(uri=...)``).

    The quick way takes strict base64 only; a URI it refuses is read again as
    `semantic_chat.media.parse_data_uri` reads it, which drops whitespace (the line breaks
    MIME encoders wrap base64 with) and percent-escapes. Only the failing case pays for it.

    Raises:
        FormatError: the URI cannot be read either way, located at ``path``.
    """
    try:
        return binary_from_data_url(cls, url, path, **fields)
    except FormatError as error:
        try:
            return cls.from_data_uri(url, **fields)
        except ValueError:
            raise error from None
