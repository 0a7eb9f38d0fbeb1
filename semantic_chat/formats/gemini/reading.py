"""Reading Gemini ``contents`` and ``system_instruction``, and ``GenerateContentResponse``.

Keys are read in either spelling (``function_call`` or ``functionCall``, mixed too), and what
the model has no field for is kept under ``metadata["gemini"]`` in snake_case, so that
``to_payload(from_payload(p)) == p`` in the payload's spelling:

- on a message: ``role`` (a role other than the default, or ``None`` for none), ``fields``
  (the content's other keys), ``no_parts`` (a system instruction without ``parts``; a
  content without them is refused), ``join`` (the rest of a user content whose results
  were read as a tool message before it), ``separate`` (a tool message that is a content of
  its own, not joined to the one before), ``string`` (a system instruction given as a
  string);
- on an item: ``thought_signature`` (on any part but a thought, whose signature is the
  `ReasoningContent`'s own), ``fields`` (the part's other keys: ``video_metadata``,
  ``media_resolution``, ``part_metadata``, an explicit ``thought: false`` ...), ``empty``
  (the keys of a part without data, read as empty reasoning), and per kind of data:
  ``data_fields``, ``display_name``, ``mime_type`` (as written, when normalizing changed
  it), ``base64`` (``"urlsafe"``), ``call_fields``, ``no_args``, ``response_fields``,
  ``wrap`` (``"output"``), ``response`` (one beside media whose value is no string),
  ``no_response``, ``value`` and ``part`` (on `UnknownContent`).

Calls without an ``id`` (the Gemini Developer API sends none) get one made up,
``gemini-call-<turn>-<k>`` (`shared.made_call_id`); a result without an id takes the id of
the earliest unanswered call of its name in the nearest model contents before it (a run of
consecutive ones answered together). Made-up ids
are never written back to Gemini, so a call and its result still pair up after a trip
through another format.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from ...contents import (
    AudioContent,
    BinaryContent,
    FileContent,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    KernelContent,
    ReasoningContent,
    TextContent,
    UnknownContent,
)
from ...contents.citation import Citation
from ...contents.unknown import labelled_class
from ...errors import FormatError, ProviderError, SemanticChatError, describe_type
from ...history import ChatHistory
from ...jsoncodec import model_json_value
from ...labels import AuthorRole, FinishReason
from ...media import check_base64, encode_base64, normalize_mime_type
from ...message import ChatMessageContent
from ...trusted import (
    new_binary,
    new_call,
    new_history,
    new_image,
    new_message,
    new_result,
    new_text,
    new_text_message,
)
from ..codecs import run_decoder
from ..wire import compact_json, report_unread
from .shared import (
    DATA_KEYS,
    FORMAT,
    HINTS,
    PART_FIELDS,
    PART_KINDS,
    PROVIDER,
    URL_SAFE_TO_STANDARD,
    codecs,
    finish_reason,
    is_made_id,
    made_call_id,
    plain,
    read_usage,
    respell,
    sdk_plain,
    signature_problem,
    snake_key,
)

__all__ = ["from_payload", "from_response"]

_USER, _ASSISTANT, _TOOL = AuthorRole.USER, AuthorRole.ASSISTANT, AuthorRole.TOOL
_SYSTEM = AuthorRole.SYSTEM
_CANDIDATE_KEYS = frozenset(("content", "finish_reason", "grounding_metadata",
                             "citation_metadata"))
_RESPONSE_KEYS = frozenset(("candidates", "response_id", "model_version", "usage_metadata"))


class _Calls:
    """The calls of the nearest model turn, for results without an id to pair with.

    A turn is a run of consecutive model contents (Gemini takes them): their calls are
    answered together by the results after the last, earliest call first.
    """

    __slots__ = ("after_model", "answered", "calls")

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []  # (id, name) in order
        self.answered: set[int] = set()  # indexes into calls
        self.after_model = False  # the content read last is the model's

    def start(self) -> None:
        """A model content begins: its calls join those of the model content just before.

        After any other content, earlier calls can no longer be answered by name.
        """
        if self.after_model:  # copies: a quick reader that gives up restores the lists
            self.calls = list(self.calls)
            self.answered = set(self.answered)
        else:
            self.calls = []
            self.answered = set()

    def answer(self, name: str) -> str | None:
        """The id of the earliest unanswered call named ``name`` (now answered), or ``None``.

        A call sent without an id (its id made up) is answered first: a call the API gave an
        id to is answered by a result giving that id.
        """
        fallback = None
        for index, (call_id, call_name) in enumerate(self.calls):
            if call_name == name and index not in self.answered:
                if is_made_id(call_id):
                    self.answered.add(index)
                    return call_id
                if fallback is None:
                    fallback = index
        if fallback is None:
            return None
        self.answered.add(fallback)
        return self.calls[fallback][0]

    def answered_by_id(self, call_id: str) -> None:
        """A result names its call by id: that call is answered."""
        for index, (known, _) in enumerate(self.calls):
            if known == call_id and index not in self.answered:
                self.answered.add(index)
                return


def from_payload(contents: Iterable[Any], system_instruction: Any = None) -> ChatHistory:
    """Read a Gemini ``contents`` list and its ``system_instruction`` into a history.

    ``system_instruction`` (a ``Content``, or a string as the SDK's config takes it) becomes
    one leading system message. ``contents[i]`` is one message: ``user`` -> user, ``model``
    -> assistant, ``tool`` or ``function`` (older documents) -> a tool message, no role ->
    user; a user content that starts with ``function_response`` parts is read as a tool
    message of those results, then a user message of the rest. Contents and parts may be
    dicts (either spelling) or ``google.genai`` SDK objects.

    Raises:
        FormatError: a content or part is malformed (not an object, a role the format does
            not have, no ``parts`` list, two data keys in one part, a ``function_call``
            without ``name`` ...);
            the message names the location, e.g. ``contents[3].parts[1].function_call.args``
            or ``system_instruction.parts[0].text``.
    """
    if isinstance(contents, (str, bytes, dict)) or not hasattr(contents, "__iter__"):
        raise FormatError.mismatch("contents", "a list of contents", describe_type(contents))
    return _from_payload(contents, system_instruction, True)


def _from_payload(contents: Iterable[Any], system_instruction: Any, quick: bool) -> ChatHistory:
    """`from_payload`; ``quick=False`` reads every content the general way (for the tests)."""
    read: list[ChatMessageContent] = []
    if system_instruction is not None:
        read.append(_read_system(system_instruction))
    calls = _Calls()
    after_results = False  # the message read last is a tool message
    for turn, raw in enumerate(contents):
        if quick and type(raw) is dict:
            saved = calls.calls, calls.answered
            try:
                message = _read_plain_content(raw, turn, calls, after_results)
            except (SemanticChatError, TypeError, ValueError):  # the general reader says what
                message = None
            if message is not None:
                read.append(message)
                after_results = message._role is _TOOL
                calls.after_model = message._role is _ASSISTANT
                continue
            calls.calls, calls.answered = saved  # as if the quick reader had not looked
        path = f"contents[{turn}]"
        content = plain(raw, path)
        if type(content) is not dict:
            raise FormatError.mismatch(path, "a Content object", describe_type(content))
        read.extend(_read_content(content, path, turn, calls, after_results))
        after_results = read[-1].role == _TOOL
        calls.after_model = read[-1].role == _ASSISTANT
    return new_history(read)


# --- the common shapes, quickly -----------------------------------------------------------

_PLAIN_KINDS = {
    "text": "text",
    "function_call": "call",
    "functionCall": "call",
    "function_response": "result",
    "functionResponse": "result",
    "inline_data": "blob",
    "inlineData": "blob",
}
_PLAIN_ROLES = {"user": _USER, "model": _ASSISTANT}


def _read_plain_content(
    content: dict[str, Any], turn: int, calls: _Calls, after_results: bool
) -> ChatMessageContent | None:
    """Read the common shapes that need no hints quickly; ``None`` sends the rest the long way.

    A ``user`` or ``model`` content of parts with one key each: plain text; a model's calls
    (``args`` an object); a user's inline images, audio and files whose media type is as
    the reader keeps it; or a user content of results only (``{"result": <text>}``), read
    as a tool message unless one came just before (that one needs a hint). The writer's
    quick loop writes these same shapes. Every value is checked here, so the objects are
    made with the `semantic_chat.trusted` constructors.
    """
    if len(content) != 2:
        return None
    role = _PLAIN_ROLES.get(content.get("role"))  # type: ignore[arg-type]  # None if unknown
    parts = content.get("parts")
    if role is None or type(parts) is not list:
        return None
    if len(parts) == 1:  # the commonest content: one text
        (part,) = parts
        if type(part) is dict and len(part) == 1:
            text = part.get("text")
            if type(text) is str:
                if role is _ASSISTANT:
                    calls.start()
                return new_text_message(role, text)
    model = role is _ASSISTANT
    if model:
        calls.start()
    items: list[KernelContent] = []
    append = items.append
    results = 0
    made = 0  # calls or results read: the k of a made-up id
    for part in parts:
        if type(part) is not dict or len(part) != 1:
            return None
        ((key, value),) = part.items()
        kind = _PLAIN_KINDS.get(key)
        if kind == "text":
            if type(value) is not str or results:
                return None
            append(new_text(value))
        elif kind == "call" and model:
            call = _plain_call(value, turn, made, calls)
            if call is None:
                return None
            made += 1
            append(call)
        elif kind == "result" and not model and results == len(items):
            if not results:  # answered here, on a copy: the caller restores it if need be
                calls.answered = set(calls.answered)
            answered = _plain_result(value, turn, made, calls)
            if answered is None:
                return None
            made += 1
            results += 1
            append(answered)
        elif kind == "blob" and not model and not results:
            blob = _plain_blob(value)
            if blob is None:
                return None
            append(blob)
        else:
            return None
    if results:
        return None if after_results else new_message(_TOOL, items)
    return new_message(role, items)


def _plain_call(
    body: Any, turn: int, made: int, calls: _Calls
) -> FunctionCallContent | None:
    """A ``function_call`` of a name, an ``args`` object and maybe an id; else ``None``."""
    if type(body) is not dict:
        return None
    name, arguments, call_id = body.get("name"), body.get("args"), body.get("id")
    if (
        len(body) != (2 if call_id is None else 3)
        or type(name) is not str
        or type(arguments) is not dict
        or (call_id is not None and type(call_id) is not str)
    ):
        return None
    checked = model_json_value(arguments, "arguments")  # a copy: shares nothing mutable
    if call_id is None:
        call_id = made_call_id(turn, made)
    calls.calls.append((call_id, name))
    return new_call(call_id, name, checked, None)


def _plain_result(
    body: Any, turn: int, made: int, calls: _Calls
) -> FunctionResultContent | None:
    """A ``function_response`` of a name and ``{"result": <text>}``, maybe an id; else ``None``."""
    if type(body) is not dict:
        return None
    name, response, call_id = body.get("name"), body.get("response"), body.get("id")
    if (
        len(body) != (2 if call_id is None else 3)
        or type(name) is not str
        or type(response) is not dict
        or len(response) != 1
        or (call_id is not None and type(call_id) is not str)
    ):
        return None
    answer = response.get("result")
    if type(answer) is not str:
        return None
    if call_id is None:
        call_id = calls.answer(name) or made_call_id(turn, made)
    else:
        calls.answered_by_id(call_id)
    return new_result(call_id, answer, name, False)


def _plain_blob(body: Any) -> BinaryContent | None:
    """``inline_data`` of a media type (as the reader keeps it) and base64; else ``None``."""
    if type(body) is not dict or len(body) != 2:
        return None
    mime_type = body.get("mime_type") or body.get("mimeType")
    payload = body.get("data")
    if type(mime_type) is not str or type(payload) is not str:
        return None
    check_base64(payload)  # not base64: raises, for the general reader to locate
    if _normalized(mime_type) != mime_type:
        return None  # kept as written by a hint: the general reader
    cls = _media_class(mime_type)
    if cls is ImageContent:
        return new_image(payload, mime_type, None, None)
    if cls is FileContent:
        return new_binary(FileContent, payload, mime_type, None, "_filename", None)
    return new_binary(cls, payload, mime_type, None)


@lru_cache(maxsize=256)
def _normalized(mime_type: str) -> str:
    """A media type as `BinaryContent` keeps it, cached (a bad one raises, uncached)."""
    return normalize_mime_type(mime_type)


def from_response(response: Any, *, candidate: int | None = None) -> ChatMessageContent:
    """Read one candidate of a ``GenerateContentResponse`` (dict or SDK object) as a message.

    ``candidates[candidate].content`` is the assistant's message (an empty one for a
    candidate without content, e.g. a blocked one, or a response without candidates).
    Without ``candidate``, the first is read and each other one is reported left out with a
    `ConversionWarning` (``response.candidates[1]: dropped: ...``); a ``candidate`` given
    says which, without a warning. The
    message gets ``response_id`` as its ``id``, ``model_version`` as ``model_id``,
    ``finish_reason`` (see `shared.finish_reason`; ``STOP`` with function calls is
    ``TOOL_CALLS``; a prompt blocked, ``prompt_feedback.block_reason``, is
    ``CONTENT_FILTER``) and ``usage_metadata`` (see `shared.read_usage`). The response is
    read as proto JSON (`shared.proto_json`): every ``model_dump`` of an SDK object reads
    as the object does. ``grounding_metadata``
    and ``citation_metadata`` become citations on the text they support. The original finish
    reason, the whole usage, grounding and citation metadata, and every other field of the
    candidate (``safety_ratings``, ``avg_logprobs``, ``index`` ...) and of the response
    (``create_time``, ``prompt_feedback`` ...) are kept in ``metadata["gemini"]``
    (``finish_reason``, ``usage_metadata``, ``grounding_metadata``, ``citation_metadata``,
    ``candidate``, ``response``), in snake_case without ``null`` fields; ``inner_content`` is
    the object given.

    An error body (``{"error": {"code": 503, "message": ..., "status": "UNAVAILABLE"}}``,
    what the REST API answers, or sends mid-stream, instead of a response) has no reply: it
    raises `ProviderError`.

    Raises:
        ProviderError: the body is an API error (``UNAVAILABLE: The model is overloaded``),
            located at ``response.error``.
        FormatError: the response is not an object, has no candidate ``candidate``, or a
            part is malformed; the message names the location
            (``response.candidates[0].content.parts[1].function_call.name``).
    """
    data = plain(response, "response")
    if type(data) is not dict:
        raise FormatError.mismatch(
            "response", "a GenerateContentResponse object", describe_type(data)
        )
    if data.get("error") is not None:
        raise provider_error(data["error"]).with_path("response.error")
    data = _snake_without_none(data)
    path = f"response.candidates[{candidate or 0}]"
    picked = _candidate(data, candidate, path)
    hints: dict[str, Any] = {}
    items: list[KernelContent] = []
    parts: list[dict[str, Any]] = []
    content = picked.get("content")
    if content is not None:
        where = f"{path}.content"
        content = sdk_plain(content, where)
        if type(content) is not dict:
            raise FormatError.mismatch(where, "a Content object", describe_type(content))
        items, parts, fields = _read_answer(content, where)
        if fields:
            hints["fields"] = fields
    reply = ChatMessageContent(_ASSISTANT, items=items)
    reply.id = _optional_str(data, "response_id", "response")
    reply.model_id = _optional_str(data, "model_version", "response")
    reason = _optional_str(picked, "finish_reason", path)
    if reason is not None:
        calls = any(type(item) is FunctionCallContent for item in items)
        reply.finish_reason = finish_reason(reason, calls)
        hints["finish_reason"] = reason
    elif _prompt_blocked(data.get("prompt_feedback")):
        reply.finish_reason = FinishReason.CONTENT_FILTER  # the reason stays in "response"
    usage = data.get("usage_metadata")
    if usage is not None:
        if type(usage) is not dict:
            raise FormatError.mismatch(
                "response.usage_metadata", "a usage metadata object", describe_type(usage)
            )
        reply.usage = read_usage(usage, "response.usage_metadata")
        hints["usage_metadata"] = respell(usage, "snake")
    _read_citations(picked, parts, items, path, hints)
    other = {key: value for key, value in picked.items() if key not in _CANDIDATE_KEYS}
    if other:
        hints["candidate"] = respell(other, "snake")
    other = {key: value for key, value in data.items() if key not in _RESPONSE_KEYS}
    if other:
        hints["response"] = respell(other, "snake")
    _set_hints(reply, hints, path)
    reply.inner_content = response
    return reply


def _prompt_blocked(feedback: Any) -> bool:
    """Whether a response's ``prompt_feedback`` says the prompt was blocked (``block_reason``).

    Raises:
        FormatError: its ``block_reason`` is not a string.
    """
    if type(feedback) is not dict:
        return False
    for key, reason in feedback.items():
        if snake_key(key) == "block_reason" and reason is not None:
            if type(reason) is not str:
                raise FormatError.mismatch(
                    f"response.prompt_feedback.{key}", "str", describe_type(reason)
                )
            return True
    return False


def _candidate(data: dict[str, Any], candidate: int | None, path: str) -> dict[str, Any]:
    """The candidate asked for (keys in snake_case); none in a response without candidates.

    ``None`` is the first, each other one reported left out (`wire.report_unread`).
    """
    candidates = data.get("candidates")
    if candidates is None:
        candidates = []
    if type(candidates) is not list:
        raise FormatError.mismatch("response.candidates", "a list", describe_type(candidates))
    if candidate is None:
        candidate = 0
        report_unread(len(candidates), "response.candidates", "candidate", "candidate")
    if type(candidate) is not int or not (
        0 <= candidate < len(candidates) or (candidate == 0 and not candidates)
    ):
        raise FormatError(
            f"no candidate {candidate!r} among {len(candidates)}", path="response.candidates"
        )
    if not candidates:
        return {}
    given = sdk_plain(candidates[candidate], path)
    if type(given) is not dict:
        raise FormatError.mismatch(path, "a Candidate object", describe_type(given))
    return _snake_without_none(given)


def provider_error(error: Any) -> ProviderError:
    """The `ProviderError` of a Google API error object: ``"<status>: <message>"``.

    The ``status`` (``UNAVAILABLE``) is its ``error_type``; without one, the HTTP ``code``
    names it (``503: ...``).
    """
    error = error if isinstance(error, dict) else {"message": error}
    status = error.get("status") if isinstance(error.get("status"), str) else None
    code = error.get("code")
    name = status or (str(code) if type(code) is int else "error")
    message = error.get("message")
    detail = message if isinstance(message, str) else "the API reported an error"
    return ProviderError(f"{name}: {detail}", error_type=status)


def _read_answer(
    content: dict[str, Any], path: str
) -> tuple[list[KernelContent], list[dict[str, Any]], dict[str, Any]]:
    """A candidate's content: its items, its parts (keys in snake_case), its other keys."""
    known = _snake_keys(content, path)
    role = known.get("role")
    if role is not None and role != "model":
        raise FormatError(f"an answer is the model's, got role {role!r}", path=f"{path}.role")
    parts = known.get("parts")
    if parts is None:
        parts = []
    if type(parts) is not list:
        raise FormatError.mismatch(f"{path}.parts", "a list of parts", describe_type(parts))
    calls = _Calls()
    counts = [0, 0]
    items: list[KernelContent] = []
    snake_parts: list[dict[str, Any]] = []
    for index, raw in enumerate(parts):
        where = f"{path}.parts[{index}]"
        part = sdk_plain(raw, where)
        if type(part) is not dict:
            raise FormatError.mismatch(where, "a Part object", describe_type(part))
        snake = _snake_keys(part, where)
        snake_parts.append(snake)
        items.append(_read_part(snake, where, 0, calls, counts))
    fields = {key: value for key, value in known.items() if key not in ("role", "parts")}
    return items, snake_parts, respell(fields, "snake")


