"""ChatHistory: a checked MutableSequence of messages with add_* builders."""

import copy
import pickle
import re
from collections.abc import MutableSequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import histories

from semantic_chat import (
    AuthorRole,
    ChatHistory,
    ChatMessageContent,
    ChatMessageList,
    ChatOptions,
    FunctionResultContent,
    ImageContent,
    InvalidTypeError,
    InvalidValueError,
    TextContent,
    Usage,
)
from semantic_chat.formats import openai_chat
from semantic_chat.serialization import from_json, to_json

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


def test_developer_message_alone():
    assert ChatHistory(developer_message="Use tools.") == [
        ChatMessageContent(AuthorRole.DEVELOPER, "Use tools.")
    ]


def test_system_then_developer_then_messages():
    history = ChatHistory([_user("hi")], system_message="Be brief.", developer_message="Use tools.")
    assert history.messages == [
        ChatMessageContent(AuthorRole.SYSTEM, "Be brief."),
        ChatMessageContent(AuthorRole.DEVELOPER, "Use tools."),
        _user("hi"),
    ]


def test_index_counts_the_system_and_developer_messages():
    with pytest.raises(InvalidTypeError) as excinfo:
        ChatHistory([_user("a"), 3], system_message="s", developer_message="d")  # type: ignore[list-item]
    assert str(excinfo.value) == "messages[3]: expected a ChatMessageContent, got int"


def test_a_refused_constructor_argument_leaves_no_history_behind():
    source = [_user("a"), "b"]
    with pytest.raises(InvalidTypeError, match=re.escape(
        "messages[1]: expected a ChatMessageContent, got str"
    )):
        ChatHistory(source)  # type: ignore[arg-type]
    assert source == [_user("a"), "b"]


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


def test_extend_refuses_naming_the_index_and_adds_nothing():
    history = _history("a")
    with pytest.raises(InvalidTypeError) as excinfo:
        history.extend([_user("ok"), "bad"])  # type: ignore[list-item]
    assert str(excinfo.value) == "messages[2]: expected a ChatMessageContent, got str"
    assert history == _history("a")


def test_iadd_refuses_naming_the_index_and_adds_nothing():
    history = _history("a")
    with pytest.raises(InvalidTypeError) as excinfo:
        history += [_user("ok"), None]  # type: ignore[list-item]
    assert str(excinfo.value) == "messages[2]: expected a ChatMessageContent, got NoneType"
    assert history == _history("a")


def test_iadd_returns_the_same_history():
    history = _history("a")
    kept = history
    history += _history("b")
    assert history is kept
    assert history == _history("a", "b")


def test_extend_with_itself_doubles_it():
    history = _history("a", "b")
    history.extend(history)
    assert history == _history("a", "b", "a", "b")


def test_extended_slice_assignment_names_the_index_it_would_take():
    history = _history("a", "b", "c")
    with pytest.raises(InvalidTypeError) as excinfo:
        history[::-1] = [_user("x"), _user("y"), 3]  # type: ignore[list-item]
    assert str(excinfo.value) == "messages[0]: expected a ChatMessageContent, got int"
    assert history == _history("a", "b", "c")


def test_clear_and_reverse():
    history = _history("a", "b", "c")
    history.reverse()
    assert history == _history("c", "b", "a")
    history.clear()
    assert history == []


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


def test_add_tool_message_holds_what_function_result_content_holds():
    value = {"rows": [1, 2]}
    added = ChatHistory().add_tool_message(value, call_id="c")
    assert added.function_results == [FunctionResultContent("c", value)]


def test_add_tool_message_takes_keyword_fields():
    added = ChatHistory().add_tool_message("ok", call_id="c", metadata={"k": 1}, name="f")
    assert added.metadata == {"k": 1}
    assert added.function_results == [FunctionResultContent("c", "ok", "f")]


def test_add_tool_message_takes_the_call_id_from_a_result_item():
    result = FunctionResultContent("call_1", {"temp": 21}, name="weather")
    history = _history("a")
    added = history.add_tool_message(result)
    assert added == ChatMessageContent(AuthorRole.TOOL, items=[result])
    assert added.items[0] is result
    assert history[-1] is added


