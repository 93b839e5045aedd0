"""The Ray executor: each shard of trace files is one Ray task on the cluster (``ray.init``
with ``address``, else ``RAY_ADDRESS``, else a local Ray). The workers must see the trace files
at the same paths (a shared volume), and have edge-audit and the spaCy model installed, as the
parent has. Ray is an optional extra: ``pip install -e '.[ray]'``."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..config import AuditConfig
from ..errors import UsageError


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise UsageError("--executor ray needs Ray: pip install 'edge-audit[ray]'") from None
    return ray


def audit_on_ray(work: Callable[..., Any], shards: list[list[str]], config: AuditConfig, format: str | None,
                 done: Callable[[Any], None], *, address: str | None = None,
                 num_cpus: int | None = None) -> list[Any]:
    """``work(shard, config, format)`` for every shard as a Ray task; the results in shard
    order (whatever order they finish in)."""
    ray = _ray()
    started = False
    if not ray.is_initialized():
        address = address or os.environ.get("RAY_ADDRESS")
        # The workers run the driver's own auditor package (shipped with the job), so that their
        # findings are the ones this version gives; its dependencies must be installed there.
        package = Path(__file__).resolve().parents[1]
        ray.init(address=address, num_cpus=None if address else num_cpus, include_dashboard=False,
                 log_to_driver=False, configure_logging=False, runtime_env={"py_modules": [str(package)]})
        started = True
    try:
        task = ray.remote(num_cpus=1)(work)
        pending = [task.remote(shard, config, format) for shard in shards]
        results = []
        for ref in pending:
            results.append(ray.get(ref))
            done(results[-1])
        return results
    finally:
        if started:
            ray.shutdown()
