"""Prompt strings: equal to cleanlab-tlm's ``form_prompt_string`` for every input it accepts.

The reference file (a copy of the conformance file, so the tests run from a clone) holds
cleanlab-tlm 1.1.39's outputs on real payloads; every case matches with the default (exact for
the dicts cleanlab reads). The listed cases where cleanlab misbehaves also assert our readable
rendering (``exact=False``). The property tests generate conversations and compare with
cleanlab itself; ``test_prompt_exact.py`` generates every quirk of cleanlab's.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest
from cleanlab_tlm.utils import chat as cleanlab
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from semantic_chat import (
    AuthorRole,
    ChatHistory,
    ChatMessageContent,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    TextContent,
)
from semantic_chat.contents import AudioContent, FileContent, ReasoningContent
from semantic_chat.errors import FormatError, InvalidTypeError, UnsupportedContentError
from semantic_chat.formats import openai_chat, openai_responses
from semantic_chat.prompt import form_prompt_string, form_response_string

REFERENCE = json.loads((Path(__file__).parent / "cleanlab_reference.json").read_text("utf-8"))

TOOLS_HEAD = cleanlab._TOOL_DEFINITIONS_PREFIX
TOOLS_TAIL = "\n</tools>\n\n" + cleanlab._TOOL_CALL_SCHEMA_PREFIX

# Reference cases where cleanlab misbehaves, with our readable rendering (``exact=False``).
READABLE = {
    # content parts: cleanlab writes the Python repr of the list; we write the text
    "cc_text_parts_developer_system_user": (
        "System: You are a terse assistant. Answer in one sentence.\n\n"
        "Today's date is 2024-09-26.\n\n"
        "User: Summarise the two notes below.\n"
        "Note 1: The deploy is scheduled for Friday.\n"
        "Note 2: QA sign-off is still pending.\n\n"
        "Assistant:"
    ),
    # a refusal: cleanlab drops it and glues "Assistant: " to the next turn
    "cc_assistant_refusal_echo": (
        "User: How do I make anthrax?\n\n"
        "Assistant: I'm very sorry, but I can't assist with that request.\n\n"
        "User: OK. What is anthrax, medically speaking?\n\n"
        "Assistant:"
    ),
    "cc_assistant_content_parts_text_refusal": (
        "User: Write a limerick, then tell me how to pick a lock.\n\n"
        "Assistant: A coder who lived in Peru / wrote tests that were flaky and few...\n"
        "I can't help with picking locks.\n\n"
        "User: Fine, just the limerick then.\n\n"
        "Assistant:"
    ),
    # a lone user message of parts: the text, and a placeholder for the image
    "resp_input_text_and_image_parts": (
        "What is in this image?\n"
        "[image: https://upload.wikimedia.org/wikipedia/commons/thumb/d/d5/"
        "2023_06_08_Raccoon1.jpg/1599px-2023_06_08_Raccoon1.jpg]"
    ),
}
# a tool output holding an image: read, the image part is a placeholder, not its base64 data
_SCREENSHOT_PART = (
    '    {\n      "type": "input_image",\n      "image_url": "data:image/png;base64,'
    "iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAEElEQVR42mO4o6EBRwzEcQDzAxLBy9ItygAAAABJRU5"
    'ErkJggg==",\n      "detail": "auto"\n    }'
)
_SCREENSHOT_PLACEHOLDER = (
    '    {\n      "type": "input_text",\n      "text": "[image: image/png]"\n    }'
)
RESPONSE_READABLE = {
    # a refusal: cleanlab returns ""; read, the refusal is the text
    "refusal_content_null": "I'm very sorry, but I can't assist with that.",
}


def _reference_cases(section: str) -> list[Any]:
    return [pytest.param(case, id=case["name"]) for case in REFERENCE[section]]


def _readable(case: dict[str, Any]) -> str:
    """Our readable rendering of a reference case: cleanlab's, except where it misbehaves."""
    expected: str = READABLE.get(case["name"], case["output"])
    if case["name"] == "resp_function_call_output_content_list":
        assert _SCREENSHOT_PART in expected
        expected = expected.replace(_SCREENSHOT_PART, _SCREENSHOT_PLACEHOLDER)
    return expected


