"""A deterministic corpus of conversations in OpenAI Chat Completions form.

``make_corpus(n_conversations, seed=0)`` returns a list of conversations, each a list of
``messages`` dicts exactly as a Chat Completions request would carry them. Everything is drawn
from one seeded `random.Random` (and numpy generators seeded from it), so the same arguments
always give the same corpus, byte for byte.

A conversation is a system prompt followed by one to five turns (about 12 messages on
average). A turn is a user message (plain text; text with one or two small PNG images as data
URLs; or text with a 0.1 s WAV clip as ``input_audio``), then either an assistant answer
(40%), or an assistant message with one to three tool calls (JSON arguments), one tool
message per call (a JSON or prose result) and the assistant's answer. Texts run from 20 to
2,000 characters (log-uniform) and mix prose, markdown, code blocks and non-ASCII (accents,
CJK, emoji).

Run ``python benchmarks/corpus.py [n]`` to print the corpus's statistics.
"""

from __future__ import annotations

import base64
import json
import math
import random
import string
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from semantic_chat.media import encode_png, encode_wav

__all__ = ["corpus_stats", "make_corpus"]

Message = dict[str, Any]

_WORDS = [
    "the", "model", "reads", "each", "message", "and", "answers", "with", "care", "while", "the",
    "tool", "returns", "data", "about", "weather", "cities", "prices", "orders", "invoices",
    "users", "sessions", "tokens", "latency", "streaming", "request", "response", "history",
    "context", "window", "cache", "embedding", "vector", "search", "index", "query", "result",
    "error", "retry", "timeout", "budget", "summary", "table", "chart", "image", "audio", "clip",
    "file", "report", "draft", "review", "plan",
]
_NON_ASCII = [
    "café", "naïve", "Straße", "façade", "São Paulo", "Zürich", "Kraków", "Ελλάδα", "Москва",
    "東京", "日本語", "北京", "서울", "مرحبا", "שלום", "हिन्दी", "🚀", "✅", "🙂", "→", "≤", "—",
    "½", "€", "°C", "µs",
]
_CODE = [
    "def total(items):\n    return sum(item.price * item.quantity for item in items)\n",
    "for i in range(10):\n    print(f\"{i:>3} {i * i:>5}\")\n",
    "SELECT city, AVG(temp) AS t\nFROM readings\nWHERE day > '2024-01-01'\nGROUP BY city;\n",
    "const res = await fetch(url, { method: \"POST\", body: JSON.stringify(payload) });\n",
    "fn main() {\n    let v: Vec<u32> = (1..=5).collect();\n    println!(\"{:?}\", v);\n}\n",
    "if err != nil {\n\treturn fmt.Errorf(\"load %q: %w\", path, err)\n}\n",
]
_CODE_LANGS = ["python", "python", "sql", "javascript", "rust", "go"]
_SYSTEM_PROMPTS = [
    "You are a helpful assistant. Answer concisely and cite the tools you used.",
    "You are a careful data analyst. Use the tools to look things up; never guess numbers.",
    "Tu es un assistant serviable. Réponds en français quand l'utilisateur écrit en français.",
    "You are a coding assistant. Prefer short, runnable examples in fenced code blocks.",
    "You help travellers: weather, currency, opening hours. Units: metric, °C, km/h.",
]
_TOOLS = {
    "get_weather": lambda r: {"city": r.choice(["Paris", "Zürich", "東京", "São Paulo", "Oslo"]),
                              "unit": r.choice(["celsius", "fahrenheit"])},
    "search_docs": lambda r: {"query": _words(r, r.randint(2, 8)), "top_k": r.randint(1, 20)},
    "run_sql": lambda r: {"sql": "SELECT * FROM orders WHERE id = " + str(r.randint(1, 10**6)),
                          "timeout_s": r.choice([5, 10, 30])},
    "convert_currency": lambda r: {"amount": round(r.uniform(1, 5000), 2),
                                   "from": r.choice(["EUR", "USD", "JPY"]),
                                   "to": r.choice(["CHF", "GBP", "BRL"])},
    "create_event": lambda r: {"title": _words(r, r.randint(2, 5)),
                               "start": f"2025-0{r.randint(1, 9)}-1{r.randint(0, 9)}T09:00:00Z",
                               "attendees": [_name(r) for _ in range(r.randint(0, 3))],
                               "all_day": r.random() < 0.3},
}
_USER_NAMES = ["ada", "grace", "linus", "mária", "kenji", "zoë"]


