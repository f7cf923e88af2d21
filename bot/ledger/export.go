package ledger

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dealerbot/dealerbot/bot/errs"
	"github.com/dealerbot/dealerbot/bot/stats"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/bot/vocab"
	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/render"
	"github.com/dealerbot/dealerbot/render/hh"
)

// Export formats.
const (
	FormatPokerStars = "pokerstars"
	FormatOHH        = "ohh"
	FormatPHH        = "phh"
)

// ExportFilter picks the hands of an export. Zero fields pick everything.
type ExportFilter struct {
	Table  string    // a table ID, or part of one ("discord/123/456", "456")
	Since  time.Time // hands finished at or after this time
	Player string    // a user ID or display name: only their hands, with their own hole cards
	// Game is a game's name as engine.ParseGame reads it ("plo", "o8", "holdem"): only its hands.
	Game string
}

// Pick reports whether a hand belongs in the export, and the hand index of the player the export is
// for (-1 when none).
func (f ExportFilter) Pick(hr table.HandRecord) (bool, int) {
	if f.Table != "" && !strings.Contains(hr.Table, f.Table) {
		return false, -1
	}
	if !f.Since.IsZero() && hr.Time.Before(f.Since) {
		return false, -1
	}
	if f.Game != "" {
		if g, err := engine.ParseGame(f.Game); err != nil || hr.Rules.Game != g {
			return false, -1
		}
	}
	if f.Player == "" {
		return true, -1
	}
	for p := range hr.Names {
		if p < len(hr.Users) && hr.Users[p] == f.Player || strings.EqualFold(hr.Names[p], f.Player) {
			return true, p
		}
	}
	return false, -1
}

// ExportHand is a stored hand as the hand-history writers take it. hero is the hand index whose own
// hole cards the export shows, or -1.
func ExportHand(hr table.HandRecord, hero int) hh.Hand {
	h := hh.Hand{Table: hr.Table, Name: hr.Table, No: hr.No, Time: hr.Time,
		Setup:   hr.Setup(),
		Actions: hr.Actions, Names: hr.Names, Seats: hr.Seats, MaxSeats: hr.Size, Hero: hero}
	if t := hr.Tournament; t != nil {
		h.Tournament = &hh.Tournament{Began: t.Began, BuyIn: t.BuyIn, Stack: t.Stack, Level: t.Level,
			LevelMinutes: t.LevelMinutes, Rebuys: t.Rebuys}
		for _, f := range t.Finishes {
			h.Tournament.Finishes = append(h.Tournament.Finishes, hh.Finish{Player: f.Player, Place: f.Place, Prize: f.Prize})
		}
	}
	return h
}

// WriteExport writes one hand in a streaming format (pokerstars or ohh) to w.
func WriteExport(w io.Writer, format string, h hh.Hand) error {
	switch format {
	case FormatPokerStars:
		return hh.PokerStars(w, []hh.Hand{h})
	case FormatOHH:
		return hh.WriteOHH(w, []hh.Hand{h})
	}
	return fmt.Errorf("%q is not a streaming export format: use %s or %s", format, FormatPokerStars, FormatOHH)
}

// sessionHands returns which of the channel's hands belong to its running session, or, when none is
// running or it has dealt no hand yet, to its last one that dealt a hand (an empty start and end is
// no session to export).
func (l *ledger) sessionHands(ctx context.Context, id string) (func(table.HandRecord) bool, error) {
	// The channel's own table only, as history reads it: reading every open table cost about 0.9 s
	// with 10,000 of them (BenchmarkExportSessionManyTables).
	r, open, err := l.store.Table(ctx, id)
	if err != nil {
		return nil, err
	}
	if open && r.HandNo > r.HandBase {
		// A table opened before hand numbers went on across sessions has no HandBase: its
		// session's hands are those since it started.
		return func(h table.HandRecord) bool { return h.No > r.HandBase && !h.Time.Before(r.Started) }, nil
	}
	sessions, err := l.store.Sessions(ctx)
	if err != nil {
		return nil, err
	}
	s, found, err := stats.LastPlayed(ctx, l.store, id, sessions)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, errs.Errorf(errs.NotFound, "This channel has had no session with a hand yet: `export 50` sends your last 50 hands here.")
	}
	return func(h table.HandRecord) bool { return stats.InSession(&s, &h) }, nil
}

// maxExport is the most hands one `export` sends.
const maxExport = 1000

// export answers `export [n|session] [ohh|pokerstars]`: a file of the asker's own hands at this
// table, with their own hole cards and nobody else's unshown ones, sent to them alone.
func (l *ledger) export(ctx context.Context, _ vocab.Env, cmd vocab.Command, args []string) (vocab.Reply, error) {
	n, session, format := 20, false, FormatPokerStars
	for _, a := range args {
		switch a = strings.ToLower(a); a {
		case "session":
			session = true
		case FormatOHH, "json":
			format = FormatOHH
		case FormatPokerStars, "text", "stars":
			format = FormatPokerStars
		default:
			v, err := strconv.Atoi(a)
			if err != nil || v < 1 || v > maxExport {
				return vocab.Reply{}, errs.Errorf(errs.Invalid, "Write `export` for your last 20 hands here, `export 100` for the last 100 (up to %d), `export session` for this session's, and add `ohh` for JSON.", maxExport)
			}
			n = v
		}
	}
	id := cmd.TableID()
	in := func(table.HandRecord) bool { return true }
	if session {
		var err error
		if in, err = l.sessionHands(ctx, id); err != nil {
			return vocab.Reply{}, err
		}
		n = maxExport
	}
	recent, err := l.store.Hands(ctx, id, 5*maxExport)
	if err != nil {
		return vocab.Reply{}, err
	}
	var picked []hh.Hand
	for _, hr := range recent {
		if len(picked) == n {
			break
		}
		if !in(hr) {
			continue
		}
		if ok, hero := (ExportFilter{Player: cmd.User}).Pick(hr); ok && hero >= 0 && hero < len(hr.Users) && hr.Users[hero] == cmd.User {
			picked = append(picked, ExportHand(hr, hero))
		}
	}
	if len(picked) == 0 {
		return vocab.Reply{}, errs.Errorf(errs.NotFound, "You have no finished hands at this table yet.")
	}
	slices.Reverse(picked) // oldest first, as trackers read them
	var buf bytes.Buffer
	for _, h := range picked {
		if err := WriteExport(&buf, format, h); err != nil {
			return vocab.Reply{}, fmt.Errorf("export hand %d: %w", h.No, err)
		}
	}
	f := render.File{Name: fmt.Sprintf("dealerbot-hands-%d-%d.txt", picked[0].No, picked[len(picked)-1].No),
		ContentType: "text/plain; charset=utf-8", Data: buf.Bytes()}
	if format == FormatOHH {
		f.Name, f.ContentType = strings.TrimSuffix(f.Name, ".txt")+".json", "application/json"
	}
	return vocab.Reply{Text: fmt.Sprintf("Your %d %s from this table, with your own cards and nobody else's unshown ones: import the file into your tracker.", len(picked), table.Plural(len(picked), "hand", "hands")),
		Files: []render.File{f}}, nil
}
