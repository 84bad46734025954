"""Write a release folder from a stream of records, chunk by chunk, in flat memory.

Pure (no Django). Each chunk of conversations becomes conversation files, one Parquet row
group per table and the matching JSONL lines; only ids and per-file hashes are kept for the
end (subsamples, cards, manifest). The caller writes into a temporary folder and renames it.
"""

from __future__ import annotations

import contextlib
import hashlib
import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, Any

import orjson
import pyarrow as pa
import pyarrow.parquet as pq

from annotations.releases.cards import (
    ReleaseInfo,
    codebook,
    dataset_card,
    dumps_json,
    instrument_versions,
)
from annotations.releases.configurations import TABLE as CONFIG_TABLE
from annotations.releases.configurations import ConfigUsage, config_row
from annotations.releases.croissant import croissant
from annotations.releases.manifest import file_entry, release_files, write_manifest
from annotations.releases.tables import TABLES, participant_row, table_rows
from attunebench import records
from attunebench.instrument import Instrument
from attunebench.language import conversation_language
from attunebench.writer import conversation_filename, encode_conversation


@dataclass(frozen=True)
class ReleaseItem:
    """One conversation as released: the record plus who (pseudonym), whether synthetic, and
    the configuration it ran under (the snapshot's hash; None for imported conversations)."""

    record: records.Conversation
    participant: str
    synthetic: bool = False
    model_config_id: str | None = None


@dataclass(frozen=True)
class FolderResult:
    manifest: dict[str, Any]
    content_hash: str
    conversation_hashes: dict[str, str]  # conversationId -> sha256 of its file
    counts: dict[str, Any]


