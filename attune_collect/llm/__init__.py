"""The LLM gateway: every model call of the platform (chat, improved replies, evaluated models,
judges) goes through `LLMGateway`: OpenAI-compatible endpoints over a direct HTTP transport,
every other provider (and the demo provider) through litellm.

This package imports nothing from Django (the command-line benchmark engine uses it too) and
does not import litellm until an endpoint that needs it is called (the import costs about
2.6 s).

    gateway = default_gateway()
    endpoint = EndpointConfig(name="chat", model="attune-demo/listener")
    completion = await gateway.complete(endpoint, [{"role": "user", "content": "Hi"}])
    async for event in gateway.stream(endpoint, messages): ...
"""

from .demo_personas import PERSONAS as DEMO_PERSONAS
from .gateway import LLMGateway, default_gateway
from .ledger import EndpointUsage, UsageLedger
from .moderation import ModerationVerdict, VerdictUnreadable
from .retry import RetryPolicy
from .transport import DEMO_MODEL_PREFIX
from .types import (
    Completion,
    EndpointConfig,
    ErrorKind,
    GatewayError,
    Queued,
    StreamDone,
    StreamEvent,
    TokenDelta,
)


def register_demo_provider() -> None:
    """Register the offline `attune-demo/<persona>` models with litellm (idempotent).

    The gateway does this by itself before any demo call; call it to use litellm directly.
    """
    # Imported here: the demo provider subclasses litellm's CustomLLM, so importing it imports
    # litellm (about 2.6 s), which a process calling only OpenAI-compatible endpoints never needs.
    from .demo_provider import register_demo_provider as register

    register()


__all__ = [
    "DEMO_MODEL_PREFIX",
    "DEMO_PERSONAS",
    "Completion",
    "EndpointConfig",
    "EndpointUsage",
    "ErrorKind",
    "GatewayError",
    "LLMGateway",
    "ModerationVerdict",
    "Queued",
    "RetryPolicy",
    "StreamDone",
    "StreamEvent",
    "TokenDelta",
    "UsageLedger",
    "VerdictUnreadable",
    "default_gateway",
    "register_demo_provider",
]
