"""`Run`, `ToolRun` and `ChatResponse`: the record of a request, and the per-role constructors.

The Prompt API proposal's London weather example (two runs, ``get_weather``, usage 279 + 319 =
598) is built, serialized, read back and shown with exact values; the views, ``to_messages``,
``from_messages`` and ``accumulate`` give exact results; bad input is refused where it is;
hypothesis round-trips generated responses through JSON and through messages.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import math
import threading
import time
from typing import Any, Literal

import attrs
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import json_values, reasoning_items, text_items, usages

import semantic_chat
from semantic_chat import (
    AuthorRole,
    ChatHistory,
    ChatMessageContent,
    FinishReason,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    InvalidTypeError,
    InvalidValueError,
    ReasoningContent,
    SerializationError,
    StreamingChatMessageContent,
    StreamingFunctionCallContent,
    StreamingReasoningContent,
    StreamMergeError,
    TextContent,
    Usage,
    assistant,
    system,
    tool,
    user,
)
from semantic_chat.serialization import from_dict, from_json, make_converter, to_dict, to_json
from semantic_chat.tools.runs import ChatResponse, Run, ToolRun

# --- the Prompt API example ------------------------------------------------------------------

FIRST_THINKING = "1.  **Analyze the user's request:** The user is asking ..."
SECOND_THINKING = "The user is asking for the current weather in ..."
WEATHER = "The weather in London in Sunny, 20 degrees celsius."
ANSWER = "The current weather in London is sunny with a temperature of 20 degrees."
DURATION_MS = 0.13499999791383743


def london() -> ChatResponse:
    """The proposal's ``RequestResult`` for "What's the weather in London?", in our model."""
    first = Run(
        assistant(
            [
                ReasoningContent(FIRST_THINKING),
                FunctionCallContent("toolcall_3", "get_weather", {"location": "London"}),
            ]
        ),
        usage=Usage(prompt_tokens=123, completion_tokens=156, total_tokens=279),
    )
    first.add_result(
        FunctionResultContent("toolcall_3", [TextContent(WEATHER)]), duration=DURATION_MS / 1000
    )
    second = Run(
        assistant([ReasoningContent(SECOND_THINKING), ANSWER]),
        usage={"prompt_tokens": 167, "completion_tokens": 152, "total_tokens": 319},
    )
    return ChatResponse([first, second], done=True)


CALL = {"type": "function_call", "id": "toolcall_3", "name": "get_weather",
        "arguments": {"location": "London"}}
LONDON_DICT = {
    "runs": [
        {
            "message": {
                "role": "assistant",
                "items": [{"type": "reasoning", "text": FIRST_THINKING}, CALL],
                "usage": {"prompt_tokens": 123, "completion_tokens": 156, "total_tokens": 279},
            },
            "tool_calls": [
                {
                    "call": CALL,
                    "result": {
                        "type": "function_result",
                        "call_id": "toolcall_3",
                        "result_items": [{"type": "text", "text": WEATHER}],
                    },
                    "duration": 0.00013499999791383743,
                }
            ],
        },
        {
            "message": {
                "role": "assistant",
                "items": [
                    {"type": "reasoning", "text": SECOND_THINKING},
                    {"type": "text", "text": ANSWER},
                ],
                "usage": {"prompt_tokens": 167, "completion_tokens": 152, "total_tokens": 319},
            }
        },
    ]
}

LONDON_STR = """\
run 1 · tokens 123 in + 156 out = 279
   [reasoning] 1. **Analyze the user's request:** The user is asking ...
   [tool call toolcall_3] get_weather({"location": "London"})
     -> [tool result toolcall_3] The weather in London in Sunny, 20 degrees celsius. · 0.135 ms

run 2 · tokens 167 in + 152 out = 319
   [reasoning] The user is asking for the current weather in ...
   The current weather in London is sunny with a temperature of 20 degrees.

done · 2 runs · tokens 290 in + 308 out = 598"""


def test_london_usage_adds_up_to_598() -> None:
    response = london()
    assert [run.usage for run in response.runs] == [Usage(123, 156, 279), Usage(167, 152, 319)]
    assert response.usage == Usage(prompt_tokens=290, completion_tokens=308, total_tokens=598)
    assert response.done is True


def test_london_views() -> None:
    response = london()
    assert response.text == ANSWER
    assert response.thinking == FIRST_THINKING + "\n" + SECOND_THINKING
    assert [run.text for run in response.runs] == ["", ANSWER]
    assert [run.thinking for run in response.runs] == [FIRST_THINKING, SECOND_THINKING]
    [weather] = response.tool_calls
    assert (weather.id, weather.name, weather.output) == (
        "toolcall_3", "get_weather", [TextContent(WEATHER)]
    )
    assert weather.call.parse_arguments() == {"location": "London"}
    assert weather.duration == 0.00013499999791383743
    assert weather.call is response.runs[0].message.items[1]
    assert response.runs[0].pending == []
    assert response.runs[0].results == [FunctionResultContent("toolcall_3", [TextContent(WEATHER)])]


def test_london_serialized_exactly_and_read_back() -> None:
    response = london()
    assert to_dict(response) == LONDON_DICT
    text = to_json(response)
    assert json.loads(text) == LONDON_DICT
    back = from_json(text, ChatResponse)
    assert back == response
    assert to_json(back) == text
    assert back.usage == Usage(290, 308, 598)
    # the read run shares its calls with its message, as a built one does
    assert back.runs[0].tool_calls[0].call is back.runs[0].message.items[1]
    assert from_dict(LONDON_DICT["runs"][0], Run) == response.runs[0]


