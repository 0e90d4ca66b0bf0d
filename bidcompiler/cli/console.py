"""The rich console every command writes through: rich's, but a closed pipe is left to the entry point."""

from __future__ import annotations

import errno
import os

import rich.console


class Console(rich.console.Console):
    """rich's console, but a closed pipe is left to the command line's entry point to end.

    rich ends the process itself on one (status 1, no word); the entry point
    (bidcompiler.cli.main) ends every command's closed pipe the same way, status 141.
    """

    def on_broken_pipe(self) -> None:
        """Write nothing more here, and raise the closed pipe as any other write would."""
        self.quiet = True
        raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))
