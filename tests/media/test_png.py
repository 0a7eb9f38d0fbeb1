import io
import struct
import sys
import zlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from PIL import Image

from semantic_chat.media import png
from semantic_chat.media.png import PNGUnsupportedError, decode_image, decode_png, encode_png

SIGNATURE = b"\x89PNG\r\n\x1a\n"


def chunk(kind: bytes, payload: bytes = b"") -> bytes:
    crc = zlib.crc32(kind + payload)
    return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", crc)


def make_png(raw: bytes, width: int, height: int, colour: int, *, depth: int = 8,
             interlace: int = 0, extra: tuple[bytes, ...] = (), idat_size: int = 0) -> bytes:
    ihdr = struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, interlace)
    compressed = zlib.compress(raw)
    step = idat_size or len(compressed)
    idats = [chunk(b"IDAT", compressed[i : i + step]) for i in range(0, len(compressed), step)]
    return SIGNATURE + chunk(b"IHDR", ihdr) + b"".join(extra) + b"".join(idats) + chunk(b"IEND")


def idat_payload(data: bytes) -> bytes:
    payload, position = b"", 8
    while position < len(data):
        (length,) = struct.unpack_from(">I", data, position)
        if data[position + 4 : position + 8] == b"IDAT":
            payload += data[position + 8 : position + 8 + length]
        position += 12 + length
    return payload


