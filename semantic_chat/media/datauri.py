"""RFC 2397 ``data:`` URIs, read leniently and written back unchanged, and strict base64."""

from __future__ import annotations

import binascii
import dataclasses
import re
import sys
import urllib.parse
from collections.abc import Iterable

from ..errors import InvalidTypeError, InvalidValueError, describe_type
from .mediatype import Parameters, format_parameter, parse_parameter, parse_type, split_mime_type

__all__ = ["DataURI", "decode_base64", "encode_base64", "format_data_uri", "parse_data_uri"]

_ALPHABET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
_WHITESPACE = " \t\n\r\f\v"
_DROP_WHITESPACE = str.maketrans("", "", _WHITESPACE)
_BASE64_RE = re.compile(r"[A-Za-z0-9+/]*={0,2}")


@dataclasses.dataclass(frozen=True, slots=True)
class DataURI:
    """The parts of a parsed ``data:`` URI.

    Attributes:
        mime_type: ``type/subtype`` in the case written; ``text/plain`` when the URI omits it.
        parameters: Media-type parameters in order and as written (see
            `semantic_chat.media.mediatype.parse_parameter`): ``(name, value)``, the value
            ``None`` for a bare token such as ``utf8`` and ``("", None)`` for an empty one.
        data: The decoded payload.
        base64: Whether the URI used the ``;base64`` encoding.
    """

    mime_type: str
    parameters: Parameters
    data: bytes
    base64: bool


def _base64_problem(text: str, *, skip_whitespace: bool) -> tuple[int, str]:
    """Locate the first defect of a base64 string: (index into *text*, explanation)."""
    data_chars = 0  # alphabet characters seen so far
    padding = 0
    for index, char in enumerate(text):
        if char in _ALPHABET:
            if padding:
                return index, f"{char!r} after the '=' padding"
            data_chars += 1
        elif char == "=":
            rest = data_chars % 4
            if rest < 2:
                return index, "unexpected '=' padding"
            padding += 1
            if padding > 4 - rest:
                return index, "too much '=' padding"
        elif skip_whitespace and char in _WHITESPACE:
            continue
        else:
            return index, f"{char!r} is not a base64 character"
    rest = data_chars % 4
    if padding == 0 and rest:
        return len(text), (
            f"{data_chars} base64 characters is not a multiple of 4 (missing '=' padding?)"
        )
    if padding and padding < 4 - rest:
        return len(text), "incomplete '=' padding"
    return len(text), "rejected by the decoder"


def _a2b_validated(text: str) -> bytes:
    """Decode base64 after checking its characters (for Python 3.10: no ``strict_mode``)."""
    if not _BASE64_RE.fullmatch(text):
        raise ValueError("invalid base64")
    return binascii.a2b_base64(text)


if sys.version_info >= (3, 11):

    def _a2b(text: str) -> bytes:
        return binascii.a2b_base64(text, strict_mode=True)

else:
    _a2b = _a2b_validated


def _a2b_strict(text: str) -> bytes:
    """Decode base64 that must be exactly canonical in alphabet, length and padding.

    ``binascii.a2b_base64(strict_mode=True)`` still accepts '=' after a complete group
    (``"aGVs="``), so the length is checked against the input as well.
    """
    decoded = _a2b(text)
    if len(text) % 4 or len(decoded) != len(text) // 4 * 3 - text.count("=", len(text) - 2):
        raise ValueError("excess padding")
    return decoded


def encode_base64(data: bytes) -> str:
    """Encode bytes as standard base64 with padding and no line breaks.

    Args:
        data: The bytes to encode.

    Returns:
        The ASCII base64 text.
    """
    return binascii.b2a_base64(data, newline=False).decode("ascii")


def decode_base64(text: str) -> bytes:
    """Decode strict standard base64: the ``+/`` alphabet, correct ``=`` padding, no whitespace.

    Args:
        text: The base64 text.

    Returns:
        The decoded bytes.

    Raises:
        ValueError: Naming the index of the first offending character, or saying that the
            length or padding is wrong.
    """
    try:
        return _a2b_strict(text)
    except ValueError:
        index, why = _base64_problem(text, skip_whitespace=False)
        raise ValueError(f"invalid base64 at character {index}: {why}") from None


_BASE64_ALPHABET = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_PADDING = {b"=": "=", b"==": "=="}


def check_base64(text: str) -> None:
    """Check that text is strict standard base64 without decoding it.

    Readers keep base64 undecoded until the bytes are needed; this checks it up front at a
    fraction of the cost of decoding.

    Raises:
        ValueError: As `decode_base64`, naming the first offending character.
    """
    # What is left after deleting the alphabet must be the padding, and the padding must be
    # the text's last one or two characters (no copy of the text without its padding).
    try:
        left = text.encode("ascii").translate(None, _BASE64_ALPHABET)
    except UnicodeEncodeError:
        left = b"?"  # not ASCII: decode_base64 below names the character
    if len(text) % 4 == 0 and (not left or _PADDING.get(left) == text[-len(left) :]):
        return
    decode_base64(text)  # raises, saying where the text goes wrong
    raise ValueError("invalid base64: not canonical standard base64 text")


