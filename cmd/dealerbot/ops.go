package main

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/dealerbot/dealerbot/bot"
)

// ops is what a load balancer and a monitoring system read on DEALERBOT_LISTEN_ADDR: GET /healthz
// (the process is up), GET /readyz (it reaches its database and serves) and GET /metrics
// (Prometheus text format). Other front doors register their handlers on the same mux.
type ops struct {
	reg     *prometheus.Registry
	metrics *bot.Metrics
	dealer  *bot.Dealer // set once the dealer runs
	pinger  interface{ Ping(context.Context) error }
}

func newOps(db store) *ops {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	o := &ops{reg: reg, metrics: bot.NewMetrics(reg)}
	o.pinger, _ = db.(interface{ Ping(context.Context) error })
	return o
}

// routes registers /healthz, /readyz and /metrics on the front doors' mux.
func (o *ops) routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, "ok") })
	mux.HandleFunc("GET /readyz", o.ready)
	mux.Handle("GET /metrics", promhttp.HandlerFor(o.reg, promhttp.HandlerOpts{}))
}

// watch starts reading d's gauges and readiness.
func (o *ops) watch(d *bot.Dealer) {
	o.dealer = d
	o.metrics.Watch(o.reg, d.Tables, func() int { return len(d.Own().Owned()) }, d.Own().Served)
}

func (o *ops) ready(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	var problems []string
	if o.dealer == nil {
		problems = append(problems, "the dealer is starting")
	} else if err := o.dealer.Ready(); err != nil {
		problems = append(problems, "dealer: "+err.Error())
	}
	if o.pinger != nil {
		if err := o.pinger.Ping(ctx); err != nil {
			problems = append(problems, "database: "+err.Error())
		}
	}
	if len(problems) > 0 {
		w.WriteHeader(http.StatusServiceUnavailable)
		for _, p := range problems {
			fmt.Fprintln(w, p)
		}
		return
	}
	fmt.Fprintln(w, "ready")
}
