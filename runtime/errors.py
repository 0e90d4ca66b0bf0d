"""The engine's one exception: an action the rules do not allow."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action refused by the rules.

    ``rule`` is a short stable name of the rule that refused it (``follow-suit``,
    ``bid-too-low``, ``dealer-must-bid``, ``not-in-hand``, ``wrong-phase`` …) and
    ``seat`` the seat that tried it; ``message`` says both in words, for example
    ``seat 2 must follow hearts (holds 7H)``.
    """

    def __init__(self, seat: int | None, rule: str, message: str):
        self.seat = seat
        self.rule = rule
        self.message = message
        super().__init__(message)

    def __reduce__(self):
        return (IllegalAction, (self.seat, self.rule, self.message))
