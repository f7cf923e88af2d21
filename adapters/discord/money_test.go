package discord

import (
	"encoding/json"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/dealerbot/dealerbot/render"
)

// A settle-up's link button (a payment app) becomes a Discord link button, beside a command button,
// in a message Discord accepts.
func TestLinkButtons(t *testing.T) {
	comps, err := Components([]render.Button{
		{Label: "Paid #4", Command: "paid #4", Style: render.Success},
		{Label: "Pay alice 12.00 USD on Venmo", URL: "https://venmo.com/alice-w?txn=pay&amount=12.00"},
	})
	if err != nil {
		t.Fatal(err)
	}
	row := comps[0].(discordgo.ActionsRow)
	link := row.Components[1].(discordgo.Button)
	if link.Style != discordgo.LinkButton || link.URL != "https://venmo.com/alice-w?txn=pay&amount=12.00" || link.CustomID != "" {
		t.Fatalf("link button: %+v", link)
	}
	raw, _ := json.Marshal(map[string]any{"content": "Settle-up", "components": comps})
	var body map[string]any
	_ = json.Unmarshal(raw, &body)
	if why := checkMessage(body); why != "" {
		t.Fatalf("Discord would refuse the settle-up: %s", why)
	}
}
