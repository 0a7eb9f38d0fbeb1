"""Typed, open, lossless chat messages for LLM APIs.

Build a conversation from text, images, audio, files, tool calls and their results, and
reasoning; store it as JSON and read it back years later; convert it to and from the wire
formats of the model APIs (in `semantic_chat.formats`).
"""

from .collection import ChatMessageContentItemCollection as ChatMessageContentItemCollection
from .contents import CONTENT_TYPES as CONTENT_TYPES
from .contents import AudioContent as AudioContent
from .contents import BinaryContent as BinaryContent
from .contents import Citation as Citation
from .contents import FileContent as FileContent
from .contents import FunctionCallContent as FunctionCallContent
from .contents import FunctionResultContent as FunctionResultContent
from .contents import ImageContent as ImageContent
from .contents import KernelContent as KernelContent
from .contents import ReasoningContent as ReasoningContent
from .contents import RefusalContent as RefusalContent
from .contents import TextContent as TextContent
from .contents import UnknownContent as UnknownContent
from .contents.citation import CitationWithUnknownKeys as CitationWithUnknownKeys
from .errors import FormatError as FormatError
from .errors import FunctionArgumentsError as FunctionArgumentsError
from .errors import InvalidTypeError as InvalidTypeError
from .errors import InvalidValueError as InvalidValueError
from .errors import ProviderError as ProviderError
from .errors import RegistrationError as RegistrationError
from .errors import SemanticChatError as SemanticChatError
from .errors import SerializationError as SerializationError
from .errors import StreamMergeError as StreamMergeError
from .errors import UnknownContentTypeError as UnknownContentTypeError
from .errors import UnsupportedContentError as UnsupportedContentError
from .errors import UnsupportedVersionError as UnsupportedVersionError
from .history import ChatHistory as ChatHistory
from .history import ChatMessageList as ChatMessageList
from .labels import AuthorRole as AuthorRole
from .labels import ContentType as ContentType
from .labels import FinishReason as FinishReason
from .labels import Label as Label
from .message import MESSAGE_TYPES as MESSAGE_TYPES
from .message import ChatMessageContent as ChatMessageContent
from .message import UnknownMessage as UnknownMessage
from .options import ChatOptions as ChatOptions
from .options import ChatOptionsWithUnknownKeys as ChatOptionsWithUnknownKeys
from .roles import assistant as assistant
from .roles import system as system
from .roles import tool as tool
from .roles import user as user
from .streaming import StreamingChatMessageContent as StreamingChatMessageContent
from .streaming import StreamingFunctionCallContent as StreamingFunctionCallContent
from .streaming import StreamingReasoningContent as StreamingReasoningContent
from .streaming import StreamingRefusalContent as StreamingRefusalContent
from .streaming import StreamingTextContent as StreamingTextContent
from .usage import Usage as Usage
from .usage import UsageWithUnknownKeys as UsageWithUnknownKeys

__all__ = [
    "CONTENT_TYPES",
    "MESSAGE_TYPES",
    "AudioContent",
    "AuthorRole",
    "BinaryContent",
    "ChatHistory",
    "ChatMessageContent",
    "ChatMessageContentItemCollection",
    "ChatMessageList",
    "ChatOptions",
    "ChatOptionsWithUnknownKeys",
    "Citation",
    "CitationWithUnknownKeys",
    "ContentType",
    "FileContent",
    "FinishReason",
    "FormatError",
    "FunctionArgumentsError",
    "FunctionCallContent",
    "FunctionResultContent",
    "ImageContent",
    "InvalidTypeError",
    "InvalidValueError",
    "KernelContent",
    "Label",
    "ProviderError",
    "ReasoningContent",
    "RefusalContent",
    "RegistrationError",
    "SemanticChatError",
    "SerializationError",
    "StreamMergeError",
    "StreamingChatMessageContent",
    "StreamingFunctionCallContent",
    "StreamingReasoningContent",
    "StreamingRefusalContent",
    "StreamingTextContent",
    "TextContent",
    "UnknownContent",
    "UnknownContentTypeError",
    "UnknownMessage",
    "UnsupportedContentError",
    "UnsupportedVersionError",
    "Usage",
    "UsageWithUnknownKeys",
    "assistant",
    "system",
    "tool",
    "user",
]

__version__ = "0.1.0"
