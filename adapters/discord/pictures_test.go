package discord

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image/png"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/bottest"
	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/render"
	"github.com/dealerbot/dealerbot/render/picture"
)

// cardConfig is the adapter's configuration with card emojis on, as in production.
func cardConfig() Config {
	c := testConfig()
	c.CardEmojis = true
	return c
}

// emojiCalls counts the application emoji calls of each method among calls.
func emojiCalls(calls []call) map[string]int {
	out := map[string]int{}
	for _, c := range calls {
		if strings.HasPrefix(c.Path, "/applications/"+testApp+"/emojis") {
			out[c.Method]++
		}
	}
	return out
}

// ready waits until the adapter's card emoji sync has ended.
func ready(t testing.TB, a *Adapter) {
	t.Helper()
	readyWithin(t, a, 20*time.Second)
}

// readyWithin waits up to wait for the adapter's card emojis, as ready does.
func readyWithin(t testing.TB, a *Adapter, wait time.Duration) {
	t.Helper()
	select {
	case <-a.EmojisReady():
	case <-time.After(wait):
		t.Fatal("the card emoji sync did not end")
	}
}

// emojiIDs is the fake's emojis by name.
func (f *fakeDiscord) emojiIDs() map[string]string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[string]string{}
	for _, e := range f.emojis {
		out[e.name] = e.id
	}
	return out
}

// The first start uploads the 106 card emojis (two decks of 52 and a back), each once; a second start
// lists them and uploads nothing; both give the same faces, written with the IDs Discord issued.
func TestCardEmojisUploadedOnce(t *testing.T) {
	f := newFakeDiscord(t, testApp)
	logs, clock := &bottest.Buffer{}, bottest.NewClock(time.Now())
	a := openAdapterWith(t, f, logs, clock, cardConfig())
	ready(t, a)
	got := emojiCalls(f.since(0))
	if got["GET"] != 1 || got["POST"] != 106 || got["DELETE"] != 0 {
		t.Fatalf("first start made emoji calls %v, want 1 list and 106 uploads", got)
	}
	f.mu.Lock()
	hits := f.globalHits
	f.mu.Unlock()
	if hits != 0 {
		t.Fatalf("the upload of 106 emojis ran into Discord's global limit (50 requests a second) %d times", hits)
	}
	ids := f.emojiIDs()
	two, ok := a.CardFaces("discord", false)
	four, _ := a.CardFaces("discord", true)
	if !ok || two == nil || four == nil {
		t.Fatalf("no card faces after the sync: %v %v %v", two, four, ok)
	}
	face := regexp.MustCompile(`^<:(db[24]_([2-9TJQKA][cdhs]|bk)_[0-9a-f]{6}):(\d+)>$`)
	seen := map[string]bool{}
	for i, f := range append(two[:], four[:]...) {
		m := face.FindStringSubmatch(f)
		if m == nil {
			t.Fatalf("face %d is %q, want <:name:id>", i, f)
		}
		if ids[m[1]] != m[3] {
			t.Errorf("face %q: Discord gave %s the ID %q", f, m[1], ids[m[1]])
		}
		if seen[f] {
			t.Errorf("face %q used twice", f)
		}
		seen[f] = true
	}
	if kd := engine.NewCard(engine.King, engine.Diamonds); !strings.HasPrefix(two[kd], "<:db2_Kd_") || !strings.HasPrefix(four[kd], "<:db4_Kd_") {
		t.Errorf("the king of diamonds is %q and %q", two[kd], four[kd])
	}

	n := f.count()
	b := connectWith(t, f, logs, clock, cardConfig())
	defer b.Close(context.Background())
	ready(t, b)
	if got := emojiCalls(f.since(n)); got["POST"] != 0 || got["DELETE"] != 0 || got["GET"] != 1 {
		t.Errorf("a restart made emoji calls %v, want one list and nothing else", got)
	}
	again, _ := b.CardFaces("discord", false)
	if again == nil || *again != *two {
		t.Error("after a restart the faces differ from the ones uploaded")
	}
}

