package schedule_test

import (
	"context"
	"errors"
	"fmt"
	"github.com/dealerbot/dealerbot/storage/storetest"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot/errs"
	"github.com/dealerbot/dealerbot/bot/schedule"
	"github.com/dealerbot/dealerbot/render"
	"github.com/dealerbot/dealerbot/storage"
)

// fakeHost records what the scheduler asks of the dealer, one line per call.
type fakeHost struct {
	log        []string
	posts      []render.Message
	openErr    error
	results    []schedule.Balance
	finished   bool // what Finish reports as done at the end time
	endedEarly bool // the session ended before its end time
	keys       []string
	postErr    error // what Post answers, nil: posted
	// tables is what became of each game's table (by its start's Unix time), as Found reports it:
	// Open sets IsOpen, a test may set Played.
	tables map[int64]schedule.Found
}

func (h *fakeHost) Found(ctx context.Context, s *schedule.Schedule, g schedule.Session) (schedule.Found, error) {
	return h.tables[g.Start.Unix()], nil
}

func (h *fakeHost) Post(ctx context.Context, s *schedule.Schedule, key string, m render.Message) error {
	if h.postErr != nil {
		return h.postErr
	}
	h.log = append(h.log, "post: "+m.Text)
	h.posts = append(h.posts, m)
	h.keys = append(h.keys, key)
	return nil
}

func (h *fakeHost) Open(ctx context.Context, s *schedule.Schedule, g schedule.Session) error {
	h.log = append(h.log, fmt.Sprintf("open %s until %s", strings.Join(s.Options, " "), g.End.UTC().Format("15:04")))
	if h.openErr == nil {
		if h.tables == nil {
			h.tables = map[int64]schedule.Found{}
		}
		h.tables[g.Start.Unix()] = schedule.IsOpen
	}
	return h.openErr
}

func (h *fakeHost) Finish(ctx context.Context, s *schedule.Schedule, g schedule.Session, end bool) ([]schedule.Balance, bool, error) {
	if !end {
		// Looking early: the session is over before its end time only when the test says so.
		if h.endedEarly {
			h.log = append(h.log, "over early "+g.Start.UTC().Format("01-02 15:04"))
			return h.results, true, nil
		}
		return nil, false, nil
	}
	h.log = append(h.log, "finish "+g.Start.UTC().Format("01-02 15:04"))
	return h.results, h.finished, nil
}

// clock is a settable fake clock.
type clock struct{ t time.Time }

func (c *clock) Now() time.Time { return c.t }

func newManager(tb testing.TB, db *storage.DB, c *clock) (*schedule.Manager, *fakeHost) {
	h := &fakeHost{finished: true}
	m := &schedule.Manager{Store: db, Host: h, Now: c.Now, DefaultZone: "Europe/Berlin",
		Options: func(opts []string) (string, error) {
			for _, o := range opts {
				if strings.HasPrefix(o, "blinds=") && !strings.Contains(o, "/") {
					return "", &errs.Error{Code: errs.Invalid, Message: "Write the blinds as small/big, for example blinds=10/20."}
				}
			}
			return strings.Join(opts, ", "), nil
		}}
	return m, h
}

// The requests: the dealer's gate lets Alice (an admin) add and manage schedules before the
// manager runs, and checks who may; these tests run the manager's verbs alone.
var (
	admin = schedule.Request{Platform: "discord", Workspace: "G1", Channel: "C1", User: "UA", UserName: "Alice"}
	bob   = schedule.Request{Platform: "discord", Workspace: "G1", Channel: "C1", User: "UB", UserName: "Bob"}
	carol = schedule.Request{Platform: "discord", Workspace: "G1", Channel: "C1", User: "UC", UserName: "Carol"}
	dave  = schedule.Request{Platform: "discord", Workspace: "G1", Channel: "C1", User: "UD", UserName: "Dave"}
)

