"""System and developer messages written by the quick loop and the general writer together.

The quick loops keep plain system texts aside and build the top-level ``system`` (Anthropic)
or ``system_instruction`` (Gemini) at the end; a system message the general writer wrote
(several items, blank texts, hints) joins them. Each case is pinned to its exact payload and
to the general writer's (``quick=False``).
"""

from __future__ import annotations

import warnings
from typing import Any

import pytest

from semantic_chat import ChatMessageContent, TextContent
from semantic_chat.errors import InvalidValueError
from semantic_chat.formats import anthropic, gemini
from semantic_chat.formats.anthropic import writing as anthropic_writing
from semantic_chat.formats.gemini import writing as gemini_writing

BRIEF = ChatMessageContent("system", "Be brief.")
HI = ChatMessageContent("user", "Hi")


def _cases() -> dict[str, list[ChatMessageContent]]:
    return {
        "one plain": [BRIEF, HI],
        "two plain": [BRIEF, ChatMessageContent("developer", "Use tools."), HI],
        "plain, then general": [
            BRIEF,
            ChatMessageContent("system", items=[TextContent(" "), TextContent("Use tools.")]),
            HI,
        ],
        "general of blanks, then plain": [
            ChatMessageContent("developer", items=[TextContent(" "), TextContent("")]),
            BRIEF,
            HI,
        ],
    }


ANTHROPIC_SYSTEM: dict[str, Any] = {
    "one plain": "Be brief.",
    "two plain": [{"type": "text", "text": "Be brief."}, {"type": "text", "text": "Use tools."}],
    "plain, then general": [
        {"type": "text", "text": "Be brief."},
        {"type": "text", "text": "Use tools."},
    ],
    # The blank message's texts are left out; what it wrote as blocks stays blocks.
    "general of blanks, then plain": [{"type": "text", "text": "Be brief."}],
}

GEMINI_PARTS: dict[str, list[dict[str, str]]] = {
    "one plain": [{"text": "Be brief."}],
    "two plain": [{"text": "Be brief."}, {"text": "Use tools."}],
    # Gemini takes a text of whitespace; only an empty one is left out.
    "plain, then general": [{"text": "Be brief."}, {"text": " "}, {"text": "Use tools."}],
    "general of blanks, then plain": [{"text": " "}, {"text": "Be brief."}],
}


@pytest.mark.parametrize("case", list(ANTHROPIC_SYSTEM))
def test_anthropic_system_of_plain_and_general_messages(case: str) -> None:
    history = _cases()[case]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        written = anthropic.to_payload(history)
        general = anthropic_writing._to_payload(history, None, True, False)
    assert written == {
        "system": ANTHROPIC_SYSTEM[case],
        "messages": [{"role": "user", "content": "Hi"}],
    }
    assert written == general


@pytest.mark.parametrize("case", list(GEMINI_PARTS))
def test_gemini_system_instruction_of_plain_and_general_messages(case: str) -> None:
    history = _cases()[case]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        written = gemini.to_payload(history)
        general = gemini_writing._to_payload(history, None, gemini_writing._KEYS["snake"], False)
    assert written == {
        "contents": [{"role": "user", "parts": [{"text": "Hi"}]}],
        "system_instruction": {"parts": GEMINI_PARTS[case]},
    }
    assert written == general


def test_a_lone_message_is_written_as_a_history_of_it() -> None:
    # The format modules' to_payload take one message too, as before the writer was called
    # directly.
    assert anthropic.to_payload(BRIEF) == {"system": "Be brief.", "messages": []}
    assert gemini.to_payload(HI, spelling="camel") == {
        "contents": [{"role": "user", "parts": [{"text": "Hi"}]}]
    }


def test_bad_policy_and_spelling_are_refused_by_the_format_modules() -> None:
    with pytest.raises(InvalidValueError, match="on_unsupported"):
        anthropic.to_payload([HI], on_unsupported="ignore")  # type: ignore[arg-type]
    with pytest.raises(InvalidValueError, match="spelling"):
        gemini.to_payload([HI], spelling="kebab")  # type: ignore[arg-type]
