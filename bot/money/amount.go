// Package money is what chips are worth after the last hand: a chip's value in a currency, amounts of
// money rounded to the currency's minor unit, the payment handles players are paid through, and the
// money book of a community, an append-only list of events (sessions, expenses, debts and what became
// of them) from which the open debts are worked out. It is pure: no I/O, no clock.
//
// dealerbot never moves money: the book only records what players say they paid.
package money

import (
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/dealerbot/dealerbot/bot/errs"
)

// minorDigits are the ISO 4217 currencies whose minor unit is not the hundredth.
var minorDigits = map[string]int{
	"BIF": 0, "CLP": 0, "DJF": 0, "GNF": 0, "ISK": 0, "JPY": 0, "KMF": 0, "KRW": 0, "PYG": 0, "RWF": 0,
	"UGX": 0, "UYI": 0, "VND": 0, "VUV": 0, "XAF": 0, "XOF": 0, "XPF": 0,
	"BHD": 3, "IQD": 3, "JOD": 3, "KWD": 3, "LYD": 3, "OMR": 3, "TND": 3,
	"CLF": 4, "UYW": 4,
}

// hundredths are the ISO 4217 currencies (active codes, funds codes included) whose minor unit is
// the hundredth.
var hundredths = strings.Fields(`AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BOV BRL BSD
BTN BWP BYN BZD CAD CDF CHE CHF CHW CNY COP COU CRC CUC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL
GHS GIP GMD GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR LRD LSL MAD MDL MGA
MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK PHP PKR PLN QAR RON RSD RUB
SAR SBD SCR SDG SEK SGD SHP SLE SLL SOS SRD SSP STN SVC SYP SZL THB TJS TMT TOP TRY TTD TWD TZS UAH USD USN UYU
UZS VED VES WST XCD XCG YER ZAR ZMW ZWG ZWL`)

func init() {
	for _, c := range hundredths {
		minorDigits[c] = 2
	}
}

// Digits returns how many decimal digits the currency's minor unit has (2 for USD: cents), and
// whether code is an ISO 4217 currency this package knows.
func Digits(code string) (int, bool) {
	d, ok := minorDigits[code]
	return d, ok
}

// ParseCurrency reads an ISO 4217 code, in any case.
func ParseCurrency(s string) (string, error) {
	c := strings.ToUpper(strings.TrimSpace(s))
	if _, ok := minorDigits[c]; !ok {
		return "", errs.Errorf(errs.Invalid, "%s is not an ISO 4217 currency code: write currency=USD, currency=EUR, currency=GBP or another three-letter code.", errs.Quote(s))
	}
	return c, nil
}

// Limits on what a chip may be worth: at most 6 decimals, from 0.000001 to 1,000.
const (
	MaxValueScale = 6
	maxValueUnits = 1000 * 1_000_000 // 1,000 at scale 6
)

// Value is what one chip is worth: Units / 10^Scale of the currency. The zero Value means the table
// plays for chips only.
type Value struct {
	Units int64 `json:",omitempty"`
	Scale int   `json:",omitempty"`
}

// IsZero reports whether the value is unset.
func (v Value) IsZero() bool { return v.Units == 0 }

// String writes the value as typed: "0.01", "2", "0.005".
func (v Value) String() string {
	return decimalString(big.NewInt(v.Units), v.Scale, false)
}

// ParseValue reads what a chip is worth, "0.01" or "1" or "0.0025": above 0, at most 1,000, at most
// six decimals.
func ParseValue(s string) (Value, error) {
	units, scale, err := parseDecimal(s, MaxValueScale)
	switch {
	case errors.Is(err, errDecimals):
		return Value{}, errs.Errorf(errs.Invalid, "A chip's value may have at most %d decimals, not %s: for example value=0.01.", MaxValueScale, errs.Quote(s))
	case err != nil:
		return Value{}, errs.Errorf(errs.Invalid, "%s is not a chip value: write what one chip is worth, for example value=0.01 (a cent) with currency=USD.", errs.Quote(s))
	case units <= 0:
		return Value{}, errs.Errorf(errs.Invalid, "A chip's value must be above 0: for example value=0.01.")
	}
	// Compare at scale 6: units * 10^(6-scale) <= 1,000,000,000.
	if scaled := new(big.Int).Mul(big.NewInt(units), pow10(MaxValueScale-scale)); scaled.Cmp(big.NewInt(maxValueUnits)) > 0 {
		return Value{}, errs.Errorf(errs.Invalid, "A chip may be worth at most 1,000 of its currency, not %s.", errs.Quote(s))
	}
	return Value{Units: units, Scale: scale}, nil
}

