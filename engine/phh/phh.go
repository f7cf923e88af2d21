// Package phh reads and writes hand histories in the Poker Hand History format (PHH, a TOML file per
// hand; specification in the uoftcprg/phh-std repository), replays no-limit and fixed-limit hold'em
// histories through the engine, and checks that replays reproduce the recorded final stacks.
//
// Basics: Parse reads a file into a History, Marshal and WriteTo write one back, FromHand turns a
// finished engine hand into a History, Replay turns a History into a finished engine hand, and
// CheckHand compares one file's replay with its finishing_stacks. Like the engine, the package does
// no file I/O and starts no goroutines: `dealerbot phh check` (cmd/dealerbot) walks folders and
// checks files in parallel.
//
// Caveats: amounts are kept as float64 because real files record half chips (10112.5); Replay needs
// whole chips. The games dealerbot deals replay: NT, FT (no-limit and fixed-limit hold'em), PO
// (pot-limit Omaha) and FO/8 (fixed-limit Omaha hi-lo) as pokerkit writes them, and dealerbot's own
// extensions, which the standard does not define: PT (pot-limit hold'em), PO5 (five-card pot-limit
// Omaha), PO/8 (pot-limit Omaha hi-lo), and the other pairings of a structure (N, P, F) with a game
// (T, O, O5, O/8). Other variants (stud, razz, draw, badugi, short deck) parse but do not replay.
package phh

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/dealerbot/dealerbot/engine"
)

// The variants Replay understands, besides the dealerbot extensions Variant names.
const (
	NoLimitHoldem    = "NT"
	FixedLimitHoldem = "FT"
	// PotLimitHoldem is not in the PHH standard; dealerbot writes it for its pot-limit tables.
	PotLimitHoldem = "PT"
	// PotLimitOmaha and FixedLimitOmahaHiLo are the standard's (and pokerkit's) Omaha codes.
	PotLimitOmaha       = "PO"
	FixedLimitOmahaHiLo = "FO/8"
	// PotLimitOmaha5 and PotLimitOmahaHiLo are dealerbot extensions: pokerkit has no five-card Omaha
	// and no pot-limit Omaha hi-lo code.
	PotLimitOmaha5    = "PO5"
	PotLimitOmahaHiLo = "PO/8"
)

// Variant returns the PHH code of a betting structure and game: "NT", "PO", "FO/8", "PO5"...
func Variant(v engine.Variant, g engine.Game) string {
	return [...]string{"N", "P", "F"}[min(int(v), 2)] + [...]string{"T", "O", "O5", "O/8"}[min(int(g), 3)]
}

// Game reads a variant code into the engine's betting structure and game; ok is false for a game
// dealerbot does not deal.
func Game(variant string) (v engine.Variant, g engine.Game, ok bool) {
	for v := engine.NoLimit; v <= engine.FixedLimit; v++ {
		for g := engine.Holdem; g <= engine.OmahaHiLo; g++ {
			if Variant(v, g) == variant {
				return v, g, true
			}
		}
	}
	return 0, 0, false
}

// History is one hand history. Amounts are chips, possibly fractional as recorded.
// Player lists (Antes, BlindsOrStraddles, stacks, Players) are in PHH order: p1 first, the first seat
// left of the button, and the button last.
type History struct {
	Variant            string
	AnteTrimmingStatus *bool // nil when the file does not say
	Antes              []float64
	BlindsOrStraddles  []float64
	BringIn            float64 // stud games only; 0 when absent
	MinBet             float64 // no-limit and pot-limit; 0 when absent
	SmallBet, BigBet   float64 // fixed-limit; 0 when absent
	StartingStacks     []float64
	FinishingStacks    []float64 // nil when the file does not record them
	Actions            []Action
	Players            []string

	// Usual metadata; zero when absent, and a zero value is not written (so "hand = 0" is dropped).
	Author, Event, URL, Venue, City, Region, Country, Currency string
	Hand, Day, Month, Year                                     int64

	// Extra holds every other top-level key as decoded by the TOML library, so that writing a parsed
	// file loses nothing.
	Extra map[string]any
}

// Action is one line of the actions list, such as "p4 cbr 210" or "d dh p3 9c3d".
type Action struct {
	// Player is the acting player, 1 for p1; for the dealer's "d dh" it is the player dealt to,
	// and 0 for "d db".
	Player int
	// Op is the operation: "dh" (deal hole cards), "db" (deal board cards), "f" (fold),
	// "cc" (check or call), "cbr" (bet or raise to Amount), "sm" (show or muck), "sd" (stand pat or
	// discard), "pb" (post the bring-in).
	Op     string
	Amount float64 // for cbr
	// Cards as written, two characters a card, "??" for an unknown card; empty when none.
	Cards string
	// Comment is the text after "#" on the line, without the "#" and surrounding spaces.
	Comment string
}

