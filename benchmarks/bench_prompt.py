"""Prompt strings of conversations: semantic_chat against cleanlab-tlm's own function.

Run from the repository root: ``python benchmarks/bench_prompt.py [--quick]``.

The issue's bar: ``semantic_chat.prompt.form_prompt_string`` is at least 3x faster per
conversation than ``cleanlab_tlm.utils.chat.form_prompt_string`` on the benchmark corpus,
measured in the same run.

The corpus of `corpus.py`, made into what cleanlab can take and is made for (see
`prompt_corpus`): each conversation without its last message, the assistant's answer that a
trustworthiness score would judge, so the prompt is what led to it; user contents reduced to
their text, since cleanlab writes a list of content parts as its Python ``repr`` and knows no
images or audio; no participant ``name``, which cleanlab would print as the role. Then,
interleaved in slices of 5 conversations in a new random order each slice (`common.run`) over
several rounds, per conversation:

- semantic_chat ``form_prompt_string(history)`` on ``ChatHistory`` objects read from the Chat
  Completions messages before timing (``openai_chat.from_payload``);
- semantic_chat ``form_prompt_string(messages)`` on the Chat Completions messages themselves
  (it reads them as a payload first: that reading is timed);
- cleanlab-tlm ``form_prompt_string(messages)`` on the same messages;
- the same three with the corpus's five tools defined (``tools=``, Chat Completions
  definitions with nested parameter schemas), which both render as a system message.

Every input is one no operation has seen: each round, each operation has deep copies of its
own whose tool-call arguments texts are new (`writer_bench.fresh_arguments`), so nothing
memoised from an earlier call (a parsed arguments text) applies, and every side's objects are
equally new to the caches. (With only the tool-call messages copied, as ``fresh_arguments``
does, cleanlab's other message dicts were the same objects every round, while each round's
histories were new ones: ``form_prompt_string(history)`` measured 2.38x faster than cleanlab
that way, 3.0x to 3.3x with the same histories every round.)

Before timing, every output is checked: for every conversation, with and without tools, the
three give the identical string; no call warns; no call changes its input.

Prints a markdown section (run.py puts it into RESULTS.md).
"""

from __future__ import annotations

import argparse
import copy
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cleanlab_tlm.utils import chat as cleanlab_chat
from common import Operations, fmt, median, run, table, verdict, version
from corpus import make_corpus
from writer_bench import fresh_arguments

from semantic_chat.formats import openai_chat
from semantic_chat.prompt import form_prompt_string

Message = dict[str, Any]
Conversation = list[Message]

