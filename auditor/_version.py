"""The version of edge-audit (one place; ``auditor.__version__`` re-exports it)."""

__version__ = "0.1.0"
