"""`ChatMessageContent`: one message of a conversation, and the registry of message classes."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, TypedDict, TypeVar

import attrs

from .coercion import to_items
from .collection import ChatMessageContentItemCollection, _ReadItems
from .contents import (
    AudioContent,
    FileContent,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    KernelContent,
    ReasoningContent,
    TextContent,
)
from .contents.metadata import metadata_key, written_by_attrs
from .errors import (
    InvalidTypeError,
    InvalidValueError,
    RegistrationError,
    SemanticChatError,
    describe_type,
)
from .labels import AuthorRole, FinishReason, Label
from .registry import TypeRegistry
from .usage import Usage
from .validation import check_json, check_metadata, check_optional_text

if TYPE_CHECKING:
    from .tools.toolset import ToolSet

_L = TypeVar("_L", bound=Label)
_store = object.__setattr__
_optional_text = check_optional_text

__all__ = ["MESSAGE_TYPES", "ChatMessageContent"]


class ResultMessageFields(TypedDict, total=False):
    """A message's keyword fields but its items and name: what `add_tool_message` passes on."""

    id: str | None
    finish_reason: FinishReason | str | None
    usage: Usage | Mapping[str, int] | None
    model_id: str | None
    metadata: dict[str, Any] | None
    inner_content: Any


class MessageFields(ResultMessageFields, total=False):
    """The keyword fields `ChatMessageContent` takes beside its role and content.

    The role helpers (`semantic_chat.roles.user` ...) and ``ChatHistory.add_user_message``
    and its siblings pass them on as ``**fields: Unpack[MessageFields]``, so that mypy checks
    each keyword's name and type there as it does at the constructor.
    """

    items: Iterable[KernelContent] | None
    name: str | None


def _as_collection(value: Iterable[Any] | None) -> ChatMessageContentItemCollection:
    """Check and copy what was given as ``items``: a list (any iterable) of items, or None."""
    if value is None:
        return ChatMessageContentItemCollection._trusted([])
    if type(value) is list or type(value) is tuple:  # the common case, checked item by item
        return ChatMessageContentItemCollection(value)
    if type(value) is _ReadItems:
        return ChatMessageContentItemCollection._trusted(value)
    if isinstance(value, (str, bytes, bytearray, memoryview)):
        raise InvalidTypeError(
            f"expected a list of items, got {describe_type(value)}: "
            "pass text or bytes as content= to have them converted",
            path="items", expected="a list of items", got=describe_type(value),
        )
    if isinstance(value, KernelContent) or not isinstance(value, Iterable):
        raise InvalidTypeError(
            f"expected a list of items, got {describe_type(value)}: "
            "pass [item] for one item, or content=",
            path="items", expected="a list of items", got=describe_type(value),
        )
    return ChatMessageContentItemCollection(value)


def _as_finish_reason(value: Any) -> FinishReason | None:
    if value is None or type(value) is FinishReason:
        return value
    return _label(FinishReason, value, "finish_reason")


def _as_role(value: Any) -> AuthorRole:
    if type(value) is AuthorRole:
        return value
    return _label(AuthorRole, value, "role")


def _label(cls: type[_L], value: Any, field: str) -> _L:
    """A label of ``cls`` made from ``value``, with an error that names the message's field."""
    try:
        return cls(value)
    except SemanticChatError as error:
        raise error.with_path(field) from None


def _as_usage(value: Any) -> Usage | None:
    """``usage`` as stored: a `Usage`, or one built from a mapping of its fields."""
    if value is None or isinstance(value, Usage):
        return value
    if isinstance(value, Mapping):
        unknown = sorted(str(key) for key in value if key not in _USAGE_FIELDS)
        if unknown:
            raise InvalidValueError(
                f"unknown token counts {', '.join(map(repr, unknown))}: "
                f"a Usage has {', '.join(_USAGE_FIELDS)}",
                path="usage",
            )
        try:
            return Usage(**value)
        except SemanticChatError as error:
            raise error.at("usage") from None
    raise InvalidTypeError.mismatch("usage", "a Usage, a dict of its fields, or None",
                                    describe_type(value))


