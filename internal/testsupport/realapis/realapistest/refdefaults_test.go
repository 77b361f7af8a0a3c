package realapistest

import "testing"

func TestOnlyRefDefaults(t *testing.T) {
	a := []byte("azureDisk:\n  properties:\n    cachingMode:\n      type: string\n    kind:\n      type: string\n")
	refs := map[string]bool{"cachingMode": true}
	b := []byte("azureDisk:\n  properties:\n    cachingMode:\n      default: ReadWrite\n      type: string\n    kind:\n      type: string\n")
	if added, ok := OnlyRefDefaults(a, b, refs); !ok || len(added) != 1 || added[0] != "cachingMode: default: ReadWrite" {
		t.Errorf("a ref() default: %v %v", added, ok)
	}
	other := []byte("azureDisk:\n  properties:\n    cachingMode:\n      type: string\n    kind:\n      default: Shared\n      type: string\n")
	if _, ok := OnlyRefDefaults(a, other, refs); ok {
		t.Error("a default on a field without a ref() marker was accepted")
	}
	// a default both files have under a property of a ref() name is not
	// an added one
	kept := []byte("runtimeRef:\n  properties:\n    kind:\n      default: ClusterTrainingRuntime\n      type: string\n")
	refs["kind"] = true
	if added, ok := OnlyRefDefaults(kept, kept, refs); ok || len(added) != 0 {
		t.Errorf("identical files: %v %v", added, ok)
	}
	keptB := []byte("runtimeRef:\n  properties:\n    kind:\n      default: ClusterTrainingRuntime\n      type: string\n    cachingMode:\n      default: ReadWrite\n      type: string\n")
	keptA := []byte("runtimeRef:\n  properties:\n    kind:\n      default: ClusterTrainingRuntime\n      type: string\n    cachingMode:\n      type: string\n")
	if added, ok := OnlyRefDefaults(keptA, keptB, refs); !ok || len(added) != 1 || added[0] != "cachingMode: default: ReadWrite" {
		t.Errorf("a ref() default next to a default both have: %v %v", added, ok)
	}
	dropped := []byte("runtimeRef:\n  properties:\n    kind:\n      type: string\n    cachingMode:\n      default: ReadWrite\n      type: string\n")
	if _, ok := OnlyRefDefaults(keptA, dropped, refs); ok {
		t.Error("a default dropped from a property of a ref() name was accepted")
	}
	changed := []byte("azureDisk:\n  properties:\n    cachingMode:\n      default: ReadWrite\n      type: integer\n    kind:\n      type: string\n")
	if _, ok := OnlyRefDefaults(a, changed, refs); ok {
		t.Error("a changed line was accepted")
	}
}
