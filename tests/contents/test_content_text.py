"""TextContent and RefusalContent."""

import pytest

from semantic_chat import ContentType, RefusalContent, TextContent


def test_text_content_holds_its_text():
    assert TextContent("hello").text == "hello"


def test_text_is_required():
    with pytest.raises(TypeError):
        TextContent()  # type: ignore[call-arg]


def test_text_content_type():
    assert TextContent.content_type is ContentType.TEXT


def test_str_of_text_content_is_its_text():
    assert str(TextContent("hello\nworld")) == "hello\nworld"


def test_text_content_equality():
    assert TextContent("a") == TextContent("a")
    assert TextContent("a") != TextContent("b")


def test_text_content_repr():
    assert repr(TextContent("hi")) == "TextContent(text='hi')"


def test_text_content_text_can_be_changed():
    item = TextContent("a")
    item.text = "b"
    assert item == TextContent("b")


def test_empty_text_is_allowed():
    assert TextContent("").text == ""


def test_text_content_match_positionally():
    match TextContent("hi"):
        case TextContent(text):
            found = text
    assert found == "hi"


def test_refusal_content_holds_its_text():
    assert RefusalContent("I can't help with that").text == "I can't help with that"


def test_refusal_content_type():
    assert RefusalContent.content_type is ContentType.REFUSAL


def test_str_of_refusal_is_its_text():
    assert str(RefusalContent("no")) == "no"


def test_refusal_is_not_text():
    assert not isinstance(RefusalContent("no"), TextContent)
    assert RefusalContent("no") != TextContent("no")


def test_refusal_repr():
    assert repr(RefusalContent("no")) == "RefusalContent(text='no')"
