"""Tool schemas from signatures, OpenAI's strict mode, and arguments checked and converted."""

from __future__ import annotations

import dataclasses
import datetime
import enum
import functools
import json
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal, NewType, Optional, TypedDict

import attrs
import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st

from semantic_chat import FunctionArgumentsError, InvalidTypeError, InvalidValueError
from semantic_chat.tools.schema import (
    FunctionSchema,
    convert_arguments,
    function_schema,
    strict_schema,
)

META = jsonschema.Draft202012Validator

# --- what OpenAI's strict mode accepts (structured outputs' "supported schemas") -------------

STRICT_KEYWORDS = {
    "type", "properties", "required", "additionalProperties", "items", "anyOf", "enum",
    "const", "$ref", "$defs", "description", "pattern", "format", "multipleOf", "maximum",
    "exclusiveMaximum", "minimum", "exclusiveMinimum", "minItems", "maxItems",
}


def assert_strict(schema: Any, path: str = "parameters") -> None:
    """Every rule of strict mode, checked on every schema inside ``schema``."""
    assert isinstance(schema, dict), path
    assert set(schema) <= STRICT_KEYWORDS, (path, set(schema) - STRICT_KEYWORDS)
    assert any(key in schema for key in ("type", "anyOf", "enum", "const", "$ref")), path
    kinds = schema.get("type")
    kinds = kinds if isinstance(kinds, list) else [kinds]
    if "object" in kinds:
        assert schema["additionalProperties"] is False, path
        assert schema["required"] == list(schema["properties"]), path
    if "array" in kinds:
        assert "items" in schema, path
    for name, sub in schema.get("properties", {}).items():
        assert_strict(sub, f"{path}.{name}")
    for name, sub in schema.get("$defs", {}).items():
        assert_strict(sub, f"{path}.$defs.{name}")
    for index, sub in enumerate(schema.get("anyOf", [])):
        assert_strict(sub, f"{path}.anyOf[{index}]")
    if "items" in schema:
        assert_strict(schema["items"], f"{path}.items")


def assert_valid_schemas(func: Any) -> tuple[FunctionSchema, FunctionSchema]:
    loose = function_schema(func)
    META.check_schema(loose.parameters)
    strict = function_schema(func, strict=True)
    META.check_schema(strict.parameters)
    assert_strict(strict.parameters)
    assert strict.parameters["type"] == "object"
    return loose, strict


# --- the providers' documented examples --------------------------------------------------------


def get_weather(location: str, units: Literal["celsius", "fahrenheit"]) -> str:
    """Retrieves current weather for the given location.

    Args:
        location: City and country e.g. Bogotá, Colombia
        units: Units the temperature will be returned in.

    Returns:
        The weather, as text.
    """
    return f"{location}: 18 {units}"


# OpenAI's function calling guide, its get_weather tool (Responses API shape).
OPENAI_GET_WEATHER = {
    "type": "function",
    "name": "get_weather",
    "description": "Retrieves current weather for the given location.",
    "parameters": {
        "type": "object",
        "properties": {
            "location": {
                "type": "string",
                "description": "City and country e.g. Bogotá, Colombia",
            },
            "units": {
                "type": "string",
                "enum": ["celsius", "fahrenheit"],
                "description": "Units the temperature will be returned in.",
            },
        },
        "required": ["location", "units"],
        "additionalProperties": False,
    },
    "strict": True,
}


def test_openai_documented_get_weather_exactly():
    schema = function_schema(get_weather, strict=True)
    tool = {"type": "function", **attrs.asdict(schema)}
    assert tool == OPENAI_GET_WEATHER
    assert list(tool["parameters"]) == ["type", "properties", "required", "additionalProperties"]
    # strict already: strict mode changes nothing, and the non-strict schema is the same
    assert strict_schema(schema.parameters) == schema.parameters
    assert function_schema(get_weather).parameters == schema.parameters
    assert function_schema(get_weather).strict is False


def anthropic_get_weather(location: str, unit: Literal["celsius", "fahrenheit"] = "celsius"):
    """Get the current weather in a given location

    :param location: The city and state, e.g. San Francisco, CA
    :type location: str
    :param str unit: The unit of temperature, either "celsius" or
        "fahrenheit"
    :returns: the weather
    """
    return {"location": location, "unit": unit}


# Anthropic's tool use guide, its get_weather tool.
ANTHROPIC_GET_WEATHER = {
    "name": "get_weather",
    "description": "Get the current weather in a given location",
    "input_schema": {
        "type": "object",
        "properties": {
            "location": {
                "type": "string",
                "description": "The city and state, e.g. San Francisco, CA",
            },
            "unit": {
                "type": "string",
                "enum": ["celsius", "fahrenheit"],
                "description": 'The unit of temperature, either "celsius" or "fahrenheit"',
            },
        },
        "required": ["location"],
    },
}


