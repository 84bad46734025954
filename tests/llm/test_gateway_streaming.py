"""Streaming: text arrives token by token, then one StreamDone with the whole answer."""

from attune_collect.llm import LLMGateway, StreamDone, TokenDelta

MESSAGES = [{"role": "user", "content": "please stream this reply"}]


async def test_streams_token_by_token_then_done(gateway: LLMGateway, make_endpoint):
    events = [event async for event in gateway.stream(make_endpoint(), MESSAGES)]

    deltas, done = events[:-1], events[-1]
    assert all(isinstance(event, TokenDelta) for event in deltas)
    assert [event.text for event in deltas] == [
        "Test ",
        "server ",
        "reply ",
        "to: ",
        "please ",
        "stream ",
        "this ",
        "reply",
    ]
    assert isinstance(done, StreamDone)
    assert done.completion.text == "".join(event.text for event in deltas)
    assert done.completion.finish_reason == "stop"
    assert (done.completion.prompt_tokens, done.completion.completion_tokens) == (4, 8)
    assert done.completion.time_to_first_token_ms is not None


async def test_tokens_reach_the_caller_while_the_server_is_still_writing(
    gateway: LLMGateway, make_endpoint, openai_server
):
    openai_server.behaviour.token_delay_s = 0.05
    arrivals = []
    async for event in gateway.stream(make_endpoint(), MESSAGES):
        if isinstance(event, TokenDelta):
            arrivals.append(openai_server.behaviour.in_flight)

    # The first token arrived while the server was still streaming: nothing was buffered.
    assert arrivals[0] == 1


async def test_asks_for_usage_and_records_it(gateway: LLMGateway, make_endpoint, openai_server):
    [event async for event in gateway.stream(make_endpoint(), MESSAGES)]

    assert openai_server.behaviour.requests[0]["stream_options"] == {"include_usage": True}
    usage = gateway.ledger.usage("test-endpoint")
    assert (usage.calls, usage.completion_tokens) == (1, 8)


async def test_a_caller_that_stops_reading_is_counted_as_abandoned(
    gateway: LLMGateway, make_endpoint
):
    stream = gateway.stream(make_endpoint(), MESSAGES)
    first = await anext(stream)
    await stream.aclose()

    assert isinstance(first, TokenDelta)
    usage = gateway.ledger.usage("test-endpoint")
    assert (usage.calls, usage.abandoned, usage.failures) == (1, 1, 0)
