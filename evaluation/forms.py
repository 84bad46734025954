"""The admin's start form: what a researcher picks; ``to_request`` turns it into a RunRequest."""

from __future__ import annotations

from typing import cast

from django import forms

from annotations.models import ModelEndpoint
from annotations.qa.access import limit_to_all_studies
from annotations.qa.endpoint_scope import viewable_endpoints
from annotations.releases.models import Release, ReleaseState
from attunebench.prompts import DEFAULT_PROMPT_SET
from attunebench.release import DataFolderError, check_subsample_name
from attunebench.runner import MODES, PANAS_STRATEGIES
from evaluation.engine import prompt_sets
from evaluation.models import DEFAULT_SEED, MAX_SEED, EvaluationRun
from evaluation.services.planning import RunRequest
from evaluation.services.turn_marks import AXES, AXIS_LABELS
from evaluation.services.turn_view import (
    ANY_MODEL,
    Selection,
    check_selection,
    default_selection,
    run_models,
)


class StartRunForm(forms.Form):
    release = forms.ModelChoiceField(
        queryset=Release.objects.filter(state=ReleaseState.FROZEN), help_text="Frozen releases."
    )
    models = forms.ModelMultipleChoiceField(
        queryset=ModelEndpoint.objects.all(),
        widget=forms.CheckboxSelectMultiple,
        help_text="The models under test (registry endpoints).",
    )
    modes = forms.MultipleChoiceField(
        choices=[(mode, mode) for mode in MODES],
        initial=["default"],
        widget=forms.CheckboxSelectMultiple,
    )
    judges = forms.ModelMultipleChoiceField(
        queryset=ModelEndpoint.objects.all(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text="Judge the models' drafted replies (none: no judged response quality).",
    )
    panas_strategy = forms.ChoiceField(
        choices=[(s, s) for s in PANAS_STRATEGIES], initial="absolute", label="PANAS strategy"
    )
    subsample = forms.CharField(
        required=False, help_text="e.g. sample50 (the release's subsamples/); blank: all."
    )
    prompt_set = forms.ChoiceField(choices=(), initial=DEFAULT_PROMPT_SET)
    seed = forms.IntegerField(
        initial=DEFAULT_SEED, min_value=0, max_value=MAX_SEED, help_text="Statistics and baselines."
    )

    def __init__(self, *args, user=None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        prompt_set = cast(forms.ChoiceField, self.fields["prompt_set"])
        prompt_set.choices = [(name, name) for name in prompt_sets()]
        field = cast(forms.ModelChoiceField, self.fields["release"])
        if user is not None and field.queryset is not None:  # only the user's studies' releases
            field.queryset = limit_to_all_studies(
                field.queryset, user, "evaluation.start_evaluation", "studies"
            )
        for name in ("models", "judges"):  # only endpoints of the user's studies
            choice = cast(forms.ModelMultipleChoiceField, self.fields[name])
            if user is not None and choice.queryset is not None:
                choice.queryset = viewable_endpoints(choice.queryset, user)

    def clean_subsample(self) -> str:
        """A name in the release's ``subsamples/``, never a path (any file of the server)."""
        name = self.cleaned_data["subsample"].strip()
        if name:
            try:
                check_subsample_name(name)
            except DataFolderError as exc:
                raise forms.ValidationError(str(exc)) from None
        return name

    def to_request(self) -> RunRequest:
        data = self.cleaned_data
        return RunRequest(
            release=data["release"],
            models=tuple(data["models"]),
            judges=tuple(data["judges"]),
            modes=tuple(mode for mode in MODES if mode in data["modes"]),
            panas_strategy=data["panas_strategy"],
            subsample=data["subsample"],
            prompt_set=data["prompt_set"],
            seed=data["seed"],
        )


class TurnViewForm(forms.Form):
    """The per-turn view's choices (a GET form): one or two of the run's models, the mode, an
    axis and whose wrong turns alone to keep. Unbound, it stands for the defaults."""

    a = forms.ChoiceField(label="Model", choices=())
    b = forms.ChoiceField(label="beside", choices=(), required=False)
    mode = forms.ChoiceField(choices=(), required=False, help_text="Blank: the report's mode.")
    axis = forms.ChoiceField(
        required=False, choices=[("", "all axes"), *((a, AXIS_LABELS[a]) for a in AXES)]
    )
    wrong = forms.ChoiceField(label="Only turns got wrong by", required=False, choices=())

    def __init__(self, data=None, *, run: EvaluationRun) -> None:
        self.run = run
        defaults = default_selection(run)
        initial = {
            "a": defaults.models[0] if defaults.models else "",
            "b": defaults.models[1] if len(defaults.models) > 1 else "",
            "mode": defaults.mode,
        }
        super().__init__(data, initial=initial)
        models = [(alias, alias) for alias in run_models(run)]
        cast(forms.ChoiceField, self.fields["a"]).choices = models
        cast(forms.ChoiceField, self.fields["b"]).choices = [("", "(no second model)"), *models]
        cast(forms.ChoiceField, self.fields["mode"]).choices = [(m, m) for m in run.modes]
        cast(forms.ChoiceField, self.fields["wrong"]).choices = [
            ("", "(every turn)"),
            (ANY_MODEL, "either model"),
            *models,
        ]

    def selection(self) -> Selection:
        """The checked selection (``is_valid`` first); unbound, the run's defaults."""
        if not self.is_bound:
            return default_selection(self.run)
        data = self.cleaned_data
        models = tuple(m for m in (data["a"], data["b"]) if m)
        mode = data["mode"] or default_selection(self.run).mode
        return check_selection(self.run, Selection(models, mode, data["axis"], data["wrong"]))
