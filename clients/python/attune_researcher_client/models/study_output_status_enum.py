from enum import StrEnum

class StudyOutputStatusEnum(StrEnum):
    CLOSED = "closed"
    DRAFT = "draft"
    PAUSED = "paused"
    RECRUITING = "recruiting"

    def __str__(self) -> str:
        return str(self.value)
