"""python manage.py verify_release PATH: recompute every hash and row count of a release."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError

from annotations.releases.manifest import verify_folder
from annotations.releases.models import Release


class Command(BaseCommand):
    help = "Check a release folder against its MANIFEST.json (and the recorded hash). Exit status 1 if it does not hold."

    def add_arguments(self, parser) -> None:
        parser.add_argument("path", help="Release folder")

    def handle(self, *args, path: str, **options) -> None:
        folder = Path(path).resolve()
        if not folder.is_dir():
            raise CommandError(f"{folder} is not a folder")
        result = verify_folder(folder, self._recorded_hash(folder))
        for problem in result.problems:
            self.stderr.write(problem)
        if not result.ok:
            raise CommandError(
                f"release does NOT hold: {len(result.problems)} problem(s) in {result.files_checked} files"
            )
        self.stdout.write(
            f"release holds: {result.files_checked} files verified, content hash {result.content_hash}"
        )

    @staticmethod
    def _recorded_hash(folder: Path) -> str | None:
        """The hash this platform recorded for the folder, if it built it. A copy on another
        machine (no database, or a database without the release) is checked on its manifest alone."""
        try:
            return (
                Release.objects.filter(folder=str(folder))
                .values_list("content_hash", flat=True)
                .first()
                or None
            )
        except DatabaseError:
            return None
