package cli

import (
	"context"
	"path/filepath"

	"github.com/spf13/pflag"

	"github.com/errgen/errgen/gen/export"
)

var exportCmd = &command{
	name:    "export",
	args:    "[--format json] [CATALOGUE... | errgen.registry.yaml]",
	short:   "print the resolved catalogues as JSON for other languages and tools",
	maxArgs: -1,
	long: `Export checks the catalogues as lint does (the registry's, with no argument
in a folder that holds errgen.registry.yaml; else the ones given, default
errors.yaml) and prints them resolved, as one JSON document: every code,
num, category, class, retry rule, field with its type, payload key, HTTP
status and user message, the reserved nums and codes, and each catalogue's
file, package and, when a registry lists it, owner and ranges (a catalogue
given by its path has those the nearest registry above it that lists it
gives it). Catalogues are sorted
by file and errors by num; the output is byte-identical from run to run.
Its JSON Schema is printed by errgen schema --export. Nothing is printed
when a catalogue has an error.`,
	flags: func(fs *pflag.FlagSet) runFunc {
		choiceFlag(fs, "format", "print the catalogues as `FORMAT`", "json")
		return func(ctx context.Context, e *env, args []string) error {
			set, err := catalogues(e, args)
			if err != nil {
				return err
			}
			cats, err := set.check(ctx, e)
			if err != nil {
				return err
			}
			var in []export.Catalogue
			for i, c := range cats {
				ec := export.Catalogue{Model: c.Model}
				if len(cats) == len(set.paths) {
					// As the command line named it, wherever errgen runs.
					ec.File = filepath.ToSlash(filepath.Clean(set.paths[i]))
				}
				en := c.Entry
				if en != nil {
					ec.File = en.Path.Value
				} else if len(cats) == len(set.paths) && i < len(set.listedBy) {
					// Given by its path: the registry above it that lists
					// it gives it its owner and ranges all the same.
					en = set.listedBy[i]
				}
				if en != nil {
					ec.Owner = en.Owner.Value
					for _, r := range en.Nums {
						ec.Ranges = append(ec.Ranges, [2]int{int(r.Lo.Value), int(r.High.Value)})
					}
				}
				in = append(in, ec)
			}
			out, err := export.JSON(in)
			if err != nil {
				return err
			}
			_, err = e.stdout.Write(out)
			return err
		}
	},
}
