"""A readable rulebook of a compiled variant, in Markdown, made from the IR alone.

``bidwhist rules NAME+RULE`` prints what a table agrees on before play.
No sentence here is written for one variant: every line is a generic sentence whose
words come from the IR's values, so a new variant file or house rule gets a correct
rulebook without touching this module.  Formulas are shown simplified, in code font,
with a plain-English reading beside them (:mod:`bidcompiler.formula_text`).

The output is deterministic (the IR's tuples keep file order; nothing iterates a set
or an unordered mapping), so it is pinned by golden files in ``tests/golden/rules``.
"""

from __future__ import annotations

from dataclasses import replace

from runtime.variables import GAME_VARIABLES, HAND_VARIABLES, MADE_VARIABLE, reads_sweep

from . import ir
from .expressions import (
    Binary, Bool, BoolOp, Call, Compare, IfElse, Name, Not, Num, Unary, parse_expression,
)
from .build import kitty_show_words
from .checks import bids_words, certain_sets
from .formula_text import Wording, formula_code, formula_shown, reading, simplified
from .vocabulary import rulebook_words, said as say
from .seatwords import capital, declarer_words, noun

NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
                8: "eight", 9: "nine", 10: "ten"}

# Every setting's words (one sentence or phrase per value) live in the schema, beside
# the setting (``x-rulebook``); see bidcompiler.vocabulary.

def _card_words() -> dict[str, str]:
    """Named extra cards in words (BJ: big joker), from the schema's card definition."""
    return rulebook_words("deck.extra[]")


def _number(n: int) -> str:
    return NUMBER_WORDS.get(n, str(n))


def _join(items, last: str = "and") -> str:
    """``a, b and c``."""
    items = [str(i) for i in items]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


def _md(text: str) -> str:
    """Free text from a file, with the characters Markdown would act on escaped."""
    for ch in "\\`*_[]<>#":
        text = text.replace(ch, "\\" + ch)
    return text


def _code(text: str) -> str:
    return f"`{text}`"


# --------------------------------------------------------------------- formulas in words
#
# Each formula is shown simplified (what a house rule's `base` left repeated is
# folded away) and read in plain English beside it; see bidcompiler.formula_text.


def _wording(v: ir.Variant, score: bool = False) -> Wording:
    """How a reading of ``v``'s formulas names the declaring side; ``score``: numbers are points."""
    return Wording(declarers=declarer_words(v.sides == "partners")[0], points=score)


PLAIN_WORDING = Wording()  # the default wording (a frozen value, shared safely)


def formula_words(f: ir.Formula, wording: Wording = PLAIN_WORDING) -> str:
    """The formula in plain English (after simplifying it)."""
    return reading(_tree(f), wording, condition=_is_bool(f))


def _is_bool(f: ir.Formula) -> bool:
    return f.type == "bool"


def _tree(f: ir.Formula):
    # The canonical text parses back to the same tree (expressions.unparse's
    # contract), so this works for any IR, however it was built.
    return parse_expression(f.text)


def _shown(f: ir.Formula) -> str:
    """The formula's text as the rulebook shows it: simplified."""
    return formula_shown(f.text)


def _listed(ways: list[tuple[str, ir.Formula]], wording: Wording) -> list[str]:
    """Named parts (ways a game ends, the defenders' terms), one indented item each: ``  - sweep: `swept` — ...;``."""
    return [f"  - {name}: {_with_words(f, wording)}{'.' if i == len(ways) - 1 else ';'}"
            for i, (name, f) in enumerate(ways)]


def _ways(conditions: tuple[ir.Condition, ...]) -> list[tuple[str, ir.Formula]]:
    """The named conditions of a game end that can hold (one plainly ``false`` adds nothing)."""
    return [(c.name, c.formula) for c in conditions if c.formula.text and _shown(c.formula) != "false"]


def listed_terms(terms: tuple[ir.Condition, ...]) -> list[tuple[str, ir.Formula]]:
    """The named terms of the defenders' score that can add something (one plainly ``0`` adds nothing):
    the terms the rulebook lists one a line where there are two or more (``diff`` rows follow it)."""
    return [(c.name, c.formula) for c in terms if c.formula.text and _shown(c.formula) != "0"]


