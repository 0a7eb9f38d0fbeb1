import io
import struct
import wave

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from semantic_chat.media.wav import WavInfo, decode_wav, encode_wav, wav_info

GUID_TAIL = b"\x00\x00\x00\x00\x10\x00\x80\x00\x00\xaa\x00\x38\x9b\x71"


def riff(*chunks: bytes) -> bytes:
    body = b"WAVE" + b"".join(chunks)
    return b"RIFF" + struct.pack("<I", len(body)) + body


def chunk(kind: bytes, payload: bytes) -> bytes:
    return kind + struct.pack("<I", len(payload)) + payload + b"\0" * (len(payload) & 1)


def fmt(tag: int, channels: int, rate: int, bits: int) -> bytes:
    align = channels * bits // 8
    return chunk(b"fmt ", struct.pack("<HHIIHH", tag, channels, rate, rate * align, align, bits))


def fmt_extensible(subformat: int, channels: int, rate: int, bits: int, valid: int) -> bytes:
    align = channels * bits // 8
    payload = struct.pack("<HHIIHHHHI", 0xFFFE, channels, rate, rate * align, align, bits,
                          22, valid, 0x3 if channels == 2 else 0x4)
    return chunk(b"fmt ", payload + struct.pack("<H", subformat) + GUID_TAIL)


