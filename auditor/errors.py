"""The one error tree of edge-audit.

    EdgeAuditError
    ├── UserError                 the user can fix it: bad input, bad flags, bad config
    │   ├── UsageError            command line or API arguments
    │   ├── ConfigError           a file under config/ (or --config) is invalid
    │   ├── HandoffContractError  (producer side) a required key is unavailable before dispatch
    │   └── TraceError            a trace file cannot be read as a trace
    │       ├── UnreadableTraceError   missing, binary, too large, not UTF-8
    │       ├── TraceFormatError       no known format matches (or --format does not)
    │       └── TraceValidationError   parsed, but fails the format's schema
    ├── RuntimeFailure            the tool or its environment failed, not the input
    │   ├── AuditFailure          auditing one trace failed unexpectedly (a bug); it is reported
    │   │                         like an unreadable input and the other traces go on (exit 4)
    │   ├── NlpUnavailableError   the configured spaCy pipeline cannot be loaded
    │   └── GraderError           a semantic grader call failed (timeout, rate limit, malformed
    │       │                     output, cassette miss, provider error); the item is reported
    │       │                     as unmeasured with this reason, never as a pass
    │       └── LiveRequestRefused   a live model request in a process that refuses them (tests)
    └── EdgesFailed               ``auditor.testing.assert_edges``: audited edges failed (also an
                                  AssertionError, so test runners report a failure, not an error)

Every ``TraceError`` names the file and, where known, the line and the JSON path.
"""

from __future__ import annotations


class EdgeAuditError(Exception):
    """Base of every error edge-audit raises on purpose."""


class UserError(EdgeAuditError):
    """Something the user can fix: input files, flags or configuration."""


class UsageError(UserError):
    """Invalid command line or API arguments."""


class ConfigError(UserError):
    """An invalid configuration file or value."""


class HandoffContractError(UserError):
    """Raised by ``auditor.contracts.build_envelope`` before dispatch: the source lacks a key
    the contract requires. ``events`` holds the source stage event, to record the failure."""

    def __init__(self, route: str, version: str, missing: list[str], events: tuple[dict[str, object], ...]) -> None:
        self.route = route
        self.version = version
        self.missing = missing
        self.events = events
        super().__init__(f"route {route} v{version}: required keys unavailable at the source: {', '.join(missing)}")


class TraceError(UserError):
    """A trace file that cannot be audited. Carries the file and the place in it."""

    def __init__(self, path: str, reason: str, *, line: int | None = None, where: str | None = None) -> None:
        self.path = path
        self.reason = reason
        self.line = line
        self.where = where
        super().__init__(self.describe())

    def describe(self) -> str:
        place = self.path
        if self.line is not None:
            place += f":{self.line}"
        if self.where:
            place += f" at {self.where}"
        return f"{place}: {self.reason}"


class UnreadableTraceError(TraceError):
    """The file is missing, binary, too large or not UTF-8."""


class TraceFormatError(TraceError):
    """No known trace format matches the content, or the forced format does not."""


class TraceValidationError(TraceError):
    """The content parsed but does not satisfy the format's schema."""


class RuntimeFailure(EdgeAuditError):
    """The tool or its environment failed; the input may be fine."""


class AuditFailure(RuntimeFailure):
    """Auditing one loaded trace raised an exception edge-audit did not foresee. The report
    lists it with the file and trace; the run goes on and exits 4."""

    def __init__(self, path: str, reason: str, *, line: int | None = None, where: str | None = None) -> None:
        self.path = path
        self.reason = reason
        self.line = line
        self.where = where
        super().__init__(f"{path}{'' if line is None else f':{line}'}{f' at {where}' if where else ''}: {reason}")


class MutationError(RuntimeFailure):
    """A self-test mutant that does not differ from its original exactly where its splices say
    (a bug in a mutation, never a finding)."""


class ExportError(RuntimeFailure):
    """The results could not be sent or written (``--otlp-out``): the audit itself ran."""


class NlpUnavailableError(RuntimeFailure):
    """The configured spaCy pipeline cannot be loaded."""


class GraderError(RuntimeFailure):
    """One grader call failed. ``kind`` is one of ``timeout``, ``rate_limit``, ``malformed``,
    ``cassette_miss``, ``provider`` or ``refused``."""

    def __init__(self, kind: str, reason: str) -> None:
        self.kind = kind
        self.reason = reason
        super().__init__(f"{kind}: {reason}")


class LiveRequestRefused(GraderError):
    """A live model request was attempted while live requests are refused."""

    def __init__(self, reason: str) -> None:
        super().__init__("refused", reason)


class EdgesFailed(EdgeAuditError, AssertionError):
    """``assert_edges`` found failing edges (or inputs it could not audit). The message names each
    edge, its route, each failing verdict and the quotes it rests on; ``failures`` holds the
    findings and ``report`` the whole report."""

    def __init__(self, message: str, failures: tuple[object, ...], report: object) -> None:
        self.failures = failures
        self.report = report
        super().__init__(message)