_USAGE_FIELDS = tuple(field.name for field in attrs.fields(Usage))


@attrs.define(
    slots=True, weakref_slot=False, init=False, repr=False, on_setattr=attrs.setters.NO_OP
)
class ChatMessageContent:
    """One message: who wrote it and the items it holds, with what the provider said of it.

    ``content=`` takes a string, an item, a native object (bytes, path, numpy image, PIL
    image) or a list of them, converted to items; ``items=`` takes items. The ``content``
    property is a shortcut to the first text item, so the items stay the one source of truth.

    ``role``, ``items`` and ``finish_reason`` convert what is assigned to them (a string to a
    label, a list to a checked collection); the other fields are plain attributes, so that
    building a message costs no more than storing its fields.

    Raises:
        InvalidTypeError: both ``content`` and ``items`` are given, or something in them
            cannot be an item (the message names its index).
    """

    message_type: ClassVar[str] = "chat_message"
    """The label a subclass is written under in JSON; each subclass declares its own."""

    _role: AuthorRole = attrs.field(alias="role", converter=_as_role)
    # The checked collection; or, in a message a reader made, a plain list of items it has
    # checked, which the ``items`` property turns into the collection on first use.
    _items: list[KernelContent] = attrs.field(
        alias="items", converter=_as_collection, factory=ChatMessageContentItemCollection
    )

    _name: str | None = attrs.field(alias="name", default=None)
    _id: str | None = attrs.field(alias="id", default=None)
    _finish_reason: FinishReason | None = attrs.field(
        alias="finish_reason", default=None, converter=_as_finish_reason
    )
    _usage: Usage | None = attrs.field(alias="usage", default=None, converter=_as_usage)
    _model_id: str | None = attrs.field(alias="model_id", default=None)

    # Made on first use, as on items: most messages never get metadata.
    _metadata: dict[str, Any] | None = attrs.field(
        alias="metadata", default=None, eq=metadata_key
    )

    inner_content: Any = attrs.field(default=None, eq=False, repr=False)
    """The raw provider object the message was read from; never serialized or compared."""

    __match_args__ = ("role", "content")

    def __init__(
        self,
        role: AuthorRole | str,
        content: Any = None,
        *,
        items: Iterable[KernelContent] | None = None,
        name: str | None = None,
        id: str | None = None,
        finish_reason: FinishReason | str | None = None,
        usage: Usage | Mapping[str, int] | None = None,
        model_id: str | None = None,
        metadata: dict[str, Any] | None = None,
        inner_content: Any = None,
    ) -> None:
        if items is not None:
            if content is not None:
                raise InvalidTypeError(
                    "give content= or items=, not both", path=type(self).__name__
                )
            self._items = _as_collection(items)
        elif content is None:
            self._items = ChatMessageContentItemCollection._trusted([])
        else:
            self._items = ChatMessageContentItemCollection._trusted(to_items(content))
        self._role = role if type(role) is AuthorRole else _as_role(role)
        self._name = (
            name
            if name is None or (type(name) is str and name.isascii())
            else _optional_text(name, "name")
        )
        self._id = (
            id
            if id is None or (type(id) is str and id.isascii())
            else _optional_text(id, "id")
        )
        self._finish_reason = (
            finish_reason
            if finish_reason is None or type(finish_reason) is FinishReason
            else _as_finish_reason(finish_reason)
        )
        self._usage = usage if usage is None or type(usage) is Usage else _as_usage(usage)
        self._model_id = (
            model_id
            if model_id is None or (type(model_id) is str and model_id.isascii())
            else _optional_text(model_id, "model_id")
        )
        self._metadata = None if metadata is None else check_metadata(metadata)
        self.inner_content = inner_content

    def __attrs_post_init__(self) -> None:
        """Check the fields a subclass's attrs-written ``__init__`` stored."""
        for field in ("name", "id", "model_id"):
            value = getattr(self, "_" + field)
            if value is not None and not (type(value) is str and value.isascii()):
                _store(self, "_" + field, _optional_text(value, field))
        if self._metadata is not None:
            _store(self, "_metadata", check_metadata(self._metadata))

    @classmethod
    def __attrs_init_subclass__(cls) -> None:
        label = cls.__dict__.get("message_type")
        if not isinstance(label, str) or not label.strip():
            raise RegistrationError(
                f"{cls.__qualname__} must declare its own message_type "
                "(a non-blank str) so that it is read back as itself",
                path=cls.__qualname__,
            )
        if not cls.__dict__.get("_unregistered", False):  # `UnknownMessage` is no label's class
            MESSAGE_TYPES.register(label, cls)
        if written_by_attrs(cls, "__init__"):
            # attrs wrote an __init__ taking ``items`` only: keep it for the fields and put
            # the ``content=`` constructor in front of it, as on the base class.
            setattr(cls, "__attrs_init__", cls.__dict__["__init__"])  # noqa: B010
            setattr(cls, "__init__", _subclass_init)  # noqa: B010
        if written_by_attrs(cls, "__repr__"):
            setattr(cls, "__repr__", ChatMessageContent.__repr__)  # noqa: B010

    @property
    def role(self) -> AuthorRole:
        """Who wrote the message; a string assigned to it becomes an `AuthorRole`."""
        return self._role

    @role.setter
    def role(self, value: AuthorRole | str) -> None:
        self._role = value if type(value) is AuthorRole else _as_role(value)

    @property
    def items(self) -> ChatMessageContentItemCollection:
        """What the message holds, in order; a list assigned to it is checked and copied."""
        items = self._items
        if type(items) is ChatMessageContentItemCollection:
            return items
        # A reader's plain list of checked items (see `semantic_chat.trusted`) becomes the
        # collection on first use, so that reading a history makes one list per message less.
        collection = self._items = ChatMessageContentItemCollection._trusted(items)
        return collection

    @items.setter
    def items(self, value: Iterable[Any] | None) -> None:
        self._items = _as_collection(value)

    @property
    def metadata(self) -> dict[str, Any]:
        """Provider details that no field models; JSON values only."""
        metadata = self._metadata
        if metadata is None:
            metadata = {}
            _store(self, "_metadata", metadata)  # works on frozen subclasses too
        return metadata

    @metadata.setter
    def metadata(self, value: dict[str, Any] | None) -> None:
        self._metadata = check_metadata(value)

    @property
    def name(self) -> str | None:
        """The author's name, for providers that tell participants of one role apart."""
        return self._name

    @name.setter
    def name(self, value: str | None) -> None:
        self._name = (
            value
            if value is None or (type(value) is str and value.isascii())
            else _optional_text(value, "name")
        )

    @property
    def id(self) -> str | None:
        """The provider's id of the message or response."""
        return self._id

    @id.setter
    def id(self, value: str | None) -> None:
        self._id = (
            value
            if value is None or (type(value) is str and value.isascii())
            else _optional_text(value, "id")
        )

    @property
    def usage(self) -> Usage | None:
        """Tokens the request used, when the message is a model's answer.

        A dict of `Usage` fields assigned to it becomes a `Usage`.
        """
        return self._usage

    @usage.setter
    def usage(self, value: Usage | Mapping[str, int] | None) -> None:
        self._usage = _as_usage(value)

    @property
    def model_id(self) -> str | None:
        """The model that wrote the message."""
        return self._model_id

    @model_id.setter
    def model_id(self, value: str | None) -> None:
        self._model_id = (
            value
            if value is None or (type(value) is str and value.isascii())
            else _optional_text(value, "model_id")
        )

    @property
    def finish_reason(self) -> FinishReason | None:
        """Why the model stopped writing; a string assigned to it becomes a `FinishReason`."""
        return self._finish_reason

    @finish_reason.setter
    def finish_reason(self, value: FinishReason | str | None) -> None:
        self._finish_reason = _as_finish_reason(value)

    def _repr_html_(self) -> str:
        """The message as HTML, for Jupyter: its section, with CSS (see `semantic_chat.html`)."""
        from .html import notebook_html  # noqa: PLC0415 - html sits above the model

        return notebook_html(self)

    def __repr__(self) -> str:
        """Show the role and items, then the fields that differ from their defaults."""
        shown = []
        for field in attrs.fields(type(self)):
            value = getattr(self, field.name)
            default = field.default
            if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
                default = default.factory()
            if field.name == "_metadata":
                value = metadata_key(value)  # an empty dict is no metadata
            if field.name in ("_role", "_items") or (field.repr and value != default):
                if isinstance(value, Label):
                    value = str(value)
                elif isinstance(value, ChatMessageContentItemCollection):
                    value = list(value)
                shown.append(f"{field.alias or field.name}={value!r}")
        return f"{type(self).__name__}({', '.join(shown)})"

    @property
    def content(self) -> str | None:
        """The text of the first text item, or ``None`` when there is none.

        Setting a string replaces that item's text, or appends a text item when there is
        none; setting ``None`` removes the first text item.
        """
        for item in self.items:
            if isinstance(item, TextContent):
                return item.text
        return None

    @content.setter
    def content(self, value: str | None) -> None:
        first = self.items.first(TextContent)
        if value is None:
            if first is not None:
                self.items.remove(first)
        elif not isinstance(value, str):
            raise InvalidTypeError.mismatch("content", "a str or None", type(value).__name__)
        else:
            try:
                if first is None:
                    self.items.append(TextContent(value))
                else:
                    first.text = value
            except SemanticChatError as error:  # the text item's check: said of content
                raise error.with_path("content") from None

    @property
    def text(self) -> str:
        """All text items joined with newlines; empty when there are none."""
        return "\n".join(item.text for item in self.items.of_type(TextContent))

    @property
    def images(self) -> list[ImageContent]:
        """The image items, in order."""
        return self.items.of_type(ImageContent)

    @property
    def audios(self) -> list[AudioContent]:
        """The audio items, in order."""
        return self.items.of_type(AudioContent)

    @property
    def files(self) -> list[FileContent]:
        """The file items, in order."""
        return self.items.of_type(FileContent)

    @property
    def function_calls(self) -> list[FunctionCallContent]:
        """The function calls the message asks for, in order."""
        return self.items.of_type(FunctionCallContent)

    @property
    def function_results(self) -> list[FunctionResultContent]:
        """The function results the message carries, in order."""
        return self.items.of_type(FunctionResultContent)

    @property
    def reasoning(self) -> list[ReasoningContent]:
        """The reasoning items, in order."""
        return self.items.of_type(ReasoningContent)

    def __str__(self) -> str:
        return self.text

    def call_tools(
        self,
        toolset: ToolSet,
        *,
        parallel: bool = False,
        max_workers: int | None = None,
        timeout: float | None = None,
    ) -> ChatMessageContent:
        """Call this message's function calls with ``toolset``; return a tool message of results.

        One `FunctionResultContent` per call, in call order; a failing, bad or timed-out
        call is an error result. See `semantic_chat.tools.collect.call_tools`.
        """
        from .tools.collect import call_tools  # noqa: PLC0415 - the model does not need tools

        return call_tools(
            self, toolset, parallel=parallel, max_workers=max_workers, timeout=timeout
        )

    async def acall_tools(
        self,
        toolset: ToolSet,
        *,
        parallel: bool = False,
        max_workers: int | None = None,
        timeout: float | None = None,
    ) -> ChatMessageContent:
        """Await this message's function calls with ``toolset``: the async `call_tools`.

        See `semantic_chat.tools.collect.acall_tools`.
        """
        from .tools.collect import acall_tools  # noqa: PLC0415 - see `call_tools`

        return await acall_tools(
            self, toolset, parallel=parallel, max_workers=max_workers, timeout=timeout
        )

    call_tools_and_collect_as_message = call_tools
    """`call_tools` under ell's name, for code written against ell's ``Message``."""


