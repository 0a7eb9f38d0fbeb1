"""Binary items: one source, bytes only, sniffed media types, lazy base64, data URIs, files."""

import base64
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import binary_items

from semantic_chat import (
    AudioContent,
    BinaryContent,
    ContentType,
    FileContent,
    ImageContent,
    InvalidTypeError,
    InvalidValueError,
)

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + bytes(13)
PDF = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n"
WAV_HEAD = b"RIFF\x24\x00\x00\x00WAVEfmt "
MP3 = b"ID3\x04\x00\x00\x00\x00\x00\x00" + bytes(10)
KINDS = [BinaryContent, ImageContent, AudioContent, FileContent]


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def test_content_types():
    assert BinaryContent.content_type is ContentType.BINARY
    assert ImageContent.content_type is ContentType.IMAGE
    assert AudioContent.content_type is ContentType.AUDIO
    assert FileContent.content_type is ContentType.FILE


@pytest.mark.parametrize("cls", [ImageContent, AudioContent, FileContent])
def test_kinds_are_binary_content(cls):
    assert issubclass(cls, BinaryContent)


# --- exactly one source ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "source"),
    [
        ({"data": b"x", "mime_type": "text/plain"}, "data"),
        ({"uri": "https://example.com/a.png"}, "uri"),
        ({"file_id": "file-abc"}, "file_id"),
    ],
)
def test_one_source_is_accepted(fields, source):
    item = BinaryContent(**fields)
    assert getattr(item, source) == fields[source]


@pytest.mark.parametrize("cls", KINDS)
def test_no_source_is_refused(cls):
    with pytest.raises(InvalidValueError) as excinfo:
        cls(mime_type="image/png")
    assert str(excinfo.value) == (
        f"{cls.__name__} needs exactly one of data, uri and file_id, got none"
    )
    assert (excinfo.value.expected, excinfo.value.got) == ("one source", "0")


@pytest.mark.parametrize(
    ("fields", "count"),
    [
        ({"data": b"x", "uri": "https://example.com/a"}, "2"),
        ({"data": b"x", "file_id": "file-1"}, "2"),
        ({"uri": "https://example.com/a", "file_id": "file-1"}, "2"),
        ({"data": b"x", "uri": "https://example.com/a", "file_id": "file-1"}, "3"),
    ],
)
def test_several_sources_are_refused_naming_the_count(fields, count):
    with pytest.raises(ValueError, match=f"^ImageContent needs exactly one of data, uri and "
                       f"file_id, got {count}$"):
        ImageContent(mime_type="image/png", **fields)


def test_data_uri_and_data_together_are_two_sources():
    with pytest.raises(InvalidValueError, match="got 2"):
        BinaryContent(data=b"x", uri="data:text/plain,x", mime_type="text/plain")


def test_empty_bytes_are_a_source():
    assert BinaryContent(data=b"", mime_type="text/plain").data == b""


# --- data must be bytes ---------------------------------------------------------------------


@pytest.mark.parametrize("value", [bytearray(PNG), memoryview(PNG)])
def test_bytes_like_data_is_converted_to_bytes(value):
    item = ImageContent(data=value)
    assert type(item.data) is bytes
    assert item.data == PNG


def test_str_data_is_refused():
    with pytest.raises(TypeError) as excinfo:
        BinaryContent(data="aGk=", mime_type="text/plain")
    assert isinstance(excinfo.value, InvalidTypeError)
    assert str(excinfo.value) == "data: expected bytes, got str"
    assert excinfo.value.path == "data"


@pytest.mark.parametrize(("value", "name"), [(3, "int"), ([1, 2], "list")])
def test_other_data_types_are_refused(value, name):
    with pytest.raises(InvalidTypeError, match=f"^data: expected bytes, got {name}$"):
        BinaryContent(data=value, mime_type="text/plain")


