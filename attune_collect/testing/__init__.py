"""Helpers for tests and benchmarks that call the platform in process (no Django import here)."""