def _subclass_init(
    self: ChatMessageContent,
    role: AuthorRole | str,
    content: Any = None,
    *,
    items: Iterable[KernelContent] | None = None,
    **fields: Any,
) -> None:
    """The ``content=`` constructor for a message subclass whose ``__init__`` attrs wrote."""
    if items is not None and content is not None:
        raise InvalidTypeError("give content= or items=, not both", path=type(self).__name__)
    if items is None:
        items = [] if content is None else to_items(content)
    self.__attrs_init__(role, items, **fields)


MESSAGE_TYPES: TypeRegistry[str, ChatMessageContent] = TypeRegistry("message type")
"""Every registered message class, keyed by its ``message_type``."""
MESSAGE_TYPES.register(ChatMessageContent.message_type, ChatMessageContent)


@attrs.define(
    slots=True, weakref_slot=False, init=False, repr=False, on_setattr=attrs.setters.NO_OP
)
class UnknownMessage(ChatMessageContent):
    """A message read with keys this version does not know, kept so it is written back as read.

    A subclass whose plugin is not loaded (its ``message_type`` and own fields), or keys newer
    data added, are kept in ``unknown_keys`` exactly as read; the message's own fields are read
    as usual. Equal messages write equal JSON, so the unknown keys count in ``==``. Writers of
    provider formats never write them. Only the JSON reader makes these (the class is in no
    registry and not exported); a document naming the plugin's class reads into it once the
    plugin is loaded.

    Raises:
        InvalidTypeError: ``unknown_keys`` is not a dict of JSON values.
        InvalidValueError: ``unknown_keys`` is empty, holds a key the message itself is written
            with (``role``), or a ``message_type`` of a registered class (build that class).
    """

    message_type: ClassVar[str] = "unknown"
    _unregistered: ClassVar[bool] = True

    _unknown_keys: dict[str, Any] = attrs.field(alias="unknown_keys", factory=dict)

    def __init__(
        self,
        role: AuthorRole | str,
        content: Any = None,
        *,
        unknown_keys: Mapping[str, Any],
        **fields: Any,
    ) -> None:
        super().__init__(role, content, **fields)
        self._unknown_keys = _check_unknown_keys(unknown_keys)

    @property
    def unknown_keys(self) -> dict[str, Any]:
        """The keys this version does not know, with their values as read."""
        return self._unknown_keys

    @unknown_keys.setter
    def unknown_keys(self, value: Mapping[str, Any]) -> None:
        self._unknown_keys = _check_unknown_keys(value)


