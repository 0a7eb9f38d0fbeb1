"""Conversations at scale: the defects found in Arrow, Parquet, datasets and Dask, fixed.

- the Dask engine reads a Parquet shard written by Hugging Face ``datasets`` (values of
  Arrow's JSON extension type) as `convert_batch` reads the same table;
- a message without items goes to Arrow and Parquet and back;
- errors name the dataset's row when the batch says where it is, else ``batch row N``;
- a document's unknown keys are carried by `arrow_schema`;
- a Dask ``map_partitions`` infers nothing: ``convert_batch`` of the empty meta is the meta.
"""

from __future__ import annotations

import gc
import json
import sys
import warnings
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import histories, json_values

from semantic_chat import ChatHistory
from semantic_chat.batch import (
    arrow_schema,
    convert_batch,
    from_arrow_table,
    read_column,
    to_arrow_table,
    to_prompt_batch,
)
from semantic_chat.cli import main
from semantic_chat.cli.dask_engine import convert_shard
from semantic_chat.cli.parquet import parquet_output
from semantic_chat.cli.pipeline import Job
from semantic_chat.errors import InvalidValueError, SerializationError
from semantic_chat.formats import ConversionWarning
from semantic_chat.serialization import from_json, to_dict, to_json

datasets = pytest.importorskip("datasets")

LOOK = [{"role": "user", "content": [{"type": "text", "text": "look"}]},
        {"role": "assistant", "content": "ok"}]
LOOK_GEMINI = (
    '{"contents":[{"role":"user","parts":[{"text":"look"}]},'
    '{"role":"model","parts":[{"text":"ok"}]}]}'
)
TOOLS = [
    {"role": "user", "content": "Hi"},
    {"role": "assistant", "content": None, "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
    {"role": "tool", "tool_call_id": "c1", "content": [{"type": "text", "text": "ok"}]},
]
TOOLS_GEMINI = (
    '{"contents":[{"role":"user","parts":[{"text":"Hi"}]},'
    '{"role":"model","parts":[{"function_call":{"id":"c1","name":"f","args":{}}}]},'
    '{"role":"user","parts":[{"function_response":{"id":"c1","name":"f",'
    '"response":{"result":"ok"}}}]}]}'
)
BAD_CONTENT = "messages[0].content: expected str or list, got int"


def _datasets_shard(tmp_path: Path, messages: list[dict[str, Any]]) -> Path:
    """A Parquet shard as ``datasets`` writes it from a JSON file of one conversation."""
    datasets.disable_progress_bars()
    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps({"messages": messages}) + "\n")
    dataset = datasets.load_dataset(
        "json", data_files=str(rows), split="train", cache_dir=str(tmp_path / "cache")
    )
    shard = tmp_path / "in" / "shard.parquet"
    shard.parent.mkdir()
    dataset.to_parquet(str(shard))
    return shard


# --- 1. the Dask engine reads datasets' JSON extension type -----------------------------------


@pytest.mark.parametrize(
    ("messages", "stored", "expected"),
    [
        (LOOK, "List({'role': Value('string'), 'content': Json(decode=True)})", LOOK_GEMINI),
        (TOOLS, "List(Json(decode=True))", TOOLS_GEMINI),
    ],
    ids=["json-content", "json-messages"],
)
def test_dask_engine_reads_a_datasets_shard_as_convert_batch_does(
    tmp_path: Path, messages: list[dict[str, Any]], stored: str, expected: str
):
    shard = _datasets_shard(tmp_path, messages)
    table = pq.read_table(shard)
    assert str(datasets.Features.from_arrow_schema(table.schema)["messages"]) == stored
    assert convert_batch(table, target="gemini")["messages"].to_pylist() == [expected]
    target = tmp_path / "shard.jsonl"
    done = convert_shard(Job(None, "gemini"), str(shard), str(target), False)
    assert (done.converted, done.error, done.messages) == (1, None, ())
    assert target.read_text() == expected + "\n"


