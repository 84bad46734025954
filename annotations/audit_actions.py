"""Every audit action the platform writes, declared in one place.

``record_audit`` (annotations/services/audit.py) refuses an action that is not a member here,
so the audit log's vocabulary is this list: a reader (or a query on ``AuditEntry.action``)
finds each action and what writes it by its name. An action is namespaced
``<app>.<object>.<verb>[.<detail>]``. Actions built from a value at run time (a model's name,
a phase, a review stage) are declared by their full expansions, one member each, so a new
value is a new line here before it can be written.

Pure (no Django import): any app may name these, as the webhooks name their event types.
"""

from __future__ import annotations

from enum import StrEnum


class AuditAction(StrEnum):
    # --- collection: participants and their conversations (annotations/services/) ---------
    PARTICIPANT_START = "annotations.participant.start"
    PARTICIPANT_RESTART = "annotations.participant.restart"
    PARTICIPANT_RESUME = "annotations.participant.resume"
    PARTICIPANT_PREVIEW = "annotations.participant.preview"
    PARTICIPANT_CONSENT = "annotations.participant.consent"
    PARTICIPANT_SCREEN_OUT = "annotations.participant.screen_out"
    PARTICIPANT_COMPREHENSION = "annotations.participant.comprehension"  # each attempt
    PARTICIPANT_PROFILE = "annotations.participant.profile"
    PARTICIPANT_WITHDRAW = "annotations.participant.withdraw"
    CONVERSATION_ASSIGN = "annotations.conversation.assign"
    CONVERSATION_STATE = "annotations.conversation.state"
    # f"annotations.panas.{phase}" (PanasPhase)
    PANAS_PRE = "annotations.panas.pre"
    PANAS_POST = "annotations.panas.post"
    TURN_MESSAGE = "annotations.turn.message"
    TURN_RETRY = "annotations.turn.retry"
    TURN_REPLY = "annotations.turn.reply"
    TURN_FAIL = "annotations.turn.fail"
    # f"annotations.safety.{kind}" (SignalKind, services/safety.py); moderation has its own.
    SAFETY_RISK = "annotations.safety.risk"
    SAFETY_IDENTITY_LEAK = "annotations.safety.identity_leak"
    SAFETY_MODERATION = "annotations.safety.moderation"
    SAFETY_MODERATION_FAILED = "annotations.safety.moderation_failed"
    ANNOTATION_SAVE_ANSWERS = "annotations.annotation.save_answers"
    ANNOTATION_SUBMIT = "annotations.annotation.submit"
    ANNOTATION_IMPROVED = "annotations.annotation.improved"
    ANNOTATION_IMPROVER_FAILED = "annotations.annotation.improver_failed"

    # --- study setup: f"annotations.{model_name}.{verb}" (services/setup.py) --------------
    STUDY_CREATE = "annotations.study.create"
    STUDY_UPDATE = "annotations.study.update"
    STUDY_DELETE = "annotations.study.delete"
    MODELENDPOINT_CREATE = "annotations.modelendpoint.create"
    MODELENDPOINT_UPDATE = "annotations.modelendpoint.update"
    MODELENDPOINT_DELETE = "annotations.modelendpoint.delete"
    INSTRUMENT_CREATE = "annotations.instrument.create"
    INSTRUMENT_UPDATE = "annotations.instrument.update"
    INSTRUMENT_DELETE = "annotations.instrument.delete"
    INSTRUMENT_TRANSLATION_SAVE = "annotations.instrument_translation.save"
    DEMO_SEED = "annotations.demo.seed"
    IMPORT_FOLDER = "annotations.import.folder"

    # --- quality assurance (annotations/qa/services/) --------------------------------------
    QA_FLAG_RAISE = "qa.flag.raise"
    QA_FLAG_UPDATE = "qa.flag.update"
    QA_FLAG_RETIRE = "qa.flag.retire"
    QA_FLAG_REOPEN = "qa.flag.reopen"
    QA_FLAG_CONFIRM = "qa.flag.confirm"
    QA_FLAG_DISMISS = "qa.flag.dismiss"
    QA_CORRECTION_ADD = "qa.correction.add"
    QA_CORRECTION_SUPERSEDE = "qa.correction.supersede"
    QA_CORRECTION_WITHDRAW = "qa.correction.withdraw"
    # f"qa.review.{stage}" (ReviewStage)
    QA_REVIEW_FIRST = "qa.review.first"
    QA_REVIEW_SECOND = "qa.review.second"
    QA_REVIEW_ADJUDICATION = "qa.review.adjudication"
    QA_REVIEW_FINAL = "qa.review.final"
    QA_CONVERSATION_EXCLUDE = "qa.conversation.exclude"
    QA_RISK_ALERT_SENT = "qa.risk_alert.sent"
    QA_RISK_ALERT_NO_CONTACTS = "qa.risk_alert.no_contacts"
    # f"qa.personal_detail.{action}" for a reviewer's decision
    QA_PERSONAL_DETAIL_ADD = "qa.personal_detail.add"
    QA_PERSONAL_DETAIL_ACCEPT = "qa.personal_detail.accept"
    QA_PERSONAL_DETAIL_EDIT = "qa.personal_detail.edit"
    QA_PERSONAL_DETAIL_DISMISS = "qa.personal_detail.dismiss"
    QA_PERSONAL_DETAIL_MODEL_FAILED = "qa.personal_detail.model_failed"
    QA_PERSONAL_DETAIL_MODEL_UNREADABLE = "qa.personal_detail.model_unreadable"
    QA_PARTICIPANT_ERASE = "qa.participant.erase"
    # f"qa.{model_name}.{verb}": the admin's QA configuration (qa/services/configuration.py)
    QA_STUDYMEMBERSHIP_CREATE = "qa.studymembership.create"
    QA_STUDYMEMBERSHIP_CHANGE = "qa.studymembership.change"
    QA_STUDYMEMBERSHIP_DELETE = "qa.studymembership.delete"
    QA_STUDYQASETTINGS_CREATE = "qa.studyqasettings.create"
    QA_STUDYQASETTINGS_CHANGE = "qa.studyqasettings.change"
    QA_STUDYQASETTINGS_DELETE = "qa.studyqasettings.delete"
    QA_ATTENTIONCHECK_CREATE = "qa.attentioncheck.create"
    QA_ATTENTIONCHECK_CHANGE = "qa.attentioncheck.change"
    QA_ATTENTIONCHECK_DELETE = "qa.attentioncheck.delete"

    # --- recruitment on Prolific (annotations/prolific/) -----------------------------------
    PROLIFIC_SYNC = "prolific.sync"
    PROLIFIC_LINK_CREATE = "prolific.link.create"
    PROLIFIC_LINK_UPDATE = "prolific.link.update"
    PROLIFIC_DEMO_LINK = "prolific.demo.link"  # make demo links its study to the local server
    # f"prolific.study.{action.lower()}" (PAUSE, START)
    PROLIFIC_STUDY_PAUSE = "prolific.study.pause"
    PROLIFIC_STUDY_START = "prolific.study.start"
    # f"prolific.submission.{action.lower()}[.intended]" (ReviewDecision.APPROVE, REJECT)
    PROLIFIC_SUBMISSION_APPROVE_INTENDED = "prolific.submission.approve.intended"
    PROLIFIC_SUBMISSION_APPROVE = "prolific.submission.approve"
    PROLIFIC_SUBMISSION_REJECT_INTENDED = "prolific.submission.reject.intended"
    PROLIFIC_SUBMISSION_REJECT = "prolific.submission.reject"
    PROLIFIC_BONUS_INTENDED = "prolific.bonus.intended"
    PROLIFIC_BONUS_CREATED = "prolific.bonus.created"
    PROLIFIC_BONUS_PAID = "prolific.bonus.paid"
    PROLIFIC_PLACE_FREED = "prolific.place.freed"
    PROLIFIC_CONVERSATION_ABANDON = "prolific.conversation.abandon"

    # --- releases (annotations/releases/) ---------------------------------------------------
    RELEASE_CREATE = "releases.create"
    RELEASE_ENQUEUE = "releases.enqueue"
    RELEASE_FREEZE = "releases.freeze"
    RELEASE_BUILD_REQUEUED = "releases.build.requeued"
    RELEASE_BUILD_FAILED = "releases.build.failed"

    # --- evaluation runs (evaluation/services/) --------------------------------------------
    EVALUATION_RUN_CREATE = "evaluation.run.create"
    EVALUATION_RUN_START = "evaluation.run.start"
    EVALUATION_RUN_COMPLETE = "evaluation.run.complete"
    EVALUATION_RUN_FAIL = "evaluation.run.fail"
    EVALUATION_RUN_CANCEL = "evaluation.run.cancel"
    EVALUATION_RUN_RESUME = "evaluation.run.resume"
    EVALUATION_RUN_FINALIZER_LOST = "evaluation.run.finalizer_lost"
    EVALUATION_UNIT_LAPSED = "evaluation.unit.lapsed"
    EVALUATION_UNITS_UNCLAIMED = "evaluation.units.unclaimed"

    # --- the researcher API's tokens and the webhooks ---------------------------------------
    RESEARCHER_API_TOKEN_ISSUE = "researcher_api.token.issue"
    RESEARCHER_API_TOKEN_REVOKE = "researcher_api.token.revoke"
    RESEARCHER_API_TOKEN_ADD_STUDY = "researcher_api.token.add_study"
    WEBHOOKS_ENDPOINT_CREATE = "webhooks.endpoint.create"
    WEBHOOKS_ENDPOINT_UPDATE = "webhooks.endpoint.update"
    WEBHOOKS_ENDPOINT_DELETE = "webhooks.endpoint.delete"
    WEBHOOKS_DELIVERY_REPLAY = "webhooks.delivery.replay"

    # --- the platform: a worker's heartbeat (attune_collect/tasks.py, check_worker) ---------
    SYSTEM_WORKER_HEARTBEAT = "system.worker.heartbeat"


DECLARED: frozenset[str] = frozenset(AuditAction)


class UndeclaredAuditAction(ValueError):
    """An audit action that is not a member of ``AuditAction``: a programming error, raised
    inside the caller's transaction so the change it would have audited is rolled back."""


def declared(action: str) -> AuditAction:
    """``action`` as its ``AuditAction``, or ``UndeclaredAuditAction``."""
    if action not in DECLARED:
        raise UndeclaredAuditAction(
            f"{action!r} is no declared audit action: add it to AuditAction "
            "(annotations/audit_actions.py)"
        )
    return AuditAction(action)
