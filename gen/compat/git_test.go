package compat_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const gitBase = `version: 1
package: toolerr
user_message: The request failed ({code}).
categories:
  timeout: The operation ran past its deadline.
families:
  - name: ToolError
    doc: Errors a tool returns to the agent.
    payload_type: tool_error
    variants:
      - name: ToolTimeout
        code: tool_timeout
        num: 1004
        category: timeout
        message: "tool {tool} timed out"
        retryable: true
        fields:
          - name: tool
            type: string
            payload: true
`

// git runs git in dir for the test, isolated from the user's and the
// system's configuration.
func gitRun(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// TestCompatAgainstGit builds a repository with two commits, the second
// breaking the catalogue, and checks compat --against git:HEAD~1 from the
// repository root and from the catalogue's folder, with and without a
// PATH, and the errors of a bad revision or path.
func TestCompatAgainstGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	for k, v := range map[string]string{
		"GIT_AUTHOR_NAME": "errgen test", "GIT_AUTHOR_EMAIL": "test@example.com",
		"GIT_COMMITTER_NAME": "errgen test", "GIT_COMMITTER_EMAIL": "test@example.com",
		"GIT_CONFIG_GLOBAL": os.DevNull, "GIT_CONFIG_NOSYSTEM": "1",
	} {
		t.Setenv(k, v)
	}
	repo := t.TempDir()
	sub := filepath.Join(repo, "internal", "toolerr")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	catalogue := filepath.Join(sub, "errors.yaml")
	write := func(s string) {
		if err := os.WriteFile(catalogue, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitRun(t, repo, "init", "-q")
	write(gitBase)
	gitRun(t, repo, "add", ".")
	gitRun(t, repo, "commit", "-q", "-m", "Add the catalogue")
	write(strings.Replace(strings.Replace(gitBase, "        retryable: true\n", "", 1), "num: 1004", "num: 1005", 1))
	gitRun(t, repo, "commit", "-q", "-a", "-m", "Break it")

	const findings = `FILE:11:9: RETRYABLE_CHANGED: "tool_timeout" is now not retryable; in base it was retryable (base git:HEAD~1:internal/toolerr/errors.yaml:16:9)
FILE:13:9: CODE_RENUMBERED: code "tool_timeout" now has num 1005; in base it had 1004 (base git:HEAD~1:internal/toolerr/errors.yaml:13:9)
stderr: errgen: 2 breaking changes against git:HEAD~1:internal/toolerr/errors.yaml; undo them, or waive a deliberate one under compat: in FILE
exit 1
`
	for _, tc := range []struct {
		name, dir string
		args      []string
		want      string
	}{
		{"root", repo, []string{"compat", "--against", "git:HEAD~1", "internal/toolerr/errors.yaml"},
			strings.ReplaceAll(findings, "FILE", "internal/toolerr/errors.yaml")},
		{"folder", sub, []string{"compat", "--against", "git:HEAD~1"},
			strings.ReplaceAll(findings, "FILE", "errors.yaml")},
		{"path", sub, []string{"compat", "--against", "git:HEAD~1:internal/toolerr/errors.yaml"},
			strings.ReplaceAll(findings, "FILE", "errors.yaml")},
		// As in git show, ./ and ../ start a path from the folder errgen
		// runs in, not from the root.
		{"path from here", sub, []string{"compat", "--against", "git:HEAD~1:./errors.yaml"},
			strings.ReplaceAll(findings, "FILE", "errors.yaml")},
		{"path from above", filepath.Join(repo, "internal"), []string{"compat", "--against", "git:HEAD~1:../internal/toolerr/errors.yaml", "toolerr/errors.yaml"},
			strings.ReplaceAll(findings, "FILE", "toolerr/errors.yaml")},
		{"path outside", sub, []string{"compat", "--against", "git:HEAD~1:../../../x.yaml"},
			`stderr: errgen: base "git:HEAD~1:../../../x.yaml": path "HEAD~1:../../../x.yaml" is outside the repository
exit 1
`},
		{"unchanged", sub, []string{"compat", "--against", "git:HEAD"}, "exit 0\n"},
		{"wire tier", sub, []string{"compat", "--tier", "wire", "--against", "git:HEAD~1"},
			`errors.yaml:13:9: CODE_RENUMBERED: code "tool_timeout" now has num 1005; in base it had 1004 (base git:HEAD~1:internal/toolerr/errors.yaml:13:9)
stderr: errgen: 1 breaking change against git:HEAD~1:internal/toolerr/errors.yaml; undo it, or waive a deliberate one under compat: in errors.yaml
exit 1
`},
		{"unknown revision", sub, []string{"compat", "--against", "git:origin/main"},
			`stderr: errgen: base "git:origin/main": unknown revision "origin/main" (in CI, fetch the history first: actions/checkout with fetch-depth: 0)
exit 1
`},
		// A revision written without git: is not a file; errgen says how
		// to write it. A file that is missing and no revision is only
		// missing.
		{"revision without git:", sub, []string{"compat", "--against", "HEAD~1"},
			`stderr: errgen: base: open HEAD~1: no such file or directory; to compare with the revision "HEAD~1", write --against "git:HEAD~1"
exit 1
`},
		{"revision without git: in diff", repo, []string{"diff", "--against", "HEAD", "internal/toolerr/errors.yaml"},
			`stderr: errgen: base: open HEAD: no such file or directory; to compare with the revision "HEAD", write --against "git:HEAD"
exit 1
`},
		{"missing base file", sub, []string{"compat", "--against", "old.yaml"},
			`stderr: errgen: base: open old.yaml: no such file or directory
exit 1
`},
		{"option as revision", sub, []string{"compat", "--against", "git:--output=x"},
			`stderr: errgen compat: --against "git:--output=x": revision "--output=x" must not start with -
stderr: usage: errgen compat --against BASE [--tier TIER] [--format text|json|github] [CATALOGUE | errgen.registry.yaml]
exit 2
`},
		{"diff", sub, []string{"diff", "--against", "git:HEAD~1"},
			`internal/toolerr/errors.yaml against git:HEAD~1:internal/toolerr/errors.yaml: 0 added, 0 removed, 1 changed, 2 breaking

ToolError
  ~ tool_timeout (1005)
      num: "1004" → "1005"
        BREAKING CODE_RENUMBERED: code "tool_timeout" now has num 1005; in base it had 1004 (base git:HEAD~1:internal/toolerr/errors.yaml:13:9)
      retryable: "retryable" → "not retryable"
        BREAKING RETRYABLE_CHANGED: "tool_timeout" is now not retryable; in base it was retryable (base git:HEAD~1:internal/toolerr/errors.yaml:16:9)
exit 0
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := runCLI(t, tc.dir, tc.args...)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("errgen %s (-want +got):\n%s", strings.Join(tc.args, " "), diff)
			}
		})
	}

	t.Run("a new catalogue", func(t *testing.T) {
		// A revision without the file is the base of a pull request that
		// adds it: every entry is new, compat passes with a note, and diff
		// lists everything as added.
		added := filepath.Join(repo, "billing", "errors.yaml")
		if err := os.MkdirAll(filepath.Dir(added), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(added, []byte(strings.Replace(gitBase, "num: 1004", "num: 1005", 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(filepath.Dir(added)) })
		billing := filepath.Dir(added)
		for _, against := range []string{"git:HEAD~1", "git:HEAD~1:billing/errors.yaml", "git:HEAD~1:./errors.yaml"} {
			got := runCLI(t, billing, "compat", "--against", against)
			want := "stderr: errgen: note: git:HEAD~1:billing/errors.yaml does not exist; every entry of errors.yaml is new\nexit 0\n"
			if got != want {
				t.Errorf("compat --against %s got:\n%s\nwant:\n%s", against, got, want)
			}
			got = runCLI(t, billing, "diff", "--against", against)
			if !strings.Contains(got, "billing/errors.yaml against git:HEAD~1:billing/errors.yaml: 1 added, 0 removed, 0 changed, 0 breaking") ||
				!strings.Contains(got, "+ tool_timeout (1005)") || !strings.HasSuffix(got, "exit 0\n") {
				t.Errorf("diff --against %s got:\n%s", against, got)
			}
		}
	})

	t.Run("a misspelt path", func(t *testing.T) {
		// A PATH that neither the revision nor the working tree has is a
		// typo, not a new catalogue: passing it would turn the gate off.
		// PATH is relative to the repository root (or, with ./, to the
		// folder errgen runs in), so errors.yaml is not the catalogue in
		// internal/toolerr; the files of REV close to it are suggested.
		for _, c := range []struct {
			dir, against, want string
		}{
			{sub, "git:HEAD~1:errors.yaml", `errors.yaml exists neither at "HEAD~1" nor in the working tree; did you mean git:HEAD~1:internal/toolerr/errors.yaml?`},
			{sub, "git:HEAD~1:toolerr/errors.yaml", `toolerr/errors.yaml exists neither at "HEAD~1" nor in the working tree; did you mean git:HEAD~1:internal/toolerr/errors.yaml?`},
			{sub, "git:HEAD~1:./errors.yml", `internal/toolerr/errors.yml exists neither at "HEAD~1" nor in the working tree; did you mean git:HEAD~1:internal/toolerr/errors.yaml?`},
			{repo, "git:HEAD~1:internal/toolerr/erors.yaml", `internal/toolerr/erors.yaml exists neither at "HEAD~1" nor in the working tree; did you mean git:HEAD~1:internal/toolerr/errors.yaml?`},
			{sub, "git:HEAD~1:README", `README exists neither at "HEAD~1" nor in the working tree; give the catalogue's path at that revision, from the repository root (or from the working directory, starting with ./)`},
		} {
			args := []string{"--against", c.against}
			if c.dir == repo {
				args = append(args, "internal/toolerr/errors.yaml")
			}
			want := "stderr: errgen: base " + strconv.Quote(c.against) + ": " + c.want + "\nexit 1\n"
			for _, cmd := range []string{"compat", "diff"} {
				if got := runCLI(t, c.dir, append([]string{cmd}, args...)...); got != want {
					t.Errorf("%s --against %s got:\n%s\nwant:\n%s", cmd, c.against, got, want)
				}
			}
		}
	})

	t.Run("a moved catalogue", func(t *testing.T) {
		// A pull request that moves the catalogue (git mv into a folder
		// whose name has a space) and breaks it is compared with the
		// catalogue at its old path, not passed as a new catalogue.
		repo := repoWithCatalogueAt(t, "old")
		if err := os.MkdirAll(filepath.Join(repo, "new api"), 0o755); err != nil {
			t.Fatal(err)
		}
		gitRun(t, repo, "mv", "old/errors.yaml", "new api/errors.yaml")
		moved := filepath.Join(repo, "new api", "errors.yaml")
		if err := os.WriteFile(moved, []byte(strings.Replace(gitBase, "num: 1004", "num: 1005", 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		const want = `new api/errors.yaml:13:9: CODE_RENUMBERED: code "tool_timeout" now has num 1005; in base it had 1004 (base git:HEAD:old/errors.yaml:13:9)
stderr: errgen: note: git:HEAD:new api/errors.yaml does not exist; git finds old/errors.yaml renamed to new api/errors.yaml since "HEAD", and compares with it
stderr: errgen: 1 breaking change against git:HEAD:old/errors.yaml; undo it, or waive a deliberate one under compat: in new api/errors.yaml
exit 1
`
		if got := runCLI(t, repo, "compat", "--against", "git:HEAD", "new api/errors.yaml"); got != want {
			t.Errorf("uncommitted move, got:\n%s\nwant:\n%s", got, want)
		}
		gitRun(t, repo, "commit", "-q", "-a", "-m", "Move and break it")
		if got := runCLI(t, repo, "compat", "--against", "git:HEAD~1", "new api/errors.yaml"); got != strings.ReplaceAll(want, "HEAD", "HEAD~1") {
			t.Errorf("committed move, got:\n%s", got)
		}
		got := runCLI(t, filepath.Join(repo, "new api"), "diff", "--against", "git:HEAD~1")
		if !strings.Contains(got, "new api/errors.yaml against git:HEAD~1:old/errors.yaml: 0 added, 0 removed, 1 changed, 1 breaking") {
			t.Errorf("diff got:\n%s", got)
		}
		// A user's diff.relative does not hide the move from the
		// catalogue's folder, where git would print paths from there.
		gitRun(t, repo, "config", "diff.relative", "true")
		if got := runCLI(t, filepath.Join(repo, "new api"), "compat", "--against", "git:HEAD~1"); !strings.Contains(got, "CODE_RENUMBERED") || !strings.HasSuffix(got, "exit 1\n") {
			t.Errorf("with diff.relative, got:\n%s", got)
		}
		gitRun(t, repo, "config", "--unset", "diff.relative")
		// A PATH that is given is read as given.
		got = runCLI(t, repo, "compat", "--against", "git:HEAD~1:new api/errors.yaml", "new api/errors.yaml")
		if !strings.Contains(got, "does not exist; every entry of new api/errors.yaml is new") || !strings.HasSuffix(got, "exit 0\n") {
			t.Errorf("explicit path, got:\n%s", got)
		}
		// A new catalogue at the old path does not hide the move: git
		// finds the old path rewritten and the moved file a copy of it.
		other := "version: 1\npackage: billing\nfamilies:\n  - name: BillingError\n    doc: Errors of the billing service.\n    variants:\n      - {name: CardDeclined, code: card_declined, num: 7, message: the card was declined}\n"
		if err := os.WriteFile(filepath.Join(repo, "old", "errors.yaml"), []byte(other), 0o644); err != nil {
			t.Fatal(err)
		}
		gitRun(t, repo, "add", "old/errors.yaml")
		if got := runCLI(t, repo, "compat", "--against", "git:HEAD~1", "new api/errors.yaml"); got != strings.ReplaceAll(want, "HEAD", "HEAD~1") {
			t.Errorf("a new file at the old path, got:\n%s", got)
		}
	})

	t.Run("a catalogue moved with mv", func(t *testing.T) {
		// A move not yet added to git (mv, not git mv) is found as git
		// would find it once added, and the index is left as it was.
		repo := repoWithCatalogueAt(t, "old")
		if err := os.MkdirAll(filepath.Join(repo, "new"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(filepath.Join(repo, "old", "errors.yaml")); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(repo, "new", "errors.yaml"), []byte(strings.Replace(gitBase, "num: 1004", "num: 1005", 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		index, err := os.ReadFile(filepath.Join(repo, ".git", "index"))
		if err != nil {
			t.Fatal(err)
		}
		const want = `errors.yaml:13:9: CODE_RENUMBERED: code "tool_timeout" now has num 1005; in base it had 1004 (base git:HEAD:old/errors.yaml:13:9)
stderr: errgen: note: git:HEAD:new/errors.yaml does not exist; git finds old/errors.yaml renamed to errors.yaml since "HEAD", and compares with it
stderr: errgen: 1 breaking change against git:HEAD:old/errors.yaml; undo it, or waive a deliberate one under compat: in errors.yaml
exit 1
`
		if got := runCLI(t, filepath.Join(repo, "new"), "compat", "--against", "git:HEAD"); got != want {
			t.Errorf("got:\n%s\nwant:\n%s", got, want)
		}
		if after, err := os.ReadFile(filepath.Join(repo, ".git", "index")); err != nil || !bytes.Equal(after, index) {
			t.Errorf("the index changed (%v)", err)
		}
		// A new catalogue that is not a moved one is still new.
		if err := os.WriteFile(filepath.Join(repo, "new", "errors.yaml"), []byte("version: 1\npackage: billing\nuser_message: Failed ({code}).\ncategories:\n  other: Anything.\nfamilies:\n  - name: BillingError\n    variants:\n      - {name: CardDeclined, code: card_declined, num: 7, category: other, message: the card was declined}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := runCLI(t, filepath.Join(repo, "new"), "compat", "--against", "git:HEAD"); got != "stderr: errgen: note: git:HEAD:new/errors.yaml does not exist; every entry of errors.yaml is new\nexit 0\n" {
			t.Errorf("a new catalogue, got:\n%s", got)
		}
	})

	t.Run("a shallow clone", func(t *testing.T) {
		// CI's default checkout has one commit: the base revision is
		// missing, and the message says why.
		clone := filepath.Join(t.TempDir(), "clone")
		gitRun(t, repo, "clone", "-q", "--depth", "1", "file://"+filepath.ToSlash(repo), clone)
		got := runCLI(t, filepath.Join(clone, "internal", "toolerr"), "compat", "--against", "git:HEAD~1")
		want := "stderr: errgen: base \"git:HEAD~1\": unknown revision \"HEAD~1\" (the clone is shallow: fetch the history first, as actions/checkout does with fetch-depth: 0)\nexit 1\n"
		if got != want {
			t.Errorf("got:\n%s\nwant:\n%s", got, want)
		}
	})

	t.Run("base over the cap", func(t *testing.T) {
		// A blob of 17 MiB (zeros, a few KiB in git) is refused from its
		// size, before errgen reads any of it; a tree is not a file.
		big := filepath.Join(repo, "big.yaml")
		if err := os.WriteFile(big, make([]byte, 17<<20), 0o644); err != nil {
			t.Fatal(err)
		}
		gitRun(t, repo, "add", "big.yaml")
		gitRun(t, repo, "commit", "-q", "-m", "A huge file")
		got := runCLI(t, sub, "compat", "--against", "git:HEAD:big.yaml")
		want := "stderr: errgen: base \"git:HEAD:big.yaml\": \"HEAD:big.yaml\" is 17825792 bytes; a catalogue may be at most 16777216 (16 MiB)\nexit 1\n"
		if got != want {
			t.Errorf("got:\n%s\nwant:\n%s", got, want)
		}
		got = runCLI(t, sub, "compat", "--against", "git:HEAD:internal")
		if !strings.Contains(got, `"HEAD:internal" is a tree in git, not a file`) {
			t.Errorf("a tree as the base: %s", got)
		}
	})

	t.Run("outside a repository", func(t *testing.T) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "errors.yaml"), []byte(gitBase), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(dir))
		got := runCLI(t, dir, "compat", "--against", "git:HEAD~1")
		if !strings.HasPrefix(got, "stderr: errgen: base \"git:HEAD~1\": git rev-parse: fatal: not a git repository") || !strings.HasSuffix(got, "exit 1\n") {
			t.Errorf("got:\n%s", got)
		}
	})
}

// repoWithCatalogueAt makes a git repository whose one commit holds the
// catalogue gitBase in folder dir.
func repoWithCatalogueAt(t *testing.T, dir string) string {
	t.Helper()
	repo := t.TempDir()
	gitRun(t, repo, "init", "-q")
	if err := os.MkdirAll(filepath.Join(repo, dir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, dir, "errors.yaml"), []byte(gitBase), 0o644); err != nil {
		t.Fatal(err)
	}
	gitRun(t, repo, "add", ".")
	gitRun(t, repo, "commit", "-q", "-m", "Add the catalogue")
	return repo
}
