"""Pages of `semantic_chat.html` opened in a real browser: headless Chromium through playwright.

The string-side tests (`test_html.py`) check what the renderer writes; these check what a
browser makes of it: how many message blocks it shows, that every image decodes and every audio
clip loads, that the DOM holds no ``<script>`` element and no event-handler attribute even when
the conversation is made of ``<script>``, ``<img onerror>`` and ``javascript:`` content, and
that opening a page makes no request but for the page itself and its ``data:`` URLs (every
request is logged by ``page.on("request")``; a hand-written page loading an ``https:`` image
is the positive control that the log sees requests, where ours shows that image as a link).

Chromium is Debian's ``chromium`` package (found with ``shutil.which("chromium")``), driven by
the ``playwright`` package without its own browser download. Without either the tests are
skipped with the reason, unless ``SEMANTIC_CHAT_REQUIRE_BROWSER=1`` (CI sets it), where they
fail instead: CI must not pass by skipping them.

The screenshots of the bundled example in the light and dark themes are written under
``tmp_path``; with ``SEMANTIC_CHAT_UPDATE_SCREENSHOTS=1`` they are also written to
``docs/screenshots/example-light.png`` and ``example-dark.png``, the ones the README shows.
"""

from __future__ import annotations

import io
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NoReturn

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from semantic_chat import AuthorRole, ChatHistory, ChatMessageContent, Usage
from semantic_chat.contents import (
    AudioContent,
    FileContent,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    ReasoningContent,
    RefusalContent,
    TextContent,
)
from semantic_chat.example import example_history, example_image
from semantic_chat.html import render

REQUIRE_BROWSER = os.environ.get("SEMANTIC_CHAT_REQUIRE_BROWSER") == "1"
UPDATE_SCREENSHOTS = os.environ.get("SEMANTIC_CHAT_UPDATE_SCREENSHOTS") == "1"
SCREENSHOTS_DIR = Path(__file__).resolve().parents[1] / "docs" / "screenshots"
TIMEOUT_MS = 60_000  # two CPUs shared with other test runs: be patient, not flaky

# Everything the DOM must not hold, gathered in one pass over every element: <script> elements,
# attributes whose name starts with "on" (event handlers), and attribute values that are
# javascript: URLs (after the whitespace and control characters a browser ignores there).
DOM_REPORT = """() => {
    const elements = Array.from(document.querySelectorAll("*"));
    const handlers = [];
    const scripted = [];
    for (const element of elements) {
        for (const attribute of element.attributes) {
            const name = attribute.name.toLowerCase();
            if (name.startsWith("on")) handlers.push(element.tagName + " " + name);
            const value = attribute.value.replace(/[\\u0000-\\u0020]/g, "").toLowerCase();
            if (value.startsWith("javascript:") || value.startsWith("vbscript:")) {
                scripted.push(element.tagName + " " + name);
            }
        }
    }
    return {
        scripts: document.querySelectorAll("script").length,
        handlers: handlers,
        scripted: scripted,
        messages: document.querySelectorAll("section.message").length,
        roles: Array.from(document.querySelectorAll("section.message"),
                          (section) => section.getAttribute("data-role")),
        images: Array.from(document.images, (image) => ({
            src: image.getAttribute("src").slice(0, 30),
            complete: image.complete,
            width: image.naturalWidth,
            height: image.naturalHeight,
        })),
        audio: Array.from(document.querySelectorAll("audio"), (audio) => ({
            controls: audio.hasAttribute("controls"),
            src: audio.getAttribute("src").slice(0, 30),
        })),
        downloads: Array.from(document.querySelectorAll("a[download]"), (link) => ({
            name: link.getAttribute("download"),
            href: link.getAttribute("href").slice(0, 30),
        })),
        iframes: document.querySelectorAll("iframe, object, embed, frame").length,
        title: document.title,
    };
}"""

# The first 1x1 red PNG a route serves for an https: image (the positive control).
RED_PIXEL_PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de"
    "0000000c4944415478da63f8cfc0000003010100c9fe92ef0000000049454e44ae426082"
)


