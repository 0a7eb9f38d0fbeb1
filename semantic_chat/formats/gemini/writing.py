"""Writing histories as Gemini payloads: ``{"contents": [...], "system_instruction": ...}``.

One spelling is written, chosen by ``spelling=``: ``"snake"`` (the SDK's names, which the
REST API takes too; the default) or ``"camel"`` (the REST documentation's). Each message is
one content (``user``, ``model``), except that tool messages become ``function_response``
parts of a ``user`` content, consecutive tool messages joining one, and system and developer
messages go to ``system_instruction``. What a payload read from Gemini kept in hints (a
part's thought signature, its ``video_metadata`` ...) is written back on the very part it
came with.
"""

from __future__ import annotations

from collections.abc import Iterable
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
from ...errors import FormatError, SerializationError, describe_type
from ...history import ChatHistory
from ...jsoncodec import json_value
from ...labels import AuthorRole
from ...media import guess_mime_type, normalize_mime_type
from ...message import ChatMessageContent
from ..codecs import run_encoder
from ..wire import (
    OnUnsupported,
    compact_json,
    custom_call,
    get_hints,
    lose,
    lost_history_keys,
    lost_metadata,
    lost_subclass_fields,
    note_call,
    object_arguments,
    parse_object_arguments,
    policy,
    quick_loads,
    report_metadata,
    result_left_out,
    stored_items,
    unsupported,
    unsupported_field,
)
from .shared import (
    DATA_KEYS,
    FORMAT,
    HINTS,
    IMAGE_TYPES,
    PROVIDER,
    SENT_AS_SPELLED,
    STANDARD_TO_URL_SAFE,
    Spelling,
    camel_key,
    check_spelling,
    codecs,
    is_made_id,
    respell,
    response_value,
    sent_mime_type,
    signature_problem,
    unreachable_uri,
)

__all__ = ["to_payload"]

_SYSTEM, _DEVELOPER = AuthorRole.SYSTEM, AuthorRole.DEVELOPER
_USER, _ASSISTANT, _TOOL = AuthorRole.USER, AuthorRole.ASSISTANT, AuthorRole.TOOL
_ROLES = {"user": "user", "assistant": "model", "tool": "user"}
_INSTRUCTION_ROLES = frozenset(("system", "developer"))
_WRAPPERS = frozenset(("result", "output", "error"))
_MADE = "gemini-call-"  # the start of a made-up id, checked before the pattern
_NO_HINTS: dict[str, Any] = {}  # a system message's hints when it has none; never written to

# What the last content written was made of, for the next message to join it or not.
_NONE, _RESULTS, _OTHER = 0, 1, 2
_NO_CONTENT: dict[str, Any] = {}  # the content before the first, never written to

# Results written without their made-up id: id(part) -> (the part, kept alive so that its id
# is not reused; the id of its call). See `_in_call_order`.
_Made = dict[int, tuple[dict[str, Any], str]]


class _Keys:
    """The structural keys a writer writes, in one spelling."""

    __slots__ = (
        "data",
        "display_name",
        "file_data",
        "file_uri",
        "function_call",
        "function_response",
        "inline_data",
        "mime_type",
        "quick",
        "spelling",
        "system_instruction",
        "thought_signature",
    )

    def __init__(self, spelling: Spelling) -> None:
        spell = camel_key if spelling == "camel" else str
        self.spelling: Spelling = spelling
        self.data = "data"
        self.display_name = spell("display_name")
        self.file_data = spell("file_data")
        self.file_uri = spell("file_uri")
        self.function_call = spell("function_call")
        self.function_response = spell("function_response")
        self.inline_data = spell("inline_data")
        self.mime_type = spell("mime_type")
        self.system_instruction = spell("system_instruction")
        self.thought_signature = spell("thought_signature")
        self.quick = (
            self.function_call,
            self.function_response,
            self.inline_data,
            self.mime_type,
            self.thought_signature,
        )
        """The keys the quick loop writes, unpacked in one step."""

    def spell(self, key: str) -> str:
        """A snake_case key in this spelling."""
        return camel_key(key) if self.spelling == "camel" else key


_KEYS = {"snake": _Keys("snake"), "camel": _Keys("camel")}


