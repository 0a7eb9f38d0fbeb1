"""HTML for a conversation: a self-contained page, a message's fragment, notebook output.

`render` writes a whole page (inline CSS, no JavaScript, nothing fetched from elsewhere but
images and audio given by an ``https:`` URI); `render_message` one message's
``<section class="message">``. `ChatHistory._repr_html_` and `ChatMessageContent._repr_html_`
use them, so Jupyter shows conversations with their images and audio players.

Everything taken from content is escaped (``html.escape(quote=True)``): text is shown as
text, never as HTML or Markdown. URIs are used only where they cannot run code or reach
anything but the payload: an image or audio item's bytes as a ``data:`` URL of an image or
audio type, or an ``https:`` URI; a file's bytes as a ``data:`` download link; links to
``http:`` and ``https:`` pages. Any other URI (``javascript:``, ``file:``, a ``data:`` URL of
another type) is shown as text.

A plugin supplies the HTML of its own content type with `register_html`; without it, its
items show as their transcript line (see `semantic_chat.transcript.describe_item`).
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from .contents import (
    AudioContent,
    BinaryContent,
    Citation,
    FileContent,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    KernelContent,
    ReasoningContent,
    RefusalContent,
    TextContent,
    UnknownContent,
)
from .errors import InvalidTypeError, InvalidValueError, describe_type
from .history import ChatHistory
from .message import ChatMessageContent
from .transcript import describe_item, summarize

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
    beside its result (found by call id anywhere in the conversation); the tool message that
    holds the result shows it again, folded. The page has its CSS inline and no JavaScript.

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
        f'<meta http-equiv="Content-Security-Policy" content="{_POLICY}">\n'
        f"<title>{_escape(title)}</title>\n<style>\n{_page_css(theme)}</style>\n</head>\n"
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
    return _message(message, _Context({}, whole=False))


ItemRenderer = Callable[[Any], str]


def register_html(cls: type[KernelContent], renderer: ItemRenderer) -> None:
    """Show the items of ``cls`` (and its subclasses) as ``renderer(item)`` returns.

    The renderer's output is put in the page as it is, inside a
    ``<div class="item plugin" data-type="label">``: it is trusted, so it must escape
    everything it takes from the item (``html.escape(text, quote=True)``) and must not write
    scripts, event-handler attributes or URLs that fetch anything. Registering a class again
    replaces its renderer; a renderer for a built-in class replaces the built-in one.

    Raises:
        InvalidTypeError: ``cls`` is not a content class, or ``renderer`` is not callable.
    """
    if not (isinstance(cls, type) and issubclass(cls, KernelContent)):
        raise InvalidTypeError.mismatch("cls", "a KernelContent subclass", describe_type(cls))
    if not callable(renderer):
        raise InvalidTypeError.mismatch("renderer", "a callable", describe_type(renderer))
    _PLUGINS[cls] = renderer
    _DISPATCH.clear()


def unregister_html(cls: type[KernelContent]) -> None:
    """Forget the renderer registered for ``cls``, if any (for tests and notebooks)."""
    if _PLUGINS.pop(cls, None) is not None:
        _DISPATCH.clear()


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
    return f'<div class="semantic-chat">\n<style>\n{_scoped_css()}</style>\n{body}</div>\n'


# --- messages -------------------------------------------------------------------------------


class _Context:
    """What rendering one message needs to know of the others: the results of tool calls."""

    __slots__ = ("results", "shown", "whole")

    def __init__(self, results: dict[str, FunctionResultContent], *, whole: bool) -> None:
        self.results = results
        self.shown: set[str] = set()  # ids of the calls whose results were shown beside them
        self.whole = whole


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
    results = {
        item.call_id: item
        for message in messages
        for item in message.items
        if isinstance(item, FunctionResultContent) and item.call_id is not None
    }
    context = _Context(results, whole=True)
    return "".join([_message(message, context) for message in messages])


def _message(message: ChatMessageContent, context: _Context) -> str:
    role = str(message.role)
    header = f'<span class="role">{_escape(role)}</span>'
    if message.name:
        header += f' <span class="name">{_escape(message.name)}</span>'
    if message.model_id:
        header += f' <span class="model">{_escape(message.model_id)}</span>'
    footnotes: list[Citation] = []
    parts = [_item(item, context, footnotes) for item in message.items]
    if footnotes:
        parts.append(_footnotes(footnotes))
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


# --- items ----------------------------------------------------------------------------------


_Renderer = Callable[[Any, _Context, list[Citation]], str]
_PLUGINS: dict[type, ItemRenderer] = {}
_DISPATCH: dict[type, _Renderer] = {}


def _item(item: KernelContent, context: _Context, footnotes: list[Citation]) -> str:
    cls = type(item)
    renderer = _DISPATCH.get(cls)
    if renderer is None:
        renderer = _DISPATCH[cls] = _renderer_for(cls)
    return renderer(item, context, footnotes)


def _renderer_for(cls: type) -> _Renderer:
    """The renderer of a class: a plugin's along its bases, then a built-in one, else its line.

    A built-in renderer applies to the library's own classes and their subclasses inside the
    library (the streaming items); a plugin's subclass of a built-in class, or a class with
    ``__transcript__``, shows as its transcript line unless it registers HTML of its own.
    """
    for base in cls.__mro__:
        plugin = _PLUGINS.get(base)
        if plugin is not None:
            return _plugin(plugin)
    if "__transcript__" not in dir(cls) and cls.__module__.startswith("semantic_chat."):
        for base in cls.__mro__:
            builtin = _BUILTIN.get(base)
            if builtin is not None:
                return builtin
    return _described


def _plugin(renderer: ItemRenderer) -> _Renderer:
    def render_plugin(item: KernelContent, context: _Context, footnotes: list[Citation]) -> str:
        output = renderer(item)
        if not isinstance(output, str):
            raise InvalidTypeError(
                f"the HTML renderer of {type(item).__qualname__} returned "
                f"{describe_type(output)}, expected a str",
                path=type(item).__qualname__, expected="a str", got=describe_type(output),
            )
        return (
            f'<div class="item plugin" data-type="{_escape(str(item.content_type))}">'
            f"{output}</div>\n"
        )

    return render_plugin


def _described(item: KernelContent, context: _Context, footnotes: list[Citation]) -> str:
    unknown = isinstance(item, UnknownContent)
    label = item.type if isinstance(item, UnknownContent) else str(item.content_type)
    return (
        f'<div class="item {"unknown" if unknown else "other"}" data-type="{_escape(label)}">'
        f"{_escape(describe_item(item))}</div>\n"
    )


def _text(item: TextContent, context: _Context, footnotes: list[Citation]) -> str:
    text = item.text
    if not item.citations:
        return f'<div class="item text">{_escape(text)}</div>\n'
    marks: list[tuple[int, int]] = []  # (position in the text, footnote number)
    for citation in item.citations:
        footnotes.append(citation)
        end = len(text) if citation.text_end is None else min(max(citation.text_end, 0), len(text))
        marks.append((end, len(footnotes)))
    marks.sort()
    out, start = [], 0
    for position, number in marks:
        out.append(_escape(text[start:position]))
        out.append(f'<sup class="cite">[{number}]</sup>')
        start = position
    out.append(_escape(text[start:]))
    return f'<div class="item text">{"".join(out)}</div>\n'


def _footnotes(citations: list[Citation]) -> str:
    rows = []
    for citation in citations:
        source = citation.title or citation.filename or citation.file_id or citation.url
        label = _escape(source) if source else "a source"
        if citation.url and _is_web_link(citation.url):
            label = f'<a href="{_escape(citation.url)}" rel="noopener noreferrer">{label}</a>'
        elif citation.url and source != citation.url:
            label += f" &lt;{_escape(citation.url)}&gt;"
        if citation.cited_text:
            label += f': <q>{_escape(citation.cited_text)}</q>'
        where = []
        if citation.source_start is not None:
            end = "" if citation.source_end is None else f"-{citation.source_end}"
            unit = {"char": "characters", "page": "pages", "block": "blocks"}.get(
                citation.source_unit or "", citation.source_unit or "positions"
            )
            where.append(f"{_escape(unit)} {citation.source_start}{end}")
        if citation.source_index is not None:
            where.append(f"{'of ' if where else ''}source {citation.source_index}")
        if where:
            label += f' <span class="where">({" ".join(where)})</span>'
        rows.append(f"<li>{label}</li>")
    return f'<ol class="citations">{"".join(rows)}</ol>\n'


def _refusal(item: RefusalContent, context: _Context, footnotes: list[Citation]) -> str:
    return (
        '<div class="item refusal"><span class="tag">refused</span> '
        f"{_escape(item.text)}</div>\n"
    )


def _reasoning(item: ReasoningContent, context: _Context, footnotes: list[Citation]) -> str:
    notes = [
        note
        for present, note in ((item.signature, "signed"), (item.encrypted, "encrypted"),
                              (item.provider, item.provider or ""))
        if present
    ]
    summary = "reasoning" + (f" ({_escape(', '.join(notes))})" if notes else "")
    body = _escape(item.text) if item.text else '<span class="note">no readable text</span>'
    return (
        f'<details class="item reasoning"><summary>{summary}</summary>'
        f'<div class="text">{body}</div></details>\n'
    )


def _caption(item: KernelContent) -> str:
    """An item's transcript line without its ``[kind]`` tag: ``image/png, 64x48 px, ...``."""
    try:
        line = describe_item(item)
    except ValueError as error:  # bytes that do not decode as their kind says (a bad PNG)
        if not isinstance(item, BinaryContent):
            raise
        size = f"{len(item.data):,} bytes, " if item.data is not None else ""
        line = f"{item.mime_type or 'unknown type'}, {size}unreadable: {error}"
    tag = f"[{item.content_type}] "
    return _escape(line[len(tag):] if line.startswith(tag) else line)


