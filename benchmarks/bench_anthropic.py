"""Converting a conversation to Anthropic Messages dicts: semantic_chat vs LangChain.

Run from the repository root: ``python benchmarks/bench_anthropic.py [--quick]``.

The corpus of `corpus.py`, minus what the Anthropic Messages API cannot carry (see
`anthropic_corpus`), is read once into a semantic_chat ``ChatHistory`` per conversation
(``openai_chat.from_payload``) and once into LangChain messages (as `contenders.LangChain`
builds them: standard ``image`` blocks with ``base64`` and ``mime_type``, tool-call arguments
parsed into dicts). Then, interleaved in slices of 5 conversations in a new random order each
slice (see `common.run`: a rotation measured two copies of one writer 1.09x to 1.11x of each
other) over several rounds, per message of the source corpus:

- semantic_chat ``anthropic.to_payload(history)`` (``{"system": ..., "messages": [...]}``) of
  histories converted for the first time: each round has its own histories, read from a copy
  of the corpus whose tool-call arguments texts are new (`writer_bench.fresh_arguments`: the
  same JSON with trailing spaces), so nothing a writer memoises from an earlier conversion (a parsed
  arguments text) applies;
- semantic_chat ``openai_chat.to_payload(history)`` of the same conversations, also converted
  for the first time (histories of its own, read the same way; the issue's bar: writing
  Anthropic must cost no more than writing Chat Completions);
- ``anthropic.to_payload(history)`` and ``openai_chat.to_payload(history)`` again: the same
  histories (each writer its own) converted in every round, as an agent loop sends its whole
  history at each turn (read after the others: read first, such histories measured about 5%
  slower in the Gemini benchmark for their place in memory). The Chat Completions writer is
  timed here too so that both writers run equally often in each slice: the one timed more
  often finds its code warmer (see `common.run`);
- LangChain ``langchain_anthropic.chat_models._format_messages(messages, model=...)``, the
  function ``ChatAnthropic._get_request_payload`` calls to build ``system`` and ``messages``
  (checked below: its result is the request body's);
- reading: ``anthropic.from_payload`` of the Anthropic dicts against ``openai_chat.from_payload``
  of the Chat Completions dicts of the same conversations.

Before timing, every output is checked: semantic_chat's Anthropic dicts and LangChain's say the
same thing (`canonical`), no conversion warns, and neither side changes its input.

Prints a markdown section (run.py puts it into RESULTS.md). ``--profile`` prints instead
where each conversion's time goes (cProfile, as `profile_ops.py` shows it).
"""

from __future__ import annotations

import argparse
import copy
import sys
import warnings
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import fmt, median, run, table, verdict
from contenders import LangChain, messages_equal
from corpus import make_corpus
from langchain_anthropic import ChatAnthropic
from langchain_anthropic.chat_models import _format_messages
from profile_ops import profile_operations
from writer_bench import writer_checks, writer_operations

from semantic_chat.formats import anthropic as anthropic_format
from semantic_chat.formats import openai_chat

Message = dict[str, Any]
Conversation = list[Message]

MODEL = "claude-sonnet-4-5"
"""The model name given to LangChain (it only appears in its warnings)."""

WRITERS = ("anthropic", "openai_chat", "anthropic again", "openai_chat again", "langchain")
READERS = ("anthropic.from_payload", "openai_chat.from_payload")
METHODS = {
    "anthropic": "semantic_chat `anthropic.to_payload(history)`, first conversion",
    "openai_chat": "semantic_chat `openai_chat.to_payload(history)`, first conversion",
    "anthropic again": "semantic_chat `anthropic.to_payload(history)`, converted before",
    "openai_chat again": "semantic_chat `openai_chat.to_payload(history)`, converted before",
    "langchain": "langchain-anthropic `_format_messages(messages)`",
    "anthropic.from_payload": "semantic_chat `anthropic.from_payload(payload)`",
    "openai_chat.from_payload": "semantic_chat `openai_chat.from_payload(messages)`",
}


