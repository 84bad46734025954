"""Streaming chat under load: N participants chatting at once through the platform, against the
same upstream called directly, in one run.

    .venv/bin/python benchmarks/chat_load.py [--participants 200] [--turns 2]
        [--latency-ms 2000] [--tokens 60] [--token-delay-ms 300] [--database-url URL]
        [--redis-url URL] [--workers 1] [--transports direct litellm]
        [--reload-share 0.1] [--variant NAME=DIR ...] [--rounds 3] [--celery-worker]

Processes (all on 127.0.0.1): the local OpenAI-compatible test server (fixed latency before the
first token, fixed delay between tokens: by default a 20 s reply, so that 200 participants
keep 200 streams open at once), the platform under uvicorn (SQLite in a fresh temp folder by
default, or the scratch PostgreSQL database given, created if missing and flushed; with
``--redis-url``, the cache and broker on that scratch Redis database, as in production), and this
load client. Each participant is set up through the service layer (consent, profile, PANAS, topic),
then sends ``--turns`` messages one after another, answering each reply's annotation before
the next, as the participant app does. Starts are spread over one reply's duration so the load
is steady rather than one burst. The direct phase runs the same number of concurrent streams
with the same request straight to the test server.

The platform runs once per gateway transport, in the same run and the same server process,
each phase with participants of its own: the endpoint called directly (the default for an
OpenAI-compatible endpoint) and the same endpoint with ``force_litellm`` set (switched in the
database between the phases; the chat reads it on every message).

``--reload-share 0.1``: every tenth participant drops its first reply's stream a third of the
way through (as a reload or a phone switching apps does) and re-attaches to the same turn with
``Last-Event-ID`` (``GET /api/study/turns/<n>/stream``); the reply it puts together must be the
model's, and the upstream's request count says how many replies were generated again (model
calls in the phase minus the messages the platform accepted).

``--variant NAME=DIR`` (repeated): the platform from each of these checkouts (a ``git archive``
of another commit, say), each its own uvicorn process on the same database, phases interleaved
in ``--rounds`` rounds (the order turning each round): the CPU per message of each variant
against the first one's in the same round, side by side on the same machine.

``--celery-worker``: one Celery worker (solo pool) of the first variant on the same database and
broker, on the same machine, as a one-host deployment runs it: the learned risk model's read of
each message and the improved replies run there, and its CPU during each phase is printed
beside the others' (without it their tasks wait in the broker).

Prints p50/p95 time to first token (TTFT) and total time for every phase, their ratios to the
direct phase, the TTFT overhead in milliseconds, the most streams open at once, every error,
the platform's CPU per message in each platform phase and their ratio, reloads and regenerated
replies, and the load average.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from _setup import start_celery_worker

ROOT = Path(__file__).resolve().parents[1]
KEY_ENV = "BENCH_LLM_API_KEY"
REQUEST_TIMEOUT_S = 60.0  # one stream; a request that takes longer counts as an error
STARTUP_TIMEOUT_S = 180.0  # a busy 2-core machine needs it (litellm import)
UPSTREAM_LIFETIME_S = 3600.0  # the upstream server stops by itself if this script dies
# The platform runs as deployed (settings.py's production profile: DEBUG off, so no query log,
# no static-file lookups on disk per request), with throwaway secrets; plain HTTP on loopback
# stands in for the TLS proxy, hence no HTTPS redirect.
WARM_UP_PER_WORKER = 10
POSTGRES = -1  # in cpu_used(): the PostgreSQL server's processes, not one of ours
PRODUCTION_PROFILE = {
    "DJANGO_DEBUG": "false",
    "DJANGO_SECRET_KEY": "chat-load-benchmark-not-a-secret",
    "ATTUNE_PSEUDONYM_SALT": "chat-load-benchmark-not-a-secret",
    "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
    "DJANGO_SECURE_SSL_REDIRECT": "false",
}


@dataclass
class Sample:
    ttft_s: float
    total_s: float


@dataclass
class Phase:
    name: str
    samples: list[Sample] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    open_streams: int = 0
    max_open_streams: int = 0
    seconds: float = 0.0
    cpu: dict[str, float] = field(default_factory=dict)
    messages: int = 0  # messages the platform accepted (its stream opened)
    reloads: int = 0  # streams dropped mid-reply and re-attached
    model_calls: int = 0  # chat requests the upstream received during the phase

    def opened(self) -> None:
        self.open_streams += 1
        self.max_open_streams = max(self.max_open_streams, self.open_streams)

    def percentile(self, attribute: str, q: float) -> float:
        values = sorted(getattr(s, attribute) for s in self.samples)
        if not values:
            return float("nan")
        return (
            statistics.quantiles(values, n=100, method="inclusive")[round(q) - 1]
            if len(values) > 1
            else values[0]
        )


# -- the upstream: the gateway tests' local OpenAI-compatible server, in its own process ---------


def serve_upstream(args: argparse.Namespace) -> None:
    sys.path.insert(0, str(ROOT))
    from attune_collect.llm.testing import run_test_server

    words = " ".join(f"word{i}" for i in range(args.tokens))
    with run_test_server(
        lambda body: words,
        latency_s=args.latency_ms / 1000,
        token_delay_s=args.token_delay_ms / 1000,
    ) as server:
        print(f"PORT {server.port}", flush=True)
        deadline = time.monotonic() + UPSTREAM_LIFETIME_S
        count_file = Path(args.count_file) if args.count_file else None
        while time.monotonic() < deadline and os.getppid() != 1:  # parent gone: stop
            if count_file is not None:  # the model calls so far, for the load client to read
                count_file.with_suffix(".tmp").write_text(str(server.request_count))
                count_file.with_suffix(".tmp").replace(count_file)
            time.sleep(0.2)


def start_process(
    command: list[str], env: dict[str, str], *, read_stdout: bool = False
) -> subprocess.Popen:
    # An unread pipe would block the process once it fills: only read what is read.
    stdout = subprocess.PIPE if read_stdout else subprocess.DEVNULL
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=stdout, text=True)


def stop_process(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)


@dataclass(frozen=True)
class ProcessStat:
    parent: int
    name: str
    cpu_s: float  # user + system CPU seconds used so far


def process_table() -> dict[int, ProcessStat]:
    """Every live process on the machine, read from /proc/<pid>/stat."""
    ticks = os.sysconf("SC_CLK_TCK")
    table = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            head, tail = (entry / "stat").read_text().rsplit(")", 1)
        except (OSError, ValueError):  # the process ended meanwhile
            continue
        fields = tail.split()
        table[int(entry.name)] = ProcessStat(
            parent=int(fields[1]),
            name=head.split(" (", 1)[1],
            cpu_s=sum(int(v) for v in fields[11:15]) / ticks,
        )
    return table


def cpu_seconds(pid: int) -> float:
    """CPU seconds used so far by a process and its live descendants (the uvicorn workers,
    when there are several)."""
    table = process_table()
    family, frontier = {pid}, [pid]
    while frontier:
        parent = frontier.pop()
        children = [
            child for child, s in table.items() if s.parent == parent and child not in family
        ]
        family.update(children)
        frontier.extend(children)
    return sum(table[member].cpu_s for member in family if member in table)


def postgres_cpu_seconds() -> float:
    """CPU seconds used so far by the machine's PostgreSQL server processes (the database
    shares the cores too when the run uses it)."""
    return sum(s.cpu_s for s in process_table().values() if s.name in ("postgres", "postmaster"))


@contextmanager
def cpu_used(processes: dict[str, int | None], phase: Phase) -> Iterator[None]:
    """Record in ``phase.cpu`` the CPU seconds each process used during the block (``None``:
    this process, the load client; ``POSTGRES``: the database server)."""

    def now(pid: int | None) -> float:
        if pid == POSTGRES:
            return postgres_cpu_seconds()
        return time.process_time() if pid is None else cpu_seconds(pid)

    before = {name: now(pid) for name, pid in processes.items()}
    yield
    phase.cpu = {name: now(pid) - before[name] for name, pid in processes.items()}


def _load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_http(url: str) -> None:
    import httpx

    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while time.monotonic() < deadline:
        try:
            if httpx.get(url, timeout=2).status_code < 500:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise SystemExit(f"{url} did not answer within {STARTUP_TIMEOUT_S:.0f} s")


# -- set-up through the service layer -------------------------------------------------------------


def prepare_database(database_url: str | None) -> None:
    from django.core.management import call_command

    if database_url:
        create_postgres_database(database_url)
    call_command("migrate", "--noinput", verbosity=0)
    if database_url:
        call_command("flush", "--noinput", verbosity=0)


def flush_redis(redis_url: str) -> None:
    """Start from an empty scratch Redis database (no throttle counts of an earlier run)."""
    import redis

    try:
        redis.Redis.from_url(redis_url).flushdb()
    except redis.ConnectionError as error:
        sys.exit(f"--redis-url {redis_url}: Redis does not answer there ({error})")


def create_postgres_database(database_url: str) -> None:
    """Create the scratch database if it does not exist yet."""
    import dj_database_url
    import psycopg

    config = dj_database_url.parse(database_url)
    with psycopg.connect(
        host=config["HOST"],
        port=config["PORT"] or 5432,
        user=config["USER"],
        password=config["PASSWORD"] or None,
        dbname="postgres",
        autocommit=True,
    ) as db:
        exists = db.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", [config["NAME"]]
        ).fetchone()
        if not exists:
            db.execute(f'CREATE DATABASE "{config["NAME"]}"')


def force_litellm(flag: bool) -> None:
    """Send the benchmark's endpoint through litellm (True) or the direct transport (False)."""
    from django.db import connection

    from annotations.models import ModelEndpoint

    ModelEndpoint.objects.filter(alias="bench-upstream").update(force_litellm=flag)
    connection.close()


