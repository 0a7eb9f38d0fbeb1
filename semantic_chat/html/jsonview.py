"""JSON shown as coloured HTML: each token in a ``<span>`` whose class says its kind.

A JSON text is parsed with `json` (numbers kept as written, objects as ordered member lists,
so duplicates and ``2.50`` show as the text has them) and written back indented, every token
escaped. Classes: ``j-key``, ``j-str``, ``j-num``, ``j-lit`` (``true``, ``false``, ``null``)
and ``j-other`` (a non-JSON value put into a dict after it was checked, shown by its repr).
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping
from typing import Any

__all__ = ["json_block", "parse_json"]

_escape = html.escape


class _Number(str):
    """A number token as written in the JSON text, so that it is shown exactly so."""

    __slots__ = ()


class _Object(list[tuple[str, Any]]):
    """An object's members in order, duplicates kept, as the JSON text holds them."""

    __slots__ = ()


def _refuse_constant(token: str) -> Any:
    raise ValueError(f"{token} is not JSON")


def parse_json(text: str) -> Any:
    """The JSON value ``text`` holds (numbers as written, objects as member lists) or None."""
    try:
        return json.loads(
            text, parse_float=_Number, parse_int=_Number, parse_constant=_refuse_constant,
            object_pairs_hook=_Object,
        )
    except (ValueError, RecursionError):
        return None


def json_block(value: Any, *, parsed: bool = False) -> str:
    """A ``<pre class="json">`` of a JSON value (or a JSON text), coloured by token kind.

    Text that is not JSON (arguments a model wrote badly) is shown as it is, marked raw.
    """
    if value is None and not parsed:
        return '<pre class="json"><span class="note">(no arguments)</span></pre>'
    if isinstance(value, str) and not parsed:
        tree = parse_json(value)
        if tree is None and value.strip() != "null":
            return f'<pre class="raw">{_escape(value)}</pre>'
        value = tree
    out: list[str] = []
    _json_tokens(value, "", out)
    return f'<pre class="json">{"".join(out)}</pre>'


def _json_tokens(value: Any, indent: str, out: list[str]) -> None:
    if isinstance(value, _Number):
        out.append(f'<span class="j-num">{_escape(value)}</span>')
    elif isinstance(value, str):
        out.append(f'<span class="j-str">{_escape(json.dumps(value, ensure_ascii=False))}</span>')
    elif value is None or isinstance(value, bool):
        out.append(f'<span class="j-lit">{json.dumps(value)}</span>')
    elif isinstance(value, (int, float)):
        out.append(f'<span class="j-num">{_escape(json.dumps(value))}</span>')
    elif isinstance(value, (_Object, Mapping)):
        members = list(value) if isinstance(value, _Object) else list(value.items())
        if not members:
            out.append("{}")
            return
        inner = indent + "  "
        out.append("{")
        for index, (key, member) in enumerate(members):
            out.append(
                f'{"," if index else ""}\n{inner}<span class="j-key">'
                f"{_escape(json.dumps(str(key), ensure_ascii=False))}</span>: "
            )
            _json_tokens(member, inner, out)
        out.append(f"\n{indent}}}")
    elif isinstance(value, (list, tuple)):
        if not value:
            out.append("[]")
            return
        inner = indent + "  "
        out.append("[")
        for index, element in enumerate(value):
            out.append(f'{"," if index else ""}\n{inner}')
            _json_tokens(element, inner, out)
        out.append(f"\n{indent}]")
    else:  # not JSON: something put in a dict after it was checked
        out.append(f'<span class="j-other">{_escape(repr(value))}</span>')
