"""The HTML of each kind of item, and the table of plugins' renderers.

`render_item` finds an item's renderer once per class: a plugin's (`register_html`, along the
class's bases), else the built-in one of a library class, else the item's transcript line.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Mapping
from typing import Any

from ..contents import (
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
from ..errors import InvalidTypeError, describe_type
from ..media.datauri import decode_base64, format_data_uri
from ..media.mediatype import sniff_mime_type
from ..transcript import audio_transcript, describe_item, describe_source_span
from .jsonview import json_block, parse_json

__all__ = [
    "Context", "ItemRenderer", "register_html", "render_footnotes", "render_item",
    "unregister_html",
]

_escape = html.escape

ItemRenderer = Callable[[Any], str]
"""A plugin's renderer: takes an item of its class, returns its HTML (trusted, so escaped)."""


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


class Context:
    """What rendering one message needs to know of the others: the results of tool calls.

    ``results`` maps a call's ``id()`` to the result that answers it; ``shown`` holds the
    ``id()`` of each result already shown beside its call.
    """

    __slots__ = ("results", "shown", "whole")

    def __init__(self, results: dict[int, FunctionResultContent], *, whole: bool) -> None:
        self.results = results
        self.shown: set[int] = set()
        self.whole = whole


_Renderer = Callable[[Any, Context, list[Citation]], str]
_PLUGINS: dict[type, ItemRenderer] = {}
_DISPATCH: dict[type, _Renderer] = {}


def render_item(item: KernelContent, context: Context, footnotes: list[Citation]) -> str:
    """The HTML of one item; citations it holds are added to ``footnotes`` and marked by number.

    Raises:
        InvalidTypeError: a plugin's renderer returned something other than a ``str``.
    """
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
    def render_plugin(item: KernelContent, context: Context, footnotes: list[Citation]) -> str:
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


def _described(item: KernelContent, context: Context, footnotes: list[Citation]) -> str:
    unknown = isinstance(item, UnknownContent)
    label = item.type if isinstance(item, UnknownContent) else str(item.content_type)
    return (
        f'<div class="item {"unknown" if unknown else "other"}" data-type="{_escape(label)}">'
        f"{_escape(describe_item(item))}</div>\n"
    )


def _text(item: TextContent, context: Context, footnotes: list[Citation]) -> str:
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


def render_footnotes(citations: list[Citation]) -> str:
    """A message's citations as a numbered list, in the order their markers were given."""
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
        source_span = describe_source_span(citation)
        if source_span is not None:
            where.append(_escape(source_span))
        if citation.source_index is not None:
            where.append(f"{'of ' if where else ''}source {citation.source_index}")
        if where:
            label += f' <span class="where">({" ".join(where)})</span>'
        rows.append(f"<li>{label}</li>")
    return f'<ol class="citations">{"".join(rows)}</ol>\n'


def _refusal(item: RefusalContent, context: Context, footnotes: list[Citation]) -> str:
    return (
        '<div class="item refusal"><span class="tag">refused</span> '
        f"{_escape(item.text)}</div>\n"
    )


def _reasoning(item: ReasoningContent, context: Context, footnotes: list[Citation]) -> str:
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


def _image(item: ImageContent, context: Context, footnotes: list[Citation]) -> str:
    return _media(item, "image/", '<img src="{source}" alt="{caption}">')


def _audio(item: AudioContent, context: Context, footnotes: list[Citation]) -> str:
    said = audio_transcript(item)
    if said is None:
        return _media(item, "audio/", '<audio controls src="{source}"></audio>')
    return _audio_reply(item, said)


def _audio_reply(item: AudioContent, said: str) -> str:
    """A Chat Completions audio reply: what it said, and a player when its hints hold the bytes.

    Its reader keeps the reply's ``transcript`` and base64 ``data`` in
    ``metadata["openai_chat"]["fields"]``; the bytes are played only when they decode and
    are of a known audio type.
    """
    spoken = f'<blockquote class="transcript">{_escape(said)}</blockquote>'
    found = _reply_audio_bytes(item)
    if found is None:
        return (
            '<div class="item audio unshown"><span class="tag">audio</span> '
            f'<span class="note">file id {_escape(item.file_id or "")}</span>{spoken}</div>\n'
        )
    mime_type, data = found
    source = _escape(format_data_uri(mime_type, data))
    caption = _escape(f"{mime_type}, {len(data):,} bytes, file id {item.file_id}")
    return (
        f'<figure class="item audio"><audio controls src="{source}"></audio>{spoken}'
        f"<figcaption>{caption}</figcaption></figure>\n"
    )


