import base64
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from semantic_chat.errors import InvalidTypeError, InvalidValueError
from semantic_chat.media import datauri
from semantic_chat.media.datauri import (
    DataURI,
    check_base64,
    decode_base64,
    encode_base64,
    format_data_uri,
    parse_data_uri,
)

UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
RESTRICTED_FIRST = "abcdefghijklmnopqrstuvwxyz0123456789" + UPPER
RESTRICTED_REST = RESTRICTED_FIRST + "!#$&-^_.+"
TOKEN = "abcdefghijklmnopqrstuvwxyz0123456789!#$%&'*+-.^_`|~" + UPPER
VALUE = TOKEN + "()/:<=>?@[]{}\""

names = st.builds(
    lambda first, rest: first + rest,
    st.sampled_from(RESTRICTED_FIRST),
    st.text(RESTRICTED_REST, max_size=12),
)
# Mixed case, as other libraries write them (``Image/PNG``, ``audio/L16``).
mime_types = st.builds(lambda a, b: f"{a}/{b}", names, names)
# ``name=value`` (the value may be empty or hold '='), bare tokens (``utf8``) and empty ones.
parameter = (
    st.tuples(st.text(TOKEN, min_size=1, max_size=8), st.text(VALUE, max_size=8))
    | st.tuples(
        st.text(TOKEN, min_size=1, max_size=8).filter(lambda name: name.lower() != "base64"),
        st.none(),
    )
    | st.just(("", None))
)
parameters = st.lists(parameter, max_size=4).map(tuple)


def header(mime_type: str, params: tuple[tuple[str, str | None], ...]) -> str:
    return mime_type + "".join(
        ";" + (name if value is None else f"{name}={value}") for name, value in params
    )


@pytest.mark.parametrize(
    "mime_type",
    ["image/png", "image/svg+xml", "audio/mp3", "video/mp4", "application/vnd.ms-excel",
     "audio/wav", "application/x-www-form-urlencoded", "text/plain"],
)
def test_any_valid_media_type_is_accepted(mime_type: str) -> None:
    uri = parse_data_uri(f"data:{mime_type};base64,AAEC")
    assert uri == DataURI(mime_type, (), b"\x00\x01\x02", True)


def test_parameters_are_kept_in_order_and_case() -> None:
    uri = parse_data_uri("data:audio/L16;rate=16000;Channels=2;base64,AAA=")
    assert uri.mime_type == "audio/L16"
    assert uri.parameters == (("rate", "16000"), ("Channels", "2"))
    assert uri.data == b"\x00\x00"
    text = parse_data_uri("data:text/plain;charset=UTF-8,hello")
    assert text == DataURI("text/plain", (("charset", "UTF-8"),), b"hello", False)


def test_defaults_to_text_plain() -> None:
    note = DataURI("text/plain", (), b"A brief note", False)
    assert parse_data_uri("data:,A%20brief%20note") == note
    assert parse_data_uri("data:;charset=utf-8,x") == DataURI(
        "text/plain", (("charset", "utf-8"),), b"x", False
    )
    assert parse_data_uri("data:;base64,aGk=") == DataURI("text/plain", (), b"hi", True)


def test_percent_decoding() -> None:
    uri = parse_data_uri("data:text/plain,%E2%82%AC%2C%zz+a%20b,c")
    assert uri.data == "€,".encode() + b"%zz+a b,c"
    assert parse_data_uri("data:text/plain,caf\u00e9").data == "café".encode()
    assert parse_data_uri("data:image/png;base64,AA%3D%3D").data == b"\x00"


def test_whitespace_is_dropped_and_the_type_keeps_its_case() -> None:
    uri = parse_data_uri("  \n DATA:Image/PNG;BASE64,aGVs\n bG8g\r\n d29y bGQ= \t\n")
    assert uri == DataURI("Image/PNG", (), b"hello world", True)
    assert parse_data_uri("data:image/png ; charset=x ;base64,").parameters == (("charset", "x"),)


def test_empty_payload() -> None:
    assert parse_data_uri("data:image/png;base64,").data == b""
    assert parse_data_uri("data:,").data == b""


# The issue: real data URIs from other libraries were refused, and None raised AttributeError.


