package pgtest

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Proxy is a fault-injecting TCP proxy for the PostgreSQL wire protocol, between the dealer and the
// test server. It passes everything until told otherwise, and then can:
//
//   - cut a connection right after a transaction committed (CutAfterCommit, CutProbability): the
//     server committed, and the client never hears it, the fault a managed database gives most often;
//   - delay every message (Delay), blackhole the traffic (Blackhole: connections stay open, nothing
//     passes), or reset every connection (Reset).
//
// It reads the server's messages round by round (up to each ReadyForQuery): a round whose
// ReadyForQuery says the session is idle again and that wrote (a COMMIT, or an INSERT, UPDATE or
// DELETE of an implicit transaction such as a pipelined batch) has committed, and a cut drops that
// round's answer and closes both sides.
type Proxy struct {
	ln     net.Listener
	target string

	mu       sync.Mutex
	conns    map[net.Conn]struct{}
	cutNext  int        // the next cutNext committing rounds are cut
	cutP     float64    // else each is cut with this probability
	rng      *rand.Rand // for cutP
	delay    time.Duration
	blackout bool
	refuse   bool

	cuts atomic.Int64 // committing rounds cut so far
}

// NewProxy starts a proxy on loopback in front of the server at target (host:port); it stops when tb
// ends.
func NewProxy(tb testing.TB, target string) *Proxy {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatalf("fault proxy: listen: %v", err)
	}
	p := &Proxy{ln: ln, target: target, conns: map[net.Conn]struct{}{}, rng: rand.New(rand.NewPCG(1, 2))}
	go p.accept()
	tb.Cleanup(p.Close)
	return p
}

// ProxyURL starts a proxy in front of the server of the PostgreSQL URL u and returns the proxy and
// u pointing at it.
func ProxyURL(tb testing.TB, u string) (*Proxy, string) {
	tb.Helper()
	pu, err := url.Parse(u)
	if err != nil || pu.Host == "" {
		tb.Fatalf("fault proxy: %q is not a URL with a host", u)
	}
	host := pu.Host
	if !strings.Contains(host, ":") {
		host += ":5432"
	}
	p := NewProxy(tb, host)
	pu.Host = p.Addr()
	q := pu.Query()
	if q.Get("sslmode") == "" {
		q.Set("sslmode", "disable") // the proxy reads the protocol: no TLS through it
		pu.RawQuery = q.Encode()
	}
	return p, pu.String()
}

// Addr is the proxy's address.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// Close stops the proxy and closes every connection.
func (p *Proxy) Close() {
	p.ln.Close()
	p.Reset()
}

// CutAfterCommit cuts the next n committing rounds.
func (p *Proxy) CutAfterCommit(n int) {
	p.mu.Lock()
	p.cutNext = n
	p.mu.Unlock()
}

// CutProbability cuts each committing round with probability prob (0 turns it off), drawn from a
// generator seeded with seed.
func (p *Proxy) CutProbability(prob float64, seed uint64) {
	p.mu.Lock()
	p.cutP, p.rng = prob, rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	p.mu.Unlock()
}

// Cuts returns how many committing rounds were cut so far.
func (p *Proxy) Cuts() int64 { return p.cuts.Load() }

// Delay holds every message for d before passing it on (0: none).
func (p *Proxy) Delay(d time.Duration) {
	p.mu.Lock()
	p.delay = d
	p.mu.Unlock()
}

// Blackhole stops (on) or resumes passing traffic; the connections stay open meanwhile, so the
// client waits as it would for a partitioned server.
func (p *Proxy) Blackhole(on bool) {
	p.mu.Lock()
	p.blackout = on
	p.mu.Unlock()
}

// Refuse makes new connections fail at once (on), as a server that is down does, or lets them
// through again; connections already open are not touched.
func (p *Proxy) Refuse(on bool) {
	p.mu.Lock()
	p.refuse = on
	p.mu.Unlock()
}

// Reset closes every connection now, as a reset by the network would.
func (p *Proxy) Reset() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for c := range p.conns {
		c.Close()
	}
	clear(p.conns)
}

func (p *Proxy) accept() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		go p.serve(c)
	}
}

func (p *Proxy) track(cs ...net.Conn) {
	p.mu.Lock()
	for _, c := range cs {
		p.conns[c] = struct{}{}
	}
	p.mu.Unlock()
}

func (p *Proxy) forget(cs ...net.Conn) {
	p.mu.Lock()
	for _, c := range cs {
		c.Close()
		delete(p.conns, c)
	}
	p.mu.Unlock()
}

