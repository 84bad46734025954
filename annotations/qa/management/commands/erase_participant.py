"""python manage.py erase_participant --study SLUG --participant PSEUDONYM --actor USERNAME

Erases a participant's content on their request (their messages and the replies to them,
annotations, questionnaires, profile), whatever the study's withdrawal policy, and records the
erasure: every later release lists their conversations in its retractions file. The actor is a
user of the platform who may erase in that study (active, holding ``qa.erase_participant`` there:
what the participant admin's action requires); the erasure is audited under their name. Anyone
else is refused and nothing changes.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from annotations.models import Participant
from annotations.qa.access import has_study_perm
from annotations.qa.services import QAError
from annotations.qa.services.personal_details import ERASE_PERM, erase_participant


class Command(BaseCommand):
    help = "Erase a participant's content on request (audited; later releases retract it)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--study", required=True, help="Study slug")
        parser.add_argument("--participant", required=True, help="The participant's pseudonym")
        parser.add_argument(
            "--actor",
            required=True,
            help="Who carries out the request: the username of a user who may erase in the study",
        )

    def handle(self, *args, study: str, participant: str, actor: str, **options) -> None:
        found = (
            Participant.objects.select_related("study")
            .filter(study__slug=study, pseudonym=participant)
            .first()
        )
        if found is None:
            raise CommandError(f"no participant {participant!r} in study {study!r}")
        user = get_user_model().objects.filter(username=actor).first()
        # One message for an unknown, inactive or unpermitted name: the command does not tell
        # whoever runs it which usernames exist.
        if user is None or not has_study_perm(user, ERASE_PERM, found.study_id):
            raise CommandError(
                f"{actor!r} may not erase participants in study {study!r} "
                f"(an active user holding {ERASE_PERM} there is needed)"
            )
        try:
            erasure = erase_participant(found, actor=user)
        except QAError as error:  # the service checks again; kept for a race with a revocation
            raise CommandError(error.message) from None
        self.stdout.write(
            f"erased participant {participant}: {len(erasure.conversation_ids)} conversation(s); "
            "the next release of the study retracts them (a new major version)"
        )
