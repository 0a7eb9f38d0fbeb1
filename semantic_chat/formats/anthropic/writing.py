"""Writing histories as Anthropic Messages payloads: ``{"system": ..., "messages": [...]}``.

Anthropic's turn rules are applied on the way out: system and developer messages go to the
top-level ``system``; ``tool`` messages become ``tool_result`` blocks that join the next user
turn, results first; consecutive turns of one role are merged (or refused). A call's
arguments become the ``input`` object: a mapping as it is, JSON text parsed.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ...contents import (
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
from ...contents.metadata import peek_metadata
from ...errors import (
    FormatError,
    InvalidTypeError,
    InvalidValueError,
    SerializationError,
    describe_type,
)
from ...history import ChatHistory
from ...jsoncodec import json_value
from ...labels import PLAIN_TEXT, AuthorRole
from ...media import canonical_mime_type, guess_mime_type
from ...message import ChatMessageContent
from ..wire import (
    HINT_KEYS,
    OnUnsupported,
    compact_json,
    custom_call,
    get_hints,
    image_type_refused,
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
from .citations import write_citation
from .shared import FORMAT, HINTS, IMAGE_TYPES, KEPT_BLOCK_TYPES, NEWER_MARK, PROVIDER, codecs

__all__ = ["cache_control", "to_payload"]

_INSTRUCTION_ROLES = frozenset(("system", "developer"))
_SYSTEM, _DEVELOPER = AuthorRole.SYSTEM, AuthorRole.DEVELOPER
_USER, _ASSISTANT, _TOOL = AuthorRole.USER, AuthorRole.ASSISTANT, AuthorRole.TOOL
_TTLS = ("5m", "1h")
_NO_TURN: dict[str, Any] = {}  # the turn before the first, never written to
_NO_RESULTS: list[dict[str, Any]] = []  # the results of no turn, never written to
# The hints other formats' readers keep: on an unknown item, they say it is theirs (a
# Responses "compaction" item is no Anthropic compaction block).
_FOREIGN_HINTS = HINT_KEYS - {HINTS}

# One message written: a turn (a dict with "role" and "content", results first, and the
# message's other keys) whose role is "user", "assistant" or, for the loop to join it, "tool";
# or text for the top-level system: role "system", text blocks, and "blocks": True when they
# must stay blocks.
_Written = dict[str, Any]


def to_payload(
    history: Iterable[ChatMessageContent],
    *,
    on_unsupported: OnUnsupported | None = None,
    merge_consecutive: bool = True,
) -> dict[str, Any]:
    """Write a history as an Anthropic Messages payload: ``{"system": ..., "messages": [...]}``.

    ``"system"`` is there only when the history has system or developer messages: a string
    for one plain text, else a list of text blocks (one carrying ``cache_control``, or read as
    blocks). ``tool`` messages become ``tool_result`` blocks that join the next user turn,
    results first; consecutive turns of one role are merged, or refused with
    ``merge_consecutive=False``. A call's ``input`` is its arguments as an object: a mapping
    as it is, a JSON string parsed (key order kept; spacing and number spelling are the JSON
    writer's; a blank string is ``{}``). Thinking is written back exactly when it is
    Anthropic's (``provider`` ``"anthropic"``, or ``None`` with a signature or encrypted
    data); any other reasoning is never sent as text: it is left out, with a warning by
    default. An empty or whitespace-only text beside other blocks of its turn is left out
    without a word (the API refuses such text blocks; OpenAI Chat clients send
    ``"content": ""`` beside tool calls); a message of such texts only that would be a turn of
    its own is left out with a `ConversionWarning` (even with ``on_unsupported="error"``:
    nothing said is lost) and the turns around it merged, unless it is the last assistant
    message of empty texts, the empty prefill the API takes. A message whose items were all
    left out is left out. A result answering a call left out (same id) is left out too,
    reported at its own path: the API refuses a result without its call. What the format
    cannot carry follows ``on_unsupported`` (items refused, fields and metadata left out
    with a `ConversionWarning`); ids, usage, finish reasons and model ids, which requests
    never carry, are left out without a word.

    Raises:
        UnsupportedContentError: an item the format cannot carry (audio, a refusal, an image
            in an assistant message, a call without an id, a file by a URL of a type other
            than PDF (given, or guessed from the URL's name) or by a URI other than http(s),
            an unknown item Anthropic did not produce ...), named by message and item index,
            unless ``on_unsupported`` is ``"warn"`` or ``"drop"``; with ``"error"``, also a
            field or reasoning it cannot carry.
        FormatError: a role the format does not have; arguments that are not a JSON object
            (``messages[1].items[0].arguments``); with ``merge_consecutive=False``, a message
            of the same role as the turn before it, or turns of one role on either side of a
            blank message left out.
        InvalidValueError: ``on_unsupported`` is not one of its values.
    """
    if on_unsupported is not None:  # None, the default, needs no check
        on_unsupported = policy(on_unsupported)
    return _to_payload(history, on_unsupported, merge_consecutive, True)


def cache_control(target: KernelContent | ChatMessageContent, *, ttl: str | None = None) -> None:
    """Mark an item, or a message's last item, as a prompt cache breakpoint.

    The mark is ``{"type": "ephemeral"}`` (with ``"ttl"`` when given) in the item's hints, so
    `to_payload` writes it on the item's block (a system message's text block makes
    ``system`` a list of blocks). Other formats ignore it.

    Raises:
        InvalidTypeError: ``target`` is neither an item nor a message, or ``ttl`` not a str.
        InvalidValueError: the message has no items, the item is reasoning (thinking blocks
            take no ``cache_control``), or ``ttl`` is not ``"5m"`` or ``"1h"``.
    """
    where = "target"
    if isinstance(target, ChatMessageContent):
        if not target.items:
            raise InvalidValueError("a message without items has no block to mark", path="items")
        item = target.items[-1]
        where = f"items[{len(target.items) - 1}]"
    elif isinstance(target, KernelContent):
        item = target
    else:
        raise InvalidTypeError.mismatch("target", "an item or a message", type(target).__name__)
    if isinstance(item, ReasoningContent):
        raise InvalidValueError(
            "thinking takes no cache_control: the API caches it with its turn", path=where
        )
    mark = {"type": "ephemeral"}
    if ttl is not None:
        if not isinstance(ttl, str):
            raise InvalidTypeError.mismatch("ttl", "a str or None", type(ttl).__name__)
        if ttl not in _TTLS:
            raise InvalidValueError(f"expected '5m' or '1h', got {ttl!r}", path="ttl")
        mark["ttl"] = ttl
    hints = item.metadata.get(HINTS)
    if not isinstance(hints, dict):
        hints = item.metadata[HINTS] = {}
    fields = hints.get("fields")
    if not isinstance(fields, dict):
        fields = hints["fields"] = {}
    fields["cache_control"] = mark


def _to_payload(  # noqa: PLR0915 - one loop: see below
    history: Iterable[ChatMessageContent],
    on_unsupported: OnUnsupported | None,
    merge_consecutive: bool,
    quick: bool,
) -> dict[str, Any]:
    """`to_payload`; ``quick=False`` writes every message the general way (for the tests).

    The common shapes (see `_write_plain_message`) are written in the loop itself, each
    straight into its turn: a call per message, and a dict per message that only joins a
    turn, would cost more than the rest of the work. Anything else, and a message broken by
    hand, goes to the general writer, which locates every problem.
    """
    turns: list[dict[str, Any]] = []
    append = turns.append
    system: list[Any] = []  # the quick path's texts (str), the general writer's blocks
    system_blocks = False  # written as blocks, whatever they hold
    system_general = False  # some written the long way: blank texts may be among them
    system_at: tuple[int, ...] = ()  # the messages the long way wrote there
    last: dict[str, Any] = _NO_TURN  # the turn being built, and what made it: "" (none yet),
    last_kind = ""  # "assistant", "user", "tool" (only results of tool messages so far), or
    # "tool+" (tool messages' results and other blocks: a result joins before those)
    results = _NO_RESULTS  # the content of the last turn, when it is "tool"
    blanks: tuple[tuple[int, dict[str, Any]], ...] = ()  # turns begun by blank messages (rare)
    # The calls the general writer left out: id -> path. Once there is one, the rest goes the
    # general way, which leaves their results out too (the API refuses a result alone).
    left_out: dict[str, str] = {}
    loads = quick_loads()
    lost_history_keys(history, FORMAT, on_unsupported)
    messages = history._messages if type(history) is ChatHistory else history  # no __iter__
    for index, message in enumerate(messages):
        written: _Written | None = None
        if quick:
            try:
                # The commonest messages straight into their turn: one text, one result, an
                # assistant's text and calls.
                items = message._items
                if (
                    not message._metadata
                    and message._name is None
                    and type(message) is ChatMessageContent  # a subclass: its fields reported
                ):
                    role = message._role  # well-known roles are interned: compared by identity
                    if len(items) == 1:
                        (item,) = items
                        if type(item) is TextContent:
                            text = item._text
                            if (
                                not item._metadata
                                and not item._citations
                                and type(text) is str
                                and text
                                and not text.isspace()  # blank: the long way leaves it out
                            ):
                                if role is _ASSISTANT:
                                    if last_kind != "assistant":
                                        last = {"role": "assistant", "content": text}
                                        append(last)
                                        last_kind = "assistant"
                                        continue
                                elif role is _USER:
                                    if last_kind == "assistant" or not last_kind:
                                        last = {"role": "user", "content": text}
                                        append(last)
                                        last_kind = "user"
                                        continue
                                elif (role is _SYSTEM or role is _DEVELOPER) and not turns:
                                    system.append(text)  # a block at the end, if need be
                                    continue
                        elif type(item) is FunctionResultContent and role is _TOOL:
                            call_id, answer = item._call_id, item._result
                            if (
                                not item._metadata
                                and item._is_error is False
                                and type(call_id) is str
                                and type(answer) is str
                            ):
                                block = {"type": "tool_result", "tool_use_id": call_id,
                                         "content": answer}
                                if last_kind == "tool":  # results only so far: join them
                                    results.append(block)
                                    continue
                                if last_kind == "assistant" or not last_kind:
                                    results = [block]
                                    last = {"role": "user", "content": results}
                                    append(last)
                                    last_kind = "tool"
                                    continue
                    if role is _ASSISTANT and last_kind != "assistant":
                        blocks: list[dict[str, Any]] = []
                        for item in items:
                            if item._metadata:
                                break
                            if type(item) is FunctionCallContent:
                                call_id, name, arguments = item._id, item._name, item._arguments
                                if type(arguments) is str and loads is not None:
                                    parsed = loads(arguments)  # not JSON: raises
                                else:
                                    parsed = object_arguments(arguments)
                                if (
                                    type(parsed) is not dict
                                    or type(call_id) is not str
                                    or type(name) is not str
                                ):
                                    break
                                blocks.append(
                                    {"type": "tool_use", "id": call_id, "name": name,
                                     "input": parsed}
                                )
                            elif (  # a blank text: the long way leaves it out
                                type(item) is TextContent
                                and not item._citations
                                and type(text := item._text) is str
                                and text
                                and not text.isspace()
                            ):
                                blocks.append({"type": "text", "text": text})
                            else:
                                break
                        else:
                            if blocks:  # none: the long way leaves an empty turn out
                                last = {"role": "assistant", "content": blocks}
                                append(last)
                                last_kind = "assistant"
                                continue
                    elif role is _USER and (last_kind == "assistant" or not last_kind):
                        blocks = []
                        for item in items:
                            if item._metadata:
                                break
                            if type(item) is ImageContent:
                                payload, mime_type = item._data, item._mime_type
                                if (
                                    type(payload) is not str  # base64 text, as read
                                    or mime_type not in IMAGE_TYPES
                                    or item._detail is not None
                                ):
                                    break
                                source = {"type": "base64", "media_type": mime_type,
                                          "data": payload}
                                blocks.append({"type": "image", "source": source})
                            elif (  # a blank text: the long way leaves it out
                                type(item) is TextContent
                                and not item._citations
                                and type(text := item._text) is str
                                and text
                                and not text.isspace()
                            ):
                                blocks.append({"type": "text", "text": text})
                            else:
                                break
                        else:
                            if blocks:  # none: the long way leaves an empty turn out
                                last = {"role": "user", "content": blocks}
                                append(last)
                                last_kind = "user"
                                continue
                written = _write_plain_message(message)
            except Exception:  # a message broken by hand: the general writer locates it
                written = None
        general = written is None
        if written is None:
            written = _write_message(
                message, f"messages[{index}]", on_unsupported, bool(turns), left_out
            )
            if left_out:
                quick = False  # the quick loop would write their results
            if written is None:
                continue  # every item left out
        turn: dict[str, Any] = written
        kind = turn["role"]
        if kind == "assistant":
            if last_kind != "assistant":
                if _says_nothing(turn["content"]):
                    blanks += ((index, turn),)
                append(turn)
                last, last_kind = turn, kind
                continue
        elif kind == "tool":  # results: a user turn of their own, or joined to the open one
            turn["role"] = "user"
            content = turn["content"]
            if last_kind in ("tool", "tool+"):
                if last_kind == "tool":
                    last["content"].extend(content)
                    if content and _is_blank_text(content[0]):  # blank texts only
                        _drop_empty_texts(last["content"])
                    if len(turn) > 2:
                        _join_fields(last, turn)
                else:
                    _join(last, turn)
                if content and content[-1]["type"] != "tool_result":
                    last_kind = "tool+"  # other blocks follow the results: join them in place
                continue
            if last_kind != "user":
                append(turn)
                last, results = turn, content
                last_kind = "tool+" if content and content[-1]["type"] != "tool_result" else kind
                continue
        elif kind == "user":
            if last_kind in ("tool", "tool+"):  # the next user turn: results join it, always
                _join(last, turn)
                last_kind = "user"
                continue
            if last_kind != "user":
                if _says_nothing(turn["content"]):
                    blanks += ((index, turn),)
                append(turn)
                last, last_kind = turn, kind
                continue
        else:  # instructions, for the top-level system
            if turns and not general:  # after the first turn: moved there, and reported
                moved = _write_message(
                    message, f"messages[{index}]", on_unsupported, True, left_out
                )  # a plain text the quick path took: it leaves out no call
                if moved is None:
                    continue
                turn = moved
            system_blocks = system_blocks or len(turn) > 2
            system_general = True
            system_at += (index,)
            system.extend(turn["content"])
            continue
        # A turn of the same side as the one before: a merge.
        if not merge_consecutive:
            raise FormatError(
                f"{FORMAT} needs user and assistant turns to alternate: a {kind} message "
                f"after a {last_kind} message (pass merge_consecutive=True to merge them)",
                path=f"messages[{index}]",
            )
        _join(last, turn)
    if blanks:
        _leave_out_blank_turns(turns, blanks, on_unsupported, merge_consecutive)
    if turns and turns[-1]["role"] == "assistant":  # the prefill Claude continues
        final = turns[-1]["content"]  # rstrip gives the same str back: nothing to take off
        if type(final) is not str or final.rstrip() is not final:
            _trim_prefill(turns[-1], index, on_unsupported)
    if not system:
        return {"messages": turns}
    if not system_general:  # the quick path's texts only, none blank
        if len(system) == 1:
            return {"system": system[0], "messages": turns}
        return {"system": [{"type": "text", "text": text} for text in system], "messages": turns}
    blocks = [{"type": "text", "text": part} if type(part) is str else part for part in system]
    _drop_empty_texts(blocks)  # as in a turn: the API refuses a blank text block there too
    if len(blocks) == 1 and not system_blocks and len(blocks[0]) == 2:
        return {"system": blocks[0]["text"], "messages": turns}  # a string, blank or not
    if blocks and _is_blank_text(blocks[0]):  # blank text blocks only, all the long way's
        _leave_out_blank_system(system_at, on_unsupported)
        return {"messages": turns}
    return {"system": blocks, "messages": turns}


def _join(turn: dict[str, Any], written: dict[str, Any]) -> None:
    """Add a message's turn to the turn before: results after its results, the rest last.

    The message's other keys (kept as hints) are added too. Blank texts are left out once
    the joined turn has other blocks (see `_drop_empty_texts`).
    """
    blocks = turn["content"]
    if type(blocks) is str:
        blocks = turn["content"] = [{"type": "text", "text": blocks}]
    content = written["content"]
    if type(content) is str:
        content = [{"type": "text", "text": content}]
    # A turn written holds no blank text, or only blank texts: its first block tells.
    empty = (blocks and _is_blank_text(blocks[0])) or (content and _is_blank_text(content[0]))
    results = _leading_results(content)
    if results:
        at = _leading_results(blocks)
        blocks[at:at] = content[:results]
        blocks.extend(content[results:])
    else:
        blocks.extend(content)
    if empty:
        _drop_empty_texts(blocks)
    _join_fields(turn, written)


def _join_fields(turn: dict[str, Any], written: dict[str, Any]) -> None:
    """Add a message's other keys (kept as hints) to the turn it joins."""
    for key, value in written.items():
        if key not in ("role", "content"):
            turn[key] = value


