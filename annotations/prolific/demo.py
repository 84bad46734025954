"""The demo study on a local Prolific: ``make demo`` links the demo study to the local test
server (``attune_collect/prolific/testing/prolific_server.py``, started beside the web server)
so a researcher can try sync, review and bonuses from the admin, offline.

The demo's conversations are synthetic and carry no PROLIFIC_PID: each demo participant is
given one (derived from its pseudonym, so a second run gives the same), and the server is
loaded with one submission per participant: AWAITING REVIEW for a completed conversation,
ACTIVE otherwise, and a few made-up RETURNED and TIMED-OUT submissions so that a sync shows
places freed. Nothing here runs outside the demo study (``is_synthetic``).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from django.db import transaction

from annotations.demo import DEMO_STUDY_SLUG
from annotations.models import (
    ApproveRule,
    Conversation,
    ConversationState,
    Participant,
    ProlificLink,
    Study,
)
from annotations.services.audit import record_audit

DEMO_PROLIFIC_STUDY_ID = "demo-prolific-study"
# The variable holding the token the demo server accepts: named like a key (the key policy
# refuses the platform's own ATTUNE_ / DJANGO_ variables), set by the Makefile.
DEMO_TOKEN_ENV = "DEMO_PROLIFIC_TOKEN"
# One participant in RETURNED_EVERY returned the study, the next timed out: a first sync
# frees their places, a second changes nothing.
RETURNED_EVERY = 10
ACTOR = "command:demo_prolific"


def demo_pid(participant: Participant) -> str:
    """A Prolific-shaped id (24 lowercase hex digits) for a synthetic participant."""
    return hashlib.sha256(f"attune-demo:{participant.pseudonym}".encode()).hexdigest()[:24]


@transaction.atomic
def link_demo_study(api_base: str) -> tuple[ProlificLink, dict[str, Any]]:
    """Link the demo study to the local server at ``api_base``; returns the link and what the
    server is to be loaded with (``ProlificTestServer.load``)."""
    study = Study.objects.select_for_update().get(slug=DEMO_STUDY_SLUG, is_synthetic=True)
    link = ProlificLink.objects.filter(study=study).first() or ProlificLink(study=study)
    link.prolific_study_id = DEMO_PROLIFIC_STUDY_ID
    link.token_env = DEMO_TOKEN_ENV
    link.api_base = api_base
    if link.pk is None:  # a researcher's later edits in the admin are kept on a second run
        link.approve_rule = ApproveRule.ON_COMPLETION
        link.bonus_per_turn_cents = 10
        link.bonus_per_conversation_cents = 50
        link.bonus_cap_cents = 200
    link.full_clean()
    link.save()
    named = _name_participants(study)
    submissions = _submissions(study)
    record_audit(
        "prolific.demo.link",
        target=link,
        actor_label=ACTOR,
        data={"api_base": api_base, "pids_given": named, "submissions": len(submissions)},
    )
    return link, {"studies": {DEMO_PROLIFIC_STUDY_ID: "ACTIVE"}, "submissions": submissions}


def _name_participants(study: Study) -> int:
    unnamed = list(
        Participant.objects.filter(study=study, is_synthetic=True, prolific_pid="").order_by("pk")
    )
    for participant in unnamed:
        participant.prolific_pid = demo_pid(participant)
    Participant.objects.bulk_update(unnamed, ["prolific_pid"])
    return len(unnamed)


def _submissions(study: Study) -> list[dict[str, str]]:
    completed = set(
        Conversation.objects.filter(study=study, state=ConversationState.COMPLETED).values_list(
            "participant_id", flat=True
        )
    )
    rows = []
    people = Participant.objects.filter(study=study, is_synthetic=True).exclude(prolific_pid="")
    for index, (pk, pid) in enumerate(people.order_by("pk").values_list("pk", "prolific_pid")):
        if index % RETURNED_EVERY == RETURNED_EVERY - 2:
            status = "RETURNED"
        elif index % RETURNED_EVERY == RETURNED_EVERY - 1:
            status = "TIMED-OUT"
        else:
            status = "AWAITING REVIEW" if pk in completed else "ACTIVE"
        rows.append(
            {
                "id": f"demo-submission-{pk}",
                "study_id": DEMO_PROLIFIC_STUDY_ID,
                "participant_id": pid,
                "status": status,
            }
        )
    return rows


def write_server_file(data: dict[str, Any], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
