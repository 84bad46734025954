"""The risk alert: when a participant's message signals risk, the conversation gets its QA risk
flag at once (not when the chat ends) and the study's safety contacts get an email within a
minute, with a link to the conversation in QA and never the message text (an email is copied,
forwarded and kept in places the study's data must not go).

Runs in the background (``qa.risk_alert``), queued after the message is stored (a word match)
or after the study's moderation model flagged it (``services/moderation.py``); the chat never
waits for it. Idempotent per turn: a retried task, or the second of the two signals on one
message, sends no second email, even when two workers run them at the same moment (the emails
of a conversation take turns, ``attune_collect/process_lock.py``). A message only the
moderation model flagged sends one only if the conversation has had none yet: a classifier's
verdicts on every later message of a conversation the contacts are already looking at would
bury the alerts that matter.

Owed until it has run (``TurnSignal.alert_resend_at``, set by ``safety.ask_for_risk_alert``):
the workers' sweep asks again for an alert whose message was lost, or whose email could not be
sent (the task failed).
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.core.mail import send_mail
from django.urls import reverse
from django.utils import timezone

from annotations import dispatch
from annotations.models import AuditEntry, SignalKind, Turn, TurnSignal
from annotations.models.study import contact_addresses
from annotations.qa.services.flagging import compute_flags
from annotations.services.audit import record_audit
from attune_collect.config import attune_config
from attune_collect.dispatch import resend_bound, resend_owed
from attune_collect.process_lock import process_lock

log = logging.getLogger(__name__)

RISK_FLAG = "risk_signal"
NOTIFIED = "qa.risk_alert.sent"
ACTOR = "system:qa.risk_alert"
LOCK_PURPOSE = "risk-alert"


def conversation_link(conversation_id: int) -> str:
    return f"{attune_config().site_url}{reverse('qa:conversation', args=[conversation_id])}"


def run_risk_alert(turn_id: int) -> int:
    """Raise the conversation's risk flag and tell the study's contacts; the emails sent."""
    turn = Turn.objects.select_related("conversation__study").get(pk=turn_id)
    signals = TurnSignal.objects.filter(turn=turn)
    kinds = set(signals.risk().values_list("kind", flat=True))
    if not kinds:
        return 0
    sent = _alert(turn, kinds)
    signals.exclude(alert_resend_at=None).update(alert_resend_at=None)  # no longer owed
    return sent


def sweep_risk_alerts(now: datetime | None = None) -> list[int]:
    """Ask again for the risk alerts that have not run by their time (the message lost to a
    broker error or a killed worker, or its email failed); the turns sent. The alert sends no
    second email."""
    now = now or timezone.now()
    owed = TurnSignal.objects.filter(alert_resend_at__lt=now)
    return resend_owed(
        owed,
        "alert_resend_at",
        dispatch.risk_alert,
        key="turn_id",
        now=now,
        again_after=resend_bound(),
    )


def _alert(turn: Turn, kinds: set[str]) -> int:
    # The flag first, in its own transaction: an email that fails must not take it back.
    compute_flags([turn.conversation_id], actor_label=ACTOR, only=[RISK_FLAG])
    # Then one email decision of a conversation at a time, across workers: the word check and
    # the moderation model may ask for one message's alert at the same moment (two tasks), and
    # each would otherwise find no email sent yet and send one. Not a lock on the
    # conversation's row: the chat writes it, and this block may wait for the mail server.
    with process_lock(LOCK_PURPOSE, turn.conversation_id):
        return _email_once(turn, kinds)


def _email_once(turn: Turn, kinds: set[str]) -> int:
    told = _notified_turns(turn.conversation_id)
    if str(turn.pk) in told or (SignalKind.RISK not in kinds and told):
        return 0
    study = turn.conversation.study
    recipients = contact_addresses(study.safety_contacts)
    if not recipients:
        log.warning("Risk signal in study %s: no safety contacts to tell.", study.slug)
        record_audit("qa.risk_alert.no_contacts", target=turn, actor_label=ACTOR)
        return 0
    link = conversation_link(turn.conversation_id)
    send_mail(
        subject=f"[Attune] A participant may need support: {study.title}",
        message=(
            f'A participant\'s message in the study "{study.title}" ({study.slug}) was flagged '
            f"by {_checks(kinds)} (message {turn.number} of conversation "
            f"{turn.conversation.external_id or turn.conversation_id}).\n\n"
            "The participant is shown the study's support resources and can go on chatting.\n"
            f"Please look at the conversation in QA now:\n{link}\n\n"
            "The message itself is not in this email: read it in QA.\n"
        ),
        from_email=None,
        recipient_list=recipients,
    )
    record_audit(
        NOTIFIED,
        target=turn,
        actor_label=ACTOR,
        data={"recipients": len(recipients), "link": link, "signals": sorted(kinds)},
    )
    return len(recipients)


def _notified_turns(conversation_id: int) -> set[str]:
    """The keys of the conversation's turns whose alert was sent."""
    turn_keys = [
        str(pk)
        for pk in Turn.objects.filter(conversation_id=conversation_id).values_list("pk", flat=True)
    ]
    return set(
        AuditEntry.objects.filter(
            action=NOTIFIED, target_type="annotations.turn", target_id__in=turn_keys
        ).values_list("target_id", flat=True)
    )


def _checks(kinds: set[str]) -> str:
    names = {SignalKind.RISK: "the risk word check", SignalKind.MODERATION: "the moderation model"}
    return " and ".join(
        names[kind] for kind in (SignalKind.RISK, SignalKind.MODERATION) if kind in kinds
    )
