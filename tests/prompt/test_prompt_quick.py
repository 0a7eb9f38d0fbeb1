"""The plain path of `form_prompt_string`: Chat Completions dicts written without detection.

Finding a payload's format (``formats.detect``) costs about as much as writing a short
prompt, so a list whose every message is surely a Chat Completions one (the roles, keys and
string contents no other format has) is written straight away (`exact.chat_string` with
``plain_only``); anything else is detected first and goes the general way. These tests pin
the plain path to the general one and to cleanlab: the same string for any generated list,
with and without tools, and the same errors, located in the same place.
"""

from __future__ import annotations

import json
import warnings
from typing import Any

import pytest
from cleanlab_tlm.utils import chat as cleanlab
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from semantic_chat.errors import FormatError, InvalidTypeError
from semantic_chat.formats import detect
from semantic_chat.prompt import exact, form_prompt_string, strings
from semantic_chat.prompt.blocks import tools_texts

_text = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=10)
_json_value = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), _text),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(_text, inner, max_size=3)),
    max_leaves=5,
)
_arguments = st.one_of(
    st.just(""),
    st.just("{"),
    st.just(' {"a": 1} '),
    st.just('{"a": 1} x'),
    _text,
    st.dictionaries(_text, _json_value, max_size=3).map(json.dumps),
    _json_value.map(json.dumps),
)


@st.composite
def _plain_messages(draw: st.DrawFn) -> list[dict[str, Any]]:
    """Plain Chat Completions messages, in any order, with any call ids."""
    messages: list[dict[str, Any]] = []
    ids = ["call_0", "call_1", "call_2"]
    for _ in range(draw(st.integers(1, 7))):
        kind = draw(st.sampled_from(["system", "developer", "user", "assistant", "calls", "tool"]))
        if kind == "calls":
            calls = [
                {
                    "id": draw(st.sampled_from(ids)),
                    "type": "function",
                    "function": {"name": draw(_text), "arguments": draw(_arguments)},
                }
                for _ in range(draw(st.integers(1, 3)))
            ]
            content = draw(st.one_of(st.none(), _text))
            messages.append({"role": "assistant", "content": content, "tool_calls": calls})
        elif kind == "tool":
            messages.append(
                {"role": "tool", "tool_call_id": draw(st.sampled_from(ids)), "content": draw(_text)}
            )
        else:
            messages.append({"role": kind, "content": draw(_text)})
    return messages


def _spoil(message: Any, how: str) -> Any:
    """A message that is not plain: the general way writes it (or refuses some)."""
    if not isinstance(message, dict):
        return message
    spoilt = dict(message)
    if how == "parts":
        spoilt["content"] = [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]
    elif how == "no content":
        spoilt.pop("content", None)
    elif how == "typed":
        spoilt["type"] = "message"
    elif how == "function role":
        spoilt = {"role": "function", "name": "f", "content": "out"}
    elif how == "not a dict":
        return ["role", "user"]
    elif how == "number content":
        spoilt["content"] = 5
    return spoilt


_SPOILS = ["parts", "no content", "typed", "function role", "not a dict", "number content"]


@st.composite
def _tools(draw: st.DrawFn) -> list[dict[str, Any]] | None:
    """No tools, Chat Completions tools, none at all, or Responses tools (the other rendering)."""
    kind = draw(st.sampled_from(["none", "chat", "empty", "responses"]))
    if kind == "none":
        return None
    if kind == "empty":
        return []
    names = draw(st.lists(_text, min_size=1, max_size=2))
    if kind == "responses":
        return [{"type": "function", "name": name, "parameters": {}} for name in names]
    return [
        {"type": "function", "function": {"name": name, "description": "d", "parameters": {}}}
        for name in names
    ]


def _written(messages: Any, tools: Any) -> str | BaseException:
    try:
        return form_prompt_string(messages, tools)
    except (FormatError, InvalidTypeError) as error:
        return error


def _general(messages: Any, tools: Any) -> str | BaseException:
    """The general way: the format found first, then cleanlab's rendering of the dicts."""
    try:
        try:
            name = detect(messages)
        except FormatError:  # no format is sure of it: cleanlab's rendering of the list
            return strings._exact_payload(messages, tools, None, None)
        if name not in ("openai-chat", "openai-responses"):
            return form_prompt_string(messages, tools, exact=False)
        return strings._exact_payload(messages, tools, None, None)
    except (FormatError, InvalidTypeError) as error:
        return error


def _same(plain: str | BaseException, general: str | BaseException) -> None:
    if isinstance(general, BaseException):
        assert type(plain) is type(general)
        assert str(plain) == str(general)
    else:
        assert plain == general


