"""OpenAI Responses API: the request's ``input`` items, ``instructions``, and the ``Response``.

Input items map to messages: ``message`` items (``input_text``, ``input_image``,
``input_file``, ``input_audio``, ``output_text``, ``refusal`` parts) to a message of their role;
``function_call_output`` items to tool messages; and an assistant's turn, which the API spreads
over several items (``reasoning``, ``message``, ``function_call`` ...), to one assistant
message whose items keep the order. Reasoning items keep their ``id``, ``summary`` and
``encrypted_content`` so they can be sent back. What the format does not model is kept under
``metadata["openai_responses"]`` so that ``to_payload(from_payload(p)) == p``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from ..contents import (
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
from ..errors import FormatError, describe_type
from ..history import ChatHistory
from ..labels import AuthorRole, FinishReason
from ..message import ChatMessageContent
from ..streaming import (
    StreamingChatMessageContent,
    StreamingFunctionCallContent,
    StreamingReasoningContent,
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
    "from_request",
    "from_response",
    "from_stream",
    "register_decoder",
    "register_encoder",
    "to_payload",
    "to_request",
]

NAME = "openai-responses"
"""The format's name in the `semantic_chat.formats` registry."""

HINTS = "openai_responses"
"""The metadata key under which this format keeps what it needs to write a payload back."""

_FORMAT = "OpenAI Responses"
_AUDIO_MIME = {"wav": "audio/wav", "mp3": "audio/mpeg"}
_MESSAGE_KEYS = ("role", "content")
_OPAQUE_PROVIDER = "openai"
_ROLES = frozenset(("system", "developer", "user", "assistant", "tool"))

_codecs = PluginCodecs()
register_encoder = _codecs.register_encoder
register_decoder = _codecs.register_decoder


# --- reading -----------------------------------------------------------------------------


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
    if isinstance(items, (bytes, dict)):
        raise FormatError.mismatch("input", "a string or a list of items", describe_type(items))
    _Reader(history).read_all(items, "input")
    return history


def from_request(request: Any) -> ChatHistory:
    """Read a ``responses.create`` request body (its ``instructions`` and ``input``).

    Raises:
        FormatError: the request or one of its items is malformed.
    """
    body = as_plain(request, "request")
    if type(body) is not dict:
        raise FormatError.mismatch("request", "a request object", describe_type(body))
    instructions = body.get("instructions")
    if instructions is not None and not isinstance(instructions, str):
        raise FormatError.mismatch("request.instructions", "str", describe_type(instructions))
    return from_payload(require(body, "input", (str, list), "request"), instructions)


def from_response(response: Any) -> ChatMessageContent:
    """Read a ``Response`` (dict or SDK object) as one assistant message holding its output.

    The message gets the response's ``id``, ``model``, ``usage`` (with cached and reasoning
    tokens) and a finish reason: ``tool_calls`` when it calls functions, ``length`` or
    ``content_filter`` when it is incomplete for those reasons, else ``stop``.

    Raises:
        FormatError: the response is malformed.
    """
    data = as_plain(response, "response")
    if type(data) is not dict:
        raise FormatError.mismatch("response", "a Response object", describe_type(data))
    history = ChatHistory()
    reader = _Reader(history)
    reader.read_all(require(data, "output", list, "response"), "response.output")
    items = [item for message in history.messages for item in message.items]
    message = ChatMessageContent(AuthorRole.ASSISTANT, items=items)
    message.id = data.get("id")
    message.model_id = data.get("model")
    message.finish_reason = _finish_reason(data, items)
    usage = data.get("usage")
    if isinstance(usage, dict):
        message.usage = read_usage(usage)
    message.inner_content = response
    return message


