"""The demo study: demo model endpoints (offline provider) and synthetic conversations."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from annotations.interchange.from_records import RecordOptions, save_records
from annotations.models import Conversation, ModelEndpoint, Study, StudyStatus
from annotations.seeding import DEMO_PERSONAS, TOPICS, demo_conversations
from annotations.services.audit import record_audit
from annotations.services.setup import save_setup
from annotations.services.studies import get_or_create_study

DEMO_STUDY_SLUG = "demo"
DEMO_SYSTEM_PROMPT = (
    "You are a supportive conversational assistant in a research study about emotional "
    "conversations. Never say which company or model you are."
)
BATCH_SIZE = 250


@dataclass(frozen=True)
class SeedReport:
    study: Study
    created: int
    already_present: int


def ensure_demo_endpoints() -> list[ModelEndpoint]:
    """The demo personas as endpoints of the offline ``attune-demo`` litellm provider."""
    endpoints = []
    for persona in (*[p.alias for p in DEMO_PERSONAS], "improver"):
        endpoint = ModelEndpoint.objects.filter(provider="attune-demo", model_name=persona).first()
        if endpoint is None:
            endpoint = save_setup(
                ModelEndpoint(
                    provider="attune-demo",
                    model_name=persona,
                    alias=f"demo-{persona}",
                    litellm_model=f"attune-demo/{persona}",
                    system_prompt=DEMO_SYSTEM_PROMPT,
                    system_prompt_version="demo-1",
                    params={"temperature": 0.7, "max_tokens": 400},
                ),
                actor_label="system",
            )
        endpoints.append(endpoint)
    return endpoints


@transaction.atomic
def ensure_demo_study() -> Study:
    endpoints = ensure_demo_endpoints()
    study = get_or_create_study(
        DEMO_STUDY_SLUG,
        title="Demo study (synthetic data)",
        status=StudyStatus.RECRUITING,
        consent_text="This is a demonstration study. Replies come from an offline demo model, not a real AI.",
        consent_version="demo-1",
        topics=[
            {"category": category, "subtopics": list(subtopics)} for category, subtopics in TOPICS
        ],
        completion_code="DEMO-COMPLETE",
        screenout_code="DEMO-SCREENOUT",
        safety_contacts="researcher@localhost",  # the demo prints the alert (console backend)
        is_synthetic=True,
    )
    if study.improver_endpoint_id is None:
        study.improver_endpoint = next(e for e in endpoints if e.model_name == "improver")
    pool = [e for e in endpoints if e.model_name != "improver"]
    return save_setup(study, actor_label="system", many_to_many={"model_pool": pool})


def seed_demo(count: int, seed: int, *, actor_label: str = "command:seed_demo") -> SeedReport:
    """Create ``count`` synthetic conversations; re-running with the same seed adds nothing."""
    study = ensure_demo_study()
    instrument = study.instrument.parsed()
    existing = set(Conversation.objects.filter(study=study).values_list("external_id", flat=True))
    created = present = 0
    batch = []
    for record in demo_conversations(instrument, count, seed):
        if record.conversation_id in existing:
            present += 1
            continue
        batch.append(record)
        if len(batch) >= BATCH_SIZE:
            created += len(save_records(study, batch, RecordOptions(is_synthetic=True)))
            batch = []
    if batch:
        created += len(save_records(study, batch, RecordOptions(is_synthetic=True)))
    record_audit("annotations.demo.seed", target=study, actor_label=actor_label,
                 data={"seed": seed, "requested": count, "created": created})  # fmt: skip
    return SeedReport(study=study, created=created, already_present=present)
