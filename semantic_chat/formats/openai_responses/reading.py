"""Reading OpenAI Responses payloads and responses into the model."""

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
    ReasoningContent,
    RefusalContent,
    TextContent,
    UnknownContent,
)
from ...errors import FormatError, ProviderError, describe_type
from ...history import ChatHistory
from ...labels import AuthorRole, FinishReason
from ...message import ChatMessageContent
from ...usage import Usage
from ..documents import without_none
from ..wire import (
    as_plain,
    binary_from_base64,
    binary_from_data_url,
    read_error,
    read_parts,
    require,
    set_hints,
    usage_from,
)
from .citations import read_annotation
from .shared import (
    AUDIO_MIME,
    CHAT_HINTS,
    FORMAT,
    HINTS,
    MESSAGE_KEYS,
    OPAQUE_PROVIDER,
    codecs,
    default_is_string,
)

MESSAGE_ROLES = frozenset(("system", "developer", "user", "assistant"))
"""The roles of a Responses ``message`` item (a tool's output is a ``function_call_output``)."""

__all__ = [
    "from_payload",
    "from_response",
    "provider_error",
    "read_finish_reason",
    "read_output_item",
    "read_usage",
]


def from_payload(items: str | Iterable[Any], instructions: str | None = None) -> ChatHistory:
    """Read a Responses ``input`` (a string or a list of items) into a history.

    ``instructions`` becomes a leading system message, marked so that `to_request` puts it
    back into ``instructions``.

    Raises:
        FormatError: an item is malformed; the message names the location, e.g.
            ``input[2].content[0].type``.
    """
    history = ChatHistory()
    if instructions is not None:
        system = ChatMessageContent(AuthorRole.SYSTEM, instructions)
        system.metadata[HINTS] = {"instructions": True}
        history.messages.append(system)
    if isinstance(items, str):
        message = ChatMessageContent(AuthorRole.USER, items)
        message.metadata[HINTS] = {"string_input": True}
        history.messages.append(message)
        return history
    if isinstance(items, (bytes, dict)) or not hasattr(items, "__iter__"):
        raise FormatError.mismatch("input", "a string or a list of items", describe_type(items))
    _Reader(history).read_all(items, "input")
    return history


def from_response(response: Any) -> ChatMessageContent:
    """Read a ``Response`` (dict or SDK object) as one assistant message holding its output.

    The message gets the response's ``id``, ``model``, ``usage`` (with cached and reasoning
    tokens) and a finish reason: ``tool_calls`` when it calls functions, ``length`` or
    ``content_filter`` when it is incomplete for those reasons, else ``stop``. A ``failed``
    response has no reply: it raises `ProviderError`, as a stream's ``error`` event does.

    An SDK object, its ``model_dump()`` and its ``model_dump(exclude_none=True)`` give the
    same message: ``None`` fields are left out before reading.

    Raises:
        ProviderError: the response's ``status`` is ``failed`` (``server_error: The server
            had an error``), located at ``response.error``.
        FormatError: the response is malformed.
    """
    data = without_none(as_plain(response, "response"))
    if type(data) is not dict:
        raise FormatError.mismatch("response", "a Response object", describe_type(data))
    if data.get("status") == "failed":
        raise provider_error(data.get("error"), "the response failed").with_path("response.error")
    history = ChatHistory()
    reader = _Reader(history)
    reader.read_all(require(data, "output", list, "response"), "response.output")
    items = [item for message in history.messages for item in message.items]
    message = ChatMessageContent(AuthorRole.ASSISTANT, items=items)
    message.id = data.get("id")
    message.model_id = data.get("model")
    message.finish_reason = read_finish_reason(data, items)
    usage = data.get("usage")
    if isinstance(usage, dict):
        message.usage = read_usage(usage)
    message.inner_content = response
    return message


def provider_error(error: Any, default: str) -> ProviderError:
    """The `ProviderError` of an API error object: ``"<code>: <message>"``."""
    error = error if isinstance(error, dict) else {}
    code = error.get("code") if isinstance(error.get("code"), str) else None
    message = error.get("message")
    detail = message if isinstance(message, str) else default
    return ProviderError(f"{code or 'error'}: {detail}", error_type=code)


