"""Semantic Kernel's XML prompt format: ``<chat_history><message role="..."><text>...``.

`to_prompt` writes a history the way Semantic Kernel's ``ChatHistory.to_prompt`` does, so that
its ``from_rendered_prompt`` reads the roles, texts, images, file references, function calls,
results and reasoning back; `from_prompt` reads that format, Semantic Kernel's own output
included, without its known faults:

- entities are decoded exactly once (``&amp;lt;`` is the text ``&lt;``);
- several text items stay apart, and text between tags is kept (see `from_prompt`);
- audio and binary items are written as base64 data URIs and read back;
- a message without a role is a located `FormatError` (``chat_history.message[2].role``).

What Semantic Kernel's elements cannot hold (a message's id, usage and metadata, the keys of
a newer version a message or the history was read with (on ``<chat_history>``); an item's
metadata, citations, media type beside a URI, image detail, file name, reasoning signature
and encrypted content, the JSON type of arguments and results, a result's error flag) goes
into one attribute, ``semantic_chat``, holding a JSON object; Semantic Kernel ignores that
attribute, so its reading is unchanged, and ours gives back the history that was written.

XML 1.0 cannot carry most C0 control characters (all but tab, line feed and carriage return,
which are written as character references so that they survive), nor U+FFFE and U+FFFF. A
text holding one is written with each such character shown as its Unicode control picture
(U+0001 as U+2401, U+FFFE and U+FFFF as U+FFFD), which Semantic Kernel reads, and the exact
text goes into ``semantic_chat`` as JSON, where it is escaped as plain ASCII. Reading takes the
exact text only if it shows as the element's text, so the two cannot disagree.

Parsing uses the standard library's expat parser, never an entity-expanding tree builder, and
refuses what could expand or fetch: a DOCTYPE, any entity or notation declaration, and any
external entity are `FormatError` at their line and column, whether found before parsing (a
declaration is not allowed inside the document element that the text is read in) or by
expat's handlers while parsing. Only the five predefined entities and character references
are decoded. Elements nested deeper than `MAX_DEPTH` are refused too, so that reading never
recurses without bound.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any, NoReturn
from xml.parsers import expat

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
)
from ..errors import (
    FormatError,
    InvalidTypeError,
    SemanticChatError,
    UnsupportedContentError,
    describe_type,
)
from ..history import ChatHistory
from ..message import ChatMessageContent, UnknownMessage
from ..usage import Usage

__all__ = ["EXTRA_ATTRIBUTE", "MAX_DEPTH", "from_prompt", "from_rendered_prompt", "to_prompt"]

MAX_DEPTH = 64
"""How deeply elements may nest (a history needs four); deeper is refused, not recursed into."""

EXTRA_ATTRIBUTE = "semantic_chat"
"""The attribute holding, as a JSON object, what Semantic Kernel's elements cannot."""

_WRAPPER = "root"
_OPEN = f"<{_WRAPPER}>"
_CLOSE = f"</{_WRAPPER}>"

# Characters XML 1.0 cannot hold at all, even as character references.
_UNWRITABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_TEXT_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", "\r": "&#13;"})
_ATTR_ESCAPES = str.maketrans(
    {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;",
     "\t": "&#9;", "\n": "&#10;", "\r": "&#13;"}
)


# Semantic Kernel writes bytes it holds raw as ``data:audio/wav;,<bytes as text>``: the empty
# parameter before the comma is its, not the media type's (we always write base64).
_SK_RAW_DATA = re.compile(r"data:[^,;]*(?:;[^,;]+)*;,", re.IGNORECASE)


def _picture(match: re.Match[str]) -> str:
    code = ord(match.group())
    return chr(0x2400 + code) if code < 0x20 else "\ufffd"


def _shown(text: str) -> str:
    """``text`` with each character XML cannot hold replaced by its control picture."""
    return _UNWRITABLE.sub(_picture, text)