def test_add_tool_message_takes_a_list_of_results_as_one_message():
    first = FunctionResultContent("call_1", "sunny")
    second = FunctionResultContent("call_2", "boom", is_error=True)
    history = ChatHistory()
    added = history.add_tool_message([first, second], metadata={"k": 1})
    assert added == ChatMessageContent(AuthorRole.TOOL, items=[first, second], metadata={"k": 1})
    assert [item is given for item, given in zip(added.items, (first, second), strict=True)] == [
        True,
        True,
    ]
    assert len(history) == 1


def test_add_tool_message_takes_a_tuple_of_results():
    result = FunctionResultContent("call_1", "ok")
    assert ChatHistory().add_tool_message((result,)).items == [result]


def test_add_tool_message_accepts_a_call_id_that_agrees():
    results = [FunctionResultContent("c", 1), FunctionResultContent("c", 2)]
    assert ChatHistory().add_tool_message(results, call_id="c").items == results


@pytest.mark.parametrize(
    ("result", "message"),
    [
        (FunctionResultContent("c1", "ok"), "call_id: expected the call id of result ('c1'), got 'c2'"),
        ([FunctionResultContent("c2", 1), FunctionResultContent("c1", 2)],
         "call_id: expected the call id of result[1] ('c1'), got 'c2'"),
        (FunctionResultContent(None, "ok"), "call_id: expected the call id of result (None), got 'c2'"),
    ],
)
def test_add_tool_message_refuses_a_call_id_that_disagrees(result, message):
    history = ChatHistory()
    with pytest.raises(InvalidValueError) as excinfo:
        history.add_tool_message(result, call_id="c2")
    assert str(excinfo.value) == message
    assert excinfo.value.path == "call_id"
    assert len(history) == 0


def test_add_tool_message_refuses_a_result_without_a_call_id():
    history = ChatHistory()
    with pytest.raises(InvalidValueError) as excinfo:
        history.add_tool_message([FunctionResultContent("c1", 1), FunctionResultContent(None, 2)])
    assert str(excinfo.value) == (
        "result[1].call_id: a tool message needs the call_id of the call it answers"
    )
    assert len(history) == 0


@pytest.mark.parametrize(("keyword", "value"), [("name", "f"), ("is_error", True)])
def test_add_tool_message_refuses_name_or_is_error_beside_results(keyword, value):
    history = ChatHistory()
    with pytest.raises(InvalidValueError) as excinfo:
        history.add_tool_message(FunctionResultContent("c", 1), **{keyword: value})
    assert str(excinfo.value) == (
        f"{keyword}: given with FunctionResultContent results: set it on each result instead"
    )
    assert len(history) == 0


@pytest.mark.parametrize(("mixed", "message"), [
    ([FunctionResultContent("c", 1), "two"], "result[1]: expected a FunctionResultContent, got str"),
    ([TextContent("a"), FunctionResultContent("c", 1)],
     "result[0]: expected a FunctionResultContent, got TextContent"),
])
def test_add_tool_message_refuses_a_list_mixing_results_and_other_values(mixed, message):
    history = ChatHistory()
    with pytest.raises(InvalidTypeError) as excinfo:
        history.add_tool_message(mixed, call_id="c")
    assert str(excinfo.value) == message
    assert len(history) == 0


def test_add_tool_message_reads_a_list_without_results_as_the_result_value():
    added = ChatHistory().add_tool_message([1, "two"], call_id="c")
    assert added.items == [FunctionResultContent("c", [1, "two"])]


def test_add_tool_message_reads_an_empty_list_as_the_result_value():
    added = ChatHistory().add_tool_message([], call_id="c")
    assert added.items == [FunctionResultContent("c", [])]


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


# --- messages: the checked list --------------------------------------------------------------


