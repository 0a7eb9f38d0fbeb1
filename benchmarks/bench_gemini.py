"""Converting a conversation to Gemini ``contents``: semantic_chat vs LangChain.

Run from the repository root: ``python benchmarks/bench_gemini.py [--quick] [--profile]``.

The corpus of `corpus.py`, minus the participant ``name`` Gemini cannot carry (see
`gemini_corpus`), is read once into a semantic_chat ``ChatHistory`` per conversation
(``openai_chat.from_payload``) and once into LangChain messages (as `contenders.LangChain`
builds them: standard ``image`` and ``audio`` blocks with ``base64`` and ``mime_type``,
tool-call arguments parsed into dicts). Then, interleaved in slices of 5 conversations in a
new random order each slice (see `common.run`) over several rounds, per message of the source
corpus:

- semantic_chat ``gemini.to_payload(history)`` (``{"contents": [...], "system_instruction":
  ...}``) of histories converted for the first time: each round has its own histories, read
  from a copy of the corpus whose tool-call arguments texts are new
  (`writer_bench.fresh_arguments`), so nothing a writer memoises from an earlier conversion
  (a parsed arguments text) applies;
- semantic_chat ``openai_chat.to_payload(history)`` of the same conversations, also converted
  for the first time (histories of its own; the issue's bar: writing Gemini must cost no more
  than writing Chat Completions);
- ``gemini.to_payload(history)`` and ``openai_chat.to_payload(history)`` again: the same
  histories (each writer its own) converted in every round, as an agent loop sends its whole
  history at each turn. Both writers are timed on these, so that each runs as often as the
  other in every slice: the one timed more often finds its code warmer (see `common.run`);
- LangChain ``langchain_google_genai.chat_models._parse_chat_history(messages, model=...)``,
  the function ``ChatGoogleGenerativeAI._prepare_request`` calls to build ``contents`` and the
  system instruction (checked below). It stops at the SDK's ``Content`` objects, which the SDK
  turns into dicts later, so its figure leaves out a step semantic_chat's includes;
- reading: ``gemini.from_payload`` of the Gemini dicts against ``openai_chat.from_payload`` of
  the Chat Completions dicts of the same conversations.

Before timing, every output is checked: every content semantic_chat writes validates against
``google.genai.types.Content``, semantic_chat's contents and LangChain's say the same thing
(`canonical`), no conversion warns, and neither side changes its input.

Prints a markdown section (run.py puts it into RESULTS.md). ``--profile`` prints instead
where each conversion's time goes (cProfile, as `profile_ops.py` shows it).
"""

from __future__ import annotations

import argparse
import base64
import copy
import json
import sys
import warnings
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import fmt, median, run, table, verdict
from contenders import LangChain, messages_equal
from corpus import make_corpus
from google.genai import types
from langchain_google_genai import ChatGoogleGenerativeAI
from langchain_google_genai.chat_models import _parse_chat_history
from profile_ops import profile_operations
from writer_bench import writer_checks, writer_operations

from semantic_chat.formats import gemini as gemini_format
from semantic_chat.formats import openai_chat

Message = dict[str, Any]
Conversation = list[Message]

MODEL = "gemini-2.5-flash"
"""The model name given to LangChain. Not a Gemini 3 model: for those, `_parse_chat_history`
adds a placeholder thought signature to the first call of the last turn, which the corpus
(read from Chat Completions) has no signature for."""

WRITERS = ("gemini", "openai_chat", "gemini again", "openai_chat again", "langchain")
READERS = ("gemini.from_payload", "openai_chat.from_payload")
METHODS = {
    "gemini": "semantic_chat `gemini.to_payload(history)`, first conversion",
    "openai_chat": "semantic_chat `openai_chat.to_payload(history)`, first conversion",
    "gemini again": "semantic_chat `gemini.to_payload(history)`, converted before",
    "openai_chat again": "semantic_chat `openai_chat.to_payload(history)`, converted before",
    "langchain": "langchain-google-genai `_parse_chat_history(messages)`",
    "gemini.from_payload": "semantic_chat `gemini.from_payload(payload)`",
    "openai_chat.from_payload": "semantic_chat `openai_chat.from_payload(messages)`",
}


