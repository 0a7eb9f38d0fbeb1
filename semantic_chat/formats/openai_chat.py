"""OpenAI Chat Completions: the request's ``messages`` and the ``ChatCompletion`` response.

Everything the format carries maps to items: string or part content (``text``, ``image_url``
with ``detail``, ``input_audio`` wav/mp3, ``file`` by data or id), ``name``, assistant
``refusal``, ``tool_calls`` (arguments kept byte for byte), ``audio`` by id, tool messages
with ``tool_call_id``, and the legacy ``function`` role and ``function_call``. What the format
does not model is kept under ``metadata["openai_chat"]`` so that ``to_payload(from_payload(p))
== p``. Request messages carry no ids, usage or finish reasons, so those message fields are not
written.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from ..collection import _ReadItems
from ..contents import (
    AudioContent,
    FileContent,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    KernelContent,
    RefusalContent,
    TextContent,
)
from ..errors import FormatError, describe_type
from ..history import ChatHistory
from ..labels import AuthorRole, FinishReason
from ..media import guess_mime_type
from ..message import ChatMessageContent
from ..streaming import (
    StreamingChatMessageContent,
    StreamingFunctionCallContent,
    StreamingRefusalContent,
    StreamingTextContent,
)
from ..usage import Usage
from .wire import (
    OnUnsupported,
    PluginCodecs,
    arguments_text,
    as_plain,
    binary_from_data_url,
    data_url,
    get_hints,
    read_parts,
    require,
    set_hints,
    unsupported,
)

__all__ = [
    "NAME",
    "from_payload",
    "from_response",
    "from_stream",
    "register_decoder",
    "register_encoder",
    "to_payload",
]

NAME = "openai-chat"
"""The format's name in the `semantic_chat.formats` registry."""

HINTS = "openai_chat"
"""The metadata key under which this format keeps what it needs to write a payload back."""

_FORMAT = "OpenAI Chat Completions"
_AUDIO_MIME = {"wav": "audio/wav", "mp3": "audio/mpeg"}
_AUDIO_FORMAT = {mime: name for name, mime in _AUDIO_MIME.items()} | {"audio/mp3": "mp3"}
_INSTRUCTION_ROLES = frozenset(("system", "developer"))
_PLAIN_ROLES = frozenset(("system", "developer", "user", "assistant"))
_ROLES = frozenset(("system", "developer", "user", "assistant", "tool", "function"))
_MESSAGE_KEYS = {
    "system": {"role", "content", "name"},
    "developer": {"role", "content", "name"},
    "user": {"role", "content", "name"},
    "assistant": {"role", "content", "name", "refusal", "tool_calls", "function_call", "audio"},
    "tool": {"role", "content", "tool_call_id"},
    "function": {"role", "content", "name"},
}

_codecs = PluginCodecs()
register_encoder = _codecs.register_encoder
register_decoder = _codecs.register_decoder


# --- reading -----------------------------------------------------------------------------


def from_payload(messages: Iterable[Any]) -> ChatHistory:
    """Read a Chat Completions ``messages`` list (dicts or SDK objects) into a history.

    Raises:
        FormatError: a message or part is malformed (not an object, an unknown part type, a
            tool message without ``tool_call_id`` ...); the message names the location, e.g.
            ``messages[3].content[1].type``.
    """
    if isinstance(messages, (str, bytes, dict)):
        raise FormatError.mismatch("messages", "a list of messages", describe_type(messages))
    history = ChatHistory()
    read = history.messages
    call_names: dict[str, str] = {}
    for index, raw in enumerate(messages):
        if type(raw) is dict:
            plain = _read_plain_message(raw, call_names)
            if plain is not None:
                read.append(plain)
                continue
        path = f"messages[{index}]"
        message = as_plain(raw, path)
        if type(message) is not dict:
            raise FormatError.mismatch(path, "a message object", describe_type(message))
        read.append(_read_message(message, path, call_names))
    return history


