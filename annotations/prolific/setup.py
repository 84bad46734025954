"""Creating or editing a study's Prolific link: validated, written and audited (the token's
variable name only; the token is never read here)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.forms.models import model_to_dict

from annotations.models import ProlificLink
from annotations.services.audit import record_audit

_AUDITED = (
    "prolific_study_id",
    "token_env",
    "api_base",
    "approve_rule",
    "bonus_per_turn_cents",
    "bonus_per_conversation_cents",
    "bonus_cap_cents",
    "idle_abandon_minutes",
)


@transaction.atomic
def save_link(link: ProlificLink, *, actor: User) -> ProlificLink:
    before = model_to_dict(ProlificLink.objects.get(pk=link.pk), fields=_AUDITED) if link.pk else {}
    link.full_clean()
    created = link.pk is None
    link.save()
    after = model_to_dict(link, fields=_AUDITED)
    changes = {
        name: {"before": before.get(name), "after": value}
        for name, value in after.items()
        if before.get(name) != value
    }
    record_audit(
        "prolific.link.create" if created else "prolific.link.update",
        target=link,
        actor=actor,
        data={"study": link.study_id, "changes": changes},
    )
    return link