def _words(r: random.Random, n: int) -> str:
    return " ".join(r.choice(_WORDS) for _ in range(n))


def _name(r: random.Random) -> str:
    return r.choice(_USER_NAMES)


def _sentence(r: random.Random) -> str:
    words = [r.choice(_WORDS) for _ in range(r.randint(5, 16))]
    if r.random() < 0.35:
        words.insert(r.randrange(len(words)), r.choice(_NON_ASCII))
    if r.random() < 0.2:
        words.insert(r.randrange(len(words)), f"`{r.choice(_WORDS)}()`")
    if r.random() < 0.15:
        words.insert(r.randrange(len(words)), f"**{r.choice(_WORDS)}**")
    return words[0].capitalize() + " " + " ".join(words[1:]) + r.choice([".", ".", "?", "!"])


def _block(r: random.Random) -> str:
    kind = r.random()
    if kind < 0.12:
        return "## " + _words(r, r.randint(2, 5)).title()
    if kind < 0.27:
        return "\n".join(f"- {_sentence(r)}" for _ in range(r.randint(2, 4)))
    if kind < 0.39:
        index = r.randrange(len(_CODE))
        return f"```{_CODE_LANGS[index]}\n{_CODE[index]}```"
    if kind < 0.45:
        return "| key | value |\n|---|---|\n" + "\n".join(
            f"| {r.choice(_WORDS)} | {r.choice(_NON_ASCII)} {r.randint(0, 999)} |"
            for _ in range(r.randint(2, 4))
        )
    return " ".join(_sentence(r) for _ in range(r.randint(1, 4)))


def _text(r: random.Random, low: int = 20, high: int = 2000) -> str:
    """Text of a log-uniform length in [low, high] characters, cut at that length."""
    length = round(math.exp(r.uniform(math.log(low), math.log(high))))
    blocks: list[str] = []
    size = 0
    while size < length:
        block = _block(r)
        blocks.append(block)
        size += len(block) + 2
    text = "\n\n".join(blocks)[:length].rstrip()
    return text if len(text) >= low else (text + " " + _words(r, 8))[:low].rstrip() + "."


def _png_data_url(r: random.Random) -> str:
    rng = np.random.default_rng(r.getrandbits(32))
    height, width = r.randint(8, 32), r.randint(8, 32)
    channels = r.choice([3, 3, 4])
    image = rng.integers(0, 256, (height, width, channels), dtype=np.uint8)
    if r.random() < 0.5:  # a smooth image compresses; noise does not
        image = np.sort(image, axis=1)
    payload = base64.b64encode(encode_png(image)).decode("ascii")
    return f"data:image/png;base64,{payload}"


def _wav_base64(r: random.Random) -> str:
    rng = np.random.default_rng(r.getrandbits(32))
    rate = 16_000
    t = np.arange(int(rate * 0.1)) / rate
    tone = 0.4 * np.sin(2 * np.pi * r.uniform(110, 880) * t) + rng.normal(0, 0.02, t.size)
    return base64.b64encode(encode_wav(tone, rate)).decode("ascii")


def _call_id(r: random.Random) -> str:
    return "call_" + "".join(r.choices(string.ascii_letters + string.digits, k=24))


def _arguments(r: random.Random, name: str) -> str:
    arguments = _TOOLS[name](r)
    if r.random() < 0.5:  # models emit both spellings
        return json.dumps(arguments, ensure_ascii=False, separators=(",", ":"))
    return json.dumps(arguments, ensure_ascii=False)