def test_anthropic_documented_get_weather():
    schema = function_schema(anthropic_get_weather, name="get_weather")
    # ours says two more things than Anthropic's: the default, and that no other key is taken
    expected = json.loads(json.dumps(ANTHROPIC_GET_WEATHER["input_schema"]))
    expected["properties"]["unit"]["default"] = "celsius"
    expected["additionalProperties"] = False
    assert schema == FunctionSchema(
        name="get_weather", description=ANTHROPIC_GET_WEATHER["description"],
        parameters=expected,
    )
    # the input Anthropic's guide shows the model sending is valid under both and converts
    sent = {"location": "San Francisco, CA", "unit": "celsius"}
    jsonschema.validate(sent, ANTHROPIC_GET_WEATHER["input_schema"], cls=META)
    jsonschema.validate(sent, schema.parameters, cls=META)
    assert convert_arguments(anthropic_get_weather, sent) == sent
    assert convert_arguments(anthropic_get_weather, {"location": "Paris"}) == {
        "location": "Paris", "unit": "celsius"
    }


# --- every kind of hint: its schema, a value sent for it, and what that converts to ------------


class Unit(enum.Enum):
    CELSIUS = "celsius"
    FAHRENHEIT = "fahrenheit"


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


@attrs.frozen
class Point:
    """A place on Earth.

    Attributes:
        lat: Latitude in degrees.
        lon: Longitude in degrees.
    """

    lat: float
    lon: float
    alt: float | None = None


@dataclasses.dataclass
class Stop:
    name: str
    at: Point
    tags: list[str] = dataclasses.field(default_factory=list)


class Filters(TypedDict, total=False):
    """Search filters."""

    min_stars: int
    open_now: bool


class Movie(TypedDict):
    title: str
    year: int


UserId = NewType("UserId", int)

POINT_SCHEMA = {
    "type": "object",
    "description": "A place on Earth.",
    "properties": {
        "lat": {"type": "number", "description": "Latitude in degrees."},
        "lon": {"type": "number", "description": "Longitude in degrees."},
        "alt": {"type": ["number", "null"], "default": None},
    },
    "required": ["lat", "lon"],
    "additionalProperties": False,
}

