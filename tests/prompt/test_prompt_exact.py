"""Prompt strings with ``exact``: cleanlab-tlm 1.1.39's string byte for byte, quirks included.

``form_prompt_string(conversation, tools, *, instructions, use_responses, exact)`` writes
cleanlab's string when ``exact`` is true, and by default for the payloads cleanlab itself reads
(Chat Completions messages and Responses input, as dicts); ``exact=False`` is the readable
rendering. The property tests generate conversations with every quirk of cleanlab's (content
part lists written as their Python repr, Responses content lists keeping only ``output_text``
parts, refusals left out, ``System:`` left out after an assistant or tool turn that followed a
system message, tool output lists dumped as given, ``name`` as the prefix) and compare with
cleanlab wherever cleanlab does not fail; where it fails we give a string or a located error.
A history with ``exact=True`` is compared with cleanlab on the payload the history writes.
The hand-written tests pin one quirk each to a literal string."""

from __future__ import annotations

import copy
import json
import warnings
from typing import Any

import pytest
from cleanlab_tlm.utils import chat as cleanlab
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from semantic_chat import AuthorRole, ChatHistory, ChatMessageContent, TextContent
from semantic_chat.contents import RefusalContent
from semantic_chat.errors import (
    FormatError,
    InvalidTypeError,
    InvalidValueError,
    UnsupportedContentError,
)
from semantic_chat.formats import anthropic, detect, gemini, openai_chat, openai_responses
from semantic_chat.prompt import form_prompt_string, form_response_string

# a 4x4 PNG, as the reference file's screenshot
PNG = (
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAEElEQVR42mO4o6EBRwzEcQ"
    "DzAxLBy9ItygAAAABJRU5ErkJggg=="
)
WAV = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA="
PDF = "data:application/pdf;base64,JVBERi0xLjQK"

CALL_F = '<tool_call>\n{\n  "name": "f",\n  "arguments": {},\n  "call_id": "c1"\n}\n</tool_call>'


def _cleanlab(messages: Any, tools: Any = None, **kwargs: Any) -> str:
    """Cleanlab's ``form_prompt_string``, its warnings ignored."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result: str = cleanlab.form_prompt_string(messages, tools, **kwargs)
    return result


def _cleanlab_or_none(messages: Any, tools: Any = None, **kwargs: Any) -> str | None:
    """Cleanlab's string, or ``None`` where cleanlab fails.

    Failing is raising (``KeyError``, ``JSONDecodeError``, ``StopIteration`` ...) or catching
    an error of its own and leaving the piece out with an "Error formatting" warning (a
    Responses call whose arguments are not JSON): there we write the readable piece instead.
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result: str = cleanlab.form_prompt_string(
                copy.deepcopy(messages), copy.deepcopy(tools), **kwargs
            )
        except Exception:  # any refusal
            return None
    if any(str(warning.message).startswith("Error formatting") for warning in caught):
        return None
    return result


def _cleanlab_of_payload(
    payload: list[dict[str, Any]],
    tools: Any,
    instructions: str | None,
    use_responses: bool | None = None,
) -> str | None:
    """Cleanlab's string for a payload, called as we are (``None`` where cleanlab fails)."""
    kwargs: dict[str, Any] = {} if instructions is None else {"instructions": instructions}
    if use_responses is not None:
        kwargs["use_responses"] = use_responses
    return _cleanlab_or_none(payload, tools, **kwargs)


def _ours(conversation: Any, tools: Any = None, **kwargs: Any) -> str:
    """Our string; any warning fails the test (cleanlab's "last message" one is not ours)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return form_prompt_string(conversation, tools, **kwargs)


def _ours_or_error(conversation: Any, tools: Any = None, **kwargs: Any) -> str | FormatError:
    """Our string, or the located `FormatError` a message cleanlab cannot read either gives."""
    try:
        return _ours(conversation, tools, **kwargs)
    except FormatError as error:
        return error


def _same_or_refused(ours: str | FormatError, expected: str | None) -> None:
    """Cleanlab's string where it writes one; where it fails, a string or a located error."""
    if expected is not None:
        assert ours == expected
    else:
        assert isinstance(ours, str) or ours.path


