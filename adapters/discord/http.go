package discord

// The Interactions Endpoint: Discord POSTs each interaction, signed, to a public HTTPS URL instead of
// sending it over the gateway, and takes the first response from the HTTP response's body. The
// interaction then goes through the same path as one from the gateway (interact); only its first
// response travels differently (bodyAnswer). Follow-ups, edits and DMs go over REST as always.

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strconv"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// InteractionsPath is where the adapter serves the Interactions Endpoint; the Developer Portal's
// Interactions Endpoint URL is https://<public host> followed by it.
const InteractionsPath = "/discord/interactions"

const (
	// maxInteractionBody bounds a request's body. Interactions are a few KiB (the largest carry the
	// message a button is on, at most 2,000 characters and its components); a MiB leaves room for
	// anything Discord sends and keeps large bodies from costing memory before they are verified.
	maxInteractionBody = 1 << 20

	// signatureWindow is how far a request's X-Signature-Timestamp may be from this machine's clock,
	// either way. A genuine request is answered within Discord's 3 s, so the window only has to
	// tolerate clock drift: five minutes (as Slack allows its signed requests) keeps a host whose
	// clock is a little off serving, and Discord's own check of a new endpoint URL passing, while the
	// replay cache below refuses anything sent twice within it.
	signatureWindow = 5 * time.Minute

	// maxSeenSignatures bounds the replay cache: 65,536 signatures hold five minutes of 218 requests
	// a second (about 10 MB at most). Busier than that, the oldest are forgotten early and requests
	// stamped no later than them are refused as stale, so a replay is never accepted.
	maxSeenSignatures = 1 << 16

	// httpDeferAfter is how long the dealer may take before the body carries a deferral. Discord
	// allows 3 s from sending the request to reading the answer; the rest covers the way there and
	// back (a reverse proxy's TLS, another continent). A click is normally answered in milliseconds.
	httpDeferAfter = 2500 * time.Millisecond

	// httpAnswerLimit is when the handler stops waiting for a first response: Discord has given up.
	httpAnswerLimit = 3 * time.Second
)

// Routes registers the Interactions Endpoint (POST InteractionsPath) on mux when DISCORD_PUBLIC_KEY
// is set, and nothing otherwise. cmd/dealerbot serves mux on DEALERBOT_LISTEN_ADDR.
func (a *Adapter) Routes(mux *http.ServeMux) {
	if a.key == nil {
		return
	}
	mux.HandleFunc("POST "+InteractionsPath, a.serveInteraction)
}

// serveInteraction answers one request of the Interactions Endpoint: a request without a valid,
// fresh, first-seen signature is refused with 401 and goes no further; a PING is answered with a
// PONG; any other interaction is handled as over the gateway, its first response written here.
func (a *Adapter) serveInteraction(w http.ResponseWriter, req *http.Request) {
	defer func() {
		// net/http would recover too, but say nothing useful and leave the request unanswered.
		if p := recover(); p != nil {
			a.log.Error("panic while serving an interaction request", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			http.Error(w, "internal error", http.StatusInternalServerError)
		}
	}()
	body, err := io.ReadAll(http.MaxBytesReader(w, req.Body, maxInteractionBody))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
		return
	case err != nil:
		http.Error(w, "the request body could not be read", http.StatusBadRequest)
		return
	}
	if err := a.verify(req.Header, body); err != nil {
		// Discord sends bad signatures on purpose, and anyone may post here: a refusal is ordinary.
		// A stale timestamp is worth a warning, though: on a genuine request it means the clock is off.
		level := slog.LevelDebug
		if errors.Is(err, errStale) {
			level = slog.LevelWarn
		}
		a.log.Log(req.Context(), level, "refused an interaction request", "remote", req.RemoteAddr, "why", err)
		http.Error(w, "invalid request signature", http.StatusUnauthorized)
		return
	}
	var i discordgo.Interaction
	if err := json.Unmarshal(body, &i); err != nil {
		a.log.Error("a signed interaction could not be read", "err", err)
		http.Error(w, "the interaction could not be read", http.StatusBadRequest)
		return
	}
	if i.Type == discordgo.InteractionPing {
		writeAnswer(w, &discordgo.InteractionResponse{Type: discordgo.InteractionResponsePong})
		return
	}
	a.mu.Lock()
	deferAfter := a.deferAfter
	a.mu.Unlock()
	b := &bodyAnswer{resp: make(chan *discordgo.InteractionResponse), written: make(chan error, 1), gone: make(chan struct{})}
	started := make(chan bool, 1)
	go func() { started <- a.interact(&i, b.first, deferAfter) }()
	limit := time.NewTimer(httpAnswerLimit)
	defer limit.Stop()
	select {
	case resp := <-b.resp:
		err := errGone
		defer func() { b.written <- err }() // even if writing panics: the interaction must not wait forever
		err = writeAnswer(w, resp)
	case ok := <-started:
		// Handled without any answer: the adapter is closing, or the interaction is of a kind the
		// adapter does not take (it registers no autocomplete).
		if !ok {
			http.Error(w, "dealerbot is shutting down", http.StatusServiceUnavailable)
			return
		}
		http.Error(w, "interaction type not handled", http.StatusBadRequest)
	case <-limit.C:
		close(b.gone)
		a.log.Error("an interaction got no answer within Discord's 3 s", "interaction", i.ID, "type", i.Type.String())
		http.Error(w, "no answer in time", http.StatusServiceUnavailable)
	case <-req.Context().Done():
		close(b.gone) // Discord hung up
	}
}

