package cli_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// grpcRoundTrip is the test the module of TestGRPCFileInTempModule runs
// beside the reference catalogue's package: every example through
// GRPCStatus and back, the status's code and details, and the same status
// as GRPCStatusJSON writes it without gRPC.
const grpcRoundTrip = `package agenterr

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

func TestGRPCRoundTrip(t *testing.T) {
	for _, e := range errgenExamples() {
		st := GRPCStatus(e)
		i, _ := lookupCode(e.Code())
		if int(st.Code()) != grpcCodes[i] || st.Message() != e.Error() {
			t.Errorf("%s: status %v %q", e.Code(), st.Code(), st.Message())
		}
		var info *errdetails.ErrorInfo
		var local *errdetails.LocalizedMessage
		for _, d := range st.Details() {
			switch d := d.(type) {
			case *errdetails.ErrorInfo:
				info = d
			case *errdetails.LocalizedMessage:
				local = d
			}
		}
		if info == nil || info.Domain != grpcDomain || local == nil || local.Message != e.UserMessage() {
			t.Errorf("%s: details %v", e.Code(), st.Details())
		}
		r, err := FromGRPCStatus(st)
		if err != nil {
			t.Fatalf("%s: %v", e.Code(), err)
		}
		var got variant
		if !errors.As(r, &got) || reflect.TypeOf(got) != reflect.TypeOf(e) || got.CodeNum() != e.CodeNum() {
			t.Errorf("%s: decoded %v", e.Code(), r)
			continue
		}
		if have, want := string(appendFields(nil, got, i, false, false, 0, nil, appendKey)), string(appendFields(nil, e, i, false, false, 0, nil, appendKey)); have != want {
			t.Errorf("%s: fields %s, want %s", e.Code(), have, want)
		}
		// The JSON mapping of the same status, as protobuf writes it.
		pj, err := protojson.Marshal(st.Proto())
		if err != nil {
			t.Fatal(err)
		}
		var a, b any
		json.Unmarshal(pj, &a)
		json.Unmarshal(GRPCStatusJSON(e), &b)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: GRPCStatusJSON differs from protojson of GRPCStatus:\n%s\n%s", e.Code(), GRPCStatusJSON(e), pj)
		}
	}
	// An error outside the catalogue has no user message, so no
	// LocalizedMessage, in either form.
	foreign := errors.New("disk full")
	pj, err := protojson.Marshal(GRPCStatus(foreign).Proto())
	if err != nil {
		t.Fatal(err)
	}
	var a, b any
	json.Unmarshal(pj, &a)
	json.Unmarshal(GRPCStatusJSON(foreign), &b)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("an error outside the catalogue: GRPCStatusJSON differs from protojson of GRPCStatus:\n%s\n%s", GRPCStatusJSON(foreign), pj)
	}
	// Text that is not valid UTF-8 reaches the status as GRPCStatusJSON
	// writes it, U+FFFD for each bad byte: protobuf refuses such a string,
	// and gRPC would drop every detail.
	bad := &ExecutionFailed{Tool: "t\xff", Message: "bad \xff\xfe bytes"}
	if _, err := proto.Marshal(GRPCStatus(bad).Proto()); err != nil {
		t.Errorf("a status of text that is not valid UTF-8 does not marshal: %v", err)
	}
	pj, err = protojson.Marshal(GRPCStatus(bad).Proto())
	if err != nil {
		t.Fatal(err)
	}
	a, b = nil, nil
	json.Unmarshal(pj, &a)
	json.Unmarshal(GRPCStatusJSON(bad), &b)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("text that is not valid UTF-8: GRPCStatusJSON differs from protojson of GRPCStatus:\n%s\n%s", GRPCStatusJSON(bad), pj)
	}
	// A wrapper's wait travels in RetryInfo, and with it its retryability;
	// its user message, its cause's, in LocalizedMessage.
	e := &ModelCallFailed{Operator: "react", Cause: &RateLimited{Provider: "openai", RetryAfter: 2 * time.Second}}
	r, err := FromGRPCStatus(GRPCStatus(e))
	if err != nil {
		t.Fatal(err)
	}
	if d, ok := RetryAfterOf(r); !ok || d != 2*time.Second || !IsRetryable(r) {
		t.Errorf("FromGRPCStatus of a wrapped rate limit: RetryAfterOf %v, %v; IsRetryable %v", d, ok, IsRetryable(r))
	}
	if r.UserMessage() != e.UserMessage() {
		t.Errorf("FromGRPCStatus of a wrapped rate limit: user message %q, want %q", r.UserMessage(), e.UserMessage())
	}
	// A status of code OK says the call succeeded, whatever details it
	// holds, and is refused, as DecodeGRPCStatusJSON refuses its JSON.
	succeeded := GRPCStatus(e).Proto()
	succeeded.Code = 0
	if r, err := FromGRPCStatus(status.FromProto(succeeded)); err == nil || !strings.Contains(err.Error(), "code 0 (OK)") {
		t.Errorf("FromGRPCStatus of a status of code OK: %v, %v", r, err)
	}
	if _, err := DecodeGRPCStatusJSON([]byte(protojson.Format(succeeded))); err == nil {
		t.Error("DecodeGRPCStatusJSON of a status of code OK decoded")
	}
	// A status past the 1 MiB every decoder reads is refused, as
	// DecodeGRPCStatusJSON refuses its JSON.
	big := &ExecutionFailed{Tool: "t", Message: strings.Repeat("x", 2<<20)}
	if _, err := FromGRPCStatus(GRPCStatus(big)); err == nil || !strings.Contains(err.Error(), "at most 1048576 are decoded") {
		t.Errorf("FromGRPCStatus of a 2 MiB status: %v", err)
	}
}
`