def header_ints(data: bytes) -> np.ndarray:
    width = data[34] // 8
    payload = data[44 : 44 + struct.unpack_from("<I", data, 40)[0]]
    if width == 3:
        padded = np.zeros((len(payload) // 3, 4), np.uint8)
        padded[:, 1:] = np.frombuffer(payload, np.uint8).reshape(-1, 3)
        return padded.view("<i4")[:, 0] >> 8
    return np.frombuffer(payload, {1: np.uint8, 2: "<i2", 4: "<i4"}[width]).astype(np.int64)


float_samples = st.integers(1, 2).flatmap(
    lambda channels: arrays(
        np.float64,
        st.integers(0, 40).map(lambda n: (n,) if channels == 1 else (n, 2)),
        elements=st.floats(-1.5, 1.5, allow_nan=False),
    )
)


@settings(max_examples=200, deadline=None)
@given(float_samples, st.sampled_from([1, 2, 3, 4]))
def test_round_trip_float(samples: np.ndarray, width: int) -> None:
    data = encode_wav(samples, 16000, sample_width=width)
    decoded, rate = decode_wav(data)
    assert rate == 16000
    assert decoded.dtype == np.float32
    assert decoded.shape == samples.shape
    clipped = np.clip(samples, -1, 1)
    step = 2.0 ** (1 - 8 * width)
    error = np.abs(decoded.astype(np.float64) - clipped)
    # Within one quantisation step everywhere (plus float32 rounding at 32 bits) ...
    assert np.all(error <= step + 1e-7)
    # ... and within half a step below the top, where 1.0 clips to the largest integer.
    below_top = clipped < 1 - step
    assert np.all(error[below_top] <= 0.5 * step + 1e-7)


@pytest.mark.parametrize("width", [1, 2, 3, 4])
@pytest.mark.parametrize("channels", [1, 2])
def test_stdlib_wave_reads_ours(width: int, channels: int) -> None:
    samples = np.linspace(-1, 1, 13 * channels).reshape(13, channels).squeeze()
    data = encode_wav(samples, 22050, sample_width=width)
    with wave.open(io.BytesIO(data)) as reader:
        assert reader.getnchannels() == channels
        assert reader.getsampwidth() == width
        assert reader.getframerate() == 22050
        assert reader.getnframes() == 13
        assert reader.readframes(13) == data[44 : 44 + 13 * channels * width]


def test_exact_float_quantisation() -> None:
    data = encode_wav(np.array([1.0, -1.0, 0.5, -0.5, 2.0, -3.0, 0.0, 1.5 / 32767]), 8000)
    assert header_ints(data).tolist() == [32767, -32768, 16384, -16384, 32767, -32768, 0, 2]
    data = encode_wav(np.array([1.0, -1.0, 0.0, 0.5], np.float32), 8000, sample_width=1)
    assert header_ints(data).tolist() == [255, 0, 128, 192]  # 0.5 * 128 = 64, biased by 128
    data = encode_wav(np.array([1.0, -1.0]), 8000, sample_width=3)
    assert header_ints(data).tolist() == [2**23 - 1, -(2**23)]
    data = encode_wav(np.array([1.0, -1.0]), 8000, sample_width=4)
    assert header_ints(data).tolist() == [2**31 - 1, -(2**31)]


def test_integer_scaling() -> None:
    ints = np.array([-32768, -1, 0, 1, 32767], np.int16)
    assert header_ints(encode_wav(ints, 8000)).tolist() == ints.tolist()
    assert header_ints(encode_wav(ints, 8000, sample_width=3)).tolist() == [
        -(2**23), -256, 0, 256, 32767 * 256,
    ]
    assert header_ints(encode_wav(ints, 8000, sample_width=1)).tolist() == [0, 127, 128, 128, 255]
    int32 = np.array([-(2**31), 65535, 65536, 2**31 - 1], np.int32)
    assert header_ints(encode_wav(int32, 8000)).tolist() == [-32768, 0, 1, 32767]
    uint8 = np.array([0, 128, 255], np.uint8)
    assert header_ints(encode_wav(uint8, 8000, sample_width=1)).tolist() == [0, 128, 255]
    assert header_ints(encode_wav(uint8, 8000)).tolist() == [-32768, 0, 32512]
    int8 = np.array([-128, 0, 127], np.int8)
    assert header_ints(encode_wav(int8, 8000, sample_width=1)).tolist() == [0, 128, 255]
    uint16 = np.array([0, 32768, 65535], np.uint16)
    assert header_ints(encode_wav(uint16, 8000)).tolist() == [-32768, 0, 32767]
    int64 = np.array([-(2**63), 2**63 - 1], np.int64)
    assert header_ints(encode_wav(int64, 8000, sample_width=4)).tolist() == [-(2**31), 2**31 - 1]
    uint64 = np.array([0, 2**64 - 1], np.uint64)
    assert header_ints(encode_wav(uint64, 8000)).tolist() == [-32768, 32767]


def test_int16_round_trip_is_exact() -> None:
    ints = np.arange(-32768, 32768, 7, dtype=np.int16)[:8000].reshape(-1, 2)
    decoded, _ = decode_wav(encode_wav(ints, 44100))
    assert np.array_equal(decoded * 32768, ints)


def test_odd_sized_data_is_padded() -> None:
    data = encode_wav(np.array([0, 128, 255], np.uint8), 8000, sample_width=1)
    assert len(data) == 44 + 3 + 1
    assert struct.unpack_from("<I", data, 4)[0] == len(data) - 8
    assert struct.unpack_from("<I", data, 40)[0] == 3
    decoded, _ = decode_wav(data)
    assert decoded.tolist() == [-1.0, 0.0, 127 / 128]


def test_decode_pcm_values() -> None:
    pcm24 = b"\xff\xff\xff\x00\x00\x80\xff\xff\x7f"
    decoded, rate = decode_wav(riff(fmt(1, 1, 48000, 24), chunk(b"data", pcm24)))
    assert rate == 48000
    assert decoded.tolist() == [-(2.0**-23), -1.0, 1 - 2.0**-23]
    pcm32 = struct.pack("<3i", -(2**31), 2**30, 0)
    decoded, _ = decode_wav(riff(fmt(1, 1, 8000, 32), chunk(b"data", pcm32)))
    assert decoded.tolist() == [-1.0, 0.5, 0.0]


def test_decode_float_wav() -> None:
    values = np.array([[0.5, -0.25], [1.5, -1.0], [0.0, 0.125]], np.float32)
    data = riff(fmt(3, 2, 44100, 32), chunk(b"data", values.astype("<f4").tobytes()))
    decoded, rate = decode_wav(data)
    assert rate == 44100
    assert decoded.dtype == np.float32
    assert np.array_equal(decoded, values)  # float data is returned as stored
    float64 = riff(fmt(3, 1, 8000, 64), chunk(b"data", np.array([0.5, -2.0]).tobytes()))
    assert decode_wav(float64)[0].tolist() == [0.5, -2.0]


def test_decode_extensible_wav() -> None:
    values = np.array([0.5, -0.75, 0.25, 1.0], np.float32)
    data = riff(fmt_extensible(3, 2, 96000, 32, 32), chunk(b"data", values.tobytes()))
    decoded, rate = decode_wav(data)
    assert rate == 96000
    assert decoded.tolist() == [[0.5, -0.75], [0.25, 1.0]]
    pcm24 = b"\x00\x00\x40\x00\x00\xc0"
    data = riff(fmt_extensible(1, 1, 48000, 24, 20), chunk(b"data", pcm24))
    assert decode_wav(data)[0].tolist() == [0.5, -0.5]
    assert wav_info(data) == WavInfo(48000, 1, 3, 2, 2 / 48000)


def test_skips_unknown_and_odd_sized_chunks() -> None:
    pcm = struct.pack("<4h", 16384, -16384, 0, 8192)
    data = riff(chunk(b"JUNK", b"abc"), fmt(1, 2, 8000, 16), chunk(b"LIST", b"INFOxxxxx"),
                chunk(b"data", pcm), chunk(b"id3 ", b"tail"))
    decoded, _ = decode_wav(data)
    assert decoded.tolist() == [[0.5, -0.5], [0.0, 0.25]]


def test_wav_info() -> None:
    data = encode_wav(np.zeros((8000, 2)), 16000, sample_width=3)
    assert wav_info(data) == WavInfo(sample_rate=16000, channels=2, sample_width=3,
                                     frames=8000, duration=0.5)
    info = wav_info(riff(fmt(3, 1, 10, 32), chunk(b"data", bytes(4 * 25))))
    assert (info.sample_width, info.frames, info.duration) == (4, 25, 2.5)


def test_decode_errors() -> None:
    good_fmt = fmt(1, 1, 8000, 16)
    with pytest.raises(ValueError, match="WAV: not a RIFF/WAVE file"):
        decode_wav(b"RIFF\0\0\0\0AVI " + bytes(40))
    with pytest.raises(ValueError, match="WAV: not a RIFF/WAVE file"):
        decode_wav(b"")
    with pytest.raises(ValueError, match="WAV: no fmt chunk"):
        decode_wav(riff(chunk(b"LIST", b"ab")))
    with pytest.raises(ValueError, match="WAV: no fmt chunk before the data chunk"):
        decode_wav(riff(chunk(b"data", b"ab"), good_fmt))
    with pytest.raises(ValueError, match="WAV: no data chunk"):
        decode_wav(riff(good_fmt))
    with pytest.raises(ValueError, match="WAV: unsupported format tag 2"):
        decode_wav(riff(fmt(2, 1, 8000, 4), chunk(b"data", b"ab")))
    with pytest.raises(ValueError, match="WAV: unsupported bits per sample 12 for PCM"):
        decode_wav(riff(fmt(1, 1, 8000, 12), chunk(b"data", b"ab")))
    with pytest.raises(ValueError, match="WAV: unsupported bits per sample 16 for IEEE float"):
        decode_wav(riff(fmt(3, 1, 8000, 16), chunk(b"data", b"ab")))
    truncated = r"WAV: truncated data chunk \(header says 8 bytes, 4 present\)"
    with pytest.raises(ValueError, match=truncated):
        decode_wav(riff(good_fmt, chunk(b"data", bytes(8)))[:-4])
    with pytest.raises(ValueError, match="WAV: truncated fmt chunk"):
        decode_wav(riff(good_fmt)[:-4])
    with pytest.raises(ValueError, match="not a multiple of the frame size 2"):
        decode_wav(riff(good_fmt, chunk(b"data", b"abc")))
    with pytest.raises(ValueError, match="WAV: fmt chunk is 14 bytes"):
        decode_wav(riff(chunk(b"fmt ", bytes(14)), chunk(b"data", b"ab")))
    with pytest.raises(ValueError, match="WAV: fmt chunk says 0 channels"):
        decode_wav(riff(fmt(1, 0, 8000, 16), chunk(b"data", b"ab")))
    bad_guid = fmt_extensible(1, 1, 8000, 16, 16)[:-2] + b"\0\0"
    with pytest.raises(ValueError, match="subformat GUID"):
        decode_wav(riff(bad_guid, chunk(b"data", b"ab")))
    with pytest.raises(ValueError, match="WAV: no data chunk"):
        wav_info(riff(good_fmt))


def test_encode_errors() -> None:
    mono = np.zeros(4)
    with pytest.raises(ValueError, match="sample_rate must be a positive int, got 0"):
        encode_wav(mono, 0)
    with pytest.raises(ValueError, match="sample_rate must be a positive int, got -5"):
        encode_wav(mono, -5)
    with pytest.raises(TypeError, match="sample_rate must be an int, not float"):
        encode_wav(mono, 16000.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="sample_rate must be an int, not bool"):
        encode_wav(mono, True)
    with pytest.raises(ValueError, match="sample_width must be 1, 2, 3 or 4 bytes, got 5"):
        encode_wav(mono, 8000, sample_width=5)
    with pytest.raises(ValueError, match="sample_width must be 1, 2, 3 or 4 bytes, got 0"):
        encode_wav(mono, 8000, sample_width=0)
    bad_shape = r"shape \(frames,\) or \(frames, channels\), got \(2, 2, 2\)"
    with pytest.raises(ValueError, match=bad_shape):
        encode_wav(np.zeros((2, 2, 2)), 8000)
    with pytest.raises(ValueError, match=r"got \(\)"):
        encode_wav(np.float64(0.5), 8000)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not dtype bool"):
        encode_wav(np.zeros(3, bool), 8000)
    with pytest.raises(TypeError, match="not dtype complex128"):
        encode_wav(np.zeros(3, complex), 8000)
    with pytest.raises(TypeError, match="not dtype object"):
        encode_wav(np.array([0.1, None]), 8000)
    with pytest.raises(ValueError, match=r"zero channels \(shape \(5, 0\)\)"):
        encode_wav(np.zeros((5, 0)), 8000)
    with pytest.raises(ValueError, match="samples contain NaN"):
        encode_wav(np.array([0.0, np.nan]), 8000)


def test_numpy_integer_rate_and_list_input() -> None:
    data = encode_wav([0.0, 0.5], np.int64(8000))  # type: ignore[arg-type]
    assert wav_info(data).sample_rate == 8000
    assert header_ints(data).tolist() == [0, 16384]


def test_empty_audio() -> None:
    data = encode_wav(np.zeros((0, 2)), 8000)
    decoded, _ = decode_wav(data)
    assert decoded.shape == (0, 2)
    assert wav_info(data).duration == 0.0