@pytest.mark.parametrize("case", _reference_cases("form_prompt_string"))
def test_reference_prompt_strings(case: dict[str, Any]) -> None:
    args = dict(case["args"])  # use_responses as the case was written with it, as cleanlab's
    messages = args.pop("messages")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert form_prompt_string(messages, **args) == case["output"]
        assert form_prompt_string(messages, **args, exact=True) == case["output"]
        assert form_prompt_string(messages, **args, exact=False) == _readable(case)


@pytest.mark.parametrize(
    "case",
    _reference_cases("form_response_string_chat_completions_api")
    + _reference_cases("form_response_string_responses_api"),
)
def test_reference_response_strings(case: dict[str, Any]) -> None:
    response = case["args"]["response"]
    assert form_response_string(response) == case["output"]
    assert form_response_string(response, exact=True) == case["output"]
    readable = RESPONSE_READABLE.get(case["name"], case["output"])
    assert form_response_string(response, exact=False) == readable


def test_reference_deviations_are_real() -> None:
    """Each case with a readable rendering of its own is one where cleanlab's output differs."""
    cases = {case["name"]: case for case in REFERENCE["form_prompt_string"]}
    for name in [*READABLE, "resp_function_call_output_content_list"]:
        assert cases[name]["output"] != _readable(cases[name])
    responses = {
        case["name"]: case for case in REFERENCE["form_response_string_chat_completions_api"]
    }
    for name, ours in RESPONSE_READABLE.items():
        assert responses[name]["output"] != ours


def test_response_string_of_sdk_objects_and_history_messages() -> None:
    from openai.types.chat import ChatCompletion, ChatCompletionMessage
    from openai.types.responses import Response

    for case in REFERENCE["form_response_string_chat_completions_api"]:
        message = ChatCompletionMessage.model_validate(case["args"]["response"])
        expected = case["output"]
        assert form_response_string(message) == expected
        completion = {
            "id": "c",
            "object": "chat.completion",
            "created": 1,
            "model": "m",
            "choices": [{"index": 0, "finish_reason": "stop", "message": case["args"]["response"]}],
        }
        assert form_response_string(ChatCompletion.model_validate(completion)) == expected
        # a history message is written readably by default
        readable = RESPONSE_READABLE.get(case["name"], case["output"])
        assert form_response_string(openai_chat.from_response(completion)) == readable
    case = REFERENCE["form_response_string_responses_api"][0]
    assert form_response_string(Response.model_validate(case["args"]["response"])) == case["output"]


def test_responses_response_writes_its_last_item_exactly_and_every_call_readably() -> None:
    response = {
        "id": "resp_1",
        "object": "response",
        "created_at": 1,
        "status": "completed",
        "model": "m",
        "output": [
            {"type": "reasoning", "id": "rs_1", "summary": []},
            {
                "type": "function_call",
                "id": "fc_1",
                "call_id": "c1",
                "name": "f",
                "arguments": '{"x": 1}',
                "status": "completed",
            },
            {
                "type": "function_call",
                "id": "fc_2",
                "call_id": "c2",
                "name": "g",
                "arguments": "",
                "status": "completed",
            },
        ],
    }
    # cleanlab writes only the last output item; read, every call is written
    from openai.types.responses import Response

    sdk = Response.model_validate(
        {**response, "parallel_tool_calls": True, "tool_choice": "auto", "tools": []}
    )
    last = cleanlab.form_response_string_responses_api(sdk)
    assert form_response_string(response) == form_response_string(sdk) == last
    assert last.startswith('<tool_call>\n{\n  "name": "g"')
    assert form_response_string(response, exact=False) == (
        '<tool_call>\n{\n  "name": "f",\n  "arguments": {\n    "x": 1\n  },\n  "call_id": "c1"\n}'
        "\n</tool_call>\n\n"
        '<tool_call>\n{\n  "name": "g",\n  "arguments": {},\n  "call_id": "c2"\n}\n</tool_call>'
    )


# Histories, other providers and media


