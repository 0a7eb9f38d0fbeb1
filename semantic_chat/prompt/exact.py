"""Cleanlab's prompt strings byte for byte, written from the dicts cleanlab itself reads.

cleanlab-tlm 1.1.39's ``form_prompt_string`` has quirks a scoring pipeline may depend on: a
list of content parts is written as its Python ``repr`` (and the Responses rendering keeps
only its ``output_text`` parts), a refusal is left out, an assistant turn with nothing to say
leaves a bare ``Assistant:`` glued to the next turn, and ``System:`` is left out after an
assistant or tool turn that followed a system message. These functions reproduce all of them,
so that a score computed on our string is the score computed on cleanlab's.

Where cleanlab raises instead of writing a string, we write one (each is in the README):
arguments that are not JSON are written as their text; a Responses output with no earlier
call is named ``function``; tools without a description or parameters are written without
those keys; a ``web_search_call`` is written with its sources' URLs and no page is fetched
(cleanlab downloads the pages, or raises without ``trafilatura``). A message without the keys
cleanlab reads (``role``, ``content``, ``tool_call_id`` ...) is a `FormatError` naming it.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Mapping
from typing import Any

from ..errors import FormatError, describe_type
from .blocks import (
    ASSISTANT,
    SYSTEM_ROLES,
    TOOL,
    call_block,
    indented,
    parse_arguments,
    prefix,
    quote,
    reply_call_block,
    response_block,
)

__all__ = [
    "chat_string",
    "plain_dicts",
    "response_chat_string",
    "response_responses_string",
    "responses_string",
    "uses_responses",
]

_USER = "User: "
_CHAT_ROLES = frozenset(("system", "developer", "user", "assistant", "tool"))
_ABSENT: Any = object()


def plain_dicts(items: Any) -> list[Any]:
    """The elements of a message list as dicts: an SDK object is read as its ``model_dump``."""
    if all(type(item) is dict for item in items):
        return items if type(items) is list else list(items)
    return [
        item.model_dump() if not isinstance(item, Mapping) and hasattr(item, "model_dump") else item
        for item in items
    ]


def uses_responses(items: list[Any], tools: Any, instructions: bool) -> bool:
    """Say whether cleanlab writes ``items`` in its Responses rendering (its own test)."""
    if instructions:
        return True
    for item in items:
        if isinstance(item, Mapping) and item.get("type") in (
            "function_call",
            "function_call_output",
        ):
            return True
    if isinstance(tools, Mapping):
        tools = [tools]
    if tools and isinstance(tools, (list, tuple)):
        return any(
            isinstance(tool, Mapping) and "name" in tool and "function" not in tool
            for tool in tools
        )
    return False


def _field(message: Mapping[str, Any], key: str, path: str) -> Any:
    """``message[key]``, or a `FormatError` at ``path.key`` where cleanlab raises ``KeyError``."""
    try:
        return message[key]
    except KeyError:
        raise FormatError(f"missing {key!r}", path=f"{path}.{key}") from None


def _check_mapping(value: Any, path: str, what: str) -> None:
    """Refuse ``value`` at ``path`` unless it is a mapping (cleanlab reads it with ``get``)."""
    if not isinstance(value, Mapping):
        raise FormatError.mismatch(path, what, describe_type(value))


def _label(message: Mapping[str, Any], role: Any) -> str:
    """The word cleanlab prefixes a turn with: the message's ``name``, else its role."""
    return str(message.get("name", role))


def _system_block_end(items: list[Any]) -> int:
    """The number of leading system and developer messages (where the tools message goes)."""
    end = 0
    for item in items:
        if not isinstance(item, Mapping) or item.get("role") not in SYSTEM_ROLES:
            break
        end += 1
    return end


def _arguments(arguments: Any) -> Any:
    """A call's arguments as cleanlab writes them: empty is ``{}``, text is parsed JSON."""
    if not arguments:
        return {}
    if isinstance(arguments, (bytes, bytearray)):
        try:
            return json.loads(arguments)
        except ValueError:
            return arguments.decode("utf-8", "replace")
    return parse_arguments(arguments)


def _block(write: Callable[..., str], path: str, *values: Any) -> str:
    """A JSON block, or a `FormatError` at ``path`` for a value JSON cannot hold."""
    try:
        return write(*values)
    except (TypeError, ValueError) as error:
        raise FormatError(f"cannot be written as JSON: {error}", path=path) from None