def _detected(payload: Any) -> str | None:
    """The format ``formats.detect`` tells, None where it cannot tell."""
    try:
        return detect(payload)
    except FormatError:
        return None


# Generators: every quirk cleanlab has

_word = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=10)
_text = st.one_of(_word, st.sampled_from(["", " ", "\n", "a  ", "  b", "System: x", "[1]"]))
_name = st.one_of(
    st.sampled_from(["ann", "bob_2", "system", "developer", "user", "assistant", "tool"]), _word
)
_json_scalar = st.one_of(st.none(), st.booleans(), st.integers(-(10**6), 10**6), _word)
_json_value = st.recursive(
    _json_scalar,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(_word, inner, max_size=3)),
    max_leaves=5,
)
_arguments = st.one_of(
    st.just(""),
    st.dictionaries(_word, _json_value, max_size=3).map(json.dumps),
    st.just("{oops"),  # not JSON: cleanlab raises (or drops the call), we write a string
)
_schema = st.recursive(
    st.fixed_dictionaries({"type": st.sampled_from(["string", "integer", "boolean"])}),
    lambda inner: st.fixed_dictionaries(
        {"type": st.just("object"), "properties": st.dictionaries(_word, inner, max_size=3)}
    ),
    max_leaves=4,
)
_image_url = st.sampled_from([PNG, "https://example.test/cat.png", "http://x.test/a.jpg"])


@st.composite
def _chat_part(draw: st.DrawFn, media: bool = True) -> dict[str, Any]:
    kind = draw(
        st.sampled_from(["text", "image", "audio", "file", "file_id"] if media else ["text"])
    )
    if kind == "text":
        return {"type": "text", "text": draw(_text)}
    if kind == "image":
        body: dict[str, Any] = {"url": draw(_image_url)}
        if draw(st.booleans()):
            body["detail"] = draw(st.sampled_from(["auto", "low", "high"]))
        return {"type": "image_url", "image_url": body}
    if kind == "audio":
        return {"type": "input_audio", "input_audio": {"data": WAV, "format": "wav"}}
    if kind == "file":
        return {"type": "file", "file": {"file_data": PDF, "filename": "r.pdf"}}
    return {"type": "file", "file": {"file_id": "file-abc"}}


def _parts(media: bool = True, min_size: int = 1) -> st.SearchStrategy[list[dict[str, Any]]]:
    return st.lists(_chat_part(media), min_size=min_size, max_size=3)


@st.composite
def _chat_tools(draw: st.DrawFn) -> list[dict[str, Any]] | None:
    if draw(st.booleans()):
        return None
    tools = []
    for _ in range(draw(st.integers(0, 2))):
        function: dict[str, Any] = {"name": draw(_word)}
        if draw(st.integers(0, 5)):  # now and then none: cleanlab raises
            function["description"] = draw(_word)
            function["parameters"] = draw(_schema)
        tools.append({"type": "function", "function": function})
    return tools


@st.composite
def _assistant(draw: st.DrawFn, counter: list[int]) -> dict[str, Any]:
    """An assistant message: content null, "", text or parts with refusals; refusal; calls."""
    message: dict[str, Any] = {"role": "assistant"}
    content = draw(st.sampled_from(["absent", "null", "empty", "text", "parts", "refusal only"]))
    if content == "null":
        message["content"] = None
    elif content == "empty":
        message["content"] = ""
    elif content == "text":
        message["content"] = draw(_text)
    elif content == "parts":
        message["content"] = draw(
            st.lists(
                st.one_of(
                    _text.map(lambda text: {"type": "text", "text": text}),
                    _word.map(lambda text: {"type": "refusal", "refusal": text}),
                ),
                min_size=1,
                max_size=3,
            )
        )
    elif content == "refusal only":
        message["content"] = None
        message["refusal"] = draw(_word)
    if content != "refusal only" and draw(st.integers(0, 3)) == 0:
        message["refusal"] = draw(_word)
    if draw(st.integers(0, 4)) == 0:
        message["name"] = draw(_name)
    if draw(st.booleans()):
        calls = []
        for _ in range(draw(st.integers(1, 2))):
            calls.append(
                {
                    "id": f"call_{counter[0]}",
                    "type": "function",
                    "function": {"name": draw(_word), "arguments": draw(_arguments)},
                }
            )
            counter[0] += 1
        message["tool_calls"] = calls
    return message