def read_usage(usage: dict[str, Any]) -> Usage:
    """Read a Responses ``usage`` object, with its cached and reasoning token details."""
    input_details = usage.get("input_tokens_details") or {}
    output_details = usage.get("output_tokens_details") or {}
    return Usage(
        prompt_tokens=usage.get("input_tokens") or 0,
        completion_tokens=usage.get("output_tokens") or 0,
        total_tokens=usage.get("total_tokens") or 0,
        cached_tokens=input_details.get("cached_tokens"),
        reasoning_tokens=output_details.get("reasoning_tokens"),
    )


def _finish_reason(data: dict[str, Any], items: list[KernelContent]) -> FinishReason:
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
        elif kind == "function_call":
            self._assistant_turn().items.append(self._read_call(item, path))
        elif kind == "reasoning":
            self._assistant_turn().items.append(_read_reasoning(item, path))
        elif kind == "function_call_output":
            self.turn = None
            call_id = require(item, "call_id", str, path)
            output = require(item, "output", (str, list), path)
            result = (
                output
                if isinstance(output, str)
                else read_parts(output, f"{path}.output", _read_part)
            )
            content = FunctionResultContent(call_id, result, name=self.call_names.get(call_id))
            _keep(content, item, ("type", "call_id", "output"), "fields")
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
        content = require(item, "content", (str, list), path)
        envelope: dict[str, Any] = {}
        if isinstance(content, str):
            parts: list[KernelContent] = [TextContent(content)]
        else:
            parts = read_parts(content, f"{path}.content", _read_part)
            if _default_is_string(content):
                envelope["parts"] = True
        fields = {key: value for key, value in item.items() if key not in _MESSAGE_KEYS}
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
            set_hints(target.metadata, HINTS, {"message": envelope} if envelope else {})

    def _read_call(self, item: dict[str, Any], path: str) -> FunctionCallContent:
        call = FunctionCallContent(
            require(item, "call_id", str, path),
            require(item, "name", str, path),
            require(item, "arguments", str, path),
        )
        _keep(call, item, ("type", "call_id", "name", "arguments"), "fields")
        self.call_names[call.id or ""] = call.name
        return call


def _default_is_string(content: list[Any]) -> bool:
    """Whether the writer would write this part list as a plain string."""
    return (
        len(content) == 1
        and isinstance(content[0], dict)
        and content[0].get("type") == "input_text"
        and len(content[0]) == 2
    )


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
    reasoning = ReasoningContent(
        "\n\n".join(texts),
        encrypted=encrypted if isinstance(encrypted, str) else None,
        provider=_OPAQUE_PROVIDER,
    )
    known = ["type", "summary"]
    if isinstance(encrypted, str):
        known.append("encrypted_content")
    _keep(reasoning, item, tuple(known), "fields")
    if not simple or len(texts) > 1 or texts == [""]:
        reasoning.metadata.setdefault(HINTS, {})["summary"] = summary
    return reasoning


def _read_part(part: dict[str, Any], path: str) -> KernelContent:
    kind = require(part, "type", str, path)
    item: KernelContent
    known: tuple[str, ...]
    no_detail = False
    if kind in ("input_text", "output_text"):
        item = TextContent(require(part, "text", str, path))
        known = ("type", "text")
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
        mime_type = _AUDIO_MIME.get(audio_format, f"audio/{audio_format}")
        payload = require(body, "data", str, f"{path}.input_audio")
        item = AudioContent.from_base64(payload, mime_type=mime_type)
        known = ("type", "input_audio")
    else:
        decode = _codecs.decoders.get(kind)
        if decode is None:
            raise FormatError(f"unknown content part type {kind!r}", path=f"{path}.type")
        return decode(part)
    hints: dict[str, Any] = {}
    if kind == "output_text":
        hints["output"] = True
    if no_detail:
        hints["no_detail"] = True
    extra = {key: value for key, value in part.items() if key not in known}
    if extra:
        hints["fields"] = extra
    set_hints(item.metadata, HINTS, hints)
    return item


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


# --- writing -----------------------------------------------------------------------------


