"""The engine writes a run's settings (its fingerprint) into every output: the model's and the
judges' parameters go through the credential filter, so a key given as a parameter (an old
endpoint row, a --param on the command line) never lands in an output, nor the report read
from the outputs."""

import json

from attune_collect.llm import EndpointConfig
from attune_collect.llm.secrets_policy import REDACTED
from attunebench.runner import RunOptions

LEAKY = {"temperature": 0, "extra_body": {"api_key": "LEAK-one"}, "X-Api-Key": "LEAK-two"}


def test_the_fingerprint_holds_no_credential():
    judge = EndpointConfig("openai/judge", params=LEAKY)
    fingerprint = RunOptions(judges=(judge,)).fingerprint(EndpointConfig("openai/m", params=LEAKY))

    assert "LEAK-" not in json.dumps(fingerprint)
    expected = {"temperature": 0, "extra_body": {"api_key": REDACTED}, "X-Api-Key": REDACTED}
    assert fingerprint["model_params"] == expected
    assert fingerprint["judges"][0]["params"] == expected


def test_clean_parameters_are_kept_as_given():
    params = {"temperature": 0, "seed": 7}
    fingerprint = RunOptions().fingerprint(EndpointConfig("openai/m", params=params))
    assert fingerprint["model_params"] == params
