"""Batch functions over a column of conversations, for Hugging Face datasets, Ray and Dask.

Each function takes a batch of rows and returns a batch of the same kind, its other columns
untouched, so it can be given as it is to ``datasets.Dataset.map(batched=True)``, Ray Data's
``map_batches`` and Dask's ``map_partitions``. A batch is one of:

- a dict of lists (any mapping of column name to sequence, such as the batch
  ``datasets.Dataset.map`` passes);
- a ``pyarrow.RecordBatch`` or ``pyarrow.Table``;
- a ``pandas.DataFrame``.

A cell of the conversation column holds one conversation as its format holds it: a list of
message dicts, a request body or Batch line (a dict), or the same as JSON text (a ``str`` or
``bytes`` cell is always parsed as JSON). In Arrow the column is a string column of JSON text;
values of Arrow's JSON extension type (``arrow.json``) at any depth are parsed from their
text (as Hugging Face datasets stores values of varied shapes: ``List(Json)`` for messages,
``Json`` for a ``content`` that is text in one message and parts in another); a list
(or struct) column whose values are read as Python lists and dicts (a null struct field is
read as absent, since Arrow gives every row every field of the struct, so give ``source``
when a format needs an explicit null to be recognised); or a ``messages`` column of
`arrow_schema`, read as a `semantic-chat` document of those messages. A pandas cell is read
as it is, numpy arrays (as ``DataFrame`` cells of Arrow lists are) as lists.

What is written: the converted column holds each conversation as one line of JSON text,
exactly the line ``semantic-chat convert --jsonl`` writes for it (a string column in Arrow);
``as_json=False`` puts the Python values instead (a dict of lists or a DataFrame only).

Errors: ``on_error="raise"`` (the default) raises the first one, located at its row
(``batch row 3: messages[1].role: ...``, or ``row 1003: ...`` of the dataset when the
batch's ``indices`` or ``offset`` are given); ``"null"`` puts ``None`` in the row; ``"record"`` puts
``None`` and adds a ``problems`` column: for each row a list of texts, empty when the row was
converted without a loss, else its error (``str`` of a `Problem`), or its losses as
``warning: ...``. One bad row never stops a job of a million rows.

`arrow_schema` is the Arrow form of our own JSON (``semantic-chat``), written by
``semantic-chat convert --to parquet``; `to_arrow_table` and `from_arrow_table` go between the
two. pyarrow and pandas are imported only when a batch of theirs is given; `arrow_schema`
needs pyarrow (``pip install 'semantic_chat[parquet]'``).
"""

from __future__ import annotations

import importlib
import math
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal, Protocol, TypeVar, overload

from . import formats, jsoncodec
from .errors import (
    InvalidTypeError,
    InvalidValueError,
    SemanticChatError,
    SerializationError,
    describe_type,
)
from .formats import documents, validation
from .formats.validation import Problem
from .formats.wire import OnUnsupported
from .prompt import form_prompt_string

__all__ = [
    "PROBLEMS",
    "OnError",
    "arrow_schema",
    "convert_batch",
    "from_arrow_table",
    "read_column",
    "to_arrow_table",
    "to_prompt_batch",
    "validate_batch",
]

OnError = Literal["raise", "null", "record"]
"""What a batch function does with a row it cannot convert: raise, put ``None``, or put
``None`` and record why in the `PROBLEMS` column."""

PROBLEMS = "problems"
"""The name of the column of each row's problems (``on_error="record"``, `validate_batch`)."""

_ON_ERROR = ("raise", "null", "record")
_SEMANTIC_CHAT = "semantic-chat"
_MESSAGE_COLUMNS = ("role", "name", "items")
"""The message keys with columns of their own; every other key (an unknown "fields" too) goes
in the message's ``fields`` JSON."""
_DOCUMENT_KEYS = frozenset({"version", "options", "messages"})


class _Table(Protocol):
    """A pyarrow ``RecordBatch`` or ``Table`` or a pandas ``DataFrame``, as the types see one.

    Structural, so that neither library is imported (nor needed by mypy): each has columns
    and a shape, and a batch function returns the same class as it was given.
    """

    @property
    def columns(self) -> Any: ...

    @property
    def shape(self) -> Any: ...


_TableT = TypeVar("_TableT", bound=_Table)


