package phh

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

// pluribusHand is pluribus/100/0.phh: single-quoted strings, everything on one line.
const pluribusHand = `variant = 'NT'
ante_trimming_status = true
antes = [0, 0, 0, 0, 0, 0]
blinds_or_straddles = [50, 100, 0, 0, 0, 0]
min_bet = 100
starting_stacks = [10000, 10000, 10000, 10000, 10000, 10000]
actions = ['d dh p1 TcQc', 'd dh p2 8s4c', 'd dh p3 9c3d', 'd dh p4 Ah4h', 'd dh p5 Th5s', 'd dh p6 6c7s', 'p3 f', 'p4 cbr 210', 'p5 f', 'p6 f', 'p1 cc', 'p2 f', 'd db 7d5h9d', 'p1 cc', 'p4 cc', 'd db 7c', 'p1 cc', 'p4 cc', 'd db Qh', 'p1 cbr 230', 'p4 f']
hand = 0
players = ['MrBlue', 'MrBlonde', 'MrWhite', 'MrPink', 'MrBrown', 'Pluribus']
finishing_stacks = [10310, 9900, 10000, 9790, 10000, 10000]
`

// famousHand is laid out like the hand-written files: comments, one action a line, metadata.
const famousHand = `# The first televised million dollar pot.
variant = "NT"
ante_trimming_status = true
antes = [500, 500, 500]
blinds_or_straddles = [1000, 2000, 0]
min_bet = 2000
starting_stacks = [1125600, 2000000, 553500]
actions = [
  # Pre-flop
  "d dh p1 Ac2d",  # Ivey
  "d dh p2 ????",  # Antonius
  "d dh p3 7h6h # Dwan",
  "p3 cbr 7000",
  "p1 cbr 23000",
  "p2 f",
  "p3 cc",
]
author = "Juho Kim"
event = "Full Tilt Million Dollar Cash Game S4E12"
year = 2009
players = ["Phil Ivey", "Patrik Antonius", "Tom Dwan"]
currency = "USD"
link = "https://youtu.be/GnxFohpljqM"
day = 3
`

// halfChips is pluribus/102/0.phh, a split pot recorded in half chips.
const halfChips = `variant = 'NT'
ante_trimming_status = true
antes = [0, 0, 0, 0, 0, 0]
blinds_or_straddles = [50, 100, 0, 0, 0, 0]
min_bet = 100
starting_stacks = [10000, 10000, 10000, 10000, 10000, 10000]
actions = ['d dh p1 2cAc', 'd dh p2 9sTc', 'd dh p3 4c6s', 'd dh p4 Ks2d', 'd dh p5 6dAd', 'd dh p6 Jh5d', 'p3 f', 'p4 f', 'p5 cbr 225', 'p6 f', 'p1 cc', 'p2 cc', 'd db Qs9c4s', 'p1 cc', 'p2 cc', 'p5 cc', 'd db As', 'p1 cc', 'p2 cc', 'p5 cc', 'd db 8d', 'p1 cc', 'p2 cc', 'p5 cbr 337', 'p1 cc', 'p2 f', 'p5 sm 6dAd', 'p1 sm 2cAc']
hand = 0
players = ['MrBlue', 'MrBlonde', 'MrWhite', 'MrPink', 'MrBrown', 'Pluribus']
finishing_stacks = [10112.5, 9775.0, 10000.0, 10000.0, 10112.5, 10000.0]
`

// otherGame is a stud hand: it parses, and Replay declines it.
const otherGame = `variant = 'FR'
ante_trimming_status = true
antes = [100000, 100000]
bring_in = 100000
small_bet = 300000
big_bet = 600000
starting_stacks = [2650000, 27050000]
actions = ['d dh p1 8c2h4c', 'd dh p2 4h3d8d', 'p2 pb', 'p1 cbr 300000', 'p2 cc', 'p1 sd', 'p2 sm 4h3d8d']
`

