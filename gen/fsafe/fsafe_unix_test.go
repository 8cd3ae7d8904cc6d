//go:build unix

package fsafe

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func umask() os.FileMode {
	m := syscall.Umask(0)
	syscall.Umask(m)
	return os.FileMode(m)
}

// A FIFO committed where a file should be must be refused at once: opening
// it for reading would otherwise wait for a writer forever.
func TestReadFileDoesNotBlockOnFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "errors.yaml")
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := ReadFile(path, 1<<20)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "FIFO") {
			t.Errorf("ReadFile(FIFO) = %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ReadFile blocked on a FIFO")
	}
}

// A link to /dev/zero would be read until memory ran out.
func TestReadFileRefusesLinkToDevice(t *testing.T) {
	link := filepath.Join(t.TempDir(), "errgen_test.go")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(link, 1<<30); !errors.Is(err, ErrNotRegular) {
		t.Fatalf("ReadFile(link to /dev/zero) = %v", err)
	}
	if _, err := ReadFile("/dev/zero", 1<<30); !errors.Is(err, ErrNotRegular) {
		t.Fatalf("ReadFile(/dev/zero) = %v", err)
	}
}
