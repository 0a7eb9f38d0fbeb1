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

from typing import Any, TypeVar

import cattrs

from .. import jsoncodec
from .hooks import FORMAT_VERSION, ConverterHooks
from .locate import locate_error

__all__ = [
    "FORMAT_VERSION",
    "configure_converter",
    "converter",
    "from_dict",
    "from_json",
    "make_converter",
    "to_dict",
    "to_json",
]

_T = TypeVar("_T")


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


def from_dict(data: Any, cls: type[_T], *, strict: bool = False) -> _T:
    """Build a model object of type ``cls`` from what `to_dict` returned.

    Nested lists and dicts inside metadata and JSON results may be shared with ``data``.

    Raises:
        SerializationError: the data does not describe a ``cls``; the message starts with the
            location, e.g. ``messages[3].items[1].data: invalid base64 ...``.
        UnknownContentTypeError: with ``strict``, an item or message label nobody registered.
        UnsupportedVersionError: a history written by a newer version of the format.
    """
    try:
        return _converter_for(strict).structure(data, cls)
    except Exception as error:
        raise locate_error(error) from None


def to_json(obj: Any, *, indent: int | None = None) -> str:
    """Return ``obj`` as canonical JSON text (compact, or with ``indent=2``).

    Raises:
        SerializationError: as `to_dict`, and for strings with lone surrogates.
    """
    return jsoncodec.dumps(to_dict(obj), indent)


def from_json(
    text: str | bytes | bytearray | memoryview, cls: type[_T], *, strict: bool = False
) -> _T:
    """Build a model object of type ``cls`` from JSON text.

    Raises:
        SerializationError: malformed JSON, or data that does not describe a ``cls``.
        UnknownContentTypeError: with ``strict``, an item or message label nobody registered.
        UnsupportedVersionError: a history written by a newer version of the format.
    """
    return from_dict(jsoncodec.loads(text), cls, strict=strict)
