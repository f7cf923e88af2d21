package postgres

// Redact and redactErr keep passwords out of messages and logs. libpq (and pgx) take a password in
// four places: the URL's user information (postgres://u:pw@h/db), its query (?password=pw, also
// after &), a key=value connection string (password=pw, password='p w'), and sslpassword beside
// each (the client key's passphrase). Each is hidden.

import (
	"errors"
	"net/url"
	"strings"
)

// hidden stands for a password in what Redact returns.
const hidden = "xxxxx"

// secretKey reports whether a connection parameter holds a password.
func secretKey(k string) bool {
	k = strings.ToLower(strings.TrimSpace(k))
	return k == "password" || k == "sslpassword"
}

// isURL reports whether a connection string is a URL (postgres://, or another scheme that a
// message may quote) rather than key=value pairs: a scheme comes before any = or space.
func isURL(raw string) bool {
	i := strings.Index(raw, "://")
	return i > 0 && !strings.ContainsAny(raw[:i], "= \t\n")
}

// Redact returns the connection string (a URL or key=value pairs) with every password replaced by
// xxxxx, for messages and logs. What cannot be read is not shown at all.
func Redact(raw string) string {
	safe, _ := redact(raw)
	return safe
}

// redact returns Redact's answer and the passwords it hid, as written and as decoded.
func redact(raw string) (string, []string) {
	if isURL(raw) {
		return redactURL(raw)
	}
	return redactKV(raw)
}

func redactURL(raw string) (string, []string) {
	u, err := url.Parse(raw)
	if err != nil {
		// Not shown: a part of it may be a password url.Parse could not place. The passwords are
		// found by their places in the text, for redactErr.
		secrets := []string{rawPassword(raw)}
		if _, q, ok := strings.Cut(raw, "?"); ok {
			for _, p := range strings.Split(q, "&") {
				if k, v, _ := strings.Cut(p, "="); secretKey(k) {
					secrets = append(secrets, v)
				}
			}
		}
		return "(a URL that cannot be parsed)", secrets
	}
	var secrets []string
	if u.User != nil {
		if pw, ok := u.User.Password(); ok {
			secrets = append(secrets, pw, rawPassword(raw))
			u.User = url.UserPassword(u.User.Username(), hidden)
		}
	}
	if u.RawQuery != "" {
		parts := strings.Split(u.RawQuery, "&")
		for i, p := range parts {
			k, v, _ := strings.Cut(p, "=")
			if dk, err := url.QueryUnescape(k); err == nil {
				k = dk
			}
			if !secretKey(k) {
				continue
			}
			secrets = append(secrets, v)
			if dv, err := url.QueryUnescape(v); err == nil {
				secrets = append(secrets, dv)
			}
			parts[i] = strings.SplitN(p, "=", 2)[0] + "=" + hidden
		}
		u.RawQuery = strings.Join(parts, "&")
	}
	return u.String(), secrets
}

// rawPassword is the password of a URL's user information as written (percent-encoded).
func rawPassword(raw string) string {
	_, rest, _ := strings.Cut(raw, "://")
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	at := strings.LastIndexByte(rest, '@')
	if at < 0 {
		return ""
	}
	_, pw, _ := strings.Cut(rest[:at], ":")
	return pw
}

// redactKV hides the passwords of a key=value connection string: keys and values separated by
// spaces, a value in single quotes when it holds spaces, backslash escaping a quote or a backslash
// (libpq's rules; spaces around = are allowed).
func redactKV(raw string) (string, []string) {
	var b strings.Builder
	var secrets []string
	s := raw
	for {
		// Copy the spaces and the key.
		i := 0
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		b.WriteString(s[:i])
		s = s[i:]
		if s == "" {
			return b.String(), secrets
		}
		eq := strings.IndexByte(s, '=')
		if eq < 0 {
			b.WriteString(s) // a word without a value: pgx refuses it; nothing secret to find
			return b.String(), secrets
		}
		key := s[:eq]
		b.WriteString(s[:eq+1])
		s = s[eq+1:]
		i = 0
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		b.WriteString(s[:i])
		s = s[i:]
		// The value: quoted, or up to the next space.
		var val strings.Builder
		n := 0
		if strings.HasPrefix(s, "'") {
			n = 1
			closed := false
			for n < len(s) {
				c := s[n]
				n++
				if c == '\\' && n < len(s) {
					val.WriteByte(s[n])
					n++
					continue
				}
				if c == '\'' {
					closed = true
					break
				}
				val.WriteByte(c)
			}
			if !closed && secretKey(key) {
				// An unterminated quote: everything after it may be the password.
				secrets = append(secrets, s[1:])
				b.WriteString(hidden)
				return b.String(), secrets
			}
		} else {
			for n < len(s) && !isSpace(s[n]) {
				if s[n] == '\\' && n+1 < len(s) {
					n++
				}
				val.WriteByte(s[n])
				n++
			}
		}
		if secretKey(key) {
			secrets = append(secrets, s[:n], val.String())
			b.WriteString(hidden)
		} else {
			b.WriteString(s[:n])
		}
		s = s[n:]
	}
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// redactErr keeps the passwords of raw out of an error pgx built from it.
func redactErr(err error, raw string) error {
	if err == nil {
		return nil
	}
	_, secrets := redact(raw)
	msg := err.Error()
	changed := false
	for _, pw := range secrets {
		if pw != "" && strings.Contains(msg, pw) {
			msg, changed = strings.ReplaceAll(msg, pw, hidden), true
		}
	}
	if !changed {
		return err
	}
	return errors.New(msg)
}
