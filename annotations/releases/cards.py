"""The documents of a release: dataset card + datasheet (README.md), codebook.md, croissant.json.

All generated from platform records and the table schemas, never by hand, and never with a
build time in them: two builds of the same data give the same bytes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import pyarrow as pa

from annotations.releases.card_metadata import front_matter, render
from annotations.releases.configurations import ConfigSnapshot, ConfigUsage, config_row
from annotations.releases.licenses import hub_license
from annotations.releases.tables import TABLES, Table
from attunebench.instrument import Instrument


@dataclass(frozen=True)
class StudyInfo:
    slug: str
    title: str
    consent_version: str
    recruitment: dict[str, int]  # participants started / consented / completed / withdrawn ...
    model_pool: list[str]


@dataclass(frozen=True)
class Translation:
    """A translation of the release's instrument, as it stands when the release is built."""

    sha256: str  # the translated instrument's content hash (what participants in it saw)
    translation_of: str  # the base version's content hash the translation was written from


@dataclass(frozen=True)
class ReleaseInfo:
    """What the documents say about a release; every value comes from the platform's records."""

    name: str
    version: str
    description: str
    license: str
    instrument: Instrument
    studies: list[StudyInfo]
    rules: dict[str, Any]
    counts: dict[str, Any] = field(default_factory=dict)
    exclusions_by_reason: dict[str, int] = field(default_factory=dict)
    qa_agreement: dict[str, Any] = field(default_factory=dict)
    synthetic: bool = False
    license_name: str = ""  # the license's own name, with license "other"
    date_published: str = ""  # ISO date the release was frozen (a rebuild keeps it)
    # The configurations the conversations ran under (the writer keeps the used ones, in order
    # of first use) and how many released conversations ran under each.
    model_configs: tuple[ConfigSnapshot, ...] = ()
    config_usage: dict[str, ConfigUsage] = field(default_factory=dict)
    # A fingerprint of the data (see ``folder.data_fingerprint``): the card's configs name it,
    # so two releases of the same version never share a `datasets` cache entry.
    data_sha256: str = ""
    # How personal details were redacted: mode, detectors and their versions, spans per kind.
    personal_details: dict[str, Any] = field(default_factory=dict)
    # The instrument's translations by language (the base language has none: it is the base).
    translations: dict[str, Translation] = field(default_factory=dict)
    # Conversations per language (BCP 47 primary tag), counted by the writer.
    languages: dict[str, int] = field(default_factory=dict)


def release_languages(info: ReleaseInfo) -> list[str]:
    """Every language of the release's conversations, sorted; English for a release whose
    languages are not counted (nothing written yet), as every release before languages."""
    return sorted(info.languages) or ["en"]


def instrument_versions(info: ReleaseInfo) -> dict[str, Any]:
    """The instrument of the release and its version in each language of the conversations:
    the translation's content hash where the instrument has one in that language, else the
    base's (the participants saw the base: ``languages.instrument_for``). For MANIFEST.json."""
    instrument = info.instrument
    base = instrument.canonical_hash()
    languages: dict[str, dict[str, Any]] = {}
    for language in release_languages(info):
        translation = info.translations.get(language)
        if translation is None:
            languages[language] = {"sha256": base, "translation_of": None}
        else:
            languages[language] = {
                "sha256": translation.sha256,
                "translation_of": translation.translation_of,
                # Written from an older base: its texts may not match the items any more.
                "stale": translation.translation_of != base,
            }
    return {
        "name": instrument.name,
        "version": instrument.version,
        "sha256": base,
        "languages": languages,
    }


def declared_tables(info: ReleaseInfo) -> tuple[Table, ...]:
    """The tables the card and croissant.json declare: those with at least one row. An empty
    table keeps its files, but a config or record set of it breaks the tools (`datasets`: "no
    data" for the split; `mlcroissant`: a reference into it fails). Row counts unknown: all."""
    rows = info.counts.get("table_rows")
    if rows is None:
        return TABLES
    return tuple(table for table in TABLES if rows.get(table.name, 0) > 0)


