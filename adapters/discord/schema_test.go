package discord

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// The fake validates every JSON body it receives against testdata/bodies.schema.json: the fields of
// each route's body, their types and limits, as Discord's API reference states them. A body of the
// wrong shape is refused as Discord refuses it (400, 50035 Invalid Form Body), and a body sent to a
// route the schema does not describe is refused too, so a new call cannot slip past the checks.

// schema is one node of the schema file (a small subset of JSON Schema; see the file's "about").
type schema struct {
	Type       types              `json:"type"`
	Ref        string             `json:"$ref"`
	Properties map[string]*schema `json:"properties"`
	Required   []string           `json:"required"`
	Items      *schema            `json:"items"`
	Enum       []any              `json:"enum"`
	MinLength  *int               `json:"minLength"`
	MaxLength  *int               `json:"maxLength"`
	MinItems   *int               `json:"minItems"`
	MaxItems   *int               `json:"maxItems"`
	Minimum    *float64           `json:"minimum"`
	Maximum    *float64           `json:"maximum"`
	Pattern    string             `json:"pattern"` // "snowflake": the digits of an ID
}

// types is a schema's "type": one name or a list of them.
type types []string

func (t *types) UnmarshalJSON(b []byte) error {
	var one string
	if json.Unmarshal(b, &one) == nil {
		*t = types{one}
		return nil
	}
	var many []string
	err := json.Unmarshal(b, &many)
	*t = many
	return err
}

// bodySchemas is the schema file, read once.
type bodySchemas struct {
	Routes map[string]*schema `json:"routes"`
	Defs   map[string]*schema `json:"defs"`
}

var (
	schemasOnce sync.Once
	schemas     bodySchemas
	schemasErr  error
)

func loadSchemas() (bodySchemas, error) {
	schemasOnce.Do(func() {
		raw, err := os.ReadFile("testdata/bodies.schema.json")
		if err == nil {
			err = json.Unmarshal(raw, &schemas)
		}
		schemasErr = err
	})
	return schemas, schemasErr
}

// routeSchema is the schema of the body of method on path parts, matching the file's route templates
// ({name} matches any one segment); ok is false when the file has none.
func (s bodySchemas) routeSchema(method string, parts []string) (*schema, bool) {
	for route, sc := range s.Routes {
		m, tmpl, _ := strings.Cut(route, " ")
		segs := strings.Split(strings.Trim(tmpl, "/"), "/")
		if m != method || len(segs) != len(parts) {
			continue
		}
		match := true
		for i, seg := range segs {
			if !strings.HasPrefix(seg, "{") && seg != parts[i] {
				match = false
				break
			}
		}
		if match {
			return sc, true
		}
	}
	return nil, false
}

// checkSchema validates a body (raw JSON) sent with method to path parts; it returns why the body is
// refused, or "".
func checkSchema(method string, parts []string, raw string) string {
	s, err := loadSchemas()
	if err != nil {
		return "the fake's schema file cannot be read: " + err.Error()
	}
	sc, ok := s.routeSchema(method, parts)
	if !ok {
		return fmt.Sprintf("no schema describes a body for %s /%s", method, strings.Join(parts, "/"))
	}
	var v any
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		return "the body is not JSON"
	}
	return s.validate(sc, v, "body")
}

// validate checks v against sc; at names the place in the body for the refusal.
func (s bodySchemas) validate(sc *schema, v any, at string) string {
	for sc.Ref != "" {
		ref, ok := s.Defs[sc.Ref]
		if !ok {
			return "the schema names an unknown definition " + sc.Ref
		}
		sc = ref
	}
	if len(sc.Type) > 0 && !slices.ContainsFunc(sc.Type, func(t string) bool { return isType(v, t) }) {
		return fmt.Sprintf("%s must be %s, not %s", at, strings.Join(sc.Type, " or "), jsonType(v))
	}
	if v == nil {
		return ""
	}
	if len(sc.Enum) > 0 && !slices.ContainsFunc(sc.Enum, func(e any) bool { return fmt.Sprint(e) == fmt.Sprint(v) }) {
		return fmt.Sprintf("%s is %v, not one of %v", at, v, sc.Enum)
	}
	switch x := v.(type) {
	case string:
		n := utf8.RuneCountInString(x)
		if sc.MinLength != nil && n < *sc.MinLength || sc.MaxLength != nil && n > *sc.MaxLength {
			return fmt.Sprintf("%s has %d characters, outside %s", at, n, bounds(sc.MinLength, sc.MaxLength))
		}
		if sc.Pattern == "snowflake" && (x == "" || strings.Trim(x, "0123456789") != "") {
			return fmt.Sprintf("%s is %q, not an ID", at, x)
		}
	case float64:
		if sc.Minimum != nil && x < *sc.Minimum || sc.Maximum != nil && x > *sc.Maximum {
			return fmt.Sprintf("%s is %v, outside its range", at, x)
		}
	case []any:
		if sc.MinItems != nil && len(x) < *sc.MinItems || sc.MaxItems != nil && len(x) > *sc.MaxItems {
			return fmt.Sprintf("%s has %d items, outside %s", at, len(x), bounds(sc.MinItems, sc.MaxItems))
		}
		if sc.Items != nil {
			for i, item := range x {
				if why := s.validate(sc.Items, item, fmt.Sprintf("%s[%d]", at, i)); why != "" {
					return why
				}
			}
		}
	case map[string]any:
		for _, name := range sc.Required {
			if _, ok := x[name]; !ok {
				return fmt.Sprintf("%s.%s is required", at, name)
			}
		}
		for name, p := range sc.Properties {
			if fv, ok := x[name]; ok {
				if why := s.validate(p, fv, at+"."+name); why != "" {
					return why
				}
			}
		}
	}
	return ""
}

// isType reports whether a decoded JSON value is of a schema type.
func isType(v any, t string) bool {
	switch x := v.(type) {
	case nil:
		return t == "null"
	case string:
		return t == "string"
	case bool:
		return t == "boolean"
	case float64:
		return t == "number" || t == "integer" && x == float64(int64(x))
	case []any:
		return t == "array"
	case map[string]any:
		return t == "object"
	}
	return false
}

func jsonType(v any) string {
	for _, t := range []string{"null", "string", "boolean", "integer", "number", "array", "object"} {
		if isType(v, t) {
			return t
		}
	}
	return "unknown"
}

func bounds(lo, hi *int) string {
	switch {
	case lo != nil && hi != nil:
		return fmt.Sprintf("%d to %d", *lo, *hi)
	case hi != nil:
		return fmt.Sprintf("at most %d", *hi)
	case lo != nil:
		return fmt.Sprintf("at least %d", *lo)
	}
	return "its range"
}
