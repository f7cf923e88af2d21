"""Generate the differential Omaha corpus: random hands played by pokerkit, written as PHH files.

Run from anywhere with pokerkit (0.7.4 or later, pure Python 3.11+) on PYTHONPATH:

    PYTHONPATH=/tmp/pokerkit python3 engine/phh/testdata/omaha/generate.py engine/phh/testdata/omaha

It writes, under the folder given, files in three subfolders, each hand with its finishing stacks:
  po/    pot-limit Omaha (PotLimitOmahaHoldem, variant PO) and five-card pot-limit Omaha (the same class
         dealing five hole cards; pokerkit has no code for it, so the files say PO5, dealerbot's own)
  fo8/   fixed-limit Omaha hi-lo (FixedLimitOmahaHoldemHighLowSplitEightOrBetter, FO/8), whole bets only
  expected/  FO/8 hands in which pokerkit pays otherwise than RULES.md on purpose; the first line of
         each names the difference (see engine/phh/check.go): "# expected: no-low-side-pot",
         "# expected: remainder" or "# expected: limit-raise"
The Go test TestOmahaCorpus (engine/phh) replays all of them; CI needs no Python.
"""

import os
import random
import sys
from itertools import combinations

from pokerkit import (
    Automation,
    FixedLimitOmahaHoldemHighLowSplitEightOrBetter,
    HandHistory,
    Mode,
    PotLimitOmahaHoldem,
)

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_DEALING,
    Automation.BOARD_DEALING,
    Automation.RUNOUT_COUNT_SELECTION,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


class PotLimitOmaha5(PotLimitOmahaHoldem):
    """Five-card pot-limit Omaha: pokerkit's Omaha dealing five hole cards."""

    hole_dealing_count = 5


# pokerkit writes a history of a class it knows by its code; five-card Omaha gets dealerbot's.
HandHistory.game_types['PO5'] = PotLimitOmaha5
HandHistory.variants[PotLimitOmaha5] = 'PO5'
HandHistory.required_field_names['PO5'] = HandHistory.required_field_names['PO']


def stacks_for(rng, n, bb):
    """Random stacks: mostly deep, some short enough to be all-in (side pots)."""
    out = []
    for _ in range(n):
        if rng.random() < 0.3:
            out.append(rng.randint(bb, 8 * bb))
        else:
            out.append(rng.randint(20 * bb, 120 * bb))
    return out


def play_pot_limit(rng, state):
    """Random pot-limit decisions: fold rarely, call often, raise anywhere from the least to the pot."""
    while state.status:
        if state.actor_index is None:
            raise RuntimeError('no actor while the hand runs: an automation is missing')
        r = rng.random()
        lo = state.min_completion_betting_or_raising_to_amount
        hi = state.max_completion_betting_or_raising_to_amount
        if r < 0.15 and state.can_fold():
            state.fold()
        elif r < 0.45 and lo is not None and state.can_complete_bet_or_raise_to(lo):
            amount = rng.choice([lo, hi, rng.randint(lo, hi)])
            state.complete_bet_or_raise_to(amount)
        else:
            state.check_or_call()


def play_fixed_limit(rng, state, small_bet, big_bet, extra_raise=False):
    """Random fixed-limit decisions with whole bets only: a bet or raise is exactly one bet more than
    the bet to match, made only with the chips for it, at most three per street (under both caps).
    With extra_raise, one raise of two bets is made when possible (pokerkit accepts it, RULES.md not)."""
    raised = {}
    extra_done = False
    while state.status:
        street = state.street_index
        size = small_bet if street < 2 else big_bet
        r = rng.random()
        lo = state.min_completion_betting_or_raising_to_amount
        to = max(state.bets) + size
        if extra_raise and not extra_done and lo is not None and state.can_complete_bet_or_raise_to(to + size) \
                and state.stacks[state.actor_index] + state.bets[state.actor_index] > to + size:
            state.complete_bet_or_raise_to(to + size)
            extra_done = True
            continue
        actor = state.actor_index
        can_raise = (lo is not None and raised.get(street, 0) < 3 and lo <= to
                     and state.stacks[actor] + state.bets[actor] > to
                     and state.can_complete_bet_or_raise_to(to))
        if r < 0.12 and state.can_fold():
            state.fold()
        elif r < 0.45 and can_raise:
            state.complete_bet_or_raise_to(to)
            raised[street] = raised.get(street, 0) + 1
        else:
            state.check_or_call()
    return extra_done


LOW_RANKS = {'A': 1, '2': 2, '3': 3, '4': 4, '5': 5, '6': 6, '7': 7, '8': 8}


def rules_low(hole, board):
    """RULES.md's eight-or-better low of exactly two hole and three board cards: the five ranks,
    highest first (smaller is better), or None."""
    best = None
    for h in combinations(hole, 2):
        for b in combinations(board, 3):
            ranks = [LOW_RANKS.get(repr(c)[0]) for c in h + b]
            if None in ranks or len(set(ranks)) != 5:
                continue
            key = sorted(ranks, reverse=True)
            if best is None or key < best:
                best = key
    return best


def split(amount, winners):
    """RULES.md section 6: equal shares, odd chips one at a time in seat order (p1 first)."""
    q, r = divmod(amount, len(winners))
    return {w: q + (1 if k < r else 0) for k, w in enumerate(sorted(winners))}


