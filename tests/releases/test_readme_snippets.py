"""The README's "Loading a release" snippets run, as written, on a built release.

Each snippet is taken from README.md and run as it is, with only its `release = "..."` line
pointed at the release this test run built. They run in this process (offline, see conftest.py):
a fresh interpreter per snippet spent 4-10 s importing the same libraries again."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RELEASE_LINE = re.compile(r'^release = "[^"]+"$', re.MULTILINE)
pytestmark = pytest.mark.django_db  # for the session's release build


def loading_snippets() -> dict[str, str]:
    """The python blocks of the README's "Loading a release" section, keyed by what they import."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("### Loading a release", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, flags=re.DOTALL)
    return {re.search(r"^(?:import|from) (\w+)", b, re.MULTILINE).group(1): b for b in blocks}


def test_the_section_has_a_snippet_for_each_tool():
    snippets = loading_snippets()
    assert sorted(snippets) == ["datasets", "mlcroissant", "pandas"]
    assert all(len(RELEASE_LINE.findall(code)) == 1 for code in snippets.values())


@pytest.mark.parametrize("tool", ["datasets", "pandas", "mlcroissant"])
def test_the_snippet_runs_on_a_built_release(tool, ecosystem_release, capsys):
    code = RELEASE_LINE.sub(
        f"release = {str(ecosystem_release.folder)!r}", loading_snippets()[tool]
    )
    exec(compile(code, f"README.md ({tool} snippet)", "exec"), {"__name__": "__main__"})
    printed = capsys.readouterr().out
    assert printed.strip()
    if tool == "datasets":
        assert printed.split()[0] == "int32" and printed.split()[-1] == "True"
    if tool == "pandas":
        assert "perceiving" in printed  # a behaviour category with its share of yes
        assert "demo-2" in printed  # conversations under the prompt the demo revised
        # A nullable integer column stays integer (plain pandas would give float64).
        assert "intensity Int32" in printed
        # The JSONL mirror read with dtype=False keeps ids as text.
        assert "conversation_id str" in printed or "conversation_id object" in printed
    if tool == "mlcroissant":
        assert "attunebench" in printed and "conversation_wide" in printed
