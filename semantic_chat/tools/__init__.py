"""Tools and runs: call the user's Python functions from a model's calls, and record a request.

The library still never calls a model. ``schema`` derives a function's JSON Schema from its
signature and checks a call's arguments against it; ``toolset`` holds the functions
(`ToolSet`), writes their definitions in each wire format and invokes a call; ``collect``
answers every call of a message; ``runs`` records what a request did (`Run`, `ChatResponse`).

This package sits beside `semantic_chat.formats` and may use it; the model below it
(`message`, `history`, contents, serialization) never imports it at module level.
"""

from .collect import acall_tools as acall_tools
from .collect import call_tools as call_tools
from .definitions import TOOL_FORMATS as TOOL_FORMATS
from .definitions import ToolFormat as ToolFormat
from .definitions import register_tool_format as register_tool_format
from .runs import ChatResponse as ChatResponse
from .runs import Run as Run
from .runs import ToolRun as ToolRun
from .schema import FunctionSchema as FunctionSchema
from .schema import convert_arguments as convert_arguments
from .schema import function_schema as function_schema
from .schema import strict_schema as strict_schema
from .toolset import Tool as Tool
from .toolset import ToolSet as ToolSet

__all__ = [
    "TOOL_FORMATS",
    "ChatResponse",
    "FunctionSchema",
    "Run",
    "Tool",
    "ToolFormat",
    "ToolRun",
    "ToolSet",
    "acall_tools",
    "call_tools",
    "convert_arguments",
    "function_schema",
    "register_tool_format",
    "strict_schema",
]
