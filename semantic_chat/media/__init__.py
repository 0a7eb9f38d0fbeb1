"""Pure byte codecs that know no content class.

Data URIs and base64, media types, WAV, PNG and image headers: functions from bytes to
numpy arrays, strings and tuples and back, depending only on the stdlib and numpy
(Pillow optionally, for images other than 8-bit PNG). Of the package, only
`semantic_chat.errors` is imported (a leaf module), so data URI errors are located ones.
"""

from .datauri import DataURI as DataURI
from .datauri import check_base64 as check_base64
from .datauri import decode_base64 as decode_base64
from .datauri import encode_base64 as encode_base64
from .datauri import format_data_uri as format_data_uri
from .datauri import parse_data_uri as parse_data_uri
from .imagesize import image_size as image_size
from .mediatype import canonical_mime_type as canonical_mime_type
from .mediatype import guess_mime_type as guess_mime_type
from .mediatype import kind_of_mime_type as kind_of_mime_type
from .mediatype import normalize_mime_type as normalize_mime_type
from .mediatype import sniff_mime_type as sniff_mime_type
from .mediatype import split_mime_type as split_mime_type
from .png import PNGUnsupportedError as PNGUnsupportedError
from .png import decode_image as decode_image
from .png import decode_png as decode_png
from .png import encode_png as encode_png
from .wav import WavInfo as WavInfo
from .wav import decode_wav as decode_wav
from .wav import encode_wav as encode_wav
from .wav import wav_info as wav_info

__all__ = [
    "DataURI",
    "PNGUnsupportedError",
    "WavInfo",
    "canonical_mime_type",
    "check_base64",
    "decode_base64",
    "decode_image",
    "decode_png",
    "decode_wav",
    "encode_base64",
    "encode_png",
    "encode_wav",
    "format_data_uri",
    "guess_mime_type",
    "image_size",
    "kind_of_mime_type",
    "normalize_mime_type",
    "parse_data_uri",
    "sniff_mime_type",
    "split_mime_type",
    "wav_info",
]
