"""What the format-writer benchmarks share: a format's writer timed against Chat Completions'.

`bench_anthropic.py` and `bench_gemini.py` time one format's ``to_payload`` against
``openai_chat.to_payload`` on the same conversations (first conversions and histories
converted before, each writer as often as the other), a LangChain peer, and both readers;
this module builds those operations and the two targets' checks once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from common import Operations, fmt, median

from semantic_chat.formats import openai_chat

Conversation = list[dict[str, Any]]


def fresh_arguments(corpus: list[Conversation], spaces: int) -> list[Conversation]:
    """The corpus with every tool call's arguments text followed by ``spaces`` spaces.

    The JSON means the same, and both writers give the same object from it (Chat Completions
    keeps the text as it is), but the text is one no writer has seen.
    """
    tail = " " * spaces
    return [
        [
            {
                **message,
                "tool_calls": [
                    {**call, "function": {**call["function"],
                                          "arguments": call["function"]["arguments"] + tail}}
                    for call in message["tool_calls"]
                ],
            } if "tool_calls" in message else message
            for message in conversation
        ]
        for conversation in corpus
    ]


def writer_operations(
    name: str,
    fmt_module: Any,
    corpus: list[Conversation],
    payloads: list[Any],
    peer: tuple[Callable[[Any], Any], list[Any]],
    rounds: int,
) -> tuple[Operations, dict[str, list[list[Any]]]]:
    """The operations of a writer benchmark, keyed by ``name``, and the fresh histories.

    ``name`` and ``name again`` time ``fmt_module.to_payload`` on histories converted for the
    first time (each round its own, with new arguments texts: `fresh_arguments`) and on the
    same histories every round; ``openai_chat`` and ``openai_chat again`` do the same for
    ``openai_chat.to_payload``, so each writer runs as often as the other in every slice (see
    `common.run`); ``langchain`` is the peer; ``name.from_payload`` reads ``payloads``
    against ``openai_chat.from_payload`` reading the corpus. Call it after reading the
    LangChain messages and the payloads: the histories read converted before are read last
    (read earlier, they measured about 5% slower, for their place in memory).
    """
    fresh = {  # each writer its own, so that neither finds objects the other just read
        key: [
            [openai_chat.from_payload(c) for c in fresh_arguments(corpus, number + 1)]
            for number in range(rounds)
        ]
        for key in (name, "openai_chat")
    }
    repeated = {
        key: [openai_chat.from_payload(conversation) for conversation in corpus]
        for key in (name, "openai_chat")
    }
    peer_function, peer_inputs = peer
    operations: Operations = {
        name: (fmt_module.to_payload, fresh[name]),
        "openai_chat": (openai_chat.to_payload, fresh["openai_chat"]),
        f"{name} again": (fmt_module.to_payload, [repeated[name]] * rounds),
        "openai_chat again": (openai_chat.to_payload, [repeated["openai_chat"]] * rounds),
        "langchain": (peer_function, [peer_inputs] * rounds),
        f"{name}.from_payload": (fmt_module.from_payload, [payloads] * rounds),
        "openai_chat.from_payload": (openai_chat.from_payload, [corpus] * rounds),
    }
    return operations, fresh


def writer_checks(
    name: str, peer: str, wall: dict[str, list[float]], cpu: dict[str, list[float]]
) -> list[tuple[str, bool]]:
    """The two targets on each clock: no dearer than ``openai_chat.to_payload``, and at
    least 2x faster than the LangChain ``peer``."""
    checks = []
    for clock_name, clock in (("wall clock", wall), ("CPU time", cpu)):
        mine, openai, again, openai_again, theirs = (
            median(clock[key])
            for key in (name, "openai_chat", f"{name} again", "openai_chat again", "langchain")
        )
        checks.append((
            f"{clock_name}: `{name}.to_payload` costs no more than `openai_chat.to_payload` "
            f"({fmt(mine)} vs {fmt(openai)} µs/msg, {mine / openai:.2f}x; target ≤ 1.00x; "
            f"converted before: {fmt(again)} vs {fmt(openai_again)} µs/msg, "
            f"{again / openai_again:.2f}x)",
            mine <= openai,
        ))
        checks.append((
            f"{clock_name}: ≥ 2x faster than {peer} ({fmt(theirs)} vs {fmt(mine)} "
            f"µs/msg, {theirs / mine:.2f}x faster)",
            theirs >= 2 * mine,
        ))
    return checks
