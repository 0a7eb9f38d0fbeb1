"""Conversations as one prompt string, in the format of ``cleanlab_tlm.utils.chat``.

`form_prompt_string` writes a conversation the way cleanlab's ``form_prompt_string`` does
(role prefixes, the single-user-message shortcut, tools as a system message after the leading
system block, ``<tool_call>`` / ``<tool_response>`` JSON blocks, a trailing ``Assistant:``), so
that a score computed on our string is the score cleanlab's tools would compute. It works on
the typed model in one pass; a provider payload is read into a `ChatHistory` first, except
a list of plain Chat Completions messages of the common shapes, written from the dicts.

Cleanlab has two renderings, and so do we. The Chat Completions one repeats the role prefix
on every turn; the Responses one writes consecutive turns of one role under one prefix and
strips the text's trailing whitespace. The Responses rendering is used when cleanlab would use
it: ``instructions`` are given (or the payload is a Responses request with them), the payload
holds ``function_call`` / ``function_call_output`` items, or the tools are Responses tools.
A `ChatHistory` has no wire shape: it gets the Chat Completions rendering unless instructions
or Responses tools are given, or its first message is a Responses request's instructions.

Where cleanlab misbehaves we write a sensible string instead (each is listed in the README,
"Prompt text"):

- content given as a list of parts is written as its text, one part a line (cleanlab writes
  the Python ``repr`` of the list in the Chat Completions rendering and drops ``input_text``
  parts in the Responses one);
- a refusal is written as the assistant's text (cleanlab drops it);
- images, audio, files and other binary items are short placeholders: ``[image: image/png]``,
  ``[image: https://...]``, ``[audio: audio/wav]``, ``[file: report.pdf]``;
- a tool without a description or parameters is written without those keys (cleanlab raises
  ``KeyError``); tools of the other OpenAI shape, Anthropic tools (``input_schema``) and Gemini
  tools (``function_declarations``) are written in the rendering's own shape;
- arguments that are not JSON are written as their text (cleanlab raises or drops the call);
- a tool output with no earlier call is named ``function`` in both renderings (cleanlab's
  Responses rendering raises ``StopIteration``);
- a system message after an assistant or tool turn gets its ``System:`` prefix (cleanlab's
  Chat Completions rendering leaves it out when the message before that turn was a system one);
- reasoning is left out, and an assistant message with nothing left to write is skipped
  (cleanlab writes a bare ``Assistant:`` glued to the next turn).
"""

from __future__ import annotations

import json
import marshal
import warnings
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..contents import (
    AudioContent,
    BinaryContent,
    FileContent,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    KernelContent,
    ReasoningContent,
    RefusalContent,
    TextContent,
)
from ..errors import FormatError, InvalidTypeError, describe_type
from ..formats import detect, get, openai_chat, openai_responses
from ..formats.wire import ERROR_PREFIX, compact_json, error_output
from ..history import ChatHistory
from ..labels import PLAIN_TEXT as _PLAIN
from ..message import ChatMessageContent

__all__ = ["form_prompt_string", "form_response_string"]

_SYSTEM_ROLES = frozenset(("system", "developer"))
_ASSISTANT = "Assistant: "
_TOOL = "Tool: "

_TOOLS_HEAD = (
    "You are an AI Assistant that can call provided tools (a.k.a. functions). "
    "The set of available tools is provided to you as function signatures within "
    "<tools> </tools> XML tags. "
    "You may call one or more of these functions to assist with the user query. "
    "If the provided functions are not helpful/relevant, "
    "then just respond in natural conversational language. "
    "After you choose to call a function, you will be provided with the function's results "
    "within <tool_response> </tool_response> XML tags.\n\n<tools>\n"
)
_TOOLS_TAIL = (
    "\n</tools>\n\n"
    "For each function call return a JSON object, with the following pydantic model json "
    "schema:\n{'name': <function-name>, 'arguments': <args-dict>}\n"
    "Each function call should be enclosed within <tool_call> </tool_call> XML tags.\n"
    "Example:\n<tool_call>\n{'name': <function-name>, 'arguments': <args-dict>}\n</tool_call>\n"
    "Note: Function calls and their results may optionally include a call_id, which should be "
    "ignored."
)
_FILE_SEARCH_TOOL = {
    "type": "function",
    "name": "file_search",
    "description": "Search user-uploaded documents for relevant passages.",
    "parameters": {
        "type": "object",
        "properties": {
            "queries": {
                "type": "array",
                "items": {"type": "string"},
                "description": "Search queries to run against the document index.",
            },
        },
        "required": ["queries"],
    },
}

