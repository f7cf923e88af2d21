package main

import (
	"strings"
	"testing"
)

// TestItem9HelpOnStandardOutput: `dealerbot help` works like --help and -h, which write the usage to
// standard output and exit 0; `dealerbot export --help` too. A mistake still gets it on standard
// error.
func TestItem9HelpOnStandardOutput(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"--help"}, {"-h"}, {"export", "--help"}, {"export", "-h"}} {
		code, out, errOut := runMain(t, nil, "", args...)
		if code != 0 || !strings.HasPrefix(out, "Usage:") || errOut != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want the usage on standard output", args, code, out, errOut)
		}
	}
	if code, out, errOut := runMain(t, nil, "", "export", "--colour"); code != 2 || out != "" || !strings.Contains(errOut, "Usage: dealerbot export") {
		t.Errorf("export --colour: exit %d, stdout %q, stderr %q; want the usage on standard error", code, out, errOut)
	}
}

// TestItem9ExportNoSuchTable: `dealerbot export --table nope` says there is no such table, names the
// tables that have hands, writes nothing and exits 1; a table that exists exports its hands.
func TestItem9ExportNoSuchTable(t *testing.T) {
	db, hands := playHands(t)
	env := map[string]string{"DEALERBOT_DB": db}
	code, out, errOut := runMain(t, env, "", "export", "--table", "nope")
	if code != 1 || out != "" || !strings.Contains(errOut, `dealerbot export: no table "nope": the tables with hands are console/local/console`) {
		t.Errorf("export --table nope: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, out, errOut = runMain(t, env, "", "export", "--table", "console")
	if code != 0 || strings.Count(out, "PokerStars Hand #") != hands {
		t.Errorf("export --table console: exit %d, stderr %q, %d hands", code, errOut, strings.Count(out, "PokerStars Hand #"))
	}
}