def _tool_result(r: random.Random, name: str) -> str:
    if r.random() < 0.6:
        result: dict[str, Any] = {
            "ok": True,
            "tool": name,
            "value": round(r.uniform(-40, 40), 1),
            "items": [
                {"id": r.randint(1, 999), "label": _words(r, 3)} for _ in range(r.randint(0, 4))
            ],
            "note": _text(r, 20, 200),
        }
        return json.dumps(result, ensure_ascii=False)
    return _text(r, 20, 600)


def _user_message(r: random.Random) -> Message:
    kind = r.random()
    message: Message = {"role": "user"}
    if kind < 0.6:
        message["content"] = _text(r)
    elif kind < 0.85:
        parts: list[dict[str, Any]] = [{"type": "text", "text": _text(r, 20, 400)}]
        for _ in range(r.choice([1, 1, 2])):
            parts.append({"type": "image_url", "image_url": {"url": _png_data_url(r)}})
        message["content"] = parts
    else:
        message["content"] = [
            {"type": "text", "text": _text(r, 20, 300)},
            {"type": "input_audio", "input_audio": {"data": _wav_base64(r), "format": "wav"}},
        ]
    if r.random() < 0.1:
        message["name"] = _name(r)
    return message


def _turn(r: random.Random) -> list[Message]:
    messages = [_user_message(r)]
    if r.random() < 0.4:
        messages.append({"role": "assistant", "content": _text(r)})
        return messages
    names = [r.choice(list(_TOOLS)) for _ in range(r.choice([1, 1, 2, 3]))]
    calls = [
        {
            "id": _call_id(r),
            "type": "function",
            "function": {"name": name, "arguments": _arguments(r, name)},
        }
        for name in names
    ]
    preamble = _text(r, 20, 120) if r.random() < 0.3 else None
    messages.append({"role": "assistant", "content": preamble, "tool_calls": calls})
    for call, name in zip(calls, names, strict=True):
        messages.append(
            {"role": "tool", "tool_call_id": call["id"], "content": _tool_result(r, name)}
        )
    messages.append({"role": "assistant", "content": _text(r)})
    return messages


def make_corpus(n_conversations: int, seed: int = 0) -> list[list[Message]]:
    """Return ``n_conversations`` conversations (lists of Chat Completions message dicts)."""
    r = random.Random(seed)
    corpus = []
    for _ in range(n_conversations):
        conversation: list[Message] = [{"role": "system", "content": r.choice(_SYSTEM_PROMPTS)}]
        for _ in range(r.randint(1, 5)):
            conversation.extend(_turn(r))
        corpus.append(conversation)
    return corpus


def _kind(message: Message) -> str:
    role = message["role"]
    content = message.get("content")
    if role == "user" and isinstance(content, list):
        return "user+" + "+".join(part["type"] for part in content[1:])
    if role == "assistant" and "tool_calls" in message:
        return f"assistant+{len(message['tool_calls'])} tool call(s)"
    if role == "tool":
        return "tool (json)" if str(content).startswith("{") else "tool (prose)"
    return str(role)


def corpus_stats(corpus: list[list[Message]]) -> dict[str, Any]:
    """Counts of conversations, messages and message kinds, and the JSON size."""
    messages = [message for conversation in corpus for message in conversation]
    texts = [message["content"] for message in messages if isinstance(message.get("content"), str)]
    return {
        "conversations": len(corpus),
        "messages": len(messages),
        "messages per conversation": round(len(messages) / max(len(corpus), 1), 2),
        "kinds": dict(sorted(Counter(_kind(message) for message in messages).items())),
        "string content chars (min/median/max)": (
            min(map(len, texts)), sorted(map(len, texts))[len(texts) // 2], max(map(len, texts))
        ) if texts else None,
        "non-ASCII messages": sum(
            not json.dumps(message, ensure_ascii=False).isascii() for message in messages
        ),
        "JSON bytes": len(json.dumps(corpus, ensure_ascii=False).encode()),
    }


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    for key, value in corpus_stats(make_corpus(count)).items():
        print(f"{key}: {value}")