def test_london_shown() -> None:
    response = london()
    assert str(response) == LONDON_STR
    assert str(response.runs[1]) == (
        "run · tokens 167 in + 152 out = 319\n"
        "   [reasoning] The user is asking for the current weather in ...\n"
        "   The current weather in London is sunny with a temperature of 20 degrees."
    )
    assert str(response.tool_calls[0]) == (
        '[tool call toolcall_3] get_weather({"location": "London"}) -> '
        "[tool result toolcall_3] The weather in London in Sunny, 20 degrees celsius. · 0.135 ms"
    )
    assert repr(response.tool_calls[0]) == (
        "ToolRun(call=FunctionCallContent(id='toolcall_3', name='get_weather', "
        "arguments={'location': 'London'}, index=None), "
        "result=FunctionResultContent(call_id='toolcall_3', "
        "result=[TextContent(text='The weather in London in Sunny, 20 degrees celsius.')], "
        "name=None, is_error=False), duration=0.00013499999791383743)"
    )
    assert repr(response.runs[1]) == (
        "Run(message=ChatMessageContent(role='assistant', items=["
        "ReasoningContent(text='The user is asking for the current weather in ...', "
        "signature=None, encrypted=None, provider=None), "
        "TextContent(text='The current weather in London is sunny with a temperature of "
        "20 degrees.')], usage=Usage(prompt_tokens=167, completion_tokens=152, "
        "total_tokens=319, cached_tokens=None, reasoning_tokens=None, "
        "cache_creation_tokens=None)), tool_calls=[])"
    )
    assert repr(response).startswith("ChatResponse(runs=[Run(message=ChatMessageContent(")
    assert repr(response).endswith(", tool_calls=[])], done=True)")


def test_london_to_messages_is_the_history() -> None:
    response = london()
    messages = response.to_messages()
    assert [str(message.role) for message in messages] == ["assistant", "tool", "assistant"]
    assert messages[0] is response.runs[0].message
    assert messages[1] == tool([FunctionResultContent("toolcall_3", [TextContent(WEATHER)])])
    history = ChatHistory([user("What's the weather in London?"), *messages])
    assert from_json(to_json(history), ChatHistory) == history
    rebuilt = ChatResponse.from_messages(messages)
    assert rebuilt.tool_calls[0].duration is None
    rebuilt.tool_calls[0].duration = DURATION_MS / 1000
    assert rebuilt == response


# --- ToolRun ---------------------------------------------------------------------------------


def test_tool_run_defaults_and_conversions() -> None:
    call = FunctionCallContent("c1", "f", "{}")
    run = ToolRun(call)
    assert (run.result, run.duration, run.output) == (None, None, None)
    assert str(run) == "[tool call c1] f({}) -> (no result yet)"
    run.duration = 2
    assert run.duration == 2.0
    assert type(run.duration) is float
    run.duration = np.float32(0.5)
    assert run.duration == 0.5
    assert type(run.duration) is float
    run.result = FunctionResultContent(None, "ok")  # no id to disagree with
    assert run.output == "ok"
    assert str(run) == "[tool call c1] f({}) -> [tool result c1] ok · 500 ms"
    run.duration = 12.5
    assert str(run).endswith(" · 12.5 s")


@pytest.mark.parametrize(
    ("fields", "error", "message"),
    [
        ({"call": "f"}, InvalidTypeError, "call: expected a FunctionCallContent, got str"),
        (
            {"result": "ok"},
            InvalidTypeError,
            "result: expected a FunctionResultContent or None, got str",
        ),
        ({"duration": "1s"}, InvalidTypeError, "duration: expected a number of seconds or None, got str"),
        ({"duration": True}, InvalidTypeError, "duration: expected a number of seconds or None, got bool"),
        (
            {"duration": -0.5},
            InvalidValueError,
            "duration: expected a finite number of seconds, 0 or more, got -0.5",
        ),
        (
            {"duration": math.nan},
            InvalidValueError,
            "duration: expected a finite number of seconds, 0 or more, got nan",
        ),
        (
            {"result": FunctionResultContent("c2", "ok")},
            InvalidValueError,
            "result.call_id: answers call 'c2', not this call 'c1'",
        ),
    ],
)
def test_tool_run_refuses_bad_fields(
    fields: dict[str, Any], error: type[Exception], message: str
) -> None:
    arguments: dict[str, Any] = {"call": FunctionCallContent("c1", "f"), **fields}
    with pytest.raises(error) as raised:
        ToolRun(**arguments)
    assert str(raised.value) == message
    good = ToolRun(FunctionCallContent("c1", "f"))
    [(name, value)] = fields.items()
    with pytest.raises(error) as raised:
        setattr(good, name, value)
    assert str(raised.value) == message
    assert good == ToolRun(FunctionCallContent("c1", "f"))  # a refused assignment changes nothing


def test_tool_run_refuses_a_call_its_result_does_not_answer() -> None:
    run = ToolRun(FunctionCallContent("c1", "f"), FunctionResultContent("c1", "ok"))
    with pytest.raises(InvalidValueError, match=r"^result\.call_id: answers call 'c1', not this call 'c9'$"):
        run.call = FunctionCallContent("c9", "f")


# --- Run -------------------------------------------------------------------------------------


def two_calls() -> ChatMessageContent:
    return assistant(
        items=[
            TextContent("Checking both."),
            FunctionCallContent("a", "get_weather", '{"city": "Paris"}'),
            FunctionCallContent("b", "get_time", {"zone": "CET"}),
        ],
        finish_reason="tool_calls",
        model_id="m1",
    )


