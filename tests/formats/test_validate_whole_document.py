"""`formats.validate` reports a document its reader refuses whole once, naming what it is.

An Anthropic Message Batches line read as Gemini was two errors for one problem: the line
refused (rightly named), then its body read alone and named as a Chat Completions request.
"""

from __future__ import annotations

from semantic_chat import formats
from semantic_chat.formats import Problem

LINE = {"custom_id": "req-0", "params": {
    "model": "claude-sonnet-5", "max_tokens": 1024,
    "messages": [{"role": "user", "content": "Hello!"}],
}}


def test_a_document_refused_whole_is_one_problem_naming_its_kind() -> None:
    assert formats.validate(LINE, "gemini") == [Problem(
        "contents",
        "expected a list of contents or a Gemini document, got an Anthropic Message Batches "
        "request line",
    )]


def test_problems_inside_the_list_are_still_each_reported() -> None:
    payload = [{"role": "user", "content": 5}, {"role": "robot", "content": "x"}]
    assert [problem.path for problem in formats.validate(payload, "openai-chat")] == [
        "messages[0].content", "messages[1].role"
    ]
