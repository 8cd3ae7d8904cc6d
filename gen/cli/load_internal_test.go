package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitCapped keeps at most max bytes of what git prints: past that it
// refuses the output and closes git's pipe, however much git has to say.
func TestGitOutputIsCapped(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	repo := t.TempDir()
	if _, err := gitCapped(repo, 1<<20, "init", "-q"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "big"), make([]byte, 4<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	hash, err := gitCapped(repo, 1<<10, "hash-object", "-w", "big")
	if err != nil {
		t.Fatal(err)
	}
	obj := strings.TrimSpace(string(hash))
	if _, err := gitCapped(repo, 1<<20, "cat-file", "blob", obj); err == nil || !strings.Contains(err.Error(), "printed more than 1048576 bytes") {
		t.Errorf("4 MiB through a 1 MiB cap: %v", err)
	}
	if data, err := gitCapped(repo, 4<<20, "cat-file", "blob", obj); err != nil || len(data) != 4<<20 {
		t.Errorf("4 MiB through a 4 MiB cap: %d bytes, %v", len(data), err)
	}
}
