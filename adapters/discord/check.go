package discord

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"sort"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/dealerbot/dealerbot/bot"
)

// maxCheckedServers bounds how many servers a check without DISCORD_GUILD_ID looks at.
const maxCheckedServers = 5

// maxNamedChannels bounds how many channels one finding names.
const maxNamedChannels = 8

// Check tells an operator, in sentences, whether the bot can run with cfg: the token works, the
// application ID is the token's, the bot is in its server(s) and may view, post and attach files in
// their text channels. client is the HTTP client to reach Discord with (nil: the default); with
// DISCORD_REST_PROXY the check goes through the proxy, as the dealer does. It makes read-only REST
// calls and never connects to the gateway.
func Check(ctx context.Context, cfg Config, client *http.Client) []bot.Finding {
	s, err := discordgo.New("Bot " + cfg.Token)
	if err != nil {
		return []bot.Finding{{Text: fmt.Sprintf("DISCORD_TOKEN cannot be used: %v.", err)}}
	}
	if client != nil {
		s.Client = client
	}
	if proxy, err := url.Parse(cfg.RESTProxy); cfg.RESTProxy != "" && err == nil {
		next := s.Client.Transport
		if next == nil {
			next = http.DefaultTransport
		}
		s.Client = &http.Client{Timeout: s.Client.Timeout, Transport: &restTransport{proxy: proxy, next: next}}
	}
	opt := discordgo.WithContext(ctx)
	var out []bot.Finding
	me, err := s.User("@me", opt)
	if err != nil {
		if status(err) == http.StatusUnauthorized {
			return append(out, bot.Finding{Text: "Discord refuses DISCORD_TOKEN (401 Unauthorized): on the Developer Portal open your application > Bot, " +
				"click Reset Token and copy the new token into DISCORD_TOKEN."})
		}
		if cfg.RESTProxy != "" && status(err) == 0 {
			return append(out, bot.Finding{Text: fmt.Sprintf("The rate-limit proxy DISCORD_REST_PROXY (%s) could not be reached: %v. Start it, or check the address.", cfg.RESTProxy, err)})
		}
		return append(out, bot.Finding{Text: fmt.Sprintf("Discord could not be reached to check DISCORD_TOKEN: %v. Check the machine's network and try again.", err)})
	}
	out = append(out, bot.Finding{OK: true, Text: fmt.Sprintf("DISCORD_TOKEN works: the bot is %s (user %s).", me.Username, me.ID)})

	app, err := readApplication(s, opt)
	switch {
	case err != nil:
		out = append(out, bot.Finding{Text: fmt.Sprintf("The application of the token could not be read (%v), so DISCORD_APP_ID was not checked.", err)})
	case app.ID != cfg.AppID:
		out = append(out, bot.Finding{Text: fmt.Sprintf("DISCORD_APP_ID is %s, but the token belongs to application %s: copy the Application ID from the Developer Portal > your application > General Information.", cfg.AppID, app.ID)})
	default:
		out = append(out, bot.Finding{OK: true, Text: fmt.Sprintf("DISCORD_APP_ID %s is the token's application (%s).", app.ID, app.Name)})
	}
	out = append(out, checkEndpoint(cfg, app)...)
	out = append(out, checkLimits(cfg)...)
	out = append(out, bot.Finding{OK: true, Text: "dealerbot needs no privileged gateway intents (Presence, Server Members, Message Content): they may stay off on the Bot page."})

	var servers []string
	if cfg.GuildID != "" {
		if _, err := s.Guild(cfg.GuildID, opt); err != nil {
			return append(out, bot.Finding{Text: fmt.Sprintf("The bot is not in server %s (DISCORD_GUILD_ID), so /%s cannot be registered there: open %s, pick that server and click Authorize.",
				cfg.GuildID, CommandName, cfg.InviteURL())})
		}
		servers = []string{cfg.GuildID}
	} else {
		gs, err := s.UserGuilds(maxCheckedServers, "", "", false, opt)
		if err != nil {
			return append(out, bot.Finding{Text: fmt.Sprintf("The bot's servers could not be listed: %v.", err)})
		}
		if len(gs) == 0 {
			return append(out, bot.Finding{Text: fmt.Sprintf("The bot is in no server yet: open %s, pick your server and click Authorize.", cfg.InviteURL())})
		}
		for _, g := range gs {
			servers = append(servers, g.ID)
		}
	}
	for _, id := range servers {
		out = append(out, checkServer(ctx, s, me.ID, id)...)
	}
	return out
}

