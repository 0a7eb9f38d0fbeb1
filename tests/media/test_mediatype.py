import mimetypes
import struct

import pytest

from semantic_chat.media import mediatype
from semantic_chat.media.mediatype import (
    guess_mime_type,
    kind_of_mime_type,
    normalize_mime_type,
    sniff_mime_type,
    split_mime_type,
)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("image/PNG", "image/PNG"),
        ("IMAGE/PNG", "IMAGE/PNG"),
        ("  Image/Svg+XML ", "Image/Svg+XML"),
        ("audio/mp3", "audio/mp3"),
        ("audio/L16;rate=16000", "audio/L16;rate=16000"),
        ("text/plain; Charset=UTF-8", "text/plain;Charset=UTF-8"),
        ("application/vnd.ms-excel", "application/vnd.ms-excel"),
        ("application/x-www-form-urlencoded", "application/x-www-form-urlencoded"),
        ("video/mp4;codecs=\"avc1.42E01E\"", "video/mp4;codecs=\"avc1.42E01E\""),
        ("a/b!#$&-^_.+", "a/b!#$&-^_.+"),
    ],
)
def test_normalize_keeps_the_case_and_drops_whitespace(value: str, expected: str) -> None:
    assert normalize_mime_type(value) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("text/plain;utf8", "text/plain;utf8"),
        ("text/plain ; UTF8 ", "text/plain;UTF8"),
        ("text/plain;", "text/plain;"),
        ("text/plain; ;charset=x", "text/plain;;charset=x"),
        ("text/plain;foo=", "text/plain;foo="),
        ("text/plain;a=b=c", "text/plain;a=b=c"),
        ("text/plain;a==", "text/plain;a=="),
        ("text/plain;base64=x", "text/plain;base64=x"),
    ],
)
def test_normalize_keeps_lenient_parameters_as_written(value: str, expected: str) -> None:
    assert normalize_mime_type(value) == expected


@pytest.mark.parametrize(
    "value",
    ["", "image", "image/", "/png", "image//png", "image/png/x", "ima ge/png", "-image/png",
     "image/.png", "image/p@ng", "é/x", "image/" + "a" * 128],
)
def test_normalize_rejects(value: str) -> None:
    with pytest.raises(ValueError, match=r"malformed media type .*: expected type/subtype"):
        normalize_mime_type(value)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("text/plain;=x", "malformed media type 'text/plain;=x': parameter 1 '=x' has no name "
                          "before '='"),
        ("text/plain;a;a b", "malformed media type 'text/plain;a;a b': parameter 2 'a b' is "
                             "neither a token nor name=value"),
        ("text/plain;a@b=1", "malformed media type 'text/plain;a@b=1': parameter 1 'a@b=1' has "
                             "a name 'a@b' that is not a token"),
        ("text/plain;a=b c", "malformed media type 'text/plain;a=b c': parameter 1 'a=b c' has "
                             "whitespace, a control character, ';' or ',' in its value"),
        ("text/plain;a=b,c", "malformed media type 'text/plain;a=b,c': parameter 1 'a=b,c' has "
                             "whitespace, a control character, ';' or ',' in its value"),
        ("text/plain;a=\x7f", "malformed media type 'text/plain;a=\\x7f': parameter 1 "
                              "'a=\\x7f' has whitespace, a control character, ';' or ',' in "
                              "its value"),
        ("text/plain;Base64", "malformed media type 'text/plain;Base64': parameter 1 'Base64' "
                              "is the data URI marker ';base64', which must come last"),
    ],
)
def test_normalize_rejects_unreadable_parameters(value: str, message: str) -> None:
    with pytest.raises(ValueError) as info:
        normalize_mime_type(value)
    assert str(info.value) == message


def test_normalize_accepts_127_character_names() -> None:
    long_type = "a" * 127 + "/" + "B" * 127
    assert normalize_mime_type(long_type) == long_type


def test_split_keeps_case_order_and_spelling() -> None:
    assert split_mime_type("Audio/L16; Rate=16000 ;channels=2") == (
        "Audio/L16",
        (("Rate", "16000"), ("channels", "2")),
    )
    assert split_mime_type("image/png") == ("image/png", ())
    assert split_mime_type("text/plain;utf8;;foo=;a=b=c") == (
        "text/plain",
        (("utf8", None), ("", None), ("foo", ""), ("a", "b=c")),
    )


def test_kind() -> None:
    assert kind_of_mime_type("IMAGE/png") == "image"
    assert kind_of_mime_type("IMAGE/PNG;utf8") == "image"
    assert kind_of_mime_type("Audio/WAV") == "audio"
    assert kind_of_mime_type("audio/wav") == "audio"
    assert kind_of_mime_type("video/mp4;codecs=x") == "video"
    assert kind_of_mime_type("text/markdown") == "text"
    assert kind_of_mime_type("application/pdf") == "application"
    with pytest.raises(ValueError, match="malformed media type 'png'"):
        kind_of_mime_type("png")


def riff(form: bytes) -> bytes:
    return b"RIFF" + struct.pack("<I", 100) + form + b"fmt "


