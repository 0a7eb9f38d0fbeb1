"""`call_tools` / `acall_tools`: one tool message of results, in call order, never raising.

Calls run one after another or in parallel, sync or async; a tool that raises, hangs past the
timeout or gets bad arguments is an error result and the others still run. The methods on
`ChatMessageContent` and `ChatHistory` are the same functions.
"""

from __future__ import annotations

import asyncio
import contextvars
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from semantic_chat import (
    AuthorRole,
    ChatHistory,
    ChatMessageContent,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    InvalidTypeError,
    InvalidValueError,
    TextContent,
)
from semantic_chat.formats import anthropic, gemini, openai_chat
from semantic_chat.history_ops import validate
from semantic_chat.tools.collect import acall_tools, call_tools
from semantic_chat.tools.toolset import ToolSet

# Released when a test ends, so that the "hanging" tools' threads finish rather than linger.
RELEASE = threading.Event()
REQUEST = contextvars.ContextVar("REQUEST", default="unset")


@pytest.fixture(autouse=True)
def _release_hanging_tools() -> Iterator[None]:
    RELEASE.clear()
    yield
    RELEASE.set()


def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


def get_weather(city: str) -> dict[str, object]:
    """Get the current weather in a city."""
    return {"city": city, "temperature": 18.5}


def fail(reason: str) -> str:
    """Raise, always."""
    raise RuntimeError(reason)


def hang() -> str:
    """Block until the test ends (at most 10 s)."""
    RELEASE.wait(10)
    return "released"


async def ahang() -> str:
    """Never finish within a test's timeout."""
    await asyncio.sleep(10)
    return "released"


async def aadd(a: int, b: int) -> int:
    """Add two integers, asynchronously."""
    await asyncio.sleep(0)
    return a + b


def request() -> str:
    """The context variable's value where the tool runs."""
    return REQUEST.get()


TOOLS = ToolSet([add, get_weather, fail, hang, ahang, aadd, request])


def call(id: str | None, name: str, arguments: str | dict[str, object] = "{}") -> FunctionCallContent:
    return FunctionCallContent(id, name, arguments)


def assistant(*calls: FunctionCallContent, text: str | None = None) -> ChatMessageContent:
    items: list[object] = [] if text is None else [text]
    return ChatMessageContent(AuthorRole.ASSISTANT, [*items, *calls])


def run_both(message: ChatMessageContent, **options: Any) -> list[ChatMessageContent]:
    """The tool message from `call_tools` and from `acall_tools`, with the same options."""
    return [
        call_tools(message, TOOLS, **options),
        asyncio.run(acall_tools(message, TOOLS, **options)),
    ]


# --- exact results ---------------------------------------------------------------------------


@pytest.mark.parametrize("parallel", [False, True])
def test_one_tool_message_with_one_result_per_call_in_call_order(parallel):
    message = assistant(
        call("call_1", "get_weather", '{"city": "Paris"}'),
        call("call_2", "add", '{"a": 1, "b": 2}'),
        call("call_3", "aadd", {"a": 40, "b": 2}),
        text="Let me look.",
    )
    expected = ChatMessageContent(AuthorRole.TOOL, items=[
        FunctionResultContent("call_1", {"city": "Paris", "temperature": 18.5},
                              name="get_weather"),
        FunctionResultContent("call_2", 3, name="add"),
        FunctionResultContent("call_3", 42, name="aadd"),
    ])
    for result in run_both(message, parallel=parallel):
        assert result == expected
        assert result.role == AuthorRole.TOOL


def test_items_a_tool_returns_stay_items_in_the_tool_message():
    chart = ImageContent(uri="https://example.com/chart.png", mime_type="image/png")

    def plot(title: str) -> list[object]:
        """Draw a chart."""
        return [TextContent(title), chart]

    for parallel in (False, True):
        result = call_tools(assistant(call("call_1", "plot", '{"title": "Rain"}')),
                            ToolSet([plot]), parallel=parallel, timeout=5)
        assert result.items == [
            FunctionResultContent("call_1", [TextContent("Rain"), chart], name="plot")
        ]


