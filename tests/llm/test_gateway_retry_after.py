"""429 responses: the gateway waits what Retry-After says (capped), then tries again."""

from attune_collect.llm import LLMGateway, RetryPolicy

MESSAGES = [{"role": "user", "content": "hi"}]


async def test_honours_retry_after_then_succeeds(
    gateway: LLMGateway, make_endpoint, openai_server, fake_time
):
    openai_server.behaviour.rate_limit(retry_after=2.5)

    completion = await gateway.complete(make_endpoint(), MESSAGES)

    assert completion.attempts == 2
    assert fake_time.sleeps == [2.5]
    assert openai_server.request_count == 2


async def test_caps_a_long_retry_after(make_endpoint, openai_server, fake_time):
    gateway = LLMGateway(
        sleep=fake_time.sleep,
        clock=fake_time.clock,
        retry_policy=RetryPolicy(max_retry_after_s=5.0),
    )
    openai_server.behaviour.rate_limit(retry_after=3600)

    await gateway.complete(make_endpoint(), MESSAGES)

    assert fake_time.sleeps == [5.0]


async def test_without_retry_after_backs_off_exponentially_with_jitter(
    make_endpoint, openai_server, fake_time
):
    policy = RetryPolicy(base_delay_s=1.0, jitter=0.5)
    gateway = LLMGateway(sleep=fake_time.sleep, clock=fake_time.clock, retry_policy=policy)
    openai_server.behaviour.rate_limit(retry_after=None, times=3)

    completion = await gateway.complete(make_endpoint(max_retries=3), MESSAGES)

    assert completion.attempts == 4
    first, second, third = fake_time.sleeps
    assert 0.5 <= first <= 1.0
    assert 1.0 <= second <= 2.0
    assert 2.0 <= third <= 4.0


async def test_honours_retry_after_on_a_stream_before_the_first_token(
    gateway: LLMGateway, make_endpoint, openai_server, fake_time
):
    openai_server.behaviour.rate_limit(retry_after=1.5)

    events = [event async for event in gateway.stream(make_endpoint(), MESSAGES)]

    assert events[-1].completion.attempts == 2
    assert fake_time.sleeps == [1.5]
