"""Sync, review and pay a study on Prolific from the command line (what the admin page does).

    manage.py prolific_review <study slug> --actor <username> [--dry-run] [--pay-bonuses]

Sync first (places freed), then approve every candidate and send the decisions; with
``--pay-bonuses`` also record and pay the bonus table. ``--dry-run`` syncs nothing and sends
nothing: it prints who would be approved and the bonus table.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from annotations.models import ProlificLink
from annotations.prolific.access import may_operate
from annotations.prolific.bonuses import bonus_table, intend_bonuses, pay_bonuses
from annotations.prolific.review import (
    ProlificRefused,
    approval_candidates,
    intend_approvals,
    send_decisions,
)
from annotations.prolific.sync import sync_study
from attune_collect.prolific.client import ProlificError


class Command(BaseCommand):
    help = "Sync a study with Prolific, approve its completed participants and pay bonuses."

    def add_arguments(self, parser) -> None:
        parser.add_argument("study", help="the study's slug")
        parser.add_argument("--actor", required=True, help="who acts (a researcher's username)")
        parser.add_argument("--dry-run", action="store_true", help="show, send nothing")
        parser.add_argument(
            "--pay-bonuses", dest="pay", action="store_true", help="also pay the bonus table"
        )

    def handle(self, *args, study: str, actor: str, dry_run: bool, pay: bool, **_) -> None:
        link = ProlificLink.objects.select_related("study").filter(study__slug=study).first()
        if link is None:
            raise CommandError(f"The study {study!r} has no Prolific link.")
        user = get_user_model().objects.filter(username=actor).first()
        if user is None or not may_operate(user, link.study):
            raise CommandError(f"{actor!r} may not run this study on Prolific.")
        try:
            if dry_run:
                self._show(link)
                return
            synced = sync_study(link, actor=user)
            self.stdout.write(
                f"synced {synced.seen} submissions; places freed: {synced.places_freed}"
            )
            made = intend_approvals(link, actor=user)
            sent = send_decisions(link)
            self.stdout.write(f"approvals recorded: {made}; decisions {sent}")
            if pay:
                rows = bonus_table(link)
                if rows:
                    intend_bonuses(
                        link, actor=user, expected_total_cents=sum(r.amount_cents for r in rows)
                    )
                self.stdout.write(f"bonuses: {pay_bonuses(link)}")
        except (ProlificError, ProlificRefused) as error:
            raise CommandError(str(error)) from None

    def _show(self, link: ProlificLink) -> None:
        candidates = approval_candidates(link)
        self.stdout.write(f"would approve {len(candidates)} submissions (dry run: nothing sent)")
        for candidate in candidates:
            self.stdout.write(f"  {candidate.participant.pseudonym}  {candidate.submission_id}")
        rows = bonus_table(link)
        self.stdout.write("participant  annotated_turns  conversations  amount_cents  capped")
        for row in rows:
            self.stdout.write(
                f"{row.pseudonym}  {row.annotated_turns}  {row.completed_conversations}  "
                f"{row.amount_cents}  {'yes' if row.capped else ''}"
            )
        self.stdout.write(f"total bonus owed: {sum(r.amount_cents for r in rows)} cents")