def create_participants(upstream_url: str, count: int, turns: int) -> tuple[str, list[str]]:
    """A study on the upstream and ``count`` participants ready to chat; returns their tokens."""
    from annotations.models import ModelEndpoint, PanasPhase, StudyStatus
    from annotations.services import participants, surveys
    from annotations.services.studies import get_or_create_study
    from attunebench.instrument import default_instrument

    endpoint = ModelEndpoint.objects.create(
        alias="bench-upstream",
        provider="openai",
        model_name="gpt-4o-mini",
        litellm_model="openai/gpt-4o-mini",
        api_base=upstream_url,
        api_key_env=KEY_ENV,
        max_concurrency=count * 2,
        max_retries=0,
        timeout_s=REQUEST_TIMEOUT_S,
    )
    study = get_or_create_study(
        "chat-load",
        status=StudyStatus.RECRUITING,
        min_turns=1,
        max_turns=turns,
        target_participants=count * 2,
        pairwise_questions_per_turn=0,
        topics=[],
    )
    study.model_pool.set([endpoint])
    panas = dict.fromkeys(default_instrument().panas_ids, 3)
    tokens = []
    for _ in range(count):
        started = participants.start_participant(study.slug, prolific_pid=uuid.uuid4().hex[:24])
        participant = started.participant
        participants.give_consent(participant, consent_version=study.consent_version, agree=True)
        participants.submit_profile(participant, age=30, traits=[], goals=[])
        surveys.submit_panas(participant, PanasPhase.PRE, panas)
        surveys.choose_topic(participant, "benchmark")
        tokens.append(started.token)
    return study.slug, tokens


