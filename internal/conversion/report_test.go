package conversion

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"testing"
)

// TestCheckReports: each finding carries the seed, its kind's round trips
// and the whole object that showed it; the log says per version how many
// round trips ran; -o json writes them as seed, witness and roundTrips.
func TestCheckReports(t *testing.T) {
	ctx := context.Background()
	k := widgetKind(t, widgetCRD(t, nil))
	var log bytes.Buffer
	fs, err := Check(ctx, &widgetConverter{}, k, noPositions{}, 20, 7, &log)
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^conversion: Widget\.conv\.example\.com: v1 [1-9]\d* round trips \(\d+ of 20 random objects valid\), v1beta1 [1-9]\d* round trips`).Match(log.Bytes()) {
		t.Errorf("no round-trip line in the log:\n%s", log.String())
	}
	var lost *Finding
	for i, f := range fs {
		if f.Seed != 7 || f.RoundTrips["v1"] == 0 || f.RoundTrips["v1beta1"] == 0 {
			t.Errorf("%s: seed %d, round trips %v", f, f.Seed, f.RoundTrips)
		}
		if f.Witness == nil {
			t.Errorf("%s: no witness", f)
		}
		if f.Rule == RuleLostField {
			lost = &fs[i]
		}
	}
	if lost == nil {
		t.Fatal("no conversion-lost-field finding")
	}
	if got := get(lost.Witness, Path{{Name: "spec"}, {Name: "color"}}); !sameValue(got, lost.Values[0]) {
		t.Errorf("the witness %s does not hold the value lost %s", Show(lost.Witness), Show(lost.Values[0]))
	}
	var out bytes.Buffer
	if err := Write(&out, []Finding{*lost}, "json"); err != nil {
		t.Fatal(err)
	}
	var js []map[string]any
	if err := json.Unmarshal(out.Bytes(), &js); err != nil || len(js) != 1 {
		t.Fatalf("%v: %s", err, out.String())
	}
	for _, key := range []string{"seed", "witness", "roundTrips", "file", "values", "message"} {
		if _, ok := js[0][key]; !ok {
			t.Errorf("no %s in %s", key, out.String())
		}
	}
}