def test_a_message_without_calls_gives_an_empty_tool_message():
    for result in run_both(ChatMessageContent("assistant", "Hello!"), parallel=True):
        assert result == ChatMessageContent(AuthorRole.TOOL, items=[])


def test_calls_without_ids_are_answered_by_name_in_order():
    message = assistant(call(None, "add", '{"a": 1, "b": 1}'),
                        call(None, "add", '{"a": 2, "b": 2}'))
    for result in run_both(message, parallel=True):
        assert result.items == [FunctionResultContent(None, 2, name="add"),
                                FunctionResultContent(None, 4, name="add")]


def test_the_tool_message_writes_as_one_chat_completions_message_per_result():
    message = assistant(call("call_1", "add", '{"a": 1, "b": 2}'),
                        call("call_2", "get_weather", '{"city": "Oslo"}'))
    history = ChatHistory([message])
    history.call_tools(TOOLS)
    assert openai_chat.to_payload(history)[1:] == [
        {"role": "tool", "tool_call_id": "call_1", "content": "3"},
        {"role": "tool", "tool_call_id": "call_2",
         "content": '{"city":"Oslo","temperature":18.5}'},
    ]


def test_the_tool_message_writes_as_one_turn_of_results_for_anthropic_and_gemini():
    history = ChatHistory([assistant(call("call_1", "add", '{"a": 1, "b": 2}'),
                                     call("call_2", "add", '{"a": 3, "b": 4}'))])
    history.call_tools(TOOLS)
    assert anthropic.to_payload(history)["messages"][1] == {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "call_1", "content": "3"},
        {"type": "tool_result", "tool_use_id": "call_2", "content": "7"},
    ]}

    gemini_history = ChatHistory([assistant(call(None, "add", '{"a": 1, "b": 2}'),
                                            call(None, "add", '{"a": 3, "b": 4}'))])
    gemini_history.call_tools(TOOLS)
    assert gemini.to_payload(gemini_history)["contents"][1] == {"role": "user", "parts": [
        {"function_response": {"name": "add", "response": {"result": 3}}},
        {"function_response": {"name": "add", "response": {"result": 7}}},
    ]}


# --- call order under random delays (hypothesis) ---------------------------------------------


def _delayed_tools(finished: list[int]) -> ToolSet:
    def echo(n: int, delay: float) -> int:
        """Return n after delay seconds."""
        time.sleep(delay)
        finished.append(n)
        return n

    async def aecho(n: int, delay: float) -> int:
        """Return n after delay seconds, asynchronously."""
        await asyncio.sleep(delay)
        finished.append(n)
        return n

    return ToolSet([echo, aecho])


DELAYS = st.lists(st.sampled_from([0.0, 0.001, 0.003, 0.006, 0.01]), min_size=1, max_size=6)


@settings(max_examples=30)
@given(delays=DELAYS, asynchronous=st.lists(st.booleans(), min_size=6, max_size=6),
       parallel=st.booleans(), max_workers=st.sampled_from([None, 1, 2, 4]),
       timeout=st.sampled_from([None, 5.0]), use_async=st.booleans())
def test_results_keep_call_order_whatever_order_calls_finish(
    delays, asynchronous, parallel, max_workers, timeout, use_async
):
    finished: list[int] = []
    tools = _delayed_tools(finished)
    calls = [
        call(f"call_{n}", "aecho" if asynchronous[n] else "echo", {"n": n, "delay": delay})
        for n, delay in enumerate(delays)
    ]
    options = {"parallel": parallel, "max_workers": max_workers, "timeout": timeout}
    message = assistant(*calls)
    if use_async:
        result = asyncio.run(acall_tools(message, tools, **options))
    else:
        result = call_tools(message, tools, **options)
    assert result.items == [
        FunctionResultContent(c.id, n, name=c.name) for n, c in enumerate(calls)
    ]
    assert sorted(finished) == list(range(len(delays)))
    if not parallel:
        assert finished == list(range(len(delays)))


