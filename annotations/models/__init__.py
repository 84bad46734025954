"""The annotation data model, one module per concern."""

from annotations.models.annotation import (
    BehaviourJudgement,
    ImprovedStatus,
    MoodTag,
    PairwiseChoice,
    TurnAnnotation,
)
from annotations.models.audit import AuditEntry
from annotations.models.client_error import ClientError
from annotations.models.conversation import (
    ALLOWED_TRANSITIONS,
    Conversation,
    ConversationState,
    Turn,
    TurnStatus,
)
from annotations.models.draft import ParticipantDraft
from annotations.models.endpoint import ModelEndpoint
from annotations.models.instrument import Instrument, InstrumentInUseError
from annotations.models.instrument_translation import InstrumentTranslation
from annotations.models.model_config import ModelConfig, ModelConfigImmutableError
from annotations.models.participant import Participant
from annotations.models.prolific import (
    ApproveRule,
    BonusBatch,
    BonusLine,
    BonusState,
    DecisionState,
    ProlificLink,
    ProlificSubmission,
    ReviewDecision,
)
from annotations.models.rotation import QuestionRotation
from annotations.models.session import ParticipantSession
from annotations.models.signal import SignalKind, SignalSource, TurnSignal
from annotations.models.study import (
    Recruitment,
    ReturningLinkPolicy,
    Study,
    StudyStatus,
    WithdrawalPolicy,
)
from annotations.models.survey import ConversationWideAnswers, PanasPhase, PanasResponse

__all__ = [
    "ApproveRule",
    "BonusBatch",
    "BonusLine",
    "BonusState",
    "DecisionState",
    "ProlificLink",
    "ProlificSubmission",
    "ReviewDecision",
    "ALLOWED_TRANSITIONS",
    "AuditEntry",
    "BehaviourJudgement",
    "ClientError",
    "Conversation",
    "ConversationState",
    "ConversationWideAnswers",
    "ImprovedStatus",
    "Instrument",
    "InstrumentInUseError",
    "InstrumentTranslation",
    "ModelConfig",
    "ModelConfigImmutableError",
    "ModelEndpoint",
    "MoodTag",
    "PairwiseChoice",
    "PanasPhase",
    "PanasResponse",
    "Participant",
    "ParticipantDraft",
    "ParticipantSession",
    "QuestionRotation",
    "SignalKind",
    "SignalSource",
    "Study",
    "StudyStatus",
    "Recruitment",
    "ReturningLinkPolicy",
    "WithdrawalPolicy",
    "Turn",
    "TurnAnnotation",
    "TurnSignal",
    "TurnStatus",
]
