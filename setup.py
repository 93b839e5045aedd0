"""Packaging beyond pyproject.toml: the project's top-level rubrics/, prompts/ and config/ folders
ship inside the wheel as the packages ``auditor._data.<kind>`` (one copy in git; see
auditor/defaults.py)."""

from setuptools import find_packages, setup

DEFAULTS = {f"auditor._data.{kind}": kind for kind in ("rubrics", "prompts", "config")}

setup(
    packages=find_packages(include=["auditor", "auditor.*"]) + list(DEFAULTS),
    package_dir=DEFAULTS,
    package_data={
        "auditor": ["py.typed"],
        "auditor.claims": ["*.yaml"],
        "auditor.report": ["html/*.jinja", "html/*.css", "html/*.js"],
        "auditor._data.rubrics": ["*.yaml", "rubrics.lock.json"],
        "auditor._data.prompts": ["*.jinja"],
        "auditor._data.config": ["edge-audit.yaml", "tools.yaml"],
    },
    include_package_data=False,
)
