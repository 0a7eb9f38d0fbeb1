"""Images, with PNG encoding from and decoding to numpy arrays."""

from __future__ import annotations

from typing import Any, ClassVar

import attrs
import numpy as np
from numpy.typing import NDArray

from ..labels import ContentType
from ..media import decode_image, encode_png, image_size
from ..validation import check_optional_text
from .base import _store
from .binary import BinaryContent

__all__ = ["ImageContent"]


@attrs.define(slots=True, weakref_slot=False, on_setattr=attrs.setters.NO_OP)
class ImageContent(BinaryContent):
    """An image: bytes (PNG, JPEG, GIF, WebP ...), a URI, or a provider's file id."""

    content_type: ClassVar[ContentType] = ContentType.IMAGE

    _detail: str | None = attrs.field(default=None, alias="detail")

    def __attrs_post_init__(self) -> None:
        if self._detail is not None and not (type(self._detail) is str and self._detail.isascii()):
            _store(self, "_detail", check_optional_text(self._detail, "detail"))
        super().__attrs_post_init__()

    @property
    def detail(self) -> str | None:
        """How closely the model should look: ``"low"``, ``"high"`` or ``"auto"``."""
        return self._detail

    @detail.setter
    def detail(self, value: str | None) -> None:
        self._detail = check_optional_text(value, "detail")

    def _details(self) -> list[str]:
        try:
            size = self.size
        except ValueError:  # a damaged header: say nothing of the size
            return []
        return [] if size is None else [f"{size[0]}x{size[1]}"]

    @classmethod
    def from_array(
        cls, array: NDArray[np.uint8], *, detail: str | None = None, **fields: Any
    ) -> ImageContent:
        """Encode a ``uint8`` array of shape (H, W), (H, W, 3) or (H, W, 4) as a PNG image.

        Raises:
            TypeError: the array is not ``uint8``.
            ValueError: the shape is not one of those listed.
        """
        return cls(data=encode_png(array), mime_type="image/png", detail=detail, **fields)

    def to_array(self) -> NDArray[np.uint8]:
        """Decode the image to a ``uint8`` array (H, W[, channels]).

        8-bit PNG is decoded with numpy alone; other formats need Pillow.

        Raises:
            InvalidValueError: the image has no bytes (it is a ``uri`` or ``file_id``).
            ImportError: the format needs Pillow and it is not installed.
            ValueError: the bytes are not a valid image.
        """
        return decode_image(self._require_data(), self.mime_type)

    @property
    def size(self) -> tuple[int, int] | None:
        """``(width, height)`` read from the header, or ``None`` without bytes or a known format.

        Raises:
            ValueError: the header of a known format is cut short or broken.
        """
        payload = self.data
        return None if payload is None else image_size(payload)