def test_a_bare_token_parameter_is_read() -> None:
    assert parse_data_uri("data:text/plain;utf8,hello") == DataURI(
        "text/plain", (("utf8", None),), b"hello", False
    )


def test_an_empty_parameter_is_read() -> None:
    assert parse_data_uri("data:text/plain;,x") == DataURI(
        "text/plain", (("", None),), b"x", False
    )


def test_a_parameter_with_an_empty_value_is_read() -> None:
    assert parse_data_uri("data:text/plain;foo=,x") == DataURI(
        "text/plain", (("foo", ""),), b"x", False
    )


def test_none_is_refused_with_a_type_error() -> None:
    with pytest.raises(InvalidTypeError) as info:
        parse_data_uri(None)  # type: ignore[arg-type]
    assert str(info.value) == "data URI: expected str, got NoneType"
    assert (info.value.path, info.value.expected, info.value.got) == ("", "str", "NoneType")
    assert isinstance(info.value, TypeError)


def test_lenient_parameters_together() -> None:
    uri = parse_data_uri("data:Text/Plain;UTF8; ;a=b=c;name=;Charset=X;BASE64,aGk=")
    assert uri == DataURI(
        "Text/Plain",
        (("UTF8", None), ("", None), ("a", "b=c"), ("name", ""), ("Charset", "X")),
        b"hi",
        True,
    )
    assert parse_data_uri("data:;utf8,x") == DataURI("text/plain", (("utf8", None),), b"x", False)
    assert parse_data_uri("data:;,x") == DataURI("text/plain", (("", None),), b"x", False)
    assert parse_data_uri("data:text/plain;base64=yes,x").parameters == (("base64", "yes"),)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("http://example.com/a.png", "data URI: must start with 'data:'"),
        ("dat", "data URI: must start with 'data:'"),
        ("data:image/png;base64", "data URI: missing ',' separating the header from the data"),
        ("data:image//png;base64,AAAA",
         "data URI: malformed media type 'image//png': expected type/subtype"),
        ("data:png,AAAA", "data URI: malformed media type 'png': expected type/subtype"),
        ("data:base64,AAAA", "data URI: malformed media type 'base64': expected type/subtype"),
        ("data:-image/png,x", "data URI: malformed media type '-image/png': expected type/subtype"),
        ("data:text/plain;base64;charset=x,x",
         "data URI: malformed parameter 1 'base64': is the data URI marker ';base64', which "
         "must come last"),
        ("data:text/plain;a=1;=x,x", "data URI: malformed parameter 2 '=x': has no name before '='"),
        ("data:text/plain;utf8;a b;c=d,x",
         "data URI: malformed parameter 2 'a b': is neither a token nor name=value"),
        ("data:text/plain;a(b)=c,x",
         "data URI: malformed parameter 1 'a(b)=c': has a name 'a(b)' that is not a token"),
        ("data:text/plain;a=b c,x",
         "data URI: malformed parameter 1 'a=b c': has whitespace, a control character, ';' or "
         "',' in its value"),
        ("data:;base64,aGk", "data URI: invalid base64 payload at character 3: 3 base64 "
                             "characters is not a multiple of 4 (missing '=' padding?)"),
    ],
)
def test_unreadable_uris_are_refused_saying_where(text: str, message: str) -> None:
    with pytest.raises(InvalidValueError) as info:
        parse_data_uri(text)
    assert str(info.value) == message
    assert isinstance(info.value, ValueError)  # ``except ValueError`` callers keep working
    with pytest.raises(InvalidValueError) as located:
        parse_data_uri(text, path="messages[0].items[1].uri")
    assert str(located.value) == f"messages[0].items[1].uri: {message}"
    assert located.value.path == "messages[0].items[1].uri"


def test_a_wrong_type_is_located_under_the_path() -> None:
    with pytest.raises(InvalidTypeError, match=re.escape("url: data URI: expected str, got bytes")):
        parse_data_uri(b"data:,x", path="url")  # type: ignore[arg-type]


def test_media_type_names_are_at_most_127_characters() -> None:
    long_name = "a" * 128
    with pytest.raises(ValueError, match="malformed media type"):
        parse_data_uri(f"data:image/{long_name};base64,")
    assert parse_data_uri(f"data:image/{long_name[:127]};base64,").mime_type.endswith("a" * 127)