def to_payload(
    history: Iterable[ChatMessageContent],
    *,
    on_unsupported: OnUnsupported | None = None,
    spelling: Spelling = "snake",
) -> dict[str, Any]:
    """Write a history as ``{"contents": [...], "system_instruction": {...}}``.

    ``"system_instruction"`` is there only when the history has system or developer
    messages: a ``Content`` of their parts, in order (or the string it was read from). Each
    other message is one content: user -> ``user``, assistant -> ``model``; a tool message's
    results are ``function_response`` parts of a ``user`` content (or the role it was read
    with), consecutive tool messages joining one. Consecutive turns of one role are not
    merged: Gemini takes them. A user, model or tool message of no items, or of empty texts
    only, is left out with a `ConversionWarning` (even with ``on_unsupported="error"``:
    nothing said is lost): the API refuses a content without parts and an empty text part.
    An empty text beside other parts is left out without a word. A call's ``args`` is its
    arguments as an object (a mapping as it is, a JSON string parsed, a blank one ``{}``);
    ids are written unless made up by the reader (`shared.is_made_id`). A result's ``name``
    is its own, else its call's; its ``response`` is ``{"result": value}`` (``{"error":
    value}`` for an error; a dict that is no such wrapper as it is), and media in a list
    result go to its ``parts`` (a response read beside media is written back as read while
    its text is unchanged). Thoughts are
    written back when they are Gemini's (``provider`` ``"gemini"``, as the readers make
    them); any other reasoning (another provider's, or of none) is never sent: it is left
    out, with a warning by default. ``spelling`` picks ``"snake"`` keys (``function_call``,
    the default) or ``"camel"`` ones (``functionCall``); the user's data (``args``,
    ``response``, ``part_metadata``) is written as it is.

    An image's or audio's media type is sent by its registered name (``image/jpg`` as
    ``image/jpeg``, ``IMAGE/PNG`` as ``image/png``, ``audio/x-wav`` as ``audio/wav``, without
    parameters but raw audio's): Gemini refuses any other spelling. The item keeps its own.

    What the format cannot carry follows ``on_unsupported`` (items refused, fields and
    metadata left out with a `ConversionWarning`; a result answering a call left out, of the
    same id, too, at its own path: the API refuses a result without its call); ids of
    messages, usage, finish reasons and model ids, which requests never carry, and citations
    read from Gemini (its grounding, response data only), are left out without a word.

    Raises:
        UnsupportedContentError: an item the format cannot carry (a refusal, a file by id or
            by a URI other than http(s) or ``gs://``, an image of a type other than PNG, JPEG,
            WebP, HEIC or HEIF, a call outside an assistant message ...), named by message and
            item index, unless
            ``on_unsupported`` is ``"warn"`` or ``"drop"``; with ``"error"``, also a field or
            reasoning it cannot carry.
        FormatError: a role the format does not have; arguments that are not a JSON object
            (``messages[1].items[0].arguments``); a result whose function name is neither
            given nor found on an earlier call of its id (``messages[3].items[0].name``).
        InvalidValueError: ``on_unsupported`` or ``spelling`` is not one of its values.
    """
    if on_unsupported is not None:  # None, the default, needs no check
        on_unsupported = policy(on_unsupported)
    return _to_payload(history, on_unsupported, spelling_keys(spelling), True)


def spelling_keys(spelling: Spelling) -> _Keys:
    """The keys of a spelling, ``"snake"`` or ``"camel"``; anything else is refused."""
    keys = _KEYS.get(spelling) if type(spelling) is str else None
    return keys if keys is not None else _KEYS[check_spelling(spelling)]


