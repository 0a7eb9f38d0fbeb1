"""Tools and runs: call the user's Python functions from a model's calls, and record a request.

The library still never calls a model. ``schema`` derives a function's JSON Schema from its
signature and checks a call's arguments against it; ``toolset`` holds the functions
(`ToolSet`), writes their definitions in each wire format and invokes a call; ``collect``
answers every call of a message; ``runs`` records what a request did (`Run`, `ChatResponse`).

This package sits beside `semantic_chat.formats` and may use it; the model below it
(`message`, `history`, contents, serialization) never imports it at module level.
"""

from .runs import ChatResponse as ChatResponse
from .runs import Run as Run
from .runs import ToolRun as ToolRun
from .schema import FunctionSchema as FunctionSchema
from .schema import convert_arguments as convert_arguments
from .schema import function_schema as function_schema
from .schema import strict_schema as strict_schema

__all__ = [
    "ChatResponse",
    "FunctionSchema",
    "Run",
    "ToolRun",
    "convert_arguments",
    "function_schema",
    "strict_schema",
]
