"""Hypothesis strategies for Gemini: histories the format carries, and SDK-valid payloads.

Histories come in two sizes, as for Anthropic. `gemini_histories` are canonical: written and
read back they are *equal*, made-up call ids included (a call written without an id reads
back with ``gemini-call-<content>-<k>``, so the generator gives such calls exactly that id).
`gemini_loose_histories` add what the writer normalises, for the weaker property that one
write, read and write again is a fixed point.

`gemini_payloads` builds ``{"contents", "system_instruction"?}`` dicts part by part in one
spelling (snake or camel), valid for ``google.genai.types.Content``, that must be written
back exactly; `respell` turns a snake payload into camel (structural keys only: ``args``,
``response`` and ``part_metadata`` are user data and keep their keys), and `mixed` spells
each structural key either way.
"""

from __future__ import annotations

import base64
import json
import re
import string
from typing import Any

from hypothesis import strategies as st
from strategies import identifiers

from semantic_chat import (
    AudioContent,
    ChatHistory,
    ChatMessageContent,
    FileContent,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    KernelContent,
    ReasoningContent,
    TextContent,
    UnknownContent,
)

__all__ = [
    "gemini_histories",
    "gemini_loose_histories",
    "gemini_payloads",
    "mixed",
    "respell",
]

_SHORT = st.text(max_size=8)
_SAID = st.text(min_size=1, max_size=8)
"""A text part's text: the writer leaves an empty text part beside others out (the API refuses
one; see test_gemini_empty_texts.py), so payloads that round-trip exactly have none."""
_B64 = st.binary(max_size=12).map(lambda data: base64.b64encode(data).decode("ascii"))
_SIGNATURES = st.binary(min_size=1, max_size=12).map(
    lambda data: base64.b64encode(data).decode("ascii"))
_URIS = st.text(alphabet=string.ascii_lowercase + string.digits + "-_/", min_size=1,
                max_size=10).map("gs://bucket/{}".format)
_IDS = st.text(alphabet=string.ascii_letters + string.digits, min_size=1, max_size=8)
_IMAGE_TYPES = ["image/png", "image/jpeg", "image/webp"]
_AUDIO_TYPES = ["audio/wav", "audio/mp3"]
_FILE_TYPES = ["application/pdf", "text/plain"]
_HINTS = "gemini"


# --- histories ---------------------------------------------------------------------------


def _texts() -> st.SearchStrategy[TextContent]:
    return st.text(max_size=20).map(TextContent)


def _signed(draw: st.DrawFn, item: KernelContent) -> KernelContent:
    """The item, sometimes with a thought signature in its hints (as read from Gemini)."""
    if draw(st.integers(0, 3)) == 0:
        item.metadata[_HINTS] = {"thought_signature": draw(_SIGNATURES)}
    return item


def _data(draw: st.DrawFn, cls: type[Any], mime_type: str) -> Any:
    """Bytes given as bytes or as base64 text (as the reader makes them)."""
    data = draw(st.binary(max_size=16))
    if draw(st.booleans()):
        return cls(data=data, mime_type=mime_type)
    return cls.from_base64(base64.b64encode(data).decode("ascii"), mime_type)


@st.composite
def _media(draw: st.DrawFn) -> KernelContent:
    """Inline data (image, audio, PDF or text) or a file by URI with its media type."""
    kind = draw(st.sampled_from(["image", "audio", "file", "image_uri", "audio_uri",
                                 "file_uri", "bare_uri"]))
    if kind == "image":
        return _data(draw, ImageContent, draw(st.sampled_from(_IMAGE_TYPES)))
    if kind == "audio":
        return _data(draw, AudioContent, draw(st.sampled_from(_AUDIO_TYPES)))
    if kind == "file":
        return _data(draw, FileContent, draw(st.sampled_from(_FILE_TYPES)))
    uri = draw(_URIS)
    if kind == "image_uri":
        return ImageContent(uri=uri, mime_type=draw(st.sampled_from(_IMAGE_TYPES)))
    if kind == "audio_uri":
        return AudioContent(uri=uri, mime_type=draw(st.sampled_from(_AUDIO_TYPES)))
    if kind == "file_uri":
        return FileContent(uri=uri, mime_type=draw(st.sampled_from(_FILE_TYPES)))
    return FileContent(uri=uri)  # file_data without mime_type (an image would read as a file)


