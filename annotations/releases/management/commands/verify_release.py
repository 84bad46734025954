"""python manage.py verify_release PATH [--against NEWER]: recompute every hash and row count of a
release; with ``--against``, name the conversations of PATH that the newer release retracts."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError

from annotations.releases.manifest import verify_folder
from annotations.releases.models import Release
from annotations.releases.retractions import retracted_in


class Command(BaseCommand):
    help = (
        "Check a release folder against its MANIFEST.json (and the recorded hash). Exit status 1 "
        "if it does not hold. With --against NEWER: list the conversations of this release that "
        "NEWER retracts (erased on request): delete them from your copy."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("path", help="Release folder")
        parser.add_argument(
            "--against", default=None, help="A later release folder of the same dataset"
        )

    def handle(self, *args, path: str, against: str | None = None, **options) -> None:
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
        if against is not None:
            self._retractions(folder, Path(against).resolve())

    def _retractions(self, folder: Path, newer: Path) -> None:
        if not newer.is_dir():
            raise CommandError(f"{newer} is not a folder")
        retracted = retracted_in(folder, newer)
        if not retracted:
            self.stdout.write(f"{newer.name} retracts no conversation of this release")
            return
        self.stdout.write(
            f"{newer.name} retracts {len(retracted)} conversation(s) of this release: "
            "delete them from your copy"
        )
        for conversation_id, date in retracted:
            self.stdout.write(f"retracted {conversation_id} on {date}")

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