_dumps_compact = json.JSONEncoder(separators=(",", ":")).encode
_dumps_indented = json.JSONEncoder(indent=2).encode
_decoder = json.JSONDecoder()
_loads = _decoder.decode
_scan: Any = _decoder.scan_once  # type: ignore[attr-defined]  # set by JSONDecoder
_quote: Any = getattr(json.encoder, "c_encode_basestring_ascii", None) or (
    json.encoder.py_encode_basestring_ascii
)
_CONSTANTS = {None: "null", True: "true", False: "false"}


def _indented(value: Any, newline: str = "\n") -> str:
    """``json.dumps(value, indent=2)`` with every line after the first indented by ``newline``.

    The standard library writes indented JSON with its pure-Python encoder, the slowest part of
    a prompt; this writes the same text for the values JSON reading gives (str, int, float,
    bool, None, list, dict with str keys) and leaves any other value to it.
    """
    kind = type(value)
    if kind is str:
        return str(_quote(value))
    if kind is dict:
        if not value:
            return "{}"
        inner = newline + "  "
        parts = []
        for key, item in value.items():
            if type(key) is not str:
                return _dumps_indented(value).replace("\n", newline)
            kind = type(item)
            if kind is str:
                parts.append(inner + _quote(key) + ": " + _quote(item))
            elif kind is int:
                parts.append(inner + _quote(key) + ": " + int.__repr__(item))
            elif kind is float and item - item == 0.0:  # finite
                parts.append(inner + _quote(key) + ": " + float.__repr__(item))
            elif item is None or kind is bool:
                parts.append(inner + _quote(key) + ": " + _CONSTANTS[item])
            else:
                parts.append(inner + _quote(key) + ": " + _indented(item, inner))
        return "{" + ",".join(parts) + newline + "}"
    if kind is list:
        if not value:
            return "[]"
        inner = newline + "  "
        return "[" + ",".join([inner + _indented(item, inner) for item in value]) + newline + "]"
    if kind is int:
        return int.__repr__(value)
    if kind is float and value - value == 0.0:  # finite: NaN and infinities are left to json
        return float.__repr__(value)
    if value is None or kind is bool:
        return _CONSTANTS[value]
    return _dumps_indented(value).replace("\n", newline)


def _call_block(name: str, arguments: Any, call_id: Any) -> str:
    """A ``<tool_call>`` block: name, arguments and call id, as cleanlab's JSON writes them."""
    return (
        '<tool_call>\n{\n  "name": '
        + (_quote(name) if type(name) is str else _indented(name))
        + ',\n  "arguments": '
        + _indented(arguments, "\n  ")
        + ',\n  "call_id": '
        + (_quote(call_id) if type(call_id) is str else _indented(call_id))
        + "\n}\n</tool_call>"
    )


def _response_block(name: str, call_id: Any, output: Any) -> str:
    """A ``<tool_response>`` block: name, call id and output, as cleanlab's JSON writes them."""
    return (
        '<tool_response>\n{\n  "name": '
        + (_quote(name) if type(name) is str else _indented(name))
        + ',\n  "call_id": '
        + (_quote(call_id) if type(call_id) is str else _indented(call_id))
        + ',\n  "output": '
        + (_quote(output) if type(output) is str else _indented(output, "\n  "))
        + "\n}\n</tool_response>"
    )


