package conversion

import (
	"fmt"
	"io"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// logRoundTrips writes one line per kind to log: for each version, how
// many of its random objects are valid and how many round trips came back
// and were compared (roundTrip; an object of the hub makes one per spoke).
// A version with none is checked by no round trip: its losses stay
// unseen, and the line says so.
func logRoundTrips(log io.Writer, k *Kind, rounds int, objs map[string][]map[string]any, trips map[string]int) {
	gk := schema.GroupKind{Group: k.Group, Kind: k.Kind}
	parts := make([]string, 0, len(k.Names()))
	for _, v := range k.Names() {
		p := fmt.Sprintf("%s %d round trips (%d of %d random objects valid)", v, trips[v], len(objs[v]), rounds)
		if trips[v] == 0 {
			p += " UNCHECKED"
		}
		parts = append(parts, p)
	}
	fmt.Fprintf(log, "conversion: %s: %s\n", gk, strings.Join(parts, ", "))
}
