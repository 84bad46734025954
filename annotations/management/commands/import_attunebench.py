"""python manage.py import_attunebench DIR --study SLUG"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from annotations.interchange.importer import import_folder


class Command(BaseCommand):
    help = (
        "Import a folder of AttuneBench conversation_*.json files into a study (created on the "
        "default instrument if missing). Bad files are named and skipped; nothing is imported twice."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("folder", help="Folder holding conversation_*.json files")
        parser.add_argument("--study", required=True, help="Slug of the study to import into")

    def handle(self, *args, folder: str, study: str, **options) -> None:
        try:
            report = import_folder(folder, study, actor_label="command:import_attunebench")
        except FileNotFoundError as exc:
            raise CommandError(str(exc)) from None
        except ValidationError as exc:  # the study's slug (or another of its fields)
            raise CommandError(f"--study {study!r}: {'; '.join(exc.messages)}") from None
        for name, reason in report.rejected:
            self.stderr.write(f"skipped {name}: {reason}")
        self.stdout.write(
            f"imported {len(report.imported)}, already present {len(report.already_present)}, "
            f"rejected {len(report.rejected)} (study {study})"
        )
        if not report.imported and not report.already_present and report.rejected:
            raise CommandError("no file in the folder could be imported")
