"""python manage.py export_attunebench --study SLUG --out DIR"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from annotations.interchange.exporter import export_study
from annotations.models import Study


class Command(BaseCommand):
    help = "Write a study's completed conversations as AttuneBench conversation_<id>.json files."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--study", required=True, help="Slug of the study")
        parser.add_argument(
            "--out", required=True, help="Folder to write into (created if missing)"
        )
        parser.add_argument(
            "--include-unfinished", action="store_true", help="Also conversations still in progress"
        )

    def handle(self, *args, study: str, out: str, include_unfinished: bool, **options) -> None:
        found = Study.objects.filter(slug=study).first()
        if found is None:
            raise CommandError(f"no study with slug {study!r}")
        report = export_study(found, out, include_unfinished=include_unfinished)
        self.stdout.write(f"wrote {report.written} conversations to {report.folder}")
