package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	pathpkg "path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/errgen/errgen/gen"
	"github.com/errgen/errgen/gen/diag"
	"github.com/errgen/errgen/gen/fsafe"
	"github.com/errgen/errgen/gen/load"
	"github.com/errgen/errgen/gen/model"
	"github.com/errgen/errgen/gen/registry"
)

// interruptible runs fn and returns its result, or errInterrupted as soon
// as ctx is cancelled: loading and resolving a large catalogue cannot stop
// half-way, but errgen need not wait for it, since nothing is written
// before they end.
func interruptible[T any](ctx context.Context, fn func() (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := fn()
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		return r.v, r.err
	case <-ctx.Done():
		var zero T
		return zero, errInterrupted
	}
}

// loadCatalogue reads and resolves a catalogue. Its warnings are printed;
// its errors come back as a *diagError.
func loadCatalogue(ctx context.Context, e *env, path string) (*model.Catalogue, error) {
	return loadCatalogueAs(ctx, e, path, displayPath)
}

// loadCatalogueAs is loadCatalogue with nameOf naming the files that
// diagnostics and positions name, the catalogue and its registry.
func loadCatalogueAs(ctx context.Context, e *env, path string, nameOf func(string) string) (*model.Catalogue, error) {
	src, err := readCatalogue(path)
	if err != nil {
		return nil, err
	}
	name := nameOf(path)
	imp := newImporter(path)
	imp.nameOf = nameOf
	return parse(ctx, e, name, src, true, imp, func(m *model.Catalogue) diag.List { return imp.outOfRange(path, m) })
}

// parse resolves src, printing its warnings when warn is set; imp gives it
// the families of the other catalogues of its registry, and more, when
// set, checks the resolved catalogue further (its registry's ranges).
func parse(ctx context.Context, e *env, name string, src []byte, warn bool, imp model.Importer, more func(*model.Catalogue) diag.List) (*model.Catalogue, error) {
	type parsed struct {
		m     *model.Catalogue
		diags diag.List
	}
	p, err := interruptible(ctx, func() (parsed, error) {
		m, diags := gen.ParseWith(name, src, imp)
		return parsed{m, diags}, nil
	})
	if err != nil {
		return nil, err
	}
	if p.m != nil && more != nil {
		if extra := more(p.m); len(extra) > 0 {
			p.diags = append(p.diags, extra...).Sort()
			if extra.HasErrors() {
				p.m = nil
			}
		}
	}
	if p.m == nil {
		return nil, &diagError{p.diags}
	}
	if warn {
		e.warn(p.diags)
	}
	return p.m, nil
}

// readCatalogue reads a catalogue file as errgen reads every file a pull
// request can change (fsafe): never through a symlink, never a FIFO or a
// device, never more than the loader's cap.
func readCatalogue(path string) ([]byte, error) {
	data, err := fsafe.ReadFile(path, load.MaxSize)
	var tooLarge *fsafe.TooLargeError
	switch {
	case errors.As(err, &tooLarge):
		return nil, fmt.Errorf("%s is %d bytes; a catalogue may be at most %d (16 MiB)", diag.Path(path), tooLarge.Size, load.MaxSize)
	case errors.Is(err, fs.ErrNotExist) && path == DefaultCatalogue:
		// Run in the wrong folder: say where the catalogues are.
		return nil, &noCatalogueError{found: cataloguesNear()}
	case err != nil:
		// A folder given for its catalogue.
		if st, serr := os.Lstat(filepath.Join(path, DefaultCatalogue)); serr == nil && st.Mode().IsRegular() {
			return nil, fmt.Errorf("%w; did you mean %s?", err, diag.Quote(filepath.Join(path, DefaultCatalogue)))
		}
	}
	return data, err
}

// noCatalogueError is the error of a command run without a catalogue in a
// folder that has no errors.yaml. It names the catalogues found near the
// folder, and, once the command that ran is known (execute sets line), the
// command line that reads the first of them.
type noCatalogueError struct {
	// found are the catalogues below the folder, or else below the root
	// of its module, as paths from the folder.
	found []string
	// line returns the command line that was run with the catalogue path
	// given; nil outside a command.
	line func(path string) string
}

