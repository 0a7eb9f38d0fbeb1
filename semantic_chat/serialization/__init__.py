"""Lossless JSON for every model object, through one `cattrs.Converter`.

Items are written as ``{"type": <content_type label>, ...fields}``. Reading looks the label up
in `CONTENT_TYPES` when it runs, so a content class defined after import (a plugin) is read
back as itself with no registration call; a label nobody registered becomes `UnknownContent`,
which writes back exactly what it read (or, with ``strict=True``, raises). Message subclasses
are tagged with ``"message_type"`` the same way. A history is ``{"version": 1, "messages":
[...]}``. Fields equal to their default and ``None`` are left out, ``inner_content`` is never
written, bytes are base64, and the output is canonical: writing what was read gives the same
text.

Per-class hooks are generated once with `cattrs.gen` and cached by class. Every reading error
is a `SerializationError` whose message starts with the location
(``messages[3].items[1].data: invalid base64 ...``).
"""

from __future__ import annotations

from typing import Any, TypeAlias, TypeVar, overload

import cattrs

from .. import jsoncodec
from ..contents import KernelContent
from ..errors import SerializationError, describe_type
from ..history import ChatHistory
from ..message import ChatMessageContent
from .hooks import FORMAT_VERSION, ConverterHooks
from .locate import locate_error

__all__ = [
    "FORMAT_VERSION",
    "Document",
    "configure_converter",
    "converter",
    "from_dict",
    "from_json",
    "make_converter",
    "to_dict",
    "to_json",
]

_T = TypeVar("_T")

Document: TypeAlias = ChatHistory | ChatMessageContent | KernelContent
"""What `from_json` and `from_dict` return without a class: a history, a message or an item."""

_DOCUMENT_KINDS = 'a history ("version"), a message ("role") or an item ("type")'


def configure_converter(converter: cattrs.Converter, *, strict: bool = False) -> None:
    """Install this library's hooks on a converter of your own.

    With ``strict`` the converter refuses item and message labels nobody registered instead
    of reading them into `UnknownContent`.
    """
    ConverterHooks(converter, strict).install()


def make_converter(*, strict: bool = False) -> cattrs.Converter:
    """Return a new converter with this library's hooks installed."""
    new = cattrs.Converter(omit_if_default=True)
    configure_converter(new, strict=strict)
    return new


converter: cattrs.Converter = make_converter()
"""The converter `to_dict`, `from_dict`, `to_json` and `from_json` use."""

_strict_converter: cattrs.Converter | None = None


def _converter_for(strict: bool) -> cattrs.Converter:
    global _strict_converter  # noqa: PLW0603 - built once, on first strict read
    if not strict:
        return converter
    if _strict_converter is None:
        _strict_converter = make_converter(strict=True)
    return _strict_converter


def to_dict(obj: Any) -> Any:
    """Return a JSON-ready value (dicts, lists, strings, numbers) for any model object.

    Raises:
        SerializationError: a value is not JSON (e.g. a ``datetime`` in ``metadata``) or a
            class is not registered; the message starts with the location.
    """
    return converter.unstructure(obj)


@overload
def from_dict(data: Any, cls: type[_T], *, strict: bool = False) -> _T: ...
@overload
def from_dict(data: Any, cls: None = None, *, strict: bool = False) -> Document: ...
def from_dict(data: Any, cls: type[Any] | None = None, *, strict: bool = False) -> Any:
    """Build a model object of type ``cls`` from what `to_dict` returned.

    Without ``cls``, the object is whatever ``data`` holds, told by its keys: a history has
    ``"version"`` (and ``"messages"``), a message ``"role"``, an item ``"type"``. An item is
    recognized first (only items have ``"type"``), then a history, then a message.

    Nested lists and dicts inside metadata and JSON results may be shared with ``data``.

    Raises:
        SerializationError: the data does not describe a ``cls`` (or, without ``cls``, a
            history, a message or an item); the message starts with the location, e.g.
            ``messages[3].items[1].data: invalid base64 ...``.
        UnknownContentTypeError: with ``strict``, an item or message label nobody registered.
        UnsupportedVersionError: a history written by a newer version of the format.
    """
    if cls is None:
        cls = _kind_of(data)
    try:
        return _converter_for(strict).structure(data, cls)
    except Exception as error:
        raise locate_error(error) from None


def _kind_of(data: Any) -> type[Any]:
    """The class of model object ``data`` describes, by its keys.

    Raises:
        SerializationError: ``data`` is not an object, or has none of the telling keys.
    """
    if type(data) is dict:
        if "type" in data:
            return KernelContent
        if "version" in data or "messages" in data:
            return ChatHistory
        if "role" in data or "message_type" in data:  # a stream chunk after the first: no role
            return ChatMessageContent
        got = "an object with none of these keys"
    else:
        got = describe_type(data)
    raise SerializationError.mismatch("", _DOCUMENT_KINDS, got)


def to_json(obj: Any, *, indent: int | None = None) -> str:
    """Return ``obj`` as canonical JSON text (compact, or with ``indent=2``).

    Raises:
        SerializationError: as `to_dict`, and for strings with lone surrogates.
    """
    return jsoncodec.dumps(to_dict(obj), indent)


@overload
def from_json(
    text: str | bytes | bytearray | memoryview, cls: type[_T], *, strict: bool = False
) -> _T: ...
@overload
def from_json(
    text: str | bytes | bytearray | memoryview, cls: None = None, *, strict: bool = False
) -> Document: ...
def from_json(
    text: str | bytes | bytearray | memoryview,
    cls: type[Any] | None = None,
    *,
    strict: bool = False,
) -> Any:
    """Build a model object of type ``cls`` from JSON text.

    Without ``cls``, the object is whatever the document holds: a history, a message or an
    item, told by its keys as `from_dict` does.

    Raises:
        SerializationError: malformed JSON, or data that does not describe a ``cls`` (or,
            without ``cls``, a history, a message or an item).
        UnknownContentTypeError: with ``strict``, an item or message label nobody registered.
        UnsupportedVersionError: a history written by a newer version of the format.
    """
    return from_dict(jsoncodec.loads(text), cls, strict=strict)
