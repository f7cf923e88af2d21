package bot_test

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/render"
)

// pictureChat is a surfaceChat with card pictures ("<:cN:N>" for card N) that shows the pictures of
// table messages; it keeps every picture it was given.
type pictureChat struct {
	surfaceChat
	faces *render.Faces // nil: the pictures are not there (yet)
	pics  []render.Picture
}

func (c *pictureChat) CardFaces(string, bool) (*render.Faces, bool) { return c.faces, true }
func (c *pictureChat) ShowsPictures(string) bool                    { return true }

func (c *pictureChat) keep(m bot.Message) {
	if m.Picture != nil {
		c.smu.Lock()
		c.pics = append(c.pics, *m.Picture)
		c.smu.Unlock()
	}
}

func (c *pictureChat) Post(ctx context.Context, m bot.Message) (string, error) {
	c.keep(m)
	return c.surfaceChat.Post(ctx, m)
}

func (c *pictureChat) Edit(ctx context.Context, m bot.Message, id string) error {
	c.keep(m)
	return c.surfaceChat.Edit(ctx, m, id)
}

func (c *pictureChat) pictures() []render.Picture {
	c.smu.Lock()
	defer c.smu.Unlock()
	return append([]render.Picture(nil), c.pics...)
}

func testFaces() *render.Faces {
	var f render.Faces
	for c := range f {
		f[c] = fmt.Sprintf("<:c%d:%d>", c, 7000+c)
	}
	return &f
}

var faceRE = regexp.MustCompile(`<:c(\d+):(\d+)>`)

// pictureRig opens a table in c1 over a pictureChat (start options opts) where ann, ben and cid sit
// down with 1,000 each, and deals hand #1.
func pictureRig(t *testing.T, faces *render.Faces, opts string) (*rig, *pictureChat) {
	t.Helper()
	pc := &pictureChat{surfaceChat: surfaceChat{text: map[string]string{}}, faces: faces}
	return liveRigOver(t, pc, &pc.rigChat, opts), pc
}

// flush waits until the dealer has written everything it queued (the picture is drawn by the writer).
func flush(t *testing.T, r *rig) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := r.d.Flush(ctx); err != nil {
		t.Fatal(err)
	}
}

// holeOf reads a player's hole cards out of their DM, drawn with testFaces.
func holeOf(t *testing.T, r *rig, user string) []engine.Card {
	t.Helper()
	for _, m := range r.chat.all() {
		if m.Private && m.User == user && strings.Contains(m.Text, "your cards") {
			var out []engine.Card
			for _, f := range faceRE.FindAllStringSubmatch(m.Text, -1) {
				n, _ := strconv.Atoi(f[1])
				out = append(out, engine.Card(n))
			}
			if len(out) != 2 {
				t.Fatalf("%s's hole cards are not two card pictures: %q", user, m.Text)
			}
			return out
		}
	}
	t.Fatalf("%s got no hole cards", user)
	return nil
}

// foldThenShowdown plays the hand in c1 by typed commands: the first player to act folds, the others check or
// call to the showdown. It returns who folded.
func foldThenShowdown(t *testing.T, r *rig) string {
	t.Helper()
	folder := ""
	for step := 0; step < 40; step++ {
		tr := r.table("c1")
		if tr.Hand == nil {
			return folder
		}
		p := firstToAct(t, tr)
		user := tr.Seats[tr.Hand.Seats[p]].User
		if folder == "" {
			folder = user
			r.must("c1", user, "fold")
			continue
		}
		if rep := r.cmd("c1", user, "check"); rep.IsError {
			r.must("c1", user, "call")
		}
	}
	t.Fatal("the hand did not end")
	return ""
}