def paeth(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    p = a + b - c
    pa, pb, pc = np.abs(p - a), np.abs(p - b), np.abs(p - c)
    return np.where((pa <= pb) & (pa <= pc), a, np.where(pb <= pc, b, c))


def filter_scanlines(image: np.ndarray, kinds: list[int]) -> bytes:
    """Reference PNG filtering (all five types), straight from the specification."""
    height, width, bpp = image.shape
    rows = image.reshape(height, width * bpp).astype(np.int64)
    out = bytearray()
    prior = np.zeros(width * bpp, np.int64)
    for row, kind in zip(rows, kinds, strict=True):
        left = np.concatenate([np.zeros(bpp, np.int64), row[:-bpp]])
        upleft = np.concatenate([np.zeros(bpp, np.int64), prior[:-bpp]])
        predictor = [0 * row, left, prior, (left + prior) // 2, paeth(left, prior, upleft)][kind]
        out.append(kind)
        out += ((row - predictor) & 0xFF).astype(np.uint8).tobytes()
        prior = row
    return bytes(out)


def pillow_array(data: bytes, mode: str | None = None) -> np.ndarray:
    with Image.open(io.BytesIO(data)) as image:
        return np.asarray(image if mode is None else image.convert(mode))


def pillow_png(image: Image.Image, **options: object) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG", **options)
    return buffer.getvalue()


def photo(height: int, width: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    y = np.linspace(0, 255, height)[:, None, None]
    x = np.linspace(0, 255, width)[None, :, None]
    base = 0.5 * y + 0.5 * x * np.array([1.0, 0.7, 0.4])
    return np.clip(base + rng.normal(0, 4, (height, width, 3)), 0, 255).astype(np.uint8)


def expected_layout(array: np.ndarray) -> np.ndarray:
    return array[:, :, 0] if array.ndim == 3 and array.shape[2] == 1 else array


image_arrays = st.sampled_from([(), (1,), (2,), (3,), (4,)]).flatmap(
    lambda tail: arrays(
        np.uint8,
        st.tuples(st.integers(1, 9), st.integers(1, 9)).map(lambda hw: hw + tail),
    )
)


@settings(max_examples=150, deadline=None)
@given(image_arrays)
def test_round_trip_and_pillow_reads_ours(array: np.ndarray) -> None:
    data = encode_png(array)
    expected = expected_layout(array)
    decoded = decode_png(data)
    assert decoded.dtype == np.uint8
    assert decoded.shape == expected.shape
    assert np.array_equal(decoded, expected)
    assert np.array_equal(pillow_array(data), expected)


@settings(max_examples=150, deadline=None)
@given(
    st.integers(1, 4).flatmap(
        lambda bpp: arrays(np.uint8, st.tuples(st.integers(1, 8), st.integers(1, 8), st.just(bpp)))
    ),
    st.data(),
)
def test_decodes_every_filter_type(image: np.ndarray, data: st.DataObject) -> None:
    height, width, bpp = image.shape
    kinds = data.draw(st.lists(st.integers(0, 4), min_size=height, max_size=height))
    colour = {1: 0, 2: 4, 3: 2, 4: 6}[bpp]
    encoded = make_png(filter_scanlines(image, kinds), width, height, colour)
    assert np.array_equal(decode_png(encoded), expected_layout(image))


@pytest.mark.parametrize("pattern", [[4], [3], [1, 3], [2, 4, 0], [0, 1, 2], [2, 2, 3, 2, 1]])
def test_filter_patterns_on_a_larger_image(pattern: list[int]) -> None:
    image = photo(37, 53, seed=len(pattern))
    kinds = (pattern * 37)[:37]
    encoded = make_png(filter_scanlines(image, kinds), 53, 37, 2)
    assert np.array_equal(decode_png(encoded), image)


@pytest.mark.parametrize("band", [1, 2, 5, 1024])
def test_wavefront_bands(monkeypatch: pytest.MonkeyPatch, band: int) -> None:
    monkeypatch.setattr(png, "_BAND", band)
    image = photo(23, 17, seed=band)
    kinds = [2, 4, 1, 3, 3, 0, 4, 2, 2, 1, 4, 4, 4, 3, 0, 2, 1, 4, 2, 3, 1, 0, 2]
    encoded = make_png(filter_scanlines(image, kinds), 17, 23, 2)
    assert np.array_equal(decode_png(encoded), image)


@pytest.mark.parametrize("shape", [(3, 4), (3, 4, 1), (3, 4, 2), (3, 4, 3), (3, 4, 4)])
def test_header_fields(shape: tuple[int, ...]) -> None:
    data = encode_png(np.zeros(shape, np.uint8))
    assert data[:8] == SIGNATURE
    assert data[12:16] == b"IHDR"
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", data[16:29])
    channels = shape[2] if len(shape) == 3 else 1
    assert (width, height, depth, interlace) == (4, 3, 8, 0)
    assert colour == {1: 0, 2: 4, 3: 2, 4: 6}[channels]
    assert data.endswith(chunk(b"IEND"))


def test_encoder_uses_only_fast_filters() -> None:
    data = encode_png(photo(64, 64))
    raw = zlib.decompress(idat_payload(data))
    kinds = np.frombuffer(raw, np.uint8).reshape(64, 64 * 3 + 1)[:, 0]
    assert set(kinds.tolist()) <= {0, 1, 2}


@pytest.mark.parametrize("level", [1, 6])
@pytest.mark.parametrize("kind", ["photo", "flat"])
def test_large_image_compressed_in_parallel_pieces_is_valid_and_deterministic(
    monkeypatch: pytest.MonkeyPatch, level: int, kind: str
) -> None:
    image = photo(700, 1100)  # 2.3 MB raw: several pieces with a smaller piece size
    if kind == "flat":  # screenshot-like: long runs, compressed with string matching
        image[:, :, :] = image[:1, :1, :]
        image[100:200, 300:800] = [10, 200, 30]
    monkeypatch.setattr(png, "_PIECE_SIZE", 1 << 19)
    data = encode_png(image, compress_level=level)
    assert np.array_equal(decode_png(data), image)
    assert np.array_equal(pillow_array(data), image)
    raw = zlib.decompress(idat_payload(data))  # also checks the Adler-32 of the whole stream
    assert len(raw) == 700 * (1100 * 3 + 1)
    monkeypatch.setattr(png.os, "cpu_count", lambda: 1)
    assert encode_png(image, compress_level=level) == data


def test_zero_fraction_estimate() -> None:
    _, flat_fraction = png._filter_rows(np.full((10, 30), 7, np.uint8), 3)
    assert flat_fraction == pytest.approx(1.0, abs=0.05)
    _, noisy_fraction = png._filter_rows(photo(30, 40).reshape(30, 120), 3)
    assert noisy_fraction < 0.3


def test_compress_level_zero_and_nine() -> None:
    image = photo(20, 30)
    assert np.array_equal(decode_png(encode_png(image, compress_level=0)), image)
    assert np.array_equal(decode_png(encode_png(image, compress_level=9)), image)


@pytest.mark.parametrize(
    ("mode", "options", "convert"),
    [
        ("RGB", {}, "RGB"),
        ("RGB", {"optimize": True}, "RGB"),
        ("RGB", {"compress_level": 0}, "RGB"),
        ("L", {}, "L"),
        ("L", {"optimize": True}, "L"),
        ("LA", {}, "LA"),
        ("RGBA", {}, "RGBA"),
        ("RGBA", {"optimize": True}, "RGBA"),
    ],
)
def test_reads_what_pillow_writes(mode: str, options: dict[str, object], convert: str) -> None:
    rgb = photo(61, 47)
    alpha = np.arange(61 * 47, dtype=np.uint8).reshape(61, 47, 1)
    source = {
        "RGB": Image.fromarray(rgb),
        "L": Image.fromarray(rgb).convert("L"),
        "LA": Image.fromarray(np.dstack([rgb[:, :, 0], alpha[:, :, 0]])),
        "RGBA": Image.fromarray(np.dstack([rgb, alpha])),
    }[mode]
    data = pillow_png(source, **options)
    assert np.array_equal(decode_png(data), pillow_array(data, convert))


@pytest.mark.parametrize("transparency", [False, True])
@pytest.mark.parametrize("optimize", [False, True])
def test_reads_pillow_palette_images(transparency: bool, optimize: bool) -> None:
    image = Image.fromarray(photo(40, 50)).quantize(37)
    options: dict[str, object] = {"optimize": optimize}
    if transparency:
        options["transparency"] = bytes(range(0, 200, 7))
    data = pillow_png(image, **options)
    decoded = decode_png(data)
    expected = pillow_array(data, "RGBA" if transparency else "RGB")
    assert decoded.shape == (40, 50, 4 if transparency else 3)
    assert np.array_equal(decoded, expected)


def test_palette_with_short_trns_is_opaque_beyond_it() -> None:
    palette = bytes([10, 20, 30, 40, 50, 60, 70, 80, 90])
    raw = bytes([0, 0, 1, 2])
    data = make_png(raw, 3, 1, 3, extra=(chunk(b"PLTE", palette), chunk(b"tRNS", b"\x05")))
    assert decode_png(data).tolist() == [[[10, 20, 30, 5], [40, 50, 60, 255], [70, 80, 90, 255]]]
    assert np.array_equal(decode_png(data), pillow_array(data, "RGBA"))


def test_multiple_idat_chunks_and_ancillary_chunks() -> None:
    image = photo(9, 11)
    raw = filter_scanlines(image, [0] * 9)
    text = chunk(b"tEXt", b"Comment\0hello")
    data = make_png(raw, 11, 9, 2, extra=(text,), idat_size=7)
    assert data.count(b"IDAT") > 5
    assert np.array_equal(decode_png(data), image)


def test_pillow_1000x1000_optimized_decode() -> None:
    image = photo(1000, 1000)
    data = pillow_png(Image.fromarray(image), optimize=True)
    assert np.array_equal(decode_png(data), image)


def test_decode_image_uses_pillow_for_16_bit_png() -> None:
    values = (np.arange(12, dtype=np.uint16) * 5000).reshape(3, 4)
    data = pillow_png(Image.fromarray(values))
    assert data[24] == 16
    with pytest.raises(PNGUnsupportedError, match="16-bit PNG"):
        decode_png(data)
    assert np.array_equal(decode_image(data), (values >> 8).astype(np.uint8))


def test_decode_image_uses_pillow_for_interlaced_png() -> None:
    interlaced = make_png(b"\x00\x07\x08\x09", 1, 1, 2, interlace=1)
    with pytest.raises(PNGUnsupportedError, match="interlaced PNG"):
        decode_png(interlaced)
    assert decode_image(interlaced).tolist() == [[[7, 8, 9]]]


def test_reads_pillow_one_bit_png() -> None:
    bits = np.array([[0, 1, 1, 0, 1, 0, 0, 1, 1], [1, 0, 0, 0, 0, 0, 0, 0, 1]], bool)
    data = pillow_png(Image.fromarray(bits))
    assert data[24] == 1
    assert decode_png(data).tolist() == [[0, 255, 255, 0, 255, 0, 0, 255, 255],
                                         [255, 0, 0, 0, 0, 0, 0, 0, 255]]
    assert np.array_equal(decode_png(data), pillow_array(data, "L"))


@pytest.mark.parametrize("depth", [1, 2, 4])
@pytest.mark.parametrize("width", [1, 3, 7, 8, 9, 17])
def test_low_bit_depth_grey_and_palette(depth: int, width: int) -> None:
    rng = np.random.default_rng(depth * 100 + width)
    values = rng.integers(0, 1 << depth, (5, width))
    per_byte = 8 // depth
    padded = np.zeros((5, -(-width // per_byte) * per_byte), np.uint8)
    padded[:, :width] = values
    shifts = np.arange(8 - depth, -1, -depth)
    packed = (padded.reshape(5, -1, per_byte) << shifts).sum(axis=2).astype(np.uint8)
    kinds = [0, 1, 2, 3, 4]
    body = filter_scanlines(packed[:, :, None], kinds)
    grey = make_png(body, width, 5, 0, depth=depth)
    scale = 255 // ((1 << depth) - 1)
    assert np.array_equal(decode_png(grey), values * scale)
    assert np.array_equal(decode_png(grey), pillow_array(grey, "L"))
    palette = bytes(rng.integers(0, 256, 3 << depth, dtype=np.uint8))
    transparency = bytes(rng.integers(0, 256, 1 << depth, dtype=np.uint8))
    for alpha in (False, True):
        extra = (chunk(b"PLTE", palette),) + ((chunk(b"tRNS", transparency),) if alpha else ())
        indexed = make_png(body, width, 5, 3, depth=depth, extra=extra)
        expected = pillow_array(indexed, "RGBA" if alpha else "RGB")
        assert np.array_equal(decode_png(indexed), expected)


def test_pillow_small_palette_is_written_at_4_bits_and_read_natively() -> None:
    image = Image.fromarray(photo(20, 30)).quantize(9)
    for options in ({}, {"transparency": 3}, {"optimize": True}):
        data = pillow_png(image, **options)
        assert data[24] == 4
        mode = "RGBA" if options.get("transparency") is not None else "RGB"
        assert np.array_equal(decode_png(data), pillow_array(data, mode))


@pytest.mark.parametrize(
    ("save_format", "mode", "shape"),
    [("JPEG", "RGB", (16, 24, 3)), ("JPEG", "L", (16, 24)), ("GIF", "P", (16, 24, 3)),
     ("BMP", "RGB", (16, 24, 3)), ("WEBP", "RGBA", (16, 24, 4))],
)
def test_decode_image_other_formats(save_format: str, mode: str, shape: tuple[int, ...]) -> None:
    image = Image.fromarray(photo(16, 24)).convert(mode)
    if mode == "RGBA":
        image.putalpha(Image.fromarray(np.arange(16 * 24, dtype=np.uint8).reshape(16, 24)))
    buffer = io.BytesIO()
    image.save(buffer, save_format, **({"lossless": True} if save_format == "WEBP" else {}))
    data = buffer.getvalue()
    decoded = decode_image(data)
    assert decoded.dtype == np.uint8
    assert decoded.shape == shape
    target = {"P": "RGB"}.get(mode, mode)
    assert np.array_equal(decoded, pillow_array(data, target))


def test_decode_image_errors() -> None:
    with pytest.raises(ValueError, match="cannot decode this image"):
        decode_image(b"certainly not an image")
    jpeg = io.BytesIO()
    Image.fromarray(photo(32, 32)).save(jpeg, "JPEG")
    with pytest.raises(ValueError, match="cannot decode image/jpeg"):
        decode_image(jpeg.getvalue()[:200])
    with pytest.raises(ValueError, match="CRC mismatch"):
        decode_image(corrupt(encode_png(photo(4, 4)), 40))


def test_decode_image_prefers_our_decoder_for_png() -> None:
    image = photo(5, 6)
    assert np.array_equal(decode_image(encode_png(image), "image/png"), image)


def test_decode_image_without_pillow(monkeypatch: pytest.MonkeyPatch) -> None:
    image = photo(5, 6)
    jpeg = io.BytesIO()
    Image.fromarray(image).save(jpeg, "JPEG")
    monkeypatch.setitem(sys.modules, "PIL", None)
    assert np.array_equal(decode_image(encode_png(image)), image)  # no Pillow needed
    message = r"decoding image/jpeg needs Pillow: pip install 'semantic_chat\[pillow\]'"
    with pytest.raises(ImportError, match=message):
        decode_image(jpeg.getvalue())
    with pytest.raises(ImportError, match=r"a 16-bit PNG needs Pillow.*\[pillow\]"):
        decode_image(make_png(b"\x00\x00\x01", 1, 1, 0, depth=16))


def test_encode_errors() -> None:
    with pytest.raises(TypeError, match=r"got dtype float64.*astype\(np.uint8\)"):
        encode_png(np.zeros((2, 2)))
    with pytest.raises(TypeError, match="got dtype uint16"):
        encode_png(np.zeros((2, 2), np.uint16))
    with pytest.raises(ValueError, match=r"shape \(2, 2, 5\).*\(H, W, 3\) RGB"):
        encode_png(np.zeros((2, 2, 5), np.uint8))
    with pytest.raises(ValueError, match=r"shape \(2,\)"):
        encode_png(np.zeros(2, np.uint8))
    with pytest.raises(ValueError, match=r"empty image of shape \(0, 3, 3\)"):
        encode_png(np.zeros((0, 3, 3), np.uint8))
    with pytest.raises(ValueError, match="compress_level must be 0 to 9"):
        encode_png(np.zeros((2, 2), np.uint8), compress_level=10)


def corrupt(data: bytes, offset: int) -> bytes:
    return data[:offset] + bytes([data[offset] ^ 0xFF]) + data[offset + 1 :]


def test_decode_errors() -> None:
    good = encode_png(photo(4, 4))
    with pytest.raises(ValueError, match="not a PNG file"):
        decode_png(b"GIF89a" + good[6:])
    with pytest.raises(ValueError, match="CRC mismatch in IDAT chunk"):
        decode_png(corrupt(good, good.index(b"IDAT") + 6))
    with pytest.raises(ValueError, match="CRC mismatch in IHDR chunk at byte 8"):
        decode_png(corrupt(good, 17))
    with pytest.raises(ValueError, match="truncated"):
        decode_png(good[:-20])
    with pytest.raises(ValueError, match="no IEND"):
        decode_png(good[:-12])
    with pytest.raises(ValueError, match="invalid filter type 7 on row 1"):
        decode_png(make_png(b"\x00\x01\x07\x02", 1, 2, 0))
    with pytest.raises(ValueError, match="image data is truncated"):
        decode_png(make_png(b"\x00\x01", 1, 2, 0))
    with pytest.raises(ValueError, match="palette index 3 out of range"):
        decode_png(make_png(b"\x00\x03", 1, 1, 3, extra=(chunk(b"PLTE", bytes(9)),)))
    with pytest.raises(ValueError, match="without a valid PLTE"):
        decode_png(make_png(b"\x00\x00", 1, 1, 3))
    with pytest.raises(ValueError, match="invalid bit depth 4 for colour type 2"):
        decode_png(make_png(b"\x00\x00", 1, 1, 2, depth=4))
    with pytest.raises(ValueError, match="unknown critical chunk 'ABCD'"):
        decode_png(make_png(b"\x00\x00", 1, 1, 0, extra=(chunk(b"ABCD"),)))
    with pytest.raises(ValueError, match="corrupt image data"):
        decode_png(SIGNATURE + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0))
                   + chunk(b"IDAT", b"nonsense") + chunk(b"IEND"))
    with pytest.raises(ValueError, match="first chunk is not IHDR"):
        decode_png(SIGNATURE + chunk(b"IEND"))