def _cleanlab(messages: Any, tools: Any) -> str | None:
    """Cleanlab's string, or None where it raises."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            result: str = cleanlab.form_prompt_string(messages, tools)
        except Exception:
            return None
    return result


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(messages=_plain_messages(), tools=_tools())
def test_plain_messages_are_written_directly_as_the_general_way_and_cleanlab_write_them(
    messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None
) -> None:
    before = json.dumps(messages)
    chat_text = tools_texts(tools)[1] if tools is not None else None
    responses_tools = bool(tools) and exact.uses_responses([], tools, False)
    plain = exact.chat_string(messages, chat_text, plain_only=True)
    assert plain is not None
    written = _written(messages, tools)
    _same(written, _general(messages, tools))
    if not responses_tools:
        assert written == plain
    expected = _cleanlab(messages, tools)
    if expected is not None:
        assert written == expected
    assert json.dumps(messages) == before


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(
    messages=_plain_messages(),
    tools=_tools(),
    spoils=st.lists(st.tuples(st.integers(0, 6), st.sampled_from(_SPOILS)), min_size=1, max_size=2),
)
def test_other_shapes_go_the_general_way(
    messages: list[dict[str, Any]],
    tools: list[dict[str, Any]] | None,
    spoils: list[tuple[int, str]],
) -> None:
    for index, how in spoils:
        messages[index % len(messages)] = _spoil(messages[index % len(messages)], how)
    _same(_written(messages, tools), _general(messages, tools))


def test_a_conversation_of_every_shape_is_written_from_the_dicts() -> None:
    messages = [
        {"role": "system", "content": "Be brief."},
        {"role": "developer", "content": "Use tools."},
        {"role": "user", "content": "Weather in Bern?"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city": "Bern"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "12 C"},
        {"role": "tool", "tool_call_id": "c9", "content": "late"},
        {"role": "assistant", "content": ""},
        {"role": "assistant", "content": "12 C in Bern."},
    ]
    assert exact.chat_string(messages, None, plain_only=True) is not None
    expected = (
        "System: Be brief.\n\nUse tools.\n\nUser: Weather in Bern?\n\n"
        'Assistant: <tool_call>\n{\n  "name": "get_weather",\n  "arguments": {\n'
        '    "city": "Bern"\n  },\n  "call_id": "c1"\n}\n</tool_call>\n\n'
        'Tool: <tool_response>\n{\n  "name": "get_weather",\n  "call_id": "c1",\n'
        '  "output": "12 C"\n}\n</tool_response>\n\n'
        'Tool: <tool_response>\n{\n  "name": "function",\n  "call_id": "c9",\n'
        '  "output": "late"\n}\n</tool_response>\n\n'
        "Assistant: Assistant: 12 C in Bern.\n\nAssistant:"
    )
    assert form_prompt_string(messages) == expected
    assert _cleanlab(messages, None) == expected


def test_tools_come_after_the_leading_system_block() -> None:
    tools = [{"type": "function", "function": {"name": "f", "description": "", "parameters": {}}}]
    head = tools_texts(tools)[1]
    assert form_prompt_string([{"role": "user", "content": "Hi"}], tools) == (
        f"System: {head}\n\nUser: Hi\n\nAssistant:"
    )
    assert form_prompt_string([{"role": "system", "content": "S"}], tools) == (
        f"System: S\n\n{head}\n\nAssistant:"
    )
    opening = [{"role": "assistant", "content": ""}, {"role": "system", "content": "S"}]
    # cleanlab's empty answer: a bare prefix, glued to the tools' system turn
    assert form_prompt_string(opening, tools) == f"System: {head}\n\nAssistant: S\n\nAssistant:"
    assert form_prompt_string(opening) == "Assistant: System: S\n\nAssistant:"
    for messages, given_tools in ((opening, tools), (opening, None)):
        assert form_prompt_string(messages, given_tools) == _cleanlab(messages, given_tools)


def test_a_lone_user_text_is_returned_as_it_is() -> None:
    assert form_prompt_string([{"role": "user", "content": "  Hi  "}]) == "  Hi  "
    assert form_prompt_string([{"role": "user", "content": "Hi"}], []) == "Hi"


def test_errors_are_located_as_on_the_general_path() -> None:
    messages: list[Any] = [
        {"role": "user", "content": "Hi"},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function"}]},
    ]
    with pytest.raises(FormatError) as caught:
        form_prompt_string(messages)
    assert caught.value.path == "messages[1].tool_calls[0].function"
    with pytest.raises(InvalidTypeError) as refused:
        form_prompt_string([{"role": "user", "content": "Hi"}], tools=[1])
    assert refused.value.path == "tools[0]"
