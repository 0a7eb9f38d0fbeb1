"""Image dimensions read from file headers, without decoding any pixels."""

from __future__ import annotations

import struct
from collections.abc import Callable

from .mediatype import sniff_mime_type

__all__ = ["image_size"]

# Start-of-frame markers carry the size; C4 (DHT), C8 (JPG) and CC (DAC) are not frames.
_SOF_MARKERS = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
# Markers without a length field: TEM, RST0-7, SOI.
_STANDALONE = frozenset({0x01, *range(0xD0, 0xD9)})


def _need(data: bytes, size: int, what: str) -> None:
    """Raise ValueError when *data* is shorter than *size* bytes."""
    if len(data) < size:
        raise ValueError(f"{what}: truncated header ({len(data)} bytes, need {size})")


def _png(data: bytes) -> tuple[int, int]:
    """Width and height from the IHDR chunk."""
    _need(data, 24, "PNG")
    if data[12:16] != b"IHDR":
        raise ValueError("PNG: the first chunk is not IHDR")
    width, height = struct.unpack_from(">II", data, 16)
    return width, height


def _gif(data: bytes) -> tuple[int, int]:
    """Width and height of the logical screen."""
    _need(data, 10, "GIF")
    width, height = struct.unpack_from("<HH", data, 6)
    return width, height


def _jpeg(data: bytes) -> tuple[int, int]:
    """Walk the marker segments to the first start-of-frame."""
    position = 2
    while True:
        _need(data, position + 2, "JPEG")
        if data[position] != 0xFF:
            raise ValueError(f"JPEG: expected a marker at byte {position}")
        marker = data[position + 1]
        if marker == 0xFF:  # fill byte
            position += 1
            continue
        position += 2
        if marker in _STANDALONE:
            continue
        if marker in (0xD9, 0xDA):
            raise ValueError("JPEG: no start-of-frame marker before the image data")
        _need(data, position + 2, "JPEG")
        (length,) = struct.unpack_from(">H", data, position)
        if length < 2:
            raise ValueError(f"JPEG: invalid segment length {length} at byte {position}")
        if marker in _SOF_MARKERS:
            _need(data, position + 7, "JPEG")
            height, width = struct.unpack_from(">HH", data, position + 3)
            if height == 0:
                raise ValueError("JPEG: the height is deferred to a DNL marker (unsupported)")
            return width, height
        position += length


def _webp(data: bytes) -> tuple[int, int]:
    """Width and height from the VP8, VP8L or VP8X chunk."""
    _need(data, 16, "WebP")
    chunk = data[12:16]
    _need(data, 25 if chunk == b"VP8L" else 30, "WebP")
    if chunk == b"VP8 ":
        if data[23:26] != b"\x9d\x01\x2a":
            raise ValueError("WebP: bad VP8 start code")
        width, height = struct.unpack_from("<HH", data, 26)
        return width & 0x3FFF, height & 0x3FFF
    if chunk == b"VP8L":
        if data[20] != 0x2F:
            raise ValueError("WebP: bad VP8L signature")
        (bits,) = struct.unpack_from("<I", data, 21)
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X":
        width = int.from_bytes(data[24:27], "little") + 1
        height = int.from_bytes(data[27:30], "little") + 1
        return width, height
    raise ValueError(f"WebP: unknown first chunk {chunk!r}")


def _bmp(data: bytes) -> tuple[int, int]:
    """Width and height from the DIB header."""
    (header_size,) = struct.unpack_from("<I", data, 14)
    if header_size == 12:  # BITMAPCOREHEADER: unsigned 16-bit
        _need(data, 22, "BMP")
        width, height = struct.unpack_from("<HH", data, 18)
        return width, height
    _need(data, 26, "BMP")
    width, height = struct.unpack_from("<ii", data, 18)
    if width <= 0:
        raise ValueError(f"BMP: invalid width {width}")
    return width, abs(height)  # a negative height means rows are stored top-down


_READERS: dict[str, Callable[[bytes], tuple[int, int]]] = {
    "image/png": _png,
    "image/gif": _gif,
    "image/jpeg": _jpeg,
    "image/webp": _webp,
    "image/bmp": _bmp,
}


def image_size(data: bytes) -> tuple[int, int] | None:
    """Read an image's (width, height) from its header without decoding pixels.

    Knows PNG (IHDR), GIF (logical screen), JPEG (first start-of-frame marker), WebP
    (VP8, VP8L and VP8X) and BMP. The size is the stored one: a JPEG's EXIF orientation
    is not applied.

    Args:
        data: The image file, or at least its first bytes (for JPEG, up to the frame
            header, which follows the metadata segments).

    Returns:
        ``(width, height)``, or None when the format is not recognised. A BMP is
        recognised only with its 18-byte prefix, since ``BM`` alone is too common.

    Raises:
        ValueError: If the format is recognised but the header is truncated or corrupt.
    """
    reader = _READERS.get(sniff_mime_type(data) or "")
    return reader(data) if reader else None
