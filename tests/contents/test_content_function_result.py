"""FunctionResultContent: text, JSON values or items, never a Python repr."""

import pytest

from semantic_chat import ContentType, FunctionResultContent, ImageContent, TextContent


def test_fields_and_defaults():
    result = FunctionResultContent("call_1")
    assert (result.call_id, result.result, result.name, result.is_error, result.metadata) == (
        "call_1",
        None,
        None,
        False,
        {},
    )


def test_positional_fields_in_order():
    result = FunctionResultContent("call_1", "sunny", "weather", True)
    assert (result.call_id, result.result, result.name, result.is_error) == (
        "call_1",
        "sunny",
        "weather",
        True,
    )


def test_call_id_is_required():
    with pytest.raises(TypeError):
        FunctionResultContent()  # type: ignore[call-arg]


def test_content_type():
    assert FunctionResultContent.content_type is ContentType.FUNCTION_RESULT


def test_dict_result_is_kept_as_is():
    value = {"temp": 21.5, "tags": ["a", None], "ok": True}
    result = FunctionResultContent("c1", value)
    assert result.result is not value  # a checked copy: later changes to value do not leak in
    value["ok"] = False
    assert result.result == {"temp": 21.5, "tags": ["a", None], "ok": True}


def test_list_result_is_kept_as_is():
    value = [1, "two", {"three": 3}]
    result = FunctionResultContent("c1", value)
    assert result.result == [1, "two", {"three": 3}]
    assert result.result is not value


def test_list_of_items_result_is_kept():
    value = [TextContent("chart"), ImageContent(uri="https://example.com/c.png")]
    result = FunctionResultContent("c1", value)
    assert result.result == [TextContent("chart"), ImageContent(uri="https://example.com/c.png")]


@pytest.mark.parametrize("value", ["text", 3, 2.5, True, None, [], {}])
def test_scalar_and_empty_results(value):
    assert FunctionResultContent("c1", value).result == value


def test_result_without_call_id():
    assert FunctionResultContent(None, "ok", "f").call_id is None


def test_equality_covers_is_error():
    assert FunctionResultContent("c1", "x") != FunctionResultContent("c1", "x", is_error=True)


def test_repr_shows_dict_result():
    assert repr(FunctionResultContent("c1", {"a": 1}, "f")) == (
        "FunctionResultContent(call_id='c1', result={'a': 1}, name='f', "
        "is_error=False)"
    )


def test_match_by_keyword():
    match FunctionResultContent("c1", {"a": 1}, "f", is_error=True):
        case FunctionResultContent(call_id="c1", is_error=True, result={"a": value}):
            found = value
        case _:
            found = None
    assert found == 1


def test_str_never_raises_for_a_value_put_into_the_result_later():
    result = FunctionResultContent("c1", {"a": 1})
    result.result["b"] = {1, 2}
    assert str(result) == '{"a": 1, "b": "{1, 2}"}'