def test_assigning_str_data_is_refused():
    item = BinaryContent(data=b"x", mime_type="text/plain")
    with pytest.raises(InvalidTypeError, match="expected bytes, got str"):
        item.data = "y"  # type: ignore[assignment]


def test_assigning_bytearray_data_stores_bytes():
    item = BinaryContent(data=b"x", mime_type="text/plain")
    item.data = bytearray(b"yz")  # type: ignore[assignment]
    assert type(item.data) is bytes
    assert item.data == b"yz"


# --- media types ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "mime_type"),
    [(PNG, "image/png"), (PDF, "application/pdf"), (WAV_HEAD, "audio/wav"), (MP3, "audio/mpeg")],
)
def test_mime_type_is_sniffed_from_magic_bytes(data, mime_type):
    assert BinaryContent(data=data).mime_type == mime_type


def test_image_mime_type_sniffed_from_png():
    assert ImageContent(data=PNG).mime_type == "image/png"


def test_given_mime_type_wins_over_sniffing():
    assert BinaryContent(data=PNG, mime_type="application/octet-stream").mime_type == (
        "application/octet-stream"
    )


def test_unsniffable_data_without_mime_type_is_refused():
    with pytest.raises(InvalidValueError) as excinfo:
        BinaryContent(data=b"abc")
    assert str(excinfo.value) == (
        "mime_type: cannot tell the media type of these 3 bytes: pass mime_type="
    )
    assert excinfo.value.path == "mime_type"


def test_unsniffable_base64_without_mime_type_is_refused():
    with pytest.raises(InvalidValueError, match=r"these 8 base64 characters: pass mime_type=$"):
        BinaryContent.from_base64(b64(b"hello"))


@pytest.mark.parametrize("fields", [{"uri": "https://example.com/x"}, {"file_id": "file-1"}])
def test_references_need_no_mime_type(fields):
    assert ImageContent(**fields).mime_type is None


@pytest.mark.parametrize(
    ("given", "stored"),
    [
        ("Image/PNG", "Image/PNG"),  # the case is kept as given, as data URIs keep it
        ("text/plain; charset=UTF-8", "text/plain;charset=UTF-8"),
        ("audio/L16;rate=16000", "audio/L16;rate=16000"),
        ("image/svg+xml", "image/svg+xml"),
        ("application/vnd.ms-excel", "application/vnd.ms-excel"),
        ("audio/mp3", "audio/mp3"),
    ],
)
def test_mime_type_is_normalized(given, stored):
    assert BinaryContent(data=b"x", mime_type=given).mime_type == stored


@pytest.mark.parametrize("mime_type", ["png", "image/", "/png", "image png", "text/plain;=x"])
def test_malformed_mime_type_is_refused(mime_type):
    with pytest.raises(ValueError, match="malformed media type"):
        BinaryContent(data=b"x", mime_type=mime_type)


def test_malformed_mime_type_is_refused_for_references_too():
    with pytest.raises(ValueError, match="malformed media type"):
        ImageContent(uri="https://example.com/x", mime_type="jpeg")


def test_malformed_mime_type_raises_invalid_value_error_naming_mime_type():
    with pytest.raises(InvalidValueError) as excinfo:
        BinaryContent(data=b"x", mime_type="png")
    assert excinfo.value.path == "mime_type"


# --- lazy base64 ----------------------------------------------------------------------------


def test_from_base64_keeps_the_text_undecoded():
    item = FileContent.from_base64(b64(b"hello"), "text/plain")
    assert item.is_decoded is False


def test_reading_data_decodes_once():
    item = FileContent.from_base64(b64(b"hello"), "text/plain")
    assert item.data == b"hello"
    assert item.is_decoded is True
    assert item.data is item.data


def test_base64_of_undecoded_item_is_the_text_as_given():
    text = b64(b"hello")
    item = FileContent.from_base64(text, "text/plain")
    assert item.base64 == text
    assert item.is_decoded is False


def test_mime_type_sniffed_from_base64_without_decoding_it_all():
    item = ImageContent.from_base64(b64(PNG + bytes(100)))
    assert item.mime_type == "image/png"
    assert item.is_decoded is False


