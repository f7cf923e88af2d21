package slack

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	slackapi "github.com/slack-go/slack"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/render"
)

func TestCommandFromSlash(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"subcommand with amount", "raise 60", "raise 60"},
		{"empty asks for help", "", "help"},
		{"blank asks for help", "   ", "help"},
		{"spaces collapsed", "  join   1000 ", "join 1000"},
		{"unknown passed on for the bot to explain", "dance", "dance"},
		{"escaped mention reduced", "kick <@U0ABC123|bob>", "kick <@U0ABC123>"},
		{"plain mention kept", "kick <@W0ABC123>", "kick <@W0ABC123>"},
		{"settings kept", "start variant=pot-limit blinds=10/20", "start variant=pot-limit blinds=10/20"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := commandFromSlash(slackapi.SlashCommand{
				TeamID: "T1", ChannelID: "C1", UserID: "U1", UserName: "alice", Command: "/poker", Text: tt.text,
			})
			want := bot.Command{Platform: "slack", Workspace: "T1", Channel: "C1", User: "U1", UserName: "alice", Text: tt.want}
			if got != want {
				t.Errorf("got %+v, want %+v", got, want)
			}
		})
	}
}

func TestButtonValueRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		v    buttonValue
	}{
		{"plain", buttonValue{Command: "call", Token: "tok-1", Channel: "C1"}},
		{"amount", buttonValue{Command: "raise", Token: "a|b&c=d", Channel: "C1", Label: "Raise…", Min: 40, Max: 1000}},
		{"spaces in command", buttonValue{Command: "rsvp yes", Token: "t"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := decodeValue(tt.v.encode())
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.v {
				t.Errorf("got %+v, want %+v", got, tt.v)
			}
		})
	}
	for _, bad := range []string{"", "hello", "c=raise&min=x&max=3", "%zz"} {
		if _, err := decodeValue(bad); err == nil {
			t.Errorf("decodeValue(%q) accepted a value dealerbot never makes", bad)
		}
	}
}

// buttonsOf returns the buttons of a post's actions blocks.
func buttonsOf(p post) []*slackapi.ButtonBlockElement {
	var out []*slackapi.ButtonBlockElement
	for _, b := range p.Blocks {
		if ab, ok := b.(*slackapi.ActionBlock); ok {
			for _, el := range ab.Elements.ElementSet {
				out = append(out, el.(*slackapi.ButtonBlockElement))
			}
		}
	}
	return out
}

func sectionsOf(p post) []string {
	var out []string
	for _, b := range p.Blocks {
		if sb, ok := b.(*slackapi.SectionBlock); ok {
			out = append(out, sb.Text.Text)
		}
	}
	return out
}

func TestClickFromAction(t *testing.T) {
	m := render.Message{Text: "Alice to act", Buttons: []render.Button{
		{Label: "Fold", Command: "fold", Token: "T7", Style: render.Danger},
		{Label: "Raise…", Command: "raise", Token: "T7", Amount: true, Min: 40, Max: 980},
	}}
	ps := posts(m, "CTABLE")
	bs := buttonsOf(ps[0])
	ic := &slackapi.InteractionCallback{
		Type: slackapi.InteractionTypeBlockActions,
		Team: slackapi.Team{ID: "T1"}, User: slackapi.User{ID: "U2", Name: "bob"},
		Channel: slackapi.Channel{GroupConversation: slackapi.GroupConversation{Conversation: slackapi.Conversation{ID: "DBOB"}}},
	}
	tests := []struct {
		name    string
		act     slackapi.BlockAction
		want    bot.Command
		amount  bool
		wantErr bool
	}{
		{"fold runs at once on the table, not the DM it was clicked in",
			slackapi.BlockAction{ActionID: bs[0].ActionID, Value: bs[0].Value},
			bot.Command{Platform: "slack", Workspace: "T1", Channel: "CTABLE", User: "U2", UserName: "bob", Text: "fold", Token: "T7"}, false, false},
		{"raise asks for an amount",
			slackapi.BlockAction{ActionID: bs[1].ActionID, Value: bs[1].Value},
			bot.Command{Platform: "slack", Workspace: "T1", Channel: "CTABLE", User: "U2", UserName: "bob", Text: "raise", Token: "T7"}, true, false},
		{"another app's button is ignored",
			slackapi.BlockAction{ActionID: "other-app", Value: "x"}, bot.Command{}, false, true},
		{"a garbled value is ignored",
			slackapi.BlockAction{ActionID: actionPrefix + "0", Value: "nonsense"}, bot.Command{}, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := clickFromAction(ic, &tt.act)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("accepted %+v", tt.act)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.Cmd != tt.want || c.Amount != tt.amount {
				t.Errorf("got %+v amount=%v, want %+v amount=%v", c.Cmd, c.Amount, tt.want, tt.amount)
			}
			if tt.amount && (c.Value.Min != 40 || c.Value.Max != 980) {
				t.Errorf("range %d..%d, want 40..980", c.Value.Min, c.Value.Max)
			}
		})
	}
}

