package money_test

import (
	"fmt"

	"github.com/dealerbot/dealerbot/bot/money"
)

func ExampleSettleUp() {
	pays, err := money.SettleUp([]money.Balance{
		{User: "U1", Name: "Alice", Net: 350},
		{User: "U2", Name: "Bob", Net: -350},
		{User: "U3", Name: "Carol", Net: 125},
		{User: "U4", Name: "Dave", Net: -125},
	})
	if err != nil {
		panic(err)
	}
	for _, p := range pays {
		fmt.Println(p)
	}
	// Output:
	// Bob pays Alice 350
	// Dave pays Carol 125
}
