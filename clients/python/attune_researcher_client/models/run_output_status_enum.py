from enum import StrEnum

class RunOutputStatusEnum(StrEnum):
    CANCELLED = "cancelled"
    COMPLETED = "completed"
    FAILED = "failed"
    QUEUED = "queued"
    RUNNING = "running"
    SCORING = "scoring"

    def __str__(self) -> str:
        return str(self.value)
