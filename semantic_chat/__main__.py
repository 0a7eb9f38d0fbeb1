"""``python -m semantic_chat``: the ``semantic-chat`` command.

With no arguments it builds the bundled example, prints it as a transcript, says what it holds
and checks that it survives a JSON round trip; with arguments it runs ``semantic-chat``
(``python -m semantic_chat convert chat.json --to openai-responses``).
"""

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
    if len(sys.argv) > 1:
        from .cli import main as cli_main

        sys.exit(cli_main(sys.argv[1:]))
    sys.exit(main())
