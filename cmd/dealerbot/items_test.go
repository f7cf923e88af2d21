package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestItem9HelpOnStandardOutput: `dealerbot help` works like --help and -h, which write the usage to
// standard output and exit 0; `dealerbot export --help` too. A mistake still gets it on standard
// error.
func TestItem9HelpOnStandardOutput(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"--help"}, {"-h"}, {"export", "--help"}, {"export", "-h"}} {
		code, out, errOut := runMain(t, nil, "", args...)
		if code != 0 || !strings.HasPrefix(out, "Usage:") || errOut != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want the usage on standard output", args, code, out, errOut)
		}
	}
	if code, out, errOut := runMain(t, nil, "", "export", "--colour"); code != 2 || out != "" || !strings.Contains(errOut, "Usage: dealerbot export") {
		t.Errorf("export --colour: exit %d, stdout %q, stderr %q; want the usage on standard error", code, out, errOut)
	}
}

// TestItem9ExportNoSuchTable: `dealerbot export --table nope` says there is no such table, names the
// tables that have hands, writes nothing and exits 1; a table that exists exports its hands.
func TestItem9ExportNoSuchTable(t *testing.T) {
	db, hands := playHands(t)
	env := map[string]string{"DEALERBOT_DB": db}
	code, out, errOut := runMain(t, env, "", "export", "--table", "nope")
	if code != 1 || out != "" || !strings.Contains(errOut, `dealerbot export: no table "nope": the tables with hands are console/local/console`) {
		t.Errorf("export --table nope: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, out, errOut = runMain(t, env, "", "export", "--table", "console")
	if code != 0 || strings.Count(out, "PokerStars Hand #") != hands {
		t.Errorf("export --table console: exit %d, stderr %q, %d hands", code, errOut, strings.Count(out, "PokerStars Hand #"))
	}
}

// playSession plays, at the console in a new database, a cash game with straddles, a bomb pot and an
// all-in run twice, then a tournament to its end.
func playSession(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	db := filepath.Join(dir, "session.db")
	users := []string{"alice", "bob", "carol", "dave"}
	var lines []string
	say := func(ls ...string) { lines = append(lines, ls...) }
	each := func(cmds ...string) {
		for i := 0; i < 6; i++ {
			for _, u := range users {
				for _, c := range cmds {
					say(u + ": " + c)
				}
			}
		}
	}
	say("alice: start straddle=on runtwice=on timer=off")
	for _, u := range users {
		say(u + ": join 1000")
	}
	say("alice: deal")
	each("check", "call")
	for _, u := range users {
		say(u + ": straddle") // the player under the gun straddles; the others are refused
	}
	say("alice: deal")
	each("check", "call")
	say("alice: bombpot 20", "alice: deal")
	each("check")
	say("alice: deal")
	each("allin", "call", "runtwice yes")
	say("alice: end")
	say("alice: start tournament buyin=100 stack=500 timer=off payouts=70/30")
	for _, u := range users[:3] {
		say(u + ": join")
	}
	for h := 0; h < 6; h++ {
		say("alice: deal")
		for i := 0; i < 4; i++ {
			for _, u := range users[:3] {
				say(u+": allin", u+": call")
			}
		}
	}
	script := filepath.Join(dir, "session.txt")
	if err := os.WriteFile(script, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"DEALERBOT_DB": db, "DEALERBOT_DEAL_DELAY": "1h"}
	if code, out, errOut := runMain(t, env, "", "--script", script); code != 0 {
		t.Fatalf("play: exit %d: %s\n%s", code, errOut, out)
	}
	return db
}

// TestItem11ExportPassesOHHCheck: `dealerbot export` of a session with tournaments, run-it-twice,
// bomb pots and straddles passes an Open Hand History 1.4 check (checkOHH): the required fields,
// tournament_info on the tournament's hands, pots that add up to what was put in and winners who
// held their cards. The PokerStars export writes the tournament's hands as tournament hands.
func TestItem11ExportPassesOHHCheck(t *testing.T) {
	db := playSession(t)
	env := map[string]string{"DEALERBOT_DB": db}
	code, out, errOut := runMain(t, env, "", "export", "--format", "ohh")
	if code != 0 {
		t.Fatalf("export: exit %d: %s", code, errOut)
	}
	seen := map[string]int{}
	for i, line := range strings.Split(strings.TrimSpace(out), "\n") {
		for _, what := range checkOHH(t, i+1, line) {
			seen[what]++
		}
	}
	t.Logf("the export: %v", seen)
	for _, want := range []string{"hand", "tournament", "Run_It_Twice", "Bomb_Pot", "Straddle"} {
		if seen[want] == 0 {
			t.Errorf("the session's export has no %s hand (%v)", want, seen)
		}
	}
	code, out, errOut = runMain(t, env, "", "export")
	if code != 0 {
		t.Fatalf("export: exit %d: %s", code, errOut)
	}
	header := regexp.MustCompile(`(?m)^PokerStars Hand #\d+: Tournament #(\d+), 100\+0 Hold'em No Limit - Level I \(5/10\) - \d{4}/\d\d/\d\d \d?\d:\d\d:\d\d ET\nTable '(\d+) 1' 9-max Seat #\d is the button$`)
	ms := header.FindAllStringSubmatch(out, -1)
	if len(ms) != seen["tournament"] {
		t.Errorf("%d tournament hands in PokerStars text, %d in OHH:\n%s", len(ms), seen["tournament"], out)
	}
	for _, m := range ms {
		if m[1] != m[2] {
			t.Errorf("tournament #%s played at table '%s 1'", m[1], m[2])
		}
	}
	if !regexp.MustCompile(`(?m)^\S+ wins the tournament and receives 210 - congratulations!$`).MatchString(out) ||
		!regexp.MustCompile(`(?m)^\S+ finished the tournament in 2nd place( and received \d+\.)?$`).MatchString(out) {
		t.Errorf("the tournament's finishing lines are missing:\n%s", out)
	}
}

// checkOHH checks one exported hand against the Open Hand History 1.4 specification: the fields it
// requires, with their types; tournament_info on a tournament hand; players, rounds and actions as
// the specification names them; pots that hold every chip put in but the uncalled part of the
// largest bet of each round; winners who are players still holding their cards, paid the whole pot.
// It returns what the hand is: "hand", "tournament", its flags, "Straddle" for a straddled hand.
func checkOHH(t *testing.T, n int, line string) []string {
	t.Helper()
	var doc struct {
		OHH map[string]json.RawMessage `json:"ohh"`
	}
	if err := json.Unmarshal([]byte(line), &doc); err != nil || doc.OHH == nil {
		t.Fatalf("hand %d is no {\"ohh\": {...}} object: %v", n, err)
	}
	o := doc.OHH
	fail := func(format string, args ...any) {
		t.Helper()
		t.Errorf("hand %d: "+format+"\n%s", append([]any{n}, append(args, line)...)...)
	}
	field := func(name string, v any) bool {
		raw, ok := o[name]
		if !ok {
			fail("no %s", name)
			return false
		}
		if err := json.Unmarshal(raw, v); err != nil {
			fail("%s: %v", name, err)
			return false
		}
		return true
	}
	var s string
	for _, name := range []string{"spec_version", "site_name", "network_name", "internal_version", "game_number", "start_date_utc", "table_name", "game_type", "currency"} {
		if field(name, &s) && s == "" {
			fail("%s is empty", name)
		}
	}
	var version string
	if field("spec_version", &version) && !strings.HasPrefix(version, "1.4") {
		fail("spec_version %q, want 1.4.x", version)
	}
	if field("start_date_utc", &s) {
		if _, err := time.Parse("2006-01-02T15:04:05Z", s); err != nil {
			fail("start_date_utc %q is no ISO 8601 UTC time", s)
		}
	}
	var num float64
	for _, name := range []string{"table_size", "dealer_seat", "small_blind_amount", "big_blind_amount", "ante_amount"} {
		field(name, &num)
	}
	var limit struct {
		BetType *string `json:"bet_type"`
	}
	if field("bet_limit", &limit) && (limit.BetType == nil || !slices.Contains([]string{"NL", "PL", "FL"}, *limit.BetType)) {
		fail("bet_limit.bet_type is not NL, PL or FL")
	}
	var what []string
	what = append(what, "hand")
	var tourney bool
	if field("tournament", &tourney) && tourney {
		what = append(what, "tournament")
		var info map[string]json.RawMessage
		if !field("tournament_info", &info) {
			return what
		}
		for _, name := range []string{"tournament_number", "name", "start_date_utc", "currency", "buyin_amount", "fee_amount",
			"bounty_fee_amount", "initial_stack", "type", "speed"} {
			if _, ok := info[name]; !ok {
				fail("tournament_info has no %s", name)
			}
		}
		var speed struct {
			Type      string `json:"type"`
			RoundTime *int   `json:"round_time"`
		}
		if err := json.Unmarshal(info["speed"], &speed); err != nil || speed.Type == "" || speed.RoundTime == nil {
			fail("tournament_info.speed %s", info["speed"])
		}
		var typ string
		if err := json.Unmarshal(info["type"], &typ); err != nil || typ != "STT" && typ != "MTT" {
			fail("tournament_info.type %s", info["type"])
		}
	} else if _, ok := o["tournament_info"]; ok {
		fail("a cash-game hand with tournament_info")
	}
	var flags []string
	if raw, ok := o["flags"]; ok {
		if err := json.Unmarshal(raw, &flags); err != nil {
			fail("flags: %v", err)
		}
	}
	what = append(what, flags...)
	var players []struct {
		ID            *int   `json:"id"`
		Seat          *int   `json:"seat"`
		Name          string `json:"name"`
		StartingStack *int64 `json:"starting_stack"`
	}
	var dealer int
	field("dealer_seat", &dealer)
	ids := map[int]bool{}
	dealerSeated := false
	if field("players", &players) {
		for _, p := range players {
			if p.ID == nil || p.Seat == nil || p.Name == "" || p.StartingStack == nil || *p.StartingStack <= 0 {
				fail("a player lacks id, seat, name or starting_stack: %+v", p)
				continue
			}
			ids[*p.ID] = true
			dealerSeated = dealerSeated || *p.Seat == dealer
		}
	}
	if !dealerSeated {
		fail("dealer_seat %d is nobody's seat", dealer)
	}
	var rounds []struct {
		ID      *int   `json:"id"`
		Street  string `json:"street"`
		Actions []struct {
			Number   *int   `json:"action_number"`
			PlayerID int    `json:"player_id"`
			Action   string `json:"action"`
			Amount   int64  `json:"amount"`
		} `json:"actions"`
	}
	folded := map[int]bool{}
	var in, uncalled int64
	if field("rounds", &rounds) {
		for _, r := range rounds {
			if r.ID == nil || !slices.Contains([]string{"Preflop", "Flop", "Turn", "River", "Showdown"}, r.Street) || r.Actions == nil {
				fail("a round lacks id, street or actions: %+v", r)
			}
			bets := map[int]int64{}
			for _, a := range r.Actions {
				if a.Number == nil || !ids[a.PlayerID] {
					fail("action %+v: no action_number, or no such player", a)
				}
				switch a.Action {
				case "Post Ante":
					in += a.Amount
				case "Post SB", "Post BB", "Straddle", "Call", "Bet", "Raise":
					in += a.Amount
					bets[a.PlayerID] += a.Amount
					if a.Action == "Straddle" {
						what = append(what, "Straddle")
					}
				case "Fold":
					folded[a.PlayerID] = true
				case "Check", "Dealt Cards", "Shows Cards", "Mucks Cards":
				default:
					fail("action %q is not one the specification names", a.Action)
				}
			}
			var top, second int64
			for _, b := range bets {
				switch {
				case b > top:
					top, second = b, top
				case b > second:
					second = b
				}
			}
			uncalled += top - second // the part of the largest bet nobody matched goes back
		}
	}
	var pots []struct {
		Number     *int  `json:"number"`
		Amount     int64 `json:"amount"`
		PlayerWins []struct {
			PlayerID  int   `json:"player_id"`
			WinAmount int64 `json:"win_amount"`
		} `json:"player_wins"`
	}
	var total int64
	if field("pots", &pots) {
		for _, p := range pots {
			var won int64
			for _, w := range p.PlayerWins {
				if !ids[w.PlayerID] || folded[w.PlayerID] {
					fail("pot %+v is won by player %d, who is not in the hand or folded", p, w.PlayerID)
				}
				won += w.WinAmount
			}
			if p.Number == nil || len(p.PlayerWins) == 0 || won != p.Amount {
				fail("pot %+v: its winners are paid %d", p, won)
			}
			total += p.Amount
		}
	}
	if total != in-uncalled {
		fail("the pots hold %d; %d was put in and %d not called", total, in, uncalled)
	}
	return what
}