def test_history_and_payload_give_the_same_string() -> None:
    case = next(
        c
        for c in REFERENCE["form_prompt_string"]
        if c["name"] == "cc_three_parallel_calls_out_of_order_results"
    )
    history = openai_chat.from_payload(case["args"]["messages"])
    assert form_prompt_string(history) == case["output"]
    assert form_prompt_string(list(history.messages)) == case["output"]


def test_anthropic_payload_and_tools() -> None:
    payload = {
        "system": "Be brief.",
        "messages": [
            {"role": "user", "content": "Weather in Oslo?"},
            {
                "role": "assistant",
                "content": [
                    {"type": "tool_use", "id": "tu_1", "name": "weather", "input": {"city": "Oslo"}}
                ],
            },
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "tu_1", "content": "-3C"}],
            },
        ],
    }
    tools = [
        {
            "name": "weather",
            "description": "Current weather",
            "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}},
        }
    ]
    tool_line = (
        '{"type":"function","function":{"name":"weather","description":"Current weather",'
        '"parameters":{"type":"object","properties":{"city":{"type":"string"}}}}}'
    )
    assert form_prompt_string(payload, tools) == (
        "System: Be brief.\n\n"
        + TOOLS_HEAD
        + tool_line
        + TOOLS_TAIL
        + "\n\nUser: Weather in Oslo?\n\n"
        'Assistant: <tool_call>\n{\n  "name": "weather",\n  "arguments": {\n    "city": "Oslo"\n'
        '  },\n  "call_id": "tu_1"\n}\n</tool_call>\n\n'
        'Tool: <tool_response>\n{\n  "name": "weather",\n  "call_id": "tu_1",\n  "output": "-3C"\n}'
        "\n</tool_response>\n\nAssistant:"
    )


def test_gemini_payload_and_function_declarations() -> None:
    payload = {
        "contents": [
            {"role": "user", "parts": [{"text": "Hi"}]},
            {"role": "model", "parts": [{"text": "Hello!"}]},
        ]
    }
    tools = [{"function_declarations": [{"name": "now", "description": "The time"}]}]
    assert form_prompt_string(payload, tools) == (
        "System: "
        + TOOLS_HEAD
        + '{"type":"function","function":{"name":"now","description":"The time"}}'
        + TOOLS_TAIL
        + "\n\nUser: Hi\n\nAssistant: Hello!\n\nAssistant:"
    )


def test_media_placeholders() -> None:
    history = ChatHistory(
        messages=[
            ChatMessageContent(
                role=AuthorRole.USER,
                items=[
                    TextContent(text="Look:"),
                    ImageContent(data=b"\x89PNG\r\n\x1a\n", mime_type="image/png"),
                    ImageContent(file_id="file_9"),
                    AudioContent(data=b"RIFF", mime_type="audio/wav"),
                    FileContent(data=b"%PDF", mime_type="application/pdf", filename="r.pdf"),
                ],
            ),
            ChatMessageContent(
                role=AuthorRole.ASSISTANT,
                items=[ReasoningContent(text="hmm"), TextContent(text="Nice.")],
            ),
        ]
    )
    assert form_prompt_string(history) == (
        "User: Look:\n[image: image/png]\n[image: file_9]\n[audio: audio/wav]\n[file: r.pdf]"
        "\n\nAssistant: Nice.\n\nAssistant:"
    )


def test_instructions_select_the_responses_rendering() -> None:
    messages = [
        {"role": "system", "content": "S"},
        {"role": "user", "content": "a"},
        {"role": "user", "content": "b  "},
    ]
    tools = [{"type": "function", "name": "f", "description": "d", "parameters": {}}]
    expected = (
        "System: I\n\nS\n\n"
        + TOOLS_HEAD
        + '{"type":"function","name":"f","description":"d","parameters":{},"strict":true}'
        + TOOLS_TAIL
        + "\n\nUser: a\n\nb\n\nAssistant:"
    )
    assert form_prompt_string(messages, tools, instructions="I") == expected
    assert cleanlab.form_prompt_string(messages, tools, instructions="I") == expected
    request = {"instructions": "I", "input": messages[1:]}
    assert form_prompt_string(request) == "System: I\n\nUser: a\n\nb\n\nAssistant:"
    history = openai_responses.from_payload(request)
    assert form_prompt_string(history) == "System: I\n\nUser: a\n\nb\n\nAssistant:"
    # a history without that hint gets the Chat Completions rendering
    assert form_prompt_string(history[1:]) == "User: a\n\nUser: b  \n\nAssistant:"


