"""The index page ``semantic-chat show --html -o DIR`` writes for a JSONL file.

A JSONL file holds one conversation a line, so it becomes a directory: a page per
conversation (`semantic_chat.html.render`, named `page_name` after its line) and
``index.html``, a table of every conversation with its line number, format, message count and
first user text, each linking to its page. The index is self-contained like the pages: inline
CSS (light and dark by ``prefers-color-scheme``, or one forced), print rules, no script, no
external URL, and a content security policy that lets nothing else load. Everything taken
from the input is escaped.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from typing import NamedTuple

from ..errors import InvalidValueError
from ..history import ChatHistory
from ..html import THEMES
from ..labels import AuthorRole

__all__ = [
    "INDEX_NAME",
    "PREVIEW_CHARS",
    "IndexEntry",
    "entry_for",
    "is_page_name",
    "page_name",
    "render_index",
]

INDEX_NAME = "index.html"
"""The index page's file name in the output directory."""

PREVIEW_CHARS = 160
"""The first user text is cut to this many characters (whitespace runs count as one)."""

_POLICY = "default-src 'none'; style-src 'unsafe-inline'"
"""Nothing but the inline style may load, whatever the page holds (links still navigate)."""

_LIGHT = "--bg:#ffffff;--fg:#1f2328;--dim:#59636e;--line:#d1d9e0;--link:#0969da;--stripe:#f6f8fa"
_DARK = "--bg:#0d1117;--fg:#e6edf3;--dim:#9198a1;--line:#3d444d;--link:#4493f8;--stripe:#151b23"

_BASE_CSS = """
body{margin:0 auto;max-width:60rem;padding:1.5rem;background:var(--bg);color:var(--fg);
font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif}
h1{font-size:1.4rem;margin:0 0 .25rem}
p.summary{color:var(--dim);margin:0 0 1rem}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;vertical-align:top;padding:.4rem .6rem;border-bottom:1px solid var(--line)}
th{color:var(--dim);font-weight:600}
.number,.format{width:1%;white-space:nowrap}
.number{text-align:right;font-variant-numeric:tabular-nums}
tbody tr:nth-child(even){background:var(--stripe)}
a{color:var(--link)}
.none{color:var(--dim);font-style:italic}
@media print{body{max-width:none;padding:0;background:#fff;color:#000}
a{color:#000;text-decoration:none}tbody tr:nth-child(even){background:none}}
"""


class IndexEntry(NamedTuple):
    """One conversation of a JSONL file, as the index lists it."""

    line: int
    """Its line number in the file, counted from 1 (blank lines count)."""
    source: str
    """The format it was read as (``openai-chat`` ...)."""
    messages: int
    """How many messages it holds."""
    first_user_text: str | None
    """The text of its first user message that has any, cut to `PREVIEW_CHARS`."""
    no_reply: str | None = None
    """For a Batch results line of a request that got no reply, what it says (``request r0:
    expired``): listed without a page."""


def page_name(line: int) -> str:
    """The file name of the page of the conversation on JSONL line ``line``."""
    return f"conversation-{line}.html"


_PAGE_NAME = re.compile(r"conversation-[1-9][0-9]*\.html")


def is_page_name(name: str) -> bool:
    """Whether ``name`` is one `page_name` gives (``conversation-12.html``)."""
    return _PAGE_NAME.fullmatch(name) is not None


def entry_for(line: int, source: str, history: ChatHistory) -> IndexEntry:
    """Describe ``history``, read as ``source`` from JSONL line ``line``, for the index."""
    preview = None
    for message in history:
        if message.role == AuthorRole.USER and message.text.strip():
            preview = _cut(" ".join(message.text.split()))
            break
    return IndexEntry(line, source, len(history), preview)


def _cut(text: str) -> str:
    if len(text) <= PREVIEW_CHARS:
        return text
    return text[: PREVIEW_CHARS - 1].rstrip() + "…"


def render_index(entries: Iterable[IndexEntry], *, title: str, theme: str = "auto") -> str:
    """A whole HTML page listing ``entries``, each linking to its `page_name` page.

    Args:
        entries: the conversations, in file order.
        title: the page's title and heading (escaped here).
        theme: ``"auto"`` follows the reader's light or dark preference, ``"light"`` and
            ``"dark"`` force one.

    Raises:
        InvalidValueError: ``theme`` is none of the three.
    """
    rows = [_row(entry) for entry in entries]
    count = len(rows)
    summary = f"{count:,} conversation{'' if count == 1 else 's'}"
    safe_title = html.escape(title, quote=True)
    return "".join(
        [
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n',
            f'<meta http-equiv="Content-Security-Policy" content="{_POLICY}">\n',
            f'<meta name="color-scheme" content="{_scheme(theme)}">\n',
            f"<title>{safe_title}</title>\n<style>{_css(theme)}</style>\n</head>\n<body>\n",
            f'<h1>{safe_title}</h1>\n<p class="summary">{summary}</p>\n',
            "<table>\n<thead><tr><th class=\"number\">Line</th><th class=\"format\">Format</th>"
            "<th class=\"number\">Messages</th>"
            "<th>First user text</th></tr></thead>\n<tbody>\n",
            *rows,
            "</tbody>\n</table>\n</body>\n</html>\n",
        ]
    )


def _row(entry: IndexEntry) -> str:
    if entry.no_reply is not None:
        return (
            f'<tr><td class="number">line {entry.line:,}</td>'
            f'<td class="format">{html.escape(entry.source, quote=True)}</td>'
            f'<td class="number">0</td><td><span class="none">no reply: '
            f"{html.escape(entry.no_reply, quote=True)}</span></td></tr>\n"
        )
    href = html.escape(page_name(entry.line), quote=True)
    if entry.first_user_text is None:
        preview = '<span class="none">(no user text)</span>'
    else:
        preview = html.escape(entry.first_user_text, quote=True)
    return (
        f'<tr><td class="number"><a href="{href}">line {entry.line:,}</a></td>'
        f'<td class="format">{html.escape(entry.source, quote=True)}</td>'
        f'<td class="number">{entry.messages:,}</td>'
        f'<td><a href="{href}">{preview}</a></td></tr>\n'
    )


def _scheme(theme: str) -> str:
    return {"auto": "light dark", "light": "light", "dark": "dark"}[_checked(theme)]


def _css(theme: str) -> str:
    if _checked(theme) == "auto":
        colours = f":root{{{_LIGHT}}}\n@media (prefers-color-scheme: dark){{:root{{{_DARK}}}}}"
    else:
        colours = f":root{{{_LIGHT if theme == 'light' else _DARK}}}"
    return colours + _BASE_CSS


def _checked(theme: str) -> str:
    if theme not in THEMES:
        raise InvalidValueError.mismatch("theme", "'auto', 'light' or 'dark'", repr(theme))
    return theme
