"""The error tree: bases, attributes, message format and relocation with `at`."""

import builtins
import re

import pytest

import semantic_chat
from semantic_chat import (
    FunctionArgumentsError,
    InvalidTypeError,
    InvalidValueError,
    RegistrationError,
    SemanticChatError,
    SerializationError,
    StreamMergeError,
    UnknownContentTypeError,
    UnsupportedVersionError,
    errors,
)
from semantic_chat.errors import describe_type

_TREE_LINE = re.compile(r"^([ │]*(?:[├└]── )?)([A-Z]\w*Error)\b(?: \((\w+)\))?")


def _drawn_tree() -> list[tuple[str, str | None, str | None]]:
    """(class name, parent name, builtin name) for each line of the tree in the docstring."""
    rows: list[tuple[str, str | None, str | None]] = []
    stack: list[tuple[int, str, str | None]] = []  # (column, name, builtin)
    for line in (errors.__doc__ or "").splitlines():
        found = _TREE_LINE.match(line)
        if not found:
            continue
        column, name = len(found.group(1)), found.group(2)
        while stack and stack[-1][0] >= column:
            stack.pop()
        parent, inherited = (stack[-1][1], stack[-1][2]) if stack else (None, None)
        builtin = found.group(3) or inherited
        rows.append((name, parent, builtin))
        stack.append((column, name, builtin))
    return rows


TREE = _drawn_tree()
ALL_ERRORS = [getattr(errors, name) for name, _, _ in TREE]
BRANCHES = [row for row in TREE if row[1] is not None]


def test_docstring_draws_a_tree_rooted_at_the_base():
    assert TREE[0] == ("SemanticChatError", None, None)
    assert {"InvalidValueError", "InvalidTypeError", "RegistrationError"} <= {
        name for name, _, _ in TREE
    }


def test_tree_lists_exactly_the_errors_the_module_exports():
    exported = {name for name in errors.__all__ if name.endswith("Error")}
    assert exported == {name for name, _, _ in TREE}


@pytest.mark.parametrize(("name", "parent", "builtin"), BRANCHES)
def test_error_subclasses_its_parent_in_the_drawn_tree(name, parent, builtin):
    cls = getattr(errors, name)
    assert getattr(errors, parent) in cls.__bases__
    assert issubclass(cls, SemanticChatError)


@pytest.mark.parametrize(("name", "parent", "builtin"), BRANCHES)
def test_error_subclasses_the_builtin_named_in_the_tree(name, parent, builtin):
    cls = getattr(errors, name)
    assert builtin in ("ValueError", "TypeError", "RuntimeError")
    assert issubclass(cls, getattr(builtins, builtin))
    for other in {ValueError, TypeError, RuntimeError} - {getattr(builtins, builtin)}:
        assert not issubclass(cls, other)


def test_a_provider_error_carries_the_providers_kind_and_message():
    error = errors.ProviderError("overloaded_error: Overloaded", error_type="overloaded_error")
    assert isinstance(error, RuntimeError)
    assert (str(error), error.error_type) == ("overloaded_error: Overloaded", "overloaded_error")
    moved = error.at("events[3]")
    assert (str(moved), moved.error_type) == (
        "events[3]: overloaded_error: Overloaded", "overloaded_error"
    )
    assert error.with_path("stream").error_type == "overloaded_error"


def test_well_known_errors_are_where_the_tree_puts_them():
    assert issubclass(InvalidValueError, ValueError)
    assert issubclass(InvalidTypeError, TypeError)
    assert issubclass(RegistrationError, InvalidTypeError)
    assert issubclass(FunctionArgumentsError, InvalidValueError)
    assert issubclass(UnknownContentTypeError, SerializationError)
    assert issubclass(UnsupportedVersionError, SerializationError)
    assert issubclass(StreamMergeError, InvalidValueError)