def gemini_corpus(corpus: list[Conversation]) -> tuple[list[Conversation], int]:
    """The corpus without message names, and how many messages had one.

    Gemini has no participant ``name``: semantic_chat warns that it leaves it out, LangChain
    drops it silently. So ``name`` is removed on every side alike. Everything else (text,
    images, WAV clips as ``inline_data``, calls, results) Gemini carries.
    """
    adapted: list[Conversation] = []
    names = 0
    for conversation in corpus:
        messages: Conversation = []
        for source in conversation:
            message = dict(source)
            if message.pop("name", None) is not None:
                names += 1
            messages.append(message)
        adapted.append(messages)
    return adapted, names


def _response_value(response: dict[str, Any]) -> Any:
    """What a ``function_response.response`` tells the model: a lone ``result`` or ``output``
    unwrapped, a JSON text parsed (a text that is not JSON stays text)."""
    value: Any = response
    if len(response) == 1 and next(iter(response)) in ("result", "output"):
        value = next(iter(response.values()))
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def _part(written: dict[str, Any]) -> dict[str, Any]:
    part = dict(written)
    if "function_call" in part:
        call = dict(part["function_call"])
        call.pop("id", None)
        part["function_call"] = call
    if "function_response" in part:
        result = dict(part["function_response"])
        result.pop("id", None)
        result["response"] = _response_value(result["response"])
        part["function_response"] = result
    if "inline_data" in part:
        blob = dict(part["inline_data"])
        if isinstance(blob["data"], str):
            blob["data"] = base64.b64decode(blob["data"], validate=True)
        part["inline_data"] = blob
    return part


def canonical(system: dict[str, Any] | None, contents: list[dict[str, Any]]) -> Any:
    """A Gemini ``system_instruction`` and ``contents`` (snake_case dicts) as the API reads them.

    Forgiven, as LangChain writes them differently but the model reads the same thing: call
    and result ``id``s (LangChain sends none; the Gemini API pairs calls and results by name
    and order), the key a result's value is wrapped in (``{"result": v}`` or ``{"output": v}``)
    and a JSON result as text or parsed (semantic_chat keeps the tool message's text, LangChain
    parses it), and ``inline_data.data`` as base64 text or bytes (the SDK sends bytes as
    base64). Nothing else.
    """
    turns = [
        (content.get("role"), [_part(part) for part in content["parts"]])
        for content in contents
    ]
    return (None if system is None else [_part(part) for part in system["parts"]]), turns


def _langchain(chain: list[Any]) -> Any:
    return _parse_chat_history(chain, model=MODEL)


def _langchain_dicts(chain: list[Any]) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    system, contents = _langchain(chain)
    return (
        None if system is None else system.model_dump(exclude_none=True),
        [content.model_dump(exclude_none=True) for content in contents],
    )