# -- the load ---------------------------------------------------------------------------------


async def sse_events(response: Any, ids: list[str] | None = None):
    """(name, data) of each event; ``ids`` gets each event's id as it comes (Last-Event-ID)."""
    name = None
    async for line in response.aiter_lines():
        if line.startswith("id:") and ids is not None:
            ids.append(line[3:].strip())
        elif line.startswith("event:"):
            name = line[6:].strip()
        elif line.startswith("data:") and name is not None:
            yield name, json.loads(line[5:])
            name = None


@dataclass(frozen=True)
class Reload:
    """A participant who drops the stream after ``after_deltas`` tokens of their first reply and
    re-attaches with Last-Event-ID, as the app does after a reload; ``expected``: the reply."""

    after_deltas: int
    expected: str


async def platform_turn(http: Any, token: str, phase: Phase, reload: Reload | None = None) -> None:
    headers = {"Authorization": f"Participant {token}"}
    body = {
        "text": "I have been feeling anxious about work lately.",
        "idempotency_key": uuid.uuid4().hex,
    }
    started = time.perf_counter()
    first = None
    done = None
    text: list[str] = []
    ids: list[str] = []
    dropped = False
    number = None  # the turn's number, from the stream's ``turn`` event
    async with http.stream("POST", "/api/study/messages", json=body, headers=headers) as response:
        if response.status_code != 200:
            await response.aread()
            raise RuntimeError(f"HTTP {response.status_code}: {response.text[:200]}")
        phase.messages += 1
        phase.opened()
        try:
            async for name, data in sse_events(response, ids):
                if name == "turn":
                    number = data["turn"]["number"]
                elif name == "delta":
                    first = first or time.perf_counter()
                    text.append(data["text"])
                    if reload is not None and len(text) >= reload.after_deltas:
                        dropped = True  # leaving the block closes the connection mid-reply
                        break
                elif name == "error":
                    raise RuntimeError(f"error event: {data['error']['reason']}")
                elif name == "done":
                    done = data
        finally:
            phase.open_streams -= 1
    if dropped:
        phase.reloads += 1
        if number is None:
            raise RuntimeError("the stream gave no turn event before the reply")
        done = await _reattach(http, headers, ids[-1], text, number, phase)
        assert reload is not None
        if "".join(text) != reload.expected:
            raise RuntimeError("the re-attached reply differs from the model's")
    ended = time.perf_counter()
    if first is None or done is None:
        raise RuntimeError("the stream ended without a reply")
    phase.samples.append(Sample(first - started, ended - started))
    questions = done["annotation"]["behaviour_questions"]
    annotation = {
        "mood_tags": [],
        "behaviour": {q["id"]: {"observed": "yes", "preferred": "yes"} for q in questions},
    }
    reply = await http.post(
        f"/api/study/turns/{done['turn']['number']}/annotation", json=annotation, headers=headers
    )
    if reply.status_code != 200:
        raise RuntimeError(f"annotation HTTP {reply.status_code}: {reply.text[:200]}")


