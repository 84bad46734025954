"""Milliseconds and queries to render the QA review queue and a conversation page.

    .venv/bin/python benchmarks/qa_pages.py [--conversations N] [--repeat R] [--database-url URL]

Seeds N demo conversations (default 1,000) in a fresh temp data folder (SQLite by default, or
the database URL given, which must point at a scratch database: it is flushed and migrated),
gives them demo annotation timings, computes the QA flags, then renders each page R times
(default 50) with Django's test client as a logged-in researcher. Prints the median and p95
milliseconds and the query count per page, and a SUMMARY line.
"""

from __future__ import annotations

import statistics
import time

from _setup import add_database_option, argument_parser, scratch_django


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> None:
    parser = argument_parser(__doc__)
    parser.add_argument("--conversations", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=50)
    add_database_option(parser)
    args = parser.parse_args()

    scratch_django("attune-qa-bench-", args.database_url)
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from django.db import connection
    from django.db.models import Count
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from annotations.demo import seed_demo
    from annotations.models import Conversation
    from annotations.qa.demo import time_demo_annotations
    from annotations.qa.services.flagging import compute_flags

    print(
        f"database: {connection.vendor}, conversations: {args.conversations}, repeat: {args.repeat}"
    )
    study = seed_demo(args.conversations, seed=1).study
    time_demo_annotations(study, seed=1)
    started = time.perf_counter()
    report = compute_flags(
        Conversation.objects.values_list("pk", flat=True), actor_label="benchmark"
    )
    flag_seconds = time.perf_counter() - started
    print(
        f"compute_flags: {report.conversations} conversations, {report.raised} flags in {flag_seconds:.2f} s"
    )
    if connection.vendor == "postgresql":
        # Fresh bulk-loaded tables have no planner statistics until autovacuum gets to them;
        # a live database has them, so measure with them.
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")

    user = get_user_model().objects.create_user("bench-researcher", password="x", is_staff=True)
    user.groups.add(Group.objects.get(name="researcher"))
    client = Client()
    client.force_login(user)
    longest = (
        Conversation.objects.annotate(n=Count("turns"))
        .order_by("-n", "pk")
        .values_list("pk", flat=True)
        .first()
    )
    pages = {  # name: (label, url)
        "queue": ("queue", reverse("qa:queue")),
        "queue_flag": ("queue filtered by flag", reverse("qa:queue") + "?flag=fast_annotation"),
        "conversation": ("conversation (12 turns)", reverse("qa:conversation", args=[longest])),
        "monitoring": ("monitoring", reverse("qa:monitoring", args=[study.slug])),
    }
    summary = []
    for name, (label, url) in pages.items():
        client.get(url)  # warm the template cache
        times = []
        for _ in range(args.repeat):
            with CaptureQueriesContext(connection) as queries:
                started = time.perf_counter()
                response = client.get(url)
                times.append((time.perf_counter() - started) * 1000)
            assert response.status_code == 200, (url, response.status_code)
        median, p95 = statistics.median(times), percentile(times, 0.95)
        print(f"{label}: median {median:.1f} ms, p95 {p95:.1f} ms, {len(queries)} queries")
        summary.append(f"{name}={median:.0f}/{p95:.0f}ms/{len(queries)}q")
    print(
        f"SUMMARY {' '.join(summary)} flags={flag_seconds:.2f}s n={args.conversations} db={connection.vendor}"
    )


if __name__ == "__main__":
    main()
