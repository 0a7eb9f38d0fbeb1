"""``semantic-chat convert --to parquet``: our JSON as rows of ``batch.arrow_schema``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from cli_helpers import run

from semantic_chat.batch import arrow_schema, from_arrow_table
from semantic_chat.cli import main
from semantic_chat.cli.parquet import ROW_GROUP

GOOD = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi", "name": "ada"}]


def test_jsonl_in_two_workers_is_the_semantic_chat_output_as_rows(tmp_path: Path):
    lines = [json.dumps([*GOOD, {"role": "assistant", "content": f"answer {n}"}])
             for n in range(ROW_GROUP + 10)]
    source = tmp_path / "in.jsonl"
    source.write_text("\n".join(lines) + "\n")
    target = tmp_path / "out.parquet"
    done = run("convert", str(source), "--to", "parquet", "-o", str(target), "-j", "2")
    assert done.status == 0, done.stderr
    assert done.stderr == f"semantic-chat: converted {ROW_GROUP + 10:,} conversations to parquet\n"
    as_json = run("convert", str(source), "--to", "semantic-chat", "-q")
    table = pq.read_table(target)
    assert table.schema == arrow_schema()
    assert pq.ParquetFile(target).num_row_groups == 2
    assert from_arrow_table(table) == [json.loads(line) for line in as_json.stdout.splitlines()]
    assert table.column("messages").to_pylist()[3][2] == {
        "role": "assistant", "name": None, "items": '[{"type":"text","text":"answer 3"}]',
        "fields": None,
    }


def test_a_document_is_one_row(tmp_path: Path):
    example = tmp_path / "example.json"
    assert run("example", "-o", str(example)).status == 0
    target = tmp_path / "example.parquet"
    done = run("convert", str(example), "--to", "parquet", "-o", str(target))
    assert done.status == 0, done.stderr
    assert from_arrow_table(pq.read_table(target)) == [json.loads(example.read_text())]


def test_a_bad_line_leaves_no_file(tmp_path: Path):
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps(GOOD) + "\n" + '[{"role": "user", "content": 5}]\n')
    target = tmp_path / "out.parquet"
    done = run("convert", str(source), "--to", "parquet", "-o", str(target))
    assert done.status == 1
    assert done.stderr == (
        "semantic-chat: line 2: messages[0].content: expected str or list, got int\n"
    )
    assert sorted(path.name for path in tmp_path.iterdir()) == ["in.jsonl"]


def test_parquet_needs_an_output_file(tmp_path: Path):
    done = run("convert", "--to", "parquet", stdin=json.dumps(GOOD))
    assert done.status == 2
    assert done.stderr == "semantic-chat: --to parquet writes a file: pass -o FILE.parquet\n"


def test_parquet_without_pyarrow_says_which_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
):
    source = tmp_path / "chat.json"
    source.write_text(json.dumps(GOOD))
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)  # import fails as if missing
    status = main(["convert", str(source), "--to", "parquet", "-o", str(tmp_path / "x.parquet")])
    assert status == 1
    assert capsys.readouterr().err == (
        "semantic-chat: --to parquet needs pyarrow: pip install 'semantic_chat[parquet]'\n"
    )
    assert sorted(path.name for path in tmp_path.iterdir()) == ["chat.json"]
