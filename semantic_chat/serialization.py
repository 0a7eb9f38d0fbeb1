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

import math
from collections.abc import Callable
from typing import Any, TypeVar

import attrs
import cattrs
from cattrs.errors import AttributeValidationNote, BaseValidationError, IterableValidationNote
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override
from cattrs.gen._consts import AttributeOverride

from . import jsoncodec
from .collection import ChatMessageContentItemCollection, _ReadItems
from .contents import CONTENT_TYPES, BinaryContent, KernelContent, UnknownContent
from .contents.binary import Base64Payload
from .contents.function_result import FunctionResultContent
from .errors import (
    InvalidValueError,
    SemanticChatError,
    SerializationError,
    UnknownContentTypeError,
    UnsupportedVersionError,
    describe_type,
)
from .history import ChatHistory
from .labels import Label
from .media import check_base64, encode_base64
from .message import MESSAGE_TYPES, ChatMessageContent
from .usage import Usage

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

FORMAT_VERSION = 1
"""The version written into every history; readers refuse data with a higher one."""

_T = TypeVar("_T")
_Hook = Callable[[Any], Any]

# JSON types each primitive field accepts; bool is refused where int or float is expected.
_ACCEPTED_PRIMITIVES: dict[type, tuple[type, ...]] = {
    str: (str,),
    int: (int,),
    float: (float, int),
    bool: (bool,),
}


