"""Prompts are versioned files; the version id (folder name + content hash) changes with any
edit and is stored with every result."""

import shutil

import pytest

from attunebench.prompts import DEFAULT_PROMPT_SET, PROMPTS_DIR, load_prompt_set


def test_the_id_names_the_set_and_hashes_its_files(tmp_path):
    shipped = load_prompt_set()
    # v2 added the conversation's language to every request: the default set since then.
    assert DEFAULT_PROMPT_SET == "v2"
    assert shipped.version_id.startswith("v2-") and len(shipped.version_id) == 15
    shutil.copytree(PROMPTS_DIR / "v2", tmp_path / "v2")
    assert load_prompt_set("v2", tmp_path).version_id == shipped.version_id  # same content
    draft = tmp_path / "v2" / "draft.txt"
    draft.write_text(draft.read_text().replace("Write the reply", "Write a reply"))
    (tmp_path / "edited").mkdir()
    shutil.copytree(tmp_path / "v2", tmp_path / "edited" / "v2")
    assert load_prompt_set("v2", tmp_path / "edited").version_id != shipped.version_id


def test_the_earlier_set_stays_as_it_was():
    # Runs made with v1 stay reproducible: its files are untouched and it has no language piece.
    v1 = load_prompt_set("v1")
    assert v1.version_id == "v1-7abfb9cdadc2"  # the id every result of a v1 run records
    assert v1.version_id != load_prompt_set().version_id
    assert "language" not in v1.templates and v1.language_note("es") == ""


def test_every_placeholder_must_be_filled():
    with pytest.raises(KeyError):
        load_prompt_set().render("draft", message="hi")
    with pytest.raises(ValueError, match="no prompt set"):
        load_prompt_set("v999")