def _read_citations(
    candidate: dict[str, Any],
    parts: list[dict[str, Any]],
    items: list[KernelContent],
    path: str,
    hints: dict[str, Any],
) -> None:
    """Hang a candidate's grounding and recitation citations on the text items they support."""
    grounding = candidate.get("grounding_metadata")
    recited = candidate.get("citation_metadata")
    if grounding is None and recited is None:
        return
    from .grounding import read_citation_metadata, read_grounding  # noqa: PLC0415 - C's part

    found: dict[int, list[Citation]] = {}
    if grounding is not None:
        hints["grounding_metadata"] = respell(grounding, "snake")
        for index, citations in read_grounding(
            grounding, parts, f"{path}.grounding_metadata"
        ).items():
            found.setdefault(index, []).extend(citations)
    if recited is not None:
        hints["citation_metadata"] = respell(recited, "snake")
        for index, citations in read_citation_metadata(
            recited, parts, f"{path}.citation_metadata"
        ).items():
            found.setdefault(index, []).extend(citations)
    for index in sorted(found):
        item = items[index] if 0 <= index < len(items) else None
        if type(item) is not TextContent:
            raise FormatError(
                f"citations name part {index}, which is no text",
                path=f"{path}.content.parts[{index}]",
            )
        item.citations = [*item.citations, *found[index]]


