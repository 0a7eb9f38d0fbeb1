"""Reading OpenAI Chat Completions payloads and responses into the model."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
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
from ...errors import FormatError, describe_type
from ...history import ChatHistory
from ...jsoncodec import JSON_INT_MAX, JSON_INT_MIN
from ...labels import AuthorRole, FinishReason
from ...media import check_base64, guess_mime_type, normalize_mime_type
from ...message import ChatMessageContent
from ...trusted import (
    new_binary,
    new_call,
    new_history,
    new_image,
    new_message,
    new_text,
    new_text_message,
    new_tool_message,
)
from ...usage import Usage
from ..documents import without_none
from ..wire import (
    ERROR_PREFIX,
    as_plain,
    binary_from_base64,
    binary_from_data_url,
    read_error,
    read_parts,
    report_unread,
    require,
    set_hints,
    usage_from,
)
from .citations import read_annotations, split_annotations
from .shared import (
    AUDIO_MIME,
    FORMAT,
    HINTS,
    MESSAGE_KEYS,
    ROLES,
    codecs,
)

__all__ = [
    "from_payload",
    "from_response",
    "read_audio",
    "read_usage",
]



def from_payload(messages: Iterable[Any]) -> ChatHistory:
    """Read a Chat Completions ``messages`` list (dicts or SDK objects) into a history.

    Raises:
        FormatError: a message or part is malformed (not an object, an unknown part type, a
            tool message without ``tool_call_id`` ...); the message names the location, e.g.
            ``messages[3].content[1].type``.
    """
    if isinstance(messages, (str, bytes, dict)) or not hasattr(messages, "__iter__"):
        raise FormatError.mismatch("messages", "a list of messages", describe_type(messages))
    read: list[ChatMessageContent] = []
    append = read.append
    read_plain = _read_plain_message
    call_names: dict[str, str] = {}
    for raw in messages:
        if type(raw) is dict:
            plain = read_plain(raw, call_names)
            if plain is not None:
                append(plain)
                continue
        path = f"messages[{len(read)}]"  # one message read per message given
        message = as_plain(raw, path)
        if type(message) is not dict:
            raise FormatError.mismatch(path, "a message object", describe_type(message))
        read.append(_read_message(message, path, call_names))
    return new_history(read)


_PLAIN_ROLES: dict[str, AuthorRole] = {
    role: AuthorRole(role) for role in ("system", "developer", "user", "assistant")
}


def _read_plain_message(
    message: dict[str, Any], call_names: dict[str, str]
) -> ChatMessageContent | None:
    """Read the common shapes that need no hints quickly; ``None`` sends the rest the long way.

    Mirrors `_write_plain_message`: text messages, an assistant's text and standard tool
    calls, a tool message with string content, and a user's text, image and audio parts,
    each with no key the general reader would keep as a hint. Every value is checked here,
    so the objects are made with the `semantic_chat.trusted` constructors.
    """
    try:
        role, content = message["role"], message["content"]
    except KeyError:
        return None  # no content is a hint on an assistant message, an error on the others
    if type(role) is not str:
        return None
    if len(message) == 2 and type(content) is str:  # the commonest shape: a role and text
        plain_role = _PLAIN_ROLES.get(role)
        if plain_role is not None:
            return new_text_message(plain_role, content)
    if role == "tool":
        call_id = message.get("tool_call_id")
        if (
            len(message) != 3
            or type(call_id) is not str
            or type(content) is not str
            or content.startswith(ERROR_PREFIX)
        ):
            return None
        return new_tool_message(call_id, content, call_names.get(call_id))
    plain_role = _PLAIN_ROLES.get(role)
    if plain_role is None:
        return None
    items: list[KernelContent] = []  # the message makes it its checked collection on first use
    name = message.get("name")
    calls = message.get("tool_calls")
    if len(message) != 2 + (name is not None) + (calls is not None) or (
        name is not None and type(name) is not str
    ):
        return None  # a key the general reader keeps as a hint, or a wrong type
    if type(content) is str:
        items.append(new_text(content))
    elif role == "user" and type(content) is list:
        if not _read_plain_parts(content, items):
            return None
    elif content is not None or role != "assistant":
        return None
    if calls is not None:
        if role != "assistant" or type(calls) is not list or not calls:
            return None
        try:  # a missing key or a call that is not an object: the general reader says so
            for call in calls:
                function = call["function"]
                call_id, function_name = call["id"], function["name"]
                arguments = function["arguments"]
                if (
                    type(call) is not dict
                    or len(call) != 3
                    or call["type"] != "function"
                    or type(function) is not dict
                    or len(function) != 2
                    or type(call_id) is not str
                    or type(function_name) is not str
                    or type(arguments) is not str
                ):
                    return None
                call_names[call_id] = function_name
                items.append(new_call(call_id, function_name, arguments, None))
        except (KeyError, TypeError):
            return None
    return new_message(plain_role, items, name)


def _read_plain_parts(parts: list[Any], items: list[KernelContent]) -> bool:
    """Read text, image and audio parts with no extra keys; ``False`` if any is otherwise."""
    for part in parts:
        if type(part) is not dict or len(part) != 2:
            return False
        kind = part.get("type")
        if kind == "text":
            text = part.get("text")
            if type(text) is not str:
                return False
            items.append(new_text(text))
        elif kind == "image_url":
            image = _read_plain_image(part.get("image_url"))
            if image is None:
                return False
            items.append(image)
        elif kind == "input_audio":
            body = part.get("input_audio")
            if type(body) is not dict or len(body) != 2:
                return False
            payload, audio_format = body.get("data"), body.get("format")
            mime_type = AUDIO_MIME.get(audio_format) if type(audio_format) is str else None
            if type(payload) is not str or mime_type is None:
                return False
            try:
                check_base64(payload)
            except ValueError:
                return False
            items.append(new_binary(AudioContent, payload, mime_type, None))
        else:
            return False
    # One text part alone needs the "parts" hint: the general reader keeps it.
    return not (len(items) == 1 and type(items[0]) is TextContent)


def _read_plain_image(body: Any) -> ImageContent | None:
    """An ``image_url`` body of a URL and an optional detail, or ``None`` for anything else."""
    if type(body) is not dict:
        return None
    url, detail = body.get("url"), body.get("detail")
    if (
        type(url) is not str
        or len(body) != (1 if detail is None else 2)
        or (detail is not None and type(detail) is not str)
    ):
        return None
    if not url.startswith("data:"):
        if url[:5].lower() == "data:":
            return None  # an upper-case data: URI, parsed by the general reader
        return new_image(None, None, url, detail)
    header, _, payload = url.partition(",")
    if not header.endswith(";base64") or len(header) <= 12:
        return None  # not base64, or no media type: the general reader's defaults apply
    try:
        check_base64(payload)
        mime_type = _data_url_mime_type(header)
    except ValueError:
        return None
    return new_image(payload, mime_type, None, detail)


def from_response(completion: Any, *, choice: int | None = None) -> ChatMessageContent:
    """Read one choice of a ``ChatCompletion`` (dict or SDK object) as the assistant's message.

    Without ``choice``, the first is read and each other one (``n`` > 1) is reported left
    out with a `ConversionWarning` (``completion.choices[1]: dropped: ...``); a ``choice``
    given says which, without a warning.

    The message gets the completion's ``id``, ``model`` (as ``model_id``), ``finish_reason``
    and ``usage`` (with cached and reasoning token counts); the other response fields
    (``created``, ``system_fingerprint``, ``logprobs`` ...) are kept in metadata.

    An SDK object, its ``model_dump()`` and its ``model_dump(exclude_none=True)`` give the
    same message: ``None`` fields are left out before reading (a missing ``content`` is the
    ``null`` the API sends).

    Raises:
        FormatError: the completion has no such choice or is malformed.
    """
    data = without_none(as_plain(completion, "completion"))
    if type(data) is not dict:
        raise FormatError.mismatch("completion", "a ChatCompletion object", describe_type(data))
    choices = require(data, "choices", list, "completion")
    if choice is None:
        choice = 0
        report_unread(len(choices), "completion.choices", "choice", "choice")
    if (
        type(choice) is not int
        or not 0 <= choice < len(choices)
        or type(choices[choice]) is not dict
    ):
        raise FormatError(f"no choice {choice} among {len(choices)}", path="completion.choices")
    path = f"completion.choices[{choice}]"
    picked = choices[choice]
    sent = require(picked, "message", dict, path)
    if "parsed" in sent or sent.get("tool_calls") == []:
        # What the SDK's parse() adds to the API's message: the parsed object (its content
        # holds the same JSON) and an empty list of calls; neither goes back in a request.
        sent = {
            key: value for key, value in sent.items()
            if key != "parsed" and not (key == "tool_calls" and value == [])
        }
    if "content" not in sent or "refusal" not in sent:  # the API always sends both
        sent = {"content": None, "refusal": None, **sent}
    message = _read_message(sent, f"{path}.message", {})
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
    return usage_from(usage, "prompt_tokens", "completion_tokens")


def _read_message(
    message: dict[str, Any], path: str, call_names: dict[str, str]
) -> ChatMessageContent:
    role = require(message, "role", str, path)
    if role not in ROLES:
        raise FormatError(f"{FORMAT} has no role {role!r}", path=f"{path}.role")
    known = MESSAGE_KEYS[role]
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
        answer, failed = read_error(
            _read_tool_content(require(message, "content", (str, list), path), path)
        )
        items.append(
            FunctionResultContent(call_id, answer, name=call_names.get(call_id), is_error=failed)
        )
    elif role == "function":
        function_name = require(message, "name", str, path)
        content = require(message, "content", (str, list, type(None)), path)
        result, failed = (None, False) if content is None else read_error(
            _read_tool_content(content, path)
        )
        items.append(FunctionResultContent(None, result, name=function_name, is_error=failed))
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
    set_hints(result_message, HINTS, hints)
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
        items.append(_read_answer_text(message, content, path, fields, hints))
    elif isinstance(content, list):
        items.extend(read_parts(content, f"{path}.content", _read_part))
        texts = sum(isinstance(item, TextContent) for item in items)
        if texts < 2 or any(isinstance(item, RefusalContent) for item in items):
            hints["parts"] = True
        _read_parts_annotations(message, items, path, fields, hints)
    elif "content" not in message:
        hints["no_content"] = True  # written as null unless the hint says it was missing
    elif content is not None:
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
        items.append(read_audio(audio, f"{path}.audio"))
    elif "audio" in message:
        fields["audio"] = audio
    tool_calls = message.get("tool_calls")
    if isinstance(tool_calls, list) and tool_calls:
        for index, call in enumerate(tool_calls):
            item = _read_tool_call(call, f"{path}.tool_calls[{index}]", index)
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


def _read_answer_text(
    message: dict[str, Any],
    content: str,
    path: str,
    fields: dict[str, Any],
    hints: dict[str, Any],
) -> TextContent:
    """An assistant's string content, with the message's ``annotations`` as its citations.

    The offsets of a response's annotations index this string. They move from the message's
    ``fields`` to the text, and the hint ``annotations`` says to write them back there.
    """
    text = TextContent(content)
    annotations = message.get("annotations")
    if isinstance(annotations, list):
        citations = read_annotations(annotations, f"{path}.annotations")
        if citations is not None:
            text.citations = citations
            del fields["annotations"]
            hints["annotations"] = True
    return text


def _read_parts_annotations(
    message: dict[str, Any],
    items: list[KernelContent],
    path: str,
    fields: dict[str, Any],
    hints: dict[str, Any],
) -> None:
    """Give a list content's ``annotations`` to its texts, whose joined text they index.

    A list that is not all url citations, or where one spans two texts or lies outside them,
    stays in the message's ``fields``, written back as it came.
    """
    annotations = message.get("annotations")
    if not isinstance(annotations, list):
        return
    citations = read_annotations(annotations, f"{path}.annotations")
    texts = [item for item in items if type(item) is TextContent]
    shared = None if citations is None else split_annotations(
        citations, [len(text.text) for text in texts]
    )
    if shared is None:
        return
    for text, own in zip(texts, shared, strict=True):
        if own:
            text.citations = own
    del fields["annotations"]
    hints["annotations"] = True


_CALL_KEYS = {
    kind: frozenset(("id", "type", "index", kind)) for kind in ("function", "custom")
}
"""A tool call's keys read into the call; ``index`` is the SDK's stream place of the call."""
_BODY_KEYS = {
    "function": frozenset(("name", "arguments", "parsed_arguments")),
    "custom": frozenset(("name", "input")),
}
"""A call body's keys read (``parsed_arguments``: the SDK's parse of ``arguments``, dropped)."""


def _read_tool_call(call: Any, path: str, place: int) -> FunctionCallContent:
    """One tool call of a response or request message, located at ``path``, ``place``-th.

    The ``index`` and ``parsed_arguments`` the SDK's stream state (and ``parse()``) add to a
    call are not the API's: ``index`` is the call's place in the stream, which is its place in
    the message (``place``) and then says nothing more (read as none, as in the reply and in
    an accumulated stream's message); another becomes the call's `FunctionCallContent.index`
    (never written to a request). ``parsed_arguments``, a copy of the ``arguments`` parsed,
    is dropped, so the SDK's final completion reads as the reply does.
    """
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
        index=_read_call_index(call, path, place),
    )
    hints: dict[str, Any] = {}
    if kind == "custom":
        hints["custom"] = True
    if "type" not in call:
        hints["untyped"] = True
    known, known_body = _CALL_KEYS[kind], _BODY_KEYS[kind]
    extra = {key: value for key, value in call.items() if key not in known}
    extra_body = {key: value for key, value in body.items() if key not in known_body}
    if extra:
        hints["fields"] = extra
    if extra_body:
        hints["body_fields"] = extra_body
    set_hints(item, HINTS, hints)
    return item


def _read_call_index(call: dict[str, Any], path: str, place: int) -> int | None:
    """A call's ``index`` (``None`` when missing, null or the call's ``place``).

    Raises:
        FormatError: it is not a JSON integer, at ``<path>.index``.
    """
    index = call.get("index")
    if index is None or (index == place and type(index) is int):
        return None
    if type(index) is int and JSON_INT_MIN <= index <= JSON_INT_MAX:
        return index
    if type(index) is int:
        raise FormatError(
            "integer outside the 64-bit range JSON readers accept", path=f"{path}.index"
        )
    raise FormatError.mismatch(f"{path}.index", "an int", describe_type(index))


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
        mime_type = AUDIO_MIME.get(audio_format, f"audio/{audio_format}")
        item = binary_from_base64(AudioContent, payload, mime_type, f"{path}.input_audio.data")
        _keep_extra(item, body, ("format", "data"))
    elif kind == "file":
        body = require(part, "file", dict, path)
        item = _read_file(body, f"{path}.file")
        _keep_extra(item, body, ("file_data", "file_id", "filename"))
    else:
        decoded = codecs.decode(part, path)
        if decoded is None:
            raise FormatError(f"unknown content part type {kind!r}", path=f"{path}.type")
        return decoded
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
    where = f"{path}.file_data"
    item = binary_from_base64(FileContent, file_data, mime_type, where, filename=filename)
    item.metadata[HINTS] = {"raw_base64": True}
    return item


def _keep_extra(item: KernelContent, body: dict[str, Any], known: tuple[str, ...]) -> None:
    extra = {key: value for key, value in body.items() if key not in known}
    if extra:
        item.metadata.setdefault(HINTS, {})["body_fields"] = extra


def _default_is_string(items: list[KernelContent]) -> bool:
    return len(items) == 1 and type(items[0]) is TextContent


@lru_cache(maxsize=256)
def _data_url_mime_type(header: str) -> str:
    """The normalized media type of a ``data:<type>;base64`` header, cached by header.

    Raises:
        ValueError: the media type is not valid (not cached: raised again each time).
    """
    return normalize_mime_type(header[5:-7])


def read_audio(audio: dict[str, Any], path: str) -> AudioContent:
    """A reply's ``audio`` object: its ``id`` as ``file_id``, every other field in the hints.

    Raises:
        FormatError: it has no ``str`` id, located at ``path``.
    """
    audio_id = require(audio, "id", str, path)
    found = AudioContent(file_id=audio_id)
    extra = {key: value for key, value in audio.items() if key != "id"}
    set_hints(found, HINTS, {"fields": extra} if extra else {})
    return found
