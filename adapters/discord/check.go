package discord

import (
	"context"
	"errors"
	"fmt"
	"net/http"
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
// their text channels. client is the HTTP client to reach Discord with (nil: the default). It makes
// read-only REST calls and never connects to the gateway.
func Check(ctx context.Context, cfg Config, client *http.Client) []bot.Finding {
	s, err := discordgo.New("Bot " + cfg.Token)
	if err != nil {
		return []bot.Finding{{Text: fmt.Sprintf("DISCORD_TOKEN cannot be used: %v.", err)}}
	}
	if client != nil {
		s.Client = client
	}
	opt := discordgo.WithContext(ctx)
	var out []bot.Finding
	me, err := s.User("@me", opt)
	if err != nil {
		if status(err) == http.StatusUnauthorized {
			return append(out, bot.Finding{Text: "Discord refuses DISCORD_TOKEN (401 Unauthorized): on the Developer Portal open your application > Bot, " +
				"click Reset Token and copy the new token into DISCORD_TOKEN."})
		}
		return append(out, bot.Finding{Text: fmt.Sprintf("Discord could not be reached to check DISCORD_TOKEN: %v. Check the machine's network and try again.", err)})
	}
	out = append(out, bot.Finding{OK: true, Text: fmt.Sprintf("DISCORD_TOKEN works: the bot is %s (user %s).", me.Username, me.ID)})

	app, err := s.Application("@me")
	switch {
	case err != nil:
		out = append(out, bot.Finding{Text: fmt.Sprintf("The application of the token could not be read (%v), so DISCORD_APP_ID was not checked.", err)})
	case app.ID != cfg.AppID:
		out = append(out, bot.Finding{Text: fmt.Sprintf("DISCORD_APP_ID is %s, but the token belongs to application %s: copy the Application ID from the Developer Portal > your application > General Information.", cfg.AppID, app.ID)})
	default:
		out = append(out, bot.Finding{OK: true, Text: fmt.Sprintf("DISCORD_APP_ID %s is the token's application (%s).", app.ID, app.Name)})
	}
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
