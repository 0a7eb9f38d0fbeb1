"""ReasoningContent: thinking blocks and reasoning items."""

from semantic_chat import ContentType, ReasoningContent


def test_defaults():
    item = ReasoningContent()
    assert (item.text, item.signature, item.encrypted, item.provider, item.metadata) == (
        "",
        None,
        None,
        None,
        {},
    )


def test_fields_positional_in_order():
    item = ReasoningContent("thinking", "sig", "enc", "anthropic")
    assert (item.text, item.signature, item.encrypted, item.provider) == (
        "thinking",
        "sig",
        "enc",
        "anthropic",
    )


def test_content_type():
    assert ReasoningContent.content_type is ContentType.REASONING


def test_str_is_the_text():
    assert str(ReasoningContent("step 1")) == "step 1"


def test_opaque_fields_take_part_in_equality():
    assert ReasoningContent("t", signature="a") != ReasoningContent("t", signature="b")
    assert ReasoningContent("t", encrypted="x") != ReasoningContent("t")
    assert ReasoningContent("t", provider="openai") != ReasoningContent("t", provider="anthropic")


def test_encrypted_only_item():
    item = ReasoningContent(encrypted="gAAAA", provider="openai")
    assert item == ReasoningContent("", None, "gAAAA", "openai")


def test_repr():
    assert repr(ReasoningContent("t", signature="s")) == (
        "ReasoningContent(text='t', signature='s', encrypted=None, provider=None)"
    )


def test_match_by_keyword():
    match ReasoningContent("t", signature="s", provider="anthropic"):
        case ReasoningContent(signature=str() as signature, provider="anthropic"):
            found = signature
        case _:
            found = None
    assert found == "s"
