package schedule_test

import (
	"fmt"
	"time"

	"github.com/dealerbot/dealerbot/bot/schedule"
)

func ExampleParse() {
	loc, err := schedule.ParseZone("America/New_York")
	if err != nil {
		panic(err)
	}
	spec, err := schedule.Parse("weekly fri 20:00", loc)
	if err != nil {
		panic(err)
	}
	// The clocks go forward on Sunday 8 March 2026; the game stays at 20:00 local time.
	for _, t := range spec.NextN(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), 3) {
		fmt.Println(t.Format("Mon 2 Jan 15:04 MST"), "=", t.UTC().Format("15:04 UTC"))
	}
	// Output:
	// Fri 6 Mar 20:00 EST = 01:00 UTC
	// Fri 13 Mar 20:00 EDT = 00:00 UTC
	// Fri 20 Mar 20:00 EDT = 00:00 UTC
}
