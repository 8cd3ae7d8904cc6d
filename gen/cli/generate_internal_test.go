package cli

import (
	"strings"
	"testing"

	"github.com/errgen/errgen/gen"
)

// TestCollisionsNameEachFileByWhatItIs: a collision message names the two
// files by what they are, never the same kind twice: the reference by its
// place (the --docs file is the last), not by its extension.
func TestCollisionsNameEachFileByWhatItIs(t *testing.T) {
	goFile := gen.File{Path: "errgen.go"}
	golden := gen.File{Path: "testdata/x.golden.json", CreateOnly: true}
	for _, c := range []struct {
		files []gen.File
		docs  bool
		want  string
	}{
		{[]gen.File{goFile, golden, {Path: "ERRGEN.go"}}, true, `"ERRGEN.go" would be written twice, as Go code and as the Markdown reference; choose another --docs file`},
		{[]gen.File{goFile, golden, {Path: "TESTDATA/X.GOLDEN.JSON"}}, true, `"TESTDATA/X.GOLDEN.JSON" would be written twice, as a golden file and as the Markdown reference; choose another --docs file`},
		{[]gen.File{goFile, golden, {Path: "errgen.go/x.md"}}, true, `"errgen.go" is a folder of "errgen.go/x.md", and would also be written as Go code; choose another --docs file`},
		{[]gen.File{goFile, golden, goFile}, false, `internal error: "errgen.go" is generated twice, as Go code`},
	} {
		err := checkTargets(c.files, c.docs)
		if err == nil || err.Error() != c.want {
			t.Errorf("checkTargets(%v) = %v, want %s", c.files, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "as Go code and as Go code") {
			t.Errorf("a message names one kind twice: %v", err)
		}
	}
}
