"""A participant has at most one chat stream open: never two model calls at once for one person.

The turn's lease alone does not ensure it: when the lease lapses while its stream still runs
(its renewal failed, say), a retry took the turn over and called the model a second time while
the first call went on. The second stream is refused (409 ``turn_in_progress``) and changes
nothing;
once the first ends, the participant streams again."""

import datetime

import pytest
from django.utils import timezone

from annotations.models import Turn, TurnStatus
from tests.participant.held_streams import StreamInThread, wait_until

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_second_stream_of_the_same_participant_is_refused(
    live_participant, upstream_study, openai_server
):
    client = live_participant(upstream_study)
    client.onboard()
    openai_server.behaviour.hold()
    first = StreamInThread(client, "Is anyone there?")
    wait_until(lambda: openai_server.behaviour.in_flight == 1, "the model call to start")
    # The lease lapses while the stream lives: the turn looks abandoned to a retry.
    Turn.objects.update(lease_expires_at=timezone.now() - datetime.timedelta(seconds=1))

    second = client.retry(1)

    assert second.status == 409
    assert second.body["error"]["code"] == "turn_in_progress"
    assert openai_server.behaviour.request_count == 1  # no second model call
    openai_server.behaviour.release()
    assert first.join().names[-1] == "done"
    assert Turn.objects.get().status == TurnStatus.DONE
    # The place went back with the stream's end: the participant's next stream is served
    # (a retry of the answered turn replays it).
    assert client.retry(1).names[-1] == "done"
