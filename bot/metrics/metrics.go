// Package metrics holds the dealer's Prometheus metrics: the dealer (package bot), the ownership of
// communities (bot/own) and the adapters count into them, and the ops listener serves them.
package metrics

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dealerbot/dealerbot/bot/vocab"
)

// Metrics are the dealer's Prometheus metrics (GET /metrics): what it applied and how fast, what it
// forwarded and took over, what it serves. Register them once with New and give them to bot.New
// through bot.Config.Metrics; a nil *Metrics records nothing.
type Metrics struct {
	actions   *prometheus.CounterVec // by source: command, automatic
	commit    prometheus.Histogram
	commands  *prometheus.CounterVec // by result: ok, refused
	latency   prometheus.Histogram   // a command from arrival to its reply
	forwarded prometheus.Counter
	takeovers prometheus.Counter
	rateWaits *prometheus.CounterVec // by platform
	rate429   *prometheus.CounterVec // by platform
}

// New makes the dealer's metrics and registers them on reg; the gauges that read the dealer's open
// tables and owned communities when scraped are registered later, with Watch, once it runs.
func New(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		actions: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "dealerbot_actions_applied_total",
			Help: "Steps committed at the tables: from players' commands, or automatic (timeouts, deals)."}, []string{"source"}),
		commit: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "dealerbot_commit_seconds",
			Help: "How long a table's commit to the store took.", Buckets: prometheus.ExponentialBuckets(0.0001, 2, 16)}),
		commands: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "dealerbot_commands_total",
			Help: "Commands and clicks received and answered, by result (ok or refused)."}, []string{"result"}),
		latency: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "dealerbot_command_seconds",
			Help: "How late a command was answered: from its arrival to its reply.", Buckets: prometheus.ExponentialBuckets(0.0001, 2, 18)}),
		forwarded: prometheus.NewCounter(prometheus.CounterOpts{Name: "dealerbot_commands_forwarded_total",
			Help: "Commands handed to the process that owns their community."}),
		takeovers: prometheus.NewCounter(prometheus.CounterOpts{Name: "dealerbot_takeovers_total",
			Help: "Communities this process took over from another process (expired or released lease)."}),
		rateWaits: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "dealerbot_ratelimit_waits_total",
			Help: "Times a platform's rate limit made a message wait."}, []string{"platform"}),
		rate429: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "dealerbot_ratelimit_429_total",
			Help: "429 answers from a platform."}, []string{"platform"}),
	}
	reg.MustRegister(m.actions, m.commit, m.commands, m.latency, m.forwarded, m.takeovers, m.rateWaits, m.rate429)
	return m
}

// Watch registers on reg the gauges read when scraped: the open tables (tables: bot.Dealer.Tables),
// the communities held (owned: how many bot/own's Owner.Owned lists) and served (served:
// Owner.Served).
func (m *Metrics) Watch(reg prometheus.Registerer, tables, owned, served func() int) {
	reg.MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "dealerbot_open_tables", Help: "Tables with a goroutine in this process."},
			func() float64 { return float64(tables()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "dealerbot_communities_owned", Help: "Communities this process holds a lease on."},
			func() float64 { return float64(owned()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "dealerbot_communities_served", Help: "Communities this process serves: held, restored and renewed within two thirds of the lease."},
			func() float64 { return float64(served()) }),
	)
}

// RateLimited counts a wait (or, with status429, a 429 answer) imposed by platform's rate limit;
// adapters call it.
func (m *Metrics) RateLimited(platform string, status429 bool) {
	if m == nil {
		return
	}
	if status429 {
		m.rate429.WithLabelValues(platform).Inc()
	} else {
		m.rateWaits.WithLabelValues(platform).Inc()
	}
}

// Applied counts a step committed at a table: automatic (a timeout, a deal) or from a command.
func (m *Metrics) Applied(automatic bool) {
	if m == nil {
		return
	}
	if automatic {
		m.actions.WithLabelValues("automatic").Inc()
	} else {
		m.actions.WithLabelValues("command").Inc()
	}
}

// Committed records how long a table's commit to the store took.
func (m *Metrics) Committed(d time.Duration) {
	if m != nil {
		m.commit.Observe(d.Seconds())
	}
}

// Answered counts a command answered with r (ok, or refused when r is an error) and records how
// long after since, its arrival.
func (m *Metrics) Answered(r vocab.Reply, since time.Time) {
	if m == nil {
		return
	}
	if r.IsError {
		m.commands.WithLabelValues("refused").Inc()
	} else {
		m.commands.WithLabelValues("ok").Inc()
	}
	m.latency.Observe(time.Since(since).Seconds())
}

// Forward counts a command handed to the process that owns its community.
func (m *Metrics) Forward() {
	if m != nil {
		m.forwarded.Inc()
	}
}

// TookOver counts a community taken over from another process.
func (m *Metrics) TookOver() {
	if m != nil {
		m.takeovers.Inc()
	}
}