def _to_payload(  # noqa: PLR0915 - one loop: see below
    history: Iterable[ChatMessageContent],
    on_unsupported: OnUnsupported | None,
    keys: _Keys,
    quick: bool,
) -> dict[str, Any]:
    """`to_payload`; ``quick=False`` writes every message the general way (for the tests).

    The common shapes (plain text, calls, string results, inline images and audio, Gemini
    thoughts, none with metadata) are written in the loop itself, straight into their
    content: a call per message would cost more than the rest of the work. Anything else,
    and a message broken by hand, goes to the general writer, which locates every problem.
    """
    contents: list[dict[str, Any]] = []
    append = contents.append
    system: list[dict[str, Any]] = []
    system_hints: list[dict[str, Any]] = []  # the hints of each system message, in order
    system_general = False  # some written the long way: empty texts may be among them
    last = _NO_CONTENT  # the content last written, once there is one
    last_kind = _NONE
    call_names: dict[str, str] = {}
    made: _Made = {}  # the results written without their made-up ids
    # The calls the general writer left out: id -> path. Once there is one, the rest goes the
    # general way, which leaves their results out too (the API refuses a result alone).
    left_out: dict[str, str] = {}
    loads = quick_loads()
    lost_history_keys(history, FORMAT, on_unsupported)
    function_call, function_response, inline_data, mime_key, signature_key = keys.quick
    messages = history._messages if type(history) is ChatHistory else history  # no __iter__
    for index, message in enumerate(messages):
        if quick:
            try:
                if (
                    not message._metadata
                    and message._name is None
                    and type(message) is ChatMessageContent  # a subclass: its fields reported
                ):
                    role = message._role  # well-known roles are interned: compared by identity
                    items = message._items
                    if len(items) == 1:  # most messages are one text: no loop to run
                        (item,) = items
                        if role is not _TOOL and type(item) is TextContent:
                            text = item._text
                            if (
                                not item._metadata
                                and not item._citations
                                and type(text) is str
                                and text  # empty: the loop below leaves the message out
                            ):
                                if role is _ASSISTANT:
                                    last = {"role": "model", "parts": [{"text": text}]}
                                    append(last)
                                    last_kind = _OTHER
                                    continue
                                if role is _USER:
                                    last = {"role": "user", "parts": [{"text": text}]}
                                    append(last)
                                    last_kind = _OTHER
                                    continue
                                if (role is _SYSTEM or role is _DEVELOPER) and not contents:
                                    system.append({"text": text})
                                    system_hints.append(_NO_HINTS)
                                    continue
                        if (
                            role is _TOOL
                            and type(item) is FunctionResultContent
                            and not item._metadata
                            and item._is_error is False
                        ):
                            call_id, answer, named = item._call_id, item._result, item._name
                            if named is None and type(call_id) is str:
                                named = call_names.get(call_id)
                            if (
                                type(call_id) is str
                                and type(answer) is str
                                and type(named) is str
                            ):
                                if _MADE in call_id and is_made_id(call_id):
                                    body = {"name": named, "response": {"result": answer}}
                                    part = {function_response: body}
                                    made[id(part)] = (part, call_id)
                                else:
                                    body = {
                                        "id": call_id,
                                        "name": named,
                                        "response": {"result": answer},
                                    }
                                    part = {function_response: body}
                                if last_kind == _RESULTS:
                                    last["parts"].append(part)
                                else:
                                    last = {"role": "user", "parts": [part]}
                                    append(last)
                                    last_kind = _RESULTS
                                continue
                    if role is _USER or role is _ASSISTANT:
                        parts: list[dict[str, Any]] = []
                        empty = False  # an empty text among the parts: see _without_empty_texts
                        for item in items:
                            if item._metadata:
                                break
                            if type(item) is TextContent:
                                text = item._text
                                if item._citations or type(text) is not str:
                                    break
                                if not text:
                                    empty = True
                                parts.append({"text": text})
                            elif type(item) is FunctionCallContent and role is _ASSISTANT:
                                call_id, name, arguments = item._id, item._name, item._arguments
                                if type(arguments) is str and loads is not None:
                                    parsed = loads(arguments)  # not JSON: raises
                                else:
                                    parsed = object_arguments(arguments)
                                if type(parsed) is not dict or type(name) is not str:
                                    break
                                if call_id is None:
                                    body = {"name": name, "args": parsed}
                                elif type(call_id) is not str:
                                    break
                                else:
                                    call_names[call_id] = name
                                    if _MADE in call_id and is_made_id(call_id):
                                        body = {"name": name, "args": parsed}
                                    else:
                                        body = {"id": call_id, "name": name, "args": parsed}
                                parts.append({function_call: body})
                            elif (
                                type(item) is ImageContent or type(item) is AudioContent
                            ) and role is _USER:
                                payload, mime_type = item._data, item._mime_type
                                if (
                                    type(mime_type) is not str
                                    or mime_type not in SENT_AS_SPELLED  # image/jpg, image/bmp
                                    or (type(item) is ImageContent and item._detail is not None)
                                ):
                                    break
                                if type(payload) is not str:  # base64 text, as read
                                    if type(payload) is not bytes:
                                        break  # a URI, a file id: the general writer
                                    payload = item.base64
                                blob = {mime_key: mime_type, "data": payload}
                                parts.append({inline_data: blob})
                            elif type(item) is ReasoningContent:
                                text, signed = item._text, item._signature
                                if (
                                    item._provider != PROVIDER
                                    or item._encrypted is not None
                                    or type(text) is not str
                                ):
                                    break
                                if signed is None:
                                    parts.append({"text": text, "thought": True})
                                elif type(signed) is str and signature_problem(signed) is None:
                                    parts.append(
                                        {"text": text, "thought": True, signature_key: signed}
                                    )
                                else:
                                    break  # not base64: the general writer reports it
                            else:
                                break
                        else:
                            if empty:
                                parts = _without_empty_texts(parts)
                            if parts:  # none, or empty texts only: the general writer
                                speaker = "user" if role is _USER else "model"
                                last = {"role": speaker, "parts": parts}
                                append(last)
                                last_kind = _OTHER
                                continue
                    elif role is _TOOL and items:
                        parts = []
                        for item in items:
                            if type(item) is not FunctionResultContent or item._metadata:
                                break
                            call_id, answer, named = item._call_id, item._result, item._name
                            if type(call_id) is not str or type(answer) is not str:
                                break
                            if item._is_error is not False:
                                break
                            if named is None:
                                named = call_names.get(call_id)
                            if type(named) is not str:
                                break
                            if _MADE in call_id and is_made_id(call_id):
                                body = {"name": named, "response": {"result": answer}}
                                part = {function_response: body}
                                made[id(part)] = (part, call_id)
                            else:
                                body = {
                                    "id": call_id, "name": named, "response": {"result": answer}
                                }
                                part = {function_response: body}
                            parts.append(part)
                        else:
                            if last_kind == _RESULTS:
                                last["parts"].extend(parts)
                            else:
                                last = {"role": "user", "parts": parts}
                                append(last)
                                last_kind = _RESULTS
                            continue
            except Exception:  # a message broken by hand: the general writer locates it
                pass
        path = f"messages[{index}]"
        written = _write_message(
            message, path, on_unsupported, keys, (call_names, made, left_out), bool(contents)
        )
        if left_out:
            quick = False  # the quick loop would write their results
        if written is None:
            continue  # every item left out
        role_text, hints, parts = written
        if role_text in _INSTRUCTION_ROLES:
            system_general = True
            system.extend(parts)
            system_hints.append(hints)
            continue
        if role_text == "tool" and last_kind == _RESULTS and not hints.get("separate"):
            last["parts"].extend(parts)
            _join_fields(last, hints, keys)
            continue
        # A user message of results only (as another format's reader may give) answers the
        # same call turn as the results beside it: Gemini wants them in one content.
        only_results = bool(parts) and all(function_response in part for part in parts)
        if role_text == "user" and last_kind == _RESULTS and (hints.get("join") or only_results):
            last["parts"].extend(parts)
            last_kind = _RESULTS if only_results else _OTHER
            continue
        last = _content(role_text, hints, parts, keys)
        append(last)
        results = role_text == "tool" or (role_text == "user" and only_results)
        last_kind = _RESULTS if results else _OTHER
    if made:
        _in_call_order(contents, made, function_response)
    if not system_hints:
        return {"contents": contents}
    if not system_general:  # the quick path's texts only: none empty, no hints
        return {"contents": contents, keys.system_instruction: {"parts": system}}
    system = _without_empty_texts(system) or system  # one content, whatever its messages
    if not system and not any(system_hints):  # of nothing (Anthropic's "system": []), none
        return {"contents": contents}  # read from Gemini: the API refuses an empty content
    return {"contents": contents, keys.system_instruction: _system(system, system_hints, keys)}


