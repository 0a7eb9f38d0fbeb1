"""What a request did: its model turns (`Run`), each call paired with its result, and usage.

One request to a model can take several turns: the model asks for tools, the application
runs them and sends the results, the model answers. A `ChatResponse` records the request as
a list of `Run` values, one per assistant turn, as the Prompt API proposal's ``RequestResult``
does; a `Run` holds the assistant message and, for each call in it, a `ToolRun`: the call,
its result and how long the tool took (`Run.call_tools` calls and times them). Both turn
back into the history's messages (``to_messages()``), build from a stream of chunks
(`ChatResponse.accumulate`), and are written and read by `semantic_chat.serialization`
(``to_dict``, ``to_json``, ``from_dict``) as attrs classes whose fields the converter knows;
`configure_converter` adds the check that a list is a list (done here for the shared one).
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

import attrs
import cattrs
import numpy as np

from ..contents import FunctionCallContent, FunctionResultContent, KernelContent, TextContent
from ..errors import (
    InvalidTypeError,
    InvalidValueError,
    SemanticChatError,
    SerializationError,
    StreamMergeError,
    describe_type,
)
from ..labels import AuthorRole
from ..message import ChatMessageContent
from ..serialization import converter as _converter
from ..serialization.locate import locate_error
from ..streaming import StreamingChatMessageContent
from ..transcript import describe_citation, describe_item
from ..usage import Usage
from ..validation import check_flag
from .collect import acall_tools, call_tools, check_call_options

if TYPE_CHECKING:
    from .toolset import ToolSet

__all__ = ["ChatResponse", "Run", "ToolRun", "configure_converter"]


# --- field checks ---------------------------------------------------------------------------


def _as_call(value: Any) -> FunctionCallContent:
    if not isinstance(value, FunctionCallContent):
        raise InvalidTypeError.mismatch("call", "a FunctionCallContent", describe_type(value))
    return value


def _as_result(value: Any) -> FunctionResultContent | None:
    if value is not None and not isinstance(value, FunctionResultContent):
        raise InvalidTypeError.mismatch(
            "result", "a FunctionResultContent or None", describe_type(value)
        )
    return value


def _as_duration(value: Any) -> float | None:
    """A duration in seconds: finite, not negative (an int or numpy float becomes a float)."""
    if value is None:
        return None
    if not isinstance(value, (int, float, np.integer, np.floating)) or isinstance(
        value, (bool, np.bool_)
    ):
        raise InvalidTypeError.mismatch(
            "duration", "a number of seconds or None", describe_type(value)
        )
    seconds = float(value)
    if not math.isfinite(seconds) or seconds < 0:
        raise InvalidValueError(
            f"expected a finite number of seconds, 0 or more, got {seconds!r}",
            path="duration", expected="seconds >= 0", got=repr(seconds),
        )
    return seconds


def _paired(instance: ToolRun, attribute: attrs.Attribute[Any], value: Any) -> None:
    """Refuse a result that quotes another call's id (both ids known)."""
    call = value if attribute.name == "call" else instance.call
    result = value if attribute.name == "result" else instance.result
    if result is None or result.call_id is None or call.id is None:
        return
    if result.call_id != call.id:
        raise InvalidValueError(
            f"answers call {result.call_id!r}, not this call {call.id!r}",
            path="result.call_id", expected=repr(call.id), got=repr(result.call_id),
        )


def _as_message(value: Any) -> ChatMessageContent:
    """The assistant message of a run; a streamed chunk becomes its finished message."""
    if isinstance(value, StreamingChatMessageContent):
        value = value.to_message()
    if not isinstance(value, ChatMessageContent):
        raise InvalidTypeError.mismatch("message", "a ChatMessageContent", describe_type(value))
    if value.role != AuthorRole.ASSISTANT:
        raise InvalidValueError(
            f"a run records an assistant turn, got a message of role {str(value.role)!r}",
            path="message.role", expected="'assistant'", got=repr(str(value.role)),
        )
    return value


_T = TypeVar("_T")


def _as_tool_runs(value: Any) -> list[ToolRun]:
    return _list_of(value, ToolRun, "tool_calls")


