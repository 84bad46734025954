"""presidio and spaCy load at the pattern detector's first scan, not when a process imports it:
every web and worker process imports the detector through the release and QA services (about
1.5 s and 55 MB of a process's start; docs/benchmarks.md, "Test suite time")."""

from __future__ import annotations

import subprocess
import sys

PROBE = """
import sys
from annotations.qa.personal_details import patterns
before = sorted(m for m in ("presidio_analyzer", "spacy") if m in sys.modules)
found = patterns.detect("write to ada@example.org")
after = sorted(m for m in ("presidio_analyzer", "spacy") if m in sys.modules)
print(before, after, [d.kind.value for d in found])
"""


def test_the_detector_imports_without_presidio_and_loads_it_to_scan():
    printed = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=120, check=True
    ).stdout.strip()
    assert printed == "[] ['presidio_analyzer', 'spacy'] ['email']", printed
