"""With hundreds of seeded conversations the queue and the conversation page use a bounded number of queries.

The queries do not grow with the number of conversations (the queue pages through them) nor
with a conversation's length (turns, answers and flags are loaded in one query each). Speed is
measured by ``benchmarks/qa_pages.py`` (figures in docs/benchmarks.md), not here: a wall-clock
limit in a test fails on a busy machine and proves nothing on a quiet one.
"""

import pytest
from django.db import connection
from django.db.models import Count
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from annotations.demo import seed_demo
from annotations.models import Conversation
from annotations.qa.demo import time_demo_annotations
from annotations.qa.models import Flag
from annotations.qa.services.flagging import compute_flags

pytestmark = pytest.mark.django_db

QUEUE_QUERIES = (
    12  # measured 11: session, user, permissions x2, memberships, count, page, flags, filters x3
)
CONVERSATION_QUERIES = 18  # measured 17, whatever the number of turns


CONVERSATIONS = 400  # several queue pages; the bound must hold whatever the number


@pytest.fixture
def seeded():
    report = seed_demo(CONVERSATIONS, seed=1)
    time_demo_annotations(report.study, seed=1)
    compute_flags(Conversation.objects.values_list("pk", flat=True), actor_label="test")
    return report.study


def _get(client, url, query=None):
    response = client.get(url, query or {})
    assert response.status_code == 200
    return response


def test_pages_with_hundreds_of_conversations(
    researcher_client, seeded, django_assert_max_num_queries
):
    assert (
        Conversation.objects.count() == CONVERSATIONS
        and Flag.objects.filter(flag_type="fast_annotation").exists()
    )
    queue = reverse("qa:queue")
    researcher_client.get(queue)  # warm what is cached across requests (templates)
    for query in (
        {},
        {"flag": "fast_annotation"},
        {"view": "all", "page": "3"},
        {"model": "demo-advisor", "topic": "work"},
    ):
        with django_assert_max_num_queries(QUEUE_QUERIES):
            _get(researcher_client, queue, query)

    by_length = (
        Conversation.objects.annotate(n=Count("turns")).order_by("-n", "pk").values_list("pk", "n")
    )
    (longest, most), (shortest, fewest) = by_length.first(), by_length.last()
    assert (most, fewest) == (12, 3)
    counts = []
    for pk in (longest, shortest):
        url = reverse("qa:conversation", args=[pk])
        researcher_client.get(url)
        with CaptureQueriesContext(connection) as queries:
            _get(researcher_client, url)
        counts.append(len(queries))
    assert counts[0] == counts[1] <= CONVERSATION_QUERIES, counts
