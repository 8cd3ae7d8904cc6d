//go:build unix

package cli_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/errgen/errgen/gen/load"
	"github.com/errgen/errgen/gen/synth"
)

// fsizeEnv, in the helper process, caps the size of any file it writes
// (RLIMIT_FSIZE): a write past the cap fails with EFBIG, as a full disk
// fails with ENOSPC, and unlike permission bits the cap binds root too.
const fsizeEnv = "ERRGEN_SAFETY_HELPER_FSIZE"

func limitFileSize() {
	v := os.Getenv(fsizeEnv)
	if v == "" {
		return
	}
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		os.Exit(98)
	}
	// Go ignores SIGXFSZ unless asked for it, so the write returns EFBIG.
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: n, Max: n}); err != nil {
		os.Exit(97)
	}
}

// TestFullDiskKeepsOldFiles runs errgen in a process that cannot write a
// file past 64 KiB, over a package generated from a small catalogue, for a
// catalogue whose errgen.go is megabytes: the write fails part way, errgen
// exits 1, and every old file is as it was, with no temporary file left.
func TestFullDiskKeepsOldFiles(t *testing.T) {
	dir, path := generatedDir(t, synth.Catalogue(5))
	if err := os.WriteFile(path, synth.Catalogue(500), 0o644); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, dir)

	cmd := errgenProcess(t, "generate", path)
	cmd.Env = append(cmd.Env, fsizeEnv+"=65536")
	out, err := cmd.CombinedOutput()
	if code := exitCode(err); code != 1 {
		t.Fatalf("exit %d (%v), output:\n%s", code, err, out)
	}
	// The message names the file being written, not its temporary file.
	if want := "errgen: cannot write " + filepath.Join(dir, "errgen.go") + ": file too large; nothing was written\n"; string(out) != want {
		t.Errorf("the failed write is not reported as it should be:\n%s\nwant:\n%s", out, want)
	}
	sameTree(t, dir, before)
}

// TestInterruptWritesNothing sends SIGINT (and SIGTERM) to errgen while
// it writes the 5,000 golden files of a large catalogue over a package
// generated from a small one. Every file is written to a temporary file
// before any is renamed into place, so errgen stops with every file as it
// was and no temporary file left.
func TestInterruptWritesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("generates a catalogue of 5,000 variants")
	}
	oldSrc, newSrc := synth.Catalogue(10), synth.Catalogue(5000)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			for attempt := 1; ; attempt++ {
				if interruptOnce(t, sig, oldSrc, newSrc) {
					return
				}
				if attempt == 3 {
					t.Skip("errgen finished every write before the signal arrived, three times")
				}
			}
		})
	}
}

// interruptOnce runs one interrupted generation. It reports false when
// errgen finished before the signal reached it.
func interruptOnce(t *testing.T, sig syscall.Signal, oldSrc, newSrc []byte) bool {
	t.Helper()
	dir, path := generatedDir(t, oldSrc)
	if err := os.WriteFile(path, newSrc, 0o644); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, dir)
	oldGolden := 0
	for name := range before {
		if strings.HasPrefix(name, "testdata/") {
			oldGolden++
		}
	}
	cmd := errgenProcess(t, "generate", path)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()

	// Signal once the new golden files start to appear (as temporary
	// files).
	deadline := time.Now().Add(2 * time.Minute)
	var waitErr error
	exited := false
	for !exited {
		if entries, _ := os.ReadDir(filepath.Join(dir, "testdata")); len(entries) > oldGolden+20 {
			if err := cmd.Process.Signal(sig); err != nil {
				t.Logf("signal: %v", err)
			}
			waitErr, exited = <-done, true
			break
		}
		select {
		case waitErr = <-done:
			exited = true
		case <-time.After(2 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("errgen did not finish in 2 minutes; output:\n%s", out.String())
		}
	}
	code := exitCode(waitErr)
	if code == 0 {
		return false
	}
	if want := "errgen: interrupted; nothing was written\n"; code != 1 || out.String() != want {
		t.Fatalf("exit %d (%v), output:\n%s\nwant:\n%s", code, waitErr, out.String(), want)
	}
	sameTree(t, dir, before)
	return true
}

func exitCode(err error) int {
	if err == nil {
		return 0
	}
	if ee, ok := err.(interface{ ExitCode() int }); ok {
		return ee.ExitCode()
	}
	return -1
}

