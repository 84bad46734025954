"""Throughput of the evaluation engine against the local OpenAI-compatible test server.

    .venv/bin/python benchmarks/eval_throughput.py [--models 3] [--conversations 50]
        [--latency-ms 100 1000] [--concurrency 64] [--workers 1 2] [--probe-calls 2000]

For each latency and engine process count (`run --workers`): N models x M seeded conversations
(mode default, no judge) are run by the real command line (`python -m attunebench
run`) in its own process(es), against a test
server in another process whose every answer waits the fixed latency and is valid JSON for
the prompt (the demo provider's filler). Printed per latency:

- calls: chat requests as the server counted them;
- wall time, the ideal wall time (calls x latency / calls in flight, with N x concurrency in
  flight) and their ratio;
- client CPU ms per call: user + system time of the engine process and any children (rusage
  of the waited-for process tree), over the server's call count; "gross" includes process
  start-up and imports (litellm's alone is ~2.6 s), "net" subtracts a process that only
  starts and imports;
- the rerun with a warm call cache (fresh output folder, same cache): time and share of the
  first run, and the calls it made (must be 0).

Then a probe of the client stack alone (same server, latency 0, 64 in flight, prompts of the
engine's size), each in its own process: CPU ms per call for the LLM gateway on its direct
transport (aiohttp, no litellm import) and forced through litellm, the OpenAI SDK
(`AsyncOpenAI`, one shared client, its retries off), and bare httpx2 (the httpx fork the SDK
runs on), httpx and aiohttp. The direct transport is built on aiohttp because of these figures
(docs/benchmarks.md).
With ``--inspect-python PATH`` (the interpreter of a scratch virtualenv with inspect-ai, never a
dependency of this project), inspect_ai's model API too (``benchmarks/inspect_probe.py``), and
the engine's CPU per call as a multiple of it.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from _setup import ROOT, argument_parser

KEY_ENV = "BENCH_API_KEY"
PROBE_PROMPT_CHARS = 6000  # about the median request of a run (system + thread + template)


# --- the server process -----------------------------------------------------------------------


def serve(latency_s: float) -> None:
    """Run the test server until stdin closes; answer "count" lines with the request count."""
    import hashlib

    from attune_collect.llm.demo_json import json_answer, wants_json
    from attune_collect.llm.testing import run_test_server

    def reply(body: dict) -> str:
        messages = body.get("messages", [])
        if not wants_json(messages):
            return "ok"
        seed = hashlib.sha256(json.dumps(messages, sort_keys=True).encode()).hexdigest()
        return json_answer(
            messages, persona="listener", seed=seed, reply_text=lambda text: text[:80]
        )

    with run_test_server(reply, latency_s=latency_s) as server:
        print(server.base_url, flush=True)
        for line in sys.stdin:
            if line.strip() == "count":
                print(server.request_count, flush=True)
            elif line.strip() == "cpu":
                print(time.process_time(), flush=True)


class ServerProcess:
    def __init__(self, latency_s: float) -> None:
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--serve", str(latency_s)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        self.base_url = self.process.stdout.readline().strip()  # type: ignore[union-attr]

    def ask(self, command: str) -> str:
        self.process.stdin.write(command + "\n")  # type: ignore[union-attr]
        self.process.stdin.flush()  # type: ignore[union-attr]
        return self.process.stdout.readline().strip()  # type: ignore[union-attr]

    def count(self) -> int:
        return int(self.ask("count"))

    def cpu(self) -> float:
        return float(self.ask("cpu"))

    def stop(self) -> None:
        self.process.stdin.close()  # type: ignore[union-attr]
        self.process.wait(timeout=30)


# --- measuring child processes ----------------------------------------------------------------


def timed(command: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process and its waited-for children)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, env=_env(), capture_output=True, text=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"command failed ({done.returncode}): {' '.join(command)}\n{done.stderr[-3000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def _env() -> dict[str, str]:
    from attune_collect.llm._litellm import OFFLINE_ENVIRONMENT

    return {**os.environ, KEY_ENV: "sk-bench", **OFFLINE_ENVIRONMENT}


def _load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def seed_release(folder: Path, conversations: int) -> int:
    from annotations.seeding import demo_conversations
    from attunebench.instrument import default_instrument
    from attunebench.writer import write_conversation_file

    turns = 0
    for conversation in demo_conversations(default_instrument(), conversations, seed=1):
        write_conversation_file(conversation, folder / "conversations")
        turns += len(conversation.turns)
    return turns


def run_command(
    data: Path,
    server: ServerProcess,
    args: argparse.Namespace,
    workers: int,
    out: Path,
    cache: Path,
) -> list[str]:
    command = [sys.executable, "-m", "attunebench", "run", "--data", str(data)]
    for index in range(args.models):
        command += ["--model", f"openai/bench-model-{index + 1}"]
    return command + [
        "--api-base",
        server.base_url,
        "--api-key-env",
        KEY_ENV,
        "--concurrency",
        str(args.concurrency),
        "--timeout",
        "120",
        "--no-progress",
        "--workers",
        str(workers),
        "--cache",
        str(cache),
        "--out",
        str(out),
    ]


# What an engine process imports before its first call to an OpenAI-compatible endpoint
# (litellm is not among them: the direct transport never imports it).
STARTUP = (
    "import sys; from attunebench import cli, batch, runner;"
    "from attune_collect.llm.transport_direct import prepare_direct_transport;"
    "prepare_direct_transport(); assert 'litellm' not in sys.modules"
)
LITELLM_IMPORT = "from attune_collect.llm._litellm import load_litellm; load_litellm()"


def measure_latency(
    latency_ms: int,
    workers: int,
    data: Path,
    work: Path,
    args: argparse.Namespace,
    startup_cpu: float,
) -> dict:
    server = ServerProcess(latency_ms / 1000)
    name = f"{latency_ms}-{workers}"
    try:
        cache = work / f"cache-{name}.sqlite3"
        server_cpu = server.cpu()
        wall, cpu = timed(run_command(data, server, args, workers, work / f"out-{name}", cache))
        calls = server.count()
        server_cpu = server.cpu() - server_cpu
        warm_wall, warm_cpu = timed(
            run_command(data, server, args, workers, work / f"warm-{name}", cache)
        )
        warm_calls = server.count() - calls
    finally:
        server.stop()
    in_flight = args.models * args.concurrency
    ideal = calls * (latency_ms / 1000) / in_flight
    return {
        "latency_ms": latency_ms,
        "workers": workers,
        "calls": calls,
        "wall_s": wall,
        "ideal_s": ideal,
        "ratio": wall / ideal,
        "cpu_ms_per_call_gross": cpu * 1000 / calls,
        # every worker process starts once
        "cpu_ms_per_call_net": (cpu - workers * startup_cpu) * 1000 / calls,
        "server_cpu_ms_per_call": server_cpu * 1000 / calls,
        "warm_wall_s": warm_wall,
        "warm_share": warm_wall / wall,
        "warm_calls": warm_calls,
        "warm_cpu_s": warm_cpu,
    }


# --- the client-stack probe -------------------------------------------------------------------


def probe(kind: str, base_url: str, calls: int) -> None:
    """In its own process: CPU ms per call of one client stack, 64 calls in flight."""
    os.environ.update(_env())
    messages = [
        {"role": "system", "content": "x " * 300},
        {"role": "user", "content": "y " * (PROBE_PROMPT_CHARS // 2 - 300)},
    ]

    async def main() -> float:
        semaphore = asyncio.Semaphore(64)
        close: Callable[[], Awaitable[None]] | None = (
            None  # a client that must be closed in its loop
        )
        if kind in ("gateway-direct", "gateway-litellm"):
            from attune_collect.llm import EndpointConfig, LLMGateway
            from attune_collect.llm._litellm import load_litellm

            if kind == "gateway-litellm":
                load_litellm()
            gateway = LLMGateway()
            endpoint = EndpointConfig(
                name="probe",
                model="openai/probe",
                api_base=base_url,
                api_key_env=KEY_ENV,
                max_concurrency=64,
                force_litellm=kind == "gateway-litellm",
            )

            async def one(index: int) -> None:
                await gateway.complete(
                    endpoint, [*messages, {"role": "user", "content": str(index)}]
                )
        elif kind == "openai":
            import openai

            # One client for the process (its HTTP pool shared by every call), no SDK retries.
            client = openai.AsyncOpenAI(base_url=base_url, api_key="sk-bench", max_retries=0)

            async def one(index: int) -> None:
                async with semaphore:
                    await client.chat.completions.create(
                        model="probe", messages=[*messages, {"role": "user", "content": str(index)}]
                    )
        elif kind == "aiohttp":
            import aiohttp

            session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=64))
            close = session.close  # else aiohttp logs the session and its connections at exit

            async def one(index: int) -> None:
                async with semaphore:
                    body = {
                        "model": "probe",
                        "messages": [*messages, {"role": "user", "content": str(index)}],
                    }
                    async with session.post(f"{base_url}/chat/completions", json=body) as response:
                        (await response.json())["choices"][0]["message"]["content"]
        else:  # "httpx" or "httpx2" (the fork the OpenAI SDK runs on)
            import importlib

            http_module = importlib.import_module(kind)
            limits = http_module.Limits(max_connections=64, max_keepalive_connections=64)
            http = http_module.AsyncClient(timeout=60, limits=limits)

            async def one(index: int) -> None:
                async with semaphore:
                    body = {
                        "model": "probe",
                        "messages": [*messages, {"role": "user", "content": str(index)}],
                    }
                    response = await http.post(f"{base_url}/chat/completions", json=body)
                    response.json()["choices"][0]["message"]["content"]

        await asyncio.gather(*(one(-i - 1) for i in range(64)))  # warm connections and caches
        started = time.process_time()
        await asyncio.gather(*(one(index) for index in range(calls)))
        cpu_ms_per_call = (time.process_time() - started) * 1000 / calls
        if close is not None:
            await close()
        return cpu_ms_per_call

    print(f"{asyncio.run(main()):.3f}")


PROBES = ("gateway-direct", "gateway-litellm", "openai", "httpx2", "httpx", "aiohttp")


def measure_probes(calls: int, inspect_python: str | None = None) -> dict[str, float]:
    server = ServerProcess(0.0)
    commands = {
        kind: [sys.executable, __file__, "--probe", kind, server.base_url, str(calls)]
        for kind in PROBES
    }
    if inspect_python:
        probe_file = str(Path(__file__).with_name("inspect_probe.py"))
        arguments = [server.base_url, str(calls), str(PROBE_PROMPT_CHARS)]
        commands["inspect_ai"] = [inspect_python, probe_file, *arguments]
    try:
        results = {}
        for kind, command in commands.items():
            done = subprocess.run(
                command, cwd=ROOT, env=_env(), capture_output=True, text=True, check=True
            )
            results[kind] = float(done.stdout.strip().splitlines()[-1])
        return results
    finally:
        server.stop()


# --- main -------------------------------------------------------------------------------------


def main() -> None:
    parser = argument_parser(__doc__)
    parser.add_argument("--models", type=int, default=3)
    parser.add_argument("--conversations", type=int, default=50)
    parser.add_argument("--latency-ms", type=int, nargs="+", default=[100, 1000])
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="run --workers")
    parser.add_argument("--probe-calls", type=int, default=2000, help="0 to skip the probe")
    parser.add_argument("--probe-only", action="store_true", help="only the client-stack probe")
    parser.add_argument(
        "--inspect-python", help="interpreter of a scratch virtualenv with inspect-ai: probe it too"
    )
    parser.add_argument("--serve", type=float, help=argparse.SUPPRESS)
    parser.add_argument("--probe", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve is not None:
        return serve(args.serve)
    if args.probe:
        return probe(args.probe[0], args.probe[1], int(args.probe[2]))

    if args.probe_only:
        print(f"load average at the start: {_load()}")
        probes = measure_probes(args.probe_calls, args.inspect_python)
        print(
            "client stack alone, CPU ms/call at 64 in flight: "
            + ", ".join(f"{kind} {value:.2f}" for kind, value in probes.items())
        )
        print(f"load average at the end: {_load()}")
        return None
    work = Path(tempfile.mkdtemp(prefix="attune-eval-bench-"))
    try:
        print(f"load average at the start: {_load()}")
        turns = seed_release(work / "release", args.conversations)
        print(
            f"{args.models} models x {args.conversations} conversations ({turns} turns), mode default, "
            f"concurrency {args.concurrency} per model, {os.cpu_count()} cores"
        )
        startup_wall, startup_cpu = timed([sys.executable, "-c", STARTUP])
        litellm_wall, litellm_cpu = timed([sys.executable, "-c", LITELLM_IMPORT])
        print(
            f"engine start-up (OpenAI-compatible endpoints, no litellm import): "
            f"{startup_wall:.2f} s, {startup_cpu:.2f} s CPU; a process importing litellm: "
            f"{litellm_wall:.2f} s, {litellm_cpu:.2f} s CPU"
        )
        rows = []
        for latency_ms, workers in itertools.product(args.latency_ms, args.workers):
            row = measure_latency(latency_ms, workers, work / "release", work, args, startup_cpu)
            row["ratio_after_startup"] = (row["wall_s"] - startup_wall) / row["ideal_s"]
            rows.append(row)
            print(
                f"latency {latency_ms} ms, {workers} engine process(es): {row['calls']} calls, "
                f"wall {row['wall_s']:.2f} s, "
                f"ideal {row['ideal_s']:.2f} s, ratio {row['ratio']:.2f} "
                f"({row['ratio_after_startup']:.2f} after start-up); client CPU "
                f"{row['cpu_ms_per_call_gross']:.2f} ms/call gross, {row['cpu_ms_per_call_net']:.2f} net "
                f"(server {row['server_cpu_ms_per_call']:.2f}); "
                f"warm rerun {row['warm_wall_s']:.2f} s ({100 * row['warm_share']:.1f}% of the first, "
                f"{row['warm_calls']} calls)"
            )
        probes = measure_probes(args.probe_calls, args.inspect_python) if args.probe_calls else {}
        if probes:
            print(
                "client stack alone, CPU ms/call at 64 in flight: "
                + ", ".join(f"{kind} {value:.2f}" for kind, value in probes.items())
            )
            for row in rows:
                print(
                    f"engine net CPU/call at {row['latency_ms']} ms, {row['workers']} process(es): "
                    f"{row['cpu_ms_per_call_net'] / probes['openai']:.2f}x the OpenAI SDK probe's"
                    + (
                        f", {row['cpu_ms_per_call_net'] / probes['inspect_ai']:.2f}x inspect_ai's"
                        if "inspect_ai" in probes
                        else ""
                    )
                )
        print(f"load average at the end: {_load()}")
        summary = {
            "runs": rows,
            "probes": probes,
            "startup_s": startup_wall,
            "startup_cpu_s": startup_cpu,
            "litellm_import_s": litellm_wall,
            "litellm_import_cpu_s": litellm_cpu,
            "load_average": os.getloadavg(),
        }
        print("SUMMARY " + json.dumps(summary))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
