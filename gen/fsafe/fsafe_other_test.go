//go:build !unix

package fsafe

import "os"

func umask() os.FileMode { return 0 }
