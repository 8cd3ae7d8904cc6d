package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// TestREADMECommandsMatchHelp: the README's command summary gives, for
// every command, the usage line errgen help prints, and every flag of the
// command appears in it, so the README, help and --help list the same
// flags.
func TestREADMECommandsMatchHelp(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	// The forms without a command, as help gives them (aligned with
	// spaces in both).
	spaces := regexp.MustCompile(` {2,}`)
	var inREADME []string
	for _, line := range strings.Split(string(readme), "\n") {
		inREADME = append(inREADME, spaces.ReplaceAllString(line, " "))
	}
	var help strings.Builder
	usage(&help)
	for _, u := range defaultUsage {
		line := u[0] + " same as: " + u[1]
		if !slices.Contains(inREADME, line) {
			t.Errorf("README.md does not give the usage line %q", line)
		}
		if !slices.Contains(strings.Split(spaces.ReplaceAllString(help.String(), " "), "\n"), " "+line) {
			t.Errorf("errgen help does not give the usage line %q", line)
		}
	}
	for _, c := range commands {
		line := strings.TrimSpace("errgen " + c.name + " " + c.args)
		if !strings.Contains(string(readme), "\n"+line+"\n") {
			t.Errorf("README.md does not give the usage line %q", line)
		}
		fs, _ := flagSet(c)
		fs.VisitAll(func(f *pflag.Flag) {
			if f.Name == "help" {
				return
			}
			short := f.Shorthand != "" && (strings.Contains(c.args, "-"+f.Shorthand+" ") || strings.Contains(c.args, "-"+f.Shorthand+"]"))
			if !strings.Contains(c.args, "--"+f.Name) && !short {
				t.Errorf("errgen %s has flag --%s, which its usage line %q does not show", c.name, f.Name, c.args)
			}
		})
	}
}

// TestFlagsNamePlaceholders: every flag that takes a value names it in
// --help with a placeholder in capitals (--format FORMAT), as the usage
// lines do, never with pflag's type name (--format string).
func TestFlagsNamePlaceholders(t *testing.T) {
	for _, c := range commands {
		fs, _ := flagSet(c)
		fs.VisitAll(func(f *pflag.Flag) {
			if f.Value.Type() == "bool" {
				return
			}
			if name, _ := pflag.UnquoteUsage(f); name == "" || name != strings.ToUpper(name) {
				t.Errorf("errgen %s --help shows --%s %s; name its value in capitals, between backquotes in its usage", c.name, f.Name, name)
			}
		})
	}
}
