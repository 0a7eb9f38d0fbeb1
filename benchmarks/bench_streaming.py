"""Accumulating a stream of one-token chunks: ``accumulate`` (linear) and ``sum`` (quadratic).

Run from the repository root: ``python benchmarks/bench_streaming.py [--quick]``.

A stream of n chunks is ``StreamingChatMessageContent(None, items=[StreamingTextContent("tok ")])``
with the first chunk's role ``"assistant"``; the chunks are made before timing. Times the merge
with ``StreamingChatMessageContent.accumulate(chunks)`` for n = 1k, 10k and 100k, and with
``sum(chunks[1:], chunks[0])`` (pairwise ``+``, which copies the growing text each time) for 1k,
10k and (once) 100k. Each figure is the median of several runs (fewer for the long ones); the
merged text is checked. ``accumulate`` is linear when its time per chunk stays roughly constant
as n grows (checked: at 100k it is at most 2x the per-chunk time at 1k); ``sum`` is shown as it
is.

``--quick`` stops at 10k chunks.

Prints a markdown section (run.py puts it into RESULTS.md).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import fmt, table, verdict

from semantic_chat import StreamingChatMessageContent, StreamingTextContent

TOKEN = "tok "


def make_chunks(n: int) -> list[StreamingChatMessageContent]:
    chunks = [
        StreamingChatMessageContent(None, items=[StreamingTextContent(TOKEN)]) for _ in range(n)
    ]
    chunks[0] = StreamingChatMessageContent("assistant", items=[StreamingTextContent(TOKEN)])
    return chunks


def timed(merge: Callable[[], Any], n: int, runs: int) -> tuple[float, float]:
    """Median wall-clock and thread CPU seconds of ``runs`` merges; checks the merged text."""
    merged = merge()
    if merged.content != TOKEN * n or merged.role != "assistant" or len(merged.items) != 1:
        raise SystemExit(f"wrong merge of {n} chunks: {merged.items[:2]!r} ...")
    del merged
    wall, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.thread_time()
        merge()
        cpu.append(time.thread_time() - start_cpu)
        wall.append(time.perf_counter() - start)
    return statistics.median(wall), statistics.median(cpu)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="stop at 10k chunks")
    args = parser.parse_args(argv)
    sizes = (1_000, 10_000) if args.quick else (1_000, 10_000, 100_000)
    runs = {1_000: 15, 10_000: 7, 100_000: 3}
    sum_runs = {1_000: 7, 10_000: 3, 100_000: 1}

    accumulate: dict[int, tuple[float, float]] = {}
    added: dict[int, tuple[float, float]] = {}
    for n in sizes:
        chunks = make_chunks(n)
        accumulate[n] = timed(
            partial(StreamingChatMessageContent.accumulate, chunks), n, runs[n]
        )
        if n in sum_runs:
            added[n] = timed(partial(sum, chunks[1:], chunks[0]), n, sum_runs[n])
        del chunks

    rows = []
    for n in sizes:
        acc_wall, acc_cpu = accumulate[n]
        row = [f"{n:,}", fmt(acc_wall * 1e3), fmt(acc_wall / n * 1e6), fmt(acc_cpu / n * 1e6)]
        if n in added:
            sum_wall, sum_cpu = added[n]
            row += [fmt(sum_wall * 1e3, 1), fmt(sum_wall / n * 1e6), fmt(sum_cpu / n * 1e6)]
        else:
            row += ["not run", "-", "-"]
        rows.append(row)
    first, last = sizes[0], sizes[-1]
    # Per-chunk CPU time: robust to other processes on the machine.
    growth = (accumulate[last][1] / last) / (accumulate[first][1] / first)
    small, large = min(added), max(added)
    per_small, per_large = (added[n][1] / n for n in (small, large))
    slope = (per_large - per_small) / (large - small)  # per chunk, per chunk already merged
    fixed = per_small - slope * small
    crossover = fixed / slope if slope > 0 else float("inf")
    print("\n".join([
        "Merging n one-token chunks (`\"tok \"`, the first with role `assistant`), median "
        "time of several runs (wall clock, and CPU time of the thread); chunks made beforehand.",
        "",
        table(
            ["chunks", "accumulate (ms)", "accumulate (µs/chunk)", "CPU µs/chunk",
             "sum(...) (ms)", "sum(...) (µs/chunk)", "CPU µs/chunk"],
            rows,
        ),
        "",
        f"- {verdict(growth <= 2)} `accumulate` is linear: CPU time per chunk at {last:,} "
        f"chunks is {growth:.2f}x that at {first:,} (≤ 2x)",
        f"- `sum(chunks[1:], chunks[0])`: CPU time per chunk {per_small * 1e6:.1f} µs at "
        f"{small:,} chunks and {per_large * 1e6:.1f} µs at {large:,} "
        f"({per_large / per_small:.2f}x), {added[large][1] / accumulate[large][1]:.0f}x "
        f"`accumulate`'s time at {large:,}. "
        "Each `+` pays a fixed cost (a new accumulator and a new chunk) plus a copy of the text "
        f"so far; fitting the time per chunk as a + b*n for a stream of n chunks gives "
        f"a = {fixed * 1e6:.1f} µs and b = {slope * 1e9:.2f} ns, so the quadratic term "
        f"overtakes the fixed cost near n = {crossover:,.0f}.",
    ]))


if __name__ == "__main__":
    main()
