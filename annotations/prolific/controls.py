"""Pause and resume a study on Prolific from the admin: Prolific stops (or starts again)
showing the study, and Attune's study status follows (paused: no new starts; participants
already in may finish), both audited."""

from __future__ import annotations

from django.contrib.auth.models import User

from annotations.models import ProlificLink, Study, StudyStatus
from annotations.prolific.connection import client_for
from annotations.services.audit import record_audit
from annotations.services.setup import save_setup
from attune_collect.prolific.client import ProlificClient

_STATUS = {"PAUSE": StudyStatus.PAUSED, "START": StudyStatus.RECRUITING}


def set_recruiting(
    link: ProlificLink, action: str, *, actor: User, client: ProlificClient | None = None
) -> None:
    """``action`` is PAUSE or START. Prolific first: a refused call changes nothing here."""
    if action not in _STATUS:
        raise ValueError(action)
    answer = (client or client_for(link)).transition_study(link.prolific_study_id, action)
    study = Study.objects.get(pk=link.study_id)
    if study.status != _STATUS[action]:
        study.status = _STATUS[action]
        save_setup(study, actor=actor)
    record_audit(
        f"prolific.study.{action.lower()}",
        target=link,
        actor=actor,
        data={"prolific_status": str(answer.get("status", "")), "study_status": study.status},
    )