_PLAIN_KEYS = {
    "system": frozenset(("role", "content", "name")),
    "developer": frozenset(("role", "content", "name")),
    "user": frozenset(("role", "content", "name")),
    "assistant": frozenset(("role", "content", "name", "tool_calls")),
    "tool": frozenset(("role", "content", "tool_call_id")),
}
_PLAIN_CALL_KEYS = frozenset(("id", "type", "function"))
_PLAIN_FUNCTION_KEYS = frozenset(("name", "arguments"))


def _read_plain_message(
    message: dict[str, Any], call_names: dict[str, str]
) -> ChatMessageContent | None:
    """Read the common shapes that need no hints quickly; ``None`` sends the rest the long way.

    Mirrors `_write_plain_message`: text messages, an assistant's text and standard tool
    calls, a tool message with string content, and a user's text, image and audio parts,
    each with no key the general reader would keep as a hint.
    """
    role = message.get("role")
    if type(role) is not str:
        return None
    allowed = _PLAIN_KEYS.get(role)
    if allowed is None or not allowed.issuperset(message):
        return None
    content = message.get("content")
    name = message.get("name")
    if name is not None and type(name) is not str:
        return None
    items: list[KernelContent] = _ReadItems()
    if role == "tool":
        call_id = message.get("tool_call_id")
        if type(call_id) is not str or type(content) is not str:
            return None
        items.append(FunctionResultContent(call_id, content, name=call_names.get(call_id)))
        return ChatMessageContent(AuthorRole.TOOL, items=items)
    if type(content) is str:
        items.append(TextContent(content))
    elif role == "user" and type(content) is list:
        if not _read_plain_parts(content, items):
            return None
    elif content is not None or role != "assistant" or "content" in message:
        return None
    if "tool_calls" in message:
        calls = message["tool_calls"]
        if type(calls) is not list or not calls:
            return None
        for call in calls:
            if type(call) is not dict or not _PLAIN_CALL_KEYS.issuperset(call):
                return None
            function = call.get("function")
            if (
                call.get("type") != "function"
                or type(function) is not dict
                or function.keys() != _PLAIN_FUNCTION_KEYS
                or type(call.get("id")) is not str
                or type(function["name"]) is not str
                or type(function["arguments"]) is not str
            ):
                return None
            call_names[call["id"]] = function["name"]
            items.append(FunctionCallContent(call["id"], function["name"], function["arguments"]))
    return ChatMessageContent(role, items=items, name=name)


def _read_plain_parts(parts: list[Any], items: list[KernelContent]) -> bool:
    """Read text, image and audio parts with no extra keys; ``False`` if any is otherwise."""
    for part in parts:
        if type(part) is not dict:
            return False
        kind = part.get("type")
        if kind == "text" and len(part) == 2 and type(part.get("text")) is str:
            items.append(TextContent(part["text"]))
        elif kind == "image_url" and len(part) == 2:
            body = part.get("image_url")
            if type(body) is not dict or type(body.get("url")) is not str:
                return False
            detail = body.get("detail")
            if len(body) != (1 if detail is None else 2) or (
                detail is not None and type(detail) is not str
            ):
                return False
            url = body["url"]
            if url[:5] == "data:":
                try:
                    items.append(binary_from_data_url(ImageContent, url, "", detail=detail))
                except FormatError:
                    return False
            else:
                items.append(ImageContent(uri=url, detail=detail))
        elif kind == "input_audio" and len(part) == 2:
            body = part.get("input_audio")
            if type(body) is not dict or body.keys() != {"data", "format"}:
                return False
            mime_type = _AUDIO_MIME.get(body["format"])
            if mime_type is None or type(body["data"]) is not str:
                return False
            try:
                items.append(AudioContent.from_base64(body["data"], mime_type=mime_type))
            except ValueError:
                return False
        else:
            return False
    # One text part alone needs the "parts" hint: the general reader keeps it.
    return not (len(items) == 1 and type(items[0]) is TextContent)