class _Hooks:
    """The hooks of one converter, with the caches of generated per-class functions."""

    def __init__(self, converter: cattrs.Converter, strict: bool) -> None:
        self.converter = converter
        self.strict = strict
        self.item_writers: dict[type, _Hook] = {}
        self.item_readers: dict[type, _Hook] = {}
        self.message_writers: dict[type, _Hook] = {}
        self.message_readers: dict[type, _Hook] = {}
        # The item reader for each label seen, valid while the registry's version is.
        self.readers_by_label: dict[str, _Hook] = {}
        self.labels_version = -1
        self.plain_message_reader: _Hook | None = None

    # --- items -------------------------------------------------------------------------

    def write_item(self, item: KernelContent) -> dict[str, Any]:
        writer = self.item_writers.get(type(item))
        if writer is None:
            writer = self.item_writers[type(item)] = self._make_item_writer(type(item))
        return writer(item)  # type: ignore[no-any-return]

    def read_item(self, data: Any) -> KernelContent:
        if type(data) is not dict:
            raise SerializationError.mismatch("", "an item object", describe_type(data))
        self._check_labels()
        label = data.get("type")
        reader = self.readers_by_label.get(label) if type(label) is str else None
        if reader is None:
            reader = self._reader_for_label(label)
        return reader(data)  # type: ignore[no-any-return]

    def _check_labels(self) -> None:
        """Start the label cache over when a content class was registered or removed."""
        if self.labels_version != CONTENT_TYPES.version:
            self.readers_by_label.clear()
            self.labels_version = CONTENT_TYPES.version

    def _reader_for_label(self, label: Any) -> _Hook:
        if type(label) is not str:
            if label is None:
                raise SerializationError("missing the item's type label", path="type")
            raise SerializationError.mismatch("type", "a string", describe_type(label))
        cls = CONTENT_TYPES.get_class(label)
        if cls is None:
            if self.strict:
                raise UnknownContentTypeError(
                    f"unknown content type {label!r}: no class is registered under it"
                )
            cls = UnknownContent
        reader = self.item_readers.get(cls)
        if reader is None:
            reader = self.item_readers[cls] = self._make_item_reader(cls)
        self.readers_by_label[label] = reader
        return reader

    def write_items(self, items: Any, field: str = "items") -> list[dict[str, Any]]:
        writers = self.item_writers
        written: list[dict[str, Any]] = []
        append = written.append
        for index, item in enumerate(items):
            try:
                writer = writers.get(type(item))  # inline: the class was written before
                append(writer(item) if writer is not None else self.write_item(item))
            except SemanticChatError as error:
                raise error.at(f"{field}[{index}]") from None
        return written

    def read_items(self, data: Any) -> list[KernelContent]:
        if type(data) is not list:
            raise SerializationError.mismatch("", "a list of items", describe_type(data))
        self._check_labels()
        readers = self.readers_by_label
        items = _ReadItems()
        append = items.append
        for index, element in enumerate(data):
            try:
                # The common case inline: an item object whose label was seen before.
                label = element.get("type") if type(element) is dict else None
                reader = readers.get(label) if type(label) is str else None
                append(reader(element) if reader is not None else self.read_item(element))
            except Exception as error:
                raise _translate(error).at(f"[{index}]") from None
        return items

    def read_items_hook(self, data: Any, _: Any) -> list[KernelContent]:
        """`read_items` with the signature of a cattrs structure hook."""
        return self.read_items(data)

    def _make_item_writer(self, cls: type[KernelContent]) -> _Hook:
        if CONTENT_TYPES.get_class(cls.content_type) is not cls:
            raise SerializationError(
                f"{cls.__module__}.{cls.__qualname__} is not a registered content class: "
                "decorate it with @attrs.define and give it its own content_type"
            )
        if issubclass(cls, UnknownContent):
            return _write_unknown
        label = str(cls.content_type)
        generated = make_dict_unstructure_fn(
            cls,
            self.converter,
            _cattrs_omit_if_default=True,
            _cattrs_use_alias=True,
            **self._field_overrides(cls, writing=True),
        )
        required_nullable = _required_nullable_fields(cls)
        writes_result = issubclass(cls, FunctionResultContent)
        if not required_nullable and not writes_result:

            def write_tagged(item: KernelContent) -> dict[str, Any]:
                return {"type": label, **generated(item)}

            return write_tagged

        def write(item: KernelContent) -> dict[str, Any]:
            written = {"type": label}
            written.update(generated(item))
            for key in required_nullable:
                if written.get(key, True) is None:
                    del written[key]
            if writes_result:
                self._write_result(item, written)  # type: ignore[arg-type]
            return written

        return write

    def _make_item_reader(self, cls: type[KernelContent]) -> _Hook:
        if issubclass(cls, UnknownContent):
            return _read_unknown
        generated = make_dict_structure_fn(
            cls,
            self.converter,
            _cattrs_detailed_validation=True,
            _cattrs_use_alias=True,
            **self._field_overrides(cls, writing=False),
        )
        required_nullable = _required_nullable_fields(cls)
        reads_result = issubclass(cls, FunctionResultContent)
        if not required_nullable and not reads_result:
            return generated

        def read(data: dict[str, Any]) -> KernelContent:
            for key in required_nullable:
                if key not in data:
                    data = {**data, key: None}
            item = generated(data)
            if reads_result:
                self._read_result(data, item)  # type: ignore[arg-type]
            return item

        return read

    def _field_overrides(self, cls: type, writing: bool) -> dict[str, Any]:
        overrides: dict[str, Any] = {"inner_content": override(omit=True)}
        for field in attrs.fields(cls):
            name, alias = field.name, field.alias
            if name == "inner_content":
                continue
            if issubclass(cls, FunctionResultContent) and name == "result":
                overrides[name] = override(omit=True)
            elif issubclass(cls, BinaryContent) and name == "_data":
                hook = _write_payload if writing else _read_payload
                overrides[name] = _hook_override(writing, hook)
            elif _holds_json(field.type):
                hook = _json_hook(alias, writing, field.type)
                overrides[name] = _hook_override(writing, hook)
            elif writing and _holds_float(field.type):
                overrides[name] = override(unstruct_hook=_finite_float_writer(alias or name))
        return overrides

    def _write_result(self, item: FunctionResultContent, written: dict[str, Any]) -> None:
        result = item.result
        if type(result) is list and result and all(
            isinstance(element, KernelContent) for element in result
        ):
            written["result_items"] = self.write_items(result, "result_items")
        elif result is not None:
            written["result"] = jsoncodec.json_value(result, "result")

    def _read_result(self, data: dict[str, Any], item: FunctionResultContent) -> None:
        if "result_items" in data:
            try:
                item.result = list(self.read_items(data["result_items"]))
            except SerializationError as error:
                raise error.at("result_items") from None
        elif "result" in data:
            item.result = data["result"]

    # --- messages and histories --------------------------------------------------------

    def write_message(self, message: ChatMessageContent) -> dict[str, Any]:
        writer = self.message_writers.get(type(message))
        if writer is None:
            writer = self.message_writers[type(message)] = self._make_message_writer(
                type(message)
            )
        return writer(message)  # type: ignore[no-any-return]

    def read_message(self, data: Any) -> ChatMessageContent:
        if type(data) is not dict:
            raise SerializationError.mismatch("", "a message object", describe_type(data))
        if "message_type" not in data and self.plain_message_reader is not None:
            return self.plain_message_reader(data)  # type: ignore[no-any-return]
        label = data.get("message_type")
        cls: type[ChatMessageContent] = ChatMessageContent
        if label is not None:
            if type(label) is not str:
                raise SerializationError.mismatch("message_type", "a string", describe_type(label))
            found = MESSAGE_TYPES.get_class(label)
            if found is None:
                if self.strict:
                    raise UnknownContentTypeError(
                        f"unknown message type {label!r}: no class is registered under it",
                        path="message_type",
                    )
            else:
                cls = found
        reader = self.message_readers.get(cls)
        if reader is None:
            reader = self.message_readers[cls] = self._make_message_reader(cls)
            if cls is ChatMessageContent:
                self.plain_message_reader = reader
        return reader(data)  # type: ignore[no-any-return]

    def _make_message_writer(self, cls: type[ChatMessageContent]) -> _Hook:
        if MESSAGE_TYPES.get_class(cls.message_type) is not cls:
            raise SerializationError(
                f"{cls.__module__}.{cls.__qualname__} is not a registered message class: "
                "decorate it with @attrs.define and give it its own message_type"
            )
        generated = make_dict_unstructure_fn(
            cls,
            self.converter,
            _cattrs_omit_if_default=True,
            _cattrs_use_alias=True,
            **self._message_overrides(cls, writing=True),
        )
        if cls is ChatMessageContent:

            def write_plain(message: ChatMessageContent) -> dict[str, Any]:
                written: dict[str, Any] = generated(message)
                if not written["items"]:
                    del written["items"]
                return written

            return write_plain
        label = cls.message_type

        def write(message: ChatMessageContent) -> dict[str, Any]:
            written = {"message_type": label}
            written.update(generated(message))
            if not written["items"]:
                del written["items"]
            return written

        return write

    def _make_message_reader(self, cls: type[ChatMessageContent]) -> _Hook:
        return make_dict_structure_fn(
            cls,
            self.converter,
            _cattrs_detailed_validation=True,
            _cattrs_use_alias=True,
            **self._message_overrides(cls, writing=False),
        )

    def _message_overrides(self, cls: type, writing: bool) -> dict[str, Any]:
        overrides: dict[str, Any] = {
            "inner_content": override(omit=True),
            # Always written by the generated code (comparing with the default would build two
            # empty collections per message); an empty list is dropped afterwards.
            "_items": override(unstruct_hook=self.write_items, omit_if_default=False)
            if writing
            else override(struct_hook=self.read_items_hook),
        }
        for field in attrs.fields(cls):
            if field.name not in overrides and _holds_json(field.type):
                hook = _json_hook(field.alias, writing, field.type)
                overrides[field.name] = _hook_override(writing, hook)
        return overrides

    def write_history(self, history: ChatHistory) -> dict[str, Any]:
        writers = self.message_writers
        messages: list[dict[str, Any]] = []
        append = messages.append
        for index, message in enumerate(history.messages):
            try:
                writer = writers.get(type(message))  # inline: the class was written before
                append(writer(message) if writer is not None else self.write_message(message))
            except SemanticChatError as error:
                raise error.at(f"messages[{index}]") from None
        return {"version": FORMAT_VERSION, "messages": messages}

    def read_history(self, data: Any) -> ChatHistory:
        if type(data) is not dict:
            raise SerializationError.mismatch("", "a history object", describe_type(data))
        version = data.get("version")
        if type(version) is not int:
            if version is None:
                raise SerializationError("missing the format version", path="version")
            raise SerializationError.mismatch("version", "an integer", describe_type(version))
        if version > FORMAT_VERSION:
            raise UnsupportedVersionError(
                f"found version {version}, this library reads version {FORMAT_VERSION} "
                "and older: upgrade semantic_chat",
                path="version", expected=str(FORMAT_VERSION), got=str(version),
            )
        messages = data.get("messages", [])
        if type(messages) is not list:
            raise SerializationError.mismatch("messages", "a list", describe_type(messages))
        history = ChatHistory()
        read = history.messages
        for index, element in enumerate(messages):
            try:
                read.append(self.read_message(element))
            except Exception as error:
                raise _translate(error).at(f"messages[{index}]") from None
        return history

    # --- registration ------------------------------------------------------------------

    def install(self) -> None:
        c = self.converter
        for primitive, accepted in _ACCEPTED_PRIMITIVES.items():
            c.register_structure_hook(primitive, _primitive_reader(primitive, accepted))
            # One call for ``X | None`` instead of cattrs' optional wrapper around X's hook.
            c.register_structure_hook(
                primitive | None, _primitive_reader(primitive, (*accepted, type(None)))
            )
        # Labels are str subclasses: register them by class so they win over the str hooks.
        # Labels are str subclasses: register them by class so they win over the str hook.
        c.register_structure_hook(Label, _read_label_fast)
        c.register_unstructure_hook(Label, str.__str__)
        c.register_structure_hook(ChatMessageContentItemCollection, self.read_items_hook)
        c.register_unstructure_hook(ChatMessageContentItemCollection, self.write_items)
        c.register_structure_hook_func(
            _is_content_class, lambda value, cls: _checked(self.read_item(value), cls)
        )
        c.register_unstructure_hook_func(_is_content_class, self.write_item)
        c.register_structure_hook_func(
            _is_message_class, lambda value, cls: _checked(self.read_message(value), cls)
        )
        c.register_unstructure_hook_func(_is_message_class, self.write_message)
        c.register_structure_hook(ChatHistory, lambda value, _: self.read_history(value))
        c.register_unstructure_hook(ChatHistory, self.write_history)
        read_usage = make_dict_structure_fn(Usage, c, _cattrs_detailed_validation=True)
        c.register_structure_hook(Usage, lambda value, _: read_usage(_json_object(value, "usage")))
        c.register_unstructure_hook(
            Usage, make_dict_unstructure_fn(Usage, c, _cattrs_omit_if_default=True)
        )
        c.register_unstructure_hook(bytes, _write_bytes)


