package phh_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/engine/phh"
)

func ExampleReplay() {
	h, err := phh.Parse(strings.NewReader(`
variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [100, 100]
actions = ['d dh p1 AsAd', 'd dh p2 7c2h', 'p2 cbr 6', 'p1 cc', 'd db Kh8s3c', 'p1 cc', 'p2 cbr 4', 'p1 cbr 12', 'p2 f']
finishing_stacks = [110, 90]
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	hand, err := phh.Replay(h)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(hand.Stacks(), engine.FormatCards(hand.Board()))
	// Output: [110 90] Kh8s3c
}

func ExampleFromHand() {
	// Heads-up, engine player 0 on the button: hole cards go to player 1 first.
	deck, _ := engine.DeckFrom(engine.MustParseCards("KdAs7cAd" + "2c" + "Kh8s3c" + "3d" + "9h" + "4d" + "Qc"))
	hand, err := engine.Replay(engine.Setup{
		Rules:  engine.Rules{SmallBlind: 1, BigBlind: 2},
		Stacks: []int64{100, 80},
		Button: 0,
		Deck:   deck,
	}, []engine.Action{
		{Player: 0, Kind: engine.Raise, Amount: 6}, {Player: 1, Kind: engine.Call},
		{Player: 1, Kind: engine.Check}, {Player: 0, Kind: engine.Bet, Amount: 10}, {Player: 1, Kind: engine.Fold},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	h := phh.FromHand(hand, []string{"Ann", "Bob"})
	h.Redacted().WriteTo(os.Stdout)
	// Output:
	// variant = "NT"
	// ante_trimming_status = false
	// antes = [0, 0]
	// blinds_or_straddles = [1, 2]
	// min_bet = 2
	// starting_stacks = [80, 100]
	// actions = [
	//   "d dh p1 ????",
	//   "d dh p2 ????",
	//   "p2 cbr 6",
	//   "p1 cc",
	//   "d db Kh8s3c",
	//   "p1 cc",
	//   "p2 cbr 10",
	//   "p1 f",
	// ]
	// players = ["Bob", "Ann"]
	// finishing_stacks = [74, 106]
}
