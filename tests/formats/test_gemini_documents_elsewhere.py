"""A Gemini document given to another format's reader is refused, naming what it is."""

from __future__ import annotations

import pytest

from semantic_chat.errors import FormatError
from semantic_chat.formats import anthropic, openai_chat, openai_responses

BODY = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}],
        "generationConfig": {"temperature": 0.1}}
RESPONSE = {"candidates": [{"content": {"role": "model", "parts": [{"text": "hello"}]},
                            "finishReason": "STOP"}],
            "modelVersion": "gemini-2.5-flash"}

EXPECTED = {
    anthropic: "messages: expected a list of messages or an Anthropic Messages document, got ",
    openai_chat: "messages: expected a list of messages or a Chat Completions document, got ",
    openai_responses: "input: expected a string or a list of items or a Responses document, "
    "got ",
}


@pytest.mark.parametrize("reader", list(EXPECTED), ids=lambda module: module.NAME)
@pytest.mark.parametrize(
    ("document", "name"),
    [(BODY, "a Gemini generateContent request"), (RESPONSE, "a Gemini response")],
    ids=["request", "response"],
)
def test_a_gemini_document_is_refused_by_name(reader, document, name) -> None:
    with pytest.raises(FormatError) as raised:
        reader.from_payload(document)
    assert str(raised.value) == EXPECTED[reader] + name
