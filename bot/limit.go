package bot

import (
	"sync"
	"time"

	"github.com/dealerbot/dealerbot/bot/errs"
)

// RateLimit bounds how fast one user's commands are taken: a bucket of Burst commands, refilled by
// one every Every. The zero value is DefaultRateLimit; Off turns limiting off (the console, where
// the only user is at the keyboard).
type RateLimit struct {
	Burst int
	Every time.Duration
	Off   bool
}

// DefaultRateLimit lets a player click and type as fast as a person does (ten at once, then one a
// second) and stops a script from flooding a table or the database.
var DefaultRateLimit = RateLimit{Burst: 10, Every: time.Second}

// maxBuckets bounds the limiter's memory: past it, buckets that are full again (idle users) are
// dropped.
const maxBuckets = 10000

// limiter is a token bucket per platform, workspace and user.
type limiter struct {
	rl      RateLimit
	mu      sync.Mutex
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	at     time.Time
}

func newLimiter(rl RateLimit) *limiter {
	if rl.Burst <= 0 || rl.Every <= 0 {
		rl.Burst, rl.Every = DefaultRateLimit.Burst, DefaultRateLimit.Every
	}
	return &limiter{rl: rl, buckets: map[string]*bucket{}}
}

// allow takes one token for cmd's user, or refuses with a sentence when there is none.
func (l *limiter) allow(cmd Command, now time.Time) error {
	if l.rl.Off || cmd.Probe || cmd.Schedule != "" { // the scheduler is bounded by its own limits
		return nil // a probe is the first half of a click that is counted when it is submitted
	}
	key := cmd.Platform + "\x00" + cmd.Workspace + "\x00" + cmd.User
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.buckets[key]
	if b == nil {
		if len(l.buckets) >= maxBuckets {
			l.prune(now)
		}
		b = &bucket{tokens: float64(l.rl.Burst), at: now}
		l.buckets[key] = b
	}
	l.refill(b, now)
	if b.tokens < 1 {
		wait := time.Duration((1 - b.tokens) * float64(l.rl.Every))
		return errs.Errorf(errs.TooMany, "You are sending commands too fast: slow down and try again in %d s.", int(wait/time.Second)+1)
	}
	b.tokens--
	return nil
}

func (l *limiter) refill(b *bucket, now time.Time) {
	if el := now.Sub(b.at); el > 0 {
		b.tokens = min(float64(l.rl.Burst), b.tokens+float64(el)/float64(l.rl.Every))
	}
	b.at = now
}

// prune drops the buckets of users who have been idle long enough to be full again.
func (l *limiter) prune(now time.Time) {
	for k, b := range l.buckets {
		l.refill(b, now)
		if b.tokens >= float64(l.rl.Burst) {
			delete(l.buckets, k)
		}
	}
}