@st.composite
def _chat_messages(draw: st.DrawFn) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = []
    counter = [0]
    calls: list[str] = []
    for _ in range(draw(st.integers(1, 7))):
        kind = draw(st.sampled_from(["system", "user", "user", "assistant", "assistant", "tool"]))
        if kind in ("system", "user"):
            role = "user" if kind == "user" else draw(st.sampled_from(["system", "developer"]))
            content: Any = draw(st.one_of(_text, _parts(media=role == "user")))
            message: dict[str, Any] = {"role": role, "content": content}
            if draw(st.integers(0, 4)) == 0:
                message["name"] = draw(_name)
            messages.append(message)
        elif kind == "assistant":
            message = draw(_assistant(counter))
            calls += [call["id"] for call in message.get("tool_calls", [])]
            messages.append(message)
        else:
            call_id = draw(st.sampled_from(calls)) if calls else "orphan"
            output = draw(
                st.one_of(
                    _text,
                    st.lists(
                        st.one_of(
                            _text.map(lambda text: {"type": "text", "text": text}),
                            _image_url.map(
                                lambda url: {"type": "image_url", "image_url": {"url": url}}
                            ),
                        ),
                        min_size=1,
                        max_size=3,
                    ),
                )
            )
            messages.append({"role": "tool", "tool_call_id": call_id, "content": output})
    return messages


def _history_payload(history: ChatHistory, responses: bool) -> list[dict[str, Any]] | None:
    """The payload a history writes (Responses input or Chat messages), None if it cannot."""
    module = openai_responses if responses else openai_chat
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return module.to_payload(history)
    except UnsupportedContentError:
        return None


_use_responses = st.sampled_from([None, None, True, False])


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(messages=_chat_messages(), tools=_chat_tools(), use_responses=_use_responses)
def test_chat_messages_equal_cleanlab_by_default(
    messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None, use_responses: bool | None
) -> None:
    before = copy.deepcopy(messages)
    expected = _cleanlab_of_payload(messages, tools, None, use_responses)
    ours = _ours_or_error(messages, tools, use_responses=use_responses)
    assert messages == before  # read, never changed
    _same_or_refused(ours, expected)
    assert str(_ours_or_error(messages, tools, use_responses=use_responses, exact=True)) == str(
        ours
    )
    history = openai_chat.from_payload(messages)
    # the readable rendering is the history's, from dicts or not
    assert _ours(messages, tools, use_responses=use_responses, exact=False) == _ours(
        history, tools, use_responses=use_responses
    )
    # a history, exactly: cleanlab's string for the messages it writes in the rendering chosen
    payload = _history_payload(history, responses=bool(use_responses))
    if payload is not None:
        expected = _cleanlab_of_payload(payload, tools, None, use_responses)
        if expected is not None:
            assert _ours(history, tools, use_responses=use_responses, exact=True) == expected
            assert (
                _ours(list(history.messages), tools, use_responses=use_responses, exact=True)
                == expected
            )


@st.composite
def _responses_tools(draw: st.DrawFn) -> list[dict[str, Any]] | None:
    if draw(st.booleans()):
        return None
    tools = []
    for _ in range(draw(st.integers(0, 2))):
        tool: dict[str, Any] = {"type": "function", "name": draw(_word)}
        if draw(st.integers(0, 5)):  # now and then none: cleanlab raises
            tool["description"] = draw(_word)
            tool["parameters"] = draw(_schema)
        if draw(st.booleans()):
            tool["strict"] = draw(st.booleans())
        tools.append(tool)
    return tools


