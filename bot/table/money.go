package table

import (
	"fmt"
	"time"

	"github.com/dealerbot/dealerbot/bot/errs"
	"github.com/dealerbot/dealerbot/bot/money"
)

// Money is what a table plays for: the options value=, currency=, remind= and settle=. The zero
// Money plays for chips only.
type Money struct {
	Value    money.Value `json:",omitzero"`
	Currency string      `json:",omitempty"`
	// RemindHours is how long after the settle-up an unpaid debt's payer is first reminded by DM:
	// 0 is the default (DefaultRemind), -1 never.
	RemindHours int `json:",omitempty"`
	// RemindMinutes, when set, is that delay in minutes instead (remind= takes m, h and d); it
	// replaced RemindHours, still read for the tables saved before it.
	RemindMinutes int `json:",omitempty"`
	// Bank: the host is the bank (every loser pays the host, the host pays every winner) instead of
	// the fewest payments.
	Bank bool `json:",omitempty"`
}

// DefaultRemind is how long an open debt waits before its payer is reminded.
const DefaultRemind = 48 * time.Hour

// On reports whether the table plays for money.
func (m Money) On() bool { return !m.Value.IsZero() }

// RemindAfter is the delay before an open debt is reminded; 0 for never.
func (m Money) RemindAfter() time.Duration {
	switch {
	case m.RemindHours < 0:
		return 0
	case m.RemindMinutes > 0:
		return time.Duration(m.RemindMinutes) * time.Minute
	case m.RemindHours == 0:
		return DefaultRemind
	}
	return time.Duration(m.RemindHours) * time.Hour
}

// apply reads one money option (key lower-cased, val lower-cased).
func (m *Money) apply(key, val string) error {
	var err error
	switch key {
	case "value":
		if val == "off" || val == "no" || val == "0" {
			*m = Money{}
			return nil
		}
		m.Value, err = money.ParseValue(val)
	case "currency":
		m.Currency, err = money.ParseCurrency(val)
	case "remind":
		var d time.Duration
		if d, err = money.ParseRemind(val); err == nil {
			m.RemindHours, m.RemindMinutes = 0, int(d/time.Minute)
			if d == 0 {
				m.RemindHours = -1
			}
		}
	case "settle":
		switch val {
		case "fewest":
			m.Bank = false
		case "bank", "host":
			m.Bank = true
		default:
			return errs.Errorf(errs.Invalid, "Write settle=fewest for the fewest payments or settle=bank for the host as the bank.")
		}
	}
	return err
}

// check refuses half a money setting, once every option is read.
func (m Money) check() error {
	switch {
	case m.On() && m.Currency == "":
		return errs.Errorf(errs.Invalid, "Say which currency a chip's value is in: for example value=%s currency=USD.", m.Value)
	case !m.On() && m.Currency != "":
		return errs.Errorf(errs.Invalid, "Say what a chip is worth too: for example value=0.01 currency=%s.", m.Currency)
	}
	return nil
}

// validate checks money settings read back from the database.
func (m Money) validate() error {
	if !m.On() {
		return nil
	}
	if v, err := money.ParseValue(m.Value.String()); err != nil || v != m.Value {
		return fmt.Errorf("chip value %v out of range", m.Value)
	}
	if _, ok := money.Digits(m.Currency); !ok {
		return fmt.Errorf("currency %q unknown", m.Currency)
	}
	if m.RemindHours < -1 || time.Duration(m.RemindHours)*time.Hour > money.MaxRemind || m.RemindMinutes < 0 || time.Duration(m.RemindMinutes)*time.Minute > money.MaxRemind {
		return fmt.Errorf("remind after %d hours or %d minutes out of range", m.RemindHours, m.RemindMinutes)
	}
	return nil
}

// describe is the settings summary's part for money: ", 1 chip = 0.01 USD, host is the bank".
func (m Money) describe() string {
	if !m.On() {
		return ""
	}
	s := ", " + m.Value.Describe(m.Currency)
	if m.Bank {
		s += ", the host is the bank"
	}
	switch d := m.RemindAfter(); {
	case d == 0:
		s += ", no debt reminders"
	case d != DefaultRemind:
		s += ", debts reminded after " + money.FormatRemind(d)
	}
	return s
}