def to_payload(
    history: Iterable[ChatMessageContent], *, on_unsupported: OnUnsupported = "raise"
) -> list[dict[str, Any]]:
    """Write a history as a Responses ``input`` list.

    An assistant message becomes its items in order: consecutive text and refusal items as one
    ``message`` item, function calls as ``function_call`` items, reasoning as ``reasoning``
    items. Function results become ``function_call_output`` items.

    Raises:
        UnsupportedContentError: an item the format cannot carry (reasoning from another
            provider, audio output, a plugin type with no encoder ...), named by message and
            item index, unless ``on_unsupported="drop"``.
    """
    payload: list[dict[str, Any]] = []
    for index, message in enumerate(history):
        _Writer(message, f"messages[{index}]", payload, on_unsupported).write()
    return payload


def to_request(
    history: Iterable[ChatMessageContent], *, on_unsupported: OnUnsupported = "raise"
) -> dict[str, Any]:
    """Write a history as the ``instructions`` and ``input`` of a ``responses.create`` call.

    A leading system message read from ``instructions`` goes back there; a history read from a
    string input is written as that string.
    """
    messages = list(history)
    request: dict[str, Any] = {}
    if messages and get_hints(messages[0].metadata, HINTS).get("instructions"):
        request["instructions"] = messages[0].text
        messages = messages[1:]
    if len(messages) == 1 and get_hints(messages[0].metadata, HINTS).get("string_input"):
        request["input"] = messages[0].text
    else:
        request["input"] = to_payload(messages, on_unsupported=on_unsupported)
    return request


