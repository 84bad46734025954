"""Client errors: the participant app's unexpected errors, kept for the study's staff.

A report names its study (the page's slug); a participant's token, when the page has one, ties
it to the participant too. Nothing in it is study data: no audit entry, no release, and no
participant reads it back (the admin shows it to staff of the study only).
"""

from __future__ import annotations

from annotations.models import ClientError, Participant, Study
from annotations.services.errors import FlowError

UNKNOWN_STUDY = "There is no study at this link."


def record_client_error(
    slug: str,
    participant: Participant | None,
    *,
    message: str,
    stack: str = "",
    screen: str = "",
    build: str = "",
) -> ClientError:
    """Store one report (its fields already bounded by the API's input serializer)."""
    study = Study.objects.filter(slug=slug).only("pk").first()
    if study is None:
        raise FlowError("not_found", UNKNOWN_STUDY)
    if participant is not None and (participant.study_id != study.pk or participant.withdrawn):
        # Another study's token (a shared browser), or a withdrawn participant whose data is
        # gone: the report still counts, tied to no one.
        participant = None
    return ClientError.objects.create(
        study=study,
        participant=participant,
        message=message,
        stack=stack,
        screen=screen,
        build=build,
    )