def _is_blank_text(block: dict[str, Any]) -> bool:
    """Whether a block is a text of nothing or whitespace, with no other key (no cache mark)."""
    if block.get("type") != "text" or len(block) != 2:
        return False
    text = block.get("text")
    return type(text) is str and (not text or text.isspace())


def _says_nothing(content: str | list[dict[str, Any]]) -> bool:
    """Whether a user or assistant turn's content is blank texts only, or nothing at all.

    A blank string, or a message without items, says nothing too. Its blank texts were left
    out beside other blocks (`_drop_empty_texts`), so a turn holds none or only those: its
    first block tells.
    """
    if isinstance(content, str):
        return not content or content.isspace()
    return not content or _is_blank_text(content[0])


def _drop_empty_texts(blocks: list[dict[str, Any]]) -> None:
    """Leave a turn's blank texts (empty or whitespace) out, in place, when it has other blocks.

    The API refuses an empty or whitespace-only text block (OpenAI Chat clients send
    ``"content": ""`` beside tool calls); one says nothing, so it goes without a warning. A
    turn of blank texts only is kept here: `_leave_out_blank_turns` decides on it.
    """
    kept = [block for block in blocks if not _is_blank_text(block)]
    if kept and len(kept) != len(blocks):
        blocks[:] = kept