func (e *noCatalogueError) Error() string {
	if len(e.found) == 0 {
		return fmt.Sprintf("no %s in this folder; give the catalogue's path, or create one (errgen schema prints its format)", DefaultCatalogue)
	}
	if len(e.found) == 1 && e.line != nil {
		return fmt.Sprintf("no %s in this folder; give the catalogue's path: %s", DefaultCatalogue, e.line(e.found[0]))
	}
	quoted := make([]string, 0, 3)
	for _, p := range e.found[:min(3, len(e.found))] {
		quoted = append(quoted, diag.Quote(p))
	}
	more := ""
	if len(e.found) > 3 {
		more = fmt.Sprintf(" and %d more", len(e.found)-3)
	}
	msg := fmt.Sprintf("no %s in this folder; give the catalogue's path: %s%s", DefaultCatalogue, strings.Join(quoted, ", "), more)
	if e.line != nil {
		msg += fmt.Sprintf(" (for the first: %s)", e.line(e.found[0]))
	}
	return msg
}

// cataloguesNear lists the catalogues below the working folder; when there
// are none, those below the root of the Go module it is in (the nearest
// folder above with a go.mod), where go generate runs errgen from a
// package's folder, as paths from the working folder.
func cataloguesNear() []string {
	if below := cataloguesBelow("."); len(below) > 0 {
		return below
	}
	wd, err := os.Getwd()
	if err != nil {
		return nil
	}
	for dir := wd; ; {
		if st, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil && st.Mode().IsRegular() {
			if dir == wd {
				// The folder is its module's root: searched already.
				return nil
			}
			rel, err := filepath.Rel(wd, dir)
			if err != nil {
				return nil
			}
			return cataloguesBelow(rel)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return nil
		}
		dir = parent
	}
}

// cataloguesBelow lists the files named errors.yaml in the folders below
// root, at most three levels down, as lint's registry check finds them
// (hidden folders, testdata, vendor and node_modules left out), sorted;
// a folder that cannot be read is skipped, and the walk stops after 10 000
// folders, so that a hint costs little even run at a disk's root.
func cataloguesBelow(root string) []string {
	var out []string
	folders := 0
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil && d != nil && d.IsDir():
			return filepath.SkipDir
		case err != nil:
			return nil
		case d.IsDir():
			if folders++; folders > 10000 {
				return filepath.SkipAll
			}
			rel, _ := filepath.Rel(root, p)
			if p != root && (strings.HasPrefix(d.Name(), ".") || registry.Skipped(d.Name()) || strings.Count(filepath.ToSlash(rel), "/") >= 3) {
				return filepath.SkipDir
			}
		case d.Name() == DefaultCatalogue && d.Type().IsRegular():
			out = append(out, filepath.ToSlash(p))
		}
		return nil
	})
	slices.Sort(out)
	return out
}

// loadBase reads and resolves the catalogue to compare with: a file, or
// git:REV[:PATH]. Its warnings are not printed: they are not the change's;
// its errors come back as a *diagError after a line that says they are the
// base's.
func loadBase(ctx context.Context, e *env, against, catalogue string) (*model.Catalogue, error) {
	return loadBaseAs(ctx, e, against, catalogue, displayPath, true)
}

