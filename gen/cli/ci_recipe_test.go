package cli_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// workflowStep is a step of the repository's CI recipe.
type workflowStep struct {
	Name string            `yaml:"name"`
	Run  string            `yaml:"run"`
	Env  map[string]string `yaml:"env"`
}

// recipe reads .github/workflows/errors.yml, the CI recipe the README shows.
func recipe(t *testing.T) (jobEnv map[string]string, steps []workflowStep) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", ".github", "workflows", "errors.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var wf struct {
		Jobs map[string]struct {
			Env   map[string]string `yaml:"env"`
			Steps []workflowStep    `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal(data, &wf); err != nil {
		t.Fatal(err)
	}
	job, ok := wf.Jobs["errgen"]
	if !ok {
		t.Fatal("no errgen job in the workflow")
	}
	return job.Env, job.Steps
}

func stepNamed(t *testing.T, steps []workflowStep, prefix string) workflowStep {
	t.Helper()
	i := slices.IndexFunc(steps, func(s workflowStep) bool { return strings.HasPrefix(s.Name, prefix) })
	if i < 0 {
		t.Fatalf("no step %q in the workflow", prefix)
	}
	return steps[i]
}

// fakeTool writes an executable shell script called name into dir.
func fakeTool(t *testing.T, dir, name, script string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+script), 0o755); err != nil {
		t.Fatal(err)
	}
}

// TestCIRecipePostsOneCommentPerCatalogue runs the shell of the recipe's
// two review steps with make and gh replaced by fakes: every catalogue gets
// a summary that starts with its marker; the comment posted for a
// catalogue before is edited, a catalogue without one gets a new one, and
// a comment of someone else's that starts with the same marker is left
// alone (the fake answers as gh's --jq filter would, with the bot's
// comments only).
func TestCIRecipePostsOneCommentPerCatalogue(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	jobEnv, steps := recipe(t)
	if jobEnv["CATALOGUES"] == "" {
		t.Fatal("the job does not list its catalogues in CATALOGUES")
	}
	work, bin := t.TempDir(), t.TempDir()
	calls := filepath.Join(work, "calls.log")
	fakeTool(t, bin, "make", `printf '## errgen diff: %s\n' "$(printf '%s\n' "$@" | sed -n 's/^CATALOGUE=//p')"`+"\n")
	fakeTool(t, bin, "gh", `printf "%s\n" "gh $*" >> "$CALLS"
case "$*" in
*--paginate*) printf '42\t<!-- errgen diff: errors.yaml -->\n' ;;
esac
`)
	run := func(step workflowStep, env ...string) {
		t.Helper()
		cmd := exec.Command(bash, "-e", "-o", "pipefail", "-c", step.Run)
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "CALLS="+calls,
			"GITHUB_STEP_SUMMARY="+filepath.Join(work, "summary.md"), "BASE_REF=main",
			"CATALOGUES=errors.yaml api/v1/errors.yaml", "PR=7", "REPO=owner/repo")
		cmd.Env = append(cmd.Env, env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("step %q: %v\n%s", step.Name, err, out)
		}
	}

	run(stepNamed(t, steps, "Summarise"))
	for file, want := range map[string]string{
		"errgen-diff/errors.yaml.md":        "<!-- errgen diff: errors.yaml -->\n## errgen diff: errors.yaml\n",
		"errgen-diff/api_v1_errors.yaml.md": "<!-- errgen diff: api/v1/errors.yaml -->\n## errgen diff: api/v1/errors.yaml\n",
	} {
		got, err := os.ReadFile(filepath.Join(work, file))
		if err != nil || string(got) != want {
			t.Errorf("%s = %q (%v), want %q", file, got, err, want)
		}
	}
	summary, _ := os.ReadFile(filepath.Join(work, "summary.md"))
	if strings.Count(string(summary), "## errgen diff: ") != 2 {
		t.Errorf("the job summary holds:\n%s", summary)
	}

	run(stepNamed(t, steps, "One comment per catalogue"))
	log, err := os.ReadFile(calls)
	if err != nil {
		t.Fatal(err)
	}
	var writes []string
	for _, line := range strings.Split(strings.TrimSpace(string(log)), "\n") {
		if !strings.Contains(line, "--paginate") {
			writes = append(writes, line)
		}
	}
	want := []string{
		"gh api --method POST repos/owner/repo/issues/7/comments -F body=@errgen-diff/api_v1_errors.yaml.md",
		"gh api --method PATCH repos/owner/repo/issues/comments/42 -F body=@errgen-diff/errors.yaml.md",
	}
	if !slices.Equal(writes, want) {
		t.Errorf("gh wrote:\n%s\nwant:\n%s", strings.Join(writes, "\n"), strings.Join(want, "\n"))
	}
}

// TestREADMEShowsTheCIRecipe: the job the README shows is the workflow
// this repository runs, so the test above tests what users copy.
func TestREADMEShowsTheCIRecipe(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	wf, err := os.ReadFile(filepath.Join("..", "..", ".github", "workflows", "errors.yml"))
	if err != nil {
		t.Fatal(err)
	}
	// The workflow less its first line, a comment that says where it is.
	_, body, _ := strings.Cut(string(wf), "\n")
	if !strings.Contains(string(readme), "```yaml\n"+body+"```") {
		t.Error("README.md does not show .github/workflows/errors.yml (less its first line) as a yaml block; copy it over")
	}
}

// TestREADMEMakeRecipeAnnotatesInActions: the README's make recipe runs
// compat with GitHub annotations under GitHub Actions (which sets
// GITHUB_ACTIONS) and as text elsewhere.
func TestREADMEMakeRecipeAnnotatesInActions(t *testing.T) {
	makeBin, err := exec.LookPath("make")
	if err != nil {
		t.Fatalf("make is needed: %v", err)
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(readme), "\n```make\n")
	if block, _, ok = strings.Cut(block, "\n```\n"); !ok {
		t.Fatal("no make block in the README")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "Makefile"), []byte(block+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for actions, want := range map[string]string{"true": "errgen compat --format github --against git:main svc/errors.yaml", "": "errgen compat --format text --against git:main svc/errors.yaml"} {
		cmd := exec.Command(makeBin, "-n", "errors-check", "ERRGEN=errgen", "BASE=main", "CATALOGUE=svc/errors.yaml")
		cmd.Dir = dir
		cmd.Env = slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "GITHUB_ACTIONS=") })
		if actions != "" {
			cmd.Env = append(cmd.Env, "GITHUB_ACTIONS="+actions)
		}
		out, err := cmd.CombinedOutput()
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if err != nil || !slices.Contains(lines, want) || !slices.Contains(lines, "errgen generate --check --docs ERRORS.md svc/errors.yaml") {
			t.Errorf("make -n errors-check with GITHUB_ACTIONS=%q (%v):\n%s\nwant the line %q", actions, err, out, want)
		}
	}
}