// application is what the check reads of the token's application; discordgo's Application has no
// field for the Interactions Endpoint URL.
type application struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	VerifyKey string `json:"verify_key"` // the Public Key, in hex
	// InteractionsEndpointURL is set on the Developer Portal: Discord then sends every interaction
	// there and none over the gateway.
	InteractionsEndpointURL string `json:"interactions_endpoint_url"`
}

func readApplication(s *discordgo.Session, opt discordgo.RequestOption) (*application, error) {
	body, err := s.RequestWithBucketID("GET", discordgo.EndpointOAuth2Application("@me"), nil, discordgo.EndpointOAuth2Application(""), opt)
	if err != nil {
		return nil, err
	}
	var app application
	if err := json.Unmarshal(body, &app); err != nil {
		return nil, err
	}
	return &app, nil
}

// checkEndpoint reports how interactions reach the bot: over the gateway, at the Interactions
// Endpoint, or both; and for the endpoint, whether DISCORD_PUBLIC_KEY is the application's, where
// it is served and whether the Developer Portal sends interactions there. app is nil when it could
// not be read.
func checkEndpoint(cfg Config, app *application) []bot.Finding {
	portal := ""
	if app != nil {
		portal = app.InteractionsEndpointURL
	}
	if !cfg.Endpoint() {
		if portal != "" {
			return []bot.Finding{{Text: fmt.Sprintf("The Developer Portal sends interactions to %s (General Information > Interactions Endpoint URL), so none arrive over the gateway: "+
				"set DISCORD_PUBLIC_KEY and DEALERBOT_LISTEN_ADDR to serve that endpoint, or clear the URL.", portal)}}
		}
		return []bot.Finding{{OK: true, Text: "Interactions arrive over the gateway (DISCORD_PUBLIC_KEY is not set and the Developer Portal has no Interactions Endpoint URL)."}}
	}
	var out []bot.Finding
	switch {
	case app == nil:
		out = append(out, bot.Finding{OK: true, Text: "DISCORD_PUBLIC_KEY is a well-formed Ed25519 public key (the application's could not be read to compare)."})
	case !strings.EqualFold(app.VerifyKey, cfg.PublicKey):
		out = append(out, bot.Finding{Text: "DISCORD_PUBLIC_KEY is not the application's Public Key, so every interaction would be refused: " +
			"copy the Public Key from the Developer Portal > your application > General Information."})
	default:
		out = append(out, bot.Finding{OK: true, Text: "DISCORD_PUBLIC_KEY is the application's Public Key."})
	}
	served := fmt.Sprintf("dealerbot serves POST %s on DEALERBOT_LISTEN_ADDR %s", InteractionsPath, cfg.ListenAddr)
	if _, _, err := net.SplitHostPort(cfg.ListenAddr); err != nil {
		out = append(out, bot.Finding{Text: fmt.Sprintf("DEALERBOT_LISTEN_ADDR %q is not an address to listen on: write host:port or :port, such as :8080.", cfg.ListenAddr)})
	} else {
		switch u, err := url.Parse(portal); {
		case app == nil:
			out = append(out, bot.Finding{OK: true, Text: served + "; the Developer Portal's Interactions Endpoint URL could not be read."})
		case portal == "" && cfg.GatewayOff:
			out = append(out, bot.Finding{Text: served + ", but the Developer Portal has no Interactions Endpoint URL, and the gateway is off, so no interaction arrives: " +
				"set General Information > Interactions Endpoint URL to https://<this server's public name>" + InteractionsPath + "."})
		case portal == "":
			out = append(out, bot.Finding{OK: true, Text: served + "; interactions arrive over the gateway until the Developer Portal's Interactions Endpoint URL " +
				"(General Information) is set to https://<this server's public name>" + InteractionsPath + "."})
		case err != nil || u.Path != InteractionsPath:
			out = append(out, bot.Finding{Text: fmt.Sprintf("The Developer Portal sends interactions to %s, but %s: make the URL's path %s (unless a proxy in front rewrites it).", portal, served, InteractionsPath)})
		default:
			out = append(out, bot.Finding{OK: true, Text: fmt.Sprintf("The Developer Portal sends interactions to %s; %s, which that URL must reach over HTTPS.", portal, served)})
		}
	}
	if cfg.GatewayOff {
		out = append(out, bot.Finding{OK: true, Text: "The gateway is off (DISCORD_GATEWAY=off): no websocket is opened; /" + CommandName + " and the card emojis are set up over REST at start."})
	} else {
		out = append(out, bot.Finding{OK: true, Text: "The gateway is on as well: it carries the interactions while the Developer Portal has no Interactions Endpoint URL; " +
			"once it has one, DISCORD_GATEWAY=off saves the connection."})
	}
	return out
}