@overload
def convert_batch(
    batch: Mapping[str, Any],
    column: str = "messages",
    source: str | None = None,
    *,
    target: str,
    on_error: OnError = "raise",
    on_unsupported: OnUnsupported | None = None,
    max_tokens: int | None = None,
    as_json: bool = True,
    output: str | None = None,
    indices: Sequence[int] | None = None,
    offset: int | None = None,
) -> dict[str, Any]: ...


@overload
def convert_batch(
    batch: _TableT,
    column: str = "messages",
    source: str | None = None,
    *,
    target: str,
    on_error: OnError = "raise",
    on_unsupported: OnUnsupported | None = None,
    max_tokens: int | None = None,
    as_json: bool = True,
    output: str | None = None,
    indices: Sequence[int] | None = None,
    offset: int | None = None,
) -> _TableT: ...


def convert_batch(
    batch: Any,
    column: str = "messages",
    source: str | None = None,
    *,
    target: str,
    on_error: OnError = "raise",
    on_unsupported: OnUnsupported | None = None,
    max_tokens: int | None = None,
    as_json: bool = True,
    output: str | None = None,
    indices: Sequence[int] | None = None,
    offset: int | None = None,
) -> Any:
    """Convert each conversation of ``column`` from ``source`` (detected per row) to ``target``.

    Each row is converted as ``semantic-chat convert --jsonl`` converts a line (a request
    body stays a request body, a Batch line keeps its envelope) and written as the same JSON
    text, so a dataset mapped with this function holds what the command writes, row for row.
    What the target cannot carry follows ``on_unsupported`` (`semantic_chat.formats.convert`);
    a loss it leaves out is a `ConversionWarning`, located at its row, or a ``warning: ...``
    problem with ``on_error="record"``. ``max_tokens`` is written into a request body that
    has no output limit (``--max-tokens``; Anthropic's Messages API requires one). The
    result replaces ``column``, or goes in a column ``output`` when given (Hugging Face
    datasets keeps a replaced column's type: a ``List(Json)`` column cannot take text).

    Errors and warnings name their row as ``batch row N``, counted from the batch's first
    row, unless the batch says where it is in the dataset: ``indices`` (the dataset index
    of each row, what ``datasets.Dataset.map(..., with_indices=True)`` passes) or ``offset``
    (the index of the batch's first row) make it ``row N`` of the dataset.

    Returns:
        A batch of the same kind (a new ``dict`` for a mapping) with ``column`` replaced or
        ``output`` set (and a `PROBLEMS` column added with ``on_error="record"``).

    Raises:
        SemanticChatError: a row cannot be read or converted (``on_error="raise"``), located
            at ``row N``; or ``on_error``, ``as_json`` or a format name is not valid.
    """
    formats.get(target)  # an unknown name is refused before any row is read
    if source is not None:
        formats.get(source)
    on_error = _check_on_error(on_error)
    rows = _Rows(indices, offset)

    def convert_one(row: int, payload: Any) -> tuple[Any, list[str]]:
        written, notes = _convert(payload, source, target, on_unsupported, max_tokens)
        return (jsoncodec.dumps(written) if as_json else written), notes

    return _map_rows(batch, column, output or column, convert_one, on_error, as_json, rows)


@overload
def validate_batch(
    batch: Mapping[str, Any],
    column: str = "messages",
    source: str | None = None,
    target: str | None = None,
    *,
    on_unsupported: OnUnsupported | None = None,
) -> dict[str, Any]: ...


@overload
def validate_batch(
    batch: _TableT,
    column: str = "messages",
    source: str | None = None,
    target: str | None = None,
    *,
    on_unsupported: OnUnsupported | None = None,
) -> _TableT: ...


