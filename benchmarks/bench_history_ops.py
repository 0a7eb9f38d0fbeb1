"""Trimming a long history to a token budget: semantic_chat's ``trim`` vs LangChain's.

Run from the repository root: ``python benchmarks/bench_history_ops.py [--quick]``.

The issue's bar: ``semantic_chat.history_ops.trim`` of a 10,000-message history to 8,000
tokens with ``count_tokens_approximately`` is at least 5x faster than
``langchain_core.messages.trim_messages`` with LangChain's own ``count_tokens_approximately``
on the same conversation, measured in the same run; and its cost grows no faster than the
history (1,000 / 10,000 / 100,000 messages).

The history (`long_conversation`): one system prompt, then the turns of `corpus.py`'s
conversations one after another (their own system prompts left out) up to the size asked:
user texts, images and audio clips, answers, parallel tool calls and their results. It is
read into a ``ChatHistory`` with ``openai_chat.from_payload`` and into LangChain messages
with ``contenders.LangChain.build`` (the main benchmark's conversion). Both trims are asked
the same thing, the usual setting before a request: keep the most recent messages that fit
(``strategy="last"``), keep the system prompt in front (``keep_system=True`` /
``include_system=True``), start on a user message (``start_on="user"`` / ``"human"``).

Two budgets per size: 8,000 tokens (a small, fixed part of the end is kept, whatever the
length), and half of the history's own count under each library's counter (half the history
is kept: the trim has to walk it, so a pass that is not linear would show). LangChain's
trim counts prefixes of the list in a binary search, so half a 100,000-message history takes
it seconds a call; it is left out there.

Before timing, every result is checked (`check`): both keep the same messages under a
counter that counts both representations alike (`shared_ours` / `shared_langchain`), each
result fits its budget under its own counter, no tool call is parted from its results, and
the input is unchanged. With each library's own approximate counter the two keep different
numbers of messages, as the counters differ (`counter_table` says by how much, per kind of
message).

Timing: every sample is the first trim of inputs built afresh for it (nothing either library
might remember from an earlier call applies), one sample per operation per round, the
operations in a new random order each round, the garbage collector off while timing. The
figures are medians over the rounds, wall clock and CPU time of the thread.

Prints a markdown section (run.py puts it into RESULTS.md).
"""

from __future__ import annotations

import argparse
import gc
import math
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import fmt, median, table, verdict, version
from contenders import LangChain
from corpus import make_corpus
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
    trim_messages,
)
from langchain_core.messages.utils import (
    count_tokens_approximately as langchain_count_tokens_approximately,
)

from semantic_chat import ChatHistory, ChatMessageContent
from semantic_chat.contents import (
    AudioContent,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    TextContent,
)
from semantic_chat.formats import openai_chat
from semantic_chat.history_ops import count_tokens, count_tokens_approximately, trim

Message = dict[str, Any]

BUDGET = 8_000
SIZES = (1_000, 10_000, 100_000)
LANGCHAIN_HALF_LIMIT = 10_000
"""The largest history LangChain's trim is timed on at half its tokens (see the docstring)."""

# Per-item figures of the shared counter: only for checking that both trims cut alike.
_CALL, _IMAGE, _AUDIO, _OVERHEAD = 10, 85, 100, 3


# --- the history ----------------------------------------------------------------------------