func TestParse(t *testing.T) {
	tests := []struct {
		name  string
		input string
		err   string // a part of the error sentence; empty when the input is valid
		check func(t *testing.T, h *History)
	}{
		{name: "pluribus", input: pluribusHand, check: func(t *testing.T, h *History) {
			if got, want := h.Variant, "NT"; got != want {
				t.Errorf("variant %q, want %q", got, want)
			}
			if got, want := h.MinBet, 100.0; got != want {
				t.Errorf("min_bet %v, want %v", got, want)
			}
			if got, want := h.BlindsOrStraddles, []float64{50, 100, 0, 0, 0, 0}; !reflect.DeepEqual(got, want) {
				t.Errorf("blinds %v, want %v", got, want)
			}
			if got, want := h.FinishingStacks[0], 10310.0; got != want {
				t.Errorf("p1 finishes with %v, want %v", got, want)
			}
			if got, want := len(h.Actions), 21; got != want {
				t.Fatalf("%d actions, want %d", got, want)
			}
			if got, want := h.Actions[7], (Action{Player: 4, Op: "cbr", Amount: 210}); got != want {
				t.Errorf("action 8 = %+v, want %+v", got, want)
			}
			if got, want := h.Actions[2], (Action{Player: 3, Op: "dh", Cards: "9c3d"}); got != want {
				t.Errorf("action 3 = %+v, want %+v", got, want)
			}
			if got, want := h.Actions[12], (Action{Op: "db", Cards: "7d5h9d"}); got != want {
				t.Errorf("action 13 = %+v, want %+v", got, want)
			}
			if got, want := h.Players[5], "Pluribus"; got != want {
				t.Errorf("p6 is %q, want %q", got, want)
			}
			if h.AnteTrimmingStatus == nil || !*h.AnteTrimmingStatus {
				t.Errorf("ante_trimming_status lost")
			}
		}},
		{name: "comments and metadata", input: famousHand, check: func(t *testing.T, h *History) {
			if got, want := h.Actions[1], (Action{Player: 2, Op: "dh", Cards: "????"}); got != want {
				t.Errorf("unknown cards: %+v, want %+v", got, want)
			}
			if got, want := h.Actions[2], (Action{Player: 3, Op: "dh", Cards: "7h6h", Comment: "Dwan"}); got != want {
				t.Errorf("comment inside the action: %+v, want %+v", got, want)
			}
			if h.Event != "Full Tilt Million Dollar Cash Game S4E12" || h.Year != 2009 || h.Day != 3 || h.Currency != "USD" {
				t.Errorf("metadata lost: %+v", h)
			}
			if got, want := h.Extra["link"], "https://youtu.be/GnxFohpljqM"; got != want {
				t.Errorf("unknown key kept as %v, want %v", got, want)
			}
			if h.FinishingStacks != nil {
				t.Errorf("no finishing_stacks in the file, got %v", h.FinishingStacks)
			}
		}},
		{name: "half chips", input: halfChips, check: func(t *testing.T, h *History) {
			if got, want := h.FinishingStacks[0], 10112.5; got != want {
				t.Errorf("p1 finishes with %v, want %v", got, want)
			}
			if got, want := h.Actions[len(h.Actions)-1], (Action{Player: 1, Op: "sm", Cards: "2cAc"}); got != want {
				t.Errorf("last action %+v, want %+v", got, want)
			}
		}},
		{name: "other game", input: otherGame, check: func(t *testing.T, h *History) {
			if got, want := h.BringIn, 100000.0; got != want {
				t.Errorf("bring_in %v, want %v", got, want)
			}
			if got, want := h.Actions[2], (Action{Player: 2, Op: "pb"}); got != want {
				t.Errorf("bring-in action %+v, want %+v", got, want)
			}
		}},
		{name: "not TOML", input: "variant = NT\n", err: "not a valid TOML file"},
		{name: "no variant", input: "starting_stacks = [1, 2]\n", err: "the file has no variant"},
		{name: "no stacks", input: "variant = 'NT'\n", err: "the file has no starting_stacks"},
		{name: "variant not a string", input: "variant = 3\nstarting_stacks = [1, 2]\n", err: "variant must be a string"},
		{name: "stacks not numbers", input: "variant = 'NT'\nstarting_stacks = ['a', 2]\n", err: "starting_stacks must be a list of numbers"},
		{name: "negative stack", input: "variant = 'NT'\nstarting_stacks = [-1, 2]\n", err: "stacks cannot be negative"},
		{name: "short blinds list", input: "variant = 'NT'\nstarting_stacks = [1, 2]\nblinds_or_straddles = [1]\n",
			err: "blinds_or_straddles has 1 entries but starting_stacks has 2"},
		{name: "too many players", input: "variant = 'NT'\nstarting_stacks = [1, 2]\nplayers = ['a', 'b', 'c']\n",
			err: "players has 3 entries"},
		{name: "min_bet negative", input: "variant = 'NT'\nstarting_stacks = [1, 2]\nmin_bet = -2\n", err: "min_bet must be a number of chips"},
		{name: "hand not whole", input: "variant = 'NT'\nstarting_stacks = [1, 2]\nhand = 1.5\n", err: "hand must be a whole number"},
		{name: "actions not strings", input: "variant = 'NT'\nstarting_stacks = [1, 2]\nactions = [1]\n", err: "actions must be a list of strings"},
		{name: "bad action", input: "variant = 'NT'\nstarting_stacks = [1, 2]\nactions = ['p1 raise 3']\n", err: `"raise" is not an operation`},
		{name: "player beyond the table", input: "variant = 'NT'\nstarting_stacks = [1, 2]\nactions = ['p3 f']\n",
			err: "names p3 but the hand has 2 players"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, err := Parse(strings.NewReader(tt.input))
			if tt.err != "" {
				if err == nil {
					t.Fatalf("Parse accepted the input; want an error containing %q", tt.err)
				}
				if !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %q, want it to contain %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, h)
			// Written and read back, the history is the same.
			out, err := h.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			back, err := Parse(bytes.NewReader(out))
			if err != nil {
				t.Fatalf("the written file does not parse: %v\n%s", err, out)
			}
			if !reflect.DeepEqual(back, h) {
				t.Errorf("round trip changed the history:\nwrote\n%s\ngot  %+v\nwant %+v", out, back, h)
			}
		})
	}
}

