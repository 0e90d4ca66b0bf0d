"""Unit tests of the compiler stages after loading: build (IR), checks, lowering."""


import pytest

from bidcompiler.errors import CompileError
from bidcompiler.lower import lower
from bidcompiler.pipeline import compile_text, compile_variant, shipped_variants
from runtime.notation import CALL_WORDS
from runtime.ruleset import NO_SUIT, NO_TRUMP

STANDARD = shipped_variants()["standard"].read_text(encoding="utf-8")


def edited(old: str, new: str, text: str = STANDARD) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


def errors_of(text: str) -> list[str]:
    with pytest.raises(CompileError) as info:
        compile_text(text, "v.yaml")
    return [str(d) for d in info.value.diagnostics]


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


# ----------------------------------------------------------------- build
def test_ir_ignores_positions_and_layout():
    reflowed = edited("levels: {from: 3, to: 7}", "levels:\n    from: 3\n    to: 7")
    reflowed = "# a comment that shifts every line\n\n" + reflowed
    assert compile_text(reflowed, "a.yaml") == compile_text(STANDARD, "b.yaml")


def test_ten_is_read_as_T_in_ranks_and_orders():
    text = edited("9, T, J, Q, K, A]\n", "9, 10, J, Q, K, A]\n")
    assert compile_text(text, "v.yaml") == compile_text(STANDARD, "v.yaml")


def test_optional_settings_take_documented_defaults():
    text = edited("  renege: refuse             # the engine refuses a failure to follow suit\n", "")
    text = edited("  multiplier: if notrump then 2 else 1     # notrump doubles, made or set\n", "", text)
    v = compile_text(text, "v.yaml")
    assert v.play.renege == "refuse"
    assert v.scoring.multiplier.text == "1"


def test_formulas_are_kept_in_canonical_text():
    text = edited("made: books >= 6 + bid", "made: (books)>=(6+bid)")
    assert compile_text(text, "v.yaml").scoring.made.text == "books >= 6 + bid"


def test_formula_errors_point_inside_the_file():
    text = edited("declarer: if made then over else -bid", "declarer: if made then overs else -bid")
    [message] = errors_of(text)
    line = line_of(text, "overs")
    col = text.splitlines()[line - 1].index("overs") + 1
    assert message.startswith(f"v.yaml:{line}:{col}: ")
    assert "overs" in message and "over" in message


def test_formula_type_errors_are_compile_errors():
    text = edited("made: books >= 6 + bid", "made: books + bid")
    [message] = errors_of(text)
    assert f"v.yaml:{line_of(text, 'made: books + bid')}:" in message
    assert "true/false" in message


# ----------------------------------------------------------------- checks
def test_deal_must_use_the_whole_deck():
    text = edited("kitty: 6\n", "kitty: 5\n")
    [message] = errors_of(text)
    assert message.startswith(f"v.yaml:{line_of(text, 'kitty: 5')}:")
    assert "53" in message and "54" in message


def test_every_check_reports_at_once():
    text = edited("downtown: [A, 2, 3, 4, 5, 6, 7, 8, 9, T, J, Q, K]", "downtown: [A, 2, 3, 4, 5, 6, 7, 8, 9, T, J, Q]")
    text = edited("direction: downtown\n", "direction: sideways\n", text)
    text = edited("ranking: [[uptown, downtown], [notrump]]", "ranking: [[uptown], [notrump]]", text)
    text = edited("trumps_above: [BJ, LJ]", "trumps_above: [BJ, XJ]", text)
    messages = errors_of(text)
    assert len(messages) == 4
    joined = "\n".join(messages)
    assert "order 'downtown' lacks K" in joined
    assert "order 'sideways'" in joined
    assert "ranking does not place strain 'downtown'" in joined
    assert "XJ" in joined


def test_partners_need_an_even_number_of_players():
    text = edited("players: 4", "players: 3")
    text = edited("hand: 12", "hand: 16", text)
    messages = errors_of(text)
    assert any("partners needs an even number of players" in m for m in messages)


def test_aliases_may_not_name_two_strains():
    text = edited("aliases: [low, down]", "aliases: [low, up]")
    assert any("'up' names both strain" in m for m in errors_of(text))


def test_levels_must_be_in_order():
    text = edited("levels: {from: 3, to: 7}", "levels: {from: 5, to: 3}")
    assert any("from 5 is above to 3" in m for m in errors_of(text))


# ----------------------------------------------------------------- lowering
@pytest.fixture(scope="module")
def rules():
    return lower(compile_text(STANDARD, "standard.yaml"))


