package slack

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"

	slackapi "github.com/slack-go/slack"
)

// maxBody bounds a request body. Slack's payloads are a few kilobytes; a block_actions payload of a
// big message stays well under 64 KiB.
const maxBody = 64 << 10

// The HTTP server's limits: a client that sends its headers or body slowly, or idles, is cut off, so
// a few slow connections cannot hold the listener's resources.
const (
	readHeaderTimeout = 5 * time.Second
	readTimeout       = 10 * time.Second // the whole request, body included
	writeTimeout      = 10 * time.Second // the answer is sent at once; the work continues in the background
	idleTimeout       = 60 * time.Second
	maxHeaderBytes    = 16 << 10
)

// replayWindow is how far a request's timestamp may be from now, as slack.SecretsVerifier enforces:
// a request is remembered until its timestamp is that old, after which it cannot pass again anyway.
const replayWindow = 5 * time.Minute

var errReplay = errors.New("request already served (replayed signature)")

// runHTTP listens on cfg.ListenAddr until ctx is cancelled.
func (a *Adapter) runHTTP(ctx context.Context) error {
	ln, err := net.Listen("tcp", a.cfg.ListenAddr)
	if err != nil {
		return fmt.Errorf("slack: cannot listen on SLACK_LISTEN_ADDR %q (use a free address such as :3000): %w", a.cfg.ListenAddr, err)
	}
	if err := a.checkAuth(ctx); err != nil {
		ln.Close()
		return err
	}
	return a.serve(ctx, ln)
}

// serve answers Slack's requests on ln until ctx is cancelled.
func (a *Adapter) serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{Handler: a, ReadHeaderTimeout: readHeaderTimeout, ReadTimeout: a.readTimeout,
		WriteTimeout: writeTimeout, IdleTimeout: idleTimeout, MaxHeaderBytes: maxHeaderBytes}
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
	// Remember the request by what the signature signs (timestamp and body), not by the signature's
	// text: "v0=AB…" and "v0=ab…" are the same signature, and both must count as one request.
	ts, err := strconv.ParseInt(h.Get("X-Slack-Request-Timestamp"), 10, 64)
	if err != nil {
		return fmt.Errorf("bad timestamp: %w", err)
	}
	sum := sha256.Sum256(append([]byte(h.Get("X-Slack-Request-Timestamp")+":"), body...))
	key := hex.EncodeToString(sum[:])
	expires := time.Unix(ts, 0).Add(replayWindow)
	a.mu.Lock()
	defer a.mu.Unlock()
	if !firstSight(a.seen, key, a.now(), expires) {
		return errReplay
	}
	return nil
}
