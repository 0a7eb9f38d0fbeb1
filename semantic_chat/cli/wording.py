"""Error texts in the command line's own words: where in the input, then what.

The JSON parsers say where they stopped as ``line 2 column 1 (char 17)`` counted in the text
they were given. For a JSONL line that text is the line alone, so the command line says
``line 4, column 17`` instead: the line of the file, and the column inside it. An input that
holds nothing but whitespace has one text, whichever parser read it.
"""

from __future__ import annotations

import re

__all__ = ["EMPTY_INPUT", "at_line", "document_position", "line_position"]

EMPTY_INPUT = "the input is empty: expected a JSON document"
"""What an empty (or whitespace-only) input document is called, on every path."""

_POSITION = re.compile(r"^(?P<text>.*?):? line (?P<line>\d+) column (?P<column>\d+) "
                       r"\(char (?P<char>\d+)\)$", re.DOTALL)


def line_position(number: int, message: str) -> tuple[str, str]:
    """Say where in JSONL line ``number`` an error is, and what it is.

    Returns:
        ``("line 4, column 17", "malformed JSON: unexpected end of data")`` for a parser's
        error, the column counted in characters from the start of the line (an error after
        the line's last character is one column past it); ``("line 4", message)`` for any
        other error.
    """
    where = f"line {number:,}"
    found = _POSITION.match(message)
    if found is None:
        return where, message
    column = int(found["column"])
    if int(found["line"]) > 1:  # past the newline that ends the line: at its end
        column = int(found["char"])
    return f"{where}, column {column:,}", found["text"]


def at_line(number: int, message: str) -> str:
    """``line 4, column 17: <what>`` (or ``line 4: <what>``) for an error in a JSONL line."""
    return ": ".join(line_position(number, message))


def document_position(message: str) -> tuple[str, str]:
    """Split a parser's error in a whole document into ``line 3, column 5`` and what it is.

    Returns:
        ``("", message)`` when the message names no position.
    """
    found = _POSITION.match(message)
    if found is None:
        return "", message
    return f"line {int(found['line']):,}, column {int(found['column']):,}", found["text"]