class ReleaseFolderWriter:
    def __init__(self, folder: Path, instrument: Instrument) -> None:
        self.folder = folder
        self.instrument = instrument
        (folder / "conversations").mkdir(parents=True, exist_ok=False)
        (folder / "tables").mkdir()
        self._parquet = {
            t.name: pq.ParquetWriter(folder / "tables" / f"{t.name}.parquet", t.schema)
            for t in TABLES
        }
        self._jsonl: dict[str, IO[bytes]] = {
            t.name: (folder / "tables" / f"{t.name}.jsonl").open("wb") for t in TABLES
        }
        self._participants_seen: set[str] = set()
        self.conversation_hashes: dict[str, str] = {}
        self.config_usage: dict[str, ConfigUsage] = {}
        self.rows = {t.name: 0 for t in TABLES}
        self.turns = 0
        self.languages: Counter[str] = Counter()  # conversations per language

    def add_chunk(self, items: Iterable[ReleaseItem]) -> None:
        buffers: dict[str, list[dict[str, Any]]] = {t.name: [] for t in TABLES}
        for item in items:
            record = _with_pseudonym(item.record, item.participant)
            if record.conversation_id in self.conversation_hashes:
                raise ValueError(
                    f"conversationId {record.conversation_id!r} appears twice in the release"
                )
            text = encode_conversation(record)
            (
                self.folder / "conversations" / conversation_filename(record.conversation_id)
            ).write_bytes(text)
            self.conversation_hashes[record.conversation_id] = hashlib.sha256(text).hexdigest()
            self.turns += len(record.turns)
            self.languages[conversation_language(record)] += 1
            for name, rows in table_rows(
                record, item.participant, item.synthetic, self.instrument, item.model_config_id
            ).items():
                buffers[name] += rows
            if item.model_config_id is not None:
                usage = self.config_usage.setdefault(item.model_config_id, ConfigUsage())
                usage.add(record.metadata.timestamp)
            if item.participant not in self._participants_seen:
                self._participants_seen.add(item.participant)
                buffers["participants"].append(participant_row(record, item.participant))
        self._write_rows(buffers)

    def _write_rows(self, buffers: dict[str, list[dict[str, Any]]]) -> None:
        for table in TABLES:
            rows = buffers.get(table.name)
            if not rows:
                continue
            self._parquet[table.name].write_table(pa.Table.from_pylist(rows, schema=table.schema))
            stream = self._jsonl[table.name]
            stream.write(b"".join(_jsonl_line(row, table.column_names) for row in rows))
            self.rows[table.name] += len(rows)

    def _write_configurations(self, info: ReleaseInfo) -> ReleaseInfo:
        """The model_configs table: one row per configuration a released conversation ran
        under, in order of first use; every ``conversations.model_config_id`` must resolve."""
        offered = {snapshot.config_id: snapshot for snapshot in info.model_configs}
        missing = sorted(set(self.config_usage) - set(offered))
        if missing:
            raise ValueError(f"conversations name configurations the release lacks: {missing[:3]}")
        used = sorted(
            (offered[cid] for cid in self.config_usage),
            key=lambda snapshot: (self.config_usage[snapshot.config_id].first, snapshot.config_id),
        )
        self._write_rows({CONFIG_TABLE: [config_row(snapshot) for snapshot in used]})
        return replace(info, model_configs=tuple(used), config_usage=dict(self.config_usage))

    def close(
        self, info: ReleaseInfo, subsample_sizes: list[int], subsample_seed: int
    ) -> FolderResult:
        info = self._write_configurations(info)
        for writer in self._parquet.values():
            writer.close()
        for stream in self._jsonl.values():
            stream.close()
        self._write_subsamples(subsample_sizes, subsample_seed)
        counts = {
            **info.counts,
            "conversations": len(self.conversation_hashes),
            "participants": len(self._participants_seen),
            "turns": self.turns,
            "table_rows": dict(self.rows),
            "model_configs": {
                snapshot.config_id: self.config_usage[snapshot.config_id].conversations
                for snapshot in info.model_configs
            },
        }
        if self.languages:
            counts["languages"] = dict(sorted(self.languages.items()))
        info = replace(
            info,
            counts=counts,
            data_sha256=data_fingerprint(self.conversation_hashes, self.config_usage),
            languages=dict(sorted(self.languages.items())),
        )
        (self.folder / "README.md").write_text(dataset_card(info), encoding="utf-8")
        (self.folder / "codebook.md").write_text(codebook(info), encoding="utf-8")
        # Hash every file once: croissant.json lists them all, MANIFEST.json them and croissant.json.
        known = {
            f"conversations/{conversation_filename(cid)}": sha
            for cid, sha in self.conversation_hashes.items()
        }
        entries = [
            file_entry(self.folder, path, known.get(path)) for path in release_files(self.folder)
        ]
        croissant_text = dumps_json(croissant(info, entries))
        (self.folder / "croissant.json").write_text(croissant_text, encoding="utf-8")
        entries.append(file_entry(self.folder, "croissant.json"))
        manifest, content_hash = write_manifest(
            self.folder,
            info.name,
            info.version,
            entries,
            info.personal_details,
            instrument_versions(info),
        )
        return FolderResult(manifest, content_hash, dict(self.conversation_hashes), counts)

    def abort(self) -> None:
        for writer in self._parquet.values():
            with contextlib.suppress(Exception):  # closing after a failure must not hide its cause
                writer.close()
        for stream in self._jsonl.values():
            stream.close()

    def _write_subsamples(self, sizes: list[int], seed: int) -> None:
        """Nested fixed-seed subsamples: sample20 is inside sample25, inside sample50, ..."""
        ids = sorted(self.conversation_hashes)
        order = list(ids)
        random.Random(seed).shuffle(order)
        folder = self.folder / "subsamples"
        for size in sorted({s for s in sizes if 0 < s <= len(ids)}, reverse=True):
            folder.mkdir(exist_ok=True)
            chosen = sorted(order[:size])
            text = "".join(conversation_filename(cid) + "\n" for cid in chosen)
            (folder / f"sample{size}.txt").write_text(text, encoding="utf-8")


def data_fingerprint(conversation_hashes: dict[str, str], config_ids: Iterable[str]) -> str:
    """The first 16 hex of a sha256 over the sorted (conversationId, file sha256) pairs and the
    sorted configuration ids: what the card's configs name so that `datasets` tells two releases
    of the same version apart. From the hashes the writer already holds: no second pass."""
    data = {
        "conversations": sorted(conversation_hashes.items()),
        "model_configs": sorted(config_ids),
    }
    return hashlib.sha256(orjson.dumps(data)).hexdigest()[:16]


def _jsonl_line(row: dict[str, Any], columns: tuple[str, ...]) -> bytes:
    """One JSONL line with the keys in the schema's column order (what the Parquet file and the
    codebook show), whatever order the row was built in; a missing key is null, as in Parquet.
    One small dict per row, within the chunk already held: memory stays flat."""
    return orjson.dumps({name: row.get(name) for name in columns}) + b"\n"


def _with_pseudonym(record: records.Conversation, participant: str) -> records.Conversation:
    """The released record names the participant only by the release pseudonym."""
    if record.participant_profile is None:
        return record
    return replace(
        record, participant_profile=replace(record.participant_profile, participant_id=participant)
    )
