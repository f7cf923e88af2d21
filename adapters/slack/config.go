package slack

import (
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// Mode is how the adapter talks to Slack.
type Mode int

// The connection modes.
const (
	// Off means no Slack settings are present: the adapter is not used.
	Off Mode = iota
	// SocketMode connects out to Slack over a WebSocket; no public URL is needed.
	SocketMode
	// HTTPMode listens for Slack's signed HTTP requests on ListenAddr.
	HTTPMode
	// OAuthMode serves every workspace that installs the app (Slack's OAuth v2): HTTP mode with a bot
	// token per workspace, kept in the dealer's database, sealed with SecretKey.
	OAuthMode
)

func (m Mode) String() string {
	switch m {
	case SocketMode:
		return "socket mode"
	case HTTPMode:
		return "HTTP mode"
	case OAuthMode:
		return "HTTP mode for many workspaces (OAuth)"
	}
	return "off"
}

// Config holds the Slack settings. Build it with ConfigFromEnv.
type Config struct {
	BotToken      string // SLACK_BOT_TOKEN, xoxb-...
	AppToken      string // SLACK_APP_TOKEN, xapp-..., Socket Mode
	SigningSecret string // SLACK_SIGNING_SECRET, HTTP mode
	ListenAddr    string // SLACK_LISTEN_ADDR, HTTP mode, such as ":3000"
	// Shared is set when DEALERBOT_LISTEN_ADDR serves dealerbot's HTTP front doors: with
	// SLACK_LISTEN_ADDR empty, Slack's endpoints are mounted there (Routes) instead.
	Shared bool

	// Many workspaces (OAuth mode), instead of BotToken: the app's credentials, and the key that seals
	// each workspace's bot token in the database.
	ClientID     string // SLACK_CLIENT_ID
	ClientSecret string // SLACK_CLIENT_SECRET
	SecretKey    []byte // DEALERBOT_SECRET_KEY, decoded: 32 bytes (AES-256)

	// APIURL replaces https://slack.com/api/ (tests point it at a fake server). Empty means Slack.
	APIURL string
}

// ConfigFromEnv reads SLACK_BOT_TOKEN, SLACK_APP_TOKEN, SLACK_SIGNING_SECRET, SLACK_LISTEN_ADDR,
// SLACK_CLIENT_ID and SLACK_CLIENT_SECRET through getenv, and, for many workspaces,
// DEALERBOT_SECRET_KEY. With none of them set it returns a Config whose Mode is Off and no error. A
// half-finished setup gets an error that says which setting to fill in and where its value comes from.
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	c := Config{
		BotToken:      strings.TrimSpace(getenv("SLACK_BOT_TOKEN")),
		AppToken:      strings.TrimSpace(getenv("SLACK_APP_TOKEN")),
		SigningSecret: strings.TrimSpace(getenv("SLACK_SIGNING_SECRET")),
		ListenAddr:    strings.TrimSpace(getenv("SLACK_LISTEN_ADDR")),
		Shared:        strings.TrimSpace(getenv("DEALERBOT_LISTEN_ADDR")) != "",
		ClientID:      strings.TrimSpace(getenv("SLACK_CLIENT_ID")),
		ClientSecret:  strings.TrimSpace(getenv("SLACK_CLIENT_SECRET")),
	}
	if c.Mode() == OAuthMode {
		if raw := strings.TrimSpace(getenv("DEALERBOT_SECRET_KEY")); raw != "" {
			key, err := ParseSecretKey(raw)
			if err != nil {
				return c, err
			}
			c.SecretKey = key
		}
	}
	return c, c.Validate()
}

// ParseSecretKey decodes DEALERBOT_SECRET_KEY: 32 bytes written as 64 hex digits or in base64
// (standard or URL alphabet, padded or not). The error never repeats the value.
func ParseSecretKey(s string) ([]byte, error) {
	const how = "make one with `openssl rand -hex 32` and keep it: the stored bot tokens open only with the key they were sealed with"
	if key, err := hex.DecodeString(s); err == nil {
		if len(key) != 32 {
			return nil, fmt.Errorf("DEALERBOT_SECRET_KEY is %d hex digits; it must be 64 (32 bytes): %s", len(s), how)
		}
		return key, nil
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		key, err := enc.DecodeString(s)
		if err != nil {
			continue
		}
		if len(key) != 32 {
			return nil, fmt.Errorf("DEALERBOT_SECRET_KEY is %d bytes in base64; it must be 32 bytes (44 characters of base64, or 64 hex digits): %s", len(key), how)
		}
		return key, nil
	}
	return nil, fmt.Errorf("DEALERBOT_SECRET_KEY is neither hex nor base64; it must be 32 bytes, 64 hex digits or 44 characters of base64: %s", how)
}