# --- contents -------------------------------------------------------------------------------


def _read_system(given: Any) -> ChatMessageContent:
    """The ``system_instruction``: a string (hint ``string``), or a Content of parts."""
    if type(given) is str:
        message = ChatMessageContent(_SYSTEM, items=[TextContent(given)])
        message.metadata[HINTS] = {"string": True}
        return message
    if type(given) is dict and len(given) == 1:  # {"parts": [{"text": ...}, ...]}, quickly
        parts = given.get("parts")
        if type(parts) is list and all(
            type(part) is dict and len(part) == 1 and type(part.get("text")) is str
            for part in parts
        ):
            return new_message(_SYSTEM, [new_text(part["text"]) for part in parts])
    path = "system_instruction"
    content = plain(given, path)
    shape = _system_shape(content)
    if shape is not None:  # the SDK's other forms: a part, or a list of parts and strings
        content = {"parts": [{"text": each} if type(each) is str else each
                             for each in (content if type(content) is list else [content])]}
    if type(content) is not dict:
        raise FormatError.mismatch(
            path, "a string, a Content object, a part or a list of parts", describe_type(content)
        )
    known = _snake_keys(content, path)
    hints: dict[str, Any] = {}
    if shape is not None:
        hints["shape"] = shape
    if "role" in known:
        role = known["role"]
        if role is not None and type(role) is not str:
            raise FormatError.mismatch(f"{path}.role", "str", describe_type(role))
        hints["role"] = role
    items = _read_parts(known, path, -1, _Calls(), hints)
    fields = {key: value for key, value in known.items() if key not in ("role", "parts")}
    if fields:
        hints["fields"] = respell(fields, "snake")
    message = ChatMessageContent(_SYSTEM, items=items)
    _set_hints(message, hints, path)
    return message