# --- small hooks -------------------------------------------------------------------------


def _write_bytes(value: bytes) -> str:
    return encode_base64(value)


def _hook_override(writing: bool, hook: Callable[..., Any]) -> AttributeOverride:
    return override(unstruct_hook=hook) if writing else override(struct_hook=hook)


def _holds_json(annotation: Any) -> bool:
    text = annotation if isinstance(annotation, str) else repr(annotation)
    return "Any" in text


def _holds_float(annotation: Any) -> bool:
    return "float" in (annotation if isinstance(annotation, str) else repr(annotation))


def _finite_float_writer(field: str) -> Callable[[Any], Any]:
    # orjson writes NaN as null and json as NaN; neither reads back, so refuse both.
    def write(value: Any) -> Any:
        if type(value) is float and not math.isfinite(value):
            raise SerializationError(f"{value} is not a JSON value", path=field)
        return value

    return write


def _json_hook(field: str, writing: bool, annotation: Any) -> Callable[..., Any]:
    if writing:
        return lambda value: jsoncodec.json_value(value, field)
    # The annotation may be its text or, once attrs.resolve_types ran, the type itself.
    text = annotation if isinstance(annotation, str) else repr(annotation)
    if text.startswith("dict"):
        return lambda value, _: _read_json_object(value)
    if text.startswith("str |") and "Mapping" in text:  # FunctionCallContent.arguments
        return _read_text_or_object
    return lambda value, _: value


