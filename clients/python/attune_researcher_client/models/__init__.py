""" Contains all the data models used in inputs/outputs """

from .api_error_output import ApiErrorOutput
from .conversation_output import ConversationOutput
from .conversation_output_state_enum import ConversationOutputStateEnum
from .error_detail_output import ErrorDetailOutput
from .estimate_output import EstimateOutput
from .estimate_output_estimate import EstimateOutputEstimate
from .flag_count_output import FlagCountOutput
from .leaderboard_output import LeaderboardOutput
from .leaderboard_output_boards_item import LeaderboardOutputBoardsItem
from .manifest_output import ManifestOutput
from .manifest_output_manifest import ManifestOutputManifest
from .message_output import MessageOutput
from .modes_enum import ModesEnum
from .monitor_output import MonitorOutput
from .monitor_table_output import MonitorTableOutput
from .participant_output import ParticipantOutput
from .qa_rule_enum import QaRuleEnum
from .qa_status_enum import QaStatusEnum
from .qa_summary_output import QaSummaryOutput
from .qa_summary_output_reviews import QaSummaryOutputReviews
from .release_create_input import ReleaseCreateInput
from .release_output import ReleaseOutput
from .release_output_state_enum import ReleaseOutputStateEnum
from .report_output import ReportOutput
from .report_output_report import ReportOutputReport
from .run_create_input import RunCreateInput
from .run_output import RunOutput
from .run_output_status_enum import RunOutputStatusEnum
from .study_create_input import StudyCreateInput
from .study_output import StudyOutput
from .study_output_status_enum import StudyOutputStatusEnum

__all__ = (
    "ApiErrorOutput",
    "ConversationOutput",
    "ConversationOutputStateEnum",
    "ErrorDetailOutput",
    "EstimateOutput",
    "EstimateOutputEstimate",
    "FlagCountOutput",
    "LeaderboardOutput",
    "LeaderboardOutputBoardsItem",
    "ManifestOutput",
    "ManifestOutputManifest",
    "MessageOutput",
    "ModesEnum",
    "MonitorOutput",
    "MonitorTableOutput",
    "ParticipantOutput",
    "QaRuleEnum",
    "QaStatusEnum",
    "QaSummaryOutput",
    "QaSummaryOutputReviews",
    "ReleaseCreateInput",
    "ReleaseOutput",
    "ReleaseOutputStateEnum",
    "ReportOutput",
    "ReportOutputReport",
    "RunCreateInput",
    "RunOutput",
    "RunOutputStatusEnum",
    "StudyCreateInput",
    "StudyOutput",
    "StudyOutputStatusEnum",
)
