"""Two participants who finish a conversation at the same moment and go on to their next one
get models by the pool's balance with each other's new conversation counted: the post-survey
opens the next conversation under the study's row lock, as consent opens the first."""

import pytest
from django.db import transaction

from annotations.models import Conversation, ConversationState
from annotations.services import surveys
from tests.factories import make_endpoint, make_participant
from tests.participant.conftest import POST_SURVEY
from tests.threads import in_a_thread, until_another_waits_for_a_lock

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_second_finisher_sees_the_first_ones_new_conversation(
    make_chat_study, participant_client, at_post_survey
):
    idle, heavy, used = make_endpoint(weight=1), make_endpoint(weight=2), make_endpoint(weight=1)
    study = make_chat_study(conversations_per_participant=2)
    study.model_pool.set([idle, heavy, used])
    first, second = (at_post_survey(participant_client(study)) for _ in range(2))
    # Loads per unit of weight: idle 0, heavy 1/2, used 2/1 (both finishers talked to it, so
    # each avoids it). The first finisher takes idle (load 1 then); the second must then take
    # heavy, not idle again.
    Conversation.objects.filter(study=study).update(model_endpoint=used)
    Conversation.objects.create(
        study=study, participant=make_participant(study), external_id="x-c1", model_endpoint=heavy
    )

    with transaction.atomic():  # the first finisher's post-survey, not committed yet
        surveys.submit_post_survey(first, **POST_SURVEY)
        other = in_a_thread(lambda: surveys.submit_post_survey(second, **POST_SURVEY))
        until_another_waits_for_a_lock()
    other.join(timeout=20)

    nexts = dict(
        Conversation.objects.filter(state=ConversationState.PROFILED).values_list(
            "participant_id", "model_endpoint_id"
        )
    )
    assert nexts == {first.pk: idle.pk, second.pk: heavy.pk}
