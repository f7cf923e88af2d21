package console_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/adapters/console"
	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/features"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/engine"
)

// crashHand is a scripted hand over every street: alice has the button, bob and carol the blinds.
var crashHand = []string{
	"alice: raise 30", "bob: call", "carol: call", // pre-flop
	"bob: check", "carol: bet 40", "alice: call", "bob: fold", // flop
	"carol: check", "alice: bet 100", "carol: call", // turn
	"carol: check", "alice: check", // river
}

func crashSetup(g *game) {
	g.rnd.drawDeck(g.t, "As Kd Qh")
	g.rnd.hand(g.t, 0, []string{"Kc Kh", "Ac 2d", "Qc Qd"}, "2c 7d 9h 4s Jc")
	g.must("alice: start", "alice: join 1000", "bob: join 800", "carol: join 1200", "alice: deal")
}

// TestRestartAtEveryAction stops the dealer and closes the file after each action of a scripted hand
// in turn, starts again from the file, finishes the hand, and gets the same final stacks as a run
// without stops.
func TestRestartAtEveryAction(t *testing.T) {
	base := newGame(t)
	crashSetup(base)
	base.must(crashHand...)
	want := base.stacks()
	if base.table().Hand != nil {
		t.Fatal("the scripted hand did not finish")
	}
	for k := 0; k < len(crashHand); k++ {
		t.Run(fmt.Sprintf("after %d actions", k), func(t *testing.T) {
			g := newGame(t)
			crashSetup(g)
			g.must(crashHand[:k]...)
			g.restart()
			tr := g.table()
			if tr.Hand == nil || len(tr.Hand.Actions) != k {
				t.Fatalf("after a restart the hand has %v, want %d actions", tr.Hand, k)
			}
			// The same player is to act: anyone else is told whose turn it is.
			next := strings.SplitN(crashHand[k], ":", 2)[0]
			for _, l := range crashHand[k:] {
				if other := strings.SplitN(l, ":", 2)[0]; other != next {
					g.refuse(other+": call", "It is "+next+"'s turn, not yours.")
					break
				}
			}
			g.must(crashHand[k:]...)
			if got := g.stacks(); !maps.Equal(got, want) {
				t.Fatalf("final stacks %v, want %v as without a restart", got, want)
			}
			g.checkChips("after the hand")
		})
	}
}

// TestUnresumableHandIsCancelled damages the stored hand so it cannot be replayed; on restart the hand
// is cancelled and every chip is back where it was before the hand.
func TestUnresumableHandIsCancelled(t *testing.T) {
	g := newGame(t)
	crashSetup(g)
	before := map[string]int64{"alice": 1000, "bob": 800, "carol": 1200}
	g.must(crashHand[:5]...)
	tr := g.table()
	tr.Hand.Actions = append(tr.Hand.Actions, engine.Action{Player: 0, Kind: engine.Check}) // not bob's turn... nor legal
	if err := g.db.Commit(context.Background(), table.Change{Table: &tr}); err != nil {
		t.Fatal(err)
	}
	g.restart()
	if g.table().Hand != nil {
		t.Fatal("the damaged hand was not cancelled")
	}
	if got := g.stacks(); !maps.Equal(got, before) {
		t.Fatalf("stacks after cancelling %v, want the stacks before the hand %v", got, before)
	}
	if !g.sawPublic("Hand #1 could not be resumed") {
		t.Fatalf("the channel was not told:\n%s", g.out)
	}
	g.checkChips("after cancelling")
	g.must("alice: deal") // the table plays on
}

const childEnv = "DEALERBOT_CRASH_CHILD_DB"

// TestKillMidHand runs the dealer in a child process (this test binary), drives it through a pipe,
// kills it with SIGKILL in the middle of a hand, reopens the file and checks the chips and the
// decision point.
func TestKillMidHand(t *testing.T) {
	if path := os.Getenv(childEnv); path != "" {
		runChild(path)
		return
	}
	path := filepath.Join(t.TempDir(), "dealer.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillMidHand$", "-test.count=1")
	cmd.Env = append(os.Environ(), childEnv+"="+path)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := make(chan string, 1000)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	// say sends a line and waits for everything it printed: a marker command follows it, and when the
	// marker's reply is out, so is the line's, and the command is acknowledged, so on disk. It
	// returns the private reply lines to the sender.
	say := func(line string) string {
		t.Helper()
		who := strings.SplitN(line, ":", 2)[0]
		if _, err := io.WriteString(stdin, line+"\nsync: verify\n"); err != nil {
			t.Fatal(err)
		}
		var reply []string
		timeout := time.After(10 * time.Second)
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("the child stopped after %q", line)
				}
				if strings.HasPrefix(l, "[to sync]") {
					// drain the rest of the marker's reply lines lazily: they all start with [to sync]
					return strings.Join(reply, "\n")
				}
				if strings.HasPrefix(l, "[to "+who+"]") {
					reply = append(reply, l)
				}
			case <-timeout:
				t.Fatalf("no reply to %q", line)
			}
		}
	}
	for _, l := range []string{"alice: start", "alice: join 1000", "bob: join 800", "carol: join 1200", "alice: deal"} {
		if r := say(l); strings.Contains(r, "] ! ") {
			t.Fatalf("%q: %s", l, r)
		}
	}
	// Find who is to act, then play four actions of a scripted order: the first player raises, the
	// others call, the first checks on the flop.
	acked := 0
	for _, l := range []string{"raise 30", "call", "call"} {
		for _, who := range []string{"alice", "bob", "carol"} {
			if r := say(who + ": " + l); !strings.Contains(r, "] ! ") {
				acked++
				break
			}
		}
	}
	if acked != 3 {
		t.Fatalf("%d of the three actions were accepted", acked)
	}
	// One more action is sent and the child is killed without waiting for its reply.
	io.WriteString(stdin, "bob: check\ncarol: check\n")
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()

	g := &game{t: t, path: path, clock: newClock(), rnd: newScriptRand(2)}
	g.open()
	t.Cleanup(g.stop)
	tr := g.table()
	if tr.Hand == nil {
		t.Fatal("the hand in progress was lost")
	}
	if n := len(tr.Hand.Actions); n < acked || n > acked+2 {
		t.Fatalf("the file holds %d actions; %d were acknowledged before the kill", n, acked)
	}
	g.checkChips("after the kill")
	h, err := engine.Replay(tr.Hand.Setup(), tr.Hand.Actions)
	if err != nil {
		t.Fatal(err)
	}
	next := tr.Seats[tr.Hand.Seats[h.ToAct()]].User
	for _, other := range []string{"alice", "bob", "carol"} {
		if other != next {
			g.refuse(other+": check", "It is "+next+"'s turn, not yours.")
		}
	}
	g.must(next + ": check") // the hand goes on from the same decision point
}

// runChild is the child process: a console dealer on the file, reading stdin, until it is killed.
func runChild(path string) {
	db, err := storageOpen(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	chat := console.NewChat(os.Stdout)
	d, err := bot.New(db, chat, features.With(db, bot.Config{}))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	console.Run(context.Background(), d, chat, os.Stdin, console.Options{})
	// Wait for the kill: the parent decides when the process ends.
	time.Sleep(time.Minute)
	os.Exit(0)
}