def _system_shape(given: Any) -> Any:
    """How a ``system_instruction`` in one of the SDK's other forms was given, else ``None``.

    The SDK takes a part (``{"text": ...}``) or a list of parts and strings there too, and
    sends them as a Content; the form is kept so that the instruction is written back as
    given: ``"part"``, or for a list the index of each string in it.
    """
    if type(given) is dict and "parts" not in given and "role" not in given and given:
        return "part"
    if type(given) is list and all(type(each) in (str, dict) for each in given):
        return [index for index, each in enumerate(given) if type(each) is str]
    return None


def _read_content(
    content: dict[str, Any], path: str, turn: int, calls: _Calls, after_results: bool
) -> list[ChatMessageContent]:
    """One content as one message, or two: a user content's leading results, then the rest.

    ``after_results`` says the message read before is a tool message that a tool message
    read here would be joined to when written, unless marked ``separate``.
    """
    known = _snake_keys(content, path)
    hints: dict[str, Any] = {}
    role = known.get("role")
    if "role" not in known or role is None:
        kind = "user"
        hints["role"] = None
    elif type(role) is not str:
        raise FormatError.mismatch(f"{path}.role", "str", describe_type(role))
    elif role in ("user", "model"):
        kind = role
    elif role in ("tool", "function"):
        kind = "tool"
        hints["role"] = role
    else:
        raise FormatError(f"{FORMAT} has no role {role!r}", path=f"{path}.role")
    if "parts" not in known:  # says nothing: a document of another shape, most likely
        raise FormatError(_missing_parts(content), path=path)
    if kind == "model":
        calls.start()
    items = _read_parts(known, path, turn, calls, hints)
    fields = {key: value for key, value in known.items() if key not in ("role", "parts")}
    if fields:
        hints["fields"] = respell(fields, "snake")
    if kind == "model":
        message = ChatMessageContent(_ASSISTANT, items=items)
        _set_hints(message, hints, path)
        return [message]
    lead = len(items) if kind == "tool" else 0
    if kind == "user":
        while lead < len(items) and type(items[lead]) is FunctionResultContent:
            lead += 1
    if not lead:
        message = ChatMessageContent(_USER, items=items)
        _set_hints(message, hints, path)
        return [message]
    if after_results:
        hints["separate"] = True
    results = ChatMessageContent(_TOOL, items=items[:lead])
    _set_hints(results, hints, path)
    if lead == len(items):
        return [results]
    rest = ChatMessageContent(_USER, items=items[lead:])
    rest_hints: dict[str, Any] = {"join": True}
    if "role" in hints and hints["role"] is None:
        rest_hints["role"] = None
    rest.metadata[HINTS] = rest_hints
    return [results, rest]


