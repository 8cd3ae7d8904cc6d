package layered_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/errgen/errgen/examples/layered"
)

// toolExecution is the tool result the model reads: success and output.
type toolExecution struct {
	Success bool
	Output  json.RawMessage
}

// turn records what a turn did with the failures it met, as the runtime of
// the design handles them. It decides from the generated lookups only:
// TurnHandlingOf, ClassOf and the family helpers.
type turn struct {
	err      error           // what the turn returns; nil is Ok
	results  []toolExecution // tool results sent back to the model
	logs     []string        // log lines
	warnings []string        // Warning events
	context  []string        // memory context of the turn
	dropped  int             // events dropped silently
	skipped  int             // tool calls skipped by a hook
}

func newTurn() *turn { return &turn{context: []string{"earlier fact"}} }

func (t *turn) fail(err error) {
	handling, ok := layered.TurnHandlingOf(err)
	if !ok {
		t.err = &layered.Internal{Cause: err}
		return
	}
	var own layered.Error // the catalogue error itself, without the caller's wrapping
	for e := range layered.Chain(err) {
		own = e
		break
	}
	switch handling {
	case layered.TurnHandlingPropagate:
		t.err = err
	case layered.TurnHandlingReturnToModel:
		te, _ := layered.AsToolError(err)
		t.results = append(t.results, toolExecution{Success: false, Output: layered.ToolOutput(te)})
	case layered.TurnHandlingLogAndDegrade:
		t.logs = append(t.logs, own.Error())
		var read *layered.MemoryReadFailed
		if errors.As(err, &read) {
			t.warnings = append(t.warnings, layered.UserMessageOf(err))
			t.context = nil
		}
	case layered.TurnHandlingSilent:
		t.dropped++
	case layered.TurnHandlingFailOpen:
		var hook *layered.HookFailed
		if errors.As(err, &hook) && layered.ClassOf(err) == layered.ClassTerminal {
			t.err = &layered.Aborted{Hook: hook.Hook, Reason: hook.Cause.Error()}
			return
		}
		t.logs = append(t.logs, own.Error())
	case layered.TurnHandlingSkipTool:
		t.skipped++
	}
}

// outputError is the "error" the model reads in a tool result, whose
// output must hold that key and no other.
func outputError(t *testing.T, r toolExecution) string {
	t.Helper()
	var out map[string]string
	if err := json.Unmarshal(r.Output, &out); err != nil {
		t.Fatalf("tool result output %s: %v", r.Output, err)
	}
	if len(out) != 1 {
		t.Errorf("tool result output %s, want only the key \"error\"", r.Output)
	}
	return out["error"]
}

func Example() {
	for _, err := range []layered.ToolError{
		&layered.ToolNotFound{Tool: "web.search2", Available: "web.search, http.fetch"},
		&layered.PermissionDenied{Tool: "code.exec", Permission: "process:spawn"},
		&layered.ExecutionFailed{Message: "HTTP request failed: connection refused"},
	} {
		fmt.Println(err.Error())
	}
	// Output:
	// Tool 'web.search2' not found. Available: web.search, http.fetch
	// Permission denied: tool 'code.exec' requires 'process:spawn'
	// HTTP request failed: connection refused
}

// The tool result's output is {"error": ...}, the tool error's message
// (the tool_output projection). The LLM payload, with the code, the
// category and the retry flags, is there for a runtime that sends more.
func Example_toolResult() {
	for _, err := range []layered.ToolError{
		&layered.ToolNotFound{Tool: "web.search2", Available: "web.search, http.fetch"},
		&layered.PermissionDenied{Tool: "code.exec", Permission: "process:spawn"},
		&layered.ExecutionFailed{Message: "HTTP request failed: connection refused"},
	} {
		fmt.Println(string(layered.ToolOutput(err)))
	}
	// Output:
	// {"error":"Tool 'web.search2' not found. Available: web.search, http.fetch"}
	// {"error":"Permission denied: tool 'code.exec' requires 'process:spawn'"}
	// {"error":"HTTP request failed: connection refused"}
}

func ExampleTurnHandlingOf() {
	for _, err := range []error{
		&layered.LLM{Cause: errors.New("connection reset by peer")},
		&layered.ToolNotFound{Tool: "web.search2"},
		&layered.MemoryReadFailed{Cause: errors.New("database is locked")},
		&layered.EventDropped{Event: "Warning"},
		&layered.HookFailed{Hook: "audit_log", Cause: errors.New("sink unreachable")},
		&layered.ToolCallSkipped{Hook: "pre_tool", Tool: "shell.exec"},
	} {
		handling, _ := layered.TurnHandlingOf(fmt.Errorf("turn 1: %w", err))
		layer, _ := layered.LayerOf(err)
		fmt.Println(layered.CodeOf(err), layer, handling, layered.ClassOf(err))
	}
	// Output:
	// llm_failed llm propagate terminal
	// tool_not_found tool return_to_model non_fatal
	// memory_read_failed memory log_and_degrade non_fatal
	// event_dropped event silent non_fatal
	// hook_failed hook fail_open non_fatal
	// tool_call_skipped hook skip_tool non_fatal
}

