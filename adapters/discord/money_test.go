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

// /pokermoney's subcommands become the dealer's typed words, the same as at the console and on Slack.
func TestMoneyCommandText(t *testing.T) {
	money := func(o *discordgo.ApplicationCommandInteractionDataOption) discordgo.ApplicationCommandInteractionData {
		return discordgo.ApplicationCommandInteractionData{Name: MoneyCommandName, Options: []*discordgo.ApplicationCommandInteractionDataOption{o}}
	}
	tests := []struct {
		name string
		data discordgo.ApplicationCommandInteractionData
		want string
	}{
		{"payment shown", money(sub("payment")), "payment"},
		{"payment venmo", money(sub("payment", opt("handle", tString, "@alice-w"), opt("app", tString, "venmo"))), "payment venmo @alice-w"},
		{"payment clear", money(sub("payment", opt("app", tString, "clear"))), "payment clear"},
		{"debts", money(sub("debts")), "debts"},
		{"paid a player", money(sub("paid", opt("player", tUser, "80351110224678912"))), "paid <@80351110224678912>"},
		{"confirm a debt", money(sub("confirm", opt("debt", tInt, 12.0))), "confirm 12"},
		{"expense", money(sub("expense", opt("what", tString, "pizza"), opt("amount", tString, "30.00"), opt("players", tString, "<@1> <@2>"))), "expense 30.00 pizza <@1> <@2>"},
		{"export", money(sub("export")), "export money"},
		{"stats", money(sub("stats", opt("period", tString, "season"))), "stats season"},
		{"chart", money(sub("chart", opt("period", tString, "2026-01-01..2026-03-31"))), "stats chart 2026-01-01..2026-03-31"},
		{"help", money(sub("help")), "help money"},
		{"start for money", discordgo.ApplicationCommandInteractionData{Name: CommandName, Options: []*discordgo.ApplicationCommandInteractionDataOption{
			sub("start", opt("currency", tString, "USD"), opt("value", tString, "0.01"))}}, "start value=0.01 currency=USD"},
	}
	for _, tt := range tests {
		got, err := CommandText(tt.data)
		if err != nil || got != tt.want {
			t.Errorf("%s: %q, %v; want %q", tt.name, got, err, tt.want)
		}
	}
	if _, err := CommandText(discordgo.ApplicationCommandInteractionData{Name: "pokerfun"}); err == nil || !isInputError(err) {
		t.Errorf("an unknown command: %v", err)
	}
}

// Both commands pass Discord's registration rules, each within its 8,000 characters.
func TestMoneyCommandPassesDiscordsRules(t *testing.T) {
	raw, _ := json.Marshal(Commands())
	var cmds []map[string]any
	_ = json.Unmarshal(raw, &cmds)
	for _, c := range cmds {
		total := 0
		if why := checkOption(c, 0, &total); why != "" {
			t.Fatalf("/%s: %s", c["name"], why)
		}
		t.Logf("/%s uses %d of the 8,000 characters a command may have", c["name"], total)
	}
}
