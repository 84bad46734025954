"""A release's subsample lists one file name per line, and a name may hold a space (the importer
accepts any conversationId): the benchmark reads the list line by line, never split on spaces."""

from pathlib import Path

from attunebench.records import Conversation, Turn
from attunebench.release import load_conversations
from attunebench.writer import conversation_filename, write_conversation_file

IDS = ("plain", "with a space", "tail")


def release_folder(root: Path) -> Path:
    for conversation_id in IDS:
        record = Conversation(conversation_id, turns=(Turn(1, "hello", "hi"),))
        write_conversation_file(record, root / "conversations")
    (root / "subsamples").mkdir()
    # As the release writer writes it, plus the blank lines and stray spaces a hand edit leaves.
    listed = [conversation_filename(cid) for cid in ("with a space", "plain")]
    (root / "subsamples" / "sample2.txt").write_text(
        f"{listed[0]}\n\n  {listed[1]}  \n", encoding="utf-8"
    )
    return root


def test_a_subsample_names_a_conversation_whose_id_holds_a_space(tmp_path):
    loaded = load_conversations(release_folder(tmp_path), "sample2")
    assert [c.conversation.conversation_id for c in loaded] == ["plain", "with a space"]
    assert [c.source_file for c in loaded] == [
        "conversation_plain.json",
        "conversation_with a space.json",
    ]