func TestLayeredHandling(t *testing.T) {
	locked := errors.New("database is locked")
	tests := []struct {
		kind      string
		err       error
		failClose bool // the hook does not fail open
		handling  layered.TurnHandling
		layer     layered.Layer
		class     layered.Class
		endsWith  layered.Code // the AgentError the turn returns, "" for Ok
		toolError string       // the error the model reads in the tool result, "" for none
		logs      []string
		warnings  []string
		degraded  bool // the turn goes on without memory context
		dropped   bool
		skipped   bool
	}{
		{kind: "LLM failure is fatal", err: &layered.LLM{Cause: errors.New("connection reset by peer")},
			handling: layered.TurnHandlingPropagate, layer: layered.LayerLLM, class: layered.ClassTerminal, endsWith: layered.CodeLLM},
		{kind: "session-start hook aborts", err: &layered.Aborted{Hook: "session_start", Reason: "workspace is read-only"},
			handling: layered.TurnHandlingPropagate, layer: layered.LayerHook, class: layered.ClassTerminal, endsWith: layered.CodeAborted},
		{kind: "input fails validation", err: &layered.InputValidation{Message: "query: must not be empty"},
			handling: layered.TurnHandlingPropagate, layer: layered.LayerCore, class: layered.ClassTerminal, endsWith: layered.CodeInputValidation},
		{kind: "output fails serialization", err: &layered.OutputSerialization{Message: "unsupported value: NaN"},
			handling: layered.TurnHandlingPropagate, layer: layered.LayerCore, class: layered.ClassTerminal, endsWith: layered.CodeOutputSerialization},
		{kind: "unexpected error", err: &layered.Internal{Cause: errors.New("lock poisoned")},
			handling: layered.TurnHandlingPropagate, layer: layered.LayerCore, class: layered.ClassTerminal, endsWith: layered.CodeInternal},
		{kind: "tool not found", err: &layered.ToolNotFound{Tool: "web.search2", Available: "web.search, http.fetch"},
			handling: layered.TurnHandlingReturnToModel, layer: layered.LayerTool, class: layered.ClassNonFatal,
			toolError: "Tool 'web.search2' not found. Available: web.search, http.fetch"},
		{kind: "tool permission denied", err: &layered.PermissionDenied{Tool: "code.exec", Permission: "process:spawn"},
			handling: layered.TurnHandlingReturnToModel, layer: layered.LayerTool, class: layered.ClassNonFatal,
			toolError: "Permission denied: tool 'code.exec' requires 'process:spawn'"},
		{kind: "policy denies the tool", err: &layered.PolicyDenied{Tool: "shell.exec", Reason: "network access is disabled"},
			handling: layered.TurnHandlingReturnToModel, layer: layered.LayerTool, class: layered.ClassNonFatal,
			toolError: "Policy denied tool 'shell.exec': network access is disabled"},
		{kind: "tool execution fails", err: &layered.ExecutionFailed{Message: "HTTP request failed: connection refused"},
			handling: layered.TurnHandlingReturnToModel, layer: layered.LayerTool, class: layered.ClassNonFatal,
			toolError: "HTTP request failed: connection refused"},
		{kind: "hook aborts a tool call", err: &layered.ToolCallSkipped{Hook: "pre_tool", Tool: "shell.exec"},
			handling: layered.TurnHandlingSkipTool, layer: layered.LayerHook, class: layered.ClassNonFatal, skipped: true},
		{kind: "memory read fails", err: &layered.MemoryReadFailed{Cause: locked},
			handling: layered.TurnHandlingLogAndDegrade, layer: layered.LayerMemory, class: layered.ClassNonFatal,
			logs: []string{"Memory read failed: database is locked"}, warnings: []string{"Memory unavailable: database is locked"}, degraded: true},
		{kind: "memory write fails", err: &layered.MemoryWriteFailed{Cause: locked},
			handling: layered.TurnHandlingLogAndDegrade, layer: layered.LayerMemory, class: layered.ClassNonFatal,
			logs: []string{"Memory write failed: database is locked"}},
		{kind: "event has no receiver", err: &layered.EventDropped{Event: "Warning"},
			handling: layered.TurnHandlingSilent, layer: layered.LayerEvent, class: layered.ClassNonFatal, dropped: true},
		{kind: "hook fails open (default)", err: &layered.HookFailed{Hook: "audit_log", Cause: errors.New("audit sink unreachable")},
			handling: layered.TurnHandlingFailOpen, layer: layered.LayerHook, class: layered.ClassNonFatal,
			logs: []string{"hook audit_log failed: audit sink unreachable"}},
		{kind: "hook does not fail open", err: &layered.HookFailed{Hook: "audit_log", Cause: errors.New("audit sink unreachable")}, failClose: true,
			handling: layered.TurnHandlingFailOpen, layer: layered.LayerHook, class: layered.ClassTerminal, endsWith: layered.CodeAborted},
	}
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
			if tt.failClose {
				if err := layered.SetClassPolicy(layered.ClassPolicy{layered.CodeHookFailed: layered.ClassTerminal}); err != nil {
					t.Fatalf("SetClassPolicy(hook_failed: terminal) = %v, want nil: hook failures are configurable", err)
				}
				defer layered.SetClassPolicy(nil)
			}
			err := fmt.Errorf("run_turn: %w", tt.err)
			if got, ok := layered.TurnHandlingOf(err); !ok || got != tt.handling {
				t.Errorf("TurnHandlingOf = %q (%v), want %q", got, ok, tt.handling)
			}
			if got, ok := layered.LayerOf(err); !ok || got != tt.layer {
				t.Errorf("LayerOf = %q (%v), want %q", got, ok, tt.layer)
			}
			if got := layered.ClassOf(err); got != tt.class {
				t.Errorf("ClassOf = %v, want %v", got, tt.class)
			}
			if layered.IsRetryable(err) {
				t.Errorf("IsRetryable = true, want false: the design retries nothing itself")
			}

			tr := newTurn()
			tr.fail(err)

			if tt.endsWith == "" {
				if tr.err != nil {
					t.Errorf("turn returned %v, want Ok: this failure must not end the turn", tr.err)
				}
			} else {
				ae, ok := layered.AsAgentError(tr.err)
				if !ok || ae.Code() != tt.endsWith {
					t.Errorf("turn returned %v, want an AgentError with code %s", tr.err, tt.endsWith)
				}
			}
			if tt.toolError == "" {
				if len(tr.results) != 0 {
					t.Errorf("tool results %d, want none", len(tr.results))
				}
			} else if len(tr.results) != 1 {
				t.Errorf("tool results %d, want exactly one, returned to the model", len(tr.results))
			} else {
				r := tr.results[0]
				if r.Success {
					t.Errorf("tool result success = true, want false")
				}
				if got := outputError(t, r); got != tt.toolError {
					t.Errorf("tool result error = %q, want %q", got, tt.toolError)
				}
			}
			if fmt.Sprint(tr.logs) != fmt.Sprint(tt.logs) {
				t.Errorf("logs = %q, want %q", tr.logs, tt.logs)
			}
			if fmt.Sprint(tr.warnings) != fmt.Sprint(tt.warnings) {
				t.Errorf("Warning events = %q, want %q", tr.warnings, tt.warnings)
			}
			if got := len(tr.context) == 0; got != tt.degraded {
				t.Errorf("context empty = %v, want %v", got, tt.degraded)
			}
			if got := tr.dropped == 1; got != tt.dropped {
				t.Errorf("event dropped = %v, want %v", got, tt.dropped)
			}
			if got := tr.skipped == 1; got != tt.skipped {
				t.Errorf("tool call skipped = %v, want %v", got, tt.skipped)
			}
		})
	}
}