def _with_words(f: ir.Formula, wording: Wording) -> str:
    """``code`` — words, or just ``code`` when the words would add nothing (a bare number)."""
    tree = simplified(_tree(f))
    code = formula_code(tree)
    if isinstance(tree, (Num, Bool)) or (isinstance(tree, Unary) and isinstance(tree.operand, Num)):
        return _code(code)
    words = reading(tree, wording, condition=_is_bool(f))
    return _code(code) if words == code else f"{_code(code)} — {words}"


def _names_in(e) -> set[str]:
    match e:
        case Name(name=name):
            return {name}
        case Num() | Bool():
            return set()
        case Unary(operand=x) | Not(operand=x):
            return _names_in(x)
        case Binary(left=l, right=r) | Compare(left=l, right=r) | BoolOp(left=l, right=r):
            return _names_in(l) | _names_in(r)
        case IfElse(cond=c, then=t, orelse=o):
            return _names_in(c) | _names_in(t) | _names_in(o)
        case Call(args=args):
            return set().union(*(_names_in(a) for a in args))
    return set()


# ------------------------------------------------------------------------------ sections


def _deck_size(v: ir.Variant) -> int:
    return len(v.deck.cards())


def _extras_noun(cards) -> str:
    """``the jokers BJ, LJ`` or ``the extra cards X1`` (a card not known as a joker)."""
    jokers = all(c in _card_words() for c in cards)
    noun = ("the joker" if jokers else "the extra card") + ("s" if len(cards) > 1 else "")
    return f"{noun} {', '.join(cards)}"


def _sides(v: ir.Variant) -> list[list[int]]:
    """The seats of each side, as ``lower`` assigns them."""
    if v.sides == "partners":
        count = v.players // 2
        return [[seat for seat in range(v.players) if seat % count == side] for side in range(count)]
    return [[seat] for seat in range(v.players)]


def _bid_text(strain: ir.Strain, level) -> str:
    return str(level) if strain.bare else f"{level} {strain.name}"


def _ladder(v: ir.Variant) -> str:
    """Every bid lowest first, equal bids joined by ``=``; long ladders shortened in the middle."""
    a = v.auction
    by_name = {s.name: s for s in a.strains}

    def at(name: str, level: int) -> bool:
        low, high = a.levels_of(by_name[name])
        return low <= level <= high

    def level_text(level: int) -> str:
        # A strain with levels of its own has no rung at the other numbers.
        groups = [[n for n in group if at(n, level)] for group in a.ranking]
        return " < ".join(" = ".join(_bid_text(by_name[n], level) for n in group) for group in groups if group)

    spans = [a.levels_of(s) for s in a.strains]
    levels = list(range(min(lo for lo, _ in spans), max(hi for _, hi in spans) + 1))
    bids = sum(1 for level in levels for group in a.ranking for n in group if at(n, level))
    # Up to 21 bids the whole ladder fits a printed line or two; beyond, the
    # pattern is clear from the first two numbers and the last.
    if bids <= 21 or len(levels) <= 3:
        return " < ".join(level_text(level) for level in levels)
    return " < ".join([level_text(levels[0]), level_text(levels[1]), "…", level_text(levels[-1])])


def _partner_bar_line(a: ir.Auction) -> str:
    """The rulebook's line for ``overcall_partner: false``, naming only the calls still open to
    the player whose partner holds the high bid (and that a pass there is final where it is)."""
    line = "A player may not bid over a high bid their partner holds: they may pass"
    if a.rounds == "until-passed":
        line += ", and that pass takes them out of the auction as any pass does"
    if a.dealer_may_take:
        line += "; the dealer may still take the partner's bid"
    if a.redeal_without:
        line += "; a first call of `redeal` stays open where the cards allow it"
    return line + "."