def _missing_parts(content: dict[str, Any]) -> str:
    """Why a content without ``parts`` is refused, naming the keys it has instead (as given).

    A Chat message's ``content`` or a response's ``candidates`` would otherwise be kept as
    hints other formats never see, and the message read as an empty one.
    """
    other = [key for key in content if key != "role"]
    if not other:
        return "missing 'parts'"
    names = ", ".join(repr(key) for key in other)
    return f"missing 'parts' (a Content holds 'role' and 'parts', got {names})"


def _read_parts(
    known: dict[str, Any], path: str, turn: int, calls: _Calls, hints: dict[str, Any]
) -> list[KernelContent]:
    """A content's ``parts`` (``no_parts`` in ``hints`` when it has none: a system instruction)."""
    if "parts" not in known:
        hints["no_parts"] = True
        return []
    parts = known["parts"]
    if type(parts) is not list:
        raise FormatError.mismatch(f"{path}.parts", "a list of parts", describe_type(parts))
    counts = [0, 0]  # calls and results read so far in this content
    items: list[KernelContent] = []
    for index, raw in enumerate(parts):
        where = f"{path}.parts[{index}]"
        part = sdk_plain(raw, where)
        if type(part) is not dict:
            raise FormatError.mismatch(where, "a Part object", describe_type(part))
        items.append(_read_part(_snake_keys(part, where), where, turn, calls, counts))
    return items


