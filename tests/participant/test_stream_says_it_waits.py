"""When every slot of the model's endpoint is taken, the participant's stream says so at once:
a ``queued`` event right after ``turn``, within a second and before any reply text, instead of
a silent wait; the reply follows when a slot frees."""

import pytest

from tests.factories import make_test_server_endpoint, unique
from tests.llm.conftest import KEY_ENV
from tests.participant.held_streams import EventsAsTheyCome, StreamInThread, wait_until

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def one_slot_study(make_chat_study, openai_server, api_key):
    endpoint = make_test_server_endpoint(
        openai_server.base_url, KEY_ENV, alias=unique("one-slot"), max_concurrency=1, timeout_s=30
    )
    study = make_chat_study()
    study.model_pool.set([endpoint])
    return study


def test_a_stream_that_must_wait_for_the_model_says_so_within_a_second(
    live_participant, one_slot_study, openai_server, asgi_server
):
    holder, waiter = live_participant(one_slot_study), live_participant(one_slot_study)
    holder.onboard()
    waiter.onboard()
    openai_server.behaviour.hold()
    first = StreamInThread(holder, "I take the only slot.")
    wait_until(lambda: openai_server.behaviour.in_flight == 1, "the first model call")

    second = EventsAsTheyCome(asgi_server, waiter, "Am I next?")
    wait_until(lambda: second.seen("turn") is not None, "the second stream's turn event")
    wait_until(lambda: second.seen("queued") is not None, "the queued event", timeout_s=5)

    assert second.seen("queued") - second.seen("turn") < 1.0
    assert [name for name, _ in second.events] == ["turn", "queued"]  # no text yet
    assert openai_server.behaviour.request_count == 1  # it waits for the slot
    openai_server.behaviour.release()
    assert first.join().names[-1] == "done"
    second.join()
    names = [name for name, _ in second.events]
    assert names[:3] == ["turn", "queued", "delta"] and names[-1] == "done"