def _lowest_bids(v: ir.Variant, floor: int = 0) -> str:
    """The ladder's lowest bids at the number ``floor`` or above, in words (``3 uptown or 3 downtown``)."""
    a = v.auction
    by_name = {s.name: s for s in a.strains}
    low = max(floor, min(a.levels_of(s)[0] for s in a.strains))
    for group in a.ranking:  # the lowest rung of the ladder, whichever strains it has
        here = [n for n in group if a.levels_of(by_name[n])[0] <= low <= a.levels_of(by_name[n])[1]]
        if here:
            return _join([_bid_text(by_name[n], low) for n in here], "or")
    return ""


def _players_section(v: ir.Variant) -> list[str]:
    lines = ["## Players and cards", ""]
    sides = _sides(v)
    if v.sides == "partners":
        groups = [_join(s) for s in sides]
        lines.append(f"{_number(v.players).capitalize()} players in {_number(len(sides))} partnerships: "
                     f"seats {' against '.join(groups)}.")
    else:
        lines.append(f"{_number(v.players).capitalize()} players, each playing alone (seats "
                     f"{_join(range(v.players))}); the declarer plays against the other "
                     f"{_number(v.players - 1)}.")
    suited = len(v.deck.suits) * len(v.deck.ranks) - len([c for c in v.deck.without if c not in v.deck.extra])
    deck = f"The deck: {suited} cards"
    if v.deck.extra:
        deck += f" and {_extras_noun(v.deck.extra)} ({_deck_size(v)} cards)"
    lines.append(deck + ".")
    suits = _join([say("deck.suits[]", s, s) for s in v.deck.suits])
    ranks = " ".join(v.deck.ranks)
    lines.append(f"Suits: {suits}; ranks {ranks}" + (" (T is the ten)" if "T" in v.deck.ranks else "") + ".")
    if v.deck.without:
        lines.append(f"Taken out of the deck: {_join(v.deck.without)}.")
    card_words = _card_words()
    if v.deck.extra and any(c in card_words for c in v.deck.extra):
        lines.append(", ".join(f"{c} is the {card_words[c]}" for c in v.deck.extra if c in card_words) + ".")
    first = v.deal.first_dealer
    dealer = say("deal.first_dealer", first, "") if first == "random" else f"Seat {first} deals the first hand"
    rotation = say("deal.rotation", v.deal.rotation, f"the deal passes: {v.deal.rotation}")
    lines.append(f"{dealer}; {rotation}.")
    if v.deal.kitty:
        face = "up" if v.kitty.show == "deal" else "down"
        lines.append(f"Each player gets {v.deal.hand} cards; {v.deal.kitty} go face {face} to the kitty.")
    else:
        lines.append(f"Each player gets {v.deal.hand} cards; there is no kitty.")
    if v.deal.undealt:
        lines.append(f"The other {v.deal.undealt} cards are set aside face down, unseen, and take no part in "
                     "the hand.")
    return lines


def _orders_section(v: ir.Variant) -> list[str]:
    lines = ["## Rank orders", "", "Highest card first; a contract is played in one of them.", ""]
    for order in v.orders:
        users = [s.name for s in v.auction.strains if order.name in s.directions]
        used = f" (bids: {', '.join(users)})" if users else ""
        also = f" (also called {_join([_code(a) for a in order.aliases], 'or')})" if order.aliases else ""
        lines.append(f"- **{order.name}**{also}: {' '.join(order.ranks)}{used}")
    return lines


