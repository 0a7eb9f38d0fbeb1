"""The cut points of a history: the spans that must be kept or dropped whole.

An assistant message with function calls and the messages holding their results form one span,
from the call to the last of its results, whatever lies between (parallel calls, results spread
over several tool messages and in any order, a user message sent meanwhile): cutting inside it
would leave a call without its result or a result without its call, which providers refuse.
Spans that overlap (a tool message answering calls of two assistant messages) are one span.
Every other message, a system message included, is a span of its own. A result whose call id
no earlier call has (an orphan) ties nothing together and is a span of its own.

Pure index arithmetic in one pass over the messages; `trim` and `reduce` cut only between spans.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence

from ..contents import FunctionCallContent, FunctionResultContent
from ..errors import InvalidTypeError, describe_type
from ..history import ChatHistory
from ..message import ChatMessageContent

__all__ = ["span_ends", "spans", "spans_from_end"]


def span_ends(messages: Sequence[ChatMessageContent]) -> list[int]:
    """For each message, the index one past the last message its span must keep with it.

    ``ends[i]`` is at least ``i + 1``; for an assistant message with calls it is one past the
    last message holding one of their results. A result belongs to the latest call with its
    id in an earlier message; one without an id (Gemini's) to the latest call of its name. The
    span boundaries follow by a running maximum (see `spans`).
    """
    ends = list(range(1, len(messages) + 1))
    calls_at: dict[str, int] = {}  # call id -> the latest message that made that call
    names_at: dict[str, int] = {}  # function name -> the latest message that called it
    for index, message in enumerate(messages):
        made: list[FunctionCallContent] = []
        for item in message.items:
            if isinstance(item, FunctionResultContent):
                call_id = item.call_id
                if call_id is not None:
                    caller = calls_at.get(call_id)
                elif item.name is not None:
                    caller = names_at.get(item.name)
                else:
                    caller = None
                if caller is not None and ends[caller] <= index:
                    ends[caller] = index + 1
            elif isinstance(item, FunctionCallContent):
                made.append(item)
        for call in made:
            if call.id is not None:
                calls_at[call.id] = index
            names_at[call.name] = index
    return ends


def spans(messages: Sequence[ChatMessageContent]) -> list[tuple[int, int]]:
    """The history's atomic spans, in order, as ``(start, stop)`` index pairs (stop excluded).

    Consecutive and covering: the first starts at 0, each starts where the previous stops,
    the last stops at ``len(messages)``. A history may be cut only at a span's start.

    >>> from semantic_chat import ChatHistory, FunctionCallContent
    >>> history = ChatHistory(system_message="Be brief.")
    >>> _ = history.add_user_message("Weather in Paris?")
    >>> _ = history.add_assistant_message(items=[FunctionCallContent("c1", "weather")])
    >>> _ = history.add_tool_message("18 C", call_id="c1")
    >>> _ = history.add_assistant_message("18 C and sunny.")
    >>> spans(history)
    [(0, 1), (1, 2), (2, 4), (4, 5)]

    Raises:
        InvalidTypeError: an element is not a message (``messages[1]: expected a
            ChatMessageContent, got str``).
    """
    check_messages(messages)
    ends = span_ends(messages)
    found: list[tuple[int, int]] = []
    start = 0
    reach = 0
    for index, end in enumerate(ends):
        if index >= reach and index > start:
            found.append((start, index))
            start = index
        reach = max(reach, end)
    if ends:
        found.append((start, len(ends)))
    return found


def check_messages(messages: Iterable[object]) -> None:
    """Refuse, at its index, an element that is not a message (a history's are).

    Raises:
        InvalidTypeError: ``messages[i]: expected a ChatMessageContent, got str``.
    """
    if isinstance(messages, ChatHistory):
        return
    for index, message in enumerate(messages):
        checked_message(message, index)


def checked_message(message: object, index: int) -> ChatMessageContent:
    """``message``, refused at ``messages[index]`` when it is not a message.

    Raises:
        InvalidTypeError: ``messages[i]: expected a ChatMessageContent, got str``.
    """
    if not isinstance(message, ChatMessageContent):
        raise InvalidTypeError.mismatch(
            f"messages[{index}]", "a ChatMessageContent", describe_type(message)
        )
    return message


def spans_from_end(
    messages: Sequence[ChatMessageContent], low: int = 0
) -> Iterator[tuple[int, int]]:
    """The spans of ``messages[low:]`` from the last one back, found lazily (`spans`' spans).

    Walking back, a span closes at the first message before which no later result waits for
    its call; a consumer that stops early (`trim` keeping the end of a long history) reads
    only the messages it keeps and the span that did not fit. A result whose call is nowhere
    before it (an orphan) would keep a span open to ``low``: then the rest is split forward
    by `spans`, which knows orphans stand alone. ``low`` must not split a span (`trim` gives
    the end of the instructions at the top, which hold no calls).
    """
    waiting: set[str] = set()  # call ids of results after the walk whose calls are not found
    # The names of results without a call id (answering the call of that name) still waiting,
    # with how many wait.
    by_name: Counter[str] = Counter()
    stop = len(messages)
    index = stop - 1
    while index >= low:
        answered: list[str] = []  # this message's results wait for calls before it
        named: list[str] = []
        message = checked_message(messages[index], index)  # checked as it is met: lazily
        for item in message.items:
            if isinstance(item, FunctionCallContent):
                if item.id is not None and item.id in waiting:
                    waiting.discard(item.id)
                elif by_name[item.name] > 0:
                    by_name[item.name] -= 1
            elif isinstance(item, FunctionResultContent):
                if item.call_id is not None:
                    answered.append(item.call_id)
                elif item.name is not None:
                    named.append(item.name)
        waiting.update(answered)
        by_name.update(named)
        if not waiting and not +by_name:
            yield index, stop
            stop = index
        index -= 1
    if waiting or +by_name:  # orphans: split what is left the forward way
        for start, end in reversed(spans(messages[low:stop])):
            yield low + start, low + end
