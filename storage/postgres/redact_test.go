package postgres

import (
	"errors"
	"strings"
	"testing"
)

// TestRedact: every form a password takes in a connection string is hidden, and the rest is kept
// as written.
func TestRedact(t *testing.T) {
	tests := []struct {
		name, raw, want string
		secrets         []string // what must not appear
	}{
		{"URL user information", "postgres://dealer:s3cret@db:5432/dealerbot", "postgres://dealer:xxxxx@db:5432/dealerbot", []string{"s3cret"}},
		{"URL password with encoded characters", "postgres://dealer:p%40ss%2Fw0rd@db/dealerbot", "postgres://dealer:xxxxx@db/dealerbot", []string{"p%40ss", "p@ss/w0rd"}},
		{"URL ?password=", "postgres://dealer@db/dealerbot?password=s3cret", "postgres://dealer@db/dealerbot?password=xxxxx", []string{"s3cret"}},
		{"URL &password=", "postgresql://dealer@db/dealerbot?sslmode=disable&password=s3cret&application_name=x",
			"postgresql://dealer@db/dealerbot?sslmode=disable&password=xxxxx&application_name=x", []string{"s3cret"}},
		{"URL encoded ?password=", "postgres://dealer@db/dealerbot?password=s3%20cret", "postgres://dealer@db/dealerbot?password=xxxxx", []string{"s3%20cret", "s3 cret"}},
		{"URL both places", "postgres://dealer:one1@db/d?password=two2", "postgres://dealer:xxxxx@db/d?password=xxxxx", []string{"one1", "two2"}},
		{"URL sslpassword", "postgres://dealer@db/d?sslpassword=keypass", "postgres://dealer@db/d?sslpassword=xxxxx", []string{"keypass"}},
		{"URL without a password", "postgres://dealer@127.0.0.1:5432/d?sslmode=disable", "postgres://dealer@127.0.0.1:5432/d?sslmode=disable", nil},
		{"URL that cannot be parsed", "postgres://dealer:s3cret@db:port/d\x7f", "(a URL that cannot be parsed)", []string{"s3cret"}},
		{"key=value", "host=db user=dealer password=s3cret dbname=dealerbot", "host=db user=dealer password=xxxxx dbname=dealerbot", []string{"s3cret"}},
		{"key=value first", "password=s3cret host=db", "password=xxxxx host=db", []string{"s3cret"}},
		{"key=value quoted", "host=db password='s3 cret' dbname=d", "host=db password=xxxxx dbname=d", []string{"s3 cret", "cret"}},
		{"key=value quoted with escapes", `host=db password='it\'s \\ s3cret' dbname=d`, "host=db password=xxxxx dbname=d", []string{"s3cret", `it\'s`}},
		{"key=value spaces around =", "host=db password = s3cret dbname=d", "host=db password = xxxxx dbname=d", []string{"s3cret"}},
		{"key=value unterminated quote", "host=db password='s3cret dbname=d", "host=db password=xxxxx", []string{"s3cret"}},
		{"key=value sslpassword", "host=db sslpassword=keypass", "host=db sslpassword=xxxxx", []string{"keypass"}},
		{"key=value without a password", "host=db user=dealer", "host=db user=dealer", nil},
		{"key=value with :// in the password", "host=db password=x://y@z dbname=d", "host=db password=xxxxx dbname=d", []string{"x://y@z"}},
		{"another scheme's URL", "mysql://dealer:s3cret@db/d", "mysql://dealer:xxxxx@db/d", []string{"s3cret"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Redact(tt.raw)
			if got != tt.want {
				t.Errorf("Redact(%q) = %q, want %q", tt.raw, got, tt.want)
			}
			for _, s := range tt.secrets {
				if strings.Contains(got, s) {
					t.Errorf("Redact(%q) = %q shows %q", tt.raw, got, s)
				}
				// An error that quotes the connection string loses the password too.
				if e := redactErr(errors.New("cannot parse `"+tt.raw+"`: failed"), tt.raw).Error(); strings.Contains(e, s) {
					t.Errorf("redactErr kept %q: %q", s, e)
				}
			}
		})
	}
}
