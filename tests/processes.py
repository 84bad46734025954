"""Stopping the processes the tests start (workers, servers), whatever state they are in."""

from __future__ import annotations

import subprocess


def stop_process(process: subprocess.Popen, grace_s: float) -> None:
    """SIGTERM and ``grace_s`` to finish cleanly, then SIGKILL: a hung child never hangs the run.

    A process a test has killed already is only reaped.
    """
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=grace_s)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)


def finish_process(process: subprocess.Popen, timeout_s: float) -> tuple[str, str]:
    """The child's output once it exits; a child still running after ``timeout_s`` is killed
    and the test fails with ``TimeoutExpired`` (two children started together are finished one
    after the other with this, each bounded)."""
    try:
        return process.communicate(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        raise
