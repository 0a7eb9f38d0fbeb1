"""FunctionCallContent: arguments kept exactly, parsed on request, results built from calls."""

import json
from types import MappingProxyType

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import function_calls, identifiers, json_values

from semantic_chat import (
    ContentType,
    FunctionArgumentsError,
    FunctionCallContent,
    FunctionResultContent,
    InvalidValueError,
)


def test_fields():
    call = FunctionCallContent("call_1", "get_weather", '{"city": "Oslo"}', 0)
    assert (call.id, call.name, call.arguments, call.index) == (
        "call_1",
        "get_weather",
        '{"city": "Oslo"}',
        0,
    )


def test_defaults():
    call = FunctionCallContent(id=None, name="f")
    assert (call.arguments, call.index, call.metadata) == (None, None, {})


def test_id_and_name_are_required():
    with pytest.raises(TypeError):
        FunctionCallContent(name="f")  # type: ignore[call-arg]


def test_content_type():
    assert FunctionCallContent.content_type is ContentType.FUNCTION_CALL


def test_repr():
    assert repr(FunctionCallContent("c1", "f", "{}")) == (
        "FunctionCallContent(id='c1', name='f', arguments='{}', index=None)"
    )


# --- arguments kept exactly -----------------------------------------------------------------


def test_json_string_with_odd_spacing_is_kept_identical():
    text = '{ "b" :2,\n\t"a":  [1 ,2] }  '
    assert FunctionCallContent("c1", "f", text).arguments == text


def test_mapping_arguments_are_an_equal_copy_never_the_callers_dict():
    arguments = {"city": "Oslo"}
    call = FunctionCallContent("c1", "f", arguments)
    assert call.arguments == {"city": "Oslo"}
    assert call.arguments is not arguments
    arguments["city"] = "Bergen"
    assert call.arguments == {"city": "Oslo"}


@pytest.mark.parametrize("name", ["search-web", "plugin-search_web", "a.b.c", "my-plugin.do-it"])
def test_names_with_dashes_and_dots_are_never_split(name):
    call = FunctionCallContent("c1", name)
    assert call.name == name
    assert call.to_result("ok").name == name


@given(text=st.text(max_size=40))
def test_any_argument_text_is_kept(text):
    assert FunctionCallContent("c", "f", text).arguments == text


# --- parse_arguments ------------------------------------------------------------------------


def test_parse_json_string():
    call = FunctionCallContent("c1", "f", '{"city": "Oslo", "days": [1, 2], "metric": true}')
    assert call.parse_arguments() == {"city": "Oslo", "days": [1, 2], "metric": True}


def test_parse_does_not_change_the_kept_string():
    call = FunctionCallContent("c1", "f", '{"a":1}')
    call.parse_arguments()
    assert call.arguments == '{"a":1}'


def test_parse_mapping_returns_an_equal_copy():
    arguments = {"a": 1}
    parsed = FunctionCallContent("c1", "f", arguments).parse_arguments()
    assert parsed == {"a": 1}
    assert parsed is not arguments
    parsed["b"] = 2
    assert arguments == {"a": 1}


def test_parse_mapping_returns_a_dict():
    parsed = FunctionCallContent("c1", "f", MappingProxyType({"a": 1})).parse_arguments()
    assert type(parsed) is dict
    assert parsed == {"a": 1}


@pytest.mark.parametrize("arguments", [None, "", "   ", "\n\t"])
def test_parse_no_arguments_gives_empty_dict(arguments):
    assert FunctionCallContent("c1", "f", arguments).parse_arguments() == {}


def test_invalid_json_raises_function_arguments_error_naming_call_and_function():
    call = FunctionCallContent("call_7", "search-web", "{not json")
    with pytest.raises(FunctionArgumentsError) as excinfo:
        call.parse_arguments()
    error = excinfo.value
    assert str(error) == (
        "function call 'call_7' (search-web): arguments are not valid JSON: "
        "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"
    )
    assert error.path == "function call 'call_7' (search-web)"
    assert (error.expected, error.got) == ("a JSON object", "invalid JSON")


