from enum import StrEnum

class ReleaseOutputStateEnum(StrEnum):
    BUILDING = "building"
    DRAFT = "draft"
    FAILED = "failed"
    FROZEN = "frozen"

    def __str__(self) -> str:
        return str(self.value)
