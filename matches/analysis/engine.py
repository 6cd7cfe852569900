"""Find GNU Backgammon and run one analysis pass in a process of its own.

Each run gets a temporary ``$HOME`` (gnubg writes its settings there), ``LANG=C`` (gnubg
translates its labels otherwise), its own process group (killed whole past the time
limit) and is measured: CPU time and peak resident memory of the gnubg process, from
``wait4``'s resource usage, since the machine may be busy with other work.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: Where Debian installs gnubg (not on root's PATH in most images).
DEBIAN_PATH = "/usr/games/gnubg"
SCRIPT = Path(__file__).with_name("gnubg_script.py")
#: The file in the run's temporary home where the script writes its answer (JSON).
ANSWER = "analysis.json"


def gnubg_find(configured: str = "") -> str | None:
    """The gnubg executable: the configured path, else ``gnubg`` on PATH, else Debian's."""
    if configured:
        return configured if os.access(configured, os.X_OK) and Path(configured).is_file() else None
    found = shutil.which("gnubg")
    if found:
        return found
    return DEBIAN_PATH if os.access(DEBIAN_PATH, os.X_OK) else None


@functools.cache
def gnubg_version(path: str) -> str:
    """``gnubg 1.07.001`` from the first line of ``gnubg --version``."""
    try:
        out = subprocess.run(
            [path, "--version"], capture_output=True, text=True, timeout=30, env=_env("/tmp")
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return "gnubg"
    words = out.split()
    # "GNU Backgammon 1.07.001 20230103"
    return f"gnubg {words[2]}" if len(words) > 2 and words[0] == "GNU" else "gnubg"


@dataclass(frozen=True, slots=True)
class Run:
    """One pass: gnubg's match dict, or why there is none; and what it cost."""

    match: dict[str, Any] | None
    reason: str
    cpu_seconds: float
    wall_seconds: float
    peak_kb: int
    output: str = ""

    @property
    def ok(self) -> bool:
        return self.match is not None


def _env(home: str) -> dict[str, str]:
    keep = {k: v for k, v in os.environ.items() if k in ("PATH", "TZ")}
    return {**keep, "HOME": home, "LANG": "C", "LC_ALL": "C", "LANGUAGE": "C"}


def file_format(file_name: str, text: str) -> str:
    """``sgf`` for a GNU Backgammon SGF record, else ``mat``."""
    if file_name.lower().endswith(".sgf") or text.lstrip().startswith("(;"):
        return "sgf"
    return "mat"


def analyse(
    *,
    gnubg: str,
    text: str,
    file_name: str,
    plies: int,
    timeout: float,
    show_statistics: bool = False,
    tick: Callable[[], None] | None = None,
) -> Run:
    """Analyse one match file at ``plies``; never raises for gnubg's faults (see ``reason``)."""
    fmt = file_format(file_name, text)
    with tempfile.TemporaryDirectory(prefix="gnubg-") as home:
        match_file = Path(home) / f"match.{fmt}"
        match_file.write_text(text, encoding="utf-8")
        env = _env(home) | {
            "ANALYSIS_OUT": str(Path(home) / ANSWER),
            "ANALYSIS_FILE": str(match_file),
            "ANALYSIS_FORMAT": fmt,
            "ANALYSIS_PLIES": str(plies),
        }
        if show_statistics:
            env["ANALYSIS_SHOW"] = "1"
        return _run([gnubg, "-t", "-q", "-r", "-p", str(SCRIPT)], env, home, timeout, tick)


#: How often a running pass calls its ``tick`` (the analysis' heartbeat), in seconds.
TICK_SECONDS = 10.0


def _run(
    argv: list[str],
    env: dict[str, str],
    cwd: str,
    timeout: float,
    tick: Callable[[], None] | None = None,
) -> Run:
    started = time.monotonic()
    try:
        proc = subprocess.Popen(
            argv,
            env=env,
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: killed whole on timeout
        )
    except OSError as exc:
        return Run(None, f"gnubg could not be started: {exc}", 0.0, 0.0, 0)
    chunks: list[bytes] = []
    assert proc.stdout is not None
    reader = threading.Thread(target=lambda: chunks.append(proc.stdout.read()), daemon=True)  # type: ignore[union-attr]
    reader.start()
    # Reaped by wait4 (not Popen.wait) for this one process's CPU time and peak memory.
    timed_out = False
    try:
        status, usage = _wait(proc.pid, started + timeout, tick)
    except BaseException:  # the task's own time limit, a shutdown: gnubg goes too
        _kill_group(proc.pid)
        _wait(proc.pid, None)
        raise
    if status is None:
        timed_out = True
        _kill_group(proc.pid)
        status, usage = _wait(proc.pid, None)
    proc.returncode = os.waitstatus_to_exitcode(status) if status is not None else -9
    reader.join(timeout=10)
    cpu = usage.ru_utime + usage.ru_stime if usage else 0.0
    peak = int(usage.ru_maxrss) if usage else 0  # kilobytes on Linux
    wall = time.monotonic() - started
    text = b"".join(chunks).decode("utf-8", "replace")
    if timed_out:
        return Run(
            None,
            f"gnubg took longer than the limit of {timeout:g} s and was stopped",
            cpu,
            wall,
            peak,
            text,
        )
    answer = Path(cwd) / ANSWER
    if not answer.is_file():
        tail = " ".join(text.strip().splitlines()[-3:])[-300:]
        return Run(
            None,
            f"gnubg ended (exit status {proc.returncode}) without an analysis: {tail}",
            cpu,
            wall,
            peak,
            text,
        )
    match, reason = read_answer(answer)
    return Run(match, reason, cpu, wall, peak, text)


def read_answer(path: Path) -> tuple[dict[str, Any] | None, str]:
    """The script's answer: ``(gnubg's match dict, "")`` or ``(None, why not)``; anything
    unreadable is a reason, never an exception."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        return None, f"gnubg's answer could not be read: {str(exc)[:200]}"
    if not isinstance(data, dict):
        return None, "gnubg's answer could not be read: not an object"
    if "error" in data:
        return None, str(data["error"])[:500]
    match = data.get("match")
    if not isinstance(match, dict):
        return None, "gnubg's answer could not be read: no match in it"
    return match, ""


def _wait(
    pid: int, deadline: float | None, tick: Callable[[], None] | None = None
) -> tuple[int | None, Any]:
    """Reap ``pid`` with its resource usage; ``(None, None)`` if the deadline passes first."""
    next_tick = time.monotonic() + TICK_SECONDS
    while True:
        flags = 0 if deadline is None else os.WNOHANG
        done, status, usage = os.wait4(pid, flags)
        if done == pid:
            return status, usage
        now = time.monotonic()
        if deadline is not None and now >= deadline:
            return None, None
        if tick is not None and now >= next_tick:
            next_tick = now + TICK_SECONDS
            tick()
        time.sleep(0.02)


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGKILL)
