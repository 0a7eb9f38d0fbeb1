"""Plugins in the command line: ``--plugin MODULE``, the ``semantic_chat.plugins`` entry points,
and the ``__transcript__`` hook that says how a plugin's items are shown."""

import json
import textwrap

import pytest
from cli_helpers import run

PLUGIN = textwrap.dedent('''
    import attrs
    from semantic_chat import ContentType, KernelContent, formats

    @attrs.define
    class VideoContent(KernelContent):
        content_type = ContentType("video")
        url: str
        seconds: float | None = None

        def __transcript__(self) -> str:
            return f"[video] {self.url}, {self.seconds} s"

    formats.register_encoder(
        "openai-chat", VideoContent,
        lambda item: {"type": "video_url", "video_url": {"url": item.url}},
    )
    formats.register_decoder(
        "openai-chat", "video_url", lambda part: VideoContent(part["video_url"]["url"])
    )
''')

PLAIN_PLUGIN = textwrap.dedent('''
    import attrs
    from semantic_chat import ContentType, KernelContent

    @attrs.define
    class StickerContent(KernelContent):
        content_type = ContentType("sticker")
        name: str
''')

VIDEO_HISTORY = {"version": 1, "messages": [{"role": "user", "items": [
    {"type": "text", "text": "watch"},
    {"type": "video", "url": "https://x.test/v.mp4", "seconds": 12.5},
]}]}

SHOWN_WITH_PLUGIN = (
    "── user\n"
    "   watch\n"
    "   [video] https://x.test/v.mp4, 12.5 s\n"
    "\n"
    "Contains 1 message; items: 1 text, 1 video.\n"
)


@pytest.fixture
def plugin_dir(tmp_path):
    (tmp_path / "acme_video.py").write_text(PLUGIN)
    (tmp_path / "acme_sticker.py").write_text(PLAIN_PLUGIN)
    (tmp_path / "broken_plugin.py").write_text('raise RuntimeError("no licence\\nkey")\n')
    (tmp_path / "video.json").write_text(json.dumps(VIDEO_HISTORY))
    return tmp_path


def _env(directory):
    return {"PYTHONPATH": str(directory)}


def _install(directory, entry_points, name="acme-video", version="1.0"):
    """Make ``directory`` hold an installed distribution declaring ``entry_points``."""
    info = directory / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
    )
    (info / "entry_points.txt").write_text(f"[semantic_chat.plugins]\n{entry_points}\n")


def test_without_the_plugin_the_item_is_unknown(plugin_dir):
    done = run("show", "video.json", cwd=plugin_dir, env=_env(plugin_dir))
    assert (done.status, done.stderr) == (0, "")
    assert done.stdout == (
        "── user\n"
        "   watch\n"
        "   [unknown item 'video'] 2 fields\n"
        "\n"
        "Contains 1 message; items: 1 text, 1 unknown.\n"
    )


def test_plugin_option_loads_the_module_before_reading(plugin_dir):
    done = run("show", "video.json", "--plugin", "acme_video", cwd=plugin_dir,
               env=_env(plugin_dir))
    assert (done.status, done.stdout, done.stderr) == (0, SHOWN_WITH_PLUGIN, "")


def test_plugin_codecs_serve_convert_both_ways(plugin_dir):
    done = run("convert", "video.json", "--to", "openai-chat", "--plugin", "acme_video",
               cwd=plugin_dir, env=_env(plugin_dir))
    assert (done.status, done.stderr) == (0, "")
    payload = [{"role": "user", "content": [
        {"type": "text", "text": "watch"},
        {"type": "video_url", "video_url": {"url": "https://x.test/v.mp4"}},
    ]}]
    assert json.loads(done.stdout) == payload
    back = run("convert", "--to", "semantic-chat", "--plugin=acme_video",
               stdin=done.stdout, env=_env(plugin_dir))
    assert (back.status, back.stderr) == (0, "")
    assert json.loads(back.stdout) == {"version": 1, "messages": [{"role": "user", "items": [
        {"type": "text", "text": "watch"},
        {"type": "video", "url": "https://x.test/v.mp4"},
    ]}]}


def test_plugin_option_is_repeatable(plugin_dir):
    (plugin_dir / "both.json").write_text(json.dumps({"version": 1, "messages": [
        {"role": "user", "items": [
            {"type": "video", "url": "v.mp4"}, {"type": "sticker", "name": "cat"},
        ]},
    ]}))
    done = run("show", "both.json", "--plugin", "acme_video", "--plugin", "acme_sticker",
               cwd=plugin_dir, env=_env(plugin_dir))
    assert (done.status, done.stderr) == (0, "")
    assert done.stdout == (
        "── user\n"
        "   [video] v.mp4, None s\n"
        "   [sticker] StickerContent(name='cat')\n"
        "\n"
        "Contains 1 message; items: 1 sticker, 1 video.\n"
    )


