"""Conversations as one prompt string, in the format of ``cleanlab_tlm.utils.chat``.

`form_prompt_string` writes a conversation in the format of cleanlab's ``form_prompt_string``
(role prefixes, the single-user-message shortcut, tools as a system message after the leading
system block, ``<tool_call>`` / ``<tool_response>`` JSON blocks, a trailing ``Assistant:``).
It has two renderings of that format:

- exact (module `exact`): cleanlab's own string byte for byte, quirks included, written from
  the OpenAI dicts cleanlab reads, so that a score computed on it is cleanlab's score. The
  default for those dicts; a history with ``exact=True`` is written as its OpenAI messages.
- readable (this module): the same format written from the typed model in one pass, the
  default for a `ChatHistory` and for the Anthropic and Gemini formats. Where cleanlab's
  string is broken, it writes a sensible one (each is in the README, "Prompt text"): content
  parts as their text, one a line (cleanlab writes the Python ``repr`` of the list); a
  refusal as the assistant's text (cleanlab drops it); images, audio, files and other binary
  items as short placeholders (``[image: image/png]``, ``[image: https://...]``,
  ``[audio: audio/wav]``, ``[file: report.pdf]``; a Chat Completions audio reply is followed by
  its transcript, ``[audio: audio_1] Paris is sunny.``); ``System:`` kept on a system message after
  an assistant or tool turn; an assistant message with nothing to write skipped (cleanlab
  glues a bare ``Assistant:`` to the next turn); reasoning left out.

Cleanlab has two layouts, and so do both renderings. The Chat Completions one repeats the role
prefix on every turn; the Responses one writes consecutive turns of one role under one prefix.
The Responses layout is used when cleanlab would use it: ``instructions`` are given (or the
payload is a Responses request with them), the payload holds ``function_call`` /
``function_call_output`` items, the tools are Responses tools, or ``use_responses=True``; an
input holding an item only Responses has (reasoning, ``web_search_call``: a type and no
role, which cleanlab's Chat rendering refuses) gets it too. A
`ChatHistory` has no wire shape: it gets the Chat Completions layout unless instructions or
Responses tools are given, or its first message is a Responses request's instructions.

Where cleanlab raises, both renderings write a string: a tool without a description or
parameters is written without those keys; tools of the other OpenAI shape, Anthropic tools
(``input_schema``) and Gemini tools (``function_declarations``) are written in the layout's
own shape; arguments that are not JSON are written as their text; a tool output with no
earlier call is named ``function``.
"""

from __future__ import annotations

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
from ..errors import FormatError, InvalidTypeError, InvalidValueError, describe_type
from ..formats import detect, get, openai_chat, openai_responses
from ..formats.wire import compact_json, error_output
from ..history import ChatHistory
from ..labels import PLAIN_TEXT as _PLAIN
from ..message import ChatMessageContent
from ..transcript import audio_transcript
from .blocks import (
    ASSISTANT,
    SYSTEM_ROLES,
    TOOL,
    call_block,
    parse_arguments,
    prefix,
    reply_call_block,
    response_block,
    tools_texts,
)
from .exact import (
    chat_string,
    plain_dicts,
    response_chat_string,
    response_responses_string,
    responses_string,
    uses_responses,
)

__all__ = ["form_prompt_string", "form_response_string"]


