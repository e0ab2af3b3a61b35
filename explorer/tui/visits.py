"""Where the user has been, browser-like: back, forward, and a new visit drops what was ahead."""

from __future__ import annotations


class Visits:
    def __init__(self, limit: int = 500) -> None:
        self.entries: list[str] = []
        self.index = -1
        self.limit = limit

    @property
    def current(self) -> str | None:
        return self.entries[self.index] if self.index >= 0 else None

    def visit(self, url: str) -> None:
        if url == self.current:
            return
        del self.entries[self.index + 1 :]
        self.entries.append(url)
        if len(self.entries) > self.limit:
            del self.entries[0]
        self.index = len(self.entries) - 1

    def can_go_back(self) -> bool:
        return self.index > 0

    def can_go_forward(self) -> bool:
        return self.index < len(self.entries) - 1

    def back(self) -> str | None:
        if not self.can_go_back():
            return None
        self.index -= 1
        return self.current

    def forward(self) -> str | None:
        if not self.can_go_forward():
            return None
        self.index += 1
        return self.current