class _Writer:
    """Writes one message as one or more input items."""

    def __init__(
        self,
        message: ChatMessageContent,
        path: str,
        payload: list[dict[str, Any]],
        on_unsupported: OnUnsupported,
    ) -> None:
        self.message = message
        self.role = str(message.role)
        self.path = path
        self.payload = payload
        self.on_unsupported = on_unsupported
        self.run: list[tuple[int, KernelContent]] = []
        self.run_is_output = False

    def write(self) -> None:
        if self.role not in _ROLES:
            raise FormatError(f"{_FORMAT} has no role {self.role!r}", path=f"{self.path}.role")
        items = list(enumerate(self.message.items))
        if not items:
            envelope = get_hints(self.message.metadata, HINTS).get("message", {})
            self._emit_message([], envelope)
            return
        for index, item in items:
            where = f"{self.path}.items[{index}]"
            if isinstance(item, (TextContent, RefusalContent)) or self._is_part(item):
                if self.role == "tool":
                    unsupported(self.on_unsupported, _FORMAT, where, item, "in a tool message")
                    continue
                if get_hints(item.metadata, HINTS).get("message") is not None:
                    self._flush()
                self.run.append((index, item))
                continue
            self._flush()
            if isinstance(item, FunctionCallContent):
                if item.id is None:
                    unsupported(self.on_unsupported, _FORMAT, where, item, "without a call id")
                else:
                    self.payload.append(_write_call(item))
            elif isinstance(item, FunctionResultContent):
                if item.call_id is None:
                    unsupported(self.on_unsupported, _FORMAT, where, item, "without a call id")
                else:
                    self.payload.append(self._write_result(item, where))
            elif isinstance(item, ReasoningContent):
                self._write_reasoning(item, where)
            elif isinstance(item, UnknownContent) and get_hints(item.metadata, HINTS).get("item"):
                self.payload.append({"type": item.type, **item.fields})
            else:
                why = f"in {_a(self.role)} message"
                unsupported(self.on_unsupported, _FORMAT, where, item, why)
        self._flush()

    def _is_part(self, item: KernelContent) -> bool:
        return isinstance(item, (ImageContent, FileContent)) or (
            _codecs.encoder_for(item) is not None
        )

    def _flush(self) -> None:
        if not self.run:
            return
        run, self.run = self.run, []
        envelope = get_hints(run[0][1].metadata, HINTS).get("message", {})
        self.run_is_output = "id" in envelope.get("fields", {})
        parts = []
        for index, item in run:
            part = self._write_part(item, f"{self.path}.items[{index}]")
            if part is not None:
                parts.append(part)
        self._emit_message(parts, envelope)

    def _emit_message(self, parts: list[dict[str, Any]], envelope: dict[str, Any]) -> None:
        written: dict[str, Any] = {"role": self.role}
        if _default_is_string(parts) and not envelope.get("parts"):
            written["content"] = parts[0]["text"]
        else:
            written["content"] = parts
        written.update(envelope.get("fields", {}))
        self.payload.append(written)

    def _write_part(self, item: KernelContent, path: str) -> dict[str, Any] | None:
        hints = get_hints(item.metadata, HINTS)
        part: dict[str, Any]
        encode = _codecs.encoder_for(item)
        if encode is not None:
            return encode(item)
        if isinstance(item, TextContent):
            kind = "output_text" if hints.get("output") else "input_text"
            part = {"type": kind, "text": item.text}
        elif isinstance(item, RefusalContent):
            if not self.run_is_output:
                unsupported(
                    self.on_unsupported, _FORMAT, path, item,
                    "outside an output message item (one read with its id)",
                )
                return None
            part = {"type": "refusal", "refusal": item.text}
        elif isinstance(item, ImageContent):
            part = {"type": "input_image"}
            if item.file_id is not None:
                part["file_id"] = item.file_id
            else:
                part["image_url"] = item.uri if item.uri is not None else data_url(item)
            if not hints.get("no_detail"):
                # The API requires a detail; "auto" is what it assumes, so None means "auto".
                part["detail"] = item.detail if item.detail is not None else "auto"
        elif isinstance(item, FileContent):
            part = {"type": "input_file"}
            if item.file_id is not None:
                part["file_id"] = item.file_id
            elif item.uri is not None:
                part["file_url"] = item.uri
            else:
                part["file_data"] = data_url(item)
            if item.filename is not None:
                part["filename"] = item.filename
        else:
            unsupported(self.on_unsupported, _FORMAT, path, item, f"in {_a(self.role)} message")
            return None
        part.update(hints.get("fields", {}))
        return part

    def _write_result(self, item: FunctionResultContent, path: str) -> dict[str, Any]:
        result = item.result
        output: str | list[dict[str, Any]]
        if isinstance(result, str):
            output = result
        elif isinstance(result, list) and result and all(
            isinstance(element, KernelContent) for element in result
        ):
            output = [
                part
                for index, element in enumerate(result)
                if (part := self._write_part(element, f"{path}.result[{index}]")) is not None
            ]
        else:
            output = json.dumps(result, ensure_ascii=False, separators=(",", ":"))
        written: dict[str, Any] = {
            "type": "function_call_output",
            "call_id": item.call_id,
            "output": output,
        }
        written.update(get_hints(item.metadata, HINTS).get("fields", {}))
        return written

    def _write_reasoning(self, item: ReasoningContent, path: str) -> None:
        hints = get_hints(item.metadata, HINTS)
        fields = hints.get("fields", {})
        if item.provider not in (None, _OPAQUE_PROVIDER):
            why = f"from {item.provider} (its opaque data is only valid there)"
            unsupported(self.on_unsupported, _FORMAT, path, item, why)
            return
        if "id" not in fields:
            why = "without the id of an OpenAI reasoning item"
            unsupported(self.on_unsupported, _FORMAT, path, item, why)
            return
        summary = hints.get("summary")
        if summary is None:
            summary = [{"type": "summary_text", "text": item.text}] if item.text else []
        written: dict[str, Any] = {"type": "reasoning", "summary": summary}
        if item.encrypted is not None:
            written["encrypted_content"] = item.encrypted
        written.update(fields)
        self.payload.append(written)


def _a(word: str) -> str:
    return f"an {word}" if word[:1] in "aio" else f"a {word}"


