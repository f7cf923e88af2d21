package bot

import "context"

// Verb is a command table entry as the tests see it: the name of its need and the refusal that
// completes the gate's sentence.
type Verb struct{ Need, Refusal string }

// needNames name the gate's needs for the tests; a need missing here is reported as unnamed.
var needNames = map[need]string{needAnyone: "anyone", needAdmin: "admin", needChannelHost: "channel host", needOwner: "owner",
	needTable: "table", needOpen: "open", needSeat: "seat", needSeatOrHost: "seat or host", needHost: "host"}

// Verbs returns every entry of the command table (each alias and each verb of two words too).
func Verbs() map[string]Verb {
	out := map[string]Verb{}
	for name, v := range newVerbs() {
		if name == setCore {
			continue // reached only through `set` (setVerb)
		}
		out[name] = Verb{Need: needNames[v.need], Refusal: v.refusal}
	}
	return out
}

// GateWithoutNeed is the gate's answer to a verb whose need was never written.
func GateWithoutNeed() error {
	return (&Dealer{}).gate(context.Background(), "new", verb{}, nil, Command{User: "u", Admin: true}, nil)
}