def read_output_item(item: dict[str, Any], path: str) -> list[KernelContent]:
    """The items `from_response` reads from one output item (a stream's whole item)."""
    history = ChatHistory()
    _Reader(history).read(item, path)
    return [content for message in history.messages for content in message.items]


def read_usage(usage: dict[str, Any]) -> Usage:
    """Read a Responses ``usage`` object, with its cached and reasoning token details."""
    return usage_from(usage, "input_tokens", "output_tokens")


def read_finish_reason(data: dict[str, Any], items: list[KernelContent]) -> FinishReason:
    """The finish reason a Response implies: length, content filter, tool calls or stop."""
    details = data.get("incomplete_details")
    reason = details.get("reason") if isinstance(details, dict) else None
    if reason == "max_output_tokens":
        return FinishReason.LENGTH
    if reason == "content_filter":
        return FinishReason.CONTENT_FILTER
    if any(isinstance(item, FunctionCallContent) for item in items):
        return FinishReason.TOOL_CALLS
    return FinishReason.STOP


class _Reader:
    """Reads items in order, gathering an assistant's turn into one message."""

    def __init__(self, history: ChatHistory) -> None:
        self.history = history
        self.turn: ChatMessageContent | None = None
        self.turn_has_message = False
        self.call_names: dict[str, str] = {}

    def read_all(self, items: Iterable[Any], path: str) -> None:
        for index, raw in enumerate(items):
            where = f"{path}[{index}]"
            item = as_plain(raw, where)
            if type(item) is not dict:
                raise FormatError.mismatch(where, "an input item object", describe_type(item))
            self.read(item, where)

    def read(self, item: dict[str, Any], path: str) -> None:
        kind = item.get("type")
        if kind is None or kind == "message":
            self._read_message(item, path)
        elif kind in ("function_call", "custom_tool_call"):
            self._assistant_turn().items.append(self._read_call(item, kind, path))
        elif kind == "reasoning":
            self._assistant_turn().items.append(_read_reasoning(item, path))
        elif kind in ("function_call_output", "custom_tool_call_output"):
            self.turn = None
            call_id = require(item, "call_id", str, path)
            output = require(item, "output", (str, list), path)
            result, failed = read_error(
                output
                if isinstance(output, str)
                else read_parts(output, f"{path}.output", _read_part)
            )
            content = FunctionResultContent(
                call_id, result, name=self.call_names.get(call_id), is_error=failed
            )
            _keep(content, item, ("type", "call_id", "output"), "fields")
            if kind == "custom_tool_call_output":
                content.metadata.setdefault(HINTS, {})["custom"] = True
            self.history.messages.append(ChatMessageContent(AuthorRole.TOOL, items=[content]))
        elif isinstance(kind, str):
            fields = {key: value for key, value in item.items() if key != "type"}
            unknown = UnknownContent(type=kind, fields=fields)
            unknown.metadata[HINTS] = {"item": True}
            self._assistant_turn().items.append(unknown)
        else:
            raise FormatError.mismatch(f"{path}.type", "str", describe_type(kind))

    def _assistant_turn(self) -> ChatMessageContent:
        if self.turn is None:
            self.turn = ChatMessageContent(AuthorRole.ASSISTANT)
            self.turn_has_message = False
            self.history.messages.append(self.turn)
        return self.turn

    def _read_message(self, item: dict[str, Any], path: str) -> None:
        role = require(item, "role", str, path)
        if role not in MESSAGE_ROLES:  # as the writer refuses it: no role is read in silence
            raise FormatError(f"{FORMAT} has no role {role!r}", path=f"{path}.role")
        content = require(item, "content", (str, list), path)
        envelope: dict[str, Any] = {}
        if isinstance(content, str):
            parts: list[KernelContent] = [TextContent(content)]
        else:
            parts = read_parts(content, f"{path}.content", _read_part)
            if default_is_string(content) or (
                role == "assistant"
                and not any(codecs.encoder_for(part) is not None for part in parts)
            ):  # a list, as read: the writer would write an assistant's texts apart
                envelope["parts"] = True
        fields = {key: value for key, value in item.items() if key not in MESSAGE_KEYS}
        if fields:
            envelope["fields"] = fields
        if role == "assistant" and parts:
            if self.turn is None or self.turn_has_message:
                self.turn = None
            turn = self._assistant_turn()
            self.turn_has_message = True
            target = turn
        else:
            self.turn = None
            target = ChatMessageContent(role)
            self.history.messages.append(target)
        if parts:
            if envelope:
                parts[0].metadata.setdefault(HINTS, {})["message"] = envelope
            target.items.extend(parts)
        else:
            set_hints(target, HINTS, {"message": envelope} if envelope else {})

    def _read_call(self, item: dict[str, Any], kind: str, path: str) -> FunctionCallContent:
        """A ``function_call``, or a ``custom_tool_call`` marked custom as Chat marks one.

        A custom call's free-form ``input`` is the arguments text.
        """
        argument_key = "input" if kind == "custom_tool_call" else "arguments"
        call = FunctionCallContent(
            require(item, "call_id", str, path),
            require(item, "name", str, path),
            require(item, argument_key, str, path),
        )
        # ``parsed_arguments``: the SDK's parse of the arguments (``responses.parse()``),
        # which no input item has: dropped, so a ParsedResponse reads as its Response.
        _keep(call, item, ("type", "call_id", "name", argument_key, "parsed_arguments"),
              "fields")
        if kind == "custom_tool_call":
            call.metadata[CHAT_HINTS] = {"custom": True}
        self.call_names[call.id or ""] = call.name
        return call




