"""Observations that Magentic-One's agents record inside their messages, found by the structure
the framework writes (never by any value of a particular log).

**Browser and file viewer transcripts.** After an action, WebSurfer writes the action it took
("I typed 'x' into 'y'.", "I clicked 'z'.", "I scrolled down one page in the browser.") and then
a transcript of what it saw::

    Here is a screenshot of [<page title>](<url>). The viewport shows N% of the webpage, and is positioned ...
    The following metadata was extracted from the webpage:
    { ...json... }
    Automatic OCR of the page screenshot has detected the following text:
    <text>
    <Image>

FileSurfer (and the text-based browser) writes a header and the page instead::

    Address: <url>
    Title: <title>
    You previously visited this page N seconds ago.
    Viewport position: Showing page 1 of 1.
    =======================
    <page text>

The transcript starts at the first of these markers at the start of a line (``Here is a
screenshot of``, ``The viewport shows``, ``The following metadata was extracted``, ``Automatic
OCR of the page screenshot``, ``The following text is visible``, the ``Address: ... Viewport
position:`` header) and ends after the last ``<Image>`` placeholder, or at the end of the message.
Text before it is the action echo; other text after it belongs to the message only. A message
that is only a tool error ("File surfer encountered an error decoding JSON arguments: ...") is a
failed observation.

**Runtime log lines.** The agent runtime writes into the messages of these logs: Python warnings
(``/.../orchestrator.py:216: UserWarning: ...`` and the source line under it) and "Error processing
publish message" with a traceback. They are framework output, not the agent's words: a separate
``agent_runtime`` call of the sender holds them (a transcript ends where they begin).

**Code execution output.** The ComputerTerminal reports "The script ran, then exited with Unix
exit code: N / Its output was: ...", "The script ran, then exited with an error (POSIX exit code:
N)", "The script ran but produced no output to console. The Unix exit code was: N." (exit code and
status parsed), "An exception occurred while executing the code block: ..." (status error) or "No
code block detected ..." (no code ran; status unknown).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

Status = Literal["ok", "error", "unknown"]

_OPENERS = re.compile(
    r"^(?:Here is a screenshot of\b"
    r"|The viewport shows\b"
    r"|The following metadata was extracted\b"
    r"|Automatic OCR of the page screenshot\b"
    r"|The following text is visible\b"
    r"|Address: [^\n]*\n(?:[^\n]*\n){0,3}?Viewport position: )",
    re.MULTILINE,
)
_IMAGE = "<Image>"
#: What the agent runtime itself writes into a message: a Python warning with its source line, or
#: "Error processing publish message" and a traceback (to the end of the message).
_RUNTIME_LOG = re.compile(
    r"^(?:/\S+\.py:\d+: \w*Warning: [^\n]*(?:\n[ \t]+[^\n]*)?"
    r"|Error processing publish message[ \t]*\nTraceback \(most recent call last\):.*)",
    re.MULTILINE | re.DOTALL,
)
_TOOL_ERROR = re.compile(r"\A\s*(?:Web|File)\s?surfer encountered an error\b", re.IGNORECASE)

_EXIT_CODE = re.compile(
    r"\A\s*The script ran(?:, then exited with (?:an error \()?|\s+but produced no output to console\. The )"
    r"(?:Unix|POSIX) exit code(?: was)?:\s*(-?\d+)", re.IGNORECASE)
_EXCEPTION = re.compile(r"\A\s*An exception occurred while executing the code block", re.IGNORECASE)


@dataclass(frozen=True)
class Transcript:
    """A message split into what the agent did (``action``, may be empty), what it saw
    (``observation``, the exact slice ``content[start:end]``) and the tool's status."""

    action: str
    observation: str
    start: int
    end: int
    status: Status


def split_transcript(content: str) -> Transcript | None:
    """The observation transcript inside a message, or None when it has none."""
    if _TOOL_ERROR.match(content):
        text = content.strip()
        start = content.index(text)
        return Transcript("", text, start, start + len(text), "error")
    opener = _OPENERS.search(content)
    if opener is None:
        return None
    start = opener.start()
    image = content.rfind(_IMAGE)
    runtime = [m.start() for m in _RUNTIME_LOG.finditer(content, start)]
    end = image + len(_IMAGE) if image >= start else (runtime[0] if runtime else len(content))
    end = start + len(content[start:end].rstrip())
    return Transcript(content[:start].strip(), content[start:end], start, end, "ok")


def runtime_log(content: str) -> str | None:
    """The runtime's own log lines inside a message (warnings, an error traceback), joined, or None."""
    parts = [m.group(0).rstrip() for m in _RUNTIME_LOG.finditer(content)]
    return "\n".join(parts) if parts else None


def execution_status(output: str) -> tuple[int | None, Status]:
    """Exit code and status of a ComputerTerminal output."""
    match = _EXIT_CODE.match(output)
    if match:
        code = int(match.group(1))
        return code, "ok" if code == 0 else "error"
    if _EXCEPTION.match(output):
        return None, "error"
    return None, "unknown"


def observation_call(event_id: str, agent: str, content: str) -> dict[str, Any] | None:
    """The ``observation`` tool call (as a native event) for the transcript inside the message
    ``event_id`` of ``agent``, or None when the message has none. It is visible to the agent only
    (the message that carries it reaches the others), with id ``<event_id>.observation``, tool
    ``file_viewer`` for an agent whose name says file and ``web_browser`` otherwise, and the
    action echo as ``arguments.action``."""
    transcript = split_transcript(content)
    if transcript is None:
        return None
    return {"type": "tool_call", "id": f"{event_id}.observation", "agent": agent,
            "tool": "file_viewer" if "file" in agent.lower() else "web_browser",
            "arguments": {"action": transcript.action} if transcript.action else None,
            "result": transcript.observation, "status": transcript.status, "visible_to": [],
            "recorded_as": "observation"}


def runtime_call(event_id: str, agent: str, content: str) -> dict[str, Any] | None:
    """The runtime's log lines inside the message ``event_id`` as a tool call of ``agent``
    (tool ``agent_runtime``, id ``<event_id>.runtime``, ``recorded_as: observation``, visible to
    the agent only; status ``error`` for a traceback): framework output recorded in the message,
    not the agent's words. None when the message has none."""
    log = runtime_log(content)
    if log is None:
        return None
    return {"type": "tool_call", "id": f"{event_id}.runtime", "agent": agent, "tool": "agent_runtime",
            "result": log, "status": "error" if "Traceback (most recent call last)" in log else "unknown",
            "visible_to": [], "recorded_as": "observation"}
