"""Live safety checks on a turn: risk phrases in the participant's message, and replies that
name a vendor or a model (an identity leak breaks the study's blinding).

Detections become ``TurnSignal`` rows (kind, which text, what fired) plus an audit entry; QA
reads the signals (``annotations.qa`` turns them into review flags). The risk check is the
platform's one (``annotations.text_checks.risk``: the lexicon and the learned model, pure by
design) and the vendor names a shared word list, so the live check and the later QA scan always
agree. Both read a message in its participant's language (``languages.language_in``: the
recorded one, else the study's default), so a Spanish message meets the Spanish phrasings. A
risk signal's evidence keeps the lexicon's phrases and adds the model's score, whether it was
borderline, and the nearest training message. The web process reads the lexicon alone, at
once; the learned model's read of the message is a worker's (``check_message``,
``read_message_risk``), so its milliseconds of CPU never stand before the reply's first token.
A risk signal never stops the chat: the
participant is shown the study's support resources and carries on; a borderline score (the
learned model alone, unsure) shows a gentler check-in before the same resources, and tells no
contact.

A study may add a second signal, a moderation model's verdict on each message
(``services/moderation.py``): asked in the background after the message is stored, it never
delays the reply. A flagged verdict counts as a risk signal everywhere below (``risk()``), so a
message the word match missed still gets its notice, the next time the app reads the session.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from annotations import dispatch
from annotations.models import SignalKind, SignalSource, Study, Turn, TurnSignal
from annotations.services.audit import record_audit
from annotations.services.languages import country_of, language_in, support_resources_in
from annotations.services.study_instrument import instrument_of
from annotations.text_checks import risk
from annotations.text_checks.lexicons import IDENTITY_PATTERN, has_risk_lexicon, matches
from attune_collect.dispatch import resend_bound, resend_owed

# What a borderline score (the learned model alone, between its check-in and flag thresholds)
# shows the participant instead of the crisis notice: a gentler check-in, then the resources.
# The model is unsure, so it asks rather than tells; QA still gets its (warning) flag, and the
# study's contacts are not e-mailed.
CHECK_IN_TEXT = (
    "Just checking in: how are you doing? If things feel heavy right now, you can pause or "
    "stop at any time, and help is there if you want it:"
)
# The same words in the participant app's other languages (frontend/src/i18n/locales); a
# language without its own falls back to English, as the app's catalogs do.
CHECK_IN_TEXTS = {
    "en": CHECK_IN_TEXT,
    "es": (
        "Solo queríamos saber cómo estás. Si ahora mismo las cosas se sienten pesadas, puedes "
        "hacer una pausa o parar cuando quieras, y hay ayuda si la quieres:"
    ),
    "ar": (
        "نودّ فقط أن نطمئن عليك: كيف حالك؟ إذا كانت الأمور ثقيلة عليك الآن، يمكنك التوقف "
        "مؤقتًا أو الانسحاب في أي وقت، والمساعدة متاحة إن أردتها:"
    ),
    "de": (
        "Wir wollten nur kurz nachfragen: Wie geht es dir? Wenn sich gerade alles schwer "
        "anfühlt, kannst du jederzeit eine Pause machen oder aufhören, und es gibt Hilfe, "
        "wenn du sie möchtest:"
    ),
}


def check_in_text(language: str = "") -> str:
    return CHECK_IN_TEXTS.get(language.split("-")[0].lower(), CHECK_IN_TEXT)


@dataclass(frozen=True)
class SupportNotice:
    """What the participant sees beside the chat after a risk signal: the resources, right
    under the message of ``turn`` (the latest turn whose message raised a risk signal).
    ``gentle``: only a borderline score raised it, and ``resources`` opens with the check-in
    (the participant API sends the same two fields either way)."""

    resources: str
    turn: int | None = None
    gentle: bool = False


def check_in_notice(
    study: Study, turn: int, language: str = "", country: str = ""
) -> SupportNotice:
    resources = support_resources(study, language, country)
    return SupportNotice(f"{check_in_text(language)}\n\n{resources}", turn, gentle=True)


def support_resources(study: Study, language: str = "", country: str = "") -> str:
    """The crisis resources of the participant's ``country`` where the study lists them
    (``Study.support_resources_by_country``), else the study's own support text, else the
    instrument's (in ``language`` when translated)."""
    if language or country:
        return support_resources_in(study, language or study.default_language, country)
    return study.support_resources.strip() or instrument_of(study).support_resources


