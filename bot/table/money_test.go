package table

import (
	"strings"
	"testing"
	"time"
)

func TestMoneySettings(t *testing.T) {
	tests := []struct {
		name string
		opts string
		want string // part of Describe; empty with err
		err  string
	}{
		{"value and currency", "value=0.01 currency=usd", "1 chip = 0.01 USD", ""},
		{"bank and remind", "value=0.25 currency=EUR settle=bank remind=3d", "1 chip = 0.25 EUR, the host is the bank, debts reminded after 3d", ""},
		{"remind in minutes", "value=0.01 currency=USD remind=5m", "debts reminded after 5m", ""},
		{"remind in hours", "value=0.01 currency=USD remind=12h", "debts reminded after 12h", ""},
		{"remind with no unit", "value=0.01 currency=USD remind=12", "", "from 1m to 30d, for example remind=2d"},
		{"remind zero", "value=0.01 currency=USD remind=0m", "", "from 1m to 30d, for example remind=2d"},
		{"no reminders", "value=1 currency=JPY remind=off", "no debt reminders", ""},
		{"value alone", "value=0.01", "", "Say which currency"},
		{"currency alone", "currency=USD", "", "Say what a chip is worth"},
		{"bad currency", "value=0.01 currency=dollars", "", "ISO 4217"},
		{"bad value", "value=-1 currency=USD", "", "not a chip value"},
		{"remind too long", "value=0.01 currency=USD remind=31d", "", "from 1m to 30d"},
		{"bad settle", "value=0.01 currency=USD settle=random", "", "settle=fewest"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := DefaultSettings()
			err := s.Apply(strings.Fields(tt.opts))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("Apply(%s): %v, want an error saying %q", tt.opts, err, tt.err)
				}
				if s != DefaultSettings() {
					t.Fatalf("a refused Apply changed the settings: %+v", s)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := s.Describe(); !strings.Contains(d, tt.want) {
				t.Fatalf("Describe() = %q, want it to say %q", d, tt.want)
			}
			if err := s.Validate(); err != nil {
				t.Fatalf("Validate: %v", err)
			}
		})
	}
	s := DefaultSettings()
	if err := s.Apply([]string{"value=0.01", "currency=USD"}); err != nil {
		t.Fatal(err)
	}
	if got := s.Money.RemindAfter(); got != 48*time.Hour {
		t.Errorf("default reminder delay %v, want 48h", got)
	}
	if err := s.Apply([]string{"value=off"}); err != nil || s.Money.On() {
		t.Errorf("value=off: %v, money still on: %+v", err, s.Money)
	}
}
