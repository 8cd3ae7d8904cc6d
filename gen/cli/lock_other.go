//go:build !unix

package cli

// lockFolder does nothing where flock is not available: two errgen
// generate runs into one folder at once may leave a package mixed from
// both there (docs/hardening.md).
func lockFolder(dir string) (func(), error) { return func() {}, nil }
