"""Media types: validation, magic-byte sniffing and guessing from file names.

Named ``mediatype`` rather than ``mimetypes`` so it never shadows the stdlib module.
"""

from __future__ import annotations

import functools
import mimetypes
import re

__all__ = [
    "canonical_mime_type",
    "guess_mime_type",
    "kind_of_mime_type",
    "normalize_mime_type",
    "sniff_mime_type",
    "split_mime_type",
]

# RFC 6838 section 4.2 restricted-name: 1 to 127 characters, the first alphanumeric.
_RESTRICTED_NAME = r"[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}"
_TYPE_RE = re.compile(rf"({_RESTRICTED_NAME})/({_RESTRICTED_NAME})")
# RFC 2045 token: printable ASCII except space and tspecials.
_TOKEN_RE = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
# Parameter values: anything printable but the separators of the media-type syntax.
_VALUE_RE = re.compile(r"[^\x00-\x20\x7f;,]*")

Parameter = tuple[str, str | None]
"""A media-type parameter as written: ``(name, value)``; the value is ``None`` for a bare token.

``;utf8`` is ``("utf8", None)``, ``;name=`` is ``("name", "")``, ``;a=b=c`` is ``("a", "b=c")``
and an empty parameter (``text/plain;``) is ``("", None)``.
"""
Parameters = tuple[Parameter, ...]


def parse_type(text: str) -> str | None:
    """Return ``type/subtype`` as written, or None when *text* is not a restricted-name pair."""
    return text if _TYPE_RE.fullmatch(text) else None


def parse_parameter(segment: str) -> Parameter:
    """Read one parameter, the text between two ``;``, ignoring whitespace around it.

    Lenient on purpose, so that media types other libraries write are read and written back
    unchanged: a bare token (``utf8``), an empty parameter, an empty value (``name=``) and
    ``=`` inside a value (``a=b=c``) are all accepted, names and values keep their case.

    Raises:
        ValueError: Saying what is wrong with the parameter, without saying where (the
            caller knows): a value without a name, a name that is not an RFC 2045 token,
            whitespace, a control character, ``;`` or ``,`` in the value, or a bare ``base64``
            (which a ``data:`` URI would read as its encoding marker).
    """
    text = segment.strip()
    name, sep, value = text.partition("=")
    if not sep:
        if text and not _TOKEN_RE.fullmatch(text):
            raise ValueError("is neither a token nor name=value")
        if text.lower() == "base64":
            raise ValueError("is the data URI marker ';base64', which must come last")
        return text, None
    if not name:
        raise ValueError("has no name before '='")
    if not _TOKEN_RE.fullmatch(name):
        raise ValueError(f"has a name {name!r} that is not a token")
    if not _VALUE_RE.fullmatch(value):
        raise ValueError("has whitespace, a control character, ';' or ',' in its value")
    return name, value


def format_parameter(name: str, value: str | None) -> str:
    """Write a parameter the way `parse_parameter` reads it: ``name``, or ``name=value``."""
    return name if value is None else f"{name}={value}"


@functools.lru_cache(maxsize=1024)  # histories repeat a handful of types
def split_mime_type(value: str) -> tuple[str, Parameters]:
    """Split a media type into its bare ``type/subtype`` and its parameters.

    Nothing is lower-cased: the type and the parameters keep their case as given, so a media
    type read from a ``data:`` URI is written back as it came (compare kinds with
    `kind_of_mime_type`, which is case-insensitive). Parameters are read by `parse_parameter`.

    Args:
        value: A media type such as ``"audio/L16; rate=16000"`` or ``"text/plain;utf8"``.

    Returns:
        The ``type/subtype`` and the parameters in order, whitespace around them dropped.

    Raises:
        ValueError: If *value* is not ``type/subtype`` made of RFC 6838 restricted names,
            or a parameter is unreadable; the message names the parameter by its position.
    """
    head, *segments = value.strip().split(";")
    bare = parse_type(head.strip())
    if bare is None:
        raise ValueError(f"malformed media type {value!r}: expected type/subtype")
    parameters = []
    for number, segment in enumerate(segments, 1):
        try:
            parameters.append(parse_parameter(segment))
        except ValueError as error:
            raise ValueError(
                f"malformed media type {value!r}: parameter {number} {segment.strip()!r} {error}"
            ) from None
    return bare, tuple(parameters)