def _as_runs(value: Any) -> list[Run]:
    return _list_of(value, Run, "runs")


def _list_of(value: Any, cls: type[_T], field: str) -> list[_T]:
    """``value`` as a list of ``cls`` objects, or an error naming ``field`` or the element."""
    if isinstance(value, (str, bytes, Mapping, cls)) or not isinstance(value, Iterable):
        raise InvalidTypeError.mismatch(
            field, f"a list of {cls.__name__}", describe_type(value)
        )
    elements = list(value)
    for index, element in enumerate(elements):
        if not isinstance(element, cls):
            raise InvalidTypeError.mismatch(
                f"{field}[{index}]", f"a {cls.__name__}", describe_type(element)
            )
    return elements


def _as_done(value: Any) -> bool:
    return check_flag(value, "done")


_CHECKED = attrs.setters.pipe(attrs.setters.convert, attrs.setters.validate)


# --- ToolRun --------------------------------------------------------------------------------


@attrs.define(slots=True, weakref_slot=False, on_setattr=_CHECKED)
class ToolRun:
    """One function call of a turn, with its result (``None`` until it has one) and duration.

    ``duration`` is how long the tool ran, in seconds (the Prompt API's ``durationMs`` / 1000);
    ``None`` when it was not measured.

    Raises:
        InvalidTypeError: a field of the wrong type, named (``duration``).
        InvalidValueError: a negative or infinite duration; a result whose ``call_id`` is not
            the call's ``id`` (``result.call_id``).
    """

    call: FunctionCallContent = attrs.field(converter=_as_call, validator=_paired)
    """The call the model asked for."""

    result: FunctionResultContent | None = attrs.field(
        default=None, converter=_as_result, validator=_paired
    )
    """What the tool returned (``is_error`` when it failed), or ``None`` while pending."""

    duration: float | None = attrs.field(default=None, converter=_as_duration)
    """Seconds the tool took, or ``None``."""

    @property
    def id(self) -> str | None:
        """The call's id."""
        return self.call.id

    @property
    def name(self) -> str:
        """The function's name."""
        return self.call.name

    @property
    def output(self) -> Any:
        """The result's value (a string, a JSON value or a list of items), ``None`` if pending."""
        return None if self.result is None else self.result.result

    def __str__(self) -> str:
        """The call, then its result and duration: ``[tool call c1] f({}) -> [tool result ...]``."""
        return " -> ".join(_tool_run_lines(self))


# --- Run ------------------------------------------------------------------------------------


