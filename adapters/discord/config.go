package discord

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// Config is what the adapter needs to connect. Build it with ConfigFromEnv.
type Config struct {
	Token   string // bot token, without the "Bot " prefix
	AppID   string // application ID (a snowflake)
	GuildID string // optional: register /poker on this one server only, instantly
	// ShardID and ShardCount split a very large deployment over processes; each process
	// needs its own database file, because a guild always lands on the same shard.
	ShardID    int
	ShardCount int
	// CardEmojis draws cards as pictures: the application's own card emojis, uploaded at start
	// (DISCORD_CARD_EMOJIS, on unless set to off).
	CardEmojis bool
}

// Enabled reports whether Discord settings were given at all.
func (c Config) Enabled() bool { return c.Token != "" }

// ConfigFromEnv reads DISCORD_TOKEN, DISCORD_APP_ID, DISCORD_GUILD_ID, DISCORD_CARD_EMOJIS,
// DISCORD_SHARD_ID and DISCORD_SHARD_COUNT through getenv (unset reads as ""). With no token it returns a Config that is
// not Enabled and no error; with a token, every setting must be valid.
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	c := Config{
		Token:      strings.TrimSpace(getenv("DISCORD_TOKEN")),
		AppID:      strings.TrimSpace(getenv("DISCORD_APP_ID")),
		GuildID:    strings.TrimSpace(getenv("DISCORD_GUILD_ID")),
		ShardCount: 1,
		CardEmojis: true,
	}
	// People often paste the header form from examples.
	c.Token = strings.TrimSpace(strings.TrimPrefix(c.Token, "Bot "))
	if c.Token == "" {
		return Config{}, nil
	}
	if c.AppID == "" {
		return Config{}, fmt.Errorf("DISCORD_APP_ID is missing: copy the Application ID from the Discord Developer Portal (your application > General Information)")
	}
	if !isSnowflake(c.AppID) {
		return Config{}, fmt.Errorf("DISCORD_APP_ID must be the numeric Application ID from the Developer Portal, not %q", c.AppID)
	}
	if c.GuildID != "" && !isSnowflake(c.GuildID) {
		return Config{}, fmt.Errorf("DISCORD_GUILD_ID must be a numeric server ID (right-click the server > Copy Server ID) or empty, not %q", c.GuildID)
	}
	switch v := strings.ToLower(strings.TrimSpace(getenv("DISCORD_CARD_EMOJIS"))); v {
	case "", "on", "yes", "true", "1":
	case "off", "no", "false", "0":
		c.CardEmojis = false
	default:
		return Config{}, fmt.Errorf("DISCORD_CARD_EMOJIS must be on or off, not %q", v)
	}
	if v := strings.TrimSpace(getenv("DISCORD_SHARD_COUNT")); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return Config{}, fmt.Errorf("DISCORD_SHARD_COUNT must be a whole number, 1 or more, not %q", v)
		}
		c.ShardCount = n
	}
	if v := strings.TrimSpace(getenv("DISCORD_SHARD_ID")); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return Config{}, fmt.Errorf("DISCORD_SHARD_ID must be a whole number, 0 or more, not %q", v)
		}
		c.ShardID = n
	}
	if c.ShardID >= c.ShardCount {
		return Config{}, fmt.Errorf("DISCORD_SHARD_ID must be less than DISCORD_SHARD_COUNT (%d), not %d: shards are numbered from 0", c.ShardCount, c.ShardID)
	}
	return c, nil
}

// isSnowflake reports whether s looks like a Discord ID: decimal digits only.
func isSnowflake(s string) bool {
	if s == "" || len(s) > 20 {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// Permissions is what the bot needs in a table's channel: see it, post the table's messages there,
// also inside threads, and attach the showdown picture to them. Interaction replies, ephemeral
// messages and DMs need no channel permission.
const Permissions int64 = discordgo.PermissionViewChannel |
	discordgo.PermissionSendMessages |
	discordgo.PermissionSendMessagesInThreads |
	discordgo.PermissionAttachFiles

// InviteURL is the link a server admin opens to add the bot with the scopes and permissions it needs.
func (c Config) InviteURL() string {
	q := url.Values{}
	q.Set("client_id", c.AppID)
	q.Set("scope", "bot applications.commands")
	q.Set("permissions", strconv.FormatInt(Permissions, 10))
	return "https://discord.com/oauth2/authorize?" + q.Encode()
}
