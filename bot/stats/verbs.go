package stats

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/dealerbot/dealerbot/bot/errs"
	"github.com/dealerbot/dealerbot/bot/money"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/bot/vocab"
	"github.com/dealerbot/dealerbot/render"
	"github.com/dealerbot/dealerbot/render/chart"
)

// HandReader reads the stored hands, table by table.
type HandReader interface {
	// EachHandOf calls fn with every finished hand of the tables whose ID starts with prefix
	// ("discord/GUILD/" for a community, a table's ID and "\x00"-free suffix for one table), table by
	// table in hand-number order; fn's error stops it.
	EachHandOf(ctx context.Context, prefix string, fn func(table.HandRecord) error) error
}

// Store is what the stats read: the hands, the finished sessions, the channel's open table and the
// money books. Every bot.Store implements it.
type Store interface {
	HandReader
	// Sessions returns every finished session, oldest first.
	Sessions(ctx context.Context) ([]table.SessionRecord, error)
	// Table returns one open table, as last committed; ok is false when the channel has none.
	Table(ctx context.Context, id string) (t table.TableRecord, ok bool, err error)
	// MoneyBook returns every event of community's book, in Seq order.
	MoneyBook(ctx context.Context, community string) ([]money.Event, error)
}

// Stats is the stats feature on one store: the `stats` verb and the season's chart, which share the
// figures of finished sessions worked out once.
type Stats struct {
	store   Store
	tallies tallyCache
}

// New returns the stats of store.
func New(store Store) *Stats { return &Stats{store: store} }

// Verbs returns the stats verbs on store: `stats` and `help stats`.
func Verbs(store Store) vocab.Verbs { return New(store).Verbs() }

// Verbs returns s's verbs: `stats` (s itself runs it) and `help stats`.
func (s *Stats) Verbs() vocab.Verbs {
	return vocab.Verbs{
		"stats":      {Need: vocab.Anyone, Runner: s},
		"help stats": {Need: vocab.Anyone, Runner: vocab.Text(Definitions)},
	}
}

// Limits of `stats`: how many words it reads, the longest player it names, and the most lines a
// chart draws.
const (
	maxStatsArgs  = 12
	maxUserRef    = 100
	maxChartLines = 10
)

// ref is the player an argument names (a mention, @name or name), lower-cased, for names.
func ref(arg string) string { return strings.ToLower(strings.Trim(arg, "@<>!")) }

// names reports whether a player (ID, name) is the one r (lower-cased: ref) names.
func names(r, user, name string) bool {
	return r != "" && (strings.ToLower(user) == r || strings.EqualFold(name, r))
}

// statsPeriod is what a period picks: hands, finished sessions and money nights.
type statsPeriod struct {
	label    string
	prefix   string // the tables whose hands are read
	hand     func(h *table.HandRecord) bool
	sessions []table.SessionRecord // the period's finished sessions, oldest first (empty ones too, until tallied)
	night    func(n *money.Night) bool
	// exact is set when the period's hands are its sessions' hands and nothing else (a season, the
	// last session): its figures are the sessions' figures added up.
	exact bool
	// covers reports whether every hand of a finished session is in the period (nil: none is), so
	// that the session's figures stand for its hands.
	covers func(s table.SessionRecord) bool
}

// isPeriodWord reports whether a stats argument names a period rather than a player.
func isPeriodWord(a string) bool {
	a = strings.ToLower(a)
	return a == "session" || a == "season" || a == "all" || strings.Contains(a, "..")
}