// Dealer reports whether the dealer (not a player) performs the action.
func (a Action) Dealer() bool { return a.Op == "dh" || a.Op == "db" }

// String writes the action as it appears in a file, comment included.
func (a Action) String() string {
	var s string
	switch a.Op {
	case "dh":
		s = fmt.Sprintf("d dh p%d %s", a.Player, a.Cards)
	case "db":
		s = "d db " + a.Cards
	case "cbr":
		s = fmt.Sprintf("p%d cbr %s", a.Player, formatAmount(a.Amount))
	default:
		s = fmt.Sprintf("p%d %s", a.Player, a.Op)
		if a.Cards != "" {
			s += " " + a.Cards
		}
	}
	if a.Comment != "" {
		s += " # " + a.Comment
	}
	return s
}

// ParseAction reads one action line. It fails with a sentence saying what a correct line looks like.
func ParseAction(line string) (Action, error) {
	var a Action
	body := line
	if i := strings.IndexByte(line, '#'); i >= 0 {
		body = line[:i]
		a.Comment = strings.TrimSpace(line[i+1:])
	}
	f := strings.Fields(body)
	if len(f) == 0 {
		return a, fmt.Errorf("action %q is empty: write one like \"p1 cc\" or \"d db 7d5h9d\"", line)
	}
	if f[0] == "d" {
		if len(f) < 2 {
			return a, fmt.Errorf("action %q has no dealing operation: write \"d dh p1 AsKd\" or \"d db 7d5h9d\"", line)
		}
		switch f[1] {
		case "dh":
			if len(f) != 4 {
				return a, fmt.Errorf("action %q is not a hole-card deal: write \"d dh p1 AsKd\" (\"????\" for unknown cards)", line)
			}
			p, err := parsePlayer(f[2])
			if err != nil {
				return a, fmt.Errorf("action %q: %w", line, err)
			}
			a.Player, a.Op, a.Cards = p, "dh", f[3]
		case "db":
			if len(f) != 3 {
				return a, fmt.Errorf("action %q is not a board deal: write \"d db 7d5h9d\"", line)
			}
			a.Op, a.Cards = "db", f[2]
		default:
			return a, fmt.Errorf("action %q: the dealer can only deal hole cards (\"d dh\") or board cards (\"d db\")", line)
		}
		if err := checkCards(a.Cards); err != nil {
			return a, fmt.Errorf("action %q: %w", line, err)
		}
		return a, nil
	}
	p, err := parsePlayer(f[0])
	if err != nil {
		return a, fmt.Errorf("action %q: %w", line, err)
	}
	if len(f) < 2 {
		return a, fmt.Errorf("action %q has no operation: write f, cc, cbr AMOUNT, sm or sd after the player", line)
	}
	a.Player, a.Op = p, f[1]
	switch a.Op {
	case "f", "cc", "pb":
		if len(f) != 2 {
			return a, fmt.Errorf("action %q: %q takes nothing after it", line, a.Op)
		}
	case "cbr":
		if len(f) != 3 {
			return a, fmt.Errorf("action %q: write the total to bet or raise to, like \"p1 cbr 200\"", line)
		}
		x, err := strconv.ParseFloat(f[2], 64)
		if err != nil || !(x > 0) || math.IsInf(x, 0) {
			return a, fmt.Errorf("action %q: %q is not an amount; write a positive number of chips, like \"p1 cbr 200\"", line, f[2])
		}
		a.Amount = x
	case "sm", "sd":
		switch len(f) {
		case 2:
		case 3:
			if err := checkCards(f[2]); err != nil {
				return a, fmt.Errorf("action %q: %w", line, err)
			}
			a.Cards = f[2]
		default:
			return a, fmt.Errorf("action %q: write the cards as one word, like \"p1 sm AsKd\"", line)
		}
	default:
		return a, fmt.Errorf("action %q: %q is not an operation; use f, cc, cbr, sm, sd or pb", line, a.Op)
	}
	return a, nil
}

func parsePlayer(s string) (int, error) {
	if len(s) < 2 || s[0] != 'p' {
		return 0, fmt.Errorf("%q is not a player: write p1, p2, ...", s)
	}
	n, err := strconv.Atoi(s[1:])
	if err != nil || n < 1 || n > 99 || s[1] == '0' || s[1] == '+' {
		return 0, fmt.Errorf("%q is not a player: write p1, p2, ...", s)
	}
	return n, nil
}