// loadBaseAs is loadBase with nameOf naming a base that is a file. given
// says against is the user's, for this catalogue: then a catalogue that
// git finds renamed since git:REV is read at its old path there, and the
// PATH of git:REV:PATH must exist at REV or in the working tree
// (checkGivenPath). A registry's catalogues, not given, are followed by
// the registry.
func loadBaseAs(ctx context.Context, e *env, against, catalogue string, nameOf func(string) string, given bool) (*model.Catalogue, error) {
	var name string
	var src []byte
	if spec, ok := strings.CutPrefix(against, "git:"); ok {
		var err error
		name, src, err = gitShow(spec, catalogue)
		if errors.Is(err, errNotInRevision) && given && strings.Contains(spec, ":") {
			if err := checkGivenPath(spec, catalogue); err != nil {
				return nil, fmt.Errorf("base %s: %w", diag.Quote(against), err)
			}
		}
		if errors.Is(err, errNotInRevision) && given && !strings.Contains(spec, ":") {
			// A catalogue moved since REV is compared with itself at its
			// old path, not taken for a new one: moving the file must not
			// let every break through.
			if old, ok := renamedFrom(spec, catalogue); ok {
				e.note(fmt.Sprintf("%s does not exist; git finds %s renamed to %s since %s, and compares with it", diag.Path(name), diag.Path(old), diag.Path(nameOf(catalogue)), diag.Quote(spec)))
				name, src, err = gitShow(spec+":"+old, catalogue)
			}
		}
		if errors.Is(err, errNotInRevision) {
			// The pull request adds the catalogue: everything in it is
			// new, which breaks nobody.
			e.note(fmt.Sprintf("%s does not exist; every entry of %s is new", diag.Path(name), diag.Path(nameOf(catalogue))))
			return &model.Catalogue{File: name}, nil
		}
		if err != nil {
			return nil, fmt.Errorf("base %s: %w", diag.Quote(against), err)
		}
	} else {
		name = nameOf(against)
		var err error
		if src, err = readCatalogue(against); err != nil {
			if errors.As(err, new(*noCatalogueError)) {
				// Where the catalogues are is the catalogue's hint, not
				// the base's.
				err = fmt.Errorf("open %s: %w", against, fs.ErrNotExist)
			}
			if errors.Is(err, fs.ErrNotExist) && isRevision(filepath.Dir(catalogue), against) {
				// git:origin/main written without its prefix.
				return nil, fmt.Errorf("base: %w; to compare with the revision %s, write --against %s", err, diag.Quote(against), diag.Quote("git:"+against))
			}
			return nil, fmt.Errorf("base: %w", err)
		}
	}
	// A base's imported families are read from the catalogues at the
	// same revision (for a base file, as they are now).
	imp := newRevImporter(catalogue, against)
	imp.nameOf = nameOf
	m, err := parse(ctx, e, name, src, false, imp, nil)
	var d *diagError
	if errors.As(err, &d) {
		var errs diag.List
		for _, x := range d.list {
			if x.Severity == diag.Error {
				errs = append(errs, x)
			}
		}
		printDiags(e.stderr, errs)
		return nil, &baseError{errs, fmt.Errorf("the base catalogue %s has errors; compare with a base that errgen accepts", diag.Path(name))}
	}
	return m, err
}