@attrs.define(slots=True, weakref_slot=False, init=False, on_setattr=_CHECKED)
class Run:
    """One model turn: the assistant message, its calls paired with results, and its usage.

    ``tool_calls`` pairs each of the message's function calls, in order, with its result and
    duration; left out, each call starts pending (no result). ``usage`` is the message's own
    (one place, so that the history `to_messages` gives keeps it): ``usage=`` stores it on the
    message. A streamed chunk given as the message becomes its finished message.

    Raises:
        InvalidTypeError: ``message`` is not a message, ``tool_calls`` not a list of `ToolRun`.
        InvalidValueError: the message is not an assistant's (``message.role``);
            ``tool_calls`` does not pair the message's calls one for one, in order
            (``tool_calls[1].call``).
    """

    message: ChatMessageContent = attrs.field(converter=_as_message)
    """The assistant message of the turn (text, reasoning, calls; its usage)."""

    tool_calls: list[ToolRun] = attrs.field(factory=list, converter=_as_tool_runs)
    """One `ToolRun` per call of the message, in the message's order."""

    def __init__(
        self,
        message: ChatMessageContent,
        tool_calls: Iterable[ToolRun] | None = None,
        *,
        usage: Usage | Mapping[str, int] | None = None,
    ) -> None:
        self.message = message  # converted and checked on assignment
        calls = self.message.function_calls
        if tool_calls is None:
            self.tool_calls = [ToolRun(call) for call in calls]
        else:
            self.tool_calls = tool_calls  # type: ignore[assignment]  # converted and checked
            _check_pairs(self.tool_calls, calls)
        if usage is not None:
            self.message.usage = usage

    @property
    def usage(self) -> Usage | None:
        """Tokens the turn used: the message's ``usage`` (a dict of fields assigned is read)."""
        return self.message.usage

    @usage.setter
    def usage(self, value: Usage | Mapping[str, int] | None) -> None:
        self.message.usage = value

    @property
    def text(self) -> str:
        """The message's text items joined with newlines; empty when it has none."""
        return self.message.text

    @property
    def thinking(self) -> str:
        """The readable reasoning of the turn, its reasoning items joined with newlines."""
        return "\n".join(item.text for item in self.message.reasoning if item.text)

    @property
    def results(self) -> list[FunctionResultContent]:
        """The results received so far, in call order."""
        return [run.result for run in self.tool_calls if run.result is not None]

    @property
    def pending(self) -> list[FunctionCallContent]:
        """The calls that have no result yet, in order."""
        return [run.call for run in self.tool_calls if run.result is None]

    def add_result(
        self, result: FunctionResultContent, *, duration: float | None = None
    ) -> ToolRun:
        """Pair ``result`` with the call it answers and return that call's `ToolRun`.

        The call is the one whose id is the result's ``call_id``; a result without one
        (Gemini matches by name) answers the first pending call of its ``name``, or the first
        pending call when it has no name either.

        Raises:
            InvalidTypeError: ``result`` is not a `FunctionResultContent`.
            InvalidValueError: no call of the turn has that id (``call_id``), or the call
                already has a result.
        """
        checked = _as_result(result)
        if checked is None:
            raise InvalidTypeError.mismatch("result", "a FunctionResultContent", "NoneType")
        run = self._run_for(checked)
        run.result = checked
        run.duration = duration  # converted and checked on assignment
        return run

    def _run_for(self, result: FunctionResultContent) -> ToolRun:
        call_id = result.call_id
        if call_id is not None:
            for run in self.tool_calls:
                if run.call.id == call_id:
                    if run.result is not None:
                        raise InvalidValueError(
                            f"the call {call_id!r} already has a result", path="call_id"
                        )
                    return run
            ids = ", ".join(repr(run.call.id) for run in self.tool_calls) or "none"
            raise InvalidValueError(
                f"no call of this turn has the id {call_id!r} (its calls: {ids})",
                path="call_id", got=repr(call_id),
            )
        for run in self.tool_calls:
            if run.result is None and (result.name is None or run.call.name == result.name):
                return run
        wanted = f" of {result.name!r}" if result.name is not None else ""
        raise InvalidValueError(
            f"a result without a call_id answers no pending call{wanted}", path="call_id"
        )

    def call_tools(
        self,
        toolset: ToolSet,
        *,
        parallel: bool = False,
        max_workers: int | None = None,
        timeout: float | None = None,
    ) -> ChatMessageContent:
        """Call the pending calls with ``toolset``, recording each result and its duration.

        Each call is made as `semantic_chat.tools.collect.call_tools` makes it (a bad call, a
        tool's exception or a call past ``timeout`` seconds is an error result; nothing
        raises), timed from its start to its result; with ``parallel=True`` the calls run at
        once in a pool of ``max_workers`` threads. Returns the tool message of the new
        results, in call order (an empty one when nothing was pending).

        Raises:
            InvalidTypeError: ``toolset`` is not a `ToolSet`, or an option of the wrong type.
            InvalidValueError: ``max_workers`` below 1, or a ``timeout`` that is not a
                positive, finite number of seconds.
        """
        check_call_options(toolset, parallel, max_workers, timeout)  # before any call
        pending = [tool_run for tool_run in self.tool_calls if tool_run.result is None]

        def timed(tool_run: ToolRun) -> tuple[FunctionResultContent, float]:
            one = ChatMessageContent(AuthorRole.ASSISTANT, items=[tool_run.call])
            start = time.perf_counter()
            [result] = call_tools(one, toolset, timeout=timeout).items
            return result, time.perf_counter() - start  # type: ignore[return-value]

        if parallel and len(pending) > 1:
            with ThreadPoolExecutor(max_workers, thread_name_prefix="semantic_chat-run") as pool:
                outcomes = list(pool.map(timed, pending))  # in the order given
        else:
            outcomes = [timed(tool_run) for tool_run in pending]
        return self._record(pending, outcomes)

    async def acall_tools(
        self,
        toolset: ToolSet,
        *,
        parallel: bool = False,
        max_workers: int | None = None,
        timeout: float | None = None,
    ) -> ChatMessageContent:
        """Await the pending calls with ``toolset``, recording each result and its duration.

        The asynchronous form of `call_tools`, each call awaited as
        `semantic_chat.tools.collect.acall_tools` awaits it; with ``parallel=True`` the calls
        run concurrently, at most ``max_workers`` at a time (no limit when ``None``).

        Raises:
            InvalidTypeError: as `call_tools`.
            InvalidValueError: as `call_tools`.
        """
        check_call_options(toolset, parallel, max_workers, timeout)  # before any call
        pending = [tool_run for tool_run in self.tool_calls if tool_run.result is None]
        limit = asyncio.Semaphore(max_workers) if parallel and max_workers is not None else None

        async def timed(tool_run: ToolRun) -> tuple[FunctionResultContent, float]:
            one = ChatMessageContent(AuthorRole.ASSISTANT, items=[tool_run.call])
            if limit is not None:
                await limit.acquire()
            try:
                start = time.perf_counter()
                [result] = (await acall_tools(one, toolset, timeout=timeout)).items
                return result, time.perf_counter() - start  # type: ignore[return-value]
            finally:
                if limit is not None:
                    limit.release()

        if parallel and len(pending) > 1:
            outcomes = list(await asyncio.gather(*(timed(tool_run) for tool_run in pending)))
        else:
            outcomes = [await timed(tool_run) for tool_run in pending]
        return self._record(pending, outcomes)

    @staticmethod
    def _record(
        pending: list[ToolRun], outcomes: list[tuple[FunctionResultContent, float]]
    ) -> ChatMessageContent:
        """Store each result and duration on its tool run; return the results' tool message."""
        for tool_run, (result, seconds) in zip(pending, outcomes, strict=True):
            tool_run.result = result
            tool_run.duration = seconds
        return ChatMessageContent(AuthorRole.TOOL, items=[result for result, _ in outcomes])

    @classmethod
    def accumulate(cls, chunks: Iterable[ChatMessageContent]) -> Run:
        """Build one turn from its stream: its assistant chunks, then any tool messages.

        The chunks merge as `StreamingChatMessageContent.accumulate` merges them, and the
        tool messages' results pair with the turn's calls, as `ChatResponse.accumulate` does
        for a stream of several turns.

        Raises:
            StreamMergeError: no assistant chunk at all, or chunks that cannot merge.
            InvalidValueError: a second turn (assistant chunks after a tool message), named
                at its first chunk; and as `ChatResponse.accumulate`.
            InvalidTypeError: as `ChatResponse.accumulate`.
        """
        runs = _stream_runs(chunks)
        if not runs:
            raise StreamMergeError("no assistant chunks to accumulate")
        if len(runs) > 1:
            raise InvalidValueError(
                "a second turn starts here, after the tool message: a Run is one turn "
                "(ChatResponse.accumulate reads several)",
                path=f"chunks[{runs[1][0]}]",
            )
        return runs[0][1]

    def to_messages(self) -> list[ChatMessageContent]:
        """The turn as the history keeps it: the assistant message, then a tool message.

        The tool message holds the results received, in call order (none: no tool message).
        A result that came without a call id (as Gemini's do), paired by its name, is written
        as a copy quoting its call's id, so that every format pairs it as the run did (an
        OpenAI tool message needs the id). The assistant message is this run's own object,
        not a copy.
        """
        results = [
            _quoting(run.result, run.call) for run in self.tool_calls if run.result is not None
        ]
        if not results:
            return [self.message]
        return [self.message, ChatMessageContent(AuthorRole.TOOL, items=results)]

    def __str__(self) -> str:
        """The turn as readable lines: a header with its usage, then each item."""
        return "\n".join([_run_header("run", self.message), *_run_lines(self)])