def from_response(completion: Any, *, choice: int = 0) -> ChatMessageContent:
    """Read one choice of a ``ChatCompletion`` (dict or SDK object) as the assistant's message.

    The message gets the completion's ``id``, ``model`` (as ``model_id``), ``finish_reason``
    and ``usage`` (with cached and reasoning token counts); the other response fields
    (``created``, ``system_fingerprint``, ``logprobs`` ...) are kept in metadata.

    Raises:
        FormatError: the completion has no such choice or is malformed.
    """
    data = as_plain(completion, "completion")
    if type(data) is not dict:
        raise FormatError.mismatch("completion", "a ChatCompletion object", describe_type(data))
    choices = require(data, "choices", list, "completion")
    if not 0 <= choice < len(choices) or type(choices[choice]) is not dict:
        raise FormatError(f"no choice {choice} among {len(choices)}", path="completion.choices")
    path = f"completion.choices[{choice}]"
    picked = choices[choice]
    message = _read_message(require(picked, "message", dict, path), f"{path}.message", {})
    message.id = data.get("id")
    message.model_id = data.get("model")
    reason = picked.get("finish_reason")
    message.finish_reason = FinishReason(reason) if isinstance(reason, str) else None
    usage = data.get("usage")
    if isinstance(usage, dict):
        message.usage = read_usage(usage)
    response = {
        key: value
        for key, value in data.items()
        if key not in ("id", "model", "choices", "usage", "object")
    }
    if picked.get("logprobs") is not None:
        response["logprobs"] = picked["logprobs"]
    if response:
        message.metadata.setdefault(HINTS, {})["response"] = response
    message.inner_content = completion
    return message


def read_usage(usage: dict[str, Any]) -> Usage:
    """Read a Chat Completions ``usage`` object, with its cached and reasoning token details."""
    prompt_details = usage.get("prompt_tokens_details") or {}
    completion_details = usage.get("completion_tokens_details") or {}
    return Usage(
        prompt_tokens=usage.get("prompt_tokens") or 0,
        completion_tokens=usage.get("completion_tokens") or 0,
        total_tokens=usage.get("total_tokens") or 0,
        cached_tokens=prompt_details.get("cached_tokens"),
        reasoning_tokens=completion_details.get("reasoning_tokens"),
    )


def _read_message(
    message: dict[str, Any], path: str, call_names: dict[str, str]
) -> ChatMessageContent:
    role = require(message, "role", str, path)
    known = _MESSAGE_KEYS.get(role, _MESSAGE_KEYS["user"])
    fields = {key: value for key, value in message.items() if key not in known}
    hints: dict[str, Any] = {}
    items: list[KernelContent] = []
    name = message.get("name")
    if name is not None and not isinstance(name, str):
        raise FormatError.mismatch(f"{path}.name", "str", describe_type(name))

    if role == "tool":
        call_id = message.get("tool_call_id")
        if not isinstance(call_id, str):
            raise FormatError("tool message without tool_call_id", path=path)
        answer = _read_tool_content(require(message, "content", (str, list), path), path)
        items.append(FunctionResultContent(call_id, answer, name=call_names.get(call_id)))
    elif role == "function":
        function_name = require(message, "name", str, path)
        content = require(message, "content", (str, list, type(None)), path)
        result = None if content is None else _read_tool_content(content, path)
        items.append(FunctionResultContent(None, result, name=function_name))
        name = None
    elif role == "assistant":
        _read_assistant(message, path, items, fields, hints, call_names)
    else:
        content = require(message, "content", (str, list), path)
        if isinstance(content, str):
            items.append(TextContent(content))
        else:
            items.extend(read_parts(content, f"{path}.content", _read_part))
            if _default_is_string(items):
                hints["parts"] = True

    result_message = ChatMessageContent(role, items=items, name=name)
    if fields:
        hints["fields"] = fields
    set_hints(result_message.metadata, HINTS, hints)
    return result_message


