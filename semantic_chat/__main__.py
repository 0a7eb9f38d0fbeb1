"""``python -m semantic_chat``: build the bundled example, print it and say what it holds."""

from __future__ import annotations

import sys

from .example import example_history
from .serialization import from_json, to_json
from .transcript import render_transcript, summarize


def main() -> int:
    """Print the example conversation as a transcript, then check it survives JSON."""
    history = example_history()
    print(render_transcript(history))
    print()
    print(f"Contains {summarize(history)}.")
    text = to_json(history)
    restored = from_json(text, type(history))
    verdict = "identical" if restored == history else "DIFFERENT"
    print(f"As JSON: {len(text):,} characters; read back: {verdict}.")
    return 0 if restored == history else 1


if __name__ == "__main__":
    sys.exit(main())
