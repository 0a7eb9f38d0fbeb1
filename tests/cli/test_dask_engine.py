"""``semantic-chat convert --engine dask``: shards on a Dask cluster, a dead worker, a rerun.

The conversions are checked against the command line's own: each output shard equals what
``semantic-chat convert SHARD`` writes for the same records. The tests with a dying worker
and a rerun use a cluster of two worker processes started here, and the test plugin
``dask_marker_format``, whose format ``marked-chat`` records every conversion and which
process made it.
"""

import json
import os
import signal
import subprocess
import time
from collections import Counter
from pathlib import Path

import distributed
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from cli_helpers import BAD_TOOL_MESSAGE, COMMAND, chat_conversation, run, write_jsonl

from semantic_chat import cli

# the variable dask_marker_format reads; that module is not imported here, since importing it
# registers its format in this process, where tests that list the formats would meet it
MARKER = "SEMANTIC_CHAT_TEST_MARKER"

TARGET = "openai-responses"
HERE = str(Path(__file__).parent)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """Two single-threaded worker processes that record conversions in the marker file."""
    marker = tmp_path_factory.mktemp("marker") / "conversions.tsv"
    saved = os.environ.get(MARKER)
    os.environ[MARKER] = str(marker)  # the workers are spawned with this environment
    try:
        with (
            distributed.LocalCluster(
                n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                silence_logs=50,
            ) as local,
            distributed.Client(local) as client,
        ):
            yield client, marker
    finally:
        if saved is None:
            del os.environ[MARKER]
        else:
            os.environ[MARKER] = saved


@pytest.fixture
def client(cluster):
    """The cluster's client, with both workers up and an empty marker file."""
    connected, marker = cluster
    connected.wait_for_workers(2, timeout=60)
    marker.write_text("")
    return connected, marker


def _plugin_env(marker):
    path = os.pathsep.join(filter(None, [HERE, os.environ.get("PYTHONPATH")]))
    return {"PYTHONPATH": path, MARKER: str(marker)}


def _shards(directory, count, size):
    """``count`` JSONL shards of ``size`` conversations, numbered so that each is unique."""
    directory.mkdir()
    return [
        write_jsonl(directory / f"s-{shard:02}.jsonl",
                    [chat_conversation(shard * 100 + i) for i in range(size)])
        for shard in range(count)
    ]


def _cli_output(source, tmp_path, *extra):
    """What the command line (in this process) writes for one shard."""
    target = tmp_path / "expected" / (source.stem + ".jsonl")
    target.parent.mkdir(exist_ok=True)
    assert cli.main(["convert", str(source), "--jsonl", "--to", TARGET, "-q", "-o",
                     str(target), *extra]) == 0
    return target.read_bytes()


def _converted(marker):
    """How often each conversation was converted, and by which processes."""
    complete = marker.read_text().split("\n")[:-1]  # not a line being written
    lines = [line.split("\t") for line in complete]
    return Counter(text for text, _ in lines), {int(pid) for _, pid in lines}


def test_two_local_worker_processes_convert_eight_shards_like_the_cli(tmp_path):
    shards = _shards(tmp_path / "in", 6, 5)
    write_jsonl(shards[3], [chat_conversation(300 + i) for i in range(5)],
                raw={2: json.dumps(BAD_TOOL_MESSAGE)})
    as_strings = [json.dumps(chat_conversation(600 + i)) for i in range(4)]
    pq.write_table(pa.table({"messages": as_strings, "id": [1, 2, 3, 4]}),
                   tmp_path / "in" / "s-06.parquet")
    as_structs = [chat_conversation(700 + i) for i in range(3)]
    pq.write_table(pa.table({"messages": as_structs}), tmp_path / "in" / "s-07.parquet")
    out = tmp_path / "out"
    done = run("convert", str(tmp_path / "in"), "--engine", "dask", "-j", "2", "--to", TARGET,
               "-o", str(out), "--skip-invalid")
    assert (done.status, done.stdout) == (0, "")
    assert sorted(path.name for path in out.iterdir()) == [f"s-{n:02}.jsonl" for n in range(8)]
    for shard in shards:
        assert (out / shard.name).read_bytes() == _cli_output(shard, tmp_path, "--skip-invalid")
    for name, conversations in (("s-06", as_strings), ("s-07", as_structs)):
        same = write_jsonl(tmp_path / f"{name}.jsonl",
                           [json.loads(c) if isinstance(c, str) else c for c in conversations])
        assert (out / f"{name}.jsonl").read_bytes() == _cli_output(same, tmp_path)
    errors = done.errors
    assert errors[-1] == ("semantic-chat: converted 37 conversations in 8 shards to "
                          f"{TARGET}; skipped 1 invalid record")
    assert ("semantic-chat: s-03.jsonl: line 2: skipped: messages[1]: tool message without "
            "tool_call_id") in errors
    progress = [line.split(": ", 1)[1] for line in errors if " shards: " in line]
    assert sorted(line.split(" ", 1)[0] for line in progress) == [f"{n}/8" for n in range(1, 9)]
    assert sorted(line.split(" ", 2)[2] for line in progress) == [
        *(f"s-{n:02}.jsonl: 5 conversations" for n in range(6)),
        "s-06.parquet: 4 conversations",
        "s-07.parquet: 3 conversations",
    ]
    assert len(errors) == 10


