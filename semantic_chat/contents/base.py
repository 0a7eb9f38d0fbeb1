"""`KernelContent`, the base of every item in a message, and the registry of content classes.

Every concrete content class declares ``content_type: ClassVar[ContentType]`` in its own body
and is registered under that label when attrs finishes building it. Registration uses attrs'
``__attrs_init_subclass__`` rather than ``__init_subclass__``: with ``slots=True`` attrs builds
a second class, and a plain ``__init_subclass__`` would see the unfinished one as well. Two
consequences for subclass authors:

- decorate every subclass with ``@attrs.define`` (or ``attrs.frozen``); a plain subclass is
  not registered, and writing it to JSON raises;
- a subclass that defines its own ``__attrs_init_subclass__`` must call
  ``super().__attrs_init_subclass__()`` or it will not be registered;
- a subclass that defines its own ``__attrs_post_init__`` must call
  ``super().__attrs_post_init__()``, which checks the inherited fields.

Fields are checked when an item is built and when a field is assigned: the public name of each
built-in field is a property over a private slot (``text`` over ``_text``) whose setter checks
the value, and ``__attrs_post_init__`` checks what the constructor stored. Frozen subclasses
(``@attrs.frozen``) work: the checks store through ``object.__setattr__``.
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

from ..errors import RegistrationError
from ..labels import ContentType
from ..registry import TypeRegistry, is_builtin
from ..validation import check_metadata
from .metadata import fields_repr, metadata_key, written_by_attrs

__all__ = ["CONTENT_TYPES", "KernelContent", "item_keys"]


@attrs.define(slots=True, weakref_slot=False, repr=False)
class KernelContent:
    """Base of every item a message holds: text, media, tool calls and results, reasoning.

    ``metadata`` carries provider details that no field models (JSON values only, so it can be
    written); ``inner_content`` keeps the raw provider object an item was read from. It is
    never serialized and takes no part in equality or ``repr``.
    """

    content_type: ClassVar[ContentType]

    # Most items never get metadata: the dict is made on first use, and none equals empty.
    _metadata: dict[str, Any] | None = attrs.field(
        default=None, alias="metadata", kw_only=True, eq=metadata_key
    )

    inner_content: Any = attrs.field(default=None, kw_only=True, eq=False, repr=False)
    """The raw provider object this item was read from; never serialized or compared."""

    def __attrs_post_init__(self) -> None:
        """Check the metadata given to the constructor (subclasses check their own fields)."""
        if self._metadata is not None:
            _store(self, "_metadata", check_metadata(self._metadata))

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

    def __repr__(self) -> str:
        """Show the fields by their constructor names, and the metadata when there is any."""
        return fields_repr(self, attrs.fields(type(self)))

    @classmethod
    def __attrs_init_subclass__(cls) -> None:
        label = cls.__dict__.get("content_type")
        if label is None:
            inherited = getattr(cls, "content_type", None)
            raise RegistrationError(
                f"{cls.__qualname__} must declare its own content_type "
                f"(it would inherit {inherited!r} and be read back as its base class)",
                path=cls.__qualname__,
            )
        label = ContentType(label)
        _refuse_tag_fields(cls)
        cls.content_type = label
        # Positional patterns follow the constructor's parameter names, so a private field
        # behind a public property (BinaryContent's ``_data``) matches as ``data``.
        match_args = tuple(a.alias for a in attrs.fields(cls) if a.init and not a.kw_only)
        setattr(cls, "__match_args__", match_args)  # noqa: B010 - mypy forbids the plain form
        if written_by_attrs(cls, "__repr__"):
            setattr(cls, "__repr__", KernelContent.__repr__)  # noqa: B010
        CONTENT_TYPES.register(label, cls)


def _refuse_tag_fields(cls: type) -> None:
    """Refuse a plugin field written as ``type``: it would overwrite the item's label in JSON."""
    if is_builtin(cls):  # UnknownContent keeps its label
        return
    for field in attrs.fields(cls):
        if "type" in (field.name, field.alias):
            raise RegistrationError(
                "a field named 'type' would be written over "
                "the item's type label and read back as another item: give it another name "
                "(or another alias)",
                path=f"{cls.__qualname__}.{field.name}",
            )


def item_keys(cls: type[KernelContent]) -> frozenset[str]:
    """The JSON keys an item of ``cls`` is written with: its label, metadata and fields.

    A key outside them comes from newer data (or another plugin version): the item is then
    kept whole as `UnknownContent` rather than read with the key dropped.
    """
    keys = _ITEM_KEYS.get(cls)
    if keys is None:
        from .function_result import FunctionResultContent  # noqa: PLC0415 - it imports this module

        names = [f.alias or f.name for f in attrs.fields(cls) if f.name != "inner_content"]
        if issubclass(cls, FunctionResultContent):
            names.append("result_items")
        keys = _ITEM_KEYS[cls] = frozenset(("type", "metadata", *names))
    return keys


_ITEM_KEYS: dict[type, frozenset[str]] = {}


_store = object.__setattr__
"""Store a field checked in ``__attrs_post_init__``, bypassing a frozen class's guard."""


CONTENT_TYPES: TypeRegistry[ContentType, KernelContent] = TypeRegistry("content type")
"""Every registered content class, keyed by its `ContentType` label."""