def form_prompt_string(
    conversation: ChatHistory | Iterable[ChatMessageContent] | Any,
    tools: Iterable[Mapping[str, Any]] | Mapping[str, Any] | None = None,
    *,
    instructions: str | None = None,
    use_responses: bool | None = None,
    exact: bool | None = None,
) -> str:
    """Write ``conversation`` as one prompt string, in the format of cleanlab's own function.

    ``conversation`` is a `ChatHistory`, a list of `ChatMessageContent`, or a payload
    ``formats.detect`` recognises (Chat Completions messages, Responses input or request,
    Anthropic, Gemini). ``tools`` are the tool definitions of any provider, or a `ToolSet`
    (written as its Chat Completions definitions, so that it selects no rendering by itself).
    Without ``tools``, a request body's own ``tools`` (a Gemini SDK request's
    ``config.tools``) or a history's ``options.tools`` are written; given, ``tools`` win
    over them, as a separate argument wins in cleanlab's own calls. ``instructions``
    come first, as a system message, and select the Responses rendering, as in cleanlab.
    ``use_responses`` is cleanlab's: ``True`` or ``False`` chooses the Responses or the Chat
    Completions rendering, ``None`` lets the payload and tools decide as cleanlab does.

    ``exact`` chooses between two renderings of the same format. ``True``: cleanlab-tlm
    1.1.39's string byte for byte, quirks included (module `exact`); a history is written as
    cleanlab writes its Chat Completions (or Responses) messages. ``False``: content parts
    as their text, media as placeholders, refusals kept (this module's docstring). ``None``,
    the default: exact for the OpenAI dicts cleanlab itself reads, readable for a history
    and for the Anthropic and Gemini formats, which cleanlab does not read.

    Raises:
        FormatError: the payload is in no known format or is malformed (located).
        InvalidTypeError: ``tools``, ``instructions``, ``use_responses`` or ``exact`` are of
            the wrong type; a request's own tools are located under ``conversation``
            (``conversation.tools[1]``, ``conversation.options.tools[0]``).
        InvalidValueError: ``use_responses=False`` with ``instructions``, which only the
            Responses rendering writes.
    """
    if tools is None:
        tools = _own_tools(conversation)
    elif type(tools) is not list and isinstance(tools, Mapping) and type(tools) is not dict:
        tools = _toolset_definitions(tools)
    if (
        type(conversation) is ChatHistory
        and exact is None
        and use_responses is None
        and instructions is None
    ):
        return _readable(conversation.messages, tools, None, None, False)  # the usual call
    for name, value in (("use_responses", use_responses), ("exact", exact)):
        if value is not None and type(value) is not bool:
            raise InvalidTypeError.mismatch(name, "True, False or None", describe_type(value))
    if instructions is not None:
        if type(instructions) is not str:
            raise InvalidTypeError.mismatch("instructions", "a str", describe_type(instructions))
        if use_responses is False:
            raise InvalidValueError(
                "instructions are written by the Responses rendering only",
                path="use_responses",
            )
    if (
        type(conversation) is list
        and exact is not False
        and instructions is None
        and use_responses is not True
    ):
        # plain Chat Completions dicts: cleanlab's own input, written without finding the format
        chat_text = None
        if tools is not None:
            chat_text = tools_texts(tools)[1]
        if tools is None or use_responses is False or not uses_responses([], tools, False):
            written = chat_string(conversation, chat_text, plain_only=True)
            if written is not None:
                return written
    if isinstance(conversation, ChatHistory):
        messages: list[ChatMessageContent] = conversation.messages
    elif isinstance(conversation, list) and all(
        isinstance(message, ChatMessageContent) for message in conversation
    ):
        messages = conversation
    else:
        if isinstance(conversation, (list, tuple)):  # SDK objects in it: read as their dicts
            conversation = plain_dicts(conversation)
        try:
            name = detect(conversation)
        except FormatError as error:
            if exact is not False and isinstance(conversation, list):
                # no format of ours is sure of it, but cleanlab reads any list of messages
                return _exact_payload(conversation, tools, instructions, use_responses)
            raise error.at("conversation") from None
        if exact or (exact is None and name in _CLEANLAB_FORMATS):
            if name not in _CLEANLAB_FORMATS:
                messages = get(name).from_payload(conversation).messages
                return _exact_history(messages, tools, instructions, use_responses)
            return _exact_payload(conversation, tools, instructions, use_responses)
        messages, from_responses = _read_conversation(conversation, name)
        return _readable(messages, tools, instructions, use_responses, from_responses)
    if exact:
        return _exact_history(messages, tools, instructions, use_responses)
    return _readable(messages, tools, instructions, use_responses, False)


_CLEANLAB_FORMATS = frozenset(("openai-chat", "openai-responses"))


