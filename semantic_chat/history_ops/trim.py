"""Fit a history to a budget: `trim` (LangChain's ``trim_messages``) and `reduce` (SK's).

`trim` keeps what fits a token or message budget, `reduce` is Semantic Kernel's truncation
reducer (a message count with a threshold). Both cut only between the spans of
`units.spans`, so a function call and its results are kept or dropped together and a kept
history never starts on a tool result. Both are pure: the result is a new `ChatHistory` with
the input's ``options``; the messages kept whole are the input's own objects, and a message
cut short (``allow_partial``) is a new one.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Literal

import attrs

from ..contents import FunctionCallContent, FunctionResultContent, KernelContent, TextContent
from ..errors import InvalidTypeError, InvalidValueError, SemanticChatError, describe_type
from ..history import ChatHistory
from ..labels import AuthorRole
from ..message import ChatMessageContent
from ..trusted import new_history
from .tokens import checked_count, count_tokens_approximately, overhead_of
from .units import spans, spans_from_end

__all__ = ["reduce", "trim"]

_INSTRUCTION_ROLES = (AuthorRole.SYSTEM, AuthorRole.DEVELOPER)
_Counter = Callable[[ChatMessageContent], int]


def _messages_of(history: object) -> tuple[list[ChatMessageContent], ChatHistory | None]:
    """The messages of ``history`` (a `ChatHistory` or a list of messages), and the history."""
    if isinstance(history, ChatHistory):
        return list(history), history
    if isinstance(history, (list, tuple)):
        return list(ChatHistory(history)), None
    raise InvalidTypeError.mismatch(
        "history", "a ChatHistory or a list of messages", describe_type(history)
    )


def _limit(value: object, field: str) -> int | None:
    if value is None:
        return None
    if type(value) is not int:
        raise InvalidTypeError.mismatch(field, "an int or None", describe_type(value))
    if value < 0:
        raise InvalidValueError(f"must not be negative, got {value}", path=field)
    return value


def _roles(value: object, field: str) -> frozenset[AuthorRole] | None:
    """``start_on`` / ``end_on`` as a set of roles: one role, several, or ``None``."""
    if value is None:
        return None
    if not isinstance(value, Iterable):
        raise InvalidTypeError.mismatch(
            field, "a role, a list of roles or None", describe_type(value)
        )
    given: Iterable[object] = (value,) if isinstance(value, str) else value
    roles = set()
    for index, role in enumerate(given):
        where = field if isinstance(value, str) else f"{field}[{index}]"
        if not isinstance(role, str):
            raise InvalidTypeError.mismatch(where, "a role", describe_type(role))
        try:
            roles.add(role if type(role) is AuthorRole else AuthorRole(role))
        except SemanticChatError as error:
            raise error.with_path(where) from None
    return frozenset(roles)


def _splitter(value: object) -> Callable[[str], list[str]]:
    if value is None:
        return _split_lines
    if not callable(value):
        raise InvalidTypeError.mismatch(
            "text_splitter", "a function from a str to a list of str", describe_type(value)
        )
    return value


_AFTER_NEWLINE = re.compile(r"(?<=\n)")


def _split_lines(text: str) -> list[str]:
    """The default `trim` text splitter: lines, each with its newline (as LangChain splits)."""
    return _AFTER_NEWLINE.split(text)


def _holds_calls(message: ChatMessageContent) -> bool:
    return any(
        isinstance(item, (FunctionCallContent, FunctionResultContent)) for item in message.items
    )


def _with_items(message: ChatMessageContent, items: list[KernelContent]) -> ChatMessageContent:
    """A new message like ``message`` holding ``items`` (the input is left as it is)."""
    return attrs.evolve(message, items=items)


def _partial(
    message: ChatMessageContent,
    index: int,
    budget: int,
    counter: _Counter,
    *,
    from_end: bool,
    splitter: Callable[[str], list[str]],
) -> ChatMessageContent | None:
    """The most of ``message`` that costs at most ``budget``: its items, then a text's pieces.

    ``message`` is ``messages[index]``. ``from_end`` keeps the end of the message (strategy
    ``"last"``), else its start. Whole
    items are tried first (the most of them that fit); when not even one fits, the text item
    nearest the kept side is split by ``splitter`` and the most of its pieces that fit are
    kept, alone in the message. ``None`` when nothing fits.
    """
    items = list(message.items)
    for count in range(len(items) - 1, 0, -1):
        kept = items[-count:] if from_end else items[:count]
        candidate = _with_items(message, kept)
        if checked_count(counter(candidate), index) <= budget:
            return candidate
    texts = [item for item in items if isinstance(item, TextContent)]
    if not texts:
        return None
    text = texts[-1] if from_end else texts[0]
    pieces = splitter(text.text)
    if not isinstance(pieces, list) or not all(isinstance(piece, str) for piece in pieces):
        raise InvalidTypeError.mismatch(
            "text_splitter", "a function returning a list of str", describe_type(pieces)
        )
    best: ChatMessageContent | None = None
    low, high = 1, len(pieces) - (1 if len(items) == 1 else 0)
    while low <= high:  # the most pieces that fit: the count grows with the pieces kept
        middle = (low + high) // 2
        chosen = pieces[-middle:] if from_end else pieces[:middle]
        piece = attrs.evolve(text, text="".join(chosen), citations=())
        candidate = _with_items(message, [piece])
        if checked_count(counter(candidate), index) <= budget:
            best, low = candidate, middle + 1
        else:
            high = middle - 1
    return best


def trim(
    history: ChatHistory | Sequence[ChatMessageContent],
    max_tokens: int | None = None,
    max_messages: int | None = None,
    *,
    token_counter: _Counter = count_tokens_approximately,
    strategy: Literal["last", "first"] = "last",
    keep_system: bool = True,
    start_on: AuthorRole | str | Sequence[AuthorRole | str] | None = AuthorRole.USER,
    end_on: AuthorRole | str | Sequence[AuthorRole | str] | None = None,
    allow_partial: bool = False,
    text_splitter: Callable[[str], list[str]] | None = None,
) -> ChatHistory:
    """Keep the last (or first) messages that fit ``max_tokens`` and ``max_messages``.

    LangChain's ``trim_messages``, cutting only between spans (`units.spans`): a call and its
    results are kept or dropped together, and the kept part never starts on a tool result.
    With ``strategy="last"`` the kept messages are a suffix of the history (after the
    instructions kept at its top), with ``"first"`` a prefix. Each message is counted once by
    ``token_counter`` (a `TokenCounter`), plus its ``overhead`` once; ``max_messages``
    counts messages. Give either limit or both.

    - ``keep_system``: the system and developer messages at the top of the history are kept
      and count against both limits (when they alone exceed them, only they are left).
      Instructions later in the history are kept only when they fall in the kept part.
    - ``start_on`` (``"last"`` only; a prefix starts where the history does): the kept part
      starts at the first span opening with a message of that role (or roles); spans
      before it are dropped too. ``None`` keeps whatever fits.
    - ``end_on``: the kept part ends with a span whose last message has that role. With
      ``"last"`` the spans after the last such span are dropped first; with ``"first"``
      the kept prefix is shortened to end on one.
    - ``allow_partial``: the first message that does not fit is cut to fit, if it is a span
      of its own without calls or results: as many of its items as fit (the last ones with
      ``"last"``, the first ones with ``"first"``), else the nearest text item alone, cut at
      ``text_splitter``'s pieces (lines by default, each with its newline). That message is
      new, with the same role and fields; citations of a cut text are dropped.

    Returns a new `ChatHistory` with the input's ``options``; kept messages are the same
    objects as the input's.

    Raises:
        InvalidValueError: no limit given, a negative limit, an unknown ``strategy``, or a
            blank role in ``start_on`` / ``end_on``; the message names the argument.
        InvalidTypeError: an argument of the wrong type (named), or a counter that returned
            something other than an ``int`` (``messages[3]``).
    """
    messages, source = _messages_of(history)
    token_limit = _limit(max_tokens, "max_tokens")
    message_limit = _limit(max_messages, "max_messages")
    if token_limit is None and message_limit is None:
        raise InvalidValueError(
            "give max_tokens, max_messages or both: the budget to trim to", path="max_tokens"
        )
    if strategy not in ("last", "first"):
        raise InvalidValueError(f"expected 'last' or 'first', got {strategy!r}", path="strategy")
    if not callable(token_counter):
        raise InvalidTypeError.mismatch(
            "token_counter", "a function of one message", describe_type(token_counter)
        )
    starts = _roles(start_on, "start_on")
    ends = _roles(end_on, "end_on")
    splitter = _splitter(text_splitter)
    options = source.options if source is not None else None

    head = 0  # the instructions kept at the top: spans of their own, as they hold no calls
    if keep_system:
        while (
            head < len(messages)
            and messages[head].role in _INSTRUCTION_ROLES
            and not messages[head].function_calls
        ):
            head += 1
    kept_head = messages[:head]

    tokens_left = None
    if token_limit is not None:
        tokens_left = token_limit - overhead_of(token_counter)
        for index, message in enumerate(kept_head):
            tokens_left -= checked_count(token_counter(message), index)
    messages_left = None if message_limit is None else message_limit - len(kept_head)
    if strategy == "last":
        kept = _last(
            messages,
            head,
            tokens_left,
            messages_left,
            token_counter,
            starts=starts,
            ends=ends,
            allow_partial=allow_partial,
            splitter=splitter,
        )
    else:
        body = [span for span in spans(messages) if span[0] >= head]
        kept = _first(
            messages,
            body,
            tokens_left,
            messages_left,
            token_counter,
            ends=ends,
            allow_partial=allow_partial,
            splitter=splitter,
        )
    if (tokens_left is not None and tokens_left < 0) or (
        messages_left is not None and messages_left < 0
    ):
        kept = []
    return new_history([*kept_head, *kept], options)


def _fits(tokens_left: int | None, messages_left: int | None, tokens: int, count: int) -> bool:
    return (tokens_left is None or tokens <= tokens_left) and (
        messages_left is None or count <= messages_left
    )


def _last(
    messages: list[ChatMessageContent],
    head: int,
    tokens_left: int | None,
    messages_left: int | None,
    counter: _Counter,
    *,
    starts: frozenset[AuthorRole] | None,
    ends: frozenset[AuthorRole] | None,
    allow_partial: bool,
    splitter: Callable[[str], list[str]],
) -> list[ChatMessageContent]:
    """The kept suffix of ``messages[head:]``, for `trim` with ``strategy="last"``.

    The spans are found from the end back (`spans_from_end`) and counted as they come, so
    only the kept messages and the span that does not fit are read.
    """
    if (tokens_left is not None and tokens_left < 0) or (
        messages_left is not None and messages_left < 0
    ):
        return []
    walk = spans_from_end(messages, head)
    last = len(messages)  # the kept messages end here
    if ends is not None:
        for start, stop in walk:
            if messages[stop - 1].role in ends:
                break
            last = start
        else:
            return []
        walk = itertools.chain([(start, stop)], walk)
    taken, partial = _take(
        messages,
        walk,
        tokens_left,
        messages_left,
        counter,
        allow_partial=allow_partial,
        splitter=splitter,
        from_end=True,
    )
    openings = [start for start, _ in taken]  # the starts of the kept spans, the last first
    # The kept part opens on a span: drop those that open on a tool message (results whose
    # calls are not in the history: orphans of the input) and, with ``start_on``, those
    # before the first that opens with one of its roles.
    if partial is not None and _opens(partial, starts):
        return [partial, *messages[openings[-1] : last]] if openings else [partial]
    while openings and not _opens(messages[openings[-1]], starts):
        openings.pop()
    return messages[openings[-1] : last] if openings else []


def _take(
    messages: list[ChatMessageContent],
    walk: Iterable[tuple[int, int]],
    tokens_left: int | None,
    messages_left: int | None,
    counter: _Counter,
    *,
    allow_partial: bool,
    splitter: Callable[[str], list[str]],
    from_end: bool,
) -> tuple[list[tuple[int, int]], ChatMessageContent | None]:
    """The spans of ``walk`` taken in its order while they fit, and the message cut after them.

    Each message is counted once, when its span comes. The first span that does not fit ends
    the walk; with ``allow_partial`` it is cut to fit (`_partial`) if it is one message
    without calls or results.
    """
    taken: list[tuple[int, int]] = []
    for start, stop in walk:
        tokens = 0
        if tokens_left is not None:
            for index in range(start, stop):
                tokens += checked_count(counter(messages[index]), index)
        if not _fits(tokens_left, messages_left, tokens, stop - start):
            if (
                allow_partial
                and tokens_left is not None
                and stop - start == 1
                and (messages_left is None or messages_left >= 1)
                and not _holds_calls(messages[start])
            ):
                message = messages[start]
                cut = _partial(
                    message, start, tokens_left, counter, from_end=from_end, splitter=splitter
                )
                return taken, cut
            return taken, None
        if tokens_left is not None:
            tokens_left -= tokens
        if messages_left is not None:
            messages_left -= stop - start
        taken.append((start, stop))
    return taken, None


def _opens(message: ChatMessageContent, starts: frozenset[AuthorRole] | None) -> bool:
    """Whether a kept suffix may open on ``message``: not a tool message, a ``start_on`` role."""
    role = message.role
    return role != AuthorRole.TOOL and (starts is None or role in starts)


def _first(
    messages: list[ChatMessageContent],
    body: list[tuple[int, int]],
    tokens_left: int | None,
    messages_left: int | None,
    counter: _Counter,
    *,
    ends: frozenset[AuthorRole] | None,
    allow_partial: bool,
    splitter: Callable[[str], list[str]],
) -> list[ChatMessageContent]:
    """The kept prefix of the ``body`` spans, for `trim` with ``strategy="first"``."""
    if (tokens_left is not None and tokens_left < 0) or (
        messages_left is not None and messages_left < 0
    ):
        return []
    kept_spans, partial = _take(
        messages,
        body,
        tokens_left,
        messages_left,
        counter,
        allow_partial=allow_partial,
        splitter=splitter,
        from_end=False,
    )
    taken = len(kept_spans)
    if ends is not None:
        if partial is not None and partial.role not in ends:
            partial = None
        if partial is None:
            while taken and messages[body[taken - 1][1] - 1].role not in ends:
                taken -= 1
    kept = messages[body[0][0] : body[taken - 1][1]] if taken else []
    return [*kept, partial] if partial is not None else kept


def _count(value: object, field: str, minimum: int) -> int:
    if type(value) is not int:
        raise InvalidTypeError.mismatch(field, "an int", describe_type(value))
    if value < minimum:
        raise InvalidValueError(f"must be at least {minimum}, got {value}", path=field)
    return value


def reduce(
    history: ChatHistory | Sequence[ChatMessageContent],
    target_count: int,
    threshold_count: int = 0,
    *,
    strategy: Literal["truncate"] = "truncate",
) -> ChatHistory:
    """Semantic Kernel's truncation reducer: keep about the last ``target_count`` messages.

    Nothing happens until the history holds more than ``target_count + threshold_count``
    messages (the history comes back as a new, equal history). Then the cut goes before the
    last ``target_count`` messages, moved back to the start of the span it falls in (never
    between a call and its results) and past tool messages (results whose calls are not in
    the history), as Semantic Kernel moves it; a user message that starts a span within the
    ``threshold_count`` messages before it is a better cut, and the nearest is taken. The
    first system or developer message is kept in front when the cut passes it, and then
    counts in ``target_count`` (with ``target_count=1`` only it is left). As in Semantic
    Kernel's Python reducer (its .NET one cuts before the user message that led to a call,
    keeping one message more), later instructions before the cut are dropped.

    Returns a new `ChatHistory` with the input's ``options``; the kept messages are the same
    objects as the input's.

    Raises:
        InvalidValueError: ``target_count`` below 1, ``threshold_count`` below 0, or a
            ``strategy`` other than ``"truncate"``; the message names the argument.
        InvalidTypeError: an argument of the wrong type (named).
    """
    messages, source = _messages_of(history)
    target = _count(target_count, "target_count", 1)
    threshold = _count(threshold_count, "threshold_count", 0)
    if strategy != "truncate":
        raise InvalidValueError(f"expected 'truncate', got {strategy!r}", path="strategy")
    options = source.options if source is not None else None
    total = len(messages)
    if total <= target + threshold:
        return new_history(messages, options)
    instruction = next(
        (index for index, message in enumerate(messages) if message.role in _INSTRUCTION_ROLES),
        -1,
    )
    if 0 <= instruction < total - target:
        target -= 1
        if target == 0:
            return new_history([messages[instruction]], options)
    threshold_index = total - threshold - target
    if threshold_index <= 0:
        return new_history(messages, options)
    span_start = [0] * total
    is_start = [False] * total
    for start, stop in spans(messages):
        is_start[start] = True
        for index in range(start, stop):
            span_start[index] = start
    cut = span_start[total - target]
    while cut and messages[cut].role == AuthorRole.TOOL:  # an orphan result opens no history
        cut = span_start[cut - 1]
    index = cut
    while index >= threshold_index:
        if is_start[index] and messages[index].role == AuthorRole.USER:
            cut = index
            break
        index -= 1
    kept = messages[cut:]
    if 0 <= instruction < cut:
        kept.insert(0, messages[instruction])
    return new_history(kept, options)
