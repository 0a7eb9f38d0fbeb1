import io
import struct

import numpy as np
import pytest
from PIL import Image

from semantic_chat.media.imagesize import image_size
from semantic_chat.media.png import encode_png


def saved(image: Image.Image, image_format: str, **options: object) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, image_format, **options)
    return buffer.getvalue()


def gradient(width: int, height: int, mode: str = "RGB") -> Image.Image:
    y, x = np.mgrid[0:height, 0:width]
    rgb = np.dstack([x * 7 % 256, y * 5 % 256, (x + y) % 256]).astype(np.uint8)
    image = Image.fromarray(rgb).convert(mode)
    if mode == "RGBA":  # translucent, so that WebP writes VP8X with an ALPH chunk
        image.putalpha(Image.fromarray((x * y % 256).astype(np.uint8)))
    return image


@pytest.mark.parametrize(
    ("image_format", "mode", "options"),
    [
        ("PNG", "RGB", {}),
        ("PNG", "P", {}),
        ("GIF", "P", {}),
        ("JPEG", "RGB", {}),
        ("JPEG", "L", {}),
        ("JPEG", "RGB", {"progressive": True}),
        ("JPEG", "RGB", {"exif": b"Exif\0\0" + bytes(2000)}),
        ("JPEG", "CMYK", {}),
        ("WEBP", "RGB", {}),
        ("WEBP", "RGB", {"lossless": True}),
        ("WEBP", "RGBA", {}),
        ("BMP", "RGB", {}),
        ("BMP", "L", {}),
    ],
)
@pytest.mark.parametrize(("width", "height"), [(1, 1), (37, 11), (300, 517)])
def test_sizes_of_pillow_images(
    image_format: str, mode: str, options: dict[str, object], width: int, height: int
) -> None:
    data = saved(gradient(width, height, mode), image_format, **options)
    assert image_size(data) == (width, height)


def test_webp_chunk_kinds() -> None:
    assert saved(gradient(3, 2), "WEBP")[12:16] == b"VP8 "
    assert saved(gradient(3, 2), "WEBP", lossless=True)[12:16] == b"VP8L"
    assert saved(gradient(3, 2, "RGBA"), "WEBP")[12:16] == b"VP8X"


def test_large_dimensions() -> None:
    header = b"\x89PNG\r\n\x1a\n" + struct.pack(">I4sII", 13, b"IHDR", 100000, 70000)
    assert image_size(header) == (100000, 70000)
    vp8x = b"RIFF\0\0\0\0WEBPVP8X\x0a\0\0\0\x10\0\0\0" + (16383).to_bytes(3, "little") * 2
    assert image_size(vp8x) == (16384, 16384)
    vp8l_bits = (12344) | (9999 << 14)
    vp8l = b"RIFF\0\0\0\0WEBPVP8L\0\0\0\0\x2f" + struct.pack("<I", vp8l_bits) + b"\0"
    assert image_size(vp8l) == (12345, 10000)


def test_our_png() -> None:
    assert image_size(encode_png(np.zeros((5, 8, 3), np.uint8))) == (8, 5)


def test_bmp_headers() -> None:
    top_down = b"BM" + bytes(12) + struct.pack("<Iii", 40, 6, -4)
    assert image_size(top_down) == (6, 4)
    core = b"BM" + bytes(12) + struct.pack("<IHH", 12, 300, 200)
    assert image_size(core) == (300, 200)


def test_jpeg_with_fill_bytes_and_restart_markers() -> None:
    sof = b"\xff\xc0" + struct.pack(">HBHHB", 11, 8, 40, 60, 1) + b"\x01\x11\x00"
    data = b"\xff\xd8\xff\xff\xff\xe0\x00\x04ab\xff\xd0" + sof + b"\xff\xd9"
    assert image_size(data) == (60, 40)


@pytest.mark.parametrize(
    "data",
    [b"", b"hello", b"BM", b"BMW cars are not bitmaps", b"RIFF\0\0\0\0WAVEfmt ", b"%PDF-1.4",
     b"\0\0\0\x18ftypavif"],
)
def test_unrecognised(data: bytes) -> None:
    assert image_size(data) is None


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0", "PNG: truncated header"),
        (b"\x89PNG\r\n\x1a\n\0\0\0\rIDAT" + bytes(8), "PNG: the first chunk is not IHDR"),
        (b"GIF89a\x01", "GIF: truncated header"),
        (b"\xff\xd8\xff\xe0\x00\x10JFIF", "JPEG: truncated header"),
        (b"\xff\xd8\xff\xe0\x00\x04ab\xff\xd9", "JPEG: no start-of-frame marker"),
        (b"\xff\xd8\xff\xda\x00\x04ab", "JPEG: no start-of-frame marker"),
        (b"\xff\xd8\xff\xe0\x00\x04ab\x00\x00", "JPEG: expected a marker at byte 8"),
        (b"\xff\xd8\xff\xe0\x00\x01", "JPEG: invalid segment length 1"),
        (b"\xff\xd8\xff\xc0\x00\x0b\x08\x00\x00\x00\x10\x01", "DNL"),
        (b"RIFF\0\0\0\0WEBPVP8 ", "WebP: truncated header"),
        (b"RIFF\0\0\0\0WEBPVP8 " + bytes(14), "WebP: bad VP8 start code"),
        (b"RIFF\0\0\0\0WEBPVP8L" + bytes(14), "WebP: bad VP8L signature"),
        (b"RIFF\0\0\0\0WEBPABCD" + bytes(14), "WebP: unknown first chunk"),
        (b"BM" + bytes(12) + struct.pack("<I", 40) + b"\x01", "BMP: truncated header"),
        (b"BM" + bytes(12) + struct.pack("<Iii", 40, -3, 4), "BMP: invalid width -3"),
    ],
)
def test_corrupt_headers(data: bytes, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        image_size(data)


def test_jpeg_without_markers_before_frame_needs_enough_bytes() -> None:
    data = saved(gradient(20, 10), "JPEG")
    sof = data.index(b"\xff\xc0")
    assert image_size(data[: sof + 9]) == (20, 10)
    with pytest.raises(ValueError, match="JPEG: truncated header"):
        image_size(data[: sof + 8])