def _in_call_order(
    contents: list[dict[str, Any]], made: _Made, key: str
) -> None:
    """Put the results written without an id in the order of their calls, name by name.

    The reader pairs a result without an id with the earliest unanswered call of its name,
    so results of one function answered in another order (a tool loop may answer in any)
    would pair crosswise. The made-up id of each says where its call stood
    (``gemini-call-<content>-<k>``); results of different functions keep their places.
    """
    for content in contents:
        parts = content.get("parts")
        if not parts:
            continue
        by_name: dict[str, list[int]] = {}
        for index, part in enumerate(parts):
            entry = made.get(id(part))
            if entry is not None and entry[0] is part:
                by_name.setdefault(part[key]["name"], []).append(index)
        for places in by_name.values():
            if len(places) > 1:
                ordered = sorted((parts[i] for i in places),
                                 key=lambda part: _call_place(made[id(part)][1]))
                for place, part in zip(places, ordered, strict=True):
                    parts[place] = part


def _call_place(call_id: str) -> tuple[int, ...]:
    """Where the call of a made-up id stood: (content, ordinal), then `repair`'s suffix."""
    return tuple(int(number) for number in call_id[len(_MADE):].split("-"))


def _content(
    role: str, hints: dict[str, Any], parts: list[dict[str, Any]], keys: _Keys
) -> dict[str, Any]:
    """A content of ``parts``: its role (a read one kept), its other keys kept as hints.

    ``parts`` is always written (a ``no_parts`` hint is a system instruction's): the reader
    refuses a content without it.
    """
    content: dict[str, Any] = {}
    if "role" in hints:
        if hints["role"] is not None:  # a missing role stays missing
            content["role"] = hints["role"]
    else:
        content["role"] = _ROLES[role]
    content["parts"] = parts
    _join_fields(content, hints, keys)
    return content


def _join_fields(content: dict[str, Any], hints: dict[str, Any], keys: _Keys) -> None:
    """Add a message's content-level keys, kept as hints, to the content it is written in."""
    fields = hints.get("fields")
    if isinstance(fields, dict):
        for key, value in respell(fields, keys.spelling).items():
            content.setdefault(key, value)


def _system(
    parts: list[dict[str, Any]], hints: list[dict[str, Any]], keys: _Keys
) -> dict[str, Any] | list[Any] | str:
    """The ``system_instruction``: a Content of its parts, or the SDK form it was read as.

    The string, part or list of parts and strings the SDK also takes is written back as it
    was read while it is the only system message. The first system message's hints give its
    role and other keys.
    """
    first = hints[0]
    if not first:  # no hints: the usual Content
        return {"parts": parts}
    shape = first.get("shape")
    if len(hints) == 1 and shape is not None and parts:
        if shape == "part" and len(parts) == 1:
            return parts[0]
        if type(shape) is list:  # its strings where they were, while they are plain texts
            return [
                part["text"] if index in shape and set(part) == {"text"} else part
                for index, part in enumerate(parts)
            ]
    if (
        len(hints) == 1
        and first.get("string")
        and len(parts) == 1
        and len(parts[0]) == 1
        and type(parts[0].get("text")) is str
    ):
        text: str = parts[0]["text"]
        return text
    instruction: dict[str, Any] = {}
    if first.get("role") is not None:
        instruction["role"] = first["role"]
    if parts or not first.get("no_parts"):
        instruction["parts"] = parts
    _join_fields(instruction, first, keys)
    return instruction


# --- the common shapes, quickly -----------------------------------------------------------


# --- the general writer -------------------------------------------------------------------


