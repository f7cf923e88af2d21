package money

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dealerbot/dealerbot/bot/errs"
)

// Handle is how a player is paid: an app and their name in it. The zero Handle is none.
type Handle struct {
	App  string `json:",omitempty"` // venmo, cashapp, paypal, zelle, other
	Name string `json:",omitempty"` // as the app writes it: @name, $tag, name, an e-mail or phone, free text
}

// IsZero reports whether no handle is set.
func (h Handle) IsZero() bool { return h.App == "" }

// Apps are the payment apps a handle may name, as typed after `payment`.
var Apps = []string{"venmo", "cashapp", "paypal", "zelle", "other"}

// MaxOther is the longest `payment other` text.
const MaxOther = 80

var (
	venmoRe  = regexp.MustCompile(`^[A-Za-z0-9_-]{5,30}$`)
	cashRe   = regexp.MustCompile(`^[A-Za-z0-9_]{1,20}$`)
	paypalRe = regexp.MustCompile(`^[A-Za-z0-9]{1,20}$`)
	emailRe  = regexp.MustCompile(`^[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$`)
	phoneRe  = regexp.MustCompile(`^\+?[0-9 ().-]{7,20}$`)
	// linkish matches what a chat would turn into a link: a scheme, www., or a dotted name.
	linkishRe = regexp.MustCompile(`(?i)([a-z][a-z0-9+.-]*:/)|(www\.)|([a-z0-9-]\.[a-z]{2,})`)
)

// ParseHandle reads `payment APP TEXT...`'s APP and TEXT into a handle, or says what is wrong with it.
// Every handle is bounded and holds no markup, mention or link: dealerbot builds the only links.
func ParseHandle(app string, words []string) (Handle, error) {
	app = strings.ToLower(app)
	text := strings.Join(words, " ")
	if app == "cash" || app == "cash-app" {
		app = "cashapp"
	}
	if text == "" {
		return Handle{}, errs.Errorf(errs.Invalid, "Write `payment %s` followed by your name there: `help` shows an example for each app.", app)
	}
	switch app {
	case "venmo":
		name := strings.TrimPrefix(text, "@")
		if !venmoRe.MatchString(name) {
			return Handle{}, errs.Errorf(errs.Invalid, "A Venmo username has 5 to 30 letters, digits, - or _, like `payment venmo @alice-smith`: %s is not one.", errs.Quote(text))
		}
		return Handle{App: app, Name: "@" + name}, nil
	case "cashapp":
		tag := strings.TrimPrefix(text, "$")
		if !cashRe.MatchString(tag) || !strings.ContainsFunc(tag, unicode.IsLetter) {
			return Handle{}, errs.Errorf(errs.Invalid, "A Cash App $cashtag has 1 to 20 letters, digits or _ with at least one letter, like `payment cashapp $alice`: %s is not one.", errs.Quote(text))
		}
		return Handle{App: app, Name: "$" + tag}, nil
	case "paypal":
		name := strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(text, "@"), "paypal.me/"), "PayPal.me/")
		if !paypalRe.MatchString(name) {
			return Handle{}, errs.Errorf(errs.Invalid, "A PayPal.me name has 1 to 20 letters or digits, like `payment paypal alicesmith`: %s is not one.", errs.Quote(text))
		}
		return Handle{App: app, Name: name}, nil
	case "zelle":
		if emailRe.MatchString(text) && len(text) <= 100 {
			return Handle{App: app, Name: text}, nil
		}
		digits := 0
		for _, r := range text {
			if r >= '0' && r <= '9' {
				digits++
			}
		}
		if phoneRe.MatchString(text) && digits >= 7 && digits <= 15 {
			return Handle{App: app, Name: text}, nil
		}
		return Handle{}, errs.Errorf(errs.Invalid, "Zelle needs the e-mail address or phone number you registered, like `payment zelle alice@example.com` or `payment zelle +1 555 010 2030`: %s is neither.", errs.Quote(text))
	case "other":
		if n := utf8.RuneCountInString(text); n > MaxOther {
			return Handle{}, errs.Errorf(errs.Invalid, "`payment other` takes at most %d characters, not %d.", MaxOther, n)
		}
		if err := PlainText(text, "`payment other`"); err != nil {
			return Handle{}, err
		}
		return Handle{App: app, Name: text}, nil
	}
	return Handle{}, errs.Errorf(errs.Invalid, "I know the payment apps venmo, cashapp, paypal and zelle, and `payment other TEXT` for anything else: not %s.", errs.Quote(app))
}

// PlainText refuses text a chat would show as more than plain words: markup, mentions, links, line
// breaks. what names the command in the sentence.
func PlainText(text, what string) error {
	for _, r := range text {
		if unicode.IsControl(r) || strings.ContainsRune("<>@`*_~|\\[]#!", r) {
			return errs.Errorf(errs.Invalid, "%s takes plain words: no %q, mentions, markup or line breaks.", what, r)
		}
	}
	if linkishRe.MatchString(text) {
		return errs.Errorf(errs.Invalid, "%s may not hold links or web addresses: dealerbot builds the payment links itself.", what)
	}
	return nil
}

// String writes the handle as the settle-up shows it: "Venmo @alice".
func (h Handle) String() string {
	switch h.App {
	case "venmo":
		return "Venmo " + h.Name
	case "cashapp":
		return "Cash App " + h.Name
	case "paypal":
		return "PayPal.me/" + h.Name
	case "zelle":
		return "Zelle " + h.Name
	case "other":
		return h.Name
	}
	return ""
}

// Link is the address that opens the payment app for amount (minor units of currency), built here
// from a validated handle; empty for apps without one (Zelle, other). Venmo and Cash App take only
// US dollars: for another currency their link opens the profile without an amount.
func (h Handle) Link(minor int64, currency string) string {
	amount := decimalString(bigInt(minor), mustDigits(currency), true)
	amount = strings.ReplaceAll(amount, ",", "")
	switch h.App {
	case "venmo":
		name := strings.TrimPrefix(h.Name, "@")
		if currency != "USD" {
			return "https://venmo.com/u/" + url.PathEscape(name)
		}
		return fmt.Sprintf("https://venmo.com/%s?txn=pay&amount=%s", url.PathEscape(name), amount)
	case "cashapp":
		if currency != "USD" {
			return "https://cash.app/" + url.PathEscape(h.Name)
		}
		return fmt.Sprintf("https://cash.app/%s/%s", url.PathEscape(h.Name), amount)
	case "paypal":
		return fmt.Sprintf("https://paypal.me/%s/%s%s", url.PathEscape(h.Name), amount, currency)
	}
	return ""
}

// AppName is the app's name for a button: "Venmo".
func (h Handle) AppName() string {
	switch h.App {
	case "venmo":
		return "Venmo"
	case "cashapp":
		return "Cash App"
	case "paypal":
		return "PayPal"
	case "zelle":
		return "Zelle"
	}
	return ""
}

func mustDigits(currency string) int {
	d, _ := Digits(currency)
	return d
}