def _read_assistant(  # noqa: PLR0917 - one private reader filling the caller's collections
    message: dict[str, Any],
    path: str,
    items: list[KernelContent],
    fields: dict[str, Any],
    hints: dict[str, Any],
    call_names: dict[str, str],
) -> None:
    content = message.get("content")
    if isinstance(content, str):
        items.append(TextContent(content))
    elif isinstance(content, list):
        items.extend(read_parts(content, f"{path}.content", _read_part))
        texts = sum(isinstance(item, TextContent) for item in items)
        if texts < 2 or any(isinstance(item, RefusalContent) for item in items):
            hints["parts"] = True
    elif "content" in message:
        fields["content"] = content
    refusal = message.get("refusal")
    if isinstance(refusal, str):
        refusal_item = RefusalContent(refusal)
        if hints.get("parts"):  # read from the key, beside parts: written back to the key
            refusal_item.metadata[HINTS] = {"key": True}
        items.append(refusal_item)
    elif "refusal" in message:
        fields["refusal"] = refusal
    audio = message.get("audio")
    if isinstance(audio, dict):
        audio_id = require(audio, "id", str, f"{path}.audio")
        extra = {key: value for key, value in audio.items() if key != "id"}
        audio_item = AudioContent(file_id=audio_id)
        set_hints(audio_item.metadata, HINTS, {"fields": extra} if extra else {})
        items.append(audio_item)
    elif "audio" in message:
        fields["audio"] = audio
    tool_calls = message.get("tool_calls")
    if isinstance(tool_calls, list) and tool_calls:
        for index, call in enumerate(tool_calls):
            item = _read_tool_call(call, f"{path}.tool_calls[{index}]")
            if item.id is not None:
                call_names[item.id] = item.name
            items.append(item)
    elif "tool_calls" in message:
        fields["tool_calls"] = tool_calls
    function_call = message.get("function_call")
    if isinstance(function_call, dict):
        where = f"{path}.function_call"
        items.append(
            FunctionCallContent(
                None,
                require(function_call, "name", str, where),
                require(function_call, "arguments", str, where),
            )
        )
    elif "function_call" in message:
        fields["function_call"] = function_call


def _read_tool_call(call: Any, path: str) -> FunctionCallContent:
    if type(call) is not dict:
        raise FormatError.mismatch(path, "a tool call object", describe_type(call))
    kind = call.get("type", "function")
    if kind not in ("function", "custom"):
        raise FormatError(f"unknown tool call type {kind!r}", path=f"{path}.type")
    body = require(call, kind, dict, path)
    argument_key = "arguments" if kind == "function" else "input"
    item = FunctionCallContent(
        require(call, "id", str, path),
        require(body, "name", str, f"{path}.{kind}"),
        require(body, argument_key, str, f"{path}.{kind}"),
    )
    hints: dict[str, Any] = {}
    if kind == "custom":
        hints["custom"] = True
    if "type" not in call:
        hints["untyped"] = True
    extra = {key: value for key, value in call.items() if key not in ("id", "type", kind)}
    extra_body = {key: value for key, value in body.items() if key not in ("name", argument_key)}
    if extra:
        hints["fields"] = extra
    if extra_body:
        hints["body_fields"] = extra_body
    set_hints(item.metadata, HINTS, hints)
    return item


def _read_tool_content(content: str | list[Any], path: str) -> str | list[KernelContent]:
    if isinstance(content, str):
        return content
    return read_parts(content, f"{path}.content", _read_part)


def _read_part(part: dict[str, Any], path: str) -> KernelContent:
    kind = require(part, "type", str, path)
    item: KernelContent
    extra_keys: tuple[str, ...] = ("type", kind)
    if kind == "text":
        item = TextContent(require(part, "text", str, path))
    elif kind == "refusal":
        item = RefusalContent(require(part, "refusal", str, path))
    elif kind == "image_url":
        body = require(part, "image_url", dict, path)
        url = require(body, "url", str, f"{path}.image_url")
        detail = body.get("detail")
        item = _image_from_url(url, detail if isinstance(detail, str) else None, path)
        _keep_extra(item, body, ("url", "detail") if isinstance(detail, str) else ("url",))
    elif kind == "input_audio":
        body = require(part, "input_audio", dict, path)
        audio_format = require(body, "format", str, f"{path}.input_audio")
        payload = require(body, "data", str, f"{path}.input_audio")
        mime_type = _AUDIO_MIME.get(audio_format, f"audio/{audio_format}")
        item = AudioContent.from_base64(payload, mime_type=mime_type)
        _keep_extra(item, body, ("format", "data"))
    elif kind == "file":
        body = require(part, "file", dict, path)
        item = _read_file(body, f"{path}.file")
        _keep_extra(item, body, ("file_data", "file_id", "filename"))
    else:
        decode = _codecs.decoders.get(kind)
        if decode is None:
            raise FormatError(f"unknown content part type {kind!r}", path=f"{path}.type")
        return decode(part)
    extra = {key: value for key, value in part.items() if key not in extra_keys}
    if extra:
        item.metadata.setdefault(HINTS, {})["fields"] = extra
    return item


