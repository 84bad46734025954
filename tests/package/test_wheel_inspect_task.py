"""The Inspect task (the wheel's ``inspect`` extra) gives the scores ``attunebench score`` gives,
to 1e-9, on the whole demo release (every conversation, default mode): ``inspect eval
attunebench/attunebench`` in the fresh virtual environment of the wheel test (with
``wheel[inspect]`` added), against the local
OpenAI-compatible test server through Inspect's own OpenAI-compatible provider, the evaluated
model and the ``judge`` role both bound.

Two comparisons: with an ``attunebench run`` of the same models on the same server (which
answers by the request's messages, so equal prompts get equal answers: the prompts are checked
equal too), and with ``attunebench score`` on the run outputs the Inspect log holds (the same
answers, whatever they are).

Slow: it installs inspect_ai (uv, from its cache or PyPI the first time) into that environment.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from attune_collect.llm.testing import run_test_server
from attunebench.release import load_conversations
from tests.engine.conftest import server_json_reply
from tests.package.wheel_venv import install, run

pytestmark = [pytest.mark.slow, pytest.mark.django_db]

KEY_ENV = "PACKAGE_TEST_API_KEY"
# Inspect's "openai-api/<service>/<model>" reads <SERVICE>_BASE_URL and <SERVICE>_API_KEY.
SERVICE = "attunetest"
AXES = (
    "composite_score",
    "emotion_recognition",
    "behaviour_classification",
    "preference_prediction",
    "judged_response_quality",
    "outcome_prediction",
)


def sent(requests: list[dict[str, Any]]) -> set[tuple[str, str]]:
    """(model, messages) of each chat request, as the server saw them."""
    return {
        (body["model"], json.dumps(body["messages"], sort_keys=True, ensure_ascii=False))
        for body in requests
    }


def score_figures(scores_json: Path, model: str) -> dict[str, tuple[float | None, float | None]]:
    """axis -> (mean, standard error) of ``model`` in the default mode, from scores.json."""
    scores = json.loads(scores_json.read_text())
    (found,) = [
        a for a in scores["aggregates"] if a["em_model"] == model and a["mode"] == "default"
    ]
    return {axis: (found[axis], found[f"{axis}_se"]) for axis in AXES}


def inspect_figures(log: dict[str, Any]) -> dict[str, tuple[float, float]]:
    """axis -> (axis_mean, axis_stderr) from an Inspect log's results (Inspect names a metric
    by its registry name, ``attunebench/axis_mean``)."""
    found: dict[str, dict[str, float]] = {}
    for score in log["results"]["scores"]:
        metrics = score["metrics"].values()
        found[score["name"]] = {m["name"].rpartition("/")[2]: m["value"] for m in metrics}
    return {axis: (found[axis]["axis_mean"], found[axis]["axis_stderr"]) for axis in AXES}


def assert_equal_figures(
    ours: dict[str, tuple[float, float]],
    theirs: dict[str, tuple[float | None, float | None]],
    undefined: tuple[str, ...] = (),
) -> None:
    """Equal to 1e-9 axis by axis; the ``undefined`` axes are None in scores.json and NaN in
    Inspect's metrics, every other axis is defined (so each comparison compares numbers)."""
    for axis in AXES:
        for mine, other in zip(ours[axis], theirs[axis], strict=True):
            if axis in undefined:
                assert other is None and math.isnan(mine), (axis, mine, other)
            else:
                assert other is not None, f"{axis} is undefined in scores.json"
                assert math.isclose(mine, other, rel_tol=0, abs_tol=1e-9), (axis, mine, other)


def score_outputs(installed: Path, release: str, log: dict[str, Any], folder: Path) -> Path:
    """``attunebench score`` on the run outputs in an Inspect log's sample stores."""
    outputs = folder / "runs"
    outputs.mkdir(parents=True)
    for number, sample in enumerate(log["samples"]):
        output = sample["store"]["attunebench_run_output"]
        (outputs / f"run_{number}.json").write_text(json.dumps(output))
    run(installed / "attunebench", "score", "--data", release, "--runs", outputs, "--out", folder)
    return folder / "scores.json"