// Two processes started at once upload the same cards: the one whose upload finds the name taken
// lists again and takes the other's emojis, instead of drawing cards as text until a restart. Every
// card has one emoji on Discord.
func TestCardEmojisUploadedByAnotherProcessMeanwhile(t *testing.T) {
	// The other process's emojis, drawn before the fake starts: the race itself must be quick, since
	// the fake holds its lock (and its gateway waits) while it runs.
	var theirs []fakeEmoji
	for _, col := range decks {
		deck, err := picture.Deck(col)
		if err != nil {
			t.Fatal(err)
		}
		for c := range len(render.Faces{}) {
			theirs = append(theirs, fakeEmoji{name: emojiName(col, engine.Card(c), deck.Version), png: deck.PNG[c]})
		}
	}
	f := newFakeDiscord(t, testApp)
	f.emojiRace = func() { // the other process uploads every card between our list and our first upload
		for _, e := range theirs {
			f.nextID++
			e.id = fmt.Sprintf("%d", 5000000+f.nextID)
			f.emojis[e.id] = e
		}
	}
	logs := &bottest.Buffer{}
	a := openAdapterWith(t, f, logs, bottest.NewClock(time.Now()), cardConfig())
	ready(t, a)
	if faces, _ := a.CardFaces("discord", true); faces == nil {
		t.Fatalf("no card faces after the race:\n%s", logs.String())
	}
	if n := len(f.emojiIDs()); n != 106 {
		t.Errorf("%d card emojis on Discord, want 106 (one each)", n)
	}
	if got := emojiCalls(f.since(0)); got["GET"] != 2 || got["POST"] != 1 {
		t.Errorf("emoji calls %v, want a list, the refused upload, and a list again", got)
	}
	if strings.Contains(logs.String(), "could not be uploaded") {
		t.Errorf("the race left cards as text:\n%s", logs.String())
	}
}

// A changed design goes up under a new version and the old design's emojis are removed; emojis that
// are not dealerbot's cards are left alone.
func TestCardEmojisReplaceAnOldDesign(t *testing.T) {
	f := newFakeDiscord(t, testApp)
	old := map[string]string{"1": "db2_Kd_000000", "2": "db4_bk_000000", "3": "party_parrot", "4": "db2_Kd"}
	for id, name := range old {
		f.emojis[id] = fakeEmoji{id: id, name: name}
	}
	logs := &bottest.Buffer{}
	a := openAdapterWith(t, f, logs, bottest.NewClock(time.Now()), cardConfig())
	ready(t, a)
	got := emojiCalls(f.since(0))
	if got["POST"] != 106 || got["DELETE"] != 2 {
		t.Errorf("emoji calls %v, want 106 uploads and 2 deletions", got)
	}
	ids := f.emojiIDs()
	for _, name := range []string{"db2_Kd_000000", "db4_bk_000000"} {
		if _, ok := ids[name]; ok {
			t.Errorf("the old card emoji %s is still there", name)
		}
	}
	for _, name := range []string{"party_parrot", "db2_Kd"} {
		if _, ok := ids[name]; !ok {
			t.Errorf("the emoji %s, not one of ours, was removed", name)
		}
	}
	if !strings.Contains(logs.String(), "uploaded=106 removed=2") {
		t.Errorf("the log does not say what the sync did:\n%s", logs.String())
	}
}

