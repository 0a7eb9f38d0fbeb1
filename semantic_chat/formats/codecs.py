"""Plugin codecs: how a wire format writes and reads the content types of plugins.

Each format that takes them makes one `PluginCodecs` table; `register_encoder` and
`register_decoder` fill it by the format's name, for every role and inside tool results.
Built-in classes and part types are refused: the format writes and reads those itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from ..contents import KernelContent
from ..errors import (
    FormatError,
    InvalidTypeError,
    InvalidValueError,
    SemanticChatError,
    describe_type,
)
from ..registry import is_builtin

__all__ = [
    "PluginCodecs",
    "codecs_for",
    "register_decoder",
    "register_encoder",
    "run_decoder",
    "run_encoder",
    "unregister_decoder",
    "unregister_encoder",
]

_I = TypeVar("_I", bound=KernelContent)


class PluginCodecs:
    """Encoders and decoders that teach one wire format the content types of plugins.

    Each format that takes them makes one table (``PluginCodecs(name, ...)``), found by name
    with `codecs_for`; `register_encoder` and `register_decoder` below fill it. Built-in
    classes and part types are refused: the format writes and reads those itself, and a
    codec would change what every history means in that format.
    """

    def __init__(self, format_name: str, format_title: str, part_types: Iterable[str]) -> None:
        self.format_name = format_name
        self.format_title = format_title
        self.part_types = frozenset(part_types)
        """The part types the format reads itself, which no decoder may take."""
        self.encoders: dict[type[KernelContent], Callable[[Any], dict[str, Any]]] = {}
        self.decoders: dict[str, Callable[[dict[str, Any]], KernelContent]] = {}
        _CODECS[format_name] = self

    def register_encoder(self, cls: type[_I], encoder: Callable[[_I], dict[str, Any]]) -> None:
        """Write items of ``cls`` (and its subclasses) as the part ``encoder`` returns.

        The encoder is used in every role and inside tool results; the nearest registered
        class of an item wins. Registering a class again replaces its encoder.

        Raises:
            InvalidTypeError: ``cls`` is not a content class, is one of the library's own
                (``TextContent`` ...), or ``encoder`` is not callable.
        """
        given: object = cls  # checked at run time: callers may pass anything
        if not isinstance(given, type) or not issubclass(given, KernelContent):
            shown = given.__qualname__ if isinstance(given, type) else describe_type(given)
            expected = "a content class (a KernelContent subclass)"
            raise InvalidTypeError.mismatch("cls", expected, shown)
        if is_builtin(cls):
            raise InvalidTypeError(
                f"{cls.__qualname__} is built in: {self.format_title} writes it itself "
                "(register an encoder for a class of your own)",
                path="cls",
            )
        if not callable(encoder):
            raise InvalidTypeError.mismatch("encoder", "a function", describe_type(encoder))
        self.encoders[cls] = encoder

    def register_decoder(
        self, part_type: str, decoder: Callable[[dict[str, Any]], KernelContent]
    ) -> None:
        """Read parts whose ``type`` is ``part_type`` with ``decoder``, wherever parts are read.

        Raises:
            InvalidTypeError: ``part_type`` is not a ``str``, or ``decoder`` is not callable.
            InvalidValueError: ``part_type`` is blank, or one the format reads itself.
        """
        if not isinstance(part_type, str):
            raise InvalidTypeError.mismatch("part_type", "a str", describe_type(part_type))
        if not part_type.strip():
            raise InvalidValueError("a part type cannot be blank", path="part_type")
        if part_type in self.part_types:
            raise InvalidValueError(
                f"{part_type!r} is built in: {self.format_title} reads it itself "
                "(register a decoder for a part type of your own)",
                path="part_type",
            )
        if not callable(decoder):
            raise InvalidTypeError.mismatch("decoder", "a function", describe_type(decoder))
        self.decoders[part_type] = decoder

    def unregister_encoder(self, cls: type[KernelContent]) -> None:
        """Forget the encoder registered for ``cls`` itself, if any."""
        self.encoders.pop(cls, None)

    def unregister_decoder(self, part_type: str) -> None:
        """Forget the decoder registered for ``part_type``, if any."""
        self.decoders.pop(part_type, None)

    def encoder_for(self, item: KernelContent) -> Callable[[Any], dict[str, Any]] | None:
        """Return the encoder registered for the item's class or its nearest base."""
        if not self.encoders:
            return None
        for cls in type(item).__mro__:
            encode = self.encoders.get(cls)
            if encode is not None:
                return encode
        return None

    def encode(self, item: KernelContent, path: str) -> dict[str, Any] | None:
        """Write ``item`` with its encoder, or return ``None`` when it has none.

        Raises:
            FormatError: the encoder returned something other than a part (a dict with a
                ``str`` ``type``); the message names ``path`` and the item's class.
        """
        encode = self.encoder_for(item)
        if encode is None:
            return None
        part = run_encoder(encode, item, path)
        if type(part) is not dict or not isinstance(part.get("type"), str):
            got = describe_type(part)
            if isinstance(part, dict):
                got = "a dict without a str 'type'"
            raise FormatError(
                f"the encoder for {type(item).__qualname__} returned {got}, "
                "expected a part dict",
                path=path,
            )
        return part

    def decode(self, part: dict[str, Any], path: str) -> KernelContent | None:
        """Read ``part`` with the decoder of its type, or return ``None`` when it has none.

        Raises:
            FormatError: the decoder returned something other than an item, or raised
                (a library error it raised is located at ``path``).
        """
        decode = self.decoders.get(part.get("type"))  # type: ignore[arg-type]
        if decode is None:
            return None
        return run_decoder(decode, part, f"part type {part['type']!r}", path)