def test_read_column_parses_json_values_and_leaves_text_as_it_is():
    json_type = pa.struct([pa.field("role", pa.string()), pa.field("content", pa.string())])
    table = pa.table({"messages": pa.array([[{"role": "user", "content": None}]],
                                           type=pa.list_(json_type)),
                      "text": ['[{"role":"user","content":"Hi"}]']})
    assert read_column(table) == [[{"role": "user"}]]
    assert read_column(table, "text") == ['[{"role":"user","content":"Hi"}]']
    with pytest.raises(InvalidValueError) as raised:
        read_column(table, "chat")
    assert str(raised.value) == "column: no column 'chat' (the columns: messages, text)"


# --- 2. a message without items -----------------------------------------------------------------


def test_a_message_without_items_goes_to_arrow_and_back():
    history = ChatHistory()
    history.add_user_message("Hi")
    history.add_assistant_message(items=[])
    text = to_json(history)
    assert text == ('{"version":1,"messages":[{"role":"user","items":[{"type":"text",'
                    '"text":"Hi"}]},{"role":"assistant"}]}')
    table = to_arrow_table([text])
    assert table.schema == arrow_schema()
    assert table.column("messages").to_pylist()[0][1] == {
        "role": "assistant", "name": None, "items": None, "fields": None
    }
    back = from_arrow_table(table)
    assert back == [json.loads(text)]
    assert to_json(from_json(json.dumps(back[0]))) == text


def test_an_explicit_empty_items_list_stays_a_list():
    document = {"version": 1, "messages": [{"role": "assistant", "items": []}]}
    table = to_arrow_table([document])
    assert table.column("messages").to_pylist()[0][0]["items"] == "[]"
    assert from_arrow_table(table) == [document]


