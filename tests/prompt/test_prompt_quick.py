"""The quick path of `form_prompt_string`: plain Chat Completions dicts written directly.

A list of the common message shapes is written from the dicts without reading a history
(`strings._quick_chat`); anything else goes the general way. These tests pin the quick path
to the general one: the same string for any generated message list, with and without tools,
and the same errors, located in the same place.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from semantic_chat.errors import FormatError, InvalidTypeError
from semantic_chat.prompt import form_prompt_string, strings

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
    """Messages of the shapes the quick path takes, in any order, with any call ids."""
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


def _spoil(message: dict[str, Any], how: str) -> dict[str, Any]:
    """A message the quick path leaves to the general one (some the general one refuses)."""
    spoilt = dict(message)
    if how == "name":
        spoilt["name"] = "Ann"
    elif how == "extra key":
        spoilt["metadata"] = {"k": 1}
    elif how == "parts":
        spoilt["content"] = [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]
    elif how == "no content":
        spoilt.pop("content", None)
    elif how == "null content":
        spoilt["content"] = None
    elif how == "refusal":
        spoilt["refusal"] = "no"
    elif how == "error output":
        spoilt = {"role": "tool", "tool_call_id": "call_0", "content": "Error: boom"}
    elif how == "untyped call":
        spoilt = {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": "call_1", "function": {"name": "f", "arguments": "{}"}}],
        }
    elif how == "function role":
        spoilt = {"role": "function", "name": "f", "content": "out"}
    return spoilt


_SPOILS = [
    "name", "extra key", "parts", "no content", "null content", "refusal", "error output",
    "untyped call", "function role",
]


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


def _general(
    messages: Any, tools: Any, monkeypatch: pytest.MonkeyPatch
) -> str | BaseException:
    """The general path's string (quick path off), or the error it raises."""
    with monkeypatch.context() as patch:
        patch.setattr(strings, "_quick_chat", lambda messages: None)
        try:
            return form_prompt_string(messages, tools)
        except (FormatError, InvalidTypeError) as error:
            return error


def _quick(messages: Any, tools: Any) -> str | BaseException:
    try:
        return form_prompt_string(messages, tools)
    except (FormatError, InvalidTypeError) as error:
        return error


def _same(quick: str | BaseException, general: str | BaseException) -> None:
    if isinstance(general, BaseException):
        assert type(quick) is type(general)
        assert str(quick) == str(general)
    else:
        assert quick == general


@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(messages=_plain_messages(), tools=_tools())
def test_plain_messages_take_the_quick_path_and_match_the_general_one(
    messages: list[dict[str, Any]],
    tools: list[dict[str, Any]] | None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # an empty answer first goes the general way (tools before it prefix what follows)
    opens_empty = messages[0] == {"role": "assistant", "content": ""}
    assert (strings._quick_chat(messages) is None) == opens_empty
    before = json.dumps(messages)
    _same(_quick(messages, tools), _general(messages, tools, monkeypatch))
    assert json.dumps(messages) == before


@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(
    messages=_plain_messages(),
    tools=_tools(),
    spoils=st.lists(st.tuples(st.integers(0, 6), st.sampled_from(_SPOILS)), min_size=1, max_size=2),
)
def test_other_shapes_go_the_general_way(
    messages: list[dict[str, Any]],
    tools: list[dict[str, Any]] | None,
    spoils: list[tuple[int, str]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for index, how in spoils:
        messages[index % len(messages)] = _spoil(messages[index % len(messages)], how)
    _same(_quick(messages, tools), _general(messages, tools, monkeypatch))


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
    assert strings._quick_chat(messages) is not None
    assert form_prompt_string(messages) == (
        "System: Be brief.\n\nUse tools.\n\nUser: Weather in Bern?\n\n"
        'Assistant: <tool_call>\n{\n  "name": "get_weather",\n  "arguments": {\n'
        '    "city": "Bern"\n  },\n  "call_id": "c1"\n}\n</tool_call>\n\n'
        'Tool: <tool_response>\n{\n  "name": "get_weather",\n  "call_id": "c1",\n'
        '  "output": "12 C"\n}\n</tool_response>\n\n'
        'Tool: <tool_response>\n{\n  "name": "function",\n  "call_id": "c9",\n'
        '  "output": "late"\n}\n</tool_response>\n\n'
        "Assistant: 12 C in Bern.\n\nAssistant:"
    )


def test_tools_come_after_the_leading_system_block() -> None:
    tools = [{"type": "function", "function": {"name": "f", "parameters": {}}}]
    head = strings._tools_texts(tools)[1]
    assert form_prompt_string([{"role": "user", "content": "Hi"}], tools) == (
        f"System: {head}\n\nUser: Hi\n\nAssistant:"
    )
    assert form_prompt_string([{"role": "system", "content": "S"}], tools) == (
        f"System: S\n\n{head}\n\nAssistant:"
    )
    opening = [{"role": "assistant", "content": ""}, {"role": "system", "content": "S"}]
    assert strings._quick_chat(opening) is None  # the tools' system turn glues S to it
    assert form_prompt_string(opening, tools) == f"System: {head}\n\nS\n\nAssistant:"
    assert form_prompt_string(opening) == "System: S\n\nAssistant:"


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
    assert caught.value.path == "messages[1].tool_calls[0]"
    with pytest.raises(InvalidTypeError) as refused:
        form_prompt_string([{"role": "user", "content": "Hi"}], tools=[1])
    assert refused.value.path == "tools[0]"
