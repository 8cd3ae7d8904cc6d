//go:build unix

package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/errgen/errgen/gen/synth"
)

// A FIFO committed in place of a generated file, or of the catalogue, would
// make a plain open wait for a writer forever.
func TestFIFOsDoNotBlock(t *testing.T) {
	dir, path := generatedDir(t, synth.Catalogue(2))
	fifo := filepath.Join(dir, "errgen.go")
	os.Remove(fifo)
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	catFIFO := filepath.Join(t.TempDir(), "errors.yaml")
	if err := syscall.Mkfifo(catFIFO, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"generate", "--check", path}, {"generate", path}, {"lint", catFIFO}} {
		done := make(chan string, 1)
		go func() {
			code, stdout, stderr := runCLI(t, args...)
			if code != 1 || !strings.Contains(stderr, "FIFO") {
				done <- "exit " + string(rune('0'+code)) + "\n" + stdout + stderr
				return
			}
			done <- ""
		}()
		select {
		case msg := <-done:
			if msg != "" {
				t.Errorf("errgen %s: %s", strings.Join(args, " "), msg)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("errgen %s blocked on a FIFO", strings.Join(args, " "))
		}
	}
}
