"""Reading, converting and writing conversations, in this process or in a pool of workers.

A `Job` says what to do with each conversation; `transform` does it to one parsed payload,
`run_chunk` to a chunk of JSONL lines (catching each line's error), and `run_chunks` to a
stream of chunks with any number of processes, yielding the results in input order while
holding only a few chunks in memory at a time.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import re
import signal
import traceback
import warnings
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, NamedTuple

from .. import formats, jsoncodec
from ..errors import SemanticChatError
from ..formats import documents, validation
from ..history import ChatHistory
from .files import Chunk, CommandError, parse_json
from .plugins import load_plugins

__all__ = [
    "Job",
    "Outcome",
    "cli_words",
    "describe_error",
    "dump",
    "open_pool",
    "read_noting",
    "result_format",
    "run_chunk",
    "run_chunks",
    "transform",
]

_CHUNKS_PER_WORKER = 2
"""How many chunks each worker may have queued or in progress."""


class Job(NamedTuple):
    """What to do with each conversation.

    Attributes:
        source: the input format, or ``None`` to detect it per conversation.
        target: the output format, or ``None`` to only read (validate).
        drop: leave out, with a warning, what the target cannot carry (``--drop-unsupported``,
            the same as ``on_unsupported="warn"``).
        indent: 2 to indent the output JSON, ``None`` for one line.
        debug: keep the traceback of each error.
        on_unsupported: what to do with what the target cannot carry (``--on-unsupported``);
            ``None``: ``"warn"`` when ``drop``, else each format's default per kind of loss.
        check: validate instead of converting: collect each line's problems
            (`formats.validate`, against ``target`` or the line's own format).
        plugins: the ``--plugin`` modules, loaded again in each worker process (a worker
            started by spawn or forkserver imports nothing of its parent).
        max_tokens: the output token limit written into a request that has none
            (``--max-tokens``; the Anthropic Messages API requires one).
    """

    source: str | None
    target: str | None
    drop: bool = False
    indent: int | None = None
    debug: bool = False
    on_unsupported: str | None = None
    check: bool = False
    plugins: tuple[str, ...] = ()
    max_tokens: int | None = None


class Outcome(NamedTuple):
    """What became of one line: its number, the format read, the output or the error."""

    line: int
    source: str | None
    data: bytes | None
    error: str | None
    warnings: tuple[str, ...] = ()
    trace: str | None = None
    problems: tuple[formats.Problem, ...] = ()


def transform(job: Job, payload: Any) -> tuple[str, str | None, list[str]]:
    """Read one conversation and write it in the target format.

    A request body (or fine-tuning line), or a history with options, is written as the
    target's request body (the format's ``to_request``); a fine-tuning line stays one, as it
    has no model. A Batch line keeps its envelope: its body is converted, and an input line
    moves into the target's (OpenAI's with the target's ``url``, Anthropic's ``params``,
    Gemini's ``request``; `semantic_chat.formats.documents.unwrap`). ``--max-tokens`` goes
    into any request without a limit, a Batch line's too (`validation.give_max_tokens`).

    Returns:
        The format it was read in, the output JSON text (``None`` when there is no target, or
        no reply to convert), and the warnings about what was dropped.

    A results line of a request that got no reply (an ``errored`` or ``expired`` result, an
    OpenAI or Gemini error line) has nothing to convert: no text, and the warning `validate`
    gives it (``no reply to convert: request a3: expired``); the command leaves it out.

    Raises:
        SemanticChatError: the payload cannot be read, or the target cannot carry it (a
            Batch line without a model for a target whose Batch lines need one, too).
    """
    failed = validation.failed_request(payload)
    if failed is not None:
        return job.source or result_format(payload), None, [f"no reply to convert: {failed}"]
    unwrapped = documents.unwrap(payload)
    body = unwrapped.body
    try:
        source = job.source if job.source is not None else formats.detect(body)
        history, read_notes = read_noting(source, body)
    except SemanticChatError as error:
        raise error.at(unwrapped.path) from None
    if job.target is None:
        return source, None, read_notes
    validation.give_max_tokens(history, payload, job.max_tokens)
    validation.check_batch_model(payload, history, job.target)
    request = documents.writes_request(payload, body, history)
    text, notes = dump(job, history, request=request, wrap=unwrapped.wrap)
    return source, text, read_notes + notes


_RESULT_FORMATS = {"anthropic_batch_result": "anthropic", "gemini_batch_result": "gemini"}


def result_format(line: Any) -> str:
    """The format of a Batch results line by its kind (``openai``: either OpenAI format's)."""
    return _RESULT_FORMATS.get(documents.kind_of(line) or "", "openai")


def read_noting(source: str, payload: Any) -> tuple[ChatHistory, list[str]]:
    """Read ``payload`` in format ``source``, with the warnings reading gave.

    What reading leaves out (a response's other candidates ...) is returned for the command
    line to print as its own warnings.

    Raises:
        SemanticChatError: the payload cannot be read.
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", formats.ConversionWarning)
        history = formats.get(source).from_payload(payload)
    notes = []
    for note in caught:
        if isinstance(note.message, formats.ConversionWarning):
            notes.append(cli_words(str(note.message)))
        else:  # not ours to word: shown as Python would show it
            warnings.warn_explicit(note.message, note.category, note.filename, note.lineno)
    return history, notes


def dump(
    job: Job,
    history: ChatHistory,
    *,
    request: bool = False,
    wrap: Callable[[Any, str], Any] | None = None,
) -> tuple[str, list[str]]:
    """Write a history in the job's target format as JSON text, with warnings for drops.

    With ``request``, a format that has request bodies writes one (model, options and
    messages); ``wrap`` puts what is written back into the input's Batch envelope.

    Raises:
        UnsupportedContentError: the target cannot carry an item and ``job.drop`` is false.
    """
    assert job.target is not None, "a job that writes has a target"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        on_unsupported = job.on_unsupported or ("warn" if job.drop else None)
        target = formats.get(job.target)
        write = target.to_request if request else None
        options = history.options
        if write is not None and options is not None and options.max_tokens is None:
            options.max_tokens = job.max_tokens  # --max-tokens, or None as before
        if write is None:
            write = target.to_payload
        written = write(history, on_unsupported=on_unsupported)
    if wrap is not None:
        written = wrap(written, job.target)
    return jsoncodec.dumps(written, job.indent), [str(note.message) for note in caught]


def describe_error(error: BaseException) -> str:
    """Say what went wrong in one line, in the command line's words."""
    if isinstance(error, (SemanticChatError, ValueError)):
        message = str(error)
    else:
        message = f"internal error: {type(error).__name__}: {error} (--debug shows where)"
    return cli_words(message)


def cli_words(message: str) -> str:
    """A library message with its advice in the command line's words, on one line."""
    message = message.replace("on_unsupported='warn'", "--drop-unsupported")
    message = message.replace("pass the source format", "pass --from")
    message = message.replace(
        "set history.options.max_tokens, or pass to_request(history, max_tokens=...)",
        "pass --max-tokens",
    )
    message = _PYTHON_ONLY_ADVICE.sub("", message)  # no option of the command does it
    return " ".join(message.split())


_PYTHON_ONLY_ADVICE = re.compile(r" \(read this one with from_response\([^()]*\)\)")
"""The advice of a reader that left a response's other choices out, which only Python can
follow."""


def run_chunk(job: Job, lines: list[tuple[int, bytes]]) -> list[Outcome]:
    """Transform each line of a chunk, keeping each line's error instead of raising it."""
    if job.check:
        return check_chunk(job, lines)
    outcomes = []
    for number, raw in lines:
        try:
            source, text, notes = transform(job, parse_json(raw))
        except Exception as error:  # reported per line; the run goes on
            trace = traceback.format_exc() if job.debug else None
            outcomes.append(Outcome(number, None, None, describe_error(error), (), trace))
            continue
        data = None if text is None else (text + "\n").encode()
        outcomes.append(Outcome(number, source, data, None, tuple(notes)))
    return outcomes


def check_chunk(job: Job, lines: list[tuple[int, bytes]]) -> list[Outcome]:
    """Validate each line of a chunk: every problem of each, in ``Outcome.problems``."""
    outcomes = []
    for number, raw in lines:
        try:
            checked = formats.validation.check(
                parse_json(raw),
                job.source,
                target=job.target,
                on_unsupported=job.on_unsupported,  # type: ignore[arg-type]
                max_tokens=job.max_tokens,
            )
        except Exception as error:  # malformed JSON, or an internal error: one problem
            trace = traceback.format_exc() if job.debug else None
            problem = formats.Problem("", describe_error(error))
            outcomes.append(Outcome(number, None, None, None, (), trace, (problem,)))
            continue
        problems = tuple(checked.problems)
        outcomes.append(Outcome(number, checked.format, None, None, (), None, problems))
    return outcomes


@contextlib.contextmanager
def open_pool(job: Job, workers: int) -> Iterator[ProcessPoolExecutor | None]:
    """Start ``workers`` processes for ``job`` (none for one worker); stop them on exit.

    The processes are started here, before any other thread (a progress bar's) exists.
    """
    if workers <= 1:
        yield None
        return
    pool = ProcessPoolExecutor(
        workers,
        mp_context=multiprocessing.get_context(),
        initializer=_start_worker,
        initargs=(job,),
    )
    try:
        pool.submit(int).result()
        yield pool
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def run_chunks(
    job: Job, chunks: Iterable[Chunk], pool: ProcessPoolExecutor | None, workers: int
) -> Generator[tuple[Chunk, list[Outcome]], None, None]:
    """Transform chunks of lines in ``pool`` (or here), yielding them in input order.

    At most two chunks per worker are read ahead, so memory stays flat however long the
    input is.

    Raises:
        CommandError: a worker process died (killed, or out of memory).
    """
    if pool is None:
        for chunk in chunks:
            yield chunk, run_chunk(job, chunk.lines)
        return
    pending: deque[tuple[Chunk, Future[list[Outcome]]]] = deque()
    try:
        for chunk in chunks:
            pending.append((chunk, pool.submit(_run_in_worker, chunk.lines)))
            if len(pending) >= workers * _CHUNKS_PER_WORKER:
                done, result = pending.popleft()
                yield done, result.result()
        while pending:
            done, result = pending.popleft()
            yield done, result.result()
    except BrokenProcessPool:
        raise CommandError(
            "a worker process stopped unexpectedly (killed, or out of memory?)"
        ) from None


_worker_job: Job | None = None


def _start_worker(job: Job) -> None:
    """Remember the job in a worker; leave Ctrl-C and SIGTERM to the parent (it stops us)."""
    global _worker_job  # noqa: PLW0603 - one job per worker process
    _worker_job = job
    load_plugins(job.plugins)  # nothing to do in a forked worker: already imported
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _run_in_worker(lines: list[tuple[int, bytes]]) -> list[Outcome]:
    assert _worker_job is not None, "the pool's initializer sets the job"
    return run_chunk(_worker_job, lines)