// With card pictures, a table started bare draws its cards with the platform's pictures (hole cards
// and the table message); a hand that reaches a showdown gets one picture, whose alt text names the
// cards shown and never the folded player's cards. Chips add up.
func TestShowdownPicture(t *testing.T) {
	r, pc := pictureRig(t, testFaces(), "")
	if tr := r.table("c1"); tr.Settings.Cards != render.CardImages {
		t.Fatalf("a bare start on a platform with card pictures plays with cards %d, want images", tr.Settings.Cards)
	}
	hole := map[string][]engine.Card{}
	for _, u := range []string{"ann", "ben", "cid"} {
		hole[u] = holeOf(t, r, u)
	}
	folder := foldThenShowdown(t, r)
	flush(t, r)
	pics := pc.pictures()
	if len(pics) != 1 {
		t.Fatalf("%d showdown pictures, want 1", len(pics))
	}
	p := pics[0]
	if p.Name != "hand-1.png" || len(p.PNG) < 1000 || string(p.PNG[1:4]) != "PNG" {
		t.Errorf("picture %q of %d bytes is not a PNG of hand #1", p.Name, len(p.PNG))
	}
	final := ""
	for _, text := range pc.text {
		if strings.HasPrefix(text, "Hand #1") {
			final = text
		}
	}
	shows := 0
	for u, cs := range hole {
		named := strings.Contains(strings.ToLower(p.Alt), strings.ToLower(render.CardNames(cs)))
		showed := strings.Contains(final, u+" shows") || strings.Contains(final, "All-in: ") && strings.Contains(final, u+" <:")
		if u == folder && (named || strings.Contains(p.Alt, u+":")) {
			t.Errorf("the picture shows the folded hand of %s: %q", u, p.Alt)
		}
		if named != showed {
			t.Errorf("%s showed %v, but the picture names their cards %s: %v\n%s\n%s", u, showed, render.CardNames(cs), named, p.Alt, final)
		}
		if showed {
			shows++
		}
	}
	if shows == 0 {
		t.Errorf("nobody showed at the showdown:\n%s", final)
	}
	if !strings.Contains(p.Alt, "Board: ") || !strings.Contains(p.Alt, " wins ") {
		t.Errorf("alt text without the board or the winner: %q", p.Alt)
	}
	// The table message draws the board with the pictures.
	shown := false
	for _, text := range pc.text {
		if strings.HasPrefix(text, "Hand #1") && len(faceRE.FindAllString(text, -1)) >= 5 {
			shown = true
		}
	}
	if !shown {
		t.Errorf("the table message does not draw the board as card pictures: %v", pc.text)
	}
	r.balance()
	stacks, _ := r.seatStacks("c1")
	var sum int64
	for _, s := range stacks {
		sum += s
	}
	if sum != 3000 {
		t.Errorf("stacks sum to %d after the hand, want the 3,000 bought in", sum)
	}
}

// pictures=off: the same hand gets no picture. A hand won without a showdown gets none either.
func TestNoShowdownPicture(t *testing.T) {
	r, pc := pictureRig(t, testFaces(), "pictures=off")
	foldThenShowdown(t, r)
	flush(t, r)
	if n := len(pc.pictures()); n != 0 {
		t.Errorf("pictures=off: %d pictures", n)
	}

	r2, pc2 := pictureRig(t, testFaces(), "")
	for step := 0; step < 5; step++ {
		tr := r2.table("c1")
		if tr.Hand == nil {
			break
		}
		p := firstToAct(t, tr)
		r2.must("c1", tr.Seats[tr.Hand.Seats[p]].User, "fold")
	}
	flush(t, r2)
	if n := len(pc2.pictures()); n != 0 {
		t.Errorf("a hand won when everyone folded got %d pictures", n)
	}
}

// While the platform's card pictures are not there (being uploaded, or refused), a table that chose
// them draws emoji cards; `cards=images` is refused where the platform has no card pictures at all.
func TestCardPicturesFallBack(t *testing.T) {
	r, pc := pictureRig(t, nil, "cards=images4")
	for _, m := range r.chat.all() {
		if m.Private && strings.Contains(m.Text, "your cards") && (strings.Contains(m.Text, "<:") || !strings.ContainsAny(m.Text, "♠♥🔷🍀")) {
			t.Errorf("hole cards without pictures are not emoji cards: %q", m.Text)
		}
	}
	if n := len(pc.pictures()); n != 0 {
		t.Errorf("%d pictures before any showdown", n)
	}

	plain := newRig(t, bot.Config{})
	rep := plain.cmd("c1", "ann", "start cards=images")
	if !rep.IsError || !strings.Contains(rep.Text, "cards=emoji") {
		t.Errorf("cards=images on a platform without card pictures answered %q", rep.Text)
	}
	if tr := plain.table("c1"); tr.ID != "" {
		t.Errorf("a refused start opened a table: %+v", tr.Settings)
	}
	plain.must("c1", "ann", "start")
	if tr := plain.table("c1"); tr.Settings.Cards != render.CardText {
		t.Errorf("a bare start without card pictures plays with cards %d, want text", tr.Settings.Cards)
	}
	before := plain.table("c1").Settings
	for _, bad := range []string{"set cards=images4", "set cards=images timer=30", "set pictures=sometimes", "set cards="} {
		if rep := plain.cmd("c1", "ann", bad); !rep.IsError {
			t.Errorf("%q was taken: %q", bad, rep.Text)
		}
	}
	if after := plain.table("c1").Settings; after != before {
		t.Errorf("refused settings changed the table: %+v, was %+v", after, before)
	}
	plain.must("c1", "ann", "set cards=emoji pictures=off")
	if s := plain.table("c1").Settings; s.Cards != render.CardEmoji || !s.NoPictures {
		t.Errorf("set cards=emoji pictures=off gave %+v", s)
	}
}
