"""Binary items: bytes with a media type, a URI, or a provider's file id.

The payload of an item read from JSON stays base64 text until `BinaryContent.data` is first
read; it is then decoded once and kept. Writing an item that was never decoded copies the text.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, ClassVar, TypeVar

import attrs

from ..errors import InvalidTypeError, InvalidValueError, describe_type
from ..labels import ContentType
from ..media import (
    check_base64,
    decode_base64,
    encode_base64,
    format_data_uri,
    guess_mime_type,
    normalize_mime_type,
    parse_data_uri,
    sniff_mime_type,
    split_mime_type,
)
from .base import KernelContent

__all__ = ["Base64Payload", "BinaryContent"]

_B = TypeVar("_B", bound="BinaryContent")

# Base64 characters enough to sniff every supported magic number (18 bytes).
_SNIFF_CHARS = 24


class Base64Payload:
    """Base64 text handed to a binary item to keep undecoded; the item stores the text itself.

    Only readers (`BinaryContent.from_base64`, the JSON reader, the wire formats) make these,
    so that a plain ``str`` given as ``data`` is still refused.
    """

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def _to_payload(value: object) -> bytes | str | None:
    if value is None or type(value) is bytes:
        return value
    if type(value) is Base64Payload:
        return value.text
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    raise InvalidTypeError.mismatch("data", "bytes", describe_type(value))


def _payload_key(value: bytes | str | None) -> bytes | None:
    return decode_base64(value) if isinstance(value, str) else value


def _payload_repr(value: bytes | str | None) -> str:
    if value is None:
        return "None"
    if isinstance(value, str):
        return f"<{len(value)} base64 characters>"
    return f"<{len(value)} bytes>"


@attrs.define(slots=True, weakref_slot=False, on_setattr=attrs.setters.NO_OP)
class BinaryContent(KernelContent):
    """Bytes with a media type, or a reference to them by URI or by a provider's file id.

    Exactly one source is given: ``data`` (the bytes), ``uri`` (an address the library never
    fetches) or ``file_id`` (a file uploaded to a provider). A ``data:`` URI given as ``uri`` is
    decoded into ``data``. ``mime_type`` may carry parameters (``text/plain;charset=utf-8``);
    when it is missing for ``data`` it is sniffed from the bytes.

    Raises:
        InvalidValueError: no source or several, or a ``mime_type`` that is not
            ``type/subtype``, or ``data`` whose type cannot be sniffed.
        InvalidTypeError: ``data`` is not bytes.
    """

    content_type: ClassVar[ContentType] = ContentType.BINARY

    # Converted by __init__ and by the ``data`` setter, not on every assignment: with
    # attrs' default on_setattr, every store to any field of a binary item would be a Python
    # call (the built-in binary classes all say on_setattr=NO_OP for the same reason).
    _data: bytes | str | None = attrs.field(
        default=None,
        alias="data",
        converter=_to_payload,
        on_setattr=attrs.setters.NO_OP,
        eq=_payload_key,
        repr=_payload_repr,
    )
    mime_type: str | None = None
    """The media type, with any parameters (``audio/L16;rate=16000``)."""

    uri: str | None = None
    """Where the bytes live; never fetched by this library."""

    file_id: str | None = None
    """The id of a file uploaded to a provider."""

    def __attrs_post_init__(self) -> None:
        payload = self._data
        uri = self.uri
        if uri is not None and payload is None and uri[:5].lower() == "data:":
            parsed = parse_data_uri(uri)
            self._data = payload = parsed.data
            self.uri = uri = None
            if self.mime_type is None:
                self.mime_type = _join_mime_type(parsed.mime_type, parsed.parameters)
        sources = (payload is not None) + (uri is not None) + (self.file_id is not None)
        if sources != 1:
            raise InvalidValueError(
                f"{type(self).__name__} needs exactly one of data, uri and file_id, "
                f"got {'none' if sources == 0 else sources}",
                expected="one source", got=str(sources),
            )
        if self.mime_type is not None:
            try:
                self.mime_type = normalize_mime_type(self.mime_type)
            except ValueError as error:
                raise InvalidValueError(str(error), path="mime_type") from None
        elif payload is not None:
            head = decode_base64(payload[:_SNIFF_CHARS]) if isinstance(payload, str) else payload
            sniffed = sniff_mime_type(head)
            if sniffed is None:
                raise InvalidValueError(
                    f"cannot tell the media type of these {_payload_repr(payload)[1:-1]}: "
                    "pass mime_type=",
                    path="mime_type",
                )
            self.mime_type = sniffed

    @property
    def data(self) -> bytes | None:
        """The bytes, or ``None`` when the item refers to them by ``uri`` or ``file_id``."""
        payload = self._data
        if isinstance(payload, str):
            payload = decode_base64(payload)
            self._data = payload
        return payload

    @data.setter
    def data(self, value: bytes | None) -> None:
        self._data = _to_payload(value)

    @property
    def base64(self) -> str | None:
        """The bytes as standard base64 text, or ``None`` when there are no bytes."""
        payload = self._data
        if payload is None or isinstance(payload, str):
            return payload
        return encode_base64(payload)

    @property
    def is_decoded(self) -> bool:
        """Whether the payload is held as bytes (``False`` while it is still base64 text)."""
        return not isinstance(self._data, str)

    @property
    def data_uri(self) -> str | None:
        """The bytes as an RFC 2397 ``data:`` URI, or ``None`` when there are no bytes.

        The media type's parameters are written; ``metadata`` never is.
        """
        payload = self.data
        if payload is None:
            return None
        bare, parameters = split_mime_type(self.mime_type or "application/octet-stream")
        return format_data_uri(bare, payload, parameters)

    @classmethod
    def from_base64(cls: type[_B], text: str, mime_type: str | None = None, **fields: Any) -> _B:
        """Build an item from base64 text, decoded only when `data` is first read.

        Raises:
            InvalidValueError: the text is not strict standard base64 (checked without
                decoding it), or ``mime_type`` is missing and cannot be sniffed.
        """
        try:
            check_base64(text)
        except ValueError as error:
            raise InvalidValueError(str(error), path="data") from None
        return cls(data=Base64Payload(text), mime_type=mime_type, **fields)

    @classmethod
    def from_data_uri(cls: type[_B], text: str, **fields: Any) -> _B:
        """Build an item from an RFC 2397 ``data:`` URI; its parameters stay in ``mime_type``.

        Raises:
            ValueError: the text is not a valid data URI; the message says what is wrong.
        """
        parsed = parse_data_uri(text)
        mime_type = _join_mime_type(parsed.mime_type, parsed.parameters)
        return cls(data=parsed.data, mime_type=mime_type, **fields)

    @classmethod
    def from_file(
        cls: type[_B], path: str | os.PathLike[str], mime_type: str | None = None, **fields: Any
    ) -> _B:
        """Read a file into an item; its media type is sniffed, else guessed from the name.

        Raises:
            FileNotFoundError: there is no such file.
            IsADirectoryError: the path is a directory.
            InvalidValueError: no ``mime_type`` was given and none can be told.
        """
        path = Path(path)
        if path.is_dir():
            raise IsADirectoryError(f"{path}: is a directory, expected a file")
        data = path.read_bytes()
        if mime_type is None:
            mime_type = sniff_mime_type(data) or guess_mime_type(path.name)
            if mime_type is None:
                raise InvalidValueError(
                    f"cannot tell the media type of {path}: pass mime_type=", path="mime_type"
                )
        if "filename" in attrs.fields_dict(cls) and "filename" not in fields:
            fields["filename"] = path.name
        return cls(data=data, mime_type=mime_type, **fields)

    def to_file(self, path: str | os.PathLike[str], overwrite: bool = False) -> Path:
        """Write the bytes to ``path`` and return it.

        Raises:
            FileExistsError: the file exists and ``overwrite`` is false.
            InvalidValueError: the item has no bytes (it refers to a ``uri`` or ``file_id``).
        """
        payload = self._require_data()
        path = Path(path)
        with path.open("wb" if overwrite else "xb") as stream:
            stream.write(payload)
        return path

    def _require_data(self) -> bytes:
        """Return the bytes, or raise naming the reference the item holds instead."""
        payload = self.data
        if payload is None:
            source = f"uri {self.uri!r}" if self.uri is not None else f"file_id {self.file_id!r}"
            raise InvalidValueError(f"no bytes: the item refers to {source}", path="data")
        return payload


def _join_mime_type(bare: str, parameters: tuple[tuple[str, str], ...]) -> str:
    return ";".join([bare, *(f"{name}={value}" for name, value in parameters)])