func TestAmountModalAndSubmission(t *testing.T) {
	v := buttonValue{Command: "raise", Token: "T9", Channel: "C1", Label: "Raise…", Min: 40, Max: 980}
	modal := amountModal(v)
	if got, want := modal.Title.Text, "Raise"; got != want {
		t.Errorf("title %q, want %q", got, want)
	}
	in := modal.Blocks.BlockSet[0].(*slackapi.InputBlock)
	if !strings.Contains(in.Label.Text, "40") || !strings.Contains(in.Label.Text, "980") {
		t.Errorf("label %q does not show the allowed range", in.Label.Text)
	}
	num := in.Element.(*slackapi.NumberInputBlockElement)
	if num.MinValue != "40" || num.MaxValue != "980" || num.IsDecimalAllowed {
		t.Errorf("number input %+v, want whole numbers 40..980", num)
	}
	// The modal must survive Slack's JSON round trip (views.open), private_metadata included.
	if _, err := json.Marshal(modal); err != nil {
		t.Fatal(err)
	}

	submit := func(callback, meta, value string) *slackapi.InteractionCallback {
		return &slackapi.InteractionCallback{
			Type: slackapi.InteractionTypeViewSubmission,
			Team: slackapi.Team{ID: "T1"}, User: slackapi.User{ID: "U2", Name: "bob"},
			View: slackapi.View{CallbackID: callback, PrivateMetadata: meta, State: &slackapi.ViewState{
				Values: map[string]map[string]slackapi.BlockAction{amountBlockID: {amountActionID: {Value: value}}}}},
		}
	}
	tests := []struct {
		name, callback, value string
		want                  string // command text
		fieldErr              string // part of the sentence shown in the modal
		ignored               bool
	}{
		{"lowest", amountCallbackID, "40", "raise 40", "", false},
		{"highest", amountCallbackID, "980", "raise 980", "", false},
		{"with a thousands comma", amountCallbackID, "1,000", "", "1000 is not in the range: enter a whole number of chips from 40 to 980.", false},
		// The range the dealer gave when the form opened is shown in the form (response_action
		// errors); the dealer still judges what passes.
		{"below the range", amountCallbackID, "39", "", "39 is not in the range: enter a whole number of chips from 40 to 980.", false},
		{"above the range", amountCallbackID, "981", "", "981 is not in the range: enter a whole number of chips from 40 to 980.", false},
		{"not a number", amountCallbackID, "lots", "", "whole number of chips from 40 to 980", false},
		{"decimal", amountCallbackID, "50.5", "", "whole number", false},
		{"empty", amountCallbackID, "", "", "whole number", false},
		{"another app's modal", "other", "100", "", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd, fieldErr, err := commandFromSubmission(submit(tt.callback, v.encode(), tt.value))
			if tt.ignored {
				if err == nil {
					t.Fatal("took another app's modal")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.fieldErr != "" {
				if !strings.Contains(fieldErr, tt.fieldErr) || cmd != (bot.Command{}) {
					t.Errorf("field error %q and command %+v, want an error containing %q and no command", fieldErr, cmd, tt.fieldErr)
				}
				return
			}
			want := bot.Command{Platform: "slack", Workspace: "T1", Channel: "C1", User: "U2", UserName: "bob", Text: tt.want, Token: "T9"}
			if fieldErr != "" || cmd != want {
				t.Errorf("got %+v (field error %q), want %+v", cmd, fieldErr, want)
			}
		})
	}
}

func TestPosts(t *testing.T) {
	long := strings.Repeat("Alice raises to 60 & Bob <calls>.\n", 200) // about 7000 characters
	many := make([]render.Button, 30)
	for i := range many {
		many[i] = render.Button{Label: "B", Command: "rsvp yes", Token: "t"}
	}
	tests := []struct {
		name         string
		msg          render.Message
		posts        int
		sections     int
		buttons      int
		actionBlocks int
	}{
		{"short text", render.Message{Text: "Flop: A♠ K♥ 7♦"}, 1, 1, 0, 0},
		{"text and buttons", render.Message{Text: "Bob to act", Buttons: many[:3]}, 1, 1, 3, 1},
		{"buttons only", render.Message{Buttons: many[:2]}, 1, 0, 2, 1},
		{"nothing", render.Message{}, 0, 0, 0, 0},
		{"long text is split", render.Message{Text: long}, 1, 3, 0, 0},
		{"30 buttons need two actions blocks", render.Message{Text: "x", Buttons: many}, 1, 1, 30, 2},
		{"more than 50 blocks need two posts", render.Message{Text: strings.Repeat(strings.Repeat("y", 2999)+"\n", 55)}, 2, 55, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ps := posts(tt.msg, "C1")
			if len(ps) != tt.posts {
				t.Fatalf("%d posts, want %d", len(ps), tt.posts)
			}
			var secs []string
			buttons, actions := 0, 0
			for _, p := range ps {
				if len(p.Blocks) > maxBlocks {
					t.Errorf("post with %d blocks, Slack allows %d", len(p.Blocks), maxBlocks)
				}
				if p.Text == "" {
					t.Error("post without fallback text")
				}
				for _, b := range p.Blocks {
					if ab, ok := b.(*slackapi.ActionBlock); ok {
						actions++
						if n := len(ab.Elements.ElementSet); n > maxActionButtons {
							t.Errorf("actions block with %d buttons, Slack allows %d", n, maxActionButtons)
						}
					}
				}
				secs = append(secs, sectionsOf(p)...)
				buttons += len(buttonsOf(p))
			}
			if len(secs) != tt.sections || buttons != tt.buttons || actions != tt.actionBlocks {
				t.Errorf("%d sections, %d buttons, %d actions blocks; want %d, %d, %d",
					len(secs), buttons, actions, tt.sections, tt.buttons, tt.actionBlocks)
			}
			for _, s := range secs {
				if n := utf8.RuneCountInString(s); n > maxSectionText {
					t.Errorf("section of %d characters, Slack allows %d", n, maxSectionText)
				}
			}
			// No text is lost: joining the pieces gives back the (escaped) text, line breaks aside.
			flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }
			if got, want := flat(strings.Join(secs, "\n")), flat(escapeText(tt.msg.Text)); got != want {
				t.Errorf("text changed in splitting: got %d characters, want %d", len(got), len(want))
			}
		})
	}
}