def _read_reasoning(item: dict[str, Any], path: str) -> ReasoningContent:
    summary = item.get("summary", [])
    texts = []
    simple = isinstance(summary, list)
    for index, part in enumerate(summary if isinstance(summary, list) else []):
        if type(part) is not dict or not isinstance(part.get("text"), str):
            raise FormatError.mismatch(
                f"{path}.summary[{index}]", "a summary_text part", describe_type(part)
            )
        texts.append(part["text"])
        simple = simple and part.get("type") == "summary_text" and len(part) == 2
    encrypted = item.get("encrypted_content")
    reasoning_texts = reasoning_text_of(item) if not texts else None
    reasoning = ReasoningContent(
        "\n\n".join(texts) if reasoning_texts is None else reasoning_texts,
        encrypted=encrypted if isinstance(encrypted, str) else None,
        provider=OPAQUE_PROVIDER,
    )
    known = ["type", "summary"]
    if isinstance(encrypted, str):
        known.append("encrypted_content")
    _keep(reasoning, item, tuple(known), "fields")  # ``content`` too: written back as read
    if reasoning_texts is not None:  # the text is the content's: the summary stays as read
        hints = reasoning.metadata.setdefault(HINTS, {})
        hints["summary"] = summary
        hints["content"] = True
    elif not simple or len(texts) > 1 or texts == [""]:
        reasoning.metadata.setdefault(HINTS, {})["summary"] = summary
    return reasoning


def reasoning_text_of(item: dict[str, Any]) -> str | None:
    """A reasoning item's ``content`` text (its ``reasoning_text`` parts joined), if it has one.

    Models that show their reasoning (gpt-oss) send it there, with no summary; a reader
    takes it as the item's text when the summary has none. ``None`` for a content that is
    missing, empty or holds other parts.
    """
    content = item.get("content")
    if not isinstance(content, list) or not content:
        return None
    texts = []
    for part in content:
        if type(part) is not dict or part.get("type") != "reasoning_text":
            return None
        text = part.get("text")
        if not isinstance(text, str):
            return None
        texts.append(text)
    return "".join(texts)


