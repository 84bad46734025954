"""One set of endpoint defaults: the gateway's. The registry's columns and the engine's command
line take theirs from ``EndpointConfig``, so a model called from the admin and the same model
called from the command line wait as long for an answer."""

from annotations.models import ModelEndpoint
from attune_collect.llm import EndpointConfig
from attunebench.cli import build_parser

GATEWAY = EndpointConfig("openai/m")


def test_the_registry_default_timeout_is_the_gateways():
    endpoint = ModelEndpoint(alias="fresh", litellm_model="openai/m")

    assert endpoint.timeout_s == GATEWAY.timeout_s
    assert endpoint.gateway_config().timeout_s == GATEWAY.timeout_s


def test_the_command_lines_defaults_are_the_gateways():
    args = build_parser().parse_args(["run", "--data", "d", "--model", "openai/m", "--out", "o"])

    assert (args.timeout, args.concurrency, args.max_retries) == (
        GATEWAY.timeout_s,
        GATEWAY.max_concurrency,
        GATEWAY.max_retries,
    )
