"""Retained memory of one small message: a user message holding one 20-character text.

Run from the repository root: ``python benchmarks/memory_message.py [--quick]``.

For each library, 10,000 messages (1,000 with ``--quick``) are made and kept alive under
`tracemalloc`; the growth of traced memory divided by the count is the cost of one message.
Each message gets its own distinct 20-character ASCII string, so interning cannot share them.
Two figures per library: the objects alone (strings made before measuring) and the message
including its string (strings made while measuring; a 20-character ASCII ``str`` is 69 bytes).
The target (≤ 600 B) is checked on the second, the whole cost of the message, for both
ways of making it (``items=[TextContent(s)]`` and ``content=s``).

Prints a markdown section (run.py puts it into RESULTS.md).
"""

from __future__ import annotations

import argparse
import gc
import sys
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import langchain_core.messages as lc
import pydantic_ai.messages as pai
import semantic_kernel.contents as sk

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import fmt, table, verdict
from contenders import Text, UserMessage

from semantic_chat import AuthorRole, ChatMessageContent, TextContent

TARGET = 600


def texts(count: int, salt: str = "") -> list[str]:
    """``count`` distinct 20-character strings."""
    return [f"message {salt}{index:011d}"[-20:].rjust(20, "x") for index in range(count)]


def measure(make: Callable[[str], Any], count: int) -> tuple[float, float]:
    """(bytes per message for the objects alone, bytes per message including the string)."""
    strings = texts(count, "a")
    assert len(set(strings)) == count
    assert all(len(s) == 20 for s in strings)
    make(strings[0])  # warm any caches the first call fills
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    kept = [make(s) for s in strings]
    gc.collect()
    objects = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    del kept, strings

    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    kept = [make(f"message b{index:011d}"[-20:]) for index in range(count)]
    gc.collect()
    whole = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    del kept
    # Both figures include the list that keeps the messages alive (8 B per message): remove it.
    return (objects - 8 * count) / count, (whole - 8 * count) / count


def makers() -> dict[str, tuple[str, Callable[[str], Any]]]:
    return {
        "semantic_chat": (
            "`ChatMessageContent(AuthorRole.USER, items=[TextContent(s)])`",
            lambda s: ChatMessageContent(AuthorRole.USER, items=[TextContent(s)]),
        ),
        "semantic_chat (content=)": (
            '`ChatMessageContent("user", s)`',
            lambda s: ChatMessageContent("user", s),
        ),
        "semantic-kernel": (
            "`ChatMessageContent(role=AuthorRole.USER, items=[TextContent(text=s)])`",
            lambda s: sk.ChatMessageContent(
                role=sk.AuthorRole.USER, items=[sk.TextContent(text=s)]
            ),
        ),
        "semantic-kernel (content=)": (
            "`ChatMessageContent(role=AuthorRole.USER, content=s)`",
            lambda s: sk.ChatMessageContent(role=sk.AuthorRole.USER, content=s),
        ),
        "langchain-core": ("`HumanMessage(content=s)`", lambda s: lc.HumanMessage(content=s)),
        "pydantic-ai": (
            "`ModelRequest(parts=[UserPromptPart(s)])`",
            lambda s: pai.ModelRequest(parts=[pai.UserPromptPart(s)]),
        ),
        "msgspec structs": (
            "`UserMessage([Text(s)])` (the reference Structs of contenders.py)",
            lambda s: UserMessage([Text(s)]),
        ),
        "dict": ('`{"role": "user", "content": s}`', lambda s: {"role": "user", "content": s}),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="1,000 messages instead of 10,000")
    parser.add_argument("--count", type=int, default=None)
    args = parser.parse_args(argv)
    count = args.count or (1_000 if args.quick else 10_000)

    rows = []
    results: dict[str, tuple[float, float]] = {}
    for name, (what, make) in makers().items():
        results[name] = measure(make, count)
        rows.append([f"`{name}`", what, fmt(results[name][0], 0), fmt(results[name][1], 0)])
    mine = max(results["semantic_chat"][1], results["semantic_chat (content=)"][1])
    lines = [
        f"Retained bytes per message, {count:,} messages kept alive under `tracemalloc`, each "
        "with its own distinct 20-character string (the list holding them is subtracted).",
        "",
        table(
            ["library", "message", "objects alone (B)", "with its string (B)"],
            rows,
            align="llrr",
        ),
        "",
        f"- {verdict(mine <= TARGET)} `semantic_chat` message with its string (the larger of "
        f"the two ways to make it): {fmt(mine, 0)} B ≤ {TARGET} B",
    ]
    for key in ("semantic-kernel (content=)", "semantic-kernel"):
        if key in results:
            theirs = results[key][1]
            lines.append(
                f"- `{key}`, same message: {fmt(theirs, 0)} B ({theirs / mine:.1f}x "
                "semantic_chat's)"
            )
    print("\n".join(lines))


if __name__ == "__main__":
    main()