HINTS = [
    (str, {"type": "string"}, "a", "a"),
    (int, {"type": "integer"}, 3, 3),
    (int, {"type": "integer"}, 3.0, 3),
    (float, {"type": "number"}, 2, 2.0),
    (bool, {"type": "boolean"}, True, True),
    (None, {"type": "null"}, None, None),
    (Any, {}, {"any": [1]}, {"any": [1]}),
    (Optional[int], {"type": ["integer", "null"]}, None, None),  # noqa: UP045 - the old spelling
    (int | str, {"type": ["integer", "string"]}, "x", "x"),
    (int | None, {"type": ["integer", "null"]}, 5, 5),
    (Literal["a", "b"], {"type": "string", "enum": ["a", "b"]}, "b", "b"),
    (Literal[1, 2], {"type": "integer", "enum": [1, 2]}, 2, 2),
    (Literal["a", None], {"enum": ["a", None]}, None, None),
    (Literal[Unit.CELSIUS], {"type": "string", "enum": ["celsius"]}, "celsius", Unit.CELSIUS),
    (Unit, {"type": "string", "enum": ["celsius", "fahrenheit"]}, "fahrenheit", Unit.FAHRENHEIT),
    (Level, {"type": "integer", "enum": [1, 2]}, 2, Level.HIGH),
    (Unit | None, {"anyOf": [{"type": "string", "enum": ["celsius", "fahrenheit"]},
                             {"type": "null"}]}, None, None),
    (list, {"type": "array"}, [1, "a"], [1, "a"]),
    (list[int], {"type": "array", "items": {"type": "integer"}}, [1, 2], [1, 2]),
    (Sequence[str], {"type": "array", "items": {"type": "string"}}, ["a"], ["a"]),
    (tuple[int, ...], {"type": "array", "items": {"type": "integer"}}, [1, 2], (1, 2)),
    (tuple[float, str], {"type": "array", "prefixItems": [{"type": "number"},
                                                           {"type": "string"}],
                         "minItems": 2, "maxItems": 2}, [1, "a"], (1.0, "a")),
    (set[str], {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
     ["a", "b"], {"a", "b"}),
    (frozenset[int], {"type": "array", "items": {"type": "integer"}, "uniqueItems": True},
     [3], frozenset({3})),
    (dict, {"type": "object"}, {"a": [1]}, {"a": [1]}),
    (dict[str, float], {"type": "object", "additionalProperties": {"type": "number"}},
     {"a": 1}, {"a": 1.0}),
    (Mapping[str, Unit], {"type": "object", "additionalProperties": {
        "type": "string", "enum": ["celsius", "fahrenheit"]}}, {"x": "celsius"},
     {"x": Unit.CELSIUS}),
    (UserId, {"type": "integer"}, 7, 7),
    (Annotated[int, "How many days.", 5], {"type": "integer", "description": "How many days."},
     3, 3),
    (list[Annotated[str, "A tag."]], {"type": "array", "items": {
        "type": "string", "description": "A tag."}}, ["x"], ["x"]),
    (Point, POINT_SCHEMA, {"lat": 1, "lon": 2.5}, Point(1.0, 2.5)),
    (Stop, {
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "at": POINT_SCHEMA,
            "tags": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["name", "at"],
        "additionalProperties": False,
    }, {"name": "Home", "at": {"lat": 0, "lon": 0, "alt": 12}},
        Stop("Home", Point(0.0, 0.0, 12.0))),
    (Filters, {
        "type": "object",
        "description": "Search filters.",
        "properties": {"min_stars": {"type": "integer"}, "open_now": {"type": "boolean"}},
        "additionalProperties": False,
    }, {"open_now": True}, {"open_now": True}),
    (Movie, {
        "type": "object",
        "properties": {"title": {"type": "string"}, "year": {"type": "integer"}},
        "required": ["title", "year"],
        "additionalProperties": False,
    }, {"title": "Up", "year": 2009}, {"title": "Up", "year": 2009}),
]


def one(hint: Any) -> Any:
    """A function of one parameter ``x`` annotated with ``hint``."""

    def tool(x):  # type: ignore[no-untyped-def]
        return x

    tool.__annotations__ = {"x": hint}
    return tool


@pytest.mark.parametrize(("hint", "schema", "sent", "converted"), HINTS,
                         ids=[str(index) for index in range(len(HINTS))])
def test_each_hint(hint, schema, sent, converted):
    tool = one(hint)
    assert function_schema(tool).parameters == {
        "type": "object",
        "properties": {"x": schema},
        "required": ["x"],
        "additionalProperties": False,
    }
    result = convert_arguments(tool, {"x": sent})
    assert result == {"x": converted}
    assert type(result["x"]) is type(converted)
    jsonschema.validate({"x": sent}, function_schema(tool).parameters, cls=META)
    META.check_schema(function_schema(tool).parameters)
    if any(hint == refused for refused in STRICT_REFUSED):
        with pytest.raises(InvalidValueError):
            function_schema(tool, strict=True)
    else:
        assert_valid_schemas(tool)


# hints strict mode cannot express: any value, an array of any values, free keys
STRICT_REFUSED = [Any, list, dict, dict[str, float], Mapping[str, Unit]]


def test_no_hint_is_any_value_and_no_parameters_is_an_empty_object():
    def untyped(x, y=2):  # type: ignore[no-untyped-def]
        return x

    def nothing() -> None:
        """Do nothing."""

    assert function_schema(untyped).parameters == {
        "type": "object",
        "properties": {"x": {}, "y": {"default": 2}},
        "required": ["x"],
        "additionalProperties": False,
    }
    assert convert_arguments(untyped, {"x": [None]}) == {"x": [None], "y": 2}
    assert function_schema(nothing) == FunctionSchema(
        name="nothing", description="Do nothing.",
        parameters={"type": "object", "properties": {}, "additionalProperties": False},
    )
    assert function_schema(nothing, strict=True).parameters == {
        "type": "object", "properties": {}, "required": [], "additionalProperties": False
    }
    assert convert_arguments(nothing, {}) == {}


# --- defaults, descriptions and docstring styles ----------------------------------------------


def search(
    query: str,
    limit: int = 10,
    unit: Unit = Unit.CELSIUS,
    near: Point | None = None,
    around: tuple[float, float] = (0.0, 0.0),
    since: Annotated[str | None, "An ISO date."] = None,
    point: Point = Point(1.0, 2.0),  # not a JSON value: no default in the schema
) -> list[str]:
    """Search the catalogue.

    Finds what matches, best first.

    Args:
        query: What to look for.
        limit (int): How many results
            to return at most.
        unit: Ignored here, as `since` is
            described by its hint.
        since: Not this one.

    Raises:
        ValueError: never.
    """
    return [query]


def test_defaults_descriptions_and_the_docstring():
    assert function_schema(search) == FunctionSchema(
        name="search",
        description="Search the catalogue.\n\nFinds what matches, best first.",
        parameters={
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "What to look for."},
                "limit": {"type": "integer", "description": "How many results to return at most.",
                          "default": 10},
                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"],
                         "description": "Ignored here, as `since` is described by its hint.",
                         "default": "celsius"},
                "near": {"anyOf": [POINT_SCHEMA, {"type": "null"}], "default": None},
                "around": {"type": "array", "prefixItems": [{"type": "number"},
                                                            {"type": "number"}],
                           "minItems": 2, "maxItems": 2, "default": [0.0, 0.0]},
                "since": {"type": ["string", "null"], "description": "An ISO date.",
                          "default": None},
                "point": POINT_SCHEMA,
            },
            "required": ["query"],
            "additionalProperties": False,
        },
    )
    assert_valid_schemas(search)
    assert convert_arguments(search, {"query": "tea"}) == {
        "query": "tea", "limit": 10, "unit": Unit.CELSIUS, "near": None, "around": (0.0, 0.0),
        "since": None, "point": Point(1.0, 2.0),
    }


def test_name_and_description_given_replace_the_functions_own():
    schema = function_schema(search, name="find", description="Find things.")
    assert (schema.name, schema.description) == ("find", "Find things.")


def numpy_style(city: str, days: int = 1) -> str:
    """Forecast the weather.

    Parameters
    ----------
    city : str
        The city, with its country
        if ambiguous.
    days : int, optional
        How many days ahead.

    Returns
    -------
    str
        The forecast.
    """
    return city


def sphinx_style(city: str, days: int = 1) -> str:
    """Forecast the weather.

    :param city: The city, with its country
        if ambiguous.
    :param int days: How many days ahead.
    :rtype: str
    """
    return city


def google_style(city: str, days: int = 1) -> str:
    """Forecast the weather.

    Arguments:
        city: The city, with its country
            if ambiguous.
        days (int, optional): How many days ahead.
    """
    return city