// TestGRPCFileInTempModule: errgen_grpc.go, which only generate --grpc
// writes, builds, vets and passes a round trip in a module of its own that
// requires gRPC (fetched through the module proxy), without which errgen's
// own module never depends on gRPC.
func TestGRPCFileInTempModule(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to compile the gRPC file: %v", err)
	}
	root := t.TempDir()
	dir := filepath.Join(root, "agenterr")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	ref, err := os.ReadFile("../../errors.yaml")
	if err != nil {
		t.Fatal(err)
	}
	write := func(path, data string) {
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(root, "go.mod"), "module example.com/grpcgen\n\ngo 1.24\n")
	write(filepath.Join(dir, "errors.yaml"), string(ref))
	write(filepath.Join(dir, "grpc_roundtrip_test.go"), grpcRoundTrip)
	if code, _, stderr := runCLI(t, "generate", "--grpc", filepath.Join(dir, "errors.yaml")); code != 0 {
		t.Fatalf("errgen generate --grpc exited %d:\n%s", code, stderr)
	}
	for _, args := range [][]string{
		// Pinned, as grpc v1.71.0 asks: a later genproto may need a newer Go
		// than the go 1.24 errgen supports.
		{"get", "google.golang.org/grpc@v1.71.0", "google.golang.org/genproto/googleapis/rpc@v0.0.0-20250115164207-1a7da9e5054f"},
		{"mod", "tidy"},
		{"vet", "./..."},
		{"test", "-count=1", "./..."},
	} {
		cmd := exec.Command(goBin, args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s in the gRPC module failed: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	// Without --grpc, the file is not left behind silently.
	if code, _, stderr := runCLI(t, "generate", filepath.Join(dir, "errors.yaml")); code != 1 || !strings.Contains(stderr, "errgen_grpc.go") {
		t.Errorf("generate without --grpc over errgen_grpc.go exited %d:\n%s", code, stderr)
	}
}

// TestGRPCNeedsTheProjection: --grpc on a catalogue that does not select
// the grpc projection is a catalogue problem at its projections: key (or
// its top), and nothing is written.
func TestGRPCNeedsTheProjection(t *testing.T) {
	for _, tc := range []struct{ extra, at string }{
		{"", ":1:1: "},
		{"projections: [mcp]\n", fmt.Sprintf(":%d:1: ", strings.Count(validCatalogue, "\n")+1)},
	} {
		path := writeCatalogue(t, validCatalogue+tc.extra)
		code, _, errOut := runCLI(t, "generate", "--grpc", path)
		if code != 1 || !strings.Contains(errOut, path+tc.at+"--grpc writes errgen_grpc.go, which needs the grpc projection") {
			t.Errorf("projections %q: exit %d, stderr:\n%s", tc.extra, code, errOut)
		}
		if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
			t.Errorf("projections %q: %d files in the folder, want only the catalogue", tc.extra, len(entries))
		}
	}
}