TOOLS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Current weather in a city.",
            "parameters": {
                "type": "object",
                "properties": {
                    "city": {"type": "string", "description": "City name, any script."},
                    "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
                },
                "required": ["city"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "search_docs",
            "description": "Search the documentation index.",
            "parameters": {
                "type": "object",
                "properties": {
                    "query": {"type": "string"},
                    "top_k": {"type": "integer", "minimum": 1, "maximum": 20},
                },
                "required": ["query"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "run_sql",
            "description": "Run a read-only SQL query.",
            "parameters": {
                "type": "object",
                "properties": {
                    "sql": {"type": "string"},
                    "timeout_s": {"type": "integer", "enum": [5, 10, 30]},
                },
                "required": ["sql"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "convert_currency",
            "description": "Convert an amount between currencies at today's rate.",
            "parameters": {
                "type": "object",
                "properties": {
                    "amount": {"type": "number"},
                    "from": {"type": "string", "description": "ISO 4217 code, e.g. EUR."},
                    "to": {"type": "string", "description": "ISO 4217 code, e.g. CHF."},
                },
                "required": ["amount", "from", "to"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "create_event",
            "description": "Create a calendar event — titles may hold any Unicode.",
            "parameters": {
                "type": "object",
                "properties": {
                    "title": {"type": "string"},
                    "start": {"type": "string", "format": "date-time"},
                    "attendees": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {"name": {"type": "string"}},
                        },
                    },
                    "all_day": {"type": "boolean"},
                },
                "required": ["title", "start"],
            },
        },
    },
]
"""Chat Completions definitions of the corpus's five tools (`corpus._TOOLS`)."""

KEYS = ("history", "messages", "cleanlab")
METHODS = {
    "history": "semantic_chat `form_prompt_string(history)`",
    "messages": "semantic_chat `form_prompt_string(messages)`",
    "cleanlab": "cleanlab-tlm `form_prompt_string(messages)`",
}


def prompt_corpus(corpus: list[Conversation]) -> tuple[list[Conversation], dict[str, int]]:
    """The corpus as cleanlab takes it, and how much of each kind was left out.

    Each conversation loses its last message (always the assistant's answer: the response a
    prompt string is formed for), every user content list becomes the text of its one text
    part (its ``image_url`` and ``input_audio`` parts are dropped) and ``name`` goes. What
    stays, cleanlab renders as documented: system prompt, user and assistant texts, tool
    calls with JSON arguments, tool results.
    """
    dropped = {"answers": 0, "images": 0, "audio": 0, "names": 0}
    adapted: list[Conversation] = []
    for conversation in corpus:
        if conversation[-1]["role"] != "assistant" or "tool_calls" in conversation[-1]:
            raise ValueError("corpus: a conversation does not end with the assistant's answer")
        dropped["answers"] += 1
        messages: Conversation = []
        for source in conversation[:-1]:
            message = dict(source)
            if message.pop("name", None) is not None:
                dropped["names"] += 1
            content = message.get("content")
            if isinstance(content, list):
                texts = [part["text"] for part in content if part["type"] == "text"]
                if len(texts) != 1:
                    raise ValueError("corpus: a user content has not exactly one text part")
                dropped["images"] += sum(part["type"] == "image_url" for part in content)
                dropped["audio"] += sum(part["type"] == "input_audio" for part in content)
                message["content"] = texts[0]
            messages.append(message)
        adapted.append(messages)
    return adapted, dropped


def _with_tools(function: Callable[[Any, Any], str]) -> Callable[[Any], str]:
    def call(conversation: Any) -> str:
        return function(conversation, TOOLS)

    return call


FUNCTIONS: dict[str, Callable[[Any], str]] = {
    "history": form_prompt_string,
    "messages": form_prompt_string,
    "cleanlab": cleanlab_chat.form_prompt_string,
    "history + tools": _with_tools(form_prompt_string),
    "messages + tools": _with_tools(form_prompt_string),
    "cleanlab + tools": _with_tools(cleanlab_chat.form_prompt_string),
}


def check(corpus: list[Conversation], histories: list[Any]) -> list[tuple[str, bool]]:
    """Run every function once on every conversation, untimed, and say what holds."""
    sources = copy.deepcopy(corpus)
    tools = copy.deepcopy(TOOLS)
    before = [openai_chat.to_payload(history) for history in histories]
    identical = {"": 0, " + tools": 0}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for messages, history in zip(corpus, histories, strict=True):
            for suffix in identical:
                theirs = FUNCTIONS["cleanlab" + suffix](messages)
                identical[suffix] += (
                    FUNCTIONS["history" + suffix](history) == theirs
                    and FUNCTIONS["messages" + suffix](messages) == theirs
                )
    n = len(corpus)
    return [
        *(
            (f"semantic_chat (from histories and from messages) and cleanlab-tlm give identical "
             f"strings{' with the five tools' if suffix else ''} ({same} of {n} conversations)",
             same == n)
            for suffix, same in identical.items()
        ),
        (f"no call warned ({len(caught)} warnings)", not caught),
        ("no call changed its input (messages, tool definitions, histories: "
         "`openai_chat.to_payload` gives the same dicts)",
         corpus == sources and tools == TOOLS
         and [openai_chat.to_payload(history) for history in histories] == before),
    ]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="40 conversations, 3 rounds")
    parser.add_argument("--conversations", type=int, default=None)
    parser.add_argument("--rounds", type=int, default=None)
    args = parser.parse_args(argv)
    n = args.conversations or (40 if args.quick else 200)
    rounds = args.rounds or (3 if args.quick else 7)

    corpus, dropped = prompt_corpus(make_corpus(n))
    total = sum(map(len, corpus))
    histories = [openai_chat.from_payload(conversation) for conversation in corpus]
    checks = check(corpus, histories)

    inputs: dict[str, list[list[Any]]] = {}
    for key in FUNCTIONS:  # each operation its own copies, new arguments texts each round
        copies = [copy.deepcopy(fresh_arguments(corpus, number + 1)) for number in range(rounds)]
        inputs[key] = (
            [[openai_chat.from_payload(c) for c in conversations] for conversations in copies]
            if key.startswith("history") else copies
        )
    operations: Operations = {key: (FUNCTIONS[key], inputs[key]) for key in FUNCTIONS}
    wall, cpu = run(operations, [1] * n, rounds)

    def us(key: str, clock: dict[str, list[float]] = wall) -> float:
        return median(clock[key])

    rows = []
    for suffix in ("", " + tools"):
        base = "cleanlab" + suffix
        for key in KEYS:
            name = key + suffix
            rows.append([
                METHODS[key] + (", `tools=`" if suffix else ""),
                fmt(us(name)), fmt(us(name, cpu)),
                f"{us(base) / us(name):.2f}x", f"{us(base, cpu) / us(name, cpu):.2f}x",
            ])
    for clock_name, clock in (("wall clock", wall), ("CPU time", cpu)):
        for suffix in ("", " + tools"):
            theirs = median(clock["cleanlab" + suffix])
            for key in ("history", "messages"):
                mine = median(clock[key + suffix])
                checks.append((
                    f"{clock_name}{', with tools' if suffix else ''}: `form_prompt_string"
                    f"({key})` ≥ 3x faster than cleanlab-tlm's ({fmt(mine)} vs {fmt(theirs)} "
                    f"µs/conversation, {theirs / mine:.2f}x faster)",
                    theirs >= 3 * mine,
                ))
    print("\n".join([
        f"{n} conversations of `make_corpus({n})` as cleanlab takes them (`prompt_corpus`), "
        f"{total} Chat Completions messages ({total / n:.2f} per conversation), against "
        f"cleanlab-tlm {version('cleanlab-tlm')}; {rounds} rounds "
        f"x {-(-n // 5)} slices of 5 conversations, interleaved in a random order; median µs "
        "per conversation (wall clock, and CPU time of the thread). Left out of every side, "
        "as cleanlab cannot take them: each conversation's last message, the assistant answer "
        f"the prompt leads to ({dropped['answers']}); {dropped['images']} PNG images and "
        f"{dropped['audio']} WAV clips (each user message keeps its text as a string "
        f"content); the `name` of {dropped['names']} messages.",
        "",
        table(["function", "µs/conv", "CPU µs/conv", "cleanlab / this (wall)",
               "cleanlab / this (CPU)"], rows, align="lrrrr"),
        "",
        "`form_prompt_string(history)` starts from `ChatHistory` objects read before timing; "
        "`form_prompt_string(messages)` reads the Chat Completions dicts itself (timed). Each "
        "round every operation gets inputs of its own, whose tool-call arguments texts no "
        "call has seen. With `tools=`, the corpus's five tools, defined in Chat Completions "
        "form, are rendered in every call (the same list each time, as an agent passes it).",
        "",
        *(f"- {verdict(ok)} {text}" for text, ok in checks),
    ]))


if __name__ == "__main__":
    main()