// period resolves `session`, `season`, `all` or `FROM..TO` for cmd's channel and community.
func (s *Stats) period(ctx context.Context, env vocab.Env, cmd vocab.Command, word string) (statsPeriod, error) {
	id := cmd.TableID()
	community := cmd.Community() + "/"
	all, err := s.store.Sessions(ctx)
	if err != nil {
		return statsPeriod{}, err
	}
	sameNight := func(ss []table.SessionRecord) func(n *money.Night) bool {
		return func(n *money.Night) bool {
			return slices.ContainsFunc(ss, func(x table.SessionRecord) bool { return x.Table == n.Table && x.Started.Equal(n.Started) })
		}
	}
	inRanges := func(ss []table.SessionRecord) func(h *table.HandRecord) bool {
		return func(h *table.HandRecord) bool {
			for _, x := range ss {
				if h.Table == x.Table && (x.HandNo > 0 && h.No > x.HandBase && h.No <= x.HandNo ||
					x.HandNo == 0 && !h.Time.Before(x.Started) && !h.Time.After(x.Ended)) {
					return true
				}
			}
			return false
		}
	}
	switch w := strings.ToLower(word); {
	case w == "session":
		rec, open, err := s.store.Table(ctx, id)
		if err != nil {
			return statsPeriod{}, err
		}
		if open && rec.HandNo > rec.HandBase {
			return statsPeriod{label: "this session", prefix: id, night: func(*money.Night) bool { return false },
				hand: func(h *table.HandRecord) bool {
					return h.Table == id && h.No > rec.HandBase && !h.Time.Before(rec.Started)
				}}, nil
		}
		// The last session that dealt a hand: a start and end with none between is not a session.
		last, found, err := LastPlayed(ctx, s.store, id, all)
		if err != nil {
			return statsPeriod{}, err
		}
		if !found {
			return statsPeriod{}, errs.Errorf(errs.NotFound, "This channel has had no session with a hand yet: `stats all` covers every table here.")
		}
		ss := []table.SessionRecord{last}
		return statsPeriod{label: "the last session", prefix: id, hand: inRanges(ss), sessions: ss, night: sameNight(ss), exact: true}, nil
	case w == "season":
		var ss []table.SessionRecord
		for _, x := range all {
			if x.Table == id && x.Schedule != "" {
				ss = append(ss, x)
			}
		}
		if len(ss) == 0 {
			return statsPeriod{}, errs.Errorf(errs.NotFound, "This channel's season is its scheduled games, and none has been played yet: try `stats all`.")
		}
		return statsPeriod{label: "this season", prefix: id, hand: inRanges(ss), sessions: ss, night: sameNight(ss), exact: true}, nil
	case w == "all":
		var ss []table.SessionRecord
		for _, x := range all {
			if strings.HasPrefix(x.Table, community) {
				ss = append(ss, x)
			}
		}
		return statsPeriod{label: "all time", prefix: community, hand: func(*table.HandRecord) bool { return true }, sessions: ss,
			night: func(n *money.Night) bool { return true }, covers: func(table.SessionRecord) bool { return true }}, nil
	default:
		loc := env.Zone(ctx, cmd)
		a, b, _ := strings.Cut(w, "..")
		from, err1 := time.ParseInLocation("2006-01-02", a, loc)
		to, err2 := time.ParseInLocation("2006-01-02", b, loc)
		if err1 != nil || err2 != nil || from.Year() < 2000 || to.Year() > 2999 {
			return statsPeriod{}, errs.Errorf(errs.Invalid, "Write a period as `session`, `season`, `all` or two dates like 2026-01-01..2026-03-31.")
		}
		if to.Before(from) {
			return statsPeriod{}, errs.Errorf(errs.Invalid, "The period %s ends before it begins: put the earlier date first.", errs.Quote(word))
		}
		end := to.AddDate(0, 0, 1)
		in := func(t time.Time) bool { return !t.Before(from) && t.Before(end) }
		var ss []table.SessionRecord
		for _, x := range all {
			if strings.HasPrefix(x.Table, community) && in(x.Ended) {
				ss = append(ss, x)
			}
		}
		return statsPeriod{label: fmt.Sprintf("%s to %s", a, b), prefix: community, hand: func(h *table.HandRecord) bool { return in(h.Time) },
			sessions: ss, night: func(n *money.Night) bool { return n.Session != nil && in(n.Session.Time) },
			covers: func(s table.SessionRecord) bool { return in(s.Started) && in(s.Ended) }}, nil
	}
}

// maxTallies bounds the finished sessions whose figures a Stats keeps (tallyCache): far more than
// a community plays in years; past it the cache starts again.
const maxTallies = 20_000

// tallyCache keeps the figures of finished sessions: a finished session's hands never change, so its
// figures (the all-in equities among them, the dearest part) are worked out once per process.
type tallyCache struct {
	mu sync.Mutex
	m  map[string]*Tally
}

func tallyKey(s table.SessionRecord) string {
	return fmt.Sprintf("%s\x00%d\x00%d\x00%d", s.Table, s.HandBase, s.HandNo, s.Started.UnixNano())
}

func (c *tallyCache) get(s table.SessionRecord) *Tally {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[tallyKey(s)]
}

func (c *tallyCache) put(s table.SessionRecord, t *Tally) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxTallies {
		c.m = map[string]*Tally{}
	}
	c.m[tallyKey(s)] = t
}

