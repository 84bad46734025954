"""Import, export, import again gives identical records; the export is byte-stable."""

import shutil
from io import StringIO

import pytest
from django.core.management import call_command

from annotations.interchange.to_records import iter_records
from annotations.models import Conversation, Study
from attunebench.writer import write_conversation_file
from tests.factories import build_record
from tests.fixtures import REFERENCE_STYLE

pytestmark = pytest.mark.django_db


def records_of(slug: str):
    return list(iter_records(Conversation.objects.filter(study=Study.objects.get(slug=slug))))


def quiet(*args):
    call_command(*args, stdout=StringIO(), stderr=StringIO())


@pytest.fixture
def source(tmp_path):
    folder = tmp_path / "source"
    shutil.copytree(REFERENCE_STYLE, folder)
    for name in ("x1", "x2"):
        write_conversation_file(build_record(name, n_turns=3), folder)
    return folder


def test_import_export_import_gives_identical_records(source, tmp_path):
    quiet("import_attunebench", str(source), "--study", "first")
    quiet("export_attunebench", "--study", "first", "--out", str(tmp_path / "exported"))
    quiet("import_attunebench", str(tmp_path / "exported"), "--study", "second")
    first, second = records_of("first"), records_of("second")
    assert len(first) == 3
    assert sorted(first, key=lambda r: r.conversation_id) == sorted(
        second, key=lambda r: r.conversation_id
    )


def test_exporting_twice_gives_the_same_bytes(source, tmp_path):
    quiet("import_attunebench", str(source), "--study", "first")
    quiet("export_attunebench", "--study", "first", "--out", str(tmp_path / "one"))
    quiet("export_attunebench", "--study", "first", "--out", str(tmp_path / "two"))
    one = {p.name: p.read_bytes() for p in (tmp_path / "one").iterdir()}
    two = {p.name: p.read_bytes() for p in (tmp_path / "two").iterdir()}
    assert one == two and len(one) == 3


def test_database_records_equal_the_source_records(source):
    quiet("import_attunebench", str(source), "--study", "first")
    stored = {r.conversation_id: r for r in records_of("first")}
    assert stored["x1"] == build_record_like("x1", stored["x1"])


def build_record_like(conversation_id, stored):
    # The factory draws fresh participant ids; compare everything else field by field.
    expected = build_record(conversation_id, n_turns=3)
    return expected.__class__(
        **{**expected.__dict__, "participant_profile": stored.participant_profile}
    )


def test_unknown_study_is_a_clear_error(tmp_path):
    from django.core.management import CommandError

    with pytest.raises(CommandError, match="no study with slug 'nope'"):
        quiet("export_attunebench", "--study", "nope", "--out", str(tmp_path))