// bodyAnswer hands an interaction's first response from the goroutine handling it to the HTTP
// handler, which writes it as the response body, and reports back whether that worked: only then
// may follow-ups and edits go over REST.
type bodyAnswer struct {
	resp    chan *discordgo.InteractionResponse
	written chan error
	gone    chan struct{} // closed when the handler no longer waits for a response
}

var errGone = errors.New("discord: the interaction's HTTP request ended before it was answered")

func (b *bodyAnswer) first(ctx context.Context, _ *discordgo.Interaction, resp *discordgo.InteractionResponse) error {
	if resp.Data != nil && len(resp.Data.Files) > 0 {
		// Files travel as ephemeral follow-ups (responder.files); a first response never has any.
		return errors.New("discord: a first response with files cannot go in the HTTP response")
	}
	select {
	case b.resp <- resp:
		return <-b.written
	case <-b.gone:
		return errGone
	case <-ctx.Done():
		return ctx.Err()
	}
}

// writeAnswer writes an interaction response as the body, whole and flushed.
func writeAnswer(w http.ResponseWriter, resp *discordgo.InteractionResponse) error {
	body, err := json.Marshal(resp)
	if err != nil {
		http.Error(w, "internal error", http.StatusInternalServerError)
		return fmt.Errorf("discord: encode the interaction response: %w", err)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if _, err := w.Write(body); err != nil {
		return fmt.Errorf("discord: write the interaction response: %w", err)
	}
	if err := http.NewResponseController(w).Flush(); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return fmt.Errorf("discord: send the interaction response: %w", err)
	}
	return nil
}

// Why a request is refused; errStale is worth a warning in the log.
var (
	errUnsigned  = errors.New("no X-Signature-Ed25519 or X-Signature-Timestamp header")
	errSignature = errors.New("the signature is not the application's")
	errStale     = errors.New("the timestamp is too far from this machine's clock (is the clock right?)")
	errReplayed  = errors.New("the same signed request was already received")
)

// verify checks a request as Discord signs it: X-Signature-Ed25519 is the hex Ed25519 signature,
// by the application's key, of X-Signature-Timestamp (Unix seconds) followed by the body. A
// request also has to be fresh (signatureWindow) and seen for the first time (replayCache).
func (a *Adapter) verify(h http.Header, body []byte) error {
	sigHex, stamp := h.Get("X-Signature-Ed25519"), h.Get("X-Signature-Timestamp")
	if sigHex == "" || stamp == "" {
		return errUnsigned
	}
	sig, err := hex.DecodeString(sigHex)
	if err != nil || len(sig) != ed25519.SignatureSize {
		return errSignature
	}
	msg := make([]byte, 0, len(stamp)+len(body))
	msg = append(append(msg, stamp...), body...)
	if !ed25519.Verify(a.key, msg, sig) {
		return errSignature
	}
	secs, err := strconv.ParseInt(stamp, 10, 64)
	if err != nil {
		return fmt.Errorf("%w: %q is not a number of seconds", errStale, stamp)
	}
	return a.seen.check([ed25519.SignatureSize]byte(sig), secs, a.now())
}

// replayCache remembers the signatures of the requests accepted within the window, so that a request
// captured and sent again is refused. It is bounded: when full, the oldest signature is forgotten,
// and from then on a request stamped no later than it is refused (horizon), as a stale one is.
type replayCache struct {
	mu      sync.Mutex
	window  time.Duration
	max     int
	seen    map[[ed25519.SignatureSize]byte]bool
	order   []seenSignature // in the order accepted
	horizon int64           // requests stamped at or before this second are refused
}

type seenSignature struct {
	sig   [ed25519.SignatureSize]byte
	stamp int64 // Unix seconds
}

func newReplayCache(window time.Duration, max int) *replayCache {
	return &replayCache{window: window, max: max, seen: map[[ed25519.SignatureSize]byte]bool{}}
}

// check accepts a signature stamped at stamp (Unix seconds), now being this machine's time, and
// remembers it; or it says why the request is refused.
func (c *replayCache) check(sig [ed25519.SignatureSize]byte, stamp int64, now time.Time) error {
	at := time.Unix(stamp, 0)
	if d := now.Sub(at); d > c.window || d < -c.window {
		return fmt.Errorf("%w: stamped %s, %v from now", errStale, at.UTC().Format(time.RFC3339), d.Round(time.Second))
	}
	oldest := now.Add(-c.window).Unix()
	c.mu.Lock()
	defer c.mu.Unlock()
	for len(c.order) > 0 && c.order[0].stamp < oldest {
		c.forgetOldest()
	}
	switch {
	case stamp <= c.horizon:
		return fmt.Errorf("%w: stamped no later than what the replay cache has forgotten", errStale)
	case c.seen[sig]:
		return errReplayed
	}
	if len(c.order) >= c.max {
		c.forgetOldest()
	}
	c.seen[sig] = true
	c.order = append(c.order, seenSignature{sig: sig, stamp: stamp})
	return nil
}

// forgetOldest drops the signature accepted first. The horizon moves past its stamp, so it cannot be
// accepted again even if the clock went back.
func (c *replayCache) forgetOldest() {
	old := c.order[0]
	delete(c.seen, old.sig)
	c.order = c.order[1:]
	c.horizon = max(c.horizon, old.stamp)
}
