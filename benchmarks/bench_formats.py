"""Converting a conversation to Chat Completions dicts: semantic_chat vs LangChain and SK.

Run from the repository root: ``python benchmarks/bench_formats.py [--quick]``.

The corpus of `corpus.py` is built once into each library's objects (see `contenders.py`),
then converted back to Chat Completions ``messages`` dicts: semantic_chat with
``openai_chat.to_payload`` (from its ``ChatHistory``), LangChain with
``convert_to_openai_messages`` (from its messages) and Semantic Kernel with
``ChatMessageContent.to_dict()`` per message (from its ``ChatHistory``; what its OpenAI
connector sends). The msgspec reference's hand-written conversion is shown for scale. Timing
interleaves the libraries in slices of 5 conversations with a rotating order, over several
rounds, and reports the median per message. Equality is checked per message against the
source, semantically (`contenders.canonical`) and byte-exact (``==``).

Prints a markdown section (run.py puts it into RESULTS.md).
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import fmt, median, table, verdict
from contenders import CONTENDERS, messages_equal
from corpus import make_corpus

KEYS = ("semantic_chat", "langchain-core", "semantic-kernel", "msgspec")
METHODS = {
    "semantic_chat": "`openai_chat.to_payload(history)`",
    "langchain-core": "`convert_to_openai_messages(messages)`",
    "semantic-kernel": "`[m.to_dict() for m in history.messages]`",
    "msgspec": "hand-written (reference)",
}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="40 conversations, 3 rounds")
    parser.add_argument("--conversations", type=int, default=None)
    parser.add_argument("--rounds", type=int, default=None)
    args = parser.parse_args(argv)
    n = args.conversations or (40 if args.quick else 200)
    rounds = args.rounds or (3 if args.quick else 7)

    corpus = make_corpus(n)
    total = sum(map(len, corpus))
    contenders = {key: CONTENDERS[key]() for key in KEYS}
    built: dict[str, list[Any]] = {
        key: [contender.build(conversation) for conversation in corpus]
        for key, contender in contenders.items()
    }
    equal: dict[str, float] = {}
    identical: dict[str, float] = {}
    for key, contender in contenders.items():
        outputs = [contender.to_dicts(obj) or [] for obj in built[key]]
        pairs = list(zip(corpus, outputs, strict=True))
        equal[key] = sum(sum(messages_equal(source, out)) for source, out in pairs) / total
        identical[key] = sum(
            sum(messages_equal(source, out, strict=True)) for source, out in pairs
        ) / total

    wall: dict[str, list[float]] = {key: [] for key in KEYS}
    cpu: dict[str, list[float]] = {key: [] for key in KEYS}
    slices = [range(i, min(i + 5, n)) for i in range(0, n, 5)]
    turn = 0
    gc.collect()
    gc.disable()
    try:
        for _ in range(rounds):
            for indices in slices:
                count = sum(len(corpus[i]) for i in indices)
                order = KEYS[turn % len(KEYS):] + KEYS[: turn % len(KEYS)]
                turn += 1
                for key in order:
                    convert = contenders[key].to_dicts
                    objects = [built[key][i] for i in indices]
                    start, start_cpu = time.perf_counter_ns(), time.thread_time_ns()
                    for obj in objects:
                        convert(obj)
                    cpu[key].append((time.thread_time_ns() - start_cpu) / count / 1000)
                    wall[key].append((time.perf_counter_ns() - start) / count / 1000)
            gc.enable()
            gc.collect()
            gc.disable()
    finally:
        gc.enable()

    mine = median(wall["semantic_chat"])
    rows = []
    for key in KEYS:
        us = median(wall[key])
        rows.append([
            f"`{contenders[key].name}`", METHODS[key], fmt(us), fmt(median(cpu[key])),
            f"{us / mine:.2f}x", f"{equal[key]:.1%}", f"{identical[key]:.1%}",
        ])
    checks = [
        (f"100% of messages equal to the source ({equal['semantic_chat']:.1%} equal, "
         f"{identical['semantic_chat']:.1%} identical)",
         equal["semantic_chat"] == identical["semantic_chat"] == 1.0),
    ]
    for key in ("langchain-core", "semantic-kernel"):
        ratio = median(wall[key]) / mine
        checks.append((f"≥ 2x faster than {contenders[key].name} ({ratio:.2f}x)", ratio >= 2))
    print("\n".join([
        f"{n} conversations, {total} messages; {rounds} rounds x {len(slices)} slices, "
        "interleaved; median µs per message (wall clock, and CPU time of the thread).",
        "",
        table(
            ["library", "conversion", "µs/msg", "CPU µs/msg", "time vs semantic_chat",
             "equal", "identical"],
            rows,
            align="llrrrrr",
        ),
        "",
        "*equal*: the same request to the API (`contenders.canonical`: tool-call arguments "
        "compared as parsed JSON, assistant `content` None/\"\"/missing alike); *identical*: "
        "`==` on the dicts. What the peers lose: Semantic Kernel writes audio as an "
        "`audio_url` part the API does not have, and drops an assistant's text when the "
        "message also has tool calls; LangChain re-serializes tool-call arguments from parsed "
        "dicts (`json.dumps` spacing and `\\u` escapes) and writes `content: \"\"` for `None`.",
        "",
        *(f"- {verdict(ok)} {text}" for text, ok in checks),
    ]))


if __name__ == "__main__":
    main()