def _image(item: ImageContent, context: _Context, footnotes: list[Citation]) -> str:
    source = _media_source(item, "image/")
    caption = _caption(item)
    if source is None:
        return _unshown(item, caption)
    return (
        f'<figure class="item image"><img src="{source}" alt="{caption}">'
        f"<figcaption>{caption}</figcaption></figure>\n"
    )


def _audio(item: AudioContent, context: _Context, footnotes: list[Citation]) -> str:
    source = _media_source(item, "audio/")
    caption = _caption(item)
    if source is None:
        return _unshown(item, caption)
    preload = "" if source.startswith("data:") else ' preload="none"'
    return (
        f'<figure class="item audio"><audio controls{preload} src="{source}"></audio>'
        f"<figcaption>{caption}</figcaption></figure>\n"
    )


def _file(item: BinaryContent, context: _Context, footnotes: list[Citation]) -> str:
    caption = _caption(item)
    filename = item.filename if isinstance(item, FileContent) else None
    name = _escape(filename or "")
    kind = _escape(str(item.content_type))
    if item.uri is None and item.file_id is None:
        link = (f'<a download="{name}" href="{_escape(item.data_uri or "")}">'
                f"{name or 'download'}</a>")
    elif item.uri is not None and _is_web_link(item.uri):
        link = (f'<a href="{_escape(item.uri)}" rel="noopener noreferrer">'
                f"{name or _escape(item.uri)}</a>")
    else:
        return _unshown(item, caption)
    return (
        f'<div class="item {kind}"><span class="tag">{kind}</span> {link} '
        f'<span class="note">{caption}</span></div>\n'
    )


