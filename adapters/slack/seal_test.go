package slack

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// TestSealer: a sealed bot token holds no trace of the token, opens only with the key and for the
// workspace it was sealed for, and anything else is refused with a sentence naming what to do.
func TestSealer(t *testing.T) {
	const token = "xoxb-1111-2222-abcdefABCDEF"
	s, err := newSealer(testKey)
	if err != nil {
		t.Fatal(err)
	}
	sealed, err := s.seal("T1", token)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := s.seal("T1", token)
	if bytes.Contains(sealed, []byte(token[5:])) || bytes.Equal(sealed, again) {
		t.Fatalf("sealed %x: holds the token, or sealing twice gave the same bytes", sealed)
	}
	if got, err := s.open("T1", sealed); err != nil || got != token {
		t.Fatalf("open: %q, %v", got, err)
	}
	other, _ := newSealer(bytes.Repeat([]byte{1}, 32))
	tampered := append([]byte(nil), sealed...)
	tampered[len(tampered)-1] ^= 1
	tests := []struct {
		name      string
		s         *sealer
		workspace string
		sealed    []byte
		want      string
	}{
		{"another key", other, "T1", sealed, "does not open with DEALERBOT_SECRET_KEY: the key is not the one it was sealed with"},
		{"another workspace's record", s, "T2", sealed, "does not open with DEALERBOT_SECRET_KEY"},
		{"changed bytes", s, "T1", tampered, "does not open with DEALERBOT_SECRET_KEY"},
		{"cut short", s, "T1", sealed[:10], "not in a form this dealerbot knows: have the workspace install the app again"},
		{"unknown version", s, "T1", append([]byte{9}, sealed[1:]...), "not in a form this dealerbot knows"},
		{"nothing", s, "T1", nil, "not in a form this dealerbot knows"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.s.open(tt.workspace, tt.sealed)
			if err == nil || got != "" || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("open: %q, %v; want an error saying %q", got, err, tt.want)
			}
			if strings.Contains(tt.want, "does not open") && !errors.Is(err, errWrongKey) {
				t.Errorf("error %v is not errWrongKey", err)
			}
		})
	}
	if _, err := newSealer(testKey[:16]); err == nil {
		t.Error("a 16-byte key was taken")
	}
}
