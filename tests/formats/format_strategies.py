"""Hypothesis strategies for histories restricted to what each OpenAI wire format carries.

Every history these build should satisfy ``from_payload(to_payload(h)) == h`` exactly. They
carry no metadata and no message ids, usage, finish reasons or model ids (requests have none),
and function-call arguments are always JSON *text* (a mapping is written as compact JSON text
and reads back as that text, not as the mapping). Call ids are unique within a history, and
every tool message answers an earlier call, quoting that call's name (the readers fill a
result's ``name`` from the call with the same id).
"""

from __future__ import annotations

import base64
import json
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
    RefusalContent,
    TextContent,
)
from semantic_chat.formats import anthropic as anthropic_format
from semantic_chat.formats.wire import ERROR_PREFIX

__all__ = ["chat_histories", "chat_payloads", "responses_histories", "responses_payloads"]

_URL_PATHS = st.text(alphabet=string.ascii_letters + string.digits + "-._~/", max_size=12)
_IDS = st.text(alphabet=string.ascii_letters + string.digits, min_size=1, max_size=10)
# Participant names as the API accepts them.
_NAMES = st.from_regex(r"[A-Za-z0-9_-]{1,12}", fullmatch=True)
# Conversations are mostly user and assistant turns, with tool answers when calls are pending.
_ROLES = st.sampled_from(["system", "developer", "user", "user", "assistant", "assistant", "tool"])


def _texts() -> st.SearchStrategy[TextContent]:
    return st.text(max_size=20).map(TextContent)


def _payload(draw: st.DrawFn) -> dict[str, Any]:
    """Bytes, given either as bytes or as base64 text left undecoded (as readers make them)."""
    data = draw(st.binary(max_size=24))
    if draw(st.booleans()):
        return {"data": data}
    return {"base64": base64.b64encode(data).decode("ascii")}


def _binary(draw: st.DrawFn, cls: type[Any], mime_type: str, **fields: Any) -> Any:
    payload = _payload(draw)
    if "base64" in payload:
        return cls.from_base64(payload["base64"], mime_type, **fields)
    return cls(data=payload["data"], mime_type=mime_type, **fields)


def _arguments() -> st.SearchStrategy[str]:
    """JSON object text in the spacings models use, and occasionally text that is not JSON."""
    values = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=8))
    objects = st.dictionaries(st.text(max_size=6), values, max_size=3)
    spacing = st.sampled_from([(", ", ": "), (",", ":")])
    texts = st.tuples(objects, spacing).map(lambda t: json.dumps(t[0], separators=t[1]))
    return st.one_of(texts, st.just(""), st.just('{"city": "Par'))


class _Calls:
    """Hands out unique call ids and remembers the calls no tool message has answered yet."""

    def __init__(self) -> None:
        self.count = 0
        self.pending: list[FunctionCallContent] = []

    def call(self, draw: st.DrawFn, with_id: bool = True) -> FunctionCallContent:
        self.count += 1
        call_id = f"call_{draw(_IDS)}_{self.count}" if with_id else None
        call = FunctionCallContent(call_id, draw(identifiers()), draw(_arguments()))
        self.pending.append(call)
        return call

    def answer(self, draw: st.DrawFn) -> FunctionCallContent:
        call = draw(st.sampled_from(self.pending))
        self.pending.remove(call)
        return call


# --- Chat Completions --------------------------------------------------------------------


@st.composite
def _chat_user_item(draw: st.DrawFn) -> KernelContent:
    kind = draw(st.sampled_from(["text", "image_uri", "image_data", "audio", "file_id", "file"]))
    if kind == "text":
        return draw(_texts())
    if kind == "image_uri":
        detail = draw(st.sampled_from([None, "low", "high", "auto"]))
        return ImageContent(uri="https://example.com/" + draw(_URL_PATHS), detail=detail)
    if kind == "image_data":
        detail = draw(st.sampled_from([None, "low", "high", "auto"]))
        return _binary(draw, ImageContent, "image/png", detail=detail)
    if kind == "audio":
        return _binary(draw, AudioContent, draw(st.sampled_from(["audio/wav", "audio/mpeg"])))
    filename = draw(st.none() | st.from_regex(r"[a-z0-9_]{1,8}\.pdf", fullmatch=True))
    if kind == "file_id":
        return FileContent(file_id="file-" + draw(_IDS), filename=filename)
    # The API wants a filename with file_data.
    return _binary(draw, FileContent, "application/pdf", filename=filename or "doc.pdf")


@st.composite
def _chat_assistant_items(draw: st.DrawFn, calls: _Calls) -> list[KernelContent]:
    """The items of an assistant message in the one order the Chat reader gives them back.

    A Chat assistant message keeps text, refusal, audio and calls in separate fields, so
    `openai_chat` reads them back as ``[Text*, Refusal?, Audio(file_id)?, ToolCall*,
    FunctionCall?]``, whatever order they were in. Within that canonical order:

    - any number of `TextContent` (one is written as string content, several as text parts,
      each reading back the same);
    - at most one `RefusalContent`: several are joined into one ``refusal`` string;
    - at most one `AudioContent` by ``file_id`` (the ``audio: {"id"}`` field);
    - tool calls (calls with an id), in order;
    - at most one legacy call without an id (``function_call``), last.

    At least one item, as the API wants content, a refusal, audio or a call.
    """
    items: list[KernelContent] = list(draw(st.lists(_texts(), max_size=2)))
    if draw(st.booleans()):
        items.append(RefusalContent(draw(st.text(max_size=20))))
    if draw(st.integers(0, 4)) == 0:
        items.append(AudioContent(file_id="audio_" + draw(_IDS)))
    for _ in range(draw(st.integers(0, 2))):
        items.append(calls.call(draw))
    if draw(st.integers(0, 4)) == 0:
        items.append(calls.call(draw, with_id=False))
    if not items:
        items.append(draw(_texts()))
    return items


