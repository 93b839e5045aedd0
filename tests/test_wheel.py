"""The wheel carries its defaults: built from a copy of this checkout and installed into a fresh
venv outside it, ``edge-audit rubrics`` lists the packaged rubrics, and the shipped semantic
example replays against the committed cassettes with the packaged rubrics and prompts.

The venv has the wheel alone in its own site-packages; the dependencies (pydantic, spaCy and
its model, LiteLLM...) are read from this interpreter's site-packages, put after the venv's own
by a ``.pth`` file, so the test needs no download beyond the build backend."""

from __future__ import annotations

import json
import shutil
import site
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
IGNORED = shutil.ignore_patterns(".git", "build", "dist", "*.egg-info", "__pycache__", ".*_cache", "tests")


def _run(*args: str | Path, cwd: Path, ok: tuple[int, ...] = (0,)) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=300)
    assert done.returncode in ok, f"{args}: exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The venv's bin/ folder, with edge-audit installed from a freshly built wheel."""
    tmp = tmp_path_factory.mktemp("wheel")
    shutil.copytree(ROOT, tmp / "src", ignore=IGNORED)
    _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", tmp / "dist", tmp / "src", cwd=tmp)
    [wheel] = (tmp / "dist").glob("edge_audit-*.whl")
    _run(sys.executable, "-m", "venv", "--without-pip", tmp / "venv", cwd=tmp)
    python = tmp / "venv" / "bin" / "python"
    purelib = Path(_run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])", cwd=tmp)
                   .stdout.strip())
    _run(sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--quiet", wheel, cwd=tmp)
    outer = [*site.getsitepackages(), site.getusersitepackages()]
    (purelib / "zz_outer_site.pth").write_text("\n".join(outer) + "\n", encoding="utf-8")
    where = _run(python, "-c", "import auditor; print(auditor.__file__)", cwd=tmp).stdout.strip()
    assert Path(where).is_relative_to(tmp / "venv"), f"auditor came from {where}, not the wheel"
    return tmp / "venv" / "bin"


@pytest.mark.wheel
def test_installed_wheel_lists_its_packaged_rubrics(installed: Path, tmp_path: Path) -> None:
    out = _run(installed / "edge-audit", "rubrics", "--check-lock", cwd=tmp_path).stdout
    names = {line.split()[0] for line in out.splitlines()}
    assert names == {"claim_grader.v1", "constraint_grader.v1", "sufficiency.v1"}
    assert all(line.split()[3:] == ["locked", "(in", "use)", "packaged"] for line in out.splitlines()), out


@pytest.mark.wheel
def test_installed_wheel_replays_the_semantic_example_with_packaged_rubrics(installed: Path, tmp_path: Path) -> None:
    config = yaml.safe_load((ROOT / "examples" / "edge-audit.local.yaml").read_text(encoding="utf-8"))
    for key in ("rubrics_dir", "prompts_dir"):
        del config["semantic"][key]
    config["semantic"]["cassettes_dir"] = str(ROOT / "cassettes")
    (tmp_path / "config.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    shutil.copy(ROOT / "examples" / "traces" / "semantic-handoffs.json", tmp_path)
    _run(installed / "edge-audit", "run", "semantic-handoffs.json", "--config", "config.yaml", "--llm", "replay",
         "--quiet", "--json", "report.json", cwd=tmp_path, ok=(0, 1))
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    findings = report["semantic"]["findings"]
    assert findings and "cassette" in {f["source"] for f in findings}
    for f in findings:
        assert f["rubric"]["origin"] == "packaged"
        assert Path(f["rubric"]["file"]).is_relative_to(installed.parent), f["rubric"]["file"]


@pytest.mark.wheel
def test_an_installed_plugin_adds_a_check_from_outside_the_repository(installed: Path, tmp_path: Path) -> None:
    """The example plugin, pip-installed beside the wheel, is listed and runs from a config."""
    python = installed / "python"
    shutil.copytree(ROOT / "tests" / "plugins" / "edge-audit-example", tmp_path / "plugin")
    _run(sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--quiet",
         tmp_path / "plugin", cwd=tmp_path)
    assert "example.shouting.v1" in _run(installed / "edge-audit", "checks", cwd=tmp_path).stdout.split()
    (tmp_path / "config.yaml").write_text("checks:\n  - name: example.shouting.v1\n", encoding="utf-8")
    shutil.copy(ROOT / "examples" / "traces" / "billing-triage.json", tmp_path)
    _run(installed / "edge-audit", "run", "billing-triage.json", "--config", "config.yaml", "--quiet",
         "--json", "report.json", cwd=tmp_path, ok=(0, 1))
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert report["checks"] == ["example.shouting.v1"]


@pytest.mark.wheel
def test_installed_wheel_writes_the_html_report_and_registers_the_pytest_plugin(installed: Path,
                                                                                tmp_path: Path) -> None:
    """The HTML template and assets are in the wheel; the pytest11 entry point loads the plugin
    with no ``-p``."""
    shutil.copy(ROOT / "examples" / "traces" / "incident-webhook.json", tmp_path)
    _run(installed / "edge-audit", "run", "incident-webhook.json", "--quiet", "--html", "report.html",
         cwd=tmp_path, ok=(1,))
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert '<mark class="quote">You MUST NOT change the signature of handle_webhook(event, ctx).</mark>' in page
    out = _run(installed / "python", "-m", "pytest", "--edge-audit", "incident-webhook.json", "-q",
               "-p", "no:cacheprovider", cwd=tmp_path, ok=(1,)).stdout
    assert "FAILED incident-webhook.json::incident-webhook/plan->coder" in out, out
