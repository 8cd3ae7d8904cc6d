package printer

// Internals the external tests check directly.
var (
	FormatDoc = formatDoc
	PlainDoc  = plainDoc
	CleanLine = cleanLine
	Settle    = settle
)
