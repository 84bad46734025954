"""The QA data model: rows beside the participant's data, never edits of it."""

from annotations.qa.models.configuration import AttentionCheck, StudyQASettings, SurveyPart
from annotations.qa.models.correction import Correction, CorrectionReason
from annotations.qa.models.flag import Flag, FlagSource, FlagStatus, FlagVerdict, Severity
from annotations.qa.models.membership import Role, StudyMembership
from annotations.qa.models.personal_detail import (
    FindingStatus,
    ParticipantErasure,
    PersonalDetailFinding,
    PersonalDetailScan,
)
from annotations.qa.models.review import (
    ConversationReview,
    Decision,
    ExclusionReason,
    Review,
    ReviewStage,
    ReviewStatus,
)

__all__ = [
    "AttentionCheck",
    "ConversationReview",
    "Correction",
    "CorrectionReason",
    "Decision",
    "ExclusionReason",
    "Flag",
    "FlagSource",
    "FlagStatus",
    "FindingStatus",
    "FlagVerdict",
    "ParticipantErasure",
    "PersonalDetailFinding",
    "PersonalDetailScan",
    "Review",
    "ReviewStage",
    "ReviewStatus",
    "Role",
    "Severity",
    "StudyMembership",
    "StudyQASettings",
    "SurveyPart",
]
