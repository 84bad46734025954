"""The YAML front matter of a release's dataset card (README.md), as the Hugging Face Hub reads it.

Written by ``yaml.safe_dump`` from a dict, never by string formatting: a license name or title
with a colon, a quote or non-ASCII text stays a valid string. Every table with rows is a config
(its Parquet file) with its features declared, derived from the table's Arrow schema so a new
table gets them for free; a table with no row in the release is no config (`datasets` refuses to
load an empty split). Every config carries the same ``description``, naming the release and a
fingerprint of its data: `datasets` caches a local folder under its base name (the version,
``1.0.0``, for every release) and a hash of the card's builder configs, so without it a second
release of the same version would load the first one's cached rows. The same features load the
JSONL mirror with the same types (left to infer, JSON gives int64 for int32 columns and turns
ISO timestamps kept as text into timestamps). The mirrors are not configs of their own:
``datasets`` reads every config of a folder with one builder, chosen by the most common file
type.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pyarrow as pa
import yaml

from annotations.releases.licenses import OTHER, check_license
from annotations.releases.tables import TABLES, Table

# What `load_dataset(folder)` gives: the messages, the replies and their alternates.
DEFAULT_CONFIG = "turns"

# Arrow type names whose `datasets` dtype is spelled differently; the others are the same.
_DTYPES = {"float": "float32", "double": "float64", "halffloat": "float16"}


def dtype(data_type: pa.DataType) -> str:
    """The `datasets` Value dtype of a scalar Arrow type."""
    if pa.types.is_nested(data_type):
        raise ValueError(f"{data_type} is not a scalar type")
    name = str(data_type)
    return _DTYPES.get(name, name)


def features(table: Table) -> list[dict[str, str]]:
    """The table's columns as a card's ``dataset_info.features`` list."""
    declared = []
    for column in table.columns:
        if pa.types.is_list(column.type):
            declared.append({"name": column.name, "list": dtype(column.type.value_type)})
        else:
            declared.append({"name": column.name, "dtype": dtype(column.type)})
    return declared


def front_matter(
    *,
    license: str,
    license_name: str,
    pretty_name: str,
    size_category: str,
    creators: str,
    tables: Sequence[Table] = TABLES,
    config_description: str,
    languages: Sequence[str] = ("en",),
) -> dict[str, Any]:
    """The card's metadata; ``tables`` are those with rows (each a config),
    ``config_description`` names the release and its data (see the module's docstring), and
    ``languages`` are the BCP 47 tags of the conversations' languages."""
    identifier, name = check_license(license, license_name)
    metadata: dict[str, Any] = {"license": identifier}
    if identifier == OTHER:
        metadata["license_name"] = name
    metadata.update(
        {
            "language": sorted(languages),
            "pretty_name": pretty_name,
            "size_categories": [size_category],
            "annotations_creators": [creators],
            "language_creators": sorted({creators, "machine-generated"}),
            "task_categories": ["text-classification", "text-generation"],
            "tags": ["emotional-intelligence", "llm-evaluation", "attunebench"],
            "configs": _configs(tables, config_description),
            "dataset_info": [
                {"config_name": table.name, "features": features(table)} for table in tables
            ],
        }
    )
    return metadata


def _configs(tables: Sequence[Table], description: str) -> list[dict[str, Any]]:
    configs = []
    for table in tables:
        config: dict[str, Any] = {
            "config_name": table.name,
            "data_files": f"tables/{table.name}.parquet",
            # A BuilderConfig field, so part of the hash `datasets` keys its cache by.
            "description": description,
        }
        if table.name == DEFAULT_CONFIG:
            config["default"] = True
        configs.append(config)
    return configs


def render(metadata: dict[str, Any]) -> str:
    """The ``---`` fenced YAML block, keys in the order given (stable bytes across builds)."""
    text = yaml.safe_dump(metadata, sort_keys=False, allow_unicode=True, width=100)
    return f"---\n{text}---\n"
