package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"github.com/errgen/errgen/gen/compat"
	"github.com/errgen/errgen/gen/diag"
)

// choice is a flag whose value is one of a fixed set of words; it refuses
// any other while the flags are parsed, so a command never sees one.
type choice struct {
	value   string
	allowed []string
}

var _ pflag.Value = (*choice)(nil)

// choiceFlag adds a flag of the allowed words to fs, defaulting to the
// first.
func choiceFlag(fs *pflag.FlagSet, name, usage string, allowed ...string) *choice {
	c := &choice{value: allowed[0], allowed: allowed}
	fs.Var(c, name, usage+": "+strings.Join(allowed, ", "))
	return c
}

func (c *choice) String() string { return c.value }

func (c *choice) Set(s string) error {
	for _, a := range c.allowed {
		if s == a {
			c.value = s
			return nil
		}
	}
	return fmt.Errorf("must be one of %s, got %s", strings.Join(c.allowed, ", "), diag.Quote(s))
}

func (c *choice) Type() string { return "string" }

// tierValue is the --tier flag: a compatibility tier by name.
type tierValue struct{ tier compat.Tier }

var _ pflag.Value = (*tierValue)(nil)

// tierFlag adds --tier to fs, defaulting to the widest tier.
func tierFlag(fs *pflag.FlagSet) *tierValue {
	t := &tierValue{tier: compat.Go}
	fs.Var(t, "tier", "check rules of `TIER` and below: "+strings.Join(compat.TierNames(), ", "))
	return t
}

func (t *tierValue) String() string { return t.tier.String() }

func (t *tierValue) Set(s string) error {
	tier, ok := compat.ParseTier(s)
	if !ok {
		return fmt.Errorf("must be one of %s, got %s", strings.Join(compat.TierNames(), ", "), diag.Quote(s))
	}
	t.tier = tier
	return nil
}

func (t *tierValue) Type() string { return "string" }
