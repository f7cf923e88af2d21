package discord

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/dealerbot/dealerbot/bot/bottest"
)

// TestCheck: the health check says, in sentences, what works and what to click for what is missing: a
// refused token, an application ID that is not the token's, a server the bot is not in, channels
// where the bot lacks a permission a table needs, and how interactions reach the bot: over the
// gateway, or at the Interactions Endpoint (the public key the application's, the address to listen
// on well-formed, the Developer Portal's URL pointing at it, the gateway on or off).
func TestCheck(t *testing.T) {
	all := int64(discordgo.PermissionViewChannel | discordgo.PermissionSendMessages | discordgo.PermissionAttachFiles)
	home := fakeServer{id: "7000", name: "Home game", everyone: discordgo.PermissionViewChannel, botRole: discordgo.PermissionSendMessages | discordgo.PermissionAttachFiles,
		channels: []fakeChannel{{id: "1", name: "poker", kind: 0}, {id: "2", name: "general", kind: 0, deny: discordgo.PermissionAttachFiles},
			{id: "3", name: "voice", kind: 2}}}
	ours := []fakeServer{{id: "7000", name: "Home game", botRole: all, channels: []fakeChannel{{id: "1", name: "poker"}}}}
	endpoint := func(gatewayOff bool, addr string) Config {
		c := testConfig()
		c.PublicKey, c.ListenAddr, c.GatewayOff = testPublicKey, addr, gatewayOff
		return c
	}
	hosted := testConfig()
	hosted.GlobalShare, hosted.EphemeralCards = 3, true
	otherKey := endpoint(true, ":8080")
	otherKey.PublicKey = strings.Repeat("ab", 32)
	const url = "https://poker.example.com/discord/interactions"
	tests := []struct {
		name    string
		cfg     Config
		servers []fakeServer
		portal  string   // the Interactions Endpoint URL on the Developer Portal
		want    []string // each a part of one finding, in order; a leading "✗ " marks a missing one
	}{
		{"everything in place", testConfig(), ours, "",
			[]string{"DISCORD_TOKEN works", "is the token's application", "Interactions arrive over the gateway", "no privileged gateway intents", "may view, post and attach files in all 1 text channels"}},
		{"a refused token", Config{Token: "wrong", AppID: testApp}, nil, "",
			[]string{"✗ Discord refuses DISCORD_TOKEN (401 Unauthorized): on the Developer Portal open your application > Bot, click Reset Token"}},
		{"another application's ID", Config{Token: "test-token", AppID: "555", GuildID: "7000"}, []fakeServer{home}, "",
			[]string{"DISCORD_TOKEN works", "✗ DISCORD_APP_ID is 555, but the token belongs to application " + testApp, "over the gateway", "no privileged", "✗ lacks Attach Files in #general"}},
		{"not in the server", testConfig(), nil, "",
			[]string{"DISCORD_TOKEN works", "is the token's application", "over the gateway", "no privileged", "✗ The bot is not in server 7000 (DISCORD_GUILD_ID)"}},
		{"in no server", Config{Token: "test-token", AppID: testApp}, nil, "",
			[]string{"DISCORD_TOKEN works", "is the token's application", "over the gateway", "no privileged", "✗ The bot is in no server yet: open https://discord.com/oauth2/authorize?client_id=" + testApp}},
		{"a channel without Attach Files", testConfig(), []fakeServer{home}, "",
			[]string{"DISCORD_TOKEN works", "is the token's application", "over the gateway", "no privileged",
				"✗ In server Home game the bot lacks Attach Files in #general (showdown pictures are skipped there): give the bot's role Attach Files under Server Settings > Roles"}},
		{"the endpoint alone", endpoint(true, ":8080"), ours, url,
			[]string{"DISCORD_TOKEN works", "is the token's application", "DISCORD_PUBLIC_KEY is the application's Public Key",
				"The Developer Portal sends interactions to " + url + "; dealerbot serves POST /discord/interactions on DEALERBOT_LISTEN_ADDR :8080, which that URL must reach over HTTPS",
				"The gateway is off (DISCORD_GATEWAY=off): no websocket is opened", "no privileged", "may view, post and attach files"}},
		{"the endpoint beside the gateway, no URL on the portal yet", endpoint(false, "127.0.0.1:8080"), ours, "",
			[]string{"DISCORD_TOKEN works", "is the token's application", "is the application's Public Key",
				"interactions arrive over the gateway until the Developer Portal's Interactions Endpoint URL (General Information) is set to https://<this server's public name>/discord/interactions",
				"The gateway is on as well", "no privileged", "may view"}},
		{"the endpoint alone, no URL on the portal", endpoint(true, ":8080"), ours, "",
			[]string{"DISCORD_TOKEN works", "is the token's application", "is the application's Public Key",
				"✗ dealerbot serves POST /discord/interactions on DEALERBOT_LISTEN_ADDR :8080, but the Developer Portal has no Interactions Endpoint URL, and the gateway is off, so no interaction arrives",
				"The gateway is off", "no privileged", "may view"}},
		{"another application's public key", otherKey, ours, url,
			[]string{"DISCORD_TOKEN works", "is the token's application", "✗ DISCORD_PUBLIC_KEY is not the application's Public Key, so every interaction would be refused",
				"The Developer Portal sends interactions to " + url, "The gateway is off", "no privileged", "may view"}},
		{"a URL on the portal for another path", endpoint(true, ":8080"), ours, "https://poker.example.com/interactions",
			[]string{"DISCORD_TOKEN works", "is the token's application", "is the application's Public Key",
				"✗ The Developer Portal sends interactions to https://poker.example.com/interactions, but dealerbot serves POST /discord/interactions on DEALERBOT_LISTEN_ADDR :8080: make the URL's path /discord/interactions",
				"The gateway is off", "no privileged", "may view"}},
		{"a listen address without a port", endpoint(true, "8080"), ours, url,
			[]string{"DISCORD_TOKEN works", "is the token's application", "is the application's Public Key",
				"✗ DEALERBOT_LISTEN_ADDR \"8080\" is not an address to listen on: write host:port or :port, such as :8080", "The gateway is off", "no privileged", "may view"}},
		{"three processes, cards ephemeral", hosted, ours, "",
			[]string{"DISCORD_TOKEN works", "is the token's application", "over the gateway",
				"This process keeps itself under 15 requests a second of the bot's global limit (DISCORD_GLOBAL_SHARE=3): run at most 3 processes",
				"Hole cards are shown only to their player in the table's channel (DISCORD_HOLE_CARDS=ephemeral)", "no privileged", "may view"}},
		{"a URL on the portal but no endpoint served", testConfig(), ours, url,
			[]string{"DISCORD_TOKEN works", "is the token's application",
				"✗ The Developer Portal sends interactions to " + url + " (General Information > Interactions Endpoint URL), so none arrive over the gateway: set DISCORD_PUBLIC_KEY and DEALERBOT_LISTEN_ADDR to serve that endpoint, or clear the URL",
				"no privileged", "may view"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeDiscord(t, testApp)
			f.mu.Lock()
			f.servers = tt.servers
			f.portalURL = tt.portal
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

// TestCheckThroughProxy: with DISCORD_REST_PROXY the check reaches Discord through the proxy, as the
// dealer does, and says so; a proxy that is not running is named as what to fix.
func TestCheckThroughProxy(t *testing.T) {
	f := newFakeDiscord(t, testApp)
	f.mu.Lock()
	f.servers = []fakeServer{{id: "7000", name: "Home game", botRole: discordgo.PermissionViewChannel | discordgo.PermissionSendMessages | discordgo.PermissionAttachFiles,
		channels: []fakeChannel{{id: "1", name: "poker"}}}}
	f.mu.Unlock()
	p := newFakeProxy(t, f)
	cfg := testConfig()
	cfg.RESTProxy = p.srv.URL
	got := Check(context.Background(), cfg, &http.Client{})
	bottest.CheckFindings(t, got, []string{"DISCORD_TOKEN works", "is the token's application", "over the gateway",
		"REST requests go through the rate-limit proxy at " + p.srv.URL + " (DISCORD_REST_PROXY), which answered", "no privileged", "may view"})
	p.mu.Lock()
	if p.seen["GET /users/@me"] == 0 {
		t.Errorf("the check did not go through the proxy: %v", p.seen)
	}
	p.mu.Unlock()

	p.srv.Close()
	got = Check(context.Background(), cfg, &http.Client{})
	bottest.CheckFindings(t, got, []string{"✗ The rate-limit proxy DISCORD_REST_PROXY (" + p.srv.URL + ") could not be reached"})
}
