package record

import (
	"bytes"
	"encoding/hex"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/storage/internal/handgen"
)

// TestHandCodec: a hand stored compactly reads back exactly, and stays under 400 bytes.
func TestHandCodec(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 2000; i++ {
		h := handgen.Played(r, "discord/123456789012345678/876543210987654321", int64(i+1))
		v := EncodeHand(h)
		if h := len(h.Stacks); h <= 6 && len(v) > 400 {
			t.Fatalf("a %d-player hand takes %d bytes, want at most 400", h, len(v))
		}
		got, err := DecodeHand(h.Table, h.No, v)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, h) {
			t.Fatalf("hand read back differs:\n got %+v\nwant %+v", got, h)
		}
		// Every shorter prefix is refused, never read as something else.
		for cut := 1; cut < len(v); cut += 7 {
			if _, err := DecodeHand(h.Table, h.No, v[:cut]); err == nil {
				t.Fatalf("a hand cut to %d of %d bytes was read without error", cut, len(v))
			}
		}
	}
}

// FuzzDecode: no stored bytes make the decoders panic.
func FuzzDecode(f *testing.F) {
	r := rand.New(rand.NewPCG(1, 1))
	f.Add(EncodeHand(handgen.Played(r, "t", 1)))
	f.Add(EncodeLedger([]table.LedgerEntry{{Kind: table.KindResult, User: "a"}, {Kind: table.KindResult, User: "b"}}))
	f.Add([]byte("{}"))
	f.Fuzz(func(t *testing.T, v []byte) {
		DecodeHand("t", 1, v)
		DecodeLedger(1, v)
	})
}

// oldHand is a hand record as EncodeHand wrote it before tournament hands were kept with their
// tournament (formatHand): two players, fixed-limit 5/10, a bomb pot of 20, hand 7.
const oldHand = "01f699a9f39891dcea310208706c6179657220301230343332333038373834343630323436343001ca12a21208706c61796572203112333333343130373338333634303730303337029446bc4602000a140000000000010a250d33072d04231f213226110129171c021e1a2c0a000e05132722310c03161b242b1d282008102e300f0b15182a060919122f1401100123456789abcdef0123456789abcdef0228030c2802000000"

// TestItem11TournamentHandCodec: a tournament hand keeps its tournament (start, buy-in, starting
// stack, level, speed, rebuys, the finishes of the hand) in a record of its own form, read back
// exactly and refused when cut short; records written before read as they did, and a cash-game hand
// is still written byte for byte as before.
func TestItem11TournamentHandCodec(t *testing.T) {
	old, err := hex.DecodeString(oldHand)
	if err != nil {
		t.Fatal(err)
	}
	h, err := DecodeHand("console/local/console", 7, old)
	if err != nil {
		t.Fatalf("an old record no longer reads: %v", err)
	}
	if h.Tournament != nil || h.BombPot != 20 || len(h.Actions) != 3 || h.Final[1] != 4510 {
		t.Fatalf("the old record reads as %+v", h)
	}
	if again := EncodeHand(h); !bytes.Equal(again, old) {
		t.Fatalf("a cash-game hand is written differently now:\n%x\n%x", again, old)
	}
	r := rand.New(rand.NewPCG(11, 28))
	for i := 0; i < 500; i++ {
		h := handgen.Played(r, "discord/1/2", int64(i+1))
		h.Tournament = &table.TournamentHand{Began: time.Unix(1795440000, int64(i)).UTC(), BuyIn: 100, Stack: 1500, Level: 1 + i%12,
			LevelMinutes: i % 20, Rebuys: i%2 == 0}
		for p := 0; p < i%3 && p < len(h.Stacks); p++ {
			h.Tournament.Finishes = append(h.Tournament.Finishes, table.Finish{Player: p, Place: len(h.Stacks) - p, Prize: int64(i * p)})
		}
		v := EncodeHand(h)
		if v[0] != formatHandTournament {
			t.Fatalf("a tournament hand is written as form %d", v[0])
		}
		got, err := DecodeHand(h.Table, h.No, v)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, h) {
			t.Fatalf("tournament hand read back differs:\n got %+v\nwant %+v", got.Tournament, h.Tournament)
		}
		for cut := 1; cut < len(v); cut++ {
			if _, err := DecodeHand(h.Table, h.No, v[:cut]); err == nil {
				t.Fatalf("a tournament hand cut to %d of %d bytes was read without error", cut, len(v))
			}
		}
	}
}

// TestHandCodecGame: an Omaha hand's game is stored and read back, and a Hold'em hand is stored
// byte for byte as before games existed (the variant's number alone), so older records read as
// Hold'em.
func TestHandCodecGame(t *testing.T) {
	r := rand.New(rand.NewPCG(35, 1))
	h := handgen.Played(r, "console/table", 7)
	holdem := EncodeHand(h)
	for _, g := range []engine.Game{engine.Omaha, engine.Omaha5, engine.OmahaHiLo} {
		o := h
		o.Rules.Game = g
		v := EncodeHand(o)
		if len(v) != len(holdem) {
			t.Fatalf("%v: %d bytes, Hold'em %d: the game should cost nothing", g, len(v), len(holdem))
		}
		got, err := DecodeHand(o.Table, o.No, v)
		if err != nil {
			t.Fatal(err)
		}
		if got.Rules != o.Rules {
			t.Fatalf("%v: rules read back %+v, want %+v", g, got.Rules, o.Rules)
		}
	}
	got, err := DecodeHand(h.Table, h.No, holdem)
	if err != nil {
		t.Fatal(err)
	}
	if got.Rules.Game != engine.Holdem || got.Rules.Variant != h.Rules.Variant {
		t.Fatalf("a Hold'em record reads back as %v %v", got.Rules.Game, got.Rules.Variant)
	}
}