def test_from_base64_takes_fields():
    item = ImageContent.from_base64(b64(PNG), detail="low", metadata={"k": 1})
    assert (item.detail, item.metadata) == ("low", {"k": 1})


def test_invalid_base64_is_refused_up_front_without_decoding():
    with pytest.raises(InvalidValueError, match=r"^data: invalid base64 at character 4"):
        FileContent.from_base64("aGk=!!", "text/plain")


def test_invalid_base64_start_is_refused_when_sniffing():
    with pytest.raises(ValueError, match="invalid base64 at character 0"):
        FileContent.from_base64("!!!!")


def test_invalid_base64_start_is_refused_even_with_a_mime_type():
    with pytest.raises(ValueError, match="invalid base64"):
        FileContent.from_base64("!!!!", "text/plain")


def test_decoded_and_undecoded_equal_payloads_are_equal():
    assert FileContent.from_base64(b64(b"hello"), "text/plain") == FileContent(
        data=b"hello", mime_type="text/plain"
    )


def test_comparing_does_not_decode():
    lazy = FileContent.from_base64(b64(b"hello"), "text/plain")
    assert lazy == FileContent(data=b"hello", mime_type="text/plain")
    assert lazy.is_decoded is False


def test_different_payloads_are_unequal():
    assert FileContent.from_base64(b64(b"hello"), "text/plain") != FileContent(
        data=b"hellO", mime_type="text/plain"
    )


def test_base64_of_bytes():
    assert BinaryContent(data=b"hi", mime_type="text/plain").base64 == "aGk="


@pytest.mark.parametrize("fields", [{"uri": "https://example.com/x"}, {"file_id": "file-1"}])
def test_references_have_no_bytes(fields):
    item = BinaryContent(**fields)
    assert (item.data, item.base64, item.data_uri, item.is_decoded) == (None, None, None, True)


def test_repr_shows_the_size_not_the_bytes():
    assert repr(ImageContent(data=PNG)) == (
        f"ImageContent(data=<{len(PNG)} bytes>, mime_type='image/png', "
        "uri=None, file_id=None, detail=None)"
    )


def test_repr_of_undecoded_payload_counts_characters():
    assert "data=<8 base64 characters>" in repr(FileContent.from_base64("aGVsbG8=", "text/plain"))


# --- data URIs ------------------------------------------------------------------------------


def test_data_uri():
    assert BinaryContent(data=b"hi", mime_type="text/plain").data_uri == (
        "data:text/plain;base64,aGk="
    )


def test_data_uri_of_png():
    assert ImageContent(data=PNG).data_uri == "data:image/png;base64," + b64(PNG)


def test_data_uri_keeps_mime_type_parameters():
    item = FileContent(data=b"hi", mime_type="text/plain;charset=utf-8")
    assert item.data_uri == "data:text/plain;charset=utf-8;base64,aGk="


def test_metadata_never_enters_the_data_uri():
    item = FileContent(
        data=b"hi",
        mime_type="text/plain",
        metadata={"charset": "latin-1", "filename": "a.txt", "name": "x"},
        filename="a.txt",
    )
    assert item.data_uri == "data:text/plain;base64,aGk="


def test_from_data_uri_keeps_parameters_in_mime_type():
    item = FileContent.from_data_uri("data:text/plain;charset=utf-8;base64,aGk=")
    assert item == FileContent(data=b"hi", mime_type="text/plain;charset=utf-8")


def test_from_data_uri_takes_fields():
    item = FileContent.from_data_uri(
        "data:application/pdf;base64," + b64(PDF), filename="a.pdf", metadata={"k": 1}
    )
    assert item == FileContent(data=PDF, mime_type="application/pdf", filename="a.pdf",
                               metadata={"k": 1})