def _unmarked(answer: Any) -> bool:
    """Whether a successful tool answer does not start with the mark an error is written
    with where the format has no error flag (``Error: ``): such an answer reads back as a
    failed call (`wire.read_error`)."""
    if isinstance(answer, str):
        return not answer.startswith(ERROR_PREFIX)
    first = answer[0] if answer else None
    return not (isinstance(first, TextContent) and (
        first.text.startswith(ERROR_PREFIX) or first.text == ERROR_PREFIX.strip()))


def _chat_tool_result(draw: st.DrawFn) -> Any:
    if draw(st.booleans()):
        return draw(st.lists(_texts(), min_size=1, max_size=3).filter(_unmarked))
    return draw(st.text(max_size=20).filter(_unmarked))


@st.composite
def chat_histories(draw: st.DrawFn, max_messages: int = 6) -> ChatHistory:
    """Histories `openai_chat` writes and reads back exactly.

    - system / developer: one or two `TextContent` items (text only in the format);
    - user: one to three items: text, an image by https URI or as PNG data (``detail`` None,
      low, high or auto), wav or mpeg audio data, a file by id (optional filename) or as PDF
      data with a filename;
    - assistant: see `_chat_assistant_items`;
    - tool: exactly one `FunctionResultContent` answering an earlier tool call, its result a
      string or a non-empty list of `TextContent` (the format's tool content);
    - function (legacy): one result, a string (the format has only string content there),
      answering an earlier call without id, by name;
    - ``name`` only on system, developer, user and assistant (tool messages have none).
    """
    calls = _Calls()
    messages: list[ChatMessageContent] = []
    for _ in range(draw(st.integers(0, max_messages))):
        role = draw(_ROLES)
        name = draw(st.none() | _NAMES)
        if calls.pending and draw(st.booleans()):
            role = "tool"
        if role == "tool" and not calls.pending:
            role = "user"
        if role in ("system", "developer"):
            items: list[KernelContent] = draw(st.lists(_texts(), min_size=1, max_size=2))
        elif role == "user":
            items = draw(st.lists(_chat_user_item(), min_size=1, max_size=3))
        elif role == "assistant":
            items = draw(_chat_assistant_items(calls))
        else:
            call = calls.answer(draw)
            if call.id is None:
                answer = draw(st.text(max_size=20).filter(_unmarked))
                result = FunctionResultContent(None, answer, name=call.name)
                messages.append(ChatMessageContent("function", items=[result]))
            else:
                result = FunctionResultContent(call.id, _chat_tool_result(draw), name=call.name)
                messages.append(ChatMessageContent("tool", items=[result]))
            continue
        messages.append(ChatMessageContent(role, items=items, name=name))
    return ChatHistory(messages)


# --- Responses ---------------------------------------------------------------------------


@st.composite
def _responses_part(draw: st.DrawFn, text: bool = True) -> KernelContent:
    kinds = ["image_uri", "image_data", "image_id", "file_id", "file_url", "file_data"]
    kind = draw(st.sampled_from(["text", *kinds] if text else kinds))
    # "auto" is what the API assumes without a detail and reads back as None.
    detail = draw(st.sampled_from([None, "low", "high"]))
    filename = draw(st.none() | st.from_regex(r"[a-z0-9_]{1,8}\.pdf", fullmatch=True))
    if kind == "text":
        return draw(_texts())
    if kind == "image_uri":
        return ImageContent(uri="https://example.com/" + draw(_URL_PATHS), detail=detail)
    if kind == "image_data":
        return _binary(draw, ImageContent, "image/png", detail=detail)
    if kind == "image_id":
        return ImageContent(file_id="file-" + draw(_IDS), detail=detail)
    if kind == "file_id":
        return FileContent(file_id="file-" + draw(_IDS), filename=filename)
    if kind == "file_url":
        return FileContent(uri="https://example.com/" + draw(_URL_PATHS), filename=filename)
    return _binary(draw, FileContent, "application/pdf", filename=filename or "doc.pdf")


@st.composite
def _responses_assistant_items(draw: st.DrawFn, calls: _Calls) -> list[KernelContent]:
    """Function calls, with at most one text somewhere among them.

    The Responses format has no boundary between assistant messages: a ``message`` item after
    a ``message`` item starts a new assistant message, anything else joins the current one. So
    one text per message: the API takes an assistant's text only as a string (or in an output
    message item), and the writer writes several texts as a message each. No
    refusals: a refusal part is only valid inside an output message item, which needs the
    ``id`` and ``status`` of a replayed response (see the xfail test for hand-built refusals).
    """
    items: list[KernelContent] = [calls.call(draw) for _ in range(draw(st.integers(0, 3)))]
    if not items or draw(st.booleans()):
        items.insert(draw(st.integers(0, len(items))), draw(_texts()))
    return items


