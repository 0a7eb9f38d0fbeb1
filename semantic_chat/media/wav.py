"""WAV (RIFF/WAVE) encoding and decoding with numpy.

Decoding parses the RIFF chunks itself because the stdlib ``wave`` module rejects
IEEE-float and (before Python 3.12) WAVE_FORMAT_EXTENSIBLE files.
"""

from __future__ import annotations

import operator
import struct
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

__all__ = ["WavInfo", "decode_wav", "encode_wav", "wav_info"]

_PCM = 1
_IEEE_FLOAT = 3
_EXTENSIBLE = 0xFFFE
# KSDATAFORMAT_SUBTYPE_* GUIDs share this tail after the two-byte format tag.
_GUID_TAIL = b"\x00\x00\x00\x00\x10\x00\x80\x00\x00\xaa\x00\x38\x9b\x71"
_MAX_U32 = 0xFFFFFFFF


class WavInfo(NamedTuple):
    """What a WAV header says about its audio.

    Attributes:
        sample_rate: Frames per second.
        channels: Number of interleaved channels.
        sample_width: Bytes per sample (4 for 32-bit float).
        frames: Number of frames (samples per channel).
        duration: ``frames / sample_rate`` in seconds.
    """

    sample_rate: int
    channels: int
    sample_width: int
    frames: int
    duration: float


class _Layout(NamedTuple):
    format_tag: int  # _PCM or _IEEE_FLOAT once WAVE_FORMAT_EXTENSIBLE is resolved
    channels: int
    sample_rate: int
    bits: int
    data_offset: int
    data_size: int


def _parse_fmt(chunk: bytes) -> tuple[int, int, int, int]:
    """Return (format tag, channels, sample rate, bits per sample) from a fmt chunk."""
    if len(chunk) < 16:
        raise ValueError(f"WAV: fmt chunk is {len(chunk)} bytes, expected at least 16")
    tag, channels, rate, _, _, bits = struct.unpack_from("<HHIIHH", chunk)
    if tag == _EXTENSIBLE:
        if len(chunk) < 40:
            raise ValueError("WAV: WAVE_FORMAT_EXTENSIBLE fmt chunk is shorter than 40 bytes")
        if chunk[26:40] != _GUID_TAIL:
            raise ValueError("WAV: unsupported WAVE_FORMAT_EXTENSIBLE subformat GUID")
        tag = int.from_bytes(chunk[24:26], "little")
    if tag not in (_PCM, _IEEE_FLOAT):
        raise ValueError(f"WAV: unsupported format tag {tag} (only PCM 1 and IEEE float 3)")
    supported = (8, 16, 24, 32) if tag == _PCM else (32, 64)
    if bits not in supported:
        kind = "PCM" if tag == _PCM else "IEEE float"
        raise ValueError(f"WAV: unsupported bits per sample {bits} for {kind}")
    if channels == 0:
        raise ValueError("WAV: fmt chunk says 0 channels")
    if rate == 0:
        raise ValueError("WAV: fmt chunk says sample rate 0")
    return tag, channels, rate, bits


def _parse(data: bytes) -> _Layout:
    """Walk the RIFF chunks and locate the format and the sample data."""
    if len(data) < 12 or data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise ValueError("WAV: not a RIFF/WAVE file")
    fmt: tuple[int, int, int, int] | None = None
    position = 12
    while position + 8 <= len(data):
        chunk_id = data[position : position + 4]
        (size,) = struct.unpack_from("<I", data, position + 4)
        start = position + 8
        if chunk_id == b"fmt ":
            if start + size > len(data):
                raise ValueError("WAV: truncated fmt chunk")
            fmt = _parse_fmt(data[start : start + size])
        elif chunk_id == b"data":
            if fmt is None:
                raise ValueError("WAV: no fmt chunk before the data chunk")
            if start + size > len(data):
                raise ValueError(
                    f"WAV: truncated data chunk (header says {size} bytes, "
                    f"{len(data) - start} present)"
                )
            return _Layout(*fmt, start, size)
        position = start + size + (size & 1)  # chunks are padded to an even size
    raise ValueError("WAV: no data chunk" if fmt else "WAV: no fmt chunk")