def _unshown(item: BinaryContent, caption: str) -> str:
    """A binary item that cannot be shown safely (or has no bytes here): its line as text."""
    kind = _escape(str(item.content_type))
    return (
        f'<div class="item {kind} unshown"><span class="tag">{kind}</span> '
        f'<span class="note">{caption}</span></div>\n'
    )


def _media_source(item: BinaryContent, prefix: str) -> str | None:
    """The escaped ``src`` of an image or audio item, or None where it is not safe to use."""
    if item.uri is not None:
        return _escape(item.uri) if _is_web_link(item.uri, schemes=("https://",)) else None
    if item.file_id is not None:
        return None
    mime_type = (item.mime_type or "").split(";", 1)[0].strip().lower()
    if not mime_type.startswith(prefix):
        return None
    return _escape(item.data_uri or "")


_UNSAFE_IN_URL = re.compile(r"[\x00-\x20\x7f\"'<>\\`]")


def _is_web_link(uri: str, schemes: tuple[str, ...] = ("https://", "http://")) -> bool:
    """Whether ``uri`` is a plain web address: a scheme of ``schemes``, nothing a browser trims.

    A web address that holds ``javascript:`` anywhere (``https://javascript:x``, harmless as
    it is) is refused too, so that no attribute of a page ever contains the word.
    """
    return (
        uri[:8].lower().startswith(schemes)
        and _UNSAFE_IN_URL.search(uri) is None
        and "javascript:" not in uri.lower()
    )


