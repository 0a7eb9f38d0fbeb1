"""Plugins for the command line: installed entry points, and modules named with ``--plugin``.

A plugin is a module that registers what it brings when it is imported: content classes,
encoders and decoders for the wire formats (`semantic_chat.formats.register_encoder`), even
whole formats (`semantic_chat.formats.register`). Every command loads them before it reads
anything: first each entry point of the group ``semantic_chat.plugins`` that an installed
distribution declares, then each ``--plugin MODULE`` in the order given. An entry point names
a module (``video = acme_video``), or a function called with no arguments
(``video = acme_video:register``).
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Sequence
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from .files import CommandError

__all__ = ["GROUP", "load_plugins"]

GROUP = "semantic_chat.plugins"
"""The entry-point group in which installed distributions declare their plugins."""

_loaded: set[tuple[str, str]] = set()
"""The entry points already loaded in this process, by name and value."""


def load_plugins(modules: Sequence[str], *, debug: bool = False) -> None:
    """Load the installed plugins, then import each of ``modules``.

    Each entry point is loaded once per process; importing a module again does nothing.

    Raises:
        CommandError: a plugin cannot be imported, or fails while it loads (status 2); the
            message names it. With ``debug``, the plugin's own error is raised instead.
    """
    for entry in entry_points(group=GROUP):
        key = (entry.name, entry.value)
        if key not in _loaded:
            _loaded.add(key)
            _run(lambda entry=entry: _load_entry_point(entry), _entry_name(entry), debug)
    for module in modules:
        _run(lambda module=module: importlib.import_module(module), module, debug)


def _load_entry_point(entry: EntryPoint) -> None:
    loaded = entry.load()
    if inspect.isfunction(loaded) or inspect.isbuiltin(loaded) or inspect.ismethod(loaded):
        loaded()


def _entry_name(entry: EntryPoint) -> str:
    dist = getattr(entry, "dist", None)
    owner = f" of {dist.name} {dist.version}" if dist is not None else ""
    return f"{entry.name} = {entry.value} (entry point{owner})"


def _run(load: Any, name: str, debug: bool) -> None:
    try:
        load()
    except Exception as error:
        if debug:
            raise
        if isinstance(error, ImportError):
            what = f"cannot import it: {error}"
        else:
            what = f"failed while loading: {type(error).__name__}: {error}"
        raise CommandError(f"plugin {name}: {' '.join(what.split())}", 2) from None