def chat_string(  # noqa: PLR0915 - one inlined loop: the plain messages' whole cost
    messages: list[Any], tools_text: str | None, *, plain_only: bool = False
) -> str | None:
    """Cleanlab's Chat Completions rendering of ``messages`` (a list of dicts), quirks and all.

    With ``plain_only`` it returns ``None`` at the first message that is not surely a Chat
    Completions dict (not a dict, a ``type`` key, another role, content that is neither a
    string nor null): the caller then finds out which format the list is in first.
    """
    count = len(messages)
    out: list[str] = []
    append = out.append
    names: dict[Any, Any] = {}
    previous: Any = None  # cleanlab's prev_msg_role: assistant and tool turns do not set it
    tools_at = -1 if tools_text is None else _system_block_end(messages)
    for index, message in enumerate(messages):
        if index == tools_at:
            append(prefix("system", previous) + f"{tools_text}\n\n")
            previous = "system"
        if type(message) is not dict:
            if plain_only:
                return None
            _check_mapping(message, f"messages[{index}]", "a message (a dict)")
        role = message.get("role", _ABSENT)
        content = message.get("content", _ABSENT)
        if type(content) is str and len(message) == 2:  # the usual text turn, written fast
            if role == "user":
                if count == 1 and tools_text is None:
                    return content  # a lone user message: its text as it is
                append(_USER + content + "\n\n")
                previous = role
                continue
            if role == "assistant":
                append(ASSISTANT + content + "\n\n" if content else ASSISTANT)
                continue
            if role in SYSTEM_ROLES:
                append(("" if previous in SYSTEM_ROLES else "System: ") + content + "\n\n")
                previous = role
                continue
        if plain_only and (
            "type" in message
            or role not in _CHAT_ROLES
            or not (
                content is None
                or type(content) is str
                or (content is _ABSENT and role == "assistant")
            )
        ):
            return None  # perhaps another format's: the caller finds out which first
        if type(role) is not str:
            if role is _ABSENT:
                raise FormatError("missing 'role'", path=f"messages[{index}].role")
            raise FormatError.mismatch(f"messages[{index}].role", "a str", describe_type(role))
        if role == "assistant":
            if content and content is not _ABSENT:
                if type(content) is str:
                    append(ASSISTANT + content + "\n\n")
                else:
                    append(f"{ASSISTANT}{content}\n\n")
            else:
                append(ASSISTANT)
            if "tool_calls" in message:
                _chat_calls(message["tool_calls"], index, names, append)
            continue
        if content is _ABSENT:
            raise FormatError("missing 'content'", path=f"messages[{index}].content")
        if role == "tool":
            call_id = message.get("tool_call_id")
            if type(call_id) is str and type(content) is str:
                name = names.get(call_id, "function")
                name = quote(name) if type(name) is str else indented(name, "\n  ")
                append(
                    f'Tool: <tool_response>\n{{\n  "name": {name},\n  "call_id": '
                    f'{quote(call_id)},\n  "output": {quote(content)}\n}}\n</tool_response>\n\n'
                )
            else:
                append(_tool_turn(message, index, content, names))
            continue
        if count == 1 and tools_text is None and role == "user":
            return content if type(content) is str else str(content)  # a lone user message
        if type(content) is not str:
            content = str(content)
        label = role if "name" not in message else str(message["name"])
        append(prefix(label, previous) + content + "\n\n")
        previous = role
    if tools_at == count:
        append(prefix("system", previous) + f"{tools_text}\n\n")
    append(ASSISTANT)
    return "".join(out).strip()


def _tool_turn(message: Mapping[str, Any], index: int, content: Any, names: dict[Any, Any]) -> str:
    """A tool message: its content as the output of the call it answers, named as that call."""
    call_id = _field(message, "tool_call_id", f"messages[{index}]")
    try:
        name = names.get(call_id, "function")
    except TypeError:  # an unhashable id names no call
        name = "function"
    return TOOL + _block(response_block, f"messages[{index}]", name, call_id, content) + "\n\n"


def _chat_calls(
    calls: Any, index: int, names: dict[Any, Any], append: Callable[[str], None]
) -> None:
    """Write an assistant's ``tool_calls``: one ``<tool_call>`` block a function call."""
    if calls is None:
        return  # cleanlab raises on an explicit null; there is nothing to write
    if not isinstance(calls, (list, tuple)):
        raise FormatError.mismatch(f"messages[{index}].tool_calls", "a list", describe_type(calls))
    for number, call in enumerate(calls):
        if type(call) is dict and call.get("type") == "function":  # the usual call, written fast
            function = call.get("function")
            if type(function) is dict:
                call_id = call.get("id")
                name = function.get("name")
                arguments = function.get("arguments")
                if type(call_id) is str and type(name) is str and type(arguments) is str:
                    names[call_id] = name
                    written = indented(parse_arguments(arguments) if arguments else {}, "\n  ")
                    append(
                        f'<tool_call>\n{{\n  "name": {quote(name)},\n  "arguments": {written},'
                        f'\n  "call_id": {quote(call_id)}\n}}\n</tool_call>\n\n'
                    )
                    continue
        path = f"messages[{index}].tool_calls[{number}]"
        _check_mapping(call, path, "a tool call (a dict)")
        if _field(call, "type", path) != "function":
            continue  # cleanlab writes function calls only
        call_id = _field(call, "id", path)
        function = _field(call, "function", path)
        _check_mapping(function, f"{path}.function", "a dict")
        name = _field(function, "name", f"{path}.function")
        arguments = _arguments(_field(function, "arguments", f"{path}.function"))
        with contextlib.suppress(TypeError):  # an unhashable id: no result can name it
            names[call_id] = name
        append(_block(call_block, path, name, arguments, call_id) + "\n\n")