@pytest.mark.parametrize("func", [numpy_style, sphinx_style, google_style])
def test_the_three_docstring_styles(func):
    schema = function_schema(func, name="forecast")
    assert schema.description == "Forecast the weather."
    assert schema.parameters["properties"] == {
        "city": {"type": "string", "description": "The city, with its country if ambiguous."},
        "days": {"type": "integer", "description": "How many days ahead.", "default": 1},
    }


def test_methods_partials_and_callable_objects():
    class Weather:
        def get(self, city: str, unit: Unit = Unit.CELSIUS) -> str:
            """Read the weather.

            Args:
                city: Where.
            """
            return city

        def __call__(self, city: str) -> str:
            """Read it now."""
            return city

    weather = Weather()
    schema = function_schema(weather.get)
    assert (schema.name, schema.description) == ("get", "Read the weather.")
    assert list(schema.parameters["properties"]) == ["city", "unit"]
    assert convert_arguments(weather.get, {"city": "Oslo", "unit": "fahrenheit"}) == {
        "city": "Oslo", "unit": Unit.FAHRENHEIT
    }
    partial = functools.partial(search, limit=3)
    assert function_schema(partial).name == "search"
    assert function_schema(partial).parameters["properties"]["limit"]["default"] == 3
    assert convert_arguments(partial, {"query": "q"})["limit"] == 3
    assert function_schema(weather) == FunctionSchema(
        name="Weather", description="Read it now.",
        parameters={"type": "object", "properties": {"city": {"type": "string"}},
                    "required": ["city"], "additionalProperties": False},
    )


@attrs.define
class Tree:
    """A node with children."""

    label: str
    children: list[Tree] = attrs.Factory(list)


@attrs.define
class Pair:
    left: Tree
    right: Tree | None = None


def test_a_recursive_class_is_defined_once_in_defs():
    def walk(tree: Tree, pair: Pair | None = None) -> int:
        return 0

    tree = {
        "type": "object",
        "description": "A node with children.",
        "properties": {
            "label": {"type": "string"},
            "children": {"type": "array", "items": {"$ref": "#/$defs/Tree"}},
        },
        "required": ["label"],
        "additionalProperties": False,
    }
    assert function_schema(walk).parameters == {
        "type": "object",
        "properties": {
            "tree": {"$ref": "#/$defs/Tree"},
            "pair": {
                "anyOf": [
                    {
                        "type": "object",
                        "properties": {
                            "left": {"$ref": "#/$defs/Tree"},
                            "right": {"anyOf": [{"$ref": "#/$defs/Tree"}, {"type": "null"}],
                                      "default": None},
                        },
                        "required": ["left"],
                        "additionalProperties": False,
                    },
                    {"type": "null"},
                ],
                "default": None,
            },
        },
        "required": ["tree"],
        "additionalProperties": False,
        "$defs": {"Tree": tree},
    }
    assert_valid_schemas(walk)
    sent = {"tree": {"label": "a", "children": [{"label": "b", "children": [{"label": "c"}]}]}}
    assert convert_arguments(walk, sent) == {
        "tree": Tree("a", [Tree("b", [Tree("c")])]), "pair": None
    }
    jsonschema.validate(sent, function_schema(walk).parameters, cls=META)
    strict_sent = {"tree": {"label": "a", "children": [{"label": "b", "children": None}]},
                   "pair": {"left": {"label": "c", "children": []}, "right": None}}
    jsonschema.validate(strict_sent, function_schema(walk, strict=True).parameters, cls=META)
    assert convert_arguments(walk, strict_sent) == {
        "tree": Tree("a", [Tree("b")]), "pair": Pair(Tree("c"), None)
    }
    with pytest.raises(FunctionArgumentsError) as caught:
        convert_arguments(walk, {"tree": {"label": "a", "children": [{"label": 1}]}})
    assert str(caught.value) == "arguments.tree.children[0].label: expected a string, got integer"


# --- functions that cannot be described ------------------------------------------------------


class Shape(enum.Enum):
    SQUARE = (1, 1)


def test_what_cannot_be_described_names_the_parameter():
    def star(city: str, *rest: str) -> None: ...
    def kw(city: str, **options: Any) -> None: ...
    def positional(city: str, /) -> None: ...
    def when(at: datetime.date) -> None: ...
    def keys(scores: dict[int, str]) -> None: ...
    def floats(x: Literal[1.5]) -> None: ...  # type: ignore[valid-type]
    def shape(s: list[Shape]) -> None: ...
    def nested(stop: Bad) -> None: ...

    cases = [
        (star, "star.rest: *rest cannot be described to a model; a tool takes named "
               "parameters only"),
        (kw, "kw.options: **options cannot be described to a model; a tool takes named "
             "parameters only"),
        (positional, "positional.city: a positional-only parameter cannot be given by name, "
                     "as a model's arguments are"),
        (when, "when.at: unsupported type date; a tool's parameters take JSON-shaped types "
               "(str, int, float, bool, None, Literal, Enum, list, tuple, set, dict, unions, "
               "attrs, dataclass and TypedDict classes)"),
        (keys, "keys.scores: unsupported type dict[int, str]: JSON object keys are strings, "
               "so a mapping's keys must be str"),
        (floats, "floats.x: unsupported type Literal[1.5]: a Literal's values must be str, "
                 "int, bool, None or enum members of those"),
        (shape, "shape.s: unsupported type Shape: its member SQUARE has a tuple value; an "
                "enum's values must be JSON scalars"),
        (nested, "Bad.when: unsupported type bytes; a tool's parameters take JSON-shaped types "
                 "(str, int, float, bool, None, Literal, Enum, list, tuple, set, dict, unions, "
                 "attrs, dataclass and TypedDict classes)"),
    ]
    for func, message in cases:
        with pytest.raises(InvalidTypeError) as caught:
            function_schema(func)
        assert str(caught.value) == message
        with pytest.raises(InvalidTypeError) as caught:
            convert_arguments(func, {})
        assert str(caught.value) == message


