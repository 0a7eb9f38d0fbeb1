"""ChatMessageContentItemCollection: a checked, coercing list of items."""

from collections.abc import MutableSequence, Sequence

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from semantic_chat import (
    AudioContent,
    BinaryContent,
    ChatMessageContentItemCollection,
    FileContent,
    FunctionCallContent,
    ImageContent,
    InvalidTypeError,
    InvalidValueError,
    KernelContent,
    TextContent,
)
from semantic_chat.coercion import ACCEPTED

PNG = b"\x89PNG\r\n\x1a\n" + bytes(16)
IMAGE = ImageContent(data=PNG)
CALL = FunctionCallContent("c1", "f", "{}")


def _collection(*texts: str) -> ChatMessageContentItemCollection:
    return ChatMessageContentItemCollection([TextContent(text) for text in texts])


def _refusal(index: int, got: str) -> str:
    return f"items[{index}]: expected {ACCEPTED}, got {got}"


# --- the sequence protocol ------------------------------------------------------------------


def test_is_a_mutable_sequence():
    assert isinstance(ChatMessageContentItemCollection(), MutableSequence)
    assert issubclass(ChatMessageContentItemCollection, Sequence)


def test_empty_by_default():
    assert len(ChatMessageContentItemCollection()) == 0
    assert ChatMessageContentItemCollection() == []


def test_holds_items_in_order():
    items = _collection("a", "b")
    assert list(items) == [TextContent("a"), TextContent("b")]
    assert items[0] == TextContent("a")
    assert items[-1] == TextContent("b")


def test_takes_any_iterable():
    items = ChatMessageContentItemCollection(TextContent(t) for t in "ab")
    assert items == [TextContent("a"), TextContent("b")]


def test_does_not_alias_the_given_list():
    source = [TextContent("a")]
    items = ChatMessageContentItemCollection(source)
    items.append("b")
    source.append(TextContent("c"))
    assert items == [TextContent("a"), TextContent("b")]
    assert source == [TextContent("a"), TextContent("c")]


def test_index_out_of_range_raises_index_error():
    with pytest.raises(IndexError):
        _collection("a")[1]


def test_contains_uses_equality():
    assert TextContent("a") in _collection("a")
    assert TextContent("z") not in _collection("a")


def test_reversed():
    assert list(reversed(_collection("a", "b"))) == [TextContent("b"), TextContent("a")]


def test_mixin_methods_work():
    items = _collection("a", "b", "a")
    assert items.index(TextContent("b")) == 1
    assert items.count(TextContent("a")) == 2
    assert items.pop() == TextContent("a")
    items.remove(TextContent("a"))
    assert items == [TextContent("b")]
    items.clear()
    assert items == []


def test_in_place_add_extends_with_coercion():
    items = _collection("a")
    items += ["b"]
    assert items == [TextContent("a"), TextContent("b")]


def test_delete_by_index_and_slice():
    items = _collection("a", "b", "c", "d")
    del items[0]
    del items[1:]
    assert items == [TextContent("b")]


def test_is_not_hashable():
    with pytest.raises(TypeError):
        hash(ChatMessageContentItemCollection())


# --- refusing what is not an item -----------------------------------------------------------


@pytest.mark.parametrize(
    ("bad", "got"), [(None, "NoneType"), (3, "int"), ({"type": "text"}, "dict")]
)
def test_constructor_refuses_non_items_naming_the_index(bad, got):
    with pytest.raises(TypeError) as excinfo:
        ChatMessageContentItemCollection([TextContent("a"), "b", bad])
    assert isinstance(excinfo.value, InvalidTypeError)
    assert str(excinfo.value) == _refusal(2, got)
    assert excinfo.value.path == "items[2]"


def test_append_refuses_none_naming_the_next_index():
    items = _collection("a", "b")
    with pytest.raises(InvalidTypeError) as excinfo:
        items.append(None)  # type: ignore[arg-type]
    assert str(excinfo.value) == _refusal(2, "NoneType")
    assert items == [TextContent("a"), TextContent("b")]