def _decode_payload(payload: str, path: str) -> bytes:
    """Decode a base64 data-URI payload, tolerating whitespace and percent-escapes."""
    where = ""
    if "%" in payload:
        payload = urllib.parse.unquote_to_bytes(payload).decode("latin-1")
        where = " of the percent-decoded payload"
    try:
        return _a2b_strict(payload.translate(_DROP_WHITESPACE))
    except ValueError:
        index, why = _base64_problem(payload, skip_whitespace=True)
        raise InvalidValueError(
            f"data URI: invalid base64 payload at character {index}{where}: {why}", path=path
        ) from None


def parse_data_uri(text: str, *, path: str = "") -> DataURI:
    """Parse an RFC 2397 ``data:[<mediatype>][;base64],<data>`` URI, leniently.

    What other libraries write is read, so that it can be written back unchanged: the media
    type keeps its case, and its parameters are read by
    `semantic_chat.media.mediatype.parse_parameter`, which accepts bare tokens
    (``;utf8``), empty parameters (``text/plain;,x``), empty values (``name=``) and ``=``
    inside values (``a=b=c``). Surrounding whitespace, whitespace around parameters and the
    case of ``data:`` and ``;base64`` are ignored. A base64 payload may contain whitespace
    (dropped) and percent-escapes but must otherwise be valid, padding included; any other
    payload is percent-decoded. When the media type is omitted the type is ``text/plain``
    (RFC 2397) and the parameters are only those written, so ``data:,x`` has no parameters
    rather than an implied ``charset=US-ASCII``.

    Only what cannot be read is refused: no ``data:`` scheme, no ``,``, a media type that is
    not ``type/subtype``, a parameter that is neither a token nor ``name=value`` (or has
    whitespace in its value), ``;base64`` anywhere but last, and invalid base64.

    Args:
        text: The URI.
        path: Where the URI is, for the errors (``messages[0].items[1].uri``); may be empty.

    Returns:
        The media type, parameters, decoded payload and whether it was base64.

    Raises:
        InvalidTypeError: If *text* is not a ``str``.
        InvalidValueError: If the URI cannot be read; after *path*, the message says what is
            wrong and where: the media type, the parameter by its position, or the character
            of the base64 payload.
    """
    given: object = text  # callers outside the type checker pass None and bytes too
    if not isinstance(given, str):
        got = describe_type(given)
        raise InvalidTypeError(
            f"data URI: expected str, got {got}", path=path, expected="str", got=got
        )
    text = text.strip()
    if text[:5].lower() != "data:":
        raise InvalidValueError("data URI: must start with 'data:'", path=path)
    header, comma, payload = text[5:].partition(",")
    if not comma:
        raise InvalidValueError(
            "data URI: missing ',' separating the header from the data", path=path
        )
    segments = header.split(";")
    is_base64 = len(segments) > 1 and segments[-1].strip().lower() == "base64"
    if is_base64:
        segments.pop()
    head = segments[0].strip()
    mime_type = parse_type(head) if head else "text/plain"
    if mime_type is None:
        raise InvalidValueError(
            f"data URI: malformed media type {head!r}: expected type/subtype", path=path
        )
    parameters = []
    for number, segment in enumerate(segments[1:], 1):
        try:
            parameters.append(parse_parameter(segment))
        except ValueError as error:
            raise InvalidValueError(
                f"data URI: malformed parameter {number} {segment.strip()!r}: {error}",
                path=path,
            ) from None
    data = (
        _decode_payload(payload, path) if is_base64 else urllib.parse.unquote_to_bytes(payload)
    )
    return DataURI(mime_type, tuple(parameters), data, is_base64)


def format_data_uri(
    mime_type: str, data: bytes, parameters: Iterable[tuple[str, str | None]] = ()
) -> str:
    """Write a base64 ``data:`` URI, the media type and its parameters exactly as given.

    Nothing is lower-cased or dropped, so a media type `parse_data_uri` read is written back
    unchanged: ``format_data_uri(uri.mime_type, uri.data, uri.parameters)`` gives the text
    back for any URI that was base64 (the payload is always written as base64).

    Args:
        mime_type: ``type/subtype``; parameters written inside it (``"audio/L16;rate=16000"``)
            come before those in *parameters*. Whitespace around its parts is dropped.
        data: The payload.
        parameters: Extra media-type parameters in order: ``(name, value)``, or
            ``(name, None)`` for a bare token (``utf8``); ``("", None)`` is an empty one.

    Returns:
        ``data:<type/subtype>;<parameter>...;base64,<payload>``.

    Raises:
        ValueError: If the media type or a parameter is malformed: a name must be a token
            (``""`` only for an empty parameter, ``base64`` not as a bare token), a value
            may be empty but has no whitespace, control characters, ``;`` or ``,``.
    """
    bare, inline = split_mime_type(mime_type)
    parts = ["data:", bare]
    for number, (name, value) in enumerate((*inline, *parameters), 1):
        segment = format_parameter(name, value)
        try:
            read = parse_parameter(segment)
            if read != (name, value):
                raise ValueError(f"would be read back as {read!r}")
        except ValueError as error:
            raise InvalidValueError(
                f"data URI: malformed parameter {number} {(name, value)!r}: {error}"
            ) from None
        parts.append(";")
        parts.append(segment)
    parts.append(";base64,")
    parts.append(encode_base64(data))
    return "".join(parts)
