"""The events an endpoint may subscribe to, and the permission each asks of its owner.

Pure (no Django model import): the study apps name these constants when they emit. An event is
delivered only while the endpoint's owner holds its permission in every study it names (the
same study scope as the admin), checked again before each attempt.
"""

from __future__ import annotations

from enum import StrEnum


class EventType(StrEnum):
    RELEASE_FROZEN = "release.frozen"
    RELEASE_FAILED = "release.failed"
    EVALUATION_RUN_FINISHED = "evaluation_run.finished"
    EVALUATION_RUN_FAILED = "evaluation_run.failed"
    RISK_FLAG_RAISED = "risk_flag.raised"
    STUDY_FULL = "study.full"
    # A stratum's quota (``Study.quotas``) reached its bound, once per quota
    # (annotations/services/quotas.py); the study's own target is ``study.full``.
    QUOTA_REACHED = "quota.reached"
    QA_QUEUE_EMPTY = "qa_queue.empty"


LABELS: dict[str, str] = {
    EventType.RELEASE_FROZEN: "Release frozen",
    EventType.RELEASE_FAILED: "Release build failed",
    EventType.EVALUATION_RUN_FINISHED: "Evaluation run finished",
    EventType.EVALUATION_RUN_FAILED: "Evaluation run failed",
    EventType.RISK_FLAG_RAISED: "Risk flag raised",
    EventType.STUDY_FULL: "Study full",
    EventType.QUOTA_REACHED: "Quota reached",
    EventType.QA_QUEUE_EMPTY: "QA queue empty",
}

# What the owner must hold, in every study of the event, to receive it ("app_label.codename").
PERMISSIONS: dict[str, str] = {
    EventType.RELEASE_FROZEN: "releases.view_release",
    EventType.RELEASE_FAILED: "releases.view_release",
    EventType.EVALUATION_RUN_FINISHED: "evaluation.view_evaluationrun",
    EventType.EVALUATION_RUN_FAILED: "evaluation.view_evaluationrun",
    EventType.RISK_FLAG_RAISED: "qa.view_flag",
    EventType.STUDY_FULL: "annotations.view_study",
    EventType.QUOTA_REACHED: "annotations.view_study",
    EventType.QA_QUEUE_EMPTY: "qa.view_conversationreview",
}

CHOICES: list[tuple[str, str]] = [(t.value, LABELS[t]) for t in EventType]
