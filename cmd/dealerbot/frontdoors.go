package main

// The HTTP front doors: one server on DEALERBOT_LISTEN_ADDR with one mux, on which each chat adapter
// that answers HTTP registers its handlers (Discord's Interactions Endpoint; health checks and
// Slack's requests can be added the same way).

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/dealerbot/dealerbot/bot"
)

// frontDoor is a chat adapter with HTTP handlers of its own (*discord.Adapter).
type frontDoor interface {
	Routes(mux *http.ServeMux)
}

// frontDoorShutdown is how long the server waits for requests in flight when dealerbot stops.
const frontDoorShutdown = 5 * time.Second

// frontDoors listens on addr (DEALERBOT_LISTEN_ADDR) and returns the runner that serves every chat's
// handlers there until ctx ends; with addr empty, none. It listens at once, so that an address in use
// stops the start with a sentence instead of going unnoticed in the background.
// extra registers handlers of the dealer's own (health, readiness, metrics). The bound address is
// returned too (for a port of 0).
func frontDoors(addr string, chats map[string]bot.Chat, log *slog.Logger, extra ...func(*http.ServeMux)) ([]func(context.Context) error, string, error) {
	if addr == "" {
		return nil, "", nil
	}
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return nil, "", fmt.Errorf("DEALERBOT_LISTEN_ADDR must be an address to listen on, host:port or :port such as :8080, not %q", addr)
	}
	mux := http.NewServeMux()
	for _, f := range extra {
		f(mux)
	}
	var names []string
	for _, name := range slices.Sorted(maps.Keys(chats)) {
		if d, ok := chats[name].(frontDoor); ok {
			d.Routes(mux)
			names = append(names, name)
		}
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, "", fmt.Errorf("DEALERBOT_LISTEN_ADDR %s: %w", addr, err)
	}
	srv := &http.Server{
		Handler: recovered(mux, log),
		// Bounds for a server that faces the internet: slow or huge requests cannot hold it up.
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	run := func(ctx context.Context) error {
		log.Info("serving HTTP", "addr", ln.Addr().String(), "for", strings.Join(names, ","))
		served := make(chan error, 1)
		go func() { served <- srv.Serve(ln) }()
		select {
		case err := <-served:
			return fmt.Errorf("DEALERBOT_LISTEN_ADDR %s: %w", addr, err)
		case <-ctx.Done():
		}
		shutdown, cancel := context.WithTimeout(context.Background(), frontDoorShutdown)
		defer cancel()
		if err := srv.Shutdown(shutdown); err != nil {
			return fmt.Errorf("stop serving HTTP on %s: %w", addr, err)
		}
		if err := <-served; !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	}
	return []func(context.Context) error{run}, ln.Addr().String(), nil
}

// recovered answers a request whose handler panicked with 500 and logs the panic with its stack: one
// bad request must not cost more than itself. (net/http would recover too, but close the connection
// without an answer and log only to its own logger.)
func recovered(h http.Handler, log *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p) // the handler's own way to abort the response
				}
				log.Error("panic while serving HTTP", "method", r.Method, "path", r.URL.Path, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				http.Error(w, "internal error", http.StatusInternalServerError)
			}
		}()
		h.ServeHTTP(w, r)
	})
}