# ---------------------------------------------------------------------------------- writing


class _Element:
    """One element being written: its attributes, its extras, and its inner markup."""

    __slots__ = ("attributes", "body", "extras", "tag")

    def __init__(self, tag: str) -> None:
        self.tag = tag
        self.attributes: list[tuple[str, str]] = []
        self.extras: dict[str, Any] = {}
        self.body = ""

    def set(self, name: str, value: str) -> None:
        """Write attribute ``name``; a value XML cannot hold goes exactly into the extras."""
        if _UNWRITABLE.search(value):
            self.extras.setdefault("exact", {})[name] = value
            value = _shown(value)
        self.attributes.append((name, value))

    def text(self, value: str) -> None:
        """Write ``value`` as the element's text, exactly, in any characters."""
        if _UNWRITABLE.search(value):
            self.extras.setdefault("exact", {})[""] = value
            value = _shown(value)
        self.body += value.translate(_TEXT_ESCAPES)

    def markup(self) -> str:
        """The element as XML, its extras (if any) in the `EXTRA_ATTRIBUTE` attribute."""
        attributes = self.attributes
        if self.extras:
            extras = json.dumps(self.extras, ensure_ascii=False, separators=(",", ":"))
            if _UNWRITABLE.search(extras):  # U+FFFE in a value: JSON writes it as itself
                extras = json.dumps(self.extras, separators=(",", ":"))
            attributes = [*attributes, (EXTRA_ATTRIBUTE, extras)]
        written = "".join(
            f' {name}="{value.translate(_ATTR_ESCAPES)}"' for name, value in attributes
        )
        return f"<{self.tag}{written}>{self.body}</{self.tag}>"


def to_prompt(history: ChatHistory) -> str:
    """Write ``history`` as Semantic Kernel's XML prompt, ``<chat_history>...</chat_history>``.

    Each message is a ``<message>`` with ``role`` (and ``name``, ``finish_reason``,
    ``ai_model_id``); each item the element Semantic Kernel writes for it: ``<text>``,
    ``<image>``, ``<audio>``, ``<binary>`` (bytes as a base64 data URI, else ``uri``),
    ``<file_reference file_id>``, ``<function_call id name>`` (arguments as text),
    ``<function_result id name>`` (the result as text), ``<reasoning>``. A refusal is a
    ``<text>``; a file with bytes or a URI is a ``<binary>``; a result holding items holds
    their elements. Text in any field can never open, close or change an element: ``&``, ``<``
    and ``>`` are always escaped. The history's options are not written (a prompt holds
    messages only); a message subclass is written as a plain message.

    Raises:
        UnsupportedContentError: an item of a kind this format has no element for (an
            `UnknownContent`, a class of your own), at ``messages[i].items[j]``.
        SerializationError: metadata or citations that are not JSON, at their place.
    """
    root = _Element("chat_history")
    unknown = getattr(history, "_unknown_keys", None)  # a newer version's, as from_json keeps
    if unknown:
        root.extras["unknown_keys"] = dict(unknown)  # JSON values, as read
    parts = [root.markup().removesuffix("</chat_history>")]
    for index, message in enumerate(history._messages):
        try:
            parts.append(_write_message(message))
        except SemanticChatError as error:
            raise error.at(f"messages[{index}]") from None
    parts.append("</chat_history>")
    return "".join(parts)


def _write_message(message: ChatMessageContent) -> str:
    element = _Element("message")
    element.set("role", str(message.role))
    if message.name is not None:
        element.set("name", message.name)
    if message.finish_reason is not None:
        element.set("finish_reason", str(message.finish_reason))
    if message.model_id is not None:
        element.set("ai_model_id", message.model_id)
    if message.id is not None:
        element.extras["id"] = message.id
    if message.usage is not None:
        from .. import serialization  # noqa: PLC0415 - only when there is usage to write

        element.extras["usage"] = serialization.to_dict(message.usage)
    _write_metadata(element, message._metadata)
    if type(message) is UnknownMessage:  # keys of a newer version, or of a plugin not loaded
        element.extras["unknown_keys"] = dict(message.unknown_keys)  # checked JSON values
    element.body = _write_items(message.items)
    return element.markup()


