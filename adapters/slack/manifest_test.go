package slack

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
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
