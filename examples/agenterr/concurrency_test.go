package agenterr_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/errgen/errgen/examples/agenterr"
)

// readings is what a server computes from one error: every answer the
// package gives about it, rendered as text so that two readings compare.
func readings(err error) string {
	var b strings.Builder
	fmt.Fprintln(&b, agenterr.ClassOf(err), agenterr.IsRetryable(err), agenterr.CodeOf(err), agenterr.RootCodeOf(err), agenterr.UserMessageOf(err))
	if d, ok := agenterr.RetryAfterOf(err); ok {
		fmt.Fprintln(&b, "wait", d)
	}
	if d, ok := agenterr.RetryDelay(err, 1); ok {
		fmt.Fprintln(&b, "delay", d > 0)
	}
	for c := range agenterr.Chain(err) {
		fmt.Fprintln(&b, "link", c.Code(), c.Class(), c.Retryable())
	}
	var e agenterr.Error
	if errors.As(err, &e) {
		if p, ok := e.(interface {
			LLMPayload() *agenterr.Payload
			AppendLLMPayload([]byte) []byte
		}); ok {
			payload, jerr := json.Marshal(p.LLMPayload())
			fmt.Fprintf(&b, "payload %s %v\n%s\n", payload, jerr, p.AppendLLMPayload(nil))
		}
		wire, jerr := json.Marshal(e)
		fmt.Fprintf(&b, "wire %s %v\n", wire, jerr)
		if r, derr := agenterr.DecodePayload(wire); derr == nil {
			fmt.Fprintln(&b, "decoded", r.Code(), r.Class(), r.Retryable(), r.Error())
		} else {
			fmt.Fprintln(&b, "decode", derr)
		}
	}
	fmt.Fprintln(&b, logText(err))
	mcp, kind := agenterr.MCPResult(err, true)
	problem, status := agenterr.ProblemJSON(err, "/runs/7")
	fmt.Fprintf(&b, "%s %v\n%s %d\n", mcp, kind, problem, status)
	fmt.Fprintf(&b, "%s\n%s\n", agenterr.AnthropicToolResult("toolu_1", err), agenterr.OpenAIToolMessage("call_1", err))
	fmt.Fprintf(&b, "%s\n%s\n%s\n", agenterr.GRPCStatusJSON(err), agenterr.AgentResponse(err), agenterr.ToolOutput(err))
	if r, derr := agenterr.DecodeProblem(problem); derr == nil {
		fmt.Fprintln(&b, "problem back", r.Code(), r.Class(), r.Retryable())
	}
	if r, derr := agenterr.DecodeMCPResult(mcp); derr == nil {
		fmt.Fprintln(&b, "mcp back", r.Code(), r.Class(), r.Retryable())
	}
	return b.String()
}

// logText is the error logged as a server logs it, without the time.
func logText(err error) string {
	var b bytes.Buffer
	opts := &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey {
			return slog.Attr{}
		}
		return a
	}}
	slog.New(slog.NewTextHandler(&b, opts)).Info("failed", agenterr.LogAttr(err))
	return b.String()
}

// loggedClass is the class and retryability the log record of err holds.
func loggedClass(err error) (class string, retryable bool) {
	for _, a := range agenterr.LogValueOf(err).Group() {
		switch a.Key {
		case "class":
			class = a.Value.String()
		case "retryable":
			retryable = a.Value.Bool()
		}
	}
	return class, retryable
}