async def _reattach(
    http: Any, headers: dict[str, str], last_id: str, text: list[str], number: int, phase: Phase
) -> dict[str, Any] | None:
    """GET the turn's stream with Last-Event-ID; appends the rest of the reply to ``text``."""
    done = None
    async with http.stream(
        "GET",
        f"/api/study/turns/{number}/stream",
        headers={**headers, "Last-Event-ID": last_id},
    ) as response:
        if response.status_code != 200:
            await response.aread()
            raise RuntimeError(f"re-attach HTTP {response.status_code}: {response.text[:200]}")
        phase.opened()
        try:
            async for name, data in sse_events(response):
                if name == "delta":
                    text.append(data["text"])
                elif name == "error":
                    raise RuntimeError(f"re-attach error event: {data['error']['reason']}")
                elif name == "done":
                    done = data
        finally:
            phase.open_streams -= 1
    return done


async def direct_turn(http: Any, phase: Phase) -> None:
    body = {
        "model": "bench-model",
        "stream": True,
        "stream_options": {"include_usage": True},
        "messages": [{"role": "user", "content": "I have been feeling anxious about work lately."}],
    }
    started = time.perf_counter()
    first = None
    async with http.stream(
        "POST", "/chat/completions", json=body, headers={"Authorization": "Bearer bench"}
    ) as response:
        if response.status_code != 200:
            await response.aread()
            raise RuntimeError(f"HTTP {response.status_code}")
        phase.opened()
        try:
            async for line in response.aiter_lines():
                if first is None and line.startswith("data:") and '"content"' in line:
                    first = time.perf_counter()
        finally:
            phase.open_streams -= 1
    if first is None:
        raise RuntimeError("no token")
    phase.samples.append(Sample(first - started, time.perf_counter() - started))