def _image_from_url(url: str, detail: str | None, path: str) -> ImageContent:
    if url[:5].lower() == "data:":
        return binary_from_data_url(ImageContent, url, f"{path}.image_url.url", detail=detail)
    return ImageContent(uri=url, detail=detail)


def _read_file(body: dict[str, Any], path: str) -> FileContent:
    filename = body.get("filename")
    if filename is not None and not isinstance(filename, str):
        raise FormatError.mismatch(f"{path}.filename", "str", describe_type(filename))
    if "file_id" in body:
        return FileContent(file_id=require(body, "file_id", str, path), filename=filename)
    file_data = require(body, "file_data", str, path)
    if file_data[:5].lower() == "data:":
        return binary_from_data_url(FileContent, file_data, f"{path}.file_data", filename=filename)
    mime_type = (filename and guess_mime_type(filename)) or "application/octet-stream"
    item = FileContent.from_base64(file_data, mime_type=mime_type, filename=filename)
    item.metadata[HINTS] = {"raw_base64": True}
    return item


def _keep_extra(item: KernelContent, body: dict[str, Any], known: tuple[str, ...]) -> None:
    extra = {key: value for key, value in body.items() if key not in known}
    if extra:
        item.metadata.setdefault(HINTS, {})["body_fields"] = extra


def _default_is_string(items: list[KernelContent]) -> bool:
    return len(items) == 1 and type(items[0]) is TextContent


# --- writing -----------------------------------------------------------------------------


def to_payload(
    history: Iterable[ChatMessageContent], *, on_unsupported: OnUnsupported = "raise"
) -> list[dict[str, Any]]:
    """Write a history as a Chat Completions ``messages`` list.

    A message holding several function results becomes one tool message per result. JSON
    results that are not strings are written as compact JSON text.

    Raises:
        UnsupportedContentError: an item the format cannot carry (reasoning, an image in a
            tool result or an assistant message, a plugin type with no encoder ...), named by
            message and item index, unless ``on_unsupported="drop"``.
        FormatError: a role the format does not have.
    """
    payload: list[dict[str, Any]] = []
    for index, message in enumerate(history):
        written = _write_plain_message(message)
        if written is not None:
            payload.append(written)
        else:
            _write_message(message, f"messages[{index}]", payload, on_unsupported)
    return payload


def _write_plain_message(message: ChatMessageContent) -> dict[str, Any] | None:
    """Write the common shapes without hints quickly; ``None`` sends the rest the long way.

    Covers a message of plain text items, a user's images and wav/mp3 clips, an assistant's
    text and tool calls, and a tool message with one string result, none with metadata.
    """
    if message.metadata:
        return None
    role = str.__str__(message._role)  # the slots behind the properties: this is a hot path
    items = message._items._items
    if role == "tool":
        if len(items) != 1:
            return None
        result = items[0]
        if (
            type(result) is not FunctionResultContent
            or result.metadata
            or type(result.result) is not str
            or result.call_id is None
        ):
            return None
        return {"role": "tool", "tool_call_id": result.call_id, "content": result.result}
    if role not in _PLAIN_ROLES:
        return None
    texts: list[str] = []
    calls: list[dict[str, Any]] = []
    media: list[dict[str, Any]] | None = None  # parts, once a non-text item appears
    for item in items:
        if item.metadata:
            return None
        if type(item) is TextContent:
            if calls:
                return None  # text after a call: the general writer keeps the order rule
            texts.append(item.text)
            if media is not None:
                media.append({"type": "text", "text": item.text})
        elif type(item) is FunctionCallContent and role == "assistant":
            if item.id is None or type(item.arguments) is not str:
                return None
            body = {"name": item.name, "arguments": item.arguments}
            calls.append({"id": item.id, "type": "function", "function": body})
        elif role == "user" and (part := _plain_media_part(item)) is not None:
            if media is None:
                media = [{"type": "text", "text": text} for text in texts]
            media.append(part)
        else:
            return None
    written: dict[str, Any] = {"role": role}
    if message.name is not None:
        written["name"] = message.name
    if media is not None:
        written["content"] = media
    elif len(texts) == 1:
        written["content"] = texts[0]
    elif texts or role != "assistant":
        written["content"] = [{"type": "text", "text": text} for text in texts]
    if calls:
        written["tool_calls"] = calls
    return written


