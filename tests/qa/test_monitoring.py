"""Study monitoring: the funnel, balance, turns, timings, flag rates and withdrawals, as charts and CSV."""

import csv
import io
from datetime import UTC, datetime

import pytest
from django.urls import reverse

from annotations.models import Conversation, ConversationState, Participant
from annotations.qa import charts
from annotations.qa.monitoring import monitoring_tables
from tests.factories import (
    build_record,
    build_turn,
    make_conversation,
    make_endpoint,
    make_participant,
    time_annotations,
)
from tests.qa.conftest import flags_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def data(study):
    make_endpoint(alias="listener"), make_endpoint(alias="advisor")  # imports find them by name
    day1, day2 = "2026-03-01T10:00:00+00:00", "2026-03-02T10:00:00+00:00"
    done = make_conversation(study, record=build_record(metadata=done_metadata(day1, "listener")))
    risky = make_conversation(
        study,
        record=build_record(
            metadata=done_metadata(day1, "advisor"),
            turns=(build_turn(1, user_message="I feel suicidal"),),
        ),
    )
    left = make_conversation(
        study, record=build_record(metadata=done_metadata(day2, "advisor"), n_turns=3)
    )
    Conversation.objects.filter(pk=left.pk).update(
        state=ConversationState.ABANDONED, completed_at=None
    )
    time_annotations(done, [10, 20])
    for conversation in (done, risky, left):
        flags_of(conversation)
    make_participant(study)  # arrived, never consented
    Participant.objects.filter(pk=left.participant_id).update(
        withdrawn=True, withdrawn_at=datetime(2026, 3, 3, tzinfo=UTC)
    )
    return done, risky, left


def done_metadata(timestamp, model):
    from attunebench import records

    return records.Metadata(model=model, provider="attune-demo", timestamp=timestamp)


def test_the_tables(study, data):
    tables = monitoring_tables(study)
    funnel = {row[0]: row[1:] for row in tables["funnel"].rows}
    today = datetime.now(UTC).date().isoformat()
    # started, consented, chatting, completed, abandoned, excluded
    assert funnel["2026-03-01"] == (2, 2, 2, 2, 0, 0)
    assert funnel["2026-03-02"] == (1, 1, 1, 0, 1, 0)
    assert funnel[today] == (1, 0, 0, 0, 0, 0)  # the arrival without consent
    models = {row[0]: row[1:] for row in tables["models"].rows}
    assert models["advisor"][0] == 2 and models["listener"][0] == 1
    assert sorted(tables["turns"].rows) == [(1, 1), (2, 1), (3, 1)]
    timings = {row[0]: row[1:] for row in tables["timings"].rows}
    # turn starts 30 s before the annotation opens: 10 + 30 and 20 + 30 -> median 45
    assert timings["listener"] == (2, 45.0, 2, 15.0)
    flags = {(row[0], row[2]): row[3:] for row in tables["flags"].rows}
    assert flags[("risk_signal", "advisor")] == (2, 1, 0.5)
    assert tables["withdrawals"].rows == [("2026-03-03", 1)]


def test_the_page_draws_every_chart(client, researcher, study, data):
    client.force_login(researcher)
    page = client.get(reverse("qa:monitoring", args=[study.slug])).text
    assert page.count('<svg xmlns="http://www.w3.org/2000/svg" class="qa-chart"') == 7


def test_each_table_downloads_as_csv(client, viewer, study, data):
    client.force_login(viewer)
    response = client.get(reverse("qa:monitoring_csv", args=[study.slug, "models"]))
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == ["model", "conversations", "share", "completed", "abandoned", "excluded"]
    assert len(rows) == 3
    assert client.get(reverse("qa:monitoring_csv", args=[study.slug, "nope"])).status_code == 404


def test_charts_escape_labels_and_scale_to_round_numbers():
    svg = charts.bars("t<", ["<script>"], {"n": [7]})
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    assert (
        charts.nice_ceiling(7) == 10
        and charts.nice_ceiling(0.33) == 0.5
        and charts.nice_ceiling(0) == 1
    )
    assert "<polyline" in charts.lines("l", ["a", "b"], {"x": [1, 2]})
    assert svg.count("<rect") == 1 and 'role="img"' in svg


def test_an_empty_study_shows_no_charts(client, researcher):
    from tests.factories import make_study

    empty = make_study()
    client.force_login(researcher)
    page = client.get(reverse("qa:monitoring", args=[empty.slug])).text
    assert "No conversations yet." in page and 'class="qa-chart"' not in page
