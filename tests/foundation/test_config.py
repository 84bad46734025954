"""The platform's configuration: one typed record read once from the environment
(attune_collect/config.py), and litellm's offline variables set in one place."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import fields, replace
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from attune_collect.config import AttuneConfig, attune_config, read_environment
from attune_collect.env import EnvironmentConfigError
from attune_collect.llm._litellm import OFFLINE_ENVIRONMENT
from attune_collect.llm.secrets_policy import key_env_policy as gateway_key_env_policy

ROOT = Path(__file__).resolve().parents[2]
VARIABLES = {spec.name: spec.metadata["env"] for spec in fields(AttuneConfig)}


@pytest.fixture
def clean_environment(monkeypatch):
    for name in VARIABLES.values():
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_unset_variables_give_the_defaults_of_the_record(clean_environment, tmp_path):
    config = read_environment(tmp_path)
    assert config.releases_dir == tmp_path / "releases"
    assert config.evaluations_dir == tmp_path / "evaluations"
    for spec in fields(AttuneConfig):
        if spec.name not in ("releases_dir", "evaluations_dir"):
            assert getattr(config, spec.name) == spec.default, spec.name


def test_each_field_is_read_from_the_variable_it_names(clean_environment, tmp_path):
    # Guards the reader against a field read from another variable (or not at all).
    for spec in fields(AttuneConfig):
        default = getattr(read_environment(tmp_path), spec.name)
        if isinstance(default, tuple):  # a list: of addresses (the proxies) or of names
            items = (
                ("10.0.0.7", "10.0.0.8")
                if spec.name == "trusted_proxies"
                else ("SEVEN_API", "EIGHT")
            )
            clean_environment.setenv(spec.metadata["env"], ", ".join(items))
            changed = getattr(read_environment(tmp_path), spec.name)
            clean_environment.delenv(spec.metadata["env"])
            assert changed == items, spec.name
            continue
        value = "/somewhere/else" if isinstance(default, Path) else "7"
        value = "10.0.0.7" if isinstance(default, tuple) else value  # a list of addresses
        clean_environment.setenv(spec.metadata["env"], value)
        changed = getattr(read_environment(tmp_path), spec.name)
        clean_environment.delenv(spec.metadata["env"])
        shown = ",".join(changed) if isinstance(changed, tuple) else str(changed)
        assert changed != default and shown in (value, "7.0"), spec.name


def test_a_bad_value_in_the_environment_is_refused(clean_environment, tmp_path):
    clean_environment.setenv("ATTUNE_RELEASE_CHUNK_SIZE", "0")
    with pytest.raises(EnvironmentConfigError, match="ATTUNE_RELEASE_CHUNK_SIZE=0"):
        read_environment(tmp_path)


def test_the_record_is_frozen_and_checks_a_replaced_value(settings):
    with pytest.raises(AttributeError):
        settings.ATTUNE.release_chunk_size = 1  # type: ignore[misc]
    with pytest.raises(ImproperlyConfigured, match="ATTUNE_CHAT_TURN_LEASE_S"):
        replace(settings.ATTUNE, chat_turn_lease_s=0)


@pytest.mark.parametrize(
    ("variable", "value"),
    [("ATTUNE_API_KEY_ENV_PATTERN", "("), ("ATTUNE_API_KEY_ENV_ALLOWED", "GOOD_KEY,bad-name")],
)
def test_a_bad_key_variable_policy_is_refused(clean_environment, tmp_path, variable, value):
    clean_environment.setenv(variable, value)
    with pytest.raises(ImproperlyConfigured, match=variable):
        read_environment(tmp_path)


def test_the_gateway_checks_key_variables_against_the_running_record(settings):
    # settings.py installs the source; the gateway's policy follows a changed setting at once.
    assert gateway_key_env_policy().problem("LAB_KEY") is not None
    settings.ATTUNE = replace(settings.ATTUNE, api_key_env_allowed=("LAB_KEY",))
    assert gateway_key_env_policy().problem("LAB_KEY") is None


def test_services_read_the_running_record(settings):
    settings.ATTUNE = replace(settings.ATTUNE, release_chunk_size=3)
    assert attune_config().release_chunk_size == 3


def offline_probe(tmp_path: Path) -> dict[str, str | None]:
    """litellm's offline variables in a fresh process that loaded the settings module, started
    with none of them set (the module alone: django.setup() would add seconds and nothing else)."""
    code = (
        "import json, os, attune_collect.settings; "
        f"print(json.dumps({{n: os.environ.get(n) for n in {sorted(OFFLINE_ENVIRONMENT)!r}}}))"
    )
    env = {k: v for k, v in os.environ.items() if k not in OFFLINE_ENVIRONMENT}
    env.update(DJANGO_SETTINGS_MODULE="attune_collect.settings", ATTUNE_DATA_DIR=str(tmp_path))
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_loading_the_settings_sets_litellms_offline_variables(tmp_path):
    # The web server, the Celery worker and manage.py all load the settings before litellm.
    assert offline_probe(tmp_path) == OFFLINE_ENVIRONMENT


SKIPPED = {
    ".git",
    ".venv",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
    "node_modules",
    "data",
    "docs",
    "tests",
    "frontend",
    "staticfiles",
    "build",  # make wheel's build folder (packaging/attunebench/build), not the repo's code
}
SCANNED_SUFFIXES = {".py", ".yml", ".yaml", ".toml", ".cfg", ".sh"}
SCANNED_NAMES = {"Makefile", "Dockerfile", "run"}  # run: .ci/run


def test_the_offline_variables_are_listed_in_one_place():
    # The Makefile, docker-compose.yml, the Dockerfile and settings.py used to set them too: a
    # change made in one of them was easily missed in the others.
    holders = []
    for folder, subfolders, files in os.walk(ROOT):
        subfolders[:] = [d for d in subfolders if d not in SKIPPED]
        for path in (Path(folder) / name for name in files):
            scanned = path.suffix in SCANNED_SUFFIXES or path.name in SCANNED_NAMES
            if scanned and "LITELLM_OFFLINE_MODE" in path.read_text(errors="replace"):
                holders.append(str(path.relative_to(ROOT)))
    assert holders == ["attune_collect/llm/_litellm.py"]