def test_to_parquet_writes_an_openai_null_content(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    source = tmp_path / "oa_null.jsonl"
    source.write_text('[{"role":"user","content":"Hi"}]\n'
                      '[{"role":"user","content":"Hi"},{"role":"assistant","content":null}]\n')
    target = tmp_path / "oa.parquet"
    assert main(["convert", str(source), "--jsonl", "--to", "parquet", "-o", str(target)]) == 0
    assert capsys.readouterr().err == "semantic-chat: converted 2 conversations to parquet\n"
    hi = {"role": "user", "items": [{"type": "text", "text": "Hi"}]}
    assert from_arrow_table(pq.read_table(target)) == [
        {"version": 1, "messages": [hi]},
        {"version": 1, "messages": [hi, {"role": "assistant"}]},
    ]


def test_to_parquet_skips_a_bad_line_by_its_line_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    source = tmp_path / "bad.jsonl"
    source.write_text('[{"role":"user","content":"Hi"}]\n[{"role":"user","content":5}]\n'
                      '[{"role":"user","content":"Bye"}]\n')
    target = tmp_path / "out.parquet"
    status = main(["convert", str(source), "--jsonl", "--to", "parquet", "--skip-invalid",
                   "-o", str(target)])
    assert status == 0
    assert capsys.readouterr().err == (
        f"semantic-chat: line 2: skipped: {BAD_CONTENT}\n"
        "semantic-chat: converted 2 conversations to parquet; skipped 1 invalid line\n"
    )
    assert [doc["messages"][0]["items"][0]["text"]
            for doc in from_arrow_table(pq.read_table(target))] == ["Hi", "Bye"]


def test_a_refused_last_row_group_closes_the_writer_and_leaves_no_file(tmp_path: Path):
    target = tmp_path / "out.parquet"
    unraisable: list[Any] = []
    hook, sys.unraisablehook = sys.unraisablehook, unraisable.append
    try:
        with pytest.raises(SerializationError) as raised, parquet_output(target) as rows:
            rows.write(b'{"version":1,"messages":[{"items":[]}]}\n')
        gc.collect()
    finally:
        sys.unraisablehook = hook
    assert str(raised.value) == "row 0.messages[0]: expected a message with a role (a string)"
    assert unraisable == []
    assert list(tmp_path.iterdir()) == []


# --- 3. row numbers -------------------------------------------------------------------------------


def _rows(count: int, bad: int) -> list[str]:
    rows = [json.dumps([{"role": "user", "content": f"hi {n}"}]) for n in range(count)]
    rows[bad] = json.dumps([{"role": "user", "content": 5}])
    return rows


def test_without_indices_an_error_names_its_batch_row():
    with pytest.raises(InvalidValueError) as raised:
        convert_batch({"text": _rows(5, 3)}, "text", target="anthropic")
    assert str(raised.value) == f"batch row 3: {BAD_CONTENT}"


def test_offset_and_indices_name_the_dataset_row():
    batch = {"text": _rows(5, 3)}
    with pytest.raises(InvalidValueError) as raised:
        convert_batch(batch, "text", target="anthropic", offset=1000)
    assert str(raised.value) == f"row 1003: {BAD_CONTENT}"
    with pytest.raises(InvalidValueError) as raised:
        to_prompt_batch({"messages": [None]}, indices=[7], source="openai-chat")
    assert str(raised.value) == "row 7: no conversation (the cell is null)"
    named = {"messages": [[{"role": "user", "content": "Hi", "name": "ada"}]]}
    with pytest.warns(ConversionWarning, match=r"^row 42: messages\[0\]\.name: dropped: "):
        convert_batch(named, target="anthropic", indices=[42])


def test_datasets_map_with_indices_names_the_dataset_row():
    datasets.disable_progress_bars()
    dataset = datasets.Dataset.from_dict({"text": _rows(2000, 1003)})

    def convert(batch: Any, indices: list[int]) -> Any:
        return convert_batch(batch, "text", target="anthropic", indices=indices)

    with pytest.raises(InvalidValueError) as raised:
        dataset.map(convert, batched=True, with_indices=True)
    assert str(raised.value) == f"row 1003: {BAD_CONTENT}"


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"indices": [0]}, "indices: expected one index per row (2), got 1"),
        ({"indices": [0, 1], "offset": 3}, "offset: give indices or offset, not both"),
        ({"offset": -1}, "offset: expected an int of 0 or more, got -1"),
    ],
)
def test_bad_indices_or_offset_are_refused(given: dict[str, Any], message: str):
    with pytest.raises(InvalidValueError) as raised:
        convert_batch({"messages": _rows(2, 0)}, target="anthropic", **given)
    assert str(raised.value) == message


# --- 4. a document's unknown keys -----------------------------------------------------------------


def test_a_documents_unknown_keys_are_carried():
    text = ('{"version":1,"messages":[{"role":"user","items":[{"type":"text","text":"Hi"}]}],'
            '"title":"kept"}')
    canon = to_json(from_json(text))
    assert canon == text
    table = to_arrow_table([canon])
    assert table.column("fields").to_pylist() == ['{"title":"kept"}']
    (back,) = from_arrow_table(table)
    assert back == json.loads(text)
    assert to_json(from_json(json.dumps(back))) == text


def test_an_unknown_message_key_named_fields_is_kept():
    document = {"version": 1, "fields": [1],
                "messages": [{"role": "user", "items": [], "fields": {"a": 1}, "x": 2}]}
    assert from_arrow_table(to_arrow_table([document])) == [document]


def test_a_table_without_the_fields_column_is_read():
    table = to_arrow_table([{"version": 1, "messages": []}]).drop_columns(["fields"])
    assert from_arrow_table(table) == [{"version": 1, "messages": []}]


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ({"messages": [{"items": []}]},
         "row 0.messages[0]: expected a message with a role (a string)"),
        ({"messages": [{"role": "user", "name": 5}]},
         "row 0.messages[0].name: expected a str name, got int"),
        ({"version": "1", "messages": []}, "row 0.version: expected an int version, got str"),
        ({"messages": {}}, "row 0: expected a semantic-chat document (version and a list of "
                           "messages), got dict"),
    ],
)
def test_what_is_not_our_json_is_refused_at_its_place(document: dict[str, Any], message: str):
    with pytest.raises(SerializationError) as raised:
        to_arrow_table([document])
    assert str(raised.value) == message


