"""The writer is byte-stable and loses nothing the reader reads."""

from dataclasses import replace

from attunebench.reader import parse_conversation, read_conversation_file
from attunebench.writer import (
    conversation_to_dict,
    dumps_conversation,
    write_conversation_file,
)
from tests.factories import build_record
from tests.fixtures import REFERENCE_CONVERSATION


def test_same_data_in_another_dict_order_gives_same_bytes():
    record = build_record("stable")
    metadata = replace(record.metadata, other={"b": 1, "a": 2})
    shuffled_metadata = replace(record.metadata, other={"a": 2, "b": 1})
    pre = replace(record.pre_panas, items={"Nervous": 5, "Proud": 3})
    shuffled_pre = replace(record.pre_panas, items={"Proud": 3, "Nervous": 5})
    assert dumps_conversation(
        replace(record, metadata=metadata, pre_panas=pre)
    ) == dumps_conversation(replace(record, metadata=shuffled_metadata, pre_panas=shuffled_pre))


def test_panas_items_are_written_in_vocabulary_order_whatever_the_input_order():
    record = read_conversation_file(REFERENCE_CONVERSATION)
    text = dumps_conversation(record)
    assert (
        text.index('"Proud"')
        < text.index('"Interested"')
        < text.index('"Nervous"')
        < text.index('"Upset"')
    )


def test_reading_what_was_written_gives_the_same_record():
    record = read_conversation_file(REFERENCE_CONVERSATION)
    assert parse_conversation(conversation_to_dict(record)) == record


def test_writing_twice_through_the_reader_is_a_fixed_point():
    first = dumps_conversation(read_conversation_file(REFERENCE_CONVERSATION))
    second = dumps_conversation(
        parse_conversation(conversation_to_dict(read_conversation_file(REFERENCE_CONVERSATION)))
    )
    assert first == second


def test_file_name_and_atomic_write(tmp_path):
    path = write_conversation_file(build_record("abc"), tmp_path)
    assert path.name == "conversation_abc.json"
    assert [p.name for p in tmp_path.iterdir()] == [
        "conversation_abc.json"
    ]  # no temporary file left
    assert path.read_bytes().endswith(b"}\n")


def test_unicode_is_written_as_text():
    record = build_record("u", n_turns=1)
    text = dumps_conversation(replace(record, conversation_id="ü-1"))
    assert '"ü-1"' in text