def test_bid_ladder_ranks_equal_strains_together(rules):
    by_text = {b.text: b for b in rules.bids}
    assert by_text["3 uptown"].rank == by_text["3 downtown"].rank
    assert by_text["3 downtown"].rank < by_text["3 notrump"].rank < by_text["4 uptown"].rank
    assert [b.text for b in rules.bids][:3] == ["3 uptown", "3 downtown", "3 notrump"]
    assert len(rules.bids) == 15


@pytest.mark.parametrize("direction", ["uptown", "downtown"])
def test_jokers_are_the_top_trumps_in_either_direction(rules, direction):
    d = rules.orders.index(direction)
    hearts = rules.suits.index("H")
    table = rules.tables[(hearts, d)]
    bj, lj, ah = rules.card_id("BJ"), rules.card_id("LJ"), rules.card_id("AH")
    assert table.suit_of[bj] == table.suit_of[lj] == hearts
    assert table.power[bj] > table.power[lj] > table.power[ah]
    assert all(table.power[lj] > table.power[c] for c in range(52))


def test_jokers_belong_to_no_suit_in_notrump(rules):
    table = rules.tables[(NO_TRUMP, rules.orders.index("uptown"))]
    assert table.suit_of[rules.card_id("BJ")] == NO_SUIT
    assert table.suit_of[rules.card_id("LJ")] == NO_SUIT


def test_downtown_keeps_the_ace_on_top(rules):
    table = rules.tables[(NO_TRUMP, rules.orders.index("downtown"))]
    power = [table.power[rules.card_id(r + "S")] for r in "A23456789TJQK"]
    assert power == sorted(power, reverse=True)


def test_action_names_cover_the_action_space(rules):
    names = rules.action_names
    assert len(names) == rules.n_actions
    assert names[rules.pass_action] == "pass"
    assert names[rules.first_bid_action] == "3 uptown"
    assert names[rules.first_trump_action] == "trump S"
    assert names[rules.first_direction_action + 1] == "direction downtown"
    assert "high" in rules.order_aliases and rules.order_aliases["low"] == rules.orders.index("downtown")


def test_a_ruleset_survives_pickling(rules):
    import pickle

    again = pickle.loads(pickle.dumps(rules))
    env = {"bid": 4, "books": 11, "over": 5, "defender_books": 2, "defender_over": -4, "own_books": 11,
           "total_books": 13, "notrump": True, "sweep": False, "made": True}
    assert again.scoring.declarer(env) == rules.scoring.declarer(env) == 5
    assert again.tables == rules.tables


def test_who_deals_after_a_throw_in_is_refused_where_no_throw_in_can_happen():
    # standard: the dealer must bid when all pass, and nobody may call redeal.
    text = edited("  if_all_pass: dealer-must-bid   # if the first three pass, the dealer must bid\n",
                  "  if_all_pass: dealer-must-bid\n  redeal_dealer: same\n  all_pass_dealer: same\n")
    line = line_of(text, "redeal_dealer")
    assert errors_of(text) == [
        f"v.yaml:{line}:18: auction.redeal_dealer has no effect: no player may call redeal\n"
        "    to fix: remove `redeal_dealer` from `auction`, or let the dealer call redeal "
        "(`auction.if_all_pass: dealer-bids-or-redeal`)",
        f"v.yaml:{line + 1}:20: auction.all_pass_dealer has no effect: a hand where all pass is not thrown in\n"
        "    to fix: remove `all_pass_dealer` from `auction`, or throw the hand in when all pass "
        "(`auction.if_all_pass: redeal`)"]
    # Each is accepted where its kind of throw-in exists.
    compile_text(edited("  if_all_pass: dealer-must-bid   # if the first three pass, the dealer must bid\n",
                        "  if_all_pass: redeal\n  all_pass_dealer: same\n"), "v.yaml")
    compile_text(edited("  if_all_pass: dealer-must-bid   # if the first three pass, the dealer must bid\n",
                        "  if_all_pass: dealer-bids-or-redeal\n  redeal_dealer: same\n"), "v.yaml")


def test_trump_by_the_first_lead_needs_the_declarer_to_lead_first():
    # oregon names trump by the declarer's first lead; eldest-leads would let a
    # defender name it.  Refused, naming both files.
    with pytest.raises(CompileError) as info:
        compile_variant("oregon", ("eldest-leads",))
    [message] = [str(d).splitlines()[0] for d in info.value.diagnostics]
    # oregon's strain is the fourth item of its list (after removing standard's
    # three) but the first of the merged list: the position is the file's own.
    oregon = shipped_variants()["oregon"]
    line = line_of(oregon.read_text(encoding="utf-8"), "trump: none-or-first-lead")
    assert message.endswith("play.first_lead: eldest cannot go with strain 'number', which names trump by the "
                            f"declarer's first lead (auction.strains.0.trump at shipped 'oregon', line {line})")
    # Both shipped: the lead by its shipped name too, never by the path it is installed at.
    assert message.startswith("shipped 'eldest-leads', line 7: ") and ".yaml" not in message