def validate_batch(
    batch: Any,
    column: str = "messages",
    source: str | None = None,
    target: str | None = None,
    *,
    on_unsupported: OnUnsupported | None = None,
) -> Any:
    """Add a `PROBLEMS` column: every problem converting each row to ``target`` would meet.

    The checks are `semantic_chat.formats.validate`'s (reading in ``source``, detected per row,
    then the rules of ``target``, the row's own format when ``None``); each problem is its
    ``str``, a warning (what converting would leave out) as ``path: warning: message`` as
    ``semantic-chat validate`` prints it. An empty list means the row converts without a loss.
    A cell that is not JSON, or null, has that one problem. Nothing is raised for a row.

    Raises:
        FormatError: ``source`` or ``target`` is not a registered format's name.
    """
    for name in (source, target):
        if name is not None:
            formats.get(name)
    cells = _read_column(batch, column)
    problems: list[list[str]] = []
    for cell in cells:
        try:
            payload = _payload(cell)
        except SemanticChatError as error:
            problems.append([str(error)])
            continue
        found = formats.validate(payload, source, target=target, on_unsupported=on_unsupported)
        problems.append([_problem_text(problem) for problem in found])
    return _with_columns(batch, {PROBLEMS: _Column(problems, "problems")})


@overload
def to_prompt_batch(
    batch: Mapping[str, Any],
    column: str = "messages",
    tools_column: str | None = None,
    output: str = "prompt",
    *,
    source: str | None = None,
    on_error: OnError = "raise",
    indices: Sequence[int] | None = None,
    offset: int | None = None,
) -> dict[str, Any]: ...


@overload
def to_prompt_batch(
    batch: _TableT,
    column: str = "messages",
    tools_column: str | None = None,
    output: str = "prompt",
    *,
    source: str | None = None,
    on_error: OnError = "raise",
    indices: Sequence[int] | None = None,
    offset: int | None = None,
) -> _TableT: ...


def to_prompt_batch(
    batch: Any,
    column: str = "messages",
    tools_column: str | None = None,
    output: str = "prompt",
    *,
    source: str | None = None,
    on_error: OnError = "raise",
    indices: Sequence[int] | None = None,
    offset: int | None = None,
) -> Any:
    """Add an ``output`` column: each conversation as the prompt string cleanlab's TLM reads.

    Each row is written by `semantic_chat.prompt.form_prompt_string`, with the tool
    definitions in ``tools_column`` of the same row when given (a list, a dict, JSON text or
    null). With ``source`` the row is read in that format first (as a history); without it the
    payload is given as it is, so OpenAI messages are written byte for byte as cleanlab does.
    ``indices`` and ``offset`` name the rows in errors as for `convert_batch`.

    Raises:
        SemanticChatError: a row cannot be read (``on_error="raise"``), located at
            ``batch row N`` (``row N`` with ``indices`` or ``offset``).
    """
    if source is not None:
        formats.get(source)
    on_error = _check_on_error(on_error)
    tools_cells = _read_column(batch, tools_column) if tools_column is not None else None
    rows = _Rows(indices, offset)

    def prompt_one(row: int, payload: Any) -> tuple[str, list[str]]:
        tools = None
        if tools_cells is not None and tools_cells[row] is not None:
            try:
                tools = _payload(tools_cells[row])
            except SemanticChatError as error:
                raise error.at(tools_column or "") from None
        if source is not None:
            payload = formats.get(source).from_payload(payload)
        return form_prompt_string(payload, tools), []

    return _map_rows(batch, column, output, prompt_one, on_error, True, rows)


def arrow_schema() -> Any:
    """The Arrow schema of our own JSON documents (``semantic-chat``), one row a document.

    - ``version``: ``int64``, the format version (1);
    - ``options``: ``string``, the request options as JSON text, null when there are none;
    - ``messages``: a ``list`` of ``struct``: ``role`` (``string``), ``name`` (``string``,
      null when none), ``items`` (``string``: the message's items as a JSON array, whatever
      their types, so one schema holds every content type, including your own; null for a
      message written without items, such as an OpenAI ``"content": null``) and
      ``fields`` (``string``: the message's other fields, such as ``model_id`` and
      ``usage``, as a JSON object, null when none);
    - ``fields``: ``string``, the document's other keys (unknown to this version, which a
      history keeps and writes back) as a JSON object, null when none.

    Roles and names can be filtered and counted in Arrow, Parquet and SQL engines without
    parsing JSON; the items, whose shapes are open, stay JSON text.

    Raises:
        ImportError: pyarrow is not installed (the ``parquet`` extra).
    """
    pa = _pyarrow()
    message = pa.struct(
        [
            pa.field("role", pa.string(), nullable=False),
            pa.field("name", pa.string()),
            pa.field("items", pa.string()),
            pa.field("fields", pa.string()),
        ]
    )
    return pa.schema(
        [
            pa.field("version", pa.int64(), nullable=False),
            pa.field("options", pa.string()),
            pa.field("messages", pa.list_(pa.field("item", message, nullable=False)),
                     nullable=False),
            pa.field("fields", pa.string()),
        ]
    )


