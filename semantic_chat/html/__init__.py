"""HTML for a conversation: a self-contained page, a message's fragment, notebook output.

`render` writes a whole page (inline CSS, no JavaScript, nothing fetched from elsewhere: an
image or audio item at a web address is a link to it); `render_message` one message's
``<section class="message">``. `ChatHistory._repr_html_` and `ChatMessageContent._repr_html_`
use them, so Jupyter shows conversations with their images and audio players.

The package: this module puts a page together, `items` writes each kind of item (and keeps
plugins' renderers), `jsonview` colours JSON, `style` holds the CSS.

Everything taken from content is escaped (``html.escape(quote=True)``): text is shown as
text, never as HTML or Markdown. URIs are used only where they cannot run code or reach
anything but the payload: an image or audio item's bytes as a ``data:`` URL of an image or
audio type; a file's bytes as a ``data:`` download link; links (never loaded) to ``http:``
and ``https:`` addresses. Any other URI (``javascript:``, ``file:``, a ``data:`` URL of
another type) is shown as text.

A plugin supplies the HTML of its own content type with `register_html`; without it, its
items show as their transcript line (see `semantic_chat.transcript.describe_item`).
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping
from typing import Any

from ..contents import Citation, FunctionCallContent, FunctionResultContent
from ..errors import InvalidTypeError, InvalidValueError, describe_type
from ..history import ChatHistory
from ..message import ChatMessageContent
from ..transcript import summarize
from .items import Context, register_html, render_footnotes, render_item, unregister_html
from .style import POLICY, page_css, scoped_css

__all__ = [
    "THEMES", "notebook_html", "register_html", "render", "render_message", "unregister_html"
]

THEMES = ("auto", "light", "dark")
"""The values of `render`'s ``theme``: follow the reader's system, or force one."""

_escape = html.escape


# --- public functions -----------------------------------------------------------------------


def render(
    history_or_messages: ChatHistory | Iterable[ChatMessageContent],
    *,
    title: str | None = None,
    theme: str = "auto",
) -> str:
    """Write a conversation as one self-contained HTML page.

    Each message is a ``<section class="message" data-role="...">``. A tool call is shown
    beside its result: a result answers the nearest earlier call of its id still without one
    (servers reuse ``call_0`` every turn); the tool message that holds the result shows it
    again, folded. A result with no such call is shown only where it is. The page has its
    CSS inline and no JavaScript.

    Args:
        history_or_messages: a `ChatHistory`, or any iterable of messages.
        title: the page's title and heading; by default ``Conversation (N messages)``.
        theme: ``"auto"`` follows the reader's light or dark setting
            (``prefers-color-scheme``); ``"light"`` and ``"dark"`` force one. Printing always
            uses the light colours.

    Raises:
        InvalidTypeError: something other than a message among the messages (naming its
            index), or a ``title`` that is not a ``str``.
        InvalidValueError: an unknown ``theme``.
    """
    if theme not in THEMES:
        raise InvalidValueError(
            f"unknown theme {theme!r}: expected one of {', '.join(map(repr, THEMES))}",
            path="theme", expected=" or ".join(THEMES), got=repr(theme),
        )
    if title is not None and not isinstance(title, str):
        raise InvalidTypeError.mismatch("title", "a str or None", describe_type(title))
    messages = _messages(history_or_messages)
    if title is None:
        title = f"Conversation ({len(messages):,} message{'' if len(messages) == 1 else 's'})"
    body = _conversation(messages)
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{POLICY}">\n'
        f"<title>{_escape(title)}</title>\n<style>\n{page_css(theme)}</style>\n</head>\n"
        f'<body class="semantic-chat">\n<main>\n<h1>{_escape(title)}</h1>\n'
        f'<p class="summary">{_escape(summarize(messages))}.</p>\n'
        f"{body}</main>\n</body>\n</html>\n"
    )


def render_message(message: ChatMessageContent) -> str:
    """Write one message as an HTML fragment: its ``<section class="message">``, without CSS.

    Its tool calls are shown without results (they live in other messages); `render` pairs
    them.

    Raises:
        InvalidTypeError: ``message`` is not a `ChatMessageContent`.
    """
    if not isinstance(message, ChatMessageContent):
        raise InvalidTypeError.mismatch("message", "a ChatMessageContent", describe_type(message))
    return _message(message, Context({}, whole=False))



def notebook_html(value: ChatHistory | ChatMessageContent | Iterable[ChatMessageContent]) -> str:
    """The HTML Jupyter shows for a history, messages or one message, with CSS scoped to it.

    ``<div class="semantic-chat">`` holding a ``<style>`` whose rules all sit under that
    class (so they leave the notebook alone) and the messages' sections.

    Raises:
        InvalidTypeError: as `render`.
    """
    body = (
        render_message(value) if isinstance(value, ChatMessageContent)
        else _conversation(_messages(value))
    )
    return f'<div class="semantic-chat">\n<style>\n{scoped_css()}</style>\n{body}</div>\n'


# --- messages -------------------------------------------------------------------------------

def _messages(value: Any) -> list[ChatMessageContent]:
    if isinstance(value, ChatHistory):
        return list(value.messages)
    if isinstance(value, (ChatMessageContent, str, bytes, Mapping)):
        raise InvalidTypeError(
            f"expected a ChatHistory or an iterable of messages, got {describe_type(value)}"
            + (": use render_message for one message" if isinstance(value, ChatMessageContent)
               else ""),
            path="messages", expected="a ChatHistory or messages", got=describe_type(value),
        )
    try:
        messages = list(value)
    except TypeError:
        raise InvalidTypeError.mismatch(
            "messages", "a ChatHistory or an iterable of messages", describe_type(value)
        ) from None
    for index, message in enumerate(messages):
        if not isinstance(message, ChatMessageContent):
            raise InvalidTypeError.mismatch(
                f"messages[{index}]", "a ChatMessageContent", describe_type(message)
            )
    return messages


def _conversation(messages: list[ChatMessageContent]) -> str:
    context = Context(_pair(messages), whole=True)
    return "".join([_message(message, context) for message in messages])


def _pair(messages: list[ChatMessageContent]) -> dict[int, FunctionResultContent]:
    """Each answered call's result, keyed by the call's ``id()``.

    A result answers the nearest earlier call of its id that has no result yet, so a call id
    that servers reuse every turn (``call_0``) pairs each call with its own result; a result
    with no such call is left out (it is shown where it is).
    """
    waiting: dict[str, list[FunctionCallContent]] = {}  # unanswered calls of an id, in order
    results: dict[int, FunctionResultContent] = {}
    for message in messages:
        for item in message.items:
            if isinstance(item, FunctionCallContent) and item.id is not None:
                waiting.setdefault(item.id, []).append(item)
            elif isinstance(item, FunctionResultContent) and item.call_id is not None:
                calls = waiting.get(item.call_id)
                if calls:
                    results[id(calls.pop())] = item
    return results


def _message(message: ChatMessageContent, context: Context) -> str:
    role = str(message.role)
    header = f'<span class="role">{_escape(role)}</span>'
    if message.name:
        header += f' <span class="name">{_escape(message.name)}</span>'
    if message.model_id:
        header += f' <span class="model">{_escape(message.model_id)}</span>'
    footnotes: list[Citation] = []
    parts = [render_item(item, context, footnotes) for item in message.items]
    if footnotes:
        parts.append(render_footnotes(footnotes))
    footer = _footer(message)
    return (
        f'<section class="message" data-role="{_escape(role.lower())}">\n'
        f"<header>{header}</header>\n{''.join(parts)}{footer}</section>\n"
    )


def _footer(message: ChatMessageContent) -> str:
    shown = []
    if message.finish_reason is not None:
        shown.append(f"finish: {_escape(str(message.finish_reason))}")
    usage = message.usage
    if usage is not None:
        details = [f"{usage.prompt_tokens:,} prompt", f"{usage.completion_tokens:,} completion"]
        for count, what in ((usage.cached_tokens, "cached"),
                            (usage.cache_creation_tokens, "written to cache"),
                            (usage.reasoning_tokens, "reasoning")):
            if count is not None:
                details.append(f"{count:,} {what}")
        shown.append(f"tokens: {usage.total_tokens:,} ({', '.join(details)})")
    return f"<footer>{' · '.join(shown)}</footer>\n" if shown else ""