async def run_phase(
    phase: Phase,
    base_url: str,
    participants: int,
    turns: int,
    ramp_s: float,
    turn: Any,
    tokens: list[str] | None,
    deadline_s: float,
    reload: Reload | None = None,
    reload_share: float = 0.0,
) -> None:
    import httpx

    limits = httpx.Limits(
        max_connections=participants + 50, max_keepalive_connections=participants + 50
    )
    rng = random.Random(7)  # the same start offsets for both phases
    offsets = [rng.uniform(0, ramp_s) for _ in range(participants)]

    # Every 1/reload_share-th participant reloads during its first reply.
    every = round(1 / reload_share) if reload_share > 0 else 0

    async def participant(index: int) -> None:
        await asyncio.sleep(offsets[index])
        for number in range(turns):
            reloads = reload if every and index % every == 0 and number == 0 else None
            try:
                async with asyncio.timeout(REQUEST_TIMEOUT_S):
                    if tokens:
                        await (
                            turn(http, tokens[index], phase, reloads)
                            if reloads
                            else turn(http, tokens[index], phase)
                        )
                    else:
                        await turn(http, phase)
            except Exception as exc:  # noqa: BLE001 - every failure is a counted error
                phase.errors.append(f"{type(exc).__name__}: {exc}"[:200])

    started = time.perf_counter()
    async with httpx.AsyncClient(
        base_url=base_url, limits=limits, timeout=REQUEST_TIMEOUT_S
    ) as http:
        async with asyncio.timeout(deadline_s):
            await asyncio.gather(*(participant(i) for i in range(participants)))
    phase.seconds = time.perf_counter() - started


def side_by_side(
    platforms: list[Phase], per_message: dict[str, float], args: argparse.Namespace
) -> None:
    """With several variants: each one's CPU per message against the first variant's in the
    same round, and the spread of those ratios over the rounds."""
    names = [name for name, _ in args.variant]
    if len(names) < 2:
        return
    base = names[0]
    for name in names[1:]:
        ratios = []
        for round_ in range(args.rounds):
            mine = [
                p
                for p in platforms
                if p.name.startswith(f"{name}-") and p.name.endswith(f"#{round_ + 1}")
            ]
            theirs = [
                p
                for p in platforms
                if p.name.startswith(f"{base}-") and p.name.endswith(f"#{round_ + 1}")
            ]
            for a, b in zip(mine, theirs, strict=True):
                ratios.append(per_message[a.name] / per_message[b.name])
        print(
            f"CPU per message, {name} / {base}, per round: "
            + ", ".join(f"x{r:.3f}" for r in ratios)
            + (
                f" (median x{statistics.median(ratios):.3f}, spread x{min(ratios):.3f} to x{max(ratios):.3f})"
                if ratios
                else ""
            )
        )


