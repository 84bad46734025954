"""Planning: units and calls from the engine's planned_calls, and a cost estimate that uses
litellm's prices where it has them and says "unknown" where it has none."""

import pytest

from annotations.models import ModelEndpoint
from attunebench.release import load_conversations
from attunebench.runner import RunOptions, judged_reply_calls, planned_calls
from evaluation.prices import model_price
from evaluation.services.errors import EvaluationError
from evaluation.services.planning import plan_run

pytestmark = pytest.mark.django_db


def endpoint(alias: str, model: str, **fields) -> ModelEndpoint:
    return ModelEndpoint.objects.create(alias=alias, litellm_model=model, **fields)


def test_units_and_calls_come_from_planned_calls(run_request, demo_release):
    plan = plan_run(run_request(modes=("default", "verbose")))
    conversations = load_conversations(demo_release.folder)
    per_pass = sum(planned_calls(c.conversation, RunOptions()) for c in conversations)
    assert plan.units == 2 * 2 * len(conversations)
    assert plan.calls == 2 * 2 * per_pass == plan.estimate.calls
    assert plan.prompt_version.startswith("v2-")  # the default set


def test_judges_add_one_call_per_turn_each(run_request, demo_models, demo_release):
    judge = endpoint("judge", "attune-demo/questioner")
    plan = plan_run(run_request(judges=(judge,)))
    conversations = [c.conversation for c in load_conversations(demo_release.folder)]
    turns = sum(len(c.turns) for c in conversations)
    # Plus the original and the edited reply of every asked turn, judged once per run (the
    # same request in every unit; the call cache answers the second model's unit).
    replies = sum(judged_reply_calls(c) for c in conversations)
    assert turns < replies <= 2 * turns
    rows = {row.endpoint: row for row in plan.estimate.rows}
    assert rows["judge"].role == "judge"
    assert rows["judge"].calls == 2 * turns + replies  # two models' drafts judged
    # The plan counts answers per unit: each of the two units gets the reply answers.
    assert plan.calls == plan_run(run_request()).calls + 2 * turns + 2 * replies


def test_demo_models_are_free_and_priced_models_cost_money(run_request):
    assert plan_run(run_request()).estimate.cost_usd == 0.0  # known: the offline demo is free
    priced = endpoint("gpt-mini", "openai/gpt-4o-mini")
    estimate = plan_run(run_request(models=(priced,))).estimate
    row = estimate.rows[0]
    price = model_price("openai/gpt-4o-mini")
    assert row.prompt_tokens > 0 and row.completion_tokens > 0
    assert estimate.cost_usd == pytest.approx(
        price.input_per_token * row.prompt_tokens + price.output_per_token * row.completion_tokens,
        rel=1e-3,
    )
    assert estimate.cost_usd > 0


def test_an_unpriced_model_makes_the_total_unknown_never_guessed(run_request, demo_models):
    local = endpoint("local", "openai/my-local-model", api_base="http://127.0.0.1:9/v1")
    estimate = plan_run(run_request(models=(demo_models[0], local))).estimate
    assert model_price("openai/my-local-model") is None
    assert estimate.cost_usd is None and estimate.known_cost_usd == 0.0
    assert {row.endpoint: row.cost_usd for row in estimate.rows}["local"] is None


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"models": ()}, "at least one model"),
        ({"modes": ("default", "default")}, "modes must be distinct"),
        ({"modes": ("loud",)}, "modes must be distinct"),
        ({"subsample": "sample99"}, "no subsample"),
        ({"panas_strategy": "guess"}, "PANAS strategy"),
        ({"prompt_set": "v9"}, "no prompt set"),
    ],
)
def test_bad_requests_say_what_to_change(run_request, changes, message):
    with pytest.raises(EvaluationError, match=message):
        plan_run(run_request(**changes))


def test_two_endpoints_of_one_model_string_are_refused(run_request, demo_models):
    twin = endpoint("listener-hot", "attune-demo/listener", params={"temperature": 1.0})
    with pytest.raises(EvaluationError, match="use the litellm model 'attune-demo/listener'"):
        plan_run(run_request(models=(demo_models[0], twin)))


def test_only_frozen_releases(run_request, demo_release):
    from annotations.releases.models import Release

    draft = Release.objects.create(name="draft", version="1.0.0")
    with pytest.raises(EvaluationError, match="not frozen"):
        plan_run(run_request(release=draft))