@pytest.mark.parametrize("use_async", [False, True])
def test_parallel_calls_finish_out_of_order_and_still_come_back_in_order(use_async):
    finished: list[int] = []
    tools = _delayed_tools(finished)
    delays = [0.2, 0.1, 0.0]
    message = assistant(*(call(f"call_{n}", "echo", {"n": n, "delay": d})
                          for n, d in enumerate(delays)))
    if use_async:
        result = asyncio.run(acall_tools(message, tools, parallel=True))
    else:
        result = call_tools(message, tools, parallel=True)
    assert finished == [2, 1, 0]
    assert [item.result for item in result.function_results] == [0, 1, 2]


@pytest.mark.parametrize("use_async", [False, True])
def test_parallel_calls_run_at_the_same_time(use_async):
    barrier = threading.Barrier(3, timeout=5)

    def meet(n: int) -> int:
        """Wait for the other two calls."""
        barrier.wait()
        return n

    tools = ToolSet([meet])
    message = assistant(*(call(f"call_{n}", "meet", {"n": n}) for n in range(3)))
    if use_async:
        result = asyncio.run(acall_tools(message, tools, parallel=True))
    else:
        result = call_tools(message, tools, parallel=True, max_workers=3)
    assert [item.result for item in result.function_results] == [0, 1, 2]


@pytest.mark.parametrize("use_async", [False, True])
@pytest.mark.parametrize("max_workers", [1, 2])
def test_max_workers_bounds_how_many_calls_run_at_once(use_async, max_workers):
    lock = threading.Lock()
    running = [0]
    most = [0]

    def busy(n: int) -> int:
        """Count the calls running with this one."""
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        time.sleep(0.05)
        with lock:
            running[0] -= 1
        return n

    tools = ToolSet([busy])
    message = assistant(*(call(f"call_{n}", "busy", {"n": n}) for n in range(6)))
    if use_async:
        asyncio.run(acall_tools(message, tools, parallel=True, max_workers=max_workers))
    else:
        call_tools(message, tools, parallel=True, max_workers=max_workers)
    assert most[0] == max_workers


# --- failing calls become error results; the others still run --------------------------------


@pytest.mark.parametrize("parallel", [False, True])
@pytest.mark.parametrize("hanging", ["hang", "ahang"])
def test_a_call_past_the_timeout_is_an_error_result_and_the_others_run(parallel, hanging):
    message = assistant(
        call("call_1", "add", '{"a": 1, "b": 2}'),
        call("call_2", hanging),
        call("call_3", "get_weather", '{"city": "Rome"}'),
    )
    text = f"{hanging} (call call_2): did not finish within the timeout of 0.2 s"
    for result in run_both(message, parallel=parallel, timeout=0.2):
        assert result.items == [
            FunctionResultContent("call_1", 3, name="add"),
            FunctionResultContent("call_2", text, name=hanging, is_error=True),
            FunctionResultContent("call_3", {"city": "Rome", "temperature": 18.5},
                                  name="get_weather"),
        ]
        error = result.items[1].inner_content
        assert type(error) is TimeoutError
        assert str(error) == text


def test_parallel_timeouts_are_counted_per_call_not_in_sequence():
    message = assistant(*(call(f"call_{n}", "hang") for n in range(4)))
    started = time.monotonic()
    result = call_tools(message, TOOLS, parallel=True, max_workers=4, timeout=0.3)
    assert time.monotonic() - started < 1.0
    assert [item.is_error for item in result.function_results] == [True] * 4


def test_a_hanging_sync_tool_does_not_hold_up_the_event_loops_shutdown():
    started = time.monotonic()
    result = asyncio.run(acall_tools(assistant(call("call_1", "hang")), TOOLS, timeout=0.2))
    assert time.monotonic() - started < 2.0
    assert result.items[0].is_error


