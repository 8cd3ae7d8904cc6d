package cli

import (
	"go/scanner"
	"go/token"
)

// goGenerated reports whether the Go source data carries the generated-file
// line (generatedRE) in a comment before its first token, the package
// clause, which is where go/ast's IsGenerated looks for it. The line counts
// nowhere else: a hand-written file that starts with its package clause and
// quotes the line further down, in a comment or a string, is not generated
// and must not be overwritten.
func goGenerated(data []byte) bool {
	fset := token.NewFileSet()
	var s scanner.Scanner
	s.Init(fset.AddFile("", -1, len(data)), data, nil, scanner.ScanComments)
	for {
		_, tok, lit := s.Scan()
		if tok != token.COMMENT {
			return false
		}
		if generatedRE.MatchString(lit) {
			return true
		}
	}
}
