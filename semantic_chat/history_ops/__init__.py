"""Operations on whole histories: fit a budget, repair, filter, merge, count tokens.

Six ideas, one module each: ``tokens`` (counting tokens: a per-message `TokenCounter`
protocol, an approximate counter and a tiktoken adapter), ``units`` (the spans a history can
be cut between without parting a tool call from its results), ``trim`` (``trim`` to a token or
message budget, and ``reduce``, Semantic Kernel's truncation reducer), ``repair`` and
``validate`` (make a history acceptable to a wire format, and say what it would refuse), and
``select`` (``filter`` messages, ``merge_runs`` of one role).

Every function is pure: it returns a new `ChatHistory` (with the input's ``options``) and
changes nothing it was given. Messages kept unchanged may be the same objects as the input's;
a message whose items change is a new message.
"""

from __future__ import annotations

from .repair import Change, repair, validate
from .select import filter, merge_runs
from .tokens import (
    TiktokenCounter,
    TokenCounter,
    count_tokens,
    count_tokens_approximately,
    image_tokens,
    per_message,
    tiktoken_counter,
)
from .trim import reduce, trim
from .units import spans

__all__ = [
    "Change",
    "TiktokenCounter",
    "TokenCounter",
    "count_tokens",
    "count_tokens_approximately",
    "filter",
    "image_tokens",
    "merge_runs",
    "per_message",
    "reduce",
    "repair",
    "spans",
    "tiktoken_counter",
    "trim",
    "validate",
]