def test_run_pairs_results_by_call_id_in_call_order() -> None:
    run = Run(two_calls())
    assert [tool_run.call.id for tool_run in run.tool_calls] == ["a", "b"]
    assert run.pending == run.message.function_calls
    time_run = run.add_result(FunctionResultContent("b", "12:00"), duration=0.25)
    assert time_run is run.tool_calls[1]
    run.add_result(FunctionResultContent("a", {"temperature": 18.5}))
    assert run.pending == []
    assert [result.call_id for result in run.results] == ["a", "b"]
    assert run.tool_calls[0].duration is None
    [message, results] = run.to_messages()
    assert message is run.message
    assert results == ChatMessageContent(
        AuthorRole.TOOL,
        items=[FunctionResultContent("a", {"temperature": 18.5}), FunctionResultContent("b", "12:00")],
    )
    assert run.usage is None
    assert str(run) == (
        "run · model=m1 · finish=tool_calls\n"
        "   Checking both.\n"
        '   [tool call a] get_weather({"city": "Paris"})\n'
        '     -> [tool result a] {"temperature": 18.5}\n'
        '   [tool call b] get_time({"zone": "CET"})\n'
        "     -> [tool result b] 12:00 · 250 ms"
    )


def test_run_without_results_has_only_its_message() -> None:
    run = Run(two_calls())
    assert run.to_messages() == [run.message]
    assert "(no result yet)" in str(run)


def test_run_results_without_ids_pair_by_name_then_order() -> None:
    message = assistant(
        items=[FunctionCallContent(None, "f"), FunctionCallContent(None, "g"),
               FunctionCallContent(None, "g")]
    )
    run = Run(message)
    run.add_result(FunctionResultContent(None, 2, name="g"))
    run.add_result(FunctionResultContent(None, 1))
    run.add_result(FunctionResultContent(None, 3, name="g"))
    assert [tool_run.output for tool_run in run.tool_calls] == [1, 2, 3]
    with pytest.raises(InvalidValueError, match=r"^call_id: a result without a call_id answers no pending call of 'g'$"):
        run.add_result(FunctionResultContent(None, 4, name="g"))
    with pytest.raises(InvalidValueError, match=r"^call_id: a result without a call_id answers no pending call$"):
        run.add_result(FunctionResultContent(None, 4))


def test_run_add_result_refuses_unknown_and_answered_calls() -> None:
    run = Run(two_calls())
    with pytest.raises(InvalidValueError) as raised:
        run.add_result(FunctionResultContent("zz", "?"))
    assert str(raised.value) == "call_id: no call of this turn has the id 'zz' (its calls: 'a', 'b')"
    run.add_result(FunctionResultContent("a", "ok"))
    with pytest.raises(InvalidValueError, match=r"^call_id: the call 'a' already has a result$"):
        run.add_result(FunctionResultContent("a", "again"))
    with pytest.raises(InvalidTypeError, match=r"^result: expected a FunctionResultContent or None, got str$"):
        run.add_result("ok")  # type: ignore[arg-type]
    with pytest.raises(InvalidTypeError, match=r"^result: expected a FunctionResultContent, got NoneType$"):
        run.add_result(None)  # type: ignore[arg-type]
    with pytest.raises(InvalidValueError, match=r"^duration: expected a finite number"):
        run.add_result(FunctionResultContent("b", "ok"), duration=-1)