// checkCards accepts two characters a card: rank 2-9 T J Q K A (or ?), suit c d h s (or ?).
func checkCards(s string) error {
	if len(s) == 0 || len(s)%2 != 0 {
		return fmt.Errorf("%q is not a list of cards: write two characters a card, like 9c3d, and ?? for an unknown card", s)
	}
	for i := 0; i < len(s); i += 2 {
		if !strings.ContainsRune("23456789TJQKA?", rune(s[i])) || !strings.ContainsRune("cdhs?", rune(s[i+1])) {
			return fmt.Errorf("%q is not a list of cards: %q is not a card (ranks 2-9 T J Q K A, suits c d h s, ?? when unknown)", s, s[i:i+2])
		}
	}
	return nil
}

// Parse reads one PHH file. It checks the structure (types, list lengths, action syntax) but not
// whether the hand is legal; Replay does that.
func Parse(r io.Reader) (*History, error) {
	var raw map[string]any
	if _, err := toml.NewDecoder(r).Decode(&raw); err != nil {
		return nil, fmt.Errorf("not a valid TOML file: %w", err)
	}
	h := &History{}
	d := decoder{raw: raw}
	if _, ok := raw["variant"]; !ok {
		return nil, fmt.Errorf("the file has no variant: add a line like variant = \"NT\"")
	}
	h.Variant = d.str("variant")
	if v, ok := raw["ante_trimming_status"]; ok {
		b, isBool := v.(bool)
		if !isBool {
			d.fail("ante_trimming_status must be true or false")
		}
		h.AnteTrimmingStatus = &b
		delete(raw, "ante_trimming_status")
	}
	h.Antes = d.numbers("antes")
	h.BlindsOrStraddles = d.numbers("blinds_or_straddles")
	h.BringIn = d.number("bring_in")
	h.MinBet = d.number("min_bet")
	h.SmallBet = d.number("small_bet")
	h.BigBet = d.number("big_bet")
	if _, ok := raw["starting_stacks"]; !ok {
		return nil, fmt.Errorf("the file has no starting_stacks: list each player's chips before the hand")
	}
	h.StartingStacks = d.numbers("starting_stacks")
	h.FinishingStacks = d.numbers("finishing_stacks")
	h.Players = d.strs("players")
	h.Author = d.str("author")
	h.Event = d.str("event")
	h.URL = d.str("url")
	h.Venue = d.str("venue")
	h.City = d.str("city")
	h.Region = d.str("region")
	h.Country = d.str("country")
	h.Currency = d.str("currency")
	h.Hand = d.integer("hand")
	h.Day = d.integer("day")
	h.Month = d.integer("month")
	h.Year = d.integer("year")
	lines := d.strs("actions")
	if d.err != nil {
		return nil, d.err
	}
	n := len(h.StartingStacks)
	if n < 1 {
		return nil, fmt.Errorf("starting_stacks is empty: list each player's chips before the hand")
	}
	for _, l := range []struct {
		key  string
		have int
		set  bool
	}{
		{"antes", len(h.Antes), h.Antes != nil},
		{"blinds_or_straddles", len(h.BlindsOrStraddles), h.BlindsOrStraddles != nil},
		{"finishing_stacks", len(h.FinishingStacks), h.FinishingStacks != nil},
		{"players", len(h.Players), h.Players != nil},
	} {
		if l.set && l.have != n {
			return nil, fmt.Errorf("%s has %d entries but starting_stacks has %d: give one entry per player", l.key, l.have, n)
		}
	}
	for _, x := range h.StartingStacks {
		if x < 0 {
			return nil, fmt.Errorf("starting_stacks holds %s: stacks cannot be negative", formatAmount(x))
		}
	}
	for _, line := range lines {
		a, err := ParseAction(line)
		if err != nil {
			return nil, err
		}
		if a.Player > n {
			return nil, fmt.Errorf("action %q names p%d but the hand has %d players", line, a.Player, n)
		}
		h.Actions = append(h.Actions, a)
	}
	if len(raw) > 0 {
		h.Extra = raw
	}
	return h, nil
}

// decoder pulls typed values out of the decoded TOML table, deleting each key it takes, and keeps the
// first type error.
type decoder struct {
	raw map[string]any
	err error
}

func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf(format, args...)
	}
}

func (d *decoder) take(key string) (any, bool) {
	v, ok := d.raw[key]
	delete(d.raw, key)
	return v, ok
}

func (d *decoder) str(key string) string {
	v, ok := d.take(key)
	if !ok {
		return ""
	}
	s, ok := v.(string)
	if !ok {
		d.fail("%s must be a string in quotes, not %v", key, v)
	}
	return s
}

