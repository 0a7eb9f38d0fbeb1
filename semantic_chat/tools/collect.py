"""Run a message's function calls with a `ToolSet` and collect the results as one tool message.

`call_tools` is the synchronous form (the calls one after another, or in a thread pool with
``parallel=True``); `acall_tools` the asynchronous one (awaited one after another, or
concurrently). Both put the results in call order, whatever order the calls finish in, and
never raise for a failing call: `ToolSet.invoke` makes a bad call or a tool's exception an
error result, and a call that runs past ``timeout`` seconds becomes one here while the others
go on.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import math
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ..contents import FunctionCallContent, FunctionResultContent
from ..errors import InvalidTypeError, InvalidValueError, describe_type
from ..labels import AuthorRole
from ..message import ChatMessageContent
from .toolset import ToolSet

__all__ = ["acall_tools", "call_tools", "check_call_options"]


def call_tools(
    message: ChatMessageContent,
    toolset: ToolSet,
    *,
    parallel: bool = False,
    max_workers: int | None = None,
    timeout: float | None = None,
) -> ChatMessageContent:
    """Call every function call of ``message`` with ``toolset``; return the results' tool message.

    The message returned has the role ``tool`` and one `FunctionResultContent` per call, in
    the order of ``message.function_calls`` (an empty tool message when there are none). Each
    result quotes its call's id. The OpenAI Chat Completions writer splits such a message into
    one ``{"role": "tool", "tool_call_id": ...}`` message per result, as that API requires;
    Anthropic's writer keeps them as the ``tool_result`` blocks of one user turn and Gemini's
    as the ``function_response`` parts of one.

    With ``parallel=True`` the calls run at once in a thread pool of ``max_workers`` threads
    (`concurrent.futures.ThreadPoolExecutor`'s default when ``None``); otherwise one after
    another in this thread, and ``max_workers`` has no effect. With ``timeout``, each call runs
    in a daemon thread of its own that is given ``timeout`` seconds from its start: a call
    still running then is answered with an error result (``is_error=True``, a `TimeoutError` on
    its ``inner_content``) and left to finish in the background, since Python cannot stop a
    thread; the other calls run as they would have. Without ``timeout`` a tool that never
    returns blocks the call.

    Raises:
        InvalidTypeError: ``message`` is not a `ChatMessageContent`, ``toolset`` not a
            `ToolSet`, or an option of the wrong type (the message names it).
        InvalidValueError: ``max_workers`` below 1, or ``timeout`` not a positive, finite
            number of seconds.
    """
    calls = _calls(message, toolset, parallel, max_workers, timeout)

    def one(call: FunctionCallContent) -> FunctionResultContent:
        return _invoke_within(toolset, call, timeout)

    if not parallel or len(calls) < 2:
        results = [one(call) for call in calls]
    else:
        with ThreadPoolExecutor(max_workers, thread_name_prefix="semantic_chat-tools") as pool:
            results = list(pool.map(one, calls))  # map yields in the order given
    return ChatMessageContent(AuthorRole.TOOL, items=results)


async def acall_tools(
    message: ChatMessageContent,
    toolset: ToolSet,
    *,
    parallel: bool = False,
    max_workers: int | None = None,
    timeout: float | None = None,
) -> ChatMessageContent:
    """Await every function call of ``message`` with ``toolset``; return the results' tool message.

    The asynchronous form of `call_tools`, with the same result: one tool message holding one
    `FunctionResultContent` per call, in call order. Async tools are awaited with
    `ToolSet.ainvoke` (which runs a sync tool in a thread). With ``parallel=True`` the calls
    run concurrently, at most ``max_workers`` at a time (no limit when ``None``); otherwise one
    after another. With ``timeout``, each call is awaited through `asyncio.wait_for` for that
    many seconds from its start: an async tool past it is cancelled, and a sync one is run in
    a daemon thread of its own and left to finish in the background (so a hanging sync tool
    does not hold up the event loop's shutdown); either way its result is an error result
    with a `TimeoutError` on ``inner_content``, and the other calls go on.

    Raises:
        InvalidTypeError: as `call_tools`.
        InvalidValueError: as `call_tools`.
    """
    calls = _calls(message, toolset, parallel, max_workers, timeout)
    if not parallel or len(calls) < 2:
        results = [await _ainvoke_within(toolset, call, timeout) for call in calls]
    else:
        limit = asyncio.Semaphore(max_workers) if max_workers is not None else None

        async def one(call: FunctionCallContent) -> FunctionResultContent:
            if limit is None:
                return await _ainvoke_within(toolset, call, timeout)
            async with limit:
                return await _ainvoke_within(toolset, call, timeout)

        results = list(await asyncio.gather(*(one(call) for call in calls)))
    return ChatMessageContent(AuthorRole.TOOL, items=results)


def _calls(
    message: Any, toolset: Any, parallel: Any, max_workers: Any, timeout: Any
) -> list[FunctionCallContent]:
    """Check the arguments of `call_tools` / `acall_tools`; return the calls to make."""
    if not isinstance(message, ChatMessageContent):
        raise InvalidTypeError.mismatch("message", "a ChatMessageContent", describe_type(message))
    check_call_options(toolset, parallel, max_workers, timeout)
    return message.function_calls


def check_call_options(toolset: Any, parallel: Any, max_workers: Any, timeout: Any) -> None:
    """Check the options `call_tools` and `acall_tools` take (and a run's, which uses them).

    Raises:
        InvalidTypeError: ``toolset`` is not a `ToolSet`, or an option of the wrong type.
        InvalidValueError: ``max_workers`` below 1, or ``timeout`` not a positive, finite
            number of seconds.
    """
    if not isinstance(toolset, ToolSet):
        raise InvalidTypeError.mismatch("toolset", "a ToolSet", describe_type(toolset))
    if type(parallel) is not bool:
        raise InvalidTypeError.mismatch("parallel", "a bool", describe_type(parallel))
    if max_workers is not None:
        if type(max_workers) is not int:
            raise InvalidTypeError.mismatch(
                "max_workers", "an int or None", describe_type(max_workers)
            )
        if max_workers < 1:
            raise InvalidValueError.mismatch("max_workers", "at least 1", repr(max_workers))
    if timeout is not None:
        if type(timeout) not in (int, float):
            raise InvalidTypeError.mismatch(
                "timeout", "a number of seconds or None", describe_type(timeout)
            )
        if not (timeout > 0 and math.isfinite(timeout)):
            raise InvalidValueError.mismatch(
                "timeout", "a positive, finite number of seconds", repr(timeout)
            )


def _timed_out(call: FunctionCallContent, timeout: float) -> FunctionResultContent:
    """The error result for a call still running after ``timeout`` seconds."""
    label = call.name if call.id is None else f"{call.name} (call {call.id})"  # as invoke's
    text = f"{label}: did not finish within the timeout of {timeout:g} s"
    result = call.to_result(text, is_error=True)
    result.inner_content = TimeoutError(text)
    return result


def _invoke_within(
    toolset: ToolSet, call: FunctionCallContent, timeout: float | None
) -> FunctionResultContent:
    """``toolset.invoke(call)``, given at most ``timeout`` seconds in a daemon thread."""
    if timeout is None:
        return toolset.invoke(call)
    outcome: list[Any] = []  # [result] or [None, the BaseException invoke let through]
    done = threading.Event()
    context = contextvars.copy_context()

    def run() -> None:
        try:
            outcome.append(context.run(toolset.invoke, call))
        except BaseException as error:  # handed back to the caller below
            outcome.extend((None, error))
        finally:
            done.set()

    threading.Thread(target=run, name=f"semantic_chat-tool-{call.name}", daemon=True).start()
    if not done.wait(timeout):
        return _timed_out(call, timeout)
    if outcome[0] is None:
        raise outcome[1]
    result: FunctionResultContent = outcome[0]
    return result


async def _ainvoke_within(
    toolset: ToolSet, call: FunctionCallContent, timeout: float | None
) -> FunctionResultContent:
    """``await toolset.ainvoke(call)``, given at most ``timeout`` seconds."""
    if timeout is None:
        return await toolset.ainvoke(call)
    tool = toolset.get(call.name) if call.name is not None else None
    if tool is not None and not tool.is_async:
        # A sync tool cannot be cancelled: run it in a daemon thread of its own rather than
        # the loop's default executor, whose shutdown would wait for a hanging one.
        loop = asyncio.get_running_loop()
        waiter: asyncio.Future[FunctionResultContent] = loop.create_future()

        def settle(outcome: FunctionResultContent | BaseException) -> None:
            if waiter.done():
                return  # timed out (cancelled) before the tool returned
            if isinstance(outcome, BaseException):
                waiter.set_exception(outcome)
            else:
                waiter.set_result(outcome)

        context = contextvars.copy_context()

        def run() -> None:
            outcome: FunctionResultContent | BaseException
            try:
                outcome = context.run(toolset.invoke, call)
            except BaseException as error:  # handed to the awaiting task
                outcome = error
            _call_soon(loop, settle, outcome)

        threading.Thread(target=run, name=f"semantic_chat-tool-{call.name}", daemon=True).start()
        awaited: Any = waiter
    else:
        awaited = toolset.ainvoke(call)
    try:
        result: FunctionResultContent = await asyncio.wait_for(awaited, timeout)
    except asyncio.TimeoutError:
        return _timed_out(call, timeout)
    return result


def _call_soon(loop: asyncio.AbstractEventLoop, *callback: Any) -> None:
    """Schedule ``callback`` on ``loop`` from another thread, unless the loop has closed."""
    with contextlib.suppress(RuntimeError):  # the loop is gone: nobody awaits this call
        loop.call_soon_threadsafe(*callback)