def test_run_usage_lives_on_its_message() -> None:
    message = assistant("Hi.")
    run = Run(message, usage={"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5})
    assert message.usage == Usage(3, 2, 5)
    run.usage = Usage(1, 1, 2, reasoning_tokens=1)
    assert message.usage == Usage(1, 1, 2, reasoning_tokens=1)
    with pytest.raises(InvalidValueError, match=r"^usage: unknown token counts 'tokens'"):
        Run(assistant("Hi."), usage={"tokens": 3})


def test_run_takes_a_streamed_chunk_as_its_finished_message() -> None:
    chunk = StreamingChatMessageContent("assistant", "Hel") + StreamingChatMessageContent(None, "lo")
    run = Run(chunk)
    assert type(run.message) is ChatMessageContent
    assert run.message == assistant("Hello")


def test_run_with_given_tool_calls_shares_the_message_calls() -> None:
    message = two_calls()
    given_runs = [
        ToolRun(FunctionCallContent("a", "get_weather", '{"city": "Paris"}'), duration=1.0),
        ToolRun(FunctionCallContent("b", "get_time", {"zone": "CET"})),
    ]
    run = Run(message, given_runs)
    assert run.tool_calls[0].call is message.items[1]
    assert run.tool_calls[1].call is message.items[2]
    assert run.tool_calls[0].duration == 1.0


@pytest.mark.parametrize(
    ("build", "error", "message"),
    [
        (lambda: Run("Hi"), InvalidTypeError, "message: expected a ChatMessageContent, got str"),
        (
            lambda: Run(user("Hi")),
            InvalidValueError,
            "message.role: a run records an assistant turn, got a message of role 'user'",
        ),
        (
            lambda: Run(two_calls(), "ab"),
            InvalidTypeError,
            "tool_calls: expected a list of ToolRun, got str",
        ),
        (
            lambda: Run(two_calls(), [ToolRun(FunctionCallContent("a", "get_weather", '{"city": "Paris"}')), 5]),
            InvalidTypeError,
            "tool_calls[1]: expected a ToolRun, got int",
        ),
        (
            lambda: Run(two_calls(), [ToolRun(FunctionCallContent("a", "get_weather", '{"city": "Paris"}'))]),
            InvalidValueError,
            "tool_calls: pairs 1 call, but the message has 2: a run pairs every call of its message",
        ),
        (
            lambda: Run(two_calls(), [
                ToolRun(FunctionCallContent("a", "get_weather", '{"city": "Paris"}')),
                ToolRun(FunctionCallContent("b", "get_time", {"zone": "UTC"})),
            ]),
            InvalidValueError,
            'tool_calls[1].call: is [tool call b] get_time({"zone": "UTC"}), but the message\'s '
            'call 1 is [tool call b] get_time({"zone": "CET"})',
        ),
    ],
)
def test_run_refuses_bad_input(build: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as raised:
        build()
    assert str(raised.value) == message


# --- ChatResponse ----------------------------------------------------------------------------


def test_usage_total_per_field_rules() -> None:
    runs = [
        Run(assistant("a"), usage=Usage(10, 5, 15, cached_tokens=4)),
        Run(assistant("b")),  # no usage: adds nothing
        Run(assistant("c"), usage=Usage(20, 7, 27, reasoning_tokens=3)),
        Run(assistant("d"), usage=Usage(1, 1, 2, cached_tokens=0, reasoning_tokens=None)),
    ]
    assert ChatResponse(runs).usage == Usage(
        31, 13, 44, cached_tokens=4, reasoning_tokens=3, cache_creation_tokens=None
    )
    assert ChatResponse([Run(assistant("x"))]).usage is None
    assert ChatResponse().usage is None


def test_empty_response() -> None:
    response = ChatResponse(done=False)
    assert (response.text, response.thinking, response.tool_calls, response.to_messages()) == (
        "", "", [], []
    )
    assert str(response) == "not done · 0 runs"
    assert to_dict(response) == {"done": False}
    assert from_dict({}, ChatResponse) == ChatResponse()


@pytest.mark.parametrize(
    ("fields", "error", "message"),
    [
        ({"runs": "x"}, InvalidTypeError, "runs: expected a list of Run, got str"),
        ({"runs": [assistant("x")]}, InvalidTypeError, "runs[0]: expected a Run, got ChatMessageContent"),
        ({"done": 1}, InvalidTypeError, "done: expected a bool, got int"),
    ],
)
def test_response_refuses_bad_fields(fields: dict[str, Any], error: type[Exception], message: str) -> None:
    with pytest.raises(error) as raised:
        ChatResponse(**fields)
    assert str(raised.value) == message
    response = ChatResponse()
    [(name, value)] = fields.items()
    with pytest.raises(error) as raised:
        setattr(response, name, value)
    assert str(raised.value) == message


def test_from_messages_refuses_what_is_not_a_response() -> None:
    with pytest.raises(InvalidValueError) as raised:
        ChatResponse.from_messages([assistant("a"), user("b")])
    assert str(raised.value) == "messages[1].role: a response holds assistant and tool messages, got 'user'"
    with pytest.raises(InvalidValueError, match=r"^messages\[0\]: a tool message before any assistant turn$"):
        ChatResponse.from_messages([tool("x", call_id="a")])
    with pytest.raises(InvalidTypeError, match=r"^messages\[1\]: expected a ChatMessageContent, got str$"):
        ChatResponse.from_messages([assistant("a"), "b"])  # type: ignore[list-item]
    with pytest.raises(InvalidTypeError) as raised:
        ChatResponse.from_messages([two_calls(), tool(["done"])])
    assert str(raised.value) == "messages[1].items[0]: expected a FunctionResultContent, got TextContent"
    with pytest.raises(InvalidValueError) as raised:
        ChatResponse.from_messages([two_calls(), tool("?", call_id="zz")])
    assert str(raised.value) == (
        "messages[1].items[0].call_id: no call of this turn has the id 'zz' (its calls: 'a', 'b')"
    )


# --- accumulate ------------------------------------------------------------------------------


def weather_stream() -> list[ChatMessageContent]:
    """Two turns streamed OpenAI-style, with the application's tool message between them."""
    return [
        StreamingChatMessageContent("assistant", [StreamingReasoningContent("Need the ")]),
        StreamingChatMessageContent(None, [StreamingReasoningContent("weather.")]),
        StreamingChatMessageContent(
            None, [StreamingFunctionCallContent("toolcall_3", "get_weather", '{"loc', index=0)]
        ),
        StreamingChatMessageContent(
            None, [StreamingFunctionCallContent(None, "", 'ation": "London"}', index=0)],
            finish_reason="tool_calls",
        ),
        StreamingChatMessageContent(None, usage=Usage(123, 156, 279)),
        tool(WEATHER, call_id="toolcall_3"),
        StreamingChatMessageContent("assistant", "The current weather in London "),
        StreamingChatMessageContent(None, "is sunny.", finish_reason="stop"),
        StreamingChatMessageContent(None, usage=Usage(167, 152, 319)),
    ]


def test_accumulate_makes_one_run_per_turn() -> None:
    response = ChatResponse.accumulate(weather_stream())
    assert response.done is True
    assert len(response.runs) == 2
    first, second = response.runs
    assert first.message == assistant(
        [ReasoningContent("Need the weather."),
         FunctionCallContent("toolcall_3", "get_weather", '{"location": "London"}')],
        finish_reason="tool_calls",
        usage=Usage(123, 156, 279),
    )
    assert first.tool_calls == [
        ToolRun(first.message.items[1], FunctionResultContent("toolcall_3", WEATHER))
    ]
    assert second.message == assistant(
        "The current weather in London is sunny.", finish_reason=FinishReason.STOP,
        usage=Usage(167, 152, 319),
    )
    assert response.usage == Usage(290, 308, 598)
    assert response.text == "The current weather in London is sunny."
    assert response.thinking == "Need the weather."
    assert from_json(to_json(response), ChatResponse) == response


def test_accumulate_done_only_when_the_stream_ends_with_an_answer() -> None:
    stream = weather_stream()
    assert ChatResponse.accumulate(stream[:5]).done is False  # asks for a tool
    assert ChatResponse.accumulate(stream[:6]).done is False  # the tool answered; no answer yet
    assert ChatResponse.accumulate(stream[:7]).done is False  # the answer has no finish yet
    assert ChatResponse.accumulate(stream[:8]).done is True
    assert ChatResponse.accumulate([]) == ChatResponse(done=False)


def test_accumulate_takes_streamed_tool_messages_and_several_of_them() -> None:
    stream = [
        StreamingChatMessageContent(
            "assistant",
            [StreamingFunctionCallContent("a", "f", "{}", index=0),
             StreamingFunctionCallContent("b", "g", "{}", index=1)],
        ),
        tool("B", call_id="b"),
        StreamingChatMessageContent("tool", [FunctionResultContent("a", "A")]),
    ]
    response = ChatResponse.accumulate(stream)
    assert [tool_run.output for tool_run in response.tool_calls] == ["A", "B"]
    assert response.done is False


def test_accumulate_refuses_bad_streams_where_they_go_wrong() -> None:
    stream = weather_stream()
    with pytest.raises(InvalidTypeError) as raised:
        ChatResponse.accumulate([*stream[:2], "text"])  # type: ignore[list-item]
    assert str(raised.value) == (
        "chunks[2]: expected a StreamingChatMessageContent or a tool message, got str"
    )
    with pytest.raises(InvalidTypeError) as raised:
        ChatResponse.accumulate([assistant("done")])
    assert str(raised.value) == (
        "chunks[0]: expected a StreamingChatMessageContent or a tool message, "
        "got a ChatMessageContent of role 'assistant'"
    )
    with pytest.raises(InvalidValueError) as raised:
        ChatResponse.accumulate([StreamingChatMessageContent("user", "hi")])
    assert str(raised.value) == (
        "chunks[0].role: a response streams assistant turns and tool messages, "
        "got a chunk of role 'user'"
    )
    with pytest.raises(StreamMergeError) as raised:
        ChatResponse.accumulate(
            [*stream[:3], StreamingChatMessageContent(None, "x", choice_index=1)]
        )
    assert str(raised.value) == "chunks[3].choice_index: cannot merge chunks of choices 0 and 1"
    with pytest.raises(InvalidValueError) as raised:
        ChatResponse.accumulate([*stream[:5], tool("?", call_id="zz")])
    assert str(raised.value) == (
        "chunks[5].items[0].call_id: no call of this turn has the id 'zz' "
        "(its calls: 'toolcall_3')"
    )
    with pytest.raises(InvalidValueError, match=r"^chunks\[0\]: a tool message before any"):
        ChatResponse.accumulate([tool("x", call_id="a")])


# --- serialization: bad input located ---------------------------------------------------------


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            lambda d: d["runs"][1]["message"].__setitem__("role", "user"),
            "runs[1].message.role: a run records an assistant turn, got a message of role 'user'",
        ),
        (
            lambda d: d["runs"][0]["tool_calls"][0].__setitem__("duration", -1),
            "runs[0].tool_calls[0].duration: expected a finite number of seconds, 0 or more, "
            "got -1.0",
        ),
        (
            lambda d: d["runs"][0]["tool_calls"][0].__setitem__("duration", "1 ms"),
            "runs[0].tool_calls[0].duration: expected a JSON float, got str",
        ),
        (
            lambda d: d["runs"][0]["tool_calls"][0]["result"].__setitem__("call_id", "zz"),
            "runs[0].tool_calls[0].result.call_id: answers call 'zz', not this call 'toolcall_3'",
        ),
        (
            lambda d: d["runs"][0]["tool_calls"][0]["call"]["arguments"].__setitem__("location", "Paris"),
            "runs[0].tool_calls[0].call: is [tool call toolcall_3] get_weather({\"location\": "
            "\"Paris\"}), but the message's call 0 is [tool call toolcall_3] "
            "get_weather({\"location\": \"London\"})",
        ),
        (lambda d: d.__setitem__("done", 1), "done: expected a JSON bool, got int"),
        (lambda d: d.__setitem__("runs", {}), "runs: expected a list, got dict"),
    ],
)
def test_reading_bad_data_is_located(edit: Any, message: str) -> None:
    data = json.loads(json.dumps(LONDON_DICT))
    edit(data)
    with pytest.raises(SerializationError) as raised:
        from_dict(data, ChatResponse)
    assert str(raised.value) == message