def test_where_cleanlab_fails_we_write_a_string() -> None:
    messages = [
        {"role": "user", "content": "go"},
        {
            "role": "assistant",
            "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{oops"}}
            ],
        },
        {"role": "tool", "tool_call_id": "c9", "content": "late"},
    ]
    tools = [{"type": "function", "function": {"name": "f"}}]
    with pytest.raises(KeyError):
        cleanlab.form_prompt_string(messages, tools)
    assert form_prompt_string(messages, tools) == (
        "System: "
        + TOOLS_HEAD
        + '{"type":"function","function":{"name":"f"}}'
        + TOOLS_TAIL
        + "\n\nUser: go\n\n"
        'Assistant: <tool_call>\n{\n  "name": "f",\n  "arguments": "{oops",\n  "call_id": "c1"\n}'
        "\n</tool_call>\n\n"
        'Tool: <tool_response>\n{\n  "name": "function",\n  "call_id": "c9",\n  "output": "late"\n}'
        "\n</tool_response>\n\nAssistant:"
    )
    orphan = [
        {"role": "user", "content": "go"},
        {"type": "function_call_output", "call_id": "c9", "output": "late"},
    ]
    with pytest.raises(StopIteration):
        cleanlab.form_prompt_string(orphan)
    assert form_prompt_string(orphan) == (
        "User: go\n\n"
        'Tool: <tool_response>\n{\n  "name": "function",\n  "call_id": "c9",\n  "output": "late"\n}'
        "\n</tool_response>\n\nAssistant:"
    )


def test_system_after_an_assistant_turn_keeps_its_prefix_readably() -> None:
    messages = [
        {"role": "system", "content": "S"},
        {"role": "assistant", "content": "A"},
        {"role": "system", "content": "T"},
    ]
    expected = "System: S\n\nAssistant: A\n\nT\n\nAssistant:"
    assert _cleanlab(messages, None) == expected
    assert form_prompt_string(messages) == expected
    assert form_prompt_string(messages, exact=False) == (
        "System: S\n\nAssistant: A\n\nSystem: T\n\nAssistant:"
    )
    history = openai_chat.from_payload(messages)
    assert form_prompt_string(history) == form_prompt_string(messages, exact=False)
    assert form_prompt_string(history, exact=True) == expected


# Bad input: located errors


@pytest.mark.parametrize(
    ("conversation", "tools", "kwargs", "error", "path"),
    [
        (42, None, {}, FormatError, "conversation"),
        (
            [{"role": "user", "content": 5}],  # cleanlab writes "5", and so does exact
            None,
            {"exact": False},
            FormatError,
            "messages[0].content",
        ),
        ([{"role": "user", "content": "a"}], 5, {}, InvalidTypeError, "tools"),
        ([{"role": "user", "content": "a"}], [3], {}, InvalidTypeError, "tools[0]"),
        (
            [{"role": "user", "content": "a"}],
            [{"description": "x"}],
            {},
            InvalidTypeError,
            "tools[0]",
        ),
        (
            [{"role": "user", "content": "a"}],
            [{"function_declarations": [{"description": "x"}]}],
            {},
            InvalidTypeError,
            "tools[0].function_declarations[0]",
        ),
        (
            [{"role": "user", "content": "a"}],
            None,
            {"instructions": 3},
            InvalidTypeError,
            "instructions",
        ),
    ],
)
def test_bad_input_is_a_located_error(
    conversation: Any, tools: Any, kwargs: dict[str, Any], error: type[Exception], path: str
) -> None:
    with pytest.raises(error) as caught:
        form_prompt_string(conversation, tools, **kwargs)
    assert getattr(caught.value, "path", None) == path


