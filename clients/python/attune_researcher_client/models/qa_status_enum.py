from enum import StrEnum

class QaStatusEnum(StrEnum):
    APPROVED = "approved"
    AWAITING_SECOND = "awaiting_second"
    DISAGREEMENT = "disagreement"
    EXCLUDED = "excluded"
    PENDING = "pending"

    def __str__(self) -> str:
        return str(self.value)
