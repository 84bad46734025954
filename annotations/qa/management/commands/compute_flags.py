"""python manage.py compute_flags [--study SLUG ...] [--only-new]

Runs every automatic check on completed (and excluded) conversations. Safe to run again:
flags are created once per type, refreshed while open, retired when a check stops firing.
"""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand, CommandError

from annotations.models import Conversation, ConversationState, Study
from annotations.qa.services.flagging import compute_flags


class Command(BaseCommand):
    help = "Compute the automatic QA flags of completed conversations (idempotent)."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--study", action="append", default=[], help="Study slug (repeatable; default all)"
        )
        parser.add_argument(
            "--only-new", action="store_true", help="Skip conversations already checked"
        )

    def handle(self, *args, study: list[str], only_new: bool, **options) -> None:
        queryset = Conversation.objects.filter(
            state__in=[ConversationState.COMPLETED, ConversationState.EXCLUDED]
        )
        if study:
            known = set(Study.objects.filter(slug__in=study).values_list("slug", flat=True))
            if missing := sorted(set(study) - known):
                raise CommandError(f"unknown study: {', '.join(missing)}")
            queryset = queryset.filter(study__slug__in=study)
        if only_new:
            queryset = queryset.exclude(qa_review__flags_computed_at__isnull=False)
        started = time.perf_counter()
        report = compute_flags(
            queryset.values_list("pk", flat=True), actor_label="command:compute_flags"
        )
        self.stdout.write(
            f"checked {report.conversations} conversations: {report.raised} flags raised, "
            f"{report.updated} updated, {report.retired} retired ({time.perf_counter() - started:.2f} s)"
        )
