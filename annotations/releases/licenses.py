"""The license of a release, as the Hugging Face Hub knows licenses.

A dataset card's ``license`` must be one of the Hub's license identifiers, or ``other`` with the
license's own name in ``license_name``. Anything else is refused with the closest identifiers,
so a typo never reaches a published card. Pure (no Django): the model validators and the
command use the same check.
"""

from __future__ import annotations

import difflib
import re

# The identifiers of the Hub's documentation page "Licenses" (repositories-licenses), in its order.
HUB_LICENSES: tuple[str, ...] = (
    "apache-2.0",
    "mit",
    "openrail",
    "bigscience-openrail-m",
    "creativeml-openrail-m",
    "bigscience-bloom-rail-1.0",
    "bigcode-openrail-m",
    "afl-3.0",
    "artistic-2.0",
    "bsl-1.0",
    "bsd",
    "bsd-2-clause",
    "bsd-3-clause",
    "bsd-3-clause-clear",
    "c-uda",
    "cc",
    "cc0-1.0",
    "cc-by-2.0",
    "cc-by-2.5",
    "cc-by-3.0",
    "cc-by-4.0",
    "cc-by-sa-3.0",
    "cc-by-sa-4.0",
    "cc-by-nc-2.0",
    "cc-by-nc-3.0",
    "cc-by-nc-4.0",
    "cc-by-nd-4.0",
    "cc-by-nc-nd-3.0",
    "cc-by-nc-nd-4.0",
    "cc-by-nc-sa-2.0",
    "cc-by-nc-sa-3.0",
    "cc-by-nc-sa-4.0",
    "cdla-sharing-1.0",
    "cdla-permissive-1.0",
    "cdla-permissive-2.0",
    "wtfpl",
    "ecl-2.0",
    "epl-1.0",
    "epl-2.0",
    "etalab-2.0",
    "eupl-1.1",
    "agpl-3.0",
    "gfdl",
    "gpl",
    "gpl-2.0",
    "gpl-3.0",
    "lgpl",
    "lgpl-2.1",
    "lgpl-3.0",
    "isc",
    "lppl-1.3c",
    "ms-pl",
    "mpl-2.0",
    "odc-by",
    "odbl",
    "openrail++",
    "osl-3.0",
    "postgresql",
    "ofl-1.1",
    "ncsa",
    "unlicense",
    "zlib",
    "pddl",
    "lgpl-lr",
    "deepfloyd-if-license",
    "llama2",
    "gemma",
    "unknown",
    "other",
)
OTHER = "other"
_KNOWN = frozenset(HUB_LICENSES)


class LicenseError(ValueError):
    """A license the Hub would not accept; the message names the closest identifiers."""


def hub_license(value: str) -> str:
    """The Hub identifier for ``value`` (case and spaces forgiven: ``CC BY 4.0`` -> ``cc-by-4.0``)."""
    text = value.strip()
    candidate = re.sub(r"\s+", "-", text.lower())
    if candidate in _KNOWN:
        return candidate
    closest = difflib.get_close_matches(candidate, HUB_LICENSES, n=3, cutoff=0.0)
    raise LicenseError(
        f"license {text!r} is not one of the Hugging Face Hub's license identifiers; the closest are "
        f"{', '.join(closest)}. For a license of your own use {OTHER!r} and give its name as the "
        "license name."
    )


def check_license(license: str, license_name: str) -> tuple[str, str]:
    """(identifier, name) as the card writes them: a name only, and always, with ``other``."""
    identifier = hub_license(license)
    name = license_name.strip()
    if identifier == OTHER and not name:
        raise LicenseError(f"license {OTHER!r} needs a license name (what the license is called)")
    if identifier != OTHER and name:
        raise LicenseError(
            f"a license name is only for license {OTHER!r}; {identifier!r} is named by the Hub"
        )
    return identifier, name
