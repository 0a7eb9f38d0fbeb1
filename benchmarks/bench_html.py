"""Rendering a conversation as an HTML page: `semantic_chat.html.render`.

Run from the repository root: ``python benchmarks/bench_html.py [--quick]``.

The issue's bar: rendering takes under 50 ms per 1,000 text messages. The histories are text
only, as the bar says: a system prompt, then user and assistant messages in turn, their texts
the user texts and answers of `corpus.py`'s conversations one after another (600 user texts and
717 answers of 20 to 2,000 characters, median 127; a fifth of them with quotes, ``<`` or ``&``
to escape), the user messages with
a name, the assistant messages with a model id, a finish reason and usage (what the page's
header and footer show). Sizes: 1,000 and 10,000 messages, to show the cost per message stays
flat. Beside them, the bundled example (`semantic_chat.example`: an image, an audio clip, a
tool call and its result, reasoning) as one page, for the cost of the richer items.

Timing: each sample is one ``render`` of the whole history to a page (a string), wall clock
(``time.perf_counter_ns``) and CPU time of the thread (``time.thread_time_ns``); the sizes are
timed in a rotating order each round, the garbage collector off while timing and collecting
between rounds. The figures are medians over the rounds. Before timing, each page is checked:
one ``<section class="message"`` per message and every text in it, escaped.

Prints a markdown section (run.py puts it into RESULTS.md).
"""

from __future__ import annotations

import argparse
import gc
import html
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import fmt, median, table, verdict
from corpus import make_corpus

from semantic_chat import ChatHistory, FinishReason, Usage
from semantic_chat.example import example_history
from semantic_chat.html import render

TARGET_MS_PER_1000 = 50.0
SIZES = (1_000, 10_000)


def corpus_texts() -> tuple[list[str], list[str]]:
    """The user texts and the assistant answers of the corpus, in order."""
    questions: list[str] = []
    answers: list[str] = []
    for conversation in make_corpus(200):
        for message in conversation:
            content = message.get("content")
            if message["role"] == "user":
                if isinstance(content, str):
                    questions.append(content)
                elif isinstance(content, list):
                    questions += [part["text"] for part in content if part.get("type") == "text"]
            elif message["role"] == "assistant" and isinstance(content, str) and content:
                answers.append(content)
    return questions, answers


def text_history(size: int, questions: list[str], answers: list[str]) -> ChatHistory:
    """``size`` text messages: a system prompt, then a user and an assistant in turn."""
    history = ChatHistory(system_message="You are careful. Answer in <= 3 lines & cite.")
    for index in range(size - 1):
        turn = index // 2
        if index % 2 == 0:
            history.add_user_message(questions[turn % len(questions)], name=f"user_{turn % 7}")
        else:
            history.add_assistant_message(
                answers[turn % len(answers)],
                model_id="gpt-4o-2024-08-06",
                finish_reason=FinishReason.STOP,
                usage=Usage(120 + turn % 50, 40 + turn % 30, 160 + turn % 50 + turn % 30),
            )
    return history


def check(history: ChatHistory, page: str) -> None:
    """One block per message, and every text on the page escaped."""
    blocks = page.count('<section class="message"')
    if blocks != len(history):
        raise AssertionError(f"{blocks} message blocks for {len(history)} messages")
    for message in history:
        escaped = html.escape(message.content, quote=True)
        if escaped not in page:
            raise AssertionError(f"text not on the page, escaped: {message.content[:60]!r}")


def sample(function: Callable[[], object]) -> tuple[float, float]:
    """One call: (wall, CPU) in milliseconds."""
    wall = time.perf_counter_ns()
    cpu = time.thread_time_ns()
    function()
    return (time.perf_counter_ns() - wall) / 1e6, (time.thread_time_ns() - cpu) / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds, for a smoke test")
    args = parser.parse_args()
    rounds = 5 if args.quick else 21

    questions, answers = corpus_texts()
    cases: dict[str, tuple[ChatHistory, int]] = {
        f"{size:,} text messages": (text_history(size, questions, answers), size) for size in SIZES
    }
    example = example_history()
    cases["the bundled example (5 messages: image, audio, tool call, reasoning)"] = (example, 5)
    pages = {}
    for label, (history, _) in cases.items():
        page = render(history)
        if label.endswith("text messages"):
            check(history, page)
        pages[label] = page

    labels = list(cases)
    walls: dict[str, list[float]] = {label: [] for label in labels}
    cpus: dict[str, list[float]] = {label: [] for label in labels}
    for round_index in range(rounds):
        order = labels[round_index % len(labels) :] + labels[: round_index % len(labels)]
        gc.collect()
        gc.disable()
        try:
            for label in order:
                history = cases[label][0]
                wall, cpu = sample(lambda history=history: render(history))
                walls[label].append(wall)
                cpus[label].append(cpu)
        finally:
            gc.enable()

    rows = []
    passed = True
    for label in labels:
        size = cases[label][1]
        wall = median(walls[label])
        cpu = median(cpus[label])
        per_1000 = wall / size * 1000
        text_only = label.endswith("text messages")
        ok = per_1000 < TARGET_MS_PER_1000
        if text_only:
            passed = passed and ok
        rows.append(
            [
                label,
                f"{len(pages[label]) / 1e6:.2f} MB",
                fmt(wall, 2),
                fmt(cpu, 2),
                f"**{fmt(per_1000, 1)}**" if text_only else fmt(per_1000, 1),
                verdict(ok) if text_only else "(not a text history)",
            ]
        )

    print(
        f"`semantic_chat.html.render(history)` to a whole page, median of {rounds} rounds "
        "(wall clock; CPU time of the thread beside it). Target: under "
        f"{TARGET_MS_PER_1000:.0f} ms per 1,000 text messages: {verdict(passed)}.\n"
    )
    print(
        table(
            ["history", "page", "ms / page", "CPU ms / page", "ms / 1,000 messages",
             "target"],
            rows,
            align="lrrrrl",
        )
    )


if __name__ == "__main__":
    main()
