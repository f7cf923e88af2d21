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
	"strings"
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

// runHTTP listens on cfg.ListenAddr until ctx is cancelled; with none, the shared front doors serve
// the endpoints (Routes) and it only waits.
func (a *Adapter) runHTTP(ctx context.Context) error {
	if a.cfg.ListenAddr == "" {
		<-ctx.Done()
		return ctx.Err()
	}
	ln, err := net.Listen("tcp", a.cfg.ListenAddr)
	if err != nil {
		return fmt.Errorf("slack: cannot listen on SLACK_LISTEN_ADDR %q (use a free address such as :3000): %w", a.cfg.ListenAddr, err)
	}
	if a.cfg.Mode() != OAuthMode { // in OAuth mode each workspace's token is checked by its first call
		if err := a.checkAuth(ctx); err != nil {
			ln.Close()
			return err
		}
	}
	return a.serve(ctx, ln)
}

// Routes mounts Slack's endpoints on dealerbot's shared front doors (DEALERBOT_LISTEN_ADDR) when the
// adapter has no listener of its own (SLACK_LISTEN_ADDR empty).
func (a *Adapter) Routes(mux *http.ServeMux) {
	if m := a.cfg.Mode(); (m == HTTPMode || m == OAuthMode) && a.cfg.ListenAddr == "" {
		a.Mount(mux)
	}
}

// Mount registers dealerbot's Slack endpoints on mux, for a process that serves several platforms on
// one listener: /slack/events (slash commands, interactivity and the Events API, each signed by
// Slack) and, for many workspaces, /slack/install and /slack/oauth/callback.
func (a *Adapter) Mount(mux *http.ServeMux) {
	mux.Handle("/slack/events", a)
	if a.cfg.Mode() == OAuthMode {
		mux.HandleFunc("/slack/install", a.install)
		mux.HandleFunc("/slack/oauth/callback", a.callback)
	}
}

// serve answers Slack's requests on ln until ctx is cancelled: the endpoints of Mount, and Slack's
// requests on any other path too (a Request URL set before /slack/events was the rule).
func (a *Adapter) serve(ctx context.Context, ln net.Listener) error {
	mux := http.NewServeMux()
	a.Mount(mux)
	mux.Handle("/", a)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: readHeaderTimeout, ReadTimeout: a.readTimeout,
		WriteTimeout: writeTimeout, IdleTimeout: idleTimeout, MaxHeaderBytes: maxHeaderBytes}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	a.log.Info("slack: listening ("+a.cfg.Mode().String()+")", "addr", ln.Addr().String())
	if a.cfg.Mode() == OAuthMode {
		a.log.Info("slack: workspaces install the app at https://YOUR-HOST/slack/install")
	}
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

// ServeHTTP answers Slack's HTTP requests: slash commands and interactivity (buttons, modals), and
// Events API events (JSON; events.go), on any path. Every request must carry a valid, fresh signature
// made with the signing secret; anything else gets 401 and changes nothing. The answer is sent at
// once; the command is handled afterwards.
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
	if strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		a.event(w, body)
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
		if why := a.notServed(r, userOf(&ic).Workspace); why != "" {
			w.WriteHeader(http.StatusOK) // a click has no answer of its own; the log says why
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
		if why := a.notServed(r, sc.TeamID); why != "" {
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(map[string]string{"response_type": "ephemeral", "text": why})
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

// notServed says, for a request from a workspace dealerbot cannot answer in OAuth mode (it has no
// installation there, or the stored token does not open), why, for the sender; "" when it is served.
func (a *Adapter) notServed(r *http.Request, team string) string {
	if a.cfg.Mode() != OAuthMode {
		return ""
	}
	_, err := a.team(r.Context(), team)
	switch {
	case err == nil:
		return ""
	case errors.Is(err, errNotInstalled):
		a.log.Info("slack: a request from a workspace without an installation", "team", team)
		return "dealerbot is not installed in this workspace (it was removed, or its token revoked): a workspace admin can add it again at https://" +
			r.Host + "/slack/install"
	}
	a.log.Error("slack: cannot answer a workspace", "team", team, "err", err)
	return "dealerbot cannot use its installation in this workspace right now, and nothing was done; whoever runs dealerbot has been told."
}