// verbs are the scheduler's commands by the names the dealer's verb table gives them; the aliases and
// the gate's refusals are tested through the dealer (bot/schedules_test.go).
var verbs = map[string]func(*schedule.Manager, context.Context, schedule.Request, []string) (schedule.Reply, error){
	"schedule add":    (*schedule.Manager).Add,
	"schedule remove": (*schedule.Manager).Remove,
	"schedule skip":   (*schedule.Manager).Skip,
	"schedule list": func(m *schedule.Manager, ctx context.Context, r schedule.Request, _ []string) (schedule.Reply, error) {
		return m.List(ctx, r)
	},
	"rsvp":               (*schedule.Manager).RSVP,
	"leaderboard season": (*schedule.Manager).Season,
}

// reply is a command's answer as the dealer shows it: a refusal's sentence, marked as an error.
type reply struct {
	Text    string
	IsError bool
}

func do(tb testing.TB, m *schedule.Manager, r schedule.Request, text string) reply {
	tb.Helper()
	f := strings.Fields(text)
	run, args := verbs[f[0]], f[1:]
	if len(f) > 1 && verbs[f[0]+" "+f[1]] != nil {
		run, args = verbs[f[0]+" "+f[1]], f[2:]
	}
	if run == nil {
		tb.Fatalf("%q is no scheduler command", text)
	}
	rep, err := run(m, context.Background(), r, args)
	if err != nil { // as the dealer shows it
		text, _ := errs.Reply(err)
		return reply{Text: text, IsError: true}
	}
	return reply{Text: rep.Text}
}

func mustDo(tb testing.TB, m *schedule.Manager, r schedule.Request, text string) reply {
	tb.Helper()
	rep := do(tb, m, r, text)
	if rep.IsError {
		tb.Fatalf("%q: %s", text, rep.Text)
	}
	return rep
}

// sunday noon UTC, 22 November 2026; the Friday game at 20:00 Berlin is 19:00 UTC on the 27th.
var sunday = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

func TestAddStatesNextThreeDates(t *testing.T) {
	db := storetest.OpenDB(t)
	m, _ := newManager(t, db, &clock{sunday})
	rep := mustDo(t, m, admin, "schedule add weekly fri 20:00 tz=America/New_York length=3h blinds=10/20 buyin=1000")
	for _, want := range []string{"Schedule 1 added", "Fri 27 Nov 2026 20:00 EST", "Fri 4 Dec 2026 20:00 EST", "Fri 11 Dec 2026 20:00 EST", "3 h", "blinds=10/20, buyin=1000"} {
		if !strings.Contains(rep.Text, want) {
			t.Errorf("reply %q does not contain %q", rep.Text, want)
		}
	}
	rep = mustDo(t, m, admin, "schedule add daily 19:30 end=23:00")
	for _, want := range []string{"Schedule 2 added", "Sun 22 Nov 2026 19:30 CET", "Mon 23 Nov 2026 19:30 CET", "3 h 30 min"} {
		if !strings.Contains(rep.Text, want) {
			t.Errorf("reply %q does not contain %q", rep.Text, want)
		}
	}
	list := mustDo(t, m, bob, "schedule list").Text
	for _, want := range []string{"1. weekly fri 20:00 (America/New_York)", "2. daily 19:30 (Europe/Berlin)", "host Alice"} {
		if !strings.Contains(list, want) {
			t.Errorf("list %q does not contain %q", list, want)
		}
	}
}