// wait holds a message for the delay, and for as long as the blackhole lasts.
func (p *Proxy) wait() {
	for {
		p.mu.Lock()
		d, off := p.delay, p.blackout
		p.mu.Unlock()
		if !off {
			if d > 0 {
				time.Sleep(d)
			}
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// cut reports whether a committing round is to be cut now.
func (p *Proxy) cut() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case p.cutNext > 0:
		p.cutNext--
	case p.cutP > 0 && p.rng.Float64() < p.cutP:
	default:
		return false
	}
	p.cuts.Add(1)
	return true
}

func (p *Proxy) serve(client net.Conn) {
	p.mu.Lock()
	refuse := p.refuse
	p.mu.Unlock()
	if refuse {
		client.Close()
		return
	}
	server, err := net.Dial("tcp", p.target)
	if err != nil {
		client.Close()
		return
	}
	p.track(client, server)
	defer p.forget(client, server)
	go func() {
		defer p.forget(client, server)
		p.fromClient(client, server)
	}()
	p.fromServer(server, client)
}

// fromClient passes the client's messages on: the untyped start-up messages first (an SSL or GSS
// request, which the server answers with one byte, then the start-up message), then typed ones.
func (p *Proxy) fromClient(client, server net.Conn) {
	r := bufio.NewReader(client)
	for {
		msg, err := readUntyped(r)
		if err != nil {
			return
		}
		p.wait()
		if _, err := server.Write(msg); err != nil {
			return
		}
		if len(msg) == 8 && (binary.BigEndian.Uint32(msg[4:]) == 80877103 || binary.BigEndian.Uint32(msg[4:]) == 80877104) {
			continue // SSLRequest or GSSENCRequest: the start-up message follows
		}
		break
	}
	for {
		msg, err := readTyped(r)
		if err != nil {
			return
		}
		p.wait()
		if _, err := server.Write(msg); err != nil {
			return
		}
	}
}

// fromServer passes the server's messages on round by round, and cuts a committing round.
func (p *Proxy) fromServer(server, client net.Conn) {
	r := bufio.NewReader(server)
	// The answer to an SSL or GSS request is one byte ('N': go on without).
	first, err := r.Peek(1)
	if err != nil {
		return
	}
	if first[0] == 'N' || first[0] == 'S' || first[0] == 'G' {
		// 'S' and 'G' would start encryption, which the proxy cannot read: the URL says sslmode=disable.
		if b, _ := r.ReadByte(); b != 0 {
			if _, err := client.Write([]byte{b}); err != nil {
				return
			}
		}
	}
	var round []byte
	wrote := false
	for {
		msg, err := readTyped(r)
		if err != nil {
			return
		}
		if msg[0] == 'A' && len(round) == 0 {
			// A NotificationResponse between rounds (LISTEN's): no ReadyForQuery follows it, so it
			// is passed on at once rather than held until the connection's next round.
			p.wait()
			if _, err := client.Write(msg); err != nil {
				return
			}
			continue
		}
		round = append(round, msg...)
		switch msg[0] {
		case 'C': // CommandComplete: its tag says what ran
			tag := string(msg[5 : len(msg)-1])
			for _, w := range []string{"COMMIT", "INSERT", "UPDATE", "DELETE"} {
				if strings.HasPrefix(tag, w) {
					wrote = true
				}
			}
		case 'Z': // ReadyForQuery: the round is over; 'I' means no transaction is open now
			if wrote && msg[5] == 'I' && p.cut() {
				return // the server committed; the client never hears it
			}
			p.wait()
			if _, err := client.Write(round); err != nil {
				return
			}
			round, wrote = round[:0], false
		}
	}
}

var errMessage = errors.New("fault proxy: a message of impossible length")

func readUntyped(r *bufio.Reader) ([]byte, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(hdr[:])
	if n < 4 || n > 1<<30 {
		return nil, errMessage
	}
	msg := make([]byte, n)
	copy(msg, hdr[:])
	_, err := io.ReadFull(r, msg[4:])
	return msg, err
}

func readTyped(r *bufio.Reader) ([]byte, error) {
	var hdr [5]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(hdr[1:])
	if n < 4 || n > 1<<30 {
		return nil, fmt.Errorf("%w (%d, type %q)", errMessage, n, hdr[0])
	}
	msg := make([]byte, n+1)
	copy(msg, hdr[:])
	_, err := io.ReadFull(r, msg[5:])
	return msg, err
}