def test_order_aliases_name_orders_and_no_word_names_two():
    text = STANDARD + "order_aliases:\n  sideways: [across]\n  downtown: [high]\n"
    line = line_of(text, "sideways:")
    messages = errors_of(text)
    assert "to fix: name one of the orders instead of 'sideways'" in messages[0]
    assert "to fix: give the word 'high' to one order only" in messages[1]
    assert [m.splitlines()[0] for m in messages] == [
        f"v.yaml:{line}:13: order_aliases names order 'sideways', which is not one of the orders "
        "(downtown, uptown)",
        # `high` already names uptown, through the strain named after it.
        f"v.yaml:{line + 1}:13: order_aliases: 'high' would name both order 'uptown' and order 'downtown'"]
    rules = lower(compile_text(STANDARD + "order_aliases:\n  downtown: [south]\n", "v.yaml"))
    assert rules.order_aliases["south"] == rules.orders.index("downtown")


# -- a file loaded again: the checked document is reused, each caller with data of its own ----


def test_a_file_loaded_again_gives_the_same_document_with_data_of_its_own():
    from bidcompiler import pipeline

    text = "name: x\nextends: standard\nauction:\n  levels: {from: 4}\n"
    first = pipeline.load_layer_text(text, "memo.yaml")
    first.data["auction"]["levels"]["from"] = 99  # a caller editing its copy
    first.data["extra"] = True
    again = pipeline.load_layer_text(text, "memo.yaml")
    assert again is not first and again.data is not first.data
    assert again.data == {"name": "x", "extends": "standard", "auction": {"levels": {"from": 4}}}
    assert again.pos(("auction", "levels", "from")) == first.pos(("auction", "levels", "from"))
    assert (again.pos(("auction", "levels", "from")).line, again.pos(("auction", "levels", "from")).col) == (4, 18)
    # The compiled variant is what it was on the first load.
    assert lower(compile_text(text, "memo.yaml")).bids[0].text == "4 uptown"


def test_a_file_refused_is_refused_again_with_the_same_messages():
    from bidcompiler import pipeline

    text = "name: x\nextends: standard\nauction:\n  levels: {from: four}\n"
    said = []
    for _ in range(2):
        with pytest.raises(CompileError) as refused:
            pipeline.load_layer_text(text, "refused.yaml")
        said.append([(d.pos, d.message, d.hint, d.related) for d in refused.value.diagnostics])
    assert said[0] == said[1] and said[0]
    assert not any(name == "refused.yaml" for name, _ in pipeline._layer_memo)  # only clean loads are kept


def test_a_whist_file_loaded_again_keeps_its_comments_and_ends():
    from bidcompiler import pipeline

    text = "variant x\nextends standard\n# levels from four\nauction { levels { from 4 } }  # trailing\n"
    first = pipeline.load_layer_text(text, "memo.whist")
    again = pipeline.load_layer_text(text, "memo.whist")
    assert again.comments() == first.comments() and again.comments()
    assert again._last_lines == first._last_lines


def test_a_file_longer_than_the_memo_takes_is_loaded_but_not_kept(monkeypatch):
    from bidcompiler import pipeline

    text = "name: x\nextends: standard\n"
    monkeypatch.setattr(pipeline, "_LAYER_MEMO_TEXT", len(text) - 1)
    assert pipeline.load_layer_text(text, "long.yaml").data == {"name": "x", "extends": "standard"}
    assert not any(name == "long.yaml" for name, _ in pipeline._layer_memo)


@pytest.mark.parametrize("word", CALL_WORDS)
def test_a_strain_may_not_be_named_as_a_call_that_is_not_a_bid(word):
    # `4 pass` a bid, `pass` the call: a strain so named made calls read two ways.
    text = edited("- name: notrump", f"- name: {word}")
    text = edited("[notrump]]", f"[{word}]]", text)
    [message] = errors_of(text)
    assert message.startswith(f"v.yaml:{line_of(text, f'- name: {word}')}:13: strain '{word}' is named "), message
    assert f"as is the call '{word}'" in message


def test_a_strain_may_not_have_a_call_as_its_alias():
    text = edited("aliases: [nt, no]", "aliases: [nt, take]")
    [message] = errors_of(text)
    assert message.startswith(f"v.yaml:{line_of(text, '[nt, take]')}:")
    assert "strain 'notrump' has the alias 'take', the word of the call 'take'" in message
