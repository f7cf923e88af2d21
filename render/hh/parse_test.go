package hh

import (
	"bufio"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// parsed is what a tracker reads back from an export: the players' starting stacks, the betting
// actions in order and every chip each player got back or won, so the final stacks follow.
type parsed struct {
	ID        string
	Button    int // seat number
	Seats     []int
	Names     []string
	Start     map[string]int64
	Put       map[string]int64 // chips put in: antes, blinds, calls, bets, raises
	Back      map[string]int64 // uncalled bets returned and pots collected
	Actions   []parsedAction
	Dealt     map[string]string // "Dealt to" lines
	Shown     map[string]string
	SummaryOK bool
	// A tournament hand: its number and level from the header, and the finishing lines.
	Tournament string
	Level      string
	Finishes   []string
}

type parsedAction struct {
	Name string
	Verb string // fold, check, call, bet, raise
	To   int64  // bet or raise to (the street's total); call: chips added
}

func (p *parsed) final(name string) int64 { return p.Start[name] - p.Put[name] + p.Back[name] }

var (
	psHeader  = regexp.MustCompile(`^PokerStars Hand #(\d+):  (?:Hold'em|Omaha|Omaha Hi/Lo|5 Card Omaha) (No Limit|Pot Limit|Limit) \((\d+)/(\d+)\) - \d{4}/\d\d/\d\d \d?\d:\d\d:\d\d ET$`)
	psTHeader = regexp.MustCompile(`^PokerStars Hand #(\d+): Tournament #(\d+), \d+\+\d+ (?:Hold'em|Omaha|Omaha Hi/Lo|5 Card Omaha) (No Limit|Pot Limit|Limit) - Level ([IVXLCDM]+) \((\d+)/(\d+)\) - \d{4}/\d\d/\d\d \d?\d:\d\d:\d\d ET$`)
	psTable   = regexp.MustCompile(`^Table '([^']*)' (\d+)-max \(Play Money\) Seat #(\d+) is the button$`)
	psTTable  = regexp.MustCompile(`^Table '(\d+) \d+' (\d+)-max Seat #(\d+) is the button$`)
	psFinish  = regexp.MustCompile(`^.+ (finished the tournament in \d+(st|nd|rd|th) place( and received \d+\.)?|wins the tournament and receives \d+ - congratulations!)$`)
	psSeat    = regexp.MustCompile(`^Seat (\d+): (.+) \((\d+) in chips\)$`)
	psPost    = regexp.MustCompile(`^(.+): posts (the ante|small blind|big blind|straddle) (\d+)( and is all-in)?$`)
	psAct     = regexp.MustCompile(`^(.+): (folds|checks|calls (\d+)|bets (\d+)|raises (\d+) to (\d+))( and is all-in)?$`)
	psReturn  = regexp.MustCompile(`^Uncalled bet \((\d+)\) returned to (.+)$`)
	psCollect = regexp.MustCompile(`^(.+) collected (\d+) from (pot|main pot|side pot|side pot-\d+)$`)
	psDealt   = regexp.MustCompile(`^Dealt to (.+) \[(\S\S(?: \S\S){1,4})\]$`)
	psShows   = regexp.MustCompile(`^(.+): shows \[(\S\S(?: \S\S){1,4})\] \((.+)\)$`)
	psStreet  = regexp.MustCompile(`^\*\*\* ((FIRST|SECOND) )?(FLOP|TURN|RIVER) \*\*\* `)
)

// parsePokerStars reads hands written by PokerStars. It knows only the lines this package writes and
// fails on any other line before the summary, so a line written wrong cannot pass unnoticed.
func parsePokerStars(text string) ([]*parsed, error) {
	var out []*parsed
	var cur *parsed
	inSummary := false
	inThisStreet := map[string]int64{}
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		fail := func() error { return fmt.Errorf("line %d: cannot read %q", n, line) }
		if line == "" {
			continue
		}
		m := psHeader.FindStringSubmatch(line)
		tm := psTHeader.FindStringSubmatch(line)
		if m != nil || tm != nil {
			cur = &parsed{Start: map[string]int64{}, Put: map[string]int64{}, Back: map[string]int64{},
				Dealt: map[string]string{}, Shown: map[string]string{}}
			if m != nil {
				cur.ID = m[1]
			} else {
				cur.ID, cur.Tournament, cur.Level = tm[1], tm[2], tm[4]
			}
			out = append(out, cur)
			inSummary = false
			inThisStreet = map[string]int64{}
			continue
		}
		if cur == nil {
			return nil, fail()
		}
		if inSummary {
			cur.SummaryOK = true
			continue
		}
		atoi := func(s string) int64 { v, _ := strconv.ParseInt(s, 10, 64); return v }
		switch {
		case psTable.MatchString(line) && cur.Tournament == "":
			m := psTable.FindStringSubmatch(line)
			cur.Button = int(atoi(m[3]))
		case psTTable.MatchString(line) && cur.Tournament != "":
			m := psTTable.FindStringSubmatch(line)
			if m[1] != cur.Tournament {
				return nil, fail()
			}
			cur.Button = int(atoi(m[3]))
		case psFinish.MatchString(line) && cur.Tournament != "":
			cur.Finishes = append(cur.Finishes, line)
		case psSeat.MatchString(line):
			m := psSeat.FindStringSubmatch(line)
			cur.Seats = append(cur.Seats, int(atoi(m[1])))
			cur.Names = append(cur.Names, m[2])
			cur.Start[m[2]] = atoi(m[3])
		case psPost.MatchString(line):
			m := psPost.FindStringSubmatch(line)
			cur.Put[m[1]] += atoi(m[3])
			if m[2] != "the ante" {
				inThisStreet[m[1]] += atoi(m[3])
			}
		case line == "*** HOLE CARDS ***" || line == "*** SHOW DOWN ***" || line == "*** FIRST SHOW DOWN ***" || line == "*** SECOND SHOW DOWN ***":
		case psStreet.MatchString(line):
			inThisStreet = map[string]int64{}
		case psDealt.MatchString(line):
			m := psDealt.FindStringSubmatch(line)
			cur.Dealt[m[1]] = m[2]
		case psShows.MatchString(line):
			m := psShows.FindStringSubmatch(line)
			cur.Shown[m[1]] = m[2]
		case psReturn.MatchString(line):
			m := psReturn.FindStringSubmatch(line)
			cur.Back[m[2]] += atoi(m[1])
		case psCollect.MatchString(line):
			m := psCollect.FindStringSubmatch(line)
			cur.Back[m[1]] += atoi(m[2])
		case strings.HasSuffix(line, ": doesn't show hand") || strings.HasSuffix(line, ": mucks hand"):
		case line == "*** SUMMARY ***":
			inSummary = true
		case psAct.MatchString(line):
			m := psAct.FindStringSubmatch(line)
			name := m[1]
			a := parsedAction{Name: name}
			switch {
			case m[2] == "folds":
				a.Verb = "fold"
			case m[2] == "checks":
				a.Verb = "check"
			case m[3] != "":
				a.Verb, a.To = "call", atoi(m[3])
				cur.Put[name] += a.To
				inThisStreet[name] += a.To
			case m[4] != "":
				a.Verb, a.To = "bet", atoi(m[4])
				cur.Put[name] += a.To - inThisStreet[name]
				inThisStreet[name] = a.To
			default:
				a.Verb, a.To = "raise", atoi(m[6])
				cur.Put[name] += a.To - inThisStreet[name]
				inThisStreet[name] = a.To
			}
			cur.Actions = append(cur.Actions, a)
		default:
			return nil, fail()
		}
	}
	return out, sc.Err()
}