@functools.lru_cache(maxsize=1024)
def normalize_mime_type(value: str) -> str:
    """Validate a media type and return it without whitespace around its parts.

    The case is kept and the type is never "corrected" to another one (``audio/mp3`` stays
    ``audio/mp3``, ``IMAGE/PNG`` stays ``IMAGE/PNG``), and parameters are kept in order and
    spelling (bare tokens, empty parameters and empty values included), so that a media type
    is written back exactly as it was read.

    Args:
        value: A media type such as ``"image/PNG"`` or ``"text/plain; charset=UTF-8"``.

    Returns:
        The media type, e.g. ``"image/PNG"`` or ``"text/plain;charset=UTF-8"``.

    Raises:
        ValueError: If *value* is not a syntactically valid media type (see `split_mime_type`).
    """
    bare, parameters = split_mime_type(value)
    return bare + "".join(";" + format_parameter(name, val) for name, val in parameters)


def kind_of_mime_type(mime_type: str) -> str:
    """Return the lower-cased top-level type (``"image"``, ``"audio"``, ``"text"`` ...).

    Media types keep the case they were given, so this is the way to ask what kind one is.

    Args:
        mime_type: A media type, with or without parameters, in any case.

    Returns:
        The part before the ``/``, lower-cased.

    Raises:
        ValueError: If *mime_type* is not a syntactically valid media type.
    """
    return split_mime_type(mime_type)[0].partition("/")[0].lower()


# Names other software gives a type, and the registered name `sniff_mime_type` and
# `guess_mime_type` give it: Python's ``mimetypes`` says ``audio/x-wav`` for ``a.wav``.
_ALIASES = {
    "image/jpg": "image/jpeg",
    "audio/x-wav": "audio/wav",
    "audio/wave": "audio/wav",
    "audio/vnd.wave": "audio/wav",
    "audio/mp3": "audio/mpeg",
    "audio/x-mp3": "audio/mpeg",
    "audio/mpeg3": "audio/mpeg",
}


def canonical_mime_type(mime_type: str) -> str:
    """Return the bare ``type/subtype``, lower-cased, with a well-known alias replaced.

    For writers that compare a type with the list an API takes and must send the registered
    name (``image/jpg`` is ``image/jpeg``, ``audio/x-wav`` is ``audio/wav``, ``audio/mp3`` is
    ``audio/mpeg``); the content classes keep the type as given. Parameters are dropped, and
    nothing is validated: a malformed type comes back lower-cased, matching no API's list.
    """
    bare = mime_type.partition(";")[0].strip().lower()
    return _ALIASES.get(bare, bare)


_MP4_BRANDS = {
    b"M4A ": "audio/mp4",
    b"M4B ": "audio/mp4",
    b"avif": "image/avif",
    b"avis": "image/avif",
    b"heic": "image/heic",
    b"heix": "image/heic",
    b"mif1": "image/heif",
    b"msf1": "image/heif",
    b"qt  ": "video/quicktime",
}
_BMP_HEADER_SIZES = frozenset({12, 40, 52, 56, 64, 108, 124})


def _ebml_vint(data: bytes, pos: int, *, keep_marker: bool) -> tuple[int, int] | None:
    """Read an EBML variable-length integer at *pos*; return (value, next position)."""
    if pos >= len(data) or data[pos] == 0:
        return None
    first = data[pos]
    length = 8 - first.bit_length() + 1
    if pos + length > len(data):
        return None
    value = first if keep_marker else first & (0xFF >> length)
    for byte in data[pos + 1 : pos + length]:
        value = (value << 8) | byte
    return value, pos + length


def _ebml_doctype(data: bytes) -> bytes | None:
    """Return the DocType of the EBML header at the start of *data*, if readable."""
    header = _ebml_vint(data, 4, keep_marker=False)
    if header is None:
        return None
    size, pos = header
    end = min(len(data), pos + size)
    while pos < end:
        element = _ebml_vint(data, pos, keep_marker=True)
        if element is None:
            return None
        element_id, pos = element
        length = _ebml_vint(data, pos, keep_marker=False)
        if length is None:
            return None
        size, pos = length
        if element_id == 0x4282:
            return data[pos : pos + size].rstrip(b"\0")
        pos += size
    return None