_KEYS = st.text(min_size=1, max_size=8).filter(
    lambda key: key not in ("version", "options", "messages")
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(histories(), st.dictionaries(_KEYS, json_values(), max_size=3),
       st.dictionaries(_KEYS.filter(lambda key: key not in ("role", "name", "items")),
                       json_values(), max_size=2))
def test_any_document_round_trips_through_arrow(
    history: ChatHistory, unknown: dict[str, Any], message_unknown: dict[str, Any]
):
    document = to_dict(history)
    document.update(unknown)
    for message in document["messages"][:1]:
        message.update(message_unknown)
    back = from_arrow_table(to_arrow_table([document, json.dumps(document)]))
    assert back == [document, document]
    assert to_json(from_json(json.dumps(back[0]))) == to_json(from_json(json.dumps(document)))


# --- 5. Dask: convert_batch of the empty meta is the meta ----------------------------------------


@pytest.mark.parametrize("on_error", ["raise", "record"])
def test_dask_map_partitions_with_the_meta_of_convert_batch(tmp_path: Path, on_error: str):
    dask = pytest.importorskip("dask")
    pytest.importorskip("dask.dataframe")

    source = tmp_path / "float.jsonl"
    source.write_text(json.dumps({"messages": {
        "model": "m", "temperature": 0.3, "top_p": 0.7,
        "messages": [{"role": "user", "content": "Hi"}]}}) + "\n")
    with dask.config.set({"dataframe.convert-string": False, "scheduler": "synchronous"}):
        frame = dask.dataframe.read_json(str(source), lines=True, blocksize=None,
                                         precise_float=True)
        given = {"target": "anthropic", "max_tokens": 100, "on_error": on_error}
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            out = frame.map_partitions(
                convert_batch, **given, meta=convert_batch(frame._meta, **given)
            ).compute()
    expected = {"messages": '{"model":"m","max_tokens":100,"messages":[{"role":"user",'
                            '"content":"Hi"}],"temperature":0.3,"top_p":0.7}'}
    if on_error == "record":
        expected["problems"] = []
    assert out.to_dict("records") == [expected]


def test_a_dask_shard_stopped_by_a_bad_record_closes_its_parquet_writer(tmp_path: Path):
    source = tmp_path / "bad.jsonl"
    source.write_text('[{"role":"user","content":"Hi"}]\n[{"role":"user","content":5}]\n')
    target = tmp_path / "out" / "bad.parquet"
    target.parent.mkdir()
    unraisable: list[Any] = []
    hook, sys.unraisablehook = sys.unraisablehook, unraisable.append
    try:
        done = convert_shard(Job(None, "semantic-chat"), str(source), str(target), False)
        gc.collect()
    finally:
        sys.unraisablehook = hook
    assert (done.converted, done.error) == (1, f"line 2: {BAD_CONTENT}")
    assert unraisable == []
    assert list(target.parent.iterdir()) == []


@pytest.mark.parametrize("on_error", ["null", "record"])
def test_convert_batch_of_an_empty_frame_gives_object_columns(on_error: str):
    # Dask's meta: a float64 column there made to_parquet refuse every converted partition.
    frame = pd.DataFrame({"messages": pd.Series([], dtype=object)})
    out = convert_batch(frame, target="anthropic", on_error=on_error)
    expected = ["messages", "problems"] if on_error == "record" else ["messages"]
    assert {name: str(kind) for name, kind in out.dtypes.items()} == dict.fromkeys(
        expected, "object")