def _trim_prefill(turn: dict[str, Any], index: int, on_unsupported: OnUnsupported | None) -> None:
    """Take the trailing whitespace off a last assistant turn's last text, in place.

    The API refuses a prefill that ends in whitespace ("final assistant content cannot end
    with trailing whitespace"), as a reply logged with its final newline does. The
    whitespace says nothing, so taking it off is a `ConversionWarning` at
    ``messages[index]`` even with ``on_unsupported="error"`` (none with ``"drop"``), as for a
    blank turn. Most histories end with a reply: the check costs one ``rstrip`` of its text,
    which gives back the same ``str`` when there is nothing to take off.
    """
    content = turn["content"]
    if type(content) is str:
        trimmed = content.rstrip()
        if trimmed is content:
            return
        turn["content"] = trimmed
    else:
        last = content[-1] if content else None
        if last is None or last.get("type") != "text" or type(last.get("text")) is not str:
            return
        trimmed = last["text"].rstrip()
        if trimmed is last["text"]:
            return
        content[-1] = {**last, "text": trimmed}
    action = "warn" if on_unsupported == "error" else on_unsupported
    detail = (
        f"{FORMAT} cannot carry the trailing whitespace of a last assistant message (the API "
        "refuses a prefill that ends in whitespace): taken off"
    )
    lose(action, f"messages[{index}]", detail, "warn")