def _reply_audio_bytes(item: AudioContent) -> tuple[str, bytes] | None:
    """The audio type and bytes an audio reply's hints hold, or None (none, or not audio)."""
    if item.data is not None or item.uri is not None:
        return None
    hints = item.metadata.get("openai_chat")
    fields = hints.get("fields") if isinstance(hints, Mapping) else None
    encoded = fields.get("data") if isinstance(fields, Mapping) else None
    if not isinstance(encoded, str):
        return None
    try:
        data = decode_base64(encoded)
    except ValueError:
        return None
    mime_type = sniff_mime_type(data[:64])
    if mime_type is None or not mime_type.startswith("audio/"):
        return None
    return mime_type, data


def _media(item: BinaryContent, prefix: str, element: str) -> str:
    """An image or audio item as ``element`` of its own bytes, with its caption.

    ``element`` gets the escaped ``{source}`` and ``{caption}``. An item at a web address is
    a link to it; one whose bytes cannot be shown safely is its caption, as text.
    """
    caption = _caption(item)
    if item.uri is not None:
        return _linked(item, caption)
    source = _media_source(item, prefix)
    if source is None:
        return _unshown(item, caption)
    kind = prefix.rstrip("/")
    shown = element.format(source=source, caption=caption)
    return f'<figure class="item {kind}">{shown}<figcaption>{caption}</figcaption></figure>\n'


def _file(item: BinaryContent, context: Context, footnotes: list[Citation]) -> str:
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


def _linked(item: BinaryContent, caption: str) -> str:
    """Media at a web address: a link to it, never loaded, so the page requests nothing."""
    uri = item.uri or ""
    if not _is_web_link(uri):
        return _unshown(item, caption)
    kind = _escape(str(item.content_type))
    return (
        f'<div class="item {kind} linked"><span class="tag">{kind}</span> '
        f'<a href="{_escape(uri)}" rel="noopener noreferrer">{caption}</a></div>\n'
    )


def _unshown(item: BinaryContent, caption: str) -> str:
    """A binary item that cannot be shown safely (or has no bytes here): its line as text."""
    kind = _escape(str(item.content_type))
    return (
        f'<div class="item {kind} unshown"><span class="tag">{kind}</span> '
        f'<span class="note">{caption}</span></div>\n'
    )


def _media_source(item: BinaryContent, prefix: str) -> str | None:
    """The escaped ``data:`` ``src`` of an image or audio item's bytes, or None.

    None when the item has no bytes here or they are not of its kind: a ``data:`` URL of
    another type is never used.
    """
    if item.uri is not None or item.file_id is not None:
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


def _call(item: FunctionCallContent, context: Context, footnotes: list[Citation]) -> str:
    call_id = f' <span class="id">{_escape(item.id)}</span>' if item.id else ""
    call = (
        f'<details open class="call"><summary><span class="tag">tool call</span> '
        f'<span class="function">{_escape(item.name)}</span>{call_id}</summary>'
        f"{json_block(item.arguments)}</details>"
    )
    result = context.results.get(id(item))
    if result is not None:
        context.shown.add(id(result))
        answer = _result_details(result, context, footnotes, folded=False)
    elif context.whole:
        answer = '<p class="note pending">no result in this conversation</p>'
    else:
        return f'<div class="item exchange">{call}</div>\n'
    return f'<div class="item exchange">{call}{answer}</div>\n'


def _result(item: FunctionResultContent, context: Context, footnotes: list[Citation]) -> str:
    folded = id(item) in context.shown
    return f'<div class="item result">{_result_details(item, context, footnotes, folded)}</div>\n'


def _result_details(
    item: FunctionResultContent, context: Context, footnotes: list[Citation], folded: bool
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
        body = "".join(render_item(element, context, footnotes) for element in result)
    elif isinstance(result, str):
        parsed = parse_json(result)
        body = (
            json_block(result) if isinstance(parsed, (dict, list))
            else f'<div class="text">{_escape(result)}</div>'
        )
    else:
        body = json_block(result, parsed=True)
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
