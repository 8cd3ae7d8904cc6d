//go:build !unix

package cli_test

// limitFileSize caps file sizes only on Unix, where the full-disk and
// interrupt tests run.
func limitFileSize() {}
