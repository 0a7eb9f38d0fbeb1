"""The ``semantic-chat`` command: print, convert, check and show conversations.

``semantic-chat example`` prints the bundled example conversation, ``convert`` turns a
conversation (or a JSONL file of them) into another wire format, ``validate`` checks one,
``show`` prints it as a transcript, and ``formats`` lists the formats. ``python -m
semantic_chat ARGS`` runs the same command.

Errors are one line on stderr, ``semantic-chat: <where>: <what>``; the exit status is 2 for a
usage error (or a plugin that cannot be loaded), 1 for bad input (or a failed write) and 0
otherwise. ``--debug`` shows the traceback instead.

Every command loads the plugins first (`semantic_chat.cli.plugins`): the entry points of the
group ``semantic_chat.plugins``, then each ``--plugin MODULE``. They are loaded before the
options are read, so a format a plugin registers is one ``--to`` accepts.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from types import FrameType
from typing import NoReturn

from .. import __version__, formats
from ..html import THEMES
from .commands import PROG, convert, example, list_formats, show, validate
from .files import CommandError
from .pipeline import describe_error
from .plugins import load_plugins

__all__ = ["build_parser", "main"]

_Command = Callable[[argparse.Namespace], int]


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line: what is wrong and where to look."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """Build the parser for ``semantic-chat`` and its subcommands."""
    names = formats.names()
    format_help = f"one of: {', '.join(names)}"
    common = _Parser(add_help=False)
    common.add_argument(
        "--debug", action="store_true", help="show the traceback of an error instead of one line"
    )
    common.add_argument(
        "--plugin", action="append", default=[], metavar="MODULE",
        help="import MODULE first, for the content types, codecs or formats it registers "
        "(repeatable; installed 'semantic_chat.plugins' entry points are always loaded)",
    )
    parser = _Parser(
        prog=PROG,
        description="Print, convert, check and show chat conversations for LLM APIs.",
        epilog="Run 'semantic-chat COMMAND --help' for a command's options.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND", dest="command")

    def command(name: str, run: _Command, help_text: str, epilog: str = "") -> _Parser:
        sub: _Parser = commands.add_parser(
            name,
            parents=[common],
            help=help_text,
            description=help_text[0].upper() + help_text[1:] + ".",
            epilog=epilog or None,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        sub.set_defaults(run=run)
        return sub

    sub = command(
        "example",
        example,
        "print the bundled example conversation (text, image, audio, a tool call and its "
        "result, reasoning)",
        "examples:\n  semantic-chat example | semantic-chat show\n"
        "  semantic-chat example --to openai-responses --drop-unsupported",
    )
    sub.add_argument(
        "--to", metavar="FORMAT", choices=names, default="semantic-chat",
        help=f"the format to print it in (default semantic-chat): {format_help}",
    )
    _add_write_options(sub)

    sub = command(
        "convert",
        convert,
        "convert a conversation, or a JSONL file of them, to another format",
        "A .jsonl file (or --jsonl) holds one conversation per line; it is streamed, and\n"
        "each line's format is detected unless --from is given.\n\n"
        "examples:\n  semantic-chat convert chat.json --to openai-responses\n"
        "  semantic-chat convert chats.jsonl --to semantic-chat -o out.jsonl --workers 4\n"
        "  semantic-chat convert 'shards/*.parquet' --to openai-chat -o out/ --engine dask -j 2\n"
        "  cat chat.json | semantic-chat convert --to openai-chat --drop-unsupported",
    )
    sub.add_argument(
        "input", nargs="*", metavar="INPUT",
        help="a JSON file, a .jsonl file, or - for standard input (the default); with "
        "--engine dask, the shards: directories, files or glob patterns",
    )
    sub.add_argument(
        "--to", metavar="FORMAT", choices=[*names, "parquet"], required=True,
        help=f"the format to write: {format_help}; or parquet, a Parquet file (-o FILE) of "
        "semantic-chat JSON in semantic_chat.batch.arrow_schema (needs pyarrow)",
    )
    sub.add_argument(
        "--from", dest="source", metavar="FORMAT", choices=names,
        help="the input's format (detected when left out)",
    )
    _add_write_options(sub)
    _add_jsonl_options(sub)
    sub.add_argument(
        "--skip-invalid", action="store_true",
        help="skip (and report) JSONL lines that cannot be converted instead of stopping",
    )
    sub.add_argument(
        "--max-tokens", type=_positive, metavar="N",
        help="the output token limit of a request that gives none (Anthropic requires one)",
    )
    sub.add_argument(
        "--engine", choices=("local", "dask"), default="local",
        help="local (the default): this machine, -j processes; dask: INPUT is directories, "
        "files or globs of JSONL or Parquet shards, converted one task per shard into a shard of "
        "the same name in -o OUTPUT_DIR (.jsonl, or .parquet for --to parquet), skipping "
        "shards already there (needs the dask extra)",
    )
    sub.add_argument(
        "--scheduler", metavar="ADDRESS",
        help="with --engine dask: the Dask scheduler to run on (tcp://host:8786); by default "
        "a local cluster of -j worker processes is started for the job",
    )

    sub = command(
        "validate",
        validate,
        "check a conversation or a JSONL file and print every problem with its location",
        "It runs the checks 'convert' runs: reading the input, then the rules of the format\n"
        "given by --to (the input's own format when left out). Errors print as\n"
        "'path: message', warnings (what converting would leave out) as\n"
        "'path: warning: message'. The exit status is 1 when there is an error.\n\n"
        "examples:\n  semantic-chat validate chats.jsonl --format openai-chat\n"
        "  semantic-chat validate chat.json --to openai-responses",
    )
    _add_input(sub)
    sub.add_argument(
        "--format", "--from", dest="source", metavar="FORMAT", choices=names,
        help=f"the format to check against (detected when left out): {format_help}",
    )
    sub.add_argument(
        "--to", metavar="FORMAT", choices=names,
        help="also check that converting to this format would succeed (default: the input's "
        "own format)",
    )
    sub.add_argument(
        "--max-tokens", type=_positive, metavar="N",
        help="the output token limit a request that gives none would be converted with, as "
        "convert's --max-tokens (Anthropic requires one)",
    )
    sub.add_argument(
        "--max-problems", type=_max_problems, default=50, metavar="N",
        help="print at most N problems (default 50; 0: all); the summary counts them all",
    )
    _add_jsonl_options(sub)

    sub = command(
        "show",
        show,
        "print a conversation as a readable transcript, or write it as an HTML page",
        "With --html a conversation is one self-contained page (inline CSS, no script,\n"
        "nothing fetched but the images and audio an item names by an https: URI), to\n"
        "standard output or -o FILE. A JSONL file gives, with -o DIR,\n"
        "a page per line (conversation-N.html) and an index.html listing them (pages an\n"
        "earlier run left for other lines are removed), or with --line N the page of\n"
        "line N.\n\n"
        "examples:\n  semantic-chat example | semantic-chat show\n"
        "  semantic-chat show chats.jsonl --color always | less -R\n"
        "  semantic-chat example | semantic-chat show --html -o example.html\n"
        "  semantic-chat show chats.jsonl --html -o pages/\n"
        "  semantic-chat show chats.jsonl --line 3 --html --theme dark > line-3.html",
    )
    _add_input(sub)
    sub.add_argument(
        "--from", "--format", dest="source", metavar="FORMAT", choices=names,
        help=f"the input's format (detected when left out): {format_help}",
    )
    sub.add_argument(
        "--jsonl", action="store_true", help="read one conversation per line (implied by .jsonl)"
    )
    sub.add_argument(
        "--color", choices=("auto", "always", "never"), default="auto",
        help="colour the transcript: auto (when stdout is a terminal and NO_COLOR is unset, "
        "the default), always or never",
    )
    sub.add_argument(
        "--line", type=_line_number, metavar="N",
        help="show only line N of a JSONL file (counted from 1, as an editor counts)",
    )
    sub.add_argument(
        "--html", action="store_true",
        help="write an HTML page instead of a transcript (a JSONL file: a page per line and "
        "an index, with -o DIR)",
    )
    sub.add_argument(
        "-o", "--output", metavar="PATH",
        help="with --html: the page's file (written atomically, never onto the input), or "
        "for a JSONL file the directory of its pages (made when missing)",
    )
    sub.add_argument(
        "--theme", choices=THEMES,
        help="with --html: the colours: auto (the reader's light or dark preference, the "
        "default), light or dark",
    )
    sub.add_argument(
        "--title", metavar="TEXT",
        help="with --html: the page's title (default: the input file's name)",
    )
    sub.add_argument(
        "-q", "--quiet", action="store_true",
        help="with --html -o DIR: no progress bar and no summary",
    )

    command("formats", list_formats, "list the formats and what each carries")
    return parser


def _add_input(sub: argparse.ArgumentParser) -> None:
    sub.add_argument(
        "input", nargs="?", default="-", metavar="INPUT",
        help="a JSON file, a .jsonl file, or - for standard input (the default)",
    )


def _add_write_options(sub: argparse.ArgumentParser) -> None:
    sub.add_argument(
        "-o", "--output", metavar="PATH",
        help="write here (atomically, never onto the input) instead of to standard output",
    )
    sub.add_argument(
        "--indent", action="store_true",
        help="indent the JSON (the default when writing a document to a terminal)",
    )
    sub.add_argument(
        "--drop-unsupported", action="store_true",
        help="leave out, with a warning, what the target format cannot carry "
        "(--on-unsupported warn)",
    )
    sub.add_argument(
        "--on-unsupported", choices=("error", "warn", "drop"), metavar="ACTION",
        help="what to do with what the target cannot carry: error, warn (leave it out with a "
        "warning) or drop (leave it out silently); by default items are errors and fields "
        "warnings",
    )


def _add_jsonl_options(sub: argparse.ArgumentParser) -> None:
    sub.add_argument(
        "--jsonl", action="store_true", help="read one conversation per line (implied by .jsonl)"
    )
    sub.add_argument(
        "-j", "--workers", type=_workers, default=1, metavar="N",
        help="process JSONL in N processes, keeping the order (0: one per CPU; default 1)",
    )
    sub.add_argument(
        "-q", "--quiet", action="store_true", help="no progress bar and no summary"
    )


def _max_problems(text: str) -> int:
    try:
        count = int(text)
    except ValueError:
        count = -1
    if count < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number of problems, got {text!r}")
    return count


def _line_number(text: str) -> int:
    try:
        number = int(text)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"expected a line number of 1 or more, got {text!r}")
    return number


_MOST_TOKENS = 2**63 - 1
"""The largest token limit a request can hold: every API reads it as a 64-bit integer."""


def _positive(text: str) -> int:
    """A token limit from 1 to `_MOST_TOKENS`; anything else is the option's usage error."""
    try:
        count = int(text)
    except ValueError:
        count = 0
    if count < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of tokens above 0, got {text!r}")
    if count > _MOST_TOKENS:
        raise argparse.ArgumentTypeError(
            f"expected at most {_MOST_TOKENS:,} tokens (a 64-bit integer), got {text!r}"
        )
    return count