func TestButtonElements(t *testing.T) {
	m := render.Message{Text: "x", Buttons: []render.Button{
		{Label: "Fold", Command: "fold", Token: "t", Style: render.Danger},
		{Label: "Call 40", Command: "call", Token: "t", Style: render.Primary},
		{Label: "Join", Command: "join", Style: render.Success},
		{Label: "Raise…", Command: "raise", Token: "t", Amount: true, Min: 40, Max: 100},
		{Label: strings.Repeat("L", 100), Command: "show"},
	}}
	bs := buttonsOf(posts(m, "C1")[0])
	tests := []struct {
		style  slackapi.Style
		prefix string
	}{
		{slackapi.StyleDanger, actionPrefix},
		{slackapi.StylePrimary, actionPrefix},
		{slackapi.StylePrimary, actionPrefix},
		{slackapi.StyleDefault, amountPrefix},
		{slackapi.StyleDefault, actionPrefix},
	}
	ids := map[string]bool{}
	for i, tt := range tests {
		b := bs[i]
		if b.Style != tt.style || !strings.HasPrefix(b.ActionID, tt.prefix) {
			t.Errorf("button %d: style %q action_id %q, want %q and prefix %q", i, b.Style, b.ActionID, tt.style, tt.prefix)
		}
		if ids[b.ActionID] {
			t.Errorf("duplicate action_id %q: Slack refuses the message", b.ActionID)
		}
		ids[b.ActionID] = true
		if n := utf8.RuneCountInString(b.Text.Text); n > maxButtonText {
			t.Errorf("button %d label of %d characters, Slack allows %d", i, n, maxButtonText)
		}
	}
}

func TestEscapeText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"A & B", "A &amp; B"},
		{"a <b> c", "a &lt;b&gt; c"},
		{"your turn <@U123>", "your turn <@U123>"},
		{"<!here> game night", "<!here> game night"},
		{"K♥ 10♣", "K♥ 10♣"},
	}
	for _, tt := range tests {
		if got := escapeText(tt.in); got != tt.want {
			t.Errorf("escapeText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSplitText(t *testing.T) {
	tests := []struct {
		name string
		in   string
		max  int
		want []string
	}{
		{"fits", "abc", 5, []string{"abc"}},
		{"blank", "  \n", 5, nil},
		{"at a line break", "ab\ncd\nef", 5, []string{"ab\ncd", "ef"}},
		{"at a space", "aaa bbb", 5, []string{"aaa", "bbb"}},
		{"anywhere", "abcdefgh", 3, []string{"abc", "def", "gh"}},
		{"not inside an escape", "ab&amp;cd", 5, []string{"ab", "&amp;", "cd"}},
		{"not inside a mention", "ab<@U1>", 6, []string{"ab", "<@U1>"}},
		{"runes, not bytes", "♠♠♠♠", 2, []string{"♠♠", "♠♠"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := splitText(tt.in, tt.max)
			if strings.Join(got, "|") != strings.Join(tt.want, "|") || len(got) != len(tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