def _json_objects() -> st.SearchStrategy[dict[str, Any]]:
    """Call arguments and response objects: nested JSON, floats included."""
    scalars = st.one_of(st.none(), st.booleans(), st.integers(-(2**53), 2**53),
                        st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=6))
    values = st.recursive(
        scalars,
        lambda children: st.one_of(st.lists(children, max_size=2),
                                   st.dictionaries(st.text(max_size=6), children, max_size=2)),
        max_leaves=4,
    )
    # keys in both spellings: user data, never respelled
    keys = st.one_of(st.text(max_size=6), st.sampled_from(["file_uri", "mimeType", "id"]))
    return st.dictionaries(keys, values, max_size=3)


class _Calls:
    """The calls no result has answered yet.

    ``open`` holds calls with a real id (answerable at any later turn); ``made`` the calls of
    the latest model turn (consecutive model contents) that were written without an id: a
    result without an id pairs with the earliest unanswered call of its name in the nearest
    preceding model turn, so only those are answerable, and in their order per name.
    """

    def __init__(self) -> None:
        self.count = 0
        self.open: list[FunctionCallContent] = []
        self.made: list[FunctionCallContent] = []

    @property
    def pending(self) -> bool:
        return bool(self.open or self.made)

    def answer(self, draw: st.DrawFn) -> FunctionCallContent:
        choices = self.open + self.made
        call = draw(st.sampled_from(choices))
        if call in self.made:  # the earliest of that name: the one the reader pairs with
            call = next(c for c in self.made if c.name == call.name)
            self.made.remove(call)
        else:
            self.open.remove(call)
        return call


def _arguments(draw: st.DrawFn, loose: bool) -> Any:
    arguments = draw(_json_objects())
    if loose and draw(st.integers(0, 2)) == 0:
        return draw(st.sampled_from(["", json.dumps(arguments), json.dumps(
            arguments, separators=(",", ":"))]))
    return arguments


def _assistant_items(
    draw: st.DrawFn, calls: _Calls, turn: int, loose: bool
) -> list[KernelContent]:
    """Thoughts, then texts, calls, images and code execution parts in any order.

    The calls of one message all have real ids or all have the made-up ids the reader gives
    them (``gemini-call-<turn>-<k>``); loose ones may also have no id, or a made-up id that
    does not match their place.
    """
    items: list[KernelContent] = []
    for _ in range(draw(st.integers(0, 2))):
        text = draw(st.text(min_size=0 if loose else 1, max_size=20))
        items.append(ReasoningContent(text, signature=draw(st.none() | _SIGNATURES),
                                      provider="gemini"))
    made = draw(st.booleans())
    ordinal = 0
    for _ in range(draw(st.integers(0 if items else 1, 3))):
        kind = draw(st.sampled_from(["text", "text", "call", "call", "image", "code"]))
        if kind == "text":
            items.append(_signed(draw, draw(_texts())))
        elif kind == "image":
            items.append(_data(draw, ImageContent, "image/png"))
        elif kind == "code":
            code = draw(_SHORT)
            if draw(st.booleans()):
                item: KernelContent = UnknownContent(
                    "executable_code", {"language": "PYTHON", "code": code})
            else:
                item = UnknownContent("code_execution_result",
                                      {"outcome": "OUTCOME_OK", "output": code})
            items.append(_signed(draw, item))
        else:
            calls.count += 1
            name = draw(identifiers())
            if made:
                call_id: str | None = f"gemini-call-{turn}-{ordinal}"
                if loose and draw(st.booleans()):
                    call_id = draw(st.sampled_from([None, "gemini-call-99-7"]))
            else:
                call_id = f"fc_{draw(_IDS)}_{calls.count}"
            ordinal += 1
            call = FunctionCallContent(call_id, name, _arguments(draw, loose))
            (calls.made if made else calls.open).append(call)
            items.append(_signed(draw, call))
    return items


