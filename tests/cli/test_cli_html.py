"""``semantic-chat show --html``: a page for any input, and a directory of pages for JSONL.

A page the command writes is exactly what `semantic_chat.html.render` gives for the history
it read (with the title the command chose), so these tests compare whole pages with it and
check the key parts the command itself decides: the title, the files written, the index.
"""

import json
import re
import textwrap

import pytest
from cli_helpers import BAD_TOOL_MESSAGE, chat_conversation, example_json, run, write_jsonl

from semantic_chat import ChatHistory, formats
from semantic_chat.cli import pages
from semantic_chat.example import example_history
from semantic_chat.html import render
from semantic_chat.serialization import from_json

MESSAGE_BLOCK = '<section class="message"'


def _page(history, **options):
    """The bytes the command writes for ``history``: the rendered page, ending in a newline."""
    page = render(history, **options)
    return page if page.endswith("\n") else page + "\n"


def _chat(index):
    return formats.get("openai-chat").from_payload(chat_conversation(index))


def _leftovers(directory):
    return sorted(path.name for path in directory.iterdir() if path.name.endswith(".part"))


# --- one document, one page ----------------------------------------------------------------


def test_a_document_from_stdin_is_one_page_on_stdout():
    done = run("show", "--html", stdin=example_json())
    assert (done.status, done.stderr) == (0, "")
    assert done.stdout == _page(example_history())
    assert done.stdout.count(MESSAGE_BLOCK) == 5
    assert 'data-role="user"' in done.stdout
    assert "<script" not in done.stdout.lower()


def test_a_document_file_is_titled_by_its_name_and_written_to_the_output(tmp_path):
    source = tmp_path / "example.json"
    source.write_text(example_json(), encoding="utf-8")
    target = tmp_path / "out" / "example.html"
    target.parent.mkdir()
    done = run("show", str(source), "--html", "-o", str(target))
    assert (done.status, done.stdout, done.stderr) == (0, "", "")
    page = target.read_text(encoding="utf-8")
    assert page == _page(example_history(), title="example.json")
    assert "<title>example.json</title>" in page
    assert _leftovers(target.parent) == []


def test_title_and_theme_options_reach_the_page():
    done = run("show", "--html", "--theme", "dark", "--title", 'Ada\'s "<chat>"',
               stdin=example_json())
    assert (done.status, done.stderr) == (0, "")
    assert done.stdout == _page(example_history(), title='Ada\'s "<chat>"', theme="dark")
    assert "<title>Ada&#x27;s &quot;&lt;chat&gt;&quot;</title>" in done.stdout
    light = run("show", "--html", "--theme", "light", stdin=example_json())
    assert light.stdout == _page(example_history(), theme="light")
    assert light.stdout != done.stdout


BUILT_IN_FORMATS = [
    name for name in formats.names()
    if formats.get(name).from_payload.__module__.startswith("semantic_chat.")
]
"""The library's own formats (a test module may have registered one of its own by now)."""


def test_the_built_in_formats_are_all_there():
    assert len(BUILT_IN_FORMATS) == 7


@pytest.mark.parametrize("name", BUILT_IN_FORMATS)
def test_every_format_the_cli_reads_gives_its_page(tmp_path, name):
    written = run("example", "--to", name, "--on-unsupported", "drop")
    assert written.status == 0
    source = tmp_path / f"example-{name}.json"
    source.write_text(written.stdout, encoding="utf-8")
    history = formats.get(name).from_payload(json.loads(written.stdout))
    expected = _page(history, title=source.name)
    detected = run("show", str(source), "--html")
    assert (detected.status, detected.stdout, detected.stderr) == (0, expected, "")
    assert detected.stdout.count(MESSAGE_BLOCK) == len(history) == 5
    named = run("show", str(source), "--html", "--from", name)
    assert named.stdout == expected


def test_a_bad_document_is_located_and_nothing_is_written(tmp_path):
    target = tmp_path / "page.html"
    done = run("show", "--html", "-o", str(target), "--from", "openai-chat",
               stdin=json.dumps(BAD_TOOL_MESSAGE))
    assert (done.status, done.stdout) == (1, "")
    assert done.errors == ["semantic-chat: messages[1]: tool message without tool_call_id"]
    assert not target.exists()
    assert _leftovers(tmp_path) == []