def _role_of(item: Mapping[str, Any]) -> Any:
    """The role cleanlab's Responses rendering gives an item (calls are the assistant's)."""
    kind = item.get("type", "message")
    if kind == "message":
        return item.get("role", "user")
    if kind == "function_call":
        return "assistant"
    if kind in ("function_call_output", "file_search_call", "web_search_call"):
        return "tool"
    return "user"


def responses_string(
    items: list[Any], tools_text: str | None, instructions: str | None, *, path: str = "input"
) -> str:
    """Cleanlab's Responses rendering of ``items`` (a list of dicts), quirks and all."""
    entries: list[Mapping[str, Any]] = []
    for index, item in enumerate(items):
        _check_mapping(item, f"{path}[{index}]", "an input item (a dict)")
        entries.append(item)
    where = list(range(len(entries)))  # each entry's index in the caller's list, -1 if added
    if tools_text is not None:
        at = _system_block_end(entries)
        entries.insert(at, {"role": "system", "content": tools_text})
        where.insert(at, -1)
    if instructions is not None:
        entries.insert(0, {"role": "system", "content": instructions})
        where.insert(0, -1)
    if len(entries) == 1 and entries[0].get("role") == "user":
        content = _field(entries[0], "content", f"{path}[0]")
        return content if type(content) is str else str(content)
    # an item of another type that carries content is preceded by that content, as assistant's
    adjusted: list[tuple[Mapping[str, Any], str]] = []
    for entry, index in zip(entries, where, strict=True):
        here = f"{path}[{index}]"
        if entry.get("type", "message") != "message" and entry.get("content"):
            adjusted.append(({"role": "assistant", "content": entry["content"]}, here))
        adjusted.append((entry, here))
    return ("".join(_responses_turns(adjusted)).strip() + "\n\n" + ASSISTANT).strip()


def _responses_turns(adjusted: list[tuple[Mapping[str, Any], str]]) -> list[str]:
    """The pieces of cleanlab's Responses rendering, an item at a time, with its separators."""
    parts: list[str] = []
    append = parts.append
    named: dict[Any, Mapping[str, Any]] = {}  # the earliest item of each call id so far
    before: Mapping[str, Any] | None = None
    for entry, here in adjusted:
        kind = entry.get("type", "message")
        written = True
        if kind == "message":
            content = _field(entry, "content", here)
            if type(content) is not str:
                content = _output_texts(content, here)
            if before is None or _role_of(entry) != _role_of(before):
                label = _label(entry, _field(entry, "role", here))
                append(prefix(label, before.get("role") if before is not None else None))
            append(content)
        elif kind == "function_call":
            arguments = _arguments(_field(entry, "arguments", here))
            name = _field(entry, "name", here)
            call = _block(call_block, here, name, arguments, _field(entry, "call_id", here))
            if before is None or _role_of(before) != "assistant":
                append(ASSISTANT)
            append(call)
        elif kind == "function_call_output":
            call_id = _field(entry, "call_id", here)
            output = _field(entry, "output", here)
            if before is None or _role_of(before) != "tool":
                append(TOOL)
            append(_block(response_block, here, _called_name(named, call_id), call_id, output))
        elif kind == "file_search_call":
            results = _field(entry, "results", here)
            if results is not None:  # without them cleanlab warns and skips the item
                _file_search(entry, results, before, here, append)
        elif kind == "web_search_call":
            written = _web_search(entry, before, here, append)
        if not (
            kind == "reasoning"
            or (kind == "file_search_call" and entry.get("results") is None)
            or (kind == "web_search_call" and not written)
        ):
            append("\n\n")  # after every item cleanlab does not skip, written or not
        call_id = entry.get("call_id", "")
        if call_id != "":
            with contextlib.suppress(TypeError):
                named.setdefault(call_id, entry)
        before = entry
    return parts


