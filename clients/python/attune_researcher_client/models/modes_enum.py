from enum import StrEnum

class ModesEnum(StrEnum):
    DEFAULT = "default"
    OMNISCIENT = "omniscient"
    VERBOSE = "verbose"
    VERBOSE_OMNISCIENT = "verbose_omniscient"

    def __str__(self) -> str:
        return str(self.value)
