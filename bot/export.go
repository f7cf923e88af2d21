package bot

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/dealerbot/dealerbot/engine"
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
}

// Pick reports whether a hand belongs in the export, and the hand index of the player the export is
// for (-1 when none).
func (f ExportFilter) Pick(hr HandRecord) (bool, int) {
	if f.Table != "" && !strings.Contains(hr.Table, f.Table) {
		return false, -1
	}
	if !f.Since.IsZero() && hr.Time.Before(f.Since) {
		return false, -1
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
func ExportHand(hr HandRecord, hero int) hh.Hand {
	return hh.Hand{Table: hr.Table, Name: hr.Table, No: hr.No, Time: hr.Time,
		Setup:   engine.Setup{Rules: hr.Rules, Stacks: append([]int64(nil), hr.Stacks...), Button: hr.Button, Deck: hr.Deck},
		Actions: hr.Actions, Names: hr.Names, Seats: hr.Seats, MaxSeats: hr.Size, Hero: hero}
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
