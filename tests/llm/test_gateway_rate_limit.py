"""The per-endpoint requests-per-minute limiter spaces request starts (fake clock and sleep)."""

from attune_collect.llm import LLMGateway
from attune_collect.llm.limits import RequestRateLimiter

MESSAGES = [{"role": "user", "content": "hi"}]


async def test_the_gateway_spaces_calls_to_the_rate(make_endpoint, openai_server, fake_time):
    starts: list[float] = []

    def reply(body: dict) -> str:
        starts.append(fake_time.now)  # the fake clock, read when the request arrives
        return "ok"

    openai_server.behaviour.reply = reply
    gateway = LLMGateway(sleep=fake_time.sleep, clock=fake_time.clock)
    endpoint = make_endpoint(requests_per_minute=120)  # one start every 0.5 s

    for _ in range(4):
        await gateway.complete(endpoint, MESSAGES)

    assert [round(t - starts[0], 6) for t in starts] == [0.0, 0.5, 1.0, 1.5]
    assert fake_time.sleeps == [0.5, 0.5, 0.5]


async def test_without_a_rate_no_call_waits(make_endpoint, fake_time):
    gateway = LLMGateway(sleep=fake_time.sleep, clock=fake_time.clock)

    for _ in range(3):
        await gateway.complete(make_endpoint(), MESSAGES)

    assert fake_time.sleeps == []


def test_simultaneous_requests_get_successive_slots(fake_time):
    limiter = RequestRateLimiter(60, clock=fake_time.clock, sleep=fake_time.sleep)

    assert [limiter.reserve() for _ in range(4)] == [0.0, 1.0, 2.0, 3.0]


def test_a_burst_allowance_lets_the_first_requests_through(fake_time):
    limiter = RequestRateLimiter(60, clock=fake_time.clock, sleep=fake_time.sleep, burst=3)

    assert [limiter.reserve() for _ in range(5)] == [0.0, 0.0, 0.0, 1.0, 2.0]


def test_an_idle_limiter_does_not_bank_unused_time(fake_time):
    limiter = RequestRateLimiter(60, clock=fake_time.clock, sleep=fake_time.sleep)
    limiter.reserve()
    fake_time.now += 3600

    assert [limiter.reserve() for _ in range(2)] == [0.0, 1.0]