def _unavailable(reason: str) -> NoReturn:
    """Skip with ``reason``, or fail with it when CI requires the browser."""
    if REQUIRE_BROWSER:
        pytest.fail(f"{reason}; SEMANTIC_CHAT_REQUIRE_BROWSER=1 requires the browser tests to run")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium for the module (launching takes about a second)."""
    try:
        from playwright.sync_api import Error as PlaywrightError
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("playwright is not installed (pip install -e '.[test]')")
    executable = shutil.which("chromium")
    if executable is None:
        _unavailable("no chromium on PATH (Debian: apt-get install chromium)")
    with sync_playwright() as playwright:
        try:
            launched = playwright.chromium.launch(executable_path=executable, timeout=TIMEOUT_MS)
        except PlaywrightError as error:
            _unavailable(f"chromium at {executable} did not start: {error}")
        try:
            yield launched
        finally:
            launched.close()


class Opened:
    """A page opened from a file, with every request it made and every dialog it raised."""

    def __init__(self, page: Any, url: str) -> None:
        self.page = page
        self.url = url
        self.requests: list[str] = []
        self.dialogs: list[str] = []

    def report(self) -> dict[str, Any]:
        """What `DOM_REPORT` finds in the page as the browser built it."""
        result: dict[str, Any] = self.page.evaluate(DOM_REPORT)
        return result

    def foreign_requests(self) -> list[str]:
        """Requests other than the page itself and ``data:`` URLs."""
        return [url for url in self.requests if url != self.url and not url.startswith("data:")]


@pytest.fixture
def open_page(browser: Any, tmp_path: Path) -> Iterator[Any]:
    """Open a page's HTML from a file, logging requests; the pages are closed afterwards."""
    pages: list[Any] = []

    def opener(text: str, *, name: str = "page.html", color_scheme: str = "light") -> Opened:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        page = browser.new_page(color_scheme=color_scheme, viewport={"width": 900, "height": 700})
        page.set_default_timeout(TIMEOUT_MS)
        pages.append(page)
        opened = Opened(page, path.as_uri())
        page.on("request", lambda request: opened.requests.append(request.url))
        page.on("dialog", lambda dialog: (opened.dialogs.append(dialog.message), dialog.dismiss()))
        page.goto(opened.url, wait_until="load")  # "load" waits for every image
        return opened

    yield opener
    for page in pages:
        page.close()


def assert_inert(report: dict[str, Any]) -> None:
    """No script, no event handler and no script URL anywhere in the DOM."""
    assert report["scripts"] == 0
    assert report["handlers"] == []
    assert report["scripted"] == []
    assert report["iframes"] == 0


# --- the bundled example --------------------------------------------------------------------


def test_example_page_blocks_images_audio_and_no_request(open_page: Any) -> None:
    history = example_history()
    opened = open_page(render(history, title="The bundled example"))
    report = opened.report()

    assert report["messages"] == len(history) == 5
    assert report["roles"] == ["system", "user", "assistant", "tool", "assistant"]
    assert report["title"] == "The bundled example"
    # The example's one image, 64 x 48 pixels, decoded from its data: URL.
    assert report["images"] == [
        {"src": "data:image/png;base64,iVBORw0K", "complete": True, "width": 64, "height": 48}
    ]
    assert report["audio"] == [{"controls": True, "src": "data:audio/wav;base64,UklGRqQ+"}]
    assert_inert(report)
    assert opened.foreign_requests() == []
    assert opened.dialogs == []
    # The page's Content-Security-Policy is in force: even a script the page did not write
    # (here, the test's own) cannot fetch, so the request never starts.
    fetched = opened.page.evaluate(
        "fetch('https://example.invalid/x').then(() => 'fetched', (error) => error.name)"
    )
    assert fetched == "TypeError"
    assert opened.foreign_requests() == []


def test_example_audio_clip_loads_in_the_browser(open_page: Any) -> None:
    """The clip is a playable WAV: the browser reads its duration, 8,000 samples at 16 kHz."""
    opened = open_page(render(example_history()))
    opened.page.wait_for_function("document.querySelector('audio').readyState >= 1")
    assert opened.page.evaluate("document.querySelector('audio').duration") == 0.5
    assert opened.page.evaluate("document.querySelector('audio').error") is None


def test_example_text_reads_as_written(open_page: Any) -> None:
    """What a reader sees: the texts, the tool's name and arguments, the model id."""
    opened = open_page(render(example_history()))
    shown = opened.page.inner_text("body")
    for expected in (
        "You are a helpful assistant that can read the weather.",
        "what's the weather in Paris?",
        "get_weather",
        '"city"',
        '"Paris"',
        "18.5",
        "example-model",
        "In Paris it is 18.5 °C under a clear sky.",
    ):
        assert expected in shown, expected