def test_malformed_json_is_placed():
    done = run("show", "--html", stdin='{"version": 1,\n  "messages": [}')
    assert done.status == 1
    assert done.errors[0].startswith("semantic-chat: line 2, column 16: malformed JSON")


# --- JSONL: a directory of pages and an index -------------------------------------------------


def test_jsonl_gives_a_page_per_line_and_an_index(tmp_path):
    quiet = [{"role": "assistant", "content": "nobody asked"}]
    source = write_jsonl(tmp_path / "chats.jsonl", [chat_conversation(1), chat_conversation(2),
                                                    quiet], raw={2: ""})
    out = tmp_path / "pages"
    done = run("show", str(source), "--html", "-o", str(out))
    assert (done.status, done.stdout) == (0, "")
    assert done.errors == [f"semantic-chat: wrote 3 conversation pages and index.html to {out}"]
    assert sorted(path.name for path in out.iterdir()) == [
        "conversation-1.html", "conversation-3.html", "conversation-4.html", "index.html",
    ]
    histories = {1: _chat(1), 3: _chat(2), 4: formats.get("openai-chat").from_payload(quiet)}
    for number, history in histories.items():
        page = (out / f"conversation-{number}.html").read_text(encoding="utf-8")
        assert page == _page(history, title=f"chats.jsonl · line {number}")
    index = (out / "index.html").read_text(encoding="utf-8")
    assert index == pages.render_index(
        [pages.IndexEntry(1, "openai-chat", 4, "question 1"),
         pages.IndexEntry(3, "openai-chat", 4, "question 2"),
         pages.IndexEntry(4, "openai-chat", 1, None)],
        title="chats.jsonl",
    )
    rows = re.findall(r"<tr>.*</tr>", index)
    assert rows[1:] == [
        '<tr><td class="number"><a href="conversation-1.html">line 1</a></td>'
        '<td class="format">openai-chat</td><td class="number">4</td>'
        '<td><a href="conversation-1.html">question 1</a></td></tr>',
        '<tr><td class="number"><a href="conversation-3.html">line 3</a></td>'
        '<td class="format">openai-chat</td><td class="number">4</td>'
        '<td><a href="conversation-3.html">question 2</a></td></tr>',
        '<tr><td class="number"><a href="conversation-4.html">line 4</a></td>'
        '<td class="format">openai-chat</td><td class="number">1</td>'
        '<td><a href="conversation-4.html"><span class="none">(no user text)</span></a></td></tr>',
    ]
    assert "<title>chats.jsonl</title>" in index
    assert '<p class="summary">3 conversations</p>' in index
    assert _leftovers(out) == []


def test_jsonl_lines_of_any_format_and_the_title_option(tmp_path):
    lines = [json.loads(run("example", "--to", name, "--on-unsupported", "drop").stdout)
             for name in ("anthropic", "semantic-chat")]
    source = write_jsonl(tmp_path / "mixed.jsonl", lines)
    out = tmp_path / "out"
    done = run("show", str(source), "--html", "-o", str(out), "--title", "Mixed", "-q",
               "--theme", "light")
    assert (done.status, done.stdout, done.stderr) == (0, "", "")
    index = (out / "index.html").read_text(encoding="utf-8")
    assert '<td class="format">anthropic</td>' in index
    assert '<td class="format">semantic-chat</td>' in index
    assert '<meta name="color-scheme" content="light">' in index
    second = (out / "conversation-2.html").read_text(encoding="utf-8")
    assert second == _page(example_history(), title="Mixed · line 2", theme="light")


def test_index_escapes_what_it_shows(tmp_path):
    hostile = [{"role": "user", "content": '<script>alert(1)</script> <img src=x onerror="x()">'}]
    source = write_jsonl(tmp_path / "bad.jsonl", [hostile])
    out = tmp_path / "out"
    assert run("show", str(source), "--html", "-o", str(out), "-q").status == 0
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "<script" not in index
    assert "<img" not in index
    assert (
        '<a href="conversation-1.html">&lt;script&gt;alert(1)&lt;/script&gt; '
        "&lt;img src=x onerror=&quot;x()&quot;&gt;</a>"
    ) in index


