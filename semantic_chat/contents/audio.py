"""Audio, with WAV encoding from and decoding to numpy arrays."""

from __future__ import annotations

from typing import Any, ClassVar

import attrs
import numpy as np
from numpy.typing import NDArray

from ..labels import ContentType
from ..media import decode_wav, encode_wav, sniff_mime_type, wav_info
from .binary import BinaryContent

__all__ = ["AudioContent"]


@attrs.define(slots=True, weakref_slot=False, on_setattr=attrs.setters.NO_OP)
class AudioContent(BinaryContent):
    """A sound clip: bytes (WAV, MP3, FLAC, OGG ...), a URI, or a provider's file id."""

    content_type: ClassVar[ContentType] = ContentType.AUDIO

    @classmethod
    def from_array(
        cls,
        samples: NDArray[Any],
        sample_rate: int,
        *,
        sample_width: int = 2,
        **fields: Any,
    ) -> AudioContent:
        """Encode samples as a WAV clip.

        Floats are read as [-1, 1] and clipped; integer arrays are scaled from their own
        range. Shape (n,) is mono, (n, channels) multi-channel.

        Raises:
            TypeError: the samples are not a real numeric array.
            ValueError: bad shape, sample rate or sample width (1 to 4 bytes).
        """
        data = encode_wav(samples, sample_rate, sample_width=sample_width)
        return cls(data=data, mime_type="audio/wav", **fields)

    def to_array(self) -> tuple[NDArray[np.float32], int]:
        """Decode a WAV clip to ``(float32 samples in [-1, 1], sample_rate)``.

        Raises:
            InvalidValueError: the clip has no bytes (it is a ``uri`` or ``file_id``).
            ValueError: the bytes are not a WAV file this decoder reads (PCM 8/16/24/32-bit,
                32-bit float).
        """
        return decode_wav(self._require_data())

    @property
    def duration(self) -> float | None:
        """Length in seconds for a WAV clip; ``None`` for other formats or without bytes."""
        payload = self.data
        if payload is None or sniff_mime_type(payload[:16]) != "audio/wav":
            return None
        return wav_info(payload).duration

    def _details(self) -> list[str]:
        try:
            duration = self.duration
        except ValueError:  # a damaged header: say nothing of the length
            return []
        return [] if duration is None else [f"{duration:.2f} s"]
