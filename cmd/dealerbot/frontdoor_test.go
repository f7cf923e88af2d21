package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Any process answers: three processes on one PostgreSQL behind a round robin; every click (a line
// with its own delivery ID) goes to a random process, which forwards it to the owner of its
// community through the inbox when it does not own it; one click in five is sent to two processes
// at once; the owner of a community is SIGKILLed mid-hand five times. Every click is applied once
// or refused with a sentence, none is refused for reaching the wrong process, and chips are
// conserved. Prints how long a click takes when it reaches the owner and when it reaches another.
func TestAnyProcessAnswers(t *testing.T) {
	url, db := processDB(t, "-short: runs real processes")
	const lease = time.Second
	var mu sync.Mutex
	procs := []*proc{startProc(t, url, "p1", lease), startProc(t, url, "p2", lease), startProc(t, url, "p3", lease)}
	next := 4
	live := func() []*proc { mu.Lock(); defer mu.Unlock(); return slices.Clone(procs) }
	byName := func(name string) *proc {
		for _, p := range live() {
			if p.name == name {
				return p
			}
		}
		return nil
	}
	communities := []string{"w1", "w2", "w3", "w4"}
	players := []string{"alice", "bob", "carol"}
	r0 := rand.New(rand.NewPCG(5, 5))
	for _, w := range communities {
		for _, line := range []string{w + " c1 alice start", w + " c1 alice join", w + " c1 bob join", w + " c1 carol join", w + " c1 alice deal"} {
			ps := live()
			if rep, o := send(ps[r0.IntN(len(ps))], line); o != applied {
				t.Fatalf("%q: %s", line, rep.Text)
			}
		}
	}

	var res struct {
		sync.Mutex
		applied, refused, unknown, both, moving, unreachable int
		local, remote                                        []time.Duration
		sentences                                            map[string]int
	}
	res.sentences = map[string]int{}
	verbs := []string{"call", "check", "call", "check", "fold", "raise 30"}
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for i, w := range communities {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(i), 11))
			for n := 0; ctx.Err() == nil; n++ {
				line := fmt.Sprintf("id=%s-%d %s c1 %s %s", w, n, w, players[r.IntN(len(players))], verbs[r.IntN(len(verbs))])
				ps := live()
				targets := []*proc{ps[r.IntN(len(ps))]}
				if r.IntN(5) == 0 {
					targets = append(targets, ps[r.IntN(len(ps))]) // the same click at two processes (or twice at one)
				}
				owner := leaseOwners(t, db)["console/"+w].Owner
				outs := make([]outcome, len(targets))
				reps := make([]string, len(targets))
				var cw sync.WaitGroup
				for k, p := range targets {
					cw.Add(1)
					go func() {
						defer cw.Done()
						t0 := time.Now()
						rep, o := send(p, line)
						outs[k], reps[k] = o, rep.Text
						if o != unknown {
							res.Lock()
							if p.name == owner {
								res.local = append(res.local, time.Since(t0))
							} else {
								res.remote = append(res.remote, time.Since(t0))
							}
							res.Unlock()
						}
					}()
				}
				cw.Wait()
				res.Lock()
				nApplied := 0
				anyUnknown := false
				for k, o := range outs {
					switch o {
					case applied:
						nApplied++
					case unknown:
						anyUnknown = true
					case refused:
						if strings.TrimSpace(reps[k]) == "" {
							t.Errorf("click %q refused without a sentence", line)
						}
						if strings.Contains(reps[k], "another dealer process") {
							res.moving++ // the owner was lost under the click: allowed around a takeover
						}
						if strings.Contains(reps[k], "cannot reach its database") {
							res.unreachable++
						}
						res.sentences[firstWords(reps[k])]++
					}
				}
				if nApplied > 1 {
					res.both++ // both senders got the owner's one answer: the stored count shows it applied once
				}
				sent := slices.ContainsFunc(outs, func(o outcome) bool { return o != unsent })
				switch {
				case nApplied >= 1:
					res.applied++
				case anyUnknown:
					res.unknown++
				case sent:
					res.refused++
				}
				res.Unlock()
			}
		}()
	}
	rk := rand.New(rand.NewPCG(9, 9))
	for kill := 0; kill < 5; kill++ {
		time.Sleep(time.Duration(800+rk.IntN(800)) * time.Millisecond)
		w := communities[rk.IntN(len(communities))]
		victim := byName(leaseOwners(t, db)["console/"+w].Owner)
		if victim == nil {
			kill--
			continue
		}
		mu.Lock()
		procs = slices.DeleteFunc(procs, func(p *proc) bool { return p == victim })
		name := fmt.Sprintf("p%d", next)
		next++
		mu.Unlock()
		victim.cmd.Process.Signal(syscall.SIGKILL)
		<-victim.done
		f := startProc(t, url, name, lease)
		mu.Lock()
		procs = append(procs, f)
		mu.Unlock()
	}
	time.Sleep(time.Second)
	stop()
	wg.Wait()

	stored := storedActions(t, db, nil)
	if _, err := db.Balance(context.Background()); err != nil {
		t.Errorf("ledger: %v", err)
	}
	res.Lock()
	defer res.Unlock()
	if stored < res.applied || stored > res.applied+res.unknown {
		t.Errorf("%d actions stored; %d clicks applied, %d unanswered: a click was lost or applied twice", stored, res.applied, res.unknown)
	}
	total := res.applied + res.refused + res.unknown
	if res.unreachable != 0 || res.moving*100 > total {
		t.Errorf("%d clicks refused as reaching a process that does not serve their table, %d as the database out of reach (it was up), of %d: forwarding failed",
			res.moving, res.unreachable, total)
	}
	if res.applied < 50 {
		t.Errorf("only %d clicks applied", res.applied)
	}
	q := func(ds []time.Duration, p int) time.Duration {
		if len(ds) == 0 {
			return 0
		}
		slices.Sort(ds)
		return ds[len(ds)*p/100].Round(100 * time.Microsecond)
	}
	for _, p := range live() {
		if i := strings.Index(p.log.String(), "out of reach"); i >= 0 {
			t.Logf("%s: %s", p.name, p.log.String()[max(0, i-300):min(len(p.log.String()), i+600)])
			break
		}
	}
	t.Logf("clicks: %d applied (%d of them sent twice and answered alike), %d refused, %d unanswered, %d stored; reply at the owner p50 %v p99 %v (%d), at another process p50 %v p99 %v (%d); refusals: %v",
		res.applied, res.both, res.refused, res.unknown, stored, q(res.local, 50), q(res.local, 99), len(res.local), q(res.remote, 50), q(res.remote, 99), len(res.remote), res.sentences)
}

