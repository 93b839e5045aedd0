"""Trend: flag routes whose edge fidelity drops while the end-to-end score holds."""

from ._divergence import (
    RouteChange,
    RoutePoint,
    TrendResult,
    Verdict,
    classify,
    route_points,
    route_scores,
    trend,
    trend_lines,
)

__all__ = ["RouteChange", "RoutePoint", "TrendResult", "Verdict", "classify", "route_points", "route_scores", "trend", "trend_lines"]