def _quoting(result: FunctionResultContent, call: FunctionCallContent) -> FunctionResultContent:
    """``result`` quoting ``call``'s id: itself when it does, or when the call has none."""
    if result.call_id is not None or call.id is None:
        return result
    return attrs.evolve(result, call_id=call.id)


def _check_pairs(tool_calls: list[ToolRun], calls: list[FunctionCallContent]) -> None:
    """Refuse tool runs that do not pair the message's calls one for one; share the calls."""
    for index, (run, call) in enumerate(zip(tool_calls, calls, strict=False)):
        if run.call is call:
            continue
        if run.call != call:
            raise InvalidValueError(
                f"is {describe_item(run.call)}, but the message's call {index} is "
                f"{describe_item(call)}",
                path=f"tool_calls[{index}].call",
            )
        run.call = call  # the one object, so that editing the call edits the message's
    if len(tool_calls) != len(calls):
        raise InvalidValueError(
            f"pairs {len(tool_calls)} call{'' if len(tool_calls) == 1 else 's'}, "
            f"but the message has {len(calls)}: a run pairs every call of its message",
            path="tool_calls", expected=str(len(calls)), got=str(len(tool_calls)),
        )


# --- ChatResponse ---------------------------------------------------------------------------


@attrs.define(slots=True, weakref_slot=False, on_setattr=_CHECKED)
class ChatResponse:
    """One request to a model, made of runs (turns), and whether it is finished (``done``).

    ``usage`` is the runs' total, added with `Usage`'s own ``+``: ``prompt_tokens``,
    ``completion_tokens`` and ``total_tokens`` are summed over the runs that report usage; an
    optional count (``cached_tokens``, ``reasoning_tokens``, ``cache_creation_tokens``) is
    the sum of the runs that report it, and ``None`` only when none does (not reported is not
    zero). A run without usage adds nothing; no run with usage gives ``None``.

    Raises:
        InvalidTypeError: ``runs`` is not a list of `Run`; ``done`` is not a bool.
    """

    runs: list[Run] = attrs.field(factory=list, converter=_as_runs)
    """The turns, in order."""

    done: bool = attrs.field(default=True, converter=_as_done)
    """Whether the request is finished (``False`` while a stream is still arriving)."""

    @property
    def usage(self) -> Usage | None:
        """The total of the runs' usage (see the class for the per-field rules)."""
        reported = [run.usage for run in self.runs if run.usage is not None]
        return sum(reported[1:], reported[0]) if reported else None

    @property
    def text(self) -> str:
        """The answer: the last run's text (empty without runs)."""
        return self.runs[-1].text if self.runs else ""

    @property
    def thinking(self) -> str:
        """The readable reasoning of every run, in order, joined with newlines."""
        return "\n".join(run.thinking for run in self.runs if run.thinking)

    @property
    def tool_calls(self) -> list[ToolRun]:
        """Every run's calls with their results and durations, in order."""
        return [tool_run for run in self.runs for tool_run in run.tool_calls]

    def to_messages(self) -> list[ChatMessageContent]:
        """The request's messages as the history keeps them, run after run."""
        return [message for run in self.runs for message in run.to_messages()]

    @classmethod
    def from_messages(
        cls, messages: Iterable[ChatMessageContent], *, done: bool = True
    ) -> ChatResponse:
        """Rebuild the runs from a history's messages (what `to_messages` gives).

        Each assistant message starts a run; the results in the tool messages after it pair
        with its calls. Durations are not in messages: they are ``None``.

        Raises:
            InvalidTypeError: something that is not a message (``messages[2]``), or a tool
                message item that is not a result (``messages[2].items[0]``).
            InvalidValueError: a message of another role, a tool message before any
                assistant message, or a result that answers no call of its turn
                (``messages[2].items[0].call_id``).
        """
        runs: list[Run] = []
        for index, message in enumerate(messages):
            where = f"messages[{index}]"
            if not isinstance(message, ChatMessageContent):
                raise InvalidTypeError.mismatch(
                    where, "a ChatMessageContent", describe_type(message)
                )
            if message.role == AuthorRole.TOOL:
                _attach_results(runs[-1] if runs else None, message, where)
            elif message.role == AuthorRole.ASSISTANT:
                try:
                    runs.append(Run(message))
                except SemanticChatError as error:
                    raise error.at(where) from None
            else:
                raise InvalidValueError(
                    f"a response holds assistant and tool messages, got {str(message.role)!r}",
                    path=f"{where}.role",
                )
        return cls(runs, done)

    @classmethod
    def accumulate(cls, chunks: Iterable[ChatMessageContent]) -> ChatResponse:
        """Build the response from a stream: assistant chunks and the tool messages between.

        The assistant chunks (`StreamingChatMessageContent`) between two tool messages are one
        turn, merged as `StreamingChatMessageContent.accumulate` merges them (usage: the last
        given wins). A tool message (plain or streamed) ends the turn before it, and its
        results pair with that turn's calls. ``done`` is whether the stream ended with an
        answer: the last turn has a finish reason and asks for no tool.

        Raises:
            InvalidTypeError: an element that is neither a chunk nor a tool message
                (``chunks[4]``), or a tool message item that is not a result.
            InvalidValueError: a chunk of another role, a tool message before any assistant
                chunk, or a result that answers no call of its turn
                (``chunks[5].items[0].call_id``).
            StreamMergeError: chunks of one turn that cannot merge (``chunks[3].role``).
        """
        runs = [run for _, run in _stream_runs(chunks)]
        last = runs[-1] if runs else None
        done = last is not None and last.message.finish_reason is not None and not last.tool_calls
        return cls(runs, done)

    def __str__(self) -> str:
        """Each run as readable lines (``run 1 · ...``), then the state and total usage."""
        blocks = []
        for number, run in enumerate(self.runs, 1):
            lines = [_run_header(f"run {number}", run.message), *_run_lines(run)]
            blocks.append("\n".join(lines))
        state = "done" if self.done else "not done"
        count = len(self.runs)
        footer = f"{state} · {count} run{'' if count == 1 else 's'}"
        usage = self.usage
        if usage is not None:
            footer += f" · {_describe_usage(usage)}"
        return "\n\n".join([*blocks, footer])