def _result_value(draw: st.DrawFn, loose: bool) -> Any:
    kind = draw(st.sampled_from(["text", "json", "object", "wrapped", "items", "items",
                                 "none"]))
    if kind == "text":
        return draw(st.text(max_size=20))
    if kind == "json":
        return draw(st.one_of(st.integers(-(2**53), 2**53), st.booleans(),
                              st.lists(st.integers(0, 9), max_size=3)))
    if kind == "object":  # not exactly one wrapper key: written as it is
        return draw(st.one_of(st.just({}), st.just({"result": 1, "other": 2}),
                              _json_objects().filter(
                                  lambda o: len(o) != 1
                                  or next(iter(o)) not in ("result", "output", "error"))))
    if kind == "wrapped":  # exactly one wrapper key: wrapped again
        return {draw(st.sampled_from(["result", "output", "error"])): draw(_SHORT)}
    if kind == "none":
        return None
    # One text at most: several are joined into one, with a warning (what the format carries)
    texts = draw(st.lists(_texts(), min_size=0 if loose else 1, max_size=1))
    return [*texts, *draw(st.lists(_media(), min_size=1, max_size=2))]


def _results(draw: st.DrawFn, calls: _Calls, loose: bool) -> list[KernelContent]:
    results: list[KernelContent] = []
    for _ in range(draw(st.integers(1, 3))):
        if not calls.pending:
            break
        call = calls.answer(draw)
        call_id = call.id
        name: str | None = call.name
        if loose and call_id is not None and not call_id.startswith("gemini-call-") and (
            draw(st.booleans())
        ):
            name = None  # found by the writer from the call
        result = FunctionResultContent(call_id, _result_value(draw, loose), name=name,
                                       is_error=draw(st.integers(0, 3)) == 0)
        results.append(_signed(draw, result))
    return results


@st.composite
def gemini_histories(draw: st.DrawFn, max_messages: int = 6) -> ChatHistory:
    """Histories `gemini.to_payload` writes and `from_payload` reads back equal.

    - at most one system message, first, of one or two texts (``system_instruction``);
    - user: one to three items: text, inline images, audio, PDF or text files, files by
      ``gs://`` URI with or without a media type;
    - assistant: `_assistant_items` (thoughts of provider ``gemini``, texts, calls with
      mapping arguments, PNG images, code execution parts; signatures on any of them);
    - tool: results for one to three pending calls, named after them (a string, a JSON value,
      an object, an object of one wrapper key, nothing, or one text then media); never two
      tool messages in a row (they would share one content);
    - no names, no message metadata, no filenames, no image details.
    """
    return _history(draw, max_messages, loose=False)


@st.composite
def gemini_loose_histories(draw: st.DrawFn, max_messages: int = 6) -> ChatHistory:
    """Histories the writer normalises, all within what the format carries.

    Besides `gemini_histories`: leading system and developer messages (one
    ``system_instruction``); empty reasoning; calls without an
    id or with a made-up id out of place, arguments as JSON text (blank included);
    consecutive tool messages (one content); results without a name; result lists of any
    number of texts.
    """
    return _history(draw, max_messages, loose=True)


def _history(draw: st.DrawFn, max_messages: int, loose: bool) -> ChatHistory:
    calls = _Calls()
    messages: list[ChatMessageContent] = []
    if loose:
        for role in draw(st.lists(st.sampled_from(["system", "developer"]), max_size=2)):
            messages.append(ChatMessageContent(
                role, items=draw(st.lists(_texts(), min_size=1, max_size=2))))
    elif draw(st.booleans()):
        messages.append(ChatMessageContent(
            "system", items=draw(st.lists(_texts(), min_size=1, max_size=2))))
    turn = 0  # the index of the next content
    previous = ""
    for _ in range(draw(st.integers(0, max_messages))):
        role = draw(st.sampled_from(["user", "assistant", "assistant"]))
        if calls.pending and draw(st.booleans()):
            role = "tool"
        if role == "tool" and (not calls.pending or (previous == "tool" and not loose)):
            role = "user"
        if role == "user":
            items = draw(st.lists(st.one_of(_texts(), _media()), min_size=1, max_size=3))
            messages.append(ChatMessageContent("user", items=items))
        elif role == "assistant":
            if previous != "assistant":  # a new model turn: older id-less calls are no
                calls.made = []  # longer answered by name (consecutive contents are one)
            items = _assistant_items(draw, calls, turn, loose)
            messages.append(ChatMessageContent("assistant", items=items))
        else:
            messages.append(ChatMessageContent("tool", items=_results(draw, calls, loose)))
            if previous == "tool":
                turn -= 1  # joined to the content before
        turn += 1
        previous = role
    for message in messages:
        instruction = message.role == "system" or message.role == "developer"
        _no_empty_text(message.items, instruction)
    return ChatHistory(messages)