def _write_items(items: Iterable[KernelContent]) -> str:
    written = []
    for index, item in enumerate(items):
        try:
            written.append(_write_item(item).markup())
        except SemanticChatError as error:
            raise error.at(f"items[{index}]") from None
    return "".join(written)


def _write_metadata(element: _Element, metadata: Mapping[str, Any] | None) -> None:
    if metadata:
        from .. import jsoncodec  # noqa: PLC0415

        element.extras["metadata"] = jsoncodec.json_value(dict(metadata), "metadata")


def _write_item(item: KernelContent) -> _Element:
    kind = type(item)
    if kind is TextContent or kind is RefusalContent:
        element = _Element("text")
        element.text(item.text)  # type: ignore[attr-defined]
        if kind is RefusalContent:
            element.extras["kind"] = "refusal"
        elif item.citations:  # type: ignore[attr-defined]
            from ..serialization.citations import write_citations  # noqa: PLC0415

            element.extras["citations"] = write_citations(item.citations)  # type: ignore[attr-defined]
    elif kind in _BINARY_TAGS:
        element = _write_binary(item)  # type: ignore[arg-type]
    elif kind is FunctionCallContent:
        element = _write_call(item)  # type: ignore[arg-type]
    elif kind is FunctionResultContent:
        element = _write_result(item)  # type: ignore[arg-type]
    elif kind is ReasoningContent:
        element = _Element("reasoning")
        element.text(item.text)  # type: ignore[attr-defined]
        for name in ("signature", "encrypted", "provider"):
            value = getattr(item, name)
            if value is not None:
                element.extras[name] = value
    else:
        raise UnsupportedContentError(
            f"a {kind.__name__} has no element in Semantic Kernel's prompt format",
            expected="text, image, audio, binary, file, function call or result, reasoning",
            got=kind.__name__,
        )
    _write_metadata(element, item._metadata)
    return element


_BINARY_TAGS: dict[type[KernelContent], str] = {
    ImageContent: "image",
    AudioContent: "audio",
    BinaryContent: "binary",
    FileContent: "binary",
}


def _write_binary(item: BinaryContent) -> _Element:
    kind = type(item)
    file_id = item.file_id
    tag = "file_reference" if kind is FileContent and file_id is not None else _BINARY_TAGS[kind]
    element = _Element(tag)
    if kind is FileContent:
        element.extras["kind"] = "file"
        filename = item.filename  # type: ignore[attr-defined]
        if filename is not None:
            element.extras["filename"] = filename
    if kind is ImageContent and item.detail is not None:  # type: ignore[attr-defined]
        element.extras["detail"] = item.detail  # type: ignore[attr-defined]
    if item.data_uri is not None:
        element.text(item.data_uri)
        return element
    if item.uri is not None:
        element.set("uri", item.uri)
    elif tag == "file_reference":
        element.set("file_id", file_id)  # type: ignore[arg-type]  # a file reference has one
    else:
        element.extras["file_id"] = file_id
    if item.mime_type is not None:
        element.extras["mime_type"] = item.mime_type
    return element


def _write_call(item: FunctionCallContent) -> _Element:
    element = _Element("function_call")
    if item.id is not None:
        element.set("id", item.id)
    element.set("name", item.name)
    arguments = item.arguments
    if arguments is None:
        element.extras["arguments"] = "none"
    elif isinstance(arguments, str):
        element.text(arguments)
    else:
        element.text(json.dumps(arguments, ensure_ascii=False))
        element.extras["arguments"] = "object"
    if item.index is not None:
        element.extras["index"] = item.index
    return element