def _workers(text: str) -> int:
    try:
        count = int(text)
    except ValueError:
        count = -1
    if count < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number of processes, got {text!r}")
    return count or os.cpu_count() or 1


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``semantic-chat`` with ``argv`` (the process's arguments when ``None``).

    Returns:
        The exit status: 0 on success, 1 for bad input or a failed write, 2 for a usage
        error (which exits from argument parsing), 130 when interrupted.
    """
    arguments = list(sys.argv[1:] if argv is None else argv)
    early = _early_options(arguments)
    try:
        load_plugins(early.plugin, debug=early.debug)
    except CommandError as error:
        _report(str(error))
        return error.status
    parser = build_parser()
    args = parser.parse_args(arguments)
    if args.command is None:
        parser.error(f"missing command ({', '.join(_command_names(parser))})")
    try:
        load_plugins(args.plugin, debug=args.debug)  # an abbreviated --plug, say
    except CommandError as error:
        _report(str(error))
        return error.status
    run: _Command = args.run
    restore = _exit_on_sigterm()
    try:
        return run(args)
    except CommandError as error:
        _report(str(error))
        return error.status
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly, without a flush error at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except KeyboardInterrupt:
        if args.debug:
            raise
        _report("interrupted")
        return 130
    except OSError as error:
        if args.debug:
            raise
        where = f"{error.filename}: " if error.filename else ""
        _report(f"{where}{error.strerror or error}")
        return 1
    except Exception as error:
        if args.debug:
            raise
        _report(describe_error(error))
        return 1
    finally:
        restore()


def _early_options(arguments: list[str]) -> argparse.Namespace:
    """Find ``--plugin`` and ``--debug`` wherever they are, before the full parser is built."""
    early = _Parser(prog=PROG, add_help=False, allow_abbrev=False)
    early.add_argument("--plugin", action="append", default=[])
    early.add_argument("--debug", action="store_true")
    found, _ = early.parse_known_args(arguments)
    return found


def _report(message: str) -> None:
    print(f"{PROG}: {message}", file=sys.stderr)


def _command_names(parser: argparse.ArgumentParser) -> list[str]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return list(action.choices)
    return []


def _exit_on_sigterm() -> Callable[[], None]:
    """Make SIGTERM unwind like an exception, so half-written output is removed."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None

    def stop(signum: int, frame: FrameType | None) -> None:
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, stop)

    def restore() -> None:
        signal.signal(signal.SIGTERM, previous)

    return restore

