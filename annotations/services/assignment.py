"""Which hidden model a new conversation gets: balanced over the study's pool.

Rule: the active endpoint with the fewest conversations per unit of weight so far (preview
participants do not count), ties broken at random; an endpoint this participant has already
talked to is avoided while another is available. The caller holds the study row lock, so two
conversations opened at the same moment cannot both see the same counts.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from django.db.models import Count, Q

from annotations.audit_actions import AuditAction
from annotations.models import Conversation, ModelEndpoint, Participant, Study
from annotations.services.audit import record_audit
from annotations.services.errors import FlowError
from annotations.services.model_configs import snapshot_for

_rng = random.SystemRandom()


@dataclass(frozen=True)
class Candidate:
    endpoint_id: int
    weight: int
    conversations: int

    @property
    def load(self) -> Fraction:
        # Exact arithmetic: 1/3 vs 2/6 must tie, not differ in the last float bit.
        return Fraction(self.conversations, self.weight)


def pick_balanced(candidates: list[Candidate], rng: random.Random = _rng) -> int:
    """The endpoint id with the lowest load; a random one among equals."""
    if not candidates:
        raise ValueError("no candidates")
    lowest = min(c.load for c in candidates)
    return rng.choice([c.endpoint_id for c in candidates if c.load == lowest])


def candidates_for(study: Study, participant: Participant) -> list[Candidate]:
    rows = (
        study.model_pool.filter(active=True)
        .annotate(
            n=Count(
                "conversations",
                filter=Q(conversations__study=study, conversations__participant__is_preview=False),
            )
        )
        .values_list("pk", "weight", "n")
    )
    candidates = [Candidate(pk, weight, n) for pk, weight, n in rows]
    used = set(
        Conversation.objects.filter(participant=participant).values_list(
            "model_endpoint_id", flat=True
        )
    )
    fresh = [c for c in candidates if c.endpoint_id not in used]
    return fresh or candidates


def assign_endpoint(study: Study, participant: Participant) -> ModelEndpoint:
    """The endpoint for this participant's next conversation. Call under the study lock."""
    candidates = candidates_for(study, participant)
    if not candidates:
        raise FlowError(
            "study_unavailable",
            "The study cannot start a conversation right now. Please try again later.",
        )
    return ModelEndpoint.objects.get(pk=pick_balanced(candidates))


def open_conversation(
    study: Study, participant: Participant, *, state: str, actor_label: str
) -> Conversation:
    """A new conversation with its model assigned, its configuration snapshot recorded, and the
    assignment audited.

    The participant never sees the endpoint: the API exposes no field of it.
    """
    endpoint = assign_endpoint(study, participant)
    number = Conversation.objects.filter(participant=participant).count() + 1
    config = snapshot_for(study, endpoint)
    conversation = Conversation.objects.create(
        study=study,
        participant=participant,
        external_id=f"{participant.pseudonym}-c{number}",
        model_endpoint=endpoint,
        model_config=config,
        system_prompt_version=endpoint.system_prompt_version,
        state=state,
    )
    record_audit(
        AuditAction.CONVERSATION_ASSIGN,
        target=conversation,
        actor_label=actor_label,
        data={"endpoint": endpoint.alias, "number": number, "model_config": config.config_hash},
    )
    return conversation