def form_prompt_string(
    conversation: ChatHistory | Iterable[ChatMessageContent] | Any,
    tools: Iterable[Mapping[str, Any]] | Mapping[str, Any] | None = None,
    *,
    instructions: str | None = None,
) -> str:
    """Write ``conversation`` as one prompt string, exactly as cleanlab's ``form_prompt_string``.

    ``conversation`` is a `ChatHistory`, a list of `ChatMessageContent`, or a payload
    ``formats.detect`` recognises (Chat Completions messages, Responses input or request,
    Anthropic, Gemini). ``tools`` are the tool definitions of any provider. ``instructions``
    come first, as a system message, and select the Responses rendering, as in cleanlab.
    The differences from cleanlab, where it crashes or misbehaves, are listed in the module
    docstring.

    Raises:
        FormatError: the payload is in no known format or is malformed (located).
        InvalidTypeError: ``tools`` or ``instructions`` are of the wrong type (located).
    """
    if instructions is None and type(conversation) is list:
        payload: list[Any] = conversation
        quick = _quick_chat(payload)
        if quick is not None:  # plain Chat Completions dicts, written without a history
            quick_tools = None
            if tools is not None:
                flat, quick_tools, _ = _tools_texts(tools)
                if flat:  # Responses tools: the Responses rendering, the general way
                    quick = None
            if quick is not None:
                return _quick_join(payload, *quick, quick_tools)
    responses = instructions is not None
    if isinstance(conversation, ChatHistory):
        messages: list[ChatMessageContent] = conversation.messages
    elif isinstance(conversation, list) and all(
        isinstance(message, ChatMessageContent) for message in conversation
    ):
        messages = conversation
    else:
        messages, from_responses = _read_conversation(conversation)
        responses = responses or from_responses
    for first in messages:
        # the stored metadata, not the property, which would store an empty dict on a read
        hints = first._metadata
        hint = hints.get("openai_responses") if hints else None
        if type(hint) is dict and hint.get("instructions"):
            responses = True  # a Responses request's instructions, read as a system message
        break
    if instructions is not None and type(instructions) is not str:
        raise InvalidTypeError.mismatch("instructions", "a str", describe_type(instructions))
    tools_text = None
    if tools is not None:
        flat, chat_text, responses_text = _tools_texts(tools)
        responses = responses or flat
        tools_text = responses_text if responses else chat_text
    if responses:
        return _render_responses(messages, tools_text, instructions)
    return _render_chat(messages, tools_text)


def form_response_string(message: ChatMessageContent | Mapping[str, Any] | Any) -> str:
    """Write an assistant's reply as cleanlab's ``form_response_string_*`` functions do.

    ``message`` is a `ChatMessageContent`, a Chat Completions message or ``ChatCompletion``
    (dict or SDK object), or a Responses ``Response``. The text comes first, then one
    ``<tool_call>`` block a call. A Responses reply's calls carry their ``call_id``, as in
    cleanlab's ``form_response_string_responses_api``; that function writes only the last
    output item, we write them all. A refusal is written as text (cleanlab drops it).

    Raises:
        FormatError: the response is malformed or of no known kind (located).
    """
    if isinstance(message, ChatMessageContent):
        return _response_chat(message)
    data: Any = message
    if not isinstance(data, Mapping) and hasattr(data, "model_dump"):
        data = data.model_dump()
    if not isinstance(data, Mapping):
        raise FormatError.mismatch(
            "message",
            "a ChatMessageContent, a Chat Completions message or response, or a Response",
            describe_type(message),
        )
    if "choices" in data:
        return _response_chat(openai_chat.from_response(data))
    if "output" in data:
        return _response_responses(openai_responses.from_response(data))
    if "role" in data:
        return _response_chat(openai_chat.from_payload([data]).messages[0])
    raise FormatError(
        "expected a Chat Completions message (role), a ChatCompletion (choices) or a "
        "Response (output)",
        path="message",
    )


# Reading