def _leave_out_blank_system(at: tuple[int, ...], on_unsupported: OnUnsupported | None) -> None:
    """Report the system messages of empty or blank text only, which leave ``system`` out.

    Only when they would be written as text blocks, which the API refuses blank (one text
    alone is written as the ``system`` string, as read). Nothing said is lost, so it is a
    `ConversionWarning` even with ``on_unsupported="error"`` (none with ``"drop"``), as for
    a blank turn.
    """
    action = "warn" if on_unsupported == "error" else on_unsupported
    detail = (
        f"{FORMAT} cannot carry a system message of empty or blank text only (the API refuses "
        "a blank text block)"
    )
    for index in at:
        lose(action, f"messages[{index}]", detail, "warn")


def _leave_out_blank_turns(
    turns: list[dict[str, Any]],
    blanks: tuple[tuple[int, dict[str, Any]], ...],
    on_unsupported: OnUnsupported | None,
    merge_consecutive: bool,
) -> None:
    """Leave out, in place, the turns begun by messages of blank texts only; merge around them.

    The API refuses an empty message and a whitespace-only text block; only the last
    assistant message may be empty (the empty prefill), and that one is kept. A turn a later
    message joined says something and stays. The turns on either side of one left out are of
    one role, and are merged. Leaving one out loses nothing said, so it is a
    `ConversionWarning` even with ``on_unsupported="error"`` (none with ``"drop"``).

    Raises:
        FormatError: with ``merge_consecutive=False``, turns of one role on either side of one
            left out, located at the message left out.
    """
    action = "warn" if on_unsupported == "error" else on_unsupported
    for index, turn in blanks:
        at = next((at for at, each in enumerate(turns) if each is turn), None)
        content = turn["content"]
        if at is None or not _says_nothing(content):
            continue  # joined by a later message (or merged into a turn before)
        if at == len(turns) - 1 and turn["role"] == "assistant" and not _has_whitespace(content):
            continue  # the empty prefill the API takes last
        detail = (
            f"{FORMAT} cannot carry a message of empty or blank text only (the API refuses "
            "it; only the last assistant message may be empty)"
        )
        lose(action, f"messages[{index}]", detail, "warn")
        del turns[at]
        if 0 < at < len(turns) and turns[at - 1]["role"] == turns[at]["role"]:
            if not merge_consecutive:
                raise FormatError(
                    f"{FORMAT} needs user and assistant turns to alternate: a "
                    f"{turns[at]['role']} turn on either side of a message of blank text only, "
                    "left out (pass merge_consecutive=True to merge them)",
                    path=f"messages[{index}]",
                )
            _join(turns[at - 1], turns.pop(at))