def to_arrow_table(documents_: Iterable[Any]) -> Any:
    """Put ``semantic-chat`` documents (dicts, or their JSON text) in a table of `arrow_schema`.

    A document's keys unknown to this version go in its ``fields`` column and a message's in
    the message's ``fields``, so that `from_arrow_table` gives them back exactly.

    Raises:
        SerializationError: a document is not JSON text, or not a ``semantic-chat``
            document (located at ``row N``).
        ImportError: pyarrow is not installed (the ``parquet`` extra).
    """
    pa = _pyarrow()
    rows = [_arrow_row(document, number) for number, document in enumerate(documents_)]
    return pa.Table.from_pylist(rows, schema=arrow_schema())


def from_arrow_table(table: Any) -> list[dict[str, Any]]:
    """Read the ``semantic-chat`` documents back from a table (or batch) of `arrow_schema`.

    ``from_arrow_table(to_arrow_table(documents)) == documents`` for our own documents,
    their unknown keys and messages without items included. A table without the ``options``
    or ``fields`` column (written by an earlier version) is read as having none.

    Raises:
        InvalidValueError: the table has not the columns of `arrow_schema`.
    """
    missing = [name for name in ("version", "messages") if name not in table.schema.names]
    if missing:
        raise InvalidValueError(
            f"not a table of arrow_schema(): no {' or '.join(missing)} column"
        )
    found = []
    for row in table.to_pylist():
        document: dict[str, Any] = {"version": row["version"]}
        if row.get("options") is not None:
            document["options"] = jsoncodec.loads(row["options"])
        document["messages"] = [_message_of(message) for message in row["messages"]]
        if row.get("fields") is not None:  # a table written before the column is read as well
            document.update(jsoncodec.loads(row["fields"]))
        found.append(document)
    return found


# --- rows -------------------------------------------------------------------------------------


def _convert(
    payload: Any,
    source: str | None,
    target: str,
    on_unsupported: OnUnsupported | None,
    max_tokens: int | None,
) -> tuple[Any, list[str]]:
    """Convert one payload as the command line's ``transform`` does; return it and its losses."""
    unwrapped = documents.unwrap(payload)
    body = unwrapped.body
    try:
        reader = formats.get(source if source is not None else formats.detect(body))
        history = reader.from_payload(body)
    except SemanticChatError as error:
        raise error.at(unwrapped.path) from None
    writer = formats.get(target)
    validation.give_max_tokens(history, payload, max_tokens)
    validation.check_batch_model(payload, history, target)
    request = documents.is_request(body) or history.options is not None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if request and writer.to_request is not None:
            written = writer.to_request(history, on_unsupported=on_unsupported)
        else:
            written = writer.to_payload(history, on_unsupported=on_unsupported)
    if unwrapped.wrap is not None:
        written = unwrapped.wrap(written, target)
    return written, [str(note.message) for note in caught]


class _Rows:
    """How errors name a batch's rows: ``row N`` of the dataset, or ``batch row N``.

    It is the dataset's row when the caller says where the batch is (``indices`` or
    ``offset``); else only the batch's own count is known.
    """

    def __init__(self, indices: Sequence[int] | None, offset: int | None) -> None:
        if indices is not None and offset is not None:
            raise InvalidValueError("give indices or offset, not both", path="offset")
        if offset is not None and (type(offset) is not int or offset < 0):
            raise InvalidValueError(
                f"expected an int of 0 or more, got {offset!r}", path="offset"
            )
        self.indices = None if indices is None else list(indices)
        self.offset = offset

    def check(self, count: int) -> None:
        """Refuse ``indices`` that are not one per row.

        Raises:
            InvalidValueError: they are not.
        """
        if self.indices is not None and len(self.indices) != count:
            raise InvalidValueError(
                f"expected one index per row ({count:,}), got {len(self.indices):,}",
                path="indices",
            )

    def name(self, row: int) -> str:
        """``row N`` of the dataset, or ``batch row N``."""
        if self.indices is not None:
            return f"row {self.indices[row]}"
        if self.offset is not None:
            return f"row {self.offset + row}"
        return f"batch row {row}"