def anthropic_corpus(corpus: list[Conversation]) -> tuple[list[Conversation], dict[str, int]]:
    """The corpus without what Anthropic cannot carry, and how many messages lost something.

    Anthropic has no audio input and no participant ``name``: semantic_chat refuses an audio
    item and warns about a name, LangChain raises on audio and drops a name silently. So a
    user message's ``input_audio`` part is removed (the message keeps its text, as a string)
    and ``name`` is removed, on every side alike.
    """
    adapted: list[Conversation] = []
    counts = {"audio": 0, "name": 0}
    for conversation in corpus:
        messages: Conversation = []
        for source in conversation:
            message = dict(source)
            if message.pop("name", None) is not None:
                counts["name"] += 1
            content = message.get("content")
            if isinstance(content, list) and any(p["type"] == "input_audio" for p in content):
                counts["audio"] += 1
                parts = [p for p in content if p["type"] != "input_audio"]
                texts = [p["text"] for p in parts if p["type"] == "text"]
                message["content"] = texts[0] if len(parts) == len(texts) == 1 else parts
            messages.append(message)
        adapted.append(messages)
    return adapted, counts


def _blocks(content: Any) -> list[Any]:
    return [{"type": "text", "text": content}] if isinstance(content, str) else list(content)


def canonical(system: Any, messages: list[Message]) -> Any:
    """An Anthropic ``system`` and ``messages`` as the API reads them.

    Forgiven: a string ``content`` (or ``system``, or tool result ``content``) against a
    list of one text block, and an explicit ``"is_error": false`` on a tool result
    (LangChain writes it; it is the default). Nothing else.
    """
    turns = []
    for message in messages:
        blocks = []
        for written in _blocks(message["content"]):
            block = dict(written)
            if block["type"] == "tool_result":
                if block.get("is_error") is False:
                    del block["is_error"]
                if "content" in block:
                    block["content"] = _blocks(block["content"])
            blocks.append(block)
        turns.append((message["role"], blocks))
    return (None if system is None else _blocks(system)), turns


def check(
    corpus: list[Conversation],
    histories: list[Any],
    chains: list[list[Any]],
    payloads: list[dict[str, Any]],
) -> list[tuple[str, bool]]:
    """Run every conversion once, untimed, and say what holds (see the module docstring)."""
    sources = copy.deepcopy(corpus)
    chains_before = [[m.model_dump() for m in chain] for chain in chains]
    same = warned = 0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for history, chain, payload in zip(histories, chains, payloads, strict=True):
            ours = canonical(payload.get("system"), payload["messages"])
            system, messages = _format_messages(chain, model=MODEL)
            same += ours == canonical(system, messages)
            openai_chat.to_payload(history)
            anthropic_format.from_payload(payload)
        warned = len(caught)
    again = [anthropic_format.to_payload(h) for h in histories]
    back = sum(
        sum(messages_equal(source, openai_chat.to_payload(anthropic_format.from_payload(p))))
        for source, p in zip(corpus, payloads, strict=True)
    )
    model = ChatAnthropic(model=MODEL, api_key="not-used", max_tokens=1024)
    request = model._get_request_payload(chains[0])
    first = _format_messages(chains[0], model=MODEL)
    n = len(corpus)
    return [
        (f"semantic_chat and LangChain write the same Anthropic request ({same} of {n} "
         "conversations, `canonical`)", same == n),
        (f"no conversion warned ({warned} warnings)", warned == 0),
        ("no conversion changed its input (Chat Completions dicts, LangChain messages, "
         "histories: `to_payload` twice gives equal dicts)",
         corpus == sources and again == payloads
         and [[m.model_dump() for m in chain] for chain in chains] == chains_before),
        ("`_format_messages` is what `ChatAnthropic` sends (same `system` and `messages` as "
         "`_get_request_payload`)",
         (request["system"], request["messages"]) == first),
        (f"Anthropic dicts read back give the source's Chat Completions messages ({back} of "
         f"{sum(map(len, corpus))} equal, `contenders.canonical`)",
         back == sum(map(len, corpus))),
    ]