@st.composite
def _input_part(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(["input_text", "input_text", "output_text", "image", "file"]))
    if kind == "image":
        return {"type": "input_image", "image_url": draw(_image_url), "detail": "auto"}
    if kind == "file":
        return {"type": "input_file", "file_id": "file-abc"}
    return {"type": kind, "text": draw(_text)}


@st.composite
def _output_part(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(["output_text", "output_text", "refusal", "input_text"]))
    if kind == "refusal":
        return {"type": "refusal", "refusal": draw(_word)}
    if kind == "output_text":
        return {"type": "output_text", "text": draw(_text), "annotations": []}
    return {"type": "input_text", "text": draw(_text)}


@st.composite
def _responses_input(draw: st.DrawFn) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    calls: list[str] = []
    for _ in range(draw(st.integers(1, 7))):
        kind = draw(
            st.sampled_from(["user", "user", "system", "assistant", "output", "call", "result"])
        )
        if kind in ("user", "system"):
            role = kind if kind == "user" else draw(st.sampled_from(["system", "developer"]))
            content: Any = draw(st.one_of(_text, st.lists(_input_part(), min_size=1, max_size=3)))
            item: dict[str, Any] = {"role": role, "content": content}
            if draw(st.booleans()):
                item = {"type": "message", **item}
            items.append(item)
        elif kind == "assistant":
            items.append({"role": "assistant", "content": draw(_text)})
        elif kind == "output":
            items.append(
                {
                    "type": "message",
                    "role": "assistant",
                    "content": draw(st.lists(_output_part(), min_size=1, max_size=3)),
                }
            )
        elif kind == "call" or not calls:
            call_id = f"call_{len(calls)}"
            calls.append(call_id)
            items.append(
                {
                    "type": "function_call",
                    "call_id": call_id,
                    "name": draw(_word),
                    "arguments": draw(_arguments),
                }
            )
        else:
            output: Any = draw(
                st.one_of(
                    _text,
                    st.lists(
                        st.one_of(
                            _text.map(lambda text: {"type": "input_text", "text": text}),
                            _image_url.map(lambda url: {"type": "input_image", "image_url": url}),
                        ),
                        min_size=1,
                        max_size=3,
                    ),
                )
            )
            call_id = draw(st.sampled_from([*calls, "orphan"]))  # an orphan: cleanlab raises
            items.append({"type": "function_call_output", "call_id": call_id, "output": output})
    return items


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(
    items=_responses_input(),
    tools=_responses_tools(),
    instructions=st.one_of(st.none(), _text),
    use_responses=_use_responses,
)
def test_responses_input_equals_cleanlab_by_default(
    items: list[dict[str, Any]],
    tools: list[dict[str, Any]] | None,
    instructions: str | None,
    use_responses: bool | None,
) -> None:
    if use_responses is False and instructions is not None:
        with pytest.raises(InvalidValueError) as caught:
            form_prompt_string(items, tools, instructions=instructions, use_responses=False)
        assert caught.value.path == "use_responses"
        return
    options: dict[str, Any] = {"instructions": instructions, "use_responses": use_responses}
    before = copy.deepcopy(items)
    expected = _cleanlab_of_payload(items, tools, instructions, use_responses)
    ours = _ours_or_error(items, tools, **options, exact=True)
    assert items == before
    _same_or_refused(ours, expected)
    # the default is exact for what formats.detect tells is Responses (or Chat) input
    detected = _detected(items)
    default = _ours_or_error(items, tools, **options)
    assert str(default) == str(ours) or (detected is None and isinstance(default, FormatError))
    readable = _ours_or_error(items, tools, **options, exact=False)
    assert isinstance(readable, str) or detected != "openai-responses"
    # a history, exactly: the Responses rendering where use_responses, instructions or
    # Responses tools select it, cleanlab's string for the input the history writes
    history = openai_responses.from_payload(items)
    responses = (
        use_responses if use_responses is not None else instructions is not None or bool(tools)
    )
    payload = _history_payload(history, responses)
    if payload is not None:
        expected = _cleanlab_of_payload(payload, tools, instructions, responses)
        if expected is not None:
            assert _ours(history, tools, **options, exact=True) == expected


