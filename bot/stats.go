package bot

import "context"

// StatsStore reads the hands stats are worked out from. Every Store implements it.
type StatsStore interface {
	// EachHandOf calls fn with every finished hand of the tables whose ID starts with prefix
	// ("discord/GUILD/" for a community, a table's ID and "\x00"-free suffix for one table), table by
	// table in hand-number order; fn's error stops it.
	EachHandOf(ctx context.Context, prefix string, fn func(HandRecord) error) error
}