// TestBadInputChangesNothing: each refusal is a sentence saying what to do, and the stored schedules
// and RSVPs are exactly as before.
func TestBadInputChangesNothing(t *testing.T) {
	db := storetest.OpenDB(t)
	c := &clock{sunday}
	m, h := newManager(t, db, c)
	mustDo(t, m, admin, "schedule add weekly fri 20:00 blinds=10/20")
	mustDo(t, m, bob, "rsvp yes 1")
	otherWorkspace := admin
	otherWorkspace.Workspace = "G2"
	tests := []struct {
		name string
		r    schedule.Request
		text string
		want string
	}{
		{"invalid cron", admin, "schedule add 0 25 * * 5", "is not a cron schedule I can read"},
		{"garbled when", admin, "schedule add fortnightly fri 20:00", "I could not read"},
		{"unknown time zone", admin, "schedule add weekly fri 20:00 tz=Mars/Olympus", `I do not know the time zone "Mars/Olympus"`},
		{"date in the past", admin, "schedule add on 2026-11-20 20:00", "2026-11-20 is in the past"},
		{"from in the past", admin, "schedule add weekly fri 20:00 from=2026-11-01", "from=2026-11-01 is in the past"},
		{"never comes", admin, "schedule add 0 20 31 2 *", "never comes round"},
		{"bad length", admin, "schedule add weekly fri 20:00 length=forever", "Write length= as whole minutes or hours"},
		{"length and end", admin, "schedule add weekly fri 20:00 length=2h end=23:00", "either length= or end="},
		{"bad announce", admin, "schedule add weekly fri 20:00 announce=soon", "Write announce= as whole minutes or hours"},
		{"bad remind", admin, "schedule add weekly fri 20:00 remind=later", "Write remind= as whole minutes or hours"},
		{"remind before announce", admin, "schedule add weekly fri 20:00 announce=1h remind=2h", "cannot come before the announcement"},
		{"bad game option", admin, "schedule add weekly fri 20:00 blinds=10", "Write the blinds as small/big"},
		{"time after options", admin, "schedule add blinds=10/20 weekly fri 20:00", "Put the time first"},
		{"unknown id remove", admin, "schedule remove 7", "There is no schedule 7 here"},
		{"unknown id skip", admin, "schedule skip 7", "There is no schedule 7 here"},
		{"other workspace", otherWorkspace, "schedule remove 1", "There is no schedule 1 here"},
		{"remove without id", admin, "schedule remove", "Name one schedule"},
		{"skip with two ids", admin, "schedule skip 1 2", "Name one schedule: `schedule skip ID`"},
		{"bad rsvp", bob, "rsvp perhaps", "`perhaps` is not an answer"},
		{"rsvp unknown schedule", bob, "rsvp yes 9", "There is no schedule 9 here"},
		{"season unknown schedule", bob, "leaderboard season 9", "There is no schedule 9 here"},
	}
	before, _ := db.Schedules(context.Background())
	beforeRSVP, _ := db.RSVPs(context.Background(), "1", before[0].Next)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := do(t, m, tt.r, tt.text)
			if !rep.IsError || !strings.Contains(rep.Text, tt.want) {
				t.Errorf("reply = %q (error %v), want an error containing %q", rep.Text, rep.IsError, tt.want)
			}
			after, _ := db.Schedules(context.Background())
			if !reflect.DeepEqual(jsonish(before), jsonish(after)) {
				t.Errorf("schedules changed:\n%v\n%v", before, after)
			}
			afterRSVP, _ := db.RSVPs(context.Background(), "1", before[0].Next)
			if len(afterRSVP) != len(beforeRSVP) || afterRSVP[0].Answer != beforeRSVP[0].Answer {
				t.Errorf("rsvps changed: %v -> %v", beforeRSVP, afterRSVP)
			}
		})
	}
	if len(h.log) != 0 {
		t.Errorf("bad input reached the channel: %v", h.log)
	}
}

func jsonish(ss []schedule.Schedule) []string {
	var out []string
	for _, s := range ss {
		out = append(out, fmt.Sprintf("%+v", s))
	}
	return out
}

// step advances the clock a minute at a time to until, ticking at each minute.
func step(tb testing.TB, m *schedule.Manager, c *clock, until time.Time) {
	tb.Helper()
	for c.t.Before(until) {
		c.t = c.t.Add(time.Minute)
		if err := m.Tick(context.Background()); err != nil {
			tb.Fatal(err)
		}
	}
}

