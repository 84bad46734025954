"""Corrections: fix a technical error as a layer over the participant's answer."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from annotations.audit_actions import AuditAction
from annotations.interchange.to_records import conversation_to_record
from annotations.models import Conversation
from annotations.qa.correction_fields import (
    CorrectionPathError,
    CorrectionValueError,
    FieldKind,
    FieldPath,
    coerce_value,
    parse_path,
    read_value,
)
from annotations.qa.models import Correction, CorrectionReason
from annotations.qa.services import QAError
from annotations.services.audit import record_audit


@transaction.atomic
def add_correction(
    conversation: Conversation,
    *,
    field_path: str,
    value: Any,
    reason: str,
    note: str = "",
    actor: User,
) -> Correction:
    """Record a corrected value for one field; a correction already on that field is replaced.

    The original kept here is always the participant's own answer (read from their record),
    never an earlier correction, so the layer can be dropped at any time.
    """
    if reason not in CorrectionReason.values:
        raise QAError("A correction needs a reason from the list.")
    if reason == CorrectionReason.TECHNICAL_ERROR and not note.strip():
        raise QAError("Say what the technical error was.")
    try:
        path = parse_path(field_path)
        corrected = coerce_value(path, value)
        record = conversation_to_record(conversation)
        original = read_value(record, path)
    except (CorrectionPathError, CorrectionValueError) as exc:
        raise QAError(str(exc)) from None
    _check_choice(conversation, path, corrected)
    if corrected == original:
        raise QAError("The corrected value is the participant's own answer.")
    previous = (
        Correction.objects.select_for_update()
        .filter(conversation=conversation, field_path=path.text, withdrawn_at__isnull=True)
        .first()
    )
    if previous is not None:
        _withdraw(previous, actor, action=AuditAction.QA_CORRECTION_SUPERSEDE)
    correction = Correction.objects.create(
        conversation=conversation,
        field_path=path.text,
        original_value=original,
        corrected_value=corrected,
        reason=reason,
        note=note.strip(),
        created_by=actor,
    )
    record_audit(
        AuditAction.QA_CORRECTION_ADD,
        target=correction,
        actor=actor,
        data={
            "conversation": conversation.pk,
            "field": path.text,
            "original": original,
            "corrected": corrected,
            "reason": reason,
            "note": correction.note,
        },
    )
    return correction


@transaction.atomic
def withdraw_correction(correction: Correction, *, actor: User) -> Correction:
    correction = Correction.objects.select_for_update().get(pk=correction.pk)
    if correction.withdrawn_at is not None:
        raise QAError("This correction is already withdrawn.")
    return _withdraw(correction, actor, action=AuditAction.QA_CORRECTION_WITHDRAW)


def _withdraw(correction: Correction, actor: User, *, action: str) -> Correction:
    correction.withdrawn_at = timezone.now()
    correction.withdrawn_by = actor
    correction.save(update_fields=["withdrawn_at", "withdrawn_by"])
    record_audit(
        action,
        target=correction,
        actor=actor,
        data={"conversation": correction.conversation_id, "field": correction.field_path},
    )
    return correction


def _check_choice(conversation: Conversation, path: FieldPath, value: Any) -> None:
    """Q2 and Q3 answers must be options of the study's instrument."""
    if path.kind != FieldKind.CHOICE or value is None:
        return
    instrument = conversation.study.instrument.parsed()
    question = (
        instrument.q2_emotion_clarity
        if path.key == "q2_emotionClarity"
        else instrument.q3_model_fit
    )
    if value not in question.option_ids:
        raise QAError(
            f"{value!r} is not an option; choose one of: {', '.join(question.option_ids)}."
        )
