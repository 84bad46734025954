"""An OpenAI-compatible endpoint is called without importing litellm (or the OpenAI SDK): a
process that only calls such endpoints, such as an engine run, starts without the import."""

import subprocess
import sys
import textwrap

import pytest

SCRIPT = textwrap.dedent(
    """
    import asyncio, os, sys
    from attune_collect.llm import EndpointConfig, LLMGateway
    from attune_collect.llm.testing import run_test_server
    from attunebench import cli, runner, batch  # what `run` imports

    os.environ["PROBE_API_KEY"] = "sk-probe"

    async def main(base_url):
        gateway = LLMGateway()
        endpoint = EndpointConfig(
            name="e", model="openai/gpt-4o-mini", api_base=base_url, api_key_env="PROBE_API_KEY"
        )
        completion = await gateway.complete(endpoint, [{"role": "user", "content": "hi"}])
        events = [e async for e in gateway.stream(endpoint, [{"role": "user", "content": "hi"}])]
        return completion, events[-1].completion

    with run_test_server() as server:
        completion, streamed = asyncio.run(main(server.base_url))
    print(completion.text, "|", streamed.text, "|", completion.cost_usd > 0)
    print("litellm" in sys.modules, "openai" in sys.modules)
    """
)


@pytest.mark.slow
def test_an_openai_compatible_call_never_imports_litellm():
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120
    )

    assert done.returncode == 0, done.stderr[-2000:]
    answer, imported = done.stdout.strip().splitlines()[-2:]
    assert answer == "Test server reply to: hi | Test server reply to: hi | True"
    assert imported == "False False"