def _auction_section(v: ir.Variant) -> list[str]:
    a = v.auction
    lines = ["## The auction", ""]
    if len(a.strains) == 1 and a.strains[0].bare:
        lines.append(f"Bids are bare numbers from {a.min_level} to {a.max_level}.")
    else:
        said = []
        for s in a.strains:
            also = f" (also {', '.join(s.aliases)})" if s.aliases else ""
            said.append(f"{s.name}{also}" + (", said as the bare number" if s.bare else ""))
        lines.append(f"Bids are a number from {a.min_level} to {a.max_level} and one of: {'; '.join(said)}.")
    counted = say("auction.bids_count", a.bids_count, "")
    if counted:  # said only where bids count other than the usual way (books over six)
        lines.append(counted)
    for s in a.strains:
        if s.levels is not None and s.levels != (a.min_level, a.max_level):
            lines.append(f"A bid of {s.name} must be from {s.levels[0]} to {s.levels[1]}.")
    if len(a.ranking) == 1 and len(a.ranking[0]) > 1:
        lines.append("All bids of one number are equal: only a higher number overcalls.")
    lines.append(f"The bids, lowest first: {_ladder(v)}.")
    first = say("auction.first_caller", a.first_caller, f"First to call: {a.first_caller}")
    lines.append(say("auction.rounds", a.rounds, "{first}; the calls: " + a.rounds + ".")
                 .format(first=first, passes_end=a.passes_end))
    if a.dealer_may_take:
        partner = ", even a partner's" if v.sides == "partners" else ""
        lines.append(f"The dealer may also take the contract by matching the high bid (the call `take`{partner}).")
    if a.overcall_by > 1:
        lines.append(f"An overcall must be at least {a.overcall_by} steps up the ladder above the high bid "
                     "(each `<` is a step).")
    if not a.overcall_partner and v.sides == "partners":
        lines.append(_partner_bar_line(a))
    lines.append(say("auction.if_all_pass", a.if_all_pass, f"If all pass: {a.if_all_pass}.")
                 .format(lowest=_lowest_bids(v, a.dealer_bids_from or 0)))
    if a.if_all_pass != "redeal" and (a.dealer_bids_from or 0) > min(a.levels_of(s)[0] for s in a.strains):
        lines.append(f"A dealer left to bid that way may bid nothing below {a.dealer_bids_from}.")
    if a.must_bid:
        who = _join(tuple(noun(word, a.first_caller) for word in a.must_bid), "and")
        lines.append(f"{capital(who)} may not pass: their first call must be a bid.")
    if a.redeal_without:
        ranks = _join(a.redeal_without, "or")
        lines.append(f"A player holding no {ranks} may call `redeal` instead of their first call; the hand "
                     "is thrown in.")
    if a.if_all_pass == "dealer-bids-or-redeal" or a.redeal_without:
        lines.append(say("auction.redeal_dealer", a.redeal_dealer, f"After a call of redeal: {a.redeal_dealer}."))
    if a.if_all_pass == "redeal":
        lines.append(say("auction.all_pass_dealer", a.all_pass_dealer, f"After all pass: {a.all_pass_dealer}."))
    lines.append("The highest bidder becomes the declarer.")
    return lines


def _declaration_section(v: ir.Variant) -> list[str]:
    lines = ["## Declaration", "", "What the declarer names for each bid:", ""]
    for s in v.auction.strains:
        if len(s.directions) == 1:
            order = f"played {s.directions[0]}"
        else:
            order = f"the declarer chooses the order: {_join(s.directions, 'or')}"
        said = "bare numbers" if s.bare and len(v.auction.strains) == 1 else s.name
        trump = say("auction.strains[*].trump", s.trump, s.trump)
        lines.append(f"- **{said}**: {trump}; {order}.")
    chooses = [s for s in v.auction.strains if s.trump in ("suit", "suit-or-none") or len(s.directions) > 1]
    if v.deal.kitty and chooses:
        lines.append("")
        when, taker = v.declaration.when, v.kitty.taker
        # Another seat than the declarer's taking the kitty is named in the sentence.
        key = when if taker == "declarer" else f"{when}/taker"
        lines.append(say("declaration.when", key, f"The declarer makes these choices: {when}.")
                     .format(taker=noun(taker), Taker=capital(noun(taker))))
    return lines