@attrs.define
class Bad:
    when: bytes


def test_an_unresolvable_hint_and_bad_names():
    def later(x: Missing) -> None: ...  # type: ignore[name-defined]  # noqa: F821

    with pytest.raises(InvalidTypeError) as caught:
        function_schema(later)
    assert str(caught.value) == "later: cannot resolve its type hints: name 'Missing' is not defined"
    with pytest.raises(InvalidValueError) as caught:
        function_schema(lambda x: x)
    assert str(caught.value) == ("name: '<lambda>' is not a tool name any provider accepts "
                                 "(1 to 128 letters, digits, '_', '-', '.' or ':')")
    assert function_schema(lambda: None, name="noop").name == "noop"
    with pytest.raises(InvalidTypeError) as caught:
        function_schema(3)  # type: ignore[arg-type]
    assert str(caught.value) == "func: expected a callable, got int"


def test_function_schema_checks_its_fields():
    with pytest.raises(InvalidTypeError) as caught:
        FunctionSchema(name=3)  # type: ignore[arg-type]
    assert str(caught.value) == "name: expected a str, got int"
    with pytest.raises(InvalidValueError) as caught:
        FunctionSchema(name="x", parameters={"type": "array"})
    assert str(caught.value) == 'parameters.type: a tool\'s parameters schema must have "type": "object"'
    with pytest.raises(InvalidTypeError) as caught:
        FunctionSchema(name="x", parameters=[])  # type: ignore[arg-type]
    assert str(caught.value) == "parameters: expected a JSON Schema object, got list"
    with pytest.raises(InvalidTypeError) as caught:
        FunctionSchema(name="x", strict=1)  # type: ignore[arg-type]
    assert str(caught.value).startswith("strict: expected a bool")
    given = {"type": "object", "properties": {}}
    schema = FunctionSchema(name="x", parameters=given)
    given["properties"]["y"] = {}
    assert schema.parameters == {"type": "object", "properties": {}}  # copied when given
    assert FunctionSchema(name="x") == FunctionSchema(
        name="x", description=None,
        parameters={"type": "object", "properties": {}, "additionalProperties": False},
        strict=False,
    )
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        schema.name = "y"  # type: ignore[misc]


# --- strict mode ----------------------------------------------------------------------------


def test_strict_makes_optional_properties_nullable_and_required():
    assert function_schema(search, strict=True).parameters == {
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "What to look for."},
            "limit": {"type": ["integer", "null"],
                      "description": "How many results to return at most."},
            "unit": {"type": ["string", "null"], "enum": ["celsius", "fahrenheit", None],
                     "description": "Ignored here, as `since` is described by its hint."},
            "near": {"anyOf": [
                {
                    "type": "object",
                    "description": "A place on Earth.",
                    "properties": {
                        "lat": {"type": "number", "description": "Latitude in degrees."},
                        "lon": {"type": "number", "description": "Longitude in degrees."},
                        "alt": {"type": ["number", "null"]},
                    },
                    "required": ["lat", "lon", "alt"],
                    "additionalProperties": False,
                },
                {"type": "null"},
            ]},
            "around": {"type": ["array", "null"], "minItems": 2, "maxItems": 2,
                       "items": {"type": "number"}},
            "since": {"type": ["string", "null"], "description": "An ISO date."},
            "point": {"type": ["object", "null"], "description": "A place on Earth.",
                      "properties": {
                          "lat": {"type": "number", "description": "Latitude in degrees."},
                          "lon": {"type": "number", "description": "Longitude in degrees."},
                          "alt": {"type": ["number", "null"]},
                      },
                      "required": ["lat", "lon", "alt"],
                      "additionalProperties": False},
        },
        "required": ["query", "limit", "unit", "near", "around", "since", "point"],
        "additionalProperties": False,
    }
    # a model in strict mode sends null for "not given": that is the default
    sent = {"query": "tea", "limit": None, "unit": None, "near": None, "around": None,
            "since": None, "point": None}
    jsonschema.validate(sent, function_schema(search, strict=True).parameters, cls=META)
    assert convert_arguments(search, sent) == convert_arguments(search, {"query": "tea"})