@pytest.mark.parametrize(
    ("payload", "index", "why"),
    [
        ("aGVsbG8gd29ybGQ!", 15, "'!' is not a base64 character"),
        ("aGVs bG8g d29y bGQ!", 18, "'!' is not a base64 character"),
        ("aGVsbG8", 7, "7 base64 characters is not a multiple of 4"),
        ("aGVsbG8=A", 8, "'A' after the '=' padding"),
        ("aGk==", 4, "too much '=' padding"),
        ("aGk=\n=", 5, "too much '=' padding"),
        ("=aGk", 0, "unexpected '=' padding"),
        ("aGVs=", 4, "unexpected '=' padding"),
        ("aG=", 3, "incomplete '=' padding"),
        ("aGVsb", 5, "5 base64 characters is not a multiple of 4"),
        ("aGVs\u00e9", 4, "'é' is not a base64 character"),
        ("aGVs-_", 4, "'-' is not a base64 character"),
    ],
)
def test_invalid_base64_payload_position(payload: str, index: int, why: str) -> None:
    with pytest.raises(ValueError, match="data URI: invalid base64 payload at character") as info:
        parse_data_uri(f"data:image/png;base64,{payload}")
    assert str(info.value).startswith(
        f"data URI: invalid base64 payload at character {index}: {why}"
    )


def test_invalid_percent_decoded_base64_says_so() -> None:
    with pytest.raises(ValueError, match="at character 2 of the percent-decoded payload"):
        parse_data_uri("data:image/png;base64,AA%21A")


def test_format_writes_the_media_type_as_given() -> None:
    assert format_data_uri("image/png", b"hi") == "data:image/png;base64,aGk="
    assert format_data_uri("Image/PNG", b"") == "data:Image/PNG;base64,"
    assert (
        format_data_uri("audio/L16", b"\x00\x00", [("Rate", "16000")])
        == "data:audio/L16;Rate=16000;base64,AAA="
    )
    assert (
        format_data_uri("audio/L16; rate=16000", b"", [("channels", "2")])
        == "data:audio/L16;rate=16000;channels=2;base64,"
    )
    assert (
        format_data_uri("text/plain;utf8", b"hello", [("", None), ("foo", ""), ("a", "b=c")])
        == "data:text/plain;utf8;;foo=;a=b=c;base64,aGVsbG8="
    )


def test_what_parse_read_is_written_back_unchanged() -> None:
    text = "data:TEXT/Plain;UTF8;;a=b=c;name=;Charset=X;base64,aGk="
    uri = parse_data_uri(text)
    assert format_data_uri(uri.mime_type, uri.data, uri.parameters) == text
    plain = parse_data_uri("data:text/plain;utf8,hello")
    assert format_data_uri(plain.mime_type, plain.data, plain.parameters) == (
        "data:text/plain;utf8;base64,aGVsbG8="
    )


@pytest.mark.parametrize(
    ("parameter", "message"),
    [
        (("charset", "a;b"), "data URI: malformed parameter 1 ('charset', 'a;b'): has whitespace, "
                             "a control character, ';' or ',' in its value"),
        (("charset", "a,b"), "data URI: malformed parameter 1 ('charset', 'a,b'): has whitespace, "
                             "a control character, ';' or ',' in its value"),
        (("char set", "x"), "data URI: malformed parameter 1 ('char set', 'x'): has a name "
                            "'char set' that is not a token"),
        (("", "x"), "data URI: malformed parameter 1 ('', 'x'): has no name before '='"),
        (("a;b", None), "data URI: malformed parameter 1 ('a;b', None): is neither a token nor "
                        "name=value"),
        (("a=b", None), "data URI: malformed parameter 1 ('a=b', None): would be read back as "
                        "('a', 'b')"),
        ((" a", "x"), "data URI: malformed parameter 1 (' a', 'x'): would be read back as "
                      "('a', 'x')"),
        (("Base64", None), "data URI: malformed parameter 1 ('Base64', None): is the data URI "
                           "marker ';base64', which must come last"),
    ],
)
def test_format_refuses_what_would_not_be_read_back(
    parameter: tuple[str, str | None], message: str
) -> None:
    with pytest.raises(InvalidValueError) as info:
        format_data_uri("text/plain", b"", [parameter])
    assert str(info.value) == message