// A hand on Discord with card emojis: the table message, the hole-card DM and "My cards" show the
// cards as <:name:id> with the IDs the fake issued, and the hand's showdown (an all-in run-out) gets
// its picture attached to the table message, with alt text naming the cards. Chips add up.
func TestCardPicturesOverFakeDiscord(t *testing.T) {
	t.Parallel() // the fake's rate limit makes it wait
	f := newFakeDiscord(t, testApp)
	g, db, logs := newGameWith(t, f, uint64(time.Now().UnixNano()), cardConfig())
	ready(t, g.a)
	g.flush()
	ids := f.emojiIDs()
	issued := func(text string) int {
		t.Helper()
		n := 0
		for _, m := range regexp.MustCompile(`<:(db2_[^:]+):(\d+)>`).FindAllStringSubmatch(text, -1) {
			if ids[m[1]] != m[2] {
				t.Errorf("%s is shown with ID %s, Discord issued %q", m[1], m[2], ids[m[1]])
			}
			n++
		}
		return n
	}
	start := f.count()
	st := g.playHand(t)
	if st.actions == 0 {
		t.Fatal("no action was taken")
	}
	alice := g.players[0]
	dms := g.dms(f.since(start), alice)
	if len(dms) == 0 || issued(dms[0].content()) != 2 {
		t.Fatalf("alice's hole-card DM is not two card emojis: %v", dms)
	}
	id, s := g.tableMessage()
	if n := issued(s.content); n < 5+4 { // the board and at least two hands turned up
		t.Errorf("the finished table shows %d card emojis, want the board and the hands:\n%s", n, s.content)
	}
	if strings.Contains(s.content, "♦") || strings.Contains(s.content, "🔷") {
		t.Errorf("the table still draws cards as text or emoji:\n%s", s.content)
	}
	if len(s.files) != 1 {
		t.Fatalf("the table message has %d pictures, want the showdown's: %+v", len(s.files), s.files)
	}
	pic := s.files[0]
	img, err := png.Decode(bytes.NewReader(pic.data))
	if err != nil || img.Bounds().Dx() < 400 {
		t.Fatalf("the showdown picture %q does not decode as a PNG of the table: %v", pic.name, err)
	}
	if !strings.HasPrefix(pic.name, "hand-") || !strings.Contains(pic.alt, "Board: ") || !regexp.MustCompile(`(alice|bob|carol): [A-Z][a-z]+ of [a-z]+, [a-z]+ of [a-z]+`).MatchString(pic.alt) {
		t.Errorf("the picture's name %q or alt text does not name the cards: %q", pic.name, pic.alt)
	}
	if strings.Contains(pic.alt, "<:") {
		t.Errorf("the alt text has emoji markup: %q", pic.alt)
	}

	// "My cards" on the finished hand's table is answered privately with the cards as emojis (or with
	// a sentence when no hand is running): either way no error, and nothing in the channel.
	n := f.count()
	b, ok := find(t, s.buttons, "My cards")
	if ok {
		ans := g.clickTable(alice, id, b, "")
		if len(ans.private) == 0 {
			t.Errorf("My cards was not answered privately")
		}
	}
	if w := g.writes(f.since(n)); w != 0 {
		t.Errorf("My cards wrote %d times in the channel", w)
	}
	checkChips(t, db, 30000)
	if strings.Contains(logs.String(), "without its picture") {
		t.Errorf("the picture was not attached the first time:\n%s", logs.String())
	}
}

// Mid-hand, "My cards" shows the two hole cards as the application's emojis.
func TestMyCardsShowsCardEmojis(t *testing.T) {
	t.Parallel()
	f := newFakeDiscord(t, testApp)
	g, _, _ := newGameWith(t, f, 7, cardConfig())
	ready(t, g.a)
	n := f.count()
	tok := f.slash(g.players[0], g.channel, "deal")
	f.answer(n, tok)
	g.flush()
	id, s := g.tableMessage()
	b, ok := find(t, s.buttons, "My cards")
	if !ok {
		t.Fatalf("no My cards button: %v", s.buttons)
	}
	ans := g.clickTable(g.players[1], id, b, "")
	if len(ans.private) != 1 {
		t.Fatalf("My cards answered %d private messages", len(ans.private))
	}
	text := ans.private[0].content()
	if got := regexp.MustCompile(`<:db2_[2-9TJQKA][cdhs]_[0-9a-f]{6}:\d+>`).FindAllString(text, -1); len(got) != 2 {
		t.Errorf("My cards shows %q, want two card emojis", text)
	}
}

// When Discord refuses the uploads (the application may not create emojis), the adapter says so in
// one log line, cards are drawn as emoji, and the hand plays to its end with every chip accounted for.
func TestCardEmojisRefusedFallBackToEmoji(t *testing.T) {
	t.Parallel()
	f := newFakeDiscord(t, testApp)
	f.emojiRefusal = http.StatusForbidden
	g, db, logs := newGameWith(t, f, 11, cardConfig())
	a := g.a
	ready(t, a)
	if faces, ok := a.CardFaces("discord", false); faces != nil || !ok {
		t.Fatalf("after a refusal the faces are %v, %v; want none, cards still pictures-capable", faces, ok)
	}
	if n := strings.Count(logs.String(), "card emojis could not be uploaded"); n != 1 {
		t.Errorf("the refusal is logged %d times, want once:\n%s", n, logs.String())
	}
	if got := emojiCalls(f.since(0)); got["POST"] != 1 {
		t.Errorf("uploads tried after a 403: %d, want 1", got["POST"])
	}
	g.playHand(t)
	_, s := g.tableMessage()
	if strings.Contains(s.content, "<:") || !regexp.MustCompile(`(♠️|♥️|🔷|🍀)`).MatchString(s.content) {
		t.Errorf("the table does not fall back to emoji cards:\n%s", s.content)
	}
	checkChips(t, db, 30000)
}