def test_strict_rewrites_what_it_can_and_leaves_the_input_alone():
    given = {
        "type": "object",
        "title": "Args",
        "properties": {
            "name": {"type": "string", "minLength": 1, "maxLength": 9, "title": "Name",
                     "format": "email", "pattern": "^a"},
            "code": {"type": "string", "format": "color"},
            "ids": {"type": "array", "items": {"type": "integer", "minimum": 0},
                    "uniqueItems": True, "minItems": 1},
            "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}],
                     "items": False},
            "kind": {"oneOf": [{"const": "a"}, {"type": "integer", "multipleOf": 2}]},
            "mode": {"const": "fast"},
            "ref": {"$ref": "#/$defs/Thing", "description": "A thing."},
        },
        "required": ["name", "ids"],
        "$defs": {"Thing": {"type": "object", "properties": {"x": {"type": "number",
                                                                    "default": 1}}}},
        "examples": [{"name": "a"}],
    }
    copy = json.loads(json.dumps(given))
    assert strict_schema(given) == {
        "type": "object",
        "properties": {
            "name": {"type": "string", "format": "email", "pattern": "^a"},
            "code": {"type": ["string", "null"]},
            "ids": {"type": "array", "items": {"type": "integer", "minimum": 0}, "minItems": 1},
            "pair": {"type": ["array", "null"], "maxItems": 2,
                     "items": {"anyOf": [{"type": "string"}, {"type": "integer"}]}},
            "kind": {"anyOf": [{"const": "a"}, {"type": "integer", "multipleOf": 2},
                               {"type": "null"}]},
            "mode": {"enum": ["fast", None]},
            "ref": {"anyOf": [{"$ref": "#/$defs/Thing"}, {"type": "null"}],
                    "description": "A thing."},
        },
        "$defs": {"Thing": {"type": "object", "properties": {"x": {"type": ["number", "null"]}},
                            "required": ["x"], "additionalProperties": False}},
        "required": ["name", "code", "ids", "pair", "kind", "mode", "ref"],
        "additionalProperties": False,
    }
    assert given == copy
    META.check_schema(strict_schema(given))
    assert_strict(strict_schema(given))


STRICT_REFUSALS = [
    ({"type": "array"}, InvalidValueError,
     'parameters: the root of a strict schema must be an object ("type": "object")'),
    ({"type": "object", "properties": {"m": {"type": "object"}}}, InvalidValueError,
     "parameters.properties.m: an object with keys of the caller's choosing (a dict) cannot be "
     "strict; strict mode needs every property listed"),
    ({"type": "object", "properties": {"m": {"type": "object", "additionalProperties": {
        "type": "integer"}}}}, InvalidValueError,
     "parameters.properties.m.additionalProperties: an object with keys of the caller's "
     "choosing (a dict) cannot be strict; strict mode needs every property listed"),
    ({"type": "object", "properties": {"x": {}}}, InvalidValueError,
     "parameters.properties.x: a schema that allows any value cannot be strict; give it a type"),
    ({"type": "object", "properties": {"x": {"type": "array"}}}, InvalidValueError,
     "parameters.properties.x: an array of any values cannot be strict; give its items a type"),
    ({"type": "object", "properties": {"x": {"allOf": [{"type": "string"}]}}},
     InvalidValueError, "parameters.properties.x.allOf: strict mode does not accept the "
                        "keyword 'allOf'"),
    ({"type": "object", "properties": {"x": {"type": "string", "nullable": True}}},
     InvalidValueError, "parameters.properties.x.nullable: strict mode does not accept the "
                        "keyword 'nullable'"),
    ({"type": "object", "properties": {"x": 3}}, InvalidTypeError,
     "parameters.properties.x: expected a schema object, got integer"),
    ({"type": "object", "properties": {"x": {"anyOf": []}}}, InvalidValueError,
     "parameters.properties.x.anyOf: an empty anyOf allows no value"),
    ({"type": "object", "properties": {"x": {"oneOf": {}}}}, InvalidTypeError,
     "parameters.properties.x.oneOf: expected a list of schemas, got object"),
    ([], InvalidTypeError, "parameters: expected a JSON Schema object, got list"),
]


@pytest.mark.parametrize(("schema", "error", "message"), STRICT_REFUSALS)
def test_strict_refuses_what_it_cannot_express(schema, error, message):
    with pytest.raises(error) as caught:
        strict_schema(schema)
    assert str(caught.value) == message


def test_strict_function_schema_refuses_a_dict_parameter():
    def tally(scores: dict[str, int]) -> int:
        return 0

    assert function_schema(tally).parameters["properties"]["scores"] == {
        "type": "object", "additionalProperties": {"type": "integer"}
    }
    with pytest.raises(InvalidValueError) as caught:
        function_schema(tally, strict=True)
    assert str(caught.value) == (
        "parameters.properties.scores.additionalProperties: an object with keys of the "
        "caller's choosing (a dict) cannot be strict; strict mode needs every property listed"
    )


# --- arguments checked and converted -----------------------------------------------------------


def route(stops: list[Stop], unit: Unit = Unit.CELSIUS, legs: tuple[int, str] = (0, ""),
          ids: set[int] | None = None, filters: Filters | None = None) -> int:
    return len(stops)


HOME = {"name": "Home", "at": {"lat": 1, "lon": 2}}

