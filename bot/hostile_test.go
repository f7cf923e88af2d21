package bot_test

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/bottest"
	"github.com/dealerbot/dealerbot/bot/features"
)

var (
	hostileSeed = flag.Uint64("hostile.seed", 0, "seed for the hostile command test (0 = time)")
	hostileN    = flag.Int("hostile.commands", 100000, "commands sent by the hostile command test")
)

// hostileNumbers are what a hostile user types where a number goes.
var hostileNumbers = []string{"0", "1", "-1", "5", "20", "60", "400", "1000", "2000", "999999999999", "1000000000000",
	"1000000000001", "4611686018427387904", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
	"99999999999999999999", "1e9", "0x10", "NaN", "½", "1,000", "", "-0", "00000000000000000000007"}

func hostileNumber(r *rand.Rand) string {
	if r.IntN(3) == 0 {
		return fmt.Sprint(r.Int64N(3000))
	}
	return hostileNumbers[r.IntN(len(hostileNumbers))]
}

// hostileCommand makes one random command line: real verbs with odd, huge, negative and overflowing
// arguments, settings and schedules, and now and then something that is no command at all.
func hostileCommand(r *rand.Rand) string {
	n := hostileNumber
	opts := func() string {
		var o []string
		for i := r.IntN(4); i > 0; i-- {
			switch r.IntN(12) {
			case 0:
				o = append(o, "blinds="+n(r)+"/"+n(r))
			case 1:
				o = append(o, "ante="+n(r))
			case 2:
				o = append(o, "buyin="+n(r))
			case 3:
				o = append(o, "max="+n(r), "min="+n(r))
			case 4:
				o = append(o, "levels="+n(r)+[]string{"m", "hands", ""}[r.IntN(3)])
			case 5:
				o = append(o, "end="+n(r)+[]string{"m", "h", ""}[r.IntN(3)])
			case 6:
				o = append(o, "rebuy="+[]string{"yes", "no", n(r)}[r.IntN(3)], "rebuylevels="+n(r))
			case 7:
				o = append(o, "timer="+n(r), "seats="+n(r))
			case 8:
				o = append(o, "variant="+[]string{"no-limit", "pot-limit", "fixed-limit", "stud"}[r.IntN(4)])
			case 9:
				o = append(o, "cards="+[]string{"text", "emoji", "huge"}[r.IntN(3)])
			case 10:
				o = append(o, strings.Repeat("x", r.IntN(3000))+"="+n(r))
			default:
				o = append(o, "levels=1hands", "blinds=1/2", "straddle="+[]string{"on", "off", "maybe"}[r.IntN(3)],
					"runtwice="+[]string{"on", "off", n(r)}[r.IntN(3)])
			}
		}
		return strings.Join(o, " ")
	}
	switch r.IntN(31) {
	case 0:
		return "start " + opts()
	case 1:
		tourney := []string{"buyin=" + n(r), "stack=" + n(r), "payouts=" + []string{"50/30/20", "60/40", "50/30", n(r) + "/" + n(r), "100"}[r.IntN(5)]}
		r.Shuffle(len(tourney), func(i, j int) { tourney[i], tourney[j] = tourney[j], tourney[i] })
		return "start tournament " + strings.Join(tourney[:r.IntN(4)], " ") + " " + opts()
	case 2:
		return "set " + opts()
	case 3, 4, 5:
		return "join " + []string{"", n(r)}[r.IntN(2)]
	case 6:
		return "leave"
	case 7:
		return "kick " + []string{"u0", "u3", "admin0", "@nobody", strings.Repeat("z", 500)}[r.IntN(5)]
	case 8:
		return "rebuy " + []string{"", n(r)}[r.IntN(2)]
	case 9, 10:
		return "deal"
	case 11, 12, 13:
		return []string{"fold", "check", "call", "allin", "all-in"}[r.IntN(5)]
	case 14, 15:
		return []string{"bet ", "raise "}[r.IntN(2)] + n(r)
	case 16:
		return []string{"sitout", "sitin", "cards", "table", "show", "chips", "leaderboard", "verify", "help"}[r.IntN(9)]
	case 17:
		return "history " + n(r)
	case 18:
		return "adjust " + []string{"u1", "u2", "admin1", "ghost"}[r.IntN(4)] + " " + n(r)
	case 19:
		return "end"
	case 20:
		return "schedule add " + []string{"weekly fri 20:00", "daily 19:30", "* * * * *", "on 2026-12-04 20:00", "every tue,thu 21:00"}[r.IntN(5)] +
			" " + []string{"", "length=" + n(r) + "h", "remind=" + n(r) + "m"}[r.IntN(3)] + " " + opts()
	case 21:
		return []string{"schedule list", "schedule remove 1", "schedule skip 1", "rsvp yes", "rsvp maybe", "leaderboard season"}[r.IntN(6)]
	case 22:
		return strings.Repeat("ü", r.IntN(20000))
	case 25:
		return []string{"straddle", "bombpot", "bombpot " + n(r), "runtwice yes", "runtwice no", "runtwice " + n(r)}[r.IntN(6)]
	case 23:
		return ""
	case 24: // the money and stats verbs, with odd amounts, handles, debt numbers and periods
		who := []string{"u1", "@u2", "#" + n(r), n(r), strings.Repeat("y", 300)}[r.IntN(5)]
		return []string{"payment paypal " + who, "payment other <@everyone>", "debts", "paid " + who, "confirm " + who,
			"dispute " + who, "forgive " + who, "expense " + n(r) + " pizza", "expense " + n(r) + "." + n(r), "stats " + who,
			"stats " + n(r) + "-01-01.." + n(r) + "-12-31", "stats season", "export money", "help money"}[r.IntN(14)]
	default:
		return []string{"call", "check", "fold", "raise " + n(r), "deal", "join"}[r.IntN(6)]
	}
}