def _quick_chat(messages: list[Any]) -> tuple[list[str], int] | None:
    """Write plain Chat Completions message dicts straight from the dicts, without a history.

    Reading a payload into a history is most of the time a prompt from messages takes. This
    takes the shapes the Chat Completions reader reads with no hints: system, developer, user
    and assistant messages of string content, an assistant's standard tool calls with string
    arguments (content a string or null), tool messages of string content. It returns the
    written turns and where the tools' system message goes (after the leading system block),
    the same text `_render_chat` writes from the history; ``None`` for anything else (no
    messages, content parts, a ``name``, a refusal, another key ...), which goes the general
    way, so every error is raised there, located as ever.
    """
    if not messages:
        return None
    out: list[str] = []
    append = out.append
    names: dict[str, str] = {}
    previous: str | None = None
    tools_at = -1
    for message in messages:
        if type(message) is not dict:
            return None
        try:
            role = message["role"]
            content = message["content"]
        except KeyError:
            return None
        if type(role) is not str:
            return None
        size = len(message)
        if size == 2 and type(content) is str:
            if role == "user":
                if tools_at < 0:
                    tools_at = len(out)
                append("User: " + content + "\n\n")
            elif role == "assistant":
                if tools_at < 0:
                    tools_at = len(out)
                if not content:
                    if previous is None:  # tools would go before it and prefix what follows
                        return None
                    continue  # skipped, as the history's empty assistant text is
                append(_ASSISTANT + content + "\n\n")
            elif role in _SYSTEM_ROLES:
                append(("" if previous in _SYSTEM_ROLES else "System: ") + content + "\n\n")
            else:
                return None
            previous = role
            continue
        if tools_at < 0:
            tools_at = len(out)
        if role == "tool":
            call_id = message.get("tool_call_id")
            if (
                size != 3
                or type(call_id) is not str
                or type(content) is not str
                or content.startswith(ERROR_PREFIX)  # read as a failed call's output
            ):
                return None
            append(
                'Tool: <tool_response>\n{\n  "name": '
                + _quote(names.get(call_id) or "function")
                + ',\n  "call_id": '
                + _quote(call_id)
                + ',\n  "output": '
                + _quote(content)
                + "\n}\n</tool_response>\n\n"
            )
            previous = "tool"
        elif role == "assistant" and size == 3 and (content is None or type(content) is str):
            calls = message.get("tool_calls")
            if type(calls) is not list or not calls:
                return None
            append(_ASSISTANT + content + "\n\n" if content else _ASSISTANT)
            if not _quick_calls(calls, names, append):
                return None
            previous = role
        else:
            return None
    return out, tools_at


def _quick_calls(
    calls: list[Any], names: dict[str, str], append: Callable[[str], None]
) -> bool:
    """Write an assistant's standard tool calls for `_quick_chat`; ``False`` on any other."""
    for call in calls:
        if type(call) is not dict or len(call) != 3:
            return False
        try:
            function = call["function"]
            call_id = call["id"]
            kind = call["type"]
            name = function["name"]
            arguments = function["arguments"]
        except (KeyError, TypeError):
            return False
        if (
            kind != "function"
            or type(function) is not dict
            or len(function) != 2
            or type(call_id) is not str
            or type(name) is not str
            or type(arguments) is not str
        ):
            return False
        names[call_id] = name
        append(
            '<tool_call>\n{\n  "name": '
            + _quote(name)
            + ',\n  "arguments": '
            + _indented(_parse_arguments(arguments), "\n  ")
            + ',\n  "call_id": '
            + _quote(call_id)
            + "\n}\n</tool_call>\n\n"
        )
    return True


def _quick_join(
    messages: list[Any], out: list[str], tools_at: int, tools_text: str | None
) -> str:
    """Finish `_quick_chat`'s turns as `_render_chat` does: tools, a lone user text, the end."""
    if tools_text is None:
        if len(messages) == 1 and messages[0]["role"] == "user":
            return str(messages[0]["content"])  # cleanlab returns a lone user text as it is
    else:
        at = len(out) if tools_at < 0 else tools_at
        out.insert(at, ("System: " if at == 0 else "") + tools_text + "\n\n")
    out.append(_ASSISTANT)
    return "".join(out).strip()


def _read_conversation(payload: Any) -> tuple[list[ChatMessageContent], bool]:
    """Read a provider payload; say whether cleanlab would use its Responses rendering on it."""
    try:
        name = detect(payload)
    except FormatError as error:
        raise error.at("conversation") from None
    history = get(name).from_payload(payload)
    responses = False
    if name == "openai-responses":
        items = payload.get("input") if isinstance(payload, Mapping) else payload
        if isinstance(payload, Mapping) and payload.get("instructions") is not None:
            responses = True
        elif isinstance(items, list):
            responses = any(
                isinstance(item, Mapping)
                and item.get("type") in ("function_call", "function_call_output")
                for item in items
            )
    return history.messages, responses