func (d *decoder) integer(key string) int64 {
	v, ok := d.take(key)
	if !ok {
		return 0
	}
	i, ok := v.(int64)
	if !ok {
		d.fail("%s must be a whole number, not %v", key, v)
	}
	return i
}

func toNumber(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, false
		}
		return x, true
	}
	return 0, false
}

func (d *decoder) number(key string) float64 {
	v, ok := d.take(key)
	if !ok {
		return 0
	}
	x, ok := toNumber(v)
	if !ok || x < 0 {
		d.fail("%s must be a number of chips, 0 or more, not %v", key, v)
	}
	return x
}

func (d *decoder) numbers(key string) []float64 {
	v, ok := d.take(key)
	if !ok {
		return nil
	}
	list, ok := v.([]any)
	if !ok {
		d.fail("%s must be a list of numbers, like [50, 100, 0], not %v", key, v)
		return nil
	}
	out := make([]float64, len(list))
	for i, e := range list {
		x, ok := toNumber(e)
		if !ok {
			d.fail("%s must be a list of numbers, like [50, 100, 0]; entry %d is %v", key, i+1, e)
			return nil
		}
		out[i] = x
	}
	return out
}

func (d *decoder) strs(key string) []string {
	v, ok := d.take(key)
	if !ok {
		return nil
	}
	list, ok := v.([]any)
	if !ok {
		d.fail("%s must be a list of strings in quotes, not %v", key, v)
		return nil
	}
	out := make([]string, len(list))
	for i, e := range list {
		s, ok := e.(string)
		if !ok {
			d.fail("%s must be a list of strings in quotes; entry %d is %v", key, i+1, e)
			return nil
		}
		out[i] = s
	}
	return out
}

// formatAmount writes whole amounts without a decimal point and others in the shortest exact form.
func formatAmount(x float64) string {
	return strconv.FormatFloat(x, 'f', -1, 64)
}

// Marshal writes the history as a PHH file.
func (h *History) Marshal() ([]byte, error) {
	var b bytes.Buffer
	if _, err := h.WriteTo(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// WriteTo writes the history as a PHH file: the fields in the standard's order, then the metadata,
// then any other keys the file held.
func (h *History) WriteTo(w io.Writer) (int64, error) {
	var b bytes.Buffer
	kv := func(key, value string) { fmt.Fprintf(&b, "%s = %s\n", key, value) }
	num := func(key string, x float64) {
		if x != 0 {
			kv(key, formatAmount(x))
		}
	}
	nums := func(key string, xs []float64) {
		if xs == nil {
			return
		}
		parts := make([]string, len(xs))
		for i, x := range xs {
			parts[i] = formatAmount(x)
		}
		kv(key, "["+strings.Join(parts, ", ")+"]")
	}
	str := func(key, s string) {
		if s != "" {
			kv(key, quote(s))
		}
	}
	integer := func(key string, i int64) {
		if i != 0 {
			kv(key, strconv.FormatInt(i, 10))
		}
	}
	kv("variant", quote(h.Variant))
	if h.AnteTrimmingStatus != nil {
		kv("ante_trimming_status", strconv.FormatBool(*h.AnteTrimmingStatus))
	}
	nums("antes", h.Antes)
	nums("blinds_or_straddles", h.BlindsOrStraddles)
	num("bring_in", h.BringIn)
	num("min_bet", h.MinBet)
	num("small_bet", h.SmallBet)
	num("big_bet", h.BigBet)
	nums("starting_stacks", h.StartingStacks)
	b.WriteString("actions = [\n")
	for _, a := range h.Actions {
		fmt.Fprintf(&b, "  %s,\n", quote(a.String()))
	}
	b.WriteString("]\n")
	str("author", h.Author)
	str("event", h.Event)
	str("url", h.URL)
	str("venue", h.Venue)
	str("city", h.City)
	str("region", h.Region)
	str("country", h.Country)
	integer("day", h.Day)
	integer("month", h.Month)
	integer("year", h.Year)
	integer("hand", h.Hand)
	if h.Players != nil {
		parts := make([]string, len(h.Players))
		for i, p := range h.Players {
			parts[i] = quote(p)
		}
		kv("players", "["+strings.Join(parts, ", ")+"]")
	}
	nums("finishing_stacks", h.FinishingStacks)
	str("currency", h.Currency)
	if len(h.Extra) > 0 {
		// The TOML encoder sorts the keys and writes plain keys before tables, so the output is stable.
		if err := toml.NewEncoder(&b).Encode(h.Extra); err != nil {
			return 0, fmt.Errorf("write the other keys: %w", err)
		}
	}
	n, err := w.Write(b.Bytes())
	return int64(n), err
}

// quote writes s as a TOML basic string.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
