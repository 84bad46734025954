"""Release export speed and memory: the streaming Celery export vs. a naive pandas export.

    .venv/bin/python benchmarks/release_export.py [--conversations 10000] [--database-url URL]

Seeds N synthetic conversations into a fresh database (SQLite in a temp folder by default, or a
scratch PostgreSQL database: it is flushed), then runs, each in its own process so peak memory
is measured separately and side by side in one run:

- ``streaming``: the release build the worker runs (chunked reads, Parquet row groups, JSONL,
  conversation files, cards, manifest, archive);
- ``naive``: load every table into pandas at once, join, and write the same conversation files
  and tables (Parquet + JSONL) from the frames, with the standard library's JSON encoder;
- ``naive-orjson``: the same with orjson for the conversation files, so the comparison also
  shows what the architecture gains apart from the faster encoder.

Prints seconds, table rows per second and peak RSS for both, and the ratio.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _setup import add_database_option, argument_parser, scratch_django, setup_django


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def run_streaming(out: Path) -> dict:
    from annotations.models import Study
    from annotations.releases.services import build_release, create_release

    started = time.perf_counter()
    release = create_release(
        name="bench", version="1.0.0", studies=[Study.objects.get(slug="demo")]
    )
    release = build_release(release.pk)
    seconds = time.perf_counter() - started
    rows = sum(release.counts["table_rows"].values())
    return {
        "seconds": seconds,
        "rows": rows,
        "conversations": release.counts["conversations"],
        "peak_rss_mb": peak_rss_mb(),
    }


def run_naive(out: Path, fast_json: bool = False) -> dict:
    import pandas as pd
    from django.db import connection

    started = time.perf_counter()
    read = lambda sql: pd.read_sql_query(sql, connection.connection)  # noqa: E731
    connection.ensure_connection()
    conversations = read(
        "SELECT c.id, c.external_id AS conversation_id, p.pseudonym AS participant, e.model_name AS model, "
        "e.provider, c.model_version, c.topic_category AS category, c.topic_subtopic AS subtopic, "
        "c.source_timestamp AS timestamp, c.is_synthetic AS synthetic, p.age, p.traits, p.goals "
        "FROM annotations_conversation c JOIN annotations_participant p ON p.id = c.participant_id "
        "LEFT JOIN annotations_modelendpoint e ON e.id = c.model_endpoint_id WHERE c.state = 'completed'"
    )
    turns = read(
        "SELECT t.conversation_id AS cid, t.number AS turn_number, t.user_message, t.model_reply AS llm_response, "
        "a.id AS annotation_id, a.llm_improved_reply AS llm_improved, a.human_edited_reply AS human_edited, "
        "a.selected_pairwise_questions FROM annotations_turn t JOIN annotations_turnannotation a ON a.turn_id = t.id"
    )
    tags = read("SELECT annotation_id, position, emotion, intensity FROM annotations_moodtag")
    judgements = read(
        "SELECT annotation_id, position, question_id, observed, preferred, llm_value FROM annotations_behaviourjudgement"
    )
    pairwise = read(
        "SELECT annotation_id, position, question_id, response_a, response_b, winner FROM annotations_pairwisechoice"
    )
    panas = read(
        "SELECT conversation_id AS cid, phase, items, total_positive, total_negative FROM annotations_panasresponse"
    )
    wide = read("SELECT * FROM annotations_conversationwideanswers")

    ids = conversations.set_index("id")["conversation_id"]
    turns["conversation_id"] = turns["cid"].map(ids)
    keys = turns.set_index("annotation_id")[["conversation_id", "turn_number"]]
    tables = {"conversations": conversations, "turns": turns}
    for name, frame in (
        ("mood_tags", tags),
        ("behaviour_judgements", judgements),
        ("pairwise_comparisons", pairwise),
    ):
        tables[name] = frame.join(keys, on="annotation_id")
    panas["conversation_id"] = panas["cid"].map(ids)
    items = pd.json_normalize(
        panas["items"].map(lambda v: json.loads(v) if isinstance(v, str) else v).tolist()
    )
    tables["panas"] = pd.concat([panas.drop(columns=["items"]), items], axis=1)
    wide["conversation_id"] = wide["conversation_id"].map(ids)
    tables["conversation_wide"] = wide
    tables["participants"] = conversations[
        ["participant", "age", "traits", "goals"]
    ].drop_duplicates("participant")

    (out / "tables").mkdir(parents=True)
    rows = 0
    for name, frame in tables.items():
        frame = frame.astype({c: "str" for c in frame.columns if frame[c].dtype == object})
        frame.to_parquet(out / "tables" / f"{name}.parquet", index=False)
        frame.to_json(
            out / "tables" / f"{name}.jsonl", orient="records", lines=True, force_ascii=False
        )
        rows += len(frame)
    # One AttuneBench-shaped file per conversation, assembled from the frames.
    folder = out / "conversations"
    folder.mkdir()
    by_turn = {
        name: tables[name].groupby("conversation_id")
        for name in ("mood_tags", "behaviour_judgements", "pairwise_comparisons")
    }
    turn_groups = tables["turns"].groupby("conversation_id")
    for record in conversations.to_dict("records"):
        cid = record["conversation_id"]
        conversation_turns = (
            turn_groups.get_group(cid).to_dict("records") if cid in turn_groups.groups else []
        )
        children = {
            name: group.get_group(cid).to_dict("records") if cid in group.groups else []
            for name, group in by_turn.items()
        }
        document = {
            "conversationId": cid,
            "metadata": {k: record[k] for k in ("model", "provider", "category", "subtopic")},
            "turns": [
                {
                    **turn,
                    **{
                        name: [c for c in rows_ if c["turn_number"] == turn["turn_number"]]
                        for name, rows_ in children.items()
                    },
                }
                for turn in conversation_turns
            ],
        }
        (folder / f"conversation_{cid}.json").write_text(
            json.dumps(document, default=str, indent=2), encoding="utf-8"
        )
    seconds = time.perf_counter() - started
    return {
        "seconds": seconds,
        "rows": rows,
        "conversations": len(conversations),
        "peak_rss_mb": peak_rss_mb(),
    }


def child(phase: str, data_dir: Path, database_url: str | None) -> None:
    setup_django(data_dir, database_url, without_redis=True)
    out = Path(tempfile.mkdtemp(prefix=f"attune-{phase}-"))
    runners = {
        "streaming": run_streaming,
        "naive": run_naive,
        "naive-orjson": lambda o: run_naive(o, fast_json=True),
    }
    result = runners[phase](out)
    print("RESULT " + json.dumps(result))


def main() -> None:
    parser = argument_parser(__doc__)
    parser.add_argument("--conversations", type=int, default=10_000)
    add_database_option(parser)
    parser.add_argument(
        "--phase", choices=["streaming", "naive", "naive-orjson"], help=argparse.SUPPRESS
    )
    parser.add_argument("--data-dir", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.phase:
        child(args.phase, args.data_dir, args.database_url)
        return

    workdir = scratch_django("attune-release-bench-", args.database_url, without_redis=True)
    data_dir = workdir / "data"  # the phases' processes set Django up on the same data
    from annotations.demo import seed_demo

    started = time.perf_counter()
    seed_demo(args.conversations, seed=1)
    print(f"seeded {args.conversations} conversations in {time.perf_counter() - started:.1f} s")

    results = {}
    for phase in ("streaming", "naive", "naive-orjson"):
        command = [sys.executable, __file__, "--phase", phase, "--data-dir", str(data_dir)]
        if args.database_url:
            command += ["--database-url", args.database_url]
        completed = subprocess.run(command, capture_output=True, text=True, check=False)
        line = next((l for l in completed.stdout.splitlines() if l.startswith("RESULT ")), None)  # noqa: E741
        if line is None:
            raise SystemExit(f"{phase} failed:\n{completed.stderr[-3000:]}")
        results[phase] = json.loads(line.removeprefix("RESULT "))
        r = results[phase]
        print(
            f"{phase:>9}: {r['seconds']:.1f} s, {r['rows'] / r['seconds']:,.0f} rows/s "
            f"({r['rows']:,} table rows, {r['conversations']:,} conversations), peak RSS {r['peak_rss_mb']:.0f} MB"
        )
    streaming = results["streaming"]
    for phase in ("naive", "naive-orjson"):
        ratio = results[phase]["seconds"] / streaming["seconds"]
        print(
            f"SUMMARY streaming vs {phase}: {ratio:.2f}x the speed; peak RSS {streaming['peak_rss_mb']:.0f} MB "
            f"vs {results[phase]['peak_rss_mb']:.0f} MB"
        )


if __name__ == "__main__":
    main()