def _map_rows(  # noqa: PLR0917 - private; every caller passes all seven
    batch: Any,
    column: str,
    output: str,
    function: Callable[[int, Any], tuple[Any, list[str]]],
    on_error: OnError,
    as_json: bool,
    rows: _Rows,
) -> Any:
    """Apply ``function`` to each row number and cell of ``column``; results go in ``output``."""
    kind = _kind(batch)
    if not as_json and kind == "arrow":
        raise InvalidValueError(
            "as_json=False applies to a dict of lists or a DataFrame: an Arrow column of "
            "conversations is JSON text (or use to_arrow_table for semantic-chat documents)",
            path="as_json",
        )
    cells = _read_column(batch, column)
    rows.check(len(cells))
    results: list[Any] = []
    problems: list[list[str]] = []
    for row, cell in enumerate(cells):
        try:
            result, notes = function(row, _payload(cell))
        except (SemanticChatError, ValueError, TypeError) as error:
            if on_error == "raise":
                raise _at_row(error, rows.name(row)) from None
            results.append(None)
            problems.append([_error_text(error)])
            continue
        results.append(result)
        if on_error == "record":
            problems.append([f"warning: {note}" for note in notes])
        else:
            for note in notes:
                warnings.warn(
                    f"{rows.name(row)}: {note}", formats.ConversionWarning, stacklevel=3
                )
    added = {output: _Column(results, "json" if as_json else "objects")}
    if on_error == "record":
        added[PROBLEMS] = _Column(problems, "problems")
    return _with_columns(batch, added)


def _is_missing(cell: Any) -> bool:
    """Whether a pandas cell is a missing value, read as the null cell it stands for.

    That is ``NaN`` (what ``read_json`` gives a row without the column), ``pd.NA`` or ``NaT``.
    """
    if isinstance(cell, float):
        return math.isnan(cell)
    return type(cell).__name__ in ("NAType", "NaTType")


def _payload(cell: Any) -> Any:
    """The conversation a cell holds: JSON text parsed, numpy arrays as lists.

    Raises:
        SerializationError: the text is not JSON.
        InvalidValueError: the cell is null.
    """
    if cell is None:
        raise InvalidValueError("no conversation (the cell is null)")
    if isinstance(cell, (str, bytes, bytearray, memoryview)):
        return jsoncodec.loads(cell)
    return _plain(cell)


def _plain(value: Any) -> Any:
    """``value`` with numpy arrays (pandas cells of Arrow lists) made lists, all the way down."""
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    if type(value).__module__ == "numpy" and getattr(value, "ndim", 0) > 0:
        return [_plain(item) for item in value.tolist()]
    return value


def _from_arrow(value: Any, kind: Any) -> Any:
    """A Python value of an Arrow cell of type ``kind`` as the JSON value it was made from.

    A struct's null fields are left out (Arrow gives every row every field of the struct),
    and values of Arrow's JSON extension type (``arrow.json``, as Hugging Face datasets
    stores values of varied types), at any depth, are parsed from their text.
    """
    if value is None:
        return None
    if _is_json_type(kind):
        return jsoncodec.loads(value)
    value_type = getattr(kind, "value_type", None)
    if isinstance(value, list) and value_type is not None:
        return [_from_arrow(item, value_type) for item in value]
    if isinstance(value, dict) and hasattr(kind, "field"):  # a struct
        fields = {kind.field(index).name: kind.field(index).type
                  for index in range(kind.num_fields)}
        return {
            key: _from_arrow(item, fields.get(key))
            for key, item in value.items()
            if item is not None
        }
    return value


def _at_row(error: Exception, row: str) -> SemanticChatError:
    """The error located at its row: ``row 3: messages[1].role: ...``."""
    if not isinstance(error, SemanticChatError):
        return InvalidValueError(" ".join(str(error).split()), path=row)
    return error.with_path(f"{row}: {error.path}" if error.path else row)


def _error_text(error: Exception) -> str:
    if isinstance(error, SemanticChatError):
        return str(Problem(error.path, error.detail))
    return " ".join(str(error).split())


