"""A NOT NULL column added to an existing table has a database default (``db_default``).

During a rolling deploy the previous release's code keeps inserting rows while the new
migration has already run; its INSERTs name no such column, so without a default in the
database they fail. ``default`` alone is Django's, applied in Python, and the column added
with it keeps no default in the database.

Read from the migration files (no database): every ``AddField`` on a model that an earlier
migration created must, in the final state, be nullable or have ``db_default``. The columns
added before the rule are left as they are (``BEFORE_THE_RULE``: the last such migration of
each app); a new app's migrations are all checked."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from django.apps import apps
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.operations import AddField, CreateModel
from django.db.models import NOT_PROVIDED

ROOT = Path(__file__).resolve().parent.parent.parent

BEFORE_THE_RULE = {
    "annotations": "0015_prolific",
    "evaluation": "0004_run_configurations",
    "qa": "0003_personal_details",
    "releases": "0003_build_claim_lease",
    "researcher_api": "0001_initial",
    "webhooks": "0002_quota_reached_label",
}


def _project_apps() -> set[str]:
    return {
        config.label
        for config in apps.get_app_configs()
        if Path(config.path).resolve().is_relative_to(ROOT)
        and not Path(config.path).resolve().is_relative_to(ROOT / ".venv")
    }


def columns_added_without_db_default(before_the_rule: Mapping[str, str]) -> list[str]:
    loader = MigrationLoader(None, ignore_no_migrations=True)
    state = loader.project_state()
    project_apps = _project_apps()
    missing = []
    for (app_label, name), migration in sorted(loader.disk_migrations.items()):
        if app_label not in project_apps or name <= before_the_rule.get(app_label, ""):
            continue
        created_here = {op.name_lower for op in migration.operations if isinstance(op, CreateModel)}
        for op in migration.operations:
            if not isinstance(op, AddField) or op.model_name_lower in created_here:
                continue
            model = state.models.get((app_label, op.model_name_lower))
            field = model.fields.get(op.name) if model else None
            if field is None or field.null or field.many_to_many:
                continue  # removed since, nullable, or a table of its own
            if field.db_default is NOT_PROVIDED:
                missing.append(f"{app_label}.{op.model_name_lower}.{op.name} ({name})")
    return missing


def test_every_not_null_column_added_since_the_rule_has_a_db_default() -> None:
    assert columns_added_without_db_default(BEFORE_THE_RULE) == []


def test_the_rule_sees_the_columns_added_before_it() -> None:
    # The check reads the files it is meant to: with no migration exempt it finds the columns
    # added without db_default before the rule (evaluation's statistics_options among them).
    found = columns_added_without_db_default({})
    assert "evaluation.evaluationrun.statistics_options (0003_statistics_options)" in found