@dataclass(frozen=True)
class RiskCoverage:
    """What reads a participant's messages in one of the study's languages."""

    language: str
    lexicon: bool  # risk phrasings of its own (the English phrases read every language)
    model: bool  # a learned model (English, Spanish, German: risk.has_model_for)
    moderation: bool  # the study's moderation model (reads every language)

    @property
    def warning(self) -> str:
        """Empty when the language has its own phrasings; else what alone reads it."""
        if self.lexicon:
            return ""
        if self.moderation:
            return (
                "no risk phrasings of its own: only the moderation model (and English phrases) "
                "reads it"
            )
        return (
            "no risk phrasings of its own and no moderation model: only English phrases are "
            "caught; set a moderation model"
        )

    def describe(self) -> str:
        readers = ["phrasings" if self.lexicon else "English phrases only"]
        if self.model:
            readers.append("learned model")
        if self.moderation:
            readers.append("moderation model")
        return f"{self.language}: {', '.join(readers)}"


def risk_coverage(study: Study) -> list[RiskCoverage]:
    """For each of the study's languages, which of the risk check's readers read it: the
    admin warns about a language only a moderation model (or nothing but English phrases)
    reads."""
    return [
        RiskCoverage(
            language=str(language),
            lexicon=has_risk_lexicon(str(language)),
            model=risk.has_model_for(str(language)),
            moderation=study.moderation_endpoint_id is not None,
        )
        for language in study.languages
    ]


def _evidence(kind: str, text: str, language: str) -> dict[str, Any] | None:
    """What the check saw in ``text`` (written in ``language``), or None when it did not fire."""
    if kind == SignalKind.RISK:
        assessment = risk.assess(text, language)
        return assessment.evidence() if assessment.risk else None
    phrases = matches(IDENTITY_PATTERN, text)
    return {"phrases": phrases} if phrases else None


def detect(
    turn: Turn, kind: str, source: str, text: str, *, actor_label: str, language: str = "en"
) -> bool:
    """Record a signal when the check fires on ``text``; True if it did and is sure (a
    borderline risk score is recorded for QA, but brings no alert). Idempotent per
    (turn, kind, source)."""
    evidence = record(turn, kind, source, text, actor_label=actor_label, language=language)
    return evidence is not None and not evidence.get("borderline", False)


def record(
    turn: Turn, kind: str, source: str, text: str, *, actor_label: str, language: str = "en"
) -> dict[str, Any] | None:
    """The signal's evidence when the check fires on ``text``, written in ``language``
    (recorded once, with an audit entry), else None."""
    evidence = _evidence(kind, text, language)
    if evidence is not None:
        _store(turn, kind, source, evidence, actor_label=actor_label)
    return evidence


def _store(
    turn: Turn, kind: str, source: str, evidence: dict[str, Any], *, actor_label: str
) -> bool:
    """Record the signal once (with an audit entry); True if this call created it."""
    _, created = TurnSignal.objects.get_or_create(
        turn=turn, kind=kind, source=source, defaults={"evidence": evidence}
    )
    if created:
        record_audit(
            f"annotations.safety.{kind}",
            target=turn,
            actor_label=actor_label,
            data={"source": source, **evidence},
        )
    return created


def model_read_due(language: str, now: datetime) -> datetime | None:
    """When a message in ``language`` is owed the learned model's read by a worker (its
    ``Turn.risk_read_due_at``): the sweep sends the read again after that; None when no model
    reads the language (the lexicon alone decides, at once)."""
    return now + resend_bound() if risk.model_reads(language) else None


def check_message(
    turn: Turn, study: Study, *, actor_label: str, language: str | None = None
) -> SupportNotice | None:
    """The live chat's check of a stored message, inside its transaction.

    A turn that owes the learned model's read (``risk_read_due_at``, set by the chat with
    ``model_read_due``) gets the lexicon now (microseconds) and the model in a worker
    (``read_message_risk``): the model's few milliseconds of CPU would otherwise be spent
    before the reply's first token, under load more than that (docs/benchmarks.md). Its notice
    reaches the participant the next time the app reads the session, which it does as the
    reply ends (``progress.py``). Any other turn is read whole, here."""
    if study.moderation_endpoint_id is not None:
        dispatch.moderate_message(turn.pk)  # a worker's job: the reply never waits for it
    # The participant's language (else the study's default): the QA scan reads it the same way.
    read_in = language or language_in(turn.conversation)
    if turn.risk_read_due_at is not None:
        dispatch.read_message_risk(turn.pk)
        assessment = risk.assess_phrases(turn.user_message, read_in)
    else:
        assessment = risk.assess(turn.user_message, read_in)
    if not assessment.risk:
        return None
    evidence = assessment.evidence()
    _store(turn, SignalKind.RISK, SignalSource.USER_MESSAGE, evidence, actor_label=actor_label)
    if assessment.borderline:
        return check_in_notice(study, turn.number)  # QA's warning flag, no alert
    return _risk_notice(turn, study)