def _write_call(item: FunctionCallContent) -> dict[str, Any]:
    written: dict[str, Any] = {
        "type": "function_call",
        "call_id": item.id,
        "name": item.name,
        "arguments": arguments_text(item),
    }
    written.update(get_hints(item.metadata, HINTS).get("fields", {}))
    return written


# --- streaming ---------------------------------------------------------------------------


def from_stream(events: Iterable[Any]) -> Iterator[StreamingChatMessageContent]:
    """Read Responses stream events (dicts or SDK objects) as streaming chunks.

    Text, refusal and reasoning-summary deltas become fragments; a function call starts with
    its ``output_item.added`` event (call id and name) and grows by its argument deltas, keyed
    by ``output_index``; reasoning items keep their id and encrypted content; the final
    ``response.completed`` (or ``incomplete``) event gives id, model, usage and finish reason.
    Events that carry nothing for the message (``in_progress``, ``*.done`` of text ...) are
    skipped.

    Raises:
        FormatError: an event is malformed.
    """
    saw_call = False
    for number, raw in enumerate(events):
        path = f"events[{number}]"
        event = as_plain(raw, path)
        if type(event) is not dict:
            raise FormatError.mismatch(path, "a stream event object", describe_type(event))
        kind = event.get("type")
        chunk = _read_event(event, kind, path)
        if chunk is None:
            continue
        saw_call = saw_call or any(
            isinstance(item, StreamingFunctionCallContent) for item in chunk.items
        )
        finished = kind in ("response.completed", "response.incomplete")
        if finished and saw_call and chunk.finish_reason == FinishReason.STOP:
            chunk.finish_reason = FinishReason.TOOL_CALLS
        chunk.inner_content = raw
        yield chunk


def _read_event(event: dict[str, Any], kind: Any, path: str) -> StreamingChatMessageContent | None:
    delta = event.get("delta")
    index = event.get("output_index")
    items: list[KernelContent] = []
    if kind == "response.output_text.delta" and isinstance(delta, str):
        items.append(StreamingTextContent(delta))
    elif kind == "response.refusal.delta" and isinstance(delta, str):
        items.append(StreamingRefusalContent(delta))
    elif kind == "response.reasoning_summary_text.delta" and isinstance(delta, str):
        items.append(StreamingReasoningContent(delta, provider=_OPAQUE_PROVIDER))
    elif kind == "response.function_call_arguments.delta" and isinstance(delta, str):
        items.append(StreamingFunctionCallContent(id=None, name="", arguments=delta, index=index))
    elif kind in ("response.output_item.added", "response.output_item.done"):
        item = require(event, "item", dict, path)
        fragment = _item_fragment(item, index, added=kind.endswith("added"))
        if fragment is None:
            return None
        items.append(fragment)
    elif kind in ("response.created", "response.completed", "response.incomplete"):
        response = require(event, "response", dict, path)
        chunk = StreamingChatMessageContent(
            AuthorRole.ASSISTANT, id=response.get("id"), model_id=response.get("model")
        )
        if kind != "response.created":
            chunk.finish_reason = _finish_reason(response, [])
            usage = response.get("usage")
            if isinstance(usage, dict):
                chunk.usage = read_usage(usage)
        return chunk
    else:
        return None
    return StreamingChatMessageContent(AuthorRole.ASSISTANT, items=items)


def _item_fragment(item: dict[str, Any], index: Any, added: bool) -> KernelContent | None:
    kind = item.get("type")
    if kind == "function_call" and added:
        return StreamingFunctionCallContent(
            id=item.get("call_id"), name=item.get("name") or "", arguments="", index=index
        )
    if kind == "reasoning":
        encrypted = item.get("encrypted_content")
        fragment = StreamingReasoningContent(
            "", encrypted=encrypted if isinstance(encrypted, str) else None,
            provider=_OPAQUE_PROVIDER,
        )
        if isinstance(item.get("id"), str):
            fragment.metadata[HINTS] = {"fields": {"id": item["id"]}}
        return fragment
    return None