def test_from_data_uri_decodes_percent_encoding():
    item = BinaryContent.from_data_uri("data:,A%20brief%20note")
    assert (item.data, item.mime_type) == (b"A brief note", "text/plain")


@pytest.mark.parametrize(
    "mime_type",
    ["image/svg+xml", "audio/mp3", "application/vnd.ms-excel", "audio/l16;rate=16000"],
)
def test_data_uri_round_trips_any_media_type(mime_type):
    item = BinaryContent(data=b"\x00\xffpayload", mime_type=mime_type)
    assert BinaryContent.from_data_uri(item.data_uri) == item


def test_from_data_uri_refuses_a_non_data_uri():
    with pytest.raises(ValueError, match="must start with 'data:'"):
        ImageContent.from_data_uri("https://example.com/a.png")


def test_data_uri_given_as_uri_becomes_data():
    item = ImageContent(uri="data:image/png;base64," + b64(PNG))
    assert (item.data, item.uri, item.mime_type) == (PNG, None, "image/png")


def test_data_uri_given_as_uri_equals_the_bytes():
    assert FileContent(uri="data:text/plain;charset=utf-8;base64,aGk=") == FileContent(
        data=b"hi", mime_type="text/plain;charset=utf-8"
    )


def test_data_uri_scheme_is_case_insensitive():
    assert BinaryContent(uri="DATA:text/plain,hi").data == b"hi"


def test_given_mime_type_wins_over_the_data_uri_type():
    item = FileContent(uri="data:text/plain;base64,aGk=", mime_type="text/markdown")
    assert item.mime_type == "text/markdown"


def test_malformed_data_uri_given_as_uri_is_refused():
    with pytest.raises(ValueError, match="missing ','"):
        BinaryContent(uri="data:text/plain;base64")


@given(
    data=st.binary(max_size=64),
    mime_type=st.sampled_from(["image/png", "text/plain;charset=utf-8", "audio/l16;rate=8000"]),
)
def test_data_uri_round_trip_property(data, mime_type):
    item = FileContent(data=data, mime_type=mime_type)
    assert FileContent.from_data_uri(item.data_uri) == item


@given(binary_items())
def test_base64_round_trip_property(item):
    if item.data is None:
        assert item.base64 is None
        return
    again = type(item).from_base64(item.base64, item.mime_type)
    assert again.data == item.data


# --- files ----------------------------------------------------------------------------------


def test_from_file_reads_bytes_and_sniffs(tmp_path):
    path = tmp_path / "picture.bin"
    path.write_bytes(PNG)
    assert ImageContent.from_file(path) == ImageContent(data=PNG, mime_type="image/png")


def test_from_file_accepts_a_str_path(tmp_path):
    path = tmp_path / "doc.pdf"
    path.write_bytes(PDF)
    assert FileContent.from_file(str(path)).data == PDF


def test_file_content_gets_filename_from_the_path(tmp_path):
    path = tmp_path / "report.pdf"
    path.write_bytes(PDF)
    assert FileContent.from_file(path) == FileContent(
        data=PDF, mime_type="application/pdf", filename="report.pdf"
    )


def test_given_filename_wins(tmp_path):
    path = tmp_path / "tmp123.pdf"
    path.write_bytes(PDF)
    assert FileContent.from_file(path, filename="report.pdf").filename == "report.pdf"


