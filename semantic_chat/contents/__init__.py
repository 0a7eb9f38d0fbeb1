"""The items a message holds, one module per kind; `base` holds the root class and registry."""

from .audio import AudioContent as AudioContent
from .base import CONTENT_TYPES as CONTENT_TYPES
from .base import KernelContent as KernelContent
from .binary import BinaryContent as BinaryContent
from .citation import Citation as Citation
from .file import FileContent as FileContent
from .function_call import FunctionCallContent as FunctionCallContent
from .function_result import FunctionResultContent as FunctionResultContent
from .image import ImageContent as ImageContent
from .reasoning import ReasoningContent as ReasoningContent
from .text import RefusalContent as RefusalContent
from .text import TextContent as TextContent
from .unknown import UnknownContent as UnknownContent

__all__ = [
    "CONTENT_TYPES",
    "AudioContent",
    "BinaryContent",
    "Citation",
    "FileContent",
    "FunctionCallContent",
    "FunctionResultContent",
    "ImageContent",
    "KernelContent",
    "ReasoningContent",
    "RefusalContent",
    "TextContent",
    "UnknownContent",
]