def test_jsonl_output_directory_is_made_and_pages_replaced(tmp_path):
    source = write_jsonl(tmp_path / "in.jsonl", [chat_conversation(1)])
    out = tmp_path / "a" / "b"
    assert run("show", str(source), "--html", "-o", str(out), "-q").status == 0
    (out / "conversation-1.html").write_text("stale", encoding="utf-8")
    write_jsonl(source, [chat_conversation(7)])
    assert run("show", str(source), "--html", "-o", str(out), "-q").status == 0
    page = (out / "conversation-1.html").read_text(encoding="utf-8")
    assert page == _page(_chat(7), title="in.jsonl · line 1")


def test_pages_an_earlier_longer_run_left_are_removed(tmp_path):
    # What was seen: show --html -o DIR on a shorter file kept conversation-3.html from the
    # run before, a page no index linked to.
    source = write_jsonl(tmp_path / "in.jsonl", [chat_conversation(n) for n in (1, 2, 3)])
    out = tmp_path / "pages"
    assert run("show", str(source), "--html", "-o", str(out), "-q").status == 0
    (out / "notes.html").write_text("mine", encoding="utf-8")
    (out / "conversation-x.html").write_text("mine too", encoding="utf-8")
    write_jsonl(source, [chat_conversation(7)])
    done = run("show", str(source), "--html", "-o", str(out))
    assert (done.status, done.stdout) == (0, "")
    assert done.errors == [
        f"semantic-chat: wrote 1 conversation page and index.html to {out}; removed 2 pages "
        "an earlier run left for other lines"
    ]
    assert sorted(path.name for path in out.iterdir()) == [
        "conversation-1.html", "conversation-x.html", "index.html", "notes.html",
    ]
    assert (out / "notes.html").read_text(encoding="utf-8") == "mine"


def test_a_run_stopped_by_a_bad_line_removes_nothing(tmp_path):
    source = write_jsonl(tmp_path / "in.jsonl", [chat_conversation(n) for n in (1, 2, 3)])
    out = tmp_path / "pages"
    assert run("show", str(source), "--html", "-o", str(out), "-q").status == 0
    write_jsonl(source, [chat_conversation(1)], raw={2: "[1, 2"})
    assert run("show", str(source), "--html", "-o", str(out), "-q").status == 1
    assert sorted(path.name for path in out.iterdir()) == [
        "conversation-1.html", "conversation-2.html", "conversation-3.html", "index.html",
    ]


def test_a_bad_jsonl_line_stops_before_the_index(tmp_path):
    source = write_jsonl(tmp_path / "in.jsonl", [chat_conversation(1)],
                         raw={2: json.dumps(BAD_TOOL_MESSAGE), 3: "[1, 2"})
    out = tmp_path / "out"
    done = run("show", str(source), "--html", "-o", str(out))
    assert (done.status, done.stdout) == (1, "")
    assert done.errors == ["semantic-chat: line 2: messages[1]: tool message without tool_call_id"]
    assert sorted(path.name for path in out.iterdir()) == ["conversation-1.html"]


def test_a_jsonl_file_without_output_or_line_names_the_options(tmp_path):
    source = write_jsonl(tmp_path / "in.jsonl", [chat_conversation(1)])
    done = run("show", str(source), "--html")
    assert (done.status, done.stdout) == (2, "")
    assert done.errors == [
        f"semantic-chat: {source} holds one conversation a line: pass -o DIR for a page each "
        "and an index.html, or --line N for the page of line N"
    ]
    piped = run("show", "--html", "--jsonl", "-o", "-", stdin=json.dumps(chat_conversation(1)))
    assert piped.status == 2
    assert piped.errors[0].startswith("semantic-chat: <stdin> holds one conversation a line")