def _plain_media_part(item: KernelContent) -> dict[str, Any] | None:
    """The part for an image or wav/mp3 clip a user sends, or ``None`` for anything else."""
    if type(item) is ImageContent and item.file_id is None:
        body = {"url": item.uri if item.uri is not None else data_url(item)}
        if item.detail is not None:
            body["detail"] = item.detail
        return {"type": "image_url", "image_url": body}
    if type(item) is AudioContent and item.uri is None and item.file_id is None:
        audio_format = _AUDIO_FORMAT.get(item.mime_type or "")
        if audio_format is not None:
            clip: dict[str, Any] = {"data": item.base64, "format": audio_format}
            return {"type": "input_audio", "input_audio": clip}
    return None


def _write_message(
    message: ChatMessageContent,
    path: str,
    payload: list[dict[str, Any]],
    on_unsupported: OnUnsupported,
) -> None:
    role = str(message.role)
    if role not in _ROLES:
        raise FormatError(f"{_FORMAT} has no role {role!r}", path=f"{path}.role")
    hints = get_hints(message.metadata, HINTS)
    items = list(enumerate(message.items))
    results = [(i, item) for i, item in items if isinstance(item, FunctionResultContent)]
    if role in ("tool", "function") or results:
        for i, result in results:
            payload.append(_write_result(role, result, f"{path}.items[{i}]", on_unsupported))
        rest = [(i, item) for i, item in items if not isinstance(item, FunctionResultContent)]
        if role in ("tool", "function"):
            for i, item in rest:
                where = f"{path}.items[{i}]"
                unsupported(on_unsupported, _FORMAT, where, item, f"in a {role} message")
            return
        if not rest:
            return
        items = rest
    written: dict[str, Any] = {"role": role}
    if message.name is not None:
        written["name"] = message.name
    if role == "assistant":
        _write_assistant(items, path, written, hints, on_unsupported)
    else:
        parts = [
            part
            for i, item in items
            if (part := _write_part(item, role, f"{path}.items[{i}]", on_unsupported)) is not None
        ]
        if len(parts) == 1 and parts[0]["type"] == "text" and not hints.get("parts"):
            if set(parts[0]) == {"type", "text"}:
                written["content"] = parts[0]["text"]
            else:
                written["content"] = parts
        else:
            written["content"] = parts
    written.update(hints.get("fields", {}))
    payload.append(written)