@pytest.mark.parametrize("parallel", [False, True])
def test_a_raising_tool_is_an_error_result_and_the_others_run(parallel):
    message = assistant(call("call_1", "fail", '{"reason": "no network"}'),
                        call("call_2", "add", '{"a": 2, "b": 2}'))
    for timeout in (None, 5):
        for result in run_both(message, parallel=parallel, timeout=timeout):
            first, second = result.items
            assert first == FunctionResultContent(
                "call_1", "fail (call call_1) raised RuntimeError: no network", name="fail",
                is_error=True,
            )
            assert type(first.inner_content) is RuntimeError
            assert str(first.inner_content) == "no network"
            assert second == FunctionResultContent("call_2", 4, name="add")


@pytest.mark.parametrize("parallel", [False, True])
def test_bad_arguments_and_unknown_tools_are_error_results_and_the_others_run(parallel):
    message = assistant(
        call("call_1", "add", '{"a": "one", "b": 2}'),
        call("call_2", "add", '{"a": 1,'),
        call("call_3", "nowhere", "{}"),
        call("call_4", "add", '{"a": 1, "b": 2}'),
    )
    for result in run_both(message, parallel=parallel, timeout=5):
        assert result.items == [
            FunctionResultContent(
                "call_1", "add (call call_1): arguments.a: expected an integer, got string",
                name="add", is_error=True,
            ),
            FunctionResultContent(
                "call_2",
                "add (call call_2): arguments: not valid JSON (Expecting property name "
                "enclosed in double quotes: line 1 column 9 (char 8))",
                name="add", is_error=True,
            ),
            FunctionResultContent(
                "call_3",
                "nowhere (call call_3): unknown tool; the tools are 'add', 'get_weather', "
                "'fail', 'hang', 'ahang', 'aadd', 'request'",
                name="nowhere", is_error=True,
            ),
            FunctionResultContent("call_4", 3, name="add"),
        ]


def test_context_variables_reach_tools_run_in_threads_for_a_timeout():
    token = REQUEST.set("request-7")
    try:
        message = assistant(call("call_1", "request"))
        for result in run_both(message, timeout=5):
            assert result.items == [FunctionResultContent("call_1", "request-7",
                                                          name="request")]
    finally:
        REQUEST.reset(token)


# --- the methods ------------------------------------------------------------------------------


def test_message_methods_are_the_collect_functions():
    message = assistant(call("call_1", "add", '{"a": 1, "b": 2}'),
                        call("call_2", "aadd", '{"a": 3, "b": 4}'))
    expected = ChatMessageContent("tool", items=[FunctionResultContent("call_1", 3, name="add"),
                                                 FunctionResultContent("call_2", 7, name="aadd")])
    assert message.call_tools(TOOLS) == expected
    assert message.call_tools(TOOLS, parallel=True, max_workers=2, timeout=5) == expected
    assert message.call_tools_and_collect_as_message(TOOLS, parallel=True) == expected
    assert asyncio.run(message.acall_tools(TOOLS, parallel=True, timeout=5)) == expected


@pytest.mark.parametrize("use_async", [False, True])
def test_history_call_tools_answers_the_last_assistant_message_and_appends(use_async):
    history = ChatHistory(system_message="You add numbers.")
    history.add_user_message("1 + 2, and 3 + 4?")
    history.add_assistant_message(items=[call("call_1", "add", '{"a": 1, "b": 2}'),
                                         call("call_2", "add", '{"a": 3, "b": 4}')])
    if use_async:
        appended = asyncio.run(history.acall_tools(TOOLS, parallel=True))
    else:
        appended = history.call_tools(TOOLS, parallel=True)
    assert len(history) == 4
    assert history[3] is appended
    assert appended == ChatMessageContent("tool", items=[
        FunctionResultContent("call_1", 3, name="add"),
        FunctionResultContent("call_2", 7, name="add"),
    ])


def test_history_call_tools_takes_the_last_assistant_message_after_a_user_note():
    history = ChatHistory()
    history.add_assistant_message(items=[call("call_1", "add", '{"a": 1, "b": 1}')])
    history.add_tool_message(2, call_id="call_1")
    history.add_assistant_message(items=[call("call_2", "add", '{"a": 2, "b": 2}')])
    history.add_user_message("(the user types while the tool runs)")
    added = history.call_tools(TOOLS)
    assert added.items == [FunctionResultContent("call_2", 4, name="add")]
    # Right after its calls, before the note: appended after it, the results were away from
    # their calls, which validate reports and every provider refuses.
    assert history[3] is added
    assert [str(message.role) for message in history] == [
        "assistant", "tool", "assistant", "tool", "user"]
    assert validate(history) == []