@given(messages=_chat_messages())
def test_exact_is_the_default_for_dicts_and_not_for_histories(
    messages: list[dict[str, Any]],
) -> None:
    assert _ours(messages) == _ours(messages, exact=True)
    history = openai_chat.from_payload(messages)
    assert _ours(history) == _ours(history, exact=False)
    assert _ours(list(history.messages)) == _ours(history, exact=False)


# One quirk a test: the literal string cleanlab writes


def _both(messages: list[dict[str, Any]], expected: str, **kwargs: Any) -> None:
    """Cleanlab writes ``expected``, and so do we, by default and with ``exact=True``."""
    assert _cleanlab_of_payload(messages, kwargs.get("tools"), kwargs.get("instructions")) == (
        expected
    )
    assert _ours(messages, **kwargs) == expected
    assert _ours(messages, exact=True, **kwargs) == expected


def test_content_parts_are_written_as_their_python_repr() -> None:
    messages = [
        {"role": "system", "content": [{"type": "text", "text": "S"}]},
        {"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]},
        {"role": "assistant", "content": "A"},
        {"role": "user", "content": "c"},
    ]
    _both(
        messages,
        "System: [{'type': 'text', 'text': 'S'}]\n\n"
        "User: [{'type': 'text', 'text': 'a'}, {'type': 'text', 'text': 'b'}]\n\n"
        "Assistant: A\n\nUser: c\n\nAssistant:",
    )
    assert (
        _ours(messages, exact=False)
        == "System: S\n\nUser: a\nb\n\nAssistant: A\n\nUser: c\n\nAssistant:"
    )


def test_media_parts_are_written_in_the_repr_with_their_data() -> None:
    messages = [
        {
            "role": "user",
            "content": [
                {"type": "input_audio", "input_audio": {"data": "UklGRg==", "format": "wav"}},
                {"type": "file", "file": {"file_data": PDF, "filename": "r.pdf"}},
                {"type": "image_url", "image_url": {"url": PNG}},
            ],
        },
        {"role": "assistant", "content": "A"},
        {"role": "user", "content": "Q"},
    ]
    _both(
        messages,
        "User: [{'type': 'input_audio', 'input_audio': {'data': 'UklGRg==', 'format': 'wav'}}, "
        "{'type': 'file', 'file': {'file_data': '" + PDF + "', 'filename': 'r.pdf'}}, "
        "{'type': 'image_url', 'image_url': {'url': '" + PNG + "'}}]\n\n"
        "Assistant: A\n\nUser: Q\n\nAssistant:",
    )
    assert _ours(messages, exact=False) == (
        "User: [audio: audio/wav]\n[file: r.pdf]\n[image: image/png]\n\n"
        "Assistant: A\n\nUser: Q\n\nAssistant:"
    )


def test_a_lone_user_message_of_parts_is_its_repr() -> None:
    chat = [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "What is this?"},
                {"type": "image_url", "image_url": {"url": "https://x.test/c.png"}},
            ],
        }
    ]
    _both(
        chat,
        "[{'type': 'text', 'text': 'What is this?'}, "
        "{'type': 'image_url', 'image_url': {'url': 'https://x.test/c.png'}}]",
    )
    assert _ours(chat, exact=False) == "What is this?\n[image: https://x.test/c.png]"
    responses = [
        {
            "role": "user",
            "content": [
                {"type": "input_text", "text": "What is this?"},
                {"type": "input_image", "image_url": "https://x.test/c.png"},
            ],
        }
    ]
    _both(
        responses,
        "[{'type': 'input_text', 'text': 'What is this?'}, "
        "{'type': 'input_image', 'image_url': 'https://x.test/c.png'}]",
    )
    assert _ours(responses, exact=False) == "What is this?\n[image: https://x.test/c.png]"