def _problem_text(problem: Problem) -> str:
    if problem.severity == "warning":
        return f"{problem.path}: warning: {problem.message}" if problem.path else (
            f"warning: {problem.message}"
        )
    return str(problem)


def _check_on_error(on_error: Any) -> OnError:
    if on_error not in _ON_ERROR:
        raise InvalidValueError(
            f"expected one of {', '.join(map(repr, _ON_ERROR))}, got {on_error!r}",
            path="on_error",
        )
    return on_error  # type: ignore[no-any-return]


# --- batch kinds ------------------------------------------------------------------------------


def _kind(batch: Any) -> Literal["mapping", "arrow", "pandas"]:
    """Tell a batch's kind without importing pyarrow or pandas.

    Raises:
        InvalidTypeError: it is none of the kinds.
    """
    if isinstance(batch, Mapping):
        return "mapping"
    module = type(batch).__module__.split(".")[0]
    name = type(batch).__name__
    if module == "pyarrow" and name in ("RecordBatch", "Table"):
        return "arrow"
    if module == "pandas" and name == "DataFrame":
        return "pandas"
    raise InvalidTypeError.mismatch(
        "batch",
        "a dict of lists, a pyarrow RecordBatch or Table, or a pandas DataFrame",
        describe_type(batch),
    )


def read_column(batch: Any, column: str = "messages") -> list[Any]:
    """The conversations of ``column``, one per row, as every batch function reads them.

    A text cell stays text (JSON to parse); any other cell is the JSON value it holds, read
    per the module's rules (Arrow's JSON extension type parsed, a struct's null fields left
    out, a ``messages`` column of `arrow_schema` as documents: in a table of that schema,
    whole ones, as `from_arrow_table` reads them, with their ``options`` and ``fields``); a
    null cell is ``None``.
    ``semantic-chat convert --engine dask`` reads a Parquet shard's column with it, so that
    the command and `convert_batch` read the same table alike.

    Raises:
        InvalidValueError: the batch has no such column.
        InvalidTypeError: ``batch`` is none of the kinds of batch.
    """
    return list(_read_column(batch, column))


def _read_column(batch: Any, column: str) -> Sequence[Any]:
    """The cells of ``column`` as Python values, per the module's rules for each kind.

    Raises:
        InvalidValueError: the batch has no such column.
    """
    kind = _kind(batch)
    names = list(batch.keys()) if kind == "mapping" else list(
        batch.schema.names if kind == "arrow" else batch.columns
    )
    if column not in names:
        raise InvalidValueError(
            f"no column {column!r} (the columns: {', '.join(map(str, names)) or 'none'})",
            path="column",
        )
    if kind == "mapping":
        return list(batch[column])
    if kind == "pandas":
        return [None if _is_missing(cell) else cell for cell in batch[column].tolist()]
    values = batch.column(column)
    pa = _pyarrow()
    if pa.types.is_string(values.type) or pa.types.is_large_string(values.type):
        return list(values.to_pylist())
    if _holds_documents(values.type):
        if column == "messages" and "version" in names:  # rows of arrow_schema(): whole ones
            return from_arrow_table(batch)  # with their options and unknown keys
        return [
            None if cell is None else {
                "version": 1, "messages": [_message_of(message) for message in cell]
            }
            for cell in values.to_pylist()
        ]
    kind_of = values.type
    return [_from_arrow(cell, kind_of) for cell in values.to_pylist()]


def _holds_documents(kind: Any) -> bool:
    """Whether an Arrow type is `arrow_schema`'s ``messages``: structs of a role and JSON items.

    The structure is what counts, not the exact type, so that a table written before
    ``items`` became nullable is read the same.
    """
    value = getattr(kind, "value_type", None)
    if value is None or getattr(value, "num_fields", 0) == 0:
        return False
    index = value.get_field_index("items")
    return value.get_field_index("role") >= 0 and index >= 0 and (
        str(value.field(index).type) in ("string", "large_string")
    )


def _is_json_type(kind: Any) -> bool:
    """Whether an Arrow type is the JSON extension type (``arrow.json``), whose values are text."""
    return getattr(kind, "extension_name", None) == "arrow.json"