def _own_tools(conversation: Any) -> Any:
    """The tools a conversation carries: a request body's, or a history's ``options.tools``.

    ``None`` when it carries none. They are checked here, so that a bad one is located
    where it is (``conversation.tools[1]``); the texts of plain definitions are kept, so
    writing them later costs a lookup.
    """
    tools: Any
    if isinstance(conversation, ChatHistory):
        options = conversation._options
        if options is None or options.tools is None:
            return None
        tools, path = options.tools, "conversation.options.tools"
    elif isinstance(conversation, Mapping):
        tools, path = conversation.get("tools"), "conversation.tools"
        config = conversation.get("config")
        if tools is None and isinstance(config, Mapping):
            tools, path = config.get("tools"), "conversation.config.tools"
        if tools is None:
            return None
    else:
        return None
    try:
        tools_texts(tools)
    except InvalidTypeError as error:
        raise error.with_path(path + (error.path or "").removeprefix("tools")) from None
    return tools


def _toolset_definitions(tools: Mapping[str, Any]) -> Any:
    """A `ToolSet`'s Chat Completions definitions; any other mapping (one definition) as it is.

    A ToolSet, like a history, has no wire shape of its own: the Chat Completions one is the
    shape that does not select cleanlab's Responses rendering.
    """
    from ..tools.toolset import ToolSet  # noqa: PLC0415 - tools sit beside prompt; rarely used

    if isinstance(tools, ToolSet):
        return tools.definitions("openai-chat")
    return tools


def _responses_selected(
    messages: list[ChatMessageContent],
    tools: Any,
    instructions: str | None,
    use_responses: bool | None,
) -> tuple[bool, str | None, str | None]:
    """Whether a history gets the Responses rendering, and the tools text of each rendering."""
    chat_text = responses_text = None
    if tools is not None:
        flat, chat_text, responses_text = tools_texts(tools)
    if use_responses is not None:
        return use_responses, chat_text, responses_text
    responses = instructions is not None or (tools is not None and flat)
    for first in messages:
        # the stored metadata, not the property, which would store an empty dict on a read
        hints = first._metadata
        hint = hints.get("openai_responses") if hints else None
        if type(hint) is dict and hint.get("instructions"):
            responses = True  # a Responses request's instructions, read as a system message
        break
    return responses, chat_text, responses_text


def _readable(
    messages: list[ChatMessageContent],
    tools: Any,
    instructions: str | None,
    use_responses: bool | None,
    from_responses: bool,
) -> str:
    """The readable rendering of a history, in the layout cleanlab would choose for it."""
    selected, chat_text, responses_text = _responses_selected(
        messages, tools, instructions, use_responses
    )
    if selected or (from_responses and use_responses is None):
        return _render_responses(messages, responses_text, instructions)
    return _render_chat(messages, chat_text)


def _exact_history(
    messages: list[ChatMessageContent],
    tools: Any,
    instructions: str | None,
    use_responses: bool | None,
) -> str:
    """Cleanlab's string for a history: as it writes the history's OpenAI messages."""
    responses = _responses_selected(messages, tools, instructions, use_responses)[0]
    writer = openai_responses if responses else openai_chat
    # what the OpenAI format cannot carry (a system message's name in Responses, reasoning
    # from another provider) is not in the messages cleanlab would be given: left out quietly
    payload = writer.to_payload(messages, on_unsupported="drop")
    return _exact_payload(payload, tools, instructions, responses)


def _exact_payload(
    payload: Any, tools: Any, instructions: str | None, use_responses: bool | None
) -> str:
    """Cleanlab's string for Chat Completions messages or a Responses input (or request)."""
    path = "conversation"
    if isinstance(payload, Mapping):  # a request: its messages, or its input and instructions
        if "messages" in payload:
            payload, path = payload["messages"], "conversation.messages"
        else:
            if instructions is None and payload.get("instructions") is not None:
                instructions = payload["instructions"]
            payload, path = payload.get("input"), "conversation.input"
    if isinstance(payload, str):
        payload = [{"role": "user", "content": payload}]
    if not isinstance(payload, (list, tuple)):
        raise FormatError.mismatch(path, "a list of messages", describe_type(payload))
    items = plain_dicts(payload)
    chat_text = responses_text = None
    if tools is not None:
        chat_text, responses_text = tools_texts(tools)[1:]
    if use_responses is None:
        use_responses = (
            uses_responses(items, tools, instructions is not None) or _responses_only(items)
        )
    if use_responses:
        return responses_string(items, responses_text, instructions, path=path)
    try:
        written = chat_string(items, chat_text)
    except FormatError as error:  # located at messages[i]: say where the list came from
        if path == "conversation.input" and error.path.startswith("messages["):
            raise error.with_path("input" + error.path[len("messages"):]) from None
        raise
    assert written is not None  # only a plain_only rendering gives up
    return written