// TestInterruptStopsALongLint sends SIGINT to errgen while it checks a
// catalogue of 300,000 categories (about a second's work) whose last line
// is broken. errgen stops at
// once, exit 1, saying it was interrupted: the diagnostic of the last
// line, which it prints when it reads to the end, never comes. Reading and
// checking cannot stop half-way, but nothing waits for them.
func TestInterruptStopsALongLint(t *testing.T) {
	if testing.Short() {
		t.Skip("checks a catalogue at errgen's caps")
	}
	path := filepath.Join(t.TempDir(), "errors.yaml")
	var big []byte
	for _, in := range synth.Hostile(load.MaxValues) {
		if in.Name == "categories" {
			big = in.Src
		}
	}
	if err := os.WriteFile(path, append(big, "  - [unclosed\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		// A signal that comes before errgen has started takes the default
		// action; on a loaded machine starting can take longer than the
		// first wait, so each such try waits twice as long.
		for wait := 100 * time.Millisecond; ; wait *= 2 {
			cmd := errgenProcess(t, "lint", path)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(wait) // let it start reading
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			if killedBy(cmd, sig) && wait < 3*time.Second {
				t.Logf("%s came before errgen started; waiting longer than %v", sig, wait)
				continue
			}
			if code := exitCode(err); code != 1 || out.String() != "errgen: interrupted\n" {
				t.Errorf("%s: exit %d, output:\n%s", sig, code, out.String())
			}
			break
		}
	}
}

// killedBy reports whether the process cmd waited for ended by sig's
// default action.
func killedBy(cmd *exec.Cmd, sig syscall.Signal) bool {
	ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == sig
}

// lockedFolder writes a small catalogue into a new folder and takes the
// lock errgen takes on its output folder, as another errgen run would; it
// returns the folder, the catalogue's path and the locked folder, closed
// (and so unlocked) when the test ends.
func lockedFolder(t *testing.T) (dir, path string, lock *os.File) {
	t.Helper()
	dir = t.TempDir()
	path = filepath.Join(dir, "errors.yaml")
	if err := os.WriteFile(path, synth.Catalogue(3), 0o644); err != nil {
		t.Fatal(err)
	}
	lock, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lock.Close() })
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	return dir, path, lock
}

// startWaiting starts errgen generate on the catalogue at path, whose
// folder another run holds (lockedFolder), and checks that it is still
// waiting half a second later; done receives its end, out its output.
func startWaiting(t *testing.T, path string) (cmd *exec.Cmd, out *bytes.Buffer, done chan error) {
	t.Helper()
	cmd = errgenProcess(t, "generate", path)
	out = &bytes.Buffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done = make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		t.Fatalf("errgen finished while another run held the folder: %v\n%s", err, out.String())
	case <-time.After(500 * time.Millisecond):
	}
	return cmd, out, done
}

// TestConcurrentRunsTakeTurns holds the lock errgen takes on its output
// folder, as a second errgen run would, and starts a generation into it:
// the generation writes nothing while the lock is held, and everything once
// it is released. Two runs into one folder thus never mix their files.
func TestConcurrentRunsTakeTurns(t *testing.T) {
	dir, path, lock := lockedFolder(t)
	_, out, done := startWaiting(t, path)
	if _, err := os.Stat(filepath.Join(dir, "errgen.go")); err == nil {
		t.Fatal("errgen wrote errgen.go while another run held the folder")
	}
	syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	if err := <-done; err != nil {
		t.Fatalf("errgen after the lock was released: %v\n%s", err, out.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "errgen.go")); err != nil {
		t.Errorf("errgen.go not written once the lock was released: %v", err)
	}
}

// TestInterruptWhileWaitingForTheLock: a run waiting for another run's
// lock on its output folder stops at an interrupt, promptly and having
// written nothing, instead of waiting on until a second one kills it.
func TestInterruptWhileWaitingForTheLock(t *testing.T) {
	dir, path, _ := lockedFolder(t)
	before := snapshot(t, dir)
	cmd, out, done := startWaiting(t, path)
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if code := exitCode(err); code != 1 || out.String() != "errgen: interrupted; nothing was written\n" {
			t.Errorf("exit %d, output:\n%s", code, out.String())
		}
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatal("errgen went on waiting for the lock after an interrupt")
	}
	sameTree(t, dir, before)
}