def test_a_run_read_without_tool_calls_has_its_calls_pending() -> None:
    data = json.loads(json.dumps(LONDON_DICT["runs"][0]))
    del data["tool_calls"]
    run = from_dict(data, Run)
    assert run.tool_calls == [ToolRun(run.message.items[1])]
    assert run.pending == [run.message.items[1]]


def test_any_configured_converter_writes_and_reads_runs() -> None:
    converter = make_converter(strict=True)
    response = london()
    assert converter.unstructure(response) == LONDON_DICT
    assert converter.structure(LONDON_DICT, ChatResponse) == response


# --- hypothesis --------------------------------------------------------------------------------


@st.composite
def runs(draw: st.DrawFn) -> Run:
    """A run: text and reasoning around calls with unique ids, some answered, some timed."""
    ids = draw(st.lists(st.text("abcdef0123456789", min_size=1, max_size=6), unique=True, max_size=3))
    calls = [
        FunctionCallContent(
            call_id, draw(st.sampled_from(["get_weather", "search", "f"])),
            draw(st.none() | st.dictionaries(st.text(max_size=5), json_values(max_leaves=3), max_size=2)),
        )
        for call_id in ids
    ]
    others = draw(st.lists(st.one_of(text_items(), reasoning_items()), max_size=3))
    items = draw(st.permutations([*calls, *others]))
    message = assistant(
        items=items,
        usage=draw(st.none() | usages()),
        finish_reason=draw(st.sampled_from([None, "stop", "tool_calls"])),
    )
    run = Run(message)
    for tool_run in run.tool_calls:
        if draw(st.booleans()):
            result = FunctionResultContent(
                tool_run.call.id,
                draw(st.one_of(st.text(max_size=10), json_values(max_leaves=3),
                               st.just([ImageContent(uri="https://example.com/a.png")]))),
                is_error=draw(st.booleans()),
            )
            duration = draw(st.none() | st.floats(min_value=0, max_value=1e6, allow_nan=False))
            run.add_result(result, duration=duration)
    return run


responses = st.builds(ChatResponse, st.lists(runs(), max_size=3), st.booleans())


