"""The model mode of personal-detail detection: the model of a configured endpoint names the
people, places and organisations (and anything else identifying) in each text; the spans are
located by exact substring. Off unless ``ATTUNE_PERSONAL_DETAILS_ENDPOINT``
(``settings.ATTUNE.personal_details_endpoint``) names an endpoint.

Only the scanning workers call it (``personal_details.scan_conversations``: the Celery task,
the release build, ``manage.py scan_personal_details``), never a request. An answer that is not
the asked JSON is recorded (an audit entry naming the conversation and text, never the answer:
it may quote the details) and ignored: the pattern findings stand and the scan completes. A
call that failed (the endpoint down, out of retries) is recorded too, and the conversation's
scan keeps the pattern mode's version, so the next scan (at the latest the release build's)
asks again.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from annotations.audit_actions import AuditAction
from annotations.models import Conversation, ModelEndpoint
from annotations.qa.personal_details import model_spans
from annotations.qa.personal_details.patterns import Detection
from annotations.services.audit import record_audit
from attune_collect.config import attune_config
from attune_collect.llm import GatewayError, default_gateway
from attune_collect.llm.personal_details import (
    PROMPT_VERSION,
    DetailsUnreadable,
    QuotedDetail,
)

ACTOR = "system:qa.personal_details.model"
logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class ModelScan:
    detections: dict[str, list[Detection]]  # by text path
    complete: bool  # False when a call failed: the scan must be asked again


def model_endpoint() -> ModelEndpoint | None:
    """The endpoint of the model mode, or None when it is off."""
    alias = attune_config().personal_details_endpoint
    if not alias:
        return None
    endpoint = ModelEndpoint.objects.filter(alias=alias).first()
    if endpoint is None:  # a typo must not pass for "off" unnoticed
        logger.warning(
            "ATTUNE_PERSONAL_DETAILS_ENDPOINT names no endpoint %r: model mode off", alias
        )
    return endpoint


def model_version(endpoint: ModelEndpoint) -> str:
    """The findings' detector version: the prompt's, and the model that answered it."""
    return f"{PROMPT_VERSION}:{endpoint.alias}"[:80]


def detect_with_model(conversation_id: int, texts: dict[str, str]) -> ModelScan:
    """Ask the model about every text of a conversation (one call each, concurrently under the
    endpoint's limits); never raises for a model's fault."""
    endpoint = model_endpoint()
    if endpoint is None or not texts:
        return ModelScan({}, complete=True)
    paths = [path for path, text in texts.items() if text.strip()]
    config = endpoint.gateway_config()

    async def ask_all() -> list[list[QuotedDetail] | BaseException]:
        gateway = default_gateway()
        return await asyncio.gather(
            *(gateway.find_personal_details(config, texts[path]) for path in paths),
            return_exceptions=True,
        )

    answers = asyncio.run(ask_all()) if paths else []
    version = model_version(endpoint)
    detections: dict[str, list[Detection]] = {}
    complete = True
    for path, answer in zip(paths, answers, strict=True):
        if isinstance(answer, DetailsUnreadable | GatewayError):
            complete = complete and isinstance(answer, DetailsUnreadable)
            _record_failure(conversation_id, endpoint, path, answer)
            continue
        if isinstance(answer, BaseException):
            raise answer
        detections[path] = model_spans.detections(texts[path], answer, version)
    return ModelScan(detections, complete)


def _record_failure(
    conversation_id: int, endpoint: ModelEndpoint, path: str, error: Exception
) -> None:
    unreadable = isinstance(error, DetailsUnreadable)
    message = str(error) if unreadable else getattr(error, "message", str(error))
    record_audit(
        AuditAction.QA_PERSONAL_DETAIL_MODEL_UNREADABLE
        if unreadable
        else AuditAction.QA_PERSONAL_DETAIL_MODEL_FAILED,
        target=Conversation(pk=conversation_id),
        actor_label=ACTOR,
        data={"endpoint": endpoint.alias, "field": path, "error": message[:300]},
    )