// isRevision reports whether git, run in dir, resolves rev to a commit:
// whether a base file that does not exist was meant as git:REV.
func isRevision(dir, rev string) bool {
	if rev == "" || strings.HasPrefix(rev, "-") {
		return false
	}
	_, err := git(dir, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	return err == nil
}

// renamedFrom returns the path from the repository root that git finds
// the catalogue renamed from since the revision rev (its changes since
// rev, committed or not, with git's rename detection): the path to read
// the catalogue at in rev.
func renamedFrom(rev, catalogue string) (string, bool) {
	dir := filepath.Dir(catalogue)
	prefix, err := git(dir, "rev-parse", "--show-prefix")
	if err != nil {
		return "", false
	}
	path := strings.TrimSpace(string(prefix)) + filepath.Base(catalogue)
	// diff.relative (set by the user) would print paths from dir, and
	// only those under it; the paths below must be from the root.
	// -B breaks a file rewritten in place into a removal and an
	// addition, so that a catalogue moved away from a path a new file now
	// holds is found too: git lists it as a copy of the old path (C).
	// Without -C, git finds no other copies.
	var env []string
	diff := []string{"-c", "diff.relative=false", "diff", "--no-ext-diff", "--no-textconv", "-z", "--name-status", "-B", "-M", "--diff-filter=RC", rev}
	if _, err := git(dir, "ls-files", "--error-unmatch", "--", filepath.Base(catalogue)); err != nil {
		// git diff sees only the files it tracks: a catalogue moved with
		// a plain mv, not yet added, is shown to it through a copy of the
		// index that holds the new path as intent-to-add (git add -N), so
		// that the user's index is left as it was.
		index, cleanup, err := indexWithIntent(dir, filepath.Base(catalogue))
		if err != nil {
			return "", false
		}
		defer cleanup()
		env = []string{"GIT_INDEX_FILE=" + index}
	}
	out, err := gitCappedEnv(dir, 1<<20, env, diff...)
	if err != nil {
		return "", false
	}
	// Each rename is R<score> (C<score>), the old path and the new one,
	// paths from the root.
	f := strings.Split(string(out), "\x00")
	for i := 0; i+2 < len(f); i += 3 {
		if (strings.HasPrefix(f[i], "R") || strings.HasPrefix(f[i], "C")) && f[i+2] == path {
			return f[i+1], true
		}
	}
	return "", false
}

// indexWithIntent writes a temporary copy of the repository's index with
// file (in dir) added as intent-to-add, and returns its path and the
// function that removes it.
func indexWithIntent(dir, file string) (string, func(), error) {
	out, err := git(dir, "rev-parse", "--git-path", "index")
	if err != nil {
		return "", nil, err
	}
	index := strings.TrimSpace(string(out))
	if !filepath.IsAbs(index) {
		index = filepath.Join(dir, index)
	}
	tmp, err := os.CreateTemp("", "errgen-index-*")
	if err != nil {
		return "", nil, err
	}
	cleanup := func() { os.Remove(tmp.Name()) }
	src, err := os.Open(index)
	if err == nil {
		_, err = io.Copy(tmp, src)
		src.Close()
	} else if errors.Is(err, fs.ErrNotExist) {
		err = nil // a repository with nothing added yet
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		_, err = gitCappedEnv(dir, 1<<20, []string{"GIT_INDEX_FILE=" + tmp.Name()}, "add", "--intent-to-add", "--force", "--", file)
	}
	if err != nil {
		cleanup()
		return "", nil, err
	}
	return tmp.Name(), cleanup, nil
}

// checkAgainst refuses, as a usage error found before any file is read,
// an --against BASE that is missing or a malformed git:REV[:PATH].
func checkAgainst(against string) error {
	if against == "" {
		return usagef("--against BASE is required")
	}
	spec, ok := strings.CutPrefix(against, "git:")
	if !ok {
		return nil
	}
	if err := checkRevSpec(spec); err != nil {
		return usagef("--against %s: %v", diag.Quote(against), err)
	}
	return nil
}

// checkRevSpec checks the form of REV[:PATH].
func checkRevSpec(spec string) error {
	rev, path, hasPath := strings.Cut(spec, ":")
	switch {
	case rev == "":
		return errors.New("give a revision: git:REV or git:REV:PATH, such as git:origin/main")
	case strings.HasPrefix(rev, "-"):
		return fmt.Errorf("revision %s must not start with -", diag.Quote(rev))
	case hasPath && path == "":
		return errors.New("empty path after the revision; write git:REV or git:REV:PATH")
	}
	return nil
}

// errNotInRevision is gitShow's answer for a revision that has no file at
// the path.
var errNotInRevision = errors.New("no such file in the revision")

// gitShow reads a catalogue at a git revision: spec is REV[:PATH]. PATH
// is relative to the repository root, or, when it starts with ./ or ../,
// to the working directory, as git show reads it; without it, the catalogue's own
// path is used, found with git rev-parse --show-prefix. Git runs in the
// catalogue's folder. It returns the name diagnostics give the base,
// git:REV:PATH.
func gitShow(spec, catalogue string) (string, []byte, error) {
	rev, path, err := revPath(spec, catalogue)
	if err != nil {
		return "", nil, err
	}
	dir := filepath.Dir(catalogue)
	name := "git:" + rev + ":" + path
	if _, err := git(dir, "rev-parse", "--verify", "--quiet", rev+"^{commit}"); err != nil {
		hint := ""
		if shallow, _ := git(dir, "rev-parse", "--is-shallow-repository"); strings.TrimSpace(string(shallow)) == "true" {
			hint = " (the clone is shallow: fetch the history first, as actions/checkout does with fetch-depth: 0)"
		} else if strings.Contains(rev, "/") {
			hint = " (in CI, fetch the history first: actions/checkout with fetch-depth: 0)"
		}
		return "", nil, fmt.Errorf("unknown revision %s%s", diag.Quote(rev), hint)
	}
	// A revision without the file is the base of a pull request that adds
	// it. ls-tree answers the question without parsing git's messages.
	listed, err := git(dir, "ls-tree", "--full-tree", "--name-only", rev, "--", path)
	if err != nil {
		return "", nil, err
	}
	if len(bytes.TrimSpace(listed)) == 0 {
		return name, nil, errNotInRevision
	}
	// The base is a blob a pull request may have made as large as it
	// liked: ask its type and size before reading it, and read no more than
	// the loader's cap even then.
	obj := rev + ":" + path
	kind, err := git(dir, "cat-file", "-t", obj)
	if err != nil {
		return "", nil, err
	}
	if k := strings.TrimSpace(string(kind)); k != "blob" {
		return "", nil, fmt.Errorf("%s is a %s in git, not a file", diag.Quote(obj), k)
	}
	sizeText, err := git(dir, "cat-file", "-s", obj)
	if err != nil {
		return "", nil, err
	}
	size, err := strconv.ParseInt(strings.TrimSpace(string(sizeText)), 10, 64)
	if err != nil {
		return "", nil, fmt.Errorf("git cat-file -s %s: %v", diag.Quote(obj), err)
	}
	if size > load.MaxSize {
		return "", nil, fmt.Errorf("%s is %d bytes; a catalogue may be at most %d (16 MiB)", diag.Quote(obj), size, load.MaxSize)
	}
	src, err := gitCapped(dir, load.MaxSize, "cat-file", "blob", obj)
	if err != nil {
		return "", nil, err
	}
	return name, src, nil
}

// revPath splits spec, REV[:PATH], into the revision and the path from
// the repository root that gitShow reads: PATH as gitShow resolves it, or
// the catalogue's own path.
func revPath(spec, catalogue string) (rev, path string, err error) {
	if err := checkRevSpec(spec); err != nil {
		return "", "", err
	}
	rev, path, hasPath := strings.Cut(spec, ":")
	dir := filepath.Dir(catalogue)
	path = filepath.ToSlash(path)
	switch {
	case !hasPath:
		prefix, err := git(dir, "rev-parse", "--show-prefix")
		if err != nil {
			return "", "", err
		}
		path = strings.TrimSpace(string(prefix)) + filepath.Base(catalogue)
	case path == "." || path == ".." || strings.HasPrefix(path, "./") || strings.HasPrefix(path, "../"):
		// As in git show REV:./PATH, a path that starts with ./ or ../
		// is relative to the folder errgen runs in. Git runs in the
		// catalogue's folder, where REV:./PATH would name another file
		// than ls-tree's PATH from the root; make it a path from the root
		// for both.
		prefix, err := git(".", "rev-parse", "--show-prefix")
		if err != nil {
			return "", "", err
		}
		path = pathpkg.Clean(strings.TrimSpace(string(prefix)) + path)
		if path == ".." || strings.HasPrefix(path, "../") {
			return "", "", fmt.Errorf("path %s is outside the repository", diag.Quote(spec))
		}
	}
	return rev, strings.TrimPrefix(path, "/"), nil
}

// checkGivenPath refuses the PATH of git:REV:PATH, which REV does not
// have, when the working tree does not have it either: that is a typo, not
// the base of a pull request that adds the catalogue, and passing it would
// turn the gate off. PATH is resolved as gitShow reads it, and the error
// suggests the files REV has with the same name or a path close to it.
func checkGivenPath(spec, catalogue string) error {
	rev, path, err := revPath(spec, catalogue)
	if err != nil {
		return err
	}
	dir := filepath.Dir(catalogue)
	root, err := git(dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return err
	}
	if _, err := os.Lstat(filepath.Join(strings.TrimSpace(string(root)), filepath.FromSlash(path))); err == nil {
		return nil
	}
	msg := fmt.Sprintf("%s exists neither at %s nor in the working tree", diag.Path(path), diag.Quote(rev))
	// Every file of REV, once; a tree too large to list gets no hint.
	listed, err := gitCapped(dir, 16<<20, "ls-tree", "-r", "-z", "--full-tree", "--name-only", rev)
	if err != nil {
		return errors.New(msg)
	}
	var hints []string
	for _, p := range nearPaths(path, strings.Split(string(listed), "\x00")) {
		hints = append(hints, diag.Path("git:"+rev+":"+p))
	}
	switch len(hints) {
	case 0:
		return fmt.Errorf("%s; give the catalogue's path at that revision, from the repository root (or from the working directory, starting with ./)", msg)
	case 1:
		return fmt.Errorf("%s; did you mean %s?", msg, hints[0])
	}
	return fmt.Errorf("%s; did you mean %s or %s?", msg, strings.Join(hints[:len(hints)-1], ", "), hints[len(hints)-1])
}

// maxNearPaths is how many paths nearPaths suggests at most.
const maxNearPaths = 3

// nearPaths returns the paths of files, nearest first, that path may
// have meant: those with its file name (first those that end with the
// whole of path, which left out the folders above it), and the YAML files
// a few edits away from it.
func nearPaths(path string, files []string) []string {
	type near struct {
		path string
		dist int
	}
	rank := func(n near) int {
		if strings.HasSuffix(n.path, "/"+path) {
			return 0
		}
		return 1
	}
	maxDist := max(2, len(path)/4)
	var found []near
	for _, f := range files {
		sameName := f != "" && pathpkg.Base(f) == pathpkg.Base(path)
		yaml := strings.HasSuffix(f, ".yaml") || strings.HasSuffix(f, ".yml")
		// The distance is at least the difference in length: skip the
		// files too far to count.
		if !sameName && (!yaml || abs(len(f)-len(path)) > maxDist) {
			continue
		}
		d := diag.Distance(path, f)
		if sameName || d <= maxDist {
			found = append(found, near{f, d})
		}
	}
	slices.SortFunc(found, func(a, b near) int {
		if ra, rb := rank(a), rank(b); ra != rb {
			return ra - rb
		}
		if a.dist != b.dist {
			return a.dist - b.dist
		}
		return strings.Compare(a.path, b.path)
	})
	var out []string
	for _, n := range found[:min(len(found), maxNearPaths)] {
		out = append(out, n.path)
	}
	return out
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// git runs git with args in dir and returns its output, at most 1 MiB of
// it; on failure the error holds the first line git printed.
func git(dir string, args ...string) ([]byte, error) {
	return gitCapped(dir, 1<<20, args...)
}

// gitCapped is git with a bound on the output it keeps: past max bytes the
// output is refused, and git, its pipe closed, stops.
func gitCapped(dir string, max int64, args ...string) ([]byte, error) {
	return gitCappedEnv(dir, max, nil, args...)
}

// gitCappedEnv is gitCapped with env added to git's environment.
func gitCappedEnv(dir string, max int64, env []string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "LC_ALL=C", "GIT_PAGER=cat"), env...)
	stderr := &cappedBuffer{max: 4 << 10}
	stdout := &cappedBuffer{max: max}
	cmd.Stderr, cmd.Stdout = stderr, stdout
	err := cmd.Run()
	if stdout.over {
		return nil, fmt.Errorf("git %s printed more than %d bytes", args[0], max)
	}
	if err == nil {
		return stdout.Bytes(), nil
	}
	if errors.Is(err, exec.ErrNotFound) {
		return nil, errors.New("git is not installed or not in PATH")
	}
	msg, _, _ := strings.Cut(strings.TrimSpace(string(stderr.Bytes())), "\n")
	if msg == "" {
		msg = err.Error()
	}
	return nil, fmt.Errorf("git %s: %s", args[0], strings.Trim(diag.Quote(msg), `"`))
}

// cappedBuffer keeps what is written to it up to max bytes; a write past
// that fails, which closes the pipe of the process writing. The buffer is
// a field, not embedded: an embedded bytes.Buffer's ReadFrom would let
// io.Copy (which exec uses) fill it past the cap without calling Write.
type cappedBuffer struct {
	buf  bytes.Buffer
	max  int64
	over bool
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	if int64(b.buf.Len()+len(p)) > b.max {
		b.over = true
		return 0, errors.New("output too large")
	}
	return b.buf.Write(p)
}

func (b *cappedBuffer) Bytes() []byte { return b.buf.Bytes() }