def test_invalid_json_error_is_a_value_error():
    with pytest.raises(ValueError, match=r"^function call 'c1' \(f\): arguments are not valid"):
        FunctionCallContent("c1", "f", "{'a': 1}").parse_arguments()


def test_invalid_json_error_is_an_invalid_value_error():
    with pytest.raises(InvalidValueError):
        FunctionCallContent("c1", "f", "nope").parse_arguments()


def test_invalid_json_error_does_not_chain_the_decoder_error():
    with pytest.raises(FunctionArgumentsError) as excinfo:
        FunctionCallContent("c1", "f", "{").parse_arguments()
    assert excinfo.value.__cause__ is None
    assert excinfo.value.__suppress_context__


@pytest.mark.parametrize(
    ("text", "got"),
    [
        ("[1]", "a JSON list"),
        ('"text"', "a JSON str"),
        ("3", "a JSON int"),
        ("2.5", "a JSON float"),
        ("null", "a JSON NoneType"),
        ("true", "a JSON bool"),
    ],
)
def test_non_object_json_raises_naming_call_and_what_it_got(text, got):
    call = FunctionCallContent("call_7", "search-web", text)
    with pytest.raises(FunctionArgumentsError) as excinfo:
        call.parse_arguments()
    assert str(excinfo.value) == (
        f"function call 'call_7' (search-web): expected arguments that are a JSON object, got {got}"
    )
    assert excinfo.value.got == got


def test_error_for_call_without_id_names_the_function():
    with pytest.raises(FunctionArgumentsError, match=r"^function call None \(lookup\): "):
        FunctionCallContent(None, "lookup", "[]").parse_arguments()


@given(
    arguments=st.dictionaries(st.text(max_size=8), json_values(), max_size=4),
    separators=st.sampled_from([(",", ":"), (", ", ": "), (" , ", " : ")]),
)
def test_parse_inverts_json_dumps_of_any_object(arguments, separators):
    text = json.dumps(arguments, separators=separators)
    call = FunctionCallContent("c", "f", text)
    assert call.parse_arguments() == arguments
    assert call.arguments == text


@given(function_calls())
def test_parse_of_generated_calls_gives_a_dict(call):
    assert isinstance(call.parse_arguments(), dict)


# --- to_result ------------------------------------------------------------------------------


def test_to_result_quotes_id_and_name():
    call = FunctionCallContent("call_1", "get-weather", "{}")
    assert call.to_result("sunny") == FunctionResultContent(
        call_id="call_1", result="sunny", name="get-weather", is_error=False
    )


def test_to_result_error():
    call = FunctionCallContent("call_1", "get-weather", "{}")
    assert call.to_result("city not found", is_error=True) == FunctionResultContent(
        "call_1", "city not found", "get-weather", True
    )


def test_to_result_keeps_a_dict_value_as_is():
    value = {"temp": 21.5, "unit": "C"}
    result = FunctionCallContent("c1", "f").to_result(value)
    assert result.result == {"temp": 21.5, "unit": "C"}
    assert result.result is not value  # a checked copy


def test_to_result_of_call_without_id():
    assert FunctionCallContent(None, "f").to_result(1) == FunctionResultContent(None, 1, "f")


def test_to_result_starts_with_empty_metadata():
    call = FunctionCallContent("c1", "f", metadata={"provider": "x"})
    assert call.to_result("ok").metadata == {}


@given(call_id=st.none() | identifiers(), name=identifiers(), value=json_values())
def test_to_result_property(call_id, name, value):
    result = FunctionCallContent(call_id, name).to_result(value)
    assert (result.call_id, result.name, result.result, result.is_error) == (
        call_id,
        name,
        value,
        False,
    )
