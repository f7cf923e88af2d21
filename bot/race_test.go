//go:build race

package bot_test

// raceEnabled: under the race detector the hostile test sends 10,000 commands; CI runs the full
// 100,000 in a separate pass without it.
const raceEnabled = true
