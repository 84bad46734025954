"""Participants entering and leaving a study: start or resume, consent, profile, withdrawal.

Each function is the one write path for its step: it validates (a refusal raises FlowError
and changes nothing), writes, and records an audit entry in the same transaction.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from itertools import product
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.db.models.functions import Coalesce
from django.utils import timezone

from annotations.audit_actions import AuditAction
from annotations.models import (
    Conversation,
    ConversationState,
    Participant,
    Recruitment,
    ReturningLinkPolicy,
    Study,
    StudyStatus,
)
from annotations.services import quotas
from annotations.services.assignment import open_conversation
from annotations.services.audit import record_audit
from annotations.services.conversation_states import move
from annotations.services.drafts import clear_drafts
from annotations.services.errors import FlowError, invalid
from annotations.services.languages import resolve_language
from annotations.services.participant_sessions import issue_token, participant_for_token
from annotations.services.start_refusals import RefusalReason, count_refused_start
from annotations.services.study_instrument import instrument_of
from annotations.services.withdrawal import (
    apply_withdrawal_policy,
    lock_replies_in_flight,
    stop_replies_in_flight,
)
from attune_collect.compiled_query import CompiledQuery
from attunebench.profile import ProfileError, clean_answers, traits_of
from webhooks.event_types import EventType
from webhooks.events import emit

PROFILE_SCHEMA_VERSION = "attune-profile-1"
MINIMUM_AGE = 18  # Prolific's own rule; younger people are screened out, not refused
MAXIMUM_AGE = 120
MAX_LIST_ITEMS = 20
MAX_ITEM_CHARS = 200
MAX_RESPONSES = 50
_PROLIFIC_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
# A PROLIFIC_PID as Prolific writes it (its participant ids are 24 lowercase hex digits): a
# Prolific study refuses any other, so a bot cannot take places with ids it makes up freely.
_PROLIFIC_PID = re.compile(r"^[0-9a-f]{24}$")
_NOT_A_PROLIFIC_ID = (
    "This link does not carry a valid Prolific ID. Please open the study again from Prolific."
)
_CLOSED_MESSAGES: dict[str, str] = {
    StudyStatus.DRAFT: "This study has not opened yet.",
    StudyStatus.CLOSED: "This study is closed and takes no more participants. Thank you for your interest.",
}


class ScreenoutReason:
    DECLINED_CONSENT = "declined_consent"
    STUDY_FULL = "study_full"
    UNDER_AGE = "under_age"
    QUOTA_FULL = quotas.QUOTA_FULL
    COMPREHENSION_FAILED = "comprehension_failed"  # services/comprehension.py


@dataclass(frozen=True)
class StartResult:
    participant: Participant
    token: str
    created: bool


def actor_for(participant: Participant) -> str:
    return f"participant:{participant.pseudonym}"


def _latest_conversation(*, lock: bool, with_model: bool, with_study: bool) -> CompiledQuery:
    def build(participant_id: int) -> QuerySet[Conversation]:
        query = Conversation.objects.filter(participant_id=participant_id).order_by("-pk")
        if with_model:
            query = query.select_related("model_endpoint", "model_config")
        if with_study:
            query = query.select_related("study")
        if lock:
            query = query.select_for_update(of=("self",))  # the conversation row only
        return query[:1]

    return CompiledQuery(build)


# Read on every chat and annotation request: each variant's SQL is built once per connection
# (attune_collect/compiled_query.py), not per request.
_LATEST_CONVERSATION = {
    (lock, with_model, with_study): _latest_conversation(
        lock=lock, with_model=with_model, with_study=with_study
    )
    for lock, with_model, with_study in product((False, True), repeat=3)
}


def current_conversation(
    participant: Participant, *, lock: bool = False, with_model: bool = False
) -> Conversation | None:
    """The participant's latest conversation (the one in progress, or the last one finished).

    ``with_model`` loads its endpoint and model configuration in the same query: the chat
    needs them for every message, the other steps (annotations, surveys, progress) never do,
    and building those two wide rows was a measurable part of each annotation submit.
    """
    # The participant's study, loaded with its session, is the conversation's: joining it again
    # would build the same wide row once more on every chat and annotation request.
    study_loaded = Participant.study.is_cached(participant)
    query = _LATEST_CONVERSATION[(lock, with_model, not study_loaded)]
    conversation = query.first(participant.pk)
    if conversation is not None and study_loaded and conversation.study_id == participant.study_id:
        conversation.study = participant.study
    return conversation


def _place_holders(study: Study | int) -> QuerySet[Participant]:
    """The records that hold a place: consented, and neither withdrawn nor screened out nor
    freed (a Prolific submission returned, timed out or rejected, or a conversation left idle:
    ``annotations/prolific/places.py``); a start that never consented holds none. A fresh session holds its first record's place:
    one PROLIFIC_PID is one person, however many sessions it started."""
    return Participant.objects.filter(
        study=study,
        is_preview=False,
        withdrawn=False,
        consented_at__isnull=False,
        screened_out_at__isnull=True,
        place_freed_at__isnull=True,
    ).order_by()


def is_full(study: Study) -> bool:
    people = _place_holders(study).annotate(person=Coalesce("restart_of_id", "id"))
    return people.values("person").distinct().count() >= study.target_participants


def _holds_place(participant: Participant) -> bool:
    """Whether the person of ``participant`` (its PROLIFIC_PID) already holds a place."""
    person = participant.restart_of_id or participant.pk
    same_person = Q(pk=person) | Q(restart_of_id=person)
    return _place_holders(participant.study_id).filter(same_person).exists()


def start_participant(
    slug: str,
    *,
    prolific_pid: str,
    study_id: str = "",
    session_id: str = "",
    token: str | None = None,
    language: str = "",
) -> StartResult:
    """Start a participant from a study link, or resume the record of the same PROLIFIC_PID.

    A PROLIFIC_PID is not a secret, so it alone never resumes: the caller must also hold a
    token of that participant (``token``, the browser's own) or bring the SESSION_ID they
    started with. Otherwise the study's ``returning_link_policy`` refuses (``already_started``),
    screens out (``screened_out`` with the code), or starts a fresh session: a new record of
    the same PROLIFIC_PID (``restart_of`` names the first), with none of the earlier messages.
    Resuming issues a new session token; earlier tokens stay valid (a second device).
    A new record takes ``language`` (the app's choice: link or browser) when the study enables
    it, else the study's default; a resumed one keeps the language it started in.
    """
    study = Study.objects.filter(slug=slug).first()
    if study is None:
        raise FlowError("not_found", "There is no study at this link. Please check the link.")
    _check_ids(study, prolific_pid=prolific_pid, study_id=study_id, session_id=session_id)
    first = _first_record(study, prolific_pid)
    if first is None:
        started = _start(
            study, prolific_pid, study_id=study_id, session_id=session_id, language=language
        )
        if started is not None:
            return started
        first = _first_record(study, prolific_pid)  # another link of the PID was just first
        assert first is not None
    proven = _same_person(first, session_id, token)
    if proven is not None:
        _check_open(study, returning=True)
        return _resume(proven, study_id=study_id, session_id=session_id)
    if study.returning_link_policy != ReturningLinkPolicy.FRESH:
        _refuse_returning_link(study)
    started = _start(
        study,
        prolific_pid,
        study_id=study_id,
        session_id=session_id,
        restart_of=first,
        language=language,
    )
    assert started is not None  # only first records are unique
    return started


def _check_ids(study: Study, *, prolific_pid: str, study_id: str, session_id: str) -> None:
    for name, value in (
        ("prolific_pid", prolific_pid),
        ("study_id", study_id),
        ("session_id", session_id),
    ):
        if (value or name == "prolific_pid") and not _PROLIFIC_ID.match(value or ""):
            count_refused_start(study, RefusalReason.MALFORMED_ID)
            raise invalid(name, "must be 1 to 64 letters, digits, '-' or '_'")
    if study.recruitment == Recruitment.PROLIFIC and not _PROLIFIC_PID.match(prolific_pid):
        count_refused_start(study, RefusalReason.MALFORMED_ID)
        raise FlowError("invalid", _NOT_A_PROLIFIC_ID, field="prolific_pid")


def _first_record(study: Study, prolific_pid: str) -> Participant | None:
    return Participant.objects.filter(
        study=study, prolific_pid=prolific_pid, restart_of__isnull=True
    ).first()


def _start(
    study: Study,
    prolific_pid: str,
    *,
    study_id: str,
    session_id: str,
    restart_of: Participant | None = None,
    language: str = "",
) -> StartResult | None:
    """A new record: the first of its PROLIFIC_PID, or a fresh session beside the first (it
    takes a place like any newcomer: refused while paused or full). None when another link
    of the same PID created the first record meanwhile."""
    _check_open(study, returning=False)
    chosen = resolve_language(study, language)
    data = {"session_id": session_id, "study_id": study_id, "language": chosen}
    if restart_of is not None:
        data["restart_of"] = restart_of.pseudonym
    try:
        with transaction.atomic():
            participant = Participant.objects.create(
                study=study,
                prolific_pid=prolific_pid,
                restart_of=restart_of,
                language=chosen,
                **_new_participant_fields(study_id=study_id, session_id=session_id),
            )
            token = issue_token(participant)
            record_audit(
                AuditAction.PARTICIPANT_RESTART if restart_of else AuditAction.PARTICIPANT_START,
                target=participant,
                actor_label=actor_for(participant),
                data=data,
            )
    except IntegrityError:
        return None
    return StartResult(participant=participant, token=token, created=True)


def _resume(participant: Participant, *, study_id: str, session_id: str) -> StartResult:
    with transaction.atomic():
        token = issue_token(participant)
        record_audit(
            AuditAction.PARTICIPANT_RESUME,
            target=participant,
            actor_label=actor_for(participant),
            data={"session_id": session_id, "study_id": study_id},
        )
    return StartResult(participant=participant, token=token, created=False)


def _same_person(first: Participant, session_id: str, token: str | None) -> Participant | None:
    """The record of ``first``'s PROLIFIC_PID (the first or a fresh session of it) that the
    browser's token or the link's SESSION_ID proves the caller to be, if any. A valid token of
    anyone else proves nothing, whatever the SESSION_ID."""
    records = Participant.objects.filter(Q(pk=first.pk) | Q(restart_of=first))
    if token and (holder := participant_for_token(token)) is not None:
        return records.filter(pk=holder.pk).first()
    if not session_id:
        return None
    for record in records.exclude(prolific_session_id="").order_by("pk"):
        if secrets.compare_digest(record.prolific_session_id, session_id):
            return record
    return None


_ALREADY_STARTED = (
    "This study was already started with your Prolific ID. Please continue in the browser "
    "where you started, or open the study again from Prolific."
)


def _refuse_returning_link(study: Study) -> None:
    count_refused_start(study, RefusalReason.REPEATED_ID)
    if study.returning_link_policy == ReturningLinkPolicy.SCREEN_OUT:
        raise FlowError(
            "screened_out",
            "This study link was already used. Thank you for your interest.",
            data={"screenout_code": study.screenout_code},
        )
    raise FlowError("already_started", _ALREADY_STARTED)


def start_preview(study: Study, *, actor: User) -> StartResult:
    """A test participant for a researcher: any study status, never counted, never released."""
    with transaction.atomic():
        participant = Participant.objects.create(
            study=study, is_preview=True, **_new_participant_fields(prefix="preview")
        )
        token = issue_token(participant)
        record_audit(AuditAction.PARTICIPANT_PREVIEW, target=participant, actor=actor)
    return StartResult(participant=participant, token=token, created=True)


def _new_participant_fields(
    *, study_id: str = "", session_id: str = "", prefix: str = "p"
) -> dict[str, Any]:
    pseudonym = f"{prefix}-{secrets.token_hex(10)}"
    return {
        "pseudonym": pseudonym,
        "external_id": pseudonym,
        "prolific_study_id": study_id,
        "prolific_session_id": session_id,
    }


def _check_open(study: Study, *, returning: bool) -> None:
    if study.status in _CLOSED_MESSAGES:
        raise FlowError("study_closed", _CLOSED_MESSAGES[study.status])
    if returning:
        return  # someone who already started may finish while recruitment is paused or full
    if study.status == StudyStatus.PAUSED:
        raise FlowError(
            "study_paused", "Recruitment for this study is paused. Please try again later."
        )
    if is_full(study):
        count_refused_start(study, RefusalReason.STUDY_FULL)
        raise FlowError(
            "study_full",
            "This study has all the participants it needs. Thank you for your interest.",
            data={"screenout_code": study.screenout_code},
        )


def require_active(participant: Participant) -> None:
    """Refuse any write by a participant who has left the study."""
    if participant.withdrawn:
        raise FlowError("withdrawn", "You have withdrawn from this study.")
    if participant.screened_out_at is not None:
        raise FlowError("screened_out", "This study has ended for you.")
    if participant.place_freed_at is not None:
        raise FlowError(
            "place_released",
            "Your place in this study was released because the session ended on Prolific or "
            "was inactive for too long. You do not need to do anything else here.",
        )


@transaction.atomic
def give_consent(participant: Participant, *, consent_version: str, agree: bool) -> None:
    """Record consent and open the first conversation, or screen out on refusal or a full study."""
    participant = Participant.objects.select_for_update().get(pk=participant.pk)
    require_active(participant)
    if participant.consented_at is not None:
        return  # a repeated submit: already done, nothing changes
    study = Study.objects.select_for_update().get(pk=participant.study_id)
    if consent_version != study.consent_version:
        # A conflict with the study's current state (409), not a malformed request.
        raise FlowError(
            "consent_changed",
            "The consent text has changed since this page was loaded. Please reload and read it again.",
            field="consent_version",
        )
    if not agree:
        screen_out(participant, ScreenoutReason.DECLINED_CONSENT)
        return
    # A fresh session of a PROLIFIC_PID that holds a place keeps that place: not a second one.
    was_full = not participant.is_preview and is_full(study)
    if was_full and not _holds_place(participant):
        screen_out(participant, ScreenoutReason.STUDY_FULL)
        return
    participant.consent_version = consent_version
    participant.consented_at = timezone.now()
    participant.save(update_fields=["consent_version", "consented_at"])
    actor = actor_for(participant)
    record_audit(
        AuditAction.PARTICIPANT_CONSENT,
        target=participant,
        actor_label=actor,
        data={"version": consent_version},
    )
    open_conversation(study, participant, state=ConversationState.CONSENTED, actor_label=actor)
    # The place that fills the study: the study's row is locked, so one consent at a time
    # sees it become full (a study full again after a withdrawal is a new event).
    if not participant.is_preview and not was_full and is_full(study):
        emit(EventType.STUDY_FULL, study.pk, {"study_id": study.pk})


def screen_out(participant: Participant, reason: str) -> None:
    participant.screened_out_at = timezone.now()
    participant.screenout_reason = reason
    participant.save(update_fields=["screened_out_at", "screenout_reason"])
    record_audit(
        AuditAction.PARTICIPANT_SCREEN_OUT,
        target=participant,
        actor_label=actor_for(participant),
        data={"reason": reason},
    )


@transaction.atomic
def submit_profile(
    participant: Participant,
    *,
    age: int,
    age_confirmed: bool = True,
    answers: dict[str, Any] | None = None,
    other_text: dict[str, str] | None = None,
    traits: list[str] | None = None,
    goals: list[str] | None = None,
    diagnosis: str | None = None,
    responses: dict[str, Any] | None = None,
) -> None:
    """The profile: age and the instrument's questionnaire, stored as option ids.

    ``answers`` maps a question id to an option id (or a list for a multi-choice question),
    ``other_text`` a question id to the text of its "other" option. Traits come from the
    questionnaire's trait questions (``diagnosis:<option id>``). An age under the minimum
    screens out only when ``age_confirmed`` (the app asks "Is that right?" first).
    """
    require_active(participant)
    conversation = current_conversation(participant, lock=True)
    if conversation is None or conversation.state != ConversationState.CONSENTED:
        raise FlowError("wrong_step", "The profile is not open now.")
    if participant.study.comprehension_questions and participant.comprehension_passed_at is None:
        # The comprehension check comes first (services/comprehension.py).
        raise FlowError("wrong_step", "The profile is not open now.")
    if age > MAXIMUM_AGE:
        raise invalid("age", f"must be at most {MAXIMUM_AGE}")
    if age < MINIMUM_AGE and not age_confirmed:
        raise FlowError(
            "invalid",
            f"You entered {age}. Is that right?",
            field="age",
            data={"needs_confirmation": True},
        )
    traits = _text_list("traits", traits or [])
    goals = _text_list("goals", goals or [])
    if diagnosis:
        traits.append(f"diagnosis:{_short_text('diagnosis', diagnosis)}")
    responses = dict(responses or {})
    if len(responses) > MAX_RESPONSES:
        raise invalid("responses", f"at most {MAX_RESPONSES} answers")
    questionnaire = instrument_of(participant.study).profile
    if questionnaire is not None:
        try:
            chosen = clean_answers(questionnaire, answers or {}, other_text or {})
        except ProfileError as error:
            raise invalid(error.field, str(error).split(": ", 1)[-1]) from None
        age_question = next((q for q in questionnaire.questions if q.kind == "number"), None)
        if age_question is not None and (band := age_question.band_of(age)):
            responses |= chosen | {f"{age_question.id}_band": band}
        else:
            responses |= chosen
        traits += [t for t in traits_of(questionnaire, chosen) if t not in traits]
    elif answers or other_text:
        raise invalid("answers", "this study's instrument has no profile questionnaire")
    if age < MINIMUM_AGE:
        screen_out(participant, ScreenoutReason.UNDER_AGE)
        return
    # Quotas per stratum: the study's row is locked (as consent locks it), so two profiles
    # racing for a stratum's last place are checked one after the other.
    study = _study_for_quotas(participant)
    if (
        study is not None
        and quotas.refusal(study, traits, person=participant.restart_of_id or participant.pk)
        is not None
    ):
        screen_out(participant, ScreenoutReason.QUOTA_FULL)
        return
    participant.age, participant.traits, participant.goals = age, traits, goals
    participant.responses = responses
    participant.profile_schema_version = PROFILE_SCHEMA_VERSION
    participant.profile_submitted_at = timezone.now()
    participant.save(
        update_fields=[
            "age",
            "traits",
            "goals",
            "responses",
            "profile_schema_version",
            "profile_submitted_at",
        ]
    )
    actor = actor_for(participant)
    record_audit(AuditAction.PARTICIPANT_PROFILE, target=participant, actor_label=actor)
    move(conversation, ConversationState.PROFILED, actor_label=actor)
    if study is not None:
        quotas.emit_reached(study, traits)
    clear_drafts(participant, "profile")


def _study_for_quotas(participant: Participant) -> Study | None:
    """The participant's study, its row locked, when its quotas apply to them (not to a
    preview, nor to a study without quotas)."""
    if participant.is_preview or not participant.study.quotas:
        return None
    return Study.objects.select_for_update().get(pk=participant.study_id)


def _text_list(field: str, values: list[str]) -> list[str]:
    if len(values) > MAX_LIST_ITEMS:
        raise invalid(field, f"at most {MAX_LIST_ITEMS} entries")
    return [_short_text(f"{field}[{i}]", value) for i, value in enumerate(values)]


def _short_text(field: str, value: str) -> str:
    value = value.strip()
    if not value or len(value) > MAX_ITEM_CHARS:
        raise invalid(field, f"must be 1 to {MAX_ITEM_CHARS} characters")
    return value


_OPEN_STATES = (
    ConversationState.CONSENTED,
    ConversationState.PROFILED,
    ConversationState.CHATTING,
    ConversationState.POST_SURVEY,
)


def _open_conversations_locked(participant: Participant) -> list[Conversation]:
    return list(
        Conversation.objects.select_for_update(no_key=True)
        .filter(participant=participant, state__in=_OPEN_STATES)
        .order_by("pk")
    )


@transaction.atomic
def withdraw(participant: Participant) -> None:
    """Mark the participant withdrawn: every later release leaves their data out, open
    conversations become abandoned so no one waits for them, and the study's withdrawal policy
    (keep out of releases, or erase the content: ``withdrawal.py``) is applied and recorded in
    the audit entry. Their tokens then read nothing but the ``withdrawn`` step.
    """
    # The participant's row only (not the study's, which every participant's writes refer to),
    # and no stronger than its UPDATE of plain columns: a reply's step committing meanwhile
    # checks its rows' foreign keys against this row and the conversation's at its COMMIT
    # (Django's PostgreSQL constraints are deferred), which a FOR UPDATE lock would make wait
    # on this withdrawal while the withdrawal waits on that step: a deadlock.
    participant = (
        Participant.objects.select_for_update(of=("self",), no_key=True)
        .select_related("study")
        .get(pk=participant.pk)
    )
    if participant.withdrawn:
        return
    participant.withdrawn = True
    participant.withdrawn_at = timezone.now()
    participant.save(update_fields=["withdrawn", "withdrawn_at"])
    actor = actor_for(participant)
    # Locked first: a step that was finishing a conversation meanwhile (the post survey
    # completing it) commits before, and a completed conversation is not abandoned. That step
    # may have opened the participant's next conversation as it committed: the first look's
    # statement began before, so the conversations are read again (a new statement) to move.
    in_flight = lock_replies_in_flight(_open_conversations_locked(participant))
    for conversation in _open_conversations_locked(participant):
        move(conversation, ConversationState.ABANDONED, actor_label=actor)
    applied = apply_withdrawal_policy(participant)
    applied["replies_stopped"] = stop_replies_in_flight(in_flight)
    record_audit(
        AuditAction.PARTICIPANT_WITHDRAW, target=participant, actor_label=actor, data=applied
    )
