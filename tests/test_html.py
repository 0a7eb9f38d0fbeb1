"""`semantic_chat.html`: the page, each item kind's fragment, themes, plugins, and escaping.

The browser side (the DOM Chromium builds from these pages) is `test_html_browser.py`; here the
output is checked as text, exactly, and parsed with `html.parser.HTMLParser` for safety.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import histories

import semantic_chat
from semantic_chat import (
    CONTENT_TYPES,
    AudioContent,
    BinaryContent,
    ChatHistory,
    ChatMessageContent,
    Citation,
    ContentType,
    FileContent,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    InvalidTypeError,
    InvalidValueError,
    KernelContent,
    ReasoningContent,
    RefusalContent,
    TextContent,
    UnknownContent,
    Usage,
)
from semantic_chat.example import example_history
from semantic_chat.html import (
    THEMES,
    notebook_html,
    register_html,
    render,
    render_message,
    unregister_html,
)
from semantic_chat.streaming import StreamingTextContent

PNG = ImageContent.from_array(__import__("numpy").zeros((2, 3, 3), "uint8"))


def _without_payloads(page: str) -> str:
    return re.sub(r"base64,[A-Za-z0-9+/=]+", "base64,…", page)


def _one(*items: KernelContent, role: str = "user") -> str:
    """The fragment of one message holding ``items``, without its header and closing tag."""
    fragment = render_message(ChatMessageContent(role, items=list(items)))
    head = f'<section class="message" data-role="{role}">\n<header><span class="role">{role}</span></header>\n'
    assert fragment.startswith(head)
    assert fragment.endswith("</section>\n")
    return fragment[len(head) : -len("</section>\n")]


# --- messages and items, exactly -------------------------------------------------------------


def test_a_message_shows_its_role_name_model_and_footer():
    message = ChatMessageContent(
        "assistant", "Hi", name="o'b", model_id="m-1", finish_reason="stop",
        usage=Usage(10, 5, 15, cached_tokens=4, reasoning_tokens=2, cache_creation_tokens=1),
    )
    assert render_message(message) == (
        '<section class="message" data-role="assistant">\n'
        '<header><span class="role">assistant</span> <span class="name">o&#x27;b</span> '
        '<span class="model">m-1</span></header>\n'
        '<div class="item text">Hi</div>\n'
        "<footer>finish: stop · tokens: 15 (10 prompt, 5 completion, 4 cached, "
        "1 written to cache, 2 reasoning)</footer>\n"
        "</section>\n"
    )


def test_a_custom_role_is_its_label_lower_cased_in_data_role():
    fragment = render_message(ChatMessageContent("Critic", "ok"))
    assert fragment.startswith(
        '<section class="message" data-role="critic">\n<header><span class="role">critic</span>'
    )


def test_text_is_escaped_never_markup():
    assert _one(TextContent('<b>bold</b> & "quoted" \'single\'\nline two')) == (
        '<div class="item text">&lt;b&gt;bold&lt;/b&gt; &amp; &quot;quoted&quot; '
        "&#x27;single&#x27;\nline two</div>\n"
    )


def test_citations_are_numbered_footnotes_at_the_end_of_their_span():
    text = TextContent(
        "Sky is blue. Grass is green.",
        citations=[
            Citation(title="Colours", cited_text="The sky is blue.", source_start=2,
                     source_end=3, source_unit="page", source_index=0, text_start=0,
                     text_end=12),
            Citation(url="https://example.org/a?b=1&c=2"),
            Citation(url="javascript:alert(1)", title="Bad"),
        ],
    )
    assert _one(text) == (
        '<div class="item text">Sky is blue.<sup class="cite">[1]</sup> Grass is green.'
        '<sup class="cite">[2]</sup><sup class="cite">[3]</sup></div>\n'
        '<ol class="citations">'
        '<li>Colours: <q>The sky is blue.</q> <span class="where">(page 2 of source 0)'
        "</span></li>"
        '<li><a href="https://example.org/a?b=1&amp;c=2" rel="noopener noreferrer">'
        "https://example.org/a?b=1&amp;c=2</a></li>"
        "<li>Bad &lt;javascript:alert(1)&gt;</li></ol>\n"
    )


def test_footnotes_are_numbered_across_the_texts_of_a_message():
    fragment = _one(
        TextContent("a", citations=[Citation(title="A")]),
        TextContent("b", citations=[Citation(title="B")]),
    )
    assert fragment == (
        '<div class="item text">a<sup class="cite">[1]</sup></div>\n'
        '<div class="item text">b<sup class="cite">[2]</sup></div>\n'
        '<ol class="citations"><li>A</li><li>B</li></ol>\n'
    )


def test_images_are_inline_data_urls_with_their_description():
    assert _one(PNG) == (
        f'<figure class="item image"><img src="{PNG.data_uri}" '
        'alt="image/png, 3x2 px, 68 bytes"><figcaption>image/png, 3x2 px, 68 bytes'
        "</figcaption></figure>\n"
    )


def test_an_image_at_a_web_address_is_a_link_never_loaded():
    image = ImageContent(uri="https://example.org/a.png?x=1&y=2", mime_type="image/png")
    assert _one(image) == (
        '<div class="item image linked"><span class="tag">image</span> '
        '<a href="https://example.org/a.png?x=1&amp;y=2" rel="noopener noreferrer">'
        "image/png, at https://example.org/a.png?x=1&amp;y=2</a></div>\n"
    )
    assert _one(ImageContent(uri="http://example.org/a.png")) == (
        '<div class="item image linked"><span class="tag">image</span> '
        '<a href="http://example.org/a.png" rel="noopener noreferrer">'
        "unknown type, at http://example.org/a.png</a></div>\n"
    )


@pytest.mark.parametrize(
    "image",
    [
        ImageContent(uri="javascript:alert(1)"),
        ImageContent(uri="file:///etc/passwd"),
        ImageContent(uri="https://example.org/a b.png"),
        ImageContent(uri=" https://example.org/a.png"),
        ImageContent(data=b"<script>alert(1)</script>", mime_type="text/html"),
        ImageContent(file_id="file-1", mime_type="image/png"),
    ],
    ids=["javascript", "file", "space", "leading-space", "html-data", "file-id"],
)
def test_an_image_that_cannot_be_shown_safely_is_its_description_as_text(image):
    fragment = _one(image)
    assert fragment.startswith(
        '<div class="item image unshown"><span class="tag">image</span> <span class="note">'
    )
    assert "<img" not in fragment
    assert "src=" not in fragment
    assert "href=" not in fragment


def test_a_refused_uri_is_shown_as_text_only():
    assert _one(ImageContent(uri="javascript:alert(1)")) == (
        '<div class="item image unshown"><span class="tag">image</span> '
        '<span class="note">unknown type, at javascript:alert(1)</span></div>\n'
    )


def test_audio_is_a_player_of_its_data_url():
    audio = AudioContent.from_array(__import__("numpy").zeros(8), 8000)
    assert _one(audio) == (
        f'<figure class="item audio"><audio controls src="{audio.data_uri}"></audio>'
        "<figcaption>audio/wav, 0.00 s, 60 bytes</figcaption></figure>\n"
    )


def test_audio_at_a_web_address_is_a_link_never_loaded():
    audio = AudioContent(uri="https://example.org/a.mp3", mime_type="audio/mpeg")
    assert _one(audio) == (
        '<div class="item audio linked"><span class="tag">audio</span> '
        '<a href="https://example.org/a.mp3" rel="noopener noreferrer">'
        "audio/mpeg, at https://example.org/a.mp3</a></div>\n"
    )


def test_files_are_download_links_of_their_data():
    item = FileContent(data=b"%PDF-1.4", filename='a "b".pdf')
    assert _one(item) == (
        '<div class="item file"><span class="tag">file</span> '
        '<a download="a &quot;b&quot;.pdf" href="data:application/pdf;base64,JVBERi0xLjQ=">'
        'a &quot;b&quot;.pdf</a> <span class="note">a &quot;b&quot;.pdf, application/pdf, '
        "8 bytes</span></div>\n"
    )


def test_a_file_at_a_web_address_links_to_it_and_others_are_text():
    web = FileContent(uri="https://example.org/r.pdf", filename="r.pdf",
                      mime_type="application/pdf")
    assert _one(web) == (
        '<div class="item file"><span class="tag">file</span> '
        '<a href="https://example.org/r.pdf" rel="noopener noreferrer">r.pdf</a> '
        '<span class="note">r.pdf, application/pdf, at https://example.org/r.pdf</span></div>\n'
    )
    assert _one(FileContent(uri="javascript:alert(1)", mime_type="text/plain")) == (
        '<div class="item file unshown"><span class="tag">file</span> '
        '<span class="note">text/plain, at javascript:alert(1)</span></div>\n'
    )


def test_bare_binary_items_download_without_a_name():
    item = BinaryContent(data=b"abc", mime_type="application/octet-stream")
    assert _one(item) == (
        '<div class="item binary"><span class="tag">binary</span> '
        '<a download="" href="data:application/octet-stream;base64,YWJj">download</a> '
        '<span class="note">application/octet-stream, 3 bytes</span></div>\n'
    )


def test_bytes_that_do_not_decode_as_their_kind_are_described_not_raised():
    broken = ImageContent(data=b"GIF89a", mime_type="image/gif")
    assert _one(broken) == (
        f'<figure class="item image"><img src="{broken.data_uri}" '
        'alt="image/gif, 6 bytes, unreadable: GIF: truncated header (6 bytes, need 10)">'
        "<figcaption>image/gif, 6 bytes, unreadable: GIF: truncated header (6 bytes, need 10)"
        "</figcaption></figure>\n"
    )


def test_refusals_are_marked():
    assert _one(RefusalContent("no <way>"), role="assistant") == (
        '<div class="item refusal"><span class="tag">refused</span> no &lt;way&gt;</div>\n'
    )


def test_reasoning_is_folded():
    signed = ReasoningContent("I <think>", signature="sig", provider="anthropic")
    assert _one(signed, role="assistant") == (
        '<details class="item reasoning"><summary>reasoning (signed, anthropic)</summary>'
        '<div class="text">I &lt;think&gt;</div></details>\n'
    )
    assert _one(ReasoningContent("", encrypted="xyz"), role="assistant") == (
        '<details class="item reasoning"><summary>reasoning (encrypted)</summary>'
        '<div class="text"><span class="note">no readable text</span></div></details>\n'
    )


def test_a_call_alone_shows_its_arguments_as_coloured_json():
    call = FunctionCallContent("c1", "get", '{"a": [1, 2.50, true, null], "b": {}, "c": []}')
    assert _one(call, role="assistant") == (
        '<div class="item exchange"><details open class="call"><summary>'
        '<span class="tag">tool call</span> <span class="function">get</span> '
        '<span class="id">c1</span></summary><pre class="json">{\n'
        '  <span class="j-key">&quot;a&quot;</span>: [\n'
        '    <span class="j-num">1</span>,\n'
        '    <span class="j-num">2.50</span>,\n'
        '    <span class="j-lit">true</span>,\n'
        '    <span class="j-lit">null</span>\n'
        "  ],\n"
        '  <span class="j-key">&quot;b&quot;</span>: {},\n'
        '  <span class="j-key">&quot;c&quot;</span>: []\n'
        "}</pre></details></div>\n"
    )


def test_arguments_that_are_not_json_are_shown_raw_and_escaped():
    call = FunctionCallContent("c1", "get", '{"a": <script>')
    assert '<pre class="raw">{&quot;a&quot;: &lt;script&gt;</pre>' in _one(call)
    assert '<pre class="json"><span class="note">(no arguments)</span></pre>' in _one(FunctionCallContent("c2", "f"))


def test_arguments_given_as_a_mapping_and_keys_are_escaped():
    call = FunctionCallContent("c1", "f", {"<k>": "</pre><script>"})
    assert (
        '<pre class="json">{\n  <span class="j-key">&quot;&lt;k&gt;&quot;</span>: '
        '<span class="j-str">&quot;&lt;/pre&gt;&lt;script&gt;&quot;</span>\n}</pre>'
    ) in _one(call)


def test_a_page_shows_each_call_beside_its_result_and_folds_the_result_message():
    history = ChatHistory()
    history.add_assistant_message(items=[FunctionCallContent("c1", "f", "{}")])
    history.add_tool_message("plain <text>", call_id="c1")
    page = render(history)
    exchange = (
        '<div class="item exchange"><details open class="call"><summary>'
        '<span class="tag">tool call</span> <span class="function">f</span> '
        '<span class="id">c1</span></summary><pre class="json">{}</pre></details>'
        '<details open class="result"><summary><span class="tag">tool result</span> '
        '<span class="id">c1</span></summary><div class="text">plain &lt;text&gt;</div>'
        "</details></div>\n"
    )
    folded = (
        '<div class="item result"><details class="result"><summary>'
        '<span class="tag">tool result</span> <span class="id">c1</span> '
        '<span class="note">(shown beside its call)</span></summary>'
        '<div class="text">plain &lt;text&gt;</div></details></div>\n'
    )
    assert exchange in page
    assert folded in page


def test_a_call_without_a_result_says_so_in_a_page():
    history = ChatHistory([ChatMessageContent("assistant", items=[FunctionCallContent("c9", "f")])])
    assert '<p class="note pending">no result in this conversation</p></div>' in render(history)


def test_results_json_errors_and_item_lists():
    error = FunctionResultContent("c1", {"n": 1.5, "ok": False}, name="f", is_error=True)
    assert _one(error, role="tool") == (
        '<div class="item result"><details open class="result error"><summary>'
        '<span class="tag">tool result error</span> <span class="function">f</span> '
        '<span class="id">c1</span></summary><pre class="json">{\n'
        '  <span class="j-key">&quot;n&quot;</span>: <span class="j-num">1.5</span>,\n'
        '  <span class="j-key">&quot;ok&quot;</span>: <span class="j-lit">false</span>\n'
        "}</pre></details></div>\n"
    )
    json_text = FunctionResultContent("c2", '[1, "x"]')
    assert '<pre class="json">[\n  <span class="j-num">1</span>,\n  <span class="j-str">' \
        "&quot;x&quot;</span>\n]</pre>" in _one(json_text, role="tool")
    assert '<pre class="json"><span class="j-lit">null</span></pre>' in _one(
        FunctionResultContent("c3", None), role="tool"
    )
    with_items = FunctionResultContent("c4", [TextContent("seen"), PNG])
    fragment = _one(with_items, role="tool")
    assert '<div class="item text">seen</div>\n<figure class="item image"><img src="data:' \
        in fragment


def test_unknown_items_show_their_transcript_line():
    assert _one(UnknownContent("video", {"a": 1, "b": "<x>"})) == (
        '<div class="item unknown" data-type="video">'
        "[unknown item &#x27;video&#x27;] 2 fields</div>\n"
    )


def test_library_subclasses_render_as_their_base():
    assert _one(StreamingTextContent("part <1>")) == (
        '<div class="item text">part &lt;1&gt;</div>\n'
    )


# --- plugins ---------------------------------------------------------------------------------


@pytest.fixture
def video_class():
    @attrs.define
    class HtmlTestVideo(BinaryContent):
        content_type = ContentType("html_test_video")

    @attrs.define
    class HtmlTestNote(KernelContent):
        content_type = ContentType("html_test_note")
        text: str = ""

        def __transcript__(self) -> str:
            return f"[note] {self.text}"

    yield HtmlTestVideo, HtmlTestNote
    for cls in (HtmlTestVideo, HtmlTestNote):
        unregister_html(cls)
    CONTENT_TYPES.unregister("html_test_video")
    CONTENT_TYPES.unregister("html_test_note")


def test_plugin_items_show_their_transcript_line_by_default(video_class):
    video, note = video_class
    clip = video(data=b"\x00\x00\x00\x18ftypmp42", mime_type="video/mp4")
    assert _one(clip) == (
        '<div class="item other" data-type="html_test_video">'
        "[html_test_video] video/mp4, 12 bytes</div>\n"
    )
    assert _one(note(text="<b>")) == (
        '<div class="item other" data-type="html_test_note">[note] &lt;b&gt;</div>\n'
    )


def test_a_registered_renderer_supplies_the_html_of_its_type(video_class):
    _video, note = video_class
    register_html(note, lambda item: f"<mark>{item.text.upper()}</mark>")
    assert _one(note(text="hi")) == (
        '<div class="item plugin" data-type="html_test_note"><mark>HI</mark></div>\n'
    )
    unregister_html(note)
    assert _one(note(text="hi")) == (
        '<div class="item other" data-type="html_test_note">[note] hi</div>\n'
    )
    unregister_html(note)  # forgetting twice is no error


def test_a_renderer_registered_for_a_base_covers_subclasses(video_class):
    video, _ = video_class
    register_html(BinaryContent, lambda item: "<b>bytes</b>")
    try:
        assert _one(video(data=b"x", mime_type="video/mp4")) == (
            '<div class="item plugin" data-type="html_test_video"><b>bytes</b></div>\n'
        )
        assert "<b>bytes</b>" in _one(BinaryContent(data=b"x", mime_type="text/plain"))
    finally:
        unregister_html(BinaryContent)
    assert "<b>bytes</b>" not in _one(BinaryContent(data=b"x", mime_type="text/plain"))


def test_registering_checks_its_arguments(video_class):
    _, note = video_class
    with pytest.raises(InvalidTypeError, match=r"^cls: expected a KernelContent subclass, got str"):
        register_html("note", str)  # type: ignore[arg-type]
    with pytest.raises(InvalidTypeError, match=r"^renderer: expected a callable, got int"):
        register_html(note, 5)  # type: ignore[arg-type]
    register_html(note, lambda item: 5)
    with pytest.raises(
        InvalidTypeError,
        match=r"HtmlTestNote: the HTML renderer of .*HtmlTestNote returned int, expected a str",
    ):
        render_message(ChatMessageContent("user", items=[note(text="x")]))


# --- pages and themes ------------------------------------------------------------------------


def test_the_example_page_key_parts():
    page = render(example_history(), title="Weather <demo>")
    assert page.startswith('<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n')
    assert "<title>Weather &lt;demo&gt;</title>" in page
    assert "<h1>Weather &lt;demo&gt;</h1>" in page
    assert page.count('<section class="message"') == 5
    assert '<p class="summary">5 messages; items: 1 audio, 1 function_call, 1 function_result, ' \
        "1 image, 1 reasoning, 3 text.</p>" in page
    assert page.endswith("</main>\n</body>\n</html>\n")
    assert "<script" not in page.lower()
    assert "http://" not in page
    assert "https://" not in page
    assert (
        '<meta http-equiv="Content-Security-Policy" content="default-src &#x27;none&#x27;;'
        not in page
    )
    assert "content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:; " \
        "media-src data:\"" in page


def test_the_default_title_counts_the_messages():
    assert "<title>Conversation (1 message)</title>" in render([ChatMessageContent("user", "x")])
    assert "<title>Conversation (0 messages)</title>" in render(ChatHistory())


def _colour_rules(page: str) -> list[str]:
    return re.findall(r"[^{}\n]*\{[^{}]*--bg:(#[0-9a-f]+)", page)


def test_themes():
    auto, light, dark = (render(example_history(), theme=theme) for theme in THEMES)
    light_bg, dark_bg = "#ffffff", "#0d1117"
    # auto: light, then dark when the reader prefers it, then light for print
    assert _colour_rules(auto) == [light_bg, dark_bg, light_bg]
    assert "@media (prefers-color-scheme:dark){:root,.semantic-chat{--bg:#0d1117;" in auto
    assert _colour_rules(light) == [light_bg, light_bg]
    assert _colour_rules(dark) == [dark_bg, light_bg]
    assert "prefers-color-scheme" not in light
    assert "prefers-color-scheme" not in dark
    for page in (auto, light, dark):
        assert "@media print{" in page
        assert ".semantic-chat .message{break-inside:avoid}" in page
        # printed, folded reasoning is unfolded and audio players (not printable) hidden
        assert ".semantic-chat .reasoning::details-content{content-visibility:visible}" in page
        assert ".semantic-chat audio{display:none}" in page
    assert "color-scheme:dark;" in dark
    assert "color-scheme:dark;" not in light


def test_bad_arguments_are_refused_with_their_location():
    with pytest.raises(InvalidValueError, match=r"^theme: unknown theme 'sepia': expected one of "
                                                r"'auto', 'light', 'dark'$"):
        render(ChatHistory(), theme="sepia")
    with pytest.raises(InvalidTypeError, match=r"^title: expected a str or None, got int$"):
        render(ChatHistory(), title=5)  # type: ignore[arg-type]
    with pytest.raises(InvalidTypeError, match=r"^messages\[1\]: expected a ChatMessageContent, "
                                               r"got str$"):
        render([ChatMessageContent("user", "x"), "y"])  # type: ignore[list-item]
    with pytest.raises(InvalidTypeError, match=r"use render_message for one message$"):
        render(ChatMessageContent("user", "x"))  # type: ignore[arg-type]
    with pytest.raises(InvalidTypeError, match=r"^messages: expected a ChatHistory or an "
                                               r"iterable of messages, got int$"):
        render(5)  # type: ignore[arg-type]
    with pytest.raises(InvalidTypeError, match=r"^message: expected a ChatMessageContent, "
                                               r"got ChatHistory$"):
        render_message(ChatHistory())  # type: ignore[arg-type]


# --- notebooks -------------------------------------------------------------------------------


def test_repr_html_of_a_history_and_a_message():
    history = example_history()
    shown = history._repr_html_()
    assert shown == notebook_html(history)
    assert shown.startswith('<div class="semantic-chat">\n<style>\n.semantic-chat{--bg:#ffffff;')
    assert shown.endswith("</section>\n</div>\n")
    assert shown.count('<section class="message"') == 5
    assert "<html" not in shown
    assert ":root" not in shown
    rules = re.findall(r"^([^@{}\n][^{}\n]*)\{", shown.split("</style>")[0], flags=re.M)
    assert rules
    assert all(rule.startswith(".semantic-chat") for rule in rules)
    one = history[2]._repr_html_()
    style = shown.split("</style>\n")[0] + "</style>\n"
    assert one == f"{style}{render_message(history[2])}</div>\n"
    assert "no result in this conversation" not in one


def test_the_model_imports_html_only_inside_repr_html():
    package = Path(semantic_chat.__file__).parent
    for module, cls in (("message", "ChatMessageContent"), ("history", "ChatHistory")):
        tree = ast.parse((package / f"{module}.py").read_text(encoding="utf-8"))
        method = next(
            member for node in tree.body if isinstance(node, ast.ClassDef) and node.name == cls
            for member in node.body
            if isinstance(member, ast.FunctionDef) and member.name == "_repr_html_"
        )
        inside = {id(node) for node in ast.walk(method)}
        reaching = [
            node for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module == "html"
        ]
        assert len(reaching) == 1
        assert id(reaching[0]) in inside
    code = "import sys, semantic_chat; print('semantic_chat.html' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    assert result.stdout == "False\n"


# --- escaping, for any content ---------------------------------------------------------------

ALLOWED_TAGS = {
    "html", "head", "meta", "title", "style", "body", "main", "h1", "p", "section", "header",
    "footer", "span", "div", "details", "summary", "pre", "figure", "figcaption", "img",
    "audio", "a", "sup", "ol", "li", "q",
}
ALLOWED_ATTRIBUTES = {
    "lang", "charset", "name", "content", "http-equiv", "class", "data-role", "data-type",
    "open", "src", "alt", "controls", "preload", "href", "download", "rel",
}


class _Checker(HTMLParser):
    """Collects every tag, attribute and piece of text the parser sees in a page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.attributes: list[tuple[str, str | None]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attributes.extend(attrs)

    handle_startendtag = handle_starttag

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def check_safe(page: str) -> _Checker:
    """Fail unless every tag and attribute of ``page`` is one the renderer writes itself."""
    checker = _Checker()
    checker.feed(page)
    checker.close()
    assert set(checker.tags) <= ALLOWED_TAGS, set(checker.tags) - ALLOWED_TAGS
    names = {name for name, _ in checker.attributes}
    assert names <= ALLOWED_ATTRIBUTES, names - ALLOWED_ATTRIBUTES
    assert not any(name.startswith("on") for name in names)
    for name, value in checker.attributes:
        if name in ("src", "href"):
            assert value is not None
            assert value.startswith(("data:", "https://", "http://")), value
            # a page loads nothing from elsewhere: a source is the page's own data
            assert name == "href" or value.startswith(("data:image/", "data:audio/")), value
            assert "javascript:" not in value.lower()
            assert not re.search(r"[\x00-\x20\"'<>`]", value)
        if name == "data-role" or name == "data-type":
            assert value is not None
    assert "<script" not in page.lower()
    return checker


HOSTILE = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "javascript:alert(1)",
    " JaVaScRiPt:alert(1)",
    '"><svg onload=alert(1)>',
    "' onmouseover='alert(1)",
    "</pre></details></section><script>",
    "&lt;script&gt;",
    "<!-- -->",
    "]]><![CDATA[",
    "</style><script>",
    "data:text/html,<script>alert(1)</script>",
]
hostile_text = st.one_of(
    st.sampled_from(HOSTILE),
    st.lists(st.sampled_from(HOSTILE) | st.text(max_size=8), min_size=1, max_size=4).map("".join),
    st.text(max_size=20),
)


