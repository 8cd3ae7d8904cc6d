package gen_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/errgen/errgen/gen"
)

// TestDocsCataloguesAreClean: the whole catalogues the documentation shows
// for a new user to start from, the README's and the reference's minimal
// one, check without a problem, warnings included: copied as they are,
// their first run prints nothing.
func TestDocsCataloguesAreClean(t *testing.T) {
	for _, c := range []struct{ file, section string }{
		{"README.md", "## A catalogue\n"},
		{filepath.Join("docs", "catalogue.md"), "## A minimal catalogue\n"},
	} {
		doc, err := os.ReadFile(filepath.Join("..", c.file))
		if err != nil {
			t.Fatal(err)
		}
		_, section, ok := strings.Cut(string(doc), c.section)
		if !ok {
			t.Errorf("%s has no section %q", c.file, strings.TrimSpace(c.section))
			continue
		}
		_, block, ok := strings.Cut(section, "```yaml\n")
		if !ok {
			t.Errorf("%s: section %q shows no yaml block", c.file, strings.TrimSpace(c.section))
			continue
		}
		block, _, _ = strings.Cut(block, "```\n")
		m, diags := gen.Parse("errors.yaml", []byte(block))
		if m == nil || len(diags) > 0 {
			var lines []string
			for _, d := range diags {
				lines = append(lines, d.String())
			}
			t.Errorf("%s: the catalogue of section %q does not check cleanly:\n%s", c.file, strings.TrimSpace(c.section), strings.Join(lines, "\n"))
		}
	}
}