def _has_whitespace(content: str | list[dict[str, Any]]) -> bool:
    """Whether blank content holds whitespace (the API refuses it even in a last turn)."""
    if isinstance(content, str):
        return bool(content)
    return any(block["text"] for block in content)


def _content(blocks: list[dict[str, Any]]) -> str | list[dict[str, Any]]:
    """A user or assistant turn's content of blocks with blank texts: those left out.

    One text left is written as a string, as a message of one text is.
    """
    _drop_empty_texts(blocks)
    if len(blocks) == 1 and _is_plain_text(blocks[0]):
        text: str = blocks[0]["text"]
        return text
    return blocks


def _is_plain_text(block: dict[str, Any]) -> bool:
    """Whether a block is a text with no other key: written as string content alone."""
    return block.get("type") == "text" and len(block) == 2


def _leading_results(blocks: list[dict[str, Any]]) -> int:
    """How many ``tool_result`` blocks lead a turn's content."""
    count = 0
    for block in blocks:
        if block.get("type") != "tool_result":
            break
        count += 1
    return count


# --- the common shapes, quickly -----------------------------------------------------------


def _write_plain_message(message: ChatMessageContent) -> _Written | None:  # noqa: PLR0915
    """Write the common shapes without hints quickly; ``None`` sends the rest the long way.

    Covers user and assistant messages of plain text items, a user's base64 or URL images,
    an assistant's tool calls and Anthropic thinking, tool messages of string results, and
    system or developer messages of one text, none with a name or metadata. `_to_payload`
    writes the commonest of these itself, straight into their turn; this writes them when
    they join a turn, and the rest. The returned role is ``"tool"`` for results and
    ``"system"`` for instructions, for the loop to place them.
    """
    if message._metadata or message._name is not None or type(message) is not ChatMessageContent:
        return None
    role = PLAIN_TEXT[message._role]  # the slots behind the properties: this is a hot path
    items = message._items
    if role == "tool":
        blocks: list[dict[str, Any]] = []
        for result in items:
            if type(result) is not FunctionResultContent:
                return None
            call_id, answer = result._call_id, result._result
            if (
                result._metadata
                or type(call_id) is not str
                or type(answer) is not str
                or result._is_error is not False
            ):
                return None
            blocks.append({"type": "tool_result", "tool_use_id": call_id, "content": answer})
        return {"role": "tool", "content": blocks} if blocks else None
    if len(items) == 1:  # most messages are one text: no lists to build
        (item,) = items
        if type(item) is TextContent and not item._metadata and not item._citations:
            text = item._text
            if type(text) is str:
                if role in ("user", "assistant"):
                    return {"role": role, "content": text}
                if role in _INSTRUCTION_ROLES:
                    return {"role": "system", "content": [{"type": "text", "text": text}]}
            return None
    blocks = []
    if role == "user":
        results = 0
        empty = False
        for item in items:
            if item._metadata:
                return None
            if type(item) is TextContent:
                text = item._text
                if item._citations or type(text) is not str:
                    return None
                blocks.append({"type": "text", "text": text})
                empty = empty or not text or text.isspace()
            elif type(item) is ImageContent:
                image = _plain_image(item)
                if image is None:
                    return None
                blocks.append(image)
            elif type(item) is FunctionResultContent and results == len(blocks):
                answered = _plain_result(item)
                if answered is None:
                    return None
                blocks.append(answered)
                results += 1
            else:
                return None
        if empty:
            return {"role": "user", "content": _content(blocks)}
        if len(blocks) == 1 and results == 0 and blocks[0]["type"] == "text":
            return None  # one text is a string, unless broken: the long way says which
        return {"role": "user", "content": blocks}
    if role != "assistant":
        return None
    loads = quick_loads()  # tests switch backends
    empty = False
    for item in items:
        if item._metadata:
            return None
        if type(item) is TextContent:
            text = item._text
            if item._citations or type(text) is not str:
                return None
            blocks.append({"type": "text", "text": text})
            empty = empty or not text or text.isspace()
        elif type(item) is FunctionCallContent:
            call_id, name, arguments = item._id, item._name, item._arguments
            if type(call_id) is not str or type(name) is not str:
                return None
            if type(arguments) is str and loads is not None:
                parsed = loads(arguments)  # not JSON: raises, for the general writer
                if type(parsed) is not dict:
                    return None
            else:
                parsed = object_arguments(arguments)
                if parsed is None:
                    return None
            blocks.append({"type": "tool_use", "id": call_id, "name": name, "input": parsed})
        elif type(item) is ReasoningContent:
            provider, signature, text = item._provider, item._signature, item._text
            if (
                (provider is not None and provider != PROVIDER)
                or type(signature) is not str
                or type(text) is not str
                or item._encrypted is not None
            ):
                return None
            blocks.append({"type": "thinking", "thinking": text, "signature": signature})
        else:
            return None
    if empty:
        return {"role": "assistant", "content": _content(blocks)}
    if len(blocks) == 1 and blocks[0]["type"] == "text":
        return None  # one text is a string, unless broken: the long way says which
    return {"role": "assistant", "content": blocks}