def test_responses_content_lists_keep_only_output_text_parts() -> None:
    items = [
        {"role": "user", "content": [{"type": "input_text", "text": "Hi"}]},
        {
            "type": "message",
            "role": "assistant",
            "content": [
                {"type": "output_text", "text": "A", "annotations": []},
                {"type": "refusal", "refusal": "R"},
                {"type": "output_text", "text": "B", "annotations": []},
            ],
        },
        {"type": "function_call", "call_id": "c1", "name": "f", "arguments": ""},
    ]
    _both(items, "User: \n\nAssistant: A\nB\n\n" + CALL_F + "\n\nAssistant:")


def test_a_refusal_is_left_out_and_assistant_glued_to_the_next_turn() -> None:
    messages = [
        {"role": "user", "content": "Q"},
        {"role": "assistant", "content": None, "refusal": "No."},
        {"role": "user", "content": "Q2"},
    ]
    _both(messages, "User: Q\n\nAssistant: User: Q2\n\nAssistant:")
    assert _ours(messages, exact=False) == "User: Q\n\nAssistant: No.\n\nUser: Q2\n\nAssistant:"


def test_a_text_and_refusal_part_list_is_its_repr() -> None:
    messages = [
        {"role": "user", "content": "Q"},
        {
            "role": "assistant",
            "content": [{"type": "text", "text": "T"}, {"type": "refusal", "refusal": "R"}],
        },
        {"role": "user", "content": "Q2"},
    ]
    _both(
        messages,
        "User: Q\n\nAssistant: [{'type': 'text', 'text': 'T'}, {'type': 'refusal', "
        "'refusal': 'R'}]\n\nUser: Q2\n\nAssistant:",
    )
    assert _ours(messages, exact=False) == "User: Q\n\nAssistant: T\nR\n\nUser: Q2\n\nAssistant:"


@pytest.mark.parametrize("content", [None, ""])
def test_an_empty_assistant_message_is_a_bare_prefix(content: str | None) -> None:
    messages = [
        {"role": "user", "content": "Q"},
        {"role": "assistant", "content": content},
        {"role": "user", "content": "Q2"},
    ]
    _both(messages, "User: Q\n\nAssistant: User: Q2\n\nAssistant:")
    assert _ours(messages, exact=False) == "User: Q\n\nUser: Q2\n\nAssistant:"


def test_system_after_an_assistant_turn_after_a_system_message_has_no_prefix() -> None:
    messages = [
        {"role": "system", "content": "S"},
        {"role": "assistant", "content": "A"},
        {"role": "system", "content": "T"},
    ]
    _both(messages, "System: S\n\nAssistant: A\n\nT\n\nAssistant:")
    assert _ours(messages, exact=False) == "System: S\n\nAssistant: A\n\nSystem: T\n\nAssistant:"


def test_system_after_a_tool_turn_after_a_system_message_has_no_prefix() -> None:
    messages = [
        {"role": "system", "content": "S"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "ok"},
        {"role": "developer", "content": "T"},
    ]
    response = (
        '<tool_response>\n{\n  "name": "f",\n  "call_id": "c1",\n  "output": "ok"\n}\n'
        "</tool_response>"
    )
    _both(
        messages,
        f"System: S\n\nAssistant: {CALL_F}\n\nTool: {response}\n\nT\n\nAssistant:",
    )
    assert _ours(messages, exact=False) == (
        f"System: S\n\nAssistant: {CALL_F}\n\nTool: {response}\n\nSystem: T\n\nAssistant:"
    )


def test_a_chat_tool_output_list_is_dumped_as_given() -> None:
    messages = [
        {"role": "user", "content": "Q"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
            ],
        },
        {
            "role": "tool",
            "tool_call_id": "c1",
            "content": [
                {"type": "text", "text": "ok"},
                {"type": "image_url", "image_url": {"url": PNG}},
            ],
        },
    ]
    _both(
        messages,
        f"User: Q\n\nAssistant: {CALL_F}\n\n"
        'Tool: <tool_response>\n{\n  "name": "f",\n  "call_id": "c1",\n  "output": [\n'
        '    {\n      "type": "text",\n      "text": "ok"\n    },\n'
        '    {\n      "type": "image_url",\n      "image_url": {\n'
        f'        "url": "{PNG}"\n      }}\n    }}\n  ]\n}}\n</tool_response>\n\nAssistant:',
    )