def _kitty_section(v: ir.Variant) -> list[str]:
    if not v.deal.kitty:
        return []
    lines = ["## The kitty", ""]
    what = " (any cards, " + _extras_noun(v.deck.extra).removeprefix("the ") + " included)" if v.deck.extra else ""
    taker = "The declarer" if v.kitty.taker == "declarer" else f"{capital(noun(v.kitty.taker))}, not the declarer,"
    lines.append(f"{taker} adds the {v.deal.kitty} cards of the kitty to their hand and discards "
                 f"{v.deal.kitty} cards face down{what}.")
    lines.append(say("kitty.discards", v.kitty.discards, f"The discards: {v.kitty.discards}."))
    most, never = certain_sets(v)
    if never:
        lines.append(f"So a bid of {bids_words(v, never)} can never be made: with at most {most} books, "
                     "the declaring side is always set.")
    if ir.books_kept_from_declarers(v.deal.kitty, v.kitty.discards) and reads_sweep(v.names_read()):
        # runtime.kitty.swept: every book a side could take (docs/rule-combinations.md).
        lines.append(f"Taking every trick is then a sweep for the declaring side (all {most} books it can take).")
    # A (when, contracts) pair is said under its shorthand word where it has one, else as when/contracts.
    pair = (v.kitty.show, v.kitty.show_contracts)
    if v.kitty.show == "declaration" and v.declaration.when == "after-kitty":
        # The kitty is taken before the declaration: shown as the bid says the contract's kind (rules.md §8).
        pair = ("auction-end", v.kitty.show_contracts)
        words = rulebook_words("kitty.show").get("/".join(["declaration", *v.kitty.show_contracts, "after-kitty"]))
        if words and v.kitty.show_contracts:
            lines.append(words.format(taker=noun(v.kitty.taker)))
            return lines
    key = {p: word for word, p in kitty_show_words().items()}.get(pair) or "/".join([pair[0], *pair[1]])
    # "before {taker} takes it": the seat that picks the kitty up (the declarer unless kitty.taker says).
    lines.append(say("kitty.show", key, f"The kitty is shown: {v.kitty.show} "
                     f"({_join(v.kitty.show_contracts) or 'all'}).").format(taker=noun(v.kitty.taker)))
    return lines


def _books(v: ir.Variant) -> int:
    """Books in a hand: one per trick, and the discards' book where they count as one."""
    return ir.books_of_hand(v.deal.hand, v.deal.kitty, v.kitty.discards)