BAD_ARGUMENTS = [
    ([], "arguments: expected an object, got array"),
    ({"stop": []}, "arguments.stop: unknown argument; route takes stops, unit, legs, ids, "
                   "filters"),
    ({"stops": [], "a b": 1}, 'arguments["a b"]: unknown argument; route takes stops, unit, '
                              "legs, ids, filters"),
    ({}, "arguments.stops: a required argument is missing"),
    ({"stops": None}, "arguments.stops: expected an array, got null"),
    ({"stops": [HOME, HOME, {"name": "x", "at": {"lat": "1", "lon": 2}}]},
     "arguments.stops[2].at.lat: expected a number, got string"),
    ({"stops": [{"name": "x"}]}, "arguments.stops[0].at: a required field is missing"),
    ({"stops": [{**HOME, "colour": "red"}]},
     "arguments.stops[0].colour: unknown field; Stop takes name, at, tags"),
    ({"stops": [HOME], "unit": "kelvin"},
     'arguments.unit: expected one of "celsius", "fahrenheit", got "kelvin"'),
    ({"stops": [], "legs": [1]}, "arguments.legs: expected an array of 2 items, got an array of 1"),
    ({"stops": [], "legs": [1.5, "a"]}, "arguments.legs[0]: expected an integer, got number"),
    ({"stops": [], "legs": [True, "a"]}, "arguments.legs[0]: expected an integer, got boolean"),
    ({"stops": [], "ids": [1, 2, 1]},
     "arguments.ids[2]: the items must be unique; this one repeats arguments.ids[0]"),
    ({"stops": [], "ids": "1"}, "arguments.ids: expected an array or null, got string"),
    ({"stops": [], "filters": {"min_stars": "5"}},
     "arguments.filters.min_stars: expected an integer, got string"),
    ({"stops": [], "filters": {"stars": 5}},
     "arguments.filters.stars: unknown field; Filters takes min_stars, open_now"),
    ({"stops": [{**HOME, "tags": ["a", 1]}]}, "arguments.stops[0].tags[1]: expected a string, "
                                                "got integer"),
    ({"stops": [], "legs": [float("nan"), "a"]}, "arguments.legs[0]: nan is not a JSON number"),
    ({1: []}, "arguments[1]: expected a str key, got int"),
]


@pytest.mark.parametrize(("arguments", "message"), BAD_ARGUMENTS)
def test_bad_arguments_are_located(arguments, message):
    with pytest.raises(FunctionArgumentsError) as caught:
        convert_arguments(route, arguments)
    assert str(caught.value) == message
    assert caught.value.path == message.partition(":")[0]


def test_arguments_converted_with_defaults_filled():
    sent = {"stops": [HOME, {**HOME, "tags": ["x"]}], "legs": [2, "b"], "ids": [3, 1],
            "filters": {"min_stars": 4}}
    assert convert_arguments(route, sent) == {
        "stops": [Stop("Home", Point(1.0, 2.0)), Stop("Home", Point(1.0, 2.0), ["x"])],
        "unit": Unit.CELSIUS,
        "legs": (2, "b"),
        "ids": {1, 3},
        "filters": {"min_stars": 4},
    }
    # a field left out keeps its class's default (a fresh list per Stop, from the factory)
    converted = convert_arguments(route, {"stops": [HOME, HOME]})
    assert converted["stops"][0].tags == []
    assert converted["stops"][0].tags is not converted["stops"][1].tags
    assert sent["stops"][0] == HOME  # the arguments given are not changed


@attrs.define
class Positive:
    n: int = attrs.field(validator=attrs.validators.gt(0))


def test_a_class_that_refuses_its_values_is_a_located_argument_error():
    def count(p: Positive) -> int:
        return p.n

    with pytest.raises(FunctionArgumentsError) as caught:
        convert_arguments(count, {"p": {"n": -1}})
    assert str(caught.value) == (
        "arguments.p: Positive refused these values: 'n' must be > 0: -1"
    )


def test_a_union_says_where_the_closest_member_failed():
    def pick(target: Point | Stop | int) -> None: ...

    assert convert_arguments(pick, {"target": 3}) == {"target": 3}
    assert convert_arguments(pick, {"target": HOME}) == {"target": Stop("Home", Point(1.0, 2.0))}
    with pytest.raises(FunctionArgumentsError) as caught:
        convert_arguments(pick, {"target": {"name": "x", "at": {"lat": 1}}})
    assert str(caught.value) == "arguments.target.at.lon: a required field is missing"
    with pytest.raises(FunctionArgumentsError) as caught:
        convert_arguments(pick, {"target": "x"})
    assert str(caught.value) == (
        "arguments.target: expected an object or an integer, got string"
    )


# --- properties: schema and conversion agree ---------------------------------------------------


def plan(
    stops: list[Stop],
    unit: Unit,
    legs: tuple[int, str],
    level: Level | None = None,
    kind: Literal["a", "b"] = "a",
    ids: frozenset[int] = frozenset(),
    filters: Filters | None = None,
) -> None:
    """Plan a trip."""


texts = st.text(max_size=5)
finite = st.floats(allow_nan=False, allow_infinity=False)
points = st.builds(Point, finite, finite, st.none() | finite)
stops = st.builds(Stop, texts, points, st.lists(texts, max_size=2))
filters = st.fixed_dictionaries({}, optional={"min_stars": st.integers(), "open_now": st.booleans()})
PLAN_VALUES = {
    "stops": st.lists(stops, max_size=3),
    "unit": st.sampled_from(Unit),
    "legs": st.tuples(st.integers(), texts),
    "level": st.none() | st.sampled_from(Level),
    "kind": st.sampled_from(["a", "b"]),
    "ids": st.frozensets(st.integers(-(2**53), 2**53), max_size=4),
    "filters": st.none() | filters,
}
PLAN_DEFAULTS = {"level": None, "kind": "a", "ids": frozenset(), "filters": None}