@pytest.mark.parametrize(("index", "path"), [(0, "items[0]"), (1, "items[1]"), (-1, "items[1]"),
                                             (-9, "items[0]"), (9, "items[2]")])
def test_insert_refuses_non_items_naming_the_position(index, path):
    items = _collection("a", "b")
    with pytest.raises(InvalidTypeError) as excinfo:
        items.insert(index, 3)  # type: ignore[arg-type]
    assert excinfo.value.path == path
    assert len(items) == 2


def test_extend_refuses_naming_the_index_after_the_end():
    items = _collection("a")
    with pytest.raises(InvalidTypeError) as excinfo:
        items.extend(["b", "c", None])  # type: ignore[list-item]
    assert excinfo.value.path == "items[3]"


def test_extend_is_atomic():
    items = _collection("a")
    with pytest.raises(InvalidTypeError):
        items.extend(["b", None, "c"])  # type: ignore[list-item]
    assert items == [TextContent("a")]


def test_extend_from_a_generator():
    items = _collection("a")
    items.extend(TextContent(t) for t in "bc")
    assert items == _collection("a", "b", "c")


@pytest.mark.parametrize(("index", "path"), [(0, "items[0]"), (2, "items[2]"), (-1, "items[2]")])
def test_setitem_refuses_non_items_naming_the_index(index, path):
    items = _collection("a", "b", "c")
    with pytest.raises(InvalidTypeError) as excinfo:
        items[index] = None  # type: ignore[call-overload]
    assert excinfo.value.path == path
    assert items == _collection("a", "b", "c")


def test_setitem_slice_refuses_naming_the_index_and_changes_nothing():
    items = _collection("a", "b", "c")
    with pytest.raises(InvalidTypeError) as excinfo:
        items[1:3] = ["x", None]  # type: ignore[list-item]
    assert excinfo.value.path == "items[2]"
    assert items == _collection("a", "b", "c")


def test_setitem_extended_slice_names_the_target_index():
    items = _collection("a", "b", "c", "d")
    with pytest.raises(InvalidTypeError) as excinfo:
        items[0:4:2] = ["x", None]  # type: ignore[list-item]
    assert excinfo.value.path == "items[2]"


def test_nested_list_error_does_not_claim_lists_are_accepted():
    with pytest.raises(InvalidTypeError) as excinfo:
        ChatMessageContentItemCollection([["a", "b"]])
    assert "list of these" not in str(excinfo.value)


# --- coercion on insert ---------------------------------------------------------------------


def test_constructor_coerces_strings():
    assert ChatMessageContentItemCollection(["a", CALL]) == [TextContent("a"), CALL]


def test_append_coerces_a_string():
    items = ChatMessageContentItemCollection()
    items.append("hi")
    assert items == [TextContent("hi")]


def test_insert_coerces_a_string():
    items = _collection("b")
    items.insert(0, "a")
    assert items == _collection("a", "b")


def test_extend_coerces_strings():
    items = ChatMessageContentItemCollection()
    items.extend(["a", TextContent("b")])
    assert items == _collection("a", "b")


def test_setitem_coerces_a_string():
    items = _collection("a")
    items[0] = "z"
    assert items == _collection("z")


def test_setitem_slice_coerces_strings():
    items = _collection("a", "b", "c")
    items[0:2] = ["x"]
    assert items == _collection("x", "c")


def test_append_coerces_png_bytes_to_an_image():
    items = ChatMessageContentItemCollection()
    items.append(PNG)  # type: ignore[arg-type]
    assert items == [ImageContent(data=PNG, mime_type="image/png")]


def test_items_pass_through_by_identity():
    items = ChatMessageContentItemCollection([CALL])
    items.append(IMAGE)
    assert items[0] is CALL
    assert items[1] is IMAGE