# --- parts ----------------------------------------------------------------------------------


def _read_part(
    part: dict[str, Any], path: str, turn: int, calls: _Calls, counts: list[int]
) -> KernelContent:
    """One part (keys in snake_case): its data key makes the item, the other keys hints."""
    data_key = _data_key(part, path)
    if data_key is not None and data_key not in PART_KINDS:
        decode = codecs.decoders.get(data_key)
        if decode is not None:
            return _decode(decode, data_key, part, path)
    signature = part.get("thought_signature")
    if signature is not None:
        signature = _signature(signature, f"{path}.thought_signature")
    thought = part.get("thought")
    if thought is not None and type(thought) is not bool:
        raise FormatError.mismatch(f"{path}.thought", "bool", describe_type(thought))
    hints: dict[str, Any] = {}
    item: KernelContent
    if data_key is None:  # a part without data: the API sends {"thought": true} alone
        item = ReasoningContent("", signature=signature, provider=PROVIDER)
        hints["empty"] = [
            key for key in ("thought", "thought_signature")
            if part.get(key) is not None and (key != "thought" or thought)
        ]
        _part_fields(part, hints, ("thought_signature", "thought") if thought else
                     ("thought_signature",))
        _set_hints(item, hints, path)
        return item
    value = part[data_key]
    where = f"{path}.{data_key}"
    if data_key == "text":
        if type(value) is not str:
            raise FormatError.mismatch(where, "str", describe_type(value))
        if thought:
            item = ReasoningContent(value, signature=signature, provider=PROVIDER)
            _part_fields(part, hints, ("text", "thought_signature", "thought"))
            _set_hints(item, hints, path)
            return item
        item = TextContent(value)
    elif data_key in ("inline_data", "file_data"):
        item = _read_media(data_key, value, where, hints)
    elif data_key == "function_call":
        item = _read_call(value, where, turn, calls, counts, hints)
    elif data_key == "function_response":
        item = _read_result(value, where, turn, calls, counts, hints)
    else:
        item = _unknown(data_key, value, where, hints)
    if signature is not None:
        hints["thought_signature"] = signature
    _part_fields(part, hints, (data_key, "thought_signature"))
    _set_hints(item, hints, path)
    return item


def _data_key(part: dict[str, Any], path: str) -> str | None:
    """The key holding a part's data, or ``None`` for a part without.

    One of `DATA_KEYS`, else the first key that is no known part-level field (data newer
    than this code).

    Raises:
        FormatError: the part holds two known data keys.
    """
    found: str | None = None
    for key in part:
        if key in DATA_KEYS:
            if found is not None and found in DATA_KEYS:
                raise FormatError(
                    f"a part holds one kind of data, got {found!r} and {key!r}", path=path
                )
            found = key
        elif found is None and key not in PART_FIELDS:
            found = key
    return found


def _part_fields(part: dict[str, Any], hints: dict[str, Any], known: tuple[str, ...]) -> None:
    """Keep a part's keys the item has no field for (``video_metadata`` ...) as hints."""
    if len(part) > len(known) or any(key not in known for key in part):
        fields = {key: value for key, value in part.items() if key not in known}
        if fields:
            hints["fields"] = respell(fields, "snake")


def _signature(value: Any, path: str) -> str:
    """A thought signature as base64 text (bytes from an SDK dump in Python mode encoded)."""
    if type(value) is str:
        problem = signature_problem(value)
        if problem is not None:
            raise FormatError(problem, path=path)
        return value
    if type(value) is bytes:
        return encode_base64(value)
    raise FormatError.mismatch(path, "base64 text", describe_type(value))