def report(direct: Phase, platforms: list[Phase], args: argparse.Namespace, database: str) -> None:
    print(
        f"\ndatabase: {database}; cache and broker: {'redis' if args.redis_url else 'in-process'}"
        f"; uvicorn workers: {args.workers}"
        f"{'; synchronous WhiteNoise' if args.sync_whitenoise else ''}; "
        f"participants: {args.participants}; turns each: {args.turns}; "
        f"upstream: {args.latency_ms} ms to the first token, {args.tokens} tokens "
        f"{args.token_delay_ms} ms apart"
    )
    print(
        f"{'':18} {'streams':>8} {'errors':>7} {'max open':>9} {'TTFT p50':>9} {'TTFT p95':>9} "
        f"{'total p50':>10} {'total p95':>10}"
    )
    for phase in (direct, *platforms):
        print(
            f"{phase.name:18} {len(phase.samples):8d} {len(phase.errors):7d} {phase.max_open_streams:9d} "
            f"{phase.percentile('ttft_s', 50) * 1000:7.1f}ms {phase.percentile('ttft_s', 95) * 1000:7.1f}ms "
            f"{phase.percentile('total_s', 50) * 1000:8.1f}ms {phase.percentile('total_s', 95) * 1000:8.1f}ms"
        )
    for platform in platforms:
        for name, attribute in (("TTFT", "ttft_s"), ("total", "total_s")):
            ratios = [
                platform.percentile(attribute, q) / direct.percentile(attribute, q)
                for q in (50, 95)
            ]
            overhead = [
                (platform.percentile(attribute, q) - direct.percentile(attribute, q)) * 1000
                for q in (50, 95)
            ]
            print(
                f"{platform.name}/direct {name}: p50 x{ratios[0]:.3f} (+{overhead[0]:.1f} ms), "
                f"p95 x{ratios[1]:.3f} (+{overhead[1]:.1f} ms)"
            )
    for phase in (direct, *platforms):
        for error in sorted(set(phase.errors))[:10]:
            print(f"  {phase.name} error ({phase.errors.count(error)}x): {error}")
    per_message = {}
    for platform in platforms:
        server_cpu = platform.cpu["platform"]
        per_message[platform.name] = server_cpu / max(len(platform.samples), 1) * 1000
        print(
            f"{platform.name}: platform server {server_cpu:.1f} s CPU in {platform.seconds:.1f} s "
            f"({per_message[platform.name]:.1f} ms per message, "
            f"{server_cpu / platform.seconds:.0%} of one core)"
        )
    for platform in platforms:
        print(
            f"{platform.name}: {platform.messages} messages, {platform.reloads} reloaded mid-reply, "
            f"{platform.model_calls} model calls: "
            f"{platform.model_calls - platform.messages} replies regenerated"
        )
    if len(per_message) == 2 and len(args.variant) <= 1:
        (first, first_ms), (second, second_ms) = per_message.items()
        print(f"platform CPU per message, {first} / {second}: {first_ms / second_ms:.2f}")
    side_by_side(platforms, per_message, args)
    for phase in (direct, *platforms):
        print(
            f"CPU during the {phase.name} phase: "
            + ", ".join(f"{name} {seconds:.1f} s" for name, seconds in phase.cpu.items())
        )


def _variant(value: str) -> tuple[str, Path]:
    name, _, directory = value.partition("=")
    path = Path(directory).resolve()
    if not name or not (path / "attune_collect" / "asgi.py").is_file():
        raise argparse.ArgumentTypeError(f"NAME=DIR with a checkout of the platform, not {value}")
    return name, path


