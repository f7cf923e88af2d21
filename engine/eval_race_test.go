//go:build race

package engine

// raceEnabled lets the slowest exhaustive tests skip themselves under the race detector.
const raceEnabled = true
