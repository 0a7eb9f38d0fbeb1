"""The prompt text keeps what `from_json` keeps of a newer version: a message's and the
history's own keys, and newer token counts.

What was seen: a history read from a newer version's JSON was written by `to_prompt` without
a word and read back without the message key ``future_msg``, the usage count
``future_tokens`` and the history key ``future_top``; ``from_prompt(to_prompt(h)) == h`` was
``False``.
"""

from __future__ import annotations

import json
import string
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from semantic_chat import ChatHistory, FormatError, UnknownMessage
from semantic_chat.serialization import from_json, to_json

SEEN = (
    '{"version":1,"messages":['
    '{"role":"user","items":[{"type":"text","text":"hi"}],"future_msg":true},'
    '{"role":"assistant","items":[{"type":"text","text":"ok"}],'
    '"usage":{"prompt_tokens":1,"completion_tokens":2,"future_tokens":5}}],'
    '"future_top":{"a":1}}'
)


def test_what_was_seen_reads_back_the_same() -> None:
    history = from_json(SEEN, ChatHistory)
    prompt = history.to_prompt()
    assert prompt == (
        '<chat_history semantic_chat="{&quot;unknown_keys&quot;:{&quot;future_top&quot;:'
        '{&quot;a&quot;:1}}}"><message role="user" semantic_chat="{&quot;unknown_keys&quot;:'
        '{&quot;future_msg&quot;:true}}"><text>hi</text></message><message role="assistant" '
        'semantic_chat="{&quot;usage&quot;:{&quot;prompt_tokens&quot;:1,&quot;completion_tokens'
        '&quot;:2,&quot;future_tokens&quot;:5}}"><text>ok</text></message></chat_history>'
    )
    back = ChatHistory.from_prompt(prompt)
    assert back == history
    assert type(back[0]) is UnknownMessage
    assert to_json(back) == SEEN


def test_a_history_without_newer_keys_is_written_as_before() -> None:
    history = ChatHistory()
    history.add_user_message("hi")
    assert history.to_prompt() == '<chat_history><message role="user"><text>hi</text></message></chat_history>'


@pytest.mark.parametrize(("prompt", "message"), [
    ('<chat_history><message role="user" semantic_chat=\'{"unknown_keys": 5}\'><text>x'
     "</text></message></chat_history>",
     "chat_history.message[0].semantic_chat.unknown_keys: expected a dict, got int (line 1, "
     "column 15)"),
    ('<chat_history><message role="user" semantic_chat=\'{"unknown_keys": {"role": 1}}\'>'
     "<text>x</text></message></chat_history>",
     "chat_history.message[0].semantic_chat.unknown_keys[\"role\"]: 'role' would be read back "
     "as the message's own field, not as an unknown key (line 1, column 15)"),
    ("<chat_history semantic_chat='{\"unknown_keys\": []}'></chat_history>",
     "chat_history.semantic_chat.unknown_keys: expected a JSON object of keys (line 1, column "
     "1)"),
])
def test_bad_newer_keys_are_refused_where_they_stand(prompt: str, message: str) -> None:
    with pytest.raises(FormatError) as raised:
        ChatHistory.from_prompt(prompt)
    assert str(raised.value) == message


_KEYS = st.text(string.ascii_lowercase, min_size=1, max_size=6).map(lambda key: "future_" + key)
_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-99, 99) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=4), inner,
                                                               max_size=2),
    max_leaves=4)


@st.composite
def _newer_documents(draw: st.DrawFn) -> dict[str, Any]:
    messages = []
    for _ in range(draw(st.integers(0, 4))):
        message: dict[str, Any] = {
            "role": draw(st.sampled_from(["user", "assistant", "system", "tool"])),
            "items": [{"type": "text", "text": draw(st.text(max_size=10))}],
        }
        if draw(st.booleans()):
            message["usage"] = {"prompt_tokens": draw(st.integers(0, 9)),
                                **draw(st.dictionaries(_KEYS, st.integers(0, 9), max_size=2))}
        message.update(draw(st.dictionaries(_KEYS, _VALUES, max_size=2)))
        messages.append(message)
    return {"version": 1, "messages": messages,
            **draw(st.dictionaries(_KEYS, _VALUES, max_size=2))}


@given(_newer_documents())
def test_property_newer_keys_survive_the_prompt_text(document: dict[str, Any]) -> None:
    history = from_json(json.dumps(document), ChatHistory)
    back = ChatHistory.from_prompt(history.to_prompt())
    assert back == history
    assert to_json(back) == to_json(history)
