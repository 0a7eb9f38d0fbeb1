import base64

import pytest
from hypothesis import given
from hypothesis import strategies as st

from semantic_chat.media import datauri
from semantic_chat.media.datauri import (
    DataURI,
    check_base64,
    decode_base64,
    encode_base64,
    format_data_uri,
    parse_data_uri,
)

RESTRICTED_FIRST = "abcdefghijklmnopqrstuvwxyz0123456789"
RESTRICTED_REST = RESTRICTED_FIRST + "!#$&-^_.+"
TOKEN = "abcdefghijklmnopqrstuvwxyz0123456789!#$%&'*+-.^_`|~"
VALUE = TOKEN + "ABCDEFGHIJKLMNOPQRSTUVWXYZ()/:<=>?@[]{}\""

names = st.builds(
    lambda first, rest: first + rest,
    st.sampled_from(RESTRICTED_FIRST),
    st.text(RESTRICTED_REST, max_size=12),
)
mime_types = st.builds(lambda a, b: f"{a}/{b}", names, names)
parameters = st.lists(
    st.tuples(st.text(TOKEN, min_size=1, max_size=8), st.text(VALUE, min_size=1, max_size=8)),
    max_size=3,
).map(tuple)


@pytest.mark.parametrize(
    "mime_type",
    ["image/png", "image/svg+xml", "audio/mp3", "video/mp4", "application/vnd.ms-excel",
     "audio/wav", "application/x-www-form-urlencoded", "text/plain"],
)
def test_any_valid_media_type_is_accepted(mime_type: str) -> None:
    uri = parse_data_uri(f"data:{mime_type};base64,AAEC")
    assert uri == DataURI(mime_type, (), b"\x00\x01\x02", True)


def test_parameters_are_kept_in_order() -> None:
    uri = parse_data_uri("data:audio/L16;rate=16000;Channels=2;base64,AAA=")
    assert uri.mime_type == "audio/l16"
    assert uri.parameters == (("rate", "16000"), ("channels", "2"))
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


def test_whitespace_and_case() -> None:
    uri = parse_data_uri("  \n DATA:Image/PNG;BASE64,aGVs\n bG8g\r\n d29y bGQ= \t\n")
    assert uri == DataURI("image/png", (), b"hello world", True)
    assert parse_data_uri("data:image/png ; charset=x ;base64,").parameters == (("charset", "x"),)


def test_empty_payload() -> None:
    assert parse_data_uri("data:image/png;base64,").data == b""
    assert parse_data_uri("data:,").data == b""


def test_errors() -> None:
    with pytest.raises(ValueError, match="data URI: must start with 'data:'"):
        parse_data_uri("http://example.com/a.png")
    with pytest.raises(ValueError, match="data URI: must start with 'data:'"):
        parse_data_uri("dat")
    with pytest.raises(ValueError, match="data URI: missing ',' separating the header from"):
        parse_data_uri("data:image/png;base64")
    with pytest.raises(ValueError, match="data URI: malformed media type 'image//png'"):
        parse_data_uri("data:image//png;base64,AAAA")
    with pytest.raises(ValueError, match="data URI: malformed media type 'png'"):
        parse_data_uri("data:png,AAAA")
    with pytest.raises(ValueError, match="data URI: malformed media type 'base64'"):
        parse_data_uri("data:base64,AAAA")
    with pytest.raises(ValueError, match="data URI: malformed media type '-image/png'"):
        parse_data_uri("data:-image/png,x")
    bad_parameter = r"data URI: malformed parameter 'charset' \(expected name=value\)"
    with pytest.raises(ValueError, match=bad_parameter):
        parse_data_uri("data:text/plain;charset,x")
    with pytest.raises(ValueError, match=r"malformed parameter 'base64' \(expected name=value\)"):
        parse_data_uri("data:text/plain;base64;charset=x,x")
    with pytest.raises(ValueError, match=r"malformed parameter '=x'"):
        parse_data_uri("data:text/plain;=x,x")
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


def test_format() -> None:
    assert format_data_uri("image/png", b"hi") == "data:image/png;base64,aGk="
    assert format_data_uri("Image/PNG", b"") == "data:image/png;base64,"
    assert (
        format_data_uri("audio/L16", b"\x00\x00", [("Rate", "16000")])
        == "data:audio/l16;rate=16000;base64,AAA="
    )
    assert (
        format_data_uri("audio/L16; rate=16000", b"", [("channels", "2")])
        == "data:audio/l16;rate=16000;channels=2;base64,"
    )


def test_format_errors() -> None:
    with pytest.raises(ValueError, match="malformed media type 'image'"):
        format_data_uri("image", b"")
    with pytest.raises(ValueError, match="malformed parameter"):
        format_data_uri("text/plain", b"", [("charset", "a;b")])
    with pytest.raises(ValueError, match="malformed parameter"):
        format_data_uri("text/plain", b"", [("charset", "a,b")])
    with pytest.raises(ValueError, match="malformed parameter"):
        format_data_uri("text/plain", b"", [("char set", "x")])
    with pytest.raises(ValueError, match="malformed parameter"):
        format_data_uri("text/plain", b"", [("charset", "")])


@given(mime_types, st.binary(max_size=64), parameters)
def test_round_trip(mime_type: str, data: bytes, params: tuple[tuple[str, str], ...]) -> None:
    uri = parse_data_uri(format_data_uri(mime_type, data, params))
    assert uri.mime_type == mime_type.lower()
    assert uri.data == data
    assert uri.parameters == params
    assert uri.base64


@given(mime_types, st.binary(max_size=64), parameters)
def test_canonical_text_is_reproduced(
    mime_type: str, data: bytes, params: tuple[tuple[str, str], ...]
) -> None:
    param_text = "".join(f";{name}={value}" for name, value in params)
    text = f"data:{mime_type}{param_text};base64,{base64.b64encode(data).decode()}"
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
