// Package export renders resolved catalogues as one JSON document, the
// machine-readable form a TypeScript or Python service, a dashboard or an
// alerting rule reads instead of parsing YAML: every code, num, category,
// class, retry rule and policy, attribute value, field, payload key, HTTP
// status and user message, the reserved entries, and the owning
// catalogue. Its shape is published as a JSON Schema (Schema); the output
// is sorted and byte-identical from run to run.
package export

import (
	_ "embed"
	"encoding/json"
	"slices"
	"strings"

	"github.com/errgen/errgen/gen/model"
)

// Version is the version of the export's shape; a change that removes or
// renames a key increments it.
const Version = 1

//go:embed export.schema.json
var schemaJSON string

// Schema returns the JSON Schema (draft 2020-12) of the export.
func Schema() []byte { return []byte(schemaJSON) }

// Catalogue is one catalogue to export, and, when a registry lists it, its
// path in the registry, its owner and its ranges.
type Catalogue struct {
	Model *model.Catalogue
	// File names the catalogue in the export; "" for Model.File.
	File   string
	Owner  string
	Ranges [][2]int
}

type document struct {
	Version    int         `json:"version"`
	Catalogues []catalogue `json:"catalogues"`
}

type catalogue struct {
	File     string   `json:"file"`
	Package  string   `json:"package"`
	Owner    string   `json:"owner,omitempty"`
	Nums     [][2]int `json:"nums,omitempty"`
	CodeCase string   `json:"code_case"`
	Errors   []entry  `json:"errors"`
	Reserved reserved `json:"reserved"`
}

type reserved struct {
	Nums  []int    `json:"nums"`
	Codes []string `json:"codes"`
}

type entry struct {
	Code               string   `json:"code"`
	Num                int      `json:"num"`
	Name               string   `json:"name"`
	Family             string   `json:"family"`
	Category           string   `json:"category"`
	Class              string   `json:"class"`
	Retryable          bool     `json:"retryable"`
	RetryableFromCause bool     `json:"retryable_from_cause"`
	Configurable       bool     `json:"configurable"`
	SuppressRetry      bool     `json:"suppress_retry"`
	Message            string   `json:"message"`
	UserMessage        string   `json:"user_message"`
	UserMessageCause   bool     `json:"user_message_from_cause"`
	HTTPStatus         []string `json:"http_status"`
	PayloadType        string   `json:"payload_type,omitempty"`
	PayloadKeys        []string `json:"payload_keys"`
	Subcodes           []string `json:"subcodes"`
	Fields             []field  `json:"fields"`
	// Retry is its family's retry policy, null when it has none.
	Retry *retry `json:"retry"`
	// Attributes are its value of each attribute the catalogue declares,
	// by name, typed as the attribute is.
	Attributes map[string]any `json:"attributes"`
	Doc        string         `json:"doc,omitempty"`
}

// retry is a retry policy, its durations in whole milliseconds as the
// catalogue holds them.
type retry struct {
	MaxRetries int     `json:"max_retries"`
	BaseMS     int64   `json:"base_ms"`
	CapMS      int64   `json:"cap_ms"`
	Jitter     float64 `json:"jitter"`
}

type field struct {
	Name       string `json:"name"`
	Type       string `json:"type"`
	Payload    bool   `json:"payload"`
	Sensitive  bool   `json:"sensitive"`
	Cause      bool   `json:"cause"`
	RetryAfter bool   `json:"retry_after"`
	HTTPStatus bool   `json:"http_status"`
	Retryable  bool   `json:"retryable"`
	Unit       string `json:"unit,omitempty"`
}

// JSON returns the export of cats, sorted by file, each catalogue's errors
// by num, indented by two spaces and ending in a newline.
func JSON(cats []Catalogue) ([]byte, error) {
	doc := document{Version: Version, Catalogues: []catalogue{}}
	for _, c := range cats {
		doc.Catalogues = append(doc.Catalogues, render(c))
	}
	slices.SortFunc(doc.Catalogues, func(a, b catalogue) int { return strings.Compare(a.File, b.File) })
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

func render(c Catalogue) catalogue {
	m := c.Model
	file := c.File
	if file == "" {
		file = m.File
	}
	out := catalogue{File: file, Package: m.Package, Owner: c.Owner, Nums: c.Ranges, CodeCase: m.CodeCase.String(),
		Errors: []entry{}, Reserved: reserved{Nums: []int{}, Codes: []string{}}}
	for _, v := range m.ByNum {
		e := entry{
			Code: v.Code, Num: v.Num, Name: v.Name, Family: v.Family.Name, Category: v.Category.Name,
			Class: v.ClassRule().Static.String(), Retryable: v.Retry.Retryable, RetryableFromCause: v.Retry.FromCause,
			Configurable: v.Configurable, SuppressRetry: v.SuppressRetry, Message: v.Message.Text,
			UserMessage: v.UserMessage.Template.Text, UserMessageCause: v.UserMessage.CauseFirst, HTTPStatus: []string{}, PayloadType: v.Family.PayloadType,
			PayloadKeys: []string{}, Subcodes: []string{}, Fields: []field{}, Attributes: map[string]any{}, Doc: v.Doc,
		}
		if p := v.Family.Retry; p != nil {
			e.Retry = &retry{MaxRetries: p.MaxRetries, BaseMS: p.Base.Milliseconds(), CapMS: p.Cap.Milliseconds(), Jitter: p.Jitter}
		}
		for _, a := range v.Attrs {
			switch a.Attr.Type {
			case model.AttrBool:
				e.Attributes[a.Attr.Name] = a.Value.Bool
			case model.AttrInt:
				e.Attributes[a.Attr.Name] = a.Value.Int
			default:
				e.Attributes[a.Attr.Name] = a.Value.Str
			}
		}
		for _, r := range v.HTTP {
			e.HTTPStatus = append(e.HTTPStatus, r.Text)
		}
		for _, k := range v.Payload() {
			e.PayloadKeys = append(e.PayloadKeys, k.Name)
		}
		for _, sc := range v.Subcodes {
			e.Subcodes = append(e.Subcodes, sc.Code)
		}
		for _, f := range v.Fields {
			fd := field{Name: f.Name, Type: f.Type.Name, Payload: f.Payload, Sensitive: f.Sensitive, Cause: f.Type.IsCause(), RetryAfter: f.RetryAfter, HTTPStatus: f.HTTPStatus, Retryable: v.RetryableField == f}
			if f.Type.Kind == model.Duration {
				fd.Unit = f.Unit.Name
			}
			e.Fields = append(e.Fields, fd)
		}
		out.Errors = append(out.Errors, e)
	}
	for _, f := range m.Families {
		out.Reserved.Nums = append(out.Reserved.Nums, f.ReservedNums...)
		out.Reserved.Codes = append(out.Reserved.Codes, f.ReservedCodes...)
	}
	slices.Sort(out.Reserved.Nums)
	slices.Sort(out.Reserved.Codes)
	return out
}
