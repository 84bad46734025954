"""Prompts are versioned files; the version id (folder name + content hash) changes with any
edit and is stored with every result."""

import shutil

import pytest

from attunebench.prompts import PROMPTS_DIR, load_prompt_set


def test_the_id_names_the_set_and_hashes_its_files(tmp_path):
    shipped = load_prompt_set()
    assert shipped.version_id.startswith("v1-") and len(shipped.version_id) == 15
    shutil.copytree(PROMPTS_DIR / "v1", tmp_path / "v1")
    assert load_prompt_set("v1", tmp_path).version_id == shipped.version_id  # same content
    draft = tmp_path / "v1" / "draft.txt"
    draft.write_text(draft.read_text().replace("Write the reply", "Write a reply"))
    (tmp_path / "edited").mkdir()
    shutil.copytree(tmp_path / "v1", tmp_path / "edited" / "v1")
    assert load_prompt_set("v1", tmp_path / "edited").version_id != shipped.version_id


def test_every_placeholder_must_be_filled():
    with pytest.raises(KeyError):
        load_prompt_set().render("draft", message="hi")
    with pytest.raises(ValueError, match="no prompt set"):
        load_prompt_set("v999")
