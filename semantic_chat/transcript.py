r"""A readable, plain-text transcript of a conversation: one block per message.

A content class of a plugin says how it is shown by defining ``__transcript__(self) -> str``
(one line, ``[video] clip.mp4, 12.0 s``); without it, its items show as ``[label]`` and their
``str()``.

Nothing in a transcript can move the terminal's cursor or fake a message: every C0 control
character (U+0000-U+001F) and DEL is shown as its Unicode control picture (ESC as ``␛``, a
carriage return as ``␍``, U+0001 as ``␁``, DEL as ``␡``), as the XML prompt writer shows the
characters XML cannot hold, and a C1 control (U+0080-U+009F), which has no picture, as its
escape (``\x9b``). A text keeps its line feeds and tabs (it is indented line by line); a
one-line field (the header's role, name, model and finish reason, an id, a name, a file name,
a URI, a citation) shows them as ``␊`` and ``␉`` too, and U+2028 and U+2029 as ``\u2028``
and ``\u2029``, so it stays one line whatever it holds.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping

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
from .errors import InvalidTypeError, describe_type
from .message import ChatMessageContent

__all__ = [
    "audio_transcript", "describe_citation", "describe_item", "describe_source_span",
    "one_line", "render_transcript", "summarize", "visible",
]

_PREVIEW = 200


def _control_shown(code: int) -> str:
    """How a control character is shown: its control picture, or a C1 one as its escape."""
    if code < 0x20:
        return chr(0x2400 + code)
    if code == 0x7F:
        return "\u2421"
    return f"\\x{code:02x}"


_CONTROLS = [*range(0x20), 0x7F, *range(0x80, 0xA0)]
_VISIBLE = str.maketrans({code: _control_shown(code) for code in _CONTROLS if code not in (9, 10)})
_ONE_LINE = str.maketrans(
    {**{code: _control_shown(code) for code in _CONTROLS},
     0x2028: "\\u2028", 0x2029: "\\u2029"}
)


def visible(text: str) -> str:
    """``text`` with its control characters shown (pictures, C1 escapes); line feeds, tabs kept."""
    return text.translate(_VISIBLE)


def one_line(text: str) -> str:
    """``text`` shown on one line: every control character and line separator made visible."""
    return text.translate(_ONE_LINE)


def audio_transcript(item: KernelContent) -> str | None:
    """What a Chat Completions audio reply said: the ``transcript`` its reader kept in hints.

    ``openai_chat.from_response`` keeps the reply's ``audio`` fields other than its id in
    ``metadata["openai_chat"]["fields"]``; None when the item holds no such text.
    """
    if not isinstance(item, AudioContent):
        return None
    hints = item.metadata.get("openai_chat")
    fields = hints.get("fields") if isinstance(hints, Mapping) else None
    text = fields.get("transcript") if isinstance(fields, Mapping) else None
    return text if isinstance(text, str) else None


def describe_item(item: KernelContent) -> str:
    """One line saying what a non-text item is (an image's type and size, a call's arguments).

    Its names, ids, file names and URIs are shown on one line (`one_line`); a text or a
    refusal is given as it is, lines and all. A class that defines
    ``__transcript__(self) -> str`` is shown as that returns; another plugin class (one that
    no built-in class is a base of) as its label and ``str(item)``.

    Raises:
        InvalidTypeError: ``__transcript__`` returned something other than a ``str``.
    """
    hook = getattr(type(item), "__transcript__", None)
    if hook is not None:
        text = hook(item)
        if not isinstance(text, str):
            raise InvalidTypeError(
                f"{type(item).__qualname__}.__transcript__ returned {describe_type(text)}, "
                "expected a str"
            )
        return text
    match item:
        case TextContent(text=text):
            return text
        case RefusalContent(text=text):
            return f"[refusal] {text}"
        case ReasoningContent(text=text):
            opaque = " (signed)" if item.signature else " (encrypted)" if item.encrypted else ""
            return one_line(f"[reasoning{opaque}] {_shorten(text)}")
        case FunctionCallContent(id=call_id, name=name):
            return one_line(f"[tool call {call_id}] {name}({_arguments_text(item)})")
        case FunctionResultContent(call_id=call_id, result=result):
            flag = " error" if item.is_error else ""
            return one_line(f"[tool result{flag} {call_id}] {_result_text(result)}")
        case UnknownContent(type=label):
            count = len(item.fields)
            line = f"[unknown item {label!r}] {count:,} field{'' if count == 1 else 's'}"
            return one_line(line)
        case AudioContent() if (said := audio_transcript(item)) is not None:
            spoken = json.dumps(said, ensure_ascii=False)
            return one_line(f"{_describe_binary(item)}, transcript: {spoken}")
        case BinaryContent():
            return one_line(_describe_binary(item))
    return one_line(f"[{item.content_type}] {_shorten(str(item))}")


_UNITS = {"char": ("character", "characters"), "page": ("page", "pages"),
          "block": ("block", "blocks")}
"""A source unit's singular and plural name; another unit is named as it is given."""