MESSAGE_KEYS = frozenset(
    field.alias for field in attrs.fields(ChatMessageContent) if field.name != "inner_content"
)
"""The keys a `ChatMessageContent` is written with (``message_type`` aside)."""


def _check_unknown_keys(value: Any) -> dict[str, Any]:
    """A checked copy of an `UnknownMessage`'s keys: JSON that reads back as the same message."""
    if not isinstance(value, Mapping):
        raise InvalidTypeError.mismatch("unknown_keys", "a dict", describe_type(value))
    if not value:
        raise InvalidValueError(
            "an unknown message needs at least one unknown key: build a ChatMessageContent",
            path="unknown_keys",
        )
    for key in value:
        if key in MESSAGE_KEYS:
            raise InvalidValueError(
                f"{key!r} would be read back as the message's own field, not as an unknown key",
                path=f'unknown_keys["{key}"]',
            )
    label = value.get("message_type")
    if "message_type" in value:
        if type(label) is not str:
            raise InvalidTypeError.mismatch(
                'unknown_keys["message_type"]', "a str", describe_type(label)
            )
        found = MESSAGE_TYPES.get_class(label)
        if found is not None and not issubclass(found, UnknownMessage):
            raise InvalidValueError(
                f"{label!r} is the message type of {found.__name__}: "
                f"build a {found.__name__} instead",
                path='unknown_keys["message_type"]',
            )
    copied: dict[str, Any] = check_json(dict(value), "unknown_keys")
    return copied
