"""croissant.json: Croissant 1.0 metadata of a release, as `mlcroissant` validates it (no warning).

Every file with its sha256, one record set per table with rows, with fields typed from the
table's Arrow schema (a new table gets its record set for free; a table's key and a column's
foreign key, such as ``conversations.model_config_id``, are declared too, the foreign key only
while the table it points at has rows), the standard JSON-LD ``@context``, a BibTeX ``citeAs`` and the
freeze date as ``datePublished``: nothing that changes when the same release is built again.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow as pa

from annotations.releases.cards import (
    ReleaseInfo,
    declared_tables,
    default_description,
    license_text,
    release_languages,
)
from annotations.releases.tables import Column, Table

CONFORMS_TO = "http://mlcommons.org/croissant/1.0"
# What a citation of any release names besides the release itself: the platform that built it.
PLATFORM_CITATION = (
    "Built with Attune, an open-source platform for studying and benchmarking the emotional "
    "intelligence of LLMs; conversation files in the AttuneBench format (arXiv:2605.21739)"
)


def croissant(info: ReleaseInfo, entries: list[dict[str, Any]]) -> dict[str, Any]:
    """Croissant 1.0 metadata (every file with its sha256) and the responsible-AI fields we know."""
    if not info.date_published:
        raise ValueError("a release's croissant.json needs its publication (freeze) date")
    distribution = []
    for entry in sorted(entries, key=lambda e: e["path"]):
        distribution.append(
            {
                "@type": "cr:FileObject",
                "@id": entry["path"],
                "name": entry["path"],
                "contentUrl": entry["path"],
                "contentSize": f"{entry['bytes']} B",
                "sha256": entry["sha256"],
                "encodingFormat": _encoding(Path(entry["path"])),
            }
        )
    # An empty table is no record set, and no field references it: mlcroissant's join into a
    # table with no row fails (its file stays in the distribution, as in the manifest).
    tables = declared_tables(info)
    declared = {table.name for table in tables}
    record_sets = [_record_set(table, declared) for table in tables]
    counts = info.counts
    languages = release_languages(info)
    return {
        "@context": CONTEXT,
        "@type": "sc:Dataset",
        "conformsTo": CONFORMS_TO,
        "name": info.name,
        "description": info.description or default_description(info),
        "version": info.version,
        "license": license_text(info),
        "datePublished": info.date_published,
        "citeAs": bibtex(info),
        "keywords": ["emotional intelligence", "LLM evaluation", "AttuneBench", "human annotation"],
        # The conversations' languages (BCP 47), as the card's `language:` lists them.
        "inLanguage": languages,
        "isLiveDataset": False,
        "distribution": distribution,
        "recordSet": record_sets,
        "rai:dataCollection": (
            "Participants recruited through study links consented, filled a profile and PANAS, chatted with an "
            "anonymized LLM and annotated each reply in the first person."
        ),
        "rai:dataCollectionType": ["Synthetic data"]
        if info.synthetic
        else ["Direct measurement", "Crowdsourced"],
        "rai:dataCollectionRawData": f"Instrument {info.instrument.name} v{info.instrument.version}",
        "rai:dataAnnotationProtocol": "Self-report by the participant on every turn; QA review by trained reviewers.",
        "rai:dataAnnotationPlatform": "Attune",
        "rai:dataPreprocessingProtocol": [f"{k}: {v}" for k, v in sorted(info.rules.items())],
        "rai:dataManipulationProtocol": "Participant answers are never overwritten; corrections are a separate layer.",
        "rai:personalSensitiveInformation": (
            "Free-text messages about emotions and optional self-reported diagnosis traits; participants are "
            "pseudonymous (salted), recruitment ids are removed."
        ),
        "rai:dataUseCases": [
            "Benchmarking emotional intelligence of LLMs",
            "Research on supportive conversations",
        ],
        "rai:dataLimitations": (
            f"{counts.get('conversations', 0)} conversations from {counts.get('participants', 0)} participants; "
            f"self-reports are subjective; {_languages_text(languages)}."
        ),
        "rai:dataBiases": "Participants are self-selected volunteers; topics are chosen by the participant.",
        "rai:dataReleaseMaintenancePlan": "Versioned releases; a change of data is a new MINOR or MAJOR version.",
    }


def _languages_text(languages: list[str]) -> str:
    if languages == ["en"]:
        return "English only"
    return "conversations in " + ", ".join(languages) + " (the `language` columns)"


def _record_set(table: Table, declared: set[str]) -> dict[str, Any]:
    return {
        "@type": "cr:RecordSet",
        "@id": table.name,
        "name": table.name,
        "description": table.description,
        **({"key": {"@id": f"{table.name}/{table.key}"}} if table.key else {}),
        "field": [_field(table, column, declared) for column in table.columns],
    }


def _field(table: Table, column: Column, declared: set[str]) -> dict[str, Any]:
    source = f"tables/{table.name}.parquet"
    referenced = column.references.split("/", 1)[0] if column.references else None
    return {
        "@type": "cr:Field",
        "@id": f"{table.name}/{column.name}",
        "name": column.name,
        "description": column.description,
        "dataType": data_type(column),
        **({"repeated": True} if pa.types.is_list(column.type) else {}),
        "source": {"fileObject": {"@id": source}, "extract": {"column": column.name}},
        **({"references": {"field": {"@id": column.references}}} if referenced in declared else {}),
    }


def bibtex(info: ReleaseInfo) -> str:
    """A BibTeX entry for the release: its name and version, the year it was frozen, the platform.
    Names are slugs and versions MAJOR.MINOR.PATCH, so nothing here needs BibTeX escaping."""
    year = info.date_published[:4]
    return (
        f"@misc{{{info.name}-{info.version},\n"
        f"  title = {{{info.name} {info.version}}},\n"
        f"  version = {{{info.version}}},\n"
        f"  year = {{{year}}},\n"
        f"  note = {{{PLATFORM_CITATION}}}\n"
        "}"
    )


def data_type(column: Column) -> str:
    """The schema.org type of a column (of its items, for a list column)."""
    value = column.type.value_type if pa.types.is_list(column.type) else column.type
    for matches, name in (
        (pa.types.is_boolean, "sc:Boolean"),
        (pa.types.is_integer, "sc:Integer"),
        (pa.types.is_floating, "sc:Float"),
        (pa.types.is_timestamp, "sc:DateTime"),
        (pa.types.is_date, "sc:Date"),
        (pa.types.is_string, "sc:Text"),
        (pa.types.is_large_string, "sc:Text"),
    ):
        if matches(value):
            return name
    raise ValueError(f"column {column.name}: no Croissant type for {column.type}")


def _encoding(path: Path) -> str:
    return {
        ".json": "application/json",
        ".jsonl": "application/jsonlines",
        ".parquet": "application/x-parquet",
        ".md": "text/markdown",
        ".txt": "text/plain",
    }.get(path.suffix, "application/octet-stream")


# The standard Croissant 1.0 JSON-LD @context (the one mlcroissant compares against).
CONTEXT = {
    "@language": "en",
    "@vocab": "https://schema.org/",
    "citeAs": "cr:citeAs",
    "column": "cr:column",
    "conformsTo": "dct:conformsTo",
    "cr": "http://mlcommons.org/croissant/",
    "rai": "http://mlcommons.org/croissant/RAI/",
    "data": {"@id": "cr:data", "@type": "@json"},
    "dataType": {"@id": "cr:dataType", "@type": "@vocab"},
    "dct": "http://purl.org/dc/terms/",
    "equivalentProperty": "cr:equivalentProperty",
    "examples": {"@id": "cr:examples", "@type": "@json"},
    "extract": "cr:extract",
    "field": "cr:field",
    "fileProperty": "cr:fileProperty",
    "fileObject": "cr:fileObject",
    "fileSet": "cr:fileSet",
    "format": "cr:format",
    "includes": "cr:includes",
    "isLiveDataset": "cr:isLiveDataset",
    "jsonPath": "cr:jsonPath",
    "key": "cr:key",
    "md5": "cr:md5",
    "parentField": "cr:parentField",
    "path": "cr:path",
    "recordSet": "cr:recordSet",
    "references": "cr:references",
    "regex": "cr:regex",
    "repeated": "cr:repeated",
    "replace": "cr:replace",
    "samplingRate": "cr:samplingRate",
    "sc": "https://schema.org/",
    "separator": "cr:separator",
    "source": "cr:source",
    "subField": "cr:subField",
    "transform": "cr:transform",
}