// A rate-limited upload waits for Discord's retry_after and resumes where it stopped: every card goes
// up once, and the wait is logged once.
func TestCardEmojisResumeAfterARateLimit(t *testing.T) {
	t.Parallel() // it waits out the fake's upload windows
	f := newFakeDiscord(t, testApp)
	// 40 uploads per 8 s: the first 40 of the 106 land in one window even on a busy machine under the
	// race detector (each may take up to 200 ms), so the limit is hit whatever the machine's speed;
	// the sync then waits out two windows.
	f.emojiLimit, f.emojiWait = 40, 8*time.Second
	logs := &bottest.Buffer{}
	a := openAdapterWith(t, f, logs, bottest.NewClock(time.Now()), cardConfig())
	readyWithin(t, a, 90*time.Second)
	if faces, _ := a.CardFaces("discord", true); faces == nil {
		t.Fatalf("the four-colour deck is not up after the rate limit:\n%s", logs.String())
	}
	if n := len(f.emojiIDs()); n != 106 {
		t.Errorf("%d card emojis on Discord, want 106", n)
	}
	f.mu.Lock()
	limited := f.limited
	f.mu.Unlock()
	if limited < 1 {
		t.Errorf("the fake answered %d uploads with 429; the test wants the limit hit", limited)
	}
	if n := strings.Count(logs.String(), "rate limited"); n != 1 {
		t.Errorf("the rate limit is logged %d times, want once:\n%s", n, logs.String())
	}
}

// A picture refused by Discord (here: the file is too large) leaves the table message edited without
// it: the result is shown all the same.
func TestPictureRefusedStillEdits(t *testing.T) {
	f := newFakeDiscord(t, testApp)
	logs, clock := &bottest.Buffer{}, bottest.NewClock(time.Now())
	a := openAdapterWith(t, f, logs, clock, testConfig())
	ctx := context.Background()
	m := render.Message{Text: "Hand #1 · the result"}
	id, err := a.Post(ctx, botMessage("5551", m))
	if err != nil {
		t.Fatal(err)
	}
	m.Text = "Hand #1 · over"
	m.Picture = &render.Picture{Name: "hand-1.png", Alt: "Board: King of diamonds.", PNG: []byte("not a png")}
	f.mu.Lock()
	f.refuseFiles = true
	f.mu.Unlock()
	if err := a.Edit(ctx, botMessage("5551", m), id); err != nil {
		t.Fatalf("the edit failed with the picture refused: %v", err)
	}
	if got := f.onScreen(id); got.content != "Hand #1 · over" || len(got.files) != 0 {
		t.Errorf("the message shows %q with %d files", got.content, len(got.files))
	}
	if !strings.Contains(logs.String(), "without its picture") {
		t.Errorf("the refused picture is not logged:\n%s", logs.String())
	}
	// With files accepted, the picture is attached with its alt text.
	f.mu.Lock()
	f.refuseFiles = false
	f.mu.Unlock()
	deck, err := picture.Card(0, render.TwoColour)
	if err != nil {
		t.Fatal(err)
	}
	m.Picture.PNG = deck
	if err := a.Edit(ctx, botMessage("5551", m), id); err != nil {
		t.Fatal(err)
	}
	if got := f.onScreen(id); len(got.files) != 1 || got.files[0].alt != "Board: King of diamonds." || !bytes.Equal(got.files[0].data, deck) {
		t.Errorf("the picture is not attached as sent: %+v", got.files)
	}
}

func botMessage(channel string, m render.Message) bot.Message {
	return bot.Message{Platform: "discord", Channel: channel, Message: m}
}

