package compat

import (
	"testing"

	"github.com/errgen/errgen/gen/diag"
)

// TestAnnotationEscapes checks that no text can end a workflow command
// early or start another one, nor reach the log as a control character.
func TestAnnotationEscapes(t *testing.T) {
	t.Setenv("GITHUB_WORKSPACE", "")
	pos := diag.Pos{File: "a,b:c\x1b[2J##[x.yaml", Line: 3, Col: 7}
	got := annotation("error", pos, "RULE, with: colon", "100% done\r\n::warning::injected")
	want := `::error file=a%2Cb%3Ac\x1b[2J#\x23[x.yaml,line=3,col=7,title=RULE%2C with%3A colon::100%25 done\x0d\x0a::warning::injected` + "\n"
	if got != want {
		t.Errorf("annotation =\n%q\nwant\n%q", got, want)
	}
}

func TestAnnotationPath(t *testing.T) {
	ws := t.TempDir()
	t.Setenv("GITHUB_WORKSPACE", ws)
	t.Chdir(ws)
	if got := annotationPath("api/errors.yaml"); got != "api/errors.yaml" {
		t.Errorf("below the workspace: %q", got)
	}
	t.Chdir(t.TempDir())
	if got := annotationPath("errors.yaml"); got != "errors.yaml" {
		t.Errorf("outside the workspace: %q", got)
	}
}
