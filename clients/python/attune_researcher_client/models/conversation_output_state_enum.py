from enum import StrEnum

class ConversationOutputStateEnum(StrEnum):
    ABANDONED = "abandoned"
    CHATTING = "chatting"
    COMPLETED = "completed"
    CONSENTED = "consented"
    EXCLUDED = "excluded"
    POST_SURVEY = "post_survey"
    PROFILED = "profiled"

    def __str__(self) -> str:
        return str(self.value)
