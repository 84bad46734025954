"""The conversation page: each turn side by side, timings and flags, shortcuts from a static script."""

import re

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse

from annotations.qa.models import StudyQASettings
from tests.factories import build_record, build_turn, make_conversation, time_annotations
from tests.qa.conftest import flags_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def page(reviewer_client, study):
    StudyQASettings.objects.create(study=study, double_review_share=0)
    conversation = make_conversation(
        study,
        record=build_record(
            turns=(
                build_turn(1),
                build_turn(2, user_message="I want to kill myself"),
            )
        ),
    )
    time_annotations(conversation, [12.5, 40])
    flags_of(conversation)
    return reviewer_client.get(reverse("qa:conversation", args=[conversation.pk])).text


def test_every_turn_shows_reply_tags_answers_edit_and_choices(page):
    for text in (
        "User message 1",
        "Model reply 1",
        "My edited reply.",
        "An improved reply.",
        "Nervous",
        "B11",
        "general",
        "Participant's edit",
        "Improved",
    ):
        assert text in page, text
    assert page.count('<article class="qa-turn') == 2
    assert "Annotation: 12.5 s" in page


def test_flags_are_shown_at_their_turn(page):
    turn_two = page[page.index('id="turn-2"') :]
    assert "risk_signal" in turn_two[: turn_two.index("</h3>")]
    assert "Risk signal" in page and 'href="#turn-2"' in page


def test_shortcuts_come_from_a_static_script(page):
    assert re.search(r'<script src="[^"]*qa/review\.js" defer></script>', page)
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page)  # no inline script (CSP)
    with open(finders.find("qa/review.js")) as handle:
        script = handle.read()
    for key in ('case "a"', 'case "x"', 'case "s"', 'case "j"', 'case "k"', 'case "n"', 'case "?"'):
        assert key in script
    assert (
        'data-shortcut="a"' in page and 'data-shortcut="x"' in page and 'data-shortcut="s"' in page
    )


def test_the_queue_links_and_filters(reviewer_client, study):
    risky = make_conversation(
        study, record=build_record(turns=(build_turn(1, user_message="I feel suicidal"),))
    )
    calm = make_conversation(study)
    flags_of(risky), flags_of(calm)
    page = reviewer_client.get(reverse("qa:queue")).text
    assert page.index(risky.external_id) < page.index(calm.external_id)  # critical flags first
    filtered = reviewer_client.get(reverse("qa:queue"), {"flag": "risk_signal"}).text
    assert risky.external_id in filtered and calm.external_id not in filtered
    by_topic = reviewer_client.get(reverse("qa:queue"), {"topic": "nothing-like-this"}).text
    assert risky.external_id not in by_topic
    by_study = reviewer_client.get(
        reverse("qa:queue"), {"study": study.slug, "model": risky.model_endpoint.alias}
    ).text
    assert risky.external_id in by_study and calm.external_id in by_study
