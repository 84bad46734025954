"""A release of a study taken in two languages (English and Spanish): a `language` column on
conversations and participants that `datasets` loads, every language in the card's
`language:` and Croissant's `inLanguage` (which `mlcroissant` validates), the instrument's
version per language in MANIFEST.json, and a release that still verifies. A release written
before the column read through ``read_table`` is English."""

import json
import logging
from collections import Counter

import datasets
import huggingface_hub as hub
import mlcroissant as mlc
import pyarrow.parquet as pq
import pytest

from annotations.releases.manifest import verify_folder
from annotations.releases.tables import read_table
from attunebench.language import conversation_language
from attunebench.release import load_conversations

pytestmark = pytest.mark.django_db  # for the session's release builds


def load(folder, config: str, cache) -> datasets.Dataset:
    return datasets.load_dataset(str(folder), config, cache_dir=str(cache))["train"]


def text(value: bytes | str) -> str:
    # mlcroissant yields the Parquet strings as bytes.
    return value.decode() if isinstance(value, bytes) else value


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    return tmp_path_factory.mktemp("datasets-cache")


def test_datasets_loads_the_language_of_conversations_and_participants(two_language_release, cache):
    folder = two_language_release.folder
    conversations = load(folder, "conversations", cache)
    assert conversations.features["language"].dtype == "string"
    assert Counter(conversations["language"]) == two_language_release.languages
    assert set(two_language_release.languages) == {"en", "es"}  # both, as the study was taken

    participants = load(folder, "participants", cache)
    assert participants.features["language"].dtype == "string"
    assert set(participants["language"]) == {"en", "es"}
    # A participant's language is that of each of their conversations.
    by_participant = dict(zip(participants["participant"], participants["language"], strict=True))
    assert all(
        by_participant[who] == language
        for who, language in zip(
            conversations["participant"], conversations["language"], strict=True
        )
    )


def test_the_conversation_files_carry_the_language_the_tables_show(two_language_release):
    folder = two_language_release.folder
    in_files = {
        sourced.conversation.conversation_id: conversation_language(sourced.conversation)
        for sourced in load_conversations(folder)
    }
    table = pq.read_table(folder / "tables" / "conversations.parquet").to_pylist()
    assert in_files == {row["conversation_id"]: row["language"] for row in table}
    first = next(iter(sorted((folder / "conversations").iterdir())))
    assert json.loads(first.read_text())["metadata"]["language"] in ("en", "es")


def test_the_card_lists_every_language(two_language_release, ecosystem_release):
    card = hub.DatasetCard.load(two_language_release.folder / "README.md")
    assert card.data.language == ["en", "es"]
    counts = ", ".join(f"{k} {v}" for k, v in sorted(two_language_release.languages.items()))
    assert f"- conversations by language: {counts}" in card.text
    assert "  - in `es`: sha256 " in card.text and "a translation of the base" in card.text
    # A release of an English-only study (its participants from before languages) says so.
    english = hub.DatasetCard.load(ecosystem_release.folder / "README.md")
    assert english.data.language == ["en"] and "in `en`" not in english.text


def test_croissant_validates_and_lists_every_language(two_language_release, caplog):
    path = two_language_release.folder / "croissant.json"
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        dataset = mlc.Dataset(jsonld=path)
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert warnings + sorted(dataset.metadata.ctx.issues.warnings) == []
    assert not dataset.metadata.ctx.issues.errors
    assert dataset.metadata.in_language == ["en", "es"]
    assert json.loads(path.read_text())["inLanguage"] == ["en", "es"]
    languages = Counter(
        text(record["conversations/language"]) for record in dataset.records("conversations")
    )
    assert languages == two_language_release.languages
    assert {
        text(record["participants/language"]) for record in dataset.records("participants")
    } == {"en", "es"}


def test_the_manifest_names_the_instrument_version_of_each_language(two_language_release):
    folder = two_language_release.folder
    manifest = json.loads((folder / "MANIFEST.json").read_text())
    expected = two_language_release.instrument_sha256
    assert expected["en"] != expected["es"]
    instrument = manifest["instrument"]
    assert instrument["sha256"] == expected["en"]
    assert instrument["languages"] == {
        "en": {"sha256": expected["en"], "translation_of": None},
        "es": {
            "sha256": expected["es"],
            "translation_of": two_language_release.translation_of,
            "stale": False,
        },
    }
    # Additive: the manifest's files still verify as before.
    result = verify_folder(folder)
    assert result.ok and result.files_checked == len(manifest["files"])


def test_a_release_from_before_languages_reads_as_english(two_language_release, tmp_path):
    # An older release: the same tables without the language column.
    old = tmp_path / "old"
    (old / "tables").mkdir(parents=True)
    for name in ("conversations", "participants"):
        source = pq.read_table(two_language_release.folder / "tables" / f"{name}.parquet")
        pq.write_table(source.drop_columns(["language"]), old / "tables" / f"{name}.parquet")
        read = read_table(old, name)
        assert read.column_names[-1] == "language" and read.num_rows == source.num_rows > 0
        assert set(read.column("language").to_pylist()) == {"en"}
        assert read.drop_columns(["language"]).equals(source.drop_columns(["language"]))
        # A release with the column reads as written.
        current = read_table(two_language_release.folder, name)
        assert current.equals(source)
