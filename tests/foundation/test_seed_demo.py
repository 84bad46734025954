"""seed_demo: a demo study with demo endpoints and varied, deterministic synthetic conversations."""

from collections import Counter
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from annotations.interchange.to_records import iter_records
from annotations.models import Conversation, Participant, Study, Turn
from annotations.seeding import demo_conversations
from attunebench.instrument import default_instrument

pytestmark = pytest.mark.django_db


def seed(n=30, seed_value=7, *extra):
    out = StringIO()
    call_command(
        "seed_demo", "--conversations", str(n), "--seed", str(seed_value), *extra, stdout=out
    )
    return out.getvalue()


def test_creates_the_demo_study_with_demo_endpoints():
    seed()
    study = Study.objects.get(slug="demo")
    assert study.is_synthetic
    assert sorted(study.model_pool.values_list("litellm_model", flat=True)) == [
        "attune-demo/advisor",
        "attune-demo/listener",
        "attune-demo/questioner",
    ]
    assert study.improver_endpoint.litellm_model == "attune-demo/improver"
    assert Conversation.objects.filter(study=study, is_synthetic=True).count() == 30


def test_same_seed_same_data():
    first = list(demo_conversations(default_instrument(), 20, seed=3))
    second = list(demo_conversations(default_instrument(), 20, seed=3))
    other = list(demo_conversations(default_instrument(), 20, seed=4))
    assert first == second
    assert first != other


def test_rerun_adds_nothing():
    seed()
    out = seed()
    assert "created 0 conversations, 30 already present" in out


def test_plausible_variety():
    seed(n=120)
    turns_per_conversation = Counter(
        Conversation.objects.values_list("turns__conversation", flat=True)
    )
    assert min(turns_per_conversation.values()) >= 3 and max(turns_per_conversation.values()) <= 12
    models = Counter(Conversation.objects.values_list("model_endpoint__model_name", flat=True))
    assert set(models) == {"listener", "advisor", "questioner"}
    no_condition = {"diagnosis:none", "diagnosis:prefer_not_to_say"}
    with_diagnosis = [
        p
        for p in Participant.objects.all()
        if any(t.startswith("diagnosis:") and t not in no_condition for t in p.traits)
    ]
    # Profile answers are option ids of the instrument's questionnaire.
    assert all(p.responses.get("diagnoses") for p in Participant.objects.all())
    assert 0.1 < len(with_diagnosis) / 120 < 0.4
    assert Turn.objects.filter(
        annotation__mood_tags__isnull=True
    ).exists()  # some turns are neutral


def test_answers_depend_on_the_model_style():
    seed(n=150)
    observed_yes = Counter()
    asked = Counter()
    for record in iter_records(Conversation.objects.all()):
        for turn in record.turns:
            for judgement in turn.annotations.binary_judgements:
                if judgement.question_id == "B11":  # tried to guide or direct
                    asked[record.metadata.model] += 1
                    observed_yes[record.metadata.model] += judgement.observed == "yes"
    assert (
        observed_yes["advisor"] / asked["advisor"]
        > observed_yes["listener"] / asked["listener"] + 0.4
    )


def test_records_are_marked_synthetic():
    seed(n=3)
    record = next(iter_records(Conversation.objects.all()))
    assert record.metadata.other["synthetic"] is True


def test_admin_password_creates_the_admin_once():
    seed(3, 1, "--admin-password", "demo-pass-123")
    seed(3, 1, "--admin-password", "demo-pass-123")
    assert get_user_model().objects.filter(username="admin", is_superuser=True).count() == 1
