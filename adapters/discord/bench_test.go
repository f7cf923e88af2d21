package discord

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/bottest"
	"github.com/dealerbot/dealerbot/bot/features"
	"github.com/dealerbot/dealerbot/render"
	"github.com/dealerbot/dealerbot/storage"
)

// The adapter's own work per interaction must be negligible next to Discord's round trip (tens of
// milliseconds) and its 3 s deadline. Targets: SlashCommand < 20 µs/op, TurnComponents < 20 µs/op,
// SplitContent of a 5,000-character text < 200 µs/op.

func BenchmarkSlashCommand(b *testing.B) {
	i := &discordgo.Interaction{Type: discordgo.InteractionApplicationCommand, GuildID: "G", ChannelID: "C",
		Member: &discordgo.Member{User: &discordgo.User{ID: "1", Username: "alice"}},
		Data: discordgo.ApplicationCommandInteractionData{Name: "poker", Options: []*discordgo.ApplicationCommandInteractionDataOption{
			sub("start", opt("variant", tString, "pot-limit"), opt("small_blind", tInt, 10.0), opt("big_blind", tInt, 20.0),
				opt("buyin", tInt, 1000.0), opt("timer", tInt, 60.0), opt("cards", tString, "emoji")),
		}}}
	for b.Loop() {
		if _, err := SlashCommand(i); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTurnComponents(b *testing.B) {
	bs := []render.Button{
		{Label: "Fold", Command: "fold", Token: "12.7", Style: render.Danger},
		{Label: "Call 40", Command: "call", Token: "12.7", Style: render.Primary},
		{Label: "Raise…", Command: "raise", Token: "12.7", Amount: true, Min: 80, Max: 1960},
		{Label: "All-in 1,960", Command: "allin", Token: "12.7", Style: render.Danger},
	}
	for b.Loop() {
		if _, err := Components(bs); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSplitContent(b *testing.B) {
	text := strings.Repeat("alice checks ♠♥ 🂡\n", 250)
	for b.Loop() {
		if len(SplitContent(text)) < 2 {
			b.Fatal("not split")
		}
	}
}

// FuzzCustomID: any custom ID either is refused with a sentence for the user or decodes to a click
// that encodes back to the same meaning.
func FuzzCustomID(f *testing.F) {
	for _, s := range []string{"pk1|b|1.2|fold", "pk1|a|20|1000|1.0|raise", "pk1|m|1|2|a%7Cb|bet", "pk1|b||cards", "x", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		c, err := parseCustomID(id)
		if err != nil {
			if ok := isInputError(err); !ok {
				t.Fatalf("error %v is not written for the user", err)
			}
			return
		}
		if c.command == "" {
			t.Fatalf("%q decoded to a click without a command", id)
		}
		again, err := c.customID()
		if err != nil {
			return // re-escaping a hand-made token can make it longer than Discord allows
		}
		back, err := parseCustomID(again)
		if err != nil || back != c {
			t.Fatalf("%q -> %+v -> %q -> %+v, %v", id, c, again, back, err)
		}
	})
}

// FuzzInteraction: whatever JSON arrives as an interaction, translating it never panics, and a
// refusal is a sentence for the user.
func FuzzInteraction(f *testing.F) {
	for _, s := range []string{
		`{"type":2,"guild_id":"1","channel_id":"2","member":{"user":{"id":"3","username":"a"},"permissions":"0"},"data":{"name":"poker","type":1,"options":[{"name":"raise","type":1,"options":[{"name":"to","type":4,"value":60}]}]}}`,
		`{"type":2,"guild_id":"1","channel_id":"2","member":{"user":{"id":"3"},"permissions":"8"},"data":{"name":"poker","options":[{"name":"schedule","type":2,"options":[{"name":"rsvp","type":1,"options":[{"name":"answer","type":3,"value":"yes"}]}]}]}}`,
		`{"type":2,"guild_id":"1","channel_id":"2","member":{"user":{"id":"3"}},"data":{"name":"poker","options":[{"name":"kick","type":1,"options":[{"name":"player","type":6,"value":{"x":1}}]}]}}`,
		`{"type":3,"guild_id":"1","channel_id":"2","user":{"id":"3"},"data":{"custom_id":"pk1|a|1|9|t|bet","component_type":2}}`,
		`{"type":5,"guild_id":"1","channel_id":"2","member":{"user":{"id":"3"}},"data":{"custom_id":"pk1|m|1|9|t|bet","components":[{"type":1,"components":[{"type":4,"custom_id":"amount","value":"5"}]}]}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var i discordgo.Interaction
		if json.Unmarshal(raw, &i) != nil {
			return // discordgo drops events it cannot decode
		}
		check := func(err error) {
			if err == nil {
				return
			}
			if ok := isInputError(err); !ok && !strings.HasPrefix(err.Error(), "interaction type") {
				t.Fatalf("error %v is not written for the user", err)
			}
		}
		switch i.Type {
		case discordgo.InteractionApplicationCommand:
			_, err := SlashCommand(&i)
			check(err)
		case discordgo.InteractionMessageComponent:
			_, _, err := ComponentClick(&i)
			check(err)
		case discordgo.InteractionModalSubmit:
			_, err := ModalSubmit(&i)
			check(err)
		}
	})
}

// BenchmarkDiscordHand plays one 3-player hand (a raise through the amount form, calls, checked down:
// 12 actions) by clicks on its table message, over the fake Discord with its channel rate limit on
// and off. Between hands the timer stops and the channel's 5 s window passes, as between hands at a
// real table; the hand itself must not wait for the limit. Reported: ns/op (the hand, from the deal
// command to the final table on screen), channel writes per action, public messages per hand and the
// median time from a click to the next player's buttons on screen.
func BenchmarkDiscordHand(b *testing.B) {
	for _, limits := range []bool{true, false} {
		name := "limits=off"
		if limits {
			name = "limits=on"
		}
		b.Run(name, func(b *testing.B) {
			f := newFakeDiscord(b, testApp)
			f.limits = limits
			g, _, _ := newGame(b, f, 7)
			g.calls = true
			var actions, writes, messages int
			var waits []time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				time.Sleep(f.window + 100*time.Millisecond)
				g.clock.Advance(time.Minute) // and the players' own command limits refill
				b.StartTimer()
				st := g.playHand(b)
				actions += st.actions
				writes += st.writes
				messages += st.messages
				waits = append(waits, st.waits...)
			}
			b.StopTimer()
			slices.Sort(waits)
			b.ReportMetric(float64(writes)/float64(actions), "writes/action")
			b.ReportMetric(float64(messages)/float64(b.N), "msgs/hand")
			b.ReportMetric(float64(waits[len(waits)/2].Microseconds())/1000, "click-ms")
		})
	}
}

// BenchmarkHostedDeals: what one bot token sustains when many six-player tables deal at once, with
// Discord's global limit (50 requests a second, the fake's; this process keeps itself under 45, as
// DISCORD_GLOBAL_SHARE=1) as the bottleneck. Each table deals (/poker deal), waits until all six
// players hold their cards, and the players fold to the big blind by clicks on the table message;
// then it deals again. Every player's DM channel is known from before (kept in the database), as in
// a deployment that has run for a while; players joined by slash command, so each has a live
// interaction in the table's channel. One op is one hand dealt and finished anywhere: ns/op is the
// inverse of the throughput. Tables deal back to back, so the token is saturated: hands/s is what it
// sustains, and the time to the cards includes the queue for the global limit at that load.
// Reported: hands/s, the median and 99th percentile of the time from the deal command to the last of
// its six players holding their cards (cards-p50-ms, cards-p99-ms), and the requests of a hand that
// count against the global limit (global-req/hand: its table's posts and edits and its players' DMs).
// Goal with hole cards ephemeral: at least 20 hands/s, cards-p99-ms under 1,000.
func BenchmarkHostedDeals(b *testing.B) {
	for _, mode := range []string{"dm", "ephemeral"} {
		b.Run("cards="+mode, func(b *testing.B) {
			cfg := testConfig()
			cfg.GlobalShare, cfg.EphemeralCards = 1, mode == "ephemeral"
			benchHostedDeals(b, cfg, 48)
		})
	}
}

// hostedTable is one table of BenchmarkHostedDeals and what the fake reports of it.
type hostedTable struct {
	channel string
	players []player
	calls   chan call // the calls of its channel, its players' DMs and interactions, as they arrive
}

func benchHostedDeals(b *testing.B, cfg Config, tables int) {
	f := newFakeDiscord(b, testApp)
	logs, clock := &bottest.Buffer{}, bottest.NewClock(time.Date(2026, 11, 20, 20, 0, 0, 0, time.UTC))
	db, err := storage.Open(filepath.Join(b.TempDir(), "dealerbot.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	var ts []*hostedTable
	byChannel, byUser := map[string]*hostedTable{}, map[string]*hostedTable{}
	for i := range tables {
		t := &hostedTable{channel: fmt.Sprintf("%d", 6000+i), calls: make(chan call, 1<<12)}
		for s := range 6 {
			p := player{id: fmt.Sprintf("%d", 100000+10*i+s), name: fmt.Sprintf("t%dp%d", i, s)}
			t.players = append(t.players, p)
			byUser[p.id] = t
			if err := db.PutDMChannel(ctx, "discord", p.id, dmPrefix+p.id); err != nil {
				b.Fatal(err)
			}
		}
		ts = append(ts, t)
		byChannel[t.channel] = t
	}
	// Route each call to its table: by channel, by DM channel, by the interaction token's sender.
	f.observe = func(c call) {
		parts := strings.Split(strings.Trim(c.Path, "/"), "/")
		var t *hostedTable
		switch {
		case parts[0] == "channels" && strings.HasPrefix(parts[1], dmPrefix):
			t = byUser[strings.TrimPrefix(parts[1], dmPrefix)]
		case parts[0] == "channels":
			t = byChannel[parts[1]]
		case (parts[0] == "webhooks" || parts[0] == "interactions") && len(parts) >= 3:
			f.mu.Lock()
			w := f.who[parts[2]] // webhooks/APP/TOKEN, interactions/ID/TOKEN/callback
			f.mu.Unlock()
			t = byUser[w.user]
		}
		if t != nil {
			t.calls <- c
		}
	}

	a := connectWith(b, f, logs, clock, cfg, WithStore(db))
	defer a.Close(context.Background())
	d, err := bot.New(db, a, features.With(db, bot.Config{StartingBankroll: 10000, Rand: rand.NewChaCha8([32]byte{7}), DealDelay: time.Hour, Now: clock.Now,
		AfterFunc: bottest.NoTimer, Logger: slog.New(slog.DiscardHandler), RateLimit: bot.RateLimit{Off: true}}))
	if err != nil {
		b.Fatal(err)
	}
	defer func() {
		cctx, ccancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer ccancel()
		d.Close(cctx)
	}()
	a.SetDealer(d)

	// Open the tables and seat six players at each, all tables at once.
	var wg sync.WaitGroup
	for _, t := range ts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t.command(b, f, t.players[0], "start", "small_blind", 4, 5, "big_blind", 4, 10, "buyin", 4, 1000, "timer", 4, 0, "cards", 3, "text")
			for _, p := range t.players {
				t.command(b, f, p, "join", "amount", 4, 1000)
			}
		}()
	}
	wg.Wait()
	if err := d.Flush(ctx); err != nil { // the tables' "sits down" posts are out
		b.Fatal(err)
	}
	for _, t := range ts {
		for len(t.calls) > 0 {
			<-t.calls // what the opening cost is no hand's
		}
	}

	f.mu.Lock()
	hitsBefore := f.globalHits
	f.mu.Unlock()
	done := make(chan handCost, tables)
	began := time.Now()
	for _, t := range ts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				cost, ok := t.hand(ctx, b, f)
				if !ok {
					cancel() // the benchmark stops with the error the table reported
					return
				}
				select {
				case done <- cost:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	var lats []time.Duration
	global := 0
	for b.Loop() {
		select {
		case cost := <-done:
			lats = append(lats, cost.cards)
			global += cost.global
		case <-ctx.Done():
			b.Fatal("a table stopped")
		}
	}
	took := time.Since(began)
	b.StopTimer()
	f.mu.Lock()
	hits := f.globalHits - hitsBefore
	f.mu.Unlock()
	cancel()
	wg.Wait()
	slices.Sort(lats)
	b.ReportMetric(float64(len(lats))/took.Seconds(), "hands/s")
	b.ReportMetric(float64(lats[len(lats)/2].Microseconds())/1000, "cards-p50-ms")
	b.ReportMetric(float64(lats[(len(lats)*99)/100].Microseconds())/1000, "cards-p99-ms")
	b.ReportMetric(float64(global)/float64(len(lats)), "global-req/hand")
	if hits > 0 {
		b.Logf("%d global 429s", hits)
	}
}

// command sends a slash command of the table's channel as p and waits for its answer.
func (t *hostedTable) command(b *testing.B, f *fakeDiscord, p player, sub string, opts ...any) string {
	tok := f.slash(p, t.channel, sub, opts...)
	for c := range t.calls {
		if c.Method == "PATCH" && c.Path == "/webhooks/"+testApp+"/"+tok+"/messages/@original" {
			return c.content()
		}
	}
	return ""
}

// handCost is what one hand of BenchmarkHostedDeals took.
type handCost struct {
	cards  time.Duration // from the deal command to the last of the players holding their cards
	global int           // requests that count against the global limit, 429s included
}

// hand deals a hand, waits until its six players hold their cards, and has them fold to the big
// blind. ok is false once ctx has ended, or after an error (reported).
func (t *hostedTable) hand(ctx context.Context, b *testing.B, f *fakeDiscord) (cost handCost, ok bool) {
	// next is the table's next call; the ones that count against the global limit are counted.
	next := func() (call, bool) {
		select {
		case c := <-t.calls:
			if countsGlobally("/api/v9" + c.Path) {
				cost.global++
			}
			return c, true
		case <-ctx.Done():
			return call{}, false
		}
	}
	sent := time.Now()
	tok := f.slash(t.players[0], t.channel, "deal")
	id, answered := "", false
	holding := map[string]bool{}
	var last time.Time
	for id == "" || !answered || len(holding) < len(t.players) {
		c, ok := next()
		if !ok {
			return cost, false
		}
		switch {
		case c.Method == "PATCH" && c.Path == "/webhooks/"+testApp+"/"+tok+"/messages/@original":
			if !strings.Contains(c.content(), "Dealt hand") {
				b.Errorf("table %s: deal answered %q", t.channel, c.content())
				return cost, false
			}
			answered = true
		case c.Method == "POST" && !c.Refused && c.Path == "/channels/"+t.channel+"/messages" && tableHeader.MatchString(c.content()):
			id = c.ID
		case c.Method == "POST" && !c.Refused && strings.Contains(c.content(), "your cards: "):
			user := ""
			if u, ok := strings.CutPrefix(c.Path, "/channels/"+dmPrefix); ok {
				user = strings.TrimSuffix(u, "/messages")
			} else {
				f.mu.Lock()
				user = f.who[strings.TrimPrefix(c.Path, "/webhooks/"+testApp+"/")].user
				f.mu.Unlock()
			}
			holding[user] = true
			last = c.At
		}
	}
	cost.cards = last.Sub(sent)
	// Everyone folds to the big blind, through clicks on the table message.
	for {
		s := f.onScreen(id)
		m := turnLine.FindStringSubmatch(s.content)
		if m == nil {
			return cost, true
		}
		var p player
		for _, q := range t.players {
			if q.name == m[1] {
				p = q
			}
		}
		fold, found := find(b, s.buttons, "Fold")
		if !found {
			b.Errorf("table %s: no Fold button for %s: %v", t.channel, p.name, s.buttons)
			return cost, false
		}
		click := f.clickOn(p, t.channel, id, fold.id)
		for updated := false; !updated; {
			c, ok := next()
			if !ok {
				return cost, false
			}
			switch {
			case c.Method == "PATCH" && c.Path == "/webhooks/"+testApp+"/"+click+"/messages/@original",
				c.Method == "POST" && strings.HasSuffix(c.Path, "/"+click+"/callback") && c.Body["type"] == 7.0:
				updated = true
			case c.Method == "POST" && c.Path == "/webhooks/"+testApp+"/"+click:
				b.Errorf("table %s: %s's fold answered privately: %s", t.channel, p.name, c.content())
				return cost, false
			}
		}
	}
}
