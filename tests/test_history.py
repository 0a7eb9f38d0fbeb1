"""ChatHistory: a checked MutableSequence of messages with add_* builders."""

from collections.abc import MutableSequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import histories

from semantic_chat import (
    AuthorRole,
    ChatHistory,
    ChatMessageContent,
    FunctionResultContent,
    ImageContent,
    InvalidTypeError,
    InvalidValueError,
    TextContent,
)

PNG = b"\x89PNG\r\n\x1a\n" + bytes(16)


def _user(text: str) -> ChatMessageContent:
    return ChatMessageContent("user", text)


def _history(*texts: str) -> ChatHistory:
    return ChatHistory([_user(text) for text in texts])


# --- construction ---------------------------------------------------------------------------


def test_empty_by_default():
    history = ChatHistory()
    assert len(history) == 0
    assert history.messages == []


def test_system_message_comes_first():
    history = ChatHistory([_user("hi")], system_message="Be brief.")
    assert history.messages == [ChatMessageContent(AuthorRole.SYSTEM, "Be brief."), _user("hi")]


def test_system_message_alone():
    assert ChatHistory(system_message="Be brief.") == [
        ChatMessageContent(AuthorRole.SYSTEM, "Be brief.")
    ]


def test_messages_are_kept_by_identity_in_a_new_list():
    message = _user("hi")
    source = [message]
    history = ChatHistory(source)
    history.add_user_message("again")
    assert history[0] is message
    assert source == [message]


def test_takes_any_iterable():
    assert ChatHistory(_user(t) for t in "ab") == [_user("a"), _user("b")]


@pytest.mark.parametrize(("bad", "got"), [(None, "NoneType"), ("hi", "str"), (3, "int"),
                                          (TextContent("hi"), "TextContent")])
def test_constructor_refuses_non_messages_naming_the_index(bad, got):
    with pytest.raises(TypeError) as excinfo:
        ChatHistory([_user("a"), _user("b"), bad])
    assert isinstance(excinfo.value, InvalidTypeError)
    assert str(excinfo.value) == f"messages[2]: expected a ChatMessageContent, got {got}"
    assert excinfo.value.path == "messages[2]"


def test_index_counts_the_system_message():
    with pytest.raises(InvalidTypeError, match=r"^messages\[1\]: "):
        ChatHistory([3], system_message="sys")  # type: ignore[list-item]


# --- the sequence protocol ------------------------------------------------------------------


def test_is_a_mutable_sequence():
    assert isinstance(ChatHistory(), MutableSequence)


def test_indexing_and_iteration():
    history = _history("a", "b")
    assert history[0] == _user("a")
    assert history[-1] == _user("b")
    assert list(history) == [_user("a"), _user("b")]
    assert list(reversed(history)) == [_user("b"), _user("a")]


def test_slice_is_a_history():
    history = _history("a", "b", "c")
    part = history[1:]
    assert type(part) is ChatHistory
    assert part == [_user("b"), _user("c")]


def test_slice_shares_messages_but_not_the_list():
    history = _history("a", "b")
    part = history[:]
    part.add_user_message("c")
    assert len(history) == 2
    assert part[0] is history[0]


def test_extended_slice():
    assert _history("a", "b", "c")[::-2] == [_user("c"), _user("a")]


def test_setitem():
    history = _history("a", "b")
    history[1] = _user("z")
    assert history == _history("a", "z")


@pytest.mark.parametrize(("index", "path"), [(0, "messages[0]"), (-1, "messages[1]")])
def test_setitem_refuses_non_messages(index, path):
    history = _history("a", "b")
    with pytest.raises(InvalidTypeError) as excinfo:
        history[index] = "z"  # type: ignore[call-overload]
    assert excinfo.value.path == path
    assert history == _history("a", "b")


def test_setitem_slice():
    history = _history("a", "b", "c")
    history[0:2] = [_user("x")]
    assert history == _history("x", "c")


