"""Writing histories as OpenAI Chat Completions payloads."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ...contents import (
    AudioContent,
    FileContent,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    KernelContent,
    RefusalContent,
    TextContent,
)
from ...errors import FormatError
from ...labels import PLAIN_TEXT
from ...media import canonical_mime_type
from ...message import ChatMessageContent
from ..wire import (
    WEB_IMAGE_TYPES,
    OnUnsupported,
    arguments_text,
    compact_json,
    data_url,
    error_output,
    get_hints,
    image_type_refused,
    lost_history_keys,
    lost_metadata,
    lost_subclass_fields,
    policy,
    report_metadata,
    stored_items,
    unfetchable_uri,
    unsupported,
    unsupported_field,
)
from .citations import write_annotations
from .shared import (
    AUDIO_FORMAT,
    FORMAT,
    HINTS,
    INSTRUCTION_ROLES,
    PLAIN_ROLES,
    ROLES,
    codecs,
    file_name,
)

__all__ = [
    "to_payload",
]


def to_payload(
    history: Iterable[ChatMessageContent], *, on_unsupported: OnUnsupported | None = None
) -> list[dict[str, Any]]:
    """Write a history as a Chat Completions ``messages`` list.

    A message holding several function results becomes one tool message per result. JSON
    results that are not strings are written as compact JSON text, and an error result's
    text starts with ``Error: ``. What the format cannot carry is refused or left out as
    ``on_unsupported`` says (by default: items refused; a tool message's ``name`` and metadata
    left out with a `ConversionWarning`); ids, usage, finish reasons and model ids, which
    requests never carry, are left out without a word. A message whose items were all left
    out is left out (the API refuses an empty content, and an assistant message that says
    nothing).

    Raises:
        UnsupportedContentError: an item the format cannot carry (reasoning, an image in a
            tool result or an assistant message, a plugin type with no encoder ...), named by
            message and item index, unless ``on_unsupported`` is ``"warn"`` or ``"drop"``;
            with ``"error"``, also a field it cannot carry (``messages[3].name``).
        FormatError: a role the format does not have.
        InvalidValueError: ``on_unsupported`` is not one of its values.
    """
    on_unsupported = policy(on_unsupported)
    lost_history_keys(history, FORMAT, on_unsupported)
    payload: list[dict[str, Any]] = []
    for index, message in enumerate(history):
        try:
            written = _write_plain_message(message)
        except Exception:  # a message broken by hand: the general writer locates the problem
            written = None
        if written is not None:
            payload.append(written)
        else:
            _write_message(message, f"messages[{index}]", payload, on_unsupported)
    return payload


def _write_plain_message(message: ChatMessageContent) -> dict[str, Any] | None:  # noqa: PLR0915
    """Write the common shapes without hints quickly; ``None`` sends the rest the long way.

    Covers a message of plain text items, a user's images and wav/mp3 clips, an assistant's
    text and tool calls, and a tool message with one string or object result, none with
    metadata. One function on purpose (the statements it has): a call per message would cost
    more than the branches it saves. A subclass goes the long way, which reports its fields.
    """
    if message._metadata or type(message) is not ChatMessageContent:
        return None
    role = PLAIN_TEXT[message._role]  # the slots behind the properties: this is a hot path
    items = message._items
    if role == "tool":
        if len(items) != 1 or message._name is not None:
            return None
        (result,) = items  # unpacking, not the collection's Python __getitem__
        if (
            type(result) is not FunctionResultContent
            or result._metadata
            or type(result._call_id) is not str
            or result._is_error is not False
        ):  # an error result is written with its prefix by the general writer
            return None
        content = result._result
        if type(content) is not str:
            if type(content) is not dict:  # a list may hold items: the general writer
                return None
            try:
                content = compact_json(content, "result")
            except FormatError:
                return None  # the general writer locates it in the history
        return {"role": "tool", "tool_call_id": result._call_id, "content": content}
    if role not in PLAIN_ROLES:
        return None
    if len(items) == 1:  # most messages are one text: no lists to build
        (item,) = items
        if type(item) is TextContent and not item._metadata and not item._citations:
            text, author = item._text, message._name
            if type(text) is not str:
                return None
            if author is None:
                return {"role": role, "content": text}
            if type(author) is not str:
                return None
            return {"role": role, "name": author, "content": text}
    texts: list[str] = []
    calls: list[dict[str, Any]] = []
    media: list[dict[str, Any]] | None = None  # parts, once a non-text item appears
    for item in items:
        if item._metadata:
            return None
        if type(item) is TextContent:
            text = item._text
            if calls or type(text) is not str or item._citations:
                return None  # text after a call (the order rule), or citations to report
            texts.append(text)
            if media is not None:
                media.append({"type": "text", "text": text})
        elif type(item) is FunctionCallContent and role == "assistant":
            call_id, name, arguments = item._id, item._name, item._arguments
            if type(call_id) is not str or type(name) is not str or type(arguments) is not str:
                return None
            body = {"name": name, "arguments": arguments}
            calls.append({"id": call_id, "type": "function", "function": body})
        elif role == "user" and (part := _plain_media_part(item)) is not None:
            if media is None:
                media = [{"type": "text", "text": text} for text in texts]
            media.append(part)
        else:
            return None
    written: dict[str, Any] = {"role": role}
    author = message._name
    if author is not None:
        if type(author) is not str:
            return None
        written["name"] = author
    if media is not None:
        written["content"] = media
    elif len(texts) == 1:
        written["content"] = texts[0]
    elif texts or role != "assistant":
        written["content"] = [{"type": "text", "text": text} for text in texts]
    else:
        written["content"] = None  # as the API sends an answer that is only tool calls
    if calls:
        written["tool_calls"] = calls
    return written


_WEB = ("https://", "http://")
"""What a URI the quick path writes starts with (others, and YouTube's, go the long way)."""


def _plain_media_part(item: KernelContent) -> dict[str, Any] | None:
    """The part for an image or wav/mp3 clip a user sends, or ``None`` for anything else."""
    if type(item) is ImageContent and item._file_id is None:
        uri, detail = item._uri, item._detail
        if (
            uri is not None
            and (type(uri) is not str or not uri.startswith(_WEB) or "youtu" in uri)
        ) or (detail is not None and type(detail) is not str):
            return None  # the general writer checks the URI (`unfetchable_uri`)
        mime_type = item._mime_type
        if mime_type not in WEB_IMAGE_TYPES and (uri is None or mime_type is not None):
            return None  # an alias (image/jpg) or a type OpenAI refuses: the general writer
        body = {"url": uri if uri is not None else data_url(item)}
        if detail is not None:
            body["detail"] = detail
        return {"type": "image_url", "image_url": body}
    if type(item) is AudioContent and item._uri is None and item._file_id is None:
        mime_type = item._mime_type
        audio_format = AUDIO_FORMAT.get(mime_type) if type(mime_type) is str else None
        if audio_format is not None:
            clip: dict[str, Any] = {"data": item.base64, "format": audio_format}
            return {"type": "input_audio", "input_audio": clip}
    return None


def _write_message(
    message: ChatMessageContent,
    path: str,
    payload: list[dict[str, Any]],
    on_unsupported: OnUnsupported | None,
) -> None:
    role = str(message.role)
    if role not in ROLES:
        raise FormatError(f"{FORMAT} has no role {role!r}", path=f"{path}.role")
    items = stored_items(message, path)
    report_metadata(message, items, path, FORMAT, on_unsupported, codecs=codecs)
    hints = get_hints(message, HINTS)
    if not items and role in INSTRUCTION_ROLES and not hints:
        return  # an instruction of nothing (Anthropic's "system": []) says nothing
    results = [(i, item) for i, item in items if isinstance(item, FunctionResultContent)]
    if role in ("tool", "function") and message.name is not None:
        what = f"the name of a {role} message (a result's name is its call's)"
        unsupported_field(on_unsupported, FORMAT, f"{path}.name", what)
    if role in ("tool", "function") or results:
        for i, result in results:
            written_result = _write_result(
                role, result, f"{path}.items[{i}]", on_unsupported, payload
            )
            payload.append(written_result)
        rest = [(i, item) for i, item in items if not isinstance(item, FunctionResultContent)]
        if role in ("tool", "function"):
            for i, item in rest:
                where = f"{path}.items[{i}]"
                unsupported(on_unsupported, FORMAT, where, item, f"in a {role} message")
            return
        if not rest:
            return
        items = rest
    written: dict[str, Any] = {"role": role}
    if message.name is not None:
        written["name"] = message.name
    if role == "assistant":
        _write_assistant(items, path, written, hints, on_unsupported)
        if items and written.get("content") is None and not written.keys() & _SAYS_SOMETHING:
            return  # every item was left out: the API refuses a message that says nothing
    else:
        parts = [
            part
            for i, item in items
            if (part := _write_part(item, role, f"{path}.items[{i}]", on_unsupported)) is not None
        ]
        if items and not parts:
            return  # every item was left out: the API refuses an empty content
        if len(parts) == 1 and parts[0]["type"] == "text" and not hints.get("parts"):
            if set(parts[0]) == {"type", "text"}:
                written["content"] = parts[0]["text"]
            else:
                written["content"] = parts
        else:
            written["content"] = parts
    written.update(hints.get("fields", {}))
    payload.append(written)


_SAYS_SOMETHING = frozenset(("refusal", "tool_calls", "function_call", "audio"))
"""What an assistant message may hold besides its content."""


def _write_assistant(
    items: list[tuple[int, KernelContent]],
    path: str,
    written: dict[str, Any],
    hints: dict[str, Any],
    on_unsupported: OnUnsupported | None,
) -> None:
    content: list[dict[str, Any]] = []
    refusals: list[str] = []
    calls: list[dict[str, Any]] = []
    as_parts = bool(hints.get("parts"))
    # Only a message read with annotations (a response's) gets them back: requests have none.
    annotations: list[dict[str, Any]] | None = [] if hints.get("annotations") else None
    # Annotations index the texts joined: each text's spans move by the texts before it.
    offset = 0
    several = annotations is not None and sum(isinstance(it, TextContent) for _, it in items) > 1
    moved = _refusal_before_content(items, as_parts)
    if moved is not None:  # read back, the refusal follows the content
        what = "a refusal's place before the content after it (the refusal is read last)"
        unsupported_field(on_unsupported, FORMAT, f"{path}.items[{moved}]", what)
    for i, item in items:
        where = f"{path}.items[{i}]"
        encoded = codecs.encode(item, where)
        if encoded is not None:
            content.append(encoded)
        elif isinstance(item, TextContent):
            content.append(_with_fields({"type": "text", "text": item.text}, item))
            if annotations is None:
                _lost_citations(item, where, on_unsupported)
            else:
                annotations += write_annotations(
                    item.citations, item.text, where, on_unsupported, offset, bounded=several
                )
            offset += len(item.text)
        elif isinstance(item, RefusalContent):
            if as_parts and not get_hints(item, HINTS).get("key"):
                content.append(_with_fields({"type": "refusal", "refusal": item.text}, item))
            else:
                refusals.append(item.text)
        elif isinstance(item, FunctionCallContent):
            if item.id is None:
                written["function_call"] = {
                    "name": item.name,
                    "arguments": arguments_text(item, where),
                }
            else:
                calls.append(_write_tool_call(item, where))
        elif isinstance(item, AudioContent) and item.file_id is not None:
            # A request refers to an earlier audio reply by id only; what a response sent
            # with it (data, transcript, expiry) stays in the item's metadata.
            written["audio"] = {"id": item.file_id}
        else:
            unsupported(on_unsupported, FORMAT, where, item, "in an assistant message")
    plain = all(set(part) == {"type", "text"} for part in content)
    if content or as_parts:
        if len(content) == 1 and plain and not as_parts:
            written["content"] = content[0]["text"]
        else:
            written["content"] = content
    elif not hints.get("no_content"):
        written["content"] = None
    if refusals:
        written["refusal"] = "\n".join(refusals)
    if calls:
        written["tool_calls"] = calls
    if annotations is not None:
        written["annotations"] = annotations


def _refusal_before_content(items: list[tuple[int, KernelContent]], as_parts: bool) -> int | None:
    """The index of a refusal written to the message's ``refusal`` with content after it.

    The message's ``refusal`` is read after its ``content``: such a refusal moves.
    """
    refused: int | None = None
    for index, item in items:
        if isinstance(item, RefusalContent):
            if refused is None and not (as_parts and not get_hints(item, HINTS).get("key")):
                refused = index
        elif refused is not None and (
            isinstance(item, TextContent) or codecs.encoder_for(item) is not None
        ):
            return refused
    return None


def _lost_citations(
    item: TextContent, path: str, on_unsupported: OnUnsupported | None
) -> None:
    """Report a text's citations, which a request message cannot carry, as a field loss."""
    if item.citations:
        what = (
            "citations in a request message (it has no annotations; an assistant message "
            "read with them writes them back)"
        )
        unsupported_field(on_unsupported, FORMAT, f"{path}.citations", what)


def _write_tool_call(item: FunctionCallContent, path: str) -> dict[str, Any]:
    hints = get_hints(item, HINTS)
    kind = "custom" if hints.get("custom") else "function"
    body: dict[str, Any] = {"name": item.name}
    body["input" if kind == "custom" else "arguments"] = arguments_text(item, path)
    body.update(hints.get("body_fields", {}))
    call: dict[str, Any] = {"id": item.id}
    if not hints.get("untyped"):
        call["type"] = kind
    call[kind] = body
    call.update(hints.get("fields", {}))
    return call


def _write_result(
    role: str,
    item: FunctionResultContent,
    path: str,
    on_unsupported: OnUnsupported | None,
    payload: list[dict[str, Any]],
) -> dict[str, Any]:
    """One result as a ``tool`` message, or a legacy ``function`` one (``payload``: so far)."""
    result = item.result
    content: str | list[dict[str, Any]]
    if isinstance(result, str):
        content = result
    elif isinstance(result, list) and result and all(
        isinstance(element, KernelContent) for element in result
    ):
        content = []
        for index, element in enumerate(result):
            where = f"{path}.result[{index}]"
            lost_metadata(element, where, FORMAT, on_unsupported)
            lost_subclass_fields(element, where, FORMAT, on_unsupported, codecs)
            encoded = codecs.encode(element, where)
            if encoded is not None:
                content.append(encoded)
            elif isinstance(element, TextContent):
                _lost_citations(element, where, on_unsupported)
                content.append(_with_fields({"type": "text", "text": element.text}, element))
            else:
                unsupported(
                    on_unsupported, FORMAT, where, element, "in a tool result"
                )
        if not content:  # every part left out: the API refuses an empty list, takes ""
            content = ""
    elif result is None and role != "function":  # no output (an Anthropic result of no
        content = ""  # content), not the JSON text "null"
    else:
        content = compact_json(result, f"{path}.result")
    if item.is_error:
        content = error_output(content, "text")
    call_id = item.call_id
    if call_id is None and role != "function":
        call_id = _unanswered_call(payload, item.name)
    if role == "function" or call_id is None:
        if isinstance(content, list):
            unsupported(
                on_unsupported, FORMAT, path, item, "as parts in a function message (text only)"
            )
            content = "\n".join(part["text"] for part in content)
        return {
            "role": "function",
            "name": item.name or "",
            "content": None if result is None and not item.is_error else content,
        }
    return {"role": "tool", "tool_call_id": call_id, "content": content}


def _unanswered_call(payload: list[dict[str, Any]], name: str | None) -> str | None:
    """The id of the first call named ``name`` in the last tool calls written, not yet answered.

    A result without its call's id (Gemini's answer by name, one built by hand) answers that
    call, as the Gemini reader pairs them; written as a legacy ``function`` message, it would
    leave the call unanswered, which the API refuses. ``None`` when there is no such call.
    """
    answered = set()
    for written in reversed(payload):
        if written["role"] == "tool":
            answered.add(written.get("tool_call_id"))
            continue
        calls = written.get("tool_calls") if written["role"] == "assistant" else None
        if not calls:
            return None
        for call in calls:
            function = call.get("function")
            if (
                isinstance(function, dict)
                and function.get("name") == name
                and call.get("id") not in answered
            ):
                found: str | None = call.get("id")
                return found
        return None
    return None


def _write_part(
    item: KernelContent, role: str, path: str, on_unsupported: OnUnsupported | None
) -> dict[str, Any] | None:
    encoded = codecs.encode(item, path)
    if encoded is not None:
        return encoded
    if isinstance(item, TextContent):
        _lost_citations(item, path, on_unsupported)
        return _with_fields({"type": "text", "text": item.text}, item)
    if role in INSTRUCTION_ROLES:
        unsupported(on_unsupported, FORMAT, path, item, f"in a {role} message (text only)")
        return None
    hints = get_hints(item, HINTS)
    body: dict[str, Any]
    if isinstance(item, ImageContent) and item.file_id is None:
        # The API downloads http(s) URLs only, and takes PNG, JPEG, GIF and WebP bytes only.
        why = (unfetchable_uri(item.uri) if item.uri is not None else None) or (
            image_type_refused(item)
        )
        if why is not None:
            unsupported(on_unsupported, FORMAT, path, item, why)
            return None
        body = {"url": item.uri if item.uri is not None else data_url(item)}
        if item.detail is not None:
            body["detail"] = item.detail
        part = {"type": "image_url", "image_url": body}
    elif isinstance(item, AudioContent) and item.uri is None and item.file_id is None:
        bare = (item.mime_type or "").partition(";")[0]
        audio_format = AUDIO_FORMAT.get(canonical_mime_type(bare))  # audio/x-wav is wav
        if audio_format is None:
            unsupported(on_unsupported, FORMAT, path, item, f"of type {bare} (wav or mp3 only)")
            return None
        body = {"data": item.base64, "format": audio_format}
        part = {"type": "input_audio", "input_audio": body}
    elif isinstance(item, FileContent) and item.uri is None:
        file_body = _write_file(item, hints, path, on_unsupported)
        if file_body is None:
            return None
        body = file_body
        part = {"type": "file", "file": body}
    else:
        unsupported(on_unsupported, FORMAT, path, item, _why_not(item, role))
        return None
    body.update(hints.get("body_fields", {}))
    return _with_fields(part, item)


def _write_file(
    item: FileContent, hints: dict[str, Any], path: str, on_unsupported: OnUnsupported | None
) -> dict[str, Any] | None:
    """A ``file`` part's body, or ``None`` when the item is refused (or left out).

    Chat takes a file's data as a PDF only (400 ``Expected a base64-encoded data URL with an
    application/pdf MIME type``; Responses takes more), and only with a ``filename``: one
    without is sent as `file_name` makes it (``file.pdf``). A file by id is sent as it is.
    """
    if item.file_id is not None:
        body = {"file_id": item.file_id}
        if item.filename is not None:
            body["filename"] = item.filename
        return body
    bare = canonical_mime_type(item.mime_type or "")
    if bare != "application/pdf":
        why = f"of type {bare or 'unknown'} as file data (PDF only)"
        unsupported(on_unsupported, FORMAT, path, item, why)
        return None
    data = item.base64 if hints.get("raw_base64") else data_url(item)
    return {"file_data": data, "filename": file_name(item)}


def _why_not(item: KernelContent, role: str) -> str:
    """Why a user's item has no part: its source (a file id, a URL) when its kind has one."""
    if isinstance(item, (ImageContent, AudioContent, FileContent)):
        if item.file_id is not None:
            return "by a file id"
        if item.uri is not None:
            return "by a URL"
    return f"in a {role} message"


def _with_fields(part: dict[str, Any], item: KernelContent) -> dict[str, Any]:
    fields = get_hints(item, HINTS).get("fields")
    if fields:
        part.update(fields)
    return part