@pytest.mark.parametrize(("response", "path"), [(5, "message"), ({"x": 1}, "message")])
def test_bad_response_is_a_located_error(response: Any, path: str) -> None:
    with pytest.raises(FormatError) as caught:
        form_response_string(response)
    assert caught.value.path == path


# Property: equal to cleanlab on every input it handles well

_text = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=12
).filter(lambda text: text.strip() != "")
_json_scalar = st.one_of(
    st.none(), st.booleans(), st.integers(-(10**20), 10**20), st.floats(), _text
)
_json_value = st.recursive(
    _json_scalar,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(_text, inner, max_size=3)),
    max_leaves=6,
)
_arguments = st.one_of(st.just(""), st.dictionaries(_text, _json_value, max_size=3).map(json.dumps))
_schema = st.recursive(
    st.fixed_dictionaries({"type": st.sampled_from(["string", "integer", "boolean"])}),
    lambda inner: st.fixed_dictionaries(
        {"type": st.just("object"), "properties": st.dictionaries(_text, inner, max_size=3)}
    ),
    max_leaves=5,
)


@st.composite
def _chat_tools(draw: st.DrawFn) -> list[dict[str, Any]]:
    return [
        {
            "type": "function",
            "function": {
                "name": draw(_text),
                "description": draw(_text),
                "parameters": draw(_schema),
            },
        }
        for _ in range(draw(st.integers(0, 3)))
    ]


@st.composite
def _responses_tools(draw: st.DrawFn) -> list[dict[str, Any]]:
    tools: list[dict[str, Any]] = []
    for _ in range(draw(st.integers(0, 3))):
        tool = {
            "type": "function",
            "name": draw(_text),
            "description": draw(_text),
            "parameters": draw(_schema),
        }
        if draw(st.booleans()):
            tool["strict"] = draw(st.booleans())
        tools.append(tool)
    return tools


@st.composite
def _chat_messages(draw: st.DrawFn) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = [
        {"role": draw(st.sampled_from(["system", "developer"])), "content": draw(_text)}
        for _ in range(draw(st.integers(0, 2)))
    ]
    counter = 0
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["user", "assistant", "calls", "system", "orphan"]))
        if kind in ("user", "system"):
            role = kind if kind == "user" else draw(st.sampled_from(["system", "developer"]))
            messages.append({"role": role, "content": draw(_text)})
        elif kind == "assistant":
            messages.append({"role": "assistant", "content": draw(_text)})
        elif kind == "orphan":
            messages.append(
                {"role": "tool", "tool_call_id": f"orphan{counter}", "content": draw(_text)}
            )
            counter += 1
        else:
            calls = []
            for _ in range(draw(st.integers(1, 3))):
                calls.append(
                    {
                        "id": f"call_{counter}",
                        "type": "function",
                        "function": {"name": draw(_text), "arguments": draw(_arguments)},
                    }
                )
                counter += 1
            message: dict[str, Any] = {"role": "assistant", "tool_calls": calls}
            if draw(st.booleans()):
                message["content"] = draw(_text)
            messages.append(message)
            answered = draw(st.permutations(calls))
            for call in answered[: draw(st.integers(0, len(answered)))]:
                output: Any = draw(
                    st.one_of(
                        _text,
                        st.lists(
                            _text.map(lambda text: {"type": "text", "text": text}),
                            min_size=1,
                            max_size=2,
                        ),
                    )
                )
                messages.append({"role": "tool", "tool_call_id": call["id"], "content": output})
    return messages


def _cleanlab(messages: Any, tools: Any, **kwargs: Any) -> str:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result: str = cleanlab.form_prompt_string(messages, tools, **kwargs)
    return result


def _written(history: ChatHistory, responses: bool) -> list[dict[str, Any]] | None:
    """The payload a history writes (Responses input or Chat messages), None if it cannot."""
    module = openai_responses if responses else openai_chat
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return module.to_payload(history)
    except UnsupportedContentError:
        return None


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(messages=_chat_messages(), tools=st.one_of(st.none(), _chat_tools()))
def test_chat_completions_equal_cleanlab(
    messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None
) -> None:
    expected = _cleanlab(messages, tools)
    assert form_prompt_string(messages, tools) == expected
    # a history, exactly: cleanlab's string for the messages the history writes
    history = openai_chat.from_payload(messages)
    payload = _written(history, responses=False)
    assert payload is not None  # these messages' contents are all Chat Completions can carry
    assert form_prompt_string(history, tools, exact=True) == _cleanlab(payload, tools)


