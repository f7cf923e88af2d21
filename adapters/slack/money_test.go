package slack

import (
	"strings"
	"testing"

	slackapi "github.com/slack-go/slack"

	"github.com/dealerbot/dealerbot/render"
)

// A link button (a payment app) opens its URL on Slack and carries no command.
func TestLinkButtons(t *testing.T) {
	ps := posts(render.Message{Text: "Settle-up", Buttons: []render.Button{
		{Label: "Paid #4", Command: "paid #4", Style: render.Success},
		{Label: "Pay alice 12.00 USD on Venmo", URL: "https://venmo.com/alice-w?txn=pay&amount=12.00"},
	}}, "C1")
	acts := ps[0].Blocks[1].(*slackapi.ActionBlock)
	link := acts.Elements.ElementSet[1].(*slackapi.ButtonBlockElement)
	if link.URL != "https://venmo.com/alice-w?txn=pay&amount=12.00" || !strings.HasPrefix(link.ActionID, linkPrefix) {
		t.Fatalf("link button: %+v", link)
	}
	if _, err := clickFromAction(&slackapi.InteractionCallback{}, &slackapi.BlockAction{ActionID: link.ActionID, Value: link.Value}); err == nil {
		t.Fatal("a link button's click was taken as a command")
	}
}