def _plain_result(result: FunctionResultContent) -> dict[str, Any] | None:
    """A ``tool_result`` block for a string result with no error or metadata, or ``None``."""
    call_id, answer = result._call_id, result._result
    if (
        result._metadata
        or type(call_id) is not str
        or type(answer) is not str
        or result._is_error is not False
    ):
        return None
    return {"type": "tool_result", "tool_use_id": call_id, "content": answer}


def _plain_image(item: ImageContent) -> dict[str, Any] | None:
    """An image block from bytes of a type Anthropic takes, or an http(s) URL; else ``None``."""
    if item._detail is not None or item._file_id is not None:
        return None
    uri = item._uri
    if uri is None:
        mime_type = item._mime_type
        if mime_type not in IMAGE_TYPES:
            return None
        source = {"type": "base64", "media_type": mime_type, "data": item.base64}
        return {"type": "image", "source": source}
    if (
        type(uri) is str
        and uri[:8].lower().startswith(("https://", "http://"))
        and (item._mime_type is None or item._mime_type in IMAGE_TYPES)
    ):
        return {"type": "image", "source": {"type": "url", "url": uri}}
    return None  # the general writer says why


# --- the general writer -------------------------------------------------------------------


def _write_message(
    message: ChatMessageContent,
    path: str,
    on_unsupported: OnUnsupported | None,
    started: bool,
    left_out: dict[str, str],
) -> _Written | None:
    """Write one message, locating every problem; ``None`` when all its items were left out.

    ``started`` says whether a user or assistant turn came before (a system message after
    one is moved to the top-level ``system`` and reported). ``left_out`` maps the id of each
    call left out so far to its path: this adds the calls it leaves out, and leaves out the
    results answering any of them (see `_result_left_out`).
    """
    role = str(message.role)
    if role not in ("user", "assistant", "tool") and role not in _INSTRUCTION_ROLES:
        raise FormatError(f"{FORMAT} has no role {role!r}", path=f"{path}.role")
    items = stored_items(message, path)
    report_metadata(message, items, path, FORMAT, on_unsupported, codecs=codecs)
    if message.name is not None:
        unsupported_field(on_unsupported, FORMAT, f"{path}.name", f"the name of a {role} message")
    hints = get_hints(message, HINTS)
    fields = hints.get("fields")
    fields = dict(fields) if isinstance(fields, dict) and fields else None

    if role in _INSTRUCTION_ROLES:
        return _write_system(role, items, path, on_unsupported, started, hints, left_out)
    results: list[dict[str, Any]] = []
    blocks: list[dict[str, Any]] = []
    for index, item in items:
        where = f"{path}.items[{index}]"
        if isinstance(item, FunctionResultContent) and codecs.encoder_for(item) is None:
            if role == "assistant":
                unsupported(on_unsupported, FORMAT, where, item, "in an assistant message")
                continue
            if left_out and result_left_out(item, where, FORMAT, on_unsupported, left_out):
                continue
            block = _result_block(item, where, on_unsupported)
            if block is not None:
                results.append(block)
            continue
        if role == "assistant":
            block = _assistant_block(item, where, on_unsupported)
        else:
            block = _user_block(item, where, on_unsupported, f"in a {role} message")
        if isinstance(item, FunctionCallContent):
            note_call(item, where, left_out, block is not None)
        if block is not None:
            blocks.append(block)
    content: Any = results + blocks
    if not content and items:
        return None
    _drop_empty_texts(content)  # they say nothing, and the API refuses them
    if (
        len(content) == 1
        and role != "tool"
        and not hints.get("parts")
        and content[0]["type"] == "text"
        and len(content[0]) == 2
    ):
        content = content[0]["text"]
    turn = {"role": role, "content": content}
    if fields:
        turn.update(fields)
    return turn


def _write_system(  # noqa: PLR0917 - the general writer's state, passed on
    role: str,
    items: list[tuple[int, KernelContent]],
    path: str,
    on_unsupported: OnUnsupported | None,
    started: bool,
    hints: dict[str, Any],
    left_out: dict[str, str],
) -> _Written | None:
    """A system or developer message's text blocks, for the top-level ``system``.

    A call there is left out (text only), and noted in ``left_out`` for its results.
    """
    if started:
        what = f"the place of a {role} message after the first turn (moved to the system)"
        unsupported_field(on_unsupported, FORMAT, path, what)
    system: list[dict[str, Any]] = []
    for index, item in items:
        where = f"{path}.items[{index}]"
        if isinstance(item, TextContent) and codecs.encoder_for(item) is None:
            system.append(_text_block(item, where, on_unsupported))
        else:
            unsupported(on_unsupported, FORMAT, where, item, f"in a {role} message (text only)")
            if isinstance(item, FunctionCallContent):
                note_call(item, where, left_out, False)
    if not system and items:
        return None
    written: dict[str, Any] = {"role": "system", "content": system}
    if hints.get("blocks") or len(system) != 1 or len(system[0]) != 2:
        written["blocks"] = True
    return written