// Along the run_turn flow only two paths return an error: an LLM failure
// and a hook abort.
func TestOnlyTwoPathsEndTheTurn(t *testing.T) {
	flow := []error{
		&layered.Aborted{Hook: "session_start", Reason: "read-only"},
		&layered.MemoryReadFailed{Cause: errors.New("database is locked")},
		&layered.LLM{Cause: errors.New("connection reset by peer")},
		&layered.ToolCallSkipped{Hook: "pre_tool", Tool: "shell.exec"},
		&layered.PolicyDenied{Tool: "shell.exec", Reason: "denied"},
		&layered.ExecutionFailed{Message: "exit status 1"},
		&layered.MemoryWriteFailed{Cause: errors.New("disk full")},
		&layered.EventDropped{Event: "ToolCompleted"},
		&layered.HookFailed{Hook: "audit_log", Cause: errors.New("sink down")},
	}
	var ended []layered.Code
	for _, err := range flow {
		tr := newTurn()
		tr.fail(err)
		if tr.err != nil {
			ended = append(ended, layered.CodeOf(tr.err))
		}
	}
	if want := []layered.Code{layered.CodeAborted, layered.CodeLLM}; fmt.Sprint(ended) != fmt.Sprint(want) {
		t.Errorf("turn-ending failures = %v, want exactly %v", ended, want)
	}
}