def _span(singular: str, plural: str, start: int, end: int | None) -> str:
    """A span whose ``end`` is exclusive, said inclusively: ``page 2``, ``characters 0-11``.

    An empty span is a point (``the point before character 7``), one without an end runs on
    (``characters from 7``), and a reversed one is shown as given, saying its end is exclusive.
    """
    if end is None:
        return f"{plural} from {start}"
    if end == start:
        return f"the point before {singular} {start}"
    if end == start + 1:
        return f"{singular} {start}"
    if end > start:
        return f"{plural} {start}-{end - 1}"
    return f"{plural} {start} to {end} (end exclusive)"


def describe_source_span(citation: Citation) -> str | None:
    """Where in its source a citation points, said inclusively (``pages 2-4``); ``None``: nowhere.

    Shared by the transcript and the HTML footnotes, so both say a span alike.
    """
    if citation.source_start is None:
        return None
    unit = citation.source_unit
    named = (unit, unit) if unit else ("position", "positions")
    singular, plural = _UNITS.get(unit or "", named)
    return _span(singular, plural, citation.source_start, citation.source_end)


def describe_citation(citation: Citation) -> str:
    """One line saying what a citation points at: its source, the words quoted, where.

    ``[citation] Colours: "The sky is blue." (pages 2-3 of source 0)``; the span of the text
    it supports is given when it has one (``for characters 0-11``). Spans are said inclusive
    (a citation's end is exclusive: start 2 and end 4 are ``pages 2-3``, end 3 ``page 2``).
    `render_transcript` shows a text's citations on the lines after it. The line is one line
    whatever the citation holds (a title with line breaks shows them as ``␊``).
    """
    source = citation.title or citation.url or citation.filename or citation.file_id
    parts = [source if source else "a source"]
    if citation.url and source != citation.url:
        parts.append(f"<{citation.url}>")
    if citation.cited_text:
        parts[-1] += ":"
        parts.append(json.dumps(_shorten(citation.cited_text), ensure_ascii=False))
    where = []
    source_span = describe_source_span(citation)
    if source_span is not None:
        where.append(source_span)
    if citation.source_index is not None:
        where.append(f"{'of ' if where else ''}source {citation.source_index}")
    if citation.text_start is not None:
        span = _span("character", "characters", citation.text_start, citation.text_end)
        where.append(f"for {span}")
    text = "[citation] " + " ".join(parts)
    return one_line(f"{text} ({' '.join(where)})" if where else text)