@settings(max_examples=150, deadline=None)
@given(responses)
def test_responses_round_trip_through_json(response: ChatResponse) -> None:
    text = to_json(response)
    back = from_json(text, ChatResponse)
    assert back == response
    assert to_json(back) == text
    assert from_dict(to_dict(response), ChatResponse) == response
    assert back.usage == response.usage
    for run in back.runs:
        for tool_run, call in zip(run.tool_calls, run.message.function_calls, strict=True):
            assert tool_run.call is call


@settings(max_examples=150, deadline=None)
@given(responses)
def test_responses_round_trip_through_messages(response: ChatResponse) -> None:
    rebuilt = ChatResponse.from_messages(response.to_messages(), done=response.done)
    for tool_run, original in zip(rebuilt.tool_calls, response.tool_calls, strict=True):
        assert tool_run.duration is None
        tool_run.duration = original.duration
    assert rebuilt == response


@settings(max_examples=150, deadline=None)
@given(responses)
def test_usage_is_the_sum_of_the_runs(response: ChatResponse) -> None:
    reported = [run.usage for run in response.runs if run.usage is not None]
    total = response.usage
    if not reported:
        assert total is None
        return
    assert total is not None
    for field in attrs.fields(Usage):
        values = [getattr(usage, field.name) for usage in reported]
        known = [value for value in values if value is not None]
        assert getattr(total, field.name) == (sum(known) if known else None)


# --- per-role constructors ---------------------------------------------------------------------


def test_role_constructors_are_the_constructor_with_a_role() -> None:
    assert system("Be brief.") == ChatMessageContent(AuthorRole.SYSTEM, "Be brief.")
    assert user(["Hi", b"\x89PNG\r\n\x1a\n" + bytes(20)], name="ada") == ChatMessageContent(
        "user", ["Hi", b"\x89PNG\r\n\x1a\n" + bytes(20)], name="ada"
    )
    assert assistant() == ChatMessageContent("assistant")
    assert assistant(items=[TextContent("x")], usage={"prompt_tokens": 1}) == ChatMessageContent(
        "assistant", "x", usage=Usage(prompt_tokens=1)
    )
    assert tool({"temperature": 18.5}, call_id="c1") == ChatMessageContent(
        "tool", items=[FunctionResultContent("c1", {"temperature": 18.5})]
    )
    assert tool("boom", call_id="c1", is_error=True).function_results[0].is_error is True
    results = [FunctionResultContent("a", 1), FunctionResultContent("b", 2)]
    assert tool(results).items == results
    assert (semantic_chat.system, semantic_chat.user, semantic_chat.assistant, semantic_chat.tool) == (
        system, user, assistant, tool
    )


def test_role_constructors_refuse_bad_input_where_it_is() -> None:
    with pytest.raises(InvalidTypeError) as raised:
        user(["Hi", 5])
    assert str(raised.value).startswith("content[1]: expected str, a KernelContent item")
    with pytest.raises(InvalidTypeError, match=r"^name: expected a str or None, got int$"):
        system("x", name=5)
    with pytest.raises(InvalidTypeError, match=r"^call_id: expected a str or None, got int$"):
        tool("x", call_id=5)  # type: ignore[arg-type]
    with pytest.raises(InvalidValueError) as raised:
        tool("x", is_error=True)
    assert str(raised.value) == (
        "is_error: applies to a result given with call_id; "
        "set it on each FunctionResultContent instead"
    )
    with pytest.raises(InvalidTypeError, match=r"^result: object is not a JSON value$"):
        tool(object(), call_id="c")


# --- calling the tools of a run ----------------------------------------------------------------


def weather_tools() -> Any:
    from semantic_chat.tools.toolset import ToolSet

    def get_weather(location: str) -> str:
        """Say the weather at a place."""
        time.sleep(0.2)
        return f"The weather in {location} is sunny, 20 degrees celsius."

    def get_time(zone: str) -> str:
        """Say the time in a zone."""
        raise RuntimeError(f"no clock for {zone}")

    return ToolSet([get_weather, get_time])


def weather_calls() -> ChatMessageContent:
    return assistant(
        items=[
            FunctionCallContent("w1", "get_weather", '{"location": "London"}'),
            FunctionCallContent("t1", "get_time", {"zone": "CET"}),
            FunctionCallContent("w2", "get_weather", {"location": "Paris"}),
            FunctionCallContent("x1", "no_such_tool", {}),
        ],
        finish_reason="tool_calls",
    )


@pytest.mark.parametrize("parallel", [False, True])
def test_run_call_tools_records_results_and_durations_in_call_order(parallel: bool) -> None:
    run = Run(weather_calls())
    run.add_result(FunctionResultContent("x1", "answered before"), duration=0.5)
    start = time.perf_counter()
    message = run.call_tools(weather_tools(), parallel=parallel, max_workers=4)
    elapsed = time.perf_counter() - start
    assert (elapsed < 0.39) if parallel else (elapsed >= 0.4)
    assert message.role == AuthorRole.TOOL
    assert [result.call_id for result in message.function_results] == ["w1", "t1", "w2"]
    assert message.function_results == run.results[:3]
    london, clock, paris, answered = run.tool_calls
    assert london.output == "The weather in London is sunny, 20 degrees celsius."
    assert paris.output == "The weather in Paris is sunny, 20 degrees celsius."
    assert clock.result is not None
    assert clock.result.is_error is True
    assert isinstance(clock.result.inner_content, RuntimeError)
    assert london.duration is not None
    assert paris.duration is not None
    assert clock.duration is not None
    assert 0.2 <= london.duration < 2
    assert 0.2 <= paris.duration < 2
    assert 0 <= clock.duration < 0.2
    assert (answered.output, answered.duration) == ("answered before", 0.5)
    assert run.pending == []
    assert run.call_tools(weather_tools()) == ChatMessageContent(AuthorRole.TOOL)