class _Column:
    """Values for a new or replaced column, and what they are (for the Arrow type)."""

    def __init__(self, values: list[Any], what: Literal["json", "objects", "problems"]) -> None:
        self.values = values
        self.what = what


def _with_columns(batch: Any, added: dict[str, _Column]) -> Any:
    """A batch of the same kind with ``added`` columns replaced or appended, the rest as given."""
    kind = _kind(batch)
    if kind == "mapping":
        out = {name: batch[name] for name in batch}
        out.update({name: column.values for name, column in added.items()})
        return out
    if kind == "pandas":
        pandas = importlib.import_module("pandas")  # the batch is a DataFrame: it is there
        frame = batch.copy(deep=False)
        for name, column in added.items():  # object columns, even empty (a Dask meta)
            frame[name] = pandas.Series(column.values, index=frame.index, dtype=object)
        return frame
    pa = _pyarrow()
    names = list(batch.schema.names)
    arrays = [batch.column(index) for index in range(len(names))]
    for name, column in added.items():
        kind_of = pa.list_(pa.string()) if column.what == "problems" else pa.string()
        array = pa.array(column.values, type=kind_of)
        if name in names:
            arrays[names.index(name)] = array
        else:
            names.append(name)
            arrays.append(array)
    return type(batch).from_arrays(arrays, names=names)


# --- the Arrow schema -------------------------------------------------------------------------


def _arrow_row(document: Any, number: int) -> dict[str, Any]:
    """One document as a row of `arrow_schema`; what the schema has no column for in ``fields``.

    Raises:
        SerializationError: it is not a ``semantic-chat`` document, located at ``row N``.
    """
    where = f"row {number}"
    if isinstance(document, (str, bytes)):
        try:
            document = jsoncodec.loads(document)
        except SemanticChatError as error:
            raise error.at(where) from None
    if not isinstance(document, dict) or not isinstance(document.get("messages"), list):
        raise SerializationError(
            f"expected a semantic-chat document (version and a list of messages), got "
            f"{describe_type(document)}",
            path=where,
        )
    version = document.get("version", 1)
    if type(version) is not int:
        raise SerializationError(
            f"expected an int version, got {describe_type(version)}", path=f"{where}.version"
        )
    options = document.get("options")
    rest = {key: value for key, value in document.items() if key not in _DOCUMENT_KEYS}
    messages = [
        _arrow_message(message, f"{where}.messages[{index}]")
        for index, message in enumerate(document["messages"])
    ]
    return {
        "version": version,
        "options": None if options is None else jsoncodec.dumps(options),
        "messages": messages,
        "fields": jsoncodec.dumps(rest) if rest else None,
    }


def _arrow_message(message: Any, where: str) -> dict[str, Any]:
    """One message as its `arrow_schema` struct; ``items`` null when it has none.

    Raises:
        SerializationError: it is not an object with a string role (and a string name).
    """
    if not isinstance(message, dict) or not isinstance(message.get("role"), str):
        raise SerializationError("expected a message with a role (a string)", path=where)
    name = message.get("name")
    if name is not None and not isinstance(name, str):
        raise SerializationError(
            f"expected a str name, got {describe_type(name)}", path=f"{where}.name"
        )
    rest = {key: value for key, value in message.items() if key not in _MESSAGE_COLUMNS}
    return {
        "role": message["role"],
        "name": name,
        "items": jsoncodec.dumps(message["items"]) if "items" in message else None,
        "fields": jsoncodec.dumps(rest) if rest else None,
    }


def _message_of(row: dict[str, Any]) -> dict[str, Any]:
    """A message of our JSON from its `arrow_schema` struct, keys in the order we write them."""
    message: dict[str, Any] = {"role": row["role"]}
    if row.get("items") is not None:
        message["items"] = jsoncodec.loads(row["items"])
    if row.get("name") is not None:
        message["name"] = row["name"]
    if row.get("fields") is not None:
        message.update(jsoncodec.loads(row["fields"]))
    return message


def _pyarrow() -> Any:
    """Import pyarrow, or say which extra brings it.

    Raises:
        ImportError: it is not installed.
    """
    try:
        return importlib.import_module("pyarrow")
    except ImportError:
        raise ImportError(
            "this needs pyarrow: pip install 'semantic_chat[parquet]' (or [datasets], [dask])"
        ) from None