// AgentError holds exactly the failures that end a turn: no tool, memory,
// policy or event error is one, and each of them is non-fatal.
func TestAgentErrorHoldsOnlyTurnEndingFailures(t *testing.T) {
	want := map[layered.Code]bool{
		layered.CodeLLM: true, layered.CodeAborted: true, layered.CodeInputValidation: true,
		layered.CodeOutputSerialization: true, layered.CodeInternal: true,
	}
	for _, info := range layered.All() {
		inAgentError := info.Family == "AgentError"
		if inAgentError != want[info.Code] {
			t.Errorf("%s: in AgentError = %v, want %v", info.Code, inAgentError, want[info.Code])
		}
		wantClass := layered.ClassNonFatal
		if inAgentError {
			wantClass = layered.ClassTerminal
		}
		if info.Class != wantClass {
			t.Errorf("%s: class %v, want %v", info.Code, info.Class, wantClass)
		}
		if info.Retryable {
			t.Errorf("%s: retryable, want not", info.Code)
		}
	}
	for _, err := range []error{
		&layered.ToolNotFound{}, &layered.PolicyDenied{}, &layered.MemoryReadFailed{}, &layered.EventDropped{},
	} {
		if _, ok := layered.AsAgentError(err); ok {
			t.Errorf("%T is an AgentError, want not", err)
		}
	}
	if len(want) != 5 {
		t.Errorf("AgentError has %d variants, want 5", len(want))
	}
}

func TestAgentErrorVariants(t *testing.T) {
	tests := []struct {
		err     layered.AgentError
		code    layered.Code
		num     int
		message string
	}{
		{&layered.LLM{Cause: errors.New("connection reset by peer")}, "llm_failed", 1, "LLM call failed: connection reset by peer"},
		{&layered.Aborted{Hook: "session_start", Reason: "workspace is read-only"}, "hook_rejected", 2, "hook session_start aborted the turn: workspace is read-only"},
		{&layered.InputValidation{Message: "query: must not be empty"}, "input_validation_failed", 3, "input validation failed: query: must not be empty"},
		{&layered.OutputSerialization{Message: "unsupported value: NaN"}, "output_serialization_failed", 4, "output serialization failed: unsupported value: NaN"},
		{&layered.Internal{Cause: errors.New("lock poisoned")}, "internal", 5, "internal error: lock poisoned"},
	}
	for _, tt := range tests {
		if tt.err.Code() != tt.code || tt.err.CodeNum() != tt.num || tt.err.Error() != tt.message {
			t.Errorf("%T: %s/%d %q, want %s/%d %q", tt.err, tt.err.Code(), tt.err.CodeNum(), tt.err.Error(), tt.code, tt.num, tt.message)
		}
		if tt.err.Class() != layered.ClassTerminal {
			t.Errorf("%T: class %v, want terminal", tt.err, tt.err.Class())
		}
	}
	// The LLM error and the catch-all keep what they wrap.
	cause := errors.New("connection reset by peer")
	if !errors.Is(&layered.LLM{Cause: cause}, cause) || !errors.Is(&layered.Internal{Cause: cause}, cause) {
		t.Errorf("errors.Is(wrapper, cause) = false, want the cause reachable")
	}
}

// Hook failures fail open unless the deployment says otherwise; only the
// hook code may be configured.
func TestHookFailOpenIsConfigurable(t *testing.T) {
	defer layered.SetClassPolicy(nil)
	err := &layered.HookFailed{Hook: "audit_log", Cause: errors.New("down")}
	if err.Class() != layered.ClassNonFatal {
		t.Errorf("default class %v, want non_fatal: hooks fail open by default", err.Class())
	}
	if e := layered.SetClassPolicy(layered.ClassPolicy{layered.CodeHookFailed: layered.ClassTerminal}); e != nil {
		t.Fatalf("SetClassPolicy: %v", e)
	}
	if err.Class() != layered.ClassTerminal {
		t.Errorf("class after policy %v, want terminal", err.Class())
	}
	if e := layered.SetClassPolicy(layered.ClassPolicy{layered.CodeMemoryReadFailed: layered.ClassTerminal}); e == nil {
		t.Errorf("SetClassPolicy(memory_read_failed) = nil, want a refusal: memory failures are never fatal")
	}
	if info, _ := layered.Lookup(layered.CodeHookFailed); !info.Configurable {
		t.Errorf("hook_failed Info.Configurable = false, want true")
	}
}