def test_tool_call_and_result_side_by_side_reasoning_folded(open_page: Any) -> None:
    """As laid out: the call and its result in two columns, the reasoning closed until opened."""
    page = open_page(render(example_history())).page
    call = page.locator("details.call").bounding_box()
    result = page.locator(".exchange details.result").bounding_box()
    assert call is not None
    assert result is not None
    assert call["y"] == result["y"]
    assert call["x"] + call["width"] <= result["x"]
    assert page.locator("details.call").get_attribute("open") == ""
    assert page.locator(".exchange details.result").get_attribute("open") == ""

    reasoning = page.locator("details.reasoning")
    thought = reasoning.locator(".text")
    assert reasoning.get_attribute("open") is None
    assert not thought.is_visible()
    reasoning.locator("summary").click()  # the browser's own disclosure, no script
    assert thought.is_visible()
    assert thought.inner_text().startswith("The image is a gradient with a dark square;")


# --- hostile content ------------------------------------------------------------------------

SCRIPT = "<script>alert('script')</script>"
ONERROR = '<img src=x onerror="alert(\'onerror\')">'
JAVASCRIPT_URL = "javascript:alert('url')"


def hostile_history() -> ChatHistory:
    """Every field a page shows, filled with markup and script URLs."""
    history = ChatHistory(system_message=SCRIPT)
    history.add_user_message(
        [
            ONERROR,
            ImageContent(uri=JAVASCRIPT_URL),
            ImageContent(uri=" JaVaScRiPt:alert('spaced')"),
            ImageContent(uri="data:text/html,<script>alert('data')</script>"),
            ImageContent(data=b"<svg xmlns='http://www.w3.org/2000/svg' onload='alert(1)'/>",
                         mime_type="text/html"),
            FileContent(data=b"<script>alert('file')</script>", mime_type="text/html",
                        filename='"><script>alert(\'name\')</script>.html'),
            AudioContent(uri=JAVASCRIPT_URL),
        ],
        name='"><svg onload=alert(1)>',
    )
    history.add_message(
        ChatMessageContent(
            AuthorRole.ASSISTANT,
            items=[
                ReasoningContent(f"{SCRIPT} {ONERROR}"),
                TextContent(f"see {JAVASCRIPT_URL}"),
                FunctionCallContent(
                    "call_<b>1</b>",
                    '<img src=x onerror=alert("name")>',
                    '{"html": "</script><script>alert(\'arguments\')</script>", '
                    '"<key onmouseover=alert(1)>": [1, true, null]}',
                ),
            ],
            model_id="<script>alert('model')</script>",
            finish_reason="<b onclick=alert(1)>stop</b>",
            usage=Usage(1, 2, 3),
        )
    )
    history.add_message(
        ChatMessageContent(
            AuthorRole.TOOL,
            items=[
                FunctionResultContent(
                    "call_<b>1</b>",
                    {"<script>": ONERROR, "url": JAVASCRIPT_URL},
                    name='<img src=x onerror=alert("name")>',
                )
            ],
        )
    )
    history.add_message(ChatMessageContent(AuthorRole.ASSISTANT, items=[RefusalContent(SCRIPT)]))
    return history


def test_hostile_content_stays_text(open_page: Any) -> None:
    history = hostile_history()
    opened = open_page(render(history, title=SCRIPT))
    report = opened.report()

    assert report["messages"] == len(history) == 5
    assert_inert(report)
    assert report["title"] == SCRIPT  # shown as text in the title bar
    # The javascript: and non-image data: sources are refused: no <img>, no <audio> at all.
    assert report["images"] == []
    assert report["audio"] == []
    # The file is a download of a data: URL under its own (hostile) name, as an attribute.
    assert report["downloads"] == [
        {"name": "\"><script>alert('name')</script>.html", "href": "data:text/html;base64,PHNjcmlw"}
    ]
    assert opened.foreign_requests() == []
    assert opened.dialogs == []
    # The markup is there to read, as text.
    shown = opened.page.inner_text("body")
    assert SCRIPT in shown
    assert ONERROR in shown
    assert "<b onclick=alert(1)>stop</b>" in shown