def _read_part(part: dict[str, Any], path: str) -> KernelContent:
    kind = require(part, "type", str, path)
    item: KernelContent
    known: tuple[str, ...]
    no_detail = False
    if kind in ("input_text", "output_text"):
        item, known = _read_text(part, kind, path)
    elif kind == "refusal":
        item = RefusalContent(require(part, "refusal", str, path))
        known = ("type", "refusal")
    elif kind == "input_image":
        detail = part.get("detail")
        detail = detail if isinstance(detail, str) and detail != "auto" else None
        if "file_id" in part and part["file_id"] is not None:
            item = ImageContent(file_id=require(part, "file_id", str, path), detail=detail)
            known = ("type", "file_id", "detail")
        else:
            url = require(part, "image_url", str, path)
            if url[:5].lower() == "data:":
                item = binary_from_data_url(ImageContent, url, f"{path}.image_url", detail=detail)
            else:
                item = ImageContent(uri=url, detail=detail)
            known = ("type", "image_url", "detail")
        if "detail" not in part:
            no_detail = True
    elif kind == "input_file":
        item, known = _read_file(part, path)
    elif kind == "input_audio":
        body = require(part, "input_audio", dict, path)
        audio_format = require(body, "format", str, f"{path}.input_audio")
        mime_type = AUDIO_MIME.get(audio_format, f"audio/{audio_format}")
        payload = require(body, "data", str, f"{path}.input_audio")
        item = binary_from_base64(AudioContent, payload, mime_type, f"{path}.input_audio.data")
        known = ("type", "input_audio")
    else:
        decoded = codecs.decode(part, path)
        if decoded is None:
            raise FormatError(f"unknown content part type {kind!r}", path=f"{path}.type")
        return decoded
    hints: dict[str, Any] = {}
    if kind == "output_text":
        hints["output"] = True
        if "annotations" not in part:  # the API always sends them; written back as read
            hints["no_annotations"] = True
    if no_detail:
        hints["no_detail"] = True
    extra = {key: value for key, value in part.items() if key not in known}
    if extra:
        hints["fields"] = extra
    set_hints(item, HINTS, hints)
    return item


def _read_text(part: dict[str, Any], kind: str, path: str) -> tuple[TextContent, tuple[str, ...]]:
    """A text part, an ``output_text``'s annotations read as the item's citations."""
    item = TextContent(require(part, "text", str, path))
    annotations = part.get("annotations")
    # An output_text's ``parsed`` (the SDK's parse of a structured output, from
    # ``responses.parse()``) is no input part's: dropped, so a ParsedResponse reads as its
    # Response.
    if kind != "output_text":
        return item, ("type", "text")
    if not isinstance(annotations, list):
        return item, ("type", "text", "parsed")  # anything else under "annotations": a hint
    item.citations = [
        read_annotation(annotation, f"{path}.annotations[{index}]")
        for index, annotation in enumerate(annotations)
    ]
    return item, ("type", "text", "annotations", "parsed")


def _read_file(part: dict[str, Any], path: str) -> tuple[FileContent, tuple[str, ...]]:
    filename = part.get("filename")
    if filename is not None and not isinstance(filename, str):
        raise FormatError.mismatch(f"{path}.filename", "str", describe_type(filename))
    known: tuple[str, ...]
    if part.get("file_id") is not None:
        item = FileContent(file_id=require(part, "file_id", str, path), filename=filename)
        known = ("type", "file_id", "filename")
    elif part.get("file_url") is not None:
        item = FileContent(uri=require(part, "file_url", str, path), filename=filename)
        known = ("type", "file_url", "filename")
    else:
        file_data = require(part, "file_data", str, path)
        item = binary_from_data_url(FileContent, file_data, f"{path}.file_data", filename=filename)
        known = ("type", "file_data", "filename")
    if filename is None:
        known = tuple(key for key in known if key != "filename")
    return item, known


def _keep(item: KernelContent, source: dict[str, Any], known: tuple[str, ...], key: str) -> None:
    extra = {name: value for name, value in source.items() if name not in known}
    if extra:
        item.metadata.setdefault(HINTS, {})[key] = extra