// checkLimits says how this process shares the bot token's REST limits and how hole cards travel,
// when either is not the default (one process, cards by DM): the default says nothing.
func checkLimits(cfg Config) []bot.Finding {
	var out []bot.Finding
	if cfg.RESTProxy != "" {
		out = append(out, bot.Finding{OK: true, Text: fmt.Sprintf("REST requests go through the rate-limit proxy at %s (DISCORD_REST_PROXY), which answered: "+
			"every process using this bot token must go through it too.", cfg.RESTProxy)})
	}
	if cfg.GlobalShare > 1 {
		out = append(out, bot.Finding{OK: true, Text: fmt.Sprintf("This process keeps itself under %d requests a second of the bot's global limit (DISCORD_GLOBAL_SHARE=%d): "+
			"run at most %d processes with this bot token.", cfg.globalPerSecond(), cfg.GlobalShare, cfg.GlobalShare)})
	}
	if cfg.EphemeralCards {
		out = append(out, bot.Finding{OK: true, Text: "Hole cards are shown only to their player in the table's channel (DISCORD_HOLE_CARDS=ephemeral), " +
			"by DM to a player who has not clicked or typed /" + CommandName + " there in the last 14 minutes."})
	}
	return out
}

// needed are the channel permissions a table needs, with the names Discord shows for them.
var needed = []struct {
	bit  int64
	name string
}{
	{discordgo.PermissionViewChannel, "View Channel"},
	{discordgo.PermissionSendMessages, "Send Messages"},
	{discordgo.PermissionAttachFiles, "Attach Files"},
}

// checkServer reports, for one server, the text channels where the bot lacks a permission a table needs.
func checkServer(ctx context.Context, s *discordgo.Session, botID, id string) []bot.Finding {
	opt := discordgo.WithContext(ctx)
	g, err := s.Guild(id, opt)
	if err != nil {
		return []bot.Finding{{Text: fmt.Sprintf("Server %s could not be read: %v.", id, err)}}
	}
	chans, err := s.GuildChannels(id, opt)
	if err != nil {
		return []bot.Finding{{Text: fmt.Sprintf("The channels of server %s could not be listed: %v.", g.Name, err)}}
	}
	lacking := map[string][]string{} // permission name -> channels
	text := 0
	for _, c := range chans {
		if c.Type != discordgo.ChannelTypeGuildText {
			continue
		}
		text++
		perms, err := s.UserChannelPermissions(botID, c.ID, opt)
		if err != nil {
			return []bot.Finding{{Text: fmt.Sprintf("The bot's permissions in #%s (server %s) could not be read: %v.", c.Name, g.Name, err)}}
		}
		for _, n := range needed {
			if perms&n.bit == 0 {
				lacking[n.name] = append(lacking[n.name], "#"+c.Name)
			}
		}
	}
	if len(lacking) == 0 {
		return []bot.Finding{{OK: true, Text: fmt.Sprintf("In server %s the bot may view, post and attach files in all %d text channels.", g.Name, text)}}
	}
	var out []bot.Finding
	for _, n := range needed {
		where := lacking[n.name]
		if len(where) == 0 {
			continue
		}
		sort.Strings(where)
		more := ""
		if len(where) > maxNamedChannels {
			more = fmt.Sprintf(" and %d more", len(where)-maxNamedChannels)
			where = where[:maxNamedChannels]
		}
		why := map[string]string{"View Channel": "it cannot see the channel or its commands there",
			"Send Messages": "it cannot post the table there", "Attach Files": "showdown pictures are skipped there"}[n.name]
		out = append(out, bot.Finding{Text: fmt.Sprintf("In server %s the bot lacks %s in %s%s (%s): give the bot's role %s under Server Settings > Roles, "+
			"or allow it in each channel's Edit Channel > Permissions.", g.Name, n.name, strings.Join(where, ", "), more, why, n.name)})
	}
	return out
}

// status is the HTTP status of a REST error, or 0.
func status(err error) int {
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Response != nil {
		return re.Response.StatusCode
	}
	return 0
}
