"""python manage.py erase_participant --study SLUG --participant PSEUDONYM --operator NAME

Erases a participant's content on their request (their messages and the replies to them,
annotations, questionnaires, profile), whatever the study's withdrawal policy, and records the
erasure: every later release lists their conversations in its retractions file. Audited under
the operator's name. Run by whoever administers the server (a staff user with the permission
can do the same from the participant admin).
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from annotations.models import Participant
from annotations.qa.services.personal_details import erase_participant


class Command(BaseCommand):
    help = "Erase a participant's content on request (audited; later releases retract it)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--study", required=True, help="Study slug")
        parser.add_argument("--participant", required=True, help="The participant's pseudonym")
        parser.add_argument(
            "--operator", required=True, help="Who carries out the request (for the audit log)"
        )

    def handle(self, *args, study: str, participant: str, operator: str, **options) -> None:
        found = Participant.objects.filter(study__slug=study, pseudonym=participant).first()
        if found is None:
            raise CommandError(f"no participant {participant!r} in study {study!r}")
        if not operator.strip():
            raise CommandError("--operator must name who carries out the request")
        erasure = erase_participant(
            found, actor=None, actor_label=f"command:erase_participant:{operator.strip()}"
        )
        self.stdout.write(
            f"erased participant {participant}: {len(erasure.conversation_ids)} conversation(s); "
            "the next release of the study retracts them (a new major version)"
        )