def test_mime_type_guessed_from_the_name_when_not_sniffable(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_bytes(b"plain words")
    assert FileContent.from_file(path).mime_type == "text/plain"


def test_given_mime_type_is_used(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_bytes(b"# title")
    assert FileContent.from_file(path, mime_type="text/markdown").mime_type == "text/markdown"


def test_from_file_without_a_tellable_type_is_refused(tmp_path):
    path = tmp_path / "blob.zzzq"
    path.write_bytes(b"??")
    with pytest.raises(InvalidValueError, match=r"^mime_type: cannot tell the media type of .*"
                       r"blob\.zzzq: pass mime_type=$"):
        FileContent.from_file(path)


def test_from_missing_file_raises_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError):
        FileContent.from_file(tmp_path / "missing.pdf")


def test_from_directory_raises_is_a_directory(tmp_path):
    with pytest.raises(IsADirectoryError, match="is a directory, expected a file"):
        FileContent.from_file(tmp_path)


def test_to_file_writes_the_bytes_and_returns_the_path(tmp_path):
    target = tmp_path / "out.png"
    written = ImageContent(data=PNG).to_file(target)
    assert written == target
    assert isinstance(written, Path)
    assert target.read_bytes() == PNG


def test_to_file_accepts_a_str_path(tmp_path):
    written = ImageContent(data=PNG).to_file(str(tmp_path / "out.png"))
    assert written == tmp_path / "out.png"


def test_to_file_refuses_to_overwrite(tmp_path):
    target = tmp_path / "out.png"
    target.write_bytes(b"old")
    with pytest.raises(FileExistsError):
        ImageContent(data=PNG).to_file(target)
    assert target.read_bytes() == b"old"


def test_to_file_overwrites_when_asked(tmp_path):
    target = tmp_path / "out.png"
    target.write_bytes(b"old")
    ImageContent(data=PNG).to_file(target, overwrite=True)
    assert target.read_bytes() == PNG


def test_to_file_decodes_a_lazy_payload(tmp_path):
    target = FileContent.from_base64(b64(b"hello"), "text/plain").to_file(tmp_path / "a.txt")
    assert target.read_bytes() == b"hello"


@pytest.mark.parametrize(
    ("fields", "source"),
    [({"uri": "https://example.com/a.png"}, "uri 'https://example.com/a.png'"),
     ({"file_id": "file-1"}, "file_id 'file-1'")],
)
def test_to_file_of_a_reference_is_refused(tmp_path, fields, source):
    with pytest.raises(InvalidValueError) as excinfo:
        ImageContent(**fields).to_file(tmp_path / "x")
    assert str(excinfo.value) == f"data: no bytes: the item refers to {source}"
    assert not (tmp_path / "x").exists()


def test_file_round_trip(tmp_path):
    item = FileContent(data=PDF, mime_type="application/pdf", filename="a.pdf")
    path = item.to_file(tmp_path / "a.pdf")
    assert FileContent.from_file(path) == item


# --- images and numpy -----------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(4, 5), (4, 5, 3), (4, 5, 4), (1, 1), (1, 7, 3)])
def test_image_from_array_round_trips(shape):
    array = np.arange(np.prod(shape), dtype=np.uint8).reshape(shape)
    image = ImageContent.from_array(array)
    assert image.mime_type == "image/png"
    assert image.data.startswith(b"\x89PNG\r\n\x1a\n")
    decoded = image.to_array()
    assert decoded.dtype == np.uint8
    np.testing.assert_array_equal(decoded, array)


def test_image_size_is_width_height():
    image = ImageContent.from_array(np.zeros((4, 5, 3), dtype=np.uint8))
    assert image.size == (5, 4)


def test_image_from_array_takes_detail_and_fields():
    image = ImageContent.from_array(np.zeros((2, 2), np.uint8), detail="high", metadata={"k": 1})
    assert (image.detail, image.metadata) == ("high", {"k": 1})


def test_image_from_float_array_is_refused():
    with pytest.raises(TypeError, match="uint8"):
        ImageContent.from_array(np.zeros((2, 2), dtype=np.float32))


def test_image_from_array_of_bad_shape_is_refused():
    with pytest.raises(ValueError, match="cannot encode shape"):
        ImageContent.from_array(np.zeros((2, 2, 5), dtype=np.uint8))


def test_image_size_of_a_reference_is_none():
    assert ImageContent(uri="https://example.com/a.png").size is None


def test_image_to_array_of_a_reference_is_refused():
    with pytest.raises(InvalidValueError, match=r"^data: no bytes"):
        ImageContent(file_id="file-1").to_array()


@given(
    height=st.integers(1, 6),
    width=st.integers(1, 6),
    channels=st.sampled_from([None, 3, 4]),
    seed=st.integers(0, 2**32 - 1),
)
def test_image_array_round_trip_property(height, width, channels, seed):
    shape = (height, width) if channels is None else (height, width, channels)
    array = np.random.default_rng(seed).integers(0, 256, size=shape, dtype=np.uint8)
    image = ImageContent.from_array(array)
    np.testing.assert_array_equal(image.to_array(), array)
    assert image.size == (width, height)


# --- audio and numpy ------------------------------------------------------------------------


def test_audio_from_array_writes_wav():
    clip = AudioContent.from_array(np.zeros(800, dtype=np.float32), 8000)
    assert clip.mime_type == "audio/wav"
    assert clip.data[:4] == b"RIFF"
    assert clip.data[8:12] == b"WAVE"


def test_audio_round_trip_mono():
    samples = np.linspace(-1, 1, 101, dtype=np.float32)
    decoded, rate = AudioContent.from_array(samples, 16000).to_array()
    assert rate == 16000
    assert decoded.dtype == np.float32
    assert decoded.shape == (101,)
    np.testing.assert_allclose(decoded, samples, atol=2 / 32767)  # 16-bit quantization


def test_audio_round_trip_stereo():
    samples = np.stack([np.linspace(-0.5, 0.5, 50), np.zeros(50)], axis=1).astype(np.float32)
    decoded, rate = AudioContent.from_array(samples, 44100).to_array()
    assert (rate, decoded.shape) == (44100, (50, 2))
    np.testing.assert_allclose(decoded, samples, atol=2 / 32767)  # 16-bit quantization


def test_audio_duration():
    assert AudioContent.from_array(np.zeros(4000, np.float32), 8000).duration == 0.5


def test_audio_duration_of_a_reference_is_none():
    assert AudioContent(uri="https://example.com/a.wav").duration is None


def test_audio_duration_of_non_wav_bytes_is_none():
    assert AudioContent(data=MP3).duration is None


def test_audio_to_array_of_a_reference_is_refused():
    with pytest.raises(InvalidValueError, match="file_id 'file-1'"):
        AudioContent(file_id="file-1").to_array()


def test_audio_from_array_takes_fields():
    clip = AudioContent.from_array(np.zeros(10, np.float32), 8000, metadata={"voice": "alloy"})
    assert clip.metadata == {"voice": "alloy"}


def test_audio_from_array_with_bad_sample_rate_is_refused():
    with pytest.raises(ValueError, match="sample_rate"):
        AudioContent.from_array(np.zeros(10, np.float32), 0)


# --- kind-specific fields -------------------------------------------------------------------


def test_image_detail():
    assert ImageContent(uri="https://example.com/a.png", detail="low").detail == "low"


def test_file_filename():
    assert FileContent(file_id="file-1", filename="a.pdf").filename == "a.pdf"


def test_match_image_by_keyword():
    match ImageContent(uri="https://example.com/a.png", detail="high"):
        case ImageContent(uri=str() as uri, detail="high"):
            found = uri
        case _:
            found = None
    assert found == "https://example.com/a.png"


def test_match_binary_by_data_position():
    match ImageContent(data=PNG):
        case ImageContent(bytes() as data, "image/png"):
            found = data
        case _:
            found = None
    assert found == PNG


# --- data URIs from other libraries: read leniently, written back unchanged -----------------


@pytest.mark.parametrize(
    ("text", "mime_type", "data", "written"),
    [
        ("data:text/plain;utf8,hello", "text/plain;utf8", b"hello",
         "data:text/plain;utf8;base64,aGVsbG8="),
        ("data:text/plain;,x", "text/plain;", b"x", "data:text/plain;;base64,eA=="),
        ("data:text/plain;foo=,x", "text/plain;foo=", b"x", "data:text/plain;foo=;base64,eA=="),
        ("data:text/plain;a=b=c,x", "text/plain;a=b=c", b"x",
         "data:text/plain;a=b=c;base64,eA=="),
        ("data:IMAGE/PNG;Name=;base64,aGk=", "IMAGE/PNG;Name=", b"hi",
         "data:IMAGE/PNG;Name=;base64,aGk="),
        ("data:Text/Plain;UTF8; ;a=b=c;Charset=X,hi", "Text/Plain;UTF8;;a=b=c;Charset=X", b"hi",
         "data:Text/Plain;UTF8;;a=b=c;Charset=X;base64,aGk="),
    ],
)
def test_from_data_uri_keeps_the_media_type_as_written(text, mime_type, data, written):
    item = BinaryContent.from_data_uri(text)
    assert (item.mime_type, item.data) == (mime_type, data)
    assert item.data_uri == written
    assert BinaryContent.from_data_uri(written) == item


def test_data_uri_given_as_uri_keeps_the_media_type_as_written():
    item = FileContent(uri="data:Text/Plain;utf8;;foo=,hello")
    assert (item.data, item.uri, item.mime_type) == (b"hello", None, "Text/Plain;utf8;;foo=")
    assert item.data_uri == "data:Text/Plain;utf8;;foo=;base64,aGVsbG8="


def test_from_data_uri_of_none_is_a_type_error():
    with pytest.raises(InvalidTypeError) as info:
        BinaryContent.from_data_uri(None)
    assert str(info.value) == "data URI: expected str, got NoneType"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("data:text/plain;a b,x",
         "data URI: malformed parameter 1 'a b': is neither a token nor name=value"),
        ("data:text/plain;base64;utf8,aGk=",
         "data URI: malformed parameter 1 'base64': is the data URI marker ';base64', which "
         "must come last"),
        ("data:image/png;base64,aGVsbG8!",
         "data URI: invalid base64 payload at character 7: '!' is not a base64 character"),
    ],
)
def test_from_data_uri_refuses_what_is_unreadable_saying_where(text, message):
    with pytest.raises(InvalidValueError) as info:
        ImageContent.from_data_uri(text)
    assert str(info.value) == message