def test_entry_point_of_an_installed_distribution_is_loaded_by_every_command(plugin_dir):
    _install(plugin_dir, "video = acme_video")
    done = run("show", "video.json", cwd=plugin_dir, env=_env(plugin_dir))
    assert (done.status, done.stdout, done.stderr) == (0, SHOWN_WITH_PLUGIN, "")
    done = run("validate", "video.json", cwd=plugin_dir, env=_env(plugin_dir))
    assert (done.status, done.stdout, done.stderr) == (
        0, "video.json: no problems (semantic-chat, 1 message)\n", ""
    )


def test_entry_point_naming_a_function_calls_it(plugin_dir):
    (plugin_dir / "acme_setup.py").write_text(
        "def register():\n    import acme_video  # noqa: F401\n"
    )
    _install(plugin_dir, "video = acme_setup:register")
    done = run("show", "video.json", cwd=plugin_dir, env=_env(plugin_dir))
    assert (done.status, done.stdout, done.stderr) == (0, SHOWN_WITH_PLUGIN, "")


@pytest.mark.parametrize(("arguments", "entry_points", "message"), [
    (["--plugin", "no_such_plugin"], None,
     "semantic-chat: plugin no_such_plugin: cannot import it: No module named 'no_such_plugin'"),
    (["--plugin", "broken_plugin"], None,
     "semantic-chat: plugin broken_plugin: failed while loading: RuntimeError: no licence key"),
    ([], "video = acme_missing:setup",
     "semantic-chat: plugin video = acme_missing:setup (entry point of acme-video 1.0): "
     "cannot import it: No module named 'acme_missing'"),
])
def test_a_plugin_that_fails_is_one_line_naming_it(plugin_dir, arguments, entry_points, message):
    if entry_points is not None:
        _install(plugin_dir, entry_points)
    for command in (["show", "video.json"], ["formats"], ["example"]):
        done = run(*command, *arguments, cwd=plugin_dir, env=_env(plugin_dir))
        assert (done.status, done.stdout, done.errors) == (2, "", [message])


def test_debug_shows_the_plugin_traceback(plugin_dir):
    done = run("show", "video.json", "--plugin", "broken_plugin", "--debug", cwd=plugin_dir,
               env=_env(plugin_dir))
    assert done.status == 1
    assert "Traceback" in done.stderr
    assert done.stderr.rstrip().endswith("RuntimeError: no licence\nkey")


def test_a_plugin_can_add_a_format_that_to_accepts(plugin_dir):
    (plugin_dir / "acme_format.py").write_text(textwrap.dedent('''
        from semantic_chat import formats

        formats.register(formats.WireFormat(
            name="acme-lines",
            summary="one line of text per message",
            from_payload=formats.get("openai-chat").from_payload,
            to_payload=lambda history, **_: [message.text for message in history],
            score=lambda payload: 0,
        ))
    '''))
    done = run("example", "--to", "acme-lines", "--plugin", "acme_format", cwd=plugin_dir,
               env=_env(plugin_dir))
    assert (done.status, done.stderr) == (0, "")
    assert json.loads(done.stdout)[0] == "You are a helpful assistant that can read the weather."


def test_a_worker_process_loads_the_plugins_itself(tmp_path, monkeypatch):
    # A worker started by spawn or forkserver imports nothing of its parent: the job carries
    # the --plugin modules and the worker's initializer loads them.
    import signal
    import sys

    from semantic_chat.cli import pipeline

    (tmp_path / "worker_plugin_probe.py").write_text("LOADED = True\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(signal, "signal", lambda *_: None)  # leave this process's handlers
    monkeypatch.setattr(pipeline, "_worker_job", None)
    job = pipeline.Job(None, "openai-chat", plugins=("worker_plugin_probe",))
    pipeline._start_worker(job)
    assert sys.modules["worker_plugin_probe"].LOADED is True
    assert pipeline._worker_job is job
    del sys.modules["worker_plugin_probe"]


def test_convert_with_workers_uses_the_plugin_in_every_worker(plugin_dir):
    lines = "".join(
        json.dumps({"version": 1, "messages": [{"role": "user", "items": [
            {"type": "video", "url": f"https://x.test/{n}.mp4"}
        ]}]}) + "\n"
        for n in range(4)
    )
    done = run("convert", "-", "--jsonl", "--workers", "2", "--to", "openai-chat",
               "--plugin", "acme_video", stdin=lines, env=_env(plugin_dir))
    assert done.status == 0, done.stderr
    assert [json.loads(line) for line in done.stdout.splitlines()] == [
        [{"role": "user", "content": [
            {"type": "video_url", "video_url": {"url": f"https://x.test/{n}.mp4"}}
        ]}]
        for n in range(4)
    ]
