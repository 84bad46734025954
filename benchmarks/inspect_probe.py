"""The client-stack probe of ``eval_throughput.py`` for inspect_ai, run by a scratch interpreter.

    python benchmarks/inspect_probe.py BASE_URL CALLS PROMPT_CHARS

inspect-ai is never a dependency of this project: ``eval_throughput.py --inspect-python PATH``
runs this file with the interpreter of a scratch virtualenv that has it (``python -m venv
/tmp/inspect && /tmp/inspect/bin/pip install inspect-ai openai``). It prints the CPU ms per
call of inspect_ai's model API (``get_model(...).generate``) against the same server and with
the same workload as the other probes: 64 calls in flight, prompts of the engine's size, its
retries and its cache off, its OpenAI-compatible provider (chat completions).
Standard library and inspect_ai only: this runs outside the project's virtualenv.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time


def main() -> None:
    base_url, calls, prompt_chars = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    # inspect_ai's "openai-api/<service>/<model>": any OpenAI-compatible server, configured by
    # <SERVICE>_BASE_URL and <SERVICE>_API_KEY.
    os.environ.update(PROBE_BASE_URL=base_url, PROBE_API_KEY="sk-bench")
    from inspect_ai.model import ChatMessageSystem, ChatMessageUser, GenerateConfig, get_model

    config = GenerateConfig(max_retries=0, max_connections=64, cache=False)
    model = get_model("openai-api/probe/probe", config=config)
    system = ChatMessageSystem(content="x " * 300)
    thread = ChatMessageUser(content="y " * (prompt_chars // 2 - 300))
    semaphore = asyncio.Semaphore(64)

    async def one(index: int) -> None:
        async with semaphore:
            output = await model.generate([system, thread, ChatMessageUser(content=str(index))])
            output.completion  # noqa: B018 - read the answer, as the other probes do

    async def run() -> float:
        await asyncio.gather(*(one(-i - 1) for i in range(64)))  # warm connections and caches
        started = time.process_time()
        await asyncio.gather(*(one(index) for index in range(calls)))
        return (time.process_time() - started) * 1000 / calls

    print(f"{asyncio.run(run()):.3f}")


if __name__ == "__main__":
    main()
