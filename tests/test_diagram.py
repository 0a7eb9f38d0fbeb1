"""The content-hierarchy diagrams: their content, and that the committed ones are current."""

import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from semantic_chat.contents.base import CONTENT_TYPES
from semantic_chat.diagram import dot, main, mermaid

DIAGRAMS = Path(__file__).parents[1] / "diagrams"
PLUGIN = "diagram_test_video_plugin"


def test_committed_diagrams_are_current(capsys: pytest.CaptureFixture[str]) -> None:
    # Fails when the model changed without `python -m semantic_chat.diagram` being run.
    code = main(["--check", "--output-dir", str(DIAGRAMS)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "diagrams are up to date" in captured.out


def test_mermaid_draws_content_classes_with_label_and_own_fields() -> None:
    lines = mermaid().splitlines()
    assert lines[0] == "classDiagram"
    start = lines.index("    class TextContent {")
    assert lines[start : start + 5] == [
        "    class TextContent {",
        "        <<text>>",
        "        +text: str",
        "        +citations: tuple[Citation, ...]",
        "    }",
    ]
    binary = lines[lines.index("    class BinaryContent {") :]
    assert binary[1] == "        <<binary>>"
    assert binary[2].startswith("        +data: ")  # the private `_data` by its alias
    assert "        +metadata: dict[str, Any]" not in binary[: binary.index("    }")]


def test_mermaid_draws_inheritance_and_composition() -> None:
    lines = set(mermaid().splitlines())
    assert {
        "    KernelContent <|-- TextContent",
        "    KernelContent <|-- BinaryContent",
        "    BinaryContent <|-- ImageContent",
        "    ChatHistory *-- ChatMessageContent : messages",
        "    ChatMessageContent *-- ChatMessageContentItemCollection : items",
        "    ChatMessageContentItemCollection *-- KernelContent : 0..*",
        "    ChatMessageContent --> AuthorRole : role",
        "    KernelContent --> ContentType : content_type",
    } <= lines


def test_labels_list_their_well_known_values() -> None:
    text = mermaid()
    assert "    class AuthorRole {\n        <<label>>\n        system\n" in text
    for value in ("assistant", "tool", "function_call", "content_filter", "tool_calls"):
        assert f"\n        {value}\n" in text


def test_output_is_deterministic() -> None:
    assert mermaid() == mermaid()
    assert dot() == dot()
    assert " at 0x" not in dot()
    assert "digraph content_hierarchy {" in dot()
    assert "arrowtail=empty" in dot()
    assert "arrowtail=diamond" in dot()


@pytest.fixture
def plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    (tmp_path / f"{PLUGIN}.py").write_text(
        textwrap.dedent(
            """
            from __future__ import annotations

            from typing import ClassVar

            import attrs

            from semantic_chat import BinaryContent, ContentType


            @attrs.define(slots=True, weakref_slot=False)
            class VideoContent(BinaryContent):
                content_type: ClassVar[ContentType] = ContentType("video")

                duration: float | None = None
            """
        )
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    yield PLUGIN
    CONTENT_TYPES.unregister("video")
    sys.modules.pop(PLUGIN, None)


def test_include_draws_a_plugins_classes(plugin: str) -> None:
    text = mermaid(include=[plugin])
    assert "    class VideoContent {\n        <<video>>\n        +duration: float | None\n" in text
    assert "    BinaryContent <|-- VideoContent" in text.splitlines()
    assert "VideoContent" in dot(include=[plugin])


def test_classes_registered_elsewhere_are_left_out(plugin: str) -> None:
    before = mermaid()
    __import__(plugin)
    assert "video" in CONTENT_TYPES
    assert mermaid() == before


def test_main_include_writes_the_plugin(plugin: str, tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert main(["--include", plugin, "--output-dir", str(out)]) == 0
    assert "VideoContent" in (out / "content-hierarchy.mmd").read_text()
    assert main(["--check", "--include", plugin, "--output-dir", str(out)]) == 0
    assert main(["--check", "--output-dir", str(out)]) == 1


def test_check_names_a_stale_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--output-dir", str(tmp_path)]) == 0
    readme = (tmp_path / "README.md").read_text()
    assert "```mermaid\n" + mermaid() + "```\n" in readme
    assert "(content-hierarchy.svg)" in readme
    assert main(["--check", "--output-dir", str(tmp_path)]) == 0
    capsys.readouterr()

    dot_file = tmp_path / "content-hierarchy.dot"
    dot_file.write_text(dot_file.read_text().replace("text: str", "text: bytes"))
    assert main(["--check", "--output-dir", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert f"content-hierarchy.dot is stale: run python -m semantic_chat.diagram -o {tmp_path}" in err
    assert "content-hierarchy.mmd" not in err

    (tmp_path / "content-hierarchy.mmd").unlink()
    assert main(["--check", "--output-dir", str(tmp_path)]) == 1
    assert "content-hierarchy.mmd is missing" in capsys.readouterr().err


def test_without_a_folder_it_prints_the_mermaid_diagram_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main([]) == 0
    assert capsys.readouterr().out == mermaid()
    assert list(tmp_path.iterdir()) == []


def test_check_without_a_folder_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--check"])
    assert info.value.code == 2
    assert "--check needs -o DIR, the folder of the diagrams to compare" in capsys.readouterr().err
