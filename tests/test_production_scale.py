"""Scale-out (issue 16, item 3): the same report from one process, from worker processes and from
a local Ray, byte for byte."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import EXAMPLES, ROOT, WHOWHEN

from auditor import audit, load_config
from auditor.errors import UsageError
from auditor.production import audit_parallel, expand_globs, shard_files
from auditor.report import to_json

LOCAL = ROOT / "examples" / "edge-audit.local.yaml"
#: A slice of the shared Who&When logs: enough for several shards, small enough for CI.
WHOWHEN_SLICE = sorted(WHOWHEN.glob("*.json"))[:12] if WHOWHEN.is_dir() else []
needs_whowhen = pytest.mark.skipif(not WHOWHEN_SLICE, reason="shared/datasets is not beside this checkout")


def _cli(tmp_path: Path, name: str, *extra: str) -> bytes:
    out = tmp_path / f"{name}.json"
    subprocess.run([sys.executable, "-m", "auditor", "run", str(EXAMPLES), "--quiet", "--config", str(LOCAL),
                    "--llm", "replay", "--sufficiency", "all", "--max-calls", "3", "--sample", "0.8", "--json", str(out),
                    *extra],
                   cwd=ROOT, capture_output=True, check=False)
    return out.read_bytes()


def test_worker_processes_write_the_same_report_with_graders_sufficiency_a_budget_and_sampling(
        tmp_path: Path) -> None:
    """The model passes run once in the parent over every shard's work, so even the budget's
    cut (the first three requests) falls on the same items; the sample is the same traces."""
    one, two = _cli(tmp_path, "one"), _cli(tmp_path, "two", "--workers", "2")
    assert one == two
    assert b'--max-calls 3' in one and b'"source": "cassette"' in one and b'"skipped": 2' in one


@needs_whowhen
def test_worker_processes_write_the_same_report_on_who_and_when() -> None:
    config = load_config(None, discover=False)
    assert to_json(audit(WHOWHEN_SLICE, config)) == to_json(audit_parallel(WHOWHEN_SLICE, config, workers=2))


@pytest.mark.ray
@needs_whowhen
@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="Ray is not installed (pip install -e '.[ray]')")
def test_ray_writes_the_same_report_as_one_process_on_who_and_when() -> None:
    paths = [*WHOWHEN_SLICE, EXAMPLES]
    config = load_config(None, discover=False)
    local = to_json(audit(paths, config))
    on_ray = to_json(audit_parallel(paths, config, workers=2, executor="ray"))
    assert local == on_ray


def test_shards_are_contiguous_runs_of_the_files_in_order(tmp_path: Path) -> None:
    files = []
    for n, size in enumerate([10, 500, 20, 20, 900, 5, 5, 300]):
        path = tmp_path / f"{n}.json"
        path.write_text("x" * size)
        files.append(path)
    shards = shard_files(files, 3)
    assert 1 < len(shards) <= 3
    assert [f for shard in shards for f in shard] == [str(f) for f in files]
    assert shard_files(files[:2], 8) == [[str(files[0])], [str(files[1])]]


def test_globs_are_expanded_sorted_and_a_pattern_matching_nothing_is_a_usage_error() -> None:
    found = expand_globs([str(EXAMPLES / "claims-*.json")])
    assert found == sorted(str(p) for p in EXAMPLES.glob("claims-*.json")) and len(found) == 3
    assert expand_globs([str(EXAMPLES)]) == [str(EXAMPLES)]
    with pytest.raises(UsageError, match="no file matches"):
        expand_globs([str(EXAMPLES / "*.nothing")])


def test_route_minimums_are_refused_across_workers() -> None:
    from auditor.config import AuditConfig, with_sampling

    config = with_sampling(AuditConfig(), 0.5, 0, {"coder->reviewer": 1})
    with pytest.raises(UsageError, match="--workers 1"):
        audit_parallel([EXAMPLES], config, workers=2)
