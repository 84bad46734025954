"""A participant who withdraws while their post-chat survey completes the conversation (two
taps, two tabs) is withdrawn, and the completed conversation stays completed: the withdrawal
waits for the survey's step instead of turning a completed conversation into an abandoned one,
a move the conversation's states do not allow. The next conversation that step opened (a study
of several per participant) is abandoned: nothing stays open for a withdrawn participant."""

import pytest
from django.db import transaction

from annotations.models import Conversation, ConversationState, Participant
from annotations.services import participants, surveys
from tests.participant.conftest import POST_SURVEY
from tests.threads import in_a_thread, until_another_waits_for_a_lock

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("per_participant", [1, 2])
def test_a_completed_conversation_stays_completed(
    make_chat_study, participant_client, at_post_survey, per_participant
):
    client = participant_client(make_chat_study(conversations_per_participant=per_participant))
    participant = at_post_survey(client)

    with transaction.atomic():  # the survey's step, not committed yet
        surveys.submit_post_survey(participant, **POST_SURVEY)
        leaving = in_a_thread(lambda: participants.withdraw(participant))
        until_another_waits_for_a_lock()
    leaving.join(timeout=20)

    first, *later = Conversation.objects.order_by("pk")
    assert first.state == ConversationState.COMPLETED and first.completed_at is not None
    assert [c.state for c in later] == [ConversationState.ABANDONED] * (per_participant - 1)
    assert Participant.objects.get(pk=participant.pk).withdrawn
