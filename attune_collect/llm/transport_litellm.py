"""The litellm transport: every provider litellm knows, the offline demo provider, and endpoints
whose configuration forces litellm. litellm is imported on the first call through it only.

litellm is told not to apply any policy of its own (``num_retries=0``); its exceptions are
classified by ``errors.classify`` like the direct transport's failures.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import Any

from ._litellm import load_litellm
from .transport import DEMO_MODEL_PREFIX, CallRequest, Piece, Reply

logger = logging.getLogger("attune_collect.llm")


class LiteLLMTransport:
    name = "litellm"

    def ready(self) -> None:
        load_litellm()

    async def complete(self, request: CallRequest) -> Reply:
        response = await load_litellm().acompletion(**_kwargs(request))
        choices = getattr(response, "choices", None) or []
        message = getattr(choices[0], "message", None) if choices else None
        usage = getattr(response, "usage", None)
        return Reply(
            text=(getattr(message, "content", None) or "") if message is not None else "",
            finish_reason=getattr(choices[0], "finish_reason", None) if choices else None,
            prompt_tokens=int(getattr(usage, "prompt_tokens", 0) or 0),
            completion_tokens=int(getattr(usage, "completion_tokens", 0) or 0),
            model=getattr(response, "model", None),
        )

    async def stream(self, request: CallRequest) -> AsyncIterator[Piece]:
        response = await load_litellm().acompletion(**_kwargs(request))
        try:
            async for chunk in response:
                yield _piece(chunk)
        finally:
            await _close_quietly(response)


def _kwargs(request: CallRequest) -> dict[str, Any]:
    endpoint = request.endpoint
    kwargs: dict[str, Any] = {
        **request.params,
        "model": endpoint.model,
        "messages": request.messages,
        "num_retries": 0,  # the gateway owns retries; litellm would multiply attempts
        "timeout": request.timeout_s,
    }
    if endpoint.api_base:
        kwargs["api_base"] = endpoint.api_base
    if request.api_key is not None:
        kwargs["api_key"] = request.api_key
    if request.stream:
        kwargs["stream"] = True
        kwargs.setdefault("stream_options", {"include_usage": True})
    if endpoint.model.startswith(DEMO_MODEL_PREFIX):
        # Imported here, like litellm itself: the demo provider module imports litellm.
        from .demo_provider import register_demo_provider

        register_demo_provider()
    return kwargs


def _piece(chunk: Any) -> Piece:
    usage = getattr(chunk, "usage", None)
    prompt_tokens = completion_tokens = None
    if usage is not None:
        prompt_tokens = int(getattr(usage, "prompt_tokens", 0) or 0)
        completion_tokens = int(getattr(usage, "completion_tokens", 0) or 0)
    model = getattr(chunk, "model", None)
    choices = getattr(chunk, "choices", None) or []
    if not choices:
        return Piece("", None, prompt_tokens, completion_tokens, model)
    choice = choices[0]
    delta = getattr(choice, "delta", None)
    text = (getattr(delta, "content", None) or "") if delta is not None else ""
    return Piece(
        text, getattr(choice, "finish_reason", None), prompt_tokens, completion_tokens, model
    )


async def _close_quietly(response: Any) -> None:
    """Release the upstream connection of an abandoned or finished stream."""
    close = getattr(response, "aclose", None)
    if close is None:
        return
    try:
        await close()
    except Exception:  # closing a broken stream may fail again; nothing left to save
        logger.debug("closing an LLM stream failed", exc_info=False)