def wav_info(data: bytes) -> WavInfo:
    """Read a WAV file's format and length from its headers, without decoding samples.

    Args:
        data: The complete WAV file.

    Returns:
        Sample rate, channels, bytes per sample, frames and duration in seconds.

    Raises:
        ValueError: If the file is not a supported, complete WAV file.
    """
    layout = _parse(data)
    width = layout.bits // 8
    frames = layout.data_size // (width * layout.channels)
    return WavInfo(layout.sample_rate, layout.channels, width, frames, frames / layout.sample_rate)


def decode_wav(data: bytes) -> tuple[NDArray[np.float32], int]:
    """Decode a PCM (8/16/24/32-bit) or IEEE-float (32/64-bit) WAV file.

    Integer PCM is scaled by ``1 / 2**(bits-1)`` (8-bit, which is unsigned, as
    ``(x - 128) / 128``), so it lands in [-1, 1). Float data is returned as stored; it is
    normally within [-1, 1] but the format does not forbid louder values. Unknown chunks
    are skipped; a trailing partial frame is an error.

    Args:
        data: The complete WAV file.

    Returns:
        The float32 samples, shape ``(frames,)`` for mono and ``(frames, channels)``
        otherwise, and the sample rate.

    Raises:
        ValueError: Starting ``"WAV: "``, naming what is missing, unsupported or truncated.
    """
    layout = _parse(data)
    width = layout.bits // 8
    frame_size = width * layout.channels
    if layout.data_size % frame_size:
        raise ValueError(
            f"WAV: data chunk size {layout.data_size} is not a multiple of the frame size "
            f"{frame_size}"
        )
    raw = np.frombuffer(data, np.uint8, layout.data_size, layout.data_offset)
    values: NDArray[Any]
    if layout.format_tag == _IEEE_FLOAT:
        values = raw.view("<f4" if width == 4 else "<f8")
    elif width == 1:
        values = (raw.astype(np.float32) - 128) / 128
    elif width == 3:
        padded = np.zeros((raw.size // 3, 4), np.uint8)
        padded[:, 1:] = raw.reshape(-1, 3)
        values = (padded.view("<i4")[:, 0] >> 8) / 2.0**23
    else:
        ints = raw.view("<i2" if width == 2 else "<i4")
        values = ints.astype(np.float64) / 2.0 ** (layout.bits - 1)
    with np.errstate(over="ignore"):  # float64 data beyond float32's range becomes inf
        samples: NDArray[np.float32] = values.astype(np.float32)
    if layout.channels > 1:
        samples = samples.reshape(-1, layout.channels)
    return samples, layout.sample_rate


def _check_int(value: object, name: str) -> int:
    """Return *value* as an int, rejecting bools and non-integers with a TypeError."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be an int, not bool")
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"{name} must be an int, not {type(value).__name__}") from None


def _quantise(samples: NDArray[Any], bits: int) -> NDArray[np.int64]:
    """Map samples to signed integers of *bits* bits (see :func:`encode_wav`)."""
    kind = samples.dtype.kind
    result: NDArray[np.int64]
    if kind == "f":
        floats = samples.astype(np.float64)
        if np.isnan(floats).any():
            raise ValueError("encode_wav: samples contain NaN")
        np.clip(floats, -1.0, 1.0, out=floats)
        full_scale = 2 ** (bits - 1)
        result = np.rint(floats * full_scale).astype(np.int64)
        np.clip(result, -full_scale, full_scale - 1, out=result)
        return result
    source_bits = samples.dtype.itemsize * 8
    if kind == "u":  # offset binary: subtracting 2**(n-1) is flipping the top bit
        signed_type = np.dtype(f"i{samples.dtype.itemsize}")
        samples = (samples ^ samples.dtype.type(1 << (source_bits - 1))).view(signed_type)
    ints = samples.astype(np.int64)
    shift = bits - source_bits
    result = ints << shift if shift >= 0 else ints >> -shift
    return result


def encode_wav(samples: NDArray[Any], sample_rate: int, *, sample_width: int = 2) -> bytes:
    """Encode samples as a PCM WAV file (format tag 1, readable by the stdlib ``wave``).

    Float samples are taken as [-1, 1]: clipped, multiplied by ``2**(bits-1)``, rounded
    half-to-even and clipped to the integer range (so at 16 bits 1.0 is 32767, -1.0 is
    -32768 and 0.5 is 16384). Integer samples
    of an n-bit type are treated as n-bit PCM, unsigned types as offset binary (minus
    ``2**(n-1)``), and re-quantised to the target width by bit shifting: a left shift when
    widening (exact) and an arithmetic right shift when narrowing (keeps the top bits,
    rounding toward minus infinity). So int16 at width 2 and uint8 at width 1 are written
    unchanged, and int32 at width 2 keeps the upper 16 bits. Width 1 is stored unsigned
    with a bias of 128, as the format requires.

    :func:`decode_wav` divides by the same ``2**(bits-1)``, so a float round trip is off
    by at most half a step of ``2**(1-bits)``, or one step at exactly 1.0 (which clips).

    Args:
        samples: Shape ``(frames,)`` for mono or ``(frames, channels)``; float or integer.
        sample_rate: Frames per second, a positive int.
        sample_width: Bytes per sample: 1, 2, 3 or 4 (8, 16, 24 or 32-bit PCM).

    Returns:
        The complete WAV file.

    Raises:
        TypeError: If *sample_rate* or *sample_width* is not an int, or the samples are
            bool, complex, object or another non-numeric dtype.
        ValueError: If the rate or width is out of range, the array is not 1-D or 2-D,
            has zero channels, contains NaN, or is too long for a WAV file.
    """
    rate = _check_int(sample_rate, "sample_rate")
    width = _check_int(sample_width, "sample_width")
    if not 0 < rate <= _MAX_U32:
        raise ValueError(f"encode_wav: sample_rate must be a positive int, got {rate}")
    if width not in (1, 2, 3, 4):
        raise ValueError(f"encode_wav: sample_width must be 1, 2, 3 or 4 bytes, got {width}")
    array = np.asarray(samples)
    if array.dtype.kind not in "fiu":
        raise TypeError(
            f"encode_wav: samples must be a float or integer array, not dtype {array.dtype}"
        )
    if array.ndim not in (1, 2):
        raise ValueError(
            f"encode_wav: samples must have shape (frames,) or (frames, channels), "
            f"got {array.shape}"
        )
    channels = 1 if array.ndim == 1 else array.shape[1]
    if channels == 0:
        raise ValueError(f"encode_wav: samples have zero channels (shape {array.shape})")
    if channels * width > 0xFFFF or rate * channels * width > _MAX_U32:
        raise ValueError(
            f"encode_wav: {channels} channels of {width} bytes at {rate} Hz exceed the WAV "
            "header's limits"
        )
    data_size = array.size * width
    if data_size + 36 + (data_size & 1) > _MAX_U32:
        raise ValueError(f"encode_wav: {data_size} bytes of samples do not fit in a WAV file")

    values = _quantise(array, width * 8)
    if width == 1:
        payload = (values + 128).astype(np.uint8).tobytes()
    elif width == 3:
        payload = values.astype("<i4").view(np.uint8).reshape(-1, 4)[:, :3].tobytes()
    else:
        payload = values.astype("<i2" if width == 2 else "<i4").tobytes()
    block_align = channels * width
    header = struct.pack(
        "<4sI4s4sIHHIIHH4sI",
        b"RIFF",
        36 + data_size + (data_size & 1),
        b"WAVE",
        b"fmt ",
        16,
        _PCM,
        channels,
        rate,
        rate * block_align,
        block_align,
        width * 8,
        b"data",
        data_size,
    )
    return header + payload + b"\0" * (data_size & 1)