def _responses_only(items: list[Any]) -> bool:
    """Whether an input holds an item only the Responses API has: one with a type, no role.

    A reasoning or ``web_search_call`` item, as function calls do, selects the Responses
    rendering; cleanlab's Chat rendering raises ``KeyError`` on any item without a role.
    """
    return any(
        isinstance(item, Mapping)
        and "role" not in item
        and item.get("type", "message") != "message"
        for item in items
    )


def form_response_string(
    message: ChatMessageContent | Mapping[str, Any] | Any, *, exact: bool | None = None
) -> str:
    """Write an assistant's reply as cleanlab's ``form_response_string_*`` functions do.

    ``message`` is a `ChatMessageContent`, a Chat Completions message or ``ChatCompletion``
    (dict or SDK object), or a Responses ``Response``. The text comes first, then one
    ``<tool_call>`` block a call (a Responses reply's with their ``call_id``).

    ``exact`` as for `form_prompt_string`: ``True`` is cleanlab's string byte for byte (a
    refusal is left out, content parts are their ``repr``, a Responses reply is its last
    output item only); ``False`` writes every item readably (a refusal as text, every output
    item); ``None`` is exact for dicts and SDK objects, readable for a `ChatMessageContent`.

    Raises:
        FormatError: the response is malformed or of no known kind (located).
        InvalidTypeError: ``exact`` is of the wrong type.
    """
    if exact is not None and type(exact) is not bool:
        raise InvalidTypeError.mismatch("exact", "True, False or None", describe_type(exact))
    if isinstance(message, ChatMessageContent):
        if exact:
            return response_chat_string(openai_chat.to_payload(message)[0], "message")
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
        if exact is False:
            return _response_chat(openai_chat.from_response(data))
        choices = data["choices"]
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], Mapping):
            raise FormatError.mismatch(
                "message.choices", "a list of choices", describe_type(choices)
            )
        if "message" not in choices[0]:
            raise FormatError("missing 'message'", path="message.choices[0].message")
        return response_chat_string(choices[0]["message"], "message.choices[0].message")
    if "output" in data:
        if exact is False:
            return _response_responses(openai_responses.from_response(data))
        return response_responses_string(data["output"], "message.output")
    if "role" in data:
        if exact is False:
            return _response_chat(openai_chat.from_payload([data]).messages[0])
        return response_chat_string(data, "message")
    raise FormatError(
        "expected a Chat Completions message (role), a ChatCompletion (choices) or a "
        "Response (output)",
        path="message",
    )


# Reading


def _read_conversation(payload: Any, name: str) -> tuple[list[ChatMessageContent], bool]:
    """Read a provider payload; say whether cleanlab would use its Responses rendering on it."""
    history = get(name).from_payload(payload)
    responses = False
    if name == "openai-responses":
        items = payload.get("input") if isinstance(payload, Mapping) else payload
        if isinstance(payload, Mapping) and payload.get("instructions") is not None:
            responses = True
        elif isinstance(items, list):
            responses = _responses_only(items)
    return history.messages, responses


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
        said = audio_transcript(item)  # a Chat Completions audio reply: what it said
        return _placeholder(item) if said is None else f"{_placeholder(item)} {said}"
    if isinstance(item, ReasoningContent):
        return None
    text = str(item)
    return text or None


def _arguments(call: FunctionCallContent) -> Any:
    """The call's arguments as JSON: parsed from their text; text that is not JSON stays text."""
    return parse_arguments(call._arguments)


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
        if _PLAIN[message._role] not in SYSTEM_ROLES:
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


