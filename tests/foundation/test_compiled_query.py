"""``CompiledQuery`` (attune_collect/compiled_query.py) refuses what it cannot run as the ORM
would, puts each call's values where the ORM would, and compiles once per thread."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction
from django.db.models import Q
from django.db.transaction import TransactionManagementError

from annotations.models import Participant, Turn
from attune_collect.compiled_query import CompiledQuery
from tests.factories import make_conversation, make_participant

pytestmark = pytest.mark.django_db


@pytest.fixture
def three(study):
    return [make_participant(study, prolific_pid=f"PID-{i}") for i in range(3)]


def test_values_land_where_the_orm_puts_them_beside_constants(three):
    # 1000 and 1001 are the stand-ins the compile uses: a constant equal to one stays as it is.
    query = CompiledQuery(
        lambda pid, low: Participant.objects.filter(
            Q(prolific_pid=pid) | Q(pk=low) | Q(pk__in=[1000, 1001], prolific_pid="never")
        ).order_by("pk")
    )
    first, second, third = three
    assert query.all("PID-1", first.pk) == [first, second]
    assert query.all("PID-2", third.pk) == [third]
    assert query.all("nobody", 0) == []


def test_a_value_used_twice_is_set_in_both_places(three):
    query = CompiledQuery(
        lambda pid: Participant.objects.filter(prolific_pid=pid).exclude(prolific_pid__gt=pid)
    )
    assert [p.prolific_pid for p in query.all("PID-0")] == ["PID-0"]


def test_a_value_the_lookup_changes_is_refused(study):
    query = CompiledQuery(lambda pid: Participant.objects.filter(prolific_pid__icontains=pid))
    with pytest.raises(ValueError, match="unchanged"):
        query.all("PID")


@pytest.mark.parametrize("value", [1.5, None, True, b"x"])
def test_only_ints_and_strs_are_values(study, value):
    query = CompiledQuery(lambda v: Participant.objects.filter(prolific_pid=v))
    with pytest.raises(TypeError, match="int and str"):
        query.all(value)


@pytest.mark.parametrize(
    "build",
    [
        lambda study: lambda pk: Participant.objects.filter(pk=pk).values("pk"),
        lambda study: lambda pk: Participant.objects.filter(pk=pk).prefetch_related("study"),
        lambda study: lambda pk: study.participants.filter(pk=pk),
    ],
    ids=["values", "prefetch", "related manager"],
)
def test_what_it_would_not_build_like_the_orm_is_refused(study, build):
    with pytest.raises(ValueError, match="compiled query"):
        CompiledQuery(build(study)).all(study.pk)


def test_the_number_of_values_is_checked(three):
    query = CompiledQuery(lambda pid: Participant.objects.filter(prolific_pid=pid))
    query.all("PID-0")
    with pytest.raises(TypeError, match="takes 1 values"):
        query.all("PID-0", "PID-1")


@pytest.mark.django_db(transaction=True)  # the other thread's connection sees the rows
def test_each_thread_compiles_its_own_and_gets_the_same_rows(three):
    query = CompiledQuery(lambda pid: Participant.objects.filter(prolific_pid=pid))
    mine = query.all("PID-2")
    theirs: list = []

    def read() -> None:
        try:
            theirs.extend(query.all("PID-2"))
        finally:
            connection.close()

    thread = threading.Thread(target=read)
    thread.start()
    thread.join(timeout=30)
    assert mine == three[2:] and theirs == three[2:]
    assert theirs[0] is not mine[0]


def test_small_integer_columns_take_the_drivers_wrapping(study):
    # A turn's number is a small integer: psycopg gets it wrapped (Int2/Int4), on every call.
    query = CompiledQuery(lambda number: Turn.objects.filter(number=number))
    assert query.all(1) == [] and query.all(32767) == []


@pytest.mark.django_db(transaction=True)  # outside the test's transaction, as in autocommit
def test_a_locking_read_needs_a_transaction_as_with_the_orm(three):
    query = CompiledQuery(
        lambda pid: Participant.objects.select_for_update().filter(prolific_pid=pid)
    )
    if not connection.features.has_select_for_update:  # SQLite: no lock, nothing to refuse
        assert query.all("PID-0") == three[:1]
        return
    with pytest.raises(TransactionManagementError):
        list(Participant.objects.select_for_update().filter(prolific_pid="PID-0"))
    with pytest.raises(TransactionManagementError):
        query.all("PID-0")
    with transaction.atomic():
        assert query.all("PID-0") == three[:1]


@pytest.mark.parametrize(
    "number", [0, 32767, 32768, -1, -32769, 2**31 - 1, 2**31, 2**63, -(2**63) - 1]
)
def test_an_int_outside_its_columns_range_reads_as_the_orm_reads_it(study, number):
    # A turn's number is a small positive integer: Django builds no SQL for the branch of a
    # number outside that range, and the compiled SQL would send it to the database as it is.
    turn = Turn.objects.create(conversation=make_conversation(study), number=105)
    query = CompiledQuery(lambda n: Turn.objects.filter(Q(number=n) | Q(pk=turn.pk)).order_by("pk"))
    assert query.all(999) == [turn]  # compiled for small numbers (no turn 999)
    assert query.all(number) == list(Turn.objects.filter(Q(number=number) | Q(pk=turn.pk)))


@pytest.mark.parametrize("pk", [2**31, 2**40, 2**63 - 1])
def test_a_large_id_runs_the_compiled_sql(three, pk):
    query = CompiledQuery(lambda key: Participant.objects.filter(pk=key))
    assert query.all(three[0].pk) == three[:1]
    assert query.all(pk) == []
    size = 32 if pk < 2**31 else 64
    assert query._local.compiled.holds_for == {(0, (False, size)): True}  # no ORM fallback
