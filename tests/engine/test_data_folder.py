"""Data folders: our releases (conversations/ + subsamples/) and reference folders (the files
directly); subsamples by name or size (a path only for a reference folder); unreadable files are errors naming the file."""

import pytest

from attunebench.release import DataFolderError, load_conversations


def test_release_folder_and_its_subsamples(release_dir):
    everything = load_conversations(release_dir)
    assert len(everything) == 3
    assert [c.source_file for c in everything] == sorted(c.source_file for c in everything)
    for name in ("sample2", "2", "sample2.txt"):
        assert [c.source_file for c in load_conversations(release_dir, name)] == [
            c.source_file for c in everything[:2]
        ]
    # A release's subsample is named, never a path, even to its own file.
    with pytest.raises(DataFolderError, match="not a path"):
        load_conversations(release_dir, str(release_dir / "subsamples" / "sample2.txt"))


def test_reference_folder_holds_the_files_directly(release_dir):
    reference = release_dir / "conversations"
    assert len(load_conversations(reference)) == 3
    listing = str(release_dir / "subsamples" / "sample2.txt")  # a sibling file of file names
    assert len(load_conversations(reference, listing)) == 2


def test_problems_are_named(release_dir, tmp_path):
    with pytest.raises(DataFolderError, match="no subsample 'sample7'"):
        load_conversations(release_dir, "sample7")
    broken = release_dir / "conversations" / "conversation_broken.json"
    broken.write_text("{")
    with pytest.raises(DataFolderError, match="conversation_broken.json"):
        load_conversations(release_dir)
    with pytest.raises(DataFolderError, match="no data folder"):
        load_conversations(tmp_path / "missing")
