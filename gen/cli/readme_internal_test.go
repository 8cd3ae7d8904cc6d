package cli

import (
	"os"
	"path/filepath"
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
