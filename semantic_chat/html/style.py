"""The CSS of pages and notebook output, and the content security policy of a page.

Colours are CSS variables: a light and a dark set, chosen by the theme (`semantic_chat.html`'s
``theme``) or by the reader's ``prefers-color-scheme``; printing always takes the light set.
Every rule sits under ``.semantic-chat``, so notebook output leaves the notebook's page alone.
"""

from __future__ import annotations

__all__ = ["POLICY", "page_css", "scoped_css"]

# no script, no fetch, nothing from elsewhere: images and audio only from the page itself (data:)
POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; media-src data:"

_LIGHT = (
    "--bg:#ffffff;--fg:#1f2328;--muted:#656d76;--card:#f6f8fa;--line:#d0d7de;"
    "--accent:#0969da;--user:#1a7f37;--assistant:#0969da;--system:#8250df;--tool:#9a6700;"
    "--error:#cf222e;--j-key:#0550ae;--j-str:#116329;--j-num:#953800;--j-lit:#8250df;"
    "color-scheme:light;"
)
_DARK = (
    "--bg:#0d1117;--fg:#e6edf3;--muted:#8d96a0;--card:#161b22;--line:#30363d;"
    "--accent:#4493f8;--user:#3fb950;--assistant:#4493f8;--system:#ab7df8;--tool:#d29922;"
    "--error:#f85149;--j-key:#79c0ff;--j-str:#7ee787;--j-num:#ffa657;--j-lit:#d2a8ff;"
    "color-scheme:dark;"
)

_RULES = """\
{s}{{background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,-apple-system,"Segoe UI",\
sans-serif}}
{s} h1{{font-size:1.4em;margin:0 0 .2em}}
{s} .summary,{s} .note,{s} .where,{s} figcaption,{s} footer{{color:var(--muted);font-size:.87em}}
{s} .message{{border:1px solid var(--line);border-left:4px solid var(--role,var(--line));\
border-radius:6px;margin:.8em 0;padding:.5em .9em;background:var(--bg)}}
{s} .message[data-role=user]{{--role:var(--user)}}
{s} .message[data-role=assistant]{{--role:var(--assistant)}}
{s} .message[data-role=system],{s} .message[data-role=developer]{{--role:var(--system)}}
{s} .message[data-role=tool],{s} .message[data-role=function]{{--role:var(--tool)}}
{s} header{{margin-bottom:.3em}}
{s} .role{{font-weight:700;color:var(--role,var(--fg))}}
{s} .name{{font-weight:600}}
{s} .model,{s} .id{{font:.82em ui-monospace,SFMono-Regular,Menlo,monospace;color:var(--muted);\
background:var(--card);border-radius:4px;padding:0 .35em}}
{s} .item{{margin:.35em 0}}
{s} .text{{white-space:pre-wrap;overflow-wrap:anywhere}}
{s} .tag{{font-size:.78em;font-weight:600;text-transform:uppercase;letter-spacing:.04em;\
color:var(--muted)}}
{s} .refusal{{color:var(--error);white-space:pre-wrap}}
{s} .refusal .tag,{s} .result.error>summary .tag{{color:var(--error)}}
{s} details{{background:var(--card);border:1px solid var(--line);border-radius:6px;\
padding:.3em .6em}}
{s} summary{{cursor:pointer}}
{s} .reasoning{{color:var(--muted);font-style:italic}}
{s} .exchange{{display:grid;grid-template-columns:repeat(auto-fit,minmax(16em,1fr));gap:.5em;\
align-items:start}}
{s} .function{{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-weight:600}}
{s} pre{{margin:.3em 0 0;white-space:pre-wrap;overflow-wrap:anywhere;\
font:.85em/1.45 ui-monospace,SFMono-Regular,Menlo,monospace}}
{s} .j-key{{color:var(--j-key)}}
{s} .j-str{{color:var(--j-str)}}
{s} .j-num{{color:var(--j-num)}}
{s} .j-lit,{s} .j-other{{color:var(--j-lit)}}
{s} figure{{margin:.4em 0}}
{s} img{{display:block;max-width:min(100%,32em);min-width:8em;height:auto;\
border:1px solid var(--line);border-radius:4px;image-rendering:pixelated}}
{s} audio{{display:block;max-width:100%}}
{s} .transcript{{margin:.3em 0;white-space:pre-wrap}}
{s} a{{color:var(--accent)}}
{s} .cite{{color:var(--accent);font-size:.75em}}
{s} .citations{{font-size:.87em;margin:.3em 0;padding-left:1.6em}}
{s} footer{{border-top:1px solid var(--line);margin-top:.4em;padding-top:.2em}}
"""

_PRINT = """\
@media print{{
{s}{{font-size:11pt}}
{s} .message{{break-inside:avoid}}
{s} details{{border-style:dashed}}
{s} .reasoning::details-content{{content-visibility:visible}}
{s} audio{{display:none}}
}}
"""


def page_css(theme: str) -> str:
    """The CSS of a whole page in ``theme`` (``"auto"``, ``"light"`` or ``"dark"``)."""
    scope = ".semantic-chat"
    colours = {"light": _LIGHT, "dark": _DARK, "auto": _LIGHT}[theme]
    css = f":root,{scope}{{{colours}}}\n"
    if theme == "auto":
        css += f"@media (prefers-color-scheme:dark){{:root,{scope}{{{_DARK}}}}}\n"
    css += f"@media print{{:root,{scope}{{{_LIGHT}}}}}\n"
    css += "body{margin:0}\nmain{max-width:56em;margin:0 auto;padding:1.2em}\n"
    return css + _RULES.format(s=scope) + _PRINT.format(s=scope)


def scoped_css() -> str:
    """The notebook's CSS: every rule under ``.semantic-chat``, colours following the system."""
    scope = ".semantic-chat"
    return (
        f"{scope}{{{_LIGHT}padding:.2em 0}}\n"
        f"@media (prefers-color-scheme:dark){{{scope}{{{_DARK}}}}}\n"
        + _RULES.format(s=scope) + _PRINT.format(s=scope)
    )

