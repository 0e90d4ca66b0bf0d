"""The contract of a hand, and what each strain lets the declarer declare.

This module is the one interpreter of a strain's declaration settings
(``Strain.trump``, ``Strain.directions``, ``Strain.bare``): the engine, the bots and
records ask a :class:`Declaration` what the declarer names, instead of comparing
the strain's words themselves.
"""

from __future__ import annotations

from dataclasses import dataclass

from .ruleset import NO_TRUMP, Ruleset


@dataclass(frozen=True, slots=True)
class Contract:
    """The contract a hand is played in, once the auction is won.

    ``bid`` is the index of the winning bid in the ladder (``level`` and ``strain``
    are that bid's).  ``trump`` is a suit index, or None for no trump *once declared*;
    ``declared`` says whether every declaration step is done (before that, ``trump``
    and ``direction`` hold what is fixed so far, None where nothing is).
    """

    declarer: int
    side: int
    bid: int
    level: int
    strain: int
    trump: int | None
    direction: int | None
    declared: bool

    @property
    def notrump(self) -> bool:
        """True when the hand is played (or, undeclared, so far set to be played) without trumps."""
        return self.trump is None

    def as_json(self, rules: Ruleset) -> dict:
        """The contract as records and observations show it (names, not indices)."""
        return {
            "declarer": self.declarer,
            "side": self.side,
            "bid": self.level,
            "strain": rules.strains[self.strain].name,
            "trump": None if self.trump is None else rules.suits[self.trump],
            "direction": None if self.direction is None else rules.orders[self.direction],
        }


def make_contract(rules: Ruleset, declarer: int, bid: int, trump: int, direction: int,
                  declared: bool) -> Contract:
    """A :class:`Contract` from the engine's internal indices (``trump`` NO_TRUMP, ``direction`` -1 when unset).

    Contracts are immutable values and a ruleset has few (seats x bids x trumps x
    directions): each is built once and kept with the ruleset, as every finished hand
    asks for its own (building a frozen dataclass costs more than finding it).
    """
    key = (declarer, bid, trump, direction, declared)
    known = rules.derived("contracts", _new_contracts)
    contract = known.get(key)
    if contract is None:
        b = rules.bids[bid]
        contract = Contract(declarer, rules.side_of[declarer], bid, b.level, b.strain,
                            None if trump == NO_TRUMP else trump, None if direction < 0 else direction, declared)
        if len(known) < _CONTRACTS_CAP:
            known[key] = contract
    return contract


# A bound on the contracts kept per ruleset (a few thousand at most in any variant: it only guards odd rules).
_CONTRACTS_CAP = 20000


def _new_contracts(rules: Ruleset) -> dict:
    return {}


@dataclass(frozen=True, slots=True)
class Declaration:
    """What the declarer of one strain declares after winning the auction.

    ``names_suit``: the declarer names a trump suit (a declaration step), with
    ``may_notrump`` also offering notrump there.  ``by_first_lead``: notrump may be
    declared, else the suit of the first card led is trump.  ``notrump_only``: the
    strain is played without trumps and nothing about trump is said.
    ``directions``: the rank orders the declarer may choose (one: fixed by the bid).
    ``bare``: the bid is said as its number alone.  ``fixed_suit``: the strain's
    trump is this suit (an index into the deck's suits) whoever declares; nothing
    about trump is said.
    """

    names_suit: bool
    may_notrump: bool
    by_first_lead: bool
    notrump_only: bool
    directions: tuple[int, ...]
    bare: bool
    fixed_suit: int | None = None

    @property
    def fixed_direction(self) -> int | None:
        """The direction the bid fixes, or None when the declarer chooses one."""
        return self.directions[0] if len(self.directions) == 1 else None

    @property
    def chooses_direction(self) -> bool:
        """Whether the declarer names a direction (more than one order is allowed)."""
        return len(self.directions) > 1

    @property
    def says_trump(self) -> bool:
        """Whether a declaration of this strain may state trump (records write ``trump`` then).

        Not where the strain plays without trump, nor where it fixes the trump suit:
        the declarer says nothing about trump there.
        """
        return not self.notrump_only and self.fixed_suit is None

    @property
    def kind(self) -> str | None:
        """What the bid itself says about a trump suit: ``suit``, ``notrump``, or None where
        the declaration (or the first lead) decides it (the words of kitty.show's contracts)."""
        if self.notrump_only:
            return "notrump"
        if self.fixed_suit is not None or (self.names_suit and not self.may_notrump):
            return "suit"
        return None

    def trump_choices(self, n_suits: int) -> list[int]:
        """Every trump (suit index or NO_TRUMP) a contract of this strain may end up with."""
        if self.fixed_suit is not None:
            return [self.fixed_suit]
        choices = list(range(n_suits)) if (self.names_suit or self.by_first_lead) else []
        if self.notrump_only or self.may_notrump or self.by_first_lead:
            choices.append(NO_TRUMP)
        return choices

    def contract_keys(self, rules: Ruleset) -> list[tuple[int, int]]:
        """The (trump, direction) play tables this strain may be played with, suits before notrump."""
        keys = []
        if self.fixed_suit is not None:
            keys += [(self.fixed_suit, d) for d in self.directions]
        if self.names_suit or self.by_first_lead:
            keys += [(t, d) for t in range(len(rules.suits)) for d in self.directions]
        if self.notrump_only or self.may_notrump or self.by_first_lead:
            keys += [(NO_TRUMP, d) for d in self.directions]
        return [k for k in keys if k in rules.tables]


def _declaration_of(strain, suits: tuple[str, ...]) -> Declaration:
    """Read one strain's settings (the only place ``Strain.trump`` is compared with its words).

    A ``trump`` naming one of the deck's ``suits`` (``S``) fixes that suit as trump.
    """
    kind = strain.trump
    return Declaration(
        names_suit=kind in ("suit", "suit-or-none"),
        may_notrump=kind == "suit-or-none",
        by_first_lead=kind == "none-or-first-lead",
        notrump_only=kind == "none",
        directions=tuple(strain.directions),
        bare=bool(strain.bare),
        fixed_suit=suits.index(kind) if kind in suits else None,
    )


def declarations(rules: Ruleset) -> tuple[Declaration, ...]:
    """The :class:`Declaration` of each strain of ``rules``, by strain index (computed once per ruleset)."""
    return rules.derived("declarations", _build_declarations)  # (a lambda here would be a new function every call)


def _build_declarations(rules: Ruleset) -> tuple[Declaration, ...]:
    """:func:`declarations`, built."""
    return tuple(_declaration_of(s, rules.suits) for s in rules.strains)


def declaration(rules: Ruleset, bid: int) -> Declaration:
    """The :class:`Declaration` of the strain of bid ``bid`` (an index into the ladder)."""
    return declarations(rules)[rules.bids[bid].strain]


def any_bare(rules: Ruleset) -> bool:
    """Whether some strain's bids are said as the number alone (so a number typed is a bid)."""
    return any(d.bare for d in declarations(rules))
