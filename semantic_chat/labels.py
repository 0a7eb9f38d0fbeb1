"""Extensible labels: open sets of names such as roles and content types.

A label is an immutable string value in the style of .NET's ``ChatRole``: the well-known values
are class attributes (``AuthorRole.USER``) and any other non-blank name is legal
(``AuthorRole("critic")``), so providers can add roles without a release of this library.
Labels are stored lower-case and compare case-insensitively, with each other and with plain
strings: ``AuthorRole("User") == "user" == AuthorRole.USER``.

A label *is* a ``str`` (a subclass), so it goes into JSON, f-strings and string APIs unchanged.
Its hash is the hash of its lower-case text, so a dict keyed by labels can be looked up with the
lower-case string. Labels of two different kinds are never equal (a role is not a content type).
"""

from __future__ import annotations

from typing import ClassVar, TypeVar

from .errors import InvalidTypeError, InvalidValueError, describe_lone_surrogate, describe_type

__all__ = ["PLAIN_TEXT", "AuthorRole", "ContentType", "FinishReason", "Label", "PlainText"]

_L = TypeVar("_L", bound="Label")


class Label(str):
    """Base of the extensible labels: a lower-case, case-insensitive string value.

    Subclass it for a new kind of label; each subclass keeps its own table of interned values,
    so ``AuthorRole("user") is AuthorRole.USER``.
    """

    __slots__ = ()
    _interned: ClassVar[dict[str, Label]]

    def __init_subclass__(cls, **kwargs: object) -> None:
        """Give each kind of label its own table of interned values."""
        super().__init_subclass__(**kwargs)
        cls._interned = {}

    def __new__(cls: type[_L], label: str) -> _L:
        """Return the label for ``label``: the interned value when it is a well-known one.

        Raises:
            InvalidTypeError: ``label`` is not a string.
            InvalidValueError: ``label`` is blank.
        """
        if type(label) is cls:
            return label
        if not isinstance(label, str):
            raise InvalidTypeError.mismatch(cls.__name__, "a str", describe_type(label))
        interned = cls._interned.get(label)
        if interned is not None:
            return interned  # type: ignore[return-value]
        if not label.strip():
            raise InvalidValueError(
                f"a label must not be blank, got {label!r}", path=cls.__name__
            )
        if isinstance(label, Label):
            label = str.__str__(label)
        if not label.isascii():
            try:
                label.encode("utf-8")
            except UnicodeEncodeError as error:
                raise InvalidValueError(
                    describe_lone_surrogate(label, error), path=cls.__name__
                ) from None
        lowered = label.lower()
        interned = cls._interned.get(lowered)
        if interned is not None:
            return interned  # type: ignore[return-value]
        return str.__new__(cls, lowered)

    @classmethod
    def _define(cls: type[_L], label: str) -> _L:
        """Create a well-known value and intern it, so equal labels share one object."""
        value = cls(label)
        plain = str.__str__(value)
        cls._interned[plain] = value
        PLAIN_TEXT[value] = plain
        return value

    @property
    def label(self) -> str:
        """The label as a plain lower-case string."""
        return str.__str__(self)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Label):
            return type(other) is type(self) and str.__eq__(self, other)
        if isinstance(other, str):
            return str.__eq__(self, other) or str.__eq__(self, other.lower())
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    # The str slots themselves, not Python methods calling them: a label is hashed on every
    # dict lookup keyed by labels, which then costs no Python call.
    __hash__ = str.__hash__
    __str__ = str.__str__

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str.__str__(self)!r})"

    def __reduce__(self) -> tuple[type[Label], tuple[str]]:
        return (type(self), (str.__str__(self),))


Label._interned = {}


class PlainText(dict[Label, str]):
    """The plain ``str`` of each label, for writers of JSON-ready values.

    ``str.__str__(label)`` copies the label's text on every call. ``PLAIN_TEXT[label]`` gives
    the one plain copy kept for a well-known label, found by identity, and a fresh copy of any
    other label (which is not kept, so the table never grows).
    """

    __slots__ = ()

    def __missing__(self, label: Label) -> str:
        return str.__str__(label)


PLAIN_TEXT = PlainText()
"""The plain text of every well-known label (see `PlainText`)."""


class AuthorRole(Label):
    """Who wrote a message: ``system``, ``developer``, ``user``, ``assistant``, ``tool``, ..."""

    __slots__ = ()
    SYSTEM: ClassVar[AuthorRole]
    DEVELOPER: ClassVar[AuthorRole]
    USER: ClassVar[AuthorRole]
    ASSISTANT: ClassVar[AuthorRole]
    TOOL: ClassVar[AuthorRole]


AuthorRole.SYSTEM = AuthorRole._define("system")
AuthorRole.DEVELOPER = AuthorRole._define("developer")
AuthorRole.USER = AuthorRole._define("user")
AuthorRole.ASSISTANT = AuthorRole._define("assistant")
AuthorRole.TOOL = AuthorRole._define("tool")


class ContentType(Label):
    """The discriminator of a content class, written as ``"type"`` in JSON."""

    __slots__ = ()
    TEXT: ClassVar[ContentType]
    BINARY: ClassVar[ContentType]
    IMAGE: ClassVar[ContentType]
    AUDIO: ClassVar[ContentType]
    FILE: ClassVar[ContentType]
    FUNCTION_CALL: ClassVar[ContentType]
    FUNCTION_RESULT: ClassVar[ContentType]
    REASONING: ClassVar[ContentType]
    REFUSAL: ClassVar[ContentType]
    UNKNOWN: ClassVar[ContentType]
    STREAMING_TEXT: ClassVar[ContentType]
    STREAMING_FUNCTION_CALL: ClassVar[ContentType]
    STREAMING_REASONING: ClassVar[ContentType]
    STREAMING_REFUSAL: ClassVar[ContentType]


ContentType.TEXT = ContentType._define("text")
ContentType.BINARY = ContentType._define("binary")
ContentType.IMAGE = ContentType._define("image")
ContentType.AUDIO = ContentType._define("audio")
ContentType.FILE = ContentType._define("file")
ContentType.FUNCTION_CALL = ContentType._define("function_call")
ContentType.FUNCTION_RESULT = ContentType._define("function_result")
ContentType.REASONING = ContentType._define("reasoning")
ContentType.REFUSAL = ContentType._define("refusal")
ContentType.UNKNOWN = ContentType._define("unknown")
ContentType.STREAMING_TEXT = ContentType._define("streaming_text")
ContentType.STREAMING_FUNCTION_CALL = ContentType._define("streaming_function_call")
ContentType.STREAMING_REASONING = ContentType._define("streaming_reasoning")
ContentType.STREAMING_REFUSAL = ContentType._define("streaming_refusal")


class FinishReason(Label):
    """Why a model stopped: ``stop``, ``length``, ``tool_calls``, ``content_filter`` or other."""

    __slots__ = ()
    STOP: ClassVar[FinishReason]
    LENGTH: ClassVar[FinishReason]
    TOOL_CALLS: ClassVar[FinishReason]
    CONTENT_FILTER: ClassVar[FinishReason]


FinishReason.STOP = FinishReason._define("stop")
FinishReason.LENGTH = FinishReason._define("length")
FinishReason.TOOL_CALLS = FinishReason._define("tool_calls")
FinishReason.CONTENT_FILTER = FinishReason._define("content_filter")