def ebml(doctype: bytes) -> bytes:
    body = b"\x42\x86\x81\x01" + b"\x42\x82" + bytes([0x80 | len(doctype)]) + doctype
    return b"\x1a\x45\xdf\xa3" + bytes([0x80 | len(body)]) + body + b"\x18\x53\x80\x67"


def ftyp(brand: bytes) -> bytes:
    return struct.pack(">I", 24) + b"ftyp" + brand + b"\0\0\0\0isommp41"


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", "image/png"),
        (b"\xff\xd8\xff\xe0\0\x10JFIF", "image/jpeg"),
        (b"GIF87a\x01\0\x01\0", "image/gif"),
        (b"GIF89a\x01\0\x01\0", "image/gif"),
        (riff(b"WEBP"), "image/webp"),
        (b"BM" + struct.pack("<IHHII", 70, 0, 0, 54, 40), "image/bmp"),
        (b"BM" + struct.pack("<IHHII", 70, 0, 0, 26, 12), "image/bmp"),
        (riff(b"WAVE"), "audio/wav"),
        (riff(b"AVI "), "video/x-msvideo"),
        (b"ID3\x04\0\0\0\0\0\0", "audio/mpeg"),
        (b"\xff\xfb\x90\x64", "audio/mpeg"),  # MPEG-1 layer III, 128 kbit/s, 44.1 kHz
        (b"\xff\xf3\x48\xc4", "audio/mpeg"),  # MPEG-2 layer III
        (b"\xff\xe3\x18\xc4", "audio/mpeg"),  # MPEG-2.5 layer III
        (b"\xff\xfd\x90\x64", "audio/mpeg"),  # MPEG-1 layer II
        (b"\xff\xf1\x50\x80", "audio/aac"),  # ADTS, MPEG-4
        (b"\xff\xf9\x50\x80", "audio/aac"),  # ADTS, MPEG-2
        (b"fLaC\0\0\0\x22", "audio/flac"),
        (b"OggS\0\x02" + bytes(22), "audio/ogg"),
        (ebml(b"webm"), "video/webm"),
        (ebml(b"matroska"), "video/x-matroska"),
        (b"\x1a\x45\xdf\xa3", "video/webm"),
        (ftyp(b"M4A "), "audio/mp4"),
        (ftyp(b"isom"), "video/mp4"),
        (ftyp(b"mp42"), "video/mp4"),
        (ftyp(b"avif"), "image/avif"),
        (ftyp(b"heic"), "image/heic"),
        (ftyp(b"qt  "), "video/quicktime"),
        (b"%PDF-1.7\n", "application/pdf"),
    ],
)
def test_sniff(data: bytes, expected: str) -> None:
    assert sniff_mime_type(data) == expected


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"hello world",
        b"BM",
        b"BMW is a car maker, not a bitmap",
        b"RIFF\0\0\0\0XXXX",
        b"\xff\xeb\x90\x64",  # reserved MPEG version (01)
        b"\xff\xfb\xf0\x64",  # bitrate index 15 is invalid
        b"\xff\xfb\x9c\x64",  # sample-rate index 3 is reserved
        b"\xff\x00",
        b"\0\0\0\x18ftyx",
        b"{\"a\": 1}",
    ],
)
def test_sniff_unknown(data: bytes) -> None:
    assert sniff_mime_type(data) is None


def test_sniff_accepts_bytearray_and_memoryview() -> None:
    assert sniff_mime_type(bytearray(b"%PDF-1.4")) == "application/pdf"
    assert sniff_mime_type(memoryview(b"fLaC....")) == "audio/flac"  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("filename", "expected"),
    [
        ("photo.PNG", "image/png"),
        ("a/b/c.jpg", "image/jpeg"),
        ("C:\\Users\\x\\pic.jpeg", "image/jpeg"),
        ("anim.gif", "image/gif"),
        ("x.webp", "image/webp"),
        ("voice.wav", "audio/wav"),
        ("song.mp3", "audio/mpeg"),
        ("song.flac", "audio/flac"),
        ("song.ogg", "audio/ogg"),
        ("clip.webm", "video/webm"),
        ("clip.mp4", "video/mp4"),
        ("tune.m4a", "audio/mp4"),
        ("README.md", "text/markdown"),
        ("data.json", "application/json"),
        ("rows.jsonl", "application/jsonl"),
        ("config.yaml", "application/yaml"),
        ("config.yml", "application/yaml"),
        ("doc.pdf", "application/pdf"),
        ("notes.txt", "text/plain"),
        ("archive.tar.gz", "application/gzip"),
        ("sheet.xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
        ("style.css", "text/css"),
    ],
)
def test_guess(filename: str, expected: str) -> None:
    assert guess_mime_type(filename) == expected


@pytest.mark.parametrize("filename", ["", "README", ".bashrc", "dir.d/file", "x.unknownext", "a."])
def test_guess_unknown(filename: str) -> None:
    assert guess_mime_type(filename) is None


def test_guess_ignores_the_host_mime_database(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(mimetypes.types_map, ".wav", "audio/x-host-specific")
    monkeypatch.setitem(mimetypes.types_map, ".css", "text/x-host-specific")
    assert guess_mime_type("a.wav") == "audio/wav"
    assert guess_mime_type("a.css") == "text/css"
    assert mediatype.guess_mime_type("A.WAV") == "audio/wav"