def run_encoder(
    encode: Callable[[Any], dict[str, Any]], item: KernelContent, path: str
) -> Any:
    """What a plugin's encoder returns for ``item``, its failure located at ``path``.

    The writers check the value; this only places an error raised inside the plugin's code,
    which would otherwise surface bare, with no word of the item that caused it.

    Raises:
        FormatError: the encoder raised; the message names its class and the error, and the
            original is chained (``__cause__``). A library error it raised is located instead.
    """
    return _call_plugin(encode, item, f"the encoder for {type(item).__qualname__}", path)


def run_decoder(
    decode: Callable[[dict[str, Any]], KernelContent], part: dict[str, Any], kind: str, path: str
) -> KernelContent:
    """The item a plugin's decoder reads from ``part`` (of ``kind``: ``part type 'x'``).

    Raises:
        FormatError: the decoder returned something other than an item, or raised (the
            original chained); a library error it raised is located at ``path`` instead.
    """
    item = _call_plugin(decode, part, f"the decoder for {kind}", path)
    if not isinstance(item, KernelContent):
        raise FormatError(
            f"the decoder for {kind} returned {describe_type(item)}, expected an item",
            path=path,
        )
    return item


def _call_plugin(codec: Callable[[Any], Any], given: Any, what: str, path: str) -> Any:
    """What a plugin's codec (``what``: ``the encoder for X``) returns for ``given``.

    Raises:
        FormatError: it raised, naming ``what`` and the error (chained), located at ``path``;
            a library error it raised is located there instead.
    """
    try:
        return codec(given)
    except SemanticChatError as error:
        raise error.at(path) from None
    except Exception as error:
        message = f"{what} raised {type(error).__qualname__}: {error}"
        raise FormatError(message, path=path) from error


_CODECS: dict[str, PluginCodecs] = {}


def codecs_for(format_name: str) -> PluginCodecs:
    """The plugin codecs of the format named ``format_name``.

    Raises:
        InvalidValueError: no format of that name takes plugin codecs (``semantic-chat``
            writes every registered class itself).
    """
    codecs = _CODECS.get(format_name) if isinstance(format_name, str) else None
    if codecs is None:
        takers = ", ".join(sorted(_CODECS))
        raise InvalidValueError(
            f"expected a format that takes plugin codecs ({takers}), got {format_name!r}",
            path="format_name",
        )
    return codecs


def register_encoder(
    format_name: str, cls: type[_I], encoder: Callable[[_I], dict[str, Any]]
) -> None:
    """Teach the format ``format_name`` to write items of ``cls`` as the part ``encoder`` returns.

    ``encoder(item)`` returns one content part (a dict with a ``type``); it is used in every
    role and inside tool results, for ``cls`` and its subclasses (the nearest registered class
    wins). Registering a class again replaces its encoder.

    Raises:
        InvalidValueError: no format of that name takes plugin codecs.
        InvalidTypeError: ``cls`` is not a content class or is a built-in one, or ``encoder``
            is not callable.
    """
    codecs_for(format_name).register_encoder(cls, encoder)


def register_decoder(
    format_name: str, part_type: str, decoder: Callable[[dict[str, Any]], KernelContent]
) -> None:
    """Teach the format ``format_name`` to read parts of type ``part_type`` with ``decoder``.

    ``decoder(part)`` gets the part dict and returns an item; it is used wherever the format
    reads content parts (any role, tool output).

    Raises:
        InvalidValueError: no format of that name takes plugin codecs, or ``part_type`` is
            blank or one the format reads itself.
        InvalidTypeError: ``part_type`` is not a ``str``, or ``decoder`` is not callable.
    """
    codecs_for(format_name).register_decoder(part_type, decoder)


def unregister_encoder(format_name: str, cls: type[KernelContent]) -> None:
    """Forget the encoder of ``cls`` in the format ``format_name``, if one is registered.

    Raises:
        InvalidValueError: no format of that name takes plugin codecs.
    """
    codecs_for(format_name).unregister_encoder(cls)


def unregister_decoder(format_name: str, part_type: str) -> None:
    """Forget the decoder of ``part_type`` in the format ``format_name``, if one is registered.

    Raises:
        InvalidValueError: no format of that name takes plugin codecs.
    """
    codecs_for(format_name).unregister_decoder(part_type)

