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
    RefusalContent,
    TextContent,
)

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


def _chat_tool_result(draw: st.DrawFn) -> Any:
    if draw(st.booleans()):
        return draw(st.lists(_texts(), min_size=1, max_size=3))
    return draw(st.text(max_size=20))


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
                result = FunctionResultContent(None, draw(st.text(max_size=20)), name=call.name)
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
    """Function calls, with at most one run of texts somewhere among them.

    The Responses format has no boundary between assistant messages: a ``message`` item after
    a ``message`` item starts a new assistant message, anything else joins the current one. So
    one text run per message, of one to three texts. No
    refusals: a refusal part is only valid inside an output message item, which needs the
    ``id`` and ``status`` of a replayed response (see the xfail test for hand-built refusals).
    """
    items: list[KernelContent] = [calls.call(draw) for _ in range(draw(st.integers(0, 3)))]
    if not items or draw(st.booleans()):
        run = draw(st.lists(_texts(), min_size=1, max_size=3))
        at = draw(st.integers(0, len(items)))
        items[at:at] = run
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
                result: Any = draw(st.lists(_responses_part(), min_size=1, max_size=3))
            else:
                result = draw(st.text(max_size=20))
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
    source = st.one_of(
        _B64.map(lambda b: {"file_data": f"data:application/pdf;base64,{b}"}),
        st.just({"file_id": "file-1"}),
    )
    file = _merged(source, _maybe("filename", st.sampled_from(["a.pdf", "notes.txt"]))).map(
        lambda body: {"type": "file", "file": body})
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
        st.just({"file_id": "file-1"}),
        st.just({"file_url": "https://x.test/a.pdf"}),
        _B64.map(lambda b: {"file_data": f"data:application/pdf;base64,{b}"}),
    )
    file = _merged(_fixed(type="input_file"), file_source, _maybe("filename", st.just("a.pdf")))
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