def test_an_https_image_is_a_link_and_the_log_sees_requests(
    open_page: Any, browser: Any, tmp_path: Path
) -> None:
    """An https: image is a link, never loaded; the positive control shows the log works.

    The control is a hand-written page with that image in an ``<img>``: its request is
    answered by a route (a red pixel), so nothing leaves the machine, and the log records it.
    """
    history = ChatHistory()
    history.add_user_message([ImageContent(uri="https://images.invalid/red.png"), "red?"])
    ours = tmp_path / "https.html"
    ours.write_text(render(history), encoding="utf-8")
    control = tmp_path / "control.html"
    control.write_text(
        '<!DOCTYPE html><img src="https://images.invalid/red.png" alt="red">', encoding="utf-8"
    )
    page = browser.new_page()
    try:
        requests: list[str] = []
        page.on("request", lambda request: requests.append(request.url))
        page.route(
            "https://images.invalid/**",
            lambda route: route.fulfill(status=200, content_type="image/png", body=RED_PIXEL_PNG),
        )
        page.goto(ours.as_uri(), wait_until="load", timeout=TIMEOUT_MS)
        assert [url for url in requests if url != ours.as_uri()] == []
        assert page.evaluate("document.images.length") == 0
        assert page.get_attribute("a[href]", "href") == "https://images.invalid/red.png"
        requests.clear()
        page.goto(control.as_uri(), wait_until="load", timeout=TIMEOUT_MS)
        assert [url for url in requests if url != control.as_uri()] == [
            "https://images.invalid/red.png"
        ]
        assert page.evaluate("Array.from(document.images, (image) => image.naturalWidth)") == [1]
    finally:
        page.close()


# Pieces of markup and script that content is made of; hypothesis strings them together with
# ordinary text. No newline or control character: the check reads the text back from the DOM.
HOSTILE_PIECES = st.sampled_from(
    [
        "<script>", "</script>", "<img src=x onerror=alert(1)>", "javascript:alert(1)", '"', "'",
        "<", ">", "&", "&amp;", "&lt;script&gt;", "<!--", "-->", "<![CDATA[", "]]>",
        "<style>", "</style>", "<svg/onload=alert(1)>", "</section>", "</details>", "<a href=",
        " onmouseover=", "=", "`", "\u2028", "é", "😀",
    ]
)
HOSTILE_TEXT = st.lists(
    st.one_of(HOSTILE_PIECES, st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E))),
    min_size=1,
    max_size=8,
).map("".join)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=HOSTILE_TEXT, name=HOSTILE_TEXT, arguments=HOSTILE_TEXT, uri=HOSTILE_TEXT)
def test_any_content_builds_an_inert_dom(
    browser: Any, text: str, name: str, arguments: str, uri: str
) -> None:
    """Whatever the strings, the browser builds no script, no handler and makes no request."""
    history = ChatHistory()
    history.add_user_message([text, ImageContent(uri=uri)], name=name)
    history.add_message(
        ChatMessageContent(
            AuthorRole.ASSISTANT,
            items=[FunctionCallContent("call_1", name, arguments)],
            model_id=text,
        )
    )
    page = browser.new_page()
    try:
        requests: list[str] = []
        page.on("request", lambda request: requests.append(request.url))
        page.set_content(render(history, title=text), timeout=TIMEOUT_MS)
        report = page.evaluate(DOM_REPORT)
        assert report["messages"] == 2
        assert_inert(report)
        assert [url for url in requests if not url.startswith("data:")] == []
        # The text is in the page as text (the parser keeps it character for character).
        assert text.strip() in page.evaluate("document.body.textContent")
    finally:
        page.close()


# --- themes, print, notebooks ---------------------------------------------------------------

COLOURS = """() => {
    const body = getComputedStyle(document.body);
    const section = getComputedStyle(document.querySelector("section.message"));
    return [body.backgroundColor, body.color, section.backgroundColor, section.color];
}"""


def _rgb(value: str) -> tuple[int, int, int]:
    """``rgb(r, g, b)`` or ``rgba(r, g, b, a)`` as a tuple of the three channels."""
    channels = re.match(r"rgba?\((\d+), (\d+), (\d+)", value)
    assert channels is not None, value
    red, green, blue = (int(channel) for channel in channels.groups())
    return red, green, blue


def _luminance(value: str) -> float:
    red, green, blue = _rgb(value)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def test_auto_theme_follows_the_reader_and_forced_themes_do_not(open_page: Any) -> None:
    history = example_history()
    auto = render(history)
    light = render(history, theme="light")
    dark = render(history, theme="dark")

    colours = {
        (theme, scheme): open_page(page, name=f"{theme}-{scheme}.html", color_scheme=scheme)
        .page.evaluate(COLOURS)
        for theme, page in (("auto", auto), ("light", light), ("dark", dark))
        for scheme in ("light", "dark")
    }
    # A forced theme is the same whatever the reader prefers; auto follows the preference.
    assert colours["light", "light"] == colours["light", "dark"] == colours["auto", "light"]
    assert colours["dark", "light"] == colours["dark", "dark"] == colours["auto", "dark"]
    # Light is dark text on a light page, dark the reverse.
    light_body, light_text = colours["light", "light"][:2]
    dark_body, dark_text = colours["dark", "dark"][:2]
    assert _luminance(light_body) > 200 > 60 > _luminance(light_text)
    assert _luminance(dark_body) < 60 < 200 < _luminance(dark_text)


