package cli_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/errgen/errgen/gen/diag"
)

// TestRegistryLintGolden runs errgen lint on each case of
// testdata/registry-lint: the files of the archive in a folder of their
// own, linted through its errgen.registry.yaml, or with the arguments of
// its args file; want is what lint prints, the folder's path left out, and
// its exit status. With a dir file, lint runs in that folder of the
// archive and the arguments are relative to it, so that want shows the
// paths as the working folder sees them. go test -update rewrites want.
func TestRegistryLintGolden(t *testing.T) {
	paths, err := filepath.Glob("../../testdata/registry-lint/*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no cases in testdata/registry-lint: %v", err)
	}
	for _, p := range paths {
		p, err := filepath.Abs(p) // the case may run in a folder of its own
		if err != nil {
			t.Fatal(err)
		}
		t.Run(strings.TrimSuffix(filepath.Base(p), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(p)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			args := []string{"errgen.registry.yaml"}
			workDir := ""
			var want *txtar.File
			for i := range ar.Files {
				f := &ar.Files[i]
				switch f.Name {
				case "want":
					want = f
					continue
				case "args":
					args = strings.Fields(string(f.Data))
					continue
				case "dir":
					workDir = strings.TrimSpace(string(f.Data))
					continue
				}
				target := filepath.Join(dir, filepath.FromSlash(f.Name))
				if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(target, f.Data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if want == nil {
				t.Fatal("no want section")
			}
			if workDir != "" {
				t.Chdir(filepath.Join(dir, filepath.FromSlash(workDir)))
			} else {
				for i, a := range args {
					args[i] = filepath.Join(dir, a)
				}
			}
			code, stdout, stderr := runCLI(t, append([]string{"lint"}, args...)...)
			got := strings.ReplaceAll(stdout+stderr, filepath.ToSlash(dir)+"/", "") + fmt.Sprintf("exit %d\n", code)
			if *update {
				want.Data = []byte(got)
				if err := os.WriteFile(p, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if !bytes.Equal([]byte(got), want.Data) {
				t.Errorf("lint printed:\n%s\nwant:\n%s", got, want.Data)
			}
		})
	}
}

// TestRegistryRepository: the three catalogues of testdata/registry (tool
// runtime, provider gateway, orchestrator) pass lint together, through
// their registry.
func TestRegistryRepository(t *testing.T) {
	code, stdout, stderr := runCLI(t, "lint", "../../testdata/registry/errgen.registry.yaml")
	if code != 0 || stdout != "" || stderr != "" {
		t.Errorf("lint of testdata/registry exited %d:\n%s%s", code, stdout, stderr)
	}
}

// TestExportRegistry: errgen export through the registry of
// testdata/registry prints testdata/export/registry.json (which
// gen/export's golden test also holds to its schema), naming each
// catalogue by its path in the registry.
func TestExportRegistry(t *testing.T) {
	code, stdout, stderr := runCLI(t, "export", "../../testdata/registry/errgen.registry.yaml")
	want, err := os.ReadFile("../../testdata/export/registry.json")
	if err != nil {
		t.Fatal(err)
	}
	if code != 0 || stderr != "" || stdout != string(want) {
		t.Errorf("export exited %d, stderr %q, and printed what testdata/export/registry.json does not hold:\n%s", code, stderr, stdout)
	}
	if code, stdout, _ := runCLI(t, "schema", "--export"); code != 0 || !strings.Contains(stdout, `"title": "errgen export, version 1"`) {
		t.Errorf("schema --export exited %d:\n%s", code, stdout)
	}
}

// TestExportNamesFilesAsGiven: catalogues given on the command line are
// named as given (cleaned), wherever errgen runs, and sorted by that name.
func TestExportNamesFilesAsGiven(t *testing.T) {
	reg, err := filepath.Abs("../../testdata/registry")
	if err != nil {
		t.Fatal(err)
	}
	// From the registry's folder, given by absolute paths: not the paths
	// relative to it that errgen shows in diagnostics.
	t.Chdir(reg)
	tools, gateway := filepath.Join(reg, "tools", "errors.yaml"), filepath.Join(reg, "gateway", ".", "errors.yaml")
	code, stdout, stderr := runCLI(t, "export", tools, gateway)
	var doc struct{ Catalogues []struct{ File string } }
	if err := json.Unmarshal([]byte(stdout), &doc); code != 0 || err != nil {
		t.Fatalf("export exited %d: %v\n%s", code, err, stderr)
	}
	want := []string{filepath.ToSlash(filepath.Clean(gateway)), filepath.ToSlash(tools)}
	if len(doc.Catalogues) != 2 || doc.Catalogues[0].File != want[0] || doc.Catalogues[1].File != want[1] {
		t.Errorf("export names the catalogues %+v; want %q", doc.Catalogues, want)
	}
}

// TestExportGivenKeepsRegistry: a catalogue given by its path, which a
// registry above it lists, is exported with the owner and ranges the
// registry gives it, as through the registry, from any folder.
func TestExportGivenKeepsRegistry(t *testing.T) {
	type entry struct {
		File  string
		Owner string
		Nums  [][2]int
	}
	exported := func(args ...string) []entry {
		t.Helper()
		code, stdout, stderr := runCLI(t, append([]string{"export"}, args...)...)
		var doc struct{ Catalogues []entry }
		if err := json.Unmarshal([]byte(stdout), &doc); code != 0 || err != nil {
			t.Fatalf("export %q exited %d: %v\n%s", args, code, err, stderr)
		}
		return doc.Catalogues
	}
	reg := exported("../../testdata/registry/errgen.registry.yaml")
	given := exported("../../testdata/registry/gateway/errors.yaml", "../../testdata/registry/tools/errors.yaml")
	if len(given) != 2 {
		t.Fatalf("export of two catalogues gave %+v", given)
	}
	for _, g := range given {
		var want *entry
		for i := range reg {
			if strings.HasSuffix(g.File, "/"+reg[i].File) {
				want = &reg[i]
			}
		}
		if want == nil || g.Owner != want.Owner || fmt.Sprint(g.Nums) != fmt.Sprint(want.Nums) {
			t.Errorf("export of %s gives owner %q and nums %v; through the registry %+v", g.File, g.Owner, g.Nums, want)
		}
	}
	t.Chdir("../../testdata/registry/gateway")
	if got := exported("errors.yaml"); len(got) != 1 || got[0].Owner != "provider-gateway" || fmt.Sprint(got[0].Nums) != "[[2000 2999]]" {
		t.Errorf("export in the catalogue's folder gives %+v; want the registry's owner and ranges", got)
	}
}

// registryBase and the catalogues below are a repository at its first
// commit; TestCompatRegistry changes them.
const registryBase = `version: 1
catalogues:
  - {path: a/errors.yaml, owner: team-a, nums: [[1, 99]]}
  - {path: b/errors.yaml, owner: team-b, nums: [[100, 199]]}
`

const catalogueA = `version: 1
package: a
user_message: Failed ({code}).
categories:
  other: Anything.
families:
  - name: AError
    variants:
      - {name: Busy, code: busy, num: 1, category: other, message: busy}
      - {name: Late, code: late, num: 60, category: other, message: late}
`

// catalogueAWithoutLate is catalogue A after its variant Late left it.
var catalogueAWithoutLate = strings.Replace(catalogueA, "      - {name: Late, code: late, num: 60, category: other, message: late}\n", "", 1)

const catalogueB = `version: 1
package: b
user_message: Failed ({code}).
categories:
  other: Anything.
families:
  - name: BError
    variants:
      - {name: Down, code: down, num: 100, category: other, message: down}
`

// commitAll commits every file of repo, a repository registryRepo made,
// as a new revision: the base of what a test changes next.
func commitAll(t *testing.T, repo, msg string) {
	t.Helper()
	for _, args := range [][]string{{"add", "."}, {"commit", "-q", "-m", msg}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// registryRepo makes a git repository of the registry and catalogues above
// committed as its one revision, isolated from the user's git
// configuration, and returns its folder and a function that writes a file
// of it.
func registryRepo(t *testing.T) (string, func(name, data string)) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("git is needed: %v", err)
	}
	for k, v := range map[string]string{
		"GIT_AUTHOR_NAME": "errgen test", "GIT_AUTHOR_EMAIL": "test@example.com",
		"GIT_COMMITTER_NAME": "errgen test", "GIT_COMMITTER_EMAIL": "test@example.com",
		"GIT_CONFIG_GLOBAL": os.DevNull, "GIT_CONFIG_NOSYSTEM": "1",
	} {
		t.Setenv(k, v)
	}
	repo := t.TempDir()
	write := func(name, data string) {
		p := filepath.Join(repo, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	write("errgen.registry.yaml", registryBase)
	write("a/errors.yaml", catalogueA)
	write("b/errors.yaml", catalogueB)
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "base")
	return repo, write
}

// TestCompatRegistry: compat through a registry compares every catalogue
// with itself at the base revision, and the registry across catalogues:
// a code moved from a to b (a cannot reserve its old num, which its
// shrunk range no longer covers), a's range shrunk under that num, and
// b's owner changed.
func TestCompatRegistry(t *testing.T) {
	repo, write := registryRepo(t)
	write("errgen.registry.yaml", strings.NewReplacer("[[1, 99]]", "[[1, 50]]", "owner: team-b", "owner: team-c").Replace(registryBase))
	write("a/errors.yaml", catalogueAWithoutLate)
	write("b/errors.yaml", catalogueB+"      - {name: Late, code: late, num: 160, category: other, message: late}\n")
	t.Chdir(repo)
	code, stdout, stderr := runCLI(t, "compat", "--against", "git:HEAD")
	got := stdout + stderr + fmt.Sprintf("exit %d\n", code)
	for _, want := range []string{
		`b/errors.yaml:10:22: note: CODE_MOVED: code "late" moved from "a/errors.yaml" to "b/errors.yaml", its num from 60 to 160; "a/errors.yaml" must reserve num 60 (base git:HEAD:a/errors.yaml:10:22)`,
		`a/errors.yaml:8:5: VARIANT_REMOVED_UNRESERVED: variant "late" (num 60) was removed without reserving its num (its code moved to "b/errors.yaml"); add num under reserved of family "AError" (base git:HEAD:a/errors.yaml:10:9)`,
		`errgen.registry.yaml:3:42: RANGE_SHRUNK: the ranges of "a/errors.yaml" no longer cover num 60, which it used or reserved in base; another catalogue could take it (base git:HEAD:errgen.registry.yaml:3:49)`,
		`errgen.registry.yaml:4:27: note: OWNER_CHANGED: "b/errors.yaml" is now owned by "team-c"; in base by "team-b" (base git:HEAD:errgen.registry.yaml:4:27)`,
		"errgen: 2 breaking changes against git:HEAD; undo them, or waive a deliberate one under compat: in a/errors.yaml; 1 change across the registry's catalogues cannot be waived\n",
		"exit 1\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("compat through the registry printed:\n%s\nwant a line:\n%s", got, want)
		}
	}
	code, stdout, stderr = runCLI(t, "diff", "--against", "git:HEAD")
	for _, want := range []string{"a/errors.yaml against git:HEAD:a/errors.yaml", "b/errors.yaml against git:HEAD:b/errors.yaml",
		"\nAcross the registry's catalogues: 2 entries changed, 1 breaking, 2 notes\n", "\n  ~ a/errors.yaml\n      nums: \"[1, 99]\" → \"[1, 50]\"\n", "\n  BREAKING RANGE_SHRUNK: errgen.registry.yaml:3:42: the ranges of ", "\n  note CODE_MOVED: b/errors.yaml:10:22: ", "\n  note OWNER_CHANGED: errgen.registry.yaml:4:27: "} {
		if code != 0 || !strings.Contains(stdout, want) {
			t.Errorf("diff through the registry exited %d, without %q:\n%s%s", code, want, stdout, stderr)
		}
	}
	// In Markdown the changes across catalogues are a section of their
	// own, after the last catalogue's, marked as a catalogue's are.
	code, stdout, stderr = runCLI(t, "diff", "--format", "markdown", "--against", "git:HEAD")
	_, across, ok := strings.Cut(stdout, "\n## errgen diff: across the registry's catalogues\n\n**2 entries changed, 1 breaking, 2 notes**.\n\n> [!CAUTION]\n")
	if code != 0 || !ok || !strings.Contains(across, "| changed | `b/errors.yaml` | owner | `team-b` | `team-c` |") ||
		!strings.Contains(across, "\n### Findings\n") || !strings.Contains(across, "| breaking | `RANGE_SHRUNK` |") || !strings.Contains(across, "| note | `CODE_MOVED` |") {
		t.Errorf("diff --format markdown through the registry exited %d:\n%s%s", code, stdout, stderr)
	}
	code, stdout, _ = runCLI(t, "diff", "--format", "json", "--against", "git:HEAD")
	var doc struct {
		Catalogues []json.RawMessage
		Across     []struct{ Rule string }
	}
	if err := json.Unmarshal([]byte(stdout), &doc); code != 0 || err != nil || len(doc.Catalogues) != 2 || len(doc.Across) != 3 {
		t.Errorf("diff --format json through the registry exited %d (%v):\n%s", code, err, stdout)
	}
	if code, _, stderr := runCLI(t, "compat", "--against", "git:HEAD:a/errors.yaml"); code != 2 || !strings.Contains(stderr, "without a path") {
		t.Errorf("compat through a registry with a base path exited %d:\n%s", code, stderr)
	}
}

// TestCompatRegistryMovedCodeKeepsItsMeaning: a code that moves to another
// catalogue is compared with what it was in the one it left: a move does
// not let its retryability or its message's placeholders change unseen.
// The findings are the new catalogue's, so its waivers accept them; what
// any move changes (package, num, family) is not reported again.
func TestCompatRegistryMovedCodeKeepsItsMeaning(t *testing.T) {
	repo, write := registryRepo(t)
	write("a/errors.yaml", catalogueAWithoutLate+"    reserved: {nums: [60]}\n")
	moved := catalogueB + "      - {name: Late, code: late, num: 160, category: other, message: \"late by {seconds}s\", retryable: true, fields: [{name: seconds, type: int}]}\n"
	write("b/errors.yaml", moved)
	t.Chdir(repo)
	code, stdout, stderr := runCLI(t, "compat", "--against", "git:HEAD")
	want := `b/errors.yaml:10:61: MESSAGE_PLACEHOLDERS_CHANGED: the message of "late" changed its placeholders: added "{seconds}" (it moved here from "a/errors.yaml") (base git:HEAD:a/errors.yaml:10:60)
b/errors.yaml:10:92: RETRYABLE_CHANGED: "late" is now retryable; in base it was not retryable (it moved here from "a/errors.yaml") (base git:HEAD:a/errors.yaml:10:9)
b/errors.yaml:10:22: note: CODE_MOVED: code "late" moved from "a/errors.yaml" to "b/errors.yaml", its num from 60 to 160 (base git:HEAD:a/errors.yaml:10:22)
`
	if code != 1 || stdout != want || !strings.Contains(stderr, "waive a deliberate one under compat: in b/errors.yaml") {
		t.Errorf("compat of a moved code that changed exited %d:\n%s%s\nwant:\n%s", code, stdout, stderr, want)
	}
	write("b/errors.yaml", moved+`compat:
  - {rule: RETRYABLE_CHANGED, code: late, reason: The gateway can retry it.}
  - {rule: MESSAGE_PLACEHOLDERS_CHANGED, code: late, reason: The message says how late.}
`)
	if code, stdout, stderr := runCLI(t, "compat", "--against", "git:HEAD"); code != 0 || strings.Count(stdout, "waived at b/errors.yaml") != 2 {
		t.Errorf("compat of a moved code with its changes waived exited %d:\n%s%s", code, stdout, stderr)
	}
}

// TestCompatRegistryMovedCodeKeepsWhatItsFamilyGave: what a moved code
// took from its family and catalogue (the payload type, the gRPC code, the
// problem status of a variant without an error http_status, the problem
// type_base, the gRPC domain, the retry policy) is
// compared too, even when the two families share a name.
func TestCompatRegistryMovedCodeKeepsWhatItsFamilyGave(t *testing.T) {
	repo, write := registryRepo(t)
	const head = "version: 1\npackage: %[1]s\nuser_message: Failed ({code}).\nprojections: [problem, grpc]\nproblem: {status: %[2]d, type_base: \"https://errors.example.com/%[1]s/\"}\ngrpc: {domain: %[1]s.example.com}\n%[3]scategories:\n  other: Anything.\nfamilies:\n  - name: AgentError\n    payload_type: %[4]s\n    grpc_code: %[5]s\n    variants:\n%[6]s"
	busy := "      - {name: Busy, code: busy, num: 1, category: other, message: busy}\n"
	late := func(num int) string {
		return fmt.Sprintf("      - {name: Late, code: late, num: %d, category: other, message: late, retryable: true}\n", num)
	}
	down := "      - {name: Down, code: down, num: 100, category: other, message: down}\n"
	write("a/errors.yaml", fmt.Sprintf(head, "a", 500, "retry: {max_retries: 3}\n", "a_error", "INTERNAL", busy+late(60)))
	write("b/errors.yaml", fmt.Sprintf(head, "b", 503, "", "b_error", "UNAVAILABLE", down))
	commitAll(t, repo, "families")
	t.Chdir(repo)
	write("a/errors.yaml", fmt.Sprintf(head, "a", 500, "retry: {max_retries: 3}\n", "a_error", "INTERNAL", busy)+"    reserved: {nums: [60]}\n")
	write("b/errors.yaml", fmt.Sprintf(head, "b", 503, "", "b_error", "UNAVAILABLE", down+late(160)))
	code, stdout, stderr := runCLI(t, "compat", "--against", "git:HEAD")
	for _, want := range []string{
		`PAYLOAD_TYPE_CHANGED: the payload type of "late" is now "b_error"; in base it was "a_error" (it moved here from "a/errors.yaml")`,
		`GRPC_CODE_CHANGED: the gRPC status of "late" now has code UNAVAILABLE; in base INTERNAL (it moved here from "a/errors.yaml")`,
		`PROBLEM_STATUS_CHANGED: the problem documents of "late" now have status 503; in base 500 (it moved here from "a/errors.yaml")`,
		`RETRY_POLICY_REMOVED: "late" no longer has a retry policy: RetryDelay stops retrying it (it moved here from "a/errors.yaml")`,
		`PROBLEM_TYPE_CHANGED: the problem type of "late" is now "https://errors.example.com/b/late"; in base "https://errors.example.com/a/late" (it moved here from "a/errors.yaml")`,
		`GRPC_CODE_CHANGED: the gRPC ErrorInfo domain of "late" is now "b.example.com"; in base "a.example.com": clients that match errors by reason and domain no longer match (it moved here from "a/errors.yaml")`,
	} {
		if code != 1 || strings.Count(stdout, want) != 1 {
			t.Errorf("compat of a code moved into another family exited %d, without exactly one:\n%s\n%s%s", code, want, stdout, stderr)
		}
	}
}

// TestCompatRegistryMovedSubcode: a sub-code that moves to another
// catalogue, as a variant's code or as another variant's sub-code, lives
// on, so the catalogue it left does not reserve it; the variant that
// answers to it now is compared with the one it belonged to, as a moved
// variant is: the same error passes, another one breaks. So does a
// variant whose code is another catalogue's sub-code now.
func TestCompatRegistryMovedSubcode(t *testing.T) {
	repo, write := registryRepo(t)
	subcodes := func(list string) string {
		return strings.Replace(catalogueA, "message: busy}", "message: busy, subcodes: ["+list+"]}", 1)
	}
	write("a/errors.yaml", subcodes("{code: busy_disk, doc: The disk.}, {code: busy_cpu, doc: The CPU.}"))
	commitAll(t, repo, "sub-code")
	t.Chdir(repo)
	moved := `note: CODE_MOVED: code "busy_disk" moved from "a/errors.yaml" to "b/errors.yaml"`
	for _, c := range []struct {
		as, a, b string
		exit     int
		want     []string
	}{
		{"the same error's code", subcodes("{code: busy_cpu, doc: The CPU.}"),
			catalogueB + "      - {name: BusyDisk, code: busy_disk, num: 101, category: other, message: busy}\n", 0, []string{moved}},
		{"another variant's sub-code", subcodes("{code: busy_cpu, doc: The CPU.}"),
			strings.Replace(catalogueB, "message: down}", "message: down, subcodes: [{code: busy_disk, doc: The disk.}]}", 1), 0,
			[]string{moved, `b/errors.yaml:9:61: note: MESSAGE_REWORDED: the message of "down" was reworded from "busy" to "down" ("busy_disk", a sub-code of "busy" in "a/errors.yaml" in base, is a sub-code of "down" here) (base git:HEAD:a/errors.yaml:9:59)`}},
		{"another error's code", subcodes("{code: busy_cpu, doc: The CPU.}"),
			catalogueB + "      - {name: BusyDisk, code: busy_disk, num: 101, category: other, retryable: true, message: busy}\n", 1,
			[]string{moved, `b/errors.yaml:10:70: RETRYABLE_CHANGED: "busy_disk" is now retryable; in base it was not retryable ("busy_disk", a sub-code of "busy" in "a/errors.yaml" in base, is the code of variant "busy_disk" here) (base git:HEAD:a/errors.yaml:9:9)`}},
		{"a variant's code now a sub-code", strings.Replace(subcodes("{code: busy_disk, doc: The disk.}, {code: busy_cpu, doc: The CPU.}"), "      - {name: Late, code: late, num: 60, category: other, message: late}\n", "    reserved: {nums: [60]}\n", 1),
			catalogueB + "      - {name: Slow, code: slow, num: 101, category: other, retryable: true, message: late, subcodes: [{code: late, doc: Late.}]}\n", 1,
			[]string{`note: CODE_MOVED: code "late" moved from "a/errors.yaml" to "b/errors.yaml", a sub-code of "slow"`,
				`b/errors.yaml:10:61: RETRYABLE_CHANGED: "slow" is now retryable; in base it was not retryable ("late", a variant of "a/errors.yaml" in base, is a sub-code of "slow" here) (base git:HEAD:a/errors.yaml:10:9)`}},
	} {
		write("a/errors.yaml", c.a)
		write("b/errors.yaml", c.b)
		if code, stdout, stderr := runCLI(t, "lint"); code != 0 {
			t.Fatalf("lint of %s exited %d:\n%s%s", c.as, code, stdout, stderr)
		}
		code, stdout, stderr := runCLI(t, "compat", "--against", "git:HEAD")
		if code != c.exit || strings.Count(stdout, "\n") != len(c.want) {
			t.Errorf("compat of a code moved as %s exited %d, want %d and %d lines:\n%s%s", c.as, code, c.exit, len(c.want), stdout, stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(stdout, w) {
				t.Errorf("compat of a code moved as %s printed:\n%s\nwithout:\n%s", c.as, stdout, w)
			}
		}
	}
}

// TestCompatRegistryMovedCode: a code moved to another catalogue lives
// on, so the catalogue it left reserves only its old num, which is what
// lint accepts; a code two catalogues hold, or a num given to another code
// in another catalogue, fails.
func TestCompatRegistryMovedCode(t *testing.T) {
	repo, write := registryRepo(t)
	write("a/errors.yaml", catalogueAWithoutLate+"    reserved: {nums: [60]}\n")
	write("b/errors.yaml", catalogueB+"      - {name: Late, code: late, num: 160, category: other, message: late}\n")
	t.Chdir(repo)
	if code, stdout, stderr := runCLI(t, "lint"); code != 0 {
		t.Fatalf("lint of the moved code exited %d:\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr := runCLI(t, "compat", "--against", "git:HEAD")
	want := `b/errors.yaml:10:22: note: CODE_MOVED: code "late" moved from "a/errors.yaml" to "b/errors.yaml", its num from 60 to 160 (base git:HEAD:a/errors.yaml:10:22)` + "\n"
	if code != 0 || stdout != want || stderr != "" {
		t.Errorf("compat of a code moved as lint asks exited %d:\n%s%s\nwant:\n%s", code, stdout, stderr, want)
	}
	// diff shows the variant as moved, not merely removed, in each format.
	for format, want := range map[string]string{
		"text":     `- late (60), moved to "b/errors.yaml", reserved`,
		"markdown": "| removed, moved to `b/errors.yaml`, reserved | `late` | 60 |",
		"json":     `"moved_to": "b/errors.yaml"`,
	} {
		if code, stdout, _ := runCLI(t, "diff", "--format", format, "--color", "never", "--against", "git:HEAD"); code != 0 || !strings.Contains(stdout, want) {
			t.Errorf("diff --format %s exited %d, without %q:\n%s", format, code, want, stdout)
		}
	}

	// The same code in both catalogues is lint's error, and so compat's.
	write("a/errors.yaml", catalogueA)
	code, stdout, stderr = runCLI(t, "compat", "--against", "git:HEAD")
	if want := `b/errors.yaml:10:28: code "late" is also used by num 60 (a/errors.yaml:10:28)`; code != 1 || !strings.Contains(stderr, want) {
		t.Errorf("compat with a code in two catalogues exited %d:\n%s%s\nwant:\n%s", code, stdout, stderr, want)
	}

	// A num a catalogue gives up (its range shrunk under it) and another
	// gives to another code breaks what consumers keyed by num read.
	write("errgen.registry.yaml", strings.NewReplacer("[[1, 99]]", "[[1, 50]]", "[[100, 199]]", "[[51, 199]]").Replace(registryBase))
	write("a/errors.yaml", catalogueAWithoutLate+"    reserved: {codes: [late]}\n")
	write("b/errors.yaml", catalogueB+"      - {name: Early, code: early, num: 60, category: other, message: early}\n")
	code, stdout, stderr = runCLI(t, "compat", "--against", "git:HEAD")
	if want := `b/errors.yaml:10:36: NUM_REASSIGNED: num 60 now identifies "early" in "b/errors.yaml"; in base it identified "late" in "a/errors.yaml" (base git:HEAD:a/errors.yaml:10:34)`; code != 1 || !strings.Contains(stdout, want) {
		t.Errorf("compat with a num given to another code in another catalogue exited %d:\n%s%s\nwant:\n%s", code, stdout, stderr, want)
	}

	// So does a code that moves in with that num: busy leaves a for b
	// with num 60, which in base identified late.
	write("errgen.registry.yaml", strings.NewReplacer("[[1, 99]]", "[[1, 59], [61, 99]]", "[[100, 199]]", "[[60, 60], [100, 199]]").Replace(registryBase))
	write("a/errors.yaml", strings.NewReplacer("{name: Busy, code: busy, num: 1,", "{name: Fresh, code: fresh, num: 2,").Replace(catalogueAWithoutLate)+"    reserved: {nums: [1], codes: [late]}\n")
	write("b/errors.yaml", catalogueB+"      - {name: Busy, code: busy, num: 60, category: other, message: busy}\n")
	if code, stdout, stderr := runCLI(t, "lint"); code != 0 {
		t.Fatalf("lint of the code moved onto late's num exited %d:\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr = runCLI(t, "compat", "--against", "git:HEAD")
	if want := `b/errors.yaml:10:34: NUM_REASSIGNED: num 60 now identifies "busy" in "b/errors.yaml"; in base it identified "late" in "a/errors.yaml" (base git:HEAD:a/errors.yaml:10:34)`; code != 1 || !strings.Contains(stdout, want+"\n") {
		t.Errorf("compat with a code moved onto another code's num exited %d:\n%s%s\nwant the line:\n%s", code, stdout, stderr, want)
	}
	// a cannot reserve num 60, which b holds now (the registry would refuse
	// it), so it is not told to: the break is the num's new meaning.
	if strings.Contains(stdout, "VARIANT_REMOVED_UNRESERVED") {
		t.Errorf("compat tells a to reserve a num b holds:\n%s", stdout)
	}
}

// TestCompatRegistrySaysWhereToWaive: the advice after breaking changes
// names the catalogues whose waivers can accept them, never the registry,
// which takes no waivers, and counts the changes across catalogues apart.
func TestCompatRegistrySaysWhereToWaive(t *testing.T) {
	repo, write := registryRepo(t)
	write("a/errors.yaml", strings.Replace(catalogueA, "num: 1,", "num: 2,", 1))
	write("b/errors.yaml", strings.Replace(catalogueB, "num: 100,", "num: 101,", 1))
	t.Chdir(repo)
	want := "errgen: 2 breaking changes against git:HEAD; undo them, or waive a deliberate one under compat: in its catalogue (a/errors.yaml, b/errors.yaml)\n"
	if code, _, stderr := runCLI(t, "compat", "--against", "git:HEAD"); code != 1 || stderr != want {
		t.Errorf("compat exited %d:\n%s\nwant:\n%s", code, stderr, want)
	}
	write("b/errors.yaml", catalogueB)
	write("errgen.registry.yaml", strings.Replace(registryBase, "[[1, 99]]", "[[2, 99]]", 1))
	want = "errgen: 2 breaking changes against git:HEAD; undo them, or waive a deliberate one under compat: in a/errors.yaml; 1 change across the registry's catalogues cannot be waived\n"
	if code, _, stderr := runCLI(t, "compat", "--against", "git:HEAD"); code != 1 || stderr != want {
		t.Errorf("compat exited %d:\n%s\nwant:\n%s", code, stderr, want)
	}
}

// TestRegistryDocs: the index of testdata/registry and each catalogue's
// reference there are what errgen docs writes (docs --check).
func TestRegistryDocs(t *testing.T) {
	for _, args := range [][]string{
		{"docs", "--check", "-o", "../../testdata/registry/INDEX.md", "../../testdata/registry/errgen.registry.yaml"},
		{"docs", "--check", "-o", "../../testdata/registry/tools/ERRORS.md", "../../testdata/registry/tools/errors.yaml"},
		{"docs", "--check", "-o", "../../testdata/registry/gateway/ERRORS.md", "../../testdata/registry/gateway/errors.yaml"},
		{"docs", "--check", "-o", "../../testdata/registry/orchestrator/ERRORS.md", "../../testdata/registry/orchestrator/errors.yaml"},
	} {
		if code, stdout, stderr := runCLI(t, args...); code != 0 {
			t.Errorf("errgen %s exited %d:\n%s%s", strings.Join(args, " "), code, stdout, stderr)
		}
	}
}

// TestCompatRegistryRemovedCatalogue: a catalogue dropped from the
// registry, its folder deleted, is read from the base revision by its path
// and reported.
func TestCompatRegistryRemovedCatalogue(t *testing.T) {
	repo, write := registryRepo(t)
	if err := os.RemoveAll(filepath.Join(repo, "b")); err != nil {
		t.Fatal(err)
	}
	write("errgen.registry.yaml", strings.Replace(registryBase, "  - {path: b/errors.yaml, owner: team-b, nums: [[100, 199]]}\n", "", 1))
	t.Chdir(repo)
	code, stdout, stderr := runCLI(t, "compat", "--against", "git:HEAD")
	if want := `errgen.registry.yaml:2:1: CATALOGUE_REMOVED: catalogue "b/errors.yaml" is no longer in the registry, and no catalogue holds "down" (100) now: free for another catalogue to take; keep it listed with them under reserved, or move them to a catalogue that is (base git:HEAD:errgen.registry.yaml:4:5)`; code != 1 || !strings.Contains(stdout, want) {
		t.Errorf("compat exited %d:\n%s%s\nwant:\n%s", code, stdout, stderr, want)
	}
}

// TestCompatRegistryReservedAcrossCatalogues: what a catalogue reserved in
// base is retired for the whole registry: another catalogue's code that
// takes a reserved num is NUM_REASSIGNED, and a catalogue dropped from the
// registry frees its reserved codes and nums and its sub-codes as it frees
// its variants.
func TestCompatRegistryReservedAcrossCatalogues(t *testing.T) {
	repo, write := registryRepo(t)
	withSubcode := strings.Replace(catalogueB, "message: down}", "message: down, subcodes: [{code: down_disk, doc: The disk.}]}", 1)
	write("b/errors.yaml", withSubcode+"    reserved: {nums: [150], codes: [retired]}\n")
	commitAll(t, repo, "reserve")
	t.Chdir(repo)

	write("errgen.registry.yaml", strings.NewReplacer("[[1, 99]]", "[[1, 99], [150, 150]]", "[[100, 199]]", "[[100, 149], [151, 199]]").Replace(registryBase))
	write("a/errors.yaml", catalogueA+"      - {name: Early, code: early, num: 150, category: other, message: early}\n")
	write("b/errors.yaml", withSubcode+"    reserved: {codes: [retired]}\n")
	code, stdout, stderr := runCLI(t, "compat", "--against", "git:HEAD")
	if want := `a/errors.yaml:11:36: NUM_REASSIGNED: num 150 now identifies "early" in "a/errors.yaml"; in base "b/errors.yaml" reserved it (base git:HEAD:b/errors.yaml:10:5)`; code != 1 || !strings.Contains(stdout, want) {
		t.Errorf("compat with a reserved num taken by another catalogue exited %d:\n%s%s\nwant:\n%s", code, stdout, stderr, want)
	}

	if err := os.RemoveAll(filepath.Join(repo, "b")); err != nil {
		t.Fatal(err)
	}
	write("errgen.registry.yaml", strings.Replace(registryBase, "  - {path: b/errors.yaml, owner: team-b, nums: [[100, 199]]}\n", "", 1))
	write("a/errors.yaml", catalogueA)
	code, stdout, stderr = runCLI(t, "compat", "--against", "git:HEAD")
	if want := `no catalogue holds "down" (100), sub-code "down_disk", reserved code "retired", reserved num 150 now`; code != 1 || !strings.Contains(stdout, want) {
		t.Errorf("compat of a dropped catalogue that reserved exited %d:\n%s%s\nwant:\n%s", code, stdout, stderr, want)
	}

	// The code it retired, taken by another catalogue for a new error, is
	// no longer free but reused: reported at the code that reuses it.
	write("a/errors.yaml", catalogueA+"      - {name: Retired, code: retired, num: 2, category: other, message: again}\n")
	code, stdout, stderr = runCLI(t, "compat", "--against", "git:HEAD")
	if want := `a/errors.yaml:11:25: CATALOGUE_REMOVED: code "retired", which "b/errors.yaml" retired (reserved) in base, now names an error of "a/errors.yaml"; "b/errors.yaml" is no longer in the registry to keep it retired (base git:HEAD:b/errors.yaml:10:5)`; code != 1 || !strings.Contains(stdout, want) || strings.Contains(stdout, `reserved code "retired"`) {
		t.Errorf("compat of a dropped catalogue whose retired code is reused exited %d:\n%s%s\nwant:\n%s", code, stdout, stderr, want)
	}
}

// TestCompatRegistryWithoutOneInBase: the change that adds the registry,
// or lists a catalogue that existed unlisted, compares across catalogues
// with what each held in base all the same: a num one gave up and another
// takes is NUM_REASSIGNED.
func TestCompatRegistryWithoutOneInBase(t *testing.T) {
	for _, baseRegistry := range []string{"", "version: 1\ncatalogues:\n  - {path: b/errors.yaml, owner: team-b, nums: [[100, 199]]}\n"} {
		repo, write := registryRepo(t)
		if baseRegistry == "" {
			if err := os.Remove(filepath.Join(repo, "errgen.registry.yaml")); err != nil {
				t.Fatal(err)
			}
		} else {
			write("errgen.registry.yaml", baseRegistry)
		}
		commitAll(t, repo, "base")
		t.Chdir(repo)
		write("errgen.registry.yaml", strings.NewReplacer("[[1, 99]]", "[[2, 99]]", "[[100, 199]]", "[[1, 1], [100, 199]]").Replace(registryBase))
		write("a/errors.yaml", strings.Replace(catalogueA, "      - {name: Busy, code: busy, num: 1, category: other, message: busy}\n", "", 1)+"    reserved: {codes: [busy]}\n")
		write("b/errors.yaml", catalogueB+"      - {name: Other, code: other_thing, num: 1, category: other, message: other}\n")
		code, stdout, stderr := runCLI(t, "compat", "--against", "git:HEAD")
		if want := `NUM_REASSIGNED: num 1 now identifies "other_thing" in "b/errors.yaml"; in base it identified "busy" in "a/errors.yaml"`; code != 1 || !strings.Contains(stdout, want) {
			t.Errorf("with the base registry %q, compat exited %d:\n%s%s\nwant:\n%s", baseRegistry, code, stdout, stderr, want)
		}
	}
}

// TestCompatRegistryMovedCatalogue: a catalogue whose folder was renamed
// is the same catalogue under a new path: it is compared with itself at
// the old path, so a break in the same change is still found, and none of
// its codes is reported as freed or moved.
func TestCompatRegistryMovedCatalogue(t *testing.T) {
	repo, write := registryRepo(t)
	if err := os.RemoveAll(filepath.Join(repo, "b")); err != nil {
		t.Fatal(err)
	}
	write("c/errors.yaml", strings.Replace(catalogueB, "message: down}", "message: down, retryable: true}", 1))
	write("errgen.registry.yaml", strings.Replace(registryBase, "path: b/errors.yaml", "path: c/errors.yaml", 1))
	t.Chdir(repo)
	code, stdout, stderr := runCLI(t, "compat", "--against", "git:HEAD")
	want := `c/errors.yaml:9:76: RETRYABLE_CHANGED: "down" is now retryable; in base it was not retryable (base git:HEAD:b/errors.yaml:9:9)
errgen.registry.yaml:4:6: note: CATALOGUE_MOVED: catalogue "b/errors.yaml" is now listed as "c/errors.yaml"; it is compared with itself at its old path (base git:HEAD:errgen.registry.yaml:4:6)
`
	if code != 1 || stdout != want || strings.Contains(stderr, "is new") {
		t.Errorf("compat of a moved catalogue exited %d:\n%s%s\nwant:\n%s", code, stdout, stderr, want)
	}
	code, stdout, _ = runCLI(t, "diff", "--against", "git:HEAD")
	if want := "c/errors.yaml against git:HEAD:b/errors.yaml"; code != 0 || !strings.Contains(stdout, want) || !strings.Contains(stdout, "note CATALOGUE_MOVED") {
		t.Errorf("diff of a moved catalogue exited %d, without %q or its CATALOGUE_MOVED note:\n%s", code, want, stdout)
	}
}

// TestCompatRegistryNumsMoveWithTheirCodes: a code that moves to another
// catalogue with its num (the ranges moved with it), or a catalogue merged
// into another, frees nothing: no RANGE_SHRUNK, no CATALOGUE_REMOVED.
func TestCompatRegistryNumsMoveWithTheirCodes(t *testing.T) {
	repo, write := registryRepo(t)
	write("errgen.registry.yaml", strings.NewReplacer("[[1, 99]]", "[[1, 59], [61, 99]]", "[[100, 199]]", "[[60, 60], [100, 199]]").Replace(registryBase))
	write("a/errors.yaml", catalogueAWithoutLate)
	write("b/errors.yaml", catalogueB+"      - {name: Late, code: late, num: 60, category: other, message: late}\n")
	t.Chdir(repo)
	want := `b/errors.yaml:10:22: note: CODE_MOVED: code "late" moved from "a/errors.yaml" to "b/errors.yaml" with its num 60 (base git:HEAD:a/errors.yaml:10:22)` + "\n"
	if code, stdout, stderr := runCLI(t, "compat", "--against", "git:HEAD"); code != 0 || stdout != want {
		t.Errorf("compat of a code moved with its num exited %d:\n%s%s\nwant:\n%s", code, stdout, stderr, want)
	}
	// diff does not call it reserved: a has nothing to reserve.
	if code, stdout, stderr := runCLI(t, "diff", "--against", "git:HEAD"); code != 0 || !strings.Contains(stdout, "\n  - late (60), moved to \"b/errors.yaml\"\n") {
		t.Errorf("diff of a code moved with its num exited %d:\n%s%s", code, stdout, stderr)
	}

	// a and b merged into c, which holds every code with its num.
	if err := os.RemoveAll(filepath.Join(repo, "a")); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(repo, "b")); err != nil {
		t.Fatal(err)
	}
	write("errgen.registry.yaml", "version: 1\ncatalogues:\n  - {path: c/errors.yaml, owner: team-a, nums: [[1, 199]]}\n")
	write("c/errors.yaml", catalogueA+"      - {name: Down, code: down, num: 100, category: other, message: down}\n")
	code, stdout, stderr := runCLI(t, "compat", "--against", "git:HEAD")
	if code != 0 || strings.Contains(stdout, "CATALOGUE_REMOVED") || !strings.Contains(stdout, "note: CATALOGUE_MOVED") ||
		!strings.Contains(stdout, `code "down" moved from "b/errors.yaml" to "c/errors.yaml" with its num 100`) {
		t.Errorf("compat of two catalogues merged exited %d:\n%s%s", code, stdout, stderr)
	}
}

// TestRegistryRefusesLinkedFolders: a registry entry whose folder is a
// link out of the repository is refused before anything is read.
func TestRegistryRefusesLinkedFolders(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(outside, "errors.yaml"), []byte("secret: value\n"), 0o644)
	if err := os.Symlink(outside, filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "errgen.registry.yaml"), []byte("version: 1\ncatalogues:\n  - {path: link/errors.yaml, owner: x, nums: [[1, 9]]}\n"), 0o644)
	code, stdout, stderr := runCLI(t, "lint", filepath.Join(root, "errgen.registry.yaml"))
	if code != 1 || strings.Contains(stdout+stderr, "secret") || !strings.Contains(stderr, "symlink") {
		t.Errorf("lint through a linked folder exited %d:\n%s%s", code, stdout, stderr)
	}
}

// TestRegistryEntryThatCannotBeRead: an entry whose path is a folder, or
// a link (to the file or on the way to it), is reported at its path, as a
// catalogue that does not exist is, and every other catalogue is still
// checked: lint, docs and export report the others' errors too.
func TestRegistryEntryThatCannotBeRead(t *testing.T) {
	for name, c := range map[string]struct {
		path, want string
		setup      func(root string) error
	}{
		"a folder": {"b", `catalogue "b" cannot be read: b is a folder, not a regular file`, func(string) error { return nil }},
		"a linked file": {"c/errors.yaml", `catalogue "c/errors.yaml" cannot be read: c/errors.yaml is a symlink, not a regular file`, func(root string) error {
			os.Mkdir(filepath.Join(root, "c"), 0o755)
			return os.Symlink(filepath.Join(root, "b", "errors.yaml"), filepath.Join(root, "c", "errors.yaml"))
		}},
		"a linked folder": {"d/errors.yaml", `catalogue "d/errors.yaml" cannot be read: d is a symlink; errgen reads and writes files inside folders, and never through a link`, func(root string) error {
			return os.Symlink(filepath.Join(root, "b"), filepath.Join(root, "d"))
		}},
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			for p, data := range map[string]string{
				// A's num is outside its range: an error of its own.
				"a/errors.yaml": strings.Replace(catalogueA, "num: 60,", "num: 160,", 1),
				"b/errors.yaml": catalogueB,
				"errgen.registry.yaml": "version: 1\ncatalogues:\n  - {path: a/errors.yaml, owner: team-a, nums: [[1, 99]]}\n" +
					"  - {path: " + c.path + ", owner: team-b, nums: [[100, 199]]}\n",
			} {
				os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755)
				if err := os.WriteFile(filepath.Join(root, p), []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := c.setup(root); err != nil {
				t.Fatal(err)
			}
			t.Chdir(root)
			for _, args := range [][]string{{"lint"}, {"export"}, {"docs"}} {
				code, _, stderr := runCLI(t, args...)
				if code != 1 || !strings.Contains(stderr, "errgen.registry.yaml:4:12: "+c.want) ||
					!strings.Contains(stderr, "a/errors.yaml:10:39: num 160 is outside") || strings.Contains(stderr, "errgen: errgen.registry.yaml") {
					t.Errorf("%s exited %d:\n%s", args[0], code, stderr)
				}
			}
		})
	}
}

// crossTest runs in the orchestrator package generated from
// testdata/registry: its cause is the gateway's family, imported from the
// gateway's package.
const crossTest = `package orchestrator

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"example.com/agents/gateway"
)

func TestCauseFromTheGateway(t *testing.T) {
	limited := &ModelCallFailed{Cause: &gateway.RateLimited{Provider: "openai", RetryAfter: 2 * time.Second}}
	refused := &ModelCallFailed{Cause: &gateway.AuthFailed{Provider: "openai", APIKey: "zq9key"}}
	if !limited.Retryable() || limited.Class() != ClassRetryable {
		t.Errorf("a rate limit from the gateway: Retryable %v, Class %v; want retryable", limited.Retryable(), limited.Class())
	}
	if refused.Retryable() || refused.Class() != ClassTerminal {
		t.Errorf("a refused key from the gateway: Retryable %v, Class %v; want terminal", refused.Retryable(), refused.Class())
	}
	if d, ok := gateway.RetryAfterOf(fmt.Errorf("run: %w", limited)); !ok || d != 2*time.Second {
		t.Errorf("RetryAfterOf through the wrapper = %v, %v", d, ok)
	}
	if d, ok := RetryAfterOf(fmt.Errorf("run: %w", limited)); !ok || d != 2*time.Second {
		t.Errorf("the orchestrator's RetryAfterOf of the gateway's wait = %v, %v; want 2s, true", d, ok)
	}
	if d, ok := RetryAfterOf(refused); ok {
		t.Errorf("the orchestrator's RetryAfterOf of a gateway error without a wait = %v, true", d)
	}
	var rl *gateway.RateLimited
	if !errors.As(limited, &rl) {
		t.Error("errors.As does not find the gateway's error in the chain")
	}
	wire, err := json.Marshal(refused)
	if err != nil {
		t.Fatal(err)
	}
	want := ` + "`" + `{"category":"model","code":"model_call_failed","code_num":3001,"error":"model call failed: provider openai refused the key","retryable":false,"suppress_retry":false,"cause":{"category":"auth","code":"auth_failed","code_num":2002,"error":"provider openai refused the key","retryable":false,"suppress_retry":false,"provider":"openai"}}` + "`" + `
	if string(wire) != want {
		t.Errorf("wire form:\n got %s\nwant %s", wire, want)
	}
	back, err := DecodePayload(wire)
	if err != nil {
		t.Fatal(err)
	}
	var got *ModelCallFailed
	if !errors.As(back, &got) {
		t.Fatalf("decoded %v", back)
	}
	if af, ok := got.Cause.(*gateway.AuthFailed); !ok || af.Provider != "openai" || af.APIKey != "" {
		t.Errorf("decoded cause %#v", got.Cause)
	}
	// A key an older gateway still sends inside the cause is not passed on.
	old := strings.Replace(want, ` + "`" + `"provider":"openai"}}` + "`" + `, ` + "`" + `"provider":"openai","api_key":"zq9key"}}` + "`" + `, 1)
	back, err = DecodePayload([]byte(old))
	if err != nil {
		t.Fatal(err)
	}
	again, _ := json.Marshal(back)
	if string(back.Raw) != want || string(again) != want {
		t.Errorf("a sensitive field inside the gateway's cause was passed on:\n%s\n%s", back.Raw, again)
	}
	for _, f := range back.Payload.Fields {
		if strings.Contains(string(f.Value), "zq9") {
			t.Errorf("a sensitive field inside the gateway's cause is in the field %s: %s", f.Name, f.Value)
		}
	}
	// A plain error cause keeps its meaning, whatever error it holds.
	step := &StepFailed{Cause: &gateway.RateLimited{Provider: "openai"}}
	wire, _ = json.Marshal(step)
	if want := ` + "`" + `"cause":{"error":"provider openai rate limited the request"}` + "`" + `; !strings.Contains(string(wire), want) || step.Retryable() {
		t.Errorf("a plain error cause holding another package's error: %s, Retryable %v", wire, step.Retryable())
	}
	if got := step.UserMessage(); got != "The assistant failed (step_failed)." {
		t.Errorf("UserMessage = %q, want the catalogue's", got)
	}
}

// A newer gateway's variant, which this gateway package does not know,
// reaches the orchestrator as the cause of its wrapper: the wrapper
// decodes with its code and retryability, the field stays nil and the
// decoded error holds the gateway's *RemoteError, which its log and wire
// form carry. A code of the orchestrator's own where the gateway's family
// belongs breaks the contract, and is refused.
func TestUnknownCauseFromANewerGateway(t *testing.T) {
	const cause = "{\"category\":\"server\",\"code\":\"provider_overloaded\",\"code_num\":2014,\"error\":\"overloaded\",\"retryable\":true,\"suppress_retry\":false}"
	wire := "{\"category\":\"model\",\"code\":\"model_call_failed\",\"code_num\":3001,\"error\":\"model call failed: overloaded\",\"retryable\":true,\"suppress_retry\":false,\"cause\":" + cause + "}"
	r, err := DecodePayload([]byte(wire))
	if err != nil {
		t.Fatal(err)
	}
	if r.Code() != CodeModelCallFailed || !IsRetryable(r) || ClassOf(r) != ClassRetryable {
		t.Errorf("decoded %q, IsRetryable %v, ClassOf %v", r.Code(), IsRetryable(r), ClassOf(r))
	}
	var mcf *ModelCallFailed
	if !errors.As(r, &mcf) || mcf.Cause != nil {
		t.Errorf("the variant %#v", mcf)
	}
	if again, _ := json.Marshal(r); string(again) != wire {
		t.Errorf("wire form %s", again)
	}
	var buf bytes.Buffer
	slog.New(slog.NewJSONHandler(&buf, nil)).Error("call", LogAttr(r))
	if !strings.Contains(buf.String(), "provider_overloaded") {
		t.Errorf("the log lacks the gateway's cause: %s", buf.String())
	}
	bad := strings.Replace(wire, cause, "{\"category\":\"model\",\"code\":\"step_failed\",\"code_num\":3002,\"error\":\"x\",\"retryable\":false}", 1)
	if _, err := DecodePayload([]byte(bad)); err == nil || !strings.Contains(err.Error(), "is not a gateway.ProviderError") {
		t.Errorf("an orchestrator code as the gateway's cause: %v", err)
	}
	// A gateway error the gateway's package refuses is refused for what
	// is wrong inside it, not as an error of another family.
	wrong := strings.Replace(wire, cause, "{\"category\":\"rate_limit\",\"code\":\"rate_limited\",\"code_num\":2001,\"error\":\"x\",\"retryable\":true,\"retry_after\":\"soon\"}", 1)
	if _, err := DecodePayload([]byte(wrong)); err == nil || !strings.Contains(err.Error(), ` + "`" + `"retry_after"` + "`" + `) || strings.Contains(err.Error(), "is not a") {
		t.Errorf("a gateway error with a value of the wrong type: %v", err)
	}
}

// The orchestrator's scrubber reaches the gateway's error inside its log,
// as it reaches it inside its wire form, whatever the gateway's scrubber.
func TestScrubberReachesTheGatewaysCause(t *testing.T) {
	SetScrubber(ScrubSecrets)
	defer SetScrubber(nil)
	e := &ModelCallFailed{Cause: &gateway.RateLimited{Provider: "https://user:zq9pass@api.example.com"}}
	var buf bytes.Buffer
	slog.New(slog.NewJSONHandler(&buf, nil)).Error("call", LogAttr(fmt.Errorf("run: %w", e)))
	wire, _ := json.Marshal(e)
	for what, out := range map[string]string{"log": buf.String(), "wire form": string(wire)} {
		if strings.Contains(out, "zq9pass") || !strings.Contains(out, "rate_limited") {
			t.Errorf("the %s of the gateway's cause is not scrubbed: %s", what, out)
		}
	}
}
`

// TestRegistryPackagesBuildTogether: the three catalogues of
// testdata/registry, generated each into its folder of one module, build,
// vet and pass their generated tests together, and the orchestrator's
// cause of the gateway's family (imported by the path errgen derives from
// go.mod) carries its retryability, retry-after (asked of either package),
// wire form and decoding across the import.
func TestRegistryPackagesBuildTogether(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed: %v", err)
	}
	root := t.TempDir()
	src := "../../testdata/registry"
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		target := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/agents\n\ngo 1.23\n"), 0o644)
	os.WriteFile(filepath.Join(root, "orchestrator", "cross_test.go"), []byte(crossTest), 0o644)
	for _, svc := range []string{"tools", "gateway", "orchestrator"} {
		if code, _, stderr := runCLI(t, "generate", filepath.Join(root, svc, "errors.yaml")); code != 0 {
			t.Fatalf("generate %s exited %d:\n%s", svc, code, stderr)
		}
	}
	// The gateway's error answers Retryable itself: the doc says so, not
	// that an error outside this catalogue makes the wrapper answer false.
	code, err := os.ReadFile(filepath.Join(root, "orchestrator", "errgen.go"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "// Retryable reports whether its cause, an error of another catalogue, is retryable; false when there is none.\nfunc (e *ModelCallFailed) Retryable() bool"; !strings.Contains(string(code), want) {
		t.Errorf("orchestrator's ModelCallFailed.Retryable doc; want\n%s", want)
	}
	if want := "// UserMessage returns the user message of the cause, an error of another\n// catalogue, when it has one, else \"The assistant failed (model_call_failed).\".\nfunc (e *ModelCallFailed) UserMessage() string"; !strings.Contains(string(code), want) {
		t.Errorf("orchestrator's ModelCallFailed.UserMessage doc; want\n%s", want)
	}
	for _, args := range [][]string{{"vet", "./..."}, {"test", "-count=1", "./..."}} {
		cmd := exec.Command(goBin, args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// TestCatalogueGivenTwiceIsAUsageError: a catalogue given twice to a
// command that checks several together, under any spelling of its path,
// would conflict with itself at every code and num; it is a usage error
// naming it, before anything is read.
func TestCatalogueGivenTwiceIsAUsageError(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.Mkdir("sub", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("base.yaml", []byte(validCatalogue), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("other.yaml", []byte(strings.NewReplacer("tool_timeout", "other_timeout", "1004", "1005").Replace(validCatalogue)), 0o644); err != nil {
		t.Fatal(err)
	}
	abs := filepath.Join(dir, "sub", "..", "base.yaml")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"lint", "base.yaml", "base.yaml"}, `catalogue "base.yaml" is given twice; give each catalogue once`},
		{[]string{"lint", "base.yaml", "other.yaml", "./base.yaml"}, `catalogue "base.yaml" is given twice, also as "./base.yaml"; give each catalogue once`},
		{[]string{"lint", "base.yaml", abs}, `catalogue "base.yaml" is given twice, also as ` + diag.Quote(abs) + `; give each catalogue once`},
		{[]string{"export", "sub/../base.yaml", "base.yaml"}, `catalogue "sub/../base.yaml" is given twice, also as "base.yaml"; give each catalogue once`},
		{[]string{"lint", "missing.yaml", "./missing.yaml"}, `catalogue "missing.yaml" is given twice, also as "./missing.yaml"; give each catalogue once`},
		{[]string{"lint", "base.yaml", "errgen.registry.yaml"}, `"errgen.registry.yaml" is a registry; give it alone, or give catalogues`},
		{[]string{"export", "sub/errgen.registry.yaml", "base.yaml"}, `"sub/errgen.registry.yaml" is a registry; give it alone, or give catalogues`},
	} {
		code, stdout, stderr := runCLI(t, c.args...)
		want := "errgen " + c.args[0] + ": " + c.want + "\n"
		if code != 2 || stdout != "" || !strings.HasPrefix(stderr, want) {
			t.Errorf("errgen %s: exit %d, stderr:\n%s\nwant it to start:\n%s", strings.Join(c.args, " "), code, stderr, want)
		}
	}
	if code, _, stderr := runCLI(t, "lint", "base.yaml", "other.yaml"); code != 0 {
		t.Errorf("two catalogues: exit %d, stderr:\n%s", code, stderr)
	}
}

// TestCompatRegistryMovedCodeRespelled: a code moved to a catalogue of
// another code_case is spelled anew, and clients that match its text no
// longer match it: CODE_CASE_CHANGED at the code, the catalogue's own
// break, which its waiver accepts. Moved with its spelling, it is only
// CODE_MOVED.
func TestCompatRegistryMovedCodeRespelled(t *testing.T) {
	repo, write := registryRepo(t)
	upper := strings.NewReplacer("code: busy", "code: BUSY", "code: late", "code: LATE", "categories:", "code_case: upper_snake\ncategories:")
	write("a/errors.yaml", upper.Replace(catalogueA))
	commitAll(t, repo, "upper")
	t.Chdir(repo)
	write("a/errors.yaml", upper.Replace(catalogueAWithoutLate)+"    reserved: {nums: [60]}\n")
	// A sub-code's finding is its variant's, and so is its waiver.
	for as, b := range map[string]struct{ catalogue, at, was, waive string }{
		"a variant":  {catalogueB + "      - {name: Late, code: late, num: 160, category: other, message: late}\n", "b/errors.yaml:10:22", "a/errors.yaml:11:22", "late"},
		"a sub-code": {strings.Replace(catalogueB, "message: down}", "message: down, subcodes: [{code: late, doc: Late.}]}", 1), "b/errors.yaml:9:94", "a/errors.yaml:11:22", "down"},
	} {
		write("b/errors.yaml", b.catalogue)
		if code, stdout, stderr := runCLI(t, "lint"); code != 0 {
			t.Fatalf("lint of the code moved as %s exited %d:\n%s%s", as, code, stdout, stderr)
		}
		code, stdout, stderr := runCLI(t, "compat", "--against", "git:HEAD")
		want := fmt.Sprintf(`%s: CODE_CASE_CHANGED: code "late" moved here from "a/errors.yaml", where it was spelled "LATE": its text changed, as if it were recoded (base git:HEAD:%s)`, b.at, b.was)
		if code != 1 || !strings.Contains(stdout, want+"\n") {
			t.Errorf("compat of the code moved as %s and respelled exited %d:\n%s%s\nwant the line:\n%s", as, code, stdout, stderr, want)
		}
		// Waived in the catalogue it moved to, it passes.
		write("b/errors.yaml", strings.Replace(b.catalogue, "families:", "compat:\n  - {rule: CODE_CASE_CHANGED, code: "+b.waive+", reason: Every client reads codes case-blind.}\nfamilies:", 1))
		if code, stdout, stderr := runCLI(t, "compat", "--against", "git:HEAD"); code != 0 {
			t.Errorf("compat of the code moved as %s, respelled and waived, exited %d:\n%s%s", as, code, stdout, stderr)
		}
	}
}

// TestCompatRegistryImportedFamilyRenamed: a field whose type is another
// catalogue's family keeps its type when that family is renamed, as a
// field of the catalogue's own renamed family does: the rename is
// reported once, at the family, and waived there.
func TestCompatRegistryImportedFamilyRenamed(t *testing.T) {
	repo, write := registryRepo(t)
	withCause := func(family string) string {
		return catalogueB + "      - {name: Relayed, code: relayed, num: 101, category: other, message: relayed, fields: [{name: cause, type: a." + family + "}]}\n"
	}
	write("go.mod", "module example.com/agents\n\ngo 1.23\n")
	write("b/errors.yaml", withCause("AError"))
	commitAll(t, repo, "cause")
	t.Chdir(repo)
	write("a/errors.yaml", strings.Replace(strings.Replace(catalogueA, "name: AError", "name: AFailure", 1), "families:", "compat:\n  - {rule: GO_NAME_CHANGED, family: AFailure, reason: Named for what it holds.}\nfamilies:", 1))
	write("b/errors.yaml", withCause("AFailure"))
	code, stdout, stderr := runCLI(t, "compat", "--against", "git:HEAD")
	want := `a/errors.yaml:9:5: note: GO_NAME_CHANGED: family "AError" is now named "AFailure" (its interface and its As helper), for "busy", "late" (base git:HEAD:a/errors.yaml:7:5); waived at a/errors.yaml:7:5: "Named for what it holds."` + "\n"
	if code != 0 || stdout != want {
		t.Errorf("compat of a renamed imported family exited %d:\n%s%s\nwant:\n%s", code, stdout, stderr, want)
	}
	if code, stdout, _ := runCLI(t, "diff", "--color", "never", "--against", "git:HEAD"); code != 0 || strings.Contains(stdout, "FIELD_RETYPED") {
		t.Errorf("diff of a renamed imported family exited %d, showing the field as retyped:\n%s", code, stdout)
	}
}

// TestCompatRegistryKeyRendersAnotherCatalogueCause: a suppression key
// that renders a cause of another catalogue's family renders that error's
// message, so a message reworded there (a note in that catalogue) changes
// the key here, even when the family was renamed in the same change; a
// key that renders no such cause is left alone.
func TestCompatRegistryKeyRendersAnotherCatalogueCause(t *testing.T) {
	repo, write := registryRepo(t)
	withCause := func(family string) string {
		return catalogueB + "      - {name: Relayed, code: relayed, num: 101, category: other, message: relayed, suppression_key: \"{cause}\", fields: [{name: cause, type: a." + family + "}]}\n" +
			"      - {name: Kept, code: kept, num: 102, category: other, message: kept, suppression_key: \"{tool}\", fields: [{name: cause, type: a." + family + "}, {name: tool, type: string}]}\n"
	}
	write("go.mod", "module example.com/agents\n\ngo 1.23\n")
	write("b/errors.yaml", withCause("AError"))
	commitAll(t, repo, "cause")
	t.Chdir(repo)
	write("a/errors.yaml", strings.Replace(catalogueA, "message: late}", "message: running late}", 1))
	code, stdout, stderr := runCLI(t, "compat", "--against", "git:HEAD")
	want := `b/errors.yaml:10:85: SUPPRESSION_KEY_CHANGED: the suppression_key of "relayed" renders {cause}, the message of its cause of family "a.AError", which renders another text for "late" than in base: repeats group differently (base git:HEAD:b/errors.yaml:10:85)`
	if code != 1 || !strings.Contains(stdout, want+"\n") || strings.Count(stdout, "SUPPRESSION_KEY_CHANGED") != 1 {
		t.Errorf("compat of a reworded message another catalogue's key renders exited %d:\n%s%s\nwant a line:\n%s", code, stdout, stderr, want)
	}
	write("a/errors.yaml", strings.Replace(strings.Replace(catalogueA, "message: late}", "message: running late}", 1), "name: AError", "name: AFailure", 1))
	write("b/errors.yaml", withCause("AFailure"))
	if code, stdout, stderr := runCLI(t, "compat", "--against", "git:HEAD"); code != 1 || !strings.Contains(stdout, `the message of its cause of family "a.AFailure", which renders another text for "late"`) {
		t.Errorf("compat of a reworded message of a renamed family another catalogue's key renders exited %d:\n%s%s", code, stdout, stderr)
	}
}

// TestCompatRegistryKeyRendersACauseThroughAnotherCatalogue: a key that
// renders a cause whose message renders, in turn, a cause of a third
// catalogue follows that catalogue's messages, whether the cause is of
// its own catalogue's family or of another's, and whatever the order the
// registry lists the catalogues in.
func TestCompatRegistryKeyRendersACauseThroughAnotherCatalogue(t *testing.T) {
	repo, write := registryRepo(t)
	catalogueC := strings.NewReplacer("package: a", "package: c", "name: AError", "name: CError", "num: 1,", "num: 201,", "num: 60,", "num: 260,", "code: busy", "code: c_busy", "code: late", "code: c_late").Replace(catalogueA)
	write("errgen.registry.yaml", registryBase+"  - {path: c/errors.yaml, owner: team-c, nums: [[200, 299]]}\n")
	write("go.mod", "module example.com/agents\n\ngo 1.23\n")
	write("c/errors.yaml", catalogueC)
	write("a/errors.yaml", catalogueA+
		"      - {name: Wrapped, code: wrapped, num: 2, category: other, message: \"wrapped: {inner}\", fields: [{name: inner, type: c.CError}]}\n"+
		"  - name: AHolder\n    variants:\n"+
		"      - {name: Held, code: held, num: 3, category: other, message: held, suppression_key: \"{cause}\", fields: [{name: cause, type: AError}]}\n")
	write("b/errors.yaml", catalogueB+"      - {name: Relayed, code: relayed, num: 101, category: other, message: relayed, suppression_key: \"{cause}\", fields: [{name: cause, type: a.AError}]}\n")
	commitAll(t, repo, "causes")
	t.Chdir(repo)
	write("c/errors.yaml", strings.Replace(catalogueC, "message: late}", "message: running late}", 1))
	code, stdout, stderr := runCLI(t, "compat", "--against", "git:HEAD")
	for _, want := range []string{
		`a/errors.yaml:14:74: SUPPRESSION_KEY_CHANGED: the suppression_key of "held" renders {cause}, the message of its cause of family "AError", which renders another text for "wrapped" than in base: repeats group differently (base git:HEAD:a/errors.yaml:14:74)`,
		`b/errors.yaml:10:85: SUPPRESSION_KEY_CHANGED: the suppression_key of "relayed" renders {cause}, the message of its cause of family "a.AError", which renders another text for "wrapped" than in base: repeats group differently (base git:HEAD:b/errors.yaml:10:85)`,
	} {
		if code != 1 || !strings.Contains(stdout, want+"\n") {
			t.Errorf("compat of a reworded message a key renders through another catalogue exited %d:\n%s%s\nwant a line:\n%s", code, stdout, stderr, want)
		}
	}
}

// TestGenerateKeepsTheRegistrysRanges: generate, like lint, refuses a num
// outside the ranges the registry above the catalogue gives it, at the
// num, and writes nothing; a num back in range generates.
func TestGenerateKeepsTheRegistrysRanges(t *testing.T) {
	repo := t.TempDir()
	for name, data := range map[string]string{
		"errgen.registry.yaml": registryBase,
		"a/errors.yaml":        strings.Replace(catalogueA, "num: 60", "num: 160", 1),
	} {
		p := filepath.Join(repo, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(filepath.Join(repo, "a"))
	code, _, stderr := runCLI(t, "generate", "errors.yaml")
	want := `errors.yaml:10:39: num 160 is outside the ranges the registry gives "a/errors.yaml", [1, 99] (../errgen.registry.yaml:3:49)` + "\n"
	if code != 1 || stderr != want {
		t.Fatalf("generate: exit %d\n%s\nwant exit 1\n%s", code, stderr, want)
	}
	if files, _ := filepath.Glob("*.go"); len(files) > 0 {
		t.Fatalf("generate wrote %v", files)
	}
	if err := os.WriteFile("errors.yaml", []byte(catalogueA), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, "generate", "errors.yaml"); code != 0 {
		t.Fatalf("generate in range: exit %d\n%s", code, stderr)
	}
}

// TestRangesOfTheRegistryThatListsIt: a catalogue's ranges are those of
// the nearest registry above it that lists it, past a nearer one that
// does not; diff names that registry from the repository's root, as it
// names the catalogue.
func TestRangesOfTheRegistryThatListsIt(t *testing.T) {
	repo, write := registryRepo(t)
	write("svc/errgen.registry.yaml", "version: 1\ncatalogues:\n  - {path: c/errors.yaml, owner: team-c, nums: [[200, 299]]}\n")
	write("svc/c/errors.yaml", strings.NewReplacer("package: a", "package: c", "num: 1,", "num: 201,", "num: 60,", "num: 260,", "code: busy", "code: c_busy", "code: late", "code: c_late").Replace(catalogueA))
	write("errgen.registry.yaml", registryBase+"  - {path: svc/d/errors.yaml, owner: team-d, nums: [[300, 399]]}\n")
	write("svc/d/errors.yaml", strings.NewReplacer("package: a", "package: d", "num: 1,", "num: 301,", "num: 60,", "num: 360,").Replace(catalogueA))
	commitAll(t, repo, "nested registries")
	write("svc/d/errors.yaml", strings.NewReplacer("package: a", "package: d", "num: 1,", "num: 301,", "num: 60,", "num: 460,").Replace(catalogueA))
	t.Chdir(filepath.Join(repo, "svc", "d"))
	want := `errors.yaml:10:39: num 460 is outside the ranges the registry gives "svc/d/errors.yaml", [300, 399] (../../errgen.registry.yaml:5:53)` + "\n"
	for _, cmd := range []string{"lint", "generate"} {
		if code, _, stderr := runCLI(t, cmd, "errors.yaml"); code != 1 || stderr != want {
			t.Errorf("%s: exit %d\n%s\nwant exit 1\n%s", cmd, code, stderr, want)
		}
	}
	code, _, stderr := runCLI(t, "diff", "--against", "git:HEAD", "errors.yaml")
	if want := `svc/d/errors.yaml:10:39: num 460 is outside the ranges the registry gives "svc/d/errors.yaml", [300, 399] (errgen.registry.yaml:5:53)` + "\n"; code != 1 || stderr != want {
		t.Errorf("diff: exit %d\n%s\nwant exit 1\n%s", code, stderr, want)
	}
}

// TestCompatRegistryRetiredAcrossCatalogues: what a catalogue reserved in
// base stays retired in the registry. A family that moves to another
// catalogue with its reserved list keeps its nums and codes retired there,
// which the catalogue it left may not reserve again, so that is no
// finding; a retired code that another catalogue gives a new meaning is a
// break at that use, which no waiver of the catalogue that retired it can
// accept.
func TestCompatRegistryRetiredAcrossCatalogues(t *testing.T) {
	repo, write := registryRepo(t)
	write("a/errors.yaml", `version: 1
package: a
user_message: Failed ({code}).
categories:
  other: Anything.
families:
  - name: AError
    reserved: {nums: [9], codes: [retired]}
    variants:
      - {name: Busy, code: busy, num: 1, category: other, message: busy}
      - {name: Old, code: old, num: 7, category: other, message: old}
      - {name: Late, code: late, num: 60, category: other, message: late, subcodes: [{code: late_x, doc: X.}, {code: late_y, doc: Y.}]}
`)
	commitAll(t, repo, "reserved")
	t.Chdir(repo)
	// AError moves to b, where it retires Old and late_y too.
	write("errgen.registry.yaml", strings.NewReplacer("[[1, 99]]", "[[2, 6]]", "[[100, 199]]", "[[1, 1], [7, 7], [9, 9], [60, 60], [100, 199]]").Replace(registryBase))
	write("a/errors.yaml", "version: 1\npackage: a\nuser_message: Failed ({code}).\ncategories:\n  other: Anything.\nfamilies:\n  - name: AOther\n    variants:\n      - {name: Other, code: other_a, num: 5, category: other, message: other}\n")
	write("b/errors.yaml", catalogueB+`  - name: AError
    reserved: {nums: [9, 7], codes: [retired, old, late_y]}
    variants:
      - {name: Busy, code: busy, num: 1, category: other, message: busy}
      - {name: Late, code: late, num: 60, category: other, message: late, subcodes: [{code: late_x, doc: X.}]}
`)
	if code, stdout, stderr := runCLI(t, "lint"); code != 0 {
		t.Fatalf("lint of the moved family exited %d:\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr := runCLI(t, "compat", "--against", "git:HEAD")
	if code != 0 || strings.Contains(stdout, "REMOVED") || strings.Count(stdout, "CODE_MOVED") != 3 {
		t.Errorf("compat of a family moved with its reserved list exited %d:\n%s%s", code, stdout, stderr)
	}
	// diff shows what b retires as reserved.
	if code, stdout, stderr := runCLI(t, "diff", "--against", "git:HEAD"); code != 0 || !strings.Contains(stdout, "\n  - old (7), reserved\n") {
		t.Errorf("diff of a family moved with its reserved list exited %d:\n%s%s", code, stdout, stderr)
	}

	// The catalogue that retired "retired" drops it, and the other one
	// takes it: a break there, not one the first could waive.
	write("errgen.registry.yaml", registryBase)
	write("a/errors.yaml", strings.Replace(catalogueA, "    variants:\n", "    reserved: {nums: [9]}\n    variants:\n", 1))
	write("b/errors.yaml", catalogueB+"      - {name: Retired, code: retired, num: 101, category: other, message: back}\n")
	code, stdout, stderr = runCLI(t, "compat", "--against", "git:HEAD")
	want := `b/errors.yaml:10:25: RESERVED_REMOVED: code "retired", which "a/errors.yaml" retired (reserved) in base, now names an error of "b/errors.yaml" (base git:HEAD:a/errors.yaml:8:5)`
	if code != 1 || !strings.Contains(stdout, want) || strings.Count(stdout, "RESERVED_REMOVED") != 1 || !strings.Contains(stderr, "cannot be waived") {
		t.Errorf("compat of a retired code taken by another catalogue exited %d:\n%s%s\nwant a line:\n%s", code, stdout, stderr, want)
	}
}

// TestCompatWarnsOfAnUnlistedCatalogue: compat through a registry warns
// of a catalogue below it that the registry does not list, as lint does:
// compared with nothing, its codes would pass unseen.
func TestCompatWarnsOfAnUnlistedCatalogue(t *testing.T) {
	repo, write := registryRepo(t)
	write("c/errors.yaml", strings.Replace(catalogueA, "package: a", "package: c", 1))
	t.Chdir(repo)
	want := `errgen.registry.yaml:2:1: warning: "c/errors.yaml" is a catalogue the registry does not list; add it under catalogues with its owner and nums, so its codes are checked with the others` + "\n"
	for _, cmd := range []string{"compat", "diff"} {
		if code, _, stderr := runCLI(t, cmd, "--against", "git:HEAD"); code != 0 || !strings.Contains(stderr, want) {
			t.Errorf("%s with an unlisted catalogue: exit %d\n%s\nwant:\n%s", cmd, code, stderr, want)
		}
	}
}

// TestImportedEntryThatCannotBeReadIsNamedFromTheWorkingFolder: a field of
// another catalogue's family whose listed catalogue cannot be read (a
// folder, a file too large) names that catalogue as every diagnostic
// does, relative to the working folder, not by its absolute path.
func TestImportedEntryThatCannotBeReadIsNamedFromTheWorkingFolder(t *testing.T) {
	for name, c := range map[string]struct {
		want  string
		setup func(file string) error
	}{
		"a folder": {`(unreadable: "b/errors.yaml" cannot be read: ../b/errors.yaml is a folder, not a regular file`, func(file string) error {
			return os.MkdirAll(file, 0o755)
		}},
		"too large": {`(unreadable: "b/errors.yaml" cannot be read: ../b/errors.yaml is 1073741824 bytes`, func(file string) error {
			if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(file, nil, 0o644); err != nil {
				return err
			}
			return os.Truncate(file, 1<<30) // sparse: nothing is written
		}},
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			for p, data := range map[string]string{
				"go.mod": "module example.com/agents\n",
				"errgen.registry.yaml": "version: 1\ncatalogues:\n  - {path: a/errors.yaml, owner: team-a, nums: [[1, 99]]}\n" +
					"  - {path: b/errors.yaml, owner: team-b, nums: [[100, 199]]}\n",
				"a/errors.yaml": strings.Replace(catalogueA, "message: late}", "message: \"late: {cause}\", fields: [{name: cause, type: b.BError}]}", 1),
			} {
				os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755)
				if err := os.WriteFile(filepath.Join(root, p), []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := c.setup(filepath.Join(root, "b", "errors.yaml")); err != nil {
				t.Fatal(err)
			}
			t.Chdir(filepath.Join(root, "a"))
			code, stdout, stderr := runCLI(t, "lint")
			if code != 1 || !strings.Contains(stderr, c.want) || strings.Contains(stdout+stderr, filepath.ToSlash(root)) {
				t.Errorf("lint exited %d; want %s, and no absolute path:\n%s%s", code, c.want, stdout, stderr)
			}
		})
	}
}

// TestRegistryListsOneFileTwice: two entries whose paths name one file
// (a hard link here; Tools/errors.yaml and tools/errors.yaml where file
// names ignore letter case) are the catalogue listed twice, reported at
// the later entry, not a catalogue whose every code and num conflicts
// with itself.
func TestRegistryListsOneFileTwice(t *testing.T) {
	root := t.TempDir()
	for p, data := range map[string]string{
		"a/errors.yaml": catalogueA,
		"errgen.registry.yaml": "version: 1\ncatalogues:\n  - {path: a/errors.yaml, owner: team-a, nums: [[1, 99]]}\n" +
			"  - {path: b/errors.yaml, owner: team-b, nums: [[100, 199]]}\n",
	} {
		os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755)
		if err := os.WriteFile(filepath.Join(root, p), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.Mkdir(filepath.Join(root, "b"), 0o755)
	if err := os.Link(filepath.Join(root, "a", "errors.yaml"), filepath.Join(root, "b", "errors.yaml")); err != nil {
		t.Skipf("no hard links here: %v", err)
	}
	t.Chdir(root)
	want := `errgen.registry.yaml:4:12: catalogue "b/errors.yaml" is listed twice: it is the file listed as "a/errors.yaml" (at errgen.registry.yaml:3:12); list it once`
	for _, args := range [][]string{{"lint"}, {"export"}, {"docs"}} {
		code, stdout, stderr := runCLI(t, args...)
		if code != 1 || stdout != "" || strings.TrimSpace(stderr) != want {
			t.Errorf("%s exited %d; want only\n%s\ngot:\n%s%s", args[0], code, want, stdout, stderr)
		}
	}
	// Reported with the registry's other errors, a reference that does
	// not exist among them, not in a run after them.
	reg := "version: 1\ncatalogues:\n  - {path: a/errors.yaml, owner: team-a, docs: a/ERRORS.md, nums: [[1, 99]]}\n" +
		"  - {path: b/errors.yaml, owner: team-b, nums: [[100, 199]]}\n"
	if err := os.WriteFile("errgen.registry.yaml", []byte(reg), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "lint")
	want = `errgen.registry.yaml:3:48: docs "a/ERRORS.md" does not exist; write the catalogue's reference there: errgen docs -o a/ERRORS.md a/errors.yaml` + "\n" +
		`errgen.registry.yaml:4:12: catalogue "b/errors.yaml" is listed twice: it is the file listed as "a/errors.yaml" (at errgen.registry.yaml:3:12); list it once`
	if code != 1 || stdout != "" || strings.TrimSpace(stderr) != want {
		t.Errorf("lint exited %d; want only\n%s\ngot:\n%s%s", code, want, stdout, stderr)
	}
}

// TestRegistryIndexLinksFromItsFolder: the index written with -o outside
// the registry's folder links to each catalogue and reference from the
// folder it is written to, so every link leads to a file that exists.
func TestRegistryIndexLinksFromItsFolder(t *testing.T) {
	reg, err := filepath.Abs("../../testdata/registry/errgen.registry.yaml")
	if err != nil {
		t.Fatal(err)
	}
	linkRE := regexp.MustCompile(`\]\(([^)#]+)(#[^)]*)?\)`)
	// A folder reached through a link: links lead from where it is.
	elsewhere, linked := t.TempDir(), filepath.Join(t.TempDir(), "docs")
	if err := os.Symlink(elsewhere, linked); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{
		filepath.Join(t.TempDir(), "INDEX.md"),
		filepath.Join(t.TempDir(), "a folder (docs)", "INDEX.md"),
		filepath.Join(linked, "INDEX.md"),
		filepath.Join(linked, "new", "INDEX.md"),
	} {
		os.MkdirAll(filepath.Dir(out), 0o755)
		if code, stdout, stderr := runCLI(t, "docs", "-o", out, reg); code != 0 {
			t.Fatalf("docs -o %s exited %d:\n%s%s", out, code, stdout, stderr)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		links := linkRE.FindAllStringSubmatch(string(data), -1)
		if len(links) == 0 {
			t.Fatalf("no links in the index:\n%s", data)
		}
		for _, l := range links {
			target, err := url.PathUnescape(l[1])
			if err != nil {
				t.Fatalf("link %s: %v", l[1], err)
			}
			// Not filepath.Join, which would take ../ off the path
			// as written, not from where the folder is.
			if _, err := os.Stat(filepath.Dir(out) + string(filepath.Separator) + filepath.FromSlash(target)); err != nil {
				t.Errorf("index at %s links to %s, which does not lead to a file: %v", out, l[1], err)
			}
		}
	}
}

// TestDiffRegistryNamesFilesFromTheRepositoryRoot: diff over a registry,
// run in a catalogue's folder, names every file from the repository's
// root, the registry in the changes across catalogues included; and an
// imported catalogue's error, named so, is reported once, in that
// catalogue, not again at each field that imports its family.
func TestDiffRegistryNamesFilesFromTheRepositoryRoot(t *testing.T) {
	repo, write := registryRepo(t)
	write("errgen.registry.yaml", strings.Replace(registryBase, "owner: team-b", "owner: team-c", 1))
	t.Chdir(filepath.Join(repo, "a"))
	code, stdout, stderr := runCLI(t, "diff", "--against", "git:HEAD", "../errgen.registry.yaml")
	if want := "\n  note OWNER_CHANGED: errgen.registry.yaml:4:27: "; code != 0 || !strings.Contains(stdout, want) {
		t.Errorf("diff exited %d, without %q:\n%s%s", code, want, stdout, stderr)
	}
	write("go.mod", "module example.com/agents\n")
	write("a/errors.yaml", strings.Replace(catalogueA, "message: late}", "message: \"late: {cause}\", fields: [{name: cause, type: b.BError}]}", 1))
	write("b/errors.yaml", strings.Replace(catalogueB, "message: down}", "message: down, bogus: 1}", 1))
	code, stdout, stderr = runCLI(t, "diff", "--against", "git:HEAD", "../errgen.registry.yaml")
	if lines := strings.Split(strings.TrimSpace(stderr), "\n"); code != 1 || stdout != "" || len(lines) != 1 ||
		!strings.HasPrefix(lines[0], `b/errors.yaml:9:76: unknown key "bogus"`) {
		t.Errorf("diff exited %d; want b's error alone, named from the root:\n%s%s", code, stdout, stderr)
	}
}

// TestDiffRegistryJSONProblems: diff --format json over a registry whose
// catalogue fails to load, or against a revision git cannot read, prints
// the problems as {"problems": [...]}, as for one catalogue, with the
// text on standard error the text format prints.
func TestDiffRegistryJSONProblems(t *testing.T) {
	repo, write := registryRepo(t)
	write("b/errors.yaml", strings.Replace(catalogueB, "message: down}", "message: down, bogus: 1}", 1))
	t.Chdir(repo)
	type problem struct {
		Severity, File, Message string
		Line, Col               int
	}
	for _, against := range []string{"git:HEAD", "git:no-such-revision"} {
		_, _, textErr := runCLI(t, "diff", "--against", against)
		code, stdout, stderr := runCLI(t, "diff", "--format", "json", "--against", against)
		var doc struct{ Problems []problem }
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil || code != 1 || len(doc.Problems) == 0 || stderr != textErr {
			t.Errorf("diff --format json --against %s exited %d (%v):\n%s%s\nwant exit 1, problems, and on standard error:\n%s", against, code, err, stdout, stderr, textErr)
			continue
		}
		last := doc.Problems[len(doc.Problems)-1]
		if against == "git:HEAD" && (last.File != "b/errors.yaml" || last.Line != 9 || !strings.HasPrefix(last.Message, `unknown key "bogus"`)) {
			t.Errorf("diff --format json printed %+v, want b's unknown key", doc.Problems)
		}
	}
}

// TestDiffRegistryNamesFilesInMessagesFromTheRepositoryRoot: run in a
// subfolder, diff over a registry names the files its messages mention
// as its positions name files, from the repository's root: a go.mod
// looked for, a listed catalogue that cannot be read.
func TestDiffRegistryNamesFilesInMessagesFromTheRepositoryRoot(t *testing.T) {
	repo, write := registryRepo(t)
	write("a/errors.yaml", strings.Replace(catalogueA, "message: late}", "message: \"late: {cause}\", fields: [{name: cause, type: b.BError}]}", 1))
	t.Chdir(filepath.Join(repo, "a"))
	code, stdout, stderr := runCLI(t, "diff", "--against", "git:HEAD", "../errgen.registry.yaml")
	if want := `a/errors.yaml:10:115: field type "b.BError": no go.mod in b or above it gives the import path of package b` + "\n"; code != 1 || stderr != want {
		t.Errorf("diff exited %d:\n%s%s\nwant:\n%s", code, stdout, stderr, want)
	}
}

// TestDiffRegistryNamesUnreadableCataloguesFromTheRepositoryRoot: run in a
// subfolder, diff over a registry whose listed catalogue is a folder says
// so naming it from the repository's root, as its position is named.
func TestDiffRegistryNamesUnreadableCataloguesFromTheRepositoryRoot(t *testing.T) {
	repo, _ := registryRepo(t)
	if err := os.Remove(filepath.Join(repo, "b", "errors.yaml")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(repo, "b", "errors.yaml"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Join(repo, "a"))
	code, stdout, stderr := runCLI(t, "diff", "--against", "git:HEAD", "../errgen.registry.yaml")
	if want := `errgen.registry.yaml:4:12: catalogue "b/errors.yaml" cannot be read: b/errors.yaml is a folder, not a regular file; `; code != 1 || !strings.HasPrefix(stderr, want) || strings.Contains(stderr, "../") {
		t.Errorf("diff exited %d:\n%s%s\nwant a line starting:\n%s", code, stdout, stderr, want)
	}
}

// servicesRepo makes a git repository whose registry, testdata/registry's,
// is below its root, in services, with go.mod at the root, committed as
// its one revision; it returns the repository's folder and a git runner.
func servicesRepo(t *testing.T) (string, func(args ...string)) {
	t.Helper()
	repo, _ := registryRepo(t)
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	git("rm", "-q", "-r", ".")
	if err := os.CopyFS(filepath.Join(repo, "services"), os.DirFS("../../testdata/registry")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "go.mod"), []byte("module example.com/agents\n\ngo 1.24\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	commitAll(t, repo, "services")
	return repo, git
}

// TestDiffNamesImportsFromRoot: diff names every file of a registry
// below the repository's root from the root, whatever folder it runs in:
// the registry and the listed catalogue that cannot be read, a go.mod that
// cannot be read, and the registry of a base's imports.
func TestDiffNamesImportsFromRoot(t *testing.T) {
	repo, git := servicesRepo(t)
	t.Chdir(filepath.Join(repo, "services", "orchestrator"))
	diff := func() string {
		t.Helper()
		_, stdout, stderr := runCLI(t, "diff", "--against", "git:HEAD", "errors.yaml")
		return stdout + stderr
	}

	gw := filepath.Join(repo, "services", "gateway", "errors.yaml")
	if err := os.Rename(gw, gw+".moved"); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(gw, 0o755); err != nil {
		t.Fatal(err)
	}
	want := `no catalogue the registry services/errgen.registry.yaml lists has package gateway (unreadable: "gateway/errors.yaml" cannot be read: services/gateway/errors.yaml is a folder, not a regular file;`
	if got := diff(); !strings.Contains(got, want) {
		t.Errorf("diff with a listed catalogue that is a folder printed:\n%s\nwant:\n%s", got, want)
	}
	if err := os.Remove(gw); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(gw+".moved", gw); err != nil {
		t.Fatal(err)
	}

	gomod := filepath.Join(repo, "go.mod")
	if err := os.Rename(gomod, gomod+".real"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(gomod+".real", gomod); err != nil {
		t.Fatal(err)
	}
	want = `services/orchestrator/errors.yaml:19:33: field type "gateway.ProviderError": go.mod is a symlink, not a regular file;`
	if got := diff(); !strings.Contains(got, want) {
		t.Errorf("diff with go.mod a link printed:\n%s\nwant:\n%s", got, want)
	}
	if err := os.Remove(gomod); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(gomod+".real", gomod); err != nil {
		t.Fatal(err)
	}

	orch := filepath.Join(repo, "services", "orchestrator", "errors.yaml")
	good, err := os.ReadFile(orch)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(orch, bytes.Replace(good, []byte("type: gateway.ProviderError"), []byte("type: zzz.ProviderError"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	commitAll(t, repo, "a base that imports a package no catalogue has")
	git("checkout", "-q", "HEAD~1", "--", "services/orchestrator/errors.yaml")
	want = `git:HEAD:services/orchestrator/errors.yaml:19:33: field type "zzz.ProviderError": no catalogue the registry services/errgen.registry.yaml lists has package zzz`
	if got := diff(); !strings.Contains(got, want) {
		t.Errorf("diff against a base that imports a missing package printed:\n%s\nwant:\n%s", got, want)
	}
}

// TestRegistryFindingsNameCataloguesAsPositions: a registry below the
// repository's root names its catalogues in findings as the positions
// name files: from the root in diff, from the working folder in compat.
func TestRegistryFindingsNameCataloguesAsPositions(t *testing.T) {
	repo, _ := servicesRepo(t)
	regFile := filepath.Join(repo, "services", "errgen.registry.yaml")
	src, err := os.ReadFile(regFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(regFile, bytes.Replace(src, []byte("owner: provider-gateway"), []byte("owner: gateway-team"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(repo)
	_, stdout, stderr := runCLI(t, "diff", "--against", "git:HEAD", "services/errgen.registry.yaml")
	want := `note OWNER_CHANGED: services/errgen.registry.yaml:10:5: "services/gateway/errors.yaml" is now owned by "gateway-team"`
	if !strings.Contains(stdout, want) {
		t.Errorf("diff printed:\n%s%s\nwant:\n%s", stdout, stderr, want)
	}
	_, stdout, stderr = runCLI(t, "compat", "--against", "git:HEAD", "services/errgen.registry.yaml")
	want = `services/errgen.registry.yaml:10:5: note: OWNER_CHANGED: "services/gateway/errors.yaml" is now owned by "gateway-team"`
	if !strings.Contains(stdout, want) {
		t.Errorf("compat printed:\n%s%s\nwant:\n%s", stdout, stderr, want)
	}
}

// TestDiffRegistryEntries: diff over a registry shows each entry listed,
// no longer listed or changed, a range widened included, which breaks
// nothing and so has no finding; a catalogue listed under another path is
// one entry whose path changed. Run in a subfolder, it names catalogues
// from the repository's root, as its sections do.
func TestDiffRegistryEntries(t *testing.T) {
	repo, write := registryRepo(t)
	if err := os.RemoveAll(filepath.Join(repo, "b")); err != nil {
		t.Fatal(err)
	}
	write("c/errors.yaml", catalogueB)
	write("d/errors.yaml", strings.NewReplacer("package: b", "package: d", "BError", "DError", "Down", "Gone", "code: down, num: 100", "code: gone, num: 200").Replace(catalogueB))
	write("errgen.registry.yaml", `version: 1
catalogues:
  - {path: a/errors.yaml, owner: team-a, nums: [[1, 99], [300, 399]]}
  - {path: c/errors.yaml, owner: team-b, nums: [[100, 199]]}
  - {path: d/errors.yaml, owner: team-d, nums: [[200, 299]]}
`)
	t.Chdir(filepath.Join(repo, "a"))
	code, stdout, stderr := runCLI(t, "diff", "--against", "git:HEAD", "../errgen.registry.yaml")
	_, across, _ := strings.Cut(stdout, "Across the registry's catalogues: ")
	want := `3 entries changed, 0 breaking, 1 note
  ~ a/errors.yaml
      nums: "[1, 99]" → "[1, 99], [300, 399]"
  ~ c/errors.yaml
      path: "b/errors.yaml" → "c/errors.yaml"
  + d/errors.yaml
      path: none → "d/errors.yaml"
      owner: none → "team-d"
      nums: none → "[200, 299]"
  note CATALOGUE_MOVED: errgen.registry.yaml:4:6: catalogue "b/errors.yaml" is now listed as "c/errors.yaml"; it is compared with itself at its old path (base git:HEAD:errgen.registry.yaml:4:6)
`
	if code != 0 || across != want {
		t.Errorf("diff exited %d:\n%s%s\nwant after %q:\n%s", code, stdout, stderr, "Across the registry's catalogues: ", want)
	}
	code, stdout, _ = runCLI(t, "diff", "--format", "json", "--against", "git:HEAD", "../errgen.registry.yaml")
	var doc struct {
		Entries []struct {
			Path, Status string
			Changes      []struct{ Attribute, Before, After string }
		}
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil || code != 0 || len(doc.Entries) != 3 ||
		doc.Entries[1].Path != "c/errors.yaml" || doc.Entries[1].Status != "changed" || doc.Entries[2].Status != "added" ||
		doc.Entries[0].Changes[0].After != "[1, 99], [300, 399]" {
		t.Errorf("diff --format json exited %d (%v), entries %+v:\n%s", code, err, doc.Entries, stdout)
	}

	// A catalogue no longer listed, its folder gone.
	commitAll(t, repo, "d listed")
	write("errgen.registry.yaml", `version: 1
catalogues:
  - {path: a/errors.yaml, owner: team-a, nums: [[1, 99], [300, 399]]}
  - {path: c/errors.yaml, owner: team-b, nums: [[100, 199]]}
`)
	if err := os.RemoveAll(filepath.Join(repo, "d")); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = runCLI(t, "diff", "--against", "git:HEAD", "../errgen.registry.yaml")
	if want := `  - d/errors.yaml
      path: "d/errors.yaml" → none
      owner: "team-d" → none
      nums: "[200, 299]" → none
`; code != 0 || !strings.Contains(stdout, want) || !strings.Contains(stdout, `CATALOGUE_REMOVED: errgen.registry.yaml:2:1: catalogue "d/errors.yaml" is no longer in the registry`) {
		t.Errorf("diff exited %d:\n%s%s\nwant:\n%s", code, stdout, stderr, want)
	}
}