def test_setitem_slice_refuses_naming_the_index_and_changes_nothing():
    history = _history("a", "b", "c")
    with pytest.raises(InvalidTypeError) as excinfo:
        history[1:] = [_user("x"), None]  # type: ignore[list-item]
    assert excinfo.value.path == "messages[2]"
    assert history == _history("a", "b", "c")


def test_delete():
    history = _history("a", "b", "c")
    del history[0]
    del history[1:]
    assert history == _history("b")


def test_insert():
    history = _history("a", "c")
    history.insert(1, _user("b"))
    assert history == _history("a", "b", "c")


@pytest.mark.parametrize(("index", "path"), [(0, "messages[0]"), (1, "messages[1]"),
                                             (9, "messages[2]")])
def test_insert_refuses_non_messages_naming_the_position(index, path):
    history = _history("a", "b")
    with pytest.raises(InvalidTypeError) as excinfo:
        history.insert(index, "x")  # type: ignore[arg-type]
    assert excinfo.value.path == path
    assert len(history) == 2


def test_insert_with_negative_index_names_the_position():
    history = _history("a", "b", "c")
    with pytest.raises(InvalidTypeError) as excinfo:
        history.insert(-1, "x")  # type: ignore[arg-type]
    assert excinfo.value.path == "messages[2]"


def test_mixin_methods_work():
    history = _history("a", "b")
    history.append(_user("c"))
    history.extend([_user("d")])
    history += [_user("e")]
    assert history.pop() == _user("e")
    assert history.index(_user("b")) == 1
    history.remove(_user("a"))
    assert history == _history("b", "c", "d")


def test_append_refuses_non_messages():
    history = _history("a")
    with pytest.raises(InvalidTypeError, match=r"^messages\[1\]: expected a ChatMessageContent"):
        history.append("b")  # type: ignore[arg-type]


def test_is_not_hashable():
    with pytest.raises(TypeError):
        hash(ChatHistory())


# --- add_* ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "role"),
    [
        ("add_system_message", AuthorRole.SYSTEM),
        ("add_developer_message", AuthorRole.DEVELOPER),
        ("add_user_message", AuthorRole.USER),
        ("add_assistant_message", AuthorRole.ASSISTANT),
    ],
)
def test_add_method_appends_a_message_of_its_role_and_returns_it(method, role):
    history = _history("earlier")
    added = getattr(history, method)("hello")
    assert added == ChatMessageContent(role, "hello")
    assert added.role is role
    assert history[-1] is added
    assert len(history) == 2


def test_add_message_appends_and_returns_the_same_object():
    history = ChatHistory()
    message = ChatMessageContent("critic", "hm")
    assert history.add_message(message) is message
    assert history[0] is message


def test_add_message_refuses_a_non_message():
    history = _history("a")
    with pytest.raises(InvalidTypeError) as excinfo:
        history.add_message("b")  # type: ignore[arg-type]
    assert str(excinfo.value) == "messages[1]: expected a ChatMessageContent, got str"
    assert len(history) == 1


def test_add_user_message_accepts_what_content_accepts():
    added = ChatHistory().add_user_message(["look", PNG])
    assert added.items == [TextContent("look"), ImageContent(data=PNG, mime_type="image/png")]


def test_add_user_message_without_content_is_empty():
    assert ChatHistory().add_user_message().items == []


def test_add_methods_take_keyword_fields():
    added = ChatHistory().add_assistant_message(
        "hi", name="bot", metadata={"k": 1}, finish_reason="stop", model_id="m"
    )
    assert added == ChatMessageContent(
        "assistant", "hi", name="bot", metadata={"k": 1}, finish_reason="stop", model_id="m"
    )


def test_add_methods_take_items():
    added = ChatHistory().add_user_message(items=[TextContent("a")])
    assert added.items == [TextContent("a")]


