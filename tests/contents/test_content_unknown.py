"""UnknownContent: an item of a type nobody registered, kept as read."""

import pytest

from semantic_chat import CONTENT_TYPES, ContentType, KernelContent, UnknownContent


def test_holds_type_and_fields():
    item = UnknownContent(type="hologram", fields={"depth": 3, "tags": ["a"]})
    assert item.type == "hologram"
    assert item.fields == {"depth": 3, "tags": ["a"]}


def test_positional_construction():
    assert UnknownContent("hologram", {"depth": 3}) == UnknownContent(
        type="hologram", fields={"depth": 3}
    )


def test_fields_default_to_a_new_empty_dict():
    first, second = UnknownContent("a"), UnknownContent("a")
    assert first.fields == {}
    assert first.fields is not second.fields


def test_type_is_required():
    with pytest.raises(TypeError):
        UnknownContent()  # type: ignore[call-arg]


def test_fields_are_kept_as_a_checked_copy():
    fields = {"x": {"y": [1, 2]}}
    item = UnknownContent("t", fields)
    assert item.fields == {"x": {"y": [1, 2]}}
    assert item.fields is not fields


def test_type_keeps_its_case():
    assert UnknownContent("HoloGram").type == "HoloGram"


def test_registered_under_unknown():
    assert UnknownContent.content_type is ContentType.UNKNOWN
    assert CONTENT_TYPES["unknown"] is UnknownContent


def test_is_an_item():
    assert isinstance(UnknownContent("t"), KernelContent)


def test_equality_covers_type_and_fields():
    assert UnknownContent("a", {"x": 1}) != UnknownContent("b", {"x": 1})
    assert UnknownContent("a", {"x": 1}) != UnknownContent("a", {"x": 2})


def test_repr():
    assert repr(UnknownContent("t", {"x": 1})) == (
        "UnknownContent(type='t', fields={'x': 1})"
    )


def test_match():
    match UnknownContent("hologram", {"depth": 3}):
        case UnknownContent("hologram", {"depth": depth}):
            found = depth
        case _:
            found = None
    assert found == 3