def _call(item: FunctionCallContent, context: _Context, footnotes: list[Citation]) -> str:
    call_id = f' <span class="id">{_escape(item.id)}</span>' if item.id else ""
    call = (
        f'<details open class="call"><summary><span class="tag">tool call</span> '
        f'<span class="function">{_escape(item.name)}</span>{call_id}</summary>'
        f"{_json_block(item.arguments)}</details>"
    )
    result = context.results.get(item.id) if item.id is not None else None
    if result is not None:
        context.shown.add(result.call_id or "")
        answer = _result_details(result, context, footnotes, folded=False)
    elif context.whole:
        answer = '<p class="note pending">no result in this conversation</p>'
    else:
        return f'<div class="item exchange">{call}</div>\n'
    return f'<div class="item exchange">{call}{answer}</div>\n'


def _result(item: FunctionResultContent, context: _Context, footnotes: list[Citation]) -> str:
    folded = item.call_id is not None and item.call_id in context.shown
    return f'<div class="item result">{_result_details(item, context, footnotes, folded)}</div>\n'


def _result_details(
    item: FunctionResultContent, context: _Context, footnotes: list[Citation], folded: bool
) -> str:
    error = " error" if item.is_error else ""
    summary = f'<span class="tag">tool result{error}</span>'
    if item.name:
        summary += f' <span class="function">{_escape(item.name)}</span>'
    if item.call_id:
        summary += f' <span class="id">{_escape(item.call_id)}</span>'
    if folded:
        summary += ' <span class="note">(shown beside its call)</span>'
    result = item.result
    if isinstance(result, list) and result and all(
        isinstance(element, KernelContent) for element in result
    ):
        body = "".join(_item(element, context, footnotes) for element in result)
    elif isinstance(result, str):
        parsed = _parse_json(result)
        body = (
            _json_block(result) if isinstance(parsed, (dict, list, _Object))
            else f'<div class="text">{_escape(result)}</div>'
        )
    else:
        body = _json_block(result, parsed=True)
    return (
        f'<details{"" if folded else " open"} class="result{error}">'
        f"<summary>{summary}</summary>{body}</details>"
    )


_BUILTIN: dict[type, _Renderer] = {
    TextContent: _text,
    RefusalContent: _refusal,
    ReasoningContent: _reasoning,
    ImageContent: _image,
    AudioContent: _audio,
    FileContent: _file,
    BinaryContent: _file,
    FunctionCallContent: _call,
    FunctionResultContent: _result,
    UnknownContent: _described,
}


# --- JSON -----------------------------------------------------------------------------------


class _Number(str):
    """A number token as written in the JSON text, so that it is shown exactly so."""

    __slots__ = ()


class _Object(list[tuple[str, Any]]):
    """An object's members in order, duplicates kept, as the JSON text holds them."""

    __slots__ = ()


def _refuse_constant(token: str) -> Any:
    raise ValueError(f"{token} is not JSON")


def _parse_json(text: str) -> Any:
    """The JSON value ``text`` holds (numbers as written, objects as member lists) or None."""
    try:
        return json.loads(
            text, parse_float=_Number, parse_int=_Number, parse_constant=_refuse_constant,
            object_pairs_hook=_Object,
        )
    except (ValueError, RecursionError):
        return None


def _json_block(value: Any, *, parsed: bool = False) -> str:
    """A ``<pre class="json">`` of a JSON value (or a JSON text), coloured by token kind.

    Text that is not JSON (arguments a model wrote badly) is shown as it is, marked raw.
    """
    if value is None and not parsed:
        return '<pre class="json"><span class="note">(no arguments)</span></pre>'
    if isinstance(value, str) and not parsed:
        tree = _parse_json(value)
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


# --- CSS ------------------------------------------------------------------------------------

# Nothing may be fetched: no script at all, styles only inline, images and audio only from
# the page itself (data: URLs) or an https: URI an item holds.
_POLICY = (
    "default-src 'none'; style-src 'unsafe-inline'; img-src data: https:; media-src data: https:"
)

_LIGHT = (
    "--bg:#ffffff;--fg:#1f2328;--muted:#656d76;--card:#f6f8fa;--line:#d0d7de;"
    "--accent:#0969da;--user:#1a7f37;--assistant:#0969da;--system:#8250df;--tool:#9a6700;"
    "--error:#cf222e;--j-key:#0550ae;--j-str:#0a3069;--j-num:#953800;--j-lit:#8250df;"
    "color-scheme:light;"
)
_DARK = (
    "--bg:#0d1117;--fg:#e6edf3;--muted:#8d96a0;--card:#161b22;--line:#30363d;"
    "--accent:#4493f8;--user:#3fb950;--assistant:#4493f8;--system:#ab7df8;--tool:#d29922;"
    "--error:#f85149;--j-key:#79c0ff;--j-str:#a5d6ff;--j-num:#ffa657;--j-lit:#d2a8ff;"
    "color-scheme:dark;"
)