// firstWords is the start of a sentence, to group refusals in the test's report.
func firstWords(s string) string {
	f := strings.Fields(s)
	return strings.Join(f[:min(4, len(f))], " ")
}

// scrape reads one process's /metrics and returns the sum of each metric's samples whose line
// starts with name (labels included in name when given).
func scrape(t *testing.T, p *proc, names ...string) map[string]float64 {
	t.Helper()
	resp, err := http.Get("http://" + p.http + "/metrics")
	if err != nil {
		t.Fatalf("scrape %s: %v", p.name, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	out := map[string]float64{}
	for _, line := range strings.Split(string(body), "\n") {
		for _, n := range names {
			if strings.HasPrefix(line, n+" ") {
				v, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimPrefix(line, n)), 64)
				if err == nil {
					out[n] += v
				}
			}
		}
	}
	return out
}

// /metrics and /readyz of three processes agree with what the test did: the players' actions
// applied (wherever the command arrived), the communities served, and the takeovers after one
// process is killed.
func TestMetricsAndReadiness(t *testing.T) {
	url, db := processDB(t, "-short: runs real processes")
	const lease = time.Second
	var procs []*proc
	for i := 1; i <= 3; i++ {
		procs = append(procs, startProc(t, url, fmt.Sprintf("p%d", i), lease, "DEALERBOT_LISTEN_ADDR=127.0.0.1:0"))
		if procs[i-1].http == "" {
			t.Fatalf("p%d does not listen:\n%s", i, procs[i-1].log)
		}
	}
	communities := []string{"w1", "w2", "w3", "w4", "w5", "w6"}
	commands := 0 // commands that changed a table
	r := rand.New(rand.NewPCG(1, 1))
	for _, w := range communities {
		for _, line := range []string{"alice start", "alice join", "bob join", "alice deal"} {
			if rep, o := send(procs[r.IntN(3)], w+" c1 "+line); o != applied {
				t.Fatalf("%s %s: %s", w, line, rep.Text)
			}
			commands++
		}
	}
	for n := 0; n < 300; n++ {
		w := communities[r.IntN(len(communities))]
		verb := []string{"call", "check"}[r.IntN(2)]
		who := []string{"alice", "bob"}[r.IntN(2)]
		if _, o := send(procs[r.IntN(3)], fmt.Sprintf("id=m%d %s c1 %s %s", n, w, who, verb)); o == applied {
			commands++
		}
	}
	// Scrape until every community is served: a process hands one back now and then (to spread
	// them) and another takes it a moment later.
	var sum map[string]float64
	takeovers := map[*proc]float64{}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		sum = map[string]float64{}
		for _, p := range procs {
			m := scrape(t, p, `dealerbot_actions_applied_total{source="command"}`, "dealerbot_communities_owned", "dealerbot_takeovers_total", "dealerbot_commands_forwarded_total")
			takeovers[p] = m["dealerbot_takeovers_total"]
			for k, v := range m {
				sum[k] += v
			}
		}
		if int(sum["dealerbot_communities_owned"]) == len(communities) || time.Now().After(deadline) {
			break
		}
	}
	for _, p := range procs {
		resp, err := http.Get("http://" + p.http + "/readyz")
		if err != nil || resp.StatusCode != 200 {
			t.Errorf("%s /readyz: %v %v", p.name, resp, err)
		}
		resp.Body.Close()
		if resp, err := http.Get("http://" + p.http + "/healthz"); err != nil || resp.StatusCode != 200 {
			t.Errorf("%s /healthz: %v", p.name, err)
		}
	}
	if got := sum[`dealerbot_actions_applied_total{source="command"}`]; int(got) != commands {
		t.Errorf("the processes' metrics count %v applied commands, the test applied %d", got, commands)
	}
	if got := sum["dealerbot_communities_owned"]; int(got) != len(communities) {
		t.Errorf("the processes own %v communities, want %d", got, len(communities))
	}
	if sum["dealerbot_commands_forwarded_total"] == 0 {
		t.Error("no command was forwarded, though each went to a random process")
	}
	// Kill the process owning most: the others take its communities over, and count it.
	owners := leaseOwners(t, db)
	held := map[string]int{}
	for _, w := range communities {
		held[owners["console/"+w].Owner]++
	}
	victim := procs[0]
	for _, p := range procs {
		if held[p.name] > held[victim.name] {
			victim = p
		}
	}
	victim.cmd.Process.Signal(syscall.SIGKILL)
	<-victim.done
	var survivors []*proc
	before := 0.0
	for _, p := range procs {
		if p != victim {
			survivors = append(survivors, p)
			before += takeovers[p]
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		after, owned := 0.0, 0.0
		for _, p := range survivors {
			m := scrape(t, p, "dealerbot_takeovers_total", "dealerbot_communities_owned")
			after += m["dealerbot_takeovers_total"]
			owned += m["dealerbot_communities_owned"]
		}
		if int(owned) == len(communities) {
			if int(after-before) < held[victim.name] {
				t.Errorf("takeovers counted %v after killing %s, which held %d communities", after-before, victim.name, held[victim.name])
			}
			t.Logf("%s held %d communities; the survivors took them over (takeovers %v -> %v)", victim.name, held[victim.name], before, after)
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the survivors own %v communities 10 s after the kill, want %d", owned, len(communities))
		}
		time.Sleep(100 * time.Millisecond)
	}
}