def test_format_refuses_a_malformed_media_type() -> None:
    with pytest.raises(ValueError) as info:
        format_data_uri("image", b"")
    assert str(info.value) == "malformed media type 'image': expected type/subtype"


@given(mime_types, st.binary(max_size=64), parameters)
def test_round_trip(
    mime_type: str, data: bytes, params: tuple[tuple[str, str | None], ...]
) -> None:
    uri = parse_data_uri(format_data_uri(mime_type, data, params))
    assert uri == DataURI(mime_type, params, data, True)


@given(mime_types, st.binary(max_size=64), parameters)
def test_round_trip_of_parameters_written_in_the_media_type(
    mime_type: str, data: bytes, params: tuple[tuple[str, str | None], ...]
) -> None:
    uri = parse_data_uri(format_data_uri(header(mime_type, params), data))
    assert uri == DataURI(mime_type, params, data, True)


@given(mime_types, st.binary(max_size=64), parameters)
def test_canonical_text_is_reproduced(
    mime_type: str, data: bytes, params: tuple[tuple[str, str | None], ...]
) -> None:
    text = f"data:{header(mime_type, params)};base64,{base64.b64encode(data).decode()}"
    uri = parse_data_uri(text)
    assert format_data_uri(uri.mime_type, uri.data, uri.parameters) == text


@given(st.binary(max_size=200))
def test_base64_round_trip(data: bytes) -> None:
    text = encode_base64(data)
    assert text == base64.b64encode(data).decode("ascii")
    assert decode_base64(text) == data


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("aGk", "invalid base64 at character 3: 3 base64 characters is not a multiple of 4 "
                "(missing '=' padding?)"),
        ("aGk=\n", "invalid base64 at character 4: '\\n' is not a base64 character"),
        ("aG k=", "invalid base64 at character 2: ' ' is not a base64 character"),
        ("a-k=", "invalid base64 at character 1: '-' is not a base64 character"),
        ("aGk=aGk=", "invalid base64 at character 4: 'a' after the '=' padding"),
        ("aG=", "invalid base64 at character 3: incomplete '=' padding"),
        ("a===", "invalid base64 at character 1: unexpected '=' padding"),
        ("€", "invalid base64 at character 0: '€' is not a base64 character"),
    ],
)
def test_decode_base64_errors(text: str, message: str) -> None:
    with pytest.raises(ValueError) as info:
        decode_base64(text)
    assert str(info.value) == message


# Text near the edges of base64: the alphabet, padding in any place, a non-ASCII character.
_NEAR_BASE64 = st.text("AQgw+/=é-\n", max_size=14) | st.binary(max_size=12).map(
    lambda data: base64.b64encode(data).decode("ascii")
)


@given(_NEAR_BASE64)
def test_check_base64_accepts_exactly_what_decoding_accepts(text: str) -> None:
    try:
        decode_base64(text)
        refused = None
    except ValueError as error:
        refused = str(error)
    if refused is None:
        check_base64(text)
    else:
        with pytest.raises(ValueError) as info:
            check_base64(text)
        assert str(info.value) == refused  # the same located message


def test_data_uri_is_frozen() -> None:
    uri = parse_data_uri("data:,x")
    with pytest.raises(AttributeError):
        uri.data = b"y"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("text", "index"), [("aGVs=", 4), ("aGVs==", 4), ("aGVs====", 4), ("aGVzdA===", 8)]
)
def test_padding_after_a_complete_group_is_rejected(text: str, index: int) -> None:
    with pytest.raises(ValueError, match=f"invalid base64 at character {index}: "):
        decode_base64(text)
    with pytest.raises(ValueError, match=f"payload at character {index}: "):
        parse_data_uri(f"data:;base64,{text}")


def test_python_310_fallback_is_as_strict(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(datauri, "_a2b", datauri._a2b_validated)
    assert decode_base64("aGVsbG8gd29ybGQ=") == b"hello world"
    assert parse_data_uri("data:;base64,aGVs\nbG8=").data == b"hello"
    bad = ["aGk", "aGk=\n", "a-k=", "aGk=aGk=", "aG=", "a===", "aGVs=", "aGVs====", "====", "€"]
    for text in bad:
        with pytest.raises(ValueError, match="invalid base64 at character"):
            decode_base64(text)