def test_a_media_type_keeps_its_case_through_json():
    from semantic_chat.serialization import from_json, to_json

    item = ImageContent.from_data_uri("data:IMAGE/PNG;Utf8;;base64," + b64(PNG))
    again = from_json(to_json(item), ImageContent)
    assert again == item
    assert again.mime_type == "IMAGE/PNG;Utf8;"


_UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_RESTRICTED = "abcdefghijklmnopqrstuvwxyz0123456789" + _UPPER
_TOKEN = _RESTRICTED + "!#$%&'*+-.^_`|~"
_NAMES = st.builds(
    str.__add__, st.sampled_from(_RESTRICTED), st.text(_RESTRICTED + "!#$&-^_.+", max_size=10)
)
_PARAMETERS = st.lists(
    st.tuples(st.text(_TOKEN, min_size=1, max_size=6), st.text(_TOKEN + "=/:@()", max_size=6))
    | st.tuples(
        st.text(_TOKEN, min_size=1, max_size=6).filter(lambda name: name.lower() != "base64"),
        st.none(),
    )
    | st.just(("", None)),
    max_size=4,
)


@given(
    bare=st.builds("{}/{}".format, _NAMES, _NAMES),
    parameters=_PARAMETERS,
    data=st.binary(max_size=32),
    kind=st.sampled_from([BinaryContent, FileContent, ImageContent]),
)
def test_data_uri_written_by_format_data_uri_comes_back_unchanged(bare, parameters, data, kind):
    from semantic_chat.media import format_data_uri, parse_data_uri

    text = format_data_uri(bare, data, parameters)
    parsed = parse_data_uri(text)
    assert (parsed.mime_type, parsed.parameters, parsed.data) == (bare, tuple(parameters), data)
    item = kind.from_data_uri(text)
    assert item.data == data
    assert item.data_uri == text
