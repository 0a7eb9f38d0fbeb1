"""A ``--plugin`` for the Dask engine's tests: the format ``marked-chat``.

It reads Chat Completions, as ``openai-chat`` does, but first sleeps a little (so that a test
can act while a job runs) and appends the conversation's first text and the worker's process
id to the file named by ``SEMANTIC_CHAT_TEST_MARKER``: one line per conversion, counting how
often each conversation was converted, and by which process.
"""

from __future__ import annotations

import os
import time
from typing import Any

from semantic_chat import formats

__all__ = ["DELAY", "MARKER"]

MARKER = "SEMANTIC_CHAT_TEST_MARKER"
"""The environment variable naming the file each conversion is recorded in."""

DELAY = 0.02
"""Seconds each conversion takes longer."""

_chat = formats.get("openai-chat")


def _read(payload: Any) -> Any:
    time.sleep(DELAY)
    with open(os.environ[MARKER], "a", encoding="utf-8") as marker:
        marker.write(f"{payload[0]['content']}\t{os.getpid()}\n")
    return _chat.from_payload(payload)


formats.register(
    formats.WireFormat(
        name="marked-chat",
        summary="Chat Completions, each conversion recorded (a test plugin)",
        from_payload=_read,
        to_payload=_chat.to_payload,
        score=lambda payload: 0,
        to_request=_chat.to_request,
    )
)