def inspect_eval(installed: Path, log_dir: Path, env: dict[str, str], *options: str) -> Any:
    """``inspect eval attunebench/attunebench`` with these options; its JSON log."""
    run(
        installed / "inspect",
        "eval",
        "attunebench/attunebench",
        *options,
        "--log-dir",
        log_dir,
        "--log-format",
        "json",
        "--display",
        "none",
        env=env,
    )
    (log_file,) = log_dir.glob("*.json")
    log = json.loads(log_file.read_text())  # NaN where a metric is undefined
    assert log["status"] == "success"
    return log


def test_the_inspect_task_scores_equal_attunebench_score(
    wheel_venv, demo_release, tmp_path: Path
) -> None:
    installed, wheel = wheel_venv
    install(installed, tmp_path, f"{wheel}[inspect]")
    release = str(demo_release.folder)
    # Inspect's traces and caches go to the test's folder, not the user's home.
    inspect_env = {
        "XDG_DATA_HOME": str(tmp_path / "xdg-data"),
        "XDG_CACHE_HOME": str(tmp_path / "xdg-cache"),
        f"{SERVICE.upper()}_BASE_URL": "",
        f"{SERVICE.upper()}_API_KEY": "sk-inspect-test",
    }

    with run_test_server() as server:
        server.behaviour.reply = server_json_reply
        run(
            installed / "attunebench",
            "run",
            "--data",
            release,
            "--model",
            "openai/model-a",
            "--judge",
            "openai/judge-a",
            "--api-base",
            server.base_url,
            "--api-key-env",
            KEY_ENV,
            "--no-progress",
            "--out",
            tmp_path / "runs",
            env={KEY_ENV: "sk-package-test"},
        )
        by_the_cli = sent(server.behaviour.requests)
        server.behaviour.requests.clear()
        inspect_env[f"{SERVICE.upper()}_BASE_URL"] = server.base_url
        data = ("-T", f"data={release}")  # the whole release: every conversation
        log = inspect_eval(
            installed,
            tmp_path / "logs",
            inspect_env,
            *data,
            "--model",
            f"openai-api/{SERVICE}/model-a",
            "--model-role",
            f"judge=openai-api/{SERVICE}/judge-a",
        )
        by_inspect = sent(server.behaviour.requests)
        server.behaviour.requests.clear()
        # Without the judge role: no judge is asked (not the evaluated model either).
        unjudged = inspect_eval(
            installed,
            tmp_path / "logs-unjudged",
            inspect_env,
            *data,
            "--model",
            f"openai-api/{SERVICE}/model-b",
        )
        assert {body["model"] for body in server.behaviour.requests} == {"model-b"}

    # The same prompts (the CLI's cache makes each distinct request once; Inspect's samples
    # make theirs each), to the same models: hence the same answers.
    assert by_inspect == by_the_cli
    assert {model for model, _ in by_inspect} == {"model-a", "judge-a"}
    # One sample per conversation of the release (default mode): all of them, not a subsample.
    assert len(log["samples"]) == len(load_conversations(release)) > 3
    ours = inspect_figures(log)

    # 1. `attunebench score` on the CLI run of the same models.
    run(
        installed / "attunebench",
        "score",
        "--data",
        release,
        "--runs",
        tmp_path / "runs",
        "--out",
        tmp_path / "scores",
    )
    assert_equal_figures(ours, score_figures(tmp_path / "scores" / "scores.json", "openai/model-a"))

    # 2. `attunebench score` on the answers Inspect got: the run outputs in the samples' stores.
    scores = score_outputs(installed, release, log, tmp_path / "inspect-scores")
    model = f"openai-api/{SERVICE}/model-a"
    assert_equal_figures(ours, score_figures(scores, model))

    # 3. Without a judge, the judged axis is undefined in both, and the others still agree.
    scores = score_outputs(installed, release, unjudged, tmp_path / "unjudged-scores")
    assert_equal_figures(
        inspect_figures(unjudged),
        score_figures(scores, f"openai-api/{SERVICE}/model-b"),
        undefined=("judged_response_quality",),
    )
