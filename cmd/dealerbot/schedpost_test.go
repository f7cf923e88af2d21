package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestScheduledPostSurvivesAKill: a process that has stored a schedule's announcement with the
// schedule's progress is SIGKILLed just before it posts it, or just after (before it could store that
// it went out). The process that takes the community over posts it: once in the channel, which in
// the second case is the post sent again under its key, shown once (as Discord shows a message
// created again with its nonce). Before the schedule's outbox the first case lost the announcement.
func TestScheduledPostSurvivesAKill(t *testing.T) {
	url, db := processDB(t, "-short: the test runs real processes")
	const lease = time.Second
	for i, at := range []string{"before", "after"} {
		t.Run(at, func(t *testing.T) {
			channel := filepath.Join(t.TempDir(), "channels")
			env := []string{"DEALERBOT_TEST_LOG_POSTS=1", "DEALERBOT_TEST_CHANNEL=" + channel}
			w := fmt.Sprintf("k%d", i)
			a := startProc(t, url, "A"+at, lease, env...)
			game := time.Now().UTC().Add(90 * time.Minute)
			for _, line := range []string{w + " c2 alice start",
				fmt.Sprintf("%s c2 alice schedule add on %s tz=UTC announce=2h remind=off length=1h", w, game.Format("2006-01-02 15:04")),
				w + " c2 alice end"} {
				if rep, o := send(a, line); o != applied {
					t.Fatalf("%q: %s", line, rep.Text)
				}
			}
			// A has not ticked since the add (it ticks at start, on the minute and on a claim): it
			// dies, and B claims w's community once A's lease ran out, ticks, and dies at the post.
			a.cmd.Process.Signal(syscall.SIGKILL)
			<-a.done
			b := startProc(t, url, "B"+at, lease, append(env, "DEALERBOT_TEST_CRASH_AT_POST="+at+":🃏")...)
			select {
			case <-b.done:
			case <-time.After(20 * time.Second):
				t.Fatalf("B did not reach the announcement:\n%s", b.log)
			}
			stored, err := db.Schedules(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			waiting := -1
			for _, s := range stored {
				if s.Workspace == w {
					waiting = len(s.Posts)
				}
			}
			if waiting != 1 {
				t.Fatalf("after B died at the announcement, %d posts wait in w's schedule, want 1", waiting)
			}
			c := startProc(t, url, "C"+at, lease, env...)
			var posts []testPost
			deadline := time.Now().Add(20 * time.Second)
			for len(posts) == 0 || strings.Count(c.log.String(), againPrefix) == 0 && at == "after" {
				if time.Now().After(deadline) {
					t.Fatalf("C did not post the announcement; posts %+v\n%s", posts, c.log)
				}
				time.Sleep(100 * time.Millisecond)
				posts = announcements(t, channel, w)
			}
			time.Sleep(500 * time.Millisecond) // a second post, were there one, would be there now
			posts = announcements(t, channel, w)
			if len(posts) != 1 {
				t.Fatalf("announcements in the channel: %+v, want one", posts)
			}
			if want := map[string]string{"before": "C", "after": "B"}[at] + at; posts[0].Proc != want {
				t.Errorf("the announcement was posted by %s, want %s", posts[0].Proc, want)
			}
			if again := strings.Count(c.log.String(), againPrefix); (at == "after") != (again == 1) {
				t.Errorf("C sent it again under its key %d times", again)
			}
			stored, err = db.Schedules(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range stored {
				if s.Workspace == w && (len(s.Posts) != 0 || !s.Announced) {
					t.Errorf("stored schedule: announced %v, %d posts waiting; want announced, none waiting", s.Announced, len(s.Posts))
				}
			}
		})
	}
}

// announcements reads the announcements posted in community w's channel c2 from the shared channels.
func announcements(t *testing.T, channel, w string) []testPost {
	t.Helper()
	b, err := os.ReadFile(channel)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []testPost
	for _, line := range strings.Split(string(b), "\n") {
		var m testPost
		if json.Unmarshal([]byte(line), &m) == nil && m.Workspace == w && m.Channel == "c2" && strings.HasPrefix(m.Text, "🃏") {
			out = append(out, m)
		}
	}
	return out
}