def test_a_worker_killed_mid_shard_costs_a_retry_not_a_record(tmp_path, client):
    connected, marker = client
    shards = _shards(tmp_path / "in", 8, 12)
    out = tmp_path / "out"
    workers = connected.run(os.getpid)
    job = subprocess.Popen(
        [COMMAND, "convert", str(tmp_path / "in"), "--engine", "dask", "--scheduler",
         connected.scheduler.address, "--plugin", "dask_marker_format", "--from",
         "marked-chat", "--to", TARGET, "-o", str(out), "-q"],
        env={**os.environ, **_plugin_env(marker)},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 60
        while not (started := _converted(marker)[1]):
            assert time.monotonic() < deadline, "no conversion started"
            time.sleep(0.01)
        victim = min(started)
        assert victim in workers.values()
        os.kill(victim, signal.SIGKILL)
        stdout, stderr = job.communicate(timeout=120)
    finally:
        job.kill()
    assert (job.returncode, stdout, stderr) == (0, b"", b"")
    assert sorted(path.name for path in out.iterdir()) == [shard.name for shard in shards]
    for shard in shards:
        assert (out / shard.name).read_bytes() == _cli_output(shard, tmp_path)
    counts, pids = _converted(marker)
    assert set(counts) == {f"question {s * 100 + i}" for s in range(8) for i in range(12)}
    assert victim in pids
    by_victim = {line.split("\t")[0] for line in marker.read_text().splitlines()
                 if line.endswith(f"\t{victim}")}
    assert any(counts[text] > 1 for text in by_victim)  # its shard was converted again


def test_a_rerun_converts_only_the_shards_not_written(tmp_path, client):
    connected, marker = client
    shards = _shards(tmp_path / "in", 8, 4)
    out = tmp_path / "out"
    args = ["convert", "--engine", "dask", "--scheduler", connected.scheduler.address,
            "--plugin", "dask_marker_format", "--from", "marked-chat", "--to", TARGET,
            "-o", str(out)]
    env = _plugin_env(marker)
    first = run(*args, str(tmp_path / "in" / "s-0[0-4].jsonl"), env=env)  # "interrupted"
    assert first.status == 0
    written = {path.name: (path.stat().st_ino, path.stat().st_mtime_ns)
               for path in out.iterdir()}
    assert sorted(written) == [f"s-{n:02}.jsonl" for n in range(5)]
    partial = out / ".s-05.jsonl.k3x9q1.part"
    partial.write_bytes((out / "s-00.jsonl").read_bytes()[:100])
    marker.write_text("")

    again = run(*args, str(tmp_path / "in"), env=env)
    assert again.status == 0
    assert again.errors[-1] == (f"semantic-chat: converted 12 conversations in 3 shards to "
                                f"{TARGET}; 5 shards already converted")
    counts, _ = _converted(marker)
    assert counts == Counter({f"question {s * 100 + i}": 1 for s in (5, 6, 7) for i in range(4)})
    for name, (inode, mtime) in written.items():
        assert ((out / name).stat().st_ino, (out / name).stat().st_mtime_ns) == (inode, mtime)
    assert sorted(path.name for path in out.iterdir()) == [shard.name for shard in shards]
    for shard in shards:
        assert (out / shard.name).read_bytes() == _cli_output(shard, tmp_path)

    marker.write_text("")
    last = run(*args, str(tmp_path / "in"), env=env)
    assert (last.status, last.errors) == (
        0, [f"semantic-chat: nothing to convert: every shard is in {out} (8 shards)"]
    )
    assert marker.read_text() == ""


def test_a_bad_record_stops_the_job_and_its_shard_is_not_written(tmp_path, client, capsys):
    connected, _ = client
    (tmp_path / "in").mkdir()
    write_jsonl(tmp_path / "in" / "bad.jsonl", [chat_conversation(1)],
                raw={2: json.dumps(BAD_TOOL_MESSAGE), 3: "{not json"})
    out = tmp_path / "out"
    status = cli.main(["convert", str(tmp_path / "in" / "*.jsonl"), "--engine", "dask",
                       "--scheduler", connected.scheduler.address, "--to", TARGET, "-o", str(out)])
    assert (status, capsys.readouterr().err) == (1, (
        f"semantic-chat: {tmp_path / 'in' / 'bad.jsonl'}: line 2: messages[1]: tool message "
        "without tool_call_id (the shards already written are kept; a rerun converts the rest)\n"
    ))
    assert list(out.iterdir()) == []


def test_parquet_shards_both_ways_equal_the_cli(tmp_path, client, capsys):
    connected, _ = client
    shards = _shards(tmp_path / "in", 3, 4)
    on_dask = ["--engine", "dask", "--scheduler", connected.scheduler.address, "-q"]
    assert cli.main(["convert", str(tmp_path / "in"), "--to", "parquet", "-o",
                     str(tmp_path / "rows"), *on_dask]) == 0
    assert sorted(path.name for path in (tmp_path / "rows").iterdir()) == [
        "s-00.parquet", "s-01.parquet", "s-02.parquet"
    ]
    for shard in shards:
        alone = tmp_path / f"{shard.stem}-alone.parquet"
        assert cli.main(["convert", str(shard), "--to", "parquet", "-o", str(alone), "-q"]) == 0
        assert pq.read_table(tmp_path / "rows" / f"{shard.stem}.parquet").equals(
            pq.read_table(alone)
        )
    assert cli.main(["convert", str(tmp_path / "rows" / "*.parquet"), "--to", TARGET, "-o",
                     str(tmp_path / "back"), *on_dask]) == 0
    for shard in shards:
        assert (tmp_path / "back" / shard.name).read_bytes() == _cli_output(shard, tmp_path)
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ([], "--engine dask writes one file per shard: pass -o OUTPUT_DIR"),
        (["-o", "{tmp}/in/a.jsonl"], "--output {tmp}/in/a.jsonl: is a file; --engine dask "
         "writes a directory"),
        (["-o", "{tmp}/in"], "--output {tmp}/in: would replace the input shard "
         "{tmp}/in/a.jsonl; write to another directory"),
        (["-o", "{tmp}/out", "--indent"],
         "--indent does not apply to JSONL (one conversation a line)"),
    ],
)
def test_usage_errors(tmp_path, capsys, extra, message):
    (tmp_path / "in").mkdir()
    write_jsonl(tmp_path / "in" / "a.jsonl", [chat_conversation(1)])
    status = cli.main(["convert", str(tmp_path / "in"), "--engine", "dask", "--to", TARGET,
                       *[part.format(tmp=tmp_path) for part in extra]])
    assert (status, capsys.readouterr().err) == (
        2, f"semantic-chat: {message.format(tmp=tmp_path)}\n"
    )


