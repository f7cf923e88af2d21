package discord

import (
	"context"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/dealerbot/dealerbot/bot/bottest"
)

// TestCheck: the health check says, in sentences, what works and what to click for what is missing: a
// refused token, an application ID that is not the token's, a server the bot is not in, and channels
// where the bot lacks a permission a table needs.
func TestCheck(t *testing.T) {
	all := int64(discordgo.PermissionViewChannel | discordgo.PermissionSendMessages | discordgo.PermissionAttachFiles)
	home := fakeServer{id: "7000", name: "Home game", everyone: discordgo.PermissionViewChannel, botRole: discordgo.PermissionSendMessages | discordgo.PermissionAttachFiles,
		channels: []fakeChannel{{id: "1", name: "poker", kind: 0}, {id: "2", name: "general", kind: 0, deny: discordgo.PermissionAttachFiles},
			{id: "3", name: "voice", kind: 2}}}
	tests := []struct {
		name    string
		cfg     Config
		servers []fakeServer
		want    []string // each a part of one finding, in order; a leading "✗ " marks a missing one
	}{
		{"everything in place", testConfig(), []fakeServer{{id: "7000", name: "Home game", botRole: all, channels: []fakeChannel{{id: "1", name: "poker"}}}},
			[]string{"DISCORD_TOKEN works", "is the token's application", "no privileged gateway intents", "may view, post and attach files in all 1 text channels"}},
		{"a refused token", Config{Token: "wrong", AppID: testApp}, nil,
			[]string{"✗ Discord refuses DISCORD_TOKEN (401 Unauthorized): on the Developer Portal open your application > Bot, click Reset Token"}},
		{"another application's ID", Config{Token: "test-token", AppID: "555", GuildID: "7000"}, []fakeServer{home},
			[]string{"DISCORD_TOKEN works", "✗ DISCORD_APP_ID is 555, but the token belongs to application " + testApp, "no privileged", "✗ lacks Attach Files in #general"}},
		{"not in the server", testConfig(), nil,
			[]string{"DISCORD_TOKEN works", "is the token's application", "no privileged", "✗ The bot is not in server 7000 (DISCORD_GUILD_ID)"}},
		{"in no server", Config{Token: "test-token", AppID: testApp}, nil,
			[]string{"DISCORD_TOKEN works", "is the token's application", "no privileged", "✗ The bot is in no server yet: open https://discord.com/oauth2/authorize?client_id=" + testApp}},
		{"a channel without Attach Files", testConfig(), []fakeServer{home},
			[]string{"DISCORD_TOKEN works", "is the token's application", "no privileged",
				"✗ In server Home game the bot lacks Attach Files in #general (showdown pictures are skipped there): give the bot's role Attach Files under Server Settings > Roles"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeDiscord(t, testApp)
			f.mu.Lock()
			f.servers = tt.servers
			f.mu.Unlock()
			got := Check(context.Background(), tt.cfg, f.client())
			bottest.CheckFindings(t, got, tt.want)
			for _, c := range f.since(0) {
				if c.Method != "GET" {
					t.Errorf("the check changed something: %s", c)
				}
			}
		})
	}
}