var errDecimals = errors.New("too many decimals")

// parseDecimal reads an unsigned decimal number with at most maxScale decimals ("12", "12.5",
// "1,234.50") into units and scale. Signs and exponents are not numbers here.
func parseDecimal(s string, maxScale int) (int64, int, error) {
	s = strings.ReplaceAll(strings.TrimSpace(s), ",", "")
	whole, frac, dot := strings.Cut(s, ".")
	if whole == "" && frac == "" || dot && frac == "" && whole == "" || len(whole) > 15 {
		return 0, 0, errors.New("not a number")
	}
	for _, part := range []string{whole, frac} {
		for _, r := range part {
			if r < '0' || r > '9' {
				return 0, 0, errors.New("not a number")
			}
		}
	}
	frac = strings.TrimRight(frac, "0")
	if len(frac) > maxScale {
		return 0, 0, errDecimals
	}
	n, err := strconv.ParseInt(whole+frac, 10, 64)
	if whole+frac == "" {
		n, err = 0, nil
	}
	if err != nil {
		return 0, 0, errors.New("not a number")
	}
	return n, len(frac), nil
}

func pow10(n int) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil) }

// decimalString writes n / 10^scale with all scale digits (trimmed of trailing zeros when trim is
// set), a thousands separator and a minus sign for a negative n.
func decimalString(n *big.Int, scale int, keep bool) string {
	neg := n.Sign() < 0
	digits := new(big.Int).Abs(n).String()
	for len(digits) <= scale {
		digits = "0" + digits
	}
	whole, frac := digits[:len(digits)-scale], digits[len(digits)-scale:]
	if !keep {
		frac = strings.TrimRight(frac, "0")
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if frac != "" {
		b.WriteByte('.')
		b.WriteString(frac)
	}
	return b.String()
}

// Format writes an amount in minor units of currency: "12.50 USD", "-3.00 USD", "1,200 JPY".
func Format(minor int64, currency string) string {
	d, _ := Digits(currency)
	return decimalString(big.NewInt(minor), d, true) + " " + currency
}

// Signed is Format with a plus sign on amounts above zero.
func Signed(minor int64, currency string) string {
	if minor > 0 {
		return "+" + Format(minor, currency)
	}
	return Format(minor, currency)
}

// MaxAmount is the largest amount a player may type: 1,000,000.00 of any currency.
const MaxAmount = 1_000_000

// ParseAmount reads an amount of money a player typed ("30", "30.00", "1,250.5") into minor units of
// currency. Negative, zero, above 1,000,000, more decimals than the currency has, and anything that
// is not a number are refused, each with its own sentence.
func ParseAmount(s, currency string) (int64, error) {
	d, _ := Digits(currency)
	t := strings.TrimSpace(s)
	if strings.HasPrefix(t, "-") {
		return 0, errs.Errorf(errs.Invalid, "An amount cannot be negative: write what was paid, for example `expense 30.00 pizza`.")
	}
	t = strings.TrimPrefix(t, "+")
	units, scale, err := parseDecimal(t, d)
	switch {
	case errors.Is(err, errDecimals):
		if d == 0 {
			return 0, errs.Errorf(errs.Invalid, "%s has no smaller unit, so write %s as a whole number.", currency, errs.Quote(s))
		}
		return 0, errs.Errorf(errs.Invalid, "%s has %d decimals: %s has too many.", currency, d, errs.Quote(s))
	case err != nil:
		return 0, errs.Errorf(errs.Invalid, "%s is not an amount of money: write it like 30.00 or 30.", errs.Quote(s))
	case units == 0:
		return 0, errs.Errorf(errs.Invalid, "An amount must be more than zero.")
	}
	minor := new(big.Int).Mul(big.NewInt(units), pow10(d-scale))
	if minor.Cmp(new(big.Int).Mul(big.NewInt(MaxAmount), pow10(d))) > 0 {
		return 0, errs.Errorf(errs.Invalid, "An amount can be at most %s: %s is more than that.", Format(MaxAmount*pow10(d).Int64(), currency), errs.Quote(s))
	}
	return minor.Int64(), nil
}

// Converted is a player's result in money: Exact is chips × value written out in full ("1.005"),
// Minor the amount in minor units after rounding, and Rounded whether they differ.
type Converted struct {
	Exact   string
	Minor   int64
	Rounded bool
}

// Convert turns each player's net chips into money at value, rounded to the currency's minor unit,
// so that the amounts add up to exactly what the chips add up to (zero for a session's results):
// each amount is rounded to the nearest minor unit, and when those do not add up, the ones rounded
// furthest (ties: the earlier) move by one minor unit each (largest remainder).
func Convert(chips []int64, v Value, currency string) []Converted {
	d, _ := Digits(currency)
	out := make([]Converted, len(chips))
	if len(chips) == 0 {
		return out
	}
	shift := v.Scale - d // the exact amount is chips*units / 10^v.Scale; minor units are 10^-d
	exact := make([]*big.Int, len(chips))
	total := new(big.Int)
	for i, c := range chips {
		exact[i] = new(big.Int).Mul(big.NewInt(c), big.NewInt(v.Units))
		total.Add(total, exact[i])
		out[i].Exact = decimalString(exact[i], v.Scale, false)
	}
	if shift <= 0 {
		for i := range chips {
			out[i].Minor = new(big.Int).Mul(exact[i], pow10(-shift)).Int64()
		}
		return out
	}
	div := pow10(shift)
	half := new(big.Int).Rsh(div, 1)
	rem := make([]*big.Int, len(chips)) // rounded*div - exact, in 10^-v.Scale
	sum := new(big.Int)
	for i := range chips {
		q, r := new(big.Int).QuoRem(exact[i], div, new(big.Int)) // truncated toward zero
		abs := new(big.Int).Abs(r)
		if abs.Cmp(half) >= 0 { // half away from zero
			if exact[i].Sign() < 0 {
				q.Sub(q, big.NewInt(1))
			} else {
				q.Add(q, big.NewInt(1))
			}
		}
		out[i].Minor = q.Int64()
		sum.Add(sum, q)
		rem[i] = new(big.Int).Sub(new(big.Int).Mul(q, div), exact[i])
	}
	// What the rounded amounts must add up to: the exact total, rounded the same way.
	want, r := new(big.Int).QuoRem(total, div, new(big.Int))
	if new(big.Int).Abs(r).Cmp(half) >= 0 {
		if total.Sign() < 0 {
			want.Sub(want, big.NewInt(1))
		} else {
			want.Add(want, big.NewInt(1))
		}
	}
	off := new(big.Int).Sub(sum, want).Int64() // at most len(chips) in size
	for off != 0 {
		best := -1
		for i := range chips {
			if off > 0 && (best < 0 || rem[i].Cmp(rem[best]) > 0) || off < 0 && (best < 0 || rem[i].Cmp(rem[best]) < 0) {
				best = i
			}
		}
		step := int64(1)
		if off < 0 {
			step = -1
		}
		out[best].Minor -= step
		rem[best].Sub(rem[best], new(big.Int).Mul(big.NewInt(step), div))
		off -= step
	}
	for i := range chips {
		out[i].Rounded = rem[i].Sign() != 0
	}
	return out
}

// Describe says what a chip is worth: "1 chip = 0.01 USD".
func (v Value) Describe(currency string) string {
	return fmt.Sprintf("1 chip = %s %s", v.String(), currency)
}

func bigInt(n int64) *big.Int { return big.NewInt(n) }

// MaxRemind is the longest a debt's first reminder may wait after the settle-up (remind=).
const MaxRemind = 30 * 24 * time.Hour

// RemindExample is the one example of remind= that help, refusals and the README give.
const RemindExample = "remind=2d"

// ParseRemind reads remind=, when an open debt's payer is first reminded after the settle-up: whole
// minutes, hours or days ("90m", "12h", "2d") from 1 minute to 30 days, or off (returned as 0).
func ParseRemind(val string) (time.Duration, error) {
	switch strings.ToLower(val) {
	case "off", "no", "never":
		return 0, nil
	}
	bad := errs.Errorf(errs.Invalid, "Write remind= as whole minutes, hours or days from 1m to 30d, for example %s (remind=off for no reminders).", RemindExample)
	if len(val) < 2 || len(val) > 8 {
		return 0, bad
	}
	unit := map[byte]time.Duration{'m': time.Minute, 'h': time.Hour, 'd': 24 * time.Hour}[val[len(val)-1]]
	n, err := strconv.Atoi(val[:len(val)-1])
	if unit == 0 || err != nil || n < 1 || time.Duration(n)*unit > MaxRemind {
		return 0, bad
	}
	return time.Duration(n) * unit, nil
}

// FormatRemind writes a reminder delay as remind= takes it: "2d", "12h", "90m".
func FormatRemind(d time.Duration) string {
	switch {
	case d%(24*time.Hour) == 0:
		return strconv.Itoa(int(d/(24*time.Hour))) + "d"
	case d%time.Hour == 0:
		return strconv.Itoa(int(d/time.Hour)) + "h"
	}
	return strconv.Itoa(int(d/time.Minute)) + "m"
}
