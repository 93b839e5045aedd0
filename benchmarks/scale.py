"""Time and peak memory of ``edge-audit run`` as traces grow.

    python benchmarks/scale.py [--sizes 1000,10000,100000,200000] [--agents 100,1000,20000]
                               [--checks-up-to 10000]

Two shapes of native trace, each written to a temporary file and audited by a fresh process
(``python -m auditor run FILE --json OUT --quiet``), which reports its own peak RSS:

* **chat**: N messages among 10 agents, each to the next agent by name, a tool call every 10th
  message, a "MUST NOT" constraint every 50th; every agent's upstream grows with the chat.
* **broadcast**: a coordinator sends 10 messages, each to K agents by name, and each agent
  answers once: 11K edges.

Each is run without the content checks (loading, edges and visibility, reports: the cost this
project bounds) and, up to ``--checks-up-to`` messages or edges, with the default checks too.
Targets: time per message flat within 2x across sizes; 200k messages under 60 s and 1 GB.
With the content checks each edge reads only what its source saw since its previous edge (see
the README's "Limits and guarantees"); they run up to ``--checks-up-to`` messages, to show the trend.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# VmHWM is this process's own peak (ru_maxrss would include the parent's RSS at fork time).
CHILD = """
import sys
sys.argv = ["edge-audit", *sys.argv[1:]]
sys.path.insert(0, {root!r})
from auditor._cli.main import main
code = main()
peak = next(line.split()[1] for line in open("/proc/self/status") if line.startswith("VmHWM"))
print("PEAK_KB", peak, file=sys.stderr)
sys.exit(code)
"""


def chat(size: int) -> dict[str, object]:
    agents = [f"agent{i}" for i in range(10)]
    events: list[dict[str, object]] = [{"type": "message", "id": "task", "sender": "user", "recipients": ["agent0"],
                                        "content": "Fix the webhook. You MUST NOT change handle_webhook(event, ctx)."}]
    for n in range(1, size):
        sender, to = agents[n % 10], agents[(n + 1) % 10]
        if n % 10 == 0:
            events.append({"type": "tool_call", "id": f"t{n}", "agent": sender, "tool": "bash",
                           "arguments": {"command": "pytest -q"}, "result": f"{n} passed", "exit_code": 0,
                           "status": "ok"})
            continue
        text = f"Step {n}: I updated module_{n}.py and ran the tests."
        if n % 50 == 0:
            text += f" You MUST NOT delete config_{n}.yaml."
        events.append({"type": "message", "id": f"m{n}", "sender": sender, "recipients": [to], "content": text})
    return {"schema": "edge-audit.trace.v1", "trace_id": f"chat-{size}",
            "agents": [{"name": "user", "kind": "human"}, *({"name": a} for a in agents)], "events": events}


def broadcast(agents: int) -> dict[str, object]:
    names = [f"worker{i}" for i in range(agents)]
    events: list[dict[str, object]] = [
        {"type": "message", "id": f"order{n}", "sender": "coordinator", "recipients": names,
         "content": f"Order {n}: process batch {n}. You MUST NOT skip validation of batch {n}."} for n in range(10)]
    events += [{"type": "message", "id": f"reply{i}", "sender": name, "recipients": ["coordinator"],
                "content": f"Batch done by {name}; validation kept."} for i, name in enumerate(names)]
    return {"schema": "edge-audit.trace.v1", "trace_id": f"broadcast-{agents}", "events": events}


def run(trace: Path, checks: bool, tmp: Path) -> tuple[float, float, int]:
    config = tmp / "edge-audit.yaml"
    config.write_text("" if checks else "checks: []\n")
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", CHILD.format(root=str(ROOT)), "run", str(trace), "--config",
                           str(config), "--json", str(tmp / "report.json"), "--quiet"],
                          capture_output=True, text=True, cwd=tmp)
    elapsed = time.perf_counter() - started
    peak = next((int(line.split()[1]) for line in done.stderr.splitlines() if line.startswith("PEAK_KB")), 0)
    if done.returncode not in (0, 1):
        raise SystemExit(f"run failed ({done.returncode}): {done.stderr[-2000:]}")
    report = json.loads((tmp / "report.json").read_text())
    return elapsed, peak / 1024, int(report["summary"]["edges"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1000,10000,100000,200000")
    parser.add_argument("--agents", default="100,1000,20000")
    parser.add_argument("--checks-up-to", type=int, default=2_000,
                        help="also run the content checks on traces with at most this many messages and edges")
    parser.add_argument("--check-sizes", default="500,1000,2000", help="extra chat sizes run with the checks")
    args = parser.parse_args()
    sizes = sorted({int(s) for s in [*args.sizes.split(","), *args.check_sizes.split(",")] if s})
    rows = [("chat", s, chat) for s in sizes] + [("broadcast", int(a), broadcast) for a in args.agents.split(",")]
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        (tmp / "tiny.json").write_text(json.dumps(chat(2)))
        startup = {checks: run(tmp / "tiny.json", checks, tmp)[0] for checks in (False, True)}
        print(f"process start-up (a 2-message trace): {startup[False]:.2f} s without the checks, "
              f"{startup[True]:.2f} s with them; net µs/msg subtracts it")
        print(f"{'shape':10} {'size':>8} {'checks':>7} {'messages':>9} {'edges':>8} {'seconds':>8} {'µs/msg':>8} "
              f"{'net µs/msg':>10} {'µs/edge':>8} {'peak MB':>8}")
        for shape, size, make in rows:
            document = make(size)
            messages = len(document["events"])  # type: ignore[arg-type]
            trace = tmp / "trace.json"
            trace.write_text(json.dumps(document))
            del document
            for checks in (False, True):
                if checks and max(messages, size * 11 if shape == "broadcast" else 0) > args.checks_up_to:
                    continue
                if not checks and shape == "chat" and str(size) not in args.sizes.split(","):
                    continue
                seconds, peak, edges = run(trace, checks, tmp)
                net = max(seconds - startup[checks], 0.0) / messages * 1e6
                print(f"{shape:10} {size:8,} {'on' if checks else 'off':>7} {messages:9,} {edges:8,} {seconds:8.2f} "
                      f"{seconds / messages * 1e6:8.1f} {net:10.1f} {seconds / max(edges, 1) * 1e6:8.1f} {peak:8.0f}",
                      flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
