"""QA service functions: the only write paths (validate, write, audit, in one transaction)."""


class QAError(ValueError):
    """A QA action that is not possible now; the message is shown to the user as it is."""