def _play_section(v: ir.Variant) -> list[str]:
    p = v.play
    lines = ["## Play", ""]
    lead = f"{capital(noun(p.first_lead))} leads to the first trick"
    lines.append(f"{lead}; the winner of each trick leads to the next.")
    books = _books(v)
    if books != v.deal.hand:
        lines.append(f"There are {v.deal.hand} tricks; with the discards, {books} books in all.")
    else:
        lines.append(f"There are {v.deal.hand} tricks, one book each.")
    lines.append(say("play.renege", p.renege, f"Reneges: {p.renege}.").format(books=p.renege_books))
    lines.append("A trick is won by the highest trump in it, or else by the highest card of the suit led, "
                 "in the contract's rank order.")
    suit_contracts = any(s.trump != "none" for s in v.auction.strains)
    notrump = any(s.trump in ("none", "suit-or-none", "none-or-first-lead") for s in v.auction.strains)
    # Cards with a role of their own under a kind of contract: said first, left out below.
    in_suit, in_nt = p.roles_in("suit") if suit_contracts else {}, p.roles_in("notrump") if notrump else {}
    for where, roles in (("In a suit contract", in_suit), ("In no trump", in_nt)):
        for role in dict.fromkeys(roles.values()):
            # Extra cards first, in deck order (BJ before LJ), as they rank among top cards.
            with_role = sorted((c for c in roles if roles[c] == role),
                               key=lambda c: (0, v.deck.extra.index(c)) if c in v.deck.extra else (1, 0))
            card_words = _card_words()
            named = _join([f"{c} (the {card_words[c]})" if c in card_words else c for c in with_role])
            free = ", or at any time" if where == "In no trump" and p.notrump_extras == "free" else ""
            words = say("play.roles[*]", role, f"of the role {role}").format(free=free)
            lines.append(f"{where} {named} {'is' if len(with_role) == 1 else 'are each'} {words}.")
        if len(roles) > 1 and "top" in roles.values():
            lines.append(f"{where}, of several such cards in one trick, the one named first wins (cards of a suit "
                         "by rank in the contract's order).")
    trumps_above = tuple(c for c in p.trumps_above if c not in in_suit)
    if trumps_above and suit_contracts:
        if len(trumps_above) == 1:
            lines.append(f"In a suit contract {trumps_above[0]} is the highest trump, above the trump suit's own "
                         "cards; it counts as a card of the trump suit.")
        else:
            lines.append(f"In a suit contract {_join(trumps_above)} are the highest trumps, in that order, "
                         "above the trump suit's own cards; they count as cards of the trump suit.")
        suited = [c for c in trumps_above if c not in v.deck.extra]
        if suited and notrump:
            what = "is an ordinary card of its suit" if len(suited) == 1 else "are ordinary cards of their suits"
            lines.append(f"In no trump {_join(suited)} {what}.")
    loose = [c for c in v.deck.extra if c not in trumps_above and c not in in_suit]
    if loose and suit_contracts:
        verbs = "belongs to no suit and never wins" if len(loose) == 1 else "belong to no suit and never win"
        lines.append(f"In a suit contract {_join(loose)} {verbs}; such a card may be played only by a player "
                     "who cannot follow the suit led.")
    nt_extras = [c for c in v.deck.extra if c not in in_nt]
    extras_words = rulebook_words("play.notrump_extras")
    if nt_extras and notrump and p.notrump_extras in extras_words:
        cards = _extras_noun(nt_extras)
        one = "A joker" if all(c in _card_words() for c in nt_extras) else "An extra card"
        single = len(nt_extras) == 1
        taker = noun(v.kitty.taker)  # who lays the kitty away sets its own extra cards aside
        lines.append(extras_words[p.notrump_extras].format(
            cards=cards, one=one, one_lower=one.lower(), belong="belongs" if single else "belong",
            taker=taker, takers=f"{taker}'s",
            win="wins" if single else "win", leave="leaves" if single else "leave"))
    # Enough cards that can never win for a whole trick of them: say who takes it.
    in_notrump = len([c for c in v.deck.extra if c not in in_nt]) if notrump and p.notrump_extras != "out" else 0
    in_suits = len(loose) if suit_contracts else 0
    if max(in_notrump, in_suits) >= v.players:
        lines.append("A trick made only of cards that never win goes to the player who led it.")
    return lines


def _scoring_section(v: ir.Variant) -> list[str]:
    s = v.scoring
    partners = v.sides == "partners"
    declarers = "Declarers score" if partners else "The declarer scores"
    defenders = ("Defenders score" if len(_sides(v)) == 2 else "Each defending side scores") if partners \
        else "Each defender scores"
    lines = ["## Scoring", ""]
    points, plain = _wording(v, score=True), _wording(v)
    lines.append(f"- **Made** when: {_with_words(s.made, plain)}.")
    lines.append(f"- **{declarers}**: {_with_words(s.declarer, points)}.")
    terms = listed_terms(s.defender_terms)
    if len(terms) > 1:
        # Named terms read one a line, as a game end's named conditions do: their sum
        # written out as one formula reads as a sum of clauses nobody says aloud.
        lines.append(f"- **{defenders}** the sum of these terms:")
        lines.extend(_listed(terms, points))
    else:
        lines.append(f"- **{defenders}**: {_with_words(s.defender, points)}.")
    if _shown(s.multiplier) == "1":
        lines.append("- **Multiplier**: none (scores are not multiplied).")
    else:
        whom = {("declarer", "defenders"): "every score of the hand",
                ("declarer",): "the declarers' score only" if partners else "the declarer's score only",
                ("defenders",): "the defenders' scores only", (): "no score"}
        applies = whom.get(tuple(sorted(s.multiply)), ", ".join(s.multiply))
        lines.append(f"- **Multiplier**: {_with_words(s.multiplier, plain)}. It applies to {applies}.")
    if v.auction.if_all_pass in ("redeal", "dealer-bids-or-redeal") or v.auction.redeal_without:
        lines.append("")
        lines.append("A hand thrown in scores nothing.")
    return lines


