"""What the AG2 and Magentic-One importers share: the Who&When document shape
(``{question, history: [{content, role, name}], ...}``), validated at the boundary.

Every wrong-typed field raises ``ValueError`` naming its place (``history[3].content: ...``);
the loader turns that into an error naming the file. Nothing here raises ``TypeError`` or
``AttributeError`` on a malformed document.
"""

from __future__ import annotations

import re
from typing import Any

#: A Magentic-One role: ``Orchestrator (-> WebSurfer)``, ``Orchestrator (thought)``...
MAGENTIC_ROLE = re.compile(r"^(?P<agent>[^()]+?)\s*\((?:->\s*(?P<to>[^()]+?)|(?P<note>[a-z ]+))\)\s*$")
CODE_BLOCK = re.compile(r"```[\w+-]*[ \t]*\n(.*?)```", re.DOTALL)
_LABEL_KEYS = ("question_ID", "level", "ground_truth", "mistake_agent", "mistake_step", "mistake_reason",
               "mistake_type")


def history_of(document: Any) -> list[Any] | None:
    """The ``history`` list of a document, or None when there is none (for detection)."""
    history = document.get("history") if isinstance(document, dict) else None
    return history if isinstance(history, list) else None


def is_magentic(history: list[Any]) -> bool:
    """Whether a history uses Magentic-One's ``Agent (-> Recipient)`` / ``Agent (note)`` roles."""
    return any(isinstance(item, dict) and isinstance(item.get("role"), str) and MAGENTIC_ROLE.match(item["role"])
               for item in history)


def checked_history(document: Any) -> list[dict[str, Any]]:
    """The history, every item checked to be an object."""
    if not isinstance(document, dict):
        raise ValueError(f"expected a JSON object with a history list, got {type(document).__name__}")
    history = document.get("history")
    if not isinstance(history, list):
        raise ValueError(f"history: expected a list of messages, got {type(history).__name__}")
    for index, item in enumerate(history):
        if not isinstance(item, dict):
            raise ValueError(f"history[{index}]: expected an object, got {type(item).__name__}")
    return history


def text_field(item: dict[str, Any], key: str, index: int) -> str:
    """A string field of a history item (``""`` when absent or null)."""
    value = item.get(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ValueError(f"history[{index}].{key}: expected a string, got {type(value).__name__}")
    return value


def content_of(item: dict[str, Any], index: int) -> str:
    """A message's text: a string, or a list of parts (strings, or objects whose ``text`` is a
    string; other parts such as images carry no text)."""
    content = item.get("content")
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts: list[str] = []
        for n, part in enumerate(content):
            text = part.get("text") if isinstance(part, dict) else part
            if isinstance(part, dict) and text is None:
                continue
            if not isinstance(text, str):
                raise ValueError(f"history[{index}].content[{n}]: expected text, got {type(text).__name__}")
            parts.append(text)
        return "\n".join(parts)
    raise ValueError(f"history[{index}].content: expected text, got {type(content).__name__}")


def code_of(text: str) -> str | None:
    """The fenced code blocks of a message, joined, or None when it has none."""
    blocks = CODE_BLOCK.findall(text)
    return "\n".join(blocks) if blocks else None


def trace_id_of(document: dict[str, Any], name_hint: str) -> str:
    value = document.get("question_ID")
    if value is None or value == "":
        return name_hint
    if not isinstance(value, (str, int)) or isinstance(value, bool):
        raise ValueError(f"question_ID: expected a string or number, got {type(value).__name__}")
    return str(value)


def metadata_of(document: dict[str, Any], source: str) -> dict[str, Any]:
    """Trace metadata: the question as the task, ``is_correct`` as the score, Who&When's
    labels (``mistake_agent``, ``mistake_step``, ...) as labels."""
    labels = {key: document[key] for key in _LABEL_KEYS if key in document}
    question = document.get("question")
    if question is not None and not isinstance(question, str):
        raise ValueError(f"question: expected a string, got {type(question).__name__}")
    correct = document.get("is_correct")
    score = (1.0 if correct else 0.0) if isinstance(correct, bool) else None
    return {"source": source, "task": question, "score": score, "labels": labels}


def unused_name(preferred: str, taken: set[str]) -> str:
    """``preferred``, or ``preferred-2``, ``-3``... when an agent of the log already has it."""
    name, n = preferred, 1
    while name in taken:
        n += 1
        name = f"{preferred}-{n}"
    return name
