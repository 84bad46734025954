"""The offline demo "models": a custom litellm provider named `attune-demo`.

    attune-demo/listener    validates and reflects feelings
    attune-demo/advisor     gives advice first
    attune-demo/questioner  asks questions
    attune-demo/improver    rewrites a reply (after "Reply:" in the prompt) more warmly

THIS IS A HEURISTIC DEMO, NOT A MODEL. Replies are templates filled with words lifted from the
participant's last message, chosen by a generator seeded from a hash of the messages, so the
same conversation always gets the same reply. Plain-text replies start with "[demo]", the
response's `model` is the demo name, and asked who it is, it says it is a demo. When the last
user (or a system) message asks for JSON, the answer is valid JSON shaped like the prompt's
template, filled by simple rules over a PANAS emotion lexicon (see demo_json.py); asked for a
moderation verdict, it answers one from two phrase lists (demo_moderation.py); asked for the
personal details in a text, capitalised words (demo_personal_details.py).

Sync, async, streaming and async streaming all work; streams go word by word, with a delay per
token from the `token_delay_ms` parameter or the ATTUNE_DEMO_TOKEN_DELAY_MS variable (default 0).

This module imports litellm at import time: import it lazily (the gateway does).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import random
import re
import threading
import time
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ._litellm import load_litellm
from .demo_json import json_answer, wants_json
from .demo_moderation import is_moderation_request, moderation_answer
from .demo_personal_details import is_personal_details_request, personal_details_answer
from .demo_personas import PERSONAS, content_text, last_message_text, persona_reply

_litellm = load_litellm()  # the offline settings must be in place before litellm is imported
from litellm import CustomLLM, ModelResponse  # noqa: E402
from litellm.llms.custom_llm import CustomLLMError  # noqa: E402

PROVIDER = "attune-demo"
TOKEN_DELAY_ENV = "ATTUNE_DEMO_TOKEN_DELAY_MS"
_TOKEN = re.compile(r"\S+\s*")


@dataclass(frozen=True)
class DemoReply:
    model: str  # "attune-demo/<persona>"
    text: str
    chunks: list[str]  # word-sized pieces that join back to `text`
    prompt_tokens: int
    reply_id: str


def build_demo_reply(model: str, messages: Sequence[Mapping[str, Any]]) -> DemoReply:
    """The demo's whole answer to a conversation: pure and deterministic."""
    persona = model.rsplit("/", 1)[-1]
    if persona not in PERSONAS:
        raise CustomLLMError(
            status_code=404,
            message=f"unknown demo persona {persona!r}; use one of "
            + ", ".join(f"{PROVIDER}/{name}" for name in PERSONAS),
        )
    canonical = json.dumps(
        [[m.get("role"), content_text(m.get("content"))] for m in messages], ensure_ascii=False
    )
    digest = hashlib.sha256(f"{persona}\n{canonical}".encode()).hexdigest()

    def prose(participant_text: str) -> str:
        return persona_reply(persona, participant_text, random.Random(digest))

    if is_moderation_request(messages):  # asks for JSON too: the verdict's shape, not a template's
        text = moderation_answer(messages)
    elif is_personal_details_request(messages):  # the details' shape, not a template's
        text = personal_details_answer(messages)
    elif wants_json(messages):
        text = json_answer(messages, persona=persona, seed=digest, reply_text=prose)
    else:
        text = prose(last_message_text(messages))
    chunks = _TOKEN.findall(text) or [text]
    prompt_tokens = sum(len(content_text(m.get("content")).split()) for m in messages)
    return DemoReply(
        model=f"{PROVIDER}/{persona}",
        text=text,
        chunks=chunks,
        prompt_tokens=prompt_tokens,
        reply_id=f"demo-{digest[:24]}",
    )


def token_delay_s(optional_params: Mapping[str, Any] | None) -> float:
    """Per-token delay: the call's `token_delay_ms` parameter, else the environment."""
    raw = (optional_params or {}).get("token_delay_ms")
    source = "token_delay_ms"
    if raw is None:
        raw, source = os.environ.get(TOKEN_DELAY_ENV, "0") or "0", TOKEN_DELAY_ENV
    try:
        milliseconds = float(raw)
    except (TypeError, ValueError):
        raise CustomLLMError(status_code=400, message=f"{source} must be a number of ms") from None
    if milliseconds < 0:
        raise CustomLLMError(status_code=400, message=f"{source} cannot be negative")
    return milliseconds / 1000.0


class DemoProvider(CustomLLM):
    """litellm's entry points for the demo. litellm passes everything by keyword."""

    def completion(self, *args: Any, **kwargs: Any) -> ModelResponse:
        reply = build_demo_reply(kwargs["model"], kwargs["messages"])
        delay = token_delay_s(kwargs.get("optional_params"))
        if delay:
            time.sleep(delay * len(reply.chunks))  # a demo answer takes time, like a model's
        return _model_response(reply)

    async def acompletion(self, *args: Any, **kwargs: Any) -> ModelResponse:
        reply = build_demo_reply(kwargs["model"], kwargs["messages"])
        delay = token_delay_s(kwargs.get("optional_params"))
        if delay:
            await asyncio.sleep(delay * len(reply.chunks))
        return _model_response(reply)

    def streaming(self, *args: Any, **kwargs: Any) -> Iterator[dict[str, Any]]:
        reply = build_demo_reply(kwargs["model"], kwargs["messages"])
        delay = token_delay_s(kwargs.get("optional_params"))
        for index, chunk in enumerate(_stream_chunks(reply)):
            if delay and index < len(reply.chunks):
                time.sleep(delay)
            yield chunk

    async def astreaming(self, *args: Any, **kwargs: Any) -> AsyncIterator[dict[str, Any]]:
        reply = build_demo_reply(kwargs["model"], kwargs["messages"])
        delay = token_delay_s(kwargs.get("optional_params"))
        for index, chunk in enumerate(_stream_chunks(reply)):
            if delay and index < len(reply.chunks):
                await asyncio.sleep(delay)
            yield chunk


def _stream_chunks(reply: DemoReply) -> Iterator[dict[str, Any]]:
    """litellm GenericStreamingChunk dicts; the last one carries finish_reason and usage."""
    last = len(reply.chunks) - 1
    for index, text in enumerate(reply.chunks):
        yield {
            "text": text,
            "is_finished": index == last,
            "finish_reason": "stop" if index == last else "",
            "usage": _usage(reply) if index == last else None,
            "index": 0,
            "tool_use": None,
        }


def _usage(reply: DemoReply) -> dict[str, int]:
    completion_tokens = len(reply.chunks)
    return {
        "prompt_tokens": reply.prompt_tokens,
        "completion_tokens": completion_tokens,
        "total_tokens": reply.prompt_tokens + completion_tokens,
    }


def _model_response(reply: DemoReply) -> ModelResponse:
    return ModelResponse(
        id=reply.reply_id,
        created=int(time.time()),
        model=reply.model,
        object="chat.completion",
        choices=[
            {
                "index": 0,
                "message": {"role": "assistant", "content": reply.text},
                "finish_reason": "stop",
            }
        ],
        usage=_usage(reply),
    )


_register_lock = threading.Lock()


def register_demo_provider() -> None:
    """Make `attune-demo/<persona>` models callable through litellm (idempotent)."""
    litellm = load_litellm()
    with _register_lock:
        if any(entry.get("provider") == PROVIDER for entry in litellm.custom_provider_map):
            return
        litellm.custom_provider_map.append({"provider": PROVIDER, "custom_handler": DemoProvider()})