def _tool_list(tools: Any) -> list[Mapping[str, Any]]:
    """Flatten the tools argument into OpenAI-like definitions (Gemini groups are opened)."""
    if tools is None:
        return []
    if isinstance(tools, Mapping):
        tools = [tools]
    if isinstance(tools, (str, bytes)) or not isinstance(tools, Iterable):
        raise InvalidTypeError.mismatch("tools", "a list of tool definitions", describe_type(tools))
    flat: list[Mapping[str, Any]] = []
    for index, tool in enumerate(tools):
        if not isinstance(tool, Mapping):
            raise InvalidTypeError.mismatch(
                f"tools[{index}]", "a tool definition (a dict)", describe_type(tool)
            )
        declarations = tool.get("function_declarations", tool.get("functionDeclarations"))
        if declarations is not None:
            for inner, declaration in enumerate(declarations):
                if not isinstance(declaration, Mapping) or "name" not in declaration:
                    raise InvalidTypeError.mismatch(
                        f"tools[{index}].function_declarations[{inner}]",
                        "a function declaration with a name",
                        describe_type(declaration),
                    )
                flat.append(declaration)
            continue
        function = tool.get("function")
        if (isinstance(function, Mapping) and "name" in function) or "name" in tool:
            flat.append(tool)
        elif "type" in tool:
            flat.append(tool)  # an OpenAI built-in tool: file_search is written, others left out
        else:
            raise InvalidTypeError.mismatch(
                f"tools[{index}]", "a tool definition with a name", "a dict without one"
            )
    return flat


_TOOLS_CACHE: dict[bytes, tuple[bool, str | None, str | None]] = {}
_TOOLS_CACHE_SIZE = 64


def _tools_texts(tools: Any) -> tuple[bool, str | None, str | None]:
    """Whether the tools are Responses tools, and their system message in either rendering.

    An agent passes the same definitions on every call, and writing them is most of a short
    prompt's cost: the texts are kept, keyed by the definitions' ``marshal`` bytes, which
    tell apart every value (``1``, ``1.0`` and ``True`` too), so a kept text is exact.
    """
    try:
        key: bytes | None = marshal.dumps(tools)
    except ValueError:  # not plain data (a Mapping subclass, an SDK object): not kept
        key = None
    if key is not None:
        kept = _TOOLS_CACHE.get(key)
        if kept is not None:
            return kept
    tool_list = _tool_list(tools)
    if not tool_list:
        return False, None, None
    flat = any(_is_flat_tool(tool) for tool in tool_list)
    texts = (flat, _tools_text(tool_list, False), _tools_text(tool_list, True))
    if key is not None and not any(tool.get("type") == "web_search" for tool in tool_list):
        if len(_TOOLS_CACHE) >= _TOOLS_CACHE_SIZE:
            _TOOLS_CACHE.clear()
        _TOOLS_CACHE[key] = texts
    return texts


def _is_flat_tool(tool: Mapping[str, Any]) -> bool:
    """Say whether ``tool`` is a Responses tool, the shape that makes cleanlab use Responses."""
    return "type" in tool and "name" in tool and "function" not in tool


def _tool_fields(tool: Mapping[str, Any]) -> tuple[str, Any, Any, Any] | None:
    """Return (name, description, parameters, strict) of a function tool, None for built-ins."""
    function = tool.get("function")
    if isinstance(function, Mapping):
        tool = function
    elif "name" not in tool:
        return None
    parameters = tool.get("parameters", _MISSING)
    if parameters is _MISSING:
        parameters = tool.get("input_schema", tool.get("parametersJsonSchema", _MISSING))
        if parameters is _MISSING:
            parameters = tool.get("parameters_json_schema", _MISSING)
    return str(tool["name"]), tool.get("description", _MISSING), parameters, tool.get("strict")


_MISSING: Any = object()


