"""The platform under uvicorn in a subprocess, on a loopback port of its own."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from tests.processes import stop_process

ROOT = Path(__file__).resolve().parents[2]
# The chat model of the upstream study reads its (dummy) key from here, in the server process.
KEY_ENV = "TEST_LLM_API_KEY"
KEY_VALUE = "sk-attune-e2e-not-a-secret"


@contextmanager
def running_uvicorn(extra_env: dict[str, str], timeout: float = 120.0) -> Iterator[str]:
    # The socket is bound here and handed over (--fd): no window for another process to take
    # the port between choosing it and listening on it.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.set_inheritable(True)
    port = sock.getsockname()[1]
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "attune_collect.asgi:application",
            "--fd",
            str(sock.fileno()),
            "--log-level",
            "warning",
            "--no-access-log",
        ],
        cwd=ROOT,
        env={**os.environ, **extra_env},
        pass_fds=[sock.fileno()],
    )
    base_url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_healthy(process, base_url, timeout)
        yield base_url
    finally:
        stop_process(process, grace_s=15)
        sock.close()


def _wait_until_healthy(process: subprocess.Popen, base_url: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"uvicorn exited with {process.returncode}")
        try:
            if httpx.get(f"{base_url}/healthz", timeout=2).status_code < 500:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"uvicorn did not answer at {base_url} within {timeout} s")
