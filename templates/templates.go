// Package templates holds the text/template files errgen renders: the
// Markdown reference and the diff's Markdown summary. They live
// here, beside a tiny Go file, because //go:embed cannot reach a parent
// folder; they are parsed once, with missingkey=error so a misspelt field
// fails loudly instead of rendering "<no value>".
package templates

import (
	"embed"
	"sync"
	"text/template"
)

//go:embed *.tmpl
var files embed.FS

var (
	once   sync.Once
	parsed *template.Template
	err    error
)

// Get returns the parsed templates, each named by its file name.
func Get() (*template.Template, error) {
	once.Do(func() {
		parsed, err = template.New("errgen").Option("missingkey=error").ParseFS(files, "*.tmpl")
	})
	return parsed, err
}