def test_page_prints(open_page: Any) -> None:
    """The print stylesheet applies: no player on paper, the reasoning unfolded, light colours.

    And Chromium prints the page to PDF without a request.
    """
    light = open_page(render(example_history(), theme="light"), name="light.html")
    light.page.emulate_media(media="print")
    printed_light = light.page.evaluate(COLOURS)

    opened = open_page(render(example_history(), theme="dark"), name="dark.html")
    audio = opened.page.locator("audio")
    reasoning = opened.page.locator("details.reasoning .text")
    assert audio.is_visible()
    assert not reasoning.is_visible()
    screen_dark = opened.page.evaluate(COLOURS)

    opened.page.emulate_media(media="print")
    assert not audio.is_visible()
    assert reasoning.is_visible()  # folded on screen, on paper it is there to read
    assert opened.page.locator("section.message").count() == 5
    assert opened.page.evaluate(COLOURS) == printed_light != screen_dark
    pdf = opened.page.pdf(format="A4")
    assert pdf.startswith(b"%PDF-")
    assert opened.foreign_requests() == []


def test_notebook_fragments_are_inert(browser: Any) -> None:
    """What Jupyter inserts into its own page: the history's and a message's ``_repr_html_``."""
    history = hostile_history()
    page = browser.new_page()
    try:
        requests: list[str] = []
        page.on("request", lambda request: requests.append(request.url))
        fragments = [history._repr_html_(), history.messages[1]._repr_html_()]
        page.set_content(
            "<!DOCTYPE html><html><body>"
            + "".join(f"<div class='output'>{fragment}</div>" for fragment in fragments)
            + "</body></html>",
            timeout=TIMEOUT_MS,
        )
        report = page.evaluate(DOM_REPORT)
        assert report["messages"] == len(history) + 1
        assert_inert(report)
        assert [url for url in requests if not url.startswith("data:")] == []
    finally:
        page.close()


def test_long_history_shows_every_message(open_page: Any) -> None:
    history = ChatHistory(system_message="Count with me.")
    for number in range(1, 301):
        history.add_user_message(f"{number}?")
        history.add_assistant_message(f"{number}.", model_id="counter")
    report = open_page(render(history)).report()
    assert report["messages"] == 601
    assert report["roles"] == ["system"] + ["user", "assistant"] * 300


# --- screenshots ----------------------------------------------------------------------------


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_example_screenshot(open_page: Any, tmp_path: Path, theme: str) -> None:
    """A full-page screenshot of the example in each theme; the page's own background shows."""
    from PIL import Image

    opened = open_page(render(example_history(), theme=theme), name=f"example-{theme}.html")
    # The player draws its clip's length once it has read it: wait, so every shot is the same.
    opened.page.wait_for_function("document.querySelector('audio').readyState >= 1")
    png = opened.page.screenshot(full_page=True, path=str(tmp_path / f"example-{theme}.png"))
    with Image.open(io.BytesIO(png)) as image:
        assert image.width == 900
        assert image.height >= 700
        corner = image.convert("RGB").getpixel((1, 1))
    assert corner == _rgb(opened.page.evaluate(COLOURS)[0])
    if UPDATE_SCREENSHOTS:
        SCREENSHOTS_DIR.mkdir(parents=True, exist_ok=True)
        (SCREENSHOTS_DIR / f"example-{theme}.png").write_bytes(png)


def test_example_image_is_the_one_rendered(open_page: Any) -> None:
    """The pixels the browser decoded are the example's own (its dark square, its gradient)."""
    opened = open_page(render(example_history()))
    pixels = opened.page.evaluate(
        """() => {
            const image = document.images[0];
            const canvas = document.createElement("canvas");
            canvas.width = image.naturalWidth;
            canvas.height = image.naturalHeight;
            const context = canvas.getContext("2d");
            context.drawImage(image, 0, 0);
            const at = (x, y) => Array.from(context.getImageData(x, y, 1, 1).data.slice(0, 3));
            return [at(0, 0), at(32, 24), at(63, 47)];
        }"""
    )
    expected = example_image()
    assert pixels == [
        [int(channel) for channel in expected[0, 0]],
        [int(channel) for channel in expected[24, 32]],
        [int(channel) for channel in expected[47, 63]],
    ]