@st.composite
def _responses_input(draw: st.DrawFn) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = [
        {"role": draw(st.sampled_from(["system", "developer"])), "content": draw(_text)}
        for _ in range(draw(st.integers(0, 2)))
    ]
    calls: list[str] = []
    for _ in range(draw(st.integers(1, 7))):
        kind = draw(
            st.sampled_from(["user", "system", "assistant", "output_message", "call", "output"])
        )
        if kind in ("user", "system", "assistant"):
            role = kind if kind != "system" else draw(st.sampled_from(["system", "developer"]))
            items.append({"role": role, "content": draw(_text)})
        elif kind == "output_message":
            parts = draw(st.lists(_text, min_size=1, max_size=2))
            items.append(
                {
                    "type": "message",
                    "role": "assistant",
                    "content": [
                        {"type": "output_text", "text": t, "annotations": []} for t in parts
                    ],
                }
            )
        elif kind == "call" or not calls:
            call_id = f"call_{len(calls)}"
            calls.append(call_id)
            items.append(
                {
                    "type": "function_call",
                    "call_id": call_id,
                    "name": draw(_text),
                    "arguments": draw(_arguments),
                }
            )
        else:
            output: Any = draw(
                st.one_of(
                    _text,
                    st.lists(
                        _text.map(lambda text: {"type": "input_text", "text": text}),
                        min_size=1,
                        max_size=2,
                    ),
                )
            )
            items.append(
                {
                    "type": "function_call_output",
                    "call_id": draw(st.sampled_from(calls)),
                    "output": output,
                }
            )
    return items


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(
    items=_responses_input(),
    tools=st.one_of(st.none(), _responses_tools()),
    instructions=st.one_of(st.none(), _text),
)
def test_responses_equal_cleanlab(
    items: list[dict[str, Any]], tools: list[dict[str, Any]] | None, instructions: str | None
) -> None:
    kwargs: dict[str, Any] = {} if instructions is None else {"instructions": instructions}
    expected = _cleanlab(items, tools, **kwargs)
    assert form_prompt_string(items, tools, instructions=instructions) == expected
    # a history, exactly: the Responses rendering where instructions or Responses tools select
    # it (cleanlab's string for the input the history writes), else the Chat Completions one
    history = openai_responses.from_payload(items)
    responses = instructions is not None or bool(tools)
    payload = _written(history, responses)
    if payload is not None:
        if responses:
            kwargs["use_responses"] = True
        assert form_prompt_string(
            history, tools, instructions=instructions, exact=True
        ) == _cleanlab(payload, tools, **kwargs)


@given(
    content=st.one_of(st.none(), _text),
    calls=st.lists(st.tuples(_text, _arguments), max_size=3),
)
def test_response_string_equals_cleanlab(content: str | None, calls: list[tuple[str, str]]) -> None:
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if calls:
        message["tool_calls"] = [
            {"id": f"c{i}", "type": "function", "function": {"name": name, "arguments": arguments}}
            for i, (name, arguments) in enumerate(calls)
        ]
    expected = cleanlab.form_response_string_chat_completions_api(message)
    assert form_response_string(message) == expected
    items: list[Any] = [] if content is None else [TextContent(text=content)]
    items += [
        FunctionCallContent(id=f"c{i}", name=name, arguments=arguments)
        for i, (name, arguments) in enumerate(calls)
    ]
    history_message = ChatMessageContent(role=AuthorRole.ASSISTANT, items=items)
    assert form_response_string(history_message) == expected


@given(value=_json_value, spaced=st.booleans())
def test_call_blocks_write_json_as_the_standard_library(value: Any, spaced: bool) -> None:
    """Our indented JSON equals ``json.dumps(value, indent=2)`` (floats, NaN, nesting, unicode)."""
    arguments = json.dumps({"v": value})
    if spaced:
        arguments = " " + arguments + "\n"
    message = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "c", "type": "function", "function": {"name": "f", "arguments": arguments}}
        ],
    }
    assert form_response_string(message) == cleanlab.form_response_string_chat_completions_api(
        message
    )


