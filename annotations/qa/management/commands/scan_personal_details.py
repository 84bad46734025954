"""python manage.py scan_personal_details --study SLUG [--study ...]

Scans every conversation of the studies whose texts the current detector has not read as they
are now (never scanned, scanned by an older detector version, or changed since). Idempotent:
reviewed findings stay. A release build does the same before it writes anything.
"""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand, CommandError

from annotations.models import Conversation, Study
from annotations.qa.services.personal_details import scan_queryset, unreviewed_findings


class Command(BaseCommand):
    help = "Scan a study's texts for personal details (what is unscanned or scanned by an older version)."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--study", action="append", required=True, help="Study slug (repeatable)"
        )

    def handle(self, *args, study: list[str], **options) -> None:
        known = set(Study.objects.filter(slug__in=study).values_list("slug", flat=True))
        if missing := sorted(set(study) - known):
            raise CommandError(f"unknown study: {', '.join(missing)}")
        queryset = Conversation.objects.filter(study__slug__in=study)
        started = time.perf_counter()
        added = scan_queryset(queryset)
        self.stdout.write(
            f"scanned {', '.join(sorted(known))}: {added} new finding(s), "
            f"{unreviewed_findings(queryset).count()} awaiting review "
            f"({time.perf_counter() - started:.2f} s)"
        )
