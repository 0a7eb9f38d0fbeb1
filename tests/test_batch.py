"""Batch functions over columns: dicts of lists, Arrow batches and tables, pandas frames.

The acceptance test maps a ``datasets.Dataset`` of 10,000 generated conversations with
``convert_batch`` in two processes and checks it holds, row for row, what
``semantic-chat convert --jsonl`` writes for the same lines.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import datasets
import pandas as pd
import pyarrow as pa
import pytest
from cli.cli_helpers import COMMAND

from semantic_chat import FormatError, InvalidTypeError, InvalidValueError, SerializationError
from semantic_chat.batch import (
    PROBLEMS,
    arrow_schema,
    convert_batch,
    from_arrow_table,
    read_column,
    to_arrow_table,
    to_prompt_batch,
    validate_batch,
)
from semantic_chat.formats import ConversionWarning
from semantic_chat.prompt import form_prompt_string

GOOD = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}]
BAD = [{"role": "user", "content": 5}]
GOOD_ANTHROPIC = '{"system":"Be brief.","messages":[{"role":"user","content":"Hi"}]}'
GOOD_OURS = (
    '{"version":1,"messages":[{"role":"system","items":[{"type":"text","text":"Be brief."}]},'
    '{"role":"user","items":[{"type":"text","text":"Hi"}]}]}'
)
BAD_PROBLEM = "messages[0].content: expected str or list, got int"
REFUSAL = [
    {"role": "user", "content": "Hi"},
    {"role": "assistant", "content": None, "refusal": "I cannot help with that."},
]


def _rows() -> dict[str, list[Any]]:
    return {"id": [7, 8, 9], "messages": [GOOD, json.dumps(GOOD), BAD]}


# --- a dict of lists --------------------------------------------------------------------------


def test_dict_record_converts_good_rows_and_records_the_bad_one():
    out = convert_batch(_rows(), target="anthropic", on_error="record")
    assert out == {
        "id": [7, 8, 9],
        "messages": [GOOD_ANTHROPIC, GOOD_ANTHROPIC, None],
        PROBLEMS: [[], [], [BAD_PROBLEM]],
    }


def test_dict_null_puts_none_and_adds_no_column():
    out = convert_batch(_rows(), target="anthropic", on_error="null")
    assert out == {"id": [7, 8, 9], "messages": [GOOD_ANTHROPIC, GOOD_ANTHROPIC, None]}


def test_dict_raise_is_located_at_the_row():
    with pytest.raises(FormatError) as caught:
        convert_batch(_rows(), target="anthropic")
    assert str(caught.value) == f"batch row 2: {BAD_PROBLEM}"


def test_as_json_false_gives_python_values():
    out = convert_batch({"messages": [GOOD]}, target="anthropic", as_json=False)
    assert out == {
        "messages": [{"system": "Be brief.", "messages": [{"role": "user", "content": "Hi"}]}]
    }


def test_the_input_batch_is_left_as_it_was():
    rows = _rows()
    convert_batch(rows, target="anthropic", on_error="record")
    assert rows == _rows()


def test_a_null_cell_and_text_that_is_not_json_are_row_errors():
    out = convert_batch({"messages": [None, "{nope"]}, target="anthropic", on_error="record")
    assert out["messages"] == [None, None]
    assert out[PROBLEMS][0] == ["no conversation (the cell is null)"]
    assert len(out[PROBLEMS][1]) == 1
    assert out[PROBLEMS][1][0].startswith("line 1, column 2: ") or "JSON" in out[PROBLEMS][1][0]


def test_a_loss_is_a_warning_problem_or_a_located_warning():
    out = convert_batch(
        {"messages": [REFUSAL]}, target="gemini", on_error="record", on_unsupported="warn"
    )
    assert out["messages"][0] is not None
    (problem,) = out[PROBLEMS][0]
    assert problem.startswith("warning: ")
    with pytest.warns(ConversionWarning) as caught:
        convert_batch({"messages": [GOOD, REFUSAL]}, target="gemini", on_unsupported="warn")
    assert [str(note.message) for note in caught] == [f"batch row 1: {problem[len('warning: '):]}"]


def test_a_row_without_losses_records_an_empty_list_and_warns_nothing():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = convert_batch({"messages": [GOOD]}, target="openai-chat", on_error="record")
    assert out == {"messages": [json.dumps(GOOD, separators=(",", ":"))], PROBLEMS: [[]]}


def test_source_given_and_request_bodies_and_batch_lines_as_the_cli_converts_them():
    body = {"model": "gpt-4o", "messages": GOOD}
    line = {"custom_id": "a", "method": "POST", "url": "/v1/chat/completions", "body": body}
    out = convert_batch(
        {"messages": [body, line]}, source="openai-chat", target="anthropic", as_json=False,
        max_tokens=100,
    )
    request = {
        "model": "gpt-4o",
        "max_tokens": 100,
        "system": "Be brief.",
        "messages": [{"role": "user", "content": "Hi"}],
    }
    assert out["messages"][0]["model"] == "gpt-4o"
    assert out["messages"][0]["system"] == "Be brief."
    assert out["messages"][1]["custom_id"] == "a"
    assert {key: out["messages"][1]["params"][key] for key in request} == request


def test_options_are_checked_before_any_row():
    with pytest.raises(FormatError, match="unknown format 'nope'"):
        convert_batch(_rows(), target="nope")
    with pytest.raises(InvalidValueError) as caught:
        convert_batch(_rows(), target="anthropic", on_error="skip")  # type: ignore[arg-type]
    assert str(caught.value) == "on_error: expected one of 'raise', 'null', 'record', got 'skip'"
    with pytest.raises(InvalidValueError, match=r"column: no column 'text' \(the columns: id, "):
        convert_batch(_rows(), "text", target="anthropic")
    with pytest.raises(InvalidTypeError, match="batch: expected a dict of lists"):
        convert_batch([GOOD], target="anthropic")


# --- Arrow ------------------------------------------------------------------------------------


def test_arrow_table_of_json_text_record():
    table = pa.table({"id": [7, 8], "messages": [json.dumps(GOOD), json.dumps(BAD)]})
    out = convert_batch(table, target="anthropic", on_error="record")
    assert isinstance(out, pa.Table)
    assert out.schema == pa.schema(
        [("id", pa.int64()), ("messages", pa.string()), (PROBLEMS, pa.list_(pa.string()))]
    )
    assert out.to_pydict() == {
        "id": [7, 8], "messages": [GOOD_ANTHROPIC, None], PROBLEMS: [[], [BAD_PROBLEM]]
    }


def test_arrow_record_batch_of_structs_null_fields_read_as_absent():
    # Arrow gives both rows the struct's fields: the first message's missing "name" is null.
    rows = [{"messages": GOOD}, {"messages": [{"role": "user", "content": "x", "name": "ada"}]}]
    batch = pa.RecordBatch.from_pylist(rows)
    out = convert_batch(batch, target="openai-chat", on_error="null")
    assert isinstance(out, pa.RecordBatch)
    assert out.column("messages").to_pylist() == [
        json.dumps(GOOD, separators=(",", ":")),
        '[{"role":"user","name":"ada","content":"x"}]',
    ]


def test_arrow_as_json_false_is_refused():
    with pytest.raises(InvalidValueError, match=r"^as_json: as_json=False applies to a dict"):
        convert_batch(pa.table({"messages": [json.dumps(GOOD)]}), target="anthropic",
                      as_json=False)


# --- pandas -----------------------------------------------------------------------------------


def test_pandas_frame_keeps_index_and_other_columns():
    frame = pd.DataFrame({"id": [7, 8], "messages": [GOOD, BAD]}, index=[10, 20])
    out = convert_batch(frame, target="anthropic", on_error="record")
    assert isinstance(out, pd.DataFrame)
    assert list(out.index) == [10, 20]
    assert out.to_dict("list") == {
        "id": [7, 8], "messages": [GOOD_ANTHROPIC, None], PROBLEMS: [[], [BAD_PROBLEM]]
    }
    assert frame["messages"].tolist() == [GOOD, BAD]


def test_pandas_cells_from_arrow_lists_are_read_as_lists():
    frame = pa.Table.from_pylist([{"messages": GOOD}]).to_pandas()
    out = convert_batch(frame, target="anthropic", as_json=False)
    assert out["messages"].tolist() == [
        {"system": "Be brief.", "messages": [{"role": "user", "content": "Hi"}]}
    ]


# --- validate_batch and to_prompt_batch -------------------------------------------------------


def test_validate_batch_lists_every_problem_per_row():
    out = validate_batch(
        {"messages": [GOOD, BAD, None, REFUSAL]}, target="gemini", on_unsupported="warn"
    )
    assert out[PROBLEMS][:3] == [[], [BAD_PROBLEM], ["no conversation (the cell is null)"]]
    (warning,) = out[PROBLEMS][3]
    assert warning.startswith("messages[1].items[0]: warning: ")


def test_validate_batch_on_arrow_adds_a_list_column():
    out = validate_batch(pa.table({"messages": [json.dumps(GOOD), json.dumps(BAD)]}))
    assert out.column(PROBLEMS).to_pylist() == [[], [BAD_PROBLEM]]


def test_to_prompt_batch_with_tools_column():
    tools = [{"type": "function", "function": {"name": "f", "parameters": {}}}]
    out = to_prompt_batch(
        {"messages": [GOOD, GOOD], "tools": [None, json.dumps(tools)]}, tools_column="tools"
    )
    assert out["prompt"][0] == "System: Be brief.\n\nUser: Hi\n\nAssistant:"
    assert out["prompt"][1] == form_prompt_string(GOOD, tools)
    assert '\n<tools>\n{"type":"function","function":{"name":"f","parameters":{}}}\n</tools>' in (
        out["prompt"][1]
    )
    assert out["messages"] == [GOOD, GOOD]


def test_to_prompt_batch_record_on_a_row_it_cannot_read():
    out = to_prompt_batch(
        {"messages": [GOOD, "not json"]}, output="text", on_error="record", source="openai-chat"
    )
    assert out["text"][0] == "System: Be brief.\n\nUser: Hi\n\nAssistant:"
    assert out["text"][1] is None
    assert len(out[PROBLEMS][1]) == 1


# --- the Arrow schema of our JSON -------------------------------------------------------------


def test_arrow_schema_round_trip_and_read_by_convert_batch():
    ours = json.loads(GOOD_OURS)
    named = {
        "version": 1,
        "options": {"model_id": "m"},
        "messages": [
            {"role": "user", "items": [{"type": "text", "text": "x"}], "name": "ada"},
            {"role": "assistant", "items": [{"type": "text", "text": "y"}],
             "finish_reason": "stop", "model_id": "m"},
        ],
    }
    table = to_arrow_table([GOOD_OURS, named])
    assert table.schema == arrow_schema()
    assert table.column("messages").to_pylist()[1] == [
        {"role": "user", "name": "ada", "items": '[{"type":"text","text":"x"}]', "fields": None},
        {"role": "assistant", "name": None, "items": '[{"type":"text","text":"y"}]',
         "fields": '{"finish_reason":"stop","model_id":"m"}'},
    ]
    assert table.column("options").to_pylist() == [None, '{"model_id":"m"}']
    assert from_arrow_table(table) == [ours, named]
    with pytest.warns(ConversionWarning, match="^batch row 1: messages.0..name: dropped: "):
        out = convert_batch(table.select(["messages"]), target="anthropic")
    assert out.column("messages").to_pylist()[0] == GOOD_ANTHROPIC


def test_convert_batch_reads_a_whole_arrow_schema_row_with_its_options_and_unknown_keys():
    # What was seen: convert_batch read only the messages column of such a table, so the
    # request's model, max_tokens and thinking, and a newer version's keys, were gone without
    # a word ({"messages": [...]} for Anthropic), where the command's Dask engine kept them.
    document = {
        "version": 1,
        "options": {"model": "claude-sonnet-4-5", "max_tokens": 1024,
                    "extra": {"thinking": {"type": "enabled", "budget_tokens": 512}}},
        "messages": [{"role": "user", "items": [{"type": "text", "text": "Hi"}]}],
        "future_top": {"a": 1},
    }
    table = to_arrow_table([document])
    ours = convert_batch(table, target="semantic-chat", on_error="record")
    assert json.loads(ours.column("messages")[0].as_py()) == document
    assert ours.column(PROBLEMS).to_pylist() == [[]]
    with pytest.warns(ConversionWarning) as caught:
        anthropic_out = convert_batch(table, target="anthropic")
    assert [str(note.message) for note in caught] == [
        "batch row 0: future_top: dropped: Anthropic Messages cannot carry the history key "
        "'future_top' (unknown to this version)"]
    assert json.loads(anthropic_out.column("messages")[0].as_py()) == {
        "model": "claude-sonnet-4-5", "max_tokens": 1024,
        "messages": [{"role": "user", "content": "Hi"}],
        "thinking": {"type": "enabled", "budget_tokens": 512},
    }
    assert read_column(table) == [document]


def test_to_arrow_table_refuses_what_is_not_our_json():
    with pytest.raises(SerializationError) as caught:
        to_arrow_table([GOOD_OURS, {"messages": [{"items": []}]}])
    assert str(caught.value) == "row 1.messages[0]: expected a message with a role (a string)"
    # a message without items, and a document's unknown key, are our JSON: both carried
    carried = {"version": 1, "messages": [{"role": "user"}], "model": "x"}
    assert from_arrow_table(to_arrow_table([carried])) == [carried]


# --- acceptance: datasets.map(num_proc=2) equals the command line, row for row ------------------

_WORDS = ("weather", "Paris", "naïve", "日本語", "tool", "café", "résumé", "🙂", "data", "plan")


def _text(r: random.Random) -> str:
    return " ".join(r.choice(_WORDS) for _ in range(r.randint(1, 12)))


def _conversation(r: random.Random, number: int) -> Any:
    """One Chat Completions conversation of a varied shape; every 500th is invalid."""
    if number % 500 == 499:
        return [{"role": "user", "content": number}]
    messages: list[dict[str, Any]] = [{"role": "system", "content": _text(r)}]
    for turn in range(r.randint(1, 4)):
        if r.random() < 0.3:
            messages.append({"role": "user", "content": [
                {"type": "text", "text": _text(r)},
                {"type": "image_url", "image_url": {"url": f"https://example.com/{number}.png"}},
            ]})
        else:
            messages.append({"role": "user", "content": _text(r), "name": f"user{turn}"})
        if r.random() < 0.4:
            call_id = f"call_{number}_{turn}"
            arguments = json.dumps({"city": _text(r), "n": r.randint(0, 99)})
            messages.append({"role": "assistant", "content": None, "tool_calls": [
                {"id": call_id, "type": "function",
                 "function": {"name": "get_weather", "arguments": arguments}}
            ]})
            messages.append({"role": "tool", "tool_call_id": call_id, "content": _text(r)})
        messages.append({"role": "assistant", "content": _text(r)})
    if number % 7 == 0:
        return {"model": "gpt-4o", "temperature": 0.5, "messages": messages}
    return messages


def test_datasets_map_in_two_processes_equals_the_cli_row_for_row(tmp_path: Path):
    r = random.Random(23)
    lines = [json.dumps(_conversation(r, number), ensure_ascii=False) for number in range(10_000)]
    source = tmp_path / "in.jsonl"
    source.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    target = tmp_path / "out.jsonl"
    done = subprocess.run(
        [COMMAND, "convert", str(source), "--to", "anthropic", "-o", str(target),
         "--skip-invalid", "--max-tokens", "1024", "-q"],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stderr
    # The command reports "semantic-chat: line N: skipped: ..." and
    # "semantic-chat: warning: line N: ..." on stderr, each located at its line.
    skipped, cli_warnings = [], {}
    for report in done.stderr.splitlines():
        prefix, _, rest = report.partition(": ")
        assert prefix == "semantic-chat", report
        if rest.startswith("warning: line "):
            place, _, note = rest[len("warning: line "):].partition(": ")
            cli_warnings.setdefault(int(place.replace(",", "")) - 1, []).append(
                f"warning: {note}"
            )
        else:
            place, _, note = rest.partition(": ")
            assert note.startswith("skipped: "), report
            skipped.append(int(place.split()[1].replace(",", "")) - 1)
    assert skipped == list(range(499, 10_000, 500))
    assert len(cli_warnings) > 1000  # user names Anthropic cannot carry
    cli = target.read_text(encoding="utf-8").splitlines()

    dataset = datasets.Dataset.from_dict({"id": list(range(10_000)), "messages": lines})
    mapped = dataset.map(
        convert_batch,
        batched=True,
        num_proc=2,
        fn_kwargs={"target": "anthropic", "on_error": "record", "max_tokens": 1024},
        cache_file_name=str(tmp_path / "mapped.arrow"),
    )
    assert list(mapped["id"]) == list(range(10_000))
    rows = list(mapped["messages"])
    assert [number for number, row in enumerate(rows) if row is None] == skipped
    assert [row for row in rows if row is not None] == cli
    problems = list(mapped[PROBLEMS])
    assert {
        number: found for number, found in enumerate(problems)
        if found and number not in skipped
    } == cli_warnings
    assert problems[499] == ["messages[0].content: expected str or list, got int"]


# --- Hugging Face datasets: a fine-tuning file loaded as it is -----------------------------------

FINE_TUNING = [
    {"messages": [
        {"role": "user", "content": "Hi"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c", "content": "x"},
    ]},
    {"messages": GOOD},
]
FINE_TUNING_OPENAI = [
    '[{"role":"user","content":"Hi"},{"role":"assistant","content":null,"tool_calls":'
    '[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]},'
    '{"role":"tool","tool_call_id":"c","content":"x"}]',
    '[{"role":"system","content":"Be brief."},{"role":"user","content":"Hi"}]',
]


def _fine_tuning_dataset(tmp_path: Path) -> Any:
    source = tmp_path / "train.jsonl"
    source.write_text("".join(json.dumps(line) + "\n" for line in FINE_TUNING))
    return datasets.load_dataset(
        "json", data_files=str(source), split="train", cache_dir=str(tmp_path / "cache")
    )


def test_datasets_arrow_format_reads_messages_stored_as_json(tmp_path: Path):
    dataset = _fine_tuning_dataset(tmp_path)
    mapped = dataset.with_format("arrow").map(
        convert_batch, batched=True, fn_kwargs={"target": "openai-chat"}
    )
    assert list(mapped.with_format(None)["messages"]) == FINE_TUNING_OPENAI


def test_datasets_python_format_into_a_new_column(tmp_path: Path):
    dataset = _fine_tuning_dataset(tmp_path)
    mapped = dataset.map(
        convert_batch, batched=True, fn_kwargs={"target": "openai-chat", "output": "openai"}
    )
    assert list(mapped["openai"]) == FINE_TUNING_OPENAI
    assert list(mapped["messages"]) == [line["messages"] for line in FINE_TUNING]


# --- the README's section runs as written ---------------------------------------------------------


def _readme_blocks() -> list[str]:
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Conversations at scale\n", 1)[1].split("\n## ", 1)[0]
    return [block.split("```", 1)[0] for block in section.split("```python\n")[1:]]


def test_readme_batch_functions_block():
    namespace: dict[str, Any] = {}
    exec(compile(_readme_blocks()[0], "README.md", "exec"), namespace)
    assert namespace["converted"] == {
        "id": [1, 2],
        "messages": ['{"messages":[{"role":"user","content":"Hi"}]}', None],
        PROBLEMS: [[], [BAD_PROBLEM]],
    }
    assert namespace["checked"] == [[], [BAD_PROBLEM]]
    assert namespace["prompts"] == ["System: Be brief.\n\nUser: Hi\n\nAssistant:"]


def _chats(directory: Path) -> None:
    (directory / "chats.jsonl").write_text(
        json.dumps({"messages": [{"role": "user", "content": "Hi"}]}) + "\n"
        + json.dumps({"messages": BAD}) + "\n"
    )


def test_readme_datasets_block(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    _chats(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", tmp_path / "cache")
    code = _readme_blocks()[1]
    exec(compile(code, "README.md", "exec"), {"datasets": datasets, "convert_batch": convert_batch})
    written = [json.loads(line) for line in (tmp_path / "anthropic.jsonl").read_text().splitlines()]
    assert written == [
        {"messages": '{"messages":[{"role":"user","content":"Hi"}]}', PROBLEMS: []},
        {"messages": None, PROBLEMS: [BAD_PROBLEM]},
    ]


def test_readme_ray_block_compiles():
    compile(_readme_blocks()[2], "README.md", "exec")  # Ray itself is not a test dependency


def test_readme_dask_block(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    import dask
    import dask.dataframe

    _chats(tmp_path)
    monkeypatch.chdir(tmp_path)
    before = dask.config.get("dataframe.convert-string", None)
    try:
        exec(compile(_readme_blocks()[3], "README.md", "exec"),
             {"dask": dask, "convert_batch": convert_batch})
    finally:
        dask.config.set({"dataframe.convert-string": before})
    assert pd.read_parquet(tmp_path / "anthropic").to_dict("list") == {
        "messages": ['{"messages":[{"role":"user","content":"Hi"}]}', None]
    }


# --- the core install: no optional library imported until a batch of its kind is given -----------


def test_importing_the_batch_module_imports_no_optional_library():
    code = (
        "import sys, semantic_chat.batch, semantic_chat.cli\n"
        "convert = semantic_chat.batch.convert_batch\n"
        "convert({'messages': ['[{\"role\": \"user\", \"content\": \"Hi\"}]']}, target='anthropic')\n"
        "print(sorted(m for m in ('pyarrow', 'pandas', 'datasets', 'dask') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout == "[]\n"


def test_arrow_schema_without_pyarrow_names_the_extra(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    with pytest.raises(ImportError) as caught:
        arrow_schema()
    assert str(caught.value) == (
        "this needs pyarrow: pip install 'semantic_chat[parquet]' (or [datasets], [dask])"
    )


def test_a_missing_pandas_cell_is_a_null_cell():
    # What was seen: "cannot tell the format of this float" (NaN, what read_json gives a row
    # without the column), and with a source "'float' object is not iterable".
    import io

    frame = pd.read_json(io.StringIO(
        '{"id": 1, "messages": [{"role": "user", "content": "Hi"}]}\n{"id": 2}\n'
        '{"id": 3, "messages": null}\n'
    ), lines=True)
    for source in (None, "openai-chat"):
        done = convert_batch(frame, source=source, target="anthropic", on_error="record")
        assert done["problems"].tolist() == [
            [], ["no conversation (the cell is null)"], ["no conversation (the cell is null)"]
        ]
    with pytest.raises(InvalidValueError) as raised:
        convert_batch(frame, target="anthropic")
    assert str(raised.value) == "batch row 1: no conversation (the cell is null)"


@pytest.mark.parametrize("name", ["openai-chat", "openai-responses", "anthropic", "gemini"])
@pytest.mark.parametrize("cell", [5, 2.5, None, True])
def test_a_scalar_is_no_conversation_of_any_format(name, cell):
    # What was seen: TypeError: 'int' object is not iterable, from every provider reader.
    from semantic_chat.formats import get

    with pytest.raises(FormatError) as raised:
        get(name).from_payload(cell)
    assert str(raised.value).endswith(f", got {type(cell).__name__}")
    with pytest.raises(FormatError) as raised:
        convert_batch({"messages": [cell if cell is not None else 0]}, source=name,
                      target="semantic-chat")
    assert str(raised.value).startswith("batch row 0: ")