def _no_empty_text(items: Any, instruction: bool) -> None:
    """Make an empty plain text ``"-"``: the writer leaves such a text out beside other
    items, and a message of such texts only (the API refuses an empty text part; tested in
    test_gemini_empty_texts.py). An instruction of empty texts only is written as it is."""
    empty = [item for item in items
             if type(item) is TextContent and not item.text and not item.metadata]
    if empty and (len(empty) < len(items) or not instruction):
        for item in empty:
            item.text = "-"


# --- payloads ----------------------------------------------------------------------------


def _maybe(key: str, values: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    """``{key: value}`` or ``{}``."""
    return st.one_of(st.just({}), values.map(lambda value: {key: value}))


def _merged(*parts: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
    return st.tuples(*parts).map(lambda dicts: {k: v for d in dicts for k, v in d.items()})


def _part_fields(media: bool) -> st.SearchStrategy[dict[str, Any]]:
    """Part-level keys the model has no field for, kept in hints and written back."""
    video = _merged(_maybe("start_offset", st.sampled_from(["0s", "1.5s"])),
                    _maybe("end_offset", st.just("10s")),
                    _maybe("fps", st.sampled_from([1.0, 2.5])))
    resolution = st.sampled_from(["MEDIA_RESOLUTION_LOW", "MEDIA_RESOLUTION_HIGH"]).map(
        lambda level: {"level": level})
    metadata = st.dictionaries(st.sampled_from(["source", "page_no", "pageNo"]),
                               st.integers(0, 9) | _SHORT, max_size=2)
    fields = [_maybe("part_metadata", metadata), _maybe("thought_signature", _SIGNATURES)]
    if media:
        fields += [_maybe("video_metadata", video), _maybe("media_resolution", resolution),
                   _maybe("thought", st.booleans())]
    return _merged(*fields)


def _text_part(thought: bool = False) -> st.SearchStrategy[dict[str, Any]]:
    text = _SAID.map(lambda t: {"text": t})
    if thought:  # a thought summary; a signature is the reasoning's own
        return _merged(text, st.just({"thought": True}), _maybe("thought_signature", _SIGNATURES),
                       _maybe("part_metadata", st.just({"step": 1})))
    return _merged(text, _maybe("thought", st.just(False)), _part_fields(media=False))


def _empty_part() -> st.SearchStrategy[dict[str, Any]]:
    """A part with no data key, as the API sends them: kept exactly as it came."""
    empty = st.one_of(
        st.just({"thought": True}),
        _SIGNATURES.map(lambda s: {"thought_signature": s}),
        _SIGNATURES.map(lambda s: {"thought": True, "thought_signature": s}),
    )
    return _merged(empty, _maybe("part_metadata", st.just({"step": 2})))


# Spellings written back as read: not an image's or audio's (``IMAGE/PNG`` is sent as
# ``image/png``, Gemini's name for it: see test_gemini_media_fixes.py).
_ODD_TYPES = ["Video/MP4", "text/plain; charset=utf-8", "application/x-custom"]


def _blob() -> st.SearchStrategy[dict[str, Any]]:
    # URL-safe base64 (as an SDK object dumps it) is read too, and written back so
    urlsafe = st.binary(min_size=1, max_size=12).map(
        lambda data: base64.urlsafe_b64encode(data).decode("ascii"))
    return _merged(
        st.builds(lambda mime, data: {"mime_type": mime, "data": data},
                  st.sampled_from(_IMAGE_TYPES + _AUDIO_TYPES + _FILE_TYPES + _ODD_TYPES),
                  _B64 | urlsafe),
        _maybe("display_name", st.sampled_from(["a.png", "notes"])),
    )


def _file_data() -> st.SearchStrategy[dict[str, Any]]:
    return _merged(
        _URIS.map(lambda uri: {"file_uri": uri}),
        _maybe("mime_type", st.sampled_from(_IMAGE_TYPES + _AUDIO_TYPES + _FILE_TYPES)),
        _maybe("display_name", st.sampled_from(["a.png", "notes"])),
    )


def _media_part() -> st.SearchStrategy[dict[str, Any]]:
    data = st.one_of(_blob().map(lambda b: {"inline_data": b}),
                     _file_data().map(lambda f: {"file_data": f}))
    return _merged(data, _part_fields(media=True))


def _code_part() -> st.SearchStrategy[dict[str, Any]]:
    code = _merged(st.builds(lambda c: {"language": "PYTHON", "code": c}, _SHORT),
                   _maybe("id", _IDS))
    result = _merged(
        st.builds(lambda o: {"outcome": o}, st.sampled_from(["OUTCOME_OK", "OUTCOME_FAILED"])),
        _maybe("output", _SHORT), _maybe("id", _IDS))
    return _merged(st.one_of(code.map(lambda c: {"executable_code": c}),
                             result.map(lambda r: {"code_execution_result": r})),
                   _maybe("thought_signature", _SIGNATURES))


def _call_part(call_id: str | None, name: str) -> st.SearchStrategy[dict[str, Any]]:
    call = _merged(st.just({"name": name} if call_id is None else {"id": call_id,
                                                                   "name": name}),
                   _maybe("args", _json_objects()), _maybe("will_continue", st.booleans()))
    return _merged(call.map(lambda c: {"function_call": c}),
                   _maybe("thought_signature", _SIGNATURES), _maybe("thought", st.booleans()))


def _response_part(call_id: str | None, name: str) -> st.SearchStrategy[dict[str, Any]]:
    """A ``function_response``: the response object in every shape the reader tells apart."""
    value = st.one_of(_SHORT, st.integers(0, 9), st.none(), _json_objects(),
                      st.lists(st.integers(0, 9), max_size=2))
    response = st.one_of(
        value.map(lambda v: {"result": v}),
        value.map(lambda v: {"output": v}),
        value.map(lambda v: {"error": v}),
        _json_objects(),  # anything else: the whole object
    )
    # with media parts: a text value leads the result's items, any other is kept aside
    media = st.lists(_merged(
        st.one_of(_blob().map(lambda b: {"inline_data": b}),
                  _file_data().map(lambda f: {"file_data": f})),
        _maybe("media_resolution", st.just({"level": "MEDIA_RESOLUTION_LOW"}))),
        min_size=1, max_size=2)
    with_parts = st.tuples(st.one_of(
        st.tuples(st.sampled_from(["result", "output", "error"]), _SHORT).map(
            lambda t: {t[0]: t[1]}),
        response), media).map(lambda t: {"response": t[0], "parts": t[1]})
    body = _merged(
        st.just({"name": name} if call_id is None else {"id": call_id, "name": name}),
        st.one_of(response.map(lambda r: {"response": r}), with_parts, st.just({})),
        _maybe("will_continue", st.booleans()),
        _maybe("scheduling", st.sampled_from(["SILENT", "WHEN_IDLE", "INTERRUPT"])),
    )
    return body.map(lambda b: {"function_response": b})


def _user_parts() -> st.SearchStrategy[list[dict[str, Any]]]:
    return st.lists(st.one_of(_text_part(), _media_part()), min_size=1, max_size=3)


_NAMES = st.sampled_from(["get_weather", "lookup", "f"])


@st.composite
def _snake_payloads(draw: st.DrawFn, extra_data_keys: bool = False) -> dict[str, Any]:
    """A snake_case payload: see `gemini_payloads`."""
    contents: list[dict[str, Any]] = []
    calls: list[tuple[str | None, str]] = []  # the nearest model turn's calls
    with_ids = False
    for turn in range(draw(st.integers(0, 5))):
        kind = draw(st.sampled_from(["user", "model", "model", "results"]))
        if kind == "model":
            parts: list[dict[str, Any]] = draw(st.lists(_text_part(thought=True) | _empty_part(),
                                                        max_size=2))
            if not contents or contents[-1].get("role") != "model":
                # a turn: consecutive model contents, whose calls results answer together
                with_ids = draw(st.booleans())
                calls = []
            others = [_text_part(), _code_part(), _media_part()]
            if extra_data_keys:
                others.append(st.sampled_from([
                    {"tool_call": {"id": "t1", "args": {"q": 1}}},
                    {"tool_response": {"id": "t1", "response": {"ok": True}}},
                ]))
            for index in range(draw(st.integers(0 if parts else 1, 3))):
                if draw(st.booleans()):
                    call_id = f"fc-{turn}-{index}" if with_ids else None
                    name = draw(_NAMES)
                    calls.append((call_id, name))
                    parts.append(draw(_call_part(call_id, name)))
                else:
                    parts.append(draw(st.one_of(*others)))
            contents.append({"role": "model", "parts": parts})
            continue
        responses: list[dict[str, Any]] = []
        if kind == "results" or draw(st.integers(0, 3)) == 0:
            # ids: given when they pair with a call that has one (the reader would fill
            # them in), never when the nearest model turn's calls have none
            with_ids = bool(calls) and calls[0][0] is not None
            for _ in range(draw(st.integers(1, 3))):
                call_id, name = draw(st.sampled_from(calls)) if calls and draw(
                    st.booleans()) else ("fc-other" if with_ids else None, draw(_NAMES))
                responses.append(draw(_response_part(call_id, name)))
        if kind == "results":
            role = draw(st.sampled_from(["user", "tool", "function"]))
            contents.append({"role": role, "parts": responses})
            continue
        rest = draw(_user_parts())
        content: dict[str, Any] = {"parts": responses + rest}
        if responses or draw(st.integers(0, 4)):
            content = {"role": "user", **content}
        contents.append(content)
    payload: dict[str, Any] = {"contents": contents}
    if draw(st.booleans()):
        system = draw(st.one_of(
            _SHORT,
            _merged(st.lists(_SAID.map(lambda t: {"text": t}), min_size=1, max_size=2).map(
                lambda parts: {"parts": parts}), _maybe("role", st.sampled_from(
                    ["system", "user"]))),
        ))
        payload["system_instruction"] = system
    return payload


def gemini_payloads(
    spelling: str = "snake", extra_data_keys: bool = False
) -> st.SearchStrategy[dict[str, Any]]:
    """``{"contents", "system_instruction"?}`` dicts in one spelling, valid for the SDK.

    Contents alternate freely between ``user`` (or role-less) and ``model``: user parts are
    text (an explicit ``thought: false``, ``part_metadata``, a signature), inline data and
    file data (``display_name``, ``video_metadata``, ``media_resolution``), after an optional
    run of ``function_response`` parts; model parts are thoughts and empty signature parts
    first, then text, ``function_call`` (with or without ``args``; all or none of a content's
    turn's calls with ids: consecutive model contents are one turn), code execution and media
    parts, a signature on any of them. Contents of only responses have role ``user``,
    ``tool`` or ``function``, also several in a row. A response has an id exactly when the
    nearest model turn's calls have them. With
    ``extra_data_keys``, SDK data keys this code does not model (``tool_call``,
    ``tool_response``) appear too.
    """
    snake = _snake_payloads(extra_data_keys)
    return snake if spelling == "snake" else snake.map(respell)


# --- spelling ----------------------------------------------------------------------------

_USER_DATA = frozenset(("args", "response", "part_metadata"))
"""Keys whose values are the user's: their keys are never respelled."""


def _camel(key: str) -> str:
    head, *rest = key.split("_")
    return head + "".join(word[:1].upper() + word[1:] for word in rest)


def _snake(key: str) -> str:
    return re.sub(r"(?<!^)([A-Z])", lambda m: "_" + m.group(1).lower(), key)


def respell(payload: Any, choose: Any = None) -> Any:
    """The payload with its structural keys in camelCase (or as ``choose(key)`` says).

    ``choose(snake_key)`` returns the spelling to write for one key; the default writes
    every key in camelCase.
    """
    pick = choose if choose is not None else _camel

    def walk(value: Any) -> Any:
        if isinstance(value, list):
            return [walk(element) for element in value]
        if isinstance(value, dict):
            return {pick(_snake(key)): (element if _snake(key) in _USER_DATA else walk(element))
                    for key, element in value.items()}
        return value

    return walk(payload)


@st.composite
def mixed(draw: st.DrawFn, payload: dict[str, Any]) -> dict[str, Any]:
    """The snake ``payload`` with each multi-word structural key spelled either way."""

    def choose(key: str) -> str:
        return key if "_" not in key or draw(st.booleans()) else _camel(key)

    return respell(payload, choose)