def upstream_calls(count_file: Path) -> int:
    """The chat requests the upstream test server has received so far (it writes the count)."""
    deadline = time.monotonic() + 5
    while True:
        try:
            return int(count_file.read_text())
        except (OSError, ValueError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def start_platform(
    directory: Path, env: dict[str, str], workers: int
) -> tuple[subprocess.Popen, str]:
    port = free_port()
    server = subprocess.Popen(
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
            "--timeout-keep-alive",
            "30",
            "--workers",
            str(workers),
        ],
        cwd=directory,
        env=env,
        stdout=subprocess.DEVNULL,
    )
    return server, f"http://127.0.0.1:{port}"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--participants", type=int, default=200)
    parser.add_argument("--turns", type=int, default=2)
    parser.add_argument(
        "--latency-ms", type=float, default=2000, help="upstream: before the first token"
    )
    parser.add_argument("--tokens", type=int, default=60, help="upstream: tokens per reply")
    parser.add_argument(
        "--token-delay-ms", type=float, default=300, help="upstream: between tokens"
    )
    parser.add_argument(
        "--database-url", help="scratch PostgreSQL database (created if missing, flushed)"
    )
    parser.add_argument(
        "--redis-url",
        help="a scratch Redis database for the platform's cache (the message throttle's counts) "
        "and Celery broker, as in production (flushed); without it both stay in the process",
    )
    parser.add_argument("--workers", type=int, default=1, help="uvicorn worker processes")
    parser.add_argument(
        "--transports",
        nargs="+",
        choices=("direct", "litellm"),
        default=["direct", "litellm"],
        help="the gateway transports to run the platform with, one phase each, in this order",
    )
    parser.add_argument(
        "--sync-whitenoise",
        action="store_true",
        help="run the platform with WhiteNoise's own synchronous middleware (every async request "
        "then crosses into a thread and back) instead of the project's async-capable one, to "
        "measure what that costs",
    )
    parser.add_argument(
        "--variant",
        action="append",
        type=_variant,
        default=[],
        metavar="NAME=DIR",
        help="run the platform from this checkout too (e.g. a git worktree of another commit), "
        "its own uvicorn process, side by side with the others in the same run; the first "
        "variant is the base of the CPU ratios. Default: this checkout only",
    )
    parser.add_argument(
        "--rounds", type=int, default=1, help="phases per variant and transport, interleaved"
    )
    parser.add_argument(
        "--reload-share",
        type=float,
        default=0.0,
        help="share of the participants that drop their first reply's stream mid-reply and "
        "re-attach with Last-Event-ID (GET /api/study/turns/<n>/stream), e.g. 0.1",
    )
    parser.add_argument(
        "--celery-worker",
        action="store_true",
        help="run one Celery worker (solo pool) of the first variant beside the platform",
    )
    parser.add_argument("--serve-upstream", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--count-file", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_upstream:
        serve_upstream(args)
        return

    workdir = Path(tempfile.mkdtemp(prefix="attune-chat-load-"))
    env = {
        **os.environ,
        "ATTUNE_DATA_DIR": str(workdir / "data"),
        KEY_ENV: "sk-bench-not-a-secret",
        "DJANGO_SETTINGS_MODULE": "attune_collect.settings",
        "ATTUNE_LOG_LEVEL": "WARNING",
        **PRODUCTION_PROFILE,
    }
    for name in ("DATABASE_URL", "REDIS_URL"):  # only the scratch ones given here
        env.pop(name, None)
        os.environ.pop(name, None)
    if args.database_url:
        env["DATABASE_URL"] = args.database_url
    if args.redis_url:
        env["REDIS_URL"] = args.redis_url
        flush_redis(args.redis_url)
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    server_env = dict(env)
    # Every participant of the load client comes from 127.0.0.1, where production's come from
    # addresses of their own: the cap on streams per address would refuse all but 20.
    server_env["ATTUNE_MAX_STREAMS_PER_ADDRESS"] = str(2 * args.participants + 100)
    if args.sync_whitenoise:
        # A settings module of this run only, in its temp folder, for the platform process.
        (workdir / "bench_settings.py").write_text(
            "from attune_collect.settings import *  # noqa: F403\n"
            "MIDDLEWARE = [  # noqa: F405\n"
            "    'whitenoise.middleware.WhiteNoiseMiddleware' if m.endswith('WhiteNoiseMiddleware')\n"
            "    else m for m in MIDDLEWARE  # noqa: F405\n"
            "]\n"
        )
        server_env["PYTHONPATH"] = os.pathsep.join(
            filter(None, [str(workdir), env.get("PYTHONPATH")])
        )
        server_env["DJANGO_SETTINGS_MODULE"] = "bench_settings"

    count_file = workdir / "upstream-calls"
    upstream = start_process(
        [
            sys.executable,
            __file__,
            "--serve-upstream",
            "--latency-ms",
            str(args.latency_ms),
            "--tokens",
            str(args.tokens),
            "--token-delay-ms",
            str(args.token_delay_ms),
            "--count-file",
            str(count_file),
        ],
        env,
        read_stdout=True,
    )
    variants = args.variant or [("platform", ROOT)]
    args.variant = variants
    servers: dict[str, tuple[subprocess.Popen, str]] = {}
    worker: subprocess.Popen | None = None
    try:
        line = upstream.stdout.readline() if upstream.stdout else ""
        if not line.startswith("PORT "):
            raise SystemExit("the upstream test server did not start")
        upstream_url = f"http://127.0.0.1:{int(line.split()[1])}/v1"

        import django

        django.setup()
        from django.db import connection

        prepare_database(args.database_url)
        database = connection.vendor
        started = time.perf_counter()
        # Warm-up participants: enough that every uvicorn worker most likely serves a few (the
        # kernel spreads connections); a fresh worker's first streams open its upstream client.
        warm_count = WARM_UP_PER_WORKER * args.workers
        per_phase = args.participants + warm_count
        # Each phase (variant x transport x round) has participants of its own.
        plan = [
            (round_, name, transport)
            for round_ in range(args.rounds)
            # The order of the variants turns each round, so that none always comes first.
            for name, _ in variants[round_ % len(variants) :] + variants[: round_ % len(variants)]
            for transport in args.transports
        ]
        slug, tokens = create_participants(upstream_url, per_phase * len(plan), args.turns)
        print(
            f"set up {len(tokens)} participants in {time.perf_counter() - started:.1f} s ({database})"
        )
        connection.close()

        for name, directory in variants:
            servers[name] = start_platform(directory, server_env, args.workers)
        for _, url in servers.values():
            wait_for_http(f"{url}/healthz")
        if args.celery_worker:
            worker = start_celery_worker(variants[0][1], server_env)  # solo pool

        reply_s = (args.latency_ms + args.tokens * args.token_delay_ms) / 1000
        deadline = args.turns * (reply_s + REQUEST_TIMEOUT_S) + 120
        expected = " ".join(f"word{i}" for i in range(args.tokens))
        reload = Reload(after_deltas=max(1, args.tokens // 3), expected=expected)
        asyncio.run(
            run_phase(Phase("warm-up"), upstream_url, 5, 1, 0.0, direct_turn, None, deadline)
        )
        print(f"load average before the phases: {_load()}", flush=True)
        direct = Phase("direct")
        # CPU seconds of each process during each phase: they share the machine's cores.
        processes: dict[str, int | None] = {"client": None, "upstream": upstream.pid}
        if database == "postgresql":
            processes["postgresql"] = POSTGRES
        if worker is not None:
            processes["celery worker"] = worker.pid
        with cpu_used({**processes, "platform": servers[variants[0][0]][0].pid}, direct):
            asyncio.run(
                run_phase(
                    direct,
                    upstream_url,
                    args.participants,
                    args.turns,
                    reply_s,
                    direct_turn,
                    None,
                    deadline,
                )
            )
        platforms = []
        for index, (round_, name, transport) in enumerate(plan):
            server, platform_url = servers[name]
            force_litellm(transport == "litellm")
            mine = tokens[index * per_phase : (index + 1) * per_phase]
            # Warm-up: opens database and upstream connections (and litellm's client) in every
            # worker before the measured phase.
            warm = Phase("warm-up")
            asyncio.run(
                run_phase(
                    warm,
                    platform_url,
                    warm_count,
                    1,
                    0.0,
                    platform_turn,
                    mine[args.participants :],
                    deadline,
                )
            )
            if warm.errors:
                raise SystemExit(f"warm-up ({name}, {transport}) failed: {warm.errors[0]}")
            label = f"{name}-{transport}" + (f"#{round_ + 1}" if args.rounds > 1 else "")
            if len(variants) > 1 and args.rounds == 1:
                label += "#1"
            phase = Phase(label)
            calls_before = upstream_calls(count_file)
            with cpu_used({**processes, "platform": server.pid}, phase):
                asyncio.run(
                    run_phase(
                        phase,
                        platform_url,
                        args.participants,
                        args.turns,
                        reply_s,
                        platform_turn,
                        mine[: args.participants],
                        deadline,
                        reload,
                        args.reload_share,
                    )
                )
            time.sleep(1.0)  # the count file is written every 0.2 s
            phase.model_calls = upstream_calls(count_file) - calls_before
            print(
                f"{phase.name} done, {len(phase.errors)} errors, "
                f"{phase.cpu['platform'] / max(len(phase.samples), 1) * 1000:.1f} ms CPU per "
                f"message, load average {_load()}",
                flush=True,
            )
            platforms.append(phase)
        report(direct, platforms, args, database)
        print(f"load average after the run: {_load()}")
    finally:
        for server, _ in servers.values():
            stop_process(server)
        if worker is not None:
            stop_process(worker)
        stop_process(upstream)
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