@st.composite
def responses_histories(draw: st.DrawFn, max_messages: int = 6) -> ChatHistory:
    """Histories `openai_responses` writes and reads back exactly.

    - system / developer: one to three `TextContent` items;
    - user: one to three parts (text; image by https URI, PNG data or file id, ``detail``
      None, low or high; file by id, https URL or PDF data, optional filename); no audio: the SDK's input content has no ``input_audio`` part (xfail test);
    - assistant: see `_responses_assistant_items`; never two assistant messages in a row;
    - tool: one `FunctionResultContent` answering an earlier call, its result a string or a
      non-empty list of text, image and file parts;
    - no ``name`` (the format has none), no reasoning (it needs an OpenAI item id; tested
      with fixtures).
    """
    calls = _Calls()
    messages: list[ChatMessageContent] = []
    previous = None
    for _ in range(draw(st.integers(0, max_messages))):
        role = draw(_ROLES)
        if calls.pending and draw(st.booleans()):
            role = "tool"
        if role == "tool" and not calls.pending:
            role = "user"
        if role == "assistant" and previous == "assistant":
            role = "user"
        if role in ("system", "developer"):
            items: list[KernelContent] = draw(st.lists(_texts(), min_size=1, max_size=3))
        elif role == "user":
            items = draw(st.lists(_responses_part(), min_size=1, max_size=3))
        elif role == "assistant":
            items = draw(_responses_assistant_items(calls))
        else:
            call = calls.answer(draw)
            if draw(st.booleans()):
                parts = st.lists(_responses_part(), min_size=1, max_size=3)
                result: Any = draw(parts.filter(_unmarked))
            else:
                result = draw(st.text(max_size=20).filter(_unmarked))
            items = [FunctionResultContent(call.id, result, name=call.name)]
        messages.append(ChatMessageContent(role, items=items))
        previous = role
    return ChatHistory(messages)


# --- payloads ----------------------------------------------------------------------------
#
# The other direction: SDK-valid payloads built part by part, for ``to_payload(from_payload(p))
# == p``. The shapes that do not round trip today are left out here and pinned by strict xfail
# tests (test_openai_chat_errors.py / test_openai_responses_errors.py, "payload shapes").

_SHORT = st.text(max_size=8)
_B64 = st.binary(max_size=8).map(lambda data: base64.b64encode(data).decode("ascii"))