@st.composite
def hostile_messages(draw: st.DrawFn) -> ChatMessageContent:
    """A message whose every string (text, names, arguments, URIs, filenames) is hostile."""
    text = draw(hostile_text)
    uri = draw(st.sampled_from(["https://", "http://", "javascript:", "", "file:///"])) + draw(
        hostile_text
    )
    items: list[KernelContent] = [
        TextContent(text, citations=[Citation(url=uri, title=draw(hostile_text),
                                              cited_text=draw(hostile_text),
                                              text_end=draw(st.integers(-3, 30)))]),
        ImageContent(uri=uri) if uri else PNG,
        AudioContent(uri=uri) if uri else ImageContent(data=b"GIF89a", mime_type="text/html"),
        FileContent(data=b"%PDF", filename=draw(hostile_text), mime_type="application/pdf"),
        FileContent(uri=uri, filename=draw(hostile_text)) if uri else RefusalContent(text),
        FunctionCallContent(draw(hostile_text), draw(hostile_text), draw(hostile_text)),
        FunctionCallContent("x", "f", {draw(hostile_text): draw(hostile_text)}),
        FunctionResultContent(draw(hostile_text), draw(hostile_text), name=draw(hostile_text)),
        FunctionResultContent("x", {draw(hostile_text): [draw(hostile_text)]}),
        ReasoningContent(text, provider=draw(hostile_text) or None),
        UnknownContent(draw(hostile_text).strip() or "x", {"a": text}),
    ]
    return ChatMessageContent(
        draw(st.sampled_from(["user", "assistant", "tool"])) if not text.strip() else text,
        items=items, name=draw(hostile_text), model_id=draw(hostile_text),
        finish_reason=draw(hostile_text).strip() or None,
    )