def test_jsonl_output_that_is_a_file_is_refused(tmp_path):
    source = write_jsonl(tmp_path / "in.jsonl", [chat_conversation(1)])
    target = tmp_path / "taken.html"
    target.write_text("mine", encoding="utf-8")
    done = run("show", str(source), "--html", "-o", str(target))
    assert done.status == 2
    assert done.errors == [
        f"semantic-chat: --output {target}: is not a directory (a JSONL file gives a "
        "directory of pages; pass --line N for one page)"
    ]
    assert target.read_text(encoding="utf-8") == "mine"


# --- JSONL: one line ------------------------------------------------------------------------


def test_line_gives_that_lines_page(tmp_path):
    source = write_jsonl(tmp_path / "in.jsonl", [chat_conversation(i) for i in range(1, 4)],
                         raw={1: ""})
    done = run("show", str(source), "--line", "3", "--html")
    assert (done.status, done.stderr) == (0, "")
    assert done.stdout == _page(_chat(2), title="in.jsonl · line 3")
    target = tmp_path / "three.html"
    written = run("show", str(source), "--line", "3", "--html", "-o", str(target))
    assert (written.status, written.stdout, written.stderr) == (0, "", "")
    assert target.read_text(encoding="utf-8") == done.stdout


def test_line_from_stdin_with_a_byte_order_mark():
    data = "\ufeff" + json.dumps(chat_conversation(5)) + "\n"
    done = run("show", "--jsonl", "--line", "1", "--html", stdin=data.encode())
    assert (done.status, done.stderr) == (0, "")
    assert done.stdout == _page(_chat(5), title="line 1")


def test_line_also_picks_a_transcript(tmp_path):
    source = write_jsonl(tmp_path / "in.jsonl", [chat_conversation(1), chat_conversation(2)])
    done = run("show", str(source), "--line", "2")
    assert (done.status, done.stderr) == (0, "")
    assert done.stdout.splitlines()[:3] == ["══ line 2 · openai-chat", "── user", "   question 2"]
    assert "question 1" not in done.stdout


@pytest.mark.parametrize(
    ("line", "error"),
    [
        ("9", "--line 9: out of range: {source} has 4 lines"),
        ("1,001", "argument --line: expected a line number of 1 or more, got '1,001'"),
        ("0", "argument --line: expected a line number of 1 or more, got '0'"),
        ("2", "--line 2: the line is blank in {source}"),
    ],
)
def test_line_out_of_range_or_blank_is_a_usage_error(tmp_path, line, error):
    source = write_jsonl(tmp_path / "in.jsonl", [chat_conversation(1), chat_conversation(2)],
                         raw={2: "", 4: "  "})
    done = run("show", str(source), "--html", "--line", line)
    assert (done.status, done.stdout) == (2, "")
    message = error.format(source=source)
    if message.startswith("argument"):
        assert done.errors == [
            f"semantic-chat show: error: {message} (see semantic-chat show --help)"
        ]
    else:
        assert done.errors == [f"semantic-chat: {message}"]


def test_a_bad_line_is_located_with_its_column(tmp_path):
    source = write_jsonl(tmp_path / "in.jsonl", [chat_conversation(1)], raw={2: "[1, 2"})
    done = run("show", str(source), "--html", "--line", "2")
    assert (done.status, done.stdout) == (1, "")
    assert done.errors[0].startswith("semantic-chat: line 2, column 6: malformed JSON")


# --- plugins ------------------------------------------------------------------------------

VIDEO_PLUGIN = textwrap.dedent('''
    import html
    import attrs
    from semantic_chat import ContentType, KernelContent
    from semantic_chat.html import register_html

    @attrs.define
    class VideoContent(KernelContent):
        content_type = ContentType("video")
        url: str

    register_html(VideoContent, lambda item: f"<video src={html.escape(item.url)!r}></video>")
''')