// sharedErrors are errors a server holds and hands to many requests at once:
// a configurable variant, wrapped and bare; a wrapper whose retryability is
// its cause's; a joined error; and a decoded one.
func sharedErrors(t *testing.T) []error {
	t.Helper()
	denied := &agenterr.PolicyDenied{Tool: "shell.exec", Policy: "no-network", Reason: "outbound network access is disabled"}
	modelCall := &agenterr.ModelCallFailed{Operator: "react_loop", Cause: &agenterr.RateLimited{Provider: "openai", RetryAfter: 2 * time.Second}}
	wire, err := json.Marshal(denied)
	if err != nil {
		t.Fatal(err)
	}
	decoded, err := agenterr.DecodePayload(wire)
	if err != nil {
		t.Fatal(err)
	}
	return []error{
		denied,
		fmt.Errorf("turn 3: %w", denied),
		modelCall,
		errors.Join(errors.New("cleanup failed"), modelCall),
		decoded,
		fmt.Errorf("relayed: %w", decoded),
	}
}

// A server sets its class policy at start-up and then reads the same
// errors from many goroutines: every reading gives what one goroutine
// alone gives. Under -race, the detector also checks that the readers
// share no unsynchronised state.
func TestConcurrentReadersAgree(t *testing.T) {
	t.Cleanup(func() { agenterr.SetClassPolicy(nil) })
	if err := agenterr.SetClassPolicy(agenterr.ClassPolicy{agenterr.CodePolicyDenied: agenterr.ClassTerminal}); err != nil {
		t.Fatal(err)
	}
	errs := sharedErrors(t)
	want := make([]string, len(errs))
	for i, err := range errs {
		want[i] = readings(err)
	}
	if !strings.Contains(want[0], "terminal") {
		t.Fatalf("the policy set at start-up is not read:\n%s", want[0])
	}
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range 20 {
				i := (g + n) % len(errs)
				if got := readings(errs[i]); got != want[i] {
					t.Errorf("goroutine %d, error %d: read\n%s\nwant\n%s", g, i, got, want[i])
					return
				}
			}
		}()
	}
	wg.Wait()
}

// SetClassPolicy and SetScrubber may run beside readers: each reader sees
// the old policy or the new one, and one answer never mixes them: a log
// line's class and retryable agree, and every projection stays JSON.
func TestClassPolicyChangesBesideReaders(t *testing.T) {
	t.Cleanup(func() {
		agenterr.SetClassPolicy(nil)
		agenterr.SetScrubber(nil)
	})
	policies := []agenterr.ClassPolicy{
		{agenterr.CodePolicyDenied: agenterr.ClassRetryable},
		{agenterr.CodePolicyDenied: agenterr.ClassTerminal},
	}
	errs := sharedErrors(t)
	if err := agenterr.SetClassPolicy(policies[0]); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var writer sync.WaitGroup
	writer.Add(1)
	go func() {
		defer writer.Done()
		for n := 1; ; n++ {
			select {
			case <-stop:
				return
			default:
			}
			if err := agenterr.SetClassPolicy(policies[n%2]); err != nil {
				t.Error(err)
				return
			}
			if n%2 == 0 {
				agenterr.SetScrubber(agenterr.ScrubSecrets)
			} else {
				agenterr.SetScrubber(nil)
			}
		}
	}()
	var readers sync.WaitGroup
	for g := range 8 {
		readers.Add(1)
		go func() {
			defer readers.Done()
			for n := range 100 {
				err := errs[(g+n)%len(errs)]
				if agenterr.CodeOf(err) != agenterr.CodePolicyDenied {
					continue
				}
				switch class := agenterr.ClassOf(err); class {
				case agenterr.ClassRetryable, agenterr.ClassTerminal:
				default:
					t.Errorf("ClassOf = %s, want retryable or terminal", class)
				}
				for range 50 {
					if class, retryable := loggedClass(err); (class == "retryable") != retryable {
						t.Errorf("a log record mixes two policies: class %s, retryable %v", class, retryable)
						return
					}
				}
				for _, projection := range [][]byte{agenterr.AgentResponse(err), agenterr.ToolOutput(err), agenterr.GRPCStatusJSON(err)} {
					if !json.Valid(projection) {
						t.Errorf("projection is not JSON: %s", projection)
					}
				}
			}
		}()
	}
	readers.Wait()
	close(stop)
	writer.Wait()
}