def _write_message(  # noqa: PLR0917 - the writer's state, passed on
    message: ChatMessageContent,
    path: str,
    on_unsupported: OnUnsupported | None,
    keys: _Keys,
    calls: tuple[dict[str, str], _Made, dict[str, str]],
    started: bool,
) -> tuple[str, dict[str, Any], list[dict[str, Any]]] | None:
    """Write one message's parts, locating every problem: its role, hints and parts.

    ``None`` when all its items were left out. ``calls`` are the names of the calls written
    so far by id, the results written without their made-up ids, and the paths of the calls
    left out by id: this adds those it leaves out, and leaves out the results answering any
    of them (see `_result_left_out`). ``started`` says whether a content came before (a
    system message after one is moved to the ``system_instruction`` and reported).
    """
    call_names, made, left_out = calls
    role = str(message.role)
    if role not in _ROLES and role not in _INSTRUCTION_ROLES:
        raise FormatError(f"{FORMAT} has no role {role!r}", path=f"{path}.role")
    items = stored_items(message, path)
    report_metadata(message, items, path, FORMAT, on_unsupported, codecs=codecs)
    if message.name is not None:
        unsupported_field(on_unsupported, FORMAT, f"{path}.name", f"the name of a {role} message")
    if started and role in _INSTRUCTION_ROLES:
        what = f"the place of a {role} message after the first content (moved to the system)"
        unsupported_field(on_unsupported, FORMAT, path, what)
    parts: list[dict[str, Any]] = []
    for index, item in items:
        where = f"{path}.items[{index}]"
        if (
            left_out
            and role in ("user", "tool")
            and isinstance(item, FunctionResultContent)
            and result_left_out(item, where, FORMAT, on_unsupported, left_out, codecs)
        ):
            continue
        part = _write_item(item, where, role, on_unsupported, keys, call_names)
        if isinstance(item, FunctionCallContent):
            note_call(item, where, left_out, part is not None)  # left out: its results go too
        if part is not None:
            parts.append(part)
            if isinstance(item, FunctionResultContent):
                call_id = item.call_id
                if call_id is not None and is_made_id(call_id) and keys.function_response in part:
                    made[id(part)] = (part, call_id)
    if not parts and items:
        return None
    if role in _INSTRUCTION_ROLES:  # its empty texts left out once, from the joined system
        return role, get_hints(message, HINTS), parts
    kept = _without_empty_texts(parts)
    if not kept:
        _leave_out_empty(path, on_unsupported, "empty text only" if parts else "no items")
        return None
    return role, get_hints(message, HINTS), kept


_EMPTY_TEXT = {"text": ""}


