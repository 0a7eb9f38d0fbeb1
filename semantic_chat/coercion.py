"""Turning native Python objects into items, where the meaning is unambiguous.

A ``str`` is text; ``bytes`` and files are sniffed for their media type; a numpy ``uint8``
array of shape (H, W), (H, W, 3) or (H, W, 4) is an image; so is a PIL image. Anything else is
refused with a `TypeError` listing what is accepted, rather than guessed at.
"""

from __future__ import annotations

import io
import os
from pathlib import PurePath
from typing import Any

import numpy as np

from .contents import (
    AudioContent,
    BinaryContent,
    FileContent,
    ImageContent,
    KernelContent,
    TextContent,
)
from .errors import InvalidTypeError, InvalidValueError, SemanticChatError, describe_type
from .media import sniff_mime_type

__all__ = ["ACCEPTED", "to_item", "to_items"]

ACCEPTED = (
    "str, a KernelContent item, bytes of a known media type, a pathlib.Path, "
    "a numpy uint8 array of shape (H, W), (H, W, 3) or (H, W, 4), or a PIL image"
)
"""What `to_item` accepts, as error messages list it (`to_items` also takes a list of these)."""


def to_item(value: object, path: str = "content") -> KernelContent:
    """Return ``value`` as an item: items pass through, native objects are converted.

    Raises:
        InvalidTypeError: ``value`` is of no accepted type; the message names the type and
            the location ``path``.
        InvalidValueError: bytes or a file whose media type cannot be told.
    """
    if isinstance(value, KernelContent):
        return value
    if isinstance(value, str):
        try:
            return TextContent(value)
        except SemanticChatError as error:
            raise error.at(path) from None
    if isinstance(value, (bytes, bytearray, memoryview)):
        data = bytes(value)
        mime_type = sniff_mime_type(data)
        if mime_type is None:
            raise InvalidValueError(
                f"cannot tell the media type of {len(data)} bytes: wrap them in an item "
                "with a mime_type, e.g. FileContent(data=..., mime_type=...)",
                path=path,
            )
        return _binary_kind(mime_type)(data=data, mime_type=mime_type)
    if isinstance(value, PurePath):
        return _from_path(value, path)
    if isinstance(value, np.ndarray):
        return _from_array(value, path)
    if _is_pil_image(value):
        return _from_pil(value)
    raise InvalidTypeError.mismatch(path, ACCEPTED, describe_type(value))


def to_items(value: object, path: str = "content") -> list[KernelContent]:
    """Return ``value`` as a new list of items; a list or tuple is converted element-wise.

    Raises:
        InvalidTypeError: an element is of no accepted type; the message names its index.
    """
    if isinstance(value, (list, tuple)):
        return [to_item(element, f"{path}[{index}]") for index, element in enumerate(value)]
    return [to_item(value, path)]


def _binary_kind(mime_type: str) -> type[BinaryContent]:
    top = mime_type.partition("/")[0]
    if top == "image":
        return ImageContent
    if top == "audio":
        return AudioContent
    if top == "video":
        return BinaryContent
    return FileContent


def _from_path(file: PurePath, path: str) -> BinaryContent:
    """The file's item, of the kind its media type says; a failure is located at ``path``.

    Raises:
        OSError: the file cannot be read (``FileNotFoundError``, ``IsADirectoryError`` ...),
            of the same type, its message starting with ``path``.
        InvalidValueError: its media type cannot be told.
    """
    try:
        item = FileContent.from_file(os.fspath(file))
    except SemanticChatError as error:
        raise error.at(path) from None
    except OSError as error:
        if error.errno is None:  # raised by from_file with its own message
            raise type(error)(f"{path}: {error}") from None
        raise type(error)(error.errno, f"{path}: {error.strerror}", os.fspath(file)) from None
    kind = _binary_kind(item.mime_type or "")
    if kind is FileContent:
        return item
    return kind(data=item.data, mime_type=item.mime_type)


def _from_array(array: np.ndarray[Any, Any], path: str) -> ImageContent:
    shape_ok = array.ndim == 2 or (array.ndim == 3 and array.shape[2] in (3, 4))
    if array.dtype != np.uint8 or not shape_ok:
        raise InvalidTypeError(
            f"a numpy array is taken as an image only when it is uint8 of shape (H, W), "
            f"(H, W, 3) or (H, W, 4), got {array.dtype} {array.shape}; for audio use "
            "AudioContent.from_array(samples, sample_rate)",
            path=path,
            expected="uint8 (H, W), (H, W, 3) or (H, W, 4)",
            got=f"{array.dtype} {array.shape}",
        )
    return ImageContent.from_array(array)


def _is_pil_image(value: object) -> bool:
    return any(
        cls.__module__ == "PIL.Image" and cls.__name__ == "Image" for cls in type(value).__mro__
    )


def _from_pil(image: Any) -> ImageContent:
    buffer = io.BytesIO()
    if image.mode not in ("1", "L", "LA", "P", "RGB", "RGBA", "I;16"):
        image = image.convert("RGBA" if "A" in image.getbands() else "RGB")
    image.save(buffer, format="PNG")
    return ImageContent(data=buffer.getvalue(), mime_type="image/png")