# --- bad input, located ------------------------------------------------------------------------


def test_history_call_tools_without_calls_to_make_is_refused_where():
    with pytest.raises(InvalidValueError) as caught:
        ChatHistory(system_message="Hi").call_tools(TOOLS)
    assert str(caught.value) == "messages: no assistant message whose calls to make"

    history = ChatHistory()
    history.add_user_message("Hi")
    history.add_assistant_message("Hello!")
    with pytest.raises(InvalidValueError) as caught:
        history.call_tools(TOOLS)
    assert str(caught.value) == "messages[1]: the last assistant message has no function calls"
    assert len(history) == 2


def test_history_call_tools_refuses_calls_already_answered():
    history = ChatHistory()
    history.add_assistant_message(items=[call("call_1", "add", '{"a": 1, "b": 1}'),
                                         call("call_2", "add", '{"a": 2, "b": 2}')])
    history.add_tool_message(FunctionResultContent("call_2", 4))
    with pytest.raises(InvalidValueError) as caught:
        history.call_tools(TOOLS)
    assert str(caught.value) == "messages[1].items[0]: already answers call 'call_2' of messages[0]"

    gemini = ChatHistory()
    gemini.add_assistant_message(items=[call(None, "add", '{"a": 1, "b": 1}')])
    gemini.add_message(ChatMessageContent("tool", items=[FunctionResultContent(None, 2,
                                                                               name="add")]))
    with pytest.raises(InvalidValueError) as caught:
        asyncio.run(gemini.acall_tools(TOOLS))
    assert str(caught.value) == "messages[1].items[0]: already answers call 'add' of messages[0]"
    assert len(gemini) == 2


@pytest.mark.parametrize(
    ("arguments", "error", "text"),
    [
        ({"message": "add"}, InvalidTypeError, "message: expected a ChatMessageContent, got str"),
        ({"toolset": [add]}, InvalidTypeError, "toolset: expected a ToolSet, got list"),
        ({"parallel": 1}, InvalidTypeError, "parallel: expected a bool, got int"),
        ({"max_workers": "2"}, InvalidTypeError, "max_workers: expected an int or None, got str"),
        ({"max_workers": True}, InvalidTypeError,
         "max_workers: expected an int or None, got bool"),
        ({"max_workers": 0}, InvalidValueError, "max_workers: expected at least 1, got 0"),
        ({"timeout": "1"}, InvalidTypeError,
         "timeout: expected a number of seconds or None, got str"),
        ({"timeout": True}, InvalidTypeError,
         "timeout: expected a number of seconds or None, got bool"),
        ({"timeout": 0}, InvalidValueError,
         "timeout: expected a positive, finite number of seconds, got 0"),
        ({"timeout": -1.5}, InvalidValueError,
         "timeout: expected a positive, finite number of seconds, got -1.5"),
        ({"timeout": float("nan")}, InvalidValueError,
         "timeout: expected a positive, finite number of seconds, got nan"),
        ({"timeout": float("inf")}, InvalidValueError,
         "timeout: expected a positive, finite number of seconds, got inf"),
    ],
)
def test_bad_arguments_are_refused_before_any_call_runs(arguments, error, text):
    ran: list[int] = []

    def note(n: int) -> int:
        """Record that a call ran."""
        ran.append(n)
        return n

    given = {"message": assistant(call("call_1", "note", {"n": 1})), "toolset": ToolSet([note]),
             **arguments}
    message, toolset = given.pop("message"), given.pop("toolset")
    with pytest.raises(error) as caught:
        call_tools(message, toolset, **given)
    assert str(caught.value) == text
    with pytest.raises(error) as caught:
        asyncio.run(acall_tools(message, toolset, **given))
    assert str(caught.value) == text
    assert ran == []

