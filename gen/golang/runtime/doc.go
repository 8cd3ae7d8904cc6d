// Package runtime is the fixed part of every package errgen generates: the
// algorithms that walk wrap chains, render templates, encode and decode
// payloads and log, and the golden-file test harness. errgen embeds
// runtime.go and harness_test.go and writes them into each generated
// package as errgen_runtime.go and errgen_runtime_test.go, changing only
// their first line and their package clause.
//
// It is a real package so that it compiles, is vetted and is tested on its
// own: standin.go and standin_test.go are errgen's output for the small
// catalogue testdata/standin.yaml (kept up to date by errgen's tests), and
// runtime_test.go tests the behaviour every generated package shares.
package runtime