def _maybe(key: str, values: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    """``{key: value}`` or ``{}``."""
    return st.one_of(st.just({}), values.map(lambda value: {key: value}))


def _merged(*parts: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
    return st.tuples(*parts).map(lambda dicts: {k: v for d in dicts for k, v in d.items()})


def _fixed(**values: Any) -> st.SearchStrategy[dict[str, Any]]:
    return st.just(values)


def _chat_parts() -> st.SearchStrategy[dict[str, Any]]:
    text = _SHORT.map(lambda t: {"type": "text", "text": t})
    url = st.one_of(st.just("https://x.test/a.png"),
                    _B64.map(lambda b: f"data:image/png;base64,{b}"))
    image = _merged(st.builds(dict, url=url),
                    _maybe("detail", st.sampled_from(["auto", "low", "high"]))).map(
        lambda body: {"type": "image_url", "image_url": body})
    audio = st.builds(dict, data=_B64, format=st.sampled_from(["wav", "mp3"])).map(
        lambda body: {"type": "input_audio", "input_audio": body})
    names = st.sampled_from(["a.pdf", "notes.txt"])
    # The API wants a filename with file_data (the writer makes one up for a file without).
    data = _merged(_B64.map(lambda b: {"file_data": f"data:application/pdf;base64,{b}"}),
                   names.map(lambda name: {"filename": name}))
    by_id = _merged(st.just({"file_id": "file-1"}), _maybe("filename", names))
    file = st.one_of(data, by_id).map(lambda body: {"type": "file", "file": body})
    return st.one_of(text, image, audio, file)


def _chat_assistant_payload() -> st.SearchStrategy[dict[str, Any]]:
    text = _SHORT.map(lambda t: {"type": "text", "text": t})
    refusal_part = _SHORT.map(lambda t: {"type": "refusal", "refusal": t})
    call = st.one_of(
        st.builds(lambda n, a: {"id": f"call_{n}", "type": "function",
                                "function": {"name": "f", "arguments": a}},
                  st.integers(0, 9), _SHORT),
        st.builds(lambda n, a: {"id": f"call_{n}", "type": "custom",
                                "custom": {"name": "g", "input": a}},
                  st.integers(0, 9), _SHORT),
    )
    return _merged(
        _fixed(role="assistant"),
        _maybe("content", st.none() | _SHORT
               | st.lists(text | refusal_part, min_size=0, max_size=3)),
        _maybe("refusal", st.none() | _SHORT),
        _maybe("tool_calls", st.lists(call, min_size=1, max_size=2)),
        _maybe("audio", st.just({"id": "audio_1"})),
        _maybe("function_call", st.builds(dict, name=st.just("f"), arguments=_SHORT)),
        _maybe("name", st.just("bot")),
    )


def chat_payloads() -> st.SearchStrategy[list[dict[str, Any]]]:
    """Chat Completions ``messages`` lists, valid for the SDK, mixing every message shape."""
    text_only = _SHORT.map(lambda t: {"type": "text", "text": t})
    instruction = _merged(
        st.builds(dict, role=st.sampled_from(["system", "developer"]),
                  content=_SHORT | st.lists(text_only, min_size=1, max_size=2)),
        _maybe("name", st.just("boss")),
    )
    user = _merged(
        st.builds(dict, role=st.just("user"),
                  content=_SHORT | st.lists(_chat_parts(), max_size=3)),
        _maybe("name", st.just("ann")),
    )
    tool = st.builds(dict, role=st.just("tool"),
                     tool_call_id=st.integers(0, 9).map("call_{}".format),
                     content=_SHORT | st.lists(text_only, min_size=1, max_size=2))
    function = st.builds(dict, role=st.just("function"), name=st.just("f"), content=_SHORT)
    message = st.one_of(instruction, user, _chat_assistant_payload(), tool, function)
    return st.lists(message, max_size=5)


def _responses_input_parts(detail_required: bool) -> st.SearchStrategy[dict[str, Any]]:
    text = _SHORT.map(lambda t: {"type": "input_text", "text": t})
    image_source = st.one_of(
        st.just({"image_url": "https://x.test/a.png"}),
        _B64.map(lambda b: {"image_url": f"data:image/png;base64,{b}"}),
        st.just({"file_id": "file-1"}),
    )
    details = st.sampled_from(["auto", "low", "high"])
    detail = details.map(lambda d: {"detail": d}) if detail_required else _maybe("detail", details)
    image = _merged(_fixed(type="input_image"), image_source, detail)
    file_source = st.one_of(
        _merged(st.just({"file_id": "file-1"}), _maybe("filename", st.just("a.pdf"))),
        _merged(st.just({"file_url": "https://x.test/a.pdf"}), _maybe("filename", st.just("a.pdf"))),
        # The API wants a filename with file_data (the writer makes one up for a file without).
        _B64.map(lambda b: {"file_data": f"data:application/pdf;base64,{b}", "filename": "a.pdf"}),
    )
    file = _merged(_fixed(type="input_file"), file_source)
    return st.one_of(text, image, file)


def responses_payloads() -> st.SearchStrategy[list[dict[str, Any]]]:
    """Responses ``input`` lists, valid for the SDK, mixing every item kind the reader models.

    Every shape the reader models, including a content list of one ``input_text`` part and
    an assistant message of ``input_text`` parts with ``"type": "message"``.
    """
    easy = _merged(
        _maybe("type", st.just("message")),
        st.builds(dict, role=st.sampled_from(["user", "system", "developer", "assistant"]),
                  content=_SHORT | st.lists(_responses_input_parts(True), min_size=1,
                                            max_size=3)),
    )
    output_part = st.one_of(
        _SHORT.map(lambda t: {"type": "output_text", "text": t, "annotations": []}),
        _SHORT.map(lambda t: {"type": "refusal", "refusal": t}),
    )
    output_message = st.builds(
        lambda n, content: {"id": f"msg_{n}", "type": "message", "status": "completed",
                            "role": "assistant", "content": content},
        st.integers(0, 9), st.lists(output_part, min_size=1, max_size=2),
    )
    call = _merged(
        st.builds(lambda n, a: {"type": "function_call", "call_id": f"call_{n}", "name": "f",
                                "arguments": a}, st.integers(0, 9), _SHORT),
        _maybe("id", st.just("fc_1")),
        _maybe("status", st.just("completed")),
    )
    output = st.builds(
        lambda n, out: {"type": "function_call_output", "call_id": f"call_{n}", "output": out},
        st.integers(0, 9),
        _SHORT | st.lists(_responses_input_parts(False), min_size=1, max_size=2),
    )
    summary = st.lists(
        st.text(min_size=1, max_size=8).map(lambda t: {"type": "summary_text", "text": t}),
        max_size=2,
    )
    reasoning = _merged(
        st.builds(lambda n, s: {"type": "reasoning", "id": f"rs_{n}", "summary": s},
                  st.integers(0, 9), summary),
        _maybe("encrypted_content", _SHORT),
    )
    unknown = st.sampled_from([
        {"type": "web_search_call", "id": "ws_1", "status": "completed",
         "action": {"type": "search", "query": "q"}},
        {"type": "item_reference", "id": "msg_0"},
    ])
    item = st.one_of(easy, output_message, call, output, reasoning, unknown)
    return st.lists(item, max_size=6)


# --- OpenAI citations (test_openai_citations.py) -------------------------------------------
#
# Payloads whose texts carry annotations of every documented type, SDK-valid, for
# ``to_payload(from_payload(p)) == p``. Offsets need not fall inside the text: the readers
# keep them as given.

_OFFSETS = st.integers(0, 400)
_WEB_URLS = _URL_PATHS.map("https://example.com/{}".format)


def _responses_annotations() -> st.SearchStrategy[dict[str, Any]]:
    url = st.builds(
        lambda start, end, title, url: {"type": "url_citation", "start_index": start,
                                        "end_index": end, "url": url, "title": title},
        _OFFSETS, _OFFSETS, _SHORT, _WEB_URLS,
    )
    file = st.builds(
        lambda file_id, name, index: {"type": "file_citation", "file_id": file_id,
                                      "filename": name, "index": index},
        _IDS.map("file-{}".format), st.sampled_from(["a.pdf", "notes.txt"]), _OFFSETS,
    )
    container = st.builds(
        lambda container, file_id, start, end: {
            "type": "container_file_citation", "container_id": container, "file_id": file_id,
            "filename": "plot.png", "start_index": start, "end_index": end},
        _IDS.map("cntr_{}".format), _IDS.map("cfile_{}".format), _OFFSETS, _OFFSETS,
    )
    path = st.builds(
        lambda file_id, index: {"type": "file_path", "file_id": file_id, "index": index},
        _IDS.map("file-{}".format), st.integers(0, 5),
    )
    return st.one_of(url, file, container, path)


def responses_payloads_with_annotations() -> st.SearchStrategy[list[dict[str, Any]]]:
    """Responses ``input`` lists of user messages and output messages with annotated texts."""
    output_text = _merged(
        st.builds(lambda text, annotations: {"type": "output_text", "text": text,
                                             "annotations": annotations},
                  _SHORT, st.lists(_responses_annotations(), max_size=4)),
        _maybe("logprobs", st.just([])),
    )
    output_message = st.builds(
        lambda n, content: {"id": f"msg_{n}", "type": "message", "status": "completed",
                            "role": "assistant", "content": content},
        st.integers(0, 9), st.lists(output_text, min_size=1, max_size=2),
    )
    user = _SHORT.map(lambda text: {"role": "user", "content": text})
    return st.lists(st.one_of(user, output_message), max_size=4)


def chat_answers_with_annotations() -> st.SearchStrategy[dict[str, Any]]:
    """Chat Completions answers (``choices[0].message``) with ``url_citation`` annotations."""
    annotation = st.builds(
        lambda start, end, title, url: {"type": "url_citation", "url_citation": {
            "start_index": start, "end_index": end, "title": title, "url": url}},
        _OFFSETS, _OFFSETS, _SHORT, _WEB_URLS,
    )
    return _merged(
        st.builds(lambda text, annotations: {"role": "assistant", "content": text,
                                             "annotations": annotations},
                  _SHORT, st.lists(annotation, max_size=3)),
        _maybe("refusal", st.none()),
    )


# --- Anthropic Messages (test_anthropic_properties.py) -----------------------------------
#
# Histories in two sizes. `anthropic_histories` gives histories the format writes and reads
# back *equal*: its canonical shapes. `anthropic_loose_histories` adds what the writer
# normalises (merged turns, developer and several system messages, results inside a user
# message, arguments as JSON text, JSON results, cache marks, citations, plain-text files),
# for the weaker property: written, read and written again gives the same payload.
# `anthropic_payloads` builds SDK-valid ``{system?, messages}`` dicts block by block.

_ANTHROPIC_IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"]
_TOOL_NAMES = st.from_regex(r"[A-Za-z0-9_-]{1,16}", fullmatch=True)
_OPAQUE = st.text(alphabet=string.ascii_letters + string.digits + "+/=", min_size=1,
                  max_size=24)


def _json_objects() -> st.SearchStrategy[dict[str, Any]]:
    """``tool_use`` inputs: JSON objects with nested lists and objects, floats included."""
    scalars = st.one_of(st.none(), st.booleans(), st.integers(-(2**53), 2**53),
                        st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=6))
    values = st.recursive(
        scalars,
        lambda children: st.one_of(st.lists(children, max_size=2),
                                   st.dictionaries(st.text(max_size=4), children, max_size=2)),
        max_leaves=4,
    )
    return st.dictionaries(st.text(max_size=6), values, max_size=3)


@st.composite
def _anthropic_media(draw: st.DrawFn, pdf_only: bool = True) -> KernelContent:
    """An image (data, https URL or file id) or a document (PDF data, URL or file id)."""
    kind = draw(st.sampled_from(["image_data", "image_uri", "image_id", "pdf", "file_uri",
                                 "file_id"]))
    title = draw(st.none() | st.text(min_size=1, max_size=10))
    if kind == "image_data":
        return _binary(draw, ImageContent, draw(st.sampled_from(_ANTHROPIC_IMAGE_TYPES)))
    if kind == "image_uri":
        return ImageContent(uri="https://example.com/" + draw(_URL_PATHS))
    if kind == "image_id":
        return ImageContent(file_id="file_" + draw(_IDS))
    if kind == "pdf":
        return _binary(draw, FileContent, "application/pdf", filename=title)
    if kind == "file_uri":
        return FileContent(uri="https://example.com/" + draw(_URL_PATHS) + ".pdf",
                           filename=title)
    return FileContent(file_id="file_" + draw(_IDS), filename=title)


def _anthropic_user_item() -> st.SearchStrategy[KernelContent]:
    return st.one_of(_texts(), _anthropic_media())


def _anthropic_reasoning() -> st.SearchStrategy[ReasoningContent]:
    thinking = st.builds(lambda text, signature: ReasoningContent(
        text, signature=signature, provider="anthropic"), st.text(max_size=20), _OPAQUE)
    redacted = _OPAQUE.map(lambda data: ReasoningContent("", encrypted=data,
                                                         provider="anthropic"))
    return st.one_of(thinking, redacted)


def _anthropic_call(draw: st.DrawFn, calls: _Calls, arguments: Any) -> FunctionCallContent:
    calls.count += 1
    call = FunctionCallContent(f"toolu_{draw(_IDS)}_{calls.count}", draw(_TOOL_NAMES),
                               arguments)
    calls.pending.append(call)
    return call


@st.composite
def _anthropic_assistant_items(
    draw: st.DrawFn, calls: _Calls, loose: bool
) -> list[KernelContent]:
    """Thinking first (as Claude answers), then texts and ``tool_use`` calls in any order.

    Canonical calls give their arguments as a mapping (``input`` reads back as one); loose
    ones also as JSON object text, which the writer parses.
    """
    items: list[KernelContent] = list(draw(st.lists(_anthropic_reasoning(), max_size=2)))
    rest: list[KernelContent] = []
    for _ in range(draw(st.integers(0, 3))):
        if draw(st.booleans()):
            rest.append(draw(_texts()) if not loose else draw(_anthropic_cited_texts()))
        else:
            arguments: Any = draw(_json_objects())
            if loose and draw(st.booleans()):
                arguments = json.dumps(arguments, separators=draw(
                    st.sampled_from([(", ", ": "), (",", ":")])))
            rest.append(_anthropic_call(draw, calls, arguments))
    items += rest
    if not items:
        items.append(draw(_texts()))
    return items


def _anthropic_result_value(draw: st.DrawFn, loose: bool) -> Any:
    kinds = ["text", "none", "items"] + (["json"] if loose else [])
    kind = draw(st.sampled_from(kinds))
    if kind == "text":
        return draw(st.text(max_size=20))
    if kind == "none":
        return None
    if kind == "json":
        numbers = st.integers(-(2**53), 2**53)
        return draw(st.one_of(_json_objects(), st.lists(numbers, max_size=3), numbers,
                              st.booleans()))
    return draw(st.lists(st.one_of(_texts(), _anthropic_media()), min_size=1, max_size=3))


def _anthropic_results(draw: st.DrawFn, calls: _Calls, loose: bool) -> list[KernelContent]:
    """Results for one to all of the pending calls, each named after its call."""
    count = draw(st.integers(1, len(calls.pending)))
    results: list[KernelContent] = []
    for _ in range(count):
        call = calls.answer(draw)
        results.append(FunctionResultContent(call.id, _anthropic_result_value(draw, loose),
                                             name=call.name, is_error=draw(st.booleans())))
    return results


@st.composite
def anthropic_histories(draw: st.DrawFn, max_turns: int = 6) -> ChatHistory:
    """Histories `anthropic.to_payload` writes and `from_payload` reads back equal.

    - at most one system message, first, of one `TextContent` (a string ``system``; several
      texts would be blocks, read back with a hint);
    - user and assistant sides alternate (consecutive turns would be merged); a user side is
      a user message, a tool message, or a tool message then a user message (the results
      lead that one turn, and are read back as the tool message they were);
    - user: one to three items: text, images (data in the four media types, https URL, file
      id), documents (PDF data, URL or file id, with an optional title as ``filename``);
    - assistant: `_anthropic_assistant_items`, calls with mapping arguments;
    - tool: results for some pending calls, named after them: text, no content, or a
      non-empty list of text, images and documents; ``is_error`` either way;
    - no names, no metadata, no plain-text files (read back with a source hint).
    """
    return _anthropic_history(draw, max_turns, loose=False)


@st.composite
def anthropic_loose_histories(draw: st.DrawFn, max_turns: int = 6) -> ChatHistory:
    """Histories the writer normalises, all in what the format carries.

    Besides `anthropic_histories`: leading system and developer messages of several texts
    (joined in ``system`` blocks); consecutive messages of one side (merged); results inside
    a user message (put first in its turn); arguments as JSON object text (parsed); JSON
    results (compact JSON text); texts with citations; plain-text files; items (not thinking)
    marked with `anthropic.cache_control`.
    """
    return _anthropic_history(draw, max_turns, loose=True)


def _anthropic_history(draw: st.DrawFn, max_turns: int, loose: bool) -> ChatHistory:
    calls = _Calls()
    messages: list[ChatMessageContent] = []
    if loose:
        for role in draw(st.lists(st.sampled_from(["system", "developer"]), max_size=2)):
            messages.append(ChatMessageContent(
                role, items=draw(st.lists(_texts(), min_size=1, max_size=2))))
    elif draw(st.booleans()):
        messages.append(ChatMessageContent("system", items=[draw(_texts())]))
    side = draw(st.sampled_from(["user", "assistant"]))
    for _ in range(draw(st.integers(0, max_turns))):
        if side == "assistant":
            messages.append(ChatMessageContent(
                "assistant", items=draw(_anthropic_assistant_items(calls, loose))))
        elif calls.pending and draw(st.booleans()):
            messages.append(ChatMessageContent(
                "tool", items=_anthropic_results(draw, calls, loose)))
            if draw(st.booleans()):
                messages.append(_anthropic_user(draw, calls, loose))
        else:
            messages.append(_anthropic_user(draw, calls, loose))
        if not loose or draw(st.integers(0, 3)):
            side = "user" if side == "assistant" else "assistant"
    if loose:
        for message in messages:
            for item in message.items:
                # thinking blocks take no cache_control (ThinkingBlockParam has none)
                if not isinstance(item, ReasoningContent) and draw(st.integers(0, 5)) == 0:
                    ttl = draw(st.sampled_from([None, "5m", "1h"]))
                    anthropic_format.cache_control(item, ttl=ttl)
    return ChatHistory(messages)


def _anthropic_user(draw: st.DrawFn, calls: _Calls, loose: bool) -> ChatMessageContent:
    items: list[KernelContent] = draw(st.lists(_anthropic_user_item(), min_size=1, max_size=3))
    if loose:
        if draw(st.booleans()):
            text = draw(st.text(max_size=20)).encode("utf-8")
            items.append(FileContent(data=text, mime_type="text/plain",
                                     filename=draw(st.none() | st.just("notes.txt"))))
        if calls.pending and draw(st.booleans()):
            at = draw(st.integers(0, len(items)))
            items[at:at] = _anthropic_results(draw, calls, loose)
    return ChatMessageContent("user", items=items)


def _anthropic_citation_dicts() -> st.SearchStrategy[dict[str, Any]]:
    """Citations of the five types ``TextCitationParam`` declares, SDK-valid."""
    counts = st.integers(0, 30)
    titles = st.none() | _SHORT
    char = st.builds(
        lambda text, index, title, start, end: {
            "type": "char_location", "cited_text": text, "document_index": index,
            "document_title": title, "start_char_index": start, "end_char_index": end},
        _SHORT, st.integers(0, 4), titles, counts, counts)
    page = st.builds(
        lambda text, index, title, start, end: {
            "type": "page_location", "cited_text": text, "document_index": index,
            "document_title": title, "start_page_number": start, "end_page_number": end},
        _SHORT, st.integers(0, 4), titles, counts, counts)
    block = st.builds(
        lambda text, index, title, start, end: {
            "type": "content_block_location", "cited_text": text, "document_index": index,
            "document_title": title, "start_block_index": start, "end_block_index": end},
        _SHORT, st.integers(0, 4), titles, counts, counts)
    web = st.builds(
        lambda text, title, url, index: {
            "type": "web_search_result_location", "cited_text": text, "title": title,
            "url": url, "encrypted_index": index},
        _SHORT, titles, _URL_PATHS.map("https://example.com/{}".format), _OPAQUE)
    search = st.builds(
        lambda text, title, source, index, start, end: {
            "type": "search_result_location", "cited_text": text, "title": title,
            "source": source, "search_result_index": index, "start_block_index": start,
            "end_block_index": end},
        _SHORT, titles, _URL_PATHS.map("https://example.com/{}".format), st.integers(0, 4),
        counts, counts)
    return st.one_of(char, page, block, web, search)


def _anthropic_cited_texts() -> st.SearchStrategy[TextContent]:
    """Texts with citations as the reader makes them from SDK-valid citation dicts."""

    def read(text: str, citations: list[dict[str, Any]]) -> TextContent:
        block = {"type": "text", "text": text, "citations": citations}
        (message,) = anthropic_format.from_payload([{"role": "assistant", "content": [block]}])
        (item,) = message.items
        return item

    return st.builds(read, st.text(max_size=20),
                     st.lists(_anthropic_citation_dicts(), min_size=1, max_size=2))


def _cached(block: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
    """A block, sometimes with ``cache_control``."""
    mark = st.sampled_from([{"type": "ephemeral"}, {"type": "ephemeral", "ttl": "1h"}])
    return _merged(block, _maybe("cache_control", mark))


def _anthropic_text_block(cited: bool = False) -> st.SearchStrategy[dict[str, Any]]:
    text = _SHORT.map(lambda t: {"type": "text", "text": t})
    if cited:
        text = _merged(text, _maybe("citations", st.lists(_anthropic_citation_dicts(),
                                                          min_size=1, max_size=2)))
    return _cached(text)


def _anthropic_image_block() -> st.SearchStrategy[dict[str, Any]]:
    source = st.one_of(
        st.builds(lambda media, data: {"type": "base64", "media_type": media, "data": data},
                  st.sampled_from(_ANTHROPIC_IMAGE_TYPES), _B64),
        _URL_PATHS.map(lambda p: {"type": "url", "url": "https://x.test/" + p}),
        _IDS.map(lambda i: {"type": "file", "file_id": "file_" + i}),
    )
    return _cached(source.map(lambda s: {"type": "image", "source": s}))


def _anthropic_document_block() -> st.SearchStrategy[dict[str, Any]]:
    source = st.one_of(
        _B64.map(lambda d: {"type": "base64", "media_type": "application/pdf", "data": d}),
        _SHORT.map(lambda t: {"type": "text", "media_type": "text/plain", "data": t}),
        _URL_PATHS.map(lambda p: {"type": "url", "url": "https://x.test/" + p + ".pdf"}),
        _IDS.map(lambda i: {"type": "file", "file_id": "file_" + i}),
        st.lists(_SHORT.map(lambda t: {"type": "text", "text": t}), min_size=1,
                 max_size=2).map(lambda blocks: {"type": "content", "content": blocks}),
    )
    return _cached(_merged(
        source.map(lambda s: {"type": "document", "source": s}),
        _maybe("title", st.text(min_size=1, max_size=8)),
        _maybe("context", _SHORT),
        _maybe("citations", st.builds(dict, enabled=st.booleans())),
    ))


def _anthropic_search_result_block() -> st.SearchStrategy[dict[str, Any]]:
    return _merged(
        st.builds(lambda source, title, texts: {"type": "search_result", "source": source,
                                                "title": title, "content": texts},
                  _URL_PATHS.map("https://example.com/{}".format), _SHORT,
                  st.lists(_SHORT.map(lambda t: {"type": "text", "text": t}), min_size=1,
                           max_size=2)),
        _maybe("citations", st.builds(dict, enabled=st.booleans())),
    )


def _anthropic_tool_result_block() -> st.SearchStrategy[dict[str, Any]]:
    parts = st.one_of(_anthropic_text_block(), _anthropic_image_block(),
                      _anthropic_document_block(), _anthropic_search_result_block())
    return _cached(_merged(
        st.integers(0, 9).map(lambda n: {"type": "tool_result", "tool_use_id": f"toolu_{n}"}),
        _maybe("content", _SHORT | st.lists(parts, min_size=1, max_size=3)),
        _maybe("is_error", st.booleans()),
    ))


def _anthropic_assistant_blocks() -> st.SearchStrategy[list[dict[str, Any]]]:
    thinking = st.one_of(
        st.builds(lambda t, s: {"type": "thinking", "thinking": t, "signature": s},
                  _SHORT, _OPAQUE),
        _OPAQUE.map(lambda d: {"type": "redacted_thinking", "data": d}),
    )
    call = _cached(_merged(
        st.builds(lambda n, name, arguments: {"type": "tool_use", "id": f"toolu_{n}",
                                              "name": name, "input": arguments},
                  st.integers(0, 9), _TOOL_NAMES, _json_objects()),
        _maybe("caller", st.just({"type": "direct"})),
    ))
    server = st.builds(
        lambda n, query, results: [
            {"type": "server_tool_use", "id": f"srvtoolu_{n}", "name": "web_search",
             "input": {"query": query}},
            {"type": "web_search_tool_result", "tool_use_id": f"srvtoolu_{n}",
             "content": results},
        ],
        st.integers(0, 9), _SHORT,
        st.one_of(
            st.lists(st.builds(lambda url, title, data: {
                "type": "web_search_result", "url": url, "title": title,
                "encrypted_content": data}, _URL_PATHS.map("https://example.com/{}".format),
                _SHORT, _OPAQUE), max_size=2),
            st.just({"type": "web_search_tool_result_error", "error_code": "unavailable"}),
        ),
    )
    rest = st.lists(st.one_of(_anthropic_text_block(cited=True),
                              call.map(lambda c: [c]), server).map(
        lambda b: b if isinstance(b, list) else [b]), max_size=3)
    return st.builds(lambda first, others: first + [b for group in others for b in group],
                     st.lists(thinking, max_size=2), rest).filter(bool)


def _anthropic_user_content() -> st.SearchStrategy[Any]:
    """A string, or blocks: ``tool_result`` blocks first (as the API wants), then the rest."""
    others = st.one_of(_anthropic_text_block(), _anthropic_image_block(),
                       _anthropic_document_block(), _anthropic_search_result_block())
    blocks = st.builds(lambda results, rest: results + rest,
                       st.lists(_anthropic_tool_result_block(), max_size=2),
                       st.lists(others, max_size=3)).filter(bool)
    return _SHORT | blocks


def anthropic_payloads() -> st.SearchStrategy[dict[str, Any]]:
    """``{system?, messages}`` dicts, valid for the SDK, mixing every block the format reads.

    Turns alternate (the writer merges consecutive ones), starting with either side; an
    assistant turn is a string or blocks: thinking first, then texts (with citations of every
    type), ``tool_use`` (any JSON input, a ``caller``) and web search blocks; a user turn a
    string or blocks: ``tool_result`` blocks first, then text, images, documents and search
    results. ``cache_control`` anywhere a block takes it; ``system`` a string or text blocks.
    """
    def turns(first: int, contents: list[Any]) -> list[dict[str, Any]]:
        roles = ("user", "assistant")
        return [{"role": roles[(first + i) % 2], "content": content}
                for i, content in enumerate(contents)]

    @st.composite
    def messages(draw: st.DrawFn) -> list[dict[str, Any]]:
        first = draw(st.integers(0, 1))
        contents = []
        for index in range(draw(st.integers(0, 5))):
            if (first + index) % 2 == 0:
                contents.append(draw(_anthropic_user_content()))
            else:
                contents.append(draw(_SHORT | _anthropic_assistant_blocks()))
        return turns(first, contents)

    system = _SHORT | st.lists(_anthropic_text_block(), min_size=1, max_size=2)
    return _merged(st.builds(dict, messages=messages()), _maybe("system", system))