def empty_tables(info: ReleaseInfo) -> list[str]:
    declared = {table.name for table in declared_tables(info)}
    return [table.name for table in TABLES if table.name not in declared]


def config_description(info: ReleaseInfo) -> str:
    """What every config of the card says: the release and the fingerprint of its data."""
    text = f"{info.name} {info.version}"
    return f"{text}, data sha256:{info.data_sha256}" if info.data_sha256 else text


def _size_category(n: int) -> str:
    for limit, label in (
        (1_000, "n<1K"),
        (10_000, "1K<n<10K"),
        (100_000, "10K<n<100K"),
        (1_000_000, "100K<n<1M"),
    ):
        if n < limit:
            return label
    return "n>1M"


def dataset_card(info: ReleaseInfo) -> str:
    """README.md: Hugging Face YAML front matter, then the datasheet."""
    metadata = front_matter(
        license=info.license,
        license_name=info.license_name,
        pretty_name=f"{info.name} {info.version}",
        size_category=_size_category(int(info.counts.get("conversations", 0))),
        creators="machine-generated" if info.synthetic else "crowdsourced",
        tables=declared_tables(info),
        config_description=config_description(info),
        languages=release_languages(info),
    )
    lines = [
        render(metadata),
        f"# {info.name} {info.version}",
        "",
        info.description or default_description(info),
        "",
    ]
    lines += _datasheet(info)
    return "\n".join(lines) + "\n"


def default_description(info: ReleaseInfo) -> str:
    text = (
        "Conversations between study participants and anonymized LLMs, annotated turn by turn in the "
        "first person: the participant's own emotion, what the model did and should have done, an edited "
        "reply, and A/B preferences. The conversation files follow the AttuneBench format."
    )
    if info.synthetic:
        text += " **This release contains synthetic demo data generated by the platform, not real participants.**"
    return text


def _datasheet(info: ReleaseInfo) -> list[str]:
    counts = info.counts
    instrument = info.instrument
    lines = ["## Datasheet", "", "### Composition", ""]
    lines += [
        f"- {key.replace('_', ' ')}: {value}"
        for key, value in sorted(counts.items())
        if not isinstance(value, dict)
    ]
    if info.languages:
        by_language = ", ".join(f"{lang} {n}" for lang, n in sorted(info.languages.items()))
        lines.append(f"- conversations by language: {by_language}")
    lines += [
        "",
        "Files: `conversations/conversation_<id>.json` (AttuneBench format), `tables/*.parquet` with a",
        "`tables/*.jsonl` mirror (see `codebook.md`), fixed-seed subsamples in `subsamples/`, `croissant.json`",
        "and `MANIFEST.json` (size and sha256 of every file).",
        "",
    ]
    for name in empty_tables(info):
        lines += [
            f"`{name}` is empty in this release: its files are kept, but it is no config of this"
            " card and no record set of `croissant.json`.",
            "",
        ]
    lines += ["### Collection process", ""]
    lines.append(
        f"- Instrument: {instrument.name} version {instrument.version} (sha256 {instrument.canonical_hash()[:16]})"
    )
    lines += _instrument_languages(info)
    for study in info.studies:
        recruitment = ", ".join(f"{k} {v}" for k, v in sorted(study.recruitment.items()))
        lines.append(
            f"- Study `{study.slug}` ({study.title}): consent version {study.consent_version}; {recruitment}"
        )
        lines.append(f"  - model pool: {', '.join(study.model_pool) or 'none recorded'}")
    lines += _configurations(info)
    lines += ["", "### Inclusion rules and exclusions", ""]
    lines += [f"- {key.replace('_', ' ')}: {value}" for key, value in sorted(info.rules.items())]
    excluded = info.exclusions_by_reason
    if excluded:
        lines += [f"- excluded ({reason}): {n}" for reason, n in sorted(excluded.items())]
    else:
        lines.append("- excluded by QA: none")
    left_out = counts.get("left_out", {})
    lines += [
        f"- left out ({reason.replace('_', ' ')}): {n}" for reason, n in sorted(left_out.items())
    ]
    lines += ["", "### Quality assurance", ""]
    if info.qa_agreement:
        lines += [
            f"- {key.replace('_', ' ')}: {_fmt(value)}"
            for key, value in sorted(info.qa_agreement.items())
        ]
    else:
        lines.append("- No double-reviewed conversations: no agreement figures.")
    lines += [
        "",
        "### Privacy",
        "",
        "Participants appear only under a salted pseudonym that is stable across releases. Recruitment",
        "ids, session tokens, IP addresses and model keys are never exported. Withdrawn participants,",
        "excluded conversations and researchers' preview sessions are left out and counted above.",
        *_personal_details(info),
        "",
        "### Uses",
        "",
        "Benchmarking the emotional intelligence of LLMs (AttuneBench) and studying how people",
        "experience emotionally supportive conversations. Not for identifying individuals.",
        "",
        f"### Distribution\n\nLicense: {license_text(info)}.",
    ]
    return lines