def _read_media(
    key: str, value: Any, path: str, hints: dict[str, Any]
) -> BinaryContent:
    """``inline_data {mime_type, data, display_name?}`` or ``file_data {file_uri, ...}``.

    ``image/*`` is an image, ``audio/*`` audio, anything else (or no type) a file, whose
    ``display_name`` is its ``filename`` (a hint on the other kinds).
    """
    if type(value) is not dict:
        raise FormatError.mismatch(path, "an object", describe_type(value))
    body = _snake_keys(value, path)
    mime_type = body.get("mime_type")
    if mime_type is not None and type(mime_type) is not str:
        raise FormatError.mismatch(f"{path}.mime_type", "str", describe_type(mime_type))
    display_name = body.get("display_name")
    if display_name is not None and type(display_name) is not str:
        raise FormatError.mismatch(f"{path}.display_name", "str", describe_type(display_name))
    cls = _media_class(mime_type)
    fields: dict[str, Any] = {}
    if cls is FileContent and display_name is not None:
        fields["filename"] = display_name
        hints["display_name"] = True
    elif display_name is not None:
        hints["display_name"] = display_name
    try:
        if key == "inline_data":
            known: tuple[str, ...] = ("mime_type", "data", "display_name")
            if mime_type is None:
                raise FormatError("missing 'mime_type'", path=path)
            item = _inline(cls, body, mime_type, path, hints, fields)
        else:
            known = ("file_uri", "mime_type", "display_name")
            uri = body.get("file_uri")
            if type(uri) is not str:
                if uri is None:
                    raise FormatError("missing 'file_uri'", path=path)
                raise FormatError.mismatch(f"{path}.file_uri", "str", describe_type(uri))
            item = cls(uri=uri, mime_type=mime_type, **fields)
    except FormatError:
        raise
    except SemanticChatError as error:  # a bad media type
        where = "mime_type" if error.path.startswith("mime_type") else "data"
        raise FormatError(error.detail, path=f"{path}.{where}") from None
    if mime_type is not None and item.mime_type != mime_type:
        hints["mime_type"] = mime_type  # normalized: written back as it came
    extra = {name: element for name, element in body.items() if name not in known}
    if extra:
        hints["data_fields"] = respell(extra, "snake")
    return item


def _inline(  # noqa: PLR0917 - one reader's parts, passed on
    cls: type[BinaryContent],
    body: dict[str, Any],
    mime_type: str,
    path: str,
    hints: dict[str, Any],
    fields: dict[str, Any],
) -> BinaryContent:
    """The bytes of ``inline_data``: base64 text kept undecoded (URL-safe read too)."""
    data = body.get("data")
    if type(data) is bytes:  # an SDK dump in Python mode
        return cls(data=data, mime_type=mime_type, **fields)
    if type(data) is not str:
        if data is None:
            raise FormatError("missing 'data'", path=path)
        raise FormatError.mismatch(f"{path}.data", "base64 text", describe_type(data))
    try:
        check_base64(data)
    except ValueError as error:
        standard = data.translate(URL_SAFE_TO_STANDARD)
        try:
            check_base64(standard)
        except ValueError:
            raise FormatError(str(error), path=f"{path}.data") from None
        hints["base64"] = "urlsafe"
        data = standard
    return cls.from_base64(data, mime_type=mime_type, **fields)


def _media_class(mime_type: str | None) -> type[BinaryContent]:
    """The item class of a media type: image, audio, or file for the rest."""
    major = (mime_type or "").partition("/")[0].strip().lower()
    if major == "image":
        return ImageContent
    if major == "audio":
        return AudioContent
    return FileContent


def _read_call(  # noqa: PLR0917 - the reader's state, passed on
    value: Any,
    path: str,
    turn: int,
    calls: _Calls,
    counts: list[int],
    hints: dict[str, Any],
) -> FunctionCallContent:
    """``function_call {id?, name, args?}``; no id: one made up (`shared.made_call_id`)."""
    if type(value) is not dict:
        raise FormatError.mismatch(path, "a FunctionCall object", describe_type(value))
    body = _snake_keys(value, path)
    name = _required_str(body, "name", path)
    call_id = _optional_str(body, "id", path)
    if call_id is None:
        call_id = made_call_id(turn, counts[0])
    counts[0] += 1
    if "args" in body and body["args"] is not None:
        arguments = body["args"]
        if type(arguments) is not dict:
            raise FormatError.mismatch(f"{path}.args", "an object", describe_type(arguments))
    else:
        arguments = {}
        hints["no_args"] = True
    try:
        item = FunctionCallContent(call_id, name, arguments)
    except SemanticChatError as error:  # a value JSON cannot hold: located in ``args``
        located = f"{path}.args" + error.path.removeprefix("arguments")
        raise FormatError(error.detail, path=located) from None
    calls.calls.append((call_id, name))
    extra = {key: element for key, element in body.items() if key not in ("id", "name", "args")}
    if extra:
        hints["call_fields"] = respell(extra, "snake")
    return item


def _read_result(  # noqa: PLR0917 - the reader's state, passed on
    value: Any,
    path: str,
    turn: int,
    calls: _Calls,
    counts: list[int],
    hints: dict[str, Any],
) -> FunctionResultContent:
    """``function_response {id?, name, response, parts?, ...}`` as a result.

    No id: the id of the call it answers (by name and order), or one made up. With media
    ``parts``, the result is a list: the response's value as text (compact JSON unless a
    string), then the media, so that every format carries the tool's data.
    """
    if type(value) is not dict:
        raise FormatError.mismatch(path, "a FunctionResponse object", describe_type(value))
    body = _snake_keys(value, path)
    name = _required_str(body, "name", path)
    call_id = _optional_str(body, "id", path)
    if call_id is None:
        call_id = calls.answer(name) or made_call_id(turn, counts[1])
    else:
        calls.answered_by_id(call_id)
    counts[1] += 1
    response = body.get("response")
    failed = False
    answer: Any = None
    if response is None:
        hints["no_response"] = True
    elif type(response) is not dict:
        raise FormatError.mismatch(f"{path}.response", "an object", describe_type(response))
    elif len(response) == 1 and ("result" in response or "output" in response):
        ((key, answer),) = response.items()
        if key == "output" or (type(answer) is dict and not _is_wrapper(answer)):
            hints["wrap"] = key  # a dict that is no wrapper is written as it is otherwise
    elif len(response) == 1 and "error" in response:
        failed, answer = True, response["error"]
    else:
        answer = response
    known = ["id", "name", "response"]
    media = body.get("parts")
    if type(media) is list and media:
        known.append("parts")
        items: list[KernelContent] = []
        if type(answer) is str:
            items.append(TextContent(answer))
        elif response is not None and response != ({"error": None} if failed else {}):
            hints["response"] = response  # written back as it is while the text is its own
            if answer is not None:  # the data other formats would lose: as JSON text
                items.append(TextContent(compact_json(answer, f"{path}.response")))
        for index, raw in enumerate(media):
            items.append(_read_media_part(raw, f"{path}.parts[{index}]"))
        answer = items
    elif media is not None and type(media) is not list:
        raise FormatError.mismatch(f"{path}.parts", "a list of parts", describe_type(media))
    try:
        item = FunctionResultContent(call_id, answer, name=name, is_error=failed)
    except SemanticChatError as error:  # a value JSON cannot hold
        raise FormatError(error.detail, path=f"{path}.response") from None
    extra = {key: element for key, element in body.items() if key not in known}
    if extra:
        hints["response_fields"] = respell(extra, "snake")
    return item