def _tools_text(tools: list[Mapping[str, Any]], responses: bool) -> str:
    """Write the tools system message: one compact JSON line a tool, in the rendering's shape."""
    lines = []
    for tool in tools:
        fields = _tool_fields(tool)
        if fields is None:
            kind = tool.get("type")
            if responses and kind == "file_search":
                lines.append(_dumps_compact(_FILE_SEARCH_TOOL))
            elif responses and kind == "web_search":
                warnings.warn(
                    "a web_search tool is left out of the prompt, as cleanlab does without "
                    "trafilatura installed",
                    UserWarning,
                    stacklevel=3,
                )
            continue
        name, description, parameters, strict = fields
        spec: dict[str, Any] = {"name": name}
        if description is not _MISSING:
            spec["description"] = description
        if parameters is not _MISSING:
            spec["parameters"] = parameters
        if responses:
            spec = {"type": "function", **spec, "strict": True if strict is None else strict}
        else:
            spec = {"type": "function", "function": spec}
        lines.append(_dumps_compact(spec))
    return _TOOLS_HEAD + "\n".join(lines) + _TOOLS_TAIL


# Rendering


def _placeholder(item: BinaryContent) -> str:
    """A short stand-in for an image, audio, file or other binary item."""
    if isinstance(item, ImageContent):
        kind = "image"
    elif isinstance(item, AudioContent):
        kind = "audio"
    elif isinstance(item, FileContent):
        kind = "file"
        if item.filename:
            return f"[file: {item.filename}]"
    else:
        kind = "binary"
    uri = item.uri
    if uri is not None and not uri.startswith("data:"):
        return f"[{kind}: {uri}]"
    if item.file_id is not None:
        return f"[{kind}: {item.file_id}]"
    return f"[{kind}: {item.mime_type}]" if item.mime_type else f"[{kind}]"


def _item_text(item: KernelContent) -> str | None:
    """The text an item adds to its message, or None for items written otherwise or not at all."""
    if isinstance(item, (TextContent, RefusalContent)):
        return item.text
    if isinstance(item, BinaryContent):
        return _placeholder(item)
    if isinstance(item, ReasoningContent):
        return None
    text = str(item)
    return text or None


def _arguments(call: FunctionCallContent) -> Any:
    """The call's arguments as JSON: parsed from their text; text that is not JSON stays text."""
    return _parse_arguments(call._arguments)


def _parse_arguments(arguments: Any) -> Any:
    """Arguments as JSON: a text parsed (an empty one is ``{}``, one not JSON stays text)."""
    if type(arguments) is str:
        if not arguments:
            return {}
        if arguments[0] == "{":
            # the C scanner alone, without json.loads's two whitespace matches
            try:
                value, end = _scan(arguments, 0)
            except (StopIteration, ValueError):
                value, end = None, -1
            if end == len(arguments) or (end > 0 and not arguments[end:].strip(" \t\n\r")):
                return value
        try:
            return _loads(arguments)
        except ValueError:
            return arguments
    return {} if arguments is None else arguments


def _output(result: FunctionResultContent, parts_type: str) -> Any:
    """A tool result as JSON: a list of items becomes text parts, media as placeholders.

    A failed call's output says so as the OpenAI formats write it (``Error: `` first, other
    JSON as compact text after it), so that a tool message read from ``"Error: ..."`` gives
    the text cleanlab gives for it.
    """
    value = result.result
    if isinstance(value, list) and value and isinstance(value[0], KernelContent):
        value = [
            {"type": parts_type, "text": text}
            for text in (_item_text(item) for item in value)
            if text is not None
        ]
        return error_output(value, parts_type) if result.is_error else value
    if result.is_error:
        text = value if isinstance(value, str) else compact_json(value, "result")
        return error_output(text, parts_type)
    return value


def _prefix(role: str, name: str | None, previous: str | None) -> str:
    """Cleanlab's prefix: nothing for a system message after a system one, else the name."""
    label = role if name is None else name
    if label in _SYSTEM_ROLES:
        return "" if previous in _SYSTEM_ROLES else "System: "
    if label == "user":
        return "User: "
    if label == "assistant":
        return _ASSISTANT
    return label.capitalize() + ": "


def _single_user_text(messages: list[ChatMessageContent]) -> str | None:
    """The text of a lone user message of text and media, which cleanlab returns as it is."""
    if len(messages) != 1 or _PLAIN[messages[0]._role] != "user":
        return None
    texts = []
    for item in messages[0].items:
        if isinstance(item, (FunctionCallContent, FunctionResultContent)):
            return None
        text = _item_text(item)
        if text is not None:
            texts.append(text)
    return "\n".join(texts)