@pytest.mark.parametrize("parallel", [False, True])
def test_run_acall_tools_records_results_and_durations(parallel: bool) -> None:
    run = Run(weather_calls())
    start = time.perf_counter()
    message = asyncio.run(run.acall_tools(weather_tools(), parallel=parallel, max_workers=3))
    elapsed = time.perf_counter() - start
    assert (elapsed < 0.39) if parallel else (elapsed >= 0.4)
    assert [result.call_id for result in message.function_results] == ["w1", "t1", "w2", "x1"]
    assert [tool_run.result for tool_run in run.tool_calls] == message.function_results
    assert run.tool_calls[3].result is not None
    assert run.tool_calls[3].result.is_error is True
    durations = [tool_run.duration for tool_run in run.tool_calls]
    assert all(duration is not None and duration >= 0 for duration in durations)
    assert run.tool_calls[0].duration is not None
    assert run.tool_calls[0].duration >= 0.2


def test_run_call_tools_times_out_a_hanging_tool_and_records_it() -> None:
    from semantic_chat.tools.toolset import ToolSet

    release = threading.Event()

    def hang() -> str:
        """Never answers in time."""
        release.wait(5)
        return "late"

    def quick() -> str:
        """Answers."""
        return "quick"

    run = Run(assistant(items=[FunctionCallContent("h", "hang", {}), FunctionCallContent("q", "quick", {})]))
    try:
        run.call_tools(ToolSet([hang, quick]), parallel=True, timeout=0.1)
    finally:
        release.set()
    hung, fast = run.tool_calls
    assert hung.result is not None
    assert hung.result.is_error is True
    assert isinstance(hung.result.inner_content, TimeoutError)
    assert hung.duration is not None
    assert 0.1 <= hung.duration < 1
    assert fast.output == "quick"


def test_run_call_tools_refuses_bad_options_before_calling() -> None:
    run = Run(weather_calls())
    with pytest.raises(InvalidTypeError, match=r"^toolset: expected a ToolSet, got dict$"):
        run.call_tools({})  # type: ignore[arg-type]
    with pytest.raises(InvalidValueError, match=r"^max_workers: expected at least 1, got 0$"):
        run.call_tools(weather_tools(), parallel=True, max_workers=0)
    with pytest.raises(InvalidValueError, match=r"^timeout: expected a positive, finite number"):
        asyncio.run(run.acall_tools(weather_tools(), timeout=-1))
    assert run.pending == run.message.function_calls  # nothing was called


# --- hypothesis: a response streamed in fragments accumulates back ------------------------------


def _pieces(draw: st.DrawFn, text: str) -> list[str]:
    """``text`` cut at a few drawn places (one piece for a short text)."""
    cuts = sorted(set(draw(st.lists(st.integers(0, len(text)), max_size=3))))
    bounds = [0, *cuts, len(text)]
    return [text[a:b] for a, b in itertools.pairwise(bounds) if b > a] or [text]


@st.composite
def streamed_responses(draw: st.DrawFn) -> tuple[ChatResponse, list[ChatMessageContent]]:
    """A response and a stream that says it: fragments of each turn, tool messages between."""
    count = draw(st.integers(1, 3))
    names = st.sampled_from(["get_weather", "search"])
    words = st.text("abc xyz.", min_size=1, max_size=12)
    runs_made: list[Run] = []
    stream: list[ChatMessageContent] = []
    for number in range(count):
        last = number == count - 1
        ids = draw(st.lists(st.text("0123456789", min_size=1, max_size=3), unique=True,
                            min_size=0 if last else 1, max_size=3))
        thinking = draw(st.none() | words)
        text = draw(st.none() | words)
        calls = [
            FunctionCallContent(f"{number}_{call_id}", draw(names), json.dumps(
                draw(st.dictionaries(st.text("xyz", max_size=3), st.integers(0, 9), max_size=2))
            ))
            for call_id in ids
        ]
        usage = draw(st.none() | usages())
        finish = draw(st.sampled_from([None, "stop", "tool_calls"]))
        items: list[Any] = [ReasoningContent(thinking)] if thinking else []
        items += [TextContent(text)] if text else []
        run = Run(assistant(items=[*items, *calls], usage=usage, finish_reason=finish))
        stream.append(StreamingChatMessageContent("assistant"))
        stream += [
            StreamingChatMessageContent(None, [StreamingReasoningContent(piece)])
            for piece in (_pieces(draw, thinking) if thinking else [])
        ]
        stream += [StreamingChatMessageContent(None, piece) for piece in (_pieces(draw, text) if text else [])]
        for index, call in enumerate(calls):
            assert isinstance(call.arguments, str)
            for position, piece in enumerate(_pieces(draw, call.arguments)):
                fragment = (
                    StreamingFunctionCallContent(call.id, call.name, piece, index=index)
                    if position == 0
                    else StreamingFunctionCallContent(None, "", piece, index=index)
                )
                stream.append(StreamingChatMessageContent(None, [fragment]))
        stream.append(StreamingChatMessageContent(None, usage=usage, finish_reason=finish))
        answered = [not last or draw(st.booleans()) for _ in calls]
        results = [
            FunctionResultContent(call.id, draw(words))
            for call, answers in zip(calls, answered, strict=True)
            if answers
        ]
        for result in results:
            run.add_result(result)
        if results:
            stream.append(tool(results))
        runs_made.append(run)
    final = runs_made[-1].message
    done = final.finish_reason is not None and not final.function_calls
    return ChatResponse(runs_made, done), stream


@settings(max_examples=150, deadline=None)
@given(streamed_responses())
def test_a_streamed_response_accumulates_back(case: tuple[ChatResponse, list[ChatMessageContent]]) -> None:
    response, stream = case
    assert ChatResponse.accumulate(stream) == response