@given(st.lists(hostile_messages(), max_size=3), hostile_text)
def test_no_content_can_add_a_tag_an_attribute_or_a_script(messages, title):
    page = render(messages, title=title)
    checker = check_safe(page)
    assert checker.tags.count("section") == len(messages)
    shown = "".join(checker.text)
    for message in messages:
        for item in message.items:
            if isinstance(item, TextContent):
                assert item.text in shown  # shown as text, characters intact
    check_safe(notebook_html(messages))


@given(histories())
def test_any_history_renders_safely(history):
    checker = check_safe(render(history))
    assert checker.tags.count("section") == len(history)


def test_the_example_renders_safely():
    checker = check_safe(render(example_history()))
    assert checker.tags.count("img") == 1
    assert checker.tags.count("audio") == 1


def test_the_example_page_without_its_payloads():
    page = _without_payloads(render(example_history()))
    assert (
        '<section class="message" data-role="user">\n'
        '<header><span class="role">user</span> <span class="name">ada</span></header>\n'
        '<div class="item text">What is in this picture, and what does the clip sound like? '
        "Also, what&#x27;s the weather in Paris?</div>\n"
        '<figure class="item image"><img src="data:image/png;base64,…" '
        'alt="image/png, 64x48 px, 2,609 bytes"><figcaption>image/png, 64x48 px, 2,609 bytes'
        "</figcaption></figure>\n"
        '<figure class="item audio"><audio controls src="data:audio/wav;base64,…"></audio>'
        "<figcaption>audio/wav, 0.50 s, 16,044 bytes</figcaption></figure>\n"
        "</section>\n"
    ) in page
    assert (
        "<footer>finish: tool_calls · tokens: 450 (412 prompt, 38 completion, 0 cached, "
        "21 reasoning)</footer>\n"
    ) in page


def test_the_readme_section_comes_before_the_command_line_and_its_code_runs(tmp_path,
                                                                           monkeypatch):
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    section = readme.index("## Seeing a conversation\n")
    assert section < readme.index("## Command line\n")
    code = readme[section:].split("```python\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "README.md", "exec"), {})
    page = (tmp_path / "chat.html").read_text(encoding="utf-8")
    assert page == render(example_history(), title="Weather")