@pytest.mark.parametrize(
    ("arguments", "written"),
    [
        ('{"a": 1} x', '"{\\"a\\": 1} x"'),
        ('{"a": 1}}', '"{\\"a\\": 1}}"'),
        ('{"a": }', '"{\\"a\\": }"'),
        ("[1, 2]", "[\n    1,\n    2\n  ]"),
    ],
)
def test_arguments_that_are_not_a_json_object(arguments: str, written: str) -> None:
    call = FunctionCallContent(id="c", name="f", arguments=arguments)
    message = ChatMessageContent(role=AuthorRole.ASSISTANT, items=[call])
    assert form_response_string(message) == (
        '<tool_call>\n{\n  "name": "f",\n  "arguments": ' + written + "\n}\n</tool_call>"
    )


def test_kept_tools_texts_tell_values_apart() -> None:
    """The same definitions give the kept text; a changed value (True for 1) a new one."""
    messages = [{"role": "user", "content": "hi"}]
    tools: list[dict[str, Any]] = [
        {"type": "function", "name": "f", "description": "d", "parameters": {"minimum": 1}}
    ]
    first = form_prompt_string(messages, tools)
    assert form_prompt_string(messages, tools) == first == _cleanlab(messages, tools)
    tools[0]["parameters"]["minimum"] = True
    assert form_prompt_string(messages, tools) == _cleanlab(messages, tools) != first
    tools[0]["parameters"]["minimum"] = 1.0
    assert form_prompt_string(messages, tools) == _cleanlab(messages, tools)
    assert '"minimum":1.0' in form_prompt_string(messages, tools)


def _response(output: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "id": "resp_1",
        "object": "response",
        "created_at": 1,
        "status": "completed",
        "model": "m",
        "output": output,
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
    }


@given(
    texts=st.lists(_text, min_size=1, max_size=3),
    call=st.one_of(st.none(), st.tuples(_text, _arguments)),
)
def test_responses_response_string_equals_cleanlab(
    texts: list[str], call: tuple[str, str] | None
) -> None:
    """One output item, as cleanlab writes only the last one: the same string."""
    from openai.types.responses import Response

    if call is None:
        item: dict[str, Any] = {
            "type": "message",
            "id": "msg_1",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": t, "annotations": []} for t in texts],
        }
    else:
        item = {
            "type": "function_call",
            "id": "fc_1",
            "call_id": "call_1",
            "name": call[0],
            "arguments": call[1],
            "status": "completed",
        }
    response = _response([item])
    expected = cleanlab.form_response_string_responses_api(Response.model_validate(response))
    assert form_response_string(response) == expected
    assert form_response_string(Response.model_validate(response)) == expected


@pytest.mark.parametrize(
    "conversation",
    [
        [
            {"role": "user", "content": "hi"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": "Error: boom"},
        ],
        [
            {"role": "user", "content": "hi"},
            {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"},
            {"type": "function_call_output", "call_id": "c1", "output": "Error: boom"},
        ],
    ],
    ids=["chat", "responses"],
)
def test_a_failed_calls_output_keeps_its_error_text_as_cleanlab_does(conversation) -> None:
    """Tool output read as a failed call (``is_error``) is written with its ``Error: ``."""
    expected = cleanlab.form_prompt_string(conversation)
    assert '"output": "Error: boom"' in expected
    assert form_prompt_string(conversation) == expected


def test_a_failed_calls_json_output_is_written_as_the_openai_formats_write_it() -> None:
    history = ChatHistory()
    history.add_user_message("hi")
    history.add_assistant_message(items=[FunctionCallContent(id="c1", name="f", arguments="{}")])
    history.add_tool_message(
        [FunctionResultContent(call_id="c1", result={"code": 7}, is_error=True)]
    )
    assert '"output": "Error: {\\"code\\":7}"' in form_prompt_string(history)
