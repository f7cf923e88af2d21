// Package hh writes finished hands in the hand-history formats poker trackers read: PokerStars
// hand-history text (PokerTracker, Hold'em Manager, Hand2Note, GTO Wizard) and Open Hand History
// (OHH, PokerTracker's JSON spec). PHH is written by engine/phh.
//
// A Hand is what dealerbot stores of a finished hand (setup and actions) with its names and seats;
// the writers replay it through the engine, so an export always agrees with what was played. Only
// cards that were shown are written, and the hero's own hole cards ("Dealt to") when a Hand names a
// hero: an export made for one player shows that player's cards and nobody else's unshown ones.
package hh

import (
	"fmt"
	"hash/fnv"
	"time"

	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/engine/phh"
)

// Hand is one finished hand to export.
type Hand struct {
	Table    string    // the table's ID, which makes the hand's number unique (HandID)
	Name     string    // the table's name as trackers show it
	No       int64     // the hand's number at its table
	Time     time.Time // when it finished
	Setup    engine.Setup
	Actions  []engine.Action
	Names    []string // by hand index
	Seats    []int    // seat numbers from 1, by hand index; nil means 1..n
	MaxSeats int      // the table's size; 0 means the number of players
	Hero     int      // the hand index the export is made for, or -1
	// Tournament is set for a tournament hand; its chips are tournament chips.
	Tournament *Tournament
}

// Tournament is what a tournament hand's history says of its tournament.
type Tournament struct {
	Began        time.Time // when its first hand was dealt: with the table, it names the tournament (TournamentID)
	BuyIn        int64     // each entry's buy-in
	Stack        int64     // the starting stack
	Level        int       // the hand's blind level, from 1
	LevelMinutes int       // how long a level lasts; 0 when levels go by hands or blinds never rise
	Rebuys       bool
	Finishes     []Finish // who finished the tournament in this hand
}

// Finish is a player's finishing place, by hand index, and the prize it paid.
type Finish struct {
	Player int
	Place  int
	Prize  int64
}

// TournamentID is a tournament's number in exports: stable and unique in practice, from the table's
// ID and the tournament's start, below 10^10 like PokerStars' own.
func TournamentID(table string, began time.Time) uint64 {
	f := fnv.New64a()
	fmt.Fprintf(f, "%s\x00%d", table, began.UnixNano())
	return f.Sum64()%9_000_000_000 + 1_000_000_000
}

// HandID is the hand's number in exports: stable (the same hand always gets it) and unique across
// tables and restarts in practice. It joins a hash (below 9 x 10^10) of the table's ID with the
// hand's number at the table (8 digits), so it stays below 2^63 and reads like PokerStars' own.
func HandID(table string, no int64) uint64 {
	f := fnv.New64a()
	f.Write([]byte(table))
	return f.Sum64()%90_000_000_000*100_000_000 + uint64(no)%100_000_000
}

// seat returns player p's seat number.
func (h *Hand) seat(p int) int {
	if p < len(h.Seats) {
		return h.Seats[p]
	}
	return p + 1
}

func (h *Hand) maxSeats() int {
	n := max(h.MaxSeats, len(h.Setup.Stacks))
	for _, s := range h.Seats {
		n = max(n, s)
	}
	return n
}

func (h *Hand) name(p int) string {
	if p < 0 {
		return ""
	}
	if p < len(h.Names) && h.Names[p] != "" {
		return h.Names[p]
	}
	return fmt.Sprintf("Player%d", h.seat(p))
}

// replay plays the hand again.
func (h *Hand) replay() (*engine.Hand, error) {
	s := h.Setup
	s.Stacks = append([]int64(nil), s.Stacks...)
	eh, err := engine.Replay(s, h.Actions)
	if err != nil {
		return nil, fmt.Errorf("hand %d: %w", h.No, err)
	}
	if !eh.Done() {
		return nil, fmt.Errorf("hand %d is not finished", h.No)
	}
	return eh, nil
}

// smallBlind returns the player who posts the small blind (the button heads-up), as the engine seats
// them: it is read from the events so that both agree.
func blindsOf(evs []engine.Event) (sb, bb int) {
	sb, bb = -1, -1
	for _, ev := range evs {
		switch ev.Kind {
		case engine.EvSmallBlind:
			sb = ev.Player
		case engine.EvBigBlind:
			bb = ev.Player
		}
	}
	return sb, bb
}

// PHH returns the hand as a PHH history with finishing stacks, fit to publish: unshown hole cards are
// "????" except the hero's. It replays to the same stacks (a mucked hand's unknown cards are filled
// with the weakest ones by phh.Replay).
func PHH(h *Hand) (*phh.History, error) {
	eh, err := h.replay()
	if err != nil {
		return nil, err
	}
	names := make([]string, len(h.Setup.Stacks))
	for i := range names {
		names[i] = h.name(i)
	}
	hist := phh.FromHand(eh, names)
	hist.Hand = h.No
	hero := 0
	if n := len(names); h.Hero >= 0 && h.Hero < n {
		hero = ((h.Hero-h.Setup.Button-1)%n+n)%n + 1 // PHH counts from the seat left of the button
	}
	return hist.RedactedFor(hero), nil
}
