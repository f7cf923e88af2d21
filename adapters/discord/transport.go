package discord

// The REST transport: every request discordgo (and callback) makes passes through restTransport,
// which keeps this process within its share of the bot token's global limit and, with
// DISCORD_REST_PROXY, sends the request to the rate-limit proxy instead of discord.com.
//
// Why both: Discord's global limit (50 requests a second) belongs to the bot token, whatever the
// number of processes using it, and so do the per-route buckets of resources every process touches
// (opening DM channels, a player's DM channel). discordgo knows only what its own process sent: it
// waits out a bucket whose headers say it is empty, and a 429 after the fact. A shared proxy
// (nirn-proxy) sees every process's requests and keeps them all within every limit; without one,
// each process keeps itself to its share of the global limit (DISCORD_GLOBAL_SHARE), and the
// per-route buckets mostly stay apart anyway, since a community's channels are written by the one
// process that owns it.

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// restTransport is Session.Client's transport.
type restTransport struct {
	proxy *url.URL          // DISCORD_REST_PROXY's scheme and host; nil: straight to Discord
	share *pacer            // this process's share of the global limit; nil: none of its own
	next  http.RoundTripper // what sends the request (http.DefaultTransport; the fake in tests)
}

// restTimeout bounds one REST request, a wait for this process's share of the global limit
// included (discordgo's own default is 20 s).
const restTimeout = 20 * time.Second

func (t *restTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.share != nil && countsGlobally(req.URL.Path) {
		if err := t.share.wait(req.Context()); err != nil {
			if req.Body != nil {
				req.Body.Close() // a RoundTripper closes the body, even on error
			}
			return nil, err
		}
	}
	if t.proxy != nil {
		// discordgo's Endpoint* URLs are fixed at init from https://discord.com: only the transport can
		// send them elsewhere. The proxy takes the same paths and the same Authorization header.
		req = req.Clone(req.Context())
		req.URL.Scheme, req.URL.Host, req.Host = t.proxy.Scheme, t.proxy.Host, t.proxy.Host
	}
	return t.next.RoundTrip(req)
}

// countsGlobally reports whether a request to path (/api/v9/...) counts against the bot's global
// limit. Interaction callbacks and the interaction webhooks (follow-ups, edits of a response) do not
// (docs.discord.com, Topics > Rate Limits).
func countsGlobally(path string) bool {
	rest, ok := strings.CutPrefix(path, "/api/")
	if !ok {
		return true
	}
	if _, after, ok := strings.Cut(rest, "/"); ok && strings.HasPrefix(rest, "v") {
		rest = after
	}
	return !strings.HasPrefix(rest, "interactions/") && !strings.HasPrefix(rest, "webhooks/")
}

// pacer lets requests leave within limits: at most limit[i] in any span of per[i], for every i. A
// request that would be one too many waits for its slot. Slots are handed out in order under the
// lock, each at least per[i] after the one limit[i] places before it in every ring, so the slots
// never crowd, whatever the number of goroutines asking.
type pacer struct {
	waited func() // called for each request that has to wait (the dealer's metrics)

	mu    sync.Mutex
	rings []ring
}

// ring is the last limit slots handed out, for one span.
type ring struct {
	per   time.Duration
	slots []time.Time
	next  int // the oldest slot
}

// newShare paces this process's share of the global limit: perSecond requests in any second, and
// a tenth of them in any tenth of a second, so that a burst (six DMs at a deal) leaves at once while
// a long one is spread over the second rather than sent in a lump at its start, which a little
// network jitter could push into Discord's count of the second before.
func newShare(perSecond int, waited func()) *pacer {
	if waited == nil {
		waited = func() {}
	}
	p := &pacer{waited: waited}
	p.rings = append(p.rings, ring{per: time.Second, slots: make([]time.Time, perSecond)})
	if burst := (perSecond + 9) / 10; burst < perSecond {
		p.rings = append(p.rings, ring{per: time.Second / 10, slots: make([]time.Time, burst)})
	}
	return p
}

// wait blocks until the request may leave, or ctx ends (its slot is then lost, which errs on the
// side of fewer requests).
func (p *pacer) wait(ctx context.Context) error {
	p.mu.Lock()
	now := time.Now()
	slot := now
	for _, r := range p.rings {
		if old := r.slots[r.next]; !old.IsZero() && old.Add(r.per).After(slot) {
			slot = old.Add(r.per)
		}
	}
	for i := range p.rings {
		r := &p.rings[i]
		r.slots[r.next] = slot
		r.next = (r.next + 1) % len(r.slots)
	}
	p.mu.Unlock()
	d := slot.Sub(now)
	if d <= 0 {
		return nil
	}
	p.waited()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