def _read_text_or_object(value: Any, _: Any) -> Any:
    if value is None or type(value) in (str, dict):
        return value
    raise SerializationError.mismatch("", "a string or a JSON object", describe_type(value))


def _primitive_reader(primitive: type, accepted: tuple[type, ...]) -> Callable[[Any, Any], Any]:
    name = "a string" if primitive is str else f"a JSON {primitive.__name__}"

    def read(value: Any, _: Any) -> Any:
        kind = type(value)
        if kind is primitive or (value is None and kind in accepted):
            return value
        if kind in accepted or (primitive is str and isinstance(value, str)):
            return primitive(value)
        raise SerializationError.mismatch("", name, describe_type(value))

    return read


def _read_json_object(value: Any) -> dict[str, Any]:
    return dict(_json_object(value, "a JSON object"))


def _json_object(value: Any, what: str) -> dict[str, Any]:
    if type(value) is not dict:
        expected = what if what.startswith("a") else f"a {what} object"
        raise SerializationError.mismatch("", expected, describe_type(value))
    return value


def _read_label_fast(value: Any, cls: type[Label]) -> Label:
    """Read a label; well-known ones come straight from the table of interned values."""
    if type(value) is str:
        found = cls._interned.get(value)
        if found is not None:
            return found
    return _read_label(value, cls)