func TestParseAction(t *testing.T) {
	tests := []struct {
		line string
		want Action
		err  string
	}{
		{line: "d dh p3 9c3d", want: Action{Player: 3, Op: "dh", Cards: "9c3d"}},
		{line: "d dh p10 ????", want: Action{Player: 10, Op: "dh", Cards: "????"}},
		{line: "d db 7d5h9d", want: Action{Op: "db", Cards: "7d5h9d"}},
		{line: "p4 cbr 210", want: Action{Player: 4, Op: "cbr", Amount: 210}},
		{line: "p4 cbr 210.5", want: Action{Player: 4, Op: "cbr", Amount: 210.5}},
		{line: "p1 cc", want: Action{Player: 1, Op: "cc"}},
		{line: "  p2   f  ", want: Action{Player: 2, Op: "f"}},
		{line: "p4 sm 6d5h", want: Action{Player: 4, Op: "sm", Cards: "6d5h"}},
		{line: "p4 sm", want: Action{Player: 4, Op: "sm"}},
		{line: "p1 sd AsQs", want: Action{Player: 1, Op: "sd", Cards: "AsQs"}},
		{line: "p2 pb", want: Action{Player: 2, Op: "pb"}},
		{line: "p1 cc # calls the raise", want: Action{Player: 1, Op: "cc", Comment: "calls the raise"}},
		{line: "", err: "is empty"},
		{line: "# only a comment", err: "is empty"},
		{line: "d", err: "has no dealing operation"},
		{line: "d dx p1 AsKd", err: "the dealer can only deal"},
		{line: "d dh p1", err: "is not a hole-card deal"},
		{line: "d dh x1 AsKd", err: `"x1" is not a player`},
		{line: "d db 7d5h9", err: "is not a list of cards"},
		{line: "d db 1d5h9d", err: `"1d" is not a card`},
		{line: "d dh p1 AsKx", err: `"Kx" is not a card`},
		{line: "p0 f", err: `"p0" is not a player`},
		{line: "p01 f", err: `"p01" is not a player`},
		{line: "p+1 f", err: `"p+1" is not a player`},
		{line: "p1", err: "has no operation"},
		{line: "p1 f now", err: "takes nothing after it"},
		{line: "p1 cbr", err: "write the total to bet or raise to"},
		{line: "p1 cbr -5", err: "is not an amount"},
		{line: "p1 cbr 0", err: "is not an amount"},
		{line: "p1 cbr NaN", err: "is not an amount"},
		{line: "p1 cbr lots", err: "is not an amount"},
		{line: "p1 sm As Kd", err: "write the cards as one word"},
		{line: "p1 bet 5", err: `"bet" is not an operation`},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			got, err := ParseAction(tt.line)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("ParseAction(%q) error %v, want one containing %q", tt.line, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Fatalf("ParseAction(%q) = %+v, want %+v", tt.line, got, tt.want)
			}
			// The written form reads back to the same action.
			again, err := ParseAction(got.String())
			if err != nil || again != got {
				t.Fatalf("%q written as %q reads back as %+v, %v", tt.line, got.String(), again, err)
			}
		})
	}
}

func TestWriteEscapes(t *testing.T) {
	h := &History{
		Variant:        "NT",
		StartingStacks: []float64{100, 250.5},
		Players:        []string{`Quote " and \ backslash`, "tab\tnew\nline é"},
		Event:          "Home game #1",
		Actions:        []Action{{Player: 1, Op: "cc", Comment: `says "hi" # twice`}},
	}
	out, err := h.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(bytes.NewReader(out))
	if err != nil {
		t.Fatalf("written file does not parse: %v\n%s", err, out)
	}
	if !reflect.DeepEqual(back, h) {
		t.Fatalf("round trip changed the history:\n%s\ngot  %+v\nwant %+v", out, back, h)
	}
	if !strings.Contains(string(out), "starting_stacks = [100, 250.5]\n") {
		t.Errorf("amounts should be written without a needless decimal point:\n%s", out)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{pluribusHand, famousHand, halfChips, otherGame,
		"variant = 'NT'\nstarting_stacks = [1, 2]\nactions = ['p1 cbr 1e400']\n",
		"variant = 'NT'\nstarting_stacks = [1, 2]\nblinds_or_straddles = [1, 2]\nactions = ['d dh p1 ????', 'p2 cc']\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h, err := Parse(strings.NewReader(s))
		if err != nil {
			return
		}
		// Whatever parses can be written, and what is written parses again.
		out, err := h.Marshal()
		if err != nil {
			t.Fatalf("Marshal: %v", err)
		}
		if _, err := Parse(bytes.NewReader(out)); err != nil {
			t.Fatalf("the written file does not parse: %v\n%s", err, out)
		}
		// Replay must not panic either, whatever the file says.
		_, _ = Replay(h)
	})
}
