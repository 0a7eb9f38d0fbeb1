"""Token counters that would disable trimming are refused where they are met.

A counter giving a negative count made a history count fewer tokens the more messages it
held, so `trim` kept everything; ``chars_per_token=0`` raised a bare ``ZeroDivisionError``.
"""

from __future__ import annotations

import math
from functools import partial

import pytest
from hypothesis import given
from hypothesis import strategies as st

from semantic_chat import ChatHistory, ChatMessageContent
from semantic_chat.errors import InvalidTypeError, InvalidValueError
from semantic_chat.history_ops import count_tokens, count_tokens_approximately, trim


def _history() -> ChatHistory:
    history = ChatHistory(system_message="sys")
    for _ in range(3):
        history.add_user_message("hello world " * 50)
        history.add_assistant_message("ok " * 50)
    return history


def test_a_negative_count_is_refused_at_the_message():
    with pytest.raises(InvalidValueError) as raised:
        trim(_history(), max_tokens=10, token_counter=lambda message: -1)
    assert str(raised.value) == "messages[0]: token_counter gave -1 tokens: a count is 0 or more"


@pytest.mark.parametrize(("value", "error", "message"), [
    (0, InvalidValueError, "chars_per_token: expected a number above 0, got 0"),
    (-1, InvalidValueError, "chars_per_token: expected a number above 0, got -1"),
    (float("nan"), InvalidValueError, "chars_per_token: expected a number above 0, got nan"),
    ("3", InvalidTypeError, "chars_per_token: expected a number, got str"),
    (True, InvalidTypeError, "chars_per_token: expected a number, got bool"),
])
def test_chars_per_token_must_be_a_number_above_zero(value, error, message):
    counter = partial(count_tokens_approximately, chars_per_token=value)
    with pytest.raises(error) as raised:
        count_tokens(_history(), counter)
    assert str(raised.value) == message


@given(st.floats(min_value=0.1, max_value=100))
def test_any_positive_ratio_counts_the_characters_share_rounded_up(ratio):
    message = ChatMessageContent("user", "x" * 40)  # 44 characters with the role
    assert count_tokens_approximately(message, chars_per_token=ratio) == math.ceil(44 / ratio) + 3