def pokerkit_differences(state):
    """The known differences with RULES.md this finished hi-lo hand runs into, found by paying each
    pot as RULES.md does (pokerkit's high hands, RULES.md's low) and comparing with pokerkit's own
    chip pushes: "no-low-side-pot" when pokerkit pays a low half of a pot none of whose players has a
    low, "remainder" when only the odd chips of a split go elsewhere."""
    found = set()
    board = list(state.board_cards[i][0] for i in range(len(state.board_cards)))
    highs = list(state.get_up_hands(0, 0))
    pushed = {}
    for op in state.operations:
        if type(op).__name__ == 'ChipsPushing' and op.hand_type_index is not None:
            for i, a in enumerate(op.amounts):
                pushed.setdefault(op.pot_index, {})
                pushed[op.pot_index][i] = pushed[op.pot_index].get(i, 0) + a
    if not pushed or len(board) < 5:
        return found
    # Pots as pokerkit built them: the amounts pushed, the players it could pay.
    for index, pot in enumerate(state.pots):
        amount = sum(pushed.get(index, {}).values())
        elig = [i for i in pot.player_indices if highs[i] is not None]
        if not elig or amount == 0:
            continue
        lows = {i: rules_low(list(state.hole_cards[i]), board) for i in elig}
        best_high = max(highs[i] for i in elig)
        high_winners = [i for i in elig if highs[i] == best_high]
        with_low = [i for i in elig if lows[i] is not None]
        pay = {}
        if with_low:
            best_low = min(lows[i] for i in with_low)
            low_half = amount // 2
            for w, a in split(amount - low_half, high_winners).items():
                pay[w] = pay.get(w, 0) + a
            for w, a in split(low_half, [i for i in with_low if lows[i] == best_low]).items():
                pay[w] = pay.get(w, 0) + a
        else:
            pay = split(amount, high_winners)
        got = {i: a for i, a in pushed.get(index, {}).items() if a}
        if got == pay:
            continue
        if not with_low:
            found.add('no-low-side-pot')
        elif set(got) == set(pay) and all(abs(got[i] - pay[i]) <= 1 for i in got):
            found.add('remainder')
        else:
            found.add('unknown')
    return found


def write(folder, name, hh, stacks, first_line=None):
    os.makedirs(folder, exist_ok=True)
    hh.finishing_stacks = [int(x) for x in stacks]
    text = hh.dumps()
    if first_line:
        text = first_line + '\n' + text
    with open(os.path.join(folder, name), 'w') as f:
        f.write(text + '\n')


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    rng = random.Random(35)
    random.seed(35)  # pokerkit shuffles its deck with the random module
    written = {'po': 0, 'fo8': 0, 'expected': 0}

    # Pot-limit Omaha, four and five cards.
    for i in range(70):
        five = i % 3 == 2
        cls = PotLimitOmaha5 if five else PotLimitOmahaHoldem
        n = rng.randint(2, 8 if five else 9)
        bb = rng.choice([2, 10, 100])
        sb = bb // 2
        antes = rng.choice([0, 0, 0, bb // 10])
        game = cls(AUTOMATIONS, False, antes, (sb, bb), bb, mode=Mode.TOURNAMENT)
        state = game(stacks_for(rng, n, bb), n)
        play_pot_limit(rng, state)
        hh = HandHistory.from_game_state(game, state)
        write(os.path.join(out, 'po'), f'{"po5" if five else "po"}-{i:03d}.phh', hh, state.stacks)
        written['po'] += 1

    # Fixed-limit Omaha hi-lo: hands where RULES.md and pokerkit agree go to fo8/, the others to
    # expected/ with the difference named. A few hands make one raise of two bets on purpose.
    i = 0
    want_expected = {'no-low-side-pot': 4, 'remainder': 2, 'limit-raise': 3}
    tries = 3000  # enough for 70 agreeing hands; rare differences may stay fewer than wanted
    while written['fo8'] < 70 or any(v > 0 for v in want_expected.values()):
        i += 1
        if i > tries:
            break
        n = rng.randint(2, 9)
        bb = rng.choice([2, 10, 100])
        game = FixedLimitOmahaHoldemHighLowSplitEightOrBetter(
            AUTOMATIONS, False, 0, (bb // 2, bb), bb, 2 * bb, mode=Mode.TOURNAMENT)
        state = game(stacks_for(rng, n, bb), n)
        extra = want_expected['limit-raise'] > 0 and i % 7 == 0
        made_extra = play_fixed_limit(rng, state, bb, 2 * bb, extra_raise=extra)
        hh = HandHistory.from_game_state(game, state)
        diffs = pokerkit_differences(state)
        if made_extra:
            diffs = {'limit-raise'}
        if 'unknown' in diffs:
            print('a difference of no known kind in hand', i, file=sys.stderr)
            continue
        if diffs:
            kind = sorted(diffs)[0]
            if want_expected.get(kind, 0) <= 0:
                continue
            want_expected[kind] -= 1
            write(os.path.join(out, 'expected'), f'fo8-{i:04d}.phh', hh, state.stacks,
                  '# expected: ' + ','.join(sorted(diffs)))
            written['expected'] += 1
        elif written['fo8'] < 70:
            write(os.path.join(out, 'fo8'), f'fo8-{i:04d}.phh', hh, state.stacks)
            written['fo8'] += 1
    print(written, 'left wanted:', want_expected)


if __name__ == '__main__':
    main()