def _instrument_languages(info: ReleaseInfo) -> list[str]:
    """The instrument's version in each language of the release (MANIFEST.json has the full
    hashes): a participant answered the translation of their language, else the base."""
    versions = instrument_versions(info)["languages"]
    if list(versions) == ["en"] and versions["en"]["translation_of"] is None:
        return []  # English only, the base: what every release before languages said
    lines = []
    for language, version in versions.items():
        if version["translation_of"] is None:
            how = "the base version"
        else:
            how = f"a translation of the base sha256 {version['translation_of'][:16]}"
            how += " (stale: written from an earlier base)" if version["stale"] else ""
        lines.append(f"  - in `{language}`: sha256 {version['sha256'][:16]}, {how}")
    return lines


def _personal_details(info: ReleaseInfo) -> list[str]:
    """How the texts were redacted, and how a participant asks for removal."""
    details = info.personal_details
    if not details:
        return []
    detectors = ", ".join(f"{k} {v}" for k, v in sorted(details.get("detectors", {}).items()))
    spans = details.get("redacted_spans") or {}
    counted = ", ".join(f"{kind} {n}" for kind, n in sorted(spans.items())) or "none"
    mode = details.get("redaction", "")
    how = (
        "every finding was reviewed by QA"
        if mode == "reviewed"
        else "every finding above the detectors' threshold was redacted without review"
    )
    return [
        "",
        "Personal details (e-mail addresses, phone numbers, URLs, handles, street addresses and",
        "postcodes, dates, ID-like numbers, and names QA marked) are replaced in every text by",
        "placeholders such as `[NAME_1]`, numbered within a conversation so one person or detail",
        f"keeps one placeholder across turns and edited replies. Redaction: {mode} ({how}).",
        f"Detectors: {detectors}. Redacted spans by kind: {counted}.",
        "",
        "**Removal.** A participant may ask for their conversations to be removed at any time,",
        "through the study's contact in their consent form (quoting their participant code).",
        "Removed conversations are listed by id and date in `retractions.json` of the next",
        "release (a new major version); holders of an earlier release should delete them",
        "(`verify_release OLD --against NEW` names them).",
    ]


