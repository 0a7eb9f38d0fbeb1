"""Running a test under each JSON backend: orjson and the standard library's json."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from semantic_chat import jsoncodec

__all__ = ["BACKENDS", "backend"]

BACKENDS = ("json", "orjson")


@contextmanager
def backend(name: str) -> Iterator[None]:
    """Use the backend ``name`` inside the block, then the one used before."""
    saved = jsoncodec.BACKEND
    jsoncodec.use_backend(name)
    try:
        yield
    finally:
        jsoncodec.use_backend(saved)