def test_messages_is_a_checked_list_kept_by_the_history():
    history = _history("a")
    assert type(history.messages) is ChatMessageList
    assert isinstance(history.messages, list)
    assert history.messages is history.messages


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda messages: messages.append("x"),
         "messages[2]: expected a ChatMessageContent, got str"),
        (lambda messages: messages.extend([_user("ok"), "bad"]),
         "messages[3]: expected a ChatMessageContent, got str"),
        (lambda messages: messages.insert(0, 3), "messages[0]: expected a ChatMessageContent, got int"),
        (lambda messages: messages.insert(-1, 3), "messages[1]: expected a ChatMessageContent, got int"),
        (lambda messages: messages.insert(9, 3), "messages[2]: expected a ChatMessageContent, got int"),
        (lambda messages: messages.__setitem__(0, "x"),
         "messages[0]: expected a ChatMessageContent, got str"),
        (lambda messages: messages.__setitem__(-1, "x"),
         "messages[1]: expected a ChatMessageContent, got str"),
        (lambda messages: messages.__setitem__(slice(1, None), [_user("ok"), None]),
         "messages[2]: expected a ChatMessageContent, got NoneType"),
        (lambda messages: messages.__setitem__(slice(None, None, -1), [_user("ok"), TextContent("t")]),
         "messages[0]: expected a ChatMessageContent, got TextContent"),
        (lambda messages: messages.__iadd__([_user("ok"), 3]),
         "messages[3]: expected a ChatMessageContent, got int"),
    ],
    ids=["append", "extend", "insert", "insert-negative", "insert-past-end", "setitem",
         "setitem-negative", "slice", "extended-slice", "iadd"],
)
def test_messages_refuses_non_messages_and_changes_nothing(change, message):
    history = _history("a", "b")
    with pytest.raises(InvalidTypeError) as excinfo:
        change(history.messages)
    assert str(excinfo.value) == message
    assert history == _history("a", "b")
    assert to_json(history) == to_json(_history("a", "b"))


def test_messages_iadd_through_the_attribute_keeps_the_list():
    history = _history("a")
    messages = history.messages
    history.messages += [_user("b")]
    assert history.messages is messages
    assert history == _history("a", "b")


def test_messages_iadd_through_the_attribute_refuses():
    history = _history("a")
    with pytest.raises(InvalidTypeError, match=re.escape(
        "messages[1]: expected a ChatMessageContent, got str"
    )):
        history.messages += ["b"]  # type: ignore[list-item]
    assert history == _history("a")


def test_messages_methods_that_add_work():
    history = _history("b")
    history.messages.append(_user("c"))
    history.messages.extend([_user("d")])
    history.messages.insert(0, _user("a"))
    history.messages[3] = _user("z")
    history.messages[1:2] = [_user("x"), _user("y")]
    assert history == _history("a", "x", "y", "c", "z")


def test_assigned_messages_are_checked_and_copied():
    source = [_user("a")]
    history = ChatHistory()
    history.messages = source
    source.append("b")  # type: ignore[arg-type]
    assert type(history.messages) is ChatMessageList
    assert history == _history("a")


def test_assigned_messages_take_any_iterable():
    history = ChatHistory()
    history.messages = (_user(text) for text in "ab")  # type: ignore[assignment]
    assert history == _history("a", "b")


def test_assigned_messages_are_refused_naming_the_index_and_change_nothing():
    history = _history("a")
    with pytest.raises(InvalidTypeError) as excinfo:
        history.messages = [_user("x"), "y"]  # type: ignore[list-item]
    assert str(excinfo.value) == "messages[1]: expected a ChatMessageContent, got str"
    assert history == _history("a")


def test_a_message_list_refuses_what_it_is_built_from():
    with pytest.raises(InvalidTypeError) as excinfo:
        ChatMessageList([_user("a"), 3])  # type: ignore[list-item]
    assert str(excinfo.value) == "messages[1]: expected a ChatMessageContent, got int"


def test_a_message_list_slice_is_a_message_list_and_plus_a_plain_list():
    messages = _history("a", "b").messages
    assert type(messages[1:]) is ChatMessageList
    assert messages[1:] == [_user("b")]
    more = [_user("c")]
    assert type(messages + more) is list
    assert type(messages.copy()) is list


def test_a_message_list_repr():
    assert repr(ChatMessageList([_user("a")])) == (
        "ChatMessageList([ChatMessageContent(role='user', items=[TextContent(text='a')])])"
    )


def test_copies_and_pickles_keep_the_types():
    history = _history("a", "b")
    history.messages  # noqa: B018 - made the checked list
    for twin in (copy.copy(history), copy.deepcopy(history), pickle.loads(pickle.dumps(history))):
        assert type(twin) is ChatHistory
        assert twin == history
        assert type(twin.messages) is ChatMessageList
    deep = copy.deepcopy(history)
    deep.add_user_message("c")
    assert len(history) == 2