def _is_mpeg_audio_frame(data: bytes) -> bool:
    """Whether *data* starts with an MPEG audio frame header (layer I, II or III)."""
    if len(data) < 3 or data[0] != 0xFF or data[1] & 0xE0 != 0xE0:
        return False
    version = (data[1] >> 3) & 3
    layer = (data[1] >> 1) & 3
    bitrate = data[2] >> 4
    rate = (data[2] >> 2) & 3
    return version != 1 and layer != 0 and bitrate != 15 and rate != 3


def sniff_mime_type(data: bytes) -> str | None:
    """Identify common image, audio, video and document formats from their magic bytes.

    Recognises PNG, JPEG, GIF, WebP, BMP, WAV, MP3, AAC (ADTS), FLAC, Ogg, WebM,
    Matroska, MP4/M4A (plus AVIF/HEIC/QuickTime by their ``ftyp`` brand) and PDF.

    Args:
        data: The first bytes of a file; a few dozen are enough.

    Returns:
        The media type, or None when the format is not recognised.
    """
    head = bytes(data[:64])
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if head.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if head[:6] in (b"GIF87a", b"GIF89a"):
        return "image/gif"
    if head.startswith(b"RIFF") and len(head) >= 12:
        return {b"WEBP": "image/webp", b"WAVE": "audio/wav", b"AVI ": "video/x-msvideo"}.get(
            head[8:12]
        )
    if (
        head.startswith(b"BM")
        and len(head) >= 18
        and int.from_bytes(head[14:18], "little") in _BMP_HEADER_SIZES
    ):
        return "image/bmp"
    if head.startswith(b"ID3") or _is_mpeg_audio_frame(head):
        return "audio/mpeg"
    if len(head) >= 2 and head[0] == 0xFF and head[1] & 0xF6 == 0xF0:
        return "audio/aac"
    if head.startswith(b"fLaC"):
        return "audio/flac"
    if head.startswith(b"OggS"):
        return "audio/ogg"
    if head.startswith(b"\x1a\x45\xdf\xa3"):
        doctype = _ebml_doctype(bytes(data[:4096]))
        return "video/x-matroska" if doctype == b"matroska" else "video/webm"
    if head[4:8] == b"ftyp" and len(head) >= 12:
        return _MP4_BRANDS.get(head[8:12], "video/mp4")
    if head.startswith(b"%PDF-"):
        return "application/pdf"
    return None


# Our own table wins over the stdlib so the answer never depends on the host's mime database.
_EXTENSIONS = {
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
    ".bmp": "image/bmp",
    ".svg": "image/svg+xml",
    ".avif": "image/avif",
    ".heic": "image/heic",
    ".wav": "audio/wav",
    ".mp3": "audio/mpeg",
    ".flac": "audio/flac",
    ".ogg": "audio/ogg",
    ".oga": "audio/ogg",
    ".opus": "audio/ogg",
    ".m4a": "audio/mp4",
    ".aac": "audio/aac",
    ".webm": "video/webm",
    ".mkv": "video/x-matroska",
    ".mp4": "video/mp4",
    ".mov": "video/quicktime",
    ".pdf": "application/pdf",
    ".txt": "text/plain",
    ".md": "text/markdown",
    ".markdown": "text/markdown",
    ".csv": "text/csv",
    ".html": "text/html",
    ".htm": "text/html",
    ".json": "application/json",
    ".jsonl": "application/jsonl",
    ".yaml": "application/yaml",
    ".yml": "application/yaml",
    ".xml": "application/xml",
    ".zip": "application/zip",
    ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    ".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    ".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    ".gz": "application/gzip",
}
# A private instance holds only Python's built-in table, never the host's files or registry.
_BUILTIN_TYPES = mimetypes.MimeTypes()


def guess_mime_type(filename: str) -> str | None:
    """Guess a media type from a file name's extension (case-insensitive).

    Our own table is consulted first, then Python's built-in table (never the operating
    system's mime database), so the answer is the same on every machine.

    Args:
        filename: A file name or path, e.g. ``"photo.JPG"`` or ``"/tmp/a/notes.md"``.

    Returns:
        The media type, or None when the extension is missing or unknown.
    """
    name = filename.replace("\\", "/").rpartition("/")[2]
    stem, dot, extension = name.rpartition(".")
    if not dot or not stem.strip("."):
        return None
    suffix = "." + extension.lower()
    return (
        _EXTENSIONS.get(suffix)
        or _BUILTIN_TYPES.types_map[True].get(suffix)
        or _BUILTIN_TYPES.types_map[False].get(suffix)
    )
