"""The public face (complete, sorted ``__all__`` everywhere) and the direction of imports."""

import ast
import importlib
import pkgutil
import re
import subprocess
import sys
from collections.abc import MutableSequence
from pathlib import Path
from types import ModuleType

import attrs
import pytest

import semantic_chat
from semantic_chat import Label, SemanticChatError

PACKAGE_DIR = Path(semantic_chat.__file__).parent

# Modules with faces of their own (or still being written): not re-exported at the top level.
NOT_REEXPORTED = (
    "formats", "media", "serialization", "cli", "diagram", "streaming", "history_ops", "tools"
)
MODEL_MODULES = ("labels", "contents", "collection", "coercion", "message", "usage", "history")


def _is_exempt(name: str) -> bool:
    parts = name.split(".")
    return len(parts) > 1 and parts[1] in NOT_REEXPORTED


def _modules() -> list[ModuleType]:
    modules = [semantic_chat]
    for info in pkgutil.walk_packages(
        semantic_chat.__path__, "semantic_chat.", onerror=lambda name: None
    ):
        if info.name.rpartition(".")[2] == "__main__":
            continue  # importing it would run the program
        try:
            modules.append(importlib.import_module(info.name))
        except ImportError:
            if not _is_exempt(info.name):
                raise
    return modules


MODULES = _modules()
MODULE_IDS = [module.__name__ for module in MODULES]


def _is_model_class(value: object) -> bool:
    return isinstance(value, type) and (
        attrs.has(value) or issubclass(value, (Label, SemanticChatError, MutableSequence))
    )


# --- __all__ --------------------------------------------------------------------------------


def _isort_style_key(name: str) -> tuple[int, list[object]]:
    """The order ruff's RUF022 keeps ``__all__`` in (this project's lint enforces it).

    SCREAMING_SNAKE_CASE constants first, then CamelCase classes, then the rest; each group
    in natural, case-sensitive order. Plain ``sorted()`` would put ``AudioContent`` before
    ``CONTENT_TYPES`` and fail the lint.
    """
    group = 0 if len(name) > 1 and name.isupper() else 1 if name[:1].isupper() else 2
    natural = [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]
    return group, natural


def test_top_level_all_is_sorted():
    assert semantic_chat.__all__ == sorted(semantic_chat.__all__, key=_isort_style_key)


def test_top_level_all_has_no_duplicates():
    assert len(semantic_chat.__all__) == len(set(semantic_chat.__all__))


@pytest.mark.parametrize("module", MODULES, ids=MODULE_IDS)
def test_every_module_has_an_all(module):
    assert isinstance(getattr(module, "__all__", None), list)


@pytest.mark.parametrize("module", MODULES, ids=MODULE_IDS)
def test_every_name_in_all_exists(module):
    missing = [name for name in getattr(module, "__all__", []) if not hasattr(module, name)]
    assert missing == []


def _public_model_classes() -> dict[str, tuple[str, type]]:
    found: dict[str, tuple[str, type]] = {}
    for module in MODULES:
        if module is semantic_chat or _is_exempt(module.__name__):
            continue
        for name in getattr(module, "__all__", []):
            value = getattr(module, name, None)
            if _is_model_class(value):
                found[name] = (module.__name__, value)
    return found


def test_the_walk_finds_the_model():
    found = _public_model_classes()
    for name in ("TextContent", "ChatMessageContent", "ChatHistory", "AuthorRole", "Usage",
                 "ChatMessageContentItemCollection", "InvalidValueError"):
        assert name in found


@pytest.mark.parametrize("name", sorted(_public_model_classes()))
def test_every_public_model_class_is_exported_at_top_level(name):
    assert name in semantic_chat.__all__


def test_top_level_exports_are_the_defining_modules_objects():
    for name, (module, value) in _public_model_classes().items():
        assert getattr(semantic_chat, name, None) is value, f"{module}.{name}"


def test_registries_are_exported():
    assert {"CONTENT_TYPES", "MESSAGE_TYPES"} <= set(semantic_chat.__all__)


def test_version_is_a_string():
    assert isinstance(semantic_chat.__version__, str)


# --- import direction -----------------------------------------------------------------------


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE_DIR.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> set[str]:
    """Absolute names of every module ``path`` imports (anywhere in the file, relative resolved).

    ``from pkg import name`` yields both ``pkg`` and ``pkg.name``, since ``name`` may be a module.
    """
    module = _module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                base = f"{base}.{node.module}" if node.module else base
            else:
                base = node.module or ""
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def _internal_imports(path: Path) -> set[str]:
    return {name for name in _imports(path) if name.split(".")[0] == "semantic_chat"}


def _sources(relative: str) -> list[Path]:
    target = PACKAGE_DIR / relative
    return sorted(target.rglob("*.py")) if target.is_dir() else [target.with_suffix(".py")]


def _reaching(paths: list[Path], forbidden: tuple[str, ...]) -> list[str]:
    bad = []
    for path in paths:
        for name in sorted(_internal_imports(path)):
            for target in forbidden:
                full = f"semantic_chat.{target}"
                if name == full or name.startswith(full + "."):
                    bad.append(f"{_module_name(path)} imports {name}")
    return bad