// TestHostileCommands: at least 100,000 random commands from 12 users (two of them admins) in four
// channels, with huge, negative and overflowing numbers and odd options, leave/kick/set mid-hand, and
// timers firing now and then. After every command: no panic, chips exactly conserved in total and
// for each player (sums that cannot wrap), no negative stack or bankroll, and every refusal a sentence
// of at most 300 characters. The seed is printed; -hostile.seed replays a run.
func TestHostileCommands(t *testing.T) {
	seed := *hostileSeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	t.Logf("seed %d (rerun with -hostile.seed=%d)", seed, seed)
	count := *hostileN
	if testing.Short() || raceEnabled {
		count = min(count, 10000)
	}
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	errLog := &bottest.Buffer{} // every internal error the dealer logs: there must be none
	rg := newRig(t, bot.Config{RateLimit: bot.DefaultRateLimit, Rand: rand.NewChaCha8([32]byte{byte(seed), byte(seed >> 8)}), Logger: slog.New(slog.NewTextHandler(errLog, &slog.HandlerOptions{Level: slog.LevelError}))})
	s, err := features.NewScheduler(rg.d, rg.db, features.ScheduleConfig{DefaultZone: "UTC"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	users := []string{"admin0", "admin1"}
	for i := 0; i < 10; i++ {
		users = append(users, fmt.Sprintf("u%d", i))
	}
	channels := []string{"c0", "c1", "c2", "c3"}
	ctx := context.Background()
	refusals, tourneyPlayed, clicks, updates := 0, 0, 0, 0
	for i := 0; i < count; i++ {
		user, ch := users[r.IntN(len(users))], channels[r.IntN(len(channels))]
		text := hostileCommand(r)
		cmd := bot.Command{Platform: "test", Workspace: "w", Channel: ch, User: user, UserName: user,
			Admin: strings.HasPrefix(user, "admin"), Text: text}
		if st, ok := rg.chat.shown(ch); ok && len(st.buttons) > 0 && r.IntN(3) == 0 {
			// A click on a button of the table message as drawn, by anyone (often not the player to
			// act, often on a version the table has moved past), answered with the new version.
			b := st.buttons[r.IntN(len(st.buttons))]
			cmd.Text, cmd.Token, cmd.Message = b.Command, b.Token, st.id
			if b.Amount {
				cmd.Text += " " + hostileNumber(r)
			}
			clicks++
		}
		rep := rg.d.Handle(ctx, cmd)
		if rep.Update != nil {
			updates++
			if strings.Contains(rep.Update.Text, "your cards") || rep.Update.Private {
				t.Fatalf("command %d (seed %d): a click's table update is private: %.300q", i, seed, rep.Update.Text)
			}
		}
		if rep.IsError {
			refusals++
			if n := utf8.RuneCountInString(rep.Text); n > 300 || n == 0 || strings.HasPrefix(rep.Text, "Sorry, something went wrong") {
				t.Fatalf("command %d (seed %d): %s: %.40q…: refusal of %d characters: %.300q", i, seed, user, text, n, rep.Text)
			}
		}
		// Time passes: usually a little, sometimes enough for timers and blind levels.
		switch r.IntN(20) {
		case 0:
			rg.advance(time.Duration(r.IntN(120)) * time.Second)
		default:
			rg.advance(time.Duration(r.IntN(300)) * time.Millisecond)
		}
		if checkPlayers(t, rg, i, seed) { // after every command: per player and in total
			tourneyPlayed++
		}
		if i%2000 == 0 {
			rg.balance() // the whole ledger against the players and tables
		}
	}
	rg.balance()
	checkPlayers(t, rg, count, seed)
	if err := rg.d.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	posts, pings := 0, 0
	for _, m := range rg.chat.all() {
		if m.Private {
			continue
		}
		if strings.Contains(m.Text, "your cards") {
			t.Fatalf("seed %d: hole cards in the channel: %.300q", seed, m.Text)
		}
		if strings.HasPrefix(m.Text, "🔔") {
			pings++
		}
		posts++
	}
	t.Logf("%d clicks on table messages, %d answered with the table's new version; %d channel writes, %d turn pings", clicks, updates, posts, pings)
	if updates == 0 || pings == 0 {
		t.Fatalf("seed %d: %d click updates and %d turn pings: the test does not reach the live table", seed, updates, pings)
	}
	if logged := errLog.String(); logged != "" {
		t.Fatalf("seed %d: the dealer logged internal errors:\n%.2000s", seed, logged)
	}
	t.Logf("%d commands, %d refused with a sentence; %d with a tournament under way", count, refusals, tourneyPlayed)
	if tourneyPlayed == 0 {
		t.Fatal("no tournament began: the generator does not reach tournaments")
	}
	if refusals == count || refusals == 0 {
		t.Fatalf("%d of %d commands refused: the generator does not reach the game", refusals, count)
	}
	hands := 0
	for _, ch := range channels {
		h, err := rg.db.Hands(ctx, "test/w/"+ch, 100)
		if err != nil {
			t.Fatal(err)
		}
		hands += len(h)
	}
	if hands == 0 {
		t.Fatal("no hand was finished: the generator does not reach the game")
	}
	t.Logf("%d+ hands finished", hands)
}

// checkPlayers: no negative stack, bankroll or chips on tables; each player's chips on tables equal
// the stacks of their seats; and in total the bankrolls and chips on tables equal the chips brought
// in (grants and adjustments), summed with overflow checks. It reports whether a tournament is under way.
func checkPlayers(t *testing.T, rg *rig, i int, seed uint64) (tourney bool) {
	t.Helper()
	ctx := context.Background()
	players, err := rg.db.Players(ctx, "w")
	if err != nil {
		t.Fatal(err)
	}
	tables, err := rg.db.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	seated := map[string]int64{}
	for _, tr := range tables {
		if tr.Tournament != nil {
			tourney = tourney || !tr.Tournament.Began.IsZero()
			// A tournament's seats hold tournament chips; the player's chips on the table are the
			// buy-ins in its prize pool.
			for _, e := range tr.Tournament.Entries {
				seated[e.User] = exactSum(t, seated[e.User], e.Paid)
			}
			continue
		}
		for _, st := range tr.Seats {
			if st.Stack < 0 {
				t.Fatalf("command %d (seed %d): %s has a stack of %d", i, seed, st.User, st.Stack)
			}
			if st.User != "" {
				seated[st.User] = exactSum(t, seated[st.User], st.Stack)
			}
		}
	}
	var held, brought int64
	for _, p := range players {
		if p.Bankroll < 0 || p.OnTable < 0 {
			t.Fatalf("command %d (seed %d): %s holds %d in the bankroll and %d on tables", i, seed, p.User, p.Bankroll, p.OnTable)
		}
		if p.OnTable != seated[p.User] {
			t.Fatalf("command %d (seed %d): %s has %d on tables by the ledger but %d in seats", i, seed, p.User, p.OnTable, seated[p.User])
		}
		held = exactSum(t, exactSum(t, held, p.Bankroll), p.OnTable)
		brought = exactSum(t, brought, p.Granted)
	}
	if held != brought {
		t.Fatalf("command %d (seed %d): players hold %d chips but %d were brought in", i, seed, held, brought)
	}
	return tourney
}

// exactSum adds two chip counts, failing the test if the sum would wrap.
func exactSum(t *testing.T, a, b int64) int64 {
	t.Helper()
	s := a + b
	if (s > a) != (b > 0) {
		t.Fatalf("chip sum %d + %d wraps", a, b)
	}
	return s
}