def as_json(value: Any) -> Any:
    """What a model sends for a Python value: JSON, as our schema describes it."""
    if isinstance(value, enum.Enum):
        return value.value
    if attrs.has(type(value)):
        return {key: as_json(item) for key, item in attrs.asdict(value, recurse=False).items()}
    if dataclasses.is_dataclass(value):
        return {field.name: as_json(getattr(value, field.name))
                for field in dataclasses.fields(value)}
    if isinstance(value, (list, tuple, frozenset, set)):
        return [as_json(item) for item in value]
    if isinstance(value, dict):
        return {key: as_json(item) for key, item in value.items()}
    return value


@given(st.fixed_dictionaries(
    {key: PLAN_VALUES[key] for key in ("stops", "unit", "legs")},
    optional={key: PLAN_VALUES[key] for key in PLAN_DEFAULTS},
))
def test_values_round_trip_through_json_and_convert_arguments(values):
    sent = json.loads(json.dumps(as_json(values)))
    loose, strict = function_schema(plan), function_schema(plan, strict=True)
    jsonschema.validate(sent, loose.parameters, cls=META)
    assert convert_arguments(plan, sent) == {**PLAN_DEFAULTS, **values}
    assert list(convert_arguments(plan, sent)) == list(PLAN_VALUES)
    # in strict mode a model sends every key, null for what it leaves to the default
    every = {key: sent.get(key) for key in PLAN_VALUES}
    if every["filters"] is not None:
        every["filters"] = {"min_stars": None, "open_now": None, **every["filters"]}
    jsonschema.validate(every, strict.parameters, cls=META)
    assert convert_arguments(plan, every) == convert_arguments(plan, sent)


def test_a_dict_round_trips_too():
    def tally(scores: dict[str, float], units: Mapping[str, list[Unit]]) -> None: ...

    @given(st.dictionaries(texts, finite), st.dictionaries(texts, st.lists(st.sampled_from(Unit))))
    def check(scores, units):
        sent = json.loads(json.dumps({"scores": scores, "units": as_json(units)}))
        jsonschema.validate(sent, function_schema(tally).parameters, cls=META)
        assert convert_arguments(tally, sent) == {"scores": scores, "units": units}

    check()


def trip(
    city: str,
    days: int,
    unit: Unit,
    kinds: list[Literal["rain", "sun"]],
    at: Point | None,
    pair: tuple[float, float] | None = None,
    level: Level | str | None = None,
) -> None:
    """A function whose every value the schema and the check judge alike."""


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | finite | st.sampled_from(
        ["x", "celsius", "rain", "sun", ""]
    ),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["lat", "lon", "alt", "x"]), inner, max_size=4
    ),
    max_leaves=8,
)
TRIP_VALID = {
    "city": texts,
    "days": st.integers() | st.integers(-100, 100).map(float),
    "unit": st.sampled_from(["celsius", "fahrenheit"]),
    "kinds": st.lists(st.sampled_from(["rain", "sun"]), max_size=3),
    "at": st.none() | points.map(as_json),
    "pair": st.none() | st.lists(finite, min_size=2, max_size=2),
    "level": st.none() | st.sampled_from([1, 2, "x"]),
}


@given(st.fixed_dictionaries(
    {}, optional={key: strategy | json_values for key, strategy in TRIP_VALID.items()}
) | st.dictionaries(st.sampled_from([*TRIP_VALID, "other"]), json_values, max_size=8))
def test_the_schema_accepts_exactly_what_convert_arguments_accepts(sent):
    for schema in (function_schema(trip).parameters, function_schema(trip, strict=True).parameters):
        try:
            convert_arguments(trip, sent)
        except FunctionArgumentsError:
            converts = False
        else:
            converts = True
        if "required" in schema and set(schema["required"]) > set(sent) and converts:
            # strict mode requires every key; one left out is the default, as null would be
            assert set(schema["required"]) - set(sent) <= {"pair", "level"}
            continue
        assert META(schema).is_valid(sent) == converts, (sent, schema)


def test_every_schema_here_is_valid_draft_2020_12():
    for func in (get_weather, anthropic_get_weather, search, numpy_style, sphinx_style,
                 google_style, route, trip, plan):
        assert_valid_schemas(func)


def test_docstring_corners():
    def google(city: str, days: int) -> None:
        """Forecast.

        Example:
            forecast("Oslo", 2)

        Args:
            city:
                The city.
            days (dict(str, int)): Days.
        """

    def numpy(x: float, y: float, z: float = 0.0) -> None:
        """Move.

        Parameters
        ----------
        x, y : float
            Where to.
        z : float, default 0
        """

    def sphinx(a: int, b: int) -> None:
        """Add.

        :param a: The first.
        :type a: int

        :param b: The second.
        :returns: the sum
        """

    def summary_only(a: int) -> None:
        """Just a summary; no sections."""

    cases = {
        google: ("Forecast.", {"city": "The city.", "days": "Days."}),
        numpy: ("Move.", {"x": "Where to.", "y": "Where to."}),
        sphinx: ("Add.", {"a": "The first.", "b": "The second."}),
        summary_only: ("Just a summary; no sections.", {}),
    }
    for func, (description, described) in cases.items():
        schema = function_schema(func)
        assert schema.description == description
        assert {name: prop["description"] for name, prop in schema.parameters["properties"].items()
                if "description" in prop} == described
