package interspersed

import (
	"flag"
	"io"
	"slices"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		args []string
		crds []string
		o    string
		want []string
	}{
		{args: []string{"--crd", "c", "a.yaml"}, crds: []string{"c"}, want: []string{"a.yaml"}},
		{args: []string{"a.yaml", "--crd", "c", "b.yaml"}, crds: []string{"c"}, want: []string{"a.yaml", "b.yaml"}},
		{args: []string{"a.yaml", "-o=json", "b.yaml", "--crd=c"}, crds: []string{"c"}, o: "json", want: []string{"a.yaml", "b.yaml"}},
		{args: []string{"-", "--crd", "c"}, crds: []string{"c"}, want: []string{"-"}},
		{args: []string{"--crd", "c", "--", "-o", "x.yaml"}, crds: []string{"c"}, want: []string{"-o", "x.yaml"}},
		{args: []string{"a.yaml", "--", "--crd"}, want: []string{"a.yaml", "--crd"}},
		{args: nil, want: nil},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		var crds []string
		fs.Func("crd", "", func(v string) error { crds = append(crds, v); return nil })
		o := fs.String("o", "", "")
		got, err := Parse(fs, tc.args)
		if err != nil || !slices.Equal(got, tc.want) || !slices.Equal(crds, tc.crds) || *o != tc.o {
			t.Errorf("Parse(%q) = %q, %v; crds %q, o %q; want %q, crds %q, o %q", tc.args, got, err, crds, *o, tc.want, tc.crds, tc.o)
		}
	}
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if _, err := Parse(fs, []string{"a.yaml", "--nope"}); err == nil {
		t.Error("an unknown flag after an argument is no error")
	}
}
