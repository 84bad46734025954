"""python manage.py demo_prolific --api-base http://127.0.0.1:8091 --out data/demo-prolific.json

Link the demo study (``seed_demo`` first) to the local Prolific test server at ``--api-base``
and write the submissions the server is to start with (``--load`` of
``python -m attune_collect.prolific.testing.prolific_server``). ``make demo`` runs both.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from django.core.management.base import BaseCommand, CommandError

from annotations.models import Study
from annotations.prolific.demo import DEMO_TOKEN_ENV, link_demo_study, write_server_file


class Command(BaseCommand):
    help = "Link the demo study to the local Prolific test server (make demo)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--api-base", required=True, help="the local server's address")
        parser.add_argument("--out", required=True, type=Path, help="the server's JSON file")

    def handle(self, *args, api_base: str, out: Path, **options) -> None:
        # Loopback only: the demo never points a study at another machine.
        if urlsplit(api_base).hostname not in ("127.0.0.1", "localhost", "::1"):
            raise CommandError("--api-base must be a loopback address (the local test server)")
        try:
            link, data = link_demo_study(api_base)
        except Study.DoesNotExist:
            raise CommandError("There is no demo study: run `manage.py seed_demo` first.") from None
        write_server_file(data, out)
        self.stdout.write(
            f"demo study linked to the local Prolific server at {api_base} "
            f"(study {link.prolific_study_id}, token in ${DEMO_TOKEN_ENV}, "
            f"{len(data['submissions'])} submissions in {out})"
        )
