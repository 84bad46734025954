"""The queue for an endpoint's slots is fair across client addresses: with 300 calls of one
address waiting, a participant from another address who comes after them is served at the next
free slot but one, not after the 300 (an asyncio.Semaphore serves in arrival order)."""

import asyncio

from attune_collect.llm import EndpointConfig, LLMGateway, Queued, TokenDelta
from tests.llm.conftest import KEY_ENV

BOTS = 300


async def test_a_waiter_of_another_address_goes_before_the_bots_queued_ahead(
    openai_server, api_key
):
    gateway = LLMGateway()
    endpoint = EndpointConfig(
        name="fair-queue",
        model="openai/test-model",
        api_base=openai_server.base_url,
        api_key_env=KEY_ENV,
        max_concurrency=1,
        max_retries=0,
        timeout_s=30.0,
    )
    openai_server.behaviour.hold()

    async def call(text: str, address: str, waiting: asyncio.Event) -> None:
        messages = [{"role": "user", "content": text}]
        async for event in gateway.stream(endpoint, messages, queue_key=address):
            if isinstance(event, Queued):
                waiting.set()  # its next step puts it in the queue, before anyone later
            elif isinstance(event, TokenDelta):
                waiting.set()

    first = asyncio.Event()
    tasks = [asyncio.create_task(call("bot-0", "10.0.0.66", first))]
    while openai_server.behaviour.in_flight == 0:  # the first bot holds the only slot
        await asyncio.sleep(0.005)
    queued = [asyncio.Event() for _ in range(BOTS)]
    tasks += [
        asyncio.create_task(call(f"bot-{i + 1}", "10.0.0.66", queued[i])) for i in range(BOTS)
    ]
    async with asyncio.timeout(30):
        for event in queued:
            await event.wait()
    await asyncio.sleep(0)  # the last bot's step into the queue
    tasks.append(asyncio.create_task(call("participant", "192.0.2.7", asyncio.Event())))
    await asyncio.sleep(0)
    openai_server.behaviour.release()
    async with asyncio.timeout(120):
        await asyncio.gather(*tasks)

    served = [body["messages"][-1]["content"] for body in openai_server.behaviour.requests]
    assert len(served) == BOTS + 2
    # The holder, at most one bot queued ahead, then the participant.
    assert served.index("participant") <= 2, served[:5]