def _configurations(info: ReleaseInfo) -> list[str]:
    """The model configurations, each with its conversations: what a reviewer needs to tell
    which prompt and parameters a conversation ran under (the model_configs table)."""
    lines = ["", "### Model configurations", ""]
    if not info.model_configs:
        return lines + ["No conversation of this release recorded a configuration (imported data)."]
    lines += [
        "Each conversation recorded, when it opened, the exact configuration it ran under",
        "(`conversations.model_config_id` -> `tables/model_configs.parquet`). A system prompt's",
        "text is released only where the study allows it; otherwise only its sha256.",
        "",
        "| configuration | model | parameters | system prompt | improver | consent | app build "
        "| conversations | first | last |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for snapshot in info.model_configs:
        row = config_row(snapshot)
        usage = info.config_usage.get(snapshot.config_id, ConfigUsage())
        prompt = f"{row['system_prompt_version'] or '-'}, sha256 {row['system_prompt_sha256'][:12]}"
        prompt += ", text released" if row["system_prompt"] is not None else ", hash only"
        model = row["model"] or "-"
        if row["api_base_host"]:
            model += f" @ {row['api_base_host']}"
        cells = [
            f"`{snapshot.config_id[:12]}`",
            model,
            f"`{row['params']}`",
            prompt,
            row["improver_model"] or "none",
            row["consent_version"] or "-",
            row["app_build"] or "-",
            str(usage.conversations),
            usage.first or "-",
            usage.last or "-",
        ]
        lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    return lines


def license_text(info: ReleaseInfo) -> str:
    """The license as people read it: the Hub identifier, or the custom license's name."""
    return info.license_name.strip() or hub_license(info.license)


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.3f}"
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_fmt(v)}" for k, v in sorted(value.items()))
    return str(value)


def codebook(info: ReleaseInfo) -> str:
    """codebook.md: every table column and every instrument item, with its wording."""
    instrument = info.instrument
    lines = [
        f"# Codebook: {info.name} {info.version}",
        "",
        f"Instrument: {instrument.name} v{instrument.version}.",
        "",
    ]
    lines += ["## Tables", ""]
    empty = set(empty_tables(info))
    for table in TABLES:
        lines += [f"### {table.name}", "", table.description, ""]
        if table.name in empty:
            lines += [
                "Empty in this release (no row): declared neither as a config of README.md "
                "nor as a record set of croissant.json.",
                "",
            ]
        lines += [
            "| column | type | meaning |",
            "| --- | --- | --- |",
        ]
        lines += [f"| `{c.name}` | {_type_name(c.type)} | {c.description} |" for c in table.columns]
        lines.append("")
    lines += [
        "## PANAS items (emotion vocabulary)",
        "",
        "| item | polarity | valence | arousal | meaning |",
        "| --- | --- | --- | --- | --- |",
    ]
    lines += [
        f"| {p.id} | {p.polarity} | {p.valence} | {p.arousal} | {p.description} |"
        for p in instrument.panas_items
    ]
    lines += [
        "",
        f"Intensity scale {instrument.intensity_scale.min}..{instrument.intensity_scale.max}.",
        "",
    ]
    lines += [
        "## Behaviour questions",
        "",
        "| id | category | asked of the participant | asked of a model |",
        "| --- | --- | --- | --- |",
    ]
    lines += [
        f"| {q.id} | {q.category} | {q.participant_wording} | {q.model_wording} |"
        for q in instrument.behaviour_questions
    ]
    lines += ["", "## Pairwise questions", "", "| id | asked of the participant |", "| --- | --- |"]
    lines += [f"| {q.id} | {q.participant_wording} |" for q in instrument.pairwise_questions]
    for title, question in (
        ("Q1 looking for", instrument.q1_looking_for),
        ("Q2 emotion clarity", instrument.q2_emotion_clarity),
        ("Q3 model fit", instrument.q3_model_fit),
    ):
        lines += ["", f"## {title}", ""] + [f"- `{o.id}`: {o.label}" for o in question.options]
    lines += ["", "## Four branches (1..7)", ""] + [
        f"- `{b.id}`: {b.participant_wording}" for b in instrument.four_branches
    ]
    return "\n".join(lines) + "\n"


def _type_name(data_type: pa.DataType) -> str:
    return {
        "string": "string",
        "int32": "integer",
        "bool": "boolean",
        "list<item: string>": "list of strings",
    }.get(str(data_type), str(data_type))


def dumps_json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"