@settings(max_examples=50)
@given(
    histories(max_messages=4, max_items=1),
    st.lists(st.sampled_from(["ok", "bad"]), min_size=1, max_size=5),
)
def test_a_refused_extend_names_the_first_bad_index_and_changes_nothing(history, kinds):
    values = [_user("x") if kind == "ok" else kind for kind in kinds]
    before = list(history)
    if "bad" not in kinds:
        history.messages.extend(values)
        assert list(history) == before + values
        return
    with pytest.raises(InvalidTypeError) as excinfo:
        history.messages.extend(values)
    assert excinfo.value.path == f"messages[{len(before) + kinds.index('bad')}]"
    assert list(history) == before


# --- a history a reader made -----------------------------------------------------------------


def _read_histories() -> list[ChatHistory]:
    built = ChatHistory([_user("a"), ChatMessageContent("assistant", "b")], system_message="s")
    return [from_json(to_json(built), ChatHistory), openai_chat.from_payload(
        [{"role": "system", "content": "s"}, {"role": "user", "content": "a"},
         {"role": "assistant", "content": "b"}]
    )]


@pytest.mark.parametrize("history", _read_histories(), ids=["from_json", "from_payload"])
def test_a_read_history_keeps_the_readers_list_until_messages_is_read(history):
    assert type(history._messages) is list
    written = to_json(history)
    assert (len(history), history[0].role, [m.role for m in history]) == (
        3, AuthorRole.SYSTEM, [AuthorRole.SYSTEM, AuthorRole.USER, AuthorRole.ASSISTANT]
    )
    assert history[1:] == [_user("a"), ChatMessageContent("assistant", "b")]
    assert repr(history) == "ChatHistory(3 messages: system, user, assistant)"
    history.add_user_message("c")  # the history's own methods use the list as it is
    assert type(history._messages) is list
    messages = history.messages
    assert type(messages) is ChatMessageList
    assert history.messages is messages
    assert messages[-1] == _user("c")
    with pytest.raises(InvalidTypeError, match=re.escape(
        "messages[4]: expected a ChatMessageContent, got str"
    )):
        messages.append("d")  # type: ignore[arg-type]
    del history[-1]
    assert to_json(history) == written


@pytest.mark.parametrize("history", _read_histories(), ids=["from_json", "from_payload"])
def test_a_read_history_refuses_through_its_own_methods(history):
    with pytest.raises(InvalidTypeError, match=re.escape(
        "messages[4]: expected a ChatMessageContent, got str"
    )):
        history.extend([_user("ok"), "bad"])  # type: ignore[list-item]
    assert len(history) == 3
    assert type(history._messages) is list


@pytest.mark.parametrize("values", [5, None, "ab", Usage()], ids=repr)
def test_extend_and_slice_assignment_refuse_what_is_not_a_list_of_messages(values: object) -> None:
    history = ChatHistory([ChatMessageContent("user", "x")])
    expected = f"messages: expected a list of messages, got {type(values).__name__}"
    for change in (
        lambda: history.extend(values),  # type: ignore[arg-type]
        lambda: history.messages.extend(values),  # type: ignore[arg-type]
        lambda: history.messages.__iadd__(values),  # type: ignore[arg-type]
        lambda: history.__setitem__(slice(0, 1), values),
    ):
        with pytest.raises(InvalidTypeError) as info:
            change()
        assert str(info.value) == expected
    assert history == [ChatMessageContent("user", "x")]


def test_messages_assigned_none_means_no_messages_and_a_non_list_is_refused() -> None:
    history = ChatHistory([ChatMessageContent("user", "x")])
    history.messages = None  # type: ignore[assignment]
    assert history.messages == []
    assert type(history.messages) is ChatMessageList
    with pytest.raises(InvalidTypeError) as info:
        history.messages = 5  # type: ignore[assignment]
    assert str(info.value) == "messages: expected a list of messages, got int"
    with pytest.raises(InvalidTypeError) as info:
        ChatHistory(5)  # type: ignore[arg-type]
    assert str(info.value) == "messages: expected a list of messages, got int"


def test_a_shallow_copy_is_a_new_history_of_the_same_messages() -> None:
    # What was seen: after c = copy.copy(h); c.add_user_message("b"), h had the message too.
    history = ChatHistory(system_message="s", options=ChatOptions(model="m"))
    history.add_user_message("a")
    copied = copy.copy(history)
    copied.add_user_message("b")
    assert [message.text for message in history] == ["s", "a"]
    assert [message.text for message in copied] == ["s", "a", "b"]
    assert copied[0] is history[0]  # the messages are shared, as a list's copy shares them
    assert copied.options is history.options
