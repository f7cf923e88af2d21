package console_test

import (
	"strings"
	"testing"

	"github.com/dealerbot/dealerbot/adapters/console"
)

// FuzzParseLine: a line is a comment, an error, or a command from a user without spaces.
func FuzzParseLine(f *testing.F) {
	f.Add("alice: raise 60")
	f.Add("bob: call #3.4")
	f.Add("# comment")
	f.Add(": x")
	f.Fuzz(func(t *testing.T, line string) {
		cmd, ok, err := console.ParseLine(line, console.Options{})
		if err != nil || !ok {
			return
		}
		if cmd.User == "" || strings.ContainsAny(cmd.User, " \t") || cmd.Channel != console.Channel {
			t.Fatalf("%q parsed to %+v", line, cmd)
		}
	})
}
