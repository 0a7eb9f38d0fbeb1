"""The converter's hooks for items, messages and histories, with their per-class caches."""

from __future__ import annotations

import re
import typing
from typing import Any

import attrs
import cattrs
from cattrs.errors import StructureHandlerNotFoundError
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override
from cattrs.gen._consts import AttributeOverride

from .. import jsoncodec
from ..collection import ChatMessageContentItemCollection, _ReadItems
from ..contents import (
    CONTENT_TYPES,
    BinaryContent,
    KernelContent,
    TextContent,
    UnknownContent,
)
from ..contents.base import item_keys
from ..contents.binary import describe_sources
from ..contents.citation import Citation
from ..contents.function_result import FunctionResultContent, check_items_only, holds_items
from ..errors import (
    SemanticChatError,
    SerializationError,
    UnknownContentTypeError,
    UnsupportedVersionError,
    describe_type,
)
from ..history import ChatHistory
from ..labels import Label
from ..message import MESSAGE_KEYS, MESSAGE_TYPES, ChatMessageContent, UnknownMessage
from ..options import OPTION_KEYS, ChatOptions, ChatOptionsWithUnknownKeys
from ..registry import is_builtin
from ..trusted import new_history
from ..usage import USAGE_KEYS, USAGE_KEYS_IN_ORDER, Usage, UsageWithUnknownKeys
from . import stdlib_types
from .citations import citations_reader, read_citation, write_citation, write_citations
from .direct import (
    DIRECT_READERS,
    DIRECT_WRITERS,
    message_reader,
    message_writer,
)
from .fields import (
    ACCEPTED_PRIMITIVES,
    Hook,
    checked,
    checked_writer,
    drop_empty_metadata,
    finite_float_writer,
    holds_float,
    holds_json,
    hook_override,
    is_content_class,
    is_message_class,
    json_hook,
    json_object,
    literal_values,
    literal_writer,
    primitive_reader,
    read_keeping_newer,
    read_label_fast,
    read_newer_item,
    read_payload,
    read_unknown,
    refuse_newer_item,
    required_nullable_fields,
    scalar_union_members,
    scalar_union_reader,
    scalar_union_writer,
    split_newer_keys,
    write_bytes,
    write_payload,
    write_unknown,
    write_unknown_keys,
)
from .locate import locate_error

__all__ = [
    "FORMAT_VERSION",
    "ConverterHooks",
]

FORMAT_VERSION = 1
"""The version written into every history; readers refuse data with a higher one."""

_HISTORY_KEYS = frozenset(("version", "options", "messages"))
_LABELLED_MESSAGE_KEYS = MESSAGE_KEYS | {"message_type"}
_PLAIN_FIELDS = tuple(field.name for field in attrs.fields(ChatMessageContent))


def _check_one_source(cls: type, written: dict[str, Any]) -> None:
    """Refuse a binary item written with two sources or none (its fields set by hand)."""
    sources = sum(written.get(key) is not None for key in ("data", "uri", "file_id"))
    if sources != 1:
        raise SerializationError(
            describe_sources(cls, sources), expected="one source", got=str(sources)
        )


def _write_unknown_history_keys(unknown: Any, written: dict[str, Any]) -> None:
    """Add a history's keys this version does not know, as read, after its own."""
    written.update(write_unknown_keys(unknown, _HISTORY_KEYS, "history"))


def _resolved_plugin_class(cls: type) -> bool:
    """Whether ``cls`` is a plugin's class, its field types resolved from text if they can be."""
    if is_builtin(cls):
        return False
    try:
        attrs.resolve_types(cls)
    except Exception:  # a name that does not resolve: cattrs will say so when reading
        return False
    return True


def _type_text(annotation: Any) -> str:
    """A type as its declaration spells it, without module prefixes (``list[timedelta]``)."""
    if isinstance(annotation, type) and typing.get_origin(annotation) is None:
        return annotation.__name__
    return re.sub(r"\b(?:[A-Za-z_]\w*\.)+(\w+)", r"\1", repr(annotation))


