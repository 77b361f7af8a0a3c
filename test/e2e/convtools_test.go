package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"sigs.k8s.io/yaml"

	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/testkit"
)

// copyConvapi copies testdata/convapi (its module, API packages, CRDs and
// commands) to a new temporary directory and returns it: the commands run
// there as a user runs them in their module.
func copyConvapi() string {
	GinkgoHelper()
	dst := GinkgoT().TempDir()
	err := filepath.WalkDir(convapiDir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(convapiDir, path)
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	Expect(err).NotTo(HaveOccurred())
	return dst
}

// runIn runs bin with args in dir outside any Go workspace, and returns
// its stdout and exit status; stderr goes to the Ginkgo log.
func runIn(dir, bin string, args ...string) ([]byte, int) {
	GinkgoHelper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	var stdout bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, GinkgoWriter
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return stdout.Bytes(), exit.ExitCode()
	}
	Expect(err).NotTo(HaveOccurred(), "%s %v", bin, args)
	return stdout.Bytes(), 0
}

// conversionFinding is a finding of `controller-gen-default conversion -o
// json`.
type conversionFinding struct {
	File     string   `json:"file"`
	Line     int      `json:"line"`
	Column   int      `json:"column"`
	Rule     string   `json:"rule"`
	Field    string   `json:"field"`
	Path     string   `json:"path"`
	Kind     string   `json:"kind"`
	Versions []string `json:"versions"`
	Values   []any    `json:"values"`
	Message  string   `json:"message"`
}

func (f conversionFinding) pos() string { return fmt.Sprintf("%s:%d:%d", f.File, f.Line, f.Column) }

// goPos is FILE:LINE:COL of the first line of file (relative to dir) that
// contains decl, at decl, as the findings write positions.
func goPos(dir, file, decl string) string {
	GinkgoHelper()
	b, err := os.ReadFile(filepath.Join(dir, file))
	Expect(err).NotTo(HaveOccurred())
	for i, line := range strings.Split(string(b), "\n") {
		if j := strings.Index(line, decl); j >= 0 {
			return fmt.Sprintf("%s:%d:%d", file, i+1, j+1)
		}
	}
	Fail(fmt.Sprintf("%s: no line with %q", file, decl))
	return ""
}

// impactRecord is what a record of `controller-gen-default impact -o json`
// says about one object, as far as the live apiserver can tell.
type impactRecord struct {
	APIVersion  string `json:"apiVersion"`
	Namespace   string `json:"namespace"`
	Name        string `json:"name"`
	ReadVersion string `json:"readVersion"`
	Changes     struct {
		Added   []string `json:"added"`
		Removed []string `json:"removed"`
		Changed []string `json:"changed"`
	} `json:"changes"`
	Conversion       string        `json:"conversion"`
	AtStorageVersion *impactRead   `json:"atStorageVersion"`
	AfterWrite       *impactRead   `json:"afterWrite"`
	Update           *impactUpdate `json:"update"`
}

type impactRead struct {
	Version string         `json:"version"`
	Object  map[string]any `json:"object"`
}

type impactUpdate struct {
	Refused  bool `json:"refused"`
	Problems []struct {
		Field string `json:"field"`
	} `json:"problems"`
}

// writeObjects writes objects as a YAML stream to a new file of dir and
// returns its path.
func writeObjects(dir, name string, objects []map[string]any) string {
	GinkgoHelper()
	var b bytes.Buffer
	for _, o := range objects {
		y, err := yaml.Marshal(o)
		Expect(err).NotTo(HaveOccurred())
		b.WriteString("---\n")
		b.Write(y)
	}
	path := filepath.Join(dir, name)
	Expect(os.WriteFile(path, b.Bytes(), 0o644)).To(Succeed())
	return path
}

// withNormalize is the generator binary with
// controller-gen-default-objects next to it: its impact and conversion
// subcommands run that binary. internal/testsupport/testkit builds the two into one
// directory.
func withNormalize() string {
	GinkgoHelper()
	bin := filepath.Join(filepath.Dir(generator), testkit.Objects)
	Expect(testkit.Binary(GinkgoT(), testkit.Objects)).To(Equal(bin), "controller-gen-default-objects is not next to %s", generator)
	return generator
}

// parseImpact reads the JSON records of impact -o json, by name.
func parseImpact(out []byte) map[string]impactRecord {
	GinkgoHelper()
	recs := map[string]impactRecord{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var r impactRecord
		Expect(json.Unmarshal(sc.Bytes(), &r)).To(Succeed(), "an impact record: %s", sc.Bytes())
		recs[r.Name] = r
	}
	Expect(sc.Err()).NotTo(HaveOccurred())
	return recs
}