_RULES = """\
{s}{{background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,-apple-system,"Segoe UI",\
sans-serif}}
{s} h1{{font-size:1.4em;margin:0 0 .2em}}
{s} .summary,{s} .note,{s} .where,{s} figcaption,{s} footer{{color:var(--muted);font-size:.87em}}
{s} .message{{border:1px solid var(--line);border-left:4px solid var(--role,var(--line));\
border-radius:6px;margin:.8em 0;padding:.5em .9em;background:var(--bg)}}
{s} .message[data-role=user]{{--role:var(--user)}}
{s} .message[data-role=assistant]{{--role:var(--assistant)}}
{s} .message[data-role=system],{s} .message[data-role=developer]{{--role:var(--system)}}
{s} .message[data-role=tool],{s} .message[data-role=function]{{--role:var(--tool)}}
{s} header{{margin-bottom:.3em}}
{s} .role{{font-weight:700;color:var(--role,var(--fg))}}
{s} .name{{font-weight:600}}
{s} .model,{s} .id{{font:.82em ui-monospace,SFMono-Regular,Menlo,monospace;color:var(--muted);\
background:var(--card);border-radius:4px;padding:0 .35em}}
{s} .item{{margin:.35em 0}}
{s} .text{{white-space:pre-wrap;overflow-wrap:anywhere}}
{s} .tag{{font-size:.78em;font-weight:600;text-transform:uppercase;letter-spacing:.04em;\
color:var(--muted)}}
{s} .refusal{{color:var(--error);white-space:pre-wrap}}
{s} .refusal .tag,{s} .result.error>summary .tag{{color:var(--error)}}
{s} details{{background:var(--card);border:1px solid var(--line);border-radius:6px;\
padding:.3em .6em}}
{s} summary{{cursor:pointer}}
{s} .reasoning{{color:var(--muted);font-style:italic}}
{s} .exchange{{display:grid;grid-template-columns:repeat(auto-fit,minmax(16em,1fr));gap:.5em;\
align-items:start}}
{s} .function{{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-weight:600}}
{s} pre{{margin:.3em 0 0;white-space:pre-wrap;overflow-wrap:anywhere;\
font:.85em/1.45 ui-monospace,SFMono-Regular,Menlo,monospace}}
{s} .j-key{{color:var(--j-key)}}
{s} .j-str{{color:var(--j-str)}}
{s} .j-num{{color:var(--j-num)}}
{s} .j-lit,{s} .j-other{{color:var(--j-lit)}}
{s} figure{{margin:.4em 0}}
{s} img{{display:block;max-width:min(100%,32em);min-width:8em;height:auto;\
border:1px solid var(--line);border-radius:4px;image-rendering:pixelated}}
{s} audio{{display:block;max-width:100%}}
{s} a{{color:var(--accent)}}
{s} .cite{{color:var(--accent);font-size:.75em}}
{s} .citations{{font-size:.87em;margin:.3em 0;padding-left:1.6em}}
{s} footer{{border-top:1px solid var(--line);margin-top:.4em;padding-top:.2em}}
"""

_PRINT = """\
@media print{{
{s}{{font-size:11pt}}
{s} .message{{break-inside:avoid}}
{s} details{{border-style:dashed}}
{s} .reasoning::details-content{{content-visibility:visible}}
{s} audio{{display:none}}
}}
"""


def _page_css(theme: str) -> str:
    scope = ".semantic-chat"
    colours = {"light": _LIGHT, "dark": _DARK, "auto": _LIGHT}[theme]
    css = f":root,{scope}{{{colours}}}\n"
    if theme == "auto":
        css += f"@media (prefers-color-scheme:dark){{:root,{scope}{{{_DARK}}}}}\n"
    css += f"@media print{{:root,{scope}{{{_LIGHT}}}}}\n"
    css += "body{margin:0}\nmain{max-width:56em;margin:0 auto;padding:1.2em}\n"
    return css + _RULES.format(s=scope) + _PRINT.format(s=scope)


def _scoped_css() -> str:
    """The notebook's CSS: every rule under ``.semantic-chat``, colours following the system."""
    scope = ".semantic-chat"
    return (
        f"{scope}{{{_LIGHT}padding:.2em 0}}\n"
        f"@media (prefers-color-scheme:dark){{{scope}{{{_DARK}}}}}\n"
        + _RULES.format(s=scope) + _PRINT.format(s=scope)
    )
