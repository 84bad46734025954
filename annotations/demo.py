"""The demo study: demo model endpoints (offline provider) and synthetic conversations.

The demo also shows what a reviewer of a study asks for: which configuration each conversation
ran under. Half-way through the conversations a ``seed_demo`` call creates, the listener's
system prompt is revised through the setup write path (audited, like an edit in the admin), so
earlier conversations keep the first snapshot and later ones get the new one; the demo study
allows publishing its prompts, so its releases show both texts.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction

from annotations.audit_actions import AuditAction
from annotations.interchange.from_records import RecordOptions, save_records
from annotations.models import Conversation, ModelEndpoint, Recruitment, Study, StudyStatus
from annotations.seeding import DEMO_PERSONAS, TOPICS, demo_conversations
from annotations.services.audit import record_audit
from annotations.services.model_configs import snapshot_for
from annotations.services.setup import save_setup
from annotations.services.studies import get_or_create_study

DEMO_STUDY_SLUG = "demo"
DEMO_SYSTEM_PROMPT = (
    "You are a supportive conversational assistant in a research study about emotional "
    "conversations. Never say which company or model you are."
)
# The mid-study edit: which demo endpoint, and its prompt and version after it.
EDITED_PERSONA = "listener"
DEMO_PROMPT_VERSION = "demo-1"
REVISED_SYSTEM_PROMPT = (
    f"{DEMO_SYSTEM_PROMPT} Before offering any advice, ask one gentle question about how they feel."
)
REVISED_PROMPT_VERSION = "demo-2"
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
                    system_prompt_version=DEMO_PROMPT_VERSION,
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
            *(
                {"category": category, "subtopics": list(subtopics)}
                for category, subtopics in TOPICS
            ),
            {"category": "something else", "other": True},  # asks for the participant's words
        ],
        completion_code="DEMO-COMPLETE",
        screenout_code="DEMO-SCREENOUT",
        safety_contacts="researcher@localhost",  # the demo prints the alert (console backend)
        # moderation_endpoint is left empty: the moderation signal is off in the demo (any
        # attune-demo endpoint would answer it offline if a researcher turns it on).
        is_synthetic=True,
        publish_system_prompts=True,  # the demo's prompts are in this file anyway
        recruitment=Recruitment.LINK,  # its link's PROLIFIC_PID is demo-participant-1
    )
    if study.improver_endpoint_id is None:
        study.improver_endpoint = next(e for e in endpoints if e.model_name == "improver")
    pool = [e for e in endpoints if e.model_name != "improver"]
    return save_setup(study, actor_label="system", many_to_many={"model_pool": pool})


def revise_demo_prompt(*, actor_label: str) -> ModelEndpoint | None:
    """The demo's mid-study edit of the listener's system prompt, through the setup write path
    (audited with before and after). Done once: an endpoint already revised, or changed by a
    researcher, is left as it is."""
    endpoint = ModelEndpoint.objects.filter(
        provider="attune-demo", model_name=EDITED_PERSONA
    ).first()
    if endpoint is None or endpoint.system_prompt_version != DEMO_PROMPT_VERSION:
        return None
    endpoint.system_prompt = REVISED_SYSTEM_PROMPT
    endpoint.system_prompt_version = REVISED_PROMPT_VERSION
    return save_setup(endpoint, actor_label=actor_label)


def _record_snapshots(study: Study, conversations: Sequence[Conversation]) -> None:
    """Seeded conversations are written in bulk, as imports are, and imports take no snapshot;
    the demo records the one the chat takes at consent: its endpoint's configuration now."""
    by_endpoint: dict[int, list[int]] = defaultdict(list)
    for conversation in conversations:
        if conversation.model_endpoint_id is not None:
            by_endpoint[conversation.model_endpoint_id].append(conversation.pk)
    for endpoint in ModelEndpoint.objects.filter(pk__in=by_endpoint):
        Conversation.objects.filter(pk__in=by_endpoint[endpoint.pk]).update(
            model_config=snapshot_for(study, endpoint),
            system_prompt_version=endpoint.system_prompt_version,
        )


@transaction.atomic
def _save(study: Study, batch: list) -> int:
    if not batch:
        return 0
    conversations = save_records(study, batch, RecordOptions(is_synthetic=True))
    _record_snapshots(study, conversations)
    return len(conversations)


def seed_demo(count: int, seed: int, *, actor_label: str = "command:seed_demo") -> SeedReport:
    """Create ``count`` synthetic conversations; re-running with the same seed adds nothing.

    Half-way through them the listener's prompt is revised (once per database, see
    ``revise_demo_prompt``): the conversations before keep the first configuration."""
    study = ensure_demo_study()
    instrument = study.instrument.parsed()
    existing = set(Conversation.objects.filter(study=study).values_list("external_id", flat=True))
    created = present = 0
    batch: list = []
    for index, record in enumerate(demo_conversations(instrument, count, seed)):
        if index == count // 2:  # mid-study: what came before is stored under the old prompt
            created += _save(study, batch)
            batch = []
            revise_demo_prompt(actor_label=actor_label)
        if record.conversation_id in existing:
            present += 1
            continue
        batch.append(record)
        if len(batch) >= BATCH_SIZE:
            created += _save(study, batch)
            batch = []
    created += _save(study, batch)
    record_audit(
        AuditAction.DEMO_SEED,
        target=study,
        actor_label=actor_label,
        data={"seed": seed, "requested": count, "created": created},
    )
    return SeedReport(study=study, created=created, already_present=present)