def _langchain(chain: list[Any]) -> Any:
    return _format_messages(chain, model=MODEL)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="40 conversations, 3 rounds")
    parser.add_argument("--conversations", type=int, default=None)
    parser.add_argument("--rounds", type=int, default=None)
    parser.add_argument("--profile", action="store_true", help="cProfile each conversion")
    args = parser.parse_args(argv)
    n = args.conversations or (40 if args.quick else 200)
    rounds = args.rounds or (3 if args.quick else 7)

    corpus, removed = anthropic_corpus(make_corpus(n))
    counts = [len(conversation) for conversation in corpus]
    total = sum(counts)
    histories = [openai_chat.from_payload(conversation) for conversation in corpus]
    builder = LangChain()
    chains = [builder.build(conversation) for conversation in corpus]
    payloads = [anthropic_format.to_payload(history) for history in histories]
    turns = sum(len(payload["messages"]) for payload in payloads)
    if args.profile:
        rounds = 2 * args.rounds if args.rounds else 10
    operations, fresh = writer_operations(
        "anthropic", anthropic_format, corpus, payloads, (_langchain, chains), rounds
    )
    if args.profile:
        profile_operations(operations, total, METHODS)
        return
    checks = check(corpus, histories, chains, payloads)
    checks.insert(1, (
        "the first conversions write the same dicts as the repeated ones (same objects, "
        "arguments with trailing spaces)",
        [anthropic_format.to_payload(h) for h in fresh["openai_chat"][0]] == payloads,
    ))
    wall, cpu = run(operations, counts, rounds)

    def us(key: str, clock: dict[str, list[float]] = wall) -> float:
        return median(clock[key])

    rows = [
        [METHODS[key], fmt(us(key)), fmt(us(key, cpu)), f"{us(key) / us('anthropic'):.2f}x"]
        for key in WRITERS
    ]
    read_rows = [
        [METHODS[key], fmt(us(key)), fmt(us(key, cpu)),
         f"{us(key) / us('openai_chat.from_payload'):.2f}x"]
        for key in READERS
    ]
    checks += writer_checks("anthropic", "langchain-anthropic", wall, cpu)
    print("\n".join([
        f"{n} conversations of `make_corpus({n})`, {total} Chat Completions messages "
        f"({turns} Anthropic turns); {rounds} rounds x {-(-n // 5)} slices of 5 "
        "conversations, interleaved in a random order; median µs per Chat Completions message "
        "(wall clock, and "
        "CPU time of the thread). Left out of every side, as Anthropic cannot carry them: the "
        f"audio clip of {removed['audio']} user messages (they keep their text) and the "
        f"`name` of {removed['name']} messages.",
        "",
        table(["conversion", "µs/msg", "CPU µs/msg", "time vs anthropic.to_payload"], rows,
              align="lrrr"),
        "",
        "Reading (Anthropic dicts are `anthropic.to_payload`'s output; one tool-result turn "
        "there holds the results of several Chat Completions tool messages):",
        "",
        table(["conversion", "µs/msg", "CPU µs/msg", "time vs openai_chat.from_payload"],
              read_rows, align="lrrr"),
        "",
        "Both semantic_chat writers start from the same histories, read from Chat Completions "
        "dicts, so tool-call arguments are JSON text: `anthropic.to_payload` parses each into "
        "the `input` object, where LangChain's messages hold them parsed already (parsed "
        "before timing). *First conversion*: each round, each writer converts histories of its "
        "own, read before timing, whose arguments texts no conversion has seen (the targets are "
        "judged on it); *converted "
        "before*: the same histories every round, as an agent loop resends its history, where "
        "a writer may reuse what it parsed. Both writers are timed on both, so that each runs "
        "as often as the other in every slice: the one timed more often finds its code warmer "
        "(see NOTES.md). `_format_messages` also merges the tool messages into user turns "
        "itself (`_merge_messages`).",
        "",
        *(f"- {verdict(ok)} {text}" for text, ok in checks),
    ]))


if __name__ == "__main__":
    main()
