package slack

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	slackapi "github.com/slack-go/slack"
)

// maxBody bounds a request body; Slack's payloads are a few kilobytes.
const maxBody = 1 << 20

// replayWindow is how long a request signature is remembered. Slack's verifier already refuses
// timestamps more than 5 minutes off, so a signature older than that cannot pass again anyway.
const replayWindow = 6 * time.Minute

var errReplay = errors.New("request already served (replayed signature)")

// runHTTP listens on cfg.ListenAddr until ctx is cancelled.
func (a *Adapter) runHTTP(ctx context.Context) error {
	ln, err := net.Listen("tcp", a.cfg.ListenAddr)
	if err != nil {
		return fmt.Errorf("slack: cannot listen on SLACK_LISTEN_ADDR %q (use a free address such as :3000): %w", a.cfg.ListenAddr, err)
	}
	return a.serve(ctx, ln)
}

// serve answers Slack's requests on ln until ctx is cancelled.
func (a *Adapter) serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{Handler: a, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	a.log.Info("slack: listening (HTTP mode)", "addr", ln.Addr().String())
	select {
	case err := <-errc:
		return fmt.Errorf("slack: HTTP server: %w", err)
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
		return nil
	}
}

// ServeHTTP answers Slack's HTTP requests: slash commands and interactivity (buttons, modals), on any
// path. Every request must carry a valid, fresh signature made with the signing secret; anything else
// gets 401 and changes nothing. The answer is sent at once; the command is handled afterwards.
func (a *Adapter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "dealerbot accepts only Slack's POST requests here", http.StatusMethodNotAllowed)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		http.Error(w, "request body too large or unreadable", http.StatusBadRequest)
		return
	}
	if err := a.verify(r.Header, body); err != nil {
		a.log.Warn("slack: refused an unverified request", "remote", r.RemoteAddr, "err", err)
		http.Error(w, "invalid or missing Slack signature", http.StatusUnauthorized)
		return
	}
	// The verifier consumed the body; the parsers below read it again.
	r.Body = io.NopCloser(bytes.NewReader(body))
	if err := r.ParseForm(); err != nil {
		http.Error(w, "malformed form body", http.StatusBadRequest)
		return
	}
	switch {
	case r.PostForm.Get("payload") != "":
		ic, err := slackapi.InteractionCallbackParse(r)
		if err != nil {
			http.Error(w, "malformed interaction payload", http.StatusBadRequest)
			return
		}
		payload := a.interact(ic)
		if payload == nil {
			w.WriteHeader(http.StatusOK)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(payload)
	case r.PostForm.Get("command") != "":
		sc, err := slackapi.SlashCommandParse(r)
		if err != nil {
			http.Error(w, "malformed slash command", http.StatusBadRequest)
			return
		}
		a.dispatch(commandFromSlash(sc), sc.ResponseURL)
		w.WriteHeader(http.StatusOK)
	case r.PostForm.Get("ssl_check") == "1":
		w.WriteHeader(http.StatusOK) // Slack checking the certificate of the slash command URL
	default:
		http.Error(w, "neither a slash command nor an interaction payload", http.StatusBadRequest)
	}
}

// verify checks the request's signature and timestamp (slack.NewSecretsVerifier refuses timestamps more
// than 5 minutes off) and refuses a signature it has already served.
func (a *Adapter) verify(h http.Header, body []byte) error {
	sv, err := slackapi.NewSecretsVerifier(h, a.cfg.SigningSecret)
	if err != nil {
		return err
	}
	if _, err := sv.Write(body); err != nil {
		return err
	}
	if err := sv.Ensure(); err != nil {
		return err
	}
	sig := h.Get("X-Slack-Signature")
	now := a.now()
	a.mu.Lock()
	defer a.mu.Unlock()
	for s, at := range a.seen {
		if now.Sub(at) > replayWindow {
			delete(a.seen, s)
		}
	}
	if _, dup := a.seen[sig]; dup {
		return errReplay
	}
	a.seen[sig] = now
	return nil
}