def _risk_notice(turn: Turn, study: Study) -> SupportNotice:
    """A sure risk signal's consequences: the alert (the QA risk flag and the email to the
    study's contacts, ``annotations.qa.services.risk_alerts``, in the background) and the
    participant's notice."""
    ask_for_risk_alert(turn.pk)
    participant = turn.conversation.participant
    resources = support_resources(study, participant.language, country_of(participant))
    return SupportNotice(resources=resources, turn=turn.number)


def read_message_risk(turn_id: int, *, actor_label: str = "system") -> str:
    """The whole risk check of a turn's message, lexicon and learned model (a worker's task,
    ``safety.read_message_risk``; idempotent): records what the web process's lexicon did not
    (a model-only signal, sure or borderline, with its alert when sure), completes a lexicon
    signal's evidence with the model's view (so the live signal equals the QA scan's reading),
    and marks the read done. Returns "risk", "borderline", "none" or "gone"."""
    with transaction.atomic():
        turn = (
            Turn.objects.select_for_update(of=("self",))
            .select_related("conversation__study", "conversation__participant")
            .filter(pk=turn_id)
            .first()
        )
        if turn is None:
            return "gone"
        assessment = risk.assess(turn.user_message, language_in(turn.conversation))
        outcome = "none"
        if assessment.risk:
            evidence = assessment.evidence()
            source, kind = SignalSource.USER_MESSAGE, SignalKind.RISK
            if _store(turn, kind, source, evidence, actor_label=actor_label):
                if not assessment.borderline:
                    ask_for_risk_alert(turn.pk)
            else:
                TurnSignal.objects.filter(turn=turn, kind=kind, source=source).update(
                    evidence=evidence
                )
            outcome = "borderline" if assessment.borderline else "risk"
        if turn.risk_read_due_at is not None:
            Turn.objects.filter(pk=turn.pk).update(risk_read_due_at=None)
    return outcome


def sweep_owed_risk_reads(now: datetime | None = None) -> int:
    """Send again the model reads owed past ``Turn.risk_read_due_at`` (their message lost to a
    broker error, or their worker killed): each claimed by moving the time on."""
    now = now or timezone.now()
    owed = Turn.objects.filter(risk_read_due_at__lte=now)
    sent = resend_owed(
        owed, "risk_read_due_at", dispatch.read_message_risk, now=now, again_after=resend_bound()
    )
    return len(sent)


def ask_for_risk_alert(turn_id: int) -> None:
    """Ask a worker for the turn's risk alert (after commit), owed until it has run: the
    workers' sweep asks again if this message is lost (``qa/services/risk_alerts.py``)."""
    TurnSignal.objects.filter(turn_id=turn_id).risk().update(
        alert_resend_at=timezone.now() + resend_bound()
    )
    dispatch.risk_alert(turn_id)


def check_reply(turn: Turn, text: str, source: str) -> bool:
    return detect(turn, SignalKind.IDENTITY_LEAK, source, text, actor_label="system")


def notice_for_turn(turn: Turn, study: Study) -> SupportNotice | None:
    """The notice a turn earned (shown again when a reply is retried or replayed)."""
    participant = turn.conversation.participant
    language, country = participant.language, country_of(participant)
    if TurnSignal.objects.filter(turn=turn).risk().exists():
        resources = support_resources(study, language, country)
        return SupportNotice(resources=resources, turn=turn.number)
    if TurnSignal.objects.filter(
        turn=turn, kind=SignalKind.RISK, evidence__borderline=True
    ).exists():  # only a borderline score
        return check_in_notice(study, turn.number, language, country)
    return None


def latest_notice(
    conversation_id: int, study: Study, language: str = "", country: str = ""
) -> SupportNotice | None:
    """The notice the session shows: under the latest turn with a sure risk signal, else the
    check-in under the latest turn with a borderline one, else none (in ``language``, with
    ``country``'s resources where the study lists them)."""
    turn = latest_risk_turn(conversation_id)
    if turn is not None:
        return SupportNotice(resources=support_resources(study, language, country), turn=turn)
    borderline = (
        TurnSignal.objects.filter(
            turn__conversation_id=conversation_id,
            kind=SignalKind.RISK,
            evidence__borderline=True,
        )
        .order_by("-turn__number")
        .values_list("turn__number", flat=True)
        .first()
    )
    return None if borderline is None else check_in_notice(study, borderline, language, country)


def latest_risk_turn(conversation_id: int) -> int | None:
    """The number of the conversation's latest turn with a risk signal (None: no signal)."""
    return (
        TurnSignal.objects.filter(turn__conversation_id=conversation_id)
        .risk()
        .order_by("-turn__number")
        .values_list("turn__number", flat=True)
        .first()
    )
