"""Per-turn behaviour questions rotate so every question gets answers; pairwise questions
always include the overall preference; A and B positions are randomised and recorded."""

from collections import Counter

import pytest

from annotations.models import TurnAnnotation
from annotations.services.question_rotation import take_next
from attunebench.instrument import default_instrument

pytestmark = pytest.mark.django_db


def test_every_question_is_asked_once_per_round(chat_study):
    ids = default_instrument().behaviour_ids
    per_turn = 6
    rounds = 3
    asked = Counter()
    for _ in range(rounds * len(ids) // per_turn):
        subset = take_next(chat_study, "behaviour", ids, per_turn)
        assert len(set(subset)) == per_turn
        asked.update(subset)
    assert asked == dict.fromkeys(ids, rounds)


def test_a_turn_mixes_categories(chat_study):
    instrument = default_instrument()
    subset = take_next(chat_study, "behaviour", instrument.behaviour_ids, 6)
    categories = {instrument.behaviour_question(q).category for q in subset}
    assert len(categories) > 1


def test_each_reply_gets_its_subset_and_pairwise_plan(participant_client, answered_turn):
    client = participant_client()
    client.onboard()
    answered_turn(client)
    annotation = TurnAnnotation.objects.get()
    assert len(annotation.shown_behaviour_questions) == 6
    assert annotation.selected_pairwise_questions[0] == "general"
    assert len(annotation.selected_pairwise_questions) == 2
    plan = annotation.pairwise_plan
    assert [row["question_id"] for row in plan] == annotation.selected_pairwise_questions
    assert {(row["response_a"], row["response_b"]) for row in plan} in (
        {("original", "alternate")},
        {("alternate", "original")},
    )


def test_a_and_b_positions_vary_between_turns(participant_client, answered_turn, make_chat_study):
    study = make_chat_study(max_turns=1)
    orientations = set()
    for _ in range(16):
        client = participant_client(study)
        client.onboard()
        answered_turn(client)
    for annotation in TurnAnnotation.objects.filter(turn__conversation__study=study):
        orientations.add(annotation.pairwise_plan[0]["response_a"])
    assert orientations == {"original", "alternate"}  # 16 coin flips: both sides (p = 1 - 2^-15)
