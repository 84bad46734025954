"""QA service functions: the only write paths (validate, write, audit, in one transaction)."""

from attune_collect.errors import ServiceError


class QAError(ServiceError):
    """A QA action that is not possible now; the message is shown to the user as it is."""

    default_code = "qa_refused"
