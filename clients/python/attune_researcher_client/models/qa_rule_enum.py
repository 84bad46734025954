from enum import StrEnum

class QaRuleEnum(StrEnum):
    APPROVED = "approved"
    NON_EXCLUDED = "non_excluded"

    def __str__(self) -> str:
        return str(self.value)