def _system_block_end(messages: list[ChatMessageContent]) -> int:
    """The index after the leading run of system and developer messages."""
    index = 0
    for message in messages:
        if _PLAIN[message._role] not in _SYSTEM_ROLES:
            break
        index += 1
    return index


def _split_other(
    item: KernelContent,
    texts: list[str],
    calls: list[FunctionCallContent],
    results: list[FunctionResultContent],
) -> None:
    """Sort an item that is not plainly text, a call or a result (a subclass, media...)."""
    if isinstance(item, FunctionCallContent):
        calls.append(item)
    elif isinstance(item, FunctionResultContent):
        results.append(item)
    else:
        text = _item_text(item)
        if text is not None:
            texts.append(text)


def _render_chat(messages: list[ChatMessageContent], tools_text: str | None) -> str:
    """Cleanlab's Chat Completions rendering: a prefix on every turn."""
    if tools_text is None:
        single = _single_user_text(messages)
        if single is not None:
            return single
    out: list[str] = []
    append = out.append
    names: dict[str | None, str] = {}
    previous: str | None = None
    tools_at = _system_block_end(messages) if tools_text is not None else -1
    for index, message in enumerate(messages):
        if index == tools_at:
            append(_prefix("system", None, previous) + f"{tools_text}\n\n")
            previous = "system"
        role = _PLAIN[message._role]
        items = message._items
        if len(items) == 1:  # most messages: one text, call or result, written directly
            item = items[0]
            kind = type(item)
            if kind is TextContent:
                text = item._text  # type: ignore[attr-defined]
                if role == "user" and message._name is None:
                    append("User: " + text + "\n\n")
                elif role != "assistant":
                    append(_prefix(role, message._name, previous) + text + "\n\n")
                elif text:
                    append(_ASSISTANT + text + "\n\n")
                else:
                    continue
                previous = role
                continue
            if kind is FunctionCallContent and role == "assistant":
                name = item._name  # type: ignore[attr-defined]
                call_id = item._id  # type: ignore[attr-defined]
                names[call_id] = name
                arguments = _arguments(item)  # type: ignore[arg-type]
                append(_ASSISTANT + _call_block(name, arguments, call_id) + "\n\n")
                previous = role
                continue
            if kind is FunctionResultContent:
                call_id = item._call_id  # type: ignore[attr-defined]
                output = item._result  # type: ignore[attr-defined]
                if type(output) is list or item._is_error:  # type: ignore[attr-defined]
                    output = _output(item, "text")  # type: ignore[arg-type]
                append(_TOOL + _response_block(names.get(call_id) or "function", call_id, output))
                append("\n\n")
                previous = "tool"
                continue
        previous = _chat_message(message, role, previous, names, append)
    if tools_at == len(messages):
        append(_prefix("system", None, previous) + f"{tools_text}\n\n")
    append(_ASSISTANT)
    return "".join(out).strip()


def _chat_message(
    message: ChatMessageContent,
    role: str,
    previous: str | None,
    names: dict[str | None, str],
    append: Callable[[str], None],
) -> str | None:
    """Write one message in the Chat Completions rendering; return the role it leaves last."""
    texts: list[str] = []
    calls: list[FunctionCallContent] = []
    results: list[FunctionResultContent] = []
    for item in message._items:
        kind = type(item)
        if kind is TextContent:
            texts.append(item._text)  # type: ignore[attr-defined]
        elif kind is FunctionCallContent:
            calls.append(item)  # type: ignore[arg-type]
        elif kind is FunctionResultContent:
            results.append(item)  # type: ignore[arg-type]
        else:
            _split_other(item, texts, calls, results)
    joined = texts[0] if len(texts) == 1 else "\n".join(texts)
    if role == "assistant" or (calls and not texts and not results):
        if not joined and not calls:
            return previous
        append(_ASSISTANT + joined + "\n\n" if joined else _ASSISTANT)
        for call in calls:
            name = call._name
            names[call._id] = name
            append(_call_block(name, _arguments(call), call._id) + "\n\n")
        return role
    if texts:
        append(_prefix(role, message._name, previous) + joined + "\n\n")
        previous = role
    for result in results:
        call_id = result._call_id
        name = names.get(call_id) or "function"
        append(_TOOL + _response_block(name, call_id, _output(result, "text")) + "\n\n")
        previous = "tool"
    for call in calls:
        names[call._id] = call._name
        append(_ASSISTANT + _call_block(call._name, _arguments(call), call._id) + "\n\n")
        previous = "assistant"
    return previous


