"""``json_tree_problem`` names the first place with a NUL or nested too deeply, as ``a.b[2].c``
(the file reader and the participant API both report it): hand-worked paths."""

import pytest

from attunebench.json_tree import dotted_path, json_tree_problem

NUL_VALUE = "contains the NUL character (\\u0000), which is not allowed"
NUL_KEY = "a key contains the NUL character (\\u0000), which is not allowed"


@pytest.mark.parametrize(
    ("data", "max_depth", "expected"),
    [
        ({"a": {"b": [1, 2, {"c": "x\x00"}]}}, 5, ("a.b[2].c", NUL_VALUE)),
        ([["ok", "bad\x00"]], 5, ("[0][1]", NUL_VALUE)),
        ("\x00", 5, ("", NUL_VALUE)),
        ({"turns": [{"k\x00": 1}]}, 5, ("turns[0]", NUL_KEY)),
        ({"2": {"[x]": "\x00"}}, 5, ("2.[x]", NUL_VALUE)),
        ({"a": [[[1]]]}, 2, ("a[0][0]", "nested more than 2 levels deep")),
    ],
)
def test_the_problem_and_its_place(data, max_depth, expected):
    assert json_tree_problem(data, max_depth) == expected


def test_a_clean_document_has_no_problem():
    document = {"behaviour": {f"q{i}": {"observed": "yes"} for i in range(36)}, "tags": [1, "a"]}
    assert json_tree_problem(document, max_depth=3) is None


def test_dotted_path_spells_keys_and_indexes():
    assert dotted_path(["a", "b", 2, "c"]) == "a.b[2].c"
    assert dotted_path([0, "x"]) == "[0].x"
    assert dotted_path([]) == ""