def _read_label(value: Any, cls: type[Label]) -> Label:
    if not isinstance(value, str):
        raise SerializationError.mismatch("", "a string label", describe_type(value))
    try:
        return cls(value)
    except InvalidValueError as error:
        raise SerializationError(error.detail) from None


def _write_payload(value: bytes | str | None) -> str | None:
    if value is None or isinstance(value, str):  # undecoded base64 is written as it was read
        return value
    return _write_bytes(value)


def _read_payload(value: Any, _: Any) -> bytes | Base64Payload | None:
    if value is None or type(value) is bytes:
        return value
    if type(value) is not str:
        raise SerializationError.mismatch("", "base64 text", describe_type(value))
    try:
        check_base64(value)
    except ValueError as error:
        raise SerializationError(str(error)) from None
    return Base64Payload(value)


def _required_nullable_fields(cls: type) -> tuple[str, ...]:
    """Fields without a default that may be ``None``: left out when ``None``, like the rest."""
    return tuple(
        field.alias
        for field in attrs.fields(cls)
        if field.default is attrs.NOTHING and "None" in str(field.type)
    )


def _write_unknown(item: UnknownContent) -> dict[str, Any]:
    written: dict[str, Any] = {"type": item.type}
    for key, value in jsoncodec.json_value(item.fields, "fields").items():
        clashes = key == "type" or (key == "metadata" and (item.metadata or type(value) is dict))
        if clashes:
            raise SerializationError(
                f"{key!r} would be read back as the item's own {key}, not as a field",
                path=f"fields[{key!r}]",
            )
        written[key] = value
    if item.metadata:
        written["metadata"] = jsoncodec.json_value(item.metadata, "metadata")
    return written


def _read_unknown(data: dict[str, Any]) -> UnknownContent:
    # A "metadata" object is the item's metadata; anything else by that name is a field.
    metadata = data.get("metadata")
    if type(metadata) is dict:
        fields = {key: value for key, value in data.items() if key not in ("type", "metadata")}
        return UnknownContent(type=data["type"], fields=fields, metadata=dict(metadata))
    fields = {key: value for key, value in data.items() if key != "type"}
    return UnknownContent(type=data["type"], fields=fields)


def _is_content_class(cls: Any) -> bool:
    return isinstance(cls, type) and issubclass(cls, KernelContent)


def _is_message_class(cls: Any) -> bool:
    return isinstance(cls, type) and issubclass(cls, ChatMessageContent)


def _checked(value: Any, cls: type[_T]) -> _T:
    if not isinstance(value, cls):
        raise SerializationError.mismatch(
            "", f"a {cls.__name__}", f"a {type(value).__name__}"
        )
    return value


# --- error translation -------------------------------------------------------------------


def _translate(error: BaseException) -> SerializationError:
    """Turn any failure while reading into one `SerializationError` with its location."""
    if isinstance(error, SerializationError):
        return error
    if isinstance(error, SemanticChatError):
        return SerializationError(
            error.detail, path=error.path, expected=error.expected, got=error.got
        )
    if isinstance(error, BaseValidationError):
        first = error.exceptions[0]
        inner = _translate(first)
        for note in getattr(first, "__notes__", ()):
            if isinstance(note, AttributeValidationNote):
                return inner.at(_alias_of(getattr(error, "cl", None), note.name))
            if isinstance(note, IterableValidationNote):
                return inner.at(f"[{note.index}]")
        return inner
    if isinstance(error, KeyError):
        return SerializationError("missing required field")
    if isinstance(error, (TypeError, ValueError)):
        return SerializationError(str(error))
    return SerializationError(f"{type(error).__name__}: {error}")


def _alias_of(cls: Any, name: str) -> str:
    if attrs.has(cls):
        field = attrs.fields_dict(cls).get(name)
        if field is not None and field.alias is not None:
            return field.alias
    return name


# --- the public face ---------------------------------------------------------------------


def configure_converter(converter: cattrs.Converter, *, strict: bool = False) -> None:
    """Install this library's hooks on a converter of your own.

    With ``strict`` the converter refuses item and message labels nobody registered instead
    of reading them into `UnknownContent`.
    """
    _Hooks(converter, strict).install()


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
        raise _translate(error) from None


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

