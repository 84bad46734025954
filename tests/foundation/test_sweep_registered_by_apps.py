"""Each app registers its own steps of the workers' sweep (in its AppConfig.ready), and the
sweep still runs every half of the shortest bound of them (at most every 60 s)."""

from annotations.services.annotation_flow import improver_resend_after
from attune_collect.config import attune_config
from attune_collect.sweep import steps, sweep_interval_s


def test_every_kind_of_owed_work_is_swept():
    assert {step.name for step in steps()} == {
        "moderation verdicts",
        "improved replies",
        "release builds",
        "evaluation runs left queued",
        "evaluation runs",
        "QA flags",
        "risk alerts",
        "risk model reads",
        "idle Prolific conversations",
        "webhook deliveries",
    }
    assert {step.step.__module__.split(".")[0] for step in steps()} == {
        "annotations",
        "evaluation",
        "webhooks",
    }


def test_the_interval_is_half_the_shortest_bound(settings):
    config = attune_config()
    bounds = (
        config.evaluation_unit_lease_s,
        config.unclaimed_requeue_s,
        config.release_build_lease_s,
        improver_resend_after().total_seconds(),
    )
    assert sweep_interval_s() == max(1.0, min(60.0, min(bounds) / 2))