def test_run_accumulate_reads_one_turn_and_its_results() -> None:
    stream = weather_stream()
    run = Run.accumulate(stream[:6])
    assert run == ChatResponse.accumulate(stream[:6]).runs[0]
    assert run.tool_calls[0].output == WEATHER
    assert Run.accumulate(stream[6:]).text == "The current weather in London is sunny."
    with pytest.raises(InvalidValueError) as raised:
        Run.accumulate(stream)
    assert str(raised.value) == (
        "chunks[6]: a second turn starts here, after the tool message: a Run is one turn "
        "(ChatResponse.accumulate reads several)"
    )
    with pytest.raises(StreamMergeError, match=r"^no assistant chunks to accumulate$"):
        Run.accumulate([])
    with pytest.raises(InvalidValueError, match=r"^chunks\[0\]: a tool message before any"):
        Run.accumulate([tool("x", call_id="a")])


# --- end to end: recorded OpenAI streams, tools called, the request recorded --------------------


def test_recorded_openai_streams_make_a_response_with_its_tools_answered() -> None:
    from pathlib import Path

    from semantic_chat.formats import openai_chat
    from semantic_chat.tools import ToolSet

    recorded = json.loads(
        (Path(__file__).parent.parent / "streaming" / "openai_chat_streams.json").read_text()
    )
    payloads = {case["name"]: case["payload"] for case in recorded}
    first_turn = list(openai_chat.from_stream(payloads["stream_parallel_tool_calls_with_usage"]))

    # named as the recorded stream names the tool
    def GetWeatherArgs(city: str, country: str, units: Literal["c", "f"] = "c") -> str:
        """The weather in a city."""
        return f"{city}, {country}: 12 degrees {units}"

    def get_stock_price(ticker: str, exchange: str) -> dict[str, Any]:
        """A share's price."""
        return {"ticker": ticker, "exchange": exchange, "price": 226.5}

    run = Run.accumulate(first_turn)
    results = run.call_tools(ToolSet([GetWeatherArgs, get_stock_price]), parallel=True)
    second_turn = list(openai_chat.from_stream(payloads["stream_text_content"]))
    response = ChatResponse.accumulate([*first_turn, results, *second_turn])

    assert response.done is True
    assert [len(run.tool_calls) for run in response.runs] == [2, 0]
    assert [tool_run.output for tool_run in response.tool_calls] == [
        "Edinburgh, GB: 12 degrees c",
        {"ticker": "AAPL", "exchange": "NASDAQ", "price": 226.5},
    ]
    assert [tool_run.id for tool_run in response.tool_calls] == [
        "call_JMW1whyEaYG438VE1OIflxA2", "call_DNYTawLBoN8fj3KN6qU9N1Ou"
    ]
    assert response.usage == Usage(163, 90, 253, reasoning_tokens=0)
    assert response.text.startswith("I'm unable to provide real-time weather updates.")
    # what the history keeps writes back as the Chat Completions messages of the request
    written = openai_chat.to_payload(response.to_messages())
    assert [message["role"] for message in written] == ["assistant", "tool", "tool", "assistant"]
    assert [message.get("tool_call_id") for message in written[1:3]] == [
        "call_JMW1whyEaYG438VE1OIflxA2", "call_DNYTawLBoN8fj3KN6qU9N1Ou"
    ]


def test_a_result_paired_by_name_quotes_its_call_in_the_messages():
    # What was seen: a Gemini call (id made up by the reader) answered by a result without a
    # call_id was paired by the run, but to_messages() kept call_id None: OpenAI Chat got a
    # legacy "function" message after tool_calls (refused), Anthropic refused it outright.
    from semantic_chat import FunctionResultContent, tool, user
    from semantic_chat.formats import anthropic, gemini, openai_chat
    from semantic_chat.tools import ChatResponse

    def chunk(parts: list[dict[str, Any]]) -> dict[str, Any]:
        return {"candidates": [{"content": {"role": "model", "parts": parts}, "index": 0,
                                "finish_reason": "STOP"}]}

    calls = list(gemini.from_stream([chunk([{"function_call": {
        "name": "get_weather", "args": {"location": "Paris"}}}])]))
    answer = list(gemini.from_stream([chunk([{"text": "Sunny."}])]))
    given_result = FunctionResultContent(None, "sunny", name="get_weather")
    response = ChatResponse.accumulate([*calls, tool([given_result]), *answer])
    messages = [user("weather?"), *response.to_messages()]
    assert messages[2].items == [
        FunctionResultContent("gemini-call-0-0", "sunny", name="get_weather")
    ]
    assert given_result.call_id is None  # the run's result is not changed: a copy is written
    assert openai_chat.to_payload(messages)[2] == {
        "role": "tool", "tool_call_id": "gemini-call-0-0", "content": "sunny"
    }
    assert anthropic.to_payload(messages)["messages"][2]["content"][0]["tool_use_id"] == (
        "gemini-call-0-0"
    )
    assert gemini.to_payload(messages)["contents"][2] == {"role": "user", "parts": [
        {"function_response": {"name": "get_weather", "response": {"result": "sunny"}}},
    ]}


def test_a_numpy_datetime64_result_is_its_iso_text():
    import numpy as np

    from semantic_chat import ChatHistory, FunctionCallContent
    from semantic_chat.tools import ToolSet

    def when(kind: str) -> object:
        """A date."""
        return np.datetime64("2024-01-01") if kind == "day" else np.datetime64("2024-01-01T10:30")

    history = ChatHistory()
    history.add_assistant_message(items=[FunctionCallContent("c1", "when", '{"kind": "day"}'),
                                         FunctionCallContent("c2", "when", '{"kind": "time"}')])
    answer = history.call_tools(ToolSet([when]))
    assert [(result.result, result.is_error) for result in answer.function_results] == [
        ("2024-01-01", False), ("2024-01-01T10:30", False)]