def test_base_is_an_exception():
    assert issubclass(SemanticChatError, Exception)
    assert not issubclass(SemanticChatError, (ValueError, TypeError))


@pytest.mark.parametrize("cls", ALL_ERRORS)
def test_every_error_is_exported_at_top_level(cls):
    assert getattr(semantic_chat, cls.__name__) is cls


@pytest.mark.parametrize("cls", ALL_ERRORS)
def test_message_is_path_colon_detail(cls):
    error = cls("expected a str, got int", path="messages[3].items[1].data")
    assert str(error) == "messages[3].items[1].data: expected a str, got int"


def test_message_without_path_is_the_detail():
    assert str(InvalidValueError("something is wrong")) == "something is wrong"


def test_attributes_default_to_empty_path_and_none():
    error = InvalidValueError("bad")
    assert (error.path, error.expected, error.got, error.detail) == ("", None, None, "bad")


def test_attributes_are_kept():
    error = InvalidTypeError("detail", path="items[0]", expected="an item", got="int")
    assert (error.path, error.expected, error.got, error.detail) == (
        "items[0]",
        "an item",
        "int",
        "detail",
    )


def test_args_hold_the_message():
    assert InvalidValueError("bad", path="x").args == ("x: bad",)


@pytest.mark.parametrize("cls", ALL_ERRORS)
def test_mismatch_builds_the_standard_wording(cls):
    error = cls.mismatch("messages[2]", "a ChatMessageContent", "int")
    assert type(error) is cls
    assert str(error) == "messages[2]: expected a ChatMessageContent, got int"
    assert (error.path, error.expected, error.got) == ("messages[2]", "a ChatMessageContent", "int")


def test_errors_can_be_raised_and_caught_as_builtins():
    with pytest.raises(ValueError, match=r"^x: bad$"):
        raise FunctionArgumentsError("bad", path="x")
    with pytest.raises(TypeError, match=r"^x: bad$"):
        raise RegistrationError("bad", path="x")


# --- at -------------------------------------------------------------------------------------


def test_at_joins_paths_with_a_dot():
    error = InvalidValueError("expected bytes, got str", path="items[0].data")
    moved = error.at("messages[2]")
    assert moved.path == "messages[2].items[0].data"
    assert str(moved) == "messages[2].items[0].data: expected bytes, got str"


def test_at_joins_an_index_path_without_a_dot():
    moved = InvalidTypeError("bad", path="[1]").at("messages[2].items")
    assert moved.path == "messages[2].items[1]"


def test_at_on_an_error_without_path_uses_the_prefix():
    moved = InvalidValueError("bad").at("messages[0]")
    assert moved.path == "messages[0]"
    assert str(moved) == "messages[0]: bad"


def test_at_with_empty_prefix_returns_the_same_error():
    error = InvalidValueError("bad", path="x")
    assert error.at("") is error


@pytest.mark.parametrize("cls", ALL_ERRORS)
def test_at_keeps_class_detail_expected_and_got(cls):
    error = cls("expected bytes, got str", path="data", expected="bytes", got="str")
    moved = error.at("items[0]")
    assert type(moved) is cls
    assert (moved.detail, moved.expected, moved.got) == ("expected bytes, got str", "bytes", "str")


def test_at_does_not_change_the_original():
    error = InvalidValueError("bad", path="data")
    error.at("items[0]")
    assert error.path == "data"


def test_at_chains():
    error = InvalidValueError("bad", path="data").at("items[0]").at("messages[2]")
    assert error.path == "messages[2].items[0].data"


# --- describe_type --------------------------------------------------------------------------


class _Local:
    pass


@pytest.mark.parametrize(
    ("value", "name"),
    [
        (3, "int"),
        (None, "NoneType"),
        (b"", "bytes"),
        (semantic_chat.TextContent("x"), "TextContent"),
        (_Local(), "_Local"),
    ],
)
def test_describe_type(value, name):
    assert describe_type(value) == name
