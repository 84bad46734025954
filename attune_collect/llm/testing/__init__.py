"""Test helpers for code that calls models: a local OpenAI-compatible server (real HTTP)."""

from .openai_server import Behaviour, Fault, TestServer, default_reply, run_test_server

__all__ = ["Behaviour", "Fault", "TestServer", "default_reply", "run_test_server"]