def test_add_method_refuses_content_and_items_together():
    history = ChatHistory()
    with pytest.raises(InvalidTypeError, match="not both"):
        history.add_user_message("a", items=[TextContent("a")])
    assert len(history) == 0


def test_add_method_refuses_bad_content_and_adds_nothing():
    history = ChatHistory()
    with pytest.raises(InvalidTypeError, match=r"^content: "):
        history.add_user_message(3)
    assert len(history) == 0


def test_add_tool_message_builds_the_exact_result():
    history = ChatHistory()
    added = history.add_tool_message({"temp": 21}, call_id="call_1", name="weather")
    assert added == ChatMessageContent(
        AuthorRole.TOOL,
        items=[FunctionResultContent("call_1", {"temp": 21}, name="weather", is_error=False)],
    )
    assert history[-1] is added


def test_add_tool_message_error_result():
    added = ChatHistory().add_tool_message("boom", call_id="call_1", is_error=True)
    assert added.items == [FunctionResultContent("call_1", "boom", None, True)]


def test_add_tool_message_keeps_the_result_object():
    value = {"rows": [1, 2]}
    added = ChatHistory().add_tool_message(value, call_id="c")
    assert added.function_results[0].result is value


def test_add_tool_message_takes_keyword_fields():
    added = ChatHistory().add_tool_message("ok", call_id="c", metadata={"k": 1}, name="f")
    assert added.metadata == {"k": 1}
    assert added.function_results == [FunctionResultContent("c", "ok", "f")]


def test_add_tool_message_without_call_id_is_refused():
    history = ChatHistory()
    with pytest.raises(ValueError) as excinfo:
        history.add_tool_message("ok")
    assert isinstance(excinfo.value, InvalidValueError)
    assert str(excinfo.value) == "call_id: a tool message needs the call_id of the call it answers"
    assert len(history) == 0


# --- equality and repr ----------------------------------------------------------------------


def test_equal_to_a_list_and_a_history():
    assert _history("a") == [_user("a")]
    assert [_user("a")] == _history("a")
    assert _history("a") == _history("a")
    assert _history("a") != _history("b")
    assert _history("a") != [_user("b")]


def test_not_equal_to_a_tuple():
    assert _history("a") != (_user("a"),)


_ROLES = ["system", "user", "assistant", "user", "assistant", "user", "assistant", "user",
          "assistant", "tool"]


def _history_of_roles(count: int) -> ChatHistory:
    return ChatHistory([ChatMessageContent(role, "x") for role in _ROLES[:count]])


@pytest.mark.parametrize(
    ("count", "text"),
    [
        (0, "ChatHistory()"),
        (1, "ChatHistory(1 message: system)"),
        (3, "ChatHistory(3 messages: system, user, assistant)"),
        (6, "ChatHistory(6 messages: system, user, assistant, user, assistant, user)"),
        (7, "ChatHistory(7 messages: system, user, assistant, ..., user, assistant)"),
        (10, "ChatHistory(10 messages: system, user, assistant, ..., assistant, tool)"),
    ],
)
def test_repr(count, text):
    assert repr(_history_of_roles(count)) == text


def test_repr_shows_custom_roles_lower_case():
    assert repr(ChatHistory([ChatMessageContent("Critic", "x")])) == (
        "ChatHistory(1 message: critic)"
    )


# --- properties -----------------------------------------------------------------------------


@settings(max_examples=50)  # histories are costly to generate; slicing needs few examples
@given(histories(max_messages=6, max_items=1), st.integers(-8, 8), st.integers(-8, 8))
def test_slices_match_list_slices(history, start, stop):
    part = history[start:stop]
    assert type(part) is ChatHistory
    assert part == history.messages[start:stop]


@settings(max_examples=50)
@given(histories())
def test_generated_history_equals_a_copy_and_not_a_shorter_one(history):
    assert ChatHistory(list(history)) == history
    if len(history):
        assert history[1:] != history