// TestNoAttachFilesPermission: in a channel where the bot lacks Attach Files, Discord refuses a table
// message with its picture (403, 50013). The table is brought up to date without it, the log says
// once what to give the bot, and no picture is tried there for 30 minutes (each 403 counts toward
// Discord's invalid-request limit); other channels are not affected.
func TestNoAttachFilesPermission(t *testing.T) {
	f := newFakeDiscord(t, testApp)
	logs, clock := &bottest.Buffer{}, bottest.NewClock(time.Now())
	a := openAdapterWith(t, f, logs, clock, testConfig())
	f.mu.Lock()
	f.noAttach = map[string]bool{"5551": true}
	f.mu.Unlock()
	ctx := context.Background()
	png, err := picture.Card(0, render.TwoColour)
	if err != nil {
		t.Fatal(err)
	}
	pic := &render.Picture{Name: "hand-1.png", Alt: "Board: King of diamonds.", PNG: png}
	tried := func() int {
		n := 0
		for _, c := range f.since(0) {
			if len(c.Files) > 0 {
				n++
			}
		}
		return n
	}
	id, err := a.Post(ctx, botMessage("5551", render.Message{Text: "Hand #1 · over", Picture: pic}))
	if err != nil {
		t.Fatalf("the post failed with the picture refused: %v", err)
	}
	if got := f.onScreen(id); got.content != "Hand #1 · over" || len(got.files) != 0 {
		t.Fatalf("the message shows %q with %d files", got.content, len(got.files))
	}
	if err := a.Edit(ctx, botMessage("5551", render.Message{Text: "Hand #2 · over", Picture: pic}), id); err != nil {
		t.Fatal(err)
	}
	if got := f.onScreen(id); got.content != "Hand #2 · over" {
		t.Fatalf("the edit without the picture did not land: %q", got.content)
	}
	if n := tried(); n != 1 {
		t.Fatalf("%d requests with a picture in a channel that refused one, want 1", n)
	}
	if n := strings.Count(logs.String(), "lacks the Attach Files permission"); n != 1 {
		t.Fatalf("the missing permission is logged %d times, want once:\n%s", n, logs.String())
	}
	// Another channel still gets its picture.
	other, err := a.Post(ctx, botMessage("5552", render.Message{Text: "Hand #1 · over", Picture: pic}))
	if err != nil || len(f.onScreen(other).files) != 1 {
		t.Fatalf("a channel with the permission got no picture: %v", err)
	}
	// After 30 minutes the first channel is tried again (the permission may have been given).
	clock.Advance(31 * time.Minute)
	f.mu.Lock()
	f.noAttach = nil
	f.mu.Unlock()
	if err := a.Edit(ctx, botMessage("5551", render.Message{Text: "Hand #3 · over", Picture: pic}), id); err != nil {
		t.Fatal(err)
	}
	if got := f.onScreen(id); len(got.files) != 1 {
		t.Fatalf("after the backoff the picture is not tried again: %+v", got)
	}
}

// TestOldMessageEditRefused: Discord refuses edits of a message older than an hour once too many were
// made (30046); the adapter says so with bot.ErrRepost, and the dealer posts the table anew.
func TestOldMessageEditRefused(t *testing.T) {
	f := newFakeDiscord(t, testApp)
	logs, clock := &bottest.Buffer{}, bottest.NewClock(time.Now())
	a := openAdapterWith(t, f, logs, clock, testConfig())
	ctx := context.Background()
	id, err := a.Post(ctx, botMessage("5551", render.Message{Text: "Hand #1 · to act"}))
	if err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	f.frozen = map[string]bool{id: true}
	f.mu.Unlock()
	err = a.Edit(ctx, botMessage("5551", render.Message{Text: "Hand #1 · later"}), id)
	if !errors.Is(err, bot.ErrRepost) {
		t.Fatalf("an edit refused with 30046: %v, want bot.ErrRepost", err)
	}
}

// TestNoSendMessagesPermission: Discord refuses a table message in a channel where the bot lacks
// Send Messages (403, 50013); the adapter says so with bot.ErrCannotPost, for the dealer to tell
// the host.
func TestNoSendMessagesPermission(t *testing.T) {
	f := newFakeDiscord(t, testApp)
	logs := &bottest.Buffer{}
	a := openAdapterWith(t, f, logs, bottest.NewClock(time.Now()), testConfig())
	f.mu.Lock()
	f.noSend = map[string]bool{"5551": true}
	f.mu.Unlock()
	if _, err := a.Post(context.Background(), botMessage("5551", render.Message{Text: "Hand #1 · to act"})); !errors.Is(err, bot.ErrCannotPost) {
		t.Fatalf("a post where the bot may not send: %v, want bot.ErrCannotPost", err)
	}
	// With a picture: the refusal is the channel's, not a missing Attach Files.
	pic := &render.Picture{Name: "hand-1.png", Alt: "Board.", PNG: []byte("png")}
	if _, err := a.Post(context.Background(), botMessage("5551", render.Message{Text: "Hand #1 · over", Picture: pic})); !errors.Is(err, bot.ErrCannotPost) {
		t.Fatalf("a post with a picture where the bot may not send: %v, want bot.ErrCannotPost", err)
	}
	if strings.Contains(logs.String(), "Attach Files") {
		t.Fatalf("the log blames Attach Files for a channel that refuses any message:\n%s", logs.String())
	}
}
