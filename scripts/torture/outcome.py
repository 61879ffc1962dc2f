"""What one interrupted run did, and what was wrong with it."""
from dataclasses import dataclass, field


@dataclass
class Outcome:
    """One run of taskgraph: its exit, the signals sent and the problems found."""

    name: str
    # The first signal's name, "SIGINT" or "SIGTERM".
    signal: str
    # The return code as Python reports it (negative: killed by that signal, as taskgraph ends
    # after cleaning up on one); None: hung.
    status: int | None
    # When each signal was sent, in seconds after the start.
    sent: list[float]
    # Seconds from the first signal to the exit, and from the last one.
    latency: float | None
    last_latency: float | None
    finished_first: bool = False
    before_handlers: bool = False
    files: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self):
        return not self.problems

    def describe(self):
        """How the run ended, e.g. "killed by signal 2 after 12 ms"."""
        if self.status is None:
            return "hung"
        if self.finished_first:
            return f"finished first (exit {self.status})"
        if self.before_handlers:
            return f"killed by signal {-self.status} before taskgraph trapped signals"
        ending = f"killed by signal {-self.status}" if self.status < 0 else f"exit {self.status}"
        if self.latency is None:
            return ending
        return f"{ending} after {self.latency * 1000:.0f} ms"