def test_a_plugin_loaded_by_the_cli_renders_its_items(tmp_path):
    (tmp_path / "acme_video.py").write_text(VIDEO_PLUGIN, encoding="utf-8")
    document = {"version": 1, "messages": [{"role": "user", "items": [
        {"type": "video", "url": "https://x.test/v.mp4?a=1&b=<2>"},
    ]}]}
    source = write_jsonl(tmp_path / "videos.jsonl", [document])
    env = {"PYTHONPATH": str(tmp_path)}
    done = run("show", str(source), "--line", "1", "--html", "--plugin", "acme_video", env=env)
    assert (done.status, done.stderr) == (0, "")
    assert (
        '<div class="item plugin" data-type="video">'
        "<video src='https://x.test/v.mp4?a=1&amp;b=&lt;2&gt;'></video></div>"
    ) in done.stdout
    without = run("show", str(source), "--line", "1", "--html", env=env)
    assert '<div class="item unknown" data-type="video">' in without.stdout
    assert "<video" not in without.stdout


# --- options that do not fit ----------------------------------------------------------------


def test_line_on_a_document_is_refused(tmp_path):
    source = tmp_path / "example.json"
    source.write_text(example_json(), encoding="utf-8")
    done = run("show", str(source), "--html", "--line", "1")
    assert (done.status, done.stdout) == (2, "")
    assert done.errors == [
        f"semantic-chat: --line 1: {source} is one JSON document, not JSONL (pass --jsonl if "
        "it holds one conversation a line)"
    ]


@pytest.mark.parametrize(
    ("options", "name"),
    [(["-o", "x.html"], "-o/--output"), (["--theme", "dark"], "--theme"),
     (["--title", "T"], "--title")],
)
def test_page_options_without_html_are_refused(tmp_path, options, name):
    done = run("show", *options, stdin=example_json(), cwd=tmp_path)
    assert (done.status, done.stdout) == (2, "")
    assert done.errors == [f"semantic-chat: {name} applies to --html pages only"]
    assert list(tmp_path.iterdir()) == []


def test_a_page_is_never_written_onto_the_input_or_a_directory(tmp_path):
    source = tmp_path / "example.json"
    source.write_text(example_json(), encoding="utf-8")
    onto = run("show", str(source), "--html", "-o", str(source))
    assert onto.status == 2
    assert onto.errors == [
        f"semantic-chat: --output {source}: is the input file; write to another path"
    ]
    assert from_json(source.read_text(encoding="utf-8"), ChatHistory) == example_history()
    into = run("show", str(source), "--html", "-o", str(tmp_path))
    assert into.errors == [f"semantic-chat: --output {tmp_path}: is a directory"]


# --- the index page on its own --------------------------------------------------------------


def test_entry_takes_the_first_user_text_cut_and_on_one_line():
    long = "word " * 100
    history = ChatHistory(system_message="be brief")
    history.add_user_message(["", "  "])
    history.add_user_message(f"first\n\n  {long}")
    entry = pages.entry_for(7, "semantic-chat", history)
    assert entry.line == 7
    assert entry.messages == 3
    assert entry.first_user_text is not None
    assert len(entry.first_user_text) == pages.PREVIEW_CHARS
    assert entry.first_user_text == ("first " + long)[: pages.PREVIEW_CHARS - 1].rstrip() + "…"
    short = ChatHistory()
    short.add_user_message("just this")
    assert pages.entry_for(1, "x", short).first_user_text == "just this"


@pytest.mark.parametrize(
    ("theme", "scheme", "dark_query"), [("auto", "light dark", True), ("light", "light", False),
                                        ("dark", "dark", False)],
)
def test_index_themes(theme, scheme, dark_query):
    page = pages.render_index([], title="none", theme=theme)
    assert f'<meta name="color-scheme" content="{scheme}">' in page
    assert ("@media (prefers-color-scheme: dark)" in page) is dark_query
    assert ("--bg:#0d1117" in page) is (theme != "light")
    assert ("--bg:#ffffff" in page) is (theme != "dark")
    assert "@media print" in page
    assert '<p class="summary">0 conversations</p>' in page
    assert "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; " \
        "style-src 'unsafe-inline'\">" in page
    assert "http:" not in page
    assert "https:" not in page
    assert "<script" not in page


def test_index_refuses_an_unknown_theme():
    with pytest.raises(ValueError, match=r"^theme: expected 'auto', 'light' or 'dark', got 'sepia'$"):
        pages.render_index([], title="x", theme="sepia")