def _write_result(item: FunctionResultContent) -> _Element:
    element = _Element("function_result")
    if item.call_id is not None:
        element.set("id", item.call_id)
    if item.name is not None:
        element.set("name", item.name)
    result = item.result
    if result is None:
        element.extras["result"] = "none"
    elif isinstance(result, str):
        element.text(result)
    elif type(result) is list and result and isinstance(result[0], KernelContent):
        element.extras["result"] = "items"
        element.body = _write_items(result)
    else:
        element.text(json.dumps(result, ensure_ascii=False))
        element.extras["result"] = "json"
    if item.is_error:
        element.extras["is_error"] = True
    return element


# ---------------------------------------------------------------------------------- parsing


class _Node:
    """An element as parsed: tag, attributes, children (text and elements), where it starts."""

    __slots__ = ("attributes", "children", "start", "tag")

    def __init__(self, tag: str, attributes: dict[str, str], start: int) -> None:
        self.tag = tag
        self.attributes = attributes
        self.children: list[_Node | str] = []
        self.start = start  # byte index in the wrapped UTF-8 text

    def text(self) -> str:
        """The text directly inside, with any inner elements written back as markup."""
        return "".join(
            child if isinstance(child, str) else _markup(child) for child in self.children
        )


def _markup(node: _Node) -> str:
    """An element written back as XML text, as it was given (entities escaped again)."""
    attributes = "".join(
        f' {name}="{value.translate(_ATTR_ESCAPES)}"' for name, value in node.attributes.items()
    )
    inner = "".join(
        child.translate(_TEXT_ESCAPES) if isinstance(child, str) else _markup(child)
        for child in node.children
    )
    return f"<{node.tag}{attributes}>{inner}</{node.tag}>"


class _Refused(Exception):
    """Raised from an expat handler to stop at a declaration that is refused."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


class _Document:
    """The text being read, which turns expat's byte positions into lines and columns."""

    def __init__(self, text: str) -> None:
        self.wrapped = f"{_OPEN}{text}{_CLOSE}"
        self.data = self.wrapped.encode("utf-8", "surrogatepass")

    def where(self, byte_index: int) -> str:
        """``line L, column C`` (from 1, in characters) of a byte index in the wrapped text."""
        index = max(len(self.data[:byte_index].decode("utf-8", "replace")) - len(_OPEN), 0)
        text = self.wrapped[len(_OPEN) :]
        line = text.count("\n", 0, index) + 1
        column = index - (text.rfind("\n", 0, index) + 1) + 1
        return f"line {line}, column {column}"

    def error(self, byte_index: int, detail: str) -> FormatError:
        """A `FormatError` at a byte index of the wrapped text."""
        return FormatError(detail, path=self.where(byte_index))


def _refuse(what: str) -> Callable[..., NoReturn]:
    def handler(*_: Any) -> NoReturn:
        raise _Refused(what)

    return handler


def _parse(document: _Document) -> _Node:
    """Parse the wrapped text into nodes with expat, refusing declarations and entities."""
    parser = expat.ParserCreate("UTF-8")
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    root = _Node(_WRAPPER, {}, 0)
    stack = [root]

    def start(tag: str, attributes: dict[str, str]) -> None:
        if len(stack) > MAX_DEPTH:
            raise _Refused(f"elements nested deeper than {MAX_DEPTH}")
        node = _Node(tag, attributes, parser.CurrentByteIndex)
        stack[-1].children.append(node)
        stack.append(node)

    def end(_: str) -> None:
        stack.pop()

    def characters(text: str) -> None:
        children = stack[-1].children
        if children and isinstance(children[-1], str):
            children[-1] += text
        else:
            children.append(text)

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = characters
    parser.StartDoctypeDeclHandler = _refuse("a DOCTYPE declaration")
    parser.EntityDeclHandler = _refuse("an entity declaration")
    parser.UnparsedEntityDeclHandler = _refuse("an entity declaration")
    parser.NotationDeclHandler = _refuse("a notation declaration")
    parser.ExternalEntityRefHandler = _refuse("an external entity")
    parser.SkippedEntityHandler = _refuse("an entity reference")
    parser.buffer_text = True
    try:
        parser.Parse(document.data, True)
    except _Refused as refused:
        detail = refused.what if refused.what.startswith("elements") else (
            f"{refused.what} is refused (no DTDs, no entities)"
        )
        raise document.error(parser.CurrentByteIndex, detail) from None
    except expat.ExpatError as error:
        raise _syntax_error(document, parser.ErrorByteIndex, error) from None
    wrapper = root.children[0]
    assert isinstance(wrapper, _Node)  # the wrapper element parsed, or expat raised
    return wrapper