def _game_section(v: ir.Variant) -> list[str]:
    g = v.game
    lines = ["## Game end", ""]
    plain = replace(_wording(v), target=g.target)
    wins = _ways(g.win_when)
    if len(wins) > 1:
        lines.append("- **A side wins** when any of these holds:")
        lines.extend(_listed(wins, plain))
    else:
        lines.append(f"- **A side wins** when: {_with_words(g.win, plain)}.")
    others = "the other side then wins" if len(_sides(v)) == 2 else \
        "the side still in with the highest score then wins"
    loses = _ways(g.lose_when)
    if _shown(g.lose) == "false":
        lines.append("- **A side loses** only when another wins.")
    elif len(loses) > 1:
        lines.append(f"- **A side loses** when any of these holds ({others}):")
        lines.extend(_listed(loses, plain))
    else:
        lines.append(f"- **A side loses** when: {_with_words(g.lose, plain)}; {others}.")
    lines.append(f"- **Tie**: {tie_words(g.tie, len(_sides(v)))}")
    if g.floor is not None:
        lines.append(f"- **Floor**: no side's total goes below {g.floor}.")
    if g.rubber > 1:
        lines.append(f"- **Rubber**: the best of {g.rubber} games; the first side to win {g.rubber // 2 + 1} "
                     "games wins, and each new game starts from 0.")
    else:
        lines.append("- **Rubber**: none; one game decides.")
    return lines


def tie_words(breaks: tuple[str, ...], sides: int) -> str:
    """game.tie's tie-breaks as a sentence, each after the one before it.

    With two sides the closing dealer's-left rule is left unsaid after another rule:
    two sides both winning on one hand include the declaring side, and the words of
    the two-sided games stay as they were.
    """
    shown = list(breaks)
    if sides == 2 and len(shown) > 1 and shown[-1] == "first-from-dealers-left":
        shown.pop()
    words = rulebook_words("game.tie")  # each tie-break's phrase, from the schema
    text = words[shown[0]] + ("" if shown[0] == "declarer" else " wins")
    for before, rule in zip(shown, shown[1:]):
        text += (", otherwise " if before == "declarer" else "; on a tie, ") + words[rule]
    return f"If more than one side meets the winning condition on the same hand, {text}."


def _glossary_section(v: ir.Variant) -> list[str]:
    used = set()
    for f in (v.scoring.made, v.scoring.declarer, v.scoring.defender, v.scoring.multiplier, v.game.win, v.game.lose):
        used |= _names_in(simplified(_tree(f)))
    table = {**HAND_VARIABLES, MADE_VARIABLE[0]: MADE_VARIABLE[1], **GAME_VARIABLES}
    # The tables' own order: hand, made, game; the game section says what `target` is.
    names = [n for n in table if n in used and n != "target"]
    if not names:
        return []
    lines = ["## Words used in the formulas", ""]
    lines.extend(f"- `{n}`: {table[n][1]}" for n in names)
    return lines


def rulebook(v: ir.Variant, sets: tuple[str, ...] = ()) -> str:
    """The variant's compiled rules as a Markdown rulebook (deterministic, generic sentences);
    ``sets``, the command line's ``--set`` settings, are named beside the house rules, since
    the rules it states include them (as compile's summary names them)."""
    spec = "+".join((v.name, *v.house_rules))
    lines = [f"# {_md(v.title)}", "", f"The rules of `{spec}` as bidwhist compiles them.", ""]
    rules = ", ".join(_code(r) for r in v.house_rules) if v.house_rules else "none"
    lines.append(f"- House rules: {rules}.")
    if sets:
        lines.append(f"- Changed with `--set`: {', '.join(_code(s) for s in sets)}.")
    if v.source:
        lines.append(f"- Source: {_md(v.source)}.")
    for section in (_players_section, _orders_section, _auction_section, _declaration_section, _kitty_section,
                    _play_section, _scoring_section, _game_section, _glossary_section):
        part = section(v)
        if part:
            lines.append("")
            lines.extend(part)
    return "\n".join(lines) + "\n"
