"""Bots against participants: the participants' time to first token (TTFT) when chatting alone,
then while 300 bot streams from one address try to hold the model's slots.

    .venv/bin/python benchmarks/bot_streams.py [--participants 20] [--bots 300] [--turns 2]
        [--database-url URL] [--redis-url URL] [--max-concurrency 64]
        [--max-streams-per-address N]

Everything on loopback (127.0.0.0/8): the local OpenAI-compatible test server (1 s to the first
token, 250 ms between tokens: a participant's reply is 20 tokens, about 6 s; a bot's is 400
tokens, about 100 s, so a bot holds its stream open through the whole phase), the platform under
uvicorn (as ``chat_load.py`` runs it, with its production profile), and this client. The bots
all come from 127.0.0.2, each participant from an address of its own (127.0.1.x), so the
platform's client address tells them apart as a real deployment's would. Each bot is a
participant of its own (one stream per participant) that sends one message and reads its
stream to the end; a refused bot is counted, not retried. The participants start once the bots
are in, spread over one reply's length, and send ``--turns`` messages each, answering each
reply's annotation before the next. Bounded: every request has a 60 s timeout, every phase a
deadline; the bots are cancelled when the participants are done.

Prints, per phase, TTFT p50/p95 and total p50/p95 of the participants, errors, the bots' streams
held and refused, the participants' streams that had to wait (``queued``), and the p95 TTFT
difference and ratio between the phases. The machine's cores are shared: the load average is
printed before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import sys
import tempfile
import time
import uuid
from pathlib import Path

import chat_load
from chat_load import (
    KEY_ENV,
    PRODUCTION_PROFILE,
    REQUEST_TIMEOUT_S,
    Phase,
    Sample,
    create_participants,
    flush_redis,
    free_port,
    prepare_database,
    sse_events,
    start_process,
    stop_process,
    wait_for_http,
)

ROOT = Path(__file__).resolve().parents[1]
BOT_ADDRESS = "127.0.0.2"
BOT_MARK = "bot-stream"
PARTICIPANT_TOKENS = 20
BOT_TOKENS = 400


def serve_upstream(args: argparse.Namespace) -> None:
    """The test server: long replies for the bots' messages, short ones for the participants'."""
    sys.path.insert(0, str(ROOT))
    from attune_collect.llm.testing import run_test_server

    def reply(body: dict) -> str:
        asked = str(body["messages"][-1].get("content", ""))
        count = BOT_TOKENS if BOT_MARK in asked else PARTICIPANT_TOKENS
        return " ".join(f"word{i}" for i in range(count))

    with run_test_server(
        reply, latency_s=args.latency_ms / 1000, token_delay_s=args.token_delay_ms / 1000
    ) as server:
        print(f"PORT {server.port}", flush=True)
        deadline = time.monotonic() + chat_load.UPSTREAM_LIFETIME_S
        while time.monotonic() < deadline and os.getppid() != 1:
            time.sleep(0.5)


def client(base_url: str, address: str):
    import httpx

    return httpx.AsyncClient(
        base_url=base_url,
        timeout=REQUEST_TIMEOUT_S,
        transport=httpx.AsyncHTTPTransport(local_address=address),
    )


class Counts:
    def __init__(self) -> None:
        self.bots_held = 0
        self.bots_refused: dict[int, int] = {}
        self.bots_in = 0
        self.participants_queued = 0


async def bot(base_url: str, token: str, counts: Counts, done: asyncio.Event) -> None:
    headers = {"Authorization": f"Participant {token}"}
    body = {"text": f"{BOT_MARK} {uuid.uuid4().hex}", "idempotency_key": uuid.uuid4().hex}
    async with client(base_url, BOT_ADDRESS) as http:
        try:
            async with http.stream(
                "POST", "/api/study/messages", json=body, headers=headers
            ) as response:
                if response.status_code != 200:
                    counts.bots_refused[response.status_code] = (
                        counts.bots_refused.get(response.status_code, 0) + 1
                    )
                    counts.bots_in += 1
                    return
                counts.bots_held += 1
                counts.bots_in += 1
                async for _ in sse_events(response):
                    if done.is_set():
                        return
        except Exception:  # noqa: BLE001 - a bot's failure is not measured
            counts.bots_in += 1


async def participant_turn(http, token: str, phase: Phase, counts: Counts) -> None:
    headers = {"Authorization": f"Participant {token}"}
    body = {"text": "I have been feeling anxious lately.", "idempotency_key": uuid.uuid4().hex}
    started = time.perf_counter()
    first = done = None
    async with http.stream("POST", "/api/study/messages", json=body, headers=headers) as response:
        if response.status_code != 200:
            await response.aread()
            raise RuntimeError(f"HTTP {response.status_code}: {response.text[:200]}")
        phase.opened()
        try:
            async for name, data in sse_events(response):
                if name == "queued":
                    counts.participants_queued += 1
                elif name == "delta" and first is None:
                    first = time.perf_counter()
                elif name == "error":
                    raise RuntimeError(f"error event: {data['error']['reason']}")
                elif name == "done":
                    done = data
        finally:
            phase.open_streams -= 1
    if first is None or done is None:
        raise RuntimeError("the stream ended without a reply")
    phase.samples.append(Sample(first - started, time.perf_counter() - started))
    questions = done["annotation"]["behaviour_questions"]
    annotation = {
        "mood_tags": [],
        "behaviour": {q["id"]: {"observed": "yes", "preferred": "yes"} for q in questions},
    }
    number = done["turn"]["number"]
    reply = await http.post(
        f"/api/study/turns/{number}/annotation", json=annotation, headers=headers
    )
    if reply.status_code != 200:
        raise RuntimeError(f"annotation HTTP {reply.status_code}: {reply.text[:200]}")


async def run_phase(
    phase: Phase,
    base_url: str,
    tokens: list[str],
    bot_tokens: list[str],
    args: argparse.Namespace,
    counts: Counts,
) -> None:
    import random

    reply_s = (args.latency_ms + PARTICIPANT_TOKENS * args.token_delay_ms) / 1000
    finished = asyncio.Event()
    bots = [asyncio.create_task(bot(base_url, t, counts, finished)) for t in bot_tokens]
    deadline = time.monotonic() + 120
    while counts.bots_in < len(bot_tokens) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)  # every bot is in (held or refused) before the participants
    rng = random.Random(7)

    async def one(index: int) -> None:
        await asyncio.sleep(rng.uniform(0, reply_s))
        async with client(base_url, f"127.0.1.{index + 1}") as http:
            for _ in range(args.turns):
                try:
                    async with asyncio.timeout(REQUEST_TIMEOUT_S):
                        await participant_turn(http, tokens[index], phase, counts)
                except Exception as exc:  # noqa: BLE001 - every failure is a counted error
                    phase.errors.append(f"{type(exc).__name__}: {exc}"[:200])

    started = time.perf_counter()
    try:
        async with asyncio.timeout(args.turns * (reply_s + REQUEST_TIMEOUT_S) + 60):
            await asyncio.gather(*(one(i) for i in range(len(tokens))))
    finally:
        phase.seconds = time.perf_counter() - started
        finished.set()
        for task in bots:
            task.cancel()
        await asyncio.gather(*bots, return_exceptions=True)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--participants", type=int, default=20)
    parser.add_argument("--bots", type=int, default=300)
    parser.add_argument("--turns", type=int, default=2)
    parser.add_argument("--latency-ms", type=float, default=1000)
    parser.add_argument("--token-delay-ms", type=float, default=250)
    parser.add_argument("--max-concurrency", type=int, default=64, help="the endpoint's slots")
    parser.add_argument(
        "--max-streams-per-address", type=int, help="ATTUNE_MAX_STREAMS_PER_ADDRESS (default: 20)"
    )
    parser.add_argument("--database-url", help="scratch PostgreSQL database (flushed)")
    parser.add_argument("--redis-url", help="scratch Redis database (flushed)")
    parser.add_argument("--serve-upstream", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_upstream:
        serve_upstream(args)
        return

    workdir = Path(tempfile.mkdtemp(prefix="attune-bot-streams-"))
    env = {
        **os.environ,
        "ATTUNE_DATA_DIR": str(workdir / "data"),
        KEY_ENV: "sk-bench-not-a-secret",
        "DJANGO_SETTINGS_MODULE": "attune_collect.settings",
        "ATTUNE_LOG_LEVEL": "WARNING",
        **PRODUCTION_PROFILE,
    }
    for name in ("DATABASE_URL", "REDIS_URL", "ATTUNE_MAX_STREAMS_PER_ADDRESS"):
        env.pop(name, None)
        os.environ.pop(name, None)
    if args.database_url:
        env["DATABASE_URL"] = args.database_url
    if args.redis_url:
        env["REDIS_URL"] = args.redis_url
        flush_redis(args.redis_url)
    os.environ.update(env)
    server_env = dict(env)
    if args.max_streams_per_address:
        server_env["ATTUNE_MAX_STREAMS_PER_ADDRESS"] = str(args.max_streams_per_address)
    sys.path.insert(0, str(ROOT))

    upstream = start_process(
        [
            sys.executable,
            __file__,
            "--serve-upstream",
            "--latency-ms",
            str(args.latency_ms),
            "--token-delay-ms",
            str(args.token_delay_ms),
        ],
        env,
        read_stdout=True,
    )
    server = None
    try:
        line = upstream.stdout.readline() if upstream.stdout else ""
        if not line.startswith("PORT "):
            raise SystemExit("the upstream test server did not start")
        upstream_url = f"http://127.0.0.1:{int(line.split()[1])}/v1"
        import django

        django.setup()
        from django.db import connection

        from annotations.models import ModelEndpoint

        prepare_database(args.database_url)
        database = connection.vendor
        count = 2 * args.participants + args.bots
        _, tokens = create_participants(upstream_url, count, args.turns)
        ModelEndpoint.objects.filter(alias="bench-upstream").update(
            max_concurrency=args.max_concurrency
        )
        connection.close()
        alone_tokens = tokens[: args.participants]
        with_bots_tokens = tokens[args.participants : 2 * args.participants]
        bot_tokens = tokens[2 * args.participants :]

        port = free_port()
        server = start_process(
            [
                sys.executable,
                "-m",
                "uvicorn",
                "attune_collect.asgi:application",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--no-access-log",
                "--log-level",
                "warning",
                "--backlog",
                "4096",
            ],
            server_env,
        )
        base_url = f"http://127.0.0.1:{port}"
        wait_for_http(f"{base_url}/healthz")
        print(f"load average before: {chat_load._load()}", flush=True)
        alone, alone_counts = Phase("alone"), Counts()
        asyncio.run(run_phase(alone, base_url, alone_tokens, [], args, alone_counts))
        with_bots, bot_counts = Phase(f"with {args.bots} bots"), Counts()
        asyncio.run(run_phase(with_bots, base_url, with_bots_tokens, bot_tokens, args, bot_counts))
        report(args, database, [(alone, alone_counts), (with_bots, bot_counts)])
        print(f"load average after: {chat_load._load()}")
    finally:
        for process in (server, upstream):
            if process is not None:
                stop_process(process)
        shutil.rmtree(workdir, ignore_errors=True)


def report(args: argparse.Namespace, database: str, phases: list[tuple[Phase, Counts]]) -> None:
    cap = args.max_streams_per_address or 20
    print(
        f"\ndatabase: {database}; cache: {'redis' if args.redis_url else 'in-process'}; "
        f"participants: {args.participants} x {args.turns} turns; bots: {args.bots} from "
        f"{BOT_ADDRESS}; endpoint slots: {args.max_concurrency}; streams per address: {cap}; "
        f"upstream: {args.latency_ms:.0f} ms to the first token, {args.token_delay_ms:.0f} ms "
        f"between tokens ({PARTICIPANT_TOKENS} tokens a participant's reply, {BOT_TOKENS} a bot's)"
    )
    print(
        f"{'':16} {'streams':>7} {'errors':>6} {'queued':>6} {'TTFT p50':>9} {'TTFT p95':>9} "
        f"{'total p50':>10} {'total p95':>10} {'bots held':>9} {'refused':>8}"
    )
    for phase, counts in phases:
        refused = ", ".join(f"{n}x{s}" for s, n in sorted(counts.bots_refused.items())) or "-"
        print(
            f"{phase.name:16} {len(phase.samples):7d} {len(phase.errors):6d} "
            f"{counts.participants_queued:6d} "
            f"{phase.percentile('ttft_s', 50) * 1000:7.0f}ms {phase.percentile('ttft_s', 95) * 1000:7.0f}ms "
            f"{phase.percentile('total_s', 50) * 1000:8.0f}ms {phase.percentile('total_s', 95) * 1000:8.0f}ms "
            f"{counts.bots_held:9d} {refused:>8}"
        )
        for error in sorted(set(phase.errors))[:5]:
            print(f"  error ({phase.errors.count(error)}x): {error}")
    (alone, _), (bots, _) = phases
    for q in (50, 95):
        a, b = alone.percentile("ttft_s", q), bots.percentile("ttft_s", q)
        print(f"TTFT p{q} with bots - alone: {(b - a) * 1000:+.0f} ms (x{b / a:.2f})")


if __name__ == "__main__":
    main()
