"""python manage.py build_release --name NAME --version X.Y.Z [--study SLUG] [rules] [--inline]"""

from __future__ import annotations

import sys
import time

from django.core.management.base import BaseCommand, CommandError
from django.db.models import Count, Q
from django.utils import timezone

from annotations.models import Study
from annotations.releases.models import AnnotationLayer, QaRule, Redaction, Release, ReleaseState
from annotations.releases.services import (
    DEFAULT_SUBSAMPLES,
    build_release,
    building_message,
    create_release,
    enqueue_build,
)
from attune_collect.config import attune_config
from attune_collect.errors import ServiceError
from attune_collect.stall import StallWatch

ACTOR = "command:build_release"


class Command(BaseCommand):
    help = (
        "Build a frozen, versioned release. Enqueues the export on a Celery worker and waits "
        "(or runs it in this process with --inline); prints the release folder as the last line. "
        "Running it again for a release that failed or was interrupted retries the build."
    )

    def add_base_argument(self, parser, *args, **kwargs) -> None:
        # Django's own --version (print Django's version) would shadow the release version.
        if "--version" not in args:
            super().add_base_argument(parser, *args, **kwargs)

    def add_arguments(self, parser) -> None:
        parser.add_argument("--name", required=True, help="Dataset name, e.g. attunebench")
        parser.add_argument(
            "--version", required=True, dest="release_version", help="MAJOR.MINOR.PATCH"
        )
        parser.add_argument(
            "--study",
            action="append",
            default=[],
            dest="studies",
            help="Study slug (repeatable); may be left out when there is only one study",
        )
        parser.add_argument(
            "--qa",
            choices=QaRule.values,
            default=QaRule.NON_EXCLUDED,
            help="Which conversations by QA status",
        )
        parser.add_argument(
            "--layer",
            choices=AnnotationLayer.values,
            default=AnnotationLayer.PARTICIPANT,
            help="Annotation layer",
        )
        parser.add_argument(
            "--redaction",
            choices=Redaction.values,
            default=Redaction.REVIEWED,
            help="reviewed (default): refuse while personal-detail findings are unreviewed; "
            "auto: redact every finding above the threshold without review",
        )
        parser.add_argument(
            "--include-unfinished", action="store_true", help="Not only completed conversations"
        )
        parser.add_argument(
            "--subsamples",
            default=",".join(map(str, DEFAULT_SUBSAMPLES)),
            help="Subsample sizes, e.g. 100,50,25,20",
        )
        parser.add_argument("--seed", type=int, default=2026, help="Subsample seed")
        parser.add_argument(
            "--license",
            default="cc-by-4.0",
            help="A Hugging Face Hub license identifier, or other (then give --license-name)",
        )
        parser.add_argument("--license-name", default="", help="The name of a license other")
        parser.add_argument("--description", default="")
        parser.add_argument(
            "--inline", action="store_true", help="Run the export in this process (no worker)"
        )
        parser.add_argument(
            "--worker-timeout",
            type=float,
            default=30.0,
            help="Seconds to wait for a worker to start",
        )
        parser.add_argument(
            "--timeout", type=float, default=3600.0, help="Seconds to wait for the build to finish"
        )

    def handle(self, *args, **options) -> None:
        release = Release.objects.filter(
            name=options["name"], version=options["release_version"]
        ).first()
        if release is not None and release.state == ReleaseState.FROZEN:
            raise CommandError(
                f"{release} is already frozen at {release.folder}; a frozen release never changes: use a new version"
            )
        if release is None:
            release = self._create(options)
        else:
            self.stdout.write(
                f"{release} exists ({release.get_state_display()}): building it again"
            )
        try:
            if options["inline"]:
                release = build_release(release.pk)
                if release.state != ReleaseState.FROZEN:  # a worker holds it under its lease
                    raise CommandError(building_message(release))
            else:
                enqueue_build(release, actor_label=ACTOR)
                release = self._wait(release, options["worker_timeout"], options["timeout"])
        except ServiceError as exc:
            raise CommandError(exc.message) from None
        self.stdout.write(
            f"frozen: {release.counts.get('conversations', 0)} conversations, content hash {release.content_hash}"
        )
        self.stdout.write(release.folder)

    def _create(self, options) -> Release:
        studies = self._studies(options["studies"])
        try:
            sizes = [int(part) for part in options["subsamples"].split(",") if part.strip()]
        except ValueError:
            raise CommandError(
                "--subsamples takes comma-separated integers, e.g. 100,50,25,20"
            ) from None
        try:
            return create_release(
                name=options["name"],
                version=options["release_version"],
                studies=studies,
                completed_only=not options["include_unfinished"],
                qa_rule=options["qa"],
                layer=options["layer"],
                redaction=options["redaction"],
                subsample_sizes=sizes,
                subsample_seed=options["seed"],
                license=options["license"],
                license_name=options["license_name"],
                description=options["description"],
                actor_label=ACTOR,
            )
        except ServiceError as exc:
            raise CommandError(exc.message) from None

    def _studies(self, slugs: list[str]) -> list[Study]:
        """The studies named, or the only study there is (saying which); else the choices."""
        if slugs:
            studies = list(Study.objects.filter(slug__in=slugs))
            missing = sorted(set(slugs) - {s.slug for s in studies})
            if missing:
                raise CommandError(f"no study with slug {', '.join(missing)}")
            return studies
        choices = list(
            Study.objects.annotate(
                conversation_count=Count(
                    "conversations", filter=Q(conversations__participant__is_preview=False)
                )
            ).order_by("slug")
        )
        if not choices:
            raise CommandError("there is no study yet: create one before building a release")
        if len(choices) > 1:
            listed = "\n".join(
                f"  {s.slug}  {s.title} ({s.conversation_count} conversations)" for s in choices
            )
            raise CommandError(
                f"there are {len(choices)} studies: choose with --study SLUG (repeatable):\n{listed}"
            )
        study = choices[0]
        self.stdout.write(
            f"no --study given: using the only study, {study.slug} ({study.title}), "
            f"{study.conversation_count} conversations"
        )
        return [study]

    def _wait(self, release: Release, worker_timeout: float, timeout: float) -> Release:
        started = time.monotonic()
        last_line = ""
        watch = StallWatch(attune_config().unclaimed_requeue_s)
        while True:
            release.refresh_from_db()
            elapsed = time.monotonic() - started
            if release.state == ReleaseState.FROZEN:
                return release
            if release.state == ReleaseState.FAILED:
                raise CommandError(f"the build failed: {release.error}")
            if release.state == ReleaseState.DRAFT and elapsed > worker_timeout:
                raise CommandError(
                    f"no Celery worker picked up the build within {worker_timeout:g} s. Start one "
                    "(`.venv/bin/celery -A attune_collect worker`; `make demo` starts one) and run this "
                    "command again, or use --inline to build in this process."
                )
            if elapsed > timeout:
                raise CommandError(
                    f"the build did not finish within {timeout:g} s (still {release.state})"
                )
            if (quiet := watch.stalled_for((release.state, release.progress_done))) is not None:
                self.stderr.write(stall_message(release, quiet))
            line = f"{release.get_state_display()}: {release.progress_done}/{release.progress_total} conversations ({release.progress_percent}%)"
            if line != last_line:
                self.stdout.write(line)
                last_line = line
            sys.stdout.flush()
            time.sleep(0.5)


def stall_message(release: Release, quiet: float) -> str:
    lapsed = release.lease_expires_at is not None and release.lease_expires_at < timezone.now()
    why = (
        "its worker stopped renewing the build's claim (killed?)"
        if lapsed
        else "no worker moved it"
    )
    return (
        f"stalled: {release} has not moved for {quiet:.0f} s ({release.get_state_display()}, "
        f"{release.progress_done}/{release.progress_total}): {why}. The workers' sweep sends it "
        "again; check that a worker runs (`manage.py check_worker`)."
    )
