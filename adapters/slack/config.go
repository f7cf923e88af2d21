package slack

import (
	"errors"
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
)

func (m Mode) String() string {
	switch m {
	case SocketMode:
		return "socket mode"
	case HTTPMode:
		return "HTTP mode"
	}
	return "off"
}

// Config holds the Slack settings. Build it with ConfigFromEnv.
type Config struct {
	BotToken      string // SLACK_BOT_TOKEN, xoxb-...
	AppToken      string // SLACK_APP_TOKEN, xapp-..., Socket Mode
	SigningSecret string // SLACK_SIGNING_SECRET, HTTP mode
	ListenAddr    string // SLACK_LISTEN_ADDR, HTTP mode, such as ":3000"

	// APIURL replaces https://slack.com/api/ (tests point it at a fake server). Empty means Slack.
	APIURL string
}

// ConfigFromEnv reads SLACK_BOT_TOKEN, SLACK_APP_TOKEN, SLACK_SIGNING_SECRET and SLACK_LISTEN_ADDR through
// getenv. With none of them set it returns a Config whose Mode is Off and no error. A half-finished
// setup gets an error that says which setting to fill in and where its value comes from.
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	c := Config{
		BotToken:      strings.TrimSpace(getenv("SLACK_BOT_TOKEN")),
		AppToken:      strings.TrimSpace(getenv("SLACK_APP_TOKEN")),
		SigningSecret: strings.TrimSpace(getenv("SLACK_SIGNING_SECRET")),
		ListenAddr:    strings.TrimSpace(getenv("SLACK_LISTEN_ADDR")),
	}
	return c, c.Validate()
}

// Mode says which connection the settings ask for: Socket Mode when an app token is set, HTTP mode when
// a signing secret and listen address are set instead, Off when nothing is set.
func (c Config) Mode() Mode {
	switch {
	case c.BotToken == "" && c.AppToken == "" && c.SigningSecret == "" && c.ListenAddr == "":
		return Off
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
		if c.ListenAddr == "" {
			return errors.New("SLACK_SIGNING_SECRET is set but SLACK_LISTEN_ADDR is empty: set the address to listen on, such as :3000, or set SLACK_APP_TOKEN to use Socket Mode instead")
		}
	}
	return nil
}
