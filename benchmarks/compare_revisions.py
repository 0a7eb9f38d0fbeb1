"""Compare this tree's semantic_chat with an earlier revision of it, in one process.

The main table compares libraries; this script answers "did my change slow the library down?"
without the noise of two runs on a shared machine. The earlier revision's package is taken
out of git (`git archive`) into a temporary folder under the name ``semantic_chat_base`` (the
package imports itself relatively, so it works under another name), and both versions run the
main table's four operations on the same corpus, interleaved, in alternating order, timed by
the CPU time of the thread. The result is the ratio of the medians (current / base).

    python benchmarks/compare_revisions.py 11a9a4f              # the commit to compare with
    python benchmarks/compare_revisions.py HEAD~3 --rounds 31 --output results/revisions.md
"""

from __future__ import annotations

import argparse
import gc
import importlib
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from common import command_line, environment_lines, extract_revision, table
from corpus import make_corpus

Operation = Callable[[], object]


def operations(package: str, conversations: list[list[dict[str, Any]]]) -> dict[str, Operation]:
    """The main table's operations on the corpus, through ``package``'s public API."""
    chat = importlib.import_module(f"{package}.formats.openai_chat")
    serialization = importlib.import_module(f"{package}.serialization")
    history_class = importlib.import_module(package).ChatHistory
    histories = [chat.from_payload(messages) for messages in conversations]
    texts = [serialization.to_json(history) for history in histories]
    return {
        "build": lambda: [chat.from_payload(messages) for messages in conversations],
        "dump": lambda: [serialization.to_json(history) for history in histories],
        "load": lambda: [serialization.from_json(text, history_class) for text in texts],
        "to-dicts": lambda: [chat.to_payload(history) for history in histories],
    }


def measure(
    versions: dict[str, dict[str, Operation]], rounds: int, messages: int
) -> dict[tuple[str, str], list[float]]:
    """CPU µs per message of every operation of every version, interleaved round by round."""
    names = list(versions)
    samples: dict[tuple[str, str], list[float]] = {
        (name, key): [] for name in names for key in versions[name]
    }
    gc.disable()
    try:
        for round_ in range(rounds):
            order = names if round_ % 2 == 0 else names[::-1]
            for key in versions[names[0]]:
                for name in order:
                    start = time.thread_time()
                    versions[name][key]()
                    elapsed = time.thread_time() - start
                    samples[(name, key)].append(elapsed / messages * 1e6)
    finally:
        gc.enable()
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("revision", help="the git revision to compare with (e.g. a commit)")
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--conversations", type=int, default=200)
    parser.add_argument("--output", type=Path, help="also write the report to this file")
    args = parser.parse_args()

    conversations = make_corpus(args.conversations, seed=0)
    messages = sum(len(conversation) for conversation in conversations)
    with tempfile.TemporaryDirectory() as folder:
        commit = extract_revision(args.revision, Path(folder))
        sys.path.insert(0, folder)
        versions = {
            "base": operations("semantic_chat_base", conversations),
            "current": operations("semantic_chat", conversations),
        }
        samples = measure(versions, args.rounds, messages)
    rows = []
    for key in versions["base"]:
        base = statistics.median(samples[("base", key)])
        current = statistics.median(samples[("current", key)])
        rows.append((key, f"{base:.3f}", f"{current:.3f}", f"{current / base:.3f}x"))
    report = "\n".join([
        f"Command: `{command_line()}`",
        "",
        *environment_lines(),
        "",
        f"`{commit}` (base) against this tree (current): {messages:,} messages of "
        f"`corpus.make_corpus({args.conversations}, seed=0)`, {args.rounds} interleaved rounds, "
        "median CPU µs per message.",
        "",
        table(("operation", "base", "current", "current / base"), rows, "lrrr"),
        "",
    ])
    print(report)
    if args.output is not None:
        args.output.write_text(report)


if __name__ == "__main__":
    main()
