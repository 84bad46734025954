"""The strict environment helpers: typos stop the process with a clear message."""

import pytest

from attune_collect.env import (
    EnvironmentConfigError,
    env_bool,
    env_int,
    env_list,
    env_secret,
    env_str,
    env_url,
)


def test_bool_accepts_the_usual_words(monkeypatch):
    for word, expected in [
        ("true", True),
        ("1", True),
        ("YES", True),
        ("off", False),
        ("0", False),
    ]:
        monkeypatch.setenv("FLAG", word)
        assert env_bool("FLAG", not expected) is expected


def test_bool_refuses_a_typo(monkeypatch):
    monkeypatch.setenv("FLAG", "flase")
    with pytest.raises(EnvironmentConfigError, match="FLAG='flase' is not a boolean"):
        env_bool("FLAG", True)


def test_blank_means_unset(monkeypatch):
    monkeypatch.setenv("NAME", "  ")
    assert env_str("NAME", "default") == "default"


def test_int_with_minimum(monkeypatch):
    monkeypatch.setenv("N", "abc")
    with pytest.raises(EnvironmentConfigError, match="not an integer"):
        env_int("N", 1)
    monkeypatch.setenv("N", "-1")
    with pytest.raises(EnvironmentConfigError, match="must be at least 0"):
        env_int("N", 1, minimum=0)


def test_list_drops_blanks(monkeypatch):
    monkeypatch.setenv("HOSTS", "a.org, ,b.org,")
    assert env_list("HOSTS") == ["a.org", "b.org"]


def test_secret_from_a_file(monkeypatch, tmp_path):
    secret_file = tmp_path / "secret"
    secret_file.write_text("s3cret\n", encoding="utf-8")
    monkeypatch.delenv("TOKEN", raising=False)
    monkeypatch.setenv("TOKEN_FILE", str(secret_file))
    assert env_secret("TOKEN") == "s3cret"
    monkeypatch.setenv("TOKEN_FILE", str(tmp_path / "missing"))
    with pytest.raises(EnvironmentConfigError, match="TOKEN_FILE=.* cannot be read"):
        env_secret("TOKEN")


def test_url_scheme_is_checked(monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "mysql://x")
    with pytest.raises(EnvironmentConfigError, match="must start with one of postgres://"):
        env_url("DATABASE_URL", ("postgres",))
