"""The annotation data model, one module per concern."""

from annotations.models.annotation import (
    BehaviourJudgement,
    MoodTag,
    PairwiseChoice,
    TurnAnnotation,
)
from annotations.models.audit import AuditEntry
from annotations.models.conversation import (
    ALLOWED_TRANSITIONS,
    Conversation,
    ConversationState,
    Turn,
    TurnStatus,
)
from annotations.models.endpoint import ModelEndpoint
from annotations.models.instrument import Instrument, InstrumentInUseError
from annotations.models.participant import Participant
from annotations.models.study import Study, StudyStatus
from annotations.models.survey import ConversationWideAnswers, PanasPhase, PanasResponse

__all__ = [
    "ALLOWED_TRANSITIONS",
    "AuditEntry",
    "BehaviourJudgement",
    "Conversation",
    "ConversationState",
    "ConversationWideAnswers",
    "Instrument",
    "InstrumentInUseError",
    "ModelEndpoint",
    "MoodTag",
    "PairwiseChoice",
    "PanasPhase",
    "PanasResponse",
    "Participant",
    "Study",
    "StudyStatus",
    "Turn",
    "TurnAnnotation",
    "TurnStatus",
]
