"""Profile one contender's operations on the benchmark corpus with cProfile.

Run from the repository root::

    python benchmarks/profile_ops.py                      # semantic_chat, all four operations
    python benchmarks/profile_ops.py build load --top 30  # some operations, more rows
    python benchmarks/profile_ops.py --contender langchain-core dump

For each operation it prints the time per message without the profiler, then the functions
with the most own time (``tottime``) and the most cumulative time (``cumtime``), each with its
share of the operation's profiled total, and the ``file:line`` where it is defined.

`profile_operations` does the same for the format conversion benchmarks (``--profile`` of
`bench_anthropic.py` and `bench_gemini.py`).
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import ROOT, Operations
from contenders import CONTENDERS
from corpus import make_corpus

OPS = ("build", "dump", "load", "to_dicts")


def _where(key: tuple[str, int, str]) -> str:
    filename, line, function = key
    if filename == "~":
        return function
    path = Path(filename)
    try:
        shown = str(path.resolve().relative_to(ROOT))
    except ValueError:
        parts = path.parts
        cut = parts.index("site-packages") + 1 if "site-packages" in parts else len(parts) - 2
        shown = "/".join(parts[cut:])
    return f"{shown}:{line} {function}"


def report(profile: cProfile.Profile, top: int, messages: int) -> None:
    stats = pstats.Stats(profile)
    entries: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    total = sum(tottime for _, _, tottime, _, _ in entries.values())
    for title, column in (("own time (tottime)", 2), ("cumulative time (cumtime)", 3)):
        print(f"  top {top} by {title}; total {total * 1e3:.0f} ms profiled")
        print(f"  {'share':>6} {'µs/msg':>7} {'calls/msg':>9}  function")
        ranked = sorted(entries.items(), key=lambda item: item[1][column], reverse=True)
        for key, values in ranked[:top]:
            calls, seconds = values[1], values[column]
            print(
                f"  {seconds / total:6.1%} {seconds / messages * 1e6:7.2f} "
                f"{calls / messages:9.2f}  {_where(key)}"
            )
        print()


def profile_operations(operations: Operations, total: int, titles: dict[str, str]) -> None:
    """Print each operation's time per message, then its top functions under cProfile.

    ``operations`` as `common.run` takes them, ``total`` the messages of one round's inputs,
    ``titles`` what to call each operation. Each operation runs over the first half of its
    rounds' inputs timed and over the second half profiled, so a conversion meant to be a
    first one gets inputs it has not seen in either.
    """
    for key, (function, inputs) in operations.items():
        half = len(inputs) // 2
        gc.collect()
        start = time.perf_counter()
        for values in inputs[:half]:
            for value in values:
                function(value)
        plain = (time.perf_counter() - start) / (total * half) * 1e6
        profiler = cProfile.Profile()
        gc.collect()
        profiler.enable()
        for values in inputs[half:]:
            for value in values:
                function(value)
        profiler.disable()
        print(f"== {titles[key]}: {plain:.2f} µs/message without the profiler")
        report(profiler, 15, total * (len(inputs) - half))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("ops", nargs="*", help=f"some of {', '.join(OPS)} (default: all)")
    parser.add_argument("--contender", default="semantic_chat", choices=list(CONTENDERS))
    parser.add_argument("--conversations", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--top", type=int, default=20)
    parser.add_argument("--cpu-timer", action="store_true", help="profile CPU time, not wall")
    args = parser.parse_args(argv)
    unknown = set(args.ops) - set(OPS)
    if unknown:
        parser.error(f"unknown operations {sorted(unknown)}; choose from {', '.join(OPS)}")

    corpus = make_corpus(args.conversations)
    messages = sum(map(len, corpus)) * args.repeat
    contender = CONTENDERS[args.contender]()
    built = [contender.build(conversation) for conversation in corpus]
    texts = [contender.dump(obj) for obj in built]
    for _ in range(2):  # warm every cache first
        for obj, text in zip(built, texts, strict=True):
            contender.load(text)
            contender.to_dicts(obj)
    work: dict[str, Callable[[], object]] = {
        "build": lambda: [contender.build(conversation) for conversation in corpus],
        "dump": lambda: [contender.dump(obj) for obj in built],
        "load": lambda: [contender.load(text) for text in texts],
        "to_dicts": lambda: [contender.to_dicts(obj) for obj in built],
    }
    for op in args.ops or OPS:
        gc.collect()
        start = time.perf_counter()
        for _ in range(args.repeat):
            work[op]()
        plain = (time.perf_counter() - start) / messages * 1e6
        # The default timer is wall clock, with the least overhead; --cpu-timer charges CPU
        # time instead (robust on a busy machine, but each timer call is a system call, which
        # inflates the own time of functions that make many calls).
        profile = cProfile.Profile(time.thread_time) if args.cpu_timer else cProfile.Profile()
        gc.collect()
        profile.enable()
        for _ in range(args.repeat):
            work[op]()
        profile.disable()
        print(f"== {args.contender} {op}: {plain:.2f} µs/message without the profiler")
        report(profile, args.top, messages)


if __name__ == "__main__":
    main()