def conversation_parts(count: int) -> tuple[Message, list[list[Message]]]:
    """A system prompt, and the turns (a user message and what answers it) of enough corpus
    conversations for ``count`` messages, in the corpus's order."""
    turns: list[list[Message]] = []
    total = 0
    conversations = make_corpus(count // 10 + 20)
    for conversation in conversations:
        current: list[Message] = []
        for message in conversation[1:]:  # the conversation's own system prompt left out
            if message["role"] == "user" and current:
                turns.append(current)
                total += len(current)
                current = []
            current.append(message)
        turns.append(current)
        total += len(current)
    if total < count:
        raise ValueError(f"corpus: {total} messages of turns, {count} needed")
    return conversations[0][0], turns


def long_conversation(size: int, system: Message, turns: list[list[Message]]) -> list[Message]:
    """The system prompt and whole turns, ``size`` messages (Chat Completions dicts).

    Turns are taken in order while they fit; a turn that would not fit is skipped for a
    shorter one. If one message is still missing, the history ends on a user message (the
    question a request would carry).
    """
    messages: list[Message] = [system]
    for turn in turns:
        room = size - len(messages)
        if room == 0:
            break
        if len(turn) <= room:
            messages.extend(turn)
        elif room == 1:
            messages.append(turn[0])
    if len(messages) != size:
        raise ValueError(f"long_conversation: {len(messages)} messages made, {size} asked")
    return messages


def to_history(messages: list[Message]) -> ChatHistory:
    return openai_chat.from_payload(messages)


_LANGCHAIN = LangChain()


def to_langchain(messages: list[Message]) -> list[BaseMessage]:
    return _LANGCHAIN.build(messages)


# --- the operations -------------------------------------------------------------------------


def ours(history: ChatHistory, max_tokens: int, counter: Any = None) -> ChatHistory:
    return trim(
        history,
        max_tokens=max_tokens,
        token_counter=counter or count_tokens_approximately,
        strategy="last",
        keep_system=True,
        start_on="user",
    )


def theirs(messages: list[BaseMessage], max_tokens: int, counter: Any = None) -> list[Any]:
    return trim_messages(
        messages,
        max_tokens=max_tokens,
        token_counter=counter or langchain_count_tokens_approximately,
        strategy="last",
        include_system=True,
        start_on="human",
    )


# --- the shared counter and fingerprints (checks only) ----------------------------------------


def _ours_parts(message: ChatMessageContent) -> tuple[str, int, int, int]:
    texts: list[str] = []
    calls = images = audio = 0
    for item in message.items:
        if isinstance(item, TextContent):
            texts.append(item.text)
        elif isinstance(item, FunctionResultContent):
            texts.append(item.result if isinstance(item.result, str) else repr(item.result))
        elif isinstance(item, FunctionCallContent):
            calls += 1
        elif isinstance(item, ImageContent):
            images += 1
        elif isinstance(item, AudioContent):
            audio += 1
        else:
            raise TypeError(f"unexpected item {type(item).__name__}")
    return "".join(texts), calls, images, audio


def _langchain_parts(message: BaseMessage) -> tuple[str, int, int, int]:
    texts: list[str] = []
    images = audio = 0
    content = message.content
    for block in [content] if isinstance(content, str) else content:
        if isinstance(block, str):
            texts.append(block)
        elif block["type"] == "text":
            texts.append(block["text"])
        elif block["type"] == "image":
            images += 1
        elif block["type"] == "audio":
            audio += 1
        else:
            raise TypeError(f"unexpected block {block['type']!r}")
    calls = len(message.tool_calls) if isinstance(message, AIMessage) else 0
    return "".join(texts), calls, images, audio


def _shared(parts: tuple[str, int, int, int]) -> int:
    text, calls, images, audio = parts
    return _OVERHEAD + math.ceil(len(text) / 4) + _CALL * calls + _IMAGE * images + _AUDIO * audio


def shared_ours(message: ChatMessageContent) -> int:
    """A counter giving a message the same count as `shared_langchain` gives its twin."""
    return _shared(_ours_parts(message))


def shared_langchain(messages: Sequence[BaseMessage]) -> int:
    """`shared_ours` for a list of LangChain messages (LangChain's counters take lists)."""
    return sum(_shared(_langchain_parts(message)) for message in messages)


_LANGCHAIN_ROLES = {
    SystemMessage: "system", HumanMessage: "user", AIMessage: "assistant", ToolMessage: "tool",
}


def fingerprints_ours(history: ChatHistory) -> list[tuple[Any, ...]]:
    return [(str(message.role), *_ours_parts(message)) for message in history]


def fingerprints_langchain(messages: Sequence[BaseMessage]) -> list[tuple[Any, ...]]:
    return [(_LANGCHAIN_ROLES[type(message)], *_langchain_parts(message)) for message in messages]


def paired(history: ChatHistory) -> bool:
    """Every call answered in the history and every result's call in it."""
    calls = {
        item.id for message in history for item in message.items
        if isinstance(item, FunctionCallContent)
    }
    results = {
        item.call_id for message in history for item in message.items
        if isinstance(item, FunctionResultContent)
    }
    return calls == results


# --- checks ---------------------------------------------------------------------------------


def check(size: int, messages: list[Message]) -> tuple[list[tuple[str, bool]], dict[str, int]]:
    """Run each trim once, untimed (which also warms both up), and say what holds.

    Returns the checks and the budgets of the half-the-history case, per library.
    """
    history, chain = to_history(messages), to_langchain(messages)
    before = openai_chat.to_payload(history)
    chain_before = list(chain)
    n = f"{size:,}"
    checks: list[tuple[str, bool]] = []
    half = {
        "semantic_chat": count_tokens(history, count_tokens_approximately) // 2,
        "langchain-core": langchain_count_tokens_approximately(chain) // 2,
    }
    total_shared = sum(shared_ours(message) for message in history)
    for label, budget in (
        (f"{BUDGET:,} tokens", BUDGET), ("half the history", total_shared // 2)
    ):
        mine = fingerprints_ours(ours(history, budget, shared_ours))
        other = fingerprints_langchain(theirs(chain, budget, shared_langchain))
        checks.append((
            f"{n} messages, {label} under a counter that counts both alike: the same messages "
            f"kept ({len(mine):,} and {len(other):,} messages, "
            f"{'identical' if mine == other else 'DIFFERENT'})",
            mine == other,
        ))
    for label, own, lc_budget in (
        (f"{BUDGET:,} tokens", BUDGET, BUDGET),
        ("half the history", half["semantic_chat"], half["langchain-core"]),
    ):
        kept = ours(history, own)
        kept_chain = theirs(chain, lc_budget)
        counted = count_tokens(kept, count_tokens_approximately)
        counted_chain = langchain_count_tokens_approximately(kept_chain)
        checks.append((
            f"{n} messages, {label}, each library's own approximate counter: semantic_chat keeps "
            f"{len(kept):,} messages ({counted:,} of {own:,} tokens), LangChain "
            f"{len(kept_chain):,} ({counted_chain:,} of {lc_budget:,} tokens); both within "
            "budget, both start with the system prompt then a user message, no call parted "
            "from its results in ours",
            counted <= own and counted_chain <= lc_budget and paired(kept)
            and kept[0].role == "system" and kept[1].role == "user"
            and isinstance(kept_chain[0], SystemMessage)
            and isinstance(kept_chain[1], HumanMessage),
        ))
    checks.append((
        f"{n} messages: no trim changed its input (the history writes the same dicts, "
        "LangChain's list holds the same messages)",
        openai_chat.to_payload(history) == before
        and len(chain) == len(chain_before)
        and all(a is b for a, b in zip(chain, chain_before, strict=True)),
    ))
    return checks, half


def _kind(message: ChatMessageContent) -> str:
    _, calls, images, audio = _ours_parts(message)
    role = str(message.role)
    if calls:
        return f"{role} with tool calls"
    if images:
        return f"{role} with images"
    if audio:
        return f"{role} with audio"
    return role


def counter_table(messages: list[Message]) -> str:
    """Mean tokens per message of each kind under the two approximate counters."""
    history, chain = to_history(messages), to_langchain(messages)
    totals: Counter[str] = Counter()
    chain_totals: Counter[str] = Counter()
    counts: Counter[str] = Counter()
    for message, twin in zip(history, chain, strict=True):
        kind = _kind(message)
        counts[kind] += 1
        totals[kind] += count_tokens_approximately(message)
        chain_totals[kind] += langchain_count_tokens_approximately([twin])
    rows = [
        [kind, f"{counts[kind]:,}", fmt(totals[kind] / counts[kind], 1),
         fmt(chain_totals[kind] / counts[kind], 1)]
        for kind in sorted(counts)
    ]
    rows.append([
        "**whole history**", f"{sum(counts.values()):,}", f"{sum(totals.values()):,}",
        f"{sum(chain_totals.values()):,}",
    ])
    return table(
        ["message kind", "messages", "semantic_chat tokens (mean)", "LangChain tokens (mean)"],
        rows,
    )


# --- timing ---------------------------------------------------------------------------------


Operation = tuple[Callable[[list[Message]], Any], Callable[[Any], Any]]
"""How to build a fresh input from the dicts, and the timed call on it."""


def time_size(
    messages: list[Message], operations: dict[str, Operation], rounds: int, seed: int
) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Milliseconds per call of each operation, wall clock and CPU time, one sample a round."""
    wall: dict[str, list[float]] = {key: [] for key in operations}
    cpu: dict[str, list[float]] = {key: [] for key in operations}
    order = list(operations)
    shuffle = random.Random(seed).shuffle
    clock, cpu_clock = time.perf_counter_ns, time.thread_time_ns
    for _ in range(rounds):
        inputs = {key: build(messages) for key, (build, _) in operations.items()}
        shuffle(order)
        gc.collect()
        gc.disable()
        try:
            for key in order:
                function = operations[key][1]
                value = inputs[key]
                start, start_cpu = clock(), cpu_clock()
                function(value)
                cpu[key].append((cpu_clock() - start_cpu) / 1e6)
                wall[key].append((clock() - start) / 1e6)
        finally:
            gc.enable()
        del inputs
    return wall, cpu


# --- main -----------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--quick", action="store_true", help="3 rounds (7 at 1,000 and 10,000 otherwise, 5 at "
        "100,000)",
    )
    parser.add_argument("--rounds", type=int, default=None)
    args = parser.parse_args(argv)

    system, turns = conversation_parts(max(SIZES))
    checks: list[tuple[str, bool]] = []
    results: dict[int, tuple[dict[str, list[float]], dict[str, list[float]]]] = {}
    half_budgets: dict[int, dict[str, int]] = {}
    explained = ""
    for size in SIZES:
        messages = long_conversation(size, system, turns)
        size_checks, half = check(size, messages)
        checks += size_checks
        half_budgets[size] = half
        if size == 10_000:
            explained = counter_table(messages)
        operations: dict[str, Operation] = {
            "semantic_chat 8k": (to_history, lambda h: ours(h, BUDGET)),
            "langchain-core 8k": (to_langchain, lambda m: theirs(m, BUDGET)),
            "semantic_chat half": (
                to_history, lambda h, b=half["semantic_chat"]: ours(h, b)
            ),
        }
        if size <= LANGCHAIN_HALF_LIMIT:
            operations["langchain-core half"] = (
                to_langchain, lambda m, b=half["langchain-core"]: theirs(m, b)
            )
        rounds = args.rounds or (3 if args.quick else 5 if size > 10_000 else 7)
        results[size] = time_size(messages, operations, rounds, seed=size)
        del messages

    def ms(size: int, key: str, clock: int = 0) -> float:
        samples = results[size][clock].get(key)
        return median(samples) if samples else float("nan")

    def ratio(size: int, budget: str, clock: int) -> str:
        mine, other = ms(size, f"semantic_chat {budget}", clock), ms(
            size, f"langchain-core {budget}", clock
        )
        return "-" if math.isnan(other) else f"{other / mine:.1f}x"

    tables = []
    for budget, title in (
        ("8k", f"Trim to {BUDGET:,} tokens"),
        ("half", "Trim to half the history's tokens (each library's own count)"),
    ):
        rows = []
        for size in SIZES:
            rows.append([
                f"{size:,}",
                f"{fmt(ms(size, f'semantic_chat {budget}'), 3)} "
                f"({fmt(ms(size, f'semantic_chat {budget}', 1), 3)})",
                f"{fmt(ms(size, f'langchain-core {budget}'), 1)} "
                f"({fmt(ms(size, f'langchain-core {budget}', 1), 1)})",
                fmt(ms(size, f"semantic_chat {budget}") * 1000 / size, 3),
                fmt(ms(size, f"langchain-core {budget}") * 1000 / size, 3),
                ratio(size, budget, 0),
                ratio(size, budget, 1),
            ])
        tables += [
            f"**{title}**", "",
            table(
                ["messages", "semantic_chat ms (CPU)", "LangChain ms (CPU)",
                 "semantic_chat µs/msg", "LangChain µs/msg", "LangChain / ours (wall)",
                 "(CPU)"],
                rows,
            ),
            "",
        ]

    for clock, clock_name in ((0, "wall clock"), (1, "CPU time")):
        mine, other = ms(10_000, "semantic_chat 8k", clock), ms(10_000, "langchain-core 8k", clock)
        checks.append((
            f"{clock_name}: `trim` of 10,000 messages to {BUDGET:,} tokens ≥ 5x faster than "
            f"LangChain's `trim_messages` ({fmt(mine, 3)} vs {fmt(other, 2)} ms, "
            f"{other / mine:.1f}x faster)",
            other >= 5 * mine,
        ))
        for budget in ("8k", "half"):
            small = ms(SIZES[0], f"semantic_chat {budget}", clock) / SIZES[0]
            large = ms(SIZES[-1], f"semantic_chat {budget}", clock) / SIZES[-1]
            checks.append((
                f"{clock_name}: `trim` to {'8,000 tokens' if budget == '8k' else 'half'}: cost "
                f"per message at {SIZES[-1]:,} messages within 2x of that at {SIZES[0]:,} "
                f"({fmt(large * 1000, 3)} vs {fmt(small * 1000, 3)} µs, {large / small:.2f}x)",
                large <= 2 * small,
            ))

    rounds_note = (
        f"{args.rounds} rounds" if args.rounds
        else "3 rounds" if args.quick else "7 rounds (5 at 100,000 messages)"
    )
    print("\n".join([
        f"`trim` from semantic_chat against `trim_messages` from langchain-core "
        f"{version('langchain-core')}, each with its own `count_tokens_approximately`, on one "
        f"long conversation of {', '.join(f'{size:,}' for size in SIZES)} messages "
        "(`long_conversation`: a system prompt, then the turns of `make_corpus` conversations: "
        "texts, images, audio, parallel tool calls). Both keep the last messages that fit, "
        "the system prompt in front, starting on a user message. Median ms per call "
        f"(CPU time in brackets) over {rounds_note}; each sample trims inputs built afresh "
        "for it, the operations in a random order each round.",
        "",
        *tables,
        "LangChain at half of 100,000 messages is not timed: its binary search counts a "
        "prefix of the list per step (seconds a call).",
        "",
        f"The two approximate counters on the {10_000:,}-message history, per kind of "
        "message (why the two trims keep different numbers of messages with their own "
        "counters; with one counter for both they keep the same):",
        "",
        explained,
        "",
        "semantic_chat counts an image by OpenAI's tile rule from its size (these small PNGs: "
        "255 tokens each, LangChain a flat 85), an audio clip as a file (85 tokens, LangChain "
        "the `repr` of its base64 block) and a call by its name, id and arguments text "
        "(LangChain the `repr` of its tool-call dicts); texts, results and roles alike.",
        "",
        *(f"- {verdict(ok)} {text}" for text, ok in checks),
    ]))


if __name__ == "__main__":
    main()