# --- typed access ---------------------------------------------------------------------------


def test_of_type_returns_the_items_of_that_class_in_order():
    items = ChatMessageContentItemCollection(["a", IMAGE, CALL, "b"])
    assert items.of_type(TextContent) == [TextContent("a"), TextContent("b")]
    assert items.of_type(FunctionCallContent) == [CALL]


def test_of_type_includes_subclasses():
    audio = AudioContent(uri="https://example.com/a.wav")
    items = ChatMessageContentItemCollection(["a", IMAGE, audio, CALL])
    assert items.of_type(BinaryContent) == [IMAGE, audio]
    assert items.of_type(KernelContent) == list(items)


def test_of_type_returns_a_plain_new_list():
    items = ChatMessageContentItemCollection([IMAGE])
    found = items.of_type(ImageContent)
    assert type(found) is list
    found.clear()
    assert items == [IMAGE]


def test_of_type_without_matches_is_empty():
    assert _collection("a").of_type(FileContent) == []


def test_first_returns_the_first_instance():
    items = ChatMessageContentItemCollection([CALL, "a", "b"])
    assert items.first(TextContent) == TextContent("a")
    assert items.first(KernelContent) is CALL


def test_first_includes_subclasses():
    assert ChatMessageContentItemCollection(["a", IMAGE]).first(BinaryContent) is IMAGE


def test_first_without_matches_is_none():
    assert _collection("a").first(ImageContent) is None


# --- slices, equality, repr -----------------------------------------------------------------


def test_slice_is_a_collection():
    items = _collection("a", "b", "c")
    part = items[1:]
    assert type(part) is ChatMessageContentItemCollection
    assert part == _collection("b", "c")


def test_extended_slice_is_a_collection():
    assert _collection("a", "b", "c")[::-2] == _collection("c", "a")


def test_slice_is_a_copy():
    items = _collection("a", "b")
    part = items[:]
    part.append("c")
    assert items == _collection("a", "b")


def test_equal_to_a_list_of_equal_items():
    assert _collection("a") == [TextContent("a")]
    assert [TextContent("a")] == _collection("a")
    assert _collection("a") != [TextContent("b")]


def test_equal_to_an_equal_collection():
    assert _collection("a", "b") == _collection("a", "b")
    assert _collection("a", "b") != _collection("b", "a")


def test_not_equal_to_a_tuple_or_other_types():
    assert _collection("a") != (TextContent("a"),)
    assert _collection() != 0


def test_repr():
    assert repr(_collection("a")) == (
        "ChatMessageContentItemCollection([TextContent(text='a')])"
    )


def test_repr_of_empty_collection():
    assert repr(ChatMessageContentItemCollection()) == "ChatMessageContentItemCollection([])"


# --- model-based: a collection behaves like a list ------------------------------------------

_texts = st.text(alphabet="abc", max_size=2)
_indices = st.integers(min_value=-6, max_value=6)


class CollectionAgainstList(RuleBasedStateMachine):
    """Random edits applied to a collection (given plain strings) and a list (given items)."""

    def __init__(self) -> None:
        super().__init__()
        self.collection = ChatMessageContentItemCollection()
        self.model: list[KernelContent] = []

    @rule(text=_texts)
    def append(self, text):
        self.collection.append(text)
        self.model.append(TextContent(text))

    @rule(index=_indices, text=_texts)
    def insert(self, index, text):
        self.collection.insert(index, text)
        self.model.insert(index, TextContent(text))

    @rule(texts=st.lists(_texts, max_size=3))
    def extend(self, texts):
        self.collection.extend(texts)
        self.model.extend(TextContent(t) for t in texts)

    @precondition(lambda self: self.model)
    @rule(data=st.data())
    def delete(self, data):
        index = data.draw(st.integers(-len(self.model), len(self.model) - 1))
        del self.collection[index]
        del self.model[index]

    @precondition(lambda self: self.model)
    @rule(data=st.data(), text=_texts)
    def set_item(self, data, text):
        index = data.draw(st.integers(-len(self.model), len(self.model) - 1))
        self.collection[index] = text
        self.model[index] = TextContent(text)

    @rule(start=_indices, stop=_indices, texts=st.lists(_texts, max_size=3))
    def set_slice(self, start, stop, texts):
        self.collection[start:stop] = texts
        self.model[start:stop] = [TextContent(t) for t in texts]

    @precondition(lambda self: self.model)
    @rule()
    def pop(self):
        assert self.collection.pop() == self.model.pop()

    @rule(start=_indices, stop=_indices)
    def delete_slice(self, start, stop):
        del self.collection[start:stop]
        del self.model[start:stop]

    @invariant()
    def same_items(self):
        assert self.collection == self.model
        assert list(self.collection) == self.model
        assert len(self.collection) == len(self.model)
        assert self.collection.of_type(TextContent) == self.model


