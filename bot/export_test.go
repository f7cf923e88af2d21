package bot

import (
	"context"

	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/bot/vocab"
)

// Verb is a registry entry as the tests see it: the name of its need and the refusal that
// completes the gate's sentence.
type Verb struct{ Need, Refusal string }

// needNames name the gate's needs for the tests; a need missing here is reported as unnamed.
var needNames = map[vocab.Need]string{vocab.Anyone: "anyone", vocab.Admin: "admin", vocab.ChannelHost: "channel host", vocab.Holder: "owner",
	vocab.Table: "table", vocab.Open: "open", vocab.Seat: "seat", vocab.SeatOrHost: "seat or host", vocab.Host: "host"}

// Verbs returns every entry of d's registry (each alias and each verb of two words too).
func Verbs(d *Dealer) map[string]Verb {
	out := map[string]Verb{}
	for name, v := range d.verbs {
		if name == table.SetVerb {
			continue // reached only through `set`
		}
		out[name] = Verb{Need: needNames[v.Need], Refusal: v.Refusal}
	}
	return out
}

// GateWithoutNeed is the gate's answer to a verb whose need was never written.
func GateWithoutNeed() error {
	return (&Dealer{}).gate(context.Background(), "new", vocab.Verb{}, nil, Command{User: "u", Admin: true}, nil)
}
