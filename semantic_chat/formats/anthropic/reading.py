"""Reading Anthropic Messages payloads (``system`` and ``messages``) and responses.

Every block maps to an item, and what the model has no field for is kept under
``metadata["anthropic"]`` (``fields``: a block's or message's other keys, such as
``cache_control``; ``parts`` / ``blocks``: a content or system list that held one text block;
``source``: how a document's bytes were sent) so that ``to_payload(from_payload(p)) == p``.
A user turn that starts with ``tool_result`` blocks is read as a ``tool`` message of those
results and, when other blocks follow, a ``user`` message of the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ...contents import (
    FileContent,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    KernelContent,
    ReasoningContent,
    TextContent,
    UnknownContent,
)
from ...contents.unknown import labelled_class
from ...errors import FormatError, SemanticChatError, describe_type
from ...history import ChatHistory
from ...jsoncodec import model_json_value
from ...labels import AuthorRole
from ...media import check_base64
from ...message import ChatMessageContent
from ...trusted import (
    new_call,
    new_history,
    new_image,
    new_message,
    new_result,
    new_text,
    new_text_message,
)
from ..wire import as_plain, read_parts, require, set_hints
from .citations import read_citation
from .shared import (
    FORMAT,
    HINTS,
    IMAGE_TYPES,
    KEPT_BLOCK_TYPES,
    NEWER_MARK,
    PROVIDER,
    ROLES,
    codecs,
    finish_reason,
    read_usage,
    usage_fields,
    without_unset_nulls,
)

__all__ = ["from_payload", "from_response"]

_USER, _ASSISTANT, _TOOL = AuthorRole.USER, AuthorRole.ASSISTANT, AuthorRole.TOOL
_SYSTEM = AuthorRole.SYSTEM
_ROLES = {"user": _USER, "assistant": _ASSISTANT}
_RESPONSE_KEYS = frozenset((
    "id", "type", "role", "model", "content", "stop_reason", "stop_sequence", "usage"
))


def from_payload(messages: Iterable[Any], system: Any = None) -> ChatHistory:
    """Read an Anthropic ``messages`` list and its top-level ``system`` into a history.

    ``system`` (a string, or a list of text blocks) becomes one leading system message.
    Messages and blocks may be dicts or SDK objects.

    Raises:
        FormatError: a message or block is malformed (not an object, a role the format does
            not have, a ``tool_use`` without ``id`` ...); the message names the location,
            e.g. ``messages[3].content[1].type`` or ``system[0].text``.
    """
    if isinstance(messages, (str, bytes, dict)) or not hasattr(messages, "__iter__"):
        raise FormatError.mismatch("messages", "a list of messages", describe_type(messages))
    read: list[ChatMessageContent] = []
    if system is not None:
        read.append(_read_system(_plain(system, "system")))
    call_names: dict[str, str] = {}
    read_plain = _read_plain_message
    for index, raw in enumerate(messages):
        if type(raw) is dict:
            plain = read_plain(raw, call_names)
            if plain is not None:
                read.append(plain)
                continue
        path = f"messages[{index}]"
        message = as_plain(raw, path)
        if type(message) is not dict:
            raise FormatError.mismatch(path, "a message object", describe_type(message))
        read.extend(_read_message(message, path, call_names))
    return new_history(read)


def from_response(message: Any) -> ChatMessageContent:
    """Read an Anthropic ``Message`` (a dict or SDK object) as the assistant's message.

    The message gets the response's ``id``, ``model`` (as ``model_id``), ``stop_reason`` as
    its ``finish_reason`` (see `shared.finish_reason`) and ``usage`` (see
    `shared.read_usage`); ``stop_reason``, ``stop_sequence``, the usage's other keys and the
    response's other fields (``container`` ...) are kept in ``metadata["anthropic"]``, and
    ``inner_content`` is the object given. The response's and its usage's ``None`` fields
    are left out (an SDK object's ``model_dump()`` writes every field it knows); blocks are
    read as they are.

    Raises:
        FormatError: the object is not a message, its role is not ``assistant``, or a block
            is malformed; the message names the location (``message.content[0].id``).
    """
    data = as_plain(message, "message")
    if type(data) is not dict:
        raise FormatError.mismatch("message", "a Message object", describe_type(data))
    data = _without_none(data)
    role = data.get("role", "assistant")
    if role != "assistant":
        raise FormatError(f"a response is the assistant's, got role {role!r}", path="message.role")
    content = [without_unset_nulls(block) for block in require(data, "content", list, "message")]
    items = read_parts(content, "message.content", _reader({}))
    reply = new_message(_ASSISTANT, items)
    reply.id = _optional_str(data, "id", "message")
    reply.model_id = _optional_str(data, "model", "message")
    hints: dict[str, Any] = {}
    if len(items) == 1 and type(items[0]) is TextContent:
        hints["parts"] = True  # content is always a list of blocks
    stop_reason = _optional_str(data, "stop_reason", "message")
    if stop_reason is not None:
        reply.finish_reason = finish_reason(stop_reason)
        hints["stop_reason"] = stop_reason
    stop_sequence = _optional_str(data, "stop_sequence", "message")
    if stop_sequence is not None:
        hints["stop_sequence"] = stop_sequence
    usage = data.get("usage")
    if usage is not None:
        if type(usage) is not dict:
            raise FormatError.mismatch("message.usage", "a usage object", describe_type(usage))
        reply.usage = read_usage(usage)
        extra_usage = usage_fields(usage)
        if extra_usage:
            hints["usage"] = extra_usage
    response = {key: value for key, value in data.items() if key not in _RESPONSE_KEYS}
    if response:
        hints["response"] = response
    set_hints(reply, HINTS, hints)
    reply.inner_content = message
    return reply


# --- the common shapes, quickly -----------------------------------------------------------


def _read_plain_message(
    message: dict[str, Any], call_names: dict[str, str]
) -> ChatMessageContent | None:
    """Read the common shapes that need no hints quickly; ``None`` sends the rest the long way.

    Mirrors the writer's quick path: a role and a string; a list of two or more plain text
    blocks; a user's text and base64 images; an assistant's text and ``tool_use`` blocks; a
    turn of string ``tool_result`` blocks. Every value is checked here, so the objects are
    made with the `semantic_chat.trusted` constructors.
    """
    if len(message) != 2:
        return None
    role = _ROLES.get(message.get("role"))  # type: ignore[arg-type]  # any key: None if unknown
    content = message.get("content")
    if role is None:
        return None
    if type(content) is str:
        return new_text_message(role, content)
    if type(content) is not list or not content:
        return None
    items: list[KernelContent] = []
    append = items.append
    results = 0  # tool_result blocks: only at the start, and then nothing else
    for block in content:
        if type(block) is not dict:
            return None
        kind = block.get("type")
        if kind == "tool_result":
            call_id, answer = block.get("tool_use_id"), block.get("content")
            if (
                results != len(items)
                or role is not _USER
                or len(block) != 3
                or type(call_id) is not str
                or type(answer) is not str
            ):
                return None
            results += 1
            append(new_result(call_id, answer, call_names.get(call_id), False))
            continue
        if results:
            return None  # blocks after results: a tool message and a user message
        if kind == "text":
            text = block.get("text")
            if len(block) != 2 or type(text) is not str:
                return None
            append(new_text(text))
        elif kind == "tool_use":
            call = _plain_call(block, role)
            if call is None:
                return None
            call_names[block["id"]] = block["name"]  # both checked to be str
            append(call)
        elif kind == "image" and role is _USER:
            image = _plain_image(block)
            if image is None:
                return None
            append(image)
        else:
            return None
    if results:
        return new_message(_TOOL, items)
    if len(items) == 1 and type(items[0]) is TextContent:
        return None  # one text block in a list keeps the "parts" hint: the long way
    return new_message(role, items)


def _plain_call(block: dict[str, Any], role: AuthorRole) -> FunctionCallContent | None:
    """A ``tool_use`` block of id, name and input only, or ``None`` for anything else."""
    call_id, name, arguments = block.get("id"), block.get("name"), block.get("input")
    if (
        role is not _ASSISTANT
        or len(block) != 4
        or type(call_id) is not str
        or type(name) is not str
        or type(arguments) is not dict
    ):
        return None
    try:
        checked = model_json_value(arguments, "arguments")  # a copy: shares nothing mutable
    except SemanticChatError:
        return None  # the general reader locates what is not JSON
    return new_call(call_id, name, checked, None)


def _plain_image(block: dict[str, Any]) -> ImageContent | None:
    """A base64 or URL image block with no other keys, or ``None`` for anything else."""
    source = block.get("source")
    if len(block) != 2 or type(source) is not dict:
        return None
    kind = source.get("type")
    if kind == "base64" and len(source) == 3:
        payload, media_type = source.get("data"), source.get("media_type")
        if type(payload) is not str or media_type not in IMAGE_TYPES:
            return None
        try:
            check_base64(payload)
        except ValueError:
            return None
        return new_image(payload, media_type, None, None)
    if kind == "url" and len(source) == 2:
        url = source.get("url")
        if type(url) is str and url[:5].lower() != "data:":
            return new_image(None, None, url, None)
    return None


# --- the general reader -------------------------------------------------------------------


def _read_system(system: Any) -> ChatMessageContent:
    """The top-level ``system``: a string, or text blocks (kept as blocks by a hint)."""
    if type(system) is str:
        return ChatMessageContent(_SYSTEM, items=[TextContent(system)])
    if type(system) is not list:
        raise FormatError.mismatch("system", "a string or a list of text blocks",
                                   describe_type(system))
    items: list[KernelContent] = []
    for index, given in enumerate(system):
        where = f"system[{index}]"
        block = _plain(given, where)
        if type(block) is not dict:
            raise FormatError.mismatch(where, "a text block object", describe_type(block))
        kind = require(block, "type", str, where)
        if kind != "text":
            raise FormatError(
                f"the system prompt holds text blocks only, got {kind!r}", path=f"{where}.type"
            )
        items.append(_read_text(block, where))
    message = ChatMessageContent(_SYSTEM, items=items)
    message.metadata[HINTS] = {"blocks": True}
    return message


def _read_message(
    message: dict[str, Any], path: str, call_names: dict[str, str]
) -> list[ChatMessageContent]:
    """One turn as one message, or two: a user turn's leading results, then the rest."""
    role = require(message, "role", str, path)
    if role not in ROLES:
        raise FormatError(f"{FORMAT} has no role {role!r}", path=f"{path}.role")
    content = require(message, "content", (str, list), path)
    fields = {key: value for key, value in message.items() if key not in ("role", "content")}
    hints: dict[str, Any] = {"fields": fields} if fields else {}
    if type(content) is str:
        items: list[KernelContent] = [TextContent(content)]
    else:
        items = read_parts(content, f"{path}.content", _reader(call_names))
    lead = 0
    if role == "user":
        while lead < len(items) and type(items[lead]) is FunctionResultContent and (
            content[lead].get("type") == "tool_result"
        ):
            lead += 1
    if lead:
        results = ChatMessageContent(_TOOL, items=items[:lead])
        set_hints(results, HINTS, hints)
        if lead == len(items):
            return [results]
        return [results, ChatMessageContent(_USER, items=items[lead:])]
    if type(content) is list and len(items) == 1 and type(items[0]) is TextContent:
        hints["parts"] = True
    read = ChatMessageContent(_ROLES[role], items=items)
    set_hints(read, HINTS, hints)
    return [read]


def _reader(call_names: dict[str, str]) -> Callable[[dict[str, Any], str], KernelContent]:
    """The block reader for `read_parts`, naming results after the calls read before them."""

    def read(block: dict[str, Any], path: str) -> KernelContent:
        return _read_block(block, path, call_names)

    return read


def _read_block(
    block: dict[str, Any], path: str, call_names: dict[str, str]
) -> KernelContent:
    kind = require(block, "type", str, path)
    if kind == "text":
        return _read_text(block, path)
    if kind == "image":
        return _read_image(block, path)
    if kind == "document":
        return _read_document(block, path)
    if kind == "tool_use":
        return _read_tool_use(block, path, call_names)
    if kind == "tool_result":
        return _read_tool_result(block, path, call_names)
    if kind == "thinking":
        thinking = require(block, "thinking", str, path)
        signature = block.get("signature")
        if signature is not None and type(signature) is not str:
            raise FormatError.mismatch(f"{path}.signature", "str", describe_type(signature))
        item: KernelContent = ReasoningContent(thinking, signature=signature, provider=PROVIDER)
        _keep_fields(item, block, ("type", "thinking", "signature"))
        return item
    if kind == "redacted_thinking":
        data = require(block, "data", str, path)
        item = ReasoningContent("", encrypted=data, provider=PROVIDER)
        _keep_fields(item, block, ("type", "data"))
        return item
    decoded = codecs.decode(block, path)
    if decoded is not None:
        return decoded
    return _unknown(kind, block, path)


def _read_text(block: dict[str, Any], path: str) -> TextContent:
    text = require(block, "text", str, path)
    citations = block.get("citations")
    if type(citations) is list and citations:
        where = f"{path}.citations"
        item = TextContent(
            text,
            citations=[read_citation(c, f"{where}[{i}]") for i, c in enumerate(citations)],
        )
        _keep_fields(item, block, ("type", "text", "citations"))
        return item
    if citations is not None and type(citations) is not list:
        raise FormatError.mismatch(f"{path}.citations", "a list", describe_type(citations))
    item = TextContent(text)
    _keep_fields(item, block, ("type", "text"))  # an empty or null list is kept as it came
    return item


def _read_image(block: dict[str, Any], path: str) -> ImageContent:
    source = require(block, "source", dict, path)
    where = f"{path}.source"
    kind = require(source, "type", str, where)
    known: tuple[str, ...]
    try:
        if kind == "base64":
            known = ("type", "media_type", "data")
            media_type = require(source, "media_type", str, where)
            item = ImageContent.from_base64(
                require(source, "data", str, where), mime_type=media_type
            )
        elif kind == "url":
            known = ("type", "url")
            item = ImageContent(uri=require(source, "url", str, where))
        elif kind == "file":
            known = ("type", "file_id")
            item = ImageContent(file_id=require(source, "file_id", str, where))
        else:
            raise FormatError(f"unknown image source type {kind!r}", path=f"{where}.type")
    except FormatError:
        raise
    except SemanticChatError as error:  # bad base64, a bad media type
        raise FormatError(error.detail, path=f"{where}.{_wire(error.path)}") from None
    _keep_source(item, source, known)
    _keep_fields(item, block, ("type", "source"))
    return item


def _read_document(block: dict[str, Any], path: str) -> KernelContent:
    source = require(block, "source", dict, path)
    where = f"{path}.source"
    kind = require(source, "type", str, where)
    title = block.get("title")
    if title is not None and type(title) is not str:
        raise FormatError.mismatch(f"{path}.title", "str", describe_type(title))
    known_block = ("type", "source", "title") if title is not None else ("type", "source")
    hints: dict[str, Any] = {}
    known: tuple[str, ...]
    try:
        if kind == "base64":
            known = ("type", "media_type", "data")
            media_type = require(source, "media_type", str, where)
            item = FileContent.from_base64(
                require(source, "data", str, where), mime_type=media_type, filename=title
            )
            if media_type.partition(";")[0].strip().lower() != "application/pdf":
                hints["source"] = "base64"
        elif kind == "text":
            known = ("type", "media_type", "data")
            media_type = require(source, "media_type", str, where)
            data = require(source, "data", str, where)
            item = FileContent(
                data=data.encode("utf-8", "surrogatepass"), mime_type=media_type, filename=title
            )
            hints["source"] = "text"
        elif kind == "url":
            known = ("type", "url")
            item = FileContent(uri=require(source, "url", str, where), filename=title)
        elif kind == "file":
            known = ("type", "file_id")
            item = FileContent(file_id=require(source, "file_id", str, where), filename=title)
        elif kind == "content":
            require(source, "content", (str, list), where)
            return _unknown("document", block, path)
        else:
            raise FormatError(f"unknown document source type {kind!r}", path=f"{where}.type")
    except FormatError:
        raise
    except SemanticChatError as error:  # bad base64, a bad media type
        raise FormatError(error.detail, path=f"{where}.{_wire(error.path)}") from None
    set_hints(item, HINTS, hints)
    _keep_source(item, source, known)
    _keep_fields(item, block, known_block)
    return item


def _read_tool_use(
    block: dict[str, Any], path: str, call_names: dict[str, str]
) -> FunctionCallContent:
    call_id = require(block, "id", str, path)
    name = require(block, "name", str, path)
    arguments = require(block, "input", dict, path)
    try:
        item = FunctionCallContent(call_id, name, arguments)
    except SemanticChatError as error:  # a value JSON cannot hold: located in ``input``
        located = path + ".input" + error.path.removeprefix("arguments")
        raise FormatError(error.detail, path=located) from None
    call_names[call_id] = name
    _keep_fields(item, block, ("type", "id", "name", "input"))
    return item


def _read_tool_result(
    block: dict[str, Any], path: str, call_names: dict[str, str]
) -> FunctionResultContent:
    call_id = require(block, "tool_use_id", str, path)
    known = ["type", "tool_use_id", "content"]
    content = block.get("content")
    result: Any
    if content is None:
        result = None
        if "content" in block:
            known.remove("content")  # an explicit null: kept as it came
    elif type(content) is str:
        result = content
    elif type(content) is list:
        result = read_parts(content, f"{path}.content", _reader(call_names))
    else:
        raise FormatError.mismatch(
            f"{path}.content", "a string or a list of blocks", describe_type(content)
        )
    failed = block.get("is_error")
    if failed is True:
        known.append("is_error")  # the flag; an explicit false is kept as it came
    elif failed is not None and type(failed) is not bool:
        raise FormatError.mismatch(f"{path}.is_error", "bool", describe_type(failed))
    item = FunctionResultContent(
        call_id, result, name=call_names.get(call_id), is_error=failed is True
    )
    _keep_fields(item, block, tuple(known))
    return item


def _unknown(kind: str, block: dict[str, Any], path: str) -> UnknownContent:
    """A block this code does not model, kept whole (server tools, newer types).

    A type newer than `KEPT_BLOCK_TYPES` is marked in the hints (`NEWER_MARK`), so the
    writer sends it back while refusing unknown items of other origins.
    """
    found = labelled_class(kind)
    if found is not None:
        # Such an item in our JSON is one of that class with newer keys, its metadata (the
        # mark that makes it an Anthropic block) among them: it would not come back as this.
        name = found.__name__
        raise FormatError(
            f"{kind!r} is the label of {name}: build a {name} instead", path=f"{path}.type"
        )
    try:
        item = UnknownContent(kind, {key: value for key, value in block.items() if key != "type"})
    except SemanticChatError as error:  # a blank type, a value not JSON
        where = f"{path}.type" if error.path == "type" else f"{path}{_wire(error.path, '')}"
        raise FormatError(error.detail, path=where) from None
    if kind not in KEPT_BLOCK_TYPES:
        item.metadata[HINTS] = {NEWER_MARK: True}
    return item


def _keep_fields(item: KernelContent, block: dict[str, Any], known: tuple[str, ...]) -> None:
    """Keep a block's keys the item has no field for (``cache_control`` ...) as hints."""
    if len(block) > len(known) or any(key not in known for key in block):
        fields = {key: value for key, value in block.items() if key not in known}
        if fields:
            try:
                item.metadata.setdefault(HINTS, {})["fields"] = fields
            except SemanticChatError as error:
                raise FormatError(error.detail, path=error.path) from None


def _keep_source(item: KernelContent, source: dict[str, Any], known: tuple[str, ...]) -> None:
    """Keep a source's keys the item has no field for as hints."""
    extra = {key: value for key, value in source.items() if key not in known}
    if extra:
        item.metadata.setdefault(HINTS, {})["source_fields"] = extra


def _wire(field_path: str, default: str = "data") -> str:
    """The wire key an item's field error names: ``mime_type`` is ``media_type``."""
    if field_path.startswith("mime_type"):
        return "media_type"
    if field_path.startswith("fields"):
        return field_path.removeprefix("fields").lstrip(".")
    return default


def _plain(value: Any, path: str) -> Any:
    """An SDK object as plain dicts; anything else as it is, for the caller to check."""
    return as_plain(value, path) if hasattr(value, "model_dump") else value


def _optional_str(data: dict[str, Any], key: str, path: str) -> str | None:
    value = data.get(key)
    if value is not None and type(value) is not str:
        raise FormatError.mismatch(f"{path}.{key}", "str", describe_type(value))
    return value


def _without_none(value: dict[str, Any]) -> dict[str, Any]:
    """A response without its ``None`` fields, nor those of its ``usage``.

    Blocks are kept as they are: there ``null`` is a value (a citation's
    ``document_title``, a tool's input).
    """
    kept = {key: element for key, element in value.items() if element is not None}
    usage = kept.get("usage")
    if type(usage) is dict:
        kept["usage"] = {key: element for key, element in usage.items() if element is not None}
    return kept