def _without_empty_texts(parts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The parts without empty text parts (none left for a content of empty texts only).

    The API refuses a content with an empty text ("it has an empty text parameter"), which an
    OpenAI reply of tool calls brings (``"content": ""``); an empty text beside other parts
    says nothing, so it is left out without a word.
    """
    if _EMPTY_TEXT not in parts:
        return parts
    return [part for part in parts if part != _EMPTY_TEXT]


def _leave_out_empty(path: str, on_unsupported: OnUnsupported | None, what: str) -> None:
    """Report a message of no items or of empty texts only, which the writer leaves out.

    The API refuses a content without parts ("contents.parts must not be empty", as a
    blocked candidate's empty reply would be sent) and a part of empty text alike, so the
    message cannot be written; it said nothing, so leaving it out is a `ConversionWarning`
    even with ``on_unsupported="error"`` (none with ``"drop"``). A text of whitespace is
    written: it is text the API takes. ``what`` says what the message held.
    """
    action = "warn" if on_unsupported == "error" else on_unsupported
    refused = "an empty part" if what == "empty text only" else "a content without parts"
    detail = f"{FORMAT} cannot carry a message of {what} (the API refuses {refused})"
    lose(action, path, detail, "warn")


def _write_item(  # noqa: PLR0917 - the writer's state, passed on
    item: KernelContent,
    path: str,
    role: str,
    on_unsupported: OnUnsupported | None,
    keys: _Keys,
    call_names: dict[str, str],
) -> dict[str, Any] | None:
    """One item as a part, with the part-level keys its hints keep; ``None`` if left out."""
    encode = codecs.encoder_for(item)
    if encode is not None:
        return _encoded(encode, item, path, keys)
    part: dict[str, Any] | None
    if role in _INSTRUCTION_ROLES and not isinstance(item, TextContent):
        unsupported(on_unsupported, FORMAT, path, item, _in_message(role))  # text only there
        return None
    if isinstance(item, TextContent):
        _lost_citations(item, path, on_unsupported)
        part = {"text": item.text}
    elif isinstance(item, ReasoningContent):
        return _thought_part(item, path, on_unsupported, keys)
    elif isinstance(item, FunctionCallContent):
        why = _in_message(role) if role != "assistant" else custom_call(item)
        if why is not None:
            unsupported(on_unsupported, FORMAT, path, item, why)
            return None
        part = _call_part(item, path, keys, call_names)
    elif isinstance(item, FunctionResultContent):
        if role not in ("user", "tool"):
            unsupported(on_unsupported, FORMAT, path, item, _in_message(role))
            return None
        part = _result_part(item, path, on_unsupported, keys, call_names)
    elif isinstance(item, BinaryContent):
        part = _media_part(item, path, on_unsupported, keys)
        if part is not None and type(item) is BinaryContent:  # no kind of its own in Gemini
            what = "a binary item's kind (written as data, it reads back as a FileContent)"
            unsupported_field(on_unsupported, FORMAT, path, what)
    elif isinstance(item, UnknownContent):
        part = _unknown_part(item, path, on_unsupported, keys)
    else:
        unsupported(on_unsupported, FORMAT, path, item, _in_message(role))
        return None
    if part is None:
        return None
    hints = get_hints(item, HINTS)
    if hints:
        if "thought_signature" in hints:
            where = f'{path}.metadata["{HINTS}"].thought_signature'
            signature = _signature(hints["thought_signature"], where, on_unsupported)
            if signature is not None:
                part[keys.thought_signature] = signature
        _with_fields(part, hints, keys)
    return part


def _signature(value: Any, path: str, on_unsupported: OnUnsupported | None) -> str | None:
    """A thought signature to write, or ``None``: one that is not base64 text is left out.

    The API takes bytes there (the SDK refuses anything else), so such a signature, set by
    hand, is reported as a field loss at ``path``.
    """
    if type(value) is str and signature_problem(value) is None:
        return value
    what = "a thought signature that is not base64 text (the API takes bytes there)"
    unsupported_field(on_unsupported, FORMAT, path, what)
    return None


def _in_message(role: str) -> str:
    """Where an item was refused: ``in a user message``, ``in an assistant message``."""
    article = "an" if role[:1] in ("a", "e", "i", "o") else "a"  # "a user"
    return f"in {article} {role} message"


def _with_fields(part: dict[str, Any], hints: dict[str, Any], keys: _Keys) -> None:
    """Add the part-level keys an item keeps as hints; the part's own keys win."""
    fields = hints.get("fields")
    if isinstance(fields, dict) and fields:
        for key, value in respell(fields, keys.spelling).items():
            part.setdefault(key, value)


def _encoded(encode: Any, item: KernelContent, path: str, keys: _Keys) -> dict[str, Any]:
    """The part a plugin encoder writes (snake_case), in the writer's spelling.

    Raises:
        FormatError: the encoder returned something other than a non-empty dict.
    """
    part = run_encoder(encode, item, path)
    if type(part) is not dict or not part:
        got = "an empty dict" if type(part) is dict else describe_type(part)
        raise FormatError(
            f"the encoder for {type(item).__qualname__} returned {got}, expected a part dict",
            path=path,
        )
    written: dict[str, Any] = respell(part, keys.spelling)
    return written


def _lost_citations(item: TextContent, path: str, on_unsupported: OnUnsupported | None) -> None:
    """Report a text's citations that are not Gemini's own (grounding, left out silently)."""
    citations = item.citations
    if not citations:
        return
    if type(citations) is not tuple:  # broken by hand: the setter keeps a tuple
        raise FormatError.mismatch(
            f"{path}.citations", "a tuple of Citation", describe_type(citations)
        )
    lost = False
    for index, citation in enumerate(citations):
        if not isinstance(citation, Citation):
            raise FormatError.mismatch(
                f"{path}.citations[{index}]", "a Citation", describe_type(citation)
            )
        if HINTS not in citation.metadata:
            lost = True
    if lost:
        what = "citations on text (its grounding is data of a response only)"
        unsupported_field(on_unsupported, FORMAT, f"{path}.citations", what)


def _thought_part(
    item: ReasoningContent, path: str, on_unsupported: OnUnsupported | None, keys: _Keys
) -> dict[str, Any] | None:
    """A thought part (``thought: true``, its signature), or ``None`` for one never sent.

    Reasoning of another provider, of none (a Semantic Kernel history's: whose it is
    nobody knows), or with encrypted data, is left out (with a warning by default): a
    model's private thinking is never sent as text.
    """
    provider = item.provider
    if provider is not None and provider != PROVIDER:
        detail = (
            f"{FORMAT} cannot carry reasoning from another provider ({provider!r}); "
            "it is never sent"
        )
        lose(on_unsupported, path, detail, "warn")
        return None
    if item.encrypted is not None:
        detail = f"{FORMAT} cannot carry encrypted reasoning (another provider's); it is never sent"
        lose(on_unsupported, path, detail, "warn")
        return None
    if provider is None:
        detail = (
            f"{FORMAT} cannot carry reasoning of no named provider (only its own thoughts, "
            f"provider {PROVIDER!r}, are sent back); it is never sent"
        )
        lose(on_unsupported, path, detail, "warn")
        return None
    hints = get_hints(item, HINTS)
    empty = hints.get("empty")
    part: dict[str, Any] = {}
    if isinstance(empty, list) and not item.text:
        if "thought" in empty:
            part["thought"] = True
    else:
        part["text"] = item.text
        part["thought"] = True
    if item.signature is not None:
        signature = _signature(item.signature, f"{path}.signature", on_unsupported)
        if signature is not None:
            part[keys.thought_signature] = signature
    _with_fields(part, hints, keys)
    return part


def _call_part(
    item: FunctionCallContent, path: str, keys: _Keys, call_names: dict[str, str]
) -> dict[str, Any]:
    """``function_call {id?, name, args}``; a made-up id is left out."""
    hints = get_hints(item, HINTS)
    arguments = parse_object_arguments(item.arguments, f"{path}.arguments")
    body: dict[str, Any] = {}
    call_id = item.id
    if call_id is not None:
        call_names[call_id] = item.name
        if not is_made_id(call_id):
            body["id"] = call_id
    body["name"] = item.name
    if arguments or not hints.get("no_args"):
        body["args"] = arguments
    fields = hints.get("call_fields")
    if isinstance(fields, dict):
        for key, value in respell(fields, keys.spelling).items():
            body.setdefault(key, value)
    return {keys.function_call: body}


def _result_part(
    item: FunctionResultContent,
    path: str,
    on_unsupported: OnUnsupported | None,
    keys: _Keys,
    call_names: dict[str, str],
) -> dict[str, Any]:
    """``function_response {id?, name, response, parts?}``.

    Raises:
        FormatError: the result has no name and no call before it has its id; its value is
            not JSON.
    """
    hints = get_hints(item, HINTS)
    call_id = item.call_id
    name = item.name
    if name is None and call_id is not None:
        name = call_names.get(call_id)
    if name is None:
        known = f"no call before it has the id {call_id!r}" if call_id else "it has no call id"
        raise FormatError(
            f"{FORMAT} needs the name of the function a result answers: none is given, "
            f"and {known}",
            path=f"{path}.name",
        )
    body: dict[str, Any] = {}
    if call_id is not None and not is_made_id(call_id):
        body["id"] = call_id
    body["name"] = name
    result = item.result
    media: list[dict[str, Any]] = []
    if type(result) is list and result and all(isinstance(each, KernelContent) for each in result):
        texts: list[str] = []
        for index, each in enumerate(result):
            where = f"{path}.result[{index}]"
            lost_metadata(each, where, FORMAT, on_unsupported)
            lost_subclass_fields(each, where, FORMAT, on_unsupported, codecs)
            if isinstance(each, TextContent) and codecs.encoder_for(each) is None:
                _lost_citations(each, where, on_unsupported)
                texts.append(each.text)
            elif isinstance(each, BinaryContent) and codecs.encoder_for(each) is None:
                part = _media_part(each, where, on_unsupported, keys)
                if part is not None:
                    _with_fields(part, get_hints(each, HINTS), keys)
                    media.append(part)
            else:
                unsupported(on_unsupported, FORMAT, where, each, "in a function result")
        kept = _kept_response(hints.get("response"), texts, item.is_error, path)
        if kept is not None:
            body["response"] = kept
        elif texts:
            body["response"] = _texts_response(texts, item.is_error, hints, path, on_unsupported)
        elif not hints.get("no_response"):
            body["response"] = {"error": None} if item.is_error else {}
    else:
        try:
            value = json_value(result, f"{path}.result")
        except SerializationError as error:
            raise FormatError(error.detail, path=error.path) from None
        if value is not None or not hints.get("no_response"):
            body["response"] = _response(value, item.is_error, hints)
    if media:
        body["parts"] = media
    fields = hints.get("response_fields")
    if isinstance(fields, dict):
        for key, element in respell(fields, keys.spelling).items():
            body.setdefault(key, element)
    return {keys.function_response: body}


def _kept_response(
    kept: Any, texts: list[str], is_error: bool, path: str
) -> dict[str, Any] | None:
    """The ``response`` read beside media, if the result still says what was read from it.

    The reader gives such a response's value as compact JSON text before the media (none
    for no value): while the texts and ``is_error`` are that, the response is written back
    exactly; once edited, ``None``, and the result's texts are written instead.
    """
    if not isinstance(kept, dict):
        return None
    value, failed = response_value(kept)
    if failed != is_error:
        return None
    if value is None:
        return None if texts else kept
    if len(texts) != 1:
        return None
    return kept if texts[0] == compact_json(value, f"{path}.metadata") else None


def _texts_response(
    texts: list[str],
    is_error: bool,
    hints: dict[str, Any],
    path: str,
    on_unsupported: OnUnsupported | None,
) -> dict[str, Any]:
    """The ``response`` of a result's texts: one value, their lines joined (reported)."""
    if len(texts) > 1:  # read back, the result is one text
        what = "a result's several texts apart (joined by line breaks: a response holds one value)"
        unsupported_field(on_unsupported, FORMAT, f"{path}.result", what)
    return _response("\n".join(texts), is_error, hints)


def _response(value: Any, is_error: bool, hints: dict[str, Any]) -> dict[str, Any]:
    """A result's value as the ``response`` object the API takes.

    An error is ``{"error": value}``; a value read from ``{"output": ...}`` (or a dict read
    from ``{"result": ...}``) is wrapped as it was; a dict that is not itself a wrapper is
    the response as it is; anything else is ``{"result": value}``.
    """
    if is_error:
        return {"error": value}
    wrap = hints.get("wrap")
    if wrap in ("result", "output"):
        return {wrap: value}
    if type(value) is dict and not (len(value) == 1 and next(iter(value)) in _WRAPPERS):
        return value
    return {"result": value}


def _media_part(
    item: BinaryContent, path: str, on_unsupported: OnUnsupported | None, keys: _Keys
) -> dict[str, Any] | None:
    """``inline_data`` for bytes, ``file_data`` for a URI; ``None`` for an item refused.

    The media type is sent as `shared.sent_mime_type` spells it (``image/jpg`` as
    ``image/jpeg``); a file id, a URI Gemini cannot reach (`shared.unreachable_uri`) and an
    image of a type Gemini does not take (``image/bmp``) are refused.
    """
    if item.file_id is not None:
        unsupported(on_unsupported, FORMAT, path, item, "by a file id (Gemini names files by URI)")
        return None
    uri = item.uri
    if uri is not None:
        why = unreachable_uri(uri)
        if why is not None:
            unsupported(on_unsupported, FORMAT, path, item, why)
            return None
    hints = get_hints(item, HINTS)
    mime_type = item.mime_type
    if mime_type is not None:
        given = hints.get("mime_type")
        if type(given) is str and _same_type(given, mime_type):
            mime_type = given  # as it was read, before normalizing
        mime_type = sent_mime_type(mime_type)
    elif uri is not None and isinstance(item, (ImageContent, AudioContent)):
        mime_type = _kind_from_uri(item, path, on_unsupported)
    if mime_type is not None and mime_type not in IMAGE_TYPES and (
        mime_type[:6] == "image/" or isinstance(item, ImageContent)  # an image of a PDF's bytes
    ):
        why = f"of type {mime_type} (PNG, JPEG, WebP, HEIC or HEIF only)"
        unsupported(on_unsupported, FORMAT, path, item, why)
        return None
    body: dict[str, Any]
    if uri is not None:
        body = {keys.file_uri: uri}
        if mime_type is not None:
            body[keys.mime_type] = mime_type
        key = keys.file_data
    else:
        data = item.base64 or ""
        if hints.get("base64") == "urlsafe":
            data = data.translate(STANDARD_TO_URL_SAFE)
        body = {keys.mime_type: mime_type or "application/octet-stream", keys.data: data}
        key = keys.inline_data
    display_name = hints.get("display_name")
    if isinstance(item, FileContent) and item.filename is not None:
        if display_name is True:
            body[keys.display_name] = item.filename
        else:
            what = "a file's name (the Gemini Developer API refuses display_name)"
            unsupported_field(on_unsupported, FORMAT, f"{path}.filename", what)
    elif type(display_name) is str:
        body[keys.display_name] = display_name
    if isinstance(item, ImageContent) and item.detail is not None:
        unsupported_field(on_unsupported, FORMAT, f"{path}.detail", "an image's detail")
    fields = hints.get("data_fields")
    if isinstance(fields, dict):
        for name, value in respell(fields, keys.spelling).items():
            body.setdefault(name, value)
    return {key: body}


def _kind_from_uri(
    item: BinaryContent, path: str, on_unsupported: OnUnsupported | None
) -> str | None:
    """The media type of an image or audio by URI that has none, guessed from the URI's name.

    ``file_data`` without a media type reads back as a file: without a guess of the item's
    kind (``.../oslo.jpg`` is ``image/jpeg``), that is reported as a field loss.
    """
    uri = item.uri or ""
    guessed = guess_mime_type(uri.partition("?")[0].partition("#")[0])
    kind = "image/" if isinstance(item, ImageContent) else "audio/"
    if guessed is not None and guessed.startswith(kind):
        return guessed
    what = (
        f"the kind of {'an image' if kind == 'image/' else 'audio'} by a URI without a media "
        "type (it is read back as a file)"
    )
    unsupported_field(on_unsupported, FORMAT, f"{path}.mime_type", what)
    return None


def _same_type(given: str, mime_type: str) -> bool:
    """Whether a media type read (``image/PNG``) is the item's, normalized."""
    try:
        return normalize_mime_type(given) == mime_type
    except ValueError:
        return False


def _unknown_part(
    item: UnknownContent, path: str, on_unsupported: OnUnsupported | None, keys: _Keys
) -> dict[str, Any] | None:
    """Data read whole from Gemini (``executable_code`` ...), written back as it came.

    An unknown item read from another format is no Gemini part: refused. So is one labelled
    like an item of ours (``text`` with newer keys, read from our JSON): the reader refuses
    such a part, so it never comes from Gemini.
    """
    hints = get_hints(item, HINTS)
    ours = labelled_class(item.type) is not None
    if ours or (item.type not in DATA_KEYS and not hints.get("part")):
        unsupported(on_unsupported, FORMAT, path, item, f"of type {item.type!r} (no Gemini part)")
        return None
    try:
        fields: dict[str, Any] = json_value(item.fields, f"{path}.fields")
    except SerializationError as error:
        raise FormatError(error.detail, path=error.path) from None
    value = fields.get("value") if hints.get("value") else respell(fields, keys.spelling)
    return {keys.spell(item.type): value}