def check(
    corpus: list[Conversation],
    histories: list[Any],
    chains: list[list[Any]],
    payloads: list[dict[str, Any]],
) -> list[tuple[str, bool]]:
    """Run every conversion once, untimed, and say what holds (see the module docstring)."""
    sources = copy.deepcopy(corpus)
    chains_before = [[m.model_dump() for m in chain] for chain in chains]
    same = valid = warned = 0
    written = 0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for history, chain, payload in zip(histories, chains, payloads, strict=True):
            ours = canonical(payload.get("system_instruction"), payload["contents"])
            same += ours == canonical(*_langchain_dicts(chain))
            for content in [*payload["contents"], *filter(None, [payload.get(
                    "system_instruction")])]:
                written += 1
                try:
                    types.Content.model_validate(content)
                except ValueError:
                    continue
                valid += 1
            openai_chat.to_payload(history)
            gemini_format.from_payload(payload)
        warned = len(caught)
    again = [gemini_format.to_payload(h) for h in histories]
    back = sum(
        sum(messages_equal(source, openai_chat.to_payload(gemini_format.from_payload(p))))
        for source, p in zip(corpus, payloads, strict=True)
    )
    model = ChatGoogleGenerativeAI(model=MODEL, google_api_key="not-used")
    request = model._prepare_request(chains[0])
    system, contents = _langchain(chains[0])
    n = len(corpus)
    return [
        (f"every content semantic_chat writes validates against `google.genai.types.Content` "
         f"({valid} of {written}, `contents` and `system_instruction`)", valid == written),
        (f"semantic_chat and LangChain write the same Gemini contents ({same} of {n} "
         "conversations, `canonical`)", same == n),
        (f"no conversion warned ({warned} warnings)", warned == 0),
        ("no conversion changed its input (Chat Completions dicts, LangChain messages, "
         "histories: `to_payload` twice gives equal dicts)",
         corpus == sources and again == payloads
         and [[m.model_dump() for m in chain] for chain in chains] == chains_before),
        ("`_parse_chat_history` is what `ChatGoogleGenerativeAI` sends (same `contents` and "
         "`system_instruction` as `_prepare_request`)",
         request["contents"] == contents and request["config"].system_instruction == system),
        (f"Gemini dicts read back give the source's Chat Completions messages ({back} of "
         f"{sum(map(len, corpus))} equal, `contenders.canonical`)",
         back == sum(map(len, corpus))),
    ]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="40 conversations, 3 rounds")
    parser.add_argument("--conversations", type=int, default=None)
    parser.add_argument("--rounds", type=int, default=None)
    parser.add_argument("--profile", action="store_true", help="cProfile each conversion")
    args = parser.parse_args(argv)
    n = args.conversations or (40 if args.quick else 200)
    rounds = args.rounds or (3 if args.quick else 7)

    corpus, names = gemini_corpus(make_corpus(n))
    counts = [len(conversation) for conversation in corpus]
    total = sum(counts)
    histories = [openai_chat.from_payload(conversation) for conversation in corpus]
    builder = LangChain()
    chains = [builder.build(conversation) for conversation in corpus]
    payloads = [gemini_format.to_payload(history) for history in histories]
    turns = sum(len(payload["contents"]) for payload in payloads)
    if args.profile:
        rounds = 2 * args.rounds if args.rounds else 10
    operations, fresh = writer_operations(
        "gemini", gemini_format, corpus, payloads, (_langchain, chains), rounds
    )
    if args.profile:
        profile_operations(operations, total, METHODS)
        return
    checks = check(corpus, histories, chains, payloads)
    checks.insert(2, (
        "the first conversions write the same dicts as the repeated ones (same objects, "
        "arguments with trailing spaces)",
        [gemini_format.to_payload(h) for h in fresh["openai_chat"][0]] == payloads,
    ))
    wall, cpu = run(operations, counts, rounds)

    def us(key: str, clock: dict[str, list[float]] = wall) -> float:
        return median(clock[key])

    rows = [
        [METHODS[key], fmt(us(key)), fmt(us(key, cpu)), f"{us(key) / us('gemini'):.2f}x"]
        for key in WRITERS
    ]
    read_rows = [
        [METHODS[key], fmt(us(key)), fmt(us(key, cpu)),
         f"{us(key) / us('openai_chat.from_payload'):.2f}x"]
        for key in READERS
    ]
    checks += writer_checks("gemini", "langchain-google-genai", wall, cpu)
    print("\n".join([
        f"{n} conversations of `make_corpus({n})`, {total} Chat Completions messages "
        f"({turns} Gemini contents); {rounds} rounds x {-(-n // 5)} slices of 5 "
        "conversations, interleaved in a random order; median µs per Chat Completions message "
        "(wall clock, and "
        "CPU time of the thread). Left out of every side, as Gemini cannot carry it: the "
        f"`name` of {names} messages.",
        "",
        table(["conversion", "µs/msg", "CPU µs/msg", "time vs gemini.to_payload"], rows,
              align="lrrr"),
        "",
        "Reading (Gemini dicts are `gemini.to_payload`'s output; one `user` content there "
        "holds the results of several Chat Completions tool messages):",
        "",
        table(["conversion", "µs/msg", "CPU µs/msg", "time vs openai_chat.from_payload"],
              read_rows, align="lrrr"),
        "",
        "Both semantic_chat writers start from the same histories, read from Chat Completions "
        "dicts, so tool-call arguments are JSON text: `gemini.to_payload` parses each into the "
        "`args` object, where LangChain's messages hold them parsed already (parsed before "
        "timing). *First conversion*: each round, each writer converts histories of its own, "
        "read before timing, whose arguments texts no conversion has seen (the targets are "
        "judged on it); *converted before*: the same histories every round, as an agent loop "
        "resends its history, where a writer may reuse what it parsed. Both writers are timed "
        "on both, so that each runs as often as the other in every slice: the one timed more "
        "often finds its code warmer (see NOTES.md). `_parse_chat_history` "
        f"(model `{MODEL}`) builds the SDK's pydantic `Content` and `Part` objects, not dicts; "
        "it also parses each JSON tool result.",
        "",
        *(f"- {verdict(ok)} {text}" for text, ok in checks),
    ]))


if __name__ == "__main__":
    main()