def _assistant_block(
    item: KernelContent, path: str, on_unsupported: OnUnsupported | None
) -> dict[str, Any] | None:
    encoded = codecs.encode(item, path)
    if encoded is not None:
        return encoded
    if isinstance(item, TextContent):
        return _text_block(item, path, on_unsupported)
    if isinstance(item, FunctionCallContent):
        why = "without an id" if item.id is None else custom_call(item)
        if why is not None:
            unsupported(on_unsupported, FORMAT, path, item, why)
            return None
        block = {
            "type": "tool_use",
            "id": item.id,
            "name": item.name,
            "input": parse_object_arguments(item.arguments, f"{path}.arguments"),
        }
        return _with_fields(block, item)
    if isinstance(item, ReasoningContent):
        return _thinking_block(item, path, on_unsupported)
    if isinstance(item, UnknownContent):
        return _unknown_block(item, path, on_unsupported)
    unsupported(on_unsupported, FORMAT, path, item, "in an assistant message")
    return None


def _user_block(
    item: KernelContent, path: str, on_unsupported: OnUnsupported | None, where: str
) -> dict[str, Any] | None:
    """A block a user turn or a tool result holds: text, image, document, or one kept whole."""
    encoded = codecs.encode(item, path)
    if encoded is not None:
        return encoded
    if isinstance(item, TextContent):
        return _text_block(item, path, on_unsupported)
    if isinstance(item, ImageContent):
        return _image_block(item, path, on_unsupported)
    if isinstance(item, FileContent):
        return _document_block(item, path, on_unsupported)
    if isinstance(item, UnknownContent):
        return _unknown_block(item, path, on_unsupported)
    unsupported(on_unsupported, FORMAT, path, item, where)
    return None


def _text_block(
    item: TextContent, path: str, on_unsupported: OnUnsupported | None
) -> dict[str, Any]:
    block: dict[str, Any] = {"type": "text", "text": item.text}
    citations = item.citations
    if citations:
        if type(citations) is not tuple:  # broken by hand: the setter keeps a tuple
            expected = "a tuple of Citation"
            raise FormatError.mismatch(f"{path}.citations", expected, describe_type(citations))
        written = []
        for index, each in enumerate(citations):
            where = f"{path}.citations[{index}]"
            if not isinstance(each, Citation):
                raise FormatError.mismatch(where, "a Citation", describe_type(each))
            citation = write_citation(each, where, on_unsupported)
            if citation is not None:
                written.append(citation)
        if written:
            block["citations"] = written
    return _with_fields(block, item)


def _image_block(
    item: ImageContent, path: str, on_unsupported: OnUnsupported | None
) -> dict[str, Any] | None:
    source: dict[str, Any]
    if item.file_id is not None:
        source = {"type": "file", "file_id": item.file_id}
    elif item.uri is not None:
        why = (
            "by a URI other than http(s)"
            if not item.uri[:8].lower().startswith(("https://", "http://"))
            else image_type_refused(item)
        )
        if why is not None:
            unsupported(on_unsupported, FORMAT, path, item, why)
            return None
        source = {"type": "url", "url": item.uri}
    else:
        why = image_type_refused(item)
        if why is not None:
            unsupported(on_unsupported, FORMAT, path, item, why)
            return None
        bare = canonical_mime_type(item.mime_type or "")  # image/jpg is sent as image/jpeg
        source = {"type": "base64", "media_type": bare, "data": item.base64}
    if item.detail is not None:
        unsupported_field(on_unsupported, FORMAT, f"{path}.detail", "an image's detail")
    return _with_fields({"type": "image", "source": _with_source(source, item)}, item)


def _document_block(
    item: FileContent, path: str, on_unsupported: OnUnsupported | None
) -> dict[str, Any] | None:
    """A document block: by file id, by an http(s) URL (a PDF the API fetches), or of data.

    A file by URL of a known type other than PDF, and one by another URI (``gs://``), are
    refused: the API fetches only PDFs, over http(s).
    """
    source: dict[str, Any]
    if item.file_id is not None:
        source = {"type": "file", "file_id": item.file_id}
    elif item.uri is not None:
        if not item.uri[:8].lower().startswith(("https://", "http://")):
            unsupported(on_unsupported, FORMAT, path, item, "by a URI other than http(s)")
            return None
        bare = (item.mime_type or "").partition(";")[0].strip().lower()
        media_type = bare or _url_type(item.uri)
        if media_type not in ("", "application/pdf"):
            guessed = "" if bare else "; the type guessed from the URL's name"
            why = f"of type {media_type} by URL (PDF only{guessed})"
            unsupported(on_unsupported, FORMAT, path, item, why)
            return None
        source = {"type": "url", "url": item.uri}
    else:
        mime_type = item.mime_type or ""
        bare = mime_type.partition(";")[0].strip().lower()
        kind = get_hints(item, HINTS).get("source")
        if kind == "text" or (kind is None and bare == "text/plain"):
            try:
                text = (item.data or b"").decode("utf-8", "surrogatepass")
            except UnicodeDecodeError:
                unsupported(on_unsupported, FORMAT, path, item, "as plain text that is not UTF-8")
                return None
            media_type = mime_type if kind == "text" else bare
            source = {"type": "text", "media_type": media_type, "data": text}
        elif kind == "base64" or bare == "application/pdf":
            media_type = mime_type if kind == "base64" else bare
            source = {"type": "base64", "media_type": media_type, "data": item.base64}
        else:
            why = f"of type {bare or 'unknown'} (PDF or plain text only)"
            unsupported(on_unsupported, FORMAT, path, item, why)
            return None
    block: dict[str, Any] = {"type": "document", "source": _with_source(source, item)}
    if item.filename is not None:
        block["title"] = item.filename
    return _with_fields(block, item)


