package slack

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/dealerbot/dealerbot/bot"
)

// scopeOf is the bot scope each slack-go call of the adapter needs (Slack's method reference).
var scopeOf = map[string]string{
	"PostMessage":      "chat:write",
	"PostEphemeral":    "chat:write",
	"UpdateMessage":    "chat:write",
	"DeleteMessage":    "chat:write",
	"OpenConversation": "im:write",
	"GetUserInfo":      "users:read",
	"OpenView":         "", // views.open needs no scope beyond a trigger ID
	"AuthTest":         "", // auth.test needs none
	"UploadFile":       "files:write",
}

// TestManifestScopesMatchTheCode reads the Web API calls in the adapter's source and checks that
// manifest.yml asks for exactly the scopes they need, plus commands for /poker.
func TestManifestScopesMatchTheCode(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	callRe := regexp.MustCompile(`\bapi\.(\w+?)Context\(`)
	want := map[string]bool{"commands": true}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range callRe.FindAllStringSubmatch(string(src), -1) {
			scope, ok := scopeOf[m[1]]
			if !ok {
				t.Errorf("%s calls %s: add its scope to scopeOf and to manifest.yml", f, m[1])
			}
			if scope != "" {
				want[scope] = true
			}
		}
	}
	man, err := os.ReadFile("../../manifest.yml")
	if err != nil {
		t.Fatal(err)
	}
	got := botScopes(string(man))
	var wantList []string
	for s := range want {
		wantList = append(wantList, s)
	}
	slices.Sort(wantList)
	slices.Sort(got)
	if !slices.Equal(got, wantList) {
		t.Errorf("manifest.yml bot scopes %v, the code needs %v", got, wantList)
	}
	for _, line := range []string{"command: /poker", "socket_mode_enabled: true", "should_escape: true"} {
		if !strings.Contains(string(man), line) {
			t.Errorf("manifest.yml lacks %q", line)
		}
	}
	if !regexp.MustCompile(`interactivity:\s+is_enabled: true`).Match(man) {
		t.Error("manifest.yml does not enable interactivity (buttons and modals)")
	}
}

// botScopes reads the list under oauth_config.scopes.bot.
func botScopes(manifest string) []string {
	var out []string
	in := false
	for _, line := range strings.Split(manifest, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == "bot:":
			in = true
		case in && strings.HasPrefix(trimmed, "- "):
			out = append(out, strings.TrimSpace(strings.TrimPrefix(trimmed, "- ")))
		case in && trimmed != "":
			in = false
		}
	}
	return out
}

// TestManifestDescribesManyWorkspaces: the commented-out lines of manifest.yml for many workspaces
// point Slack at the adapter's own endpoints (a request there reaches a handler of Mount), subscribe
// to the two events that end a workspace's service, and turn Socket Mode off.
func TestManifestDescribesManyWorkspaces(t *testing.T) {
	man, err := os.ReadFile("../../manifest.yml")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(man), "# --- Many workspaces (OAuth)")
	if !ok {
		t.Fatal("manifest.yml has no section for many workspaces")
	}
	var lines []string
	for _, l := range strings.Split(block, "\n")[1:] {
		lines = append(lines, strings.TrimPrefix(strings.TrimPrefix(l, "#"), " "))
	}
	text := strings.Join(lines, "\n")
	for _, want := range []string{"url: https://YOUR-HOST/slack/events", "redirect_urls:\n    - https://YOUR-HOST/slack/oauth/callback",
		"event_subscriptions:\n    request_url: https://YOUR-HOST/slack/events", "bot_events:\n      - app_uninstalled\n      - tokens_revoked",
		"interactivity:\n    is_enabled: true\n    request_url: https://YOUR-HOST/slack/events", "socket_mode_enabled: false", "should_escape: true"} {
		if !strings.Contains(text, want) {
			t.Errorf("the section for many workspaces lacks %q:\n%s", want, text)
		}
	}
	a, err := New(Config{ClientID: "1.2", ClientSecret: "s", SigningSecret: "s", ListenAddr: ":0", SecretKey: testKey},
		WithInstallations(noInstalls{}))
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	a.Mount(mux)
	for _, u := range regexp.MustCompile(`https://YOUR-HOST(/\S+)`).FindAllStringSubmatch(text, -1) {
		if _, pattern := mux.Handler(httptest.NewRequest(http.MethodGet, u[1], nil)); pattern != u[1] {
			t.Errorf("the manifest names %s, which Mount does not serve (pattern %q)", u[1], pattern)
		}
	}
	for _, p := range []string{"/slack/install", "/slack/oauth/callback", "/slack/events"} {
		if _, pattern := mux.Handler(httptest.NewRequest(http.MethodGet, p, nil)); pattern != p {
			t.Errorf("Mount does not serve %s", p)
		}
	}
}

// noInstalls is an installation store with nothing in it.
type noInstalls struct{}

func (noInstalls) PutInstallation(context.Context, bot.Installation) error { return nil }
func (noInstalls) Installation(context.Context, string, string) (bot.Installation, bool, error) {
	return bot.Installation{}, false, nil
}
func (noInstalls) DeleteInstallation(context.Context, string, string) error { return nil }
