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
from ..validation import check_optional_text
from .base import KernelContent, _store

__all__ = ["Base64Payload", "BinaryContent", "describe_sources"]

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
    _mime_type: str | None = attrs.field(default=None, alias="mime_type")
    _uri: str | None = attrs.field(default=None, alias="uri")
    _file_id: str | None = attrs.field(default=None, alias="file_id")

    def __attrs_post_init__(self) -> None:
        payload = self._data
        uri = self._uri
        if uri is not None and not (type(uri) is str and uri.isascii()):
            uri = check_optional_text(uri, "uri")
            _store(self, "_uri", uri)
        file_id, mime_type = self._file_id, self._mime_type
        if file_id is not None and not (type(file_id) is str and file_id.isascii()):
            _store(self, "_file_id", check_optional_text(file_id, "file_id"))
        if mime_type is not None and not (type(mime_type) is str and mime_type.isascii()):
            _store(self, "_mime_type", check_optional_text(mime_type, "mime_type"))
        if uri is not None and payload is None and uri[:5].lower() == "data:":
            parsed = parse_data_uri(uri, path="uri")
            payload = parsed.data
            _store(self, "_data", payload)
            _store(self, "_uri", None)
            uri = None
            if self._mime_type is None:
                _store(self, "_mime_type", _join_mime_type(parsed.mime_type, parsed.parameters))
        sources = (payload is not None) + (uri is not None) + (self._file_id is not None)
        if sources != 1:
            raise InvalidValueError(
                describe_sources(type(self), sources), expected="one source", got=str(sources)
            )
        if self._mime_type is not None:
            _store(self, "_mime_type", _normalized(self._mime_type))
        elif payload is not None:
            _store(self, "_mime_type", _sniffed(payload))
        if self._metadata is not None:
            super().__attrs_post_init__()

    @property
    def data(self) -> bytes | None:
        """The bytes, or ``None`` when the item refers to them by ``uri`` or ``file_id``.

        Assigning bytes makes them the item's source (any ``uri`` or ``file_id`` is dropped);
        ``None`` is refused while data is the only source.
        """
        payload = self._data
        if isinstance(payload, str):
            payload = decode_base64(payload)
            self._data = payload
        return payload

    @data.setter
    def data(self, value: bytes | None) -> None:
        payload = _to_payload(value)
        if payload is None:
            self._check_not_last("data")
            self._data = None
            return
        mime_type = self._mime_type if self._mime_type is not None else _sniffed(payload)
        self._data, self._uri, self._file_id, self._mime_type = payload, None, None, mime_type

    @property
    def mime_type(self) -> str | None:
        """The media type, with any parameters (``audio/L16;rate=16000``).

        Assigning ``None`` to an item with bytes sniffs the type again from the bytes.
        """
        return self._mime_type

    @mime_type.setter
    def mime_type(self, value: str | None) -> None:
        value = check_optional_text(value, "mime_type")
        if value is not None:
            self._mime_type = _normalized(value)
        elif self._data is not None:
            self._mime_type = _sniffed(self._data)
        else:
            self._mime_type = None

    @property
    def uri(self) -> str | None:
        """Where the bytes live; never fetched by this library.

        Assigning a URI makes it the item's source (``data`` or ``file_id`` is dropped); a
        ``data:`` URI is decoded into ``data`` and gives the media type.
        """
        return self._uri

    @uri.setter
    def uri(self, value: str | None) -> None:
        value = check_optional_text(value, "uri")
        if value is None:
            self._check_not_last("uri")
            self._uri = None
        elif value[:5].lower() == "data:":
            parsed = parse_data_uri(value, path="uri")
            self._data, self._uri, self._file_id = parsed.data, None, None
            self._mime_type = _normalized(_join_mime_type(parsed.mime_type, parsed.parameters))
        else:
            self._data, self._uri, self._file_id = None, value, None

    @property
    def file_id(self) -> str | None:
        """The id of a file uploaded to a provider.

        Assigning an id makes it the item's source (``data`` or ``uri`` is dropped).
        """
        return self._file_id

    @file_id.setter
    def file_id(self, value: str | None) -> None:
        value = check_optional_text(value, "file_id")
        if value is None:
            self._check_not_last("file_id")
            self._file_id = None
        else:
            self._data, self._uri, self._file_id = None, None, value

    def _check_not_last(self, field: str) -> None:
        """Refuse to take away the item's only source."""
        others = (
            (field != "data" and self._data is not None)
            + (field != "uri" and self._uri is not None)
            + (field != "file_id" and self._file_id is not None)
        )
        if not others:
            raise InvalidValueError(
                f"{type(self).__name__} needs one of data, uri and file_id: assign another "
                "source instead of removing this one",
                path=field, expected="one source", got="none",
            )

    def _details(self) -> list[str]:
        """What `__str__` says of the bytes besides their type and size (kinds add to it)."""
        return []

    def __str__(self) -> str:
        """The URI, or a short description: ``[image/png, 64x48, 2,609 bytes]``.

        A file id without a media type names the kind instead (``[image, file id f1]``): the
        provider knows the type, and claiming ``application/octet-stream`` would be wrong.
        """
        if self._uri is not None:
            return self._uri
        if self._file_id is not None:
            kind = self._mime_type or str.__str__(self.content_type)
            return f"[{', '.join([kind, *self._details(), f'file id {self._file_id}'])}]"
        mime_type = self._mime_type or "application/octet-stream"
        payload = self.data or b""
        return f"[{', '.join([mime_type, *self._details(), f'{len(payload):,} bytes'])}]"

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
            InvalidTypeError: ``text`` is not a string.
            InvalidValueError: the text is not strict standard base64 (checked without
                decoding it), or ``mime_type`` is missing and cannot be sniffed.
        """
        if not isinstance(text, str):
            raise InvalidTypeError.mismatch("data", "base64 text", describe_type(text))
        try:
            check_base64(text)
        except ValueError as error:
            raise InvalidValueError(str(error), path="data") from None
        return cls(data=Base64Payload(text), mime_type=mime_type, **fields)

    @classmethod
    def from_data_uri(cls: type[_B], text: str, **fields: Any) -> _B:
        """Build an item from an RFC 2397 ``data:`` URI; its parameters stay in ``mime_type``.

        The URI is read leniently (see `semantic_chat.media.parse_data_uri`) and the media
        type is kept exactly as written: its case, and its parameters in order and spelling,
        bare tokens (``;utf8``), empty ones, ``name=`` and ``a=b=c`` included. So `data_uri`
        writes the same header back, with the payload as base64:
        ``data:text/plain;utf8,hello`` comes back as ``data:text/plain;utf8;base64,aGVsbG8=``.
        A URI without a media type gets ``text/plain`` (RFC 2397).

        Raises:
            InvalidTypeError: ``text`` is not a ``str``.
            InvalidValueError: the text cannot be read as a data URI; the message says what is
                wrong and where (the media type, which parameter, which base64 character).
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
        takes_filename = any(field.alias == "filename" for field in attrs.fields(cls))
        if takes_filename and "filename" not in fields:
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


def _join_mime_type(bare: str, parameters: tuple[tuple[str, str | None], ...]) -> str:
    """Write a parsed media type back as it was read (a ``None`` value is a bare token)."""
    return ";".join(
        [bare, *(name if value is None else f"{name}={value}" for name, value in parameters)]
    )


def _normalized(mime_type: str) -> str:
    try:
        return normalize_mime_type(mime_type)
    except ValueError as error:
        raise InvalidValueError(str(error), path="mime_type") from None


def _sniffed(payload: bytes | str) -> str:
    """The media type sniffed from a payload (base64 text is decoded only as far as needed)."""
    head = decode_base64(payload[:_SNIFF_CHARS]) if isinstance(payload, str) else payload
    sniffed = sniff_mime_type(head)
    if sniffed is None:
        raise InvalidValueError(
            f"cannot tell the media type of these {_payload_repr(payload)[1:-1]}: "
            "pass mime_type=",
            path="mime_type",
        )
    return sniffed



def describe_sources(cls: type, sources: int) -> str:
    """Say that an item of ``cls`` has ``sources`` sources where it needs exactly one."""
    return (
        f"{cls.__name__} needs exactly one of data, uri and file_id, "
        f"got {'none' if sources == 0 else sources}"
    )
