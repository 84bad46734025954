"""AttuneBench: the conversation format, the evaluation engine, its statistics and report
(no Django). The command line is ``attunebench`` (cli.py)."""

__version__ = "0.1.0"
