package findings

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Record is a finding as the JSON printer writes it. Its field names are
// those of `conversion -o json`, which adds the kind, versions, values and
// witness of a finding after them.
type Record struct {
	File     string `json:"file,omitempty"`
	Line     int    `json:"line,omitempty"`
	Column   int    `json:"column,omitempty"`
	Severity string `json:"severity"`
	Rule     string `json:"rule"`
	Field    string `json:"field,omitempty"`
	Path     string `json:"path,omitempty"`
	CRD      string `json:"crd,omitempty"`
	Message  string `json:"message"`
	Fix      string `json:"fix,omitempty"`
}

// Record is f as the JSON printer writes it.
func (f Finding) Record() Record {
	return Record{File: f.Pos.Filename, Line: f.Pos.Line, Column: f.Pos.Column, Severity: f.Sev.String(),
		Rule: f.Rule, Field: f.GoPath, Path: f.JPath, CRD: f.CRD, Message: f.Msg, Fix: string(f.Fix)}
}

// WriteText writes each finding on its line, go vet style (String), in
// the order given.
func WriteText(w io.Writer, fs []Finding) error {
	bw := bufio.NewWriter(w)
	for _, f := range fs {
		if _, err := fmt.Fprintln(bw, f.String()); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// WriteJSON writes the findings as one indented JSON array of Records
// ([] for none).
func WriteJSON(w io.Writer, fs []Finding) error {
	out := make([]Record, 0, len(fs))
	for _, f := range fs {
		out = append(out, f.Record())
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// WriteMarkdown writes the findings as a markdown table, one row each:
// position, severity, rule, Go field (JSON path) and message; nothing for
// none.
func WriteMarkdown(w io.Writer, fs []Finding) error {
	if len(fs) == 0 {
		return nil
	}
	var b strings.Builder
	b.WriteString("| position | severity | rule | field | message |\n| --- | --- | --- | --- | --- |\n")
	for _, f := range fs {
		pos := ""
		if f.Pos.Filename != "" || f.Pos.IsValid() {
			pos = codeSpan(f.Pos.String())
		}
		field := ""
		if f.GoPath != "" {
			field = codeSpan(f.GoPath)
		}
		if f.JPath != "" {
			field = strings.TrimSpace(field + " (" + codeSpan(f.JPath) + ")")
		}
		if f.CRD != "" && f.GoPath == "" {
			field = "CRD " + codeSpan(f.CRD)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", pos, f.Sev, codeSpan(f.Rule), field, cell(f.Msg))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// cell is s in a table cell: pipes escaped, lines joined.
func cell(s string) string {
	s = strings.ReplaceAll(s, "\r", "")
	s = strings.ReplaceAll(s, "\n", " ")
	return strings.ReplaceAll(s, "|", `\|`)
}

// codeSpan is s as inline code in a table cell, with enough backticks to
// hold the backticks of s.
func codeSpan(s string) string {
	s = cell(s)
	ticks := "`"
	for strings.Contains(s, ticks) {
		ticks += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return ticks + " " + s + " " + ticks
	}
	return ticks + s + ticks
}

// Sort orders findings by position, keeping the order of those at one
// position.
func Sort(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i].Pos, fs[j].Pos
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
}
