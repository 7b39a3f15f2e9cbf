"""GTP (Go Text Protocol v2): an engine framework, a controller for external engines, and
the built-in Monte-Carlo bot. See docs/gtp.md."""

from __future__ import annotations

from ..errors import EngineCrashed, EngineError, EngineProtocolError, EngineTimeout, GtpError
from .bot import MctsEngine, search
from .controller import GtpController
from .engine import Engine, GtpFailure, Policy, Stream

__all__ = [
    "Engine",
    "EngineCrashed",
    "EngineError",
    "EngineProtocolError",
    "EngineTimeout",
    "GtpController",
    "GtpError",
    "GtpFailure",
    "MctsEngine",
    "Policy",
    "search",
    "Stream",
]
