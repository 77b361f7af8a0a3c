// Package codeid names the code that is running, for caches of results
// that are a pure function of their input and of that code: the check
// cache (internal/apiserver/checkcache).
package codeid

import (
	"crypto/sha256"
	"fmt"
	"os"
	"runtime/debug"
	"slices"

	utilfeature "k8s.io/apiserver/pkg/util/feature"
)

// Identity is a digest of the code that runs: the Go version and every
// module of the build with its version and checksum; for a build without
// versions (a checkout, a test binary) the executable itself, by path,
// size and modification time; and the state of every feature gate of the
// apiserver's code, which decides what its checks accept. nil when the
// executable cannot be named: then nothing may be cached.
func Identity() []byte {
	h := sha256.New()
	info, ok := debug.ReadBuildInfo()
	versioned := ok && info.Main.Version != "" && info.Main.Version != "(devel)" && info.Main.Sum != ""
	if ok {
		fmt.Fprintln(h, info.GoVersion, info.Main.Path, info.Main.Version, info.Main.Sum)
		for _, d := range info.Deps {
			fmt.Fprintln(h, d.Path, d.Version, d.Sum)
			if d.Replace != nil {
				fmt.Fprintln(h, "=>", d.Replace.Path, d.Replace.Version, d.Replace.Sum)
			}
		}
	}
	if !versioned {
		exe, err := os.Executable()
		if err != nil {
			return nil
		}
		st, err := os.Stat(exe)
		if err != nil {
			return nil
		}
		fmt.Fprintln(h, exe, st.Size(), st.ModTime().UnixNano())
	}
	var gates []string
	for g := range utilfeature.DefaultMutableFeatureGate.GetAll() {
		gates = append(gates, fmt.Sprintf("%s=%t", g, utilfeature.DefaultFeatureGate.Enabled(g)))
	}
	slices.Sort(gates)
	for _, g := range gates {
		fmt.Fprintln(h, g)
	}
	return h.Sum(nil)
}