// TestGameNight drives a whole week with a fake clock: the announcement with RSVP buttons a day
// before, the reminder mentioning those going half an hour before, the table opening at the start
// with the game's settings and the RSVPs pinged, then at the end the results and the settle-up, and
// the season leaderboard from the stored result.
func TestGameNight(t *testing.T) {
	db := storetest.OpenDB(t)
	c := &clock{sunday}
	m, h := newManager(t, db, c)
	mustDo(t, m, admin, "schedule add weekly fri 20:00 length=3h blinds=10/20 levels=20m")

	step(t, m, c, time.Date(2026, 11, 26, 19, 0, 0, 0, time.UTC))
	if len(h.posts) != 1 {
		t.Fatalf("at announcement time: %v", h.log)
	}
	ann := h.posts[0]
	if !strings.Contains(ann.Text, "Home game on Fri 27 Nov 2026 20:00 CET (in 24 hours)") || !strings.Contains(ann.Text, "Game: blinds=10/20, levels=20m. Are you playing?") {
		t.Errorf("announcement = %q", ann.Text)
	}
	var cmds []string
	for _, b := range ann.Buttons {
		cmds = append(cmds, b.Command+"/"+b.Token)
	}
	if got, want := strings.Join(cmds, " "), "rsvp yes/1 rsvp maybe/1 rsvp no/1"; got != want {
		t.Errorf("buttons = %q, want %q", got, want)
	}

	// Clicks carry the schedule ID as token.
	for _, r := range []struct {
		req schedule.Request
		cmd string
	}{{bob, "rsvp yes"}, {carol, "rsvp no"}, {dave, "rsvp maybe"}, {carol, "rsvp yes"}} {
		r.req.Token = "1"
		if rep := mustDo(t, m, r.req, r.cmd); !strings.Contains(rep.Text, "Fri 27 Nov 2026 20:00 CET") {
			t.Errorf("%s: reply %q names no game", r.cmd, rep.Text)
		}
	}

	step(t, m, c, time.Date(2026, 11, 27, 18, 30, 0, 0, time.UTC))
	if len(h.posts) != 2 {
		t.Fatalf("at reminder time: %v", h.log)
	}
	if got, want := h.posts[1].Text, "⏰ The game starts in 30 minutes (20:00 CET). Going: <@UB>, <@UC>. Maybe: Dave."; got != want {
		t.Errorf("reminder = %q, want %q", got, want)
	}

	h.results = []schedule.Balance{{User: "UB", Name: "Bob", Net: 350}, {User: "UC", Name: "Carol", Net: -351}, {User: "UD", Name: "Dave", Net: 1}}
	h.finished = false // the last hand is still running at the end time
	step(t, m, c, time.Date(2026, 11, 27, 22, 0, 0, 0, time.UTC))
	h.finished = true
	step(t, m, c, time.Date(2026, 11, 27, 22, 2, 0, 0, time.UTC))
	want := []string{
		"post: 🃏 Home game",
		"post: ⏰ The game starts in 30 minutes",
		"open blinds=10/20 levels=20m until 22:00",
		"post: <@UB>, <@UC>, <@UD>: The 20:00 CET game is open until 23:00 CET: type `join` to sit down.",
		"finish 11-27 19:00", // 22:00: still playing
		"finish 11-27 19:00", // 22:01: done
		"post: Results of the Fri 27 Nov 2026 20:00 CET game:\n1. Bob +350\n2. Dave +1\n3. Carol -351\nSettle-up:\n• Carol pays Bob 350\n• Carol pays Dave 1",
	}
	if len(h.log) != len(want) {
		t.Fatalf("calls:\n%s\nwant:\n%s", strings.Join(h.log, "\n"), strings.Join(want, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(h.log[i], want[i]) {
			t.Errorf("call %d = %q, want it to start with %q", i, h.log[i], want[i])
		}
	}
	season := mustDo(t, m, bob, "leaderboard season").Text
	if want := "1. Bob +350 · 1 game · best +350 · 1 night won"; !strings.Contains(season, want) {
		t.Errorf("season = %q, want a line %q", season, want)
	}
	if want := "3. Carol -351"; !strings.Contains(season, want) {
		t.Errorf("season = %q, want a line starting %q", season, want)
	}
}

// TestSkip: the host skips the next game; it is never announced, and the week after is.
func TestSkip(t *testing.T) {
	db := storetest.OpenDB(t)
	c := &clock{sunday}
	m, h := newManager(t, db, c)
	mustDo(t, m, admin, "schedule add weekly fri 20:00")
	rep := mustDo(t, m, admin, "schedule skip 1")
	if want := "The game on Fri 27 Nov 2026 20:00 CET is skipped. The next one is Fri 4 Dec 2026 20:00 CET."; rep.Text != want {
		t.Errorf("skip = %q, want %q", rep.Text, want)
	}
	step(t, m, c, time.Date(2026, 12, 3, 19, 0, 0, 0, time.UTC))
	if len(h.log) != 1 || !strings.Contains(h.log[0], "Fri 4 Dec 2026") {
		t.Errorf("calls = %q, want only the announcement of 4 December", h.log)
	}
}

// TestOpenRefused: when the dealer cannot open the table (one is already running), the channel is
// told why instead of the game silently not starting.
func TestOpenRefused(t *testing.T) {
	db := storetest.OpenDB(t)
	c := &clock{time.Date(2026, 11, 27, 18, 0, 0, 0, time.UTC)}
	m, h := newManager(t, db, c)
	mustDo(t, m, admin, "schedule add weekly fri 20:00 remind=off")
	h.openErr = &errs.Error{Code: errs.Conflict, Message: "A game is already running at this table: `end` it first."}
	step(t, m, c, time.Date(2026, 11, 27, 19, 0, 0, 0, time.UTC))
	last := h.log[len(h.log)-1]
	if want := "post: I could not open the table for the 20:00 CET game yet: A game is already running"; !strings.HasPrefix(last, want) {
		t.Errorf("last call = %q, want %q", last, want)
	}
	// The game waits: a tick while the other table runs changes nothing, the first tick after it
	// ended opens the game's table.
	n := len(h.log)
	c.t = time.Date(2026, 11, 27, 19, 1, 0, 0, time.UTC)
	if err := m.Tick(context.Background()); err != nil || len(h.log) != n+1 || !strings.HasPrefix(h.log[n], "open") {
		t.Fatalf("a tick while the table cannot open: %v, calls %q", err, h.log[n:])
	}
	h.openErr = nil
	c.t = time.Date(2026, 11, 27, 19, 40, 0, 0, time.UTC)
	if err := m.Tick(context.Background()); err != nil || !strings.HasPrefix(h.log[len(h.log)-1], "post: The 20:00 CET game is open until 23:00 CET") {
		t.Fatalf("the waiting game did not open: %v, calls %q", err, h.log[n:])
	}
	c.t = time.Date(2026, 11, 27, 19, 41, 0, 0, time.UTC)
	n = len(h.log)
	if err := m.Tick(context.Background()); err != nil || slices.ContainsFunc(h.log[n:], func(l string) bool { return strings.HasPrefix(l, "open") }) {
		t.Fatalf("the game's table was opened twice: %v, calls %q", err, h.log[n:])
	}
	h.openErr = errors.New("disk on fire")
	c.t = time.Date(2026, 12, 4, 19, 0, 0, 0, time.UTC)
	if err := m.Tick(context.Background()); err == nil || strings.Contains(h.log[len(h.log)-1], "disk") {
		t.Errorf("internal error: Tick = %v, last call %q; want the error returned and kept out of the channel", err, h.log[len(h.log)-1])
	}
}

func TestRemove(t *testing.T) {
	db := storetest.OpenDB(t)
	c := &clock{sunday}
	m, h := newManager(t, db, c)
	mustDo(t, m, admin, "schedule add weekly fri 20:00")
	mustDo(t, m, bob, "rsvp yes")
	mustDo(t, m, admin, "schedule remove 1")
	step(t, m, c, time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC))
	if len(h.log) != 0 {
		t.Errorf("a removed schedule still fired: %v", h.log)
	}
	if rep := do(t, m, bob, "rsvp yes"); !rep.IsError || !strings.Contains(rep.Text, "No games are scheduled in this channel") {
		t.Errorf("rsvp after remove = %q", rep.Text)
	}
}

// TestEndedEarly: when one player wins every chip an hour in, the results and settle-up come at once,
// not at the end time, and nothing more happens at the end time.
func TestEndedEarly(t *testing.T) {
	db := storetest.OpenDB(t)
	c := &clock{time.Date(2026, 11, 27, 18, 0, 0, 0, time.UTC)}
	m, h := newManager(t, db, c)
	mustDo(t, m, admin, "schedule add weekly fri 20:00 length=3h rebuy=no")
	step(t, m, c, time.Date(2026, 11, 27, 20, 0, 0, 0, time.UTC))
	h.results = []schedule.Balance{{User: "UB", Name: "Bob", Net: 1000}, {User: "UC", Name: "Carol", Net: -500}, {User: "UD", Name: "Dave", Net: -500}}
	h.endedEarly = true
	n := len(h.log)
	step(t, m, c, time.Date(2026, 11, 27, 20, 1, 0, 0, time.UTC))
	want := []string{"over early 11-27 19:00", "post: Results of the Fri 27 Nov 2026 20:00 CET game:\n1. Bob +1,000\n2. Carol -500\n3. Dave -500\nSettle-up:\n• Carol pays Bob 500\n• Dave pays Bob 500"}
	if got := h.log[n:]; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("after the early end:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	n = len(h.log)
	step(t, m, c, time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC))
	if got := h.log[n:]; len(got) != 0 {
		t.Errorf("after settling early, more calls: %q", got)
	}
	if res, _ := db.Results(context.Background(), "1"); len(res) != 1 {
		t.Errorf("%d results stored, want 1", len(res))
	}
}

// BenchmarkTick: a tick with nothing due over 100 stored schedules, which the runner does every
// minute. Target: under 5 ms.
func BenchmarkTick(b *testing.B) {
	db := storetest.OpenDB(b)
	c := &clock{sunday}
	m, _ := newManager(b, db, c)
	for i := range 100 {
		mustDo(b, m, admin, fmt.Sprintf("schedule add weekly fri %02d:%02d", 8+i/10, i%10*5))
	}
	ctx := context.Background()
	for b.Loop() {
		if err := m.Tick(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzAdd: any `schedule add` line is either refused with a sentence and nothing stored, or stored
// with its next game in the future.
func FuzzAdd(f *testing.F) {
	for _, s := range []string{"weekly fri 20:00 tz=America/New_York length=3h blinds=10/20", "daily 19:30 end=23:00",
		"on 2026-12-04 20:00 announce=2h remind=off", "0 20 * * 5 from=2026-12-01", "fri 20:00 end=01:30", "every tue,thu 21:00 tz=UTC"} {
		f.Add(s)
	}
	db := storetest.OpenDB(f)
	c := &clock{sunday}
	m, _ := newManager(f, db, c)
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, line string) {
		before, err := db.Schedules(ctx)
		if err != nil {
			t.Fatal(err)
		}
		rep := do(t, m, admin, "schedule add "+line)
		after, err := db.Schedules(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if rep.IsError {
			if rep.Text == "" || rep.Text == "Sorry, something went wrong on my side and nothing changed. Please try again in a moment." {
				t.Fatalf("%q: refusal %q says nothing useful", line, rep.Text)
			}
			if len(after) != len(before) {
				t.Fatalf("%q was refused but a schedule was stored", line)
			}
			return
		}
		if len(after) != len(before)+1 {
			t.Fatalf("%q: accepted but %d schedules before, %d after", line, len(before), len(after))
		}
		s := after[len(after)-1]
		if !s.Next.After(sunday) || s.Length <= 0 || s.Remind > s.Announce {
			t.Fatalf("%q stored %+v", line, s)
		}
	})
}

// The reply to schedule add says plainly when there is no announcement or no reminder.
func TestAddWithoutAnnouncementOrReminder(t *testing.T) {
	db := storetest.OpenDB(t)
	m, _ := newManager(t, db, &clock{sunday})
	for text, want := range map[string]string{
		"schedule add weekly fri 20:00":                         "Announced 24 h before with RSVP buttons; reminder 30 min before.",
		"schedule add weekly sat 20:00 remind=off":              "Announced 24 h before with RSVP buttons; no reminder.",
		"schedule add weekly sun 20:00 announce=off remind=off": "No announcement; no reminder.",
		"schedule add weekly mon 20:00 announce=no remind=no":   "No announcement; no reminder.",
	} {
		if got := mustDo(t, m, admin, text).Text; !strings.Contains(got, want) {
			t.Errorf("%q: reply %q lacks %q", text, got, want)
		}
	}
}

// TestSeveralSchedulesInAChannel: with two schedules in one channel, `rsvp yes` answers for the
// next game of either, and `leaderboard season` adds up the games of both.
func TestSeveralSchedulesInAChannel(t *testing.T) {
	db := storetest.OpenDB(t)
	c := &clock{sunday}
	m, _ := newManager(t, db, c)
	mustDo(t, m, admin, "schedule add weekly fri 20:00")
	mustDo(t, m, admin, "schedule add weekly wed 20:00")
	bob := admin
	bob.User, bob.UserName = "UB", "Bob"
	if r := mustDo(t, m, bob, "rsvp yes"); !strings.Contains(r.Text, "You're in for Wed 25 Nov 2026 20:00 CET") {
		t.Fatalf("rsvp yes answered %q, want the Wednesday game (the next one)", r.Text)
	}
	rs, err := db.RSVPs(context.Background(), "2", time.Date(2026, 11, 25, 19, 0, 0, 0, time.UTC))
	if err != nil || len(rs) != 1 || rs[0].User != "UB" || rs[0].Answer != schedule.Yes {
		t.Fatalf("RSVPs of the Wednesday game: %+v, %v", rs, err)
	}
	all, err := db.Schedules(context.Background())
	if err != nil || len(all) != 2 {
		t.Fatalf("schedules: %v, %v", all, err)
	}
	for i, net := range []int64{300, -100} {
		s := all[i]
		r := schedule.Result{Schedule: s.ID, Game: s.Next, Ended: s.Next.Add(3 * time.Hour),
			Players: []schedule.Balance{{User: "UB", Name: "Bob", Net: net}, {User: "UA", Name: "Alice", Net: -net}}}
		if err := db.PutResult(context.Background(), r, &s); err != nil {
			t.Fatal(err)
		}
	}
	r := mustDo(t, m, bob, "leaderboard season")
	if !strings.HasPrefix(r.Text, "Season of this channel's 2 schedules (1, weekly fri 20:00; 2, weekly wed 20:00): 2 games") ||
		!strings.Contains(r.Text, "1. Bob +200 · 2 games") || !strings.Contains(r.Text, "2. Alice -200 · 2 games") {
		t.Fatalf("season of both schedules:\n%s", r.Text)
	}
	if r := mustDo(t, m, bob, "leaderboard season 1"); !strings.HasPrefix(r.Text, "Season of schedule 1 (weekly fri 20:00): 1 game") {
		t.Fatalf("season of one schedule:\n%s", r.Text)
	}
}
