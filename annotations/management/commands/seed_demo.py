"""python manage.py seed_demo [--conversations N] [--seed S] [--admin-password PW]"""

from __future__ import annotations

import time

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from annotations.demo import seed_demo
from annotations.demo_languages import ensure_spanish_demo_study


class Command(BaseCommand):
    help = "Create the demo study with demo model endpoints and N synthetic, fully annotated conversations."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--conversations", type=int, default=50, help="How many conversations (default 50)"
        )
        parser.add_argument("--seed", type=int, default=1, help="Random seed (default 1)")
        parser.add_argument(
            "--admin-password",
            help="Also create the superuser 'admin' with this password if absent",
        )

    def handle(
        self, *args, conversations: int, seed: int, admin_password: str | None, **options
    ) -> None:
        if conversations < 0:
            raise CommandError("--conversations must not be negative")
        started = time.perf_counter()
        report = seed_demo(conversations, seed)
        spanish = ensure_spanish_demo_study()  # no synthetic conversations: a link to try
        elapsed = time.perf_counter() - started
        self.stdout.write(
            f"demo study '{report.study.slug}': created {report.created} conversations, "
            f"{report.already_present} already present ({elapsed:.2f} s, seed {seed})"
        )
        self.stdout.write(f"Spanish demo study '{spanish.slug}' (languages {spanish.languages})")
        if admin_password:
            user_model = get_user_model()
            if not user_model.objects.filter(username="admin").exists():
                user_model.objects.create_superuser("admin", "admin@example.org", admin_password)
                self.stdout.write("created superuser 'admin'")