def render_transcript(messages: Iterable[ChatMessageContent], *, color: bool = False) -> str:
    """Render messages as blocks: a header line with the role, then each item on its own line.

    Args:
        messages: the conversation.
        color: style the text with ANSI escapes for a terminal (roles in colour and bold,
            item tags in colour, details dimmed); plain text otherwise.
    """
    style = _style if color else _plain
    blocks = []
    for message in messages:
        role = str(message.role)
        header = style(one_line(role), _BOLD + _ROLE_COLORS.get(role.lower(), ""))
        if message.name:
            header += f" ({one_line(message.name)})"
        details = [
            f"{key}={one_line(str(value))}"
            for key, value in (
                ("model", message.model_id),
                ("finish", message.finish_reason),
                ("tokens", f"{message.usage.total_tokens:,}" if message.usage else None),
            )
            if value is not None
        ]
        if details:
            header += style("  · " + ", ".join(details), _DIM)
        lines = [style("── ", _DIM) + header]
        for item in message.items:
            text = "\n   ".join(visible(describe_item(item)).splitlines() or [""])
            lines.append("   " + (_style_item(text, item) if color else text))
            if isinstance(item, TextContent):
                lines.extend(
                    "     " + style(describe_citation(citation), _DIM)
                    for citation in item.citations
                )
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def summarize(messages: Iterable[ChatMessageContent]) -> str:
    """Say in one line how many messages and items of each kind a conversation holds."""
    messages = list(messages)
    counts: dict[str, int] = {}
    for message in messages:
        for item in message.items:
            label = str(item.content_type)
            counts[label] = counts.get(label, 0) + 1
    kinds = ", ".join(f"{count:,} {label}" for label, count in sorted(counts.items()))
    noun = "message" if len(messages) == 1 else "messages"
    return f"{len(messages):,} {noun}; items: {kinds or 'none'}"


_RESET = "\x1b[0m"
_BOLD = "\x1b[1m"
_DIM = "\x1b[2m"
_ITALIC = "\x1b[3m"
_RED = "\x1b[31m"
_GREEN = "\x1b[32m"
_YELLOW = "\x1b[33m"
_BLUE = "\x1b[34m"
_MAGENTA = "\x1b[35m"
_CYAN = "\x1b[36m"
_ROLE_COLORS = {
    "system": _MAGENTA,
    "developer": _MAGENTA,
    "user": _GREEN,
    "assistant": _CYAN,
    "tool": _YELLOW,
    "function": _YELLOW,
}


def _style(text: str, codes: str) -> str:
    return f"{codes}{text}{_RESET}" if codes else text


def _plain(text: str, codes: str) -> str:
    return text


def _style_item(text: str, item: KernelContent) -> str:
    """Colour a described item: its ``[tag]`` by kind, reasoning dimmed, refusals red."""
    if isinstance(item, TextContent):
        return text
    if isinstance(item, ReasoningContent):
        return _style(text, _DIM + _ITALIC)
    tag, bracket, rest = text.partition("] ")
    if not bracket or not tag.startswith("["):
        return text
    error = isinstance(item, RefusalContent) or (
        isinstance(item, FunctionResultContent) and item.is_error
    )
    color = _RED if error else _YELLOW if isinstance(item, FunctionCallContent) else _BLUE
    return _style(tag + "]", color) + " " + rest


def _describe_binary(item: BinaryContent) -> str:
    kind = str(item.content_type)
    parts = [item.mime_type or "unknown type"]
    if item.data is not None:
        unreadable = None
        try:  # a header cut short is shown, not raised: a viewer shows what it is given
            if isinstance(item, ImageContent) and (size := item.size) is not None:
                parts.append(f"{size[0]}x{size[1]} px")
            if isinstance(item, AudioContent) and (duration := item.duration) is not None:
                parts.append(f"{duration:.2f} s")
        except ValueError as error:
            unreadable = f"unreadable: {error}"
        parts.append(f"{len(item.data):,} bytes")
        if unreadable is not None:
            parts.append(unreadable)  # as the HTML page says it
    elif item.uri is not None:
        parts.append(f"at {item.uri}")
    else:
        parts.append(f"file id {item.file_id}")
    if isinstance(item, FileContent) and item.filename:
        parts.insert(0, item.filename)
    return f"[{kind}] " + ", ".join(parts)


def _arguments_text(call: FunctionCallContent) -> str:
    arguments = call.arguments
    if arguments is None:
        return ""
    if isinstance(arguments, str):
        return _shorten(arguments)
    return _shorten(json.dumps(dict(arguments), ensure_ascii=False))


def _result_text(result: object) -> str:
    if isinstance(result, str):
        return _shorten(result)
    if isinstance(result, list) and all(isinstance(element, KernelContent) for element in result):
        return "; ".join(describe_item(element) for element in result)
    return _shorten(json.dumps(result, ensure_ascii=False, default=repr))


def _shorten(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= _PREVIEW else flat[: _PREVIEW - 1] + "…"
