module github.com/errgen/errgen

go 1.24

require go.yaml.in/yaml/v3 v3.0.6

require (
	github.com/google/go-cmp v0.7.0
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.2
	github.com/spf13/pflag v1.0.10
	golang.org/x/text v0.14.0 // indirect
	golang.org/x/tools v0.31.0
)