def _read_media_part(raw: Any, path: str) -> BinaryContent:
    """A ``function_response`` part: ``inline_data`` or ``file_data`` and part-level keys."""
    part = sdk_plain(raw, path)
    if type(part) is not dict:
        raise FormatError.mismatch(path, "a FunctionResponsePart object", describe_type(part))
    snake = _snake_keys(part, path)
    key = "inline_data" if "inline_data" in snake else "file_data"
    if key not in snake:
        raise FormatError("expected 'inline_data' or 'file_data'", path=path)
    hints: dict[str, Any] = {}
    item = _read_media(key, snake[key], f"{path}.{key}", hints)
    _part_fields(snake, hints, (key,))
    _set_hints(item, hints, path)
    return item


def _unknown(key: str, value: Any, path: str, hints: dict[str, Any]) -> UnknownContent:
    """Data this code does not model (``executable_code``, newer keys), kept whole."""
    if key not in DATA_KEYS:
        hints["part"] = True  # a Gemini part of a kind newer than this code
    found = labelled_class(key)
    if found is not None:
        # Such an item in our JSON is one of that class with newer keys, its metadata (the
        # hints that mark it a Gemini part) among them: it would not come back as this part.
        name = found.__name__
        raise FormatError(f"{key!r} is the label of {name}: build a {name} instead", path=path)
    if type(value) is dict:
        fields = respell(value, "snake")
    else:
        fields = {"value": value}
        hints["value"] = True
    try:
        return UnknownContent(key, fields)
    except SemanticChatError as error:  # a blank key, a value not JSON
        where = path if error.path in ("type", "fields") else f"{path}{_field_path(error.path)}"
        raise FormatError(error.detail, path=where) from None


def _decode(decode: Any, key: str, part: dict[str, Any], path: str) -> KernelContent:
    """A part read by the plugin decoder registered for its data key."""
    return run_decoder(decode, respell(part, "snake"), f"part type {key!r}", path)


# --- small readers --------------------------------------------------------------------------


def _snake_keys(value: dict[str, Any], path: str) -> dict[str, Any]:
    """An object's keys in snake_case (values as they are).

    Raises:
        FormatError: a key is given in both spellings (``function_call`` and
            ``functionCall``).
    """
    snake = {snake_key(key) if type(key) is str else key: element
             for key, element in value.items()}
    if len(snake) != len(value):
        seen: dict[str, str] = {}
        for key in value:
            name = snake_key(key)
            if name in seen:
                raise FormatError(f"{seen[name]!r} and {key!r} are the same key", path=path)
            seen[name] = key
    return snake


def _snake_without_none(value: dict[str, Any]) -> dict[str, Any]:
    """A response or candidate with its keys in snake_case, without its ``null`` fields."""
    return {snake_key(key): element for key, element in value.items() if element is not None}


def _required_str(body: dict[str, Any], key: str, path: str) -> str:
    value = body.get(key)
    if type(value) is not str:
        if value is None:
            raise FormatError(f"missing {key!r}", path=path)
        raise FormatError.mismatch(f"{path}.{key}", "str", describe_type(value))
    return value


def _optional_str(body: dict[str, Any], key: str, path: str) -> str | None:
    value = body.get(key)
    if value is not None and type(value) is not str:
        raise FormatError.mismatch(f"{path}.{key}", "str", describe_type(value))
    return value


def _is_wrapper(value: dict[str, Any]) -> bool:
    """Whether a dict is itself a response wrapper: one key, ``result``, ``output`` or ``error``."""
    return len(value) == 1 and next(iter(value)) in ("result", "output", "error")


def _field_path(field_path: str) -> str:
    """The wire path below a part's data for an `UnknownContent` field error."""
    rest = field_path.removeprefix("fields")
    return rest if rest.startswith(("[", ".")) else f".{rest}" if rest else ""


def _set_hints(owner: KernelContent | ChatMessageContent, hints: dict[str, Any],
               path: str) -> None:
    """Keep non-empty hints; a value JSON cannot hold is located at ``path``."""
    if hints:
        try:
            owner.metadata[HINTS] = hints
        except SemanticChatError as error:
            raise FormatError(error.detail, path=path) from None
