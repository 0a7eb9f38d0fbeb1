"""A table from labels to the classes registered under them.

Used for content classes (keyed by `ContentType`) and message classes (keyed by their message
type), so that a reader can find the class for a label written in data at the time it reads,
including classes defined after import by a plugin.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Generic, TypeVar, cast

from .errors import RegistrationError

__all__ = ["TypeRegistry"]

_T = TypeVar("_T")
_K = TypeVar("_K", bound=str)


class TypeRegistry(Mapping[_K, type[_T]], Generic[_K, _T]):
    """Maps each label to one class; a second class claiming a taken label is refused.

    The same class defined again (same module and qualified name, as when a notebook cell runs
    twice) replaces its earlier definition instead of clashing with it.
    """

    __slots__ = ("_classes", "_what", "version")

    def __init__(self, what: str) -> None:
        self._what = what
        self._classes: dict[str, type[_T]] = {}
        self.version = 0
        """Counts registrations and removals, so caches keyed by label know when to start over."""

    def register(self, label: _K, cls: type[_T]) -> None:
        """Register ``cls`` under ``label``.

        Raises:
            RegistrationError: another class (not a redefinition of ``cls``) holds ``label``.
        """
        current = self._classes.get(str.__str__(label))
        if current is not None and current is not cls and not _same_definition(current, cls):
            raise RegistrationError(
                f"{self._what} {str(label)!r} is already registered to "
                f"{current.__module__}.{current.__qualname__}; "
                f"{cls.__module__}.{cls.__qualname__} must declare a label of its own",
                path=cls.__qualname__,
            )
        # Keys are plain strings: a label key would make every lookup with a str read from
        # JSON call the label's Python-level __eq__.
        self._classes[str.__str__(label)] = cls
        self.version += 1

    def unregister(self, label: str, *, missing_ok: bool = False) -> None:
        """Forget a plugin's class registered under ``label`` (for tests and notebooks).

        ``missing_ok`` lets a clean-up step forget a label that may not have been registered.

        Raises:
            RegistrationError: no class is registered under ``label`` (a typo would otherwise
                pass unseen) and not ``missing_ok``, or it is one of this library's own
                classes, without which its documents no longer read back.
        """
        key = str.__str__(label)
        current = self._classes.get(key)
        if current is None:
            if missing_ok:
                return
            known = ", ".join(sorted(self._classes))
            raise RegistrationError(
                f"no class is registered under {self._what} {key!r} (registered: {known})",
                path=key,
            )
        if is_builtin(current):
            raise RegistrationError(
                f"{self._what} {key!r} belongs to the built-in "
                f"{current.__module__}.{current.__qualname__}, which cannot be unregistered",
                path=key,
            )
        del self._classes[key]
        self.version += 1

    def __getitem__(self, label: str) -> type[_T]:
        return self._classes[cast(_K, label)]  # a label is a str: any str looks one up

    def get_class(self, label: str) -> type[_T] | None:
        """Return the class registered under ``label`` (any case), or ``None``."""
        cls = self._classes.get(label)
        if cls is None and not label.islower():
            cls = self._classes.get(label.lower())
        return cls

    def __iter__(self) -> Iterator[_K]:
        return iter(self._classes)  # type: ignore[arg-type]

    def __len__(self) -> int:
        return len(self._classes)

    def __repr__(self) -> str:
        names = ", ".join(f"{label}={cls.__qualname__}" for label, cls in self._classes.items())
        return f"TypeRegistry({self._what}: {names})"


_PACKAGE = __name__.partition(".")[0]
"""This package's name as imported: ``semantic_chat``, or another for a copy of it (the
benchmarks import an earlier revision as ``semantic_chat_base`` beside this one)."""


def is_builtin(cls: type) -> bool:
    """Whether ``cls`` is one of this library's own classes (not a plugin's)."""
    return cls.__module__.partition(".")[0] == _PACKAGE


def _same_definition(old: type, new: type) -> bool:
    return old.__module__ == new.__module__ and old.__qualname__ == new.__qualname__