def _stream_runs(chunks: Iterable[ChatMessageContent]) -> list[tuple[int, Run]]:
    """The runs of a stream, each with the index of the chunk that starts it."""
    runs: list[tuple[int, Run]] = []
    turn: list[tuple[int, StreamingChatMessageContent]] = []
    for index, chunk in enumerate(chunks):
        where = f"chunks[{index}]"
        if isinstance(chunk, ChatMessageContent) and chunk.role == AuthorRole.TOOL:
            if turn:
                runs.append((turn[0][0], _merged_turn(turn)))
                turn = []
            _attach_results(runs[-1][1] if runs else None, chunk, where)
        elif isinstance(chunk, StreamingChatMessageContent):
            if chunk.role is not None and chunk.role != AuthorRole.ASSISTANT:
                raise InvalidValueError(
                    "a response streams assistant turns and tool messages, "
                    f"got a chunk of role {str(chunk.role)!r}",
                    path=f"{where}.role",
                )
            turn.append((index, chunk))
        else:
            got = (
                f"a {type(chunk).__name__} of role {str(chunk.role)!r}"
                if isinstance(chunk, ChatMessageContent)
                else describe_type(chunk)
            )
            raise InvalidTypeError.mismatch(
                where, "a StreamingChatMessageContent or a tool message", got
            )
    if turn:
        runs.append((turn[0][0], _merged_turn(turn)))
    return runs


