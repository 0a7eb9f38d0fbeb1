"""The exceptions `semantic_chat` raises.

Every error is a `SemanticChatError` and also the builtin an ordinary ``except`` clause would
expect, so ``except ValueError`` keeps working::

    SemanticChatError
    ├── InvalidValueError (ValueError)         a value breaks a rule of the model
    │   ├── FunctionArgumentsError             a call's arguments: not a JSON object, or not
    │   │                                      what the tool's signature takes
    │   ├── FormatError                        a provider payload that cannot be read
    │   │   └── UnsupportedContentError        an item a wire format cannot carry
    │   ├── SerializationError                 JSON or dicts that cannot be read or written
    │   │   ├── UnknownContentTypeError        strict reading met a label nobody registered
    │   │   └── UnsupportedVersionError        the data is newer than this library
    │   └── StreamMergeError                   two streaming chunks that cannot be added
    ├── InvalidTypeError (TypeError)           an object of the wrong type
    │   └── RegistrationError                  a content class whose label is taken
    └── ProviderError (RuntimeError)           the provider reported an error (in a stream)

Each error carries ``path`` (where, e.g. ``messages[3].items[1].data``; empty when the error is
about the value as a whole), ``expected`` and ``got`` (``None`` when they do not apply), and
its message is written by one helper: ``"<path>: <detail>"``. Subclasses keep the base
constructor so that `SemanticChatError.at` can relocate any of them.
"""

from __future__ import annotations

from typing import TypeVar

__all__ = [
    "FormatError",
    "FunctionArgumentsError",
    "InvalidTypeError",
    "InvalidValueError",
    "ProviderError",
    "RegistrationError",
    "SemanticChatError",
    "SerializationError",
    "StreamMergeError",
    "UnknownContentTypeError",
    "UnsupportedContentError",
    "UnsupportedVersionError",
    "describe_lone_surrogate",
    "describe_type",
]


_E = TypeVar("_E", bound="SemanticChatError")


def describe_type(value: object) -> str:
    """Name the type of ``value`` the way error messages show it (``int``, ``datetime``)."""
    return type(value).__qualname__


def describe_lone_surrogate(text: str, error: UnicodeEncodeError) -> str:
    """Say which character of ``text`` UTF-8 cannot encode, the way error messages show it."""
    return (
        f"lone surrogate {text[error.start]!a} at character {error.start} "
        "cannot be written as UTF-8"
    )


class SemanticChatError(Exception):
    """Base of every error this library raises."""

    path: str
    expected: str | None
    got: str | None

    def __init__(
        self,
        detail: str,
        *,
        path: str = "",
        expected: str | None = None,
        got: str | None = None,
    ) -> None:
        self.path = path
        self.expected = expected
        self.got = got
        self.detail = detail
        super().__init__(f"{path}: {detail}" if path else detail)

    @classmethod
    def mismatch(cls: type[_E], path: str, expected: str, got: str) -> _E:
        """Build the error for a value that is not what was expected, in the standard wording."""
        return cls(f"expected {expected}, got {got}", path=path, expected=expected, got=got)

    def at(self: _E, prefix: str) -> _E:
        """Return the same error located under ``prefix`` (``messages[2]`` + ``.items[0]``)."""
        if not prefix:
            return self
        if not self.path:
            path = prefix
        elif self.path.startswith("["):
            path = prefix + self.path
        else:
            path = f"{prefix}.{self.path}"
        return type(self)(self.detail, path=path, expected=self.expected, got=self.got)

    def with_path(self: _E, path: str) -> _E:
        """Return the same error at ``path`` in place of its own (a label's error at ``role``)."""
        return type(self)(self.detail, path=path, expected=self.expected, got=self.got)


class InvalidValueError(SemanticChatError, ValueError):
    """A value breaks a rule of the model (a binary item with two sources, a blank label)."""


class InvalidTypeError(SemanticChatError, TypeError):
    """An object of a type that is not accepted where it was given."""


class RegistrationError(InvalidTypeError):
    """A content class claims a label that another class already holds."""


class FunctionArgumentsError(InvalidValueError):
    """A function call's arguments are not a JSON object, or not what the tool takes.

    The second is `semantic_chat.tools.schema.convert_arguments` refusing them against the
    function's signature; the path names the argument (``arguments.stops[2].lat``).
    """


class FormatError(InvalidValueError):
    """A provider payload that cannot be read; the message starts with the location."""


class UnsupportedContentError(FormatError):
    """An item that a wire format cannot carry, named by message and item index."""


class SerializationError(InvalidValueError):
    """Data that cannot be written to or read from JSON; the message starts with the location."""


class UnknownContentTypeError(SerializationError):
    """Strict reading met an item type label that no class is registered under."""


class UnsupportedVersionError(SerializationError):
    """Serialized data written by a newer format version than this library reads."""


class StreamMergeError(InvalidValueError):
    """Two streaming chunks that cannot be added (different choices or roles)."""


class ProviderError(SemanticChatError, RuntimeError):
    """The provider reported an error where an answer was expected (a stream's ``error`` event).

    ``error_type`` is the provider's name for it (``overloaded_error``); the message is
    ``"<error_type>: <the provider's message>"``.
    """

    error_type: str | None

    def __init__(
        self,
        detail: str,
        *,
        error_type: str | None = None,
        path: str = "",
        expected: str | None = None,
        got: str | None = None,
    ) -> None:
        super().__init__(detail, path=path, expected=expected, got=got)
        self.error_type = error_type

    def at(self, prefix: str) -> ProviderError:
        """The same error located under ``prefix``, its ``error_type`` kept."""
        moved = super().at(prefix)
        moved.error_type = self.error_type
        return moved

    def with_path(self, path: str) -> ProviderError:
        """The same error at ``path``, its ``error_type`` kept."""
        moved = super().with_path(path)
        moved.error_type = self.error_type
        return moved