def _write_assistant(
    items: list[tuple[int, KernelContent]],
    path: str,
    written: dict[str, Any],
    hints: dict[str, Any],
    on_unsupported: OnUnsupported,
) -> None:
    content: list[dict[str, Any]] = []
    refusals: list[str] = []
    calls: list[dict[str, Any]] = []
    as_parts = bool(hints.get("parts"))
    for i, item in items:
        where = f"{path}.items[{i}]"
        if isinstance(item, TextContent):
            content.append(_with_fields({"type": "text", "text": item.text}, item))
        elif isinstance(item, RefusalContent):
            if as_parts and not get_hints(item.metadata, HINTS).get("key"):
                content.append(_with_fields({"type": "refusal", "refusal": item.text}, item))
            else:
                refusals.append(item.text)
        elif isinstance(item, FunctionCallContent):
            if item.id is None:
                written["function_call"] = {
                    "name": item.name,
                    "arguments": arguments_text(item),
                }
            else:
                calls.append(_write_tool_call(item))
        elif isinstance(item, AudioContent) and item.file_id is not None:
            # A request refers to an earlier audio reply by id only; what a response sent
            # with it (data, transcript, expiry) stays in the item's metadata.
            written["audio"] = {"id": item.file_id}
        else:
            unsupported(on_unsupported, _FORMAT, where, item, "in an assistant message")
    plain = all(set(part) == {"type", "text"} for part in content)
    if content or as_parts:
        if len(content) == 1 and plain and not as_parts:
            written["content"] = content[0]["text"]
        else:
            written["content"] = content
    if refusals:
        written["refusal"] = "\n".join(refusals)
    if calls:
        written["tool_calls"] = calls


def _write_tool_call(item: FunctionCallContent) -> dict[str, Any]:
    hints = get_hints(item.metadata, HINTS)
    kind = "custom" if hints.get("custom") else "function"
    body: dict[str, Any] = {"name": item.name}
    body["input" if kind == "custom" else "arguments"] = arguments_text(item)
    body.update(hints.get("body_fields", {}))
    call: dict[str, Any] = {"id": item.id}
    if not hints.get("untyped"):
        call["type"] = kind
    call[kind] = body
    call.update(hints.get("fields", {}))
    return call


def _write_result(
    role: str, item: FunctionResultContent, path: str, on_unsupported: OnUnsupported
) -> dict[str, Any]:
    result = item.result
    content: str | list[dict[str, Any]]
    if isinstance(result, str):
        content = result
    elif isinstance(result, list) and result and all(
        isinstance(element, KernelContent) for element in result
    ):
        content = []
        for index, element in enumerate(result):
            if isinstance(element, TextContent):
                content.append(_with_fields({"type": "text", "text": element.text}, element))
            else:
                unsupported(
                    on_unsupported, _FORMAT, f"{path}.result[{index}]", element, "in a tool result"
                )
    else:
        content = json.dumps(result, ensure_ascii=False, separators=(",", ":"))
    if role == "function" or item.call_id is None:
        if isinstance(content, list):
            unsupported(
                on_unsupported, _FORMAT, path, item, "as parts in a function message (text only)"
            )
            content = "\n".join(part["text"] for part in content)
        return {
            "role": "function",
            "name": item.name or "",
            "content": None if result is None else content,
        }
    return {"role": "tool", "tool_call_id": item.call_id, "content": content}


def _write_part(
    item: KernelContent, role: str, path: str, on_unsupported: OnUnsupported
) -> dict[str, Any] | None:
    if isinstance(item, TextContent):
        return _with_fields({"type": "text", "text": item.text}, item)
    if role in _INSTRUCTION_ROLES:
        unsupported(on_unsupported, _FORMAT, path, item, f"in a {role} message (text only)")
        return None
    encode = _codecs.encoder_for(item)
    if encode is not None:
        return encode(item)
    hints = get_hints(item.metadata, HINTS)
    body: dict[str, Any]
    if isinstance(item, ImageContent) and item.file_id is None:
        body = {"url": item.uri if item.uri is not None else data_url(item)}
        if item.detail is not None:
            body["detail"] = item.detail
        part = {"type": "image_url", "image_url": body}
    elif isinstance(item, AudioContent) and item.uri is None and item.file_id is None:
        bare = (item.mime_type or "").partition(";")[0]
        audio_format = _AUDIO_FORMAT.get(bare)
        if audio_format is None:
            unsupported(on_unsupported, _FORMAT, path, item, f"of type {bare} (wav or mp3 only)")
            return None
        body = {"data": item.base64, "format": audio_format}
        part = {"type": "input_audio", "input_audio": body}
    elif isinstance(item, FileContent) and item.uri is None:
        body = {}
        if item.file_id is not None:
            body["file_id"] = item.file_id
        elif hints.get("raw_base64"):
            body["file_data"] = item.base64
        else:
            body["file_data"] = data_url(item)
        if item.filename is not None:
            body["filename"] = item.filename
        part = {"type": "file", "file": body}
    else:
        unsupported(on_unsupported, _FORMAT, path, item, f"in a {role} message")
        return None
    body.update(hints.get("body_fields", {}))
    return _with_fields(part, item)


