package errs

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dealerbot/dealerbot/engine"
)

func TestReply(t *testing.T) {
	for _, tc := range []struct {
		name     string
		err      error
		want     string
		internal bool
	}{
		{"player error", Errorf(Conflict, "It is %s's turn, not yours.", "bob"), "It is bob's turn, not yours.", false},
		{"wrapped player error", fmt.Errorf("join: %w", Errorf(Invalid, "Say how much.")), "Say how much.", false},
		{"internal", errors.New("disk on fire"), Apology, true},
		{"internal code", Errorf(Internal, "bucket missing"), Apology, true},
		{"engine refusal", fmt.Errorf("call: %w", &engine.Error{Code: engine.ErrNotYourTurn, Message: "It is Bob's turn, not yours."}), "It is Bob's turn, not yours.", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, internal := Reply(tc.err)
			if got != tc.want || internal != tc.internal {
				t.Fatalf("Reply = %q, %v; want %q, %v", got, internal, tc.want, tc.internal)
			}
		})
	}
}

func TestIsByCode(t *testing.T) {
	err := fmt.Errorf("wrapped: %w", Errorf(Forbidden, "Only the host can do that."))
	if !errors.Is(err, E(Forbidden)) {
		t.Fatal("errors.Is must match the code")
	}
	if errors.Is(err, E(Invalid)) {
		t.Fatal("errors.Is must not match another code")
	}
	if got, want := CodeOf(err), Forbidden; got != want {
		t.Fatalf("CodeOf = %s, want %s", got, want)
	}
	if got, want := CodeOf(errors.New("x")), Internal; got != want {
		t.Fatalf("CodeOf(plain) = %s, want %s", got, want)
	}
	for code, want := range map[string]Code{engine.ErrNotYourTurn: Conflict, engine.ErrCannotCheck: Conflict, engine.ErrTooSmall: Invalid, engine.ErrBadAmount: Invalid} {
		if got := CodeOf(&engine.Error{Code: code, Message: "m"}); got != want {
			t.Errorf("CodeOf(engine %s) = %s, want %s", code, got, want)
		}
	}
}

func TestClip(t *testing.T) {
	long := strings.Repeat("é", 20000)
	if got := Quote(long); utf8.RuneCountInString(got) > MaxQuote+2 {
		t.Fatalf("Quote kept %d characters", utf8.RuneCountInString(got))
	}
	if got, want := Quote("raise"), `"raise"`; got != want {
		t.Fatalf("Quote = %s, want %s", got, want)
	}
	text, _ := Reply(Errorf(Invalid, "%s", long))
	if n := utf8.RuneCountInString(text); n != MaxReply || !strings.HasSuffix(text, "…") {
		t.Fatalf("a long reply is %d characters, want %d ending in …", n, MaxReply)
	}
	if got := ClipText("short", 10); got != "short" {
		t.Fatalf("ClipText cut a short text: %q", got)
	}
}