_DECLARATIONS = (
    ("<!DOCTYPE", "a DOCTYPE declaration"),
    ("<!ENTITY", "an entity declaration"),
    ("<!NOTATION", "a notation declaration"),
    ("<!ELEMENT", "an element declaration"),
    ("<!ATTLIST", "an attribute list declaration"),
)


def _syntax_error(document: _Document, byte_index: int, error: expat.ExpatError) -> FormatError:
    """The error for XML expat could not read, naming a refused declaration where there is one."""
    data = document.data
    if data[byte_index - 2 : byte_index] in (b"<!", b"</"):  # expat points past these
        byte_index -= 2
    rest = data[byte_index : byte_index + 16].decode("utf-8", "replace")
    for opening, what in _DECLARATIONS:
        if rest.upper().startswith(opening):
            return document.error(byte_index, f"{what} is refused (no DTDs, no entities)")
    end = len(data) - len(_CLOSE)
    if byte_index >= end:
        return document.error(end, "not well-formed XML: an element is not closed")
    reason = expat.ErrorString(error.code) or str(error)
    return document.error(byte_index, f"not well-formed XML: {reason}")


_XML_DECLARATION = re.compile(r"<\?xml[ \t\r\n][^>]*\?>")


def _blank_declaration(text: str) -> str:
    """``text`` with a leading XML declaration turned into spaces (lines and columns kept).

    The text is read inside a wrapper element, where a declaration is not allowed; it says
    nothing a ``str`` needs (the encoding), so it is read as layout.
    """
    found = _XML_DECLARATION.match(text)
    if found is None:
        return text
    return re.sub(r"[^\n]", " ", found.group()) + text[found.end() :]


def from_prompt(text: str) -> ChatHistory:
    """Read Semantic Kernel's XML prompt format into a history.

    Accepts what `to_prompt` and Semantic Kernel's ``to_prompt`` write, and rendered prompts:
    ``<message>`` elements inside ``<chat_history>`` or not. As in Semantic Kernel, text before
    the first message is a system message (a user message when it is all there is), text after
    a message a user message (both with surrounding whitespace removed), and an element that
    is not a message is text appended to the message before it (or a user message when there
    is none), with the text that follows it. Inside ``<chat_history>`` the same holds, where
    Semantic Kernel drops such text. Inside a message, text outside item elements becomes its
    own text item (whitespace between elements is layout, not text), and an unknown element
    becomes a text item of its markup. Entities are decoded once; Semantic Kernel's
    ``<annotation>`` becomes a `Citation` on the text item before it. A message's
    ``encoding`` and other attributes Semantic Kernel writes but no field holds are ignored.

    Unlike Semantic Kernel, text that is not well-formed XML is an error, not a user message.

    Raises:
        FormatError: text that is not well-formed XML, a DOCTYPE, entity or notation
            declaration (refused, see the module), an undefined entity, a message without a
            role, or an element whose content cannot be an item; the message starts with
            the location: ``line 3, column 7`` or ``chat_history.message[2].role``.
        InvalidTypeError: ``text`` is not a ``str``.
    """
    if not isinstance(text, str):  # an untyped caller's bytes
        raise InvalidTypeError.mismatch(
            "text", "a str", describe_type(text)
        )
    document = _Document(_blank_declaration(text.strip()))
    root = _parse(document)
    reader = _Reader(document)
    return reader.history(root)


