package discord

import (
	"crypto/ed25519"
	"encoding/hex"
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
	// PublicKey is the application's Ed25519 public key in hex (DISCORD_PUBLIC_KEY, the Public Key on
	// General Information). With it the adapter serves Discord's Interactions Endpoint (Routes),
	// where every request must carry a signature made with the matching private key.
	PublicKey string
	// ListenAddr is DEALERBOT_LISTEN_ADDR, the address dealerbot's HTTP front doors are served on
	// (by cmd/dealerbot); the adapter only needs to know that it is set.
	ListenAddr string
	// GatewayOff (DISCORD_GATEWAY=off) opens no gateway websocket: interactions arrive only at the
	// Interactions Endpoint. Commands and card emojis are still set up over REST at start.
	GatewayOff bool
	// RESTProxy is DISCORD_REST_PROXY: the base URL of a rate-limit proxy (nirn-proxy, or any proxy
	// that takes Discord's REST paths as they are) that every REST request goes through instead of
	// https://discord.com, so that processes sharing one bot token share one view of its limits.
	RESTProxy string
	// GlobalShare is DISCORD_GLOBAL_SHARE: how many processes share the bot token's global limit of
	// 50 requests a second without a proxy. This process keeps itself to its share of 45 a second
	// (globalBudget). 0: no limit of the adapter's own (ConfigFromEnv's default with RESTProxy; 1
	// without).
	GlobalShare int
	// EphemeralCards (DISCORD_HOLE_CARDS=ephemeral) shows hole cards as an ephemeral follow-up on the
	// player's own recent interaction in the table's channel, which costs none of the global limit,
	// and by DM only when the player has none. The default is a DM.
	EphemeralCards bool
}

// Endpoint reports whether the adapter serves the Interactions Endpoint.
func (c Config) Endpoint() bool { return c.PublicKey != "" }

// publicKey is the decoded PublicKey; ConfigFromEnv has checked it.
func (c Config) publicKey() ed25519.PublicKey {
	k, err := parsePublicKey(c.PublicKey)
	if err != nil {
		return nil
	}
	return k
}

// parsePublicKey reads a hex Ed25519 public key as the Developer Portal shows it (64 hex digits).
func parsePublicKey(s string) (ed25519.PublicKey, error) {
	b, err := hex.DecodeString(s)
	if err == nil && len(b) == ed25519.PublicKeySize {
		return ed25519.PublicKey(b), nil
	}
	// The value is not repeated: a token pasted into the wrong line would end up in the log.
	what := fmt.Sprintf("%d characters", len(s))
	if err != nil {
		what += ", not all of them hexadecimal"
	}
	return nil, fmt.Errorf("DISCORD_PUBLIC_KEY must be the Public Key from the Developer Portal (your application > General Information), "+
		"64 characters of 0-9 and a-f; the value set has %s", what)
}

// Enabled reports whether Discord settings were given at all.
func (c Config) Enabled() bool { return c.Token != "" }

// ConfigFromEnv reads DISCORD_TOKEN, DISCORD_APP_ID, DISCORD_GUILD_ID, DISCORD_CARD_EMOJIS,
// DISCORD_SHARD_ID, DISCORD_SHARD_COUNT, DISCORD_PUBLIC_KEY, DISCORD_GATEWAY, DEALERBOT_LISTEN_ADDR,
// DISCORD_REST_PROXY, DISCORD_GLOBAL_SHARE and DISCORD_HOLE_CARDS through getenv (unset reads as "").
// With no token it returns a Config that is not Enabled and no error; with a token, every setting
// must be valid.
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
	if err := c.endpointFromEnv(getenv); err != nil {
		return Config{}, err
	}
	if err := c.limitsFromEnv(getenv); err != nil {
		return Config{}, err
	}
	return c, nil
}

// globalBudget is how many requests a second the processes sharing a bot token allow themselves
// together without a proxy: Discord's global limit is 50, and the tenth left over absorbs the
// difference between when a process sends a request and when Discord counts it.
const globalBudget = 45

// limitsFromEnv reads how this process shares the bot token's REST limits, and how hole cards travel.
func (c *Config) limitsFromEnv(getenv func(string) string) error {
	if v := strings.TrimSpace(getenv("DISCORD_REST_PROXY")); v != "" {
		u, err := url.Parse(v)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || strings.Trim(u.Path, "/") != "" || u.RawQuery != "" || u.User != nil {
			return fmt.Errorf("DISCORD_REST_PROXY must be the base URL of the rate-limit proxy, such as http://nirn-proxy:8080, "+
				"with no path, query or password, not %q", v)
		}
		c.RESTProxy = u.Scheme + "://" + u.Host
	}
	c.GlobalShare = 1
	if c.RESTProxy != "" {
		c.GlobalShare = 0 // the proxy keeps every process within the limits
	}
	if v := strings.TrimSpace(getenv("DISCORD_GLOBAL_SHARE")); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > globalBudget {
			return fmt.Errorf("DISCORD_GLOBAL_SHARE must be the number of dealerbot processes sharing the bot token, 1 to %d, not %q "+
				"(more processes than that need DISCORD_REST_PROXY)", globalBudget, v)
		}
		c.GlobalShare = n
	}
	switch v := strings.ToLower(strings.TrimSpace(getenv("DISCORD_HOLE_CARDS"))); v {
	case "", "dm":
	case "ephemeral":
		c.EphemeralCards = true
	default:
		return fmt.Errorf("DISCORD_HOLE_CARDS must be dm (the default: cards by direct message) or ephemeral "+
			"(cards shown only to the player in the table's channel, by DM when that cannot be done), not %q", v)
	}
	return nil
}

// globalPerSecond is how many requests counted against the bot's global limit this process allows
// itself each second; 0 for no limit of its own.
func (c Config) globalPerSecond() int {
	if c.GlobalShare <= 0 {
		return 0
	}
	return max(globalBudget/c.GlobalShare, 1)
}

// endpointFromEnv reads the Interactions Endpoint's settings: a well-formed public key, an address
// to serve it on, and whether the gateway is opened too.
func (c *Config) endpointFromEnv(getenv func(string) string) error {
	c.PublicKey = strings.ToLower(strings.TrimSpace(getenv("DISCORD_PUBLIC_KEY")))
	c.ListenAddr = strings.TrimSpace(getenv("DEALERBOT_LISTEN_ADDR"))
	switch v := strings.ToLower(strings.TrimSpace(getenv("DISCORD_GATEWAY"))); v {
	case "", "on", "yes", "true", "1":
	case "off", "no", "false", "0":
		c.GatewayOff = true
	default:
		return fmt.Errorf("DISCORD_GATEWAY must be on or off, not %q", v)
	}
	if c.PublicKey != "" {
		if _, err := parsePublicKey(c.PublicKey); err != nil {
			return err
		}
		if c.ListenAddr == "" {
			return fmt.Errorf("DISCORD_PUBLIC_KEY is set but DEALERBOT_LISTEN_ADDR is not: set the address to serve %s on, such as :8080 "+
				"(behind an HTTPS proxy whose public URL is the Interactions Endpoint URL), or remove DISCORD_PUBLIC_KEY to use the gateway alone", InteractionsPath)
		}
	}
	if c.GatewayOff && c.PublicKey == "" {
		return fmt.Errorf("DISCORD_GATEWAY=off needs DISCORD_PUBLIC_KEY and DEALERBOT_LISTEN_ADDR: without the gateway, interactions arrive only at the Interactions Endpoint URL")
	}
	return nil
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
