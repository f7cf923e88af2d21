package own_test

import (
	"context"
	"errors"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot/own"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/bot/vocab"
)

// leases is an in-memory own.Leases: one clock (the test's), no database.
type leases struct {
	mu     sync.Mutex
	rows   map[string]own.Lease
	tables map[string][]table.TableRecord // by community
}

func newLeases() *leases {
	return &leases{rows: map[string]own.Lease{}, tables: map[string][]table.TableRecord{}}
}

func (s *leases) live(l own.Lease) bool { return l.Owner != "" && time.Now().Before(l.Expires) }

func (s *leases) Claim(_ context.Context, community, owner string, ttl time.Duration) (own.Lease, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.rows[community]
	if s.live(l) {
		return own.Lease{}, own.ErrOwned
	}
	l = own.Lease{Community: community, Owner: owner, Epoch: l.Epoch + 1, Expires: time.Now().Add(ttl), Live: true}
	s.rows[community] = l
	return l, nil
}

func (s *leases) Renew(_ context.Context, l own.Lease, ttl time.Duration) (own.Lease, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	cur := s.rows[l.Community]
	if cur.Owner != l.Owner || cur.Epoch != l.Epoch {
		return own.Lease{}, own.ErrNotOwner
	}
	cur.Expires, cur.Live = time.Now().Add(ttl), true
	s.rows[l.Community] = cur
	return cur, nil
}

func (s *leases) Release(_ context.Context, l own.Lease) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if cur := s.rows[l.Community]; cur.Owner == l.Owner && cur.Epoch == l.Epoch {
		cur.Owner, cur.Live, cur.Expires = "", false, time.Time{}
		s.rows[l.Community] = cur
	}
	return nil
}

func (s *leases) Communities(context.Context) ([]own.Lease, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []own.Lease
	for _, l := range s.rows {
		l.Live = s.live(l)
		out = append(out, l)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Community < out[j].Community })
	return out, nil
}

func (s *leases) CommunityTables(_ context.Context, community string) ([]table.TableRecord, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tables[community], nil
}

// take makes another process the owner of community, live for an hour.
func (s *leases) take(community, owner string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.rows[community]
	s.rows[community] = own.Lease{Community: community, Owner: owner, Epoch: l.Epoch + 1, Expires: time.Now().Add(time.Hour), Live: true}
}

// tables is a fake dealer: it records what ownership asks of it.
type tables struct {
	mu       sync.Mutex
	restored []string
	stopped  []string
}

func (t *tables) Closed() error { return nil }

func (t *tables) Restore(_ context.Context, rec table.TableRecord) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.restored = append(t.restored, rec.ID)
	return nil
}

func (t *tables) Stop(community string, drop func() bool) ([]<-chan struct{}, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !drop() {
		return nil, false
	}
	t.stopped = append(t.stopped, community)
	return nil, true
}

func (t *tables) Idle(string) (time.Time, bool)                     { return time.Time{}, true }
func (t *tables) Handle(context.Context, vocab.Command) vocab.Reply { return vocab.Reply{} }
func (t *tables) Forwarded(vocab.Command)                           {}
func (t *tables) Claimed(string)                                    {}
func (t *tables) stops() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string(nil), t.stopped...)
}
func (t *tables) restores() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string(nil), t.restored...)
}

// TestNilOwner: a process that does not share its store serves everything, unfenced.
func TestNilOwner(t *testing.T) {
	var o *own.Owner
	ctx := context.Background()
	if r, err := o.Serve(ctx, vocab.Command{Platform: "discord", Workspace: "g"}, true); r != nil || err != nil {
		t.Fatalf("Serve = %v, %v; want nil, nil", r, err)
	}
	if f := o.Fence("discord/g/c"); f != nil {
		t.Fatalf("Fence = %+v, want nil", f)
	}
	if got := o.Fenced(ctx, "discord/g"); got != ctx {
		t.Fatal("Fenced changed the context")
	}
	if got, ok := o.FencedIfServed(ctx, "discord/g"); got != ctx || !ok {
		t.Fatalf("FencedIfServed = %v, %v; want ctx, true", got, ok)
	}
	if !o.Serves("discord/g") || o.Ready() != nil || len(o.Owned()) != 0 || o.Served() != 0 {
		t.Fatal("a nil Owner must serve everything, be ready, and hold nothing")
	}
	o.LostFence(&table.Fence{Community: "discord/g"})
	o.Stop(ctx)
}

// TestServeClaimsAndLoses: a command for a free community claims it and restores its tables; one for
// a community another process owns is refused without an inbox; a refused fence drops the community,
// whose tables stop, and its fence then matches no lease.
func TestServeClaimsAndLoses(t *testing.T) {
	ctx := context.Background()
	ls := newLeases()
	ls.tables["discord/g1"] = []table.TableRecord{{ID: "discord/g1/c1"}, {ID: "discord/g1/c2"}}
	ls.take("discord/g2", "other")
	tb := &tables{}
	if _, err := own.New(struct{}{}, own.Config{Owner: "me"}, tb); err == nil {
		t.Fatal("New accepted a store without leases")
	}
	o, err := own.New(ls, own.Config{Owner: "me", Lease: time.Hour}, tb)
	if err != nil {
		t.Fatal(err)
	}
	if err := o.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer o.Stop(ctx)
	if err := o.Ready(); err != nil {
		t.Fatalf("Ready: %v", err)
	}
	if r, err := o.Serve(ctx, vocab.Command{Platform: "discord", Workspace: "g1", Channel: "c1"}, true); r != nil || err != nil {
		t.Fatalf("Serve g1 = %v, %v; want nil, nil", r, err)
	}
	if got := tb.restores(); len(got) != 2 {
		t.Fatalf("restored %v, want both tables of g1", got)
	}
	if !o.Serves("discord/g1") || o.Served() != 1 {
		t.Fatalf("after the claim: serves g1 %v, served %d", o.Serves("discord/g1"), o.Served())
	}
	f := o.Fence("discord/g1/c1")
	if f == nil || f.Owner != "me" || f.Epoch != 1 {
		t.Fatalf("Fence = %+v, want me at epoch 1", f)
	}
	if got := table.FenceFrom(o.Fenced(ctx, "discord/g1")); got == nil || *got != *f {
		t.Fatalf("Fenced carries %+v, want %+v", got, f)
	}
	if _, err := o.Serve(ctx, vocab.Command{Platform: "discord", Workspace: "g2", Channel: "c"}, true); !errors.Is(err, own.ErrNotServed) {
		t.Fatalf("Serve g2 = %v, want ErrNotServed (no inbox)", err)
	}
	if o.Serves("discord/g2") {
		t.Fatal("serves g2, which another process owns")
	}
	o.LostFence(&table.Fence{Community: "discord/g1", Owner: "me", Epoch: 0}) // an old epoch: nothing happens
	o.LostFence(f)
	deadline := time.Now().Add(5 * time.Second)
	for len(tb.stops()) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the lost community's tables did not stop")
		}
		time.Sleep(time.Millisecond)
	}
	if got := tb.stops(); len(got) != 1 || got[0] != "discord/g1" {
		t.Fatalf("stopped %v, want g1 once", got)
	}
	if o.Serves("discord/g1") {
		t.Fatal("still serves g1 after losing it")
	}
	if f := o.Fence("discord/g1/c1"); f == nil || f.Epoch != -1 {
		t.Fatalf("Fence after the loss = %+v, want epoch -1", f)
	}
	if _, ok := o.FencedIfServed(ctx, "discord/g1"); ok {
		t.Fatal("the scheduler may still fire g1's schedules")
	}
}