def _render_chat(messages: list[ChatMessageContent], tools_text: str | None) -> str:  # noqa: PLR0915 - one inlined loop
    """Cleanlab's Chat Completions rendering: a prefix on every turn.

    The usual messages (one text, one result, calls only) are written inline: this loop is
    most of the time a prompt from a history takes; the rest go through `_chat_message`.
    """
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
            append(prefix("system", previous) + f"{tools_text}\n\n")
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
                    label = role if message._name is None else message._name
                    append(prefix(label, previous) + text + "\n\n")
                elif text:
                    append(ASSISTANT + text + "\n\n")
                else:
                    continue
                previous = role
                continue
            if kind is FunctionCallContent and role == "assistant":
                name = item._name  # type: ignore[attr-defined]
                call_id = item._id  # type: ignore[attr-defined]
                names[call_id] = name
                arguments = _arguments(item)  # type: ignore[arg-type]
                append(ASSISTANT + call_block(name, arguments, call_id) + "\n\n")
                previous = role
                continue
            if kind is FunctionResultContent:
                call_id = item._call_id  # type: ignore[attr-defined]
                output = item._result  # type: ignore[attr-defined]
                if type(output) is list or item._is_error:  # type: ignore[attr-defined]
                    output = _output(item, "text")  # type: ignore[arg-type]
                append(TOOL + response_block(names.get(call_id) or "function", call_id, output))
                append("\n\n")
                previous = "tool"
                continue
        elif role == "assistant" and items and type(items[0]) is FunctionCallContent:
            blocks = [ASSISTANT]  # parallel calls, written directly
            for item in items:
                if type(item) is not FunctionCallContent:
                    break
                name = item._name
                call_id = item._id
                names[call_id] = name
                arguments = parse_arguments(item._arguments)
                blocks.append(call_block(name, arguments, call_id) + "\n\n")
            else:
                append("".join(blocks))
                previous = role
                continue
        previous = _chat_message(message, role, previous, names, append)
    if tools_at == len(messages):
        append(prefix("system", previous) + f"{tools_text}\n\n")
    append(ASSISTANT)
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
        append(ASSISTANT + joined + "\n\n" if joined else ASSISTANT)
        for call in calls:
            name = call._name
            names[call._id] = name
            append(call_block(name, _arguments(call), call._id) + "\n\n")
        return role
    if texts:
        label = role if message._name is None else message._name
        append(prefix(label, previous) + joined + "\n\n")
        previous = role
    for result in results:
        call_id = result._call_id
        name = names.get(call_id) or "function"
        append(TOOL + response_block(name, call_id, _output(result, "text")) + "\n\n")
        previous = "tool"
    for call in calls:
        names[call._id] = call._name
        append(ASSISTANT + call_block(call._name, _arguments(call), call._id) + "\n\n")
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
            out.append(prefix(role if name is None else name, last_role))
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
                    out.append(ASSISTANT)
                out.append(call_block(item.name, _arguments(item), item.id) + "\n\n")
                turn, last_role = "assistant", None
            elif isinstance(item, FunctionResultContent):
                if texts:
                    text_turn(role, message.name, "\n".join(texts))
                    texts = []
                call_id = item.call_id
                name = names.get(call_id) or "function"
                if turn != "tool":
                    out.append(TOOL)
                out.append(response_block(name, call_id, _output(item, "input_text")) + "\n\n")
                turn, last_role = "tool", None
            else:
                text = _item_text(item)
                if text is not None:
                    texts.append(text)
        if texts:
            text_turn(role, message.name, "\n".join(texts))
    if tools_at == len(messages):
        text_turn("system", None, tools_text or "")
    return ("".join(out).strip() + "\n\n" + ASSISTANT).strip()


def _response_chat(message: ChatMessageContent) -> str:
    """Cleanlab's ``form_response_string_chat_completions_api``: text, then calls without ids."""
    texts: list[str] = []
    calls: list[str] = []
    for item in message.items:
        if isinstance(item, FunctionCallContent):
            calls.append(reply_call_block(item.name, _arguments(item)))
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
            parts.append(call_block(item.name, _arguments(item), item.id))
        elif not isinstance(item, FunctionResultContent):
            text = _item_text(item)
            if text is not None:
                texts.append(text)
    if texts:
        parts.append("\n".join(texts))
    return "\n\n".join(parts).strip()