def _output_texts(content: Any, path: str) -> str:
    """A Responses message's parts as cleanlab writes them: its ``output_text`` texts only."""
    if not isinstance(content, (list, tuple)):
        raise FormatError.mismatch(
            f"{path}.content", "a str or a list of parts", describe_type(content)
        )
    texts = []
    for number, part in enumerate(content):
        _check_mapping(part, f"{path}.content[{number}]", "a content part (a dict)")
        if _field(part, "type", f"{path}.content[{number}]") == "output_text":
            text = _field(part, "text", f"{path}.content[{number}]")
            if type(text) is not str:
                raise FormatError.mismatch(
                    f"{path}.content[{number}].text", "a str", describe_type(text)
                )
            texts.append(text)
    return "\n".join(texts)


def _called_name(named: dict[Any, Mapping[str, Any]], call_id: Any) -> Any:
    """The name on the earliest item with ``call_id``; ``function`` if there is none."""
    try:
        earliest = named.get(call_id)
    except TypeError:  # an unhashable id
        earliest = None
    if earliest is None:
        return "function"  # cleanlab raises StopIteration on an output with no earlier call
    return earliest.get("name", "function")


def _file_search(
    entry: Mapping[str, Any],
    results: Any,
    before: Mapping[str, Any] | None,
    path: str,
    append: Callable[[str], None],
) -> None:
    """A file search: its queries as a call, then its results as the tool's answer."""
    call_id = _field(entry, "id", path)
    call = _block(
        call_block, path, "file_search", {"queries": _field(entry, "queries", path)}, call_id
    )
    if before is None or _role_of(before) != "assistant":
        append(ASSISTANT)
    append(call + "\n\n")
    if not isinstance(results, (list, tuple)):
        raise FormatError.mismatch(f"{path}.results", "a list", describe_type(results))
    found = []
    for number, result in enumerate(results):
        where = f"{path}.results[{number}]"
        _check_mapping(result, where, "a search result (a dict)")
        found.append(
            {
                key: _field(result, key, where)
                for key in ("attributes", "file_id", "filename", "score", "text")
            }
        )
    append(TOOL)
    append(_block(response_block, path, "file_search", call_id, found))


def _web_search(
    entry: Mapping[str, Any],
    before: Mapping[str, Any] | None,
    path: str,
    append: Callable[[str], None],
) -> bool:
    """A web search: its query as a call, then its sources' URLs (no page is fetched).

    Returns ``False`` for a search whose sources were not included, which cleanlab skips.
    """
    action = _field(entry, "action", path)
    _check_mapping(action, f"{path}.action", "a dict")
    if action.get("type") != "search":
        return True  # cleanlab warns and writes nothing but the separator for other actions
    sources = action.get("sources")
    if sources is None:
        return False
    urls = []
    for source in sources if isinstance(sources, (list, tuple)) else ():
        if (
            isinstance(source, Mapping)
            and source.get("type") == "url"
            and source.get("url") not in urls
        ):
            urls.append(source.get("url"))
    call_id = _field(entry, "id", path)
    call = _block(call_block, path, "web_search_call", {"query": action.get("query")}, call_id)
    if before is None or _role_of(before) != "assistant":
        append(ASSISTANT)
    append(call + "\n\n")
    append(TOOL)
    append(_block(response_block, path, "web_search_call", call_id, [{"url": url} for url in urls]))
    return True


def response_chat_string(message: Any, path: str) -> str:
    """Cleanlab's ``form_response_string_chat_completions_api`` of a Chat Completions message."""
    _check_mapping(message, path, "a Chat Completions message (a dict)")
    content = message.get("content") or ""
    calls = message.get("tool_calls")
    if calls is None:
        return content if type(content) is str else str(content)
    if not isinstance(calls, (list, tuple)):
        raise FormatError.mismatch(f"{path}.tool_calls", "a list", describe_type(calls))
    blocks = []
    for number, call in enumerate(calls):
        where = f"{path}.tool_calls[{number}]"
        _check_mapping(call, where, "a tool call (a dict)")
        function = _field(call, "function", where)
        _check_mapping(function, f"{where}.function", "a dict")
        name = _field(function, "name", f"{where}.function")
        arguments = _arguments(function.get("arguments"))
        blocks.append(_block(reply_call_block, where, name, arguments))
    written = "\n".join(blocks)
    return f"{content}\n{written}".strip() if content else written


def response_responses_string(output: Any, path: str) -> str:
    """Cleanlab's ``form_response_string_responses_api``: the last output item, unprefixed."""
    if not isinstance(output, (list, tuple)):
        raise FormatError.mismatch(path, "a list of output items", describe_type(output))
    if not output:
        return ""
    last = plain_dicts([output[-1]])[0]
    _check_mapping(last, f"{path}[{len(output) - 1}]", "an output item (a dict)")
    written = "".join(_responses_turns([(last, f"{path}[{len(output) - 1}]")])).strip()
    return written.replace("Assistant:", "", 1).strip()
