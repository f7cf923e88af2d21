"""Reads a folder of PHH files dealerbot exported with pokerkit and checks that pokerkit's replay
ends with the finishing stacks dealerbot wrote.

    PYTHONPATH=/path/to/pokerkit python3 verify_export.py exported/

exported/ was written once, by a console session of pot-limit Omaha and then Omaha hi-lo with four
players (exported/session.txt, played with `dealerbot --script session.txt`, then
`dealerbot export --format phh --out exported`), and checked with pokerkit 0.7.4: all 16 hands
match. TestOmahaExportedReadByPokerkit replays them with the Go engine on every test run; pokerkit
itself is needed only to check a new export.
"""
import glob
import sys

from pokerkit import HandHistory

bad = 0
files = sorted(glob.glob(sys.argv[1].rstrip('/') + '/*.phh'))
for path in files:
    with open(path, 'rb') as f:
        hh = HandHistory.load(f)
    state = None
    for state in hh:
        pass
    got = list(state.stacks)
    want = list(hh.finishing_stacks)
    if got != want:
        bad += 1
        print(f'{path}: pokerkit ends with {got}, the file says {want}')
print(f'{len(files)} hands read, {len(files) - bad} match')
sys.exit(1 if bad or not files else 0)