def _compared_with_default(field: attrs.Attribute[Any]) -> bool:
    """Whether the writer compares a field's value with its default, to leave it out.

    Writers are made with ``omit_if_default``: a plain default (not a factory) is compared
    with ``==``, which a value such as a numpy array cannot answer.
    """
    default = field.default
    return default is not attrs.NOTHING and not isinstance(default, attrs.Factory)  # type: ignore[arg-type]


def _refusing_writer(annotation: Any, path: str) -> Hook:
    """A writer that refuses a field of a type no hook reads back, naming the field and type."""
    text = _type_text(annotation)
    if " | " in text or text.startswith("Union["):
        detail = (
            f"{text} cannot be read back (a union needs its members told apart: str, int, "
            "float, bool and None are): register a hook pair for it on the converter"
        )
    else:
        detail = f"{text} is not a JSON value: register a hook pair for it on the converter"

    def refuse(_: Any) -> Any:
        raise SerializationError(detail, path=path)

    return refuse


class ConverterHooks:
    """The hooks of one converter, with the caches of generated per-class functions."""

    def __init__(self, converter: cattrs.Converter, strict: bool) -> None:
        self.converter = converter
        self.strict = strict
        # The field writers of usage and options, under the hooks that add newer keys (made
        # by `install`).
        self._usage_fields: typing.Callable[[Any], dict[str, Any]]
        self._options_fields: typing.Callable[[Any], dict[str, Any]]
        self.item_writers: dict[type, Hook] = {}
        self.item_readers: dict[type, Hook] = {}
        self.message_writers: dict[type, Hook] = {}
        self.message_readers: dict[type, Hook] = {}
        # The item reader for each label seen, valid while the registry's version is.
        self.readers_by_label: dict[str, Hook] = {}
        self.labels_version = -1
        # The cattrs-generated reader of ChatMessageContent, once made (see read_message).
        self.general_plain_reader: Hook | None = None
        # A text item's citations: keys of a newer version kept, or (strict) refused.
        self.read_citations = citations_reader(strict)
        # Messages read and written directly when plain, by the general path otherwise.
        self.read_any_message = message_reader(
            self.readers_by_label, inline_text=False, general=self.read_message
        )
        self.write_any_message = message_writer(self.item_writers, general=self.write_message)

    # --- items -------------------------------------------------------------------------

    def write_item(self, item: KernelContent) -> dict[str, Any]:
        """Write one item as a tagged dict, with its class's cached writer."""
        writer = self.item_writers.get(type(item))
        if writer is None:
            writer = self._make_item_writer(type(item))
            direct = DIRECT_WRITERS.get(type(item))
            if direct is not None:
                writer = direct(writer)
            self.item_writers[type(item)] = writer
        return writer(item)

    def read_item(self, data: Any) -> KernelContent:
        """Read one tagged item, with the reader cached for its label."""
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
            inline_text = CONTENT_TYPES.get_class("text") is TextContent
            self.read_any_message = message_reader(
                self.readers_by_label, inline_text, general=self.read_message
            )

    def _reader_for_label(self, label: Any) -> Hook:
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
        direct = DIRECT_READERS.get(cls)
        if direct is not None:
            reader = direct(reader)
        self.readers_by_label[label] = reader
        return reader

    def write_items(self, items: Any, field: str = "items") -> list[dict[str, Any]]:
        """Write a list of items, locating any error at its index."""
        if not isinstance(items, list):
            raise SerializationError.mismatch(field, "a list of items", describe_type(items))
        writers = self.item_writers
        try:  # every class written before: one pass; anything else, the located loop below
            return [writers[type(item)](item) for item in items]
        except Exception:  # writers have no side effects: write again below, locating
            pass
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
        """Read a list of tagged items into a fresh, trusted list."""
        if type(data) is not list:
            raise SerializationError.mismatch("", "a list of items", describe_type(data))
        if self.labels_version != CONTENT_TYPES.version:
            self._check_labels()
        readers = self.readers_by_label
        try:  # every label seen before: one pass; anything else, the located loop below
            return _ReadItems([readers[element["type"]](element) for element in data])
        except Exception:  # readers have no side effects: read again below, locating
            pass
        items = _ReadItems()
        append = items.append
        try:
            for element in data:
                # The common case inline: an item object whose label was seen before.
                label = element.get("type") if type(element) is dict else None
                reader = readers.get(label) if type(label) is str else None
                append(reader(element) if reader is not None else self.read_item(element))
        except Exception as error:
            raise locate_error(error).at(f"[{len(items)}]") from None
        return items

    def read_items_hook(self, data: Any, _: Any) -> list[KernelContent]:
        """`read_items` with the signature of a cattrs structure hook."""
        return self.read_items(data)

    def _make_item_writer(self, cls: type[KernelContent]) -> Hook:
        if CONTENT_TYPES.get_class(cls.content_type) is not cls:
            raise SerializationError(
                f"{cls.__module__}.{cls.__qualname__} is not a registered content class: "
                "decorate it with @attrs.define and give it its own content_type"
            )
        if issubclass(cls, UnknownContent):
            return write_unknown
        label = str(cls.content_type)
        generated = make_dict_unstructure_fn(
            cls,
            self.converter,
            _cattrs_omit_if_default=True,
            _cattrs_use_alias=True,
            **self._field_overrides(cls, writing=True),
        )
        if not is_builtin(cls):
            generated = self._locating(cls, generated)
        required_nullable = required_nullable_fields(cls)
        writes_result = issubclass(cls, FunctionResultContent)
        if not required_nullable and not writes_result and not issubclass(cls, BinaryContent):

            def write_tagged(item: KernelContent) -> dict[str, Any]:
                written = {"type": label, **generated(item)}
                drop_empty_metadata(written)
                return written

            return write_tagged

        checks_sources = issubclass(cls, BinaryContent)

        def write(item: KernelContent) -> dict[str, Any]:
            written = {"type": label}
            written.update(generated(item))
            drop_empty_metadata(written)
            for key in required_nullable:
                if written.get(key, True) is None:
                    del written[key]
            if writes_result:
                self._write_result(item, written)  # type: ignore[arg-type]
            if checks_sources:
                _check_one_source(cls, written)
            return written

        return write

    def _locating(self, cls: type, generated: Hook) -> Hook:
        """Wrap a plugin class's generated writer so that any failure names the field.

        A plugin's own fields are not checked when set (they are the plugin's), so a value of
        the wrong type may meet a hook that cannot write it; the error is found again field
        by field and raised as a located `SerializationError`.
        """
        fields = [field for field in attrs.fields(cls) if field.name != "inner_content"]

        def write(item: Any) -> Any:
            try:
                return generated(item)
            except SemanticChatError as error:
                if error.path:
                    raise
                failure: Exception = error
            except Exception as error:  # a hook met a value it cannot write
                failure = error
            for field in fields:
                value = getattr(item, field.name)
                try:
                    self.converter.unstructure(value, field.type)
                    if _compared_with_default(field):
                        bool(value == field.default)  # as the writer leaving defaults out does
                except SemanticChatError as error:
                    raise locate_error(error).at(field.alias or field.name) from None
                except Exception as error:
                    raise SerializationError(
                        f"cannot be written: {type(error).__name__}: {error}",
                        path=field.alias or field.name,
                    ) from None
            raise SerializationError(
                f"cannot be written: {type(failure).__name__}: {failure}"
            ) from None

        return write

    def _make_item_reader(self, cls: type[KernelContent]) -> Hook:
        if issubclass(cls, UnknownContent):
            return read_unknown
        return self._keeping_newer_keys(cls, self._make_known_item_reader(cls))

    def _keeping_newer_keys(self, cls: type[KernelContent], read: Hook) -> Hook:
        """Wrap the general reader of ``cls``: an item with keys ``cls`` does not know is kept.

        It is kept whole as `UnknownContent` (or, strict, refused at the key), not read lossily.

        One set comparison per item on the general path; the direct readers send every item
        with a key they do not know there.
        """
        keys = item_keys(cls)
        strict = self.strict

        def read_known(data: dict[str, Any]) -> Any:
            if keys.issuperset(data):
                return read(data)
            if strict:
                raise refuse_newer_item(data, keys)
            return read_newer_item(data)

        return read_known

    def _make_known_item_reader(self, cls: type[KernelContent]) -> Hook:
        generated = make_dict_structure_fn(
            cls,
            self.converter,
            _cattrs_detailed_validation=True,
            _cattrs_use_alias=True,
            **self._field_overrides(cls, writing=False),
        )
        required_nullable = required_nullable_fields(cls)
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
        plugin = writing and _resolved_plugin_class(cls)
        for field in attrs.fields(cls):
            name, alias = field.name, field.alias
            if name == "inner_content":
                continue
            if issubclass(cls, FunctionResultContent) and name == "_result":
                overrides[name] = override(omit=True)
            elif issubclass(cls, TextContent) and name == "_citations":
                overrides[name] = hook_override(
                    writing, write_citations if writing else self.read_citations
                )
            elif issubclass(cls, BinaryContent) and name == "_data":
                hook = write_payload if writing else read_payload
                overrides[name] = hook_override(writing, hook)
            elif holds_json(field.type):
                hook = json_hook(alias, writing, field.type)
                overrides[name] = hook_override(writing, hook)
            elif plugin and (checked_field := self._plugin_field_writer(field)) is not None:
                overrides[name] = checked_field
            elif writing and holds_float(field.type):
                overrides[name] = override(
                    unstruct_hook=finite_float_writer(alias or name, field.type)
                )
            elif writing and (check := checked_writer(field.type, alias or name)) is not None:
                overrides[name] = override(unstruct_hook=check)
        return overrides

    def _plugin_field_writer(self, field: attrs.Attribute[Any]) -> AttributeOverride | None:
        """The writer of a plugin's field whose values must be checked to read back, or ``None``.

        A union of JSON scalars and a ``Literal`` are checked value by value; a type no hook
        reads back (``timedelta``, ``object``, ``int | datetime``) is refused at every write,
        naming the field, since the document could never be read.
        """
        annotation, path = field.type, field.alias or field.name
        if annotation is None or isinstance(annotation, str):  # unresolved: left to cattrs
            return None
        members = scalar_union_members(annotation)
        if members is not None:
            return override(unstruct_hook=scalar_union_writer(members, path))
        values = literal_values(annotation)
        if values is not None:
            return override(unstruct_hook=literal_writer(values, path))
        try:
            self.converter.get_structure_hook(annotation)
        except StructureHandlerNotFoundError:
            return override(unstruct_hook=_refusing_writer(annotation, path), omit_if_default=False)
        if typing.get_origin(annotation) in (list, dict):
            return override(unstruct_hook=self._json_container_writer(annotation, path))
        return None

    def _json_container_writer(self, annotation: Any, path: str) -> Hook:
        """A writer of a plugin's ``list[...]`` or ``dict[...]`` field whose output is checked.

        cattrs passes the values of such a container through as they are; a NaN in a
        ``list[float]`` or a key that is no string would be written as ``null`` (or fail
        without a location), so the written value is checked as JSON, located at the field.
        """
        write = self.converter.get_unstructure_hook(annotation)

        def write_checked(value: Any) -> Any:
            return jsoncodec.json_value(write(value), path)

        return write_checked

    def _write_result(self, item: FunctionResultContent, written: dict[str, Any]) -> None:
        result = item.result
        if holds_items(result):
            check_items_only(result, SerializationError)
            written["result_items"] = self.write_items(result, "result_items")
        elif result is not None:
            written["result"] = jsoncodec.json_value(result, "result")

    def _read_result(self, data: dict[str, Any], item: FunctionResultContent) -> None:
        """Give ``item``, just made by its reader, the result in ``result_items`` or ``result``.

        Stored with ``object.__setattr__`` into the field behind ``result`` (found by its
        alias), as attrs does in a frozen class's ``__init__``: assigning ``item.result`` would
        raise for a frozen subclass of `FunctionResultContent`.
        """
        if "result_items" in data:
            try:
                result: Any = list(self.read_items(data["result_items"]))
            except SerializationError as error:
                raise error.at("result_items") from None
        elif "result" in data:
            result = data["result"]
        else:
            return
        for field in attrs.fields(type(item)):
            if field.alias == "result":
                object.__setattr__(item, field.name, result)
                return

    # --- messages and histories --------------------------------------------------------

    def write_message(self, message: ChatMessageContent) -> dict[str, Any]:
        """Write one message, tagged with its ``message_type`` when it is a subclass."""
        writer = self.message_writers.get(type(message))
        if writer is None:
            writer = self.message_writers[type(message)] = self._make_message_writer(
                type(message)
            )
        return writer(message)  # type: ignore[no-any-return]

    def read_message(self, data: Any) -> ChatMessageContent:
        """Read one message, as the class its ``message_type`` names."""
        if type(data) is not dict:
            raise SerializationError.mismatch("", "a message object", describe_type(data))
        if "message_type" not in data:
            if not MESSAGE_KEYS.issuperset(data):  # keys of newer data: kept, not dropped
                return self._read_unknown_message(data)
            if self.general_plain_reader is not None:
                return self.general_plain_reader(data)  # type: ignore[no-any-return]
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
                return self._read_unknown_message(data)  # its plugin not loaded: kept whole
            cls = found
        if cls is ChatMessageContent and not _LABELLED_MESSAGE_KEYS.issuperset(data):
            return self._read_unknown_message(data)
        return self._plain_reader(cls)(data)  # type: ignore[no-any-return]

    def _plain_reader(self, cls: type[ChatMessageContent]) -> Hook:
        """The cached generated reader of message class ``cls``."""
        reader = self.message_readers.get(cls)
        if reader is None:
            reader = self.message_readers[cls] = self._make_message_reader(cls)
            if cls is ChatMessageContent:
                self.general_plain_reader = reader
        return reader

    def _read_unknown_message(self, data: dict[str, Any]) -> UnknownMessage:
        """Read a message with keys this version does not know into an `UnknownMessage`.

        Its own fields are read as a `ChatMessageContent`'s; every other key, ``message_type``
        included, is kept as it was read, to be written back.

        Raises:
            SerializationError: ``strict``, at the first key this version does not know
                (``itmes``): strict refuses them in a message as it does in an item.
        """
        if self.strict:
            split_newer_keys(data, _LABELLED_MESSAGE_KEYS, True, "message field")
        known = {key: value for key, value in data.items() if key in MESSAGE_KEYS}
        plain = self._plain_reader(ChatMessageContent)(known)
        message: UnknownMessage = object.__new__(UnknownMessage)
        for field in _PLAIN_FIELDS:
            object.__setattr__(message, field, getattr(plain, field))
        message._unknown_keys = {
            key: value for key, value in data.items() if key not in MESSAGE_KEYS
        }
        return message

    def _make_message_writer(self, cls: type[ChatMessageContent]) -> Hook:
        if cls is UnknownMessage:
            return self._make_unknown_message_writer()
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
                drop_empty_metadata(written)
                return written

            return write_plain
        label = cls.message_type

        def write(message: ChatMessageContent) -> dict[str, Any]:
            written = {"message_type": label}
            written.update(generated(message))
            if not written["items"]:
                del written["items"]
            drop_empty_metadata(written)
            return written

        return write

    def _make_unknown_message_writer(self) -> Hook:
        """Write an `UnknownMessage`: its fields as a plain message's, then its unknown keys."""
        write_plain = self.message_writers.get(ChatMessageContent)
        if write_plain is None:
            write_plain = self.message_writers[ChatMessageContent] = self._make_message_writer(
                ChatMessageContent
            )

        def write(message: UnknownMessage) -> dict[str, Any]:
            unknown = write_unknown_keys(message._unknown_keys, MESSAGE_KEYS, "message")
            written: dict[str, Any] = {}
            if "message_type" in unknown:  # first, where the writer of its class put it
                written["message_type"] = unknown["message_type"]
            written.update(write_plain(message))
            written.update(unknown)
            return written

        return write

    def _make_message_reader(self, cls: type[ChatMessageContent]) -> Hook:
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
        plugin = writing and _resolved_plugin_class(cls)
        for field in attrs.fields(cls):
            if field.name in overrides:
                continue
            if holds_json(field.type):
                hook = json_hook(field.alias, writing, field.type)
                overrides[field.name] = hook_override(writing, hook)
            elif plugin and (checked_field := self._plugin_field_writer(field)) is not None:
                overrides[field.name] = checked_field
            elif writing and field.name == "_usage":
                overrides[field.name] = override(unstruct_hook=self._write_usage)
            elif writing and (check := checked_writer(field.type, field.alias)) is not None:
                overrides[field.name] = override(unstruct_hook=check)
        return overrides

    def _write_usage(self, usage: Any) -> Any:
        """Write a message's usage, refusing anything but a `Usage` (an object broken by hand).

        The counts a newer version reported (`UsageWithUnknownKeys`) follow the known ones.
        """
        if not isinstance(usage, Usage):
            raise SerializationError.mismatch("usage", "a Usage or None", describe_type(usage))
        written: dict[str, Any] = self._usage_fields(usage)
        if type(usage) is UsageWithUnknownKeys:
            written.update(write_unknown_keys(usage._unknown_keys, USAGE_KEYS, "usage"))
        return written

    def _usage_reader(self) -> typing.Callable[[Any, Any], Usage]:
        """The reader of ``usage``: keys this version does not know are kept (or, strict, refused).

        A newer version may report more counts; they are kept in a `UsageWithUnknownKeys`,
        written back after the known counts, so re-saving loses nothing.
        """
        read = make_dict_structure_fn(Usage, self.converter, _cattrs_detailed_validation=True)
        strict = self.strict

        def read_usage(value: Any, _: Any) -> Usage:
            data = json_object(value, "usage")
            if USAGE_KEYS.issuperset(data):
                return read(data)
            counts, unknown = split_newer_keys(data, USAGE_KEYS, strict, "token count")
            known: Usage = read(counts)
            return UsageWithUnknownKeys(
                *(getattr(known, key) for key in USAGE_KEYS_IN_ORDER), unknown_keys=unknown
            )

        return read_usage

    def write_history(self, history: ChatHistory) -> dict[str, Any]:
        """Write a history as ``{"version": 1, "messages": [...]}``.

        A history with options is written ``{"version": 1, "options": {...}, "messages":
        [...]}``. Reads the history's slots, not its ``messages`` property, which would make
        the checked list of a history a reader made.
        """
        written: dict[str, Any] = {"version": FORMAT_VERSION}
        options = history._options
        if options is not None:
            written["options"] = self._write_options(options)
        write = self.write_any_message
        try:  # one pass, looping in C; on an error, the located loop below (no side effects)
            written["messages"] = list(map(write, history._messages))
        except SemanticChatError:
            messages: list[dict[str, Any]] = []
            for message in history._messages:
                try:
                    messages.append(write(message))
                except SemanticChatError as error:
                    raise error.at(f"messages[{len(messages)}]") from None
            written["messages"] = messages
        unknown = getattr(history, "_unknown_keys", None)  # unset unless read with such keys
        if unknown:
            _write_unknown_history_keys(unknown, written)
        return written

    def _write_options(self, options: ChatOptions) -> dict[str, Any]:
        """Write a history's options, checking the JSON values put into them after the fact.

        Raises:
            SerializationError: a value in ``tools``, ``tool_choice``, ``extra`` or
                ``metadata`` is not JSON; the message names it under ``options``.
        """
        if not isinstance(options, ChatOptions):
            raise SerializationError.mismatch(
                "options", "a ChatOptions or None", describe_type(options)
            )
        written: dict[str, Any] = self._options_fields(options)
        if type(options) is ChatOptionsWithUnknownKeys:  # options of a newer version, as read
            try:
                written.update(write_unknown_keys(options._unknown_keys, OPTION_KEYS, "options"))
            except SemanticChatError as error:
                raise error.at("options") from None
        return jsoncodec.json_value(written, "options")  # type: ignore[no-any-return]

    def read_history(self, data: Any) -> ChatHistory:
        """Read a history, refusing a newer format version."""
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
        options = self._read_options(data["options"]) if "options" in data else None
        messages = data.get("messages")
        if type(messages) is not list:
            if "messages" in data:
                raise SerializationError.mismatch("messages", "a list", describe_type(messages))
            messages = []
        if self.labels_version != CONTENT_TYPES.version:
            self._check_labels()
        read = self.read_any_message
        try:  # one pass, looping in C; on an error, the located loop below (no side effects)
            history = new_history(list(map(read, messages)), options)
        except Exception:
            read_messages: list[ChatMessageContent] = []
            for element in messages:
                try:
                    read_messages.append(read(element))
                except Exception as error:
                    raise locate_error(error).at(f"messages[{len(read_messages)}]") from None
            history = new_history(read_messages, options)
        if not _HISTORY_KEYS.issuperset(data):  # keys of newer data: kept, written back
            if self.strict:  # or refused at the first (``mesages``)
                split_newer_keys(data, _HISTORY_KEYS, True, "history key")
            history._unknown_keys = {
                key: value for key, value in data.items() if key not in _HISTORY_KEYS
            }
        return history

    def _read_options(self, data: Any) -> ChatOptions | None:
        """Read a history's options (``null`` is none).

        Keys this version does not know (options of a newer version) are kept in a
        `ChatOptionsWithUnknownKeys`, written back after the known ones; strict, the first is
        refused at its path (``options.future_knob``).

        Raises:
            SerializationError: not an object, an unknown key (strict), or a field of the wrong
                type; the message names it under ``options``.
        """
        if data is None:
            return None
        if type(data) is not dict:
            raise SerializationError.mismatch("options", "an object", describe_type(data))
        try:
            return self.read_options_alone(data)
        except SemanticChatError as error:
            raise error.at("options") from None

    def read_options_alone(self, data: Any, _: Any = None) -> ChatOptions:
        """Read options given on their own (``from_dict(data, ChatOptions)``), as in a history.

        Raises:
            SerializationError: not an object, an unknown key (strict), or a field of the wrong
                type; the message names it (``temperature``).
        """
        if type(data) is not dict:
            raise SerializationError.mismatch("", "an options object", describe_type(data))
        classes = (ChatOptions, ChatOptionsWithUnknownKeys)
        return read_keeping_newer(data, OPTION_KEYS, self.strict, "option", classes)

    # --- registration ------------------------------------------------------------------

    def install(self) -> None:
        """Register every hook on the converter."""
        c = self.converter
        for primitive, accepted in ACCEPTED_PRIMITIVES.items():
            c.register_structure_hook(primitive, primitive_reader(primitive, accepted))
            # One call for ``X | None`` instead of cattrs' optional wrapper around X's hook.
            c.register_structure_hook(
                primitive | None, primitive_reader(primitive, (*accepted, type(None)))
            )
        # Labels are str subclasses: register them by class so they win over the str hooks.
        # Labels are str subclasses: register them by class so they win over the str hook.
        c.register_structure_hook(Label, read_label_fast)
        c.register_unstructure_hook(Label, str.__str__)
        c.register_structure_hook(ChatMessageContentItemCollection, self.read_items_hook)
        c.register_unstructure_hook(ChatMessageContentItemCollection, self.write_items)
        c.register_structure_hook_func(
            is_content_class, lambda value, cls: checked(self.read_item(value), cls)
        )
        c.register_unstructure_hook_func(is_content_class, self.write_item)
        c.register_structure_hook_func(
            is_message_class, lambda value, cls: checked(self.read_message(value), cls)
        )
        c.register_unstructure_hook_func(is_message_class, self.write_message)
        c.register_structure_hook(ChatHistory, lambda value, _: self.read_history(value))
        c.register_unstructure_hook(ChatHistory, self.write_history)
        c.register_structure_hook(Usage, self._usage_reader())
        self._usage_fields = make_dict_unstructure_fn(Usage, c, _cattrs_omit_if_default=True)
        c.register_unstructure_hook(Usage, self._write_usage)  # its subclass's keys too
        c.register_unstructure_hook(bytes, write_bytes)
        stdlib_types.install(c)
        # Options and citations given on their own, as in a history: the keys of a newer
        # version (their ...WithUnknownKeys subclasses) written back as read, not as a field.
        self._options_fields = c.get_unstructure_hook(ChatOptions)
        c.register_unstructure_hook(ChatOptions, self._write_options)
        c.register_structure_hook(ChatOptions, self.read_options_alone)
        c.register_unstructure_hook(Citation, write_citation)
        strict = self.strict
        c.register_structure_hook(
            Citation, lambda data, _: read_citation(data, strict=strict)
        )
        c.register_structure_hook_factory(
            lambda annotation: scalar_union_members(annotation) is not None,
            lambda annotation: scalar_union_reader(scalar_union_members(annotation) or ()),
        )