def test_no_shards_and_a_scheduler_without_dask_are_usage_errors(tmp_path, capsys):
    status = cli.main(["convert", str(tmp_path / "*.parquet"), "--engine", "dask", "--to",
                       TARGET, "-o", str(tmp_path / "out")])
    assert (status, capsys.readouterr().err) == (2, (
        f"semantic-chat: {tmp_path}/*.parquet: no shards match (a directory of .jsonl, "
        ".ndjson, .parquet files, or a glob pattern)\n"
    ))
    status = cli.main(["convert", str(tmp_path / "in.json"), "--scheduler", "tcp://localhost:1",
                       "--to", TARGET])
    assert (status, capsys.readouterr().err) == (
        2, "semantic-chat: --scheduler needs --engine dask\n"
    )


def test_shards_the_shell_expanded_are_converted_each_once(tmp_path, client, capsys):
    # What was seen: an unquoted glob (convert shards/*.jsonl --engine dask) stopped with
    # "unrecognized arguments: shards/s-01.jsonl".
    connected, _ = client
    shards = _shards(tmp_path / "in", 3, 2)
    out = tmp_path / "out"
    status = cli.main(["convert", *map(str, shards), str(tmp_path / "in" / "s-00.jsonl"),
                       str(tmp_path / "in" / "s-0[01].jsonl"), "--engine", "dask",
                       "--scheduler", connected.scheduler.address, "--to", TARGET,
                       "-o", str(out)])
    assert status == 0
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"semantic-chat: converted 6 conversations in 3 shards to {TARGET}"
    )
    assert sorted(path.name for path in out.iterdir()) == [shard.name for shard in shards]
    for shard in shards:
        assert (out / shard.name).read_bytes() == _cli_output(shard, tmp_path)


def test_every_input_must_name_a_shard(tmp_path, capsys):
    shards = _shards(tmp_path / "in", 1, 1)
    status = cli.main(["convert", str(shards[0]), str(tmp_path / "gone.jsonl"), "--engine",
                       "dask", "--to", TARGET, "-o", str(tmp_path / "out")])
    assert (status, capsys.readouterr().err) == (2, (
        f"semantic-chat: {tmp_path}/gone.jsonl: no shards match (a directory of .jsonl, "
        ".ndjson, .parquet files, or a glob pattern)\n"
    ))
    assert not (tmp_path / "out").exists()


def test_dask_needs_an_input_and_the_local_engine_takes_one(tmp_path, capsys):
    status = cli.main(["convert", "--engine", "dask", "--to", TARGET, "-o", str(tmp_path)])
    assert (status, capsys.readouterr().err) == (2, (
        "semantic-chat: --engine dask needs INPUT: the shards (directories, files or glob "
        "patterns)\n"
    ))
    shards = _shards(tmp_path / "in", 3, 1)
    status = cli.main(["convert", *map(str, shards), "--to", TARGET])
    assert (status, capsys.readouterr().err) == (2, (
        f"semantic-chat: convert takes one INPUT, got 3 ({shards[0]}, {shards[1]} ...): a "
        "file of several conversations is one .jsonl file, and shards go to --engine dask\n"
    ))
