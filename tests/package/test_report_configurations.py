"""``attunebench report`` states each model's configuration as ``attunebench run`` recorded it
(run_config.json beside the outputs), as the admin's report does; outputs without that record
(another tool's) get a report that says none was recorded."""

from __future__ import annotations

import json
from pathlib import Path

from attunebench.cli import main
from attunebench.run_config import RUN_CONFIG_FILE
from tests.engine.conftest import KEY_ENV
from tests.package.test_leaderboard_third_model import persona_reply


def run_and_report(server, release: Path, tmp_path: Path, *, keep_config: bool) -> dict:
    runs, out = tmp_path / "runs", tmp_path / "report"
    arguments = ["run", "--data", str(release), "--api-base", server.base_url]
    arguments += ["--api-key-env", KEY_ENV, "--no-progress", "--out", str(runs)]
    arguments += ["--model", "openai/model-a", "--param", "temperature=0.3"]
    assert main(arguments) == 0
    if not keep_config:
        (runs / RUN_CONFIG_FILE).unlink()
    assert main(["report", "--data", str(release), "--runs", str(runs), "--out", str(out)]) == 0
    return json.loads((out / "report.json").read_text())["reproducibility"]


def test_the_report_states_the_recorded_configuration(json_server, release_dir, tmp_path):
    json_server.behaviour.reply = persona_reply
    block = run_and_report(json_server, release_dir, tmp_path, keep_config=True)
    (found,) = block["configurations"]
    assert (found["role"], found["alias"], found["model"]) == ("model", *["openai/model-a"] * 2)
    assert found["params"] == {"temperature": 0.3}
    assert found["api_base_host"] == json_server.base_url.split("//")[1].split("/")[0]
    assert found["system_prompt_version"] == block["prompt_version"]
    assert len(found["configuration_id"]) == 16
    assert KEY_ENV not in json.dumps(block)  # not even the key's variable's name


def test_without_a_record_no_configuration_is_stated(json_server, release_dir, tmp_path):
    json_server.behaviour.reply = persona_reply
    block = run_and_report(json_server, release_dir, tmp_path, keep_config=False)
    assert block["configurations"] == [] and block["models"] == ["openai/model-a"]