// Mode says which connection the settings ask for: many workspaces when the app's client ID or secret
// is set without a bot token, Socket Mode when an app token is set, HTTP mode when a signing secret
// and listen address are set instead, Off when nothing is set.
func (c Config) Mode() Mode {
	switch {
	case c.BotToken == "" && c.AppToken == "" && c.SigningSecret == "" && c.ListenAddr == "" && c.ClientID == "" && c.ClientSecret == "":
		return Off
	case c.BotToken == "" && (c.ClientID != "" || c.ClientSecret != ""):
		return OAuthMode
	case c.AppToken != "":
		return SocketMode
	case c.SigningSecret != "" || c.ListenAddr != "":
		return HTTPMode
	}
	return SocketMode
}

// Validate reports the first setting that is missing or malformed, in a sentence that says what to do.
func (c Config) Validate() error {
	mode := c.Mode()
	if mode == Off {
		return nil
	}
	if c.BotToken != "" && (c.ClientID != "" || c.ClientSecret != "") {
		return errors.New("set SLACK_BOT_TOKEN to serve one workspace, or SLACK_CLIENT_ID and SLACK_CLIENT_SECRET to serve every workspace that installs the app, not both: clear one of them")
	}
	if mode == OAuthMode {
		return c.validateOAuth()
	}
	if c.BotToken == "" {
		return errors.New("SLACK_BOT_TOKEN is empty: copy the Bot User OAuth Token (xoxb-...) from your Slack app's OAuth & Permissions page, or clear the other SLACK_ settings to run without Slack")
	}
	if !strings.HasPrefix(c.BotToken, "xoxb-") {
		return errors.New("SLACK_BOT_TOKEN must be the bot token that starts with xoxb- (OAuth & Permissions > Bot User OAuth Token), not a user or app-level token")
	}
	if c.AppToken == "" && c.SigningSecret == "" && c.ListenAddr == "" {
		return errors.New("only SLACK_BOT_TOKEN is set: add SLACK_APP_TOKEN (xapp-..., Basic Information > App-Level Tokens, scope connections:write) for Socket Mode, " +
			"or SLACK_SIGNING_SECRET and SLACK_LISTEN_ADDR for HTTP mode")
	}
	switch mode {
	case SocketMode:
		if !strings.HasPrefix(c.AppToken, "xapp-") {
			return errors.New("SLACK_APP_TOKEN must be an app-level token that starts with xapp- (Basic Information > App-Level Tokens, with the connections:write scope)")
		}
		if c.ListenAddr != "" {
			return errors.New("set either SLACK_APP_TOKEN (Socket Mode) or SLACK_SIGNING_SECRET with SLACK_LISTEN_ADDR (HTTP mode), not both: clear SLACK_LISTEN_ADDR to use Socket Mode")
		}
	case HTTPMode:
		if c.SigningSecret == "" {
			return errors.New("SLACK_LISTEN_ADDR is set but SLACK_SIGNING_SECRET is empty: copy the Signing Secret from Basic Information > App Credentials, or set SLACK_APP_TOKEN to use Socket Mode instead")
		}
		if c.ListenAddr == "" && !c.Shared {
			return errors.New("SLACK_SIGNING_SECRET is set but neither SLACK_LISTEN_ADDR nor DEALERBOT_LISTEN_ADDR is: set the address to listen on, such as :3000, or set SLACK_APP_TOKEN to use Socket Mode instead")
		}
	}
	return nil
}

// validateOAuth checks the settings for many workspaces.
func (c Config) validateOAuth() error {
	switch {
	case c.ClientID == "":
		return errors.New("SLACK_CLIENT_SECRET is set but SLACK_CLIENT_ID is empty: copy the Client ID from your Slack app's Basic Information > App Credentials")
	case c.ClientSecret == "":
		return errors.New("SLACK_CLIENT_ID is set but SLACK_CLIENT_SECRET is empty: copy the Client Secret from your Slack app's Basic Information > App Credentials")
	case c.AppToken != "":
		return errors.New("Slack for many workspaces runs over HTTP, not Socket Mode: clear SLACK_APP_TOKEN and turn Socket Mode off in the app's settings")
	case c.SigningSecret == "":
		return errors.New("SLACK_SIGNING_SECRET is empty: copy the Signing Secret from Basic Information > App Credentials; dealerbot checks every request from Slack with it")
	case c.ListenAddr == "" && !c.Shared:
		return errors.New("SLACK_LISTEN_ADDR (or DEALERBOT_LISTEN_ADDR, shared with dealerbot's other endpoints) is empty: set the address to listen on, such as :3000, behind the HTTPS address Slack reaches (https://YOUR-HOST/slack/...)")
	case len(c.SecretKey) == 0:
		return errors.New("DEALERBOT_SECRET_KEY is empty: with SLACK_CLIENT_ID each workspace's bot token is kept in the database sealed with this key; " +
			"make one with `openssl rand -hex 32`, keep it safe, and never change it (the stored tokens open only with it)")
	case len(c.SecretKey) != 32:
		return fmt.Errorf("DEALERBOT_SECRET_KEY must be 32 bytes, not %d: make one with `openssl rand -hex 32`", len(c.SecretKey))
	}
	return nil
}