def test_a_responses_tool_output_list_is_dumped_as_given() -> None:
    items = [
        {"role": "user", "content": "Q"},
        {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"},
        {
            "type": "function_call_output",
            "call_id": "c1",
            "output": [
                {"type": "input_text", "text": "ok"},
                {"type": "input_image", "image_url": PNG},
            ],
        },
    ]
    _both(
        items,
        f"User: Q\n\nAssistant: {CALL_F}\n\n"
        'Tool: <tool_response>\n{\n  "name": "f",\n  "call_id": "c1",\n  "output": [\n'
        '    {\n      "type": "input_text",\n      "text": "ok"\n    },\n'
        f'    {{\n      "type": "input_image",\n      "image_url": "{PNG}"\n    }}\n'
        "  ]\n}\n</tool_response>\n\nAssistant:",
    )
    assert PNG not in _ours(items, exact=False)


def test_a_name_is_the_prefix() -> None:
    messages = [
        {"role": "system", "content": "S", "name": "rules"},
        {"role": "user", "content": "Q", "name": "ann"},
        {"role": "assistant", "content": "A", "name": "bot"},
        {"role": "user", "content": "Q2"},
    ]
    _both(messages, "Rules: S\n\nAnn: Q\n\nAssistant: A\n\nUser: Q2\n\nAssistant:")


def test_a_name_that_is_a_system_role_after_a_system_message_has_no_prefix() -> None:
    messages = [
        {"role": "system", "content": "S"},
        {"role": "user", "content": "Q", "name": "system"},
    ]
    _both(messages, "System: S\n\nQ\n\nAssistant:")


def test_a_history_with_exact_is_cleanlabs_string_for_its_payload() -> None:
    history = ChatHistory()
    history.add_user_message("Q")
    history.add_message(
        ChatMessageContent(role=AuthorRole.ASSISTANT, items=[RefusalContent(text="No.")])
    )
    history.add_user_message("Q2")
    expected = _cleanlab(openai_chat.to_payload(history))
    assert expected == "User: Q\n\nAssistant: User: Q2\n\nAssistant:"
    assert _ours(history, exact=True) == expected
    assert _ours(history) == "User: Q\n\nAssistant: No.\n\nUser: Q2\n\nAssistant:"


@pytest.mark.parametrize(
    ("payload", "module"),
    [
        (
            {
                "system": "Be brief.",
                "messages": [
                    {
                        "role": "user",
                        "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}],
                    },
                    {"role": "assistant", "content": "A"},
                    {"role": "user", "content": "c"},
                ],
            },
            anthropic,
        ),
        (
            {
                "contents": [
                    {"role": "user", "parts": [{"text": "a"}, {"text": "b"}]},
                    {"role": "model", "parts": [{"text": "A"}]},
                    {"role": "user", "parts": [{"text": "c"}]},
                ]
            },
            gemini,
        ),
    ],
    ids=["anthropic", "gemini"],
)
def test_other_formats_are_readable_by_default_and_exact_on_request(
    payload: dict[str, Any], module: Any
) -> None:
    """Cleanlab reads no Anthropic or Gemini payload: exact is its string for their history."""
    history = module.from_payload(payload)
    expected = _cleanlab(openai_chat.to_payload(history))
    assert "User: [{'type': 'text', 'text': 'a'}, {'type': 'text', 'text': 'b'}]" in expected
    assert _ours(payload, exact=True) == expected
    assert _ours(payload) == _ours(payload, exact=False) == _ours(history)
    assert "User: a\nb\n\nAssistant: A\n\nUser: c\n\nAssistant:" in _ours(payload)


def test_responses_input_with_refusal_parts_is_cleanlabs_string() -> None:
    """Two refusal parts and a call: input cleanlab reads, whatever ``formats.detect`` says."""
    refusal = {"type": "refusal", "refusal": "R"}
    items = [
        {"role": "user", "content": "Q"},
        {"type": "message", "role": "assistant", "content": [refusal, refusal]},
        {"type": "function_call", "call_id": "c1", "name": "f", "arguments": ""},
    ]
    expected = f"User: Q\n\nAssistant: \n\n{CALL_F}\n\nAssistant:"
    assert _cleanlab(items) == expected
    assert _ours(items, exact=True) == expected


def test_an_exact_history_in_the_responses_rendering_warns_nothing() -> None:
    """The name the Responses input cannot carry is left out without a word, as cleanlab's."""
    history = openai_chat.from_payload(
        [{"role": "system", "content": "S", "name": "ann"}, {"role": "user", "content": "Q"}]
    )
    expected = "System: S\n\nUser: Q\n\nAssistant:"
    assert _cleanlab(_history_payload(history, responses=True), use_responses=True) == expected
    assert _ours(history, use_responses=True, exact=True) == expected
    assert _ours(history, instructions="I", exact=True) == "System: I\n\nS\n\nUser: Q\n\nAssistant:"
    assert _ours(history, exact=True) == "Ann: S\n\nUser: Q\n\nAssistant:"


def test_no_warning_where_cleanlab_warns() -> None:
    messages = [{"role": "user", "content": "Q"}, {"role": "assistant", "content": "A"}]
    with pytest.warns(UserWarning, match="last message"):
        cleanlab.form_prompt_string(messages)
    assert _ours(messages) == "User: Q\n\nAssistant: A\n\nAssistant:"
    items = [
        {"role": "user", "content": "Q"},
        {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"},
    ]
    assert _ours(items) == f"User: Q\n\nAssistant: {CALL_F}\n\nAssistant:" == _cleanlab(items)


# Response strings


def test_a_refusal_reply_is_empty_exactly_and_its_text_readably() -> None:
    reply = {"role": "assistant", "content": None, "refusal": "No."}
    assert cleanlab.form_response_string_chat_completions_api(reply) == ""
    assert form_response_string(reply) == ""
    assert form_response_string(reply, exact=True) == ""
    assert form_response_string(reply, exact=False) == "No."
    message = ChatMessageContent(role=AuthorRole.ASSISTANT, items=[RefusalContent(text="No.")])
    assert form_response_string(message) == "No."
    assert form_response_string(message, exact=False) == "No."
    assert form_response_string(message, exact=True) == ""
    both = ChatMessageContent(
        role=AuthorRole.ASSISTANT, items=[TextContent(text="Yes"), RefusalContent(text="no")]
    )
    assert form_response_string(both) == "Yes\nno"
    assert form_response_string(both, exact=True) == "Yes"


# The argument itself


@pytest.mark.parametrize("exact", ["yes", 1, 0, [], {"exact": True}])
def test_exact_of_the_wrong_type_is_a_located_error(exact: Any) -> None:
    with pytest.raises(InvalidTypeError) as caught:
        form_prompt_string([{"role": "user", "content": "Q"}], exact=exact)
    assert caught.value.path == "exact"
    assert "exact" in str(caught.value)
    with pytest.raises(InvalidTypeError) as refused:
        form_response_string({"role": "assistant", "content": "A"}, exact=exact)
    assert refused.value.path == "exact"


@pytest.mark.parametrize("use_responses", ["yes", 1, []])
def test_use_responses_of_the_wrong_type_is_a_located_error(use_responses: Any) -> None:
    with pytest.raises(InvalidTypeError) as caught:
        form_prompt_string([{"role": "user", "content": "Q"}], use_responses=use_responses)
    assert caught.value.path == "use_responses"


def test_use_responses_false_with_instructions_is_refused_as_cleanlab_refuses_it() -> None:
    messages = [{"role": "user", "content": "Q"}]
    with pytest.raises(ValueError, match="Responses API kwargs"):
        cleanlab.form_prompt_string(messages, use_responses=False, instructions="I")
    with pytest.raises(InvalidValueError) as caught:
        form_prompt_string(messages, instructions="I", use_responses=False)
    assert caught.value.path == "use_responses"