def _merged_turn(turn: list[tuple[int, StreamingChatMessageContent]]) -> Run:
    """Merge one turn's chunks into a run, locating a merge error at its chunk."""
    at = [turn[0][0]]

    def chunks() -> Iterator[StreamingChatMessageContent]:
        for index, chunk in turn:
            at[0] = index
            yield chunk

    try:
        merged = StreamingChatMessageContent.accumulate(chunks())
    except SemanticChatError as error:
        raise error.at(f"chunks[{at[0]}]") from None
    try:
        return Run(merged)
    except SemanticChatError as error:
        raise error.at(f"chunks[{turn[0][0]}]") from None


def _attach_results(run: Run | None, message: ChatMessageContent, where: str) -> None:
    """Pair a tool message's results with the calls of ``run``, the last one before it."""
    if run is None:
        raise InvalidValueError("a tool message before any assistant turn", path=where)
    for index, item in enumerate(message.items):
        if not isinstance(item, FunctionResultContent):
            raise InvalidTypeError.mismatch(
                f"{where}.items[{index}]", "a FunctionResultContent", describe_type(item)
            )
        try:
            run.add_result(item)
        except SemanticChatError as error:
            raise error.at(f"{where}.items[{index}]") from None


# --- showing --------------------------------------------------------------------------------