def test_import_resolver_handles_relative_imports():
    found = _internal_imports(PACKAGE_DIR / "contents" / "binary.py")
    assert "semantic_chat.media" in found
    assert "semantic_chat.contents.base" in found
    assert "semantic_chat.errors.InvalidTypeError" in found


def test_media_imports_nothing_of_the_package_but_errors():
    """`media` knows no content class: outside itself it imports only `semantic_chat.errors`.

    That one import is allowed so that `parse_data_uri` raises the library's located errors;
    `errors` is a leaf (it imports nothing of the package), so `media` stays one too.
    """
    allowed = ("semantic_chat.media", "semantic_chat.errors")
    bad = [
        f"{_module_name(path)} imports {name}"
        for path in _sources("media")
        for name in sorted(_internal_imports(path))
        if not any(name == prefix or name.startswith(prefix + ".") for prefix in allowed)
    ]
    assert bad == []
    assert _internal_imports(PACKAGE_DIR / "errors.py") == set()


def test_labels_import_only_errors():
    internal = _internal_imports(PACKAGE_DIR / "labels.py")
    assert "semantic_chat.errors" in internal
    assert [name for name in internal if not name.startswith("semantic_chat.errors")] == []


def test_errors_import_nothing_of_the_package():
    assert _internal_imports(PACKAGE_DIR / "errors.py") == set()


def test_contents_do_not_import_messages_or_anything_above():
    forbidden = ("message", "history", "streaming", "serialization", "formats", "collection")
    assert _reaching(_sources("contents"), forbidden) == []


def test_message_does_not_import_history_or_anything_above():
    forbidden = ("history", "streaming", "serialization", "formats")
    assert _reaching(_sources("message"), forbidden) == []


# The one exception to the direction of imports: `ChatHistory.save` and `ChatHistory.load`
# import `semantic_chat.serialization` inside themselves, when they are called. They are a
# convenience for users (a history to and from a file in one call); the model's classes do not
# depend on serialization otherwise, and importing the model does not import it.
LAZY_IMPORTS = {"history": ("serialization", ("ChatHistory.save", "ChatHistory.load"))}


@pytest.mark.parametrize("module", MODEL_MODULES)
def test_model_modules_do_not_import_serialization_or_formats(module):
    bad = _reaching(_sources(module), ("serialization", "formats", "jsoncodec"))
    if module in LAZY_IMPORTS:
        lazy, _ = LAZY_IMPORTS[module]
        allowed = f"semantic_chat.{module} imports semantic_chat.{lazy}"
        bad = [line for line in bad if line != allowed]
    assert bad == []


def _functions(tree: ast.Module, names: tuple[str, ...]) -> list[ast.AST]:
    found = []
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            for member in node.body:
                if isinstance(member, ast.FunctionDef) and f"{node.name}.{member.name}" in names:
                    found.append(member)
    return found


@pytest.mark.parametrize("module", sorted(LAZY_IMPORTS))
def test_lazy_imports_sit_only_inside_their_methods(module):
    lazy, methods = LAZY_IMPORTS[module]
    tree = ast.parse(_sources(module)[0].read_text(encoding="utf-8"))
    inside = {id(node) for function in _functions(tree, methods) for node in ast.walk(function)}
    reaching = [
        node
        for node in ast.walk(tree)
        if isinstance(node, (ast.Import, ast.ImportFrom))
        and any(lazy in name.split(".") for name in
                [getattr(node, "module", None) or "", *(alias.name for alias in node.names)])
    ]
    assert len(reaching) == len(methods)
    assert all(id(node) in inside for node in reaching)


def test_importing_the_model_does_not_import_serialization():
    code = (
        "import sys, semantic_chat\n"
        "print(sorted(m for m in sys.modules\n"
        "             if m.startswith(('semantic_chat.serialization', 'semantic_chat.atomic'))))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    assert result.stdout == "[]\n"


def test_history_does_not_import_streaming():
    assert _reaching(_sources("history"), ("streaming",)) == []


# `ChatMessageContent.call_tools` and `ChatHistory.call_tools` (and their async forms and ell's
# alias) run `semantic_chat.tools.collect`, which sits above the model: they import it inside
# themselves, and name `ToolSet` for the type checker alone.
TOOLS_METHODS = {
    "message": ("ChatMessageContent.call_tools", "ChatMessageContent.acall_tools"),
    "history": ("ChatHistory.call_tools", "ChatHistory.acall_tools"),
}


@pytest.mark.parametrize("module", sorted(TOOLS_METHODS))
def test_the_model_imports_tools_only_inside_its_call_tools_methods(module):
    tree = ast.parse(_sources(module)[0].read_text(encoding="utf-8"))
    methods = [
        member
        for node in tree.body if isinstance(node, ast.ClassDef)
        for member in node.body
        if isinstance(member, (ast.FunctionDef, ast.AsyncFunctionDef))
        and f"{node.name}.{member.name}" in TOOLS_METHODS[module]
    ]
    type_checking = [
        node for node in tree.body
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"
    ]
    allowed = {id(node) for place in [*methods, *type_checking] for node in ast.walk(place)}
    reaching = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "tools"
    ]
    assert len(methods) == 2
    assert len(reaching) == 3  # one in each method, and ToolSet for the type checker
    assert all(id(node) in allowed for node in reaching)