def _render_responses(
    messages: list[ChatMessageContent], tools_text: str | None, instructions: str | None
) -> str:
    """Cleanlab's Responses rendering: one prefix for consecutive turns of one role."""
    if tools_text is None and instructions is None:
        single = _single_user_text(messages)
        if single is not None:
            return single
    out: list[str] = []
    names: dict[str | None, str] = {}
    # the role of the last item written (a call's is assistant, an output's tool), and its
    # role if it was a message (cleanlab's prefix rule for system after system reads that)
    turn: str | None = None
    last_role: str | None = None

    def text_turn(role: str, name: str | None, text: str) -> None:
        nonlocal turn, last_role
        if role != turn:
            out.append(_prefix(role, name, last_role))
        out.append(text)
        out.append("\n\n")
        turn, last_role = role, role

    if instructions is not None:
        text_turn("system", None, instructions)
    tools_at = _system_block_end(messages) if tools_text is not None else -1
    for index, message in enumerate(messages):
        if index == tools_at:
            text_turn("system", None, tools_text or "")
        role = _PLAIN[message._role]
        texts: list[str] = []
        for item in message.items:
            if isinstance(item, FunctionCallContent):
                if texts:
                    text_turn(role, message.name, "\n".join(texts))
                    texts = []
                names[item.id] = item.name
                if turn != "assistant":
                    out.append(_ASSISTANT)
                out.append(_call_block(item.name, _arguments(item), item.id) + "\n\n")
                turn, last_role = "assistant", None
            elif isinstance(item, FunctionResultContent):
                if texts:
                    text_turn(role, message.name, "\n".join(texts))
                    texts = []
                call_id = item.call_id
                name = names.get(call_id) or "function"
                if turn != "tool":
                    out.append(_TOOL)
                out.append(_response_block(name, call_id, _output(item, "input_text")) + "\n\n")
                turn, last_role = "tool", None
            else:
                text = _item_text(item)
                if text is not None:
                    texts.append(text)
        if texts:
            text_turn(role, message.name, "\n".join(texts))
    if tools_at == len(messages):
        text_turn("system", None, tools_text or "")
    return ("".join(out).strip() + "\n\n" + _ASSISTANT).strip()


def _response_chat(message: ChatMessageContent) -> str:
    """Cleanlab's ``form_response_string_chat_completions_api``: text, then calls without ids."""
    texts: list[str] = []
    calls: list[str] = []
    for item in message.items:
        if isinstance(item, FunctionCallContent):
            calls.append(
                '<tool_call>\n{\n  "name": '
                + _indented(item.name)
                + ',\n  "arguments": '
                + _indented(_arguments(item), "\n  ")
                + "\n}\n</tool_call>"
            )
        else:
            text = _item_text(item) if not isinstance(item, FunctionResultContent) else None
            if text is not None:
                texts.append(text)
    content = "\n".join(texts)
    if not calls:
        return content
    rendered = "\n".join(calls)
    return f"{content}\n{rendered}".strip() if content else rendered


def _response_responses(message: ChatMessageContent) -> str:
    """Cleanlab's ``form_response_string_responses_api`` over every output item."""
    parts: list[str] = []
    texts: list[str] = []
    for item in message.items:
        if isinstance(item, FunctionCallContent):
            if texts:
                parts.append("\n".join(texts))
                texts = []
            parts.append(_call_block(item.name, _arguments(item), item.id))
        elif not isinstance(item, FunctionResultContent):
            text = _item_text(item)
            if text is not None:
                texts.append(text)
    if texts:
        parts.append("\n".join(texts))
    return "\n\n".join(parts).strip()
