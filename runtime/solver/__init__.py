"""A double-dummy solver for the play phase of any variant.

Double dummy: every hand is known and everyone plays perfectly.  The solver answers
how many of the remaining books the declaring side takes from a position of the play
(:func:`solve`), and what each legal card of the player to move is worth
(:func:`solve_actions`).  With more than two sides (players alone), the declarer
plays against all the others as one team.

It reads nothing but the :class:`~runtime.ruleset.Ruleset` and the contract's
:class:`~runtime.ruleset.PlayTable`, so whatever a variant's tables say comes for
free: jokers of no suit that never win (a trick of nothing else goes to its leader;
where the table says so, they may be thrown at any time), promoted trumps, three
players, a trump named by the first card led.

What it counts
    The books still to be won by play.  Where the variant gives the discards to the
    winner of the first trick, that trick is worth two books while it is still to be
    won, so ``books_so_far() + solve()`` is always the declaring side's final books.

Renege penalties
    Where a variant lets a renege stand (and scores a penalty), the solver still
    assumes that everyone follows suit when able: a deliberate renege is never part
    of perfect play in its search.  A renege already in the position is simply part
    of the position.

How it searches
    The position is turned into one integer bitmask per seat.  Each effective suit
    of the contract is a block of bits ordered by power, the trump block highest, so
    "card a beats card b" is ``a > b`` plus a suit test.  The value is found by
    boolean alpha-beta searches ("can the declaring side take at least t books?"),
    stepping one book at a time from a guess: the mean of two quick greedy plays of
    the rest of the hand (one of them leading as the search would), usually within
    a book or two.  Tests far from the value are cheap, and the transposition table
    keeps what every test proved (a lower and an upper bound per position), so the
    next test starts from it.

    Each search also returns the cards whose rank decided it (a card that won a
    trick over another card of its suit, a top card cashed), and the table, consulted
    and filled at every trick boundary, stores its bounds for every position with
    the same leader, the same suit lengths and the same owners of the cards from the
    top of each suit down to the lowest such card (partition search: low cards and
    the cards already played are left out of the key, so ranks are relative).  It
    also keeps the card that decided a success, tried first when the position comes
    back.  Cards of one hand adjacent in power among the cards still in play are
    searched once; once a low card of a suit has failed, the hand's other cards of
    that suit below every rank that mattered are skipped.  Both stay sound for the
    whole class of positions a result is stored for: a skipped card that later
    moves made relevant is searched after all, and where every move failed, a run
    searched once that reaches below the lowest relevant card of its suit makes its
    lowest card relevant (else a position of the class could split the run).

    Before searching a trick boundary: the sure tricks of the top trumps (whoever
    leads), and the quick tricks of the side on lead end the search when they reach
    the target (or, for the other side, make it unreachable).  Quick tricks are the
    leader's top cards in each suit no opponent can ruff (all its cards of a suit
    once its top cards outlast every other hand's holding), and those its partner
    can cash after a low card led to its top card (added to the leader's own when
    the partner has enough other cards to keep its winners meanwhile).  Moves are
    ordered so the likely best comes first: the best card stored for the position,
    the last card that caused a cutoff at that point of the trick, winners and leads
    to partner's winners in suits where the opponents have few choices, cheap wins,
    low discards.  The garbage collector is paused during a solve (the search makes
    no reference cycles; the collector would only walk the table again and again).

Its modules, in the order a solve uses them
    ``double_dummy``: the public entry points (:class:`DoubleDummy`, :func:`solve`,
    :func:`solve_actions`, the backends); ``engine``: one contract's position as
    bitmasks, and the boolean tests stepped to a value from a greedy guess;
    ``search``: the alpha-beta search itself (leads, follows, trick boundaries);
    ``table``: the transposition table (partition search's keys and bounds);
    ``bounds``: sure and quick tricks that end a search early; ``ordering``: the
    order moves are tried in; ``dds``: the position handed to DDS (backend ``dds``);
    ``bits``: the cards of a mask one by one.  The compiled search of backend
    ``fast`` is runtime/solver_fast.py.
"""

from .double_dummy import BACKENDS, DoubleDummy, can_use_dds, solve, solve_actions
from .engine import UnsupportedContract

__all__ = ["solve", "solve_actions", "DoubleDummy", "UnsupportedContract", "BACKENDS", "can_use_dds"]