TestCollectionAgainstList = CollectionAgainstList.TestCase
TestCollectionAgainstList.settings = settings(stateful_step_count=20)


# --- a list that stays checked ------------------------------------------------------------


def test_is_a_list_of_items():
    items = ChatMessageContentItemCollection(["a"])
    assert isinstance(items, list)
    assert items == [TextContent("a")]
    assert [TextContent("a")] == items


def test_in_place_add_refuses_non_items_naming_the_index():
    items = ChatMessageContentItemCollection(["a"])
    with pytest.raises(InvalidTypeError) as info:
        items += ["b", None]  # type: ignore[list-item]
    assert str(info.value).startswith("items[2]: ")
    assert items == [TextContent("a")]


def test_reordering_and_removing_are_the_lists_own():
    items = ChatMessageContentItemCollection(["b", "a", "c"])
    items.sort(key=lambda item: item.text)  # type: ignore[attr-defined]
    assert [item.text for item in items] == ["a", "b", "c"]  # type: ignore[attr-defined]
    assert items.pop() == TextContent("c")
    items.reverse()
    assert items == [TextContent("b"), TextContent("a")]
    assert type(items) is ChatMessageContentItemCollection


def test_concatenation_and_copy_give_plain_lists():
    items = ChatMessageContentItemCollection(["a"])
    assert type(items + [TextContent("b")]) is list  # noqa: RUF005 - the operator is the test
    assert type(items.copy()) is list
    assert items.copy() == items


def test_copies_and_pickles_keep_the_type():
    import copy
    import pickle

    items = ChatMessageContentItemCollection(["a", b"\x89PNG\r\n\x1a\n" + b"\0" * 8])
    for twin in (copy.copy(items), copy.deepcopy(items), pickle.loads(pickle.dumps(items))):
        assert type(twin) is ChatMessageContentItemCollection
        assert twin == items
        assert twin is not items



@pytest.mark.parametrize("values", [5, None, "ab", b"ab", TextContent("a")], ids=repr)
def test_extend_and_slice_assignment_refuse_what_is_not_a_list_of_items(values: object) -> None:
    items = ChatMessageContentItemCollection([TextContent("x")])
    expected = f"items: expected a list of items, got {type(values).__name__}: pass [item] for one item, or append it"
    with pytest.raises(InvalidTypeError) as info:
        items.extend(values)  # type: ignore[arg-type]
    assert str(info.value) == expected
    with pytest.raises(InvalidTypeError) as info:
        items[0:1] = values  # type: ignore[assignment]
    assert str(info.value) == expected
    assert items == [TextContent("x")]


def test_text_refused_on_the_way_in_is_located_at_its_index() -> None:
    items = ChatMessageContentItemCollection([TextContent("x")])
    with pytest.raises(InvalidValueError) as info:
        items.append("\ud800")
    assert str(info.value) == (
        "items[1].text: lone surrogate '\\ud800' at character 0 cannot be written as UTF-8"
    )