def _url_type(uri: str) -> str:
    """The media type a URL's file name says (``.../a.docx``), or ``""`` when it says none.

    Only the path's last name counts: not the host (``x.com``), query or fragment.
    """
    address = uri.partition("#")[0].partition("?")[0].partition("://")[2]
    return guess_mime_type(address.partition("/")[2]) or ""


def _result_block(
    item: FunctionResultContent, path: str, on_unsupported: OnUnsupported | None
) -> dict[str, Any] | None:
    if item.call_id is None:
        unsupported(on_unsupported, FORMAT, path, item, "without the id of its call")
        return None
    block: dict[str, Any] = {"type": "tool_result", "tool_use_id": item.call_id}
    result = item.result
    if isinstance(result, str):
        block["content"] = result
    elif type(result) is list and all(isinstance(each, KernelContent) for each in result):
        content = []  # an empty list is written as no blocks, as it was read
        for index, each in enumerate(result):
            where = f"{path}.result[{index}]"
            lost_metadata(each, where, FORMAT, on_unsupported)
            lost_subclass_fields(each, where, FORMAT, on_unsupported, codecs)
            written = _user_block(each, where, on_unsupported, "in a tool result")
            if written is not None:
                content.append(written)
        # The API refuses an empty or whitespace-only text block, even alone here (an empty
        # tool output): none are written, so a result of such texts only has no blocks.
        block["content"] = [each for each in content if not _is_blank_text(each)]
    elif result is not None:
        block["content"] = compact_json(result, f"{path}.result")
    if item.is_error:
        block["is_error"] = True
    return _with_fields(block, item)


def _thinking_block(
    item: ReasoningContent, path: str, on_unsupported: OnUnsupported | None
) -> dict[str, Any] | None:
    provider = item.provider
    if provider is not None and provider != PROVIDER:
        detail = (
            f"{FORMAT} cannot carry reasoning from another provider ({provider!r}); "
            "it is never sent as text"
        )
        lose(on_unsupported, path, detail, "warn")
        return None
    if item.signature is not None:
        block = {"type": "thinking", "thinking": item.text, "signature": item.signature}
    elif item.encrypted is not None:
        if item.text:
            what = "the text of redacted thinking (only its encrypted data is sent back)"
            unsupported_field(on_unsupported, FORMAT, f"{path}.text", what)
        block = {"type": "redacted_thinking", "data": item.encrypted}
    else:
        detail = (
            f"{FORMAT} cannot carry reasoning without the signature Anthropic needs back; "
            "it is never sent as text"
        )
        lose(on_unsupported, path, detail, "warn")
        return None
    fields = get_hints(item, HINTS).get("fields")
    if isinstance(fields, dict) and "cache_control" in fields:
        what = "a cache_control on thinking (the API caches it with its turn)"
        unsupported_field(on_unsupported, FORMAT, f"{path}.metadata", what)
        fields = {key: value for key, value in fields.items() if key != "cache_control"}
    if isinstance(fields, dict):
        for key, value in fields.items():
            block.setdefault(key, value)
    return block


def _unknown_block(
    item: UnknownContent, path: str, on_unsupported: OnUnsupported | None
) -> dict[str, Any] | None:
    """A block read whole (a server tool's, a newer type's), written back as it came.

    An unknown item Anthropic did not produce (a Gemini ``executable_code`` part, a Responses
    item, a plugin's type read without its plugin) is no Anthropic block: refused.
    """
    if not _is_anthropic_block(item):
        why = f"of type {item.type!r} (no Anthropic block)"
        unsupported(on_unsupported, FORMAT, path, item, why)
        return None
    try:
        fields: dict[str, Any] = json_value(item.fields, f"{path}.fields")
    except SerializationError as error:
        raise FormatError(error.detail, path=error.path) from None
    return {"type": item.type, **fields}


def _is_anthropic_block(item: UnknownContent) -> bool:
    """Whether an unknown item is an Anthropic block, to be written back as it came.

    It is when the reader marked it as a newer type, or when `KEPT_BLOCK_TYPES` names its
    type and no other format's reader claims it in its hints.
    """
    if get_hints(item, HINTS).get(NEWER_MARK) is True:
        return True
    if item.type not in KEPT_BLOCK_TYPES:
        return False
    metadata = peek_metadata(item)
    return not any(key in metadata for key in _FOREIGN_HINTS)


def _with_source(source: dict[str, Any], item: KernelContent) -> dict[str, Any]:
    extra = get_hints(item, HINTS).get("source_fields")
    if isinstance(extra, dict):
        for key, value in extra.items():
            source.setdefault(key, value)
    return source


def _with_fields(block: dict[str, Any], item: KernelContent) -> dict[str, Any]:
    """A block with the keys its item keeps as hints; the item's own fields win."""
    fields = get_hints(item, HINTS).get("fields")
    if isinstance(fields, dict):
        for key, value in fields.items():
            block.setdefault(key, value)
    return block