from_rendered_prompt = from_prompt
"""Semantic Kernel's name for `from_prompt`."""


class _Reader:
    """Builds the history from the parsed nodes, naming each element's place in errors."""

    def __init__(self, document: _Document) -> None:
        self.document = document
        self.messages: list[ChatMessageContent] = []
        self.unknown_keys: dict[str, Any] = {}  # the history's keys of a newer version

    def fail(self, node: _Node, path: str, detail: str) -> NoReturn:
        raise FormatError(f"{detail} ({self.document.where(node.start)})", path=path)

    def history(self, root: _Node) -> ChatHistory:
        self.read_level(root, "", top=True)
        messages = self.messages
        if len(messages) == 1 and messages[0].role == "system" and not any(
            isinstance(child, _Node) for child in root.children
        ):
            messages[0].role = "user"  # a prompt of text only is the user's, as in SK
        history = ChatHistory(messages)
        if self.unknown_keys:
            history._unknown_keys = self.unknown_keys
        return history

    def read_level(self, parent: _Node, prefix: str, *, top: bool) -> None:
        """Read the messages among ``parent``'s children, and the text around them."""
        messages = 0
        after_message = False
        for position, child in enumerate(parent.children):
            if isinstance(child, str):
                if not child.strip():
                    continue
                if top and position == 0:
                    self.messages.append(ChatMessageContent("system", child.strip()))
                elif after_message:
                    self.messages.append(ChatMessageContent("user", child.strip()))
                else:
                    self.loose_text(child)
                after_message = False
            elif child.tag == "message":
                self.messages.append(self.message(child, f"{prefix}message[{messages}]"))
                messages += 1
                after_message = True
            elif child.tag == "chat_history" and top:
                unknown = self.extras(child, "chat_history").get("unknown_keys")
                if unknown is not None:
                    if not isinstance(unknown, dict) or not unknown:
                        self.fail(child, f"chat_history.{EXTRA_ATTRIBUTE}.unknown_keys",
                                  "expected a JSON object of keys")
                    self.unknown_keys = unknown
                self.read_level(child, "chat_history.", top=False)
                after_message = True
            else:
                self.loose_text(_markup(child))
                after_message = False

    def loose_text(self, text: str) -> None:
        if self.messages:
            self.messages[-1].items.append(TextContent(text))
        else:
            self.messages.append(ChatMessageContent("user", text))

    def extras(self, node: _Node, path: str) -> dict[str, Any]:
        raw = node.attributes.get(EXTRA_ATTRIBUTE)
        if raw is None:
            return {}
        try:
            extras = json.loads(raw)
        except json.JSONDecodeError as error:
            self.fail(node, f"{path}.{EXTRA_ATTRIBUTE}", f"not JSON: {error}")
        except RecursionError:
            self.fail(node, f"{path}.{EXTRA_ATTRIBUTE}", "JSON nested too deeply")
        if not isinstance(extras, dict):
            self.fail(node, f"{path}.{EXTRA_ATTRIBUTE}", "expected a JSON object")
        exact = extras.get("exact", {})
        if not isinstance(exact, dict) or not all(isinstance(v, str) for v in exact.values()):
            self.fail(node, f"{path}.{EXTRA_ATTRIBUTE}", '"exact" must map names to text')
        return extras

    def attribute(self, node: _Node, extras: dict[str, Any], name: str, path: str) -> str | None:
        """An attribute's value, exactly: its extras' copy when it holds unwritable text."""
        value = node.attributes.get(name)
        exact = extras.get("exact", {}).get(name)
        if exact is None:
            return value
        if value != _shown(exact):
            self.fail(node, f"{path}.{name}", f"{EXTRA_ATTRIBUTE} holds another {name}")
        return str(exact)

    def body(self, node: _Node, extras: dict[str, Any], path: str) -> str:
        """The element's text, exactly."""
        value = node.text()
        exact = extras.get("exact", {}).get("")
        if exact is None:
            return value
        if value != _shown(exact):
            self.fail(node, path, f"{EXTRA_ATTRIBUTE} holds another text")
        return str(exact)

    def message(self, node: _Node, path: str) -> ChatMessageContent:
        extras = self.extras(node, path)
        role = self.attribute(node, extras, "role", path)
        if role is None or not role.strip():
            self.fail(node, f"{path}.role", "a message needs a role")
        fields: dict[str, Any] = {
            "name": self.attribute(node, extras, "name", path),
            "finish_reason": self.attribute(node, extras, "finish_reason", path),
            "model_id": self.attribute(node, extras, "ai_model_id", path),
            "id": extras.get("id"),
            "metadata": extras.get("metadata"),
        }
        if "usage" in extras:
            from .. import serialization  # noqa: PLC0415

            try:
                fields["usage"] = serialization.from_dict(extras["usage"], Usage)
            except SemanticChatError as error:
                self.fail(node, f"{path}.{EXTRA_ATTRIBUTE}.usage", error.args[0])
        items = self.items(node, path)
        try:
            if "unknown_keys" in extras:
                unknown = extras["unknown_keys"]
                return UnknownMessage(role, items=items, unknown_keys=unknown, **fields)
            return ChatMessageContent(role, items=items, **fields)
        except SemanticChatError as error:
            if error.path.startswith("unknown_keys"):
                error = error.at(EXTRA_ATTRIBUTE)
            self.fail(node, error.at(path).path, error.detail)

    def items(self, node: _Node, path: str) -> list[KernelContent]:
        items: list[KernelContent] = []
        elements = 0
        for child in node.children:
            if isinstance(child, str):
                if child.strip():
                    items.append(TextContent(child))
                continue
            where = f"{path}.items[{elements}]"
            elements += 1
            if child.tag in {"annotation", "streaming_annotation"}:
                self.annotation(child, items, where)
                continue
            reader = _ITEM_READERS.get(child.tag)
            if reader is None:
                items.append(TextContent(_markup(child)))
                continue
            extras = self.extras(child, where)
            try:
                item = reader(self, child, extras, where)
                if "metadata" in extras:
                    item.metadata = extras["metadata"]
            except SemanticChatError as error:
                if isinstance(error, FormatError) and error.path.startswith(path):
                    raise
                self.fail(child, error.at(where).path, error.detail)
            items.append(item)
        return items

    def annotation(self, node: _Node, items: list[KernelContent], path: str) -> None:
        """Hang Semantic Kernel's ``<annotation>`` on the text item before it."""
        target = next((item for item in reversed(items) if type(item) is TextContent), None)
        if target is None:
            self.fail(node, path, "an annotation with no text before it to cite for")
        get = node.attributes.get

        def number(name: str) -> int | None:
            value = get(name)
            if not value:
                return None
            try:
                return int(value)
            except ValueError:
                self.fail(node, f"{path}.{name}", f"expected an integer, got {value!r}")

        kind = get("type")
        citation = Citation(
            cited_text=get("quote") or None,
            url=get("url") or None,
            title=get("title") or None,
            file_id=get("file_id") or None,
            text_start=number("start_index"),
            text_end=number("end_index"),
            metadata={"semantic_kernel": {"type": kind}} if kind else {},
        )
        assert isinstance(target, TextContent)
        target.citations = (*target.citations, citation)

    def text_item(self, node: _Node, extras: dict[str, Any], path: str) -> KernelContent:
        text = self.body(node, extras, path)
        if extras.get("kind") == "refusal":
            return RefusalContent(text)
        citations: tuple[Citation, ...] = ()
        if "citations" in extras:
            from ..serialization.citations import read_citations  # noqa: PLC0415

            try:
                citations = read_citations(extras["citations"], strict=False)  # as from_json
            except SemanticChatError as error:
                raise error.at(f"{EXTRA_ATTRIBUTE}.citations") from None
        return TextContent(text, citations=citations)

    def binary_item(self, node: _Node, extras: dict[str, Any], path: str) -> KernelContent:
        tag = node.tag
        cls: type[BinaryContent]
        if extras.get("kind") == "file" or tag in ("file_reference", "streaming_file_reference"):
            cls = FileContent
        else:
            cls = {"image": ImageContent, "audio": AudioContent}.get(tag, BinaryContent)
        fields: dict[str, Any] = {}
        if cls is FileContent and "filename" in extras:
            fields["filename"] = extras["filename"]
        if cls is ImageContent and "detail" in extras:
            fields["detail"] = extras["detail"]
        data = self.body(node, extras, path).strip()
        uri = self.attribute(node, extras, "uri", path)
        file_id = (
            self.attribute(node, extras, "file_id", path)
            if tag in ("file_reference", "streaming_file_reference")
            else extras.get("file_id")
        )
        sources = (bool(data), uri is not None, file_id is not None)
        if sum(sources) != 1:
            self.fail(node, path, f"<{tag}> needs one of a data URI, uri and file_id, "
                                  f"got {sum(sources) or 'none'}")
        if data:
            if data[:5].lower() != "data:":
                self.fail(node, path, f"<{tag}> holds text that is not a data URI")
            item = cls.from_data_uri(data, **fields)
            if _SK_RAW_DATA.match(data) and item.mime_type:  # SK's raw bytes: "data:x/y;,"
                item.mime_type = item.mime_type.rstrip(";")
            return item
        return cls(uri=uri, file_id=file_id, mime_type=extras.get("mime_type"), **fields)

    def call_item(self, node: _Node, extras: dict[str, Any], path: str) -> KernelContent:
        name = self.attribute(node, extras, "name", path)
        if name is None:
            self.fail(node, f"{path}.name", "a function call needs a name")
        text = self.body(node, extras, path)
        arguments: Any = text
        kind = extras.get("arguments")
        if kind == "none":
            arguments = None
        elif kind == "object":
            try:
                arguments = json.loads(text)
            except json.JSONDecodeError as error:
                self.fail(node, f"{path}.arguments", f"not JSON: {error}")
        return FunctionCallContent(
            self.attribute(node, extras, "id", path), name, arguments, index=extras.get("index")
        )

    def result_item(self, node: _Node, extras: dict[str, Any], path: str) -> KernelContent:
        kind = extras.get("result")
        result: Any
        if kind == "none":
            result = None
        elif kind == "items":
            result = self.items(node, f"{path}.result")
        else:
            result = self.body(node, extras, path)
            if kind == "json":
                try:
                    result = json.loads(result)
                except json.JSONDecodeError as error:
                    self.fail(node, f"{path}.result", f"not JSON: {error}")
        return FunctionResultContent(
            self.attribute(node, extras, "id", path),
            result,
            name=self.attribute(node, extras, "name", path),
            is_error=extras.get("is_error", False),
        )

    def reasoning_item(self, node: _Node, extras: dict[str, Any], path: str) -> KernelContent:
        return ReasoningContent(
            self.body(node, extras, path),
            signature=extras.get("signature"),
            encrypted=extras.get("encrypted"),
            provider=extras.get("provider"),
        )


_ITEM_READERS: dict[str, Callable[[_Reader, _Node, dict[str, Any], str], KernelContent]] = {
    "text": _Reader.text_item,
    "image": _Reader.binary_item,
    "audio": _Reader.binary_item,
    "binary": _Reader.binary_item,
    "file_reference": _Reader.binary_item,
    "streaming_file_reference": _Reader.binary_item,
    "function_call": _Reader.call_item,
    "function_result": _Reader.result_item,
    "reasoning": _Reader.reasoning_item,
}