def _describe_usage(usage: Usage) -> str:
    return (
        f"tokens {usage.prompt_tokens:,} in + {usage.completion_tokens:,} out"
        f" = {usage.total_tokens:,}"
    )


def _describe_duration(seconds: float) -> str:
    """Seconds for people: ``0.135 ms``, ``12.5 ms``, ``1.5 s``."""
    if seconds < 1:
        return f"{seconds * 1000:.3g} ms"
    return f"{seconds:.3g} s"


def _run_header(title: str, message: ChatMessageContent) -> str:
    details = [title]
    if message.model_id is not None:
        details.append(f"model={message.model_id}")
    if message.finish_reason is not None:
        details.append(f"finish={message.finish_reason}")
    if message.usage is not None:
        details.append(_describe_usage(message.usage))
    return " · ".join(details)


def _tool_run_lines(tool_run: ToolRun) -> list[str]:
    """The call's line, then its result's: quoting the call's id, as `Run.to_messages` does."""
    lines = [describe_item(tool_run.call)]
    if tool_run.result is None:
        lines.append("(no result yet)")
    else:
        line = describe_item(_quoting(tool_run.result, tool_run.call))
        if tool_run.duration is not None:
            line += f" · {_describe_duration(tool_run.duration)}"
        lines.append(line)
    return lines


def _run_lines(run: Run) -> list[str]:
    """The message's items, one a line, each call followed by its result and duration."""
    by_call = {id(tool_run.call): tool_run for tool_run in run.tool_calls}
    lines: list[str] = []
    for item in run.message.items:
        tool_run = by_call.get(id(item))
        if tool_run is not None:
            call_line, result_line = _tool_run_lines(tool_run)
            lines.extend([f"   {call_line}", f"     -> {result_line}"])
            continue
        lines.extend(f"   {line}" for line in _item_lines(item))
    return lines


def _item_lines(item: KernelContent) -> list[str]:
    lines = describe_item(item).splitlines() or [""]
    if isinstance(item, TextContent):
        lines.extend(f"  {describe_citation(citation)}" for citation in item.citations)
    return lines


# --- serialization ----------------------------------------------------------------------------


def configure_converter(converter: cattrs.Converter) -> None:
    """Make ``converter`` refuse anything but a list where runs or tool runs are read.

    Without it a converter still writes and reads these classes (they are attrs classes whose
    fields it knows), but reads an object given for a list as the list of its keys. Done at
    import for the converter `semantic_chat.serialization.to_dict` and ``from_dict`` use.
    """
    for cls in (Run, ToolRun):
        converter.register_structure_hook_func(_is_list_of(cls), _list_reader(converter, cls))


def _is_list_of(cls: type) -> Callable[[Any], bool]:
    listed: Any = list[cls]  # type: ignore[valid-type]

    def matches(hint: Any) -> bool:
        return bool(hint == listed)

    return matches


def _list_reader(converter: cattrs.Converter, cls: type) -> Any:
    def read(value: Any, _: Any) -> list[Any]:
        if type(value) is not list:
            raise SerializationError.mismatch("", "a list", describe_type(value))
        read_list: list[Any] = []
        for index, element in enumerate(value):
            try:
                read_list.append(converter.structure(element, cls))
            except Exception as error:
                raise locate_error(error).at(f"[{index}]") from None
        return read_list

    return read


configure_converter(_converter)