def _with_fields(part: dict[str, Any], item: KernelContent) -> dict[str, Any]:
    fields = get_hints(item.metadata, HINTS).get("fields")
    if fields:
        part.update(fields)
    return part



# --- streaming ---------------------------------------------------------------------------


def from_stream(chunks: Iterable[Any]) -> Iterator[StreamingChatMessageContent]:
    """Read ``chat.completion.chunk`` payloads (dicts or SDK objects) as streaming chunks.

    Each choice of each chunk gives one `StreamingChatMessageContent` (its ``choice_index`` is
    the choice's index). Text, refusal and audio-transcript deltas become text and refusal
    fragments, tool-call deltas call fragments; the final usage-only chunk (``choices: []``)
    gives a chunk with the usage for choice 0. Merge them with
    `StreamingChatMessageContent.accumulate` (or `accumulate_choices` for several choices).

    Raises:
        FormatError: a chunk is malformed.
    """
    for number, raw in enumerate(chunks):
        path = f"chunks[{number}]"
        data = as_plain(raw, path)
        if type(data) is not dict:
            raise FormatError.mismatch(path, "a chat.completion.chunk object", describe_type(data))
        choices = data.get("choices") or []
        usage = data.get("usage")
        read = read_usage(usage) if isinstance(usage, dict) else None
        for position, choice in enumerate(choices):
            where = f"{path}.choices[{position}]"
            if type(choice) is not dict:
                raise FormatError.mismatch(where, "a choice object", describe_type(choice))
            chunk = _read_delta(choice, where)
            chunk.id = data.get("id")
            chunk.model_id = data.get("model")
            if read is not None and position == 0:
                chunk.usage = read
            chunk.inner_content = raw
            yield chunk
        if not choices and read is not None:
            yield StreamingChatMessageContent(
                None, id=data.get("id"), model_id=data.get("model"), usage=read,
                inner_content=raw,
            )


def _read_delta(choice: dict[str, Any], path: str) -> StreamingChatMessageContent:
    delta = choice.get("delta") or {}
    items: list[KernelContent] = []
    content = delta.get("content")
    if isinstance(content, str) and content:
        items.append(StreamingTextContent(content))
    refusal = delta.get("refusal")
    if isinstance(refusal, str) and refusal:
        items.append(StreamingRefusalContent(refusal))
    audio = delta.get("audio")
    if isinstance(audio, dict):
        if isinstance(audio.get("id"), str):
            items.append(AudioContent(file_id=audio["id"]))
        transcript = audio.get("transcript")
        if isinstance(transcript, str) and transcript:
            items.append(StreamingTextContent(transcript))
    for index, call in enumerate(delta.get("tool_calls") or []):
        where = f"{path}.delta.tool_calls[{index}]"
        if type(call) is not dict:
            raise FormatError.mismatch(where, "a tool call delta", describe_type(call))
        function = call.get("function") or {}
        items.append(
            StreamingFunctionCallContent(
                id=call.get("id"),
                name=function.get("name") or "",
                arguments=function.get("arguments") or "",
                index=call.get("index"),
            )
        )
    function_call = delta.get("function_call")
    if isinstance(function_call, dict):
        items.append(
            StreamingFunctionCallContent(
                id=None,
                name=function_call.get("name") or "",
                arguments=function_call.get("arguments") or "",
            )
        )
    reason = choice.get("finish_reason")
    index = choice.get("index", 0)
    return StreamingChatMessageContent(
        delta.get("role"),
        items=items,
        choice_index=index if isinstance(index, int) else 0,
        finish_reason=reason if isinstance(reason, str) else None,
    )