// InSession reports whether hand h is one of session s's.
func InSession(s *table.SessionRecord, h *table.HandRecord) bool {
	if h.Table != s.Table {
		return false
	}
	if s.HandNo > 0 || s.HandBase > 0 {
		return h.No > s.HandBase && h.No <= s.HandNo
	}
	// Kept before sessions recorded their hand numbers: the hands dealt while it ran.
	return !h.Time.Before(s.Started) && !h.Time.After(s.Ended)
}

// errStop ends a walk over the stored hands early.
var errStop = errors.New("stop")

// LastPlayed returns the last of the finished sessions all (oldest first) at table id that dealt a
// hand.
func LastPlayed(ctx context.Context, hands HandReader, id string, all []table.SessionRecord) (table.SessionRecord, bool, error) {
	for i := len(all) - 1; i >= 0; i-- {
		s := all[i]
		if s.Table != id {
			continue
		}
		if s.HandNo > 0 || s.HandBase > 0 {
			if s.HandNo > s.HandBase {
				return s, true, nil
			}
			continue
		}
		// No hand numbers (kept before them, or the channel's first session and empty): look for a
		// hand dealt while it ran.
		found := false
		err := hands.EachHandOf(ctx, id, func(h table.HandRecord) error {
			if InSession(&s, &h) {
				found = true
				return errStop
			}
			return nil
		})
		if err != nil && !errors.Is(err, errStop) {
			return table.SessionRecord{}, false, err
		}
		if found {
			return s, true, nil
		}
	}
	return table.SessionRecord{}, false, nil
}

// tally works out the period's figures and each of its finished sessions'. A session's figures are
// kept in s.tallies once worked out (a finished session's hands never change), and the period's
// figures are its sessions' added up, with the hands of no finished session in the period (a
// running session's, or a session only partly in a date range) read anew. Sessions that dealt no
// hand are dropped from per.sessions: they count for nothing. One walk over the stored hands serves
// everything not yet kept.
func (s *Stats) tally(ctx context.Context, per *statsPeriod) (total *Tally, bySession []*Tally, err error) {
	n := len(per.sessions)
	bySession = make([]*Tally, n)
	played, todo, covered := make([]bool, n), make([]bool, n), make([]bool, n)
	byTable := map[string][]int{}
	scan := !per.exact
	for i, x := range per.sessions {
		covered[i] = per.exact || per.covers != nil && per.covers(x)
		if x.HandNo > 0 && x.HandNo == x.HandBase {
			continue // no hand: nothing to read
		}
		byTable[x.Table] = append(byTable[x.Table], i)
		if t := s.tallies.get(x); t != nil {
			bySession[i], played[i] = t, true
			continue
		}
		bySession[i], todo[i], scan = NewTally(), true, true
		bySession[i].Defer = true
	}
	total = NewTally()
	total.Defer = true
	if scan {
		err := s.store.EachHandOf(ctx, per.prefix, func(h table.HandRecord) error {
			in := -1
			for _, i := range byTable[h.Table] {
				if InSession(&per.sessions[i], &h) {
					in = i
					break
				}
			}
			if in >= 0 && todo[in] {
				played[in] = true
				bySession[in].Add(&h, nil)
			}
			if !per.exact && per.hand(&h) && (in < 0 || !covered[in]) {
				total.Add(&h, nil)
			}
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
		// The equities of the hands run out after an all-in, dealt on every CPU at once.
		settle := []*Tally{total}
		for i := range todo {
			if todo[i] {
				settle = append(settle, bySession[i])
			}
		}
		Settle(settle...)
		for i := range todo {
			if todo[i] && played[i] {
				bySession[i].AddTournament(per.sessions[i].Tournament, nil)
				s.tallies.put(per.sessions[i], bySession[i])
			}
		}
	}
	// Sessions without a hand are no sessions here.
	var ss []table.SessionRecord
	var ts []*Tally
	for i := range per.sessions {
		if !played[i] {
			continue
		}
		ss, ts = append(ss, per.sessions[i]), append(ts, bySession[i])
		if covered[i] {
			total.Merge(bySession[i])
		} else if per.hand != nil {
			// Its hands in the period are in total already; its tournament ended in it.
			total.AddTournament(per.sessions[i].Tournament, nil)
		}
	}
	per.sessions, bySession = ss, ts
	return total, bySession, nil
}

// Run answers `stats [NAME] [PERIOD]` and `stats chart [PERIOD] [NAME...]`.
func (s *Stats) Run(ctx context.Context, env vocab.Env, cmd vocab.Command, args []string) (vocab.Reply, error) {
	if len(args) > maxStatsArgs {
		return vocab.Reply{}, errs.Errorf(errs.Invalid, "`stats` takes at most %d words: a period and the players.", maxStatsArgs)
	}
	chart := len(args) > 0 && strings.EqualFold(args[0], "chart")
	if chart {
		args = args[1:]
	}
	word := "all"
	var players []string
	for _, a := range args {
		if len(a) > maxUserRef {
			return vocab.Reply{}, errs.Errorf(errs.Invalid, "%s is not a player or a period: write `stats`, `stats alice season` or `stats 2026-01-01..2026-03-31`.", errs.Quote(a))
		}
		if isPeriodWord(a) {
			word = a
		} else {
			players = append(players, a)
		}
	}
	if !chart && len(players) > 1 {
		return vocab.Reply{}, errs.Errorf(errs.Invalid, "`stats` shows one player at a time: `stats alice season`. `stats chart season alice bob` draws several.")
	}
	per, err := s.period(ctx, env, cmd, word)
	if err != nil {
		return vocab.Reply{}, err
	}
	evs, err := s.store.MoneyBook(ctx, cmd.Community())
	if err != nil {
		return vocab.Reply{}, err
	}
	book := money.Fold(evs)
	if chart {
		return s.chart(ctx, env, cmd, per, book, players)
	}
	tl, _, err := s.tally(ctx, &per)
	if err != nil {
		return vocab.Reply{}, err
	}
	if per.exact && len(per.sessions) == 0 {
		return vocab.Reply{}, errs.Errorf(errs.NotFound, "No session with a hand has finished here in %s: try `stats all`.", per.label)
	}
	who, whoName := strings.ToLower(cmd.User), cmd.UserName
	if len(players) == 1 {
		who = ref(players[0])
		whoName = strings.Trim(players[0], "@<>!")
	}
	var line *Line
	for _, u := range tl.Order {
		if l := tl.Lines[u]; names(who, l.User, l.Name) {
			line = l
		}
	}
	if line == nil {
		if len(players) == 1 {
			return vocab.Reply{}, errs.Errorf(errs.NotFound, "%s played no hand here in %s.", errs.Quote(whoName), per.label)
		}
		return vocab.Reply{}, errs.Errorf(errs.NotFound, "You played no hand here in %s.", per.label)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Stats of %s · %s", line.Name, per.label)
	if n := len(per.sessions); n > 0 {
		fmt.Fprintf(&b, " (%d %s)", n, table.Plural(n, "session", "sessions"))
	}
	b.WriteString("\n" + line.Text())
	won := map[string]int64{}
	var currencies []string
	played := map[string]bool{} // the period's sessions that dealt a hand, by night
	for _, x := range per.sessions {
		played[x.Table+"\x00"+x.Started.String()] = true
	}
	for _, n := range book.Nights {
		if n.Session == nil || !per.night(n) || per.exact && !played[n.Table+"\x00"+n.Started.String()] {
			continue
		}
		for _, sh := range n.Session.Shares {
			if sh.User == line.User {
				if _, ok := won[n.Session.Currency]; !ok {
					currencies = append(currencies, n.Session.Currency)
				}
				won[n.Session.Currency] += sh.Amount
			}
		}
	}
	if len(currencies) > 0 {
		var parts []string
		for _, c := range currencies {
			parts = append(parts, money.Signed(won[c], c))
		}
		fmt.Fprintf(&b, "\nMoney: %s (from the games played for money)", strings.Join(parts, ", "))
	}
	if tl.Skipped > 0 {
		fmt.Fprintf(&b, "\n%d %s could not be read and %s left out.", tl.Skipped, table.Plural(tl.Skipped, "hand", "hands"), table.Plural(tl.Skipped, "is", "are"))
	}
	b.WriteString("\n`help stats` says how each figure is worked out.")
	return vocab.Reply{Text: b.String()}, nil
}

// chart draws cumulative results over the period's sessions, one line per player and a dashed
// one of their all-in adjusted results: in money when every session of the period was played for
// money in one currency, else in chips (bankroll chips: a tournament counts its prize less its
// buy-ins, and has no all-in adjustment).
func (s *Stats) chart(ctx context.Context, env vocab.Env, cmd vocab.Command, per statsPeriod, book *money.Book, only []string) (vocab.Reply, error) {
	if len(per.sessions) > 0 {
		per.exact = true // the chart reads the sessions' figures only
	}
	_, tallies, err := s.tally(ctx, &per)
	if err != nil {
		return vocab.Reply{}, err
	}
	if len(per.sessions) == 0 {
		return vocab.Reply{}, errs.Errorf(errs.NotFound, "No session with a hand has finished here in %s: there is nothing to draw yet.", per.label)
	}
	currency := ""
	inMoney := true
	for _, x := range per.sessions {
		n := book.Night(x.Table, x.Started)
		if n == nil || n.Session == nil || currency != "" && n.Session.Currency != currency {
			inMoney = false
			break
		}
		currency = n.Session.Currency
	}
	digits, _ := money.Digits(currency)
	scale := math.Pow10(digits)
	type player struct {
		name          string
		total, luck   float64
		points, adjed []chart.Point
	}
	players := map[string]*player{}
	var order []string
	loc := env.Zone(ctx, cmd)
	var at []time.Time
	for i, x := range per.sessions {
		at = append(at, x.Ended.In(loc))
		nets := map[string]float64{}
		perChip := 1.0 // what a chip of luck is worth on the chart
		if inMoney {
			n := book.Night(x.Table, x.Started)
			for _, sh := range n.Session.Shares {
				nets[sh.User] = float64(sh.Amount) / scale
			}
			v := n.Session.Value
			perChip = float64(v.Units) / math.Pow10(v.Scale)
		} else {
			for _, st := range x.Standings {
				nets[st.User] = float64(st.CashedOut - st.BoughtIn)
			}
		}
		for _, st := range x.Standings {
			p := players[st.User]
			if p == nil {
				p = &player{name: st.Name}
				players[st.User] = p
				order = append(order, st.User)
			}
			p.total += nets[st.User]
			if l := tallies[i].Lines[st.User]; l != nil {
				p.luck += l.Luck * perChip
			}
			p.points = append(p.points, chart.Point{Session: i, Y: p.total})
			p.adjed = append(p.adjed, chart.Point{Session: i, Y: p.total - p.luck})
		}
	}
	if len(only) > 0 {
		var keep []string
		for _, n := range only {
			r := ref(n)
			i := slices.IndexFunc(order, func(u string) bool { return names(r, u, players[u].name) })
			if i < 0 {
				return vocab.Reply{}, errs.Errorf(errs.NotFound, "%s played no session here in %s.", errs.Quote(n), per.label)
			}
			keep = append(keep, order[i])
		}
		order = keep
	}
	// The biggest results first; at most maxChartLines lines, so the legend stays readable.
	slices.SortStableFunc(order, func(a, b string) int { return cmpAbs(players[b].total, players[a].total) })
	if len(order) > maxChartLines {
		order = order[:maxChartLines]
	}
	c := chart.Chart{Title: fmt.Sprintf("Cumulative results · %s", per.label), YLabel: "net chips", Sessions: at}
	if inMoney {
		c.YLabel = "net " + currency
	}
	for _, u := range order {
		sr := chart.Series{Name: players[u].name, Points: players[u].points}
		if players[u].luck != 0 || slices.ContainsFunc(tallies, func(t *Tally) bool { return t.Lines[u] != nil && t.Lines[u].AllIns > 0 }) {
			sr.Adjusted = players[u].adjed
		}
		c.Series = append(c.Series, sr)
	}
	png, err := chart.PNG(c)
	if err != nil {
		return vocab.Reply{}, fmt.Errorf("draw the stats chart: %w", err)
	}
	text := fmt.Sprintf("Cumulative results over %d %s (%s).", len(per.sessions), table.Plural(len(per.sessions), "session", "sessions"), per.label)
	if slices.ContainsFunc(c.Series, func(sr chart.Series) bool { return sr.Adjusted != nil }) {
		text += " Dashed: all-in adjusted (every board run out after an all-in paid by equity)."
	}
	return vocab.Reply{Text: text, Files: []render.File{{Name: "dealerbot-stats.png", ContentType: "image/png", Data: png}}}, nil
}

func cmpAbs(a, b float64) int { return cmp.Compare(math.Abs(a), math.Abs(b)) }

// SeasonChart is the chart of cmd's channel's season for `leaderboard season`, or nothing when there
// is none to draw (no game of the season finished yet) or it cannot be drawn (logged to env).
func (s *Stats) SeasonChart(ctx context.Context, env vocab.Env, cmd vocab.Command) []render.File {
	per, err := s.period(ctx, env, cmd, "season")
	if err != nil {
		return nil
	}
	evs, err := s.store.MoneyBook(ctx, cmd.Community())
	if err != nil {
		env.Log().Error("season chart", "err", err)
		return nil
	}
	r, err := s.chart(ctx, env, cmd, per, money.Fold(evs), nil)
	if err != nil {
		if errs.CodeOf(err) == errs.Internal {
			env.Log().Error("season chart", "err", err)
		}
		return nil
	}
	return r.Files
}
